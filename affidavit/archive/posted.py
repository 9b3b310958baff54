"""A line's key terms read from the word index's posting lists: the census asks, of
hundreds of lines a question, which of the question's key terms each carries, and
stemming every word of each line to find out was most of its time (a tenth of an ask on
twelve copies of a novel). The index holds the answer already: a key term's posting list
names every line whose words stem to it.

The two readings agree exactly when (each checked here, else None: read the words):

- the line is no table row (a row is read with its column names, ``said_as_evidence``,
  the index with them in another order: the same words, but a row is read whole);
- its document is in the census's language (the index stems a line in its document's);
- no key term is a single letter, nor the stem of a number word or a percent word (the
  content terms leave those words out by the exact word; the index keeps them);
- and the abbreviations a line writes ("Dept.") are spelled out, and the initials of the
  names it writes ("European Union": "eu") added, as evidence_terms does."""

from __future__ import annotations

import numpy as np

from affidavit.index import WordIndex
from affidavit.store import StoredLine
from affidavit.text import (
    LANGUAGE_NUMBER_WORDS,
    PERCENT_WORDS,
    Analyzer,
    abbreviated_terms,
    expansion_terms,
    initial_terms,
)


class PostedKeys:
    """The key terms each row of the word index carries, read from their posting lists
    for the rows a census reads, all at once (``know``)."""

    __slots__ = ("keys", "analyzer", "index", "_postings", "_known", "_spelled")

    def __init__(self, keys: frozenset[str], analyzer: Analyzer, index: WordIndex) -> None:
        self.keys, self.analyzer, self.index = keys, analyzer, index
        postings = index.line_counts
        self._postings: list[tuple[str, np.ndarray]] = []
        for key in sorted(keys):
            column = index.vocabulary.get(key)
            if column is not None:  # a posting list is ascending
                held = postings.indices[postings.indptr[column] : postings.indptr[column + 1]]
                self._postings.append((key, held))
        self._known: dict[int, frozenset[str]] = {}  # line id -> its posted key terms
        # Only a key term some abbreviation stands for can be spelled out by one.
        self._spelled = bool(keys & abbreviated_terms(analyzer))

    @classmethod
    def of(cls, keys: frozenset[str], analyzer: Analyzer, index: WordIndex) -> PostedKeys | None:
        """The key terms' posting lists, or None when a key term could read otherwise
        from the index than from the words (see the module's note)."""
        numbers = LANGUAGE_NUMBER_WORDS.get(analyzer.language, frozenset()) | PERCENT_WORDS
        stemmed = {analyzer.term(word) for word in numbers}
        if any(len(key) < 2 or key in stemmed for key in keys):
            return None
        return cls(keys, analyzer, index)

    def know(self, rows: np.ndarray) -> None:
        """Read the key terms of the index ``rows`` (in this census's language) at once:
        a term's posting list is searched for all of them, not once a line."""
        index = self.index
        languages, language = index.document_languages, self.analyzer.language
        slots = index.line_documents[rows].tolist()
        rows = rows[np.fromiter((languages[s] == language for s in slots), bool, len(slots))]
        carries = np.zeros((rows.size, len(self._postings)), dtype=bool)
        for column, (_, held) in enumerate(self._postings):
            if held.size:
                at = np.minimum(np.searchsorted(held, rows), held.size - 1)
                carries[:, column] = held[at] == rows
        # Rows carrying the same key terms share one set (a few sets a census).
        sets: dict[bytes, frozenset[str]] = {}
        packed = np.packbits(carries, axis=1)
        for line_id, row, mask in zip(index.line_ids[rows].tolist(), carries, packed, strict=True):
            said = mask.tobytes()
            found = sets.get(said)
            if found is None:
                found = sets[said] = frozenset(
                    key for (key, _), held in zip(self._postings, row, strict=True) if held
                )
            self._known[line_id] = found

    def carried(self, line: StoredLine) -> frozenset[str] | None:
        """The key terms ``line`` carries as evidence, or None when its words must be read."""
        if line.cells:
            return None
        found = self._known.get(line.id)
        if found is None:
            self.know(held_rows(self.index, {line.id}))
            found = self._known.get(line.id)
            if found is None:  # a line the index does not hold, or in another language
                return None
        found |= initial_terms(line.text, self.analyzer) & self.keys
        if not self._spelled:
            return found
        return found | (expansion_terms(line.text, self.analyzer) & self.keys)


def held_rows(index: WordIndex, line_ids: set[int]) -> np.ndarray:
    """The index rows of the lines ``line_ids``, ascending (those the index holds)."""
    ids = np.fromiter(sorted(line_ids), dtype=np.int64, count=len(line_ids))
    if not index.size:
        return np.zeros(0, dtype=np.int64)
    rows = np.minimum(np.searchsorted(index.line_ids, ids), index.size - 1)
    return rows[index.line_ids[rows] == ids]
