"""The word channel: BM25 over lines and over windows, plus document-name weighting."""

from __future__ import annotations

import functools
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from affidavit.index.packing import typed_numbers
from affidavit.index.words import block_max, bm25
from affidavit.index.words.index_storage import index_bytes, index_fields
from affidavit.index.words.name_bonus import name_bonus, name_slots
from affidavit.index.words.scoring import (
    Named,
    Scored,
    Weighing,
    score_question,
    top_among,
)
from affidavit.index.words.statistics import Statistics
from affidavit.index.words.tallies import line_idf
from affidavit.index.words.twins import ReadHashes, Twins
from affidavit.index.words.windows import in_line_order, window_incidence
from affidavit.text import Analyzer, Reading, read_for_search


@dataclass
class WordIndex:
    """Raw term counts of lines and windows, a column per term (its postings); BM25 is
    computed from them at query time, on the question's postings only, so an index of
    some documents merges with another's (``index/words/word_parts.py``) without rescoring.

    A line's score is its own BM25 plus WINDOW_GAIN times the best score of any window
    that holds it, so a sentence whose subject was named one sentence earlier is still
    found; results are always lines. A question word that appears in document names adds
    log(documents / names carrying it) to every line of those documents (name_bonus.py): a
    word every name carries weighs exactly zero. Ties break by line id (document order,
    then position).
    """

    vocabulary: dict[str, int]
    line_ids: np.ndarray  # store line id per index row, ascending
    line_documents: np.ndarray  # position in ``document_ids`` per line
    document_ids: np.ndarray  # store document id per document slot, ascending
    document_languages: list[str]
    document_names: list[str]
    document_keys: list[str]  # what a document's stored version is (word_parts.py)
    line_counts: sp.csc_matrix
    window_counts: sp.csc_matrix
    window_documents: np.ndarray  # document slot per window
    # windows -> the index rows of the lines they hold (CSR, rows = windows)
    incidence: sp.csr_matrix
    # document name terms -> document slots
    name_terms: dict[str, list[int]]
    _norms: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)
    _membership: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)
    _rows_by_slot: tuple[np.ndarray, np.ndarray, dict[int, int]] | None = field(
        default=None, init=False, repr=False
    )
    _names: dict[int, str] | None = field(default=None, init=False, repr=False)
    _ids: dict[str, int] | None = field(default=None, init=False, repr=False)
    _blocks: block_max.Blocks | bool | None = field(default=None, init=False, repr=False)
    _searched: bool = field(default=False, init=False, repr=False)  # ``best`` asked once
    _copies: ReadHashes | None = field(default=None, init=False, repr=False)
    _twins: Twins | bool | None = field(default=None, init=False, repr=False)
    _lengths: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)
    # A whole store's mean lengths, the norms under them, and how much longer they are
    # than this index's own (a shard's, see scored).
    _held_norms: (
        tuple[tuple[float, float], tuple[np.ndarray, np.ndarray], tuple[float, float]] | None
    ) = field(default=None, init=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.line_ids)

    def idf(self, term: str) -> float:
        """How rare ``term`` is among the lines (Lucene IDF); 0 for a term no line carries,
        which cannot tell one line from another."""
        column = self.vocabulary.get(term)
        if column is None:
            return 0.0
        df = int(self.line_counts.indptr[column + 1] - self.line_counts.indptr[column])
        return line_idf(self.size, df)

    @functools.cached_property
    def main_language(self) -> str:
        """The language most documents are in (English for an empty index); counted
        once, as every question reads it."""
        if not self.document_languages:
            return "en"
        counts = Counter(self.document_languages)
        return max(sorted(counts), key=counts.__getitem__)

    # -- building --

    @classmethod
    def build(
        cls,
        documents: list[tuple[int, str, str]],
        lines: Iterable[tuple[int, int, int, str, str]],
        windows: list[tuple[int, int, int, int]],
        keys: list[str] | None = None,
    ) -> WordIndex:
        """The index of ``documents`` (id, name, language, in id order) from their
        ``lines`` (id, document id, position, kind, text, in id order; read once, so a
        store's cursor will do) and ``windows`` (document id, scale, start, end); ``keys``
        name each document's stored version. NOTE: the postings are gathered in typed
        arrays and the windows' members found by a sort, not in Python lists and a dict
        of every line: at 100 MB of text those were 900 MB of the ingest's peak."""
        slot_of = {doc_id: slot for slot, (doc_id, _, _) in enumerate(documents)}
        windows = in_line_order(windows, slot_of)
        analyzers = {lang: Analyzer(lang) for _, _, lang in documents}
        languages = [lang for _, _, lang in documents]
        vocabulary: dict[str, int] = {}
        indptr = array("q", [0])
        indices, counts = array("i"), array("i")
        ids, docs, positions = array("q"), array("q"), array("q")
        for line_id, doc_id, position, _, text in lines:
            ids.append(line_id)
            docs.append(doc_id)
            positions.append(position)
            terms = Counter(analyzers[languages[slot_of[doc_id]]].terms(text))
            for term, count in terms.items():
                indices.append(vocabulary.setdefault(term, len(vocabulary)))
                counts.append(count)
            indptr.append(len(indices))
        size = len(ids)
        line_ids = typed_numbers(ids)
        line_docs = np.asarray([slot_of[d] for d in docs], dtype=np.int32)
        line_counts = sp.csr_matrix(
            (
                typed_numbers(counts).astype(np.float32),
                typed_numbers(indices),
                typed_numbers(indptr),
            ),
            shape=(size, max(len(vocabulary), 1)),
        )
        incidence = window_incidence(typed_numbers(docs), typed_numbers(positions), windows)
        window_counts = incidence.astype(np.float32) @ line_counts
        names = [name for _, name, _ in documents]
        return cls(
            vocabulary=vocabulary,
            line_ids=line_ids,
            line_documents=line_docs,
            document_ids=np.asarray([d[0] for d in documents], dtype=np.int64),
            document_languages=languages,
            document_names=names,
            document_keys=list(keys) if keys is not None else [str(d[0]) for d in documents],
            line_counts=line_counts.tocsc(),
            window_counts=sp.csc_matrix(window_counts),
            window_documents=np.asarray(
                [slot_of[doc_id] for doc_id, _, _, _ in windows], dtype=np.int32
            ),
            incidence=incidence,
            name_terms=name_slots(names, languages),
        )

    # -- querying --

    def scores(self, terms: Sequence[str]) -> np.ndarray:
        """A score for every line (0 where nothing matched)."""
        return self.scored(terms).dense()

    def document_names_by_id(self) -> dict[int, str]:
        """Each indexed document's store id -> its name (computed once)."""
        if self._names is None:
            self._names = {
                int(d): n for d, n in zip(self.document_ids, self.document_names, strict=True)
            }
        return self._names

    def document_ids_by_name(self) -> dict[str, int]:
        """Each indexed document's name -> its store id (computed once: inverting a few
        thousand names took 0.6 ms of every question at 100 MB)."""
        if self._ids is None:
            self._ids = {name: d for d, name in self.document_names_by_id().items()}
        return self._ids

    def read(self, query: str) -> Reading:
        """A query as this index reads it: one too short to show its language is read in
        the store's own."""
        return read_for_search(query, default=self.main_language)

    def scored(self, terms: Sequence[str], statistics: Statistics | None = None) -> Scored:
        """Every line's score and the lines the question's ``terms`` reached. Only the
        postings of the terms are read, and only the lines of windows holding one of them
        get a window score, so the work grows with those postings, not with the store
        (``index/words/scoring.py``). ``statistics``: the counts of a whole store this
        index is a shard of, which every weight is then taken with."""
        term_ids = self._term_ids(terms)
        if statistics is None:
            return score_question(self, term_ids, self._named(terms), self.twins())
        weighing = self._weighing(statistics, terms)
        named = self._named(terms, statistics)
        return score_question(self, term_ids, named, self.twins(), weighing)

    def _weighing(self, statistics: Statistics, terms: Sequence[str]) -> Weighing:
        """``statistics`` as this index's scoring reads them."""
        averages = (statistics.line_average, statistics.window_average)
        held = self._held_norms
        if held is None or held[0] != averages:
            lines, windows = self.unit_lengths()
            norms = (bm25.length_norms(lines, averages[0]), bm25.length_norms(windows, averages[1]))
            own = [float(u.mean()) if u.size else 1.0 for u in (lines, windows)]
            stretch = (max(1.0, averages[0] / own[0]), max(1.0, averages[1] / own[1]))
            held = self._held_norms = (averages, norms, stretch)
        ids = {t: self.vocabulary[t] for t in set(terms) if t in self.vocabulary}
        return Weighing(
            line_norms=held[1][0],
            window_norms=held[1][1],
            line_frequencies={i: statistics.line_frequency[t] for t, i in ids.items()},
            window_frequencies={i: statistics.window_frequency[t] for t, i in ids.items()},
            lines=statistics.lines,
            windows=statistics.windows,
            line_stretch=held[2][0],
            window_stretch=held[2][1],
        )

    def statistics(self, terms: Sequence[str]) -> Statistics:
        """This index's counts for ``terms`` (statistics.py)."""
        return Statistics.of(self, terms)

    def read_copies_by(self, hashes: ReadHashes) -> None:
        """Where to read its documents' reading hashes (store id -> hash) once a question
        asks: a text stored more than once is then scored once (``twins``)."""
        if self._copies is None:
            self._copies = hashes

    def twins(self) -> Twins | None:
        """Copies scored once (twins.py), found when first asked; None without any."""
        if self._twins is None:
            if self._copies is None:
                return None
            self._twins = Twins.of(self, self._copies(self.document_ids.tolist())) or False
        return self._twins if isinstance(self._twins, Twins) else None

    def best(
        self, terms: Sequence[str], k: int, statistics: Statistics | None = None
    ) -> list[tuple[int, float]]:
        """(store line id, score) of the best ``k`` lines, as ``top(scored(...))`` ranks
        them, reading whole scores for the lines that could be among them only.
        ``statistics``: as ``scored``'s (a shard's search: its block maxima stretched
        into bounds of the whole store's weights, block_max.best)."""
        if k <= 0:
            return []
        # NOTE: the first search of an index that has not taken its block maxima reads
        # every posting of its terms (top_only, the same lines to the bit): at 22 MB the
        # maxima took 0.4 s, and 1.4 s more to load their compiled loops into a process,
        # which the first search after documents added one call at a time had waited for.
        blocks = None
        if self.size >= block_max.BLOCK_MAX_LINES and (self._searched or self._blocks):
            blocks = self.blocks()
        self._searched = True
        if statistics is not None:
            weighing = self._weighing(statistics, terms)
            named = self._named(terms, statistics)
            return block_max.best(self, blocks, self._term_ids(terms), named, k, weighing)
        return block_max.best(self, blocks, self._term_ids(terms), self._named(terms), k)

    def blocks(self) -> block_max.Blocks | None:
        """The index's block maxima (block_max.py), taken once."""
        if self._blocks is None:
            self._blocks = block_max.blocks_of(self) or False
        return self._blocks if isinstance(self._blocks, block_max.Blocks) else None

    def warm_blocks(self) -> None:
        """Take the block maxima now, if this index's searches will use them (an ingest's
        last stage, so its first search does not wait for them)."""
        if self.size >= block_max.BLOCK_MAX_LINES:
            self.blocks()

    def _named(
        self, query_terms: Sequence[str], statistics: Statistics | None = None
    ) -> Named | None:
        """The documents whose names the question's words are in, with their bonus (its
        weights a whole store's, with ``statistics``)."""
        whole = None if statistics is None else (statistics.documents, statistics.name_frequency)
        bonus = name_bonus(self.name_terms, len(self.document_ids), query_terms, whole)
        if bonus is None:
            return None
        slots = np.flatnonzero(bonus)

        def rows() -> np.ndarray:
            return np.concatenate([self.rows_of_slot(int(s)) for s in slots]).astype(np.int64)

        return Named(bonus, self.line_documents, rows)

    def _term_ids(self, query_terms: Sequence[str]) -> list[int]:
        """The question's terms the index holds, in the order of their words: the order
        their weights are added in is then the same however the index was assembled."""
        held = sorted({t for t in query_terms if t in self.vocabulary})
        return [self.vocabulary[t] for t in held]

    def scores_among(
        self, terms: Sequence[str], rows: np.ndarray, statistics: Statistics | None = None
    ) -> np.ndarray:
        """BM25 of the question's ``terms`` for the given index rows only (no windows, no
        names): the score of a partition read instead of the store. ``statistics``: as
        ``scored``'s."""
        term_ids = self._term_ids(terms)
        norms, frequencies, units = self.unit_norms()[0], None, None
        if statistics is not None:
            weighing = self._weighing(statistics, terms)
            norms, frequencies, units = (
                weighing.line_norms,
                weighing.line_frequencies,
                weighing.lines,
            )
        out = np.zeros(len(rows), dtype=np.float32)
        counts = self.line_counts
        for term in term_ids:
            lo, hi = counts.indptr[term], counts.indptr[term + 1]
            holders = counts.indices[lo:hi]  # rows carrying the term, ascending
            weights = bm25.term_weights(counts, norms, term, frequencies, units)
            at = np.searchsorted(holders, rows)
            inside = at < len(holders)
            hit = np.zeros(len(rows), dtype=bool)
            hit[inside] = holders[at[inside]] == rows[inside]
            out[hit] += weights[at[hit]]
        return out

    def unit_norms(self) -> tuple[np.ndarray, np.ndarray]:
        """Each line's and each window's BM25 length normalisation (``bm25.length_norms``
        of its length in terms and their average), taken once."""
        if self._norms is None:
            line, window = self.unit_lengths()
            self._norms = (
                bm25.length_norms(line, float(line.mean()) if line.size else 1.0),
                bm25.length_norms(window, float(window.mean()) if window.size else 1.0),
            )
        return self._norms

    def unit_lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """Each line's and each window's length in terms (float64, whole numbers)."""
        if self._lengths is None:
            self._lengths = (bm25.lengths(self.line_counts), bm25.lengths(self.window_counts))
        return self._lengths

    @property
    def line_weights(self) -> sp.csc_matrix:
        """Every line's BM25 weight of every term (for reading the definition whole)."""
        return bm25.bm25_weights(self.line_counts.tocsr())

    @property
    def window_weights(self) -> sp.csc_matrix:
        return bm25.bm25_weights(self.window_counts.tocsr())

    def line_windows(self) -> tuple[np.ndarray, np.ndarray]:
        """Lines -> the windows holding them, CSR-style: (indptr, windows), the windows of
        line i are ``windows[indptr[i]:indptr[i + 1]]``."""
        if self._membership is None:
            by_line = self.incidence.T.tocsr()
            by_line.sort_indices()
            self._membership = (by_line.indptr.astype(np.int64), by_line.indices)
        return self._membership

    def rows_of_document(self, document_id: int) -> np.ndarray:
        """The index rows of one stored document's lines, ascending (none if unknown)."""
        slot = self._slots()[2].get(int(document_id))
        return np.zeros(0, dtype=np.int64) if slot is None else self.rows_of_slot(slot)

    def rows_of_slot(self, slot: int) -> np.ndarray:
        """The index rows of the document in ``slot`` of ``document_ids``, ascending."""
        order, bounds, _ = self._slots()
        return order[bounds[slot] : bounds[slot + 1]]

    def _slots(self) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
        if self._rows_by_slot is None:
            order = np.argsort(self.line_documents, kind="stable")
            bounds = np.searchsorted(
                self.line_documents[order], np.arange(len(self.document_ids) + 1)
            )
            slots = {int(d): slot for slot, d in enumerate(self.document_ids)}
            self._rows_by_slot = (order, bounds, slots)
        return self._rows_by_slot

    def top(self, scores: Scored | np.ndarray, k: int) -> list[tuple[int, float]]:
        """(store line id, score) of the best ``k`` lines with a positive score, ties
        broken by line id; ``scores`` as ``scored`` gives them or one per line."""
        if isinstance(scores, np.ndarray):
            rows = np.flatnonzero(scores)
            scores = Scored(rows, scores[rows], self.size)
        return top_among(scores, k, self.line_ids)

    # -- cache --

    def to_bytes(self, removed: list[str] | None = None, after: str = "") -> bytes:
        """The index as one npz payload (index_storage.py). As a part (word_parts.py): ``removed``
        names the document versions it replaces, ``after`` the digest of the versions
        held by the index it was made on."""
        return index_bytes(self, removed or [], after)

    @classmethod
    def from_bytes(cls, payload: bytes) -> WordIndex:
        return cls.read_part(payload)[0]

    @classmethod
    def read_part(cls, payload: bytes) -> tuple[WordIndex, list[str], str]:
        """An index from ``to_bytes``, the versions it says were removed, and the digest
        of the versions of the index it was made on."""
        fields, removed, after = index_fields(payload)
        return cls(**fields), removed, after
