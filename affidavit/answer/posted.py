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
- and the abbreviations a line writes ("Dept.") are spelled out as evidence_terms does."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from affidavit.index.words.word_index import WordIndex
from affidavit.store.prepared import StoredLine
from affidavit.text.abbreviations import expansion_terms
from affidavit.text.analyzer import Analyzer
from affidavit.text.numbers import LANGUAGE_NUMBER_WORDS
from affidavit.text.quantities import PERCENT_WORDS


@dataclass(frozen=True, slots=True)
class PostedKeys:
    """The rows of the word index that carry each key term."""

    keys: frozenset[str]
    analyzer: Analyzer
    index: WordIndex
    rows: dict[str, frozenset[int]]

    @classmethod
    def of(cls, keys: frozenset[str], analyzer: Analyzer, index: WordIndex) -> PostedKeys | None:
        """The key terms' posting lists, or None when a key term could read otherwise
        from the index than from the words (see the module's note)."""
        numbers = LANGUAGE_NUMBER_WORDS.get(analyzer.language, frozenset()) | PERCENT_WORDS
        stemmed = {analyzer.term(word) for word in numbers}
        if any(len(key) < 2 or key in stemmed for key in keys):
            return None
        postings = index.line_counts
        rows: dict[str, frozenset[int]] = {}
        for key in keys:
            column = index.vocabulary.get(key)
            if column is None:
                rows[key] = frozenset()
            else:
                held = postings.indices[postings.indptr[column] : postings.indptr[column + 1]]
                rows[key] = frozenset(held.tolist())
        return cls(keys, analyzer, index, rows)

    def carried(self, line: StoredLine) -> frozenset[str] | None:
        """The key terms ``line`` carries as evidence, or None when its words must be read."""
        if line.cells:
            return None
        index = self.index
        row = int(np.searchsorted(index.line_ids, line.id))
        if row >= index.size or int(index.line_ids[row]) != line.id:
            return None
        if index.document_languages[index.line_documents[row]] != self.analyzer.language:
            return None
        found = {key for key, rows in self.rows.items() if row in rows}
        return frozenset(found) | (expansion_terms(line.text, self.analyzer) & self.keys)
