"""From a question to evidence: ranked lines, and per-document subsets with their context.

The word index is derived from the stored lines and cached in the store under its
generation; it is rebuilt lazily after a write. A subset is one document's lines from the
evidence block (where no document takes more than its share) plus the lines beside them
(so a claim can be read back across a sentence boundary),
each line carrying its own word score; lines below the speaking threshold never enter a
subset, because nothing in a subset may be said as fact without them being citable.

How documents are ranked (``fused_documents``), when the meaning channel is on:

1. Words rank documents by their best line. When fewer than WORDS_SUFFICE of the
   question's terms are in the store's vocabulary (another language, other words), the
   meaning ranking (document profiles, ``index/meaning.py``) is fused with it by
   reciprocal rank fusion, K = 60, order only (``index/fusion.py``); otherwise words
   alone propose, because a static model blurs the sibling paragraphs words tell apart.
2. Late interaction (``index/late.py``) scores each of the top LATE_DEPTH documents by
   its best line among the LINES_READ it reads (best by words and by meaning), and
   reorders them: fused with the words' order by RRF where the store knows the question's
   words, by itself where it does not. It never adds or drops a document.

Meaning proposes, words choose lines: the top MEANING_DOCUMENTS documents that no word
hit reached (and whose profile is at least MEANING_FLOOR close) add PROPOSED_LINES lines
each, read as in step 2; the top LATE_DEPTH lines are reordered the same way.

The partition path (``index/partition.py``) comes first: a question naming two or more
of the store's entities (``index/graph.py``) reads only the lines they share and their
neighbours, unless none of those may be cited; ``verify`` never takes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from affidavit.evidence_block import evidence_block
from affidavit.graph.trust import SPEAKING_THRESHOLD
from affidavit.index.fusion import rrf
from affidavit.index.graph import EntityGraph, segments
from affidavit.index.late import Reranker, rerank
from affidavit.index.meaning import Encoder, MeaningIndex, encode, fingerprint
from affidavit.index.partition import partition
from affidavit.index.text import Analyzer, detect_language
from affidavit.index.words import WordIndex
from affidavit.results import Evidence
from affidavit.store.sqlite import Store, StoredLine

# The entity graph's cache entry (2: with the kept corpus and the lines' digests).
GRAPH_CACHE = "entities2"
# How many ranked lines a question reads before choosing its evidence block (the census
# counts them all).
RETRIEVE_DEPTH = 50
CONTEXT_REACH = 1
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
# Documents (and, per question, candidate lines) that late interaction reorders.
LATE_DEPTH = 10
# Lines per document that late interaction reads: its best by words and by meaning.
LINES_READ = 8


@dataclass(frozen=True, slots=True)
class DocumentHit:
    """A document as a question's ranking places it: fused score and each channel's rank."""

    document: str
    score: float
    words_rank: int | None
    meaning_rank: int | None
    closeness: float | None = None  # the best profile's cosine to the question


@dataclass(frozen=True, slots=True)
class Retrieved:
    hits: list[Evidence]  # citable lines, best first
    subsets: list[list[Evidence]]  # one per document, best document first
    withheld: int  # lines that matched but sit below the speaking threshold


class Retriever:
    def __init__(
        self,
        store: Store,
        *,
        speaking_threshold: float = SPEAKING_THRESHOLD,
        encoder: Encoder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self._store = store
        self.speaking_threshold = speaking_threshold
        self.encoder = encoder  # None: the meaning channel is off
        self.reranker = reranker
        self._words: WordIndex | None = None
        self._generation = -1
        self._meaning: MeaningIndex | None = None
        self._graph: EntityGraph | None = None
        self._graph_generation = -1
        self._implicit: frozenset[int] = frozenset()  # entities a document's name carries
        self._meaning_generation = -1
        self._fingerprint: str | None = None
        self._last: tuple[str, np.ndarray] | None = None  # the last question and its vector

    def words(self) -> WordIndex:
        generation = self._store.generation()
        if self._words is not None and self._generation == generation:
            return self._words
        payload = self._store.cached("words", generation)
        if payload is not None:
            index = WordIndex.from_bytes(payload)
        else:
            index = WordIndex.build(
                self._store.documents(), self._store.line_rows(), self._store.window_rows()
            )
            self._store.cache("words", generation, index.to_bytes())
        self._words, self._generation = index, generation
        return index

    def forget(self) -> None:
        self._words = None
        self._meaning = None
        self._graph = None

    def warm_meaning(self) -> None:
        """Bring cached vectors up to date, if this store's meaning channel was ever used."""
        if self._meaning is not None and self._meaning_generation != self._store.generation():
            self.meaning()

    def meaning(self) -> MeaningIndex | None:
        """Line vectors and document profiles, or None when the channel is off."""
        if self.encoder is None:
            return None
        generation = self._store.generation()
        if self._meaning is not None and self._meaning_generation == generation:
            return self._meaning
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.encoder)
        name = f"meaning2:{self._fingerprint}"  # 2: with text digests (older caches lack them)
        payload = self._store.cached(name, generation)
        if payload is not None:
            index = MeaningIndex.from_bytes(payload)
        else:
            previous = self._meaning
            if previous is None and (old := self._store.cached_latest(name)) is not None:
                previous = MeaningIndex.from_bytes(old)
            index = MeaningIndex.build(self.encoder, self._store.line_rows(), previous)
            self._store.cache(name, generation, index.to_bytes())
        self._meaning, self._meaning_generation = index, generation
        remember = getattr(self.reranker, "remember", None)
        if remember is not None:  # late interaction reads these lines question after question
            remember([text for *_, text in self._store.line_rows()])
        return index

    # -- documents --

    def word_documents(self, query: str) -> list[tuple[int, float]]:
        """(document id, best line score), best first, documents with any matching word."""
        index = self.words()
        if index.size == 0:
            return []
        return _word_documents(index, self._scores(index, query))

    def meaning_documents(self, query: str) -> list[tuple[int, float]]:
        """(document id, best profile cosine), best first; empty when the channel is off."""
        meaning = self.meaning()
        if meaning is None or meaning.size == 0 or self.encoder is None:
            return []
        return meaning.rank_documents(self._query_vector(query))

    def coverage(self, query: str) -> float:
        """Share of the question's words the store's vocabulary holds (1.0 for none asked)."""
        index = self.words()
        language = detect_language(query, default=index.main_language)
        terms = set(Analyzer(language).terms(query))
        if not terms:
            return 1.0
        return sum(term in index.vocabulary for term in terms) / len(terms)

    def fused_documents(self, query: str, scores: np.ndarray | None = None) -> list[DocumentHit]:
        """Documents, best first: see "How documents are ranked" in this module's docstring."""
        index = self.words()
        if index.size == 0:
            return []
        if scores is None:
            scores = self._scores(index, query)
        by_words = _word_documents(index, scores)
        words_order = [d for d, _ in by_words[:FUSION_DEPTH]]
        words_rank = {d: r for r, d in enumerate(words_order, start=1)}
        known = self.coverage(query) >= WORDS_SUFFICE and bool(words_order)
        closeness: dict[int, float] = {}
        meaning_rank: dict[int, int] = {}
        if self.encoder is not None:
            by_meaning = self.meaning_documents(query)
            closeness = dict(by_meaning)
            meaning_rank = {d: r for r, (d, _) in enumerate(by_meaning[:FUSION_DEPTH], start=1)}
        if known or not meaning_rank:
            fused = rrf([words_order])
        else:
            # A ranking, not a verdict: what meaning proposes is only cited as evidence
            # when close enough (MEANING_FLOOR, in _proposed).
            proposed = [d for d, _ in by_meaning[:FUSION_DEPTH]]
            fused = rrf([words_order, proposed])
        if self.reranker is not None and len(fused) > 1:
            fused = self._late_documents(query, index, scores, fused, follow_words=known)
        names = {document_id: name for document_id, name, _ in self._store.documents()}
        return [
            DocumentHit(names[d], score, words_rank.get(d), meaning_rank.get(d), closeness.get(d))
            for d, score in fused
        ]

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
        reading = {d: self._lines_to_read(index, scores, d, query) for d in top}
        every = [line_id for line_ids in reading.values() for line_id in line_ids]
        rows = self._store.lines_by_id(every)
        found = np.asarray(self.reranker.scores(query, [rows[line_id].text for line_id in every]))
        if found.shape != (len(every),):
            raise ValueError(
                f"the reranker returned {found.shape} scores for {len(every)} candidates"
            )
        late: dict[int, float] = {}
        start = 0
        for document_id, line_ids in reading.items():
            mine = found[start : start + len(line_ids)]
            late[document_id] = float(np.max(mine)) if len(mine) else 0.0
            start += len(line_ids)
        by_late = sorted(top, key=lambda d: (-late[d], top.index(d)))
        # Where the store knows the question's words their order is strong, and late
        # interaction's is fused with it; where it does not, late interaction's decides.
        head = rrf([top, by_late]) if follow_words else rrf([by_late])
        tail = fused[LATE_DEPTH:]
        lift = tail[0][1] if tail else 0.0  # the head stays above the tail, order unchanged
        return [(d, score + lift) for d, score in head] + tail

    def _lines_to_read(
        self, index: WordIndex, scores: np.ndarray, document_id: int, query: str
    ) -> list[int]:
        """A document's best LINES_READ lines by words and its closest by meaning."""
        slot = int(np.flatnonzero(index.document_ids == document_id)[0])
        rows = np.flatnonzero(index.line_documents == slot)
        chosen: set[int] = set()
        word_scores = scores[rows]
        for at in np.lexsort((rows, -word_scores))[:LINES_READ]:
            if word_scores[at] > 0:
                chosen.add(int(index.line_ids[rows[at]]))
        meaning = self.meaning()
        if meaning is not None and self.encoder is not None:
            lines = index.line_ids[rows]
            closeness = meaning.line_vectors(lines.tolist()) @ self._query_vector(query)
            chosen.update(int(lines[at]) for at in np.lexsort((lines, -closeness))[:LINES_READ])
        return sorted(chosen)

    def _query_vector(self, query: str) -> np.ndarray:
        assert self.encoder is not None
        last = self._last
        if last is None or last[0] != query:
            last = self._last = (query, encode(self.encoder, [query])[0])
        return last[1]

    @staticmethod
    def _scores(index: WordIndex, query: str) -> np.ndarray:
        # A question too short to show its language is read in the store's own.
        language = detect_language(query, default=index.main_language)
        return index.scores(query, language)

    def graph(self) -> EntityGraph:
        """The store's entity graph, cached in the store under its generation."""
        generation = self._store.generation()
        if self._graph is not None and self._graph_generation == generation:
            return self._graph
        payload = self._store.cached(GRAPH_CACHE, generation)
        if payload is not None:
            graph = EntityGraph.from_bytes(payload)
        else:
            languages = {
                document_id: language for document_id, _, language in self._store.documents()
            }
            rows = [
                (line_id, text, languages[document_id])
                for line_id, document_id, _, _, text in self._store.line_rows()
            ]
            previous = self._graph
            if previous is None and (old := self._store.cached_latest(GRAPH_CACHE)) is not None:
                previous = EntityGraph.from_bytes(old)
            graph = previous.updated(rows) if previous is not None else EntityGraph.build(rows)
            self._store.cache(GRAPH_CACHE, generation, graph.to_bytes())
        names = " ".join(name for _, name, _ in self._store.documents())
        named = set(segments(names.replace("_", " ")).split())
        self._implicit = frozenset(
            number for number, entity in enumerate(graph.entities) if set(entity.words) <= named
        )
        self._graph, self._graph_generation = graph, generation
        return graph

    def lines(self, line_ids: list[int]) -> list[Evidence]:
        """Stored lines by id, in the order given, as Evidence (score 0)."""
        rows = self._store.lines_by_id(line_ids)
        return [_evidence(rows[line_id], 0.0) for line_id in line_ids]

    def _partition(self, index: WordIndex, query: str) -> list[tuple[int, float]] | None:
        """The partition path's ranked (line id, score), or None to score the store."""
        language = detect_language(query, default=index.main_language)
        graph = self.graph()
        found = partition(graph, index, query, language, self._implicit)
        if found is None:
            return None
        rows, scores = found
        ranked = [(int(index.line_ids[r]), float(s)) for r, s in zip(rows, scores, strict=True)]
        # Lines nothing may be said from must not decide what is read: when no line of the
        # partition can be cited, the whole store is scored.
        stored = self._store.lines_by_id([line_id for line_id, _ in ranked])
        if not any(row.trust >= self.speaking_threshold for row in stored.values()):
            return None
        return ranked

    def search(self, query: str, k: int) -> list[Evidence]:
        index = self.words()
        if index.size == 0 or k <= 0:
            return []
        ranked = self._partition(index, query)
        if ranked is None:
            ranked = index.top(self._scores(index, query), k)
        ranked = ranked[:k]
        rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        return [_evidence(rows[line_id], score) for line_id, score in ranked]

    def retrieve(
        self, query: str, *, depth: int = RETRIEVE_DEPTH, partitioned: bool = True
    ) -> Retrieved:
        """Evidence for ``query``. ``partitioned=False`` never takes the partition path:
        an audit must see every line that could support a sentence, not only the lines
        that name the question's entities."""
        index = self.words()
        if index.size == 0:
            return Retrieved([], [], 0)
        shared = self._partition(index, query) if partitioned else None
        if shared is not None:
            # The question's entities share these lines: read them, not the store.
            ranked = shared[:depth]
            scores = np.zeros(index.size, dtype=np.float32)
            scores[np.searchsorted(index.line_ids, [i for i, _ in ranked])] = [s for _, s in ranked]
            fused: list[DocumentHit] = []
        else:
            scores = self._scores(index, query)
            ranked = index.top(scores, depth)
            fused = self.fused_documents(query, scores) if self.encoder is not None else []
        if fused:
            ranked = ranked + self._proposed(query, index, scores, ranked, fused)
        rows = self._store.lines_by_id([line_id for line_id, _ in ranked])
        hits: list[Evidence] = []
        stored: dict[tuple[str, int], StoredLine] = {}
        withheld = 0
        for line_id, score in ranked:
            row = rows[line_id]
            if row.trust < self.speaking_threshold:
                withheld += 1
                continue
            hits.append(_evidence(row, score))
            stored[(row.document, row.position)] = row
        if self.reranker is not None and len(hits) > 1:
            hits = self._late_lines(query, hits)
        # The best lines, no document beyond its share while others hold evidence, then
        # grouped by document (best document first) with their context.
        by_document: dict[str, list[StoredLine]] = {}
        for hit in evidence_block(hits):
            by_document.setdefault(hit.document, []).append(stored[(hit.document, hit.position)])
        if fused:
            place = {hit.document: at for at, hit in enumerate(fused)}
            order = sorted(by_document, key=lambda name: place.get(name, len(place)))
            by_document = {name: by_document[name] for name in order}
        subsets = [self._subset(lines, scores, index) for lines in by_document.values()]
        return Retrieved(hits, subsets, withheld)

    def _late_lines(self, query: str, hits: list[Evidence]) -> list[Evidence]:
        """The top LATE_DEPTH hits reordered as documents are (words' order fused or not)."""
        head = hits[:LATE_DEPTH]
        by_late = rerank(self.reranker, query, head, lambda hit: hit.text)  # type: ignore[arg-type]
        if self.coverage(query) >= WORDS_SUFFICE:
            order = [hit for hit, _ in rrf([head, by_late])]
        else:
            order = by_late
        return order + hits[LATE_DEPTH:]

    def _proposed(
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
        ids = {name: document_id for document_id, name, _ in self._store.documents()}
        proposed: list[tuple[int, float]] = []
        for hit in fused[:MEANING_DOCUMENTS]:
            document_id = ids[hit.document]
            if document_id in reached or (hit.closeness or 0.0) < MEANING_FLOOR:
                continue
            shortlist = self._lines_to_read(index, scores, document_id, query)
            if self.reranker is not None:
                said = {i: row.text for i, row in self._store.lines_by_id(shortlist).items()}
                shortlist = rerank(self.reranker, query, shortlist, said.__getitem__)
            proposed += [(line_id, 0.0) for line_id in shortlist[:PROPOSED_LINES]]
        return proposed

    def _subset(
        self, best: list[StoredLine], scores: np.ndarray, index: WordIndex
    ) -> list[Evidence]:
        document_id = best[0].document_id
        have = {line.position for line in best}
        wanted = {
            line.position + step
            for line in best
            for step in range(-CONTEXT_REACH, CONTEXT_REACH + 1)
        } - have
        context = self._store.lines_at(document_id, sorted(p for p in wanted if p >= 0))
        members = [*context, *best]
        # Index rows are in line-id order, so one search finds every member's score.
        rows = np.searchsorted(index.line_ids, [line.id for line in members])
        lines = [(line, float(scores[row])) for line, row in zip(members, rows, strict=True)]
        lines.sort(key=lambda pair: (-pair[1], pair[0].position))
        return [_evidence(line, score) for line, score in lines]


def _word_documents(index: WordIndex, scores: np.ndarray) -> list[tuple[int, float]]:
    best = np.zeros(len(index.document_ids), dtype=np.float64)
    np.maximum.at(best, index.line_documents, scores)
    slots = np.flatnonzero(best > 0)
    ids = index.document_ids[slots]
    order = np.lexsort((ids, -best[slots]))
    return [(int(ids[i]), float(best[slots[i]])) for i in order]


def _evidence(line: StoredLine, score: float) -> Evidence:
    return Evidence(
        line.document, line.position, line.text, line.kind, score, line.cells, line.trust
    )
