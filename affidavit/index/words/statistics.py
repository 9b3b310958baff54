"""The counts a question's BM25 reads of a whole store: how many lines, windows and
documents it holds, their lengths, and in how many of each the question's terms stand.

One store reads them from its own index. The shards of a sharded store each hold a part:
their counts, summed (``Statistics.summed``), are the whole store's, and a shard scoring
with them gives each of its lines the score one store holding every shard's lines would
give it. Every count is a whole number, so a sum is exact in any order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import scipy.sparse as sp


class Counted(Protocol):
    """What the counts are read from (word_index.WordIndex is one)."""

    @property
    def line_counts(self) -> sp.csc_matrix: ...
    @property
    def window_counts(self) -> sp.csc_matrix: ...
    @property
    def vocabulary(self) -> dict[str, int]: ...
    @property
    def document_ids(self) -> np.ndarray: ...
    @property
    def name_terms(self) -> dict[str, list[int]]: ...
    def unit_lengths(self) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True, slots=True)
class Statistics:
    """A store's counts for some terms (see the module's docstring)."""

    lines: int
    windows: int
    documents: int
    line_length: int  # the lines' lengths in terms, summed
    window_length: int
    line_frequency: dict[str, int]  # term -> the lines holding it (terms held by any)
    window_frequency: dict[str, int]
    name_frequency: dict[str, int]  # term -> the documents whose names hold it

    @classmethod
    def of(cls, index: Counted, terms: Iterable[str]) -> Statistics:
        """``index``'s counts for ``terms``."""
        lines, windows = index.unit_lengths()
        line_frequency, window_frequency, name_frequency = {}, {}, {}
        for term in sorted(set(terms)):
            column = index.vocabulary.get(term)
            if column is not None:
                line_frequency[term] = _postings(index.line_counts, column)
                window_frequency[term] = _postings(index.window_counts, column)
            named = index.name_terms.get(term)
            if named:
                name_frequency[term] = len(named)
        return cls(
            lines=int(lines.size),
            windows=int(windows.size),
            documents=len(index.document_ids),
            line_length=int(lines.sum()),
            window_length=int(windows.sum()),
            line_frequency=line_frequency,
            window_frequency=window_frequency,
            name_frequency=name_frequency,
        )

    @classmethod
    def summed(cls, parts: Sequence[Statistics]) -> Statistics:
        """The counts of several stores' lines taken together."""

        def total(field: str) -> dict[str, int]:
            out: dict[str, int] = {}
            for part in parts:
                for term, count in getattr(part, field).items():
                    out[term] = out.get(term, 0) + count
            return out

        return cls(
            lines=sum(p.lines for p in parts),
            windows=sum(p.windows for p in parts),
            documents=sum(p.documents for p in parts),
            line_length=sum(p.line_length for p in parts),
            window_length=sum(p.window_length for p in parts),
            line_frequency=total("line_frequency"),
            window_frequency=total("window_frequency"),
            name_frequency=total("name_frequency"),
        )

    @property
    def line_average(self) -> float:
        """The mean line length, as one index takes it (lengths.mean())."""
        return self.line_length / self.lines if self.lines else 1.0

    @property
    def window_average(self) -> float:
        return self.window_length / self.windows if self.windows else 1.0


def _postings(counts: sp.csc_matrix, column: int) -> int:
    return int(counts.indptr[column + 1] - counts.indptr[column])
