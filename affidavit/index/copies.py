"""Lines that repeat each other across documents (versions of one policy, copies of one
file): the evidence block reads each such line once, at its best place, and keeps where
else it is written, so an answer cites every copy and its census says how many documents
say it. Only sentences and turns long enough to be one document's own words are taken
for copies: a short line ("Yes!", "Contents") or a table row says the same words about
different things in different documents, and each keeps its own place, unless the
documents are one text stored twice and read alike (the same reading hash)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from affidavit.results import Evidence, LineKind
from affidavit.store import Store

# A line shorter than this is not taken for a copy of another (see above).
SHORTEST_COPY = 40
_COPIED_KINDS = frozenset({LineKind.SENTENCE, LineKind.TURN})

Place = tuple[str, int]


def copy_key(line: Evidence, twins: Mapping[str, str] | None = None) -> str | None:
    """What two copies of a line share: its words as written, spacing aside; None for a
    line that is never taken for a copy. In a document stored whole more than once
    (``twins``: its name -> its reading hash) every line is a copy of the line at its
    place in each twin, whatever its length or kind: the same text around it says the
    same thing."""
    said = " ".join(line.text.split())
    if line.kind in _COPIED_KINDS and len(said) >= SHORTEST_COPY:
        return said
    twin = twins.get(line.document) if twins else None
    return None if twin is None else f"{twin}\n{line.position}"


def distinct(
    hits: Sequence[Evidence], twins: Mapping[str, str] | None = None
) -> tuple[list[Evidence], dict[Place, list[Evidence]]]:
    """``hits`` with each copied line kept once, where it ranks best (ties: the order
    given), and for each kept line the other places that write it, in rank order.
    ``twins``: the documents stored whole more than once (see ``copy_key``)."""
    kept: list[Evidence] = []
    first: dict[str, Evidence] = {}
    copies: dict[Place, list[Evidence]] = {}
    for hit in hits:
        key = copy_key(hit, twins)
        if key is None:
            kept.append(hit)
            continue
        held = first.get(key)
        if held is None:
            first[key] = hit
            kept.append(hit)
        elif hit.trust > held.trust:
            kept.append(hit)  # a copy in a more trusted source stands on its own
        else:
            copies.setdefault((held.document, held.position), []).append(hit)
    return kept, copies


def twins_among(hashes: Mapping[str, str]) -> dict[str, str]:
    """Each document of ``hashes`` (name -> reading hash, store/prepared.py) that another
    of them repeats whole: its name -> that hash."""
    held = Counter(hashes.values())
    return {name: h for name, h in hashes.items() if held[h] > 1}


def every_reading_hash(store: Store) -> dict[int, str]:
    """The reading hash of every document of the store that has one, by document id."""
    return store.reading_hashes([number for number, _, _ in store.documents()])


def copied_documents(store: Store, ids: Sequence[int]) -> set[int]:
    """Those of the documents ``ids`` that repeat an earlier one whole: the same reading
    hash (store/prepared.py) as a document of a smaller id among ``ids``, which stands
    for them (every document's ids: the store's copies; a few: ``copied_among``)."""
    return set(originals(store.reading_hashes(ids)))


def copied_among(store: Store, ids: Sequence[int]) -> set[int]:
    """As ``copied_documents``, the earlier document looked for among all the store's,
    in time in ``ids`` (a few documents just added to a large store)."""
    hashes = store.reading_hashes(ids)
    first = store.first_readings(hashes.values())
    return {
        document_id for document_id, h in hashes.items() if first.get(h, document_id) < document_id
    }


def originals(hashes: Mapping[int, str]) -> dict[int, int]:
    """Each document of ``hashes`` (id -> reading hash) that repeats an earlier one whole
    -> the one of the smallest id with its hash, which stands for it."""
    first: dict[str, int] = {}
    return {
        document_id: original
        for document_id in sorted(hashes)
        if (original := first.setdefault(hashes[document_id], document_id)) != document_id
    }
