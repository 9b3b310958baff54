"""The census: which documents speak of a question, counted by the support tier's own test."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from affidavit.archive.posted import PostedKeys, held_rows
from affidavit.gates import MIN_CARRIED, SUPPORT_REACH, KeyWords, headings_standing_over, line_terms
from affidavit.index import Retriever, Scope, WordIndex
from affidavit.results import LineKind
from affidavit.store import StoredLine
from affidavit.text import Analyzer, in_words, name_terms, short_forms

# The most lines holding the rarest key word that one census reads; past it, it says so.
CENSUS_LIMIT = 2000


@dataclass(frozen=True, slots=True)
class Census:
    documents: dict[str, int]  # document -> lines that speak of the question, most first
    rarest: str | None  # its rarest key word, as the question wrote it ("harness")
    complete: bool  # False when the rarest word's lines passed CENSUS_LIMIT

    @property
    def line(self) -> str:
        """One line of store-attested fact, saying how it was counted."""
        if self.rarest is None:
            return "No document speaks of this: the store writes none of the question's key words."
        how = (
            f"lines carrying its rarest key word ({self.rarest!r}) and at least "
            f"{MIN_CARRIED:.0%} of its rarity-weighted key words, with the lines beside them"
        )
        if not self.documents:
            return f"No document speaks of this ({how})."
        n = len(self.documents)
        parts = ", ".join(
            f"{name} ({count} line{'s' if count != 1 else ''})"
            for name, count in self.documents.items()
        )
        first = "At least " if not self.complete else ""
        return (
            f"{first}{n} document{'s' if n != 1 else ''} speak{'s' if n == 1 else ''} of this "
            f"({how}): {parts}."
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": dict(self.documents),
            "rarest": self.rarest,
            "complete": self.complete,
            "line": self.line,
        }


def take_census(
    retriever: Retriever,
    keys: KeyWords,
    analyzer: Analyzer,
    scope: Scope | None = None,
) -> Census:
    """Count, per document, the lines that carry ``keys`` by the support tier's test.

    A line speaks of a question when it, with the lines beside it, carries the question's
    distinctive words exactly as the exit gate's support tier asks of an answer's lines
    (gates/support.py): its rarest key word and most of their weight. Only lines that hold
    the rarest key word (or the abbreviation a document writes for it) can pass, so the
    census reads that word's posting list, never the whole store. Lines the retriever does
    not let speak are not counted (``Retriever.speaks``: below the speaking threshold, or
    giving orders to a model), nor read as context, nor lines outside ``scope``
    (a question scoped to one licence is not contested by another's fee).
    """
    rarest = keys.rarest
    if rarest is None:
        return Census({}, None, True)
    rarest_word = keys.rarest_word
    index = retriever.words()
    columns = [index.vocabulary.get(rarest)]
    columns += [index.vocabulary.get(t) for t in analyzer.terms(" ".join(short_forms(rarest)))]
    postings = index.line_counts
    held = np.unique(
        np.concatenate(
            [np.zeros(0, dtype=np.int64)]
            + [
                postings.indices[postings.indptr[column] : postings.indptr[column + 1]]
                for column in columns
                if column is not None
            ]
        )
    )
    allowed = retriever.rows_in(scope)
    if allowed is not None:
        held = held[allowed[held]]
    said = KeyTermsSaid(keys.terms, analyzer, index)
    # A document that is an exact copy of another (read alike into the same lines, its
    # name carrying the same key words) says what that one says: it is read once.
    held, copied = _without_copies(retriever, index, held, said)
    complete = held.size <= CENSUS_LIMIT
    held = held[:CENSUS_LIMIT]
    if not held.size:
        return Census({}, rarest_word, True)
    rows = held.tolist()
    # The rows beside each (same document: index rows run in document order).
    steps = (held[:, None] + np.arange(-SUPPORT_REACH, SUPPORT_REACH + 1)).ravel()
    of_row = np.repeat(held, 2 * SUPPORT_REACH + 1)
    inside = (steps >= 0) & (steps < index.size)
    steps, of_row = steps[inside], of_row[inside]
    same = index.line_documents[steps] == index.line_documents[of_row]
    ordered_rows = np.unique(steps[same])
    ordered = ordered_rows.tolist()
    near = set(ordered)
    ids = index.line_ids[ordered_rows].tolist()
    said.know(ordered_rows)
    lines = dict(zip(ordered, retriever.stored_lines(ids), strict=True))
    # Each row's document and position are known: no second read of the rows.
    places = [(int(index.document_ids[index.line_documents[r]]), lines[r].position) for r in rows]
    headings = dict(zip(rows, retriever.headings_at(places), strict=True))
    said.know(held_rows(index, {h.id for over in headings.values() for h in over}))
    # Only the key words decide: each line's are read once, not once per row beside it;
    # so is whether it may speak (a line is beside three rows, a heading over hundreds).
    heard: dict[int, bool] = {}

    def speaks(line: StoredLine) -> bool:
        may = heard.get(line.id)
        if may is None:
            may = heard[line.id] = retriever.speaks(line)
        return may

    counts: Counter[str] = Counter()
    for r in rows:
        line = lines[r]
        if not speaks(line):
            continue
        own = said.of(line)
        if line.date:
            own = own | said.stamp(line.date[:10])
        # The line itself must hold the rarest word (its context may hold the rest).
        if rarest not in own:
            continue
        carried = own | said.name(line.document)
        # More words only add to the share: a line that carries the question with its
        # document's name needs no context read (most lines of a one-word question).
        if not said.passes(carried, keys) and not said.passes(
            carried.union(*map(said.of, _context(line, r, lines, near, headings[r], speaks))),
            keys,
        ):
            continue
        counts[line.document] += 1
    for copy, original in copied.items():
        if counts[original]:
            counts[copy] = counts[original]
    ranked = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return Census(ranked, rarest_word, complete)


def _context(
    line: StoredLine,
    row: int,
    lines: dict[int, StoredLine],
    near: set[int],
    headings: list[StoredLine],
    speaks: Callable[[StoredLine], bool],
) -> list[StoredLine]:
    """The support tier's context of ``line`` (support_context: the headings it stands
    under, and its neighbours unless it or they are table rows), of lines that may speak."""
    beside = [lines[n] for n in range(row - SUPPORT_REACH, row + SUPPORT_REACH + 1) if n in near]
    around = [e for e in [*beside, *headings] if speaks(e)]
    context = headings_standing_over(line, around)
    if line.kind != LineKind.ROW:
        context += [
            e
            for e in around
            if e.kind != LineKind.ROW
            and e.document == line.document
            and 0 < abs(e.position - line.position) <= SUPPORT_REACH
        ]
    return context


def _without_copies(
    retriever: Retriever, index: WordIndex, rows: np.ndarray, said: KeyTermsSaid
) -> tuple[np.ndarray, dict[str, str]]:
    """``rows`` without those of documents that copy an earlier one of them (the same
    reading hash, the same key words in the name), and each such copy's original, by
    name."""
    slots = np.unique(index.line_documents[rows])
    if slots.size < 2:
        return rows, {}
    ids = [int(index.document_ids[slot]) for slot in slots]
    with retriever.store.reading():
        hashes = retriever.store.reading_hashes(ids)
    first: dict[tuple[str, frozenset[str]], str] = {}
    copied: dict[str, str] = {}
    dropped = []
    for slot, document_id in zip(slots.tolist(), ids, strict=True):
        name = index.document_names[slot]
        key = (hashes.get(document_id, str(document_id)), said.name(name))
        if key in first:
            copied[name] = first[key]
            dropped.append(slot)
        else:
            first[key] = name
    if not dropped:
        return rows, {}
    keep = ~np.isin(index.line_documents[rows], np.asarray(dropped))
    return rows[keep], copied


class KeyTermsSaid:
    """The question's key terms a line, a session's day or a document's name carries, each
    read once a census (the support tier's line_terms, in_words and name_terms).

    With the word ``index``, a line's key terms are read from the key terms' posting lists
    instead of stemming every word of the line (archive/posted.py says when the two agree
    and checks the rest): a census reads hundreds of lines a question, each read whole
    before."""

    def __init__(
        self, keys: frozenset[str], analyzer: Analyzer, index: WordIndex | None = None
    ) -> None:
        self._keys = keys
        self._analyzer = analyzer
        self._posted = PostedKeys.of(keys, analyzer, index) if index is not None else None
        # By the line's kind and words: copies of one line in many documents are read once.
        self._lines: dict[tuple[str, str, tuple[tuple[str, str], ...]], frozenset[str]] = {}
        self._days: dict[str, frozenset[str]] = {}
        self._names: dict[str, frozenset[str]] = {}
        self._verdicts: dict[frozenset[str], bool] = {}

    def of(self, line: StoredLine) -> frozenset[str]:
        said = (line.kind, line.text, tuple(line.cells.items()) if line.cells else ())
        found = self._lines.get(said)
        if found is None:
            posted = self._posted.carried(line) if self._posted is not None else None
            if posted is None:
                posted = line_terms(line, self._analyzer) & self._keys
            found = self._lines[said] = posted
        return found

    def know(self, rows: np.ndarray) -> None:
        """The key terms of these index rows read from the posting lists at once."""
        if self._posted is not None:
            self._posted.know(rows)

    def passes(self, carried: frozenset[str], keys: KeyWords) -> bool:
        """The support tier's verdict on lines carrying these key terms: rows of one
        census share a few sets of key terms, each judged once."""
        verdict = self._verdicts.get(carried)
        if verdict is None:
            verdict = self._verdicts[carried] = keys.carried(carried).passed
        return verdict

    def stamp(self, day: str) -> frozenset[str]:
        found = self._days.get(day)
        if found is None:
            found = self._days[day] = (
                frozenset(self._analyzer.terms(in_words(day[:10]))) & self._keys
            )
        return found

    def name(self, document: str) -> frozenset[str]:
        found = self._names.get(document)
        if found is None:
            found = self._names[document] = (
                frozenset(name_terms(document, self._analyzer)) & self._keys
            )
        return found


__all__ = ["CENSUS_LIMIT", "Census", "KeyTermsSaid", "take_census"]
