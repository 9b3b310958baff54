"""The entity graph as bytes, as the store's index cache keeps it: its entities, postings
and witnessed pairs as arrays (each list flattened, with its sizes), the kept corpus's
arrays, and a JSON head; no pickles."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from affidavit.index.entities.corpus import Corpus
from affidavit.index.entities.mined_counts import MinedCounts
from affidavit.index.entities.mining import Entity
from affidavit.index.packing import load_arrays, save_arrays


class Graphed(Protocol):
    """What is stored of an entity graph (graph.EntityGraph is one)."""

    entities: list[Entity]
    postings: list[np.ndarray]
    pairs: dict[tuple[int, int], np.ndarray]
    lines: int
    kept: Corpus | dict[str, np.ndarray] | None
    line_ids: np.ndarray
    digests: np.ndarray
    mined: int
    document_keys: list[str]
    counts: MinedCounts | None


@dataclass(frozen=True)
class StoredGraph:
    """A graph as ``graph_bytes`` wrote it, its fields read back."""

    entities: list[Entity]
    postings: list[np.ndarray]
    pairs: dict[tuple[int, int], np.ndarray]
    lines: int
    kept: dict[str, np.ndarray] | None
    line_ids: np.ndarray
    digests: np.ndarray
    mined: int  # 0: mine again at the next update
    document_keys: list[str]
    counts: dict[str, np.ndarray]  # the mining's counts, when kept (mined_counts.py)


def graph_bytes(graph: Graphed) -> bytes:
    """``graph`` (settled) as one payload."""
    pairs = sorted(graph.pairs)
    meta = {
        "entities": [[list(e.words), e.name, e.count] for e in graph.entities],
        "lines": graph.lines,
        "mined": graph.mined,
        "keys": graph.document_keys,
    }
    arrays: dict[str, np.ndarray] = dict(
        meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        posting_sizes=np.array([len(p) for p in graph.postings], dtype=np.int64),
        postings=np.concatenate(graph.postings) if graph.postings else np.zeros(0, np.int64),
        pairs=np.array(pairs, dtype=np.int64).reshape(-1, 2),
        witness_sizes=np.array([len(graph.pairs[p]) for p in pairs], dtype=np.int64),
        witnesses=(
            np.concatenate([graph.pairs[p] for p in pairs]) if pairs else np.zeros(0, np.int64)
        ),
        line_ids=graph.line_ids,
        digests=graph.digests,
    )
    if isinstance(graph.kept, Corpus):
        arrays.update(graph.kept.to_arrays())
    elif graph.kept is not None:
        arrays.update(graph.kept)
    if graph.counts is not None:
        arrays.update(graph.counts.to_arrays())
    return save_arrays(arrays)


def read_graph(payload: bytes) -> StoredGraph:
    """The graph ``graph_bytes`` wrote."""
    data = load_arrays(payload)
    meta = json.loads(bytes(data["meta"]).decode())
    entities = [Entity(tuple(w), name, count) for w, name, count in meta["entities"]]
    postings = _split(data["postings"], data["posting_sizes"])
    witnesses = _split(data["witnesses"], data["witness_sizes"])
    pairs = {(a, b): w for (a, b), w in zip(data["pairs"].tolist(), witnesses, strict=True)}
    empty = np.zeros(0, dtype=np.int64)
    return StoredGraph(
        entities=entities,
        postings=postings,
        pairs=pairs,
        lines=int(meta["lines"]),
        kept={k: data[k] for k in data if k.startswith("c_")} or None,
        line_ids=data.get("line_ids", empty),
        digests=data.get("digests", empty),
        mined=int(meta.get("mined", 0)),
        document_keys=list(meta.get("keys", [])),
        counts={k: data[k] for k in data if k.startswith("m_")},
    )


def _split(flat: np.ndarray, sizes: np.ndarray) -> list[np.ndarray]:
    if not len(sizes):
        return []
    return list(np.split(flat, np.cumsum(sizes)[:-1]))
