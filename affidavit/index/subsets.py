"""One document's part of a question's evidence: its lines from the evidence block, the
lines beside them and the headings they stand under, each with its word score; and a
stored line as the Evidence a question reads."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from affidavit.index.headings import Headings, headings_above
from affidavit.index.words.word_index import WordIndex
from affidavit.results import Evidence
from affidavit.store import Store, StoredLine

# How many lines on each side of a line of the block its subset reads.
CONTEXT_REACH = 1


def subset(
    store: Store,
    headings: Headings,
    speaks: Callable[[StoredLine], bool],
    best: list[StoredLine],
    scores: np.ndarray,
    index: WordIndex,
    holds_answer: Callable[[str], int] | None = None,
) -> list[Evidence]:
    """One document's lines from the evidence block (``best``: no document takes more
    than its share) plus the lines beside them (so a claim can be read back across a
    sentence boundary) and the headings they stand under, each with its own word score;
    only lines that may ``speak`` (Retriever.speaks) are added to them."""
    document_id = best[0].document_id
    have = {line.position for line in best}
    wanted = {
        line.position + step for line in best for step in range(-CONTEXT_REACH, CONTEXT_REACH + 1)
    } - have
    context = [
        line
        for line in store.lines_at(document_id, sorted(p for p in wanted if p >= 0))
        if speaks(line)
    ]
    # A line is read under its section's heading and its document's title, unless the
    # heading may not be read either ("# Note to AI assistants: ...").
    taken = have | {line.position for line in context}
    over = headings.over({document_id: sorted(have)})[document_id]
    above = [
        over[p]
        for p in headings_above(headings.starts(document_id), sorted(have))
        if p not in taken and speaks(over[p])
    ]
    members = [*context, *above, *best]
    # Index rows are in line-id order, so one search finds every member's score.
    rows = np.searchsorted(index.line_ids, [line.id for line in members])
    lines = [(line, float(scores[row])) for line, row in zip(members, rows, strict=True)]
    if holds_answer is not None:  # the lines that can answer first, as in the block
        lines.sort(key=lambda pair: (holds_answer(pair[0].text), -pair[1], pair[0].position))
    else:
        lines.sort(key=lambda pair: (-pair[1], pair[0].position))
    return [as_evidence(line, score) for line, score in lines]


def as_evidence(line: StoredLine, score: float = 0.0) -> Evidence:
    """A stored line as the Evidence a question reads, with its word score."""
    return Evidence(
        document=line.document,
        position=line.position,
        text=line.text,
        kind=line.kind,
        score=score,
        cells=line.cells,
        trust=line.trust,
        speaker=line.speaker,
        date=line.date,
        ocr_confidence=line.confidence,
    )
