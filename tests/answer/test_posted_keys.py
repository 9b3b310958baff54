"""A line's key terms read from the word index's posting lists are the ones its words
give (the support tier's line_terms), line for line, on real text; where the two could
differ (a table row, a single-letter key, the stem of a number word) the words are read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.archive.posted import PostedKeys
from affidavit.gates.context import line_terms
from affidavit.text.analyzer import analyzer_for
from affidavit.text.content import content_terms

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
QUESTIONS = [
    json.loads(line)["question"]
    for line in (CORPORA / "xquad_slice" / "questions.jsonl").read_text("utf-8").splitlines()
    if json.loads(line).get("language", "en") == "en"
][:120]


@pytest.fixture(scope="module")
def memory() -> Memory:
    memory = Memory(dense=False)
    memory.ingest(
        [
            *ARTICLES,
            *sorted((CORPORA / "office").glob("*.docx")),
            CORPORA / "demo" / "site-handbook.md",
        ]
    )
    return memory


# Questions whose key words lines abbreviate ("Mr.", "No.", "Dept."), read both ways.
SPELLED = ["Which mister was the catalog number's department head?", "What number is the street?"]


@pytest.mark.parametrize("at_once", [False, True], ids=["line by line", "rows at once"])
def test_posted_key_terms_are_the_words_key_terms(memory: Memory, at_once: bool) -> None:
    analyzer = analyzer_for("en")
    index = memory._retriever.words()
    lines = memory._retriever.stored_lines(index.line_ids.tolist())
    read = 0
    for question in [*SPELLED, *QUESTIONS]:
        keys = content_terms(question, analyzer)
        posted = PostedKeys.of(keys, analyzer, index)
        if posted is None:
            continue
        if at_once:
            posted.know(np.arange(index.size))
        for line in lines[:: max(len(lines) // 400, 1)]:
            carried = posted.carried(line)
            if carried is not None:
                read += 1
                assert carried == line_terms(line, analyzer) & keys, (question, line.text)
    assert read > 10_000


def test_rows_and_awkward_keys_are_read_from_their_words(memory: Memory) -> None:
    analyzer = analyzer_for("en")
    index = memory._retriever.words()
    assert PostedKeys.of(frozenset({"x", "permit"}), analyzer, index) is None
    assert PostedKeys.of(frozenset({analyzer.term("three")}), analyzer, index) is None
    posted = PostedKeys.of(frozenset({"handgun"}), analyzer, index)
    assert posted is not None
    rows = [line for line in memory._retriever.stored_lines(index.line_ids.tolist()) if line.cells]
    assert rows and all(posted.carried(row) is None for row in rows)


@pytest.mark.parametrize("at_once", [False, True], ids=["line by line", "rows at once"])
def test_written_abbreviations_are_spelled_out(at_once: bool) -> None:
    """A line's written abbreviations are spelled out: "XYZ Corp." carries a corporation
    ("Cat. No. 11368V" is read as a field, by its words)."""
    written = (CORPORA / "pdf_text_dumps" / "i1040nr.pdfminer.txt").read_text("utf-8")
    kept = written.splitlines()
    memory = Memory(dense=False)
    memory.ingest_text("\n".join(kept[170:200] + kept[2570:2590]), name="i1040nr.txt")
    analyzer = analyzer_for("en")
    index = memory._retriever.words()
    keys = content_terms("What is the catalog number of the corporation's form?", analyzer)
    posted = PostedKeys.of(keys, analyzer, index)
    assert posted is not None
    if at_once:
        posted.know(np.arange(index.size))
    spelled = set()
    for line in memory._retriever.stored_lines(index.line_ids.tolist()):
        carried = posted.carried(line)
        if carried is None:
            continue
        assert carried == line_terms(line, analyzer) & keys, line.text
        spelled |= carried - set(analyzer.terms(line.text))
    assert "corpor" in spelled


def test_many_key_terms_are_read_at_once_as_line_by_line(memory: Memory) -> None:
    """Seventy key terms (a long question's), read for every row at once: each line's are
    those its words give."""
    analyzer = analyzer_for("en")
    index = memory._retriever.words()
    common = sorted(index.vocabulary, key=lambda t: -index.line_counts[:, index.vocabulary[t]].nnz)
    readable = [t for t in common if PostedKeys.of(frozenset({t}), analyzer, index) is not None]
    keys = frozenset(readable[:70])  # no number word among them (read from the words)
    posted = PostedKeys.of(keys, analyzer, index)
    assert posted is not None and len(keys) == 70
    posted.know(np.arange(index.size))
    lines = memory._retriever.stored_lines(index.line_ids.tolist())
    read = [(line, posted.carried(line)) for line in lines]
    assert sum(carried is not None for _, carried in read) > 500
    for line, carried in read:
        if carried is not None:
            assert carried == line_terms(line, analyzer) & keys, line.text
