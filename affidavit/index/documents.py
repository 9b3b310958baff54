"""Documents for a question: words, meaning and late interaction, fused by rank (the
document half of retrieval; how, ``DocumentRanker`` sets out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from affidavit.index import growth
from affidavit.index.meaning import meaning_parts
from affidavit.index.meaning.build import build_meaning
from affidavit.index.meaning.encoder import Encoder, encode, fingerprint
from affidavit.index.meaning.late import Reranker, late_lines, rerank
from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.index.words.scoring import Scored
from affidavit.index.words.word_index import WordIndex
from affidavit.results import Evidence
from affidavit.store import Store, document_keys, keyed_document
from affidavit.text import Reading, short_form

# How deep each channel's document ranking goes into the fusion (an order-only vote).
FUSION_DEPTH = 100
# Fused documents, best first, that may add evidence the word hits did not reach.
MEANING_DOCUMENTS = 3
# Lines a document proposed by meaning alone contributes, chosen inside it.
PROPOSED_LINES = 3
# NOTE: a document is proposed by meaning alone only when its profile is at least this
# close to the question: nonsense ("Zyxwv qwertyuiop?") reaches 0.18-0.29 against the
# XQuAD paragraphs, Spanish questions their own paragraph at a median of 0.39.
MEANING_FLOOR = 0.3
# NOTE: the meaning ranking joins the fusion only when fewer than this share of the
# question's words are in the store's vocabulary. On SQuAD 2.0 dev (796 paragraphs) fusing
# it into English questions took document R@1 from 0.817 to 0.613: a static model blurs
# sibling paragraphs that words tell apart (bench/meaning.py).
WORDS_SUFFICE = 0.75
# Lines per document that late interaction reads: its best by words and by meaning.
LINES_READ = 8
# A store of at most this many lines has them all cut into word pieces when its meaning
# index is loaded (a batch is cheaper than cutting line by line); a larger one would pay
# seconds on opening for lines most questions never reach, so its lines are cut as read.
REMEMBER_AT_MOST = 20_000


@dataclass(frozen=True, slots=True)
class DocumentHit:
    """A document as a question's ranking places it: fused score and each channel's rank."""

    document: str
    score: float
    words_rank: int | None
    meaning_rank: int | None
    closeness: float | None = None  # the best profile's cosine to the question


class DocumentRanker:
    """Ranks documents by words and meaning: the document half of retrieval, which the
    retriever owns (``Retriever.ranker``), gives the store and the word index (``words``)
    and keeps the line half for itself. It holds the meaning index and its cache, and adds
    the lines a document proposed by meaning alone contributes.

    How documents are ranked (index/finding.py ``fused_documents``, for one store and
    for a sharded one alike), when the meaning channel is on:

    1. Words rank documents by their best line. When fewer than WORDS_SUFFICE of the
       question's terms are in the store's vocabulary (another language, other words),
       the meaning ranking (document profiles, index/meaning/profiles.py) is fused with it
       by reciprocal rank fusion, K = 60, order only (index/fusion.py); otherwise words
       alone propose, because a static model blurs the sibling paragraphs words tell
       apart.
    2. Late interaction (index/meaning/late.py) scores each of the top LATE_DEPTH documents
       by its best line among the LINES_READ it reads (best by words and by meaning), and
       reorders them: fused with the words' order by RRF where the store knows the
       question's words, by itself where it does not. It never adds or drops a document.

    Meaning proposes, words choose lines (``proposed_in``): the top MEANING_DOCUMENTS
    documents that no word hit reached (and whose profile is at least MEANING_FLOOR close)
    add PROPOSED_LINES lines each, read as in step 2; the top LATE_DEPTH lines are
    reordered the same way (``late_lines``).
    """

    def __init__(
        self,
        store: Store,
        words: Callable[[], WordIndex],
        *,
        encoder: Encoder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self._store = store
        self.words = words
        self.encoder = encoder  # None: the meaning channel is off
        self.reranker = reranker
        self._meaning: MeaningIndex | None = None
        self._meaning_generation = -1
        self._fingerprint: str | None = None
        self._last: tuple[str, np.ndarray] | None = None  # the last question and its vector

    def adopt(self, other: DocumentRanker) -> None:
        """Hold the meaning index ``other`` holds (a ranker over the same store file, with
        the same encoder); like any index in hand it is used only at its generation."""
        self._meaning, self._meaning_generation = other._meaning, other._meaning_generation
        self._fingerprint = other._fingerprint

    def forget(self) -> None:
        """Drop the meaning index read into memory (the store's cache stays)."""
        self._meaning = None
        self._meaning_generation = -1

    def warm_meaning(self) -> None:
        """Bring cached vectors up to date, if this store's meaning channel was ever used."""
        if self._meaning is not None and self._meaning_generation != self._store.generation():
            self.meaning()

    def meaning(self, progress: Callable[[int, int], None] | None = None) -> MeaningIndex | None:
        """Line vectors and document profiles, or None when the channel is off;
        ``progress`` hears a build's lines encoded."""
        if self.encoder is None:
            return None
        generation = self._store.generation()
        if self._meaning is not None and self._meaning_generation == generation:
            return self._meaning
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.encoder)
        prefix = meaning_parts.name(self._fingerprint)
        stored = meaning_parts.newest(self._store, prefix)
        in_hand = self._meaning is not None and (
            self._store.path is None or self._meaning_generation == stored
        )
        previous, followed = (
            (self._meaning, True) if in_hand else meaning_parts.load(self._store, prefix)
        )
        remember = getattr(self.reranker, "remember", None)
        piece: MeaningIndex | None = None  # the added documents' index, when grown by one
        if previous is not None and followed and stored == generation:
            index = previous  # the parts were made at this generation
        else:
            if previous is None:
                previous = meaning_parts.legacy(self._store, self._fingerprint)
            piece = (
                growth.added_meaning(self._store, self.encoder, previous, progress)
                if followed
                else None
            )
            if piece is not None and previous is not None:
                index = MeaningIndex.joined([previous, piece])
            else:
                # Every line read twice in one snapshot, never held whole (index/meaning/build.py).
                with self._store.reading():
                    index = build_meaning(
                        self.encoder, self._store.each_line_row, previous, progress
                    )
                index.document_keys = [key for *_, key in document_keys(self._store)]
            made_on = previous if piece is not None else None
            meaning_parts.save(self._store, prefix, generation, index, piece, made_on)
        self._meaning, self._meaning_generation = index, generation
        # A large store's lines are cut as questions reach them; a small one's are kept.
        if remember is not None and index.size <= REMEMBER_AT_MOST:
            # Late interaction reads these lines question after question. After an
            # addition, only the added documents' lines are new to it.
            added = None if piece is None else [keyed_document(k) for k in piece.document_keys]
            remember([text for *_, text in self._store.line_rows(added)])
        return index

    # -- documents --

    def word_documents(self, query: Reading) -> list[tuple[int, float]]:
        """(document id, best line score), best first, documents with any matching word."""
        index = self.words()
        if index.size == 0:
            return []
        return word_documents_of(index, index.scored(query.searched))

    def meaning_documents(self, query: str) -> list[tuple[int, float]]:
        """(document id, best profile cosine), best first; empty when the channel is off."""
        meaning = self.meaning()
        if meaning is None or meaning.size == 0 or self.encoder is None:
            return []
        return meaning.rank_documents(self._query_vector(query))

    def coverage(self, query: Reading) -> float:
        """Share of the question's words the store's vocabulary holds (1.0 for none asked)."""
        terms = set(query.terms)
        if not terms:
            return 1.0
        return len(covered_terms(self.words().vocabulary, query)) / len(terms)

    def lines_to_read(
        self, index: WordIndex, scores: np.ndarray, document_id: int, query: str
    ) -> list[int]:
        """A document's best LINES_READ lines by words and its closest by meaning."""
        rows = index.rows_of_document(document_id)
        chosen: set[int] = set()
        word_scores = scores[rows]
        for at in np.lexsort((rows, -word_scores))[:LINES_READ]:
            if word_scores[at] > 0:
                chosen.add(int(index.line_ids[rows[at]]))
        meaning = self.meaning()
        if meaning is not None and self.encoder is not None:
            lines = index.line_ids[rows]
            closeness = meaning.closeness(lines.tolist(), self._query_vector(query))
            chosen.update(int(lines[at]) for at in np.lexsort((lines, -closeness))[:LINES_READ])
        return sorted(chosen)

    def _query_vector(self, query: str) -> np.ndarray:
        assert self.encoder is not None
        last = self._last
        if last is None or last[0] != query:
            last = self._last = (query, encode(self.encoder, [query])[0])
        return last[1]

    def late_lines(self, query: str, hits: list[Evidence], *, follow_words: bool) -> list[Evidence]:
        """``late_lines`` with this ranker's reranker."""
        return late_lines(self.reranker, query, hits, follow_words=follow_words)  # type: ignore[arg-type]

    def proposed_in(
        self, index: WordIndex, scores: np.ndarray, document_id: int, query: str
    ) -> list[int]:
        """The lines (ids) meaning proposes in one document it proposed: its lines to read,
        ordered late (when on), the best PROPOSED_LINES."""
        shortlist = self.lines_to_read(index, scores, document_id, query)
        if self.reranker is not None:
            said = {i: row.text for i, row in self._store.lines_by_id(shortlist).items()}
            shortlist = rerank(self.reranker, query, shortlist, said.__getitem__)
        return shortlist[:PROPOSED_LINES]


def word_documents_of(index: WordIndex, scored: Scored) -> list[tuple[int, float]]:
    """(document id, its best line's word score), best first (ties by id). Only the lines
    the question reached are read, never every line of the store."""
    matched = scored.values != 0  # a line that scored 0 cannot raise its document
    if not matched.any():
        return []
    # Each document slot's best, gathered unsorted (sorting 100,000 reached rows by row and
    # by document took 1.5 ms a question at 100 MB); a maximum is the same in any order.
    best = np.zeros(len(index.document_ids), dtype=scored.values.dtype)
    np.maximum.at(best, index.line_documents[scored.rows[matched]], scored.values[matched])
    slots = np.flatnonzero(best > 0)
    ids, values = index.document_ids[slots], best[slots].astype(np.float64)
    ranked = np.lexsort((ids, -values))
    return [(int(ids[i]), float(values[i])) for i in ranked]


def covered_terms(vocabulary: Mapping[str, int], query: Reading) -> frozenset[str]:
    """The terms of ``query`` a store's ``vocabulary`` holds; a word the store writes only
    abbreviated ("catalog" as "Cat.") is held."""
    return frozenset(
        term
        for term in query.terms
        if term in vocabulary or short_form(term, query.language) in vocabulary
    )
