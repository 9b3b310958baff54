"""Documents for a question: words, meaning and late interaction, fused by rank (the
document half of retrieval; how, ``DocumentRanker`` sets out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from affidavit.errors import EngineError
from affidavit.index import growth
from affidavit.index.fusion import rrf
from affidavit.index.meaning import parts as meaning_parts
from affidavit.index.meaning.build import build_meaning
from affidavit.index.meaning.encoder import Encoder, encode, fingerprint
from affidavit.index.meaning.late import LATE_DEPTH, Reranker, late_lines, late_order, rerank
from affidavit.index.meaning.profiles import MeaningIndex
from affidavit.index.words.scoring import Scored
from affidavit.index.words.word_index import WordIndex
from affidavit.results import Evidence
from affidavit.store.parts import document_keys, keyed_document
from affidavit.store.sqlite import Store
from affidavit.text.abbreviations import short_form
from affidavit.text.reading import Reading

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

    How documents are ranked (``fused_documents``), when the meaning channel is on:

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

    Meaning proposes, words choose lines (``proposed``): the top MEANING_DOCUMENTS
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
            meaning_parts.save(self._store, prefix, generation, index, piece)
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

    def fused_documents(
        self,
        query: Reading,
        scored: Scored | None = None,
        *,
        scores: np.ndarray | None = None,
        covered: float | None = None,
    ) -> list[DocumentHit]:
        """Documents, best first: see "How documents are ranked" in DocumentRanker's docstring.

        ``scored`` (the word scores of the lines reached), ``scores`` (the same for every
        line) and ``covered`` (``coverage``) may be given by a caller that has them."""
        index = self.words()
        if index.size == 0:
            return []
        if scored is None:
            scored = index.scored(query.searched)
        if covered is None:
            covered = self.coverage(query)
        by_words = word_documents_of(index, scored)
        words_order = [d for d, _ in by_words[:FUSION_DEPTH]]
        words_rank = {d: r for r, d in enumerate(words_order, start=1)}
        known = covered >= WORDS_SUFFICE and bool(words_order)
        closeness: dict[int, float] = {}
        meaning_rank: dict[int, int] = {}
        if self.encoder is not None:
            by_meaning = self.meaning_documents(query.text)
            closeness = dict(by_meaning)
            meaning_rank = {d: r for r, (d, _) in enumerate(by_meaning[:FUSION_DEPTH], start=1)}
        if known or not meaning_rank:
            fused = rrf([words_order])
        else:
            # A ranking, not a verdict: what meaning proposes is only cited as evidence
            # when close enough (MEANING_FLOOR, in ``proposed``).
            proposed = [d for d, _ in by_meaning[:FUSION_DEPTH]]
            fused = rrf([words_order, proposed])
        if self.reranker is not None and len(fused) > 1:
            if scores is None:
                scores = scored.dense()
            fused = self._late_documents(query.text, index, scores, fused, follow_words=known)
        names = self._names(index, [d for d, _ in fused])
        return [
            DocumentHit(names[d], score, words_rank.get(d), meaning_rank.get(d), closeness.get(d))
            for d, score in fused
        ]

    def _names(self, index: WordIndex, wanted: list[int]) -> dict[int, str]:
        """Document id -> name, from the word index when it holds every ``wanted`` id (a
        store read of every document's row costs milliseconds at a few thousand)."""
        names = index.document_names_by_id()
        if all(d in names for d in wanted):
            return names
        return {document_id: name for document_id, name, _ in self._store.documents()}

    def _late_documents(
        self,
        query: str,
        index: WordIndex,
        scores: np.ndarray,
        fused: list[tuple[int, float]],
        *,
        follow_words: bool,
    ) -> list[tuple[int, float]]:
        """The top LATE_DEPTH documents reordered by late interaction over their best lines."""
        assert self.reranker is not None
        top = [d for d, _ in fused[:LATE_DEPTH]]
        # A document that copies another (the same reading hash) is read once: it scores
        # as its original does.
        hashes = self._store.reading_hashes(top)
        original: dict[str, int] = {}
        same = {d: original.setdefault(hashes.get(d, str(d)), d) for d in top}
        # One text to read (one document, or copies of one): every late score would be
        # the same, and the order the words gave stands; the reranker is not asked.
        late = {d: 0.0 for d in top}
        if sum(same[d] == d for d in top) > 1:
            late = self._late_scores(query, index, scores, top, same)
        return late_order(fused, late, follow_words=follow_words)

    def _late_scores(
        self,
        query: str,
        index: WordIndex,
        scores: np.ndarray,
        top: list[int],
        same: dict[int, int],
    ) -> dict[int, float]:
        """Each of ``top``'s late interaction score over its best lines (a copy scores as
        the document it copies, ``same``)."""
        assert self.reranker is not None
        reading = {d: self.lines_to_read(index, scores, d, query) for d in top if same[d] == d}
        every = [line_id for line_ids in reading.values() for line_id in line_ids]
        rows = self._store.lines_by_id(every)
        found = np.asarray(self.reranker.scores(query, [rows[line_id].text for line_id in every]))
        if found.shape != (len(every),):
            raise EngineError(
                f"the reranker returned {found.shape} scores for {len(every)} candidates; "
                "a Reranker must return one score per text"
            )
        late: dict[int, float] = {}
        start = 0
        for document_id, line_ids in reading.items():
            mine = found[start : start + len(line_ids)]
            late[document_id] = float(np.max(mine)) if len(mine) else 0.0
            start += len(line_ids)
        late.update({d: late[same[d]] for d in top if same[d] != d})
        return late

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

    def proposed(
        self,
        query: str,
        index: WordIndex,
        scores: np.ndarray,
        ranked: list[tuple[int, float]],
        fused: list[DocumentHit],
    ) -> list[tuple[int, float]]:
        """Lines of the best fused documents that the word hits do not reach.

        Meaning proposed the document; inside it the lines to read are its closest by
        meaning, and late interaction (when on) orders them: a question that shares no
        word with the document (another language) still reaches a line.
        """
        rows = np.searchsorted(index.line_ids, [line_id for line_id, _ in ranked])
        reached = {int(index.document_ids[index.line_documents[row]]) for row in rows}
        ids = index.document_ids_by_name()
        if any(hit.document not in ids for hit in fused[:MEANING_DOCUMENTS]):
            # A name the word index does not hold: the store's own table decides.
            ids = {name: document_id for document_id, name, _ in self._store.documents()}
        proposed: list[tuple[int, float]] = []
        for hit in fused[:MEANING_DOCUMENTS]:
            document_id = ids[hit.document]
            if document_id in reached or (hit.closeness or 0.0) < MEANING_FLOOR:
                continue
            proposed += [(i, 0.0) for i in self.proposed_in(index, scores, document_id, query)]
        return proposed

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
