"""The entity graph a retriever holds: the one of the store's generation, read from the
store's cache or built (index/entities/background_build.py), grown as documents are added one call
at a time (index/growth.py), and the entities the documents' names carry."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from affidavit.index.copies import every_reading_hash, originals
from affidavit.index.entities.background_build import GraphBuild, built_graph, start_graph
from affidavit.index.entities.graph import EntityGraph
from affidavit.index.entities.shard_phrases import PhraseIndex, Skipped
from affidavit.index.growth import added_graph
from affidavit.index.packing import typed_numbers
from affidavit.store import Store
from affidavit.text import segments

# The entity graph's cache entry (2: with the kept corpus and the lines' digests).
GRAPH_CACHE = "entities2"


class HeldGraph:
    """The graph in hand, the generation it is of, and what is known of it."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.graph: EntityGraph | None = None
        self.generation = -1
        self.cached = True  # False for a graph grown here and not yet cached
        self.left = False  # ``grow`` could not grow the graph: left to a question
        self._implicit: frozenset[int] | None = frozenset()  # None: not yet read
        self._phrases: tuple[EntityGraph, PhraseIndex] | None = None
        self._copies: tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray] | None] | None = None
        self._uncounted: tuple[int, frozenset[str], Skipped] | None = None

    def current(self, pending: GraphBuild | None = None) -> EntityGraph:
        """The store's entity graph, cached in the store under its generation (the one
        ``pending`` builds elsewhere, when one does)."""
        generation = self._store.generation()
        if self.graph is not None and self.generation == generation:
            if self.graph.settle():  # grown and renumbered: the names' entities read again
                self._implicit = None
            return self.graph  # (then nothing was started elsewhere: start_graph)
        cached = self._store.cached(GRAPH_CACHE, generation)
        graph = built_graph(self._store, GRAPH_CACHE, generation, self.graph, pending, cached)
        graph.settle()
        self._hold(graph, generation, cached=True)
        return graph

    def start(self) -> GraphBuild | None:
        """A worker building the graph of the store's generation elsewhere, when worth it."""
        held = self.generation if self.graph is not None else None
        return start_graph(self._store, GRAPH_CACHE, self.graph, held)

    def grow(self) -> None:
        """After documents are added one call at a time: bring the graph up to date now,
        so the next question builds nothing. The graph in hand grows by the new lines
        (time in their size, and a mining when the text has grown enough for one:
        ``added_graph``), held, and cached when the store is closed (``leave_cached``);
        with none in hand, the graph is read or built as a question would. A graph that
        cannot grow (a document was replaced or removed) is left to the next question."""
        if self.graph is None:
            self.current()
            return
        generation = self._store.generation()
        if self.generation == generation or self.left:
            return
        graph = added_graph(self._store, self.graph)
        if graph is not None:
            self._hold(graph, generation, cached=False)
        else:  # not tried again before a question has read every line
            self.left = True

    def leave_cached(self) -> None:
        """Bring the graph up to date and cache it in the store, if it is not."""
        graph = self.current()
        if not self.cached:  # grown after an addition, never cached
            self._store.cache(GRAPH_CACHE, self.generation, graph.to_bytes())
            self.cached = True

    @property
    def implicit(self) -> frozenset[int]:
        """The entities the documents' names carry, read once a graph held: a question's
        partition asks for them, an addition that grows the graph does not."""
        if self._implicit is None:
            names = " ".join(name for _, name, _ in self._store.documents())
            named = set(segments(names.replace("_", " ")).split())
            entities = self.graph.entities if self.graph is not None else []
            self._implicit = frozenset(
                number for number, entity in enumerate(entities) if set(entity.words) <= named
            )
        return self._implicit

    def phrases(self, graph: EntityGraph) -> PhraseIndex | None:
        """The phrase index of ``graph``'s kept corpus, made once a graph (None when it
        keeps none)."""
        if graph.kept is None:
            return None
        if self._phrases is None or self._phrases[0] is not graph:
            self._phrases = (graph, PhraseIndex(graph.kept, graph.words))
        return self._phrases[1]

    def uncounted(self, store: Store, index: PhraseIndex, hashes: frozenset[str]) -> Skipped:
        """The lines of the documents of these reading hashes (another shard counts
        them), as ``index`` leaves them out; read once a store generation."""
        generation = store.generation()
        held = self._uncounted
        if held is None or held[0] != generation or held[1] != hashes:
            read = every_reading_hash(store)
            documents = sorted(number for number, held in read.items() if held in hashes)
            lines = typed_numbers(store.line_places(documents)[0])
            held = self._uncounted = (generation, hashes, index.skipping(lines))
        return held[2]

    def copied_lines(self, store: Store) -> Callable[[np.ndarray], np.ndarray] | None:
        """Line ids -> those and the lines of the store's copies at their places (a copy's
        lines are its original's, place by place), ascending; None when the store holds
        no copy. Read once a store generation."""
        generation = store.generation()
        if self._copies is None or self._copies[0] != generation:
            copied = originals(every_reading_hash(store))
            self._copies = (generation, _line_map(store, copied) if copied else None)
        found = self._copies[1]
        if found is None:
            return None
        sources, starts, targets = found

        def with_copies(line_ids: np.ndarray) -> np.ndarray:
            at = np.searchsorted(sources, line_ids)
            hit = (at < len(sources)) & (sources[np.minimum(at, len(sources) - 1)] == line_ids)
            if not hit.any():
                return line_ids
            first, last = starts[at[hit]], starts[at[hit] + 1]
            taken = np.repeat(first - np.r_[0, np.cumsum(last - first)[:-1]], last - first)
            more = targets[taken + np.arange(int((last - first).sum()))]
            return np.union1d(line_ids, more)

        return with_copies

    def adopt(self, other: HeldGraph) -> None:
        """Hold what ``other`` holds (a forked batch worker, its parent's graph)."""
        self.graph, self.generation, self._implicit = other.graph, other.generation, other._implicit
        self.cached, self.left = other.cached, other.left

    def _hold(self, graph: EntityGraph, generation: int, *, cached: bool) -> None:
        self.graph, self.generation, self._implicit = graph, generation, None
        self.cached, self.left = cached, False
        self._phrases = self._uncounted = None  # the last graph's, not held beside this one


def _line_map(store: Store, copied: dict[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The original lines of ``copied`` (copy -> original document) that a copy repeats,
    ascending; where each one's copies start in the third array (one more than the
    first); and the ids of the copies' lines at its place, original by original."""
    documents = sorted(set(copied) | set(copied.values()))
    ids, owners, places = (typed_numbers(a) for a in store.line_places(documents))
    copy_of = np.array(sorted(copied), dtype=np.int64)
    original_of = np.array([copied[d] for d in copy_of.tolist()], dtype=np.int64)
    is_copy = np.isin(owners, copy_of)
    # A line's place as one number: its document (the original's, for a copy) and position.
    width = int(places.max()) + 1 if len(places) else 1
    owner = owners.copy()
    owner[is_copy] = original_of[np.searchsorted(copy_of, owners[is_copy])]
    place = owner * width + places
    first_rows = np.flatnonzero(~is_copy)
    if not len(first_rows) or not is_copy.any():
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(1, dtype=np.int64), empty
    order = first_rows[np.argsort(place[first_rows], kind="stable")]
    copies = np.flatnonzero(is_copy)
    at = np.minimum(np.searchsorted(place[order], place[copies]), len(order) - 1)
    found = place[order][at] == place[copies]
    sources_of, targets = ids[order][at[found]], ids[copies[found]]
    by_source = np.lexsort((targets, sources_of))
    sources_of, targets = sources_of[by_source], targets[by_source]
    sources, first = np.unique(sources_of, return_index=True)
    return sources, np.r_[first, len(targets)].astype(np.int64), targets
