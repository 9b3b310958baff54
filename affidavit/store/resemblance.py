"""How much of one document another repeats, known at ingest without reading the store's
lines: each document keeps a signature (the smallest of its lines' hashes under 64 fixed
permutations, a MinHash), and the share of equal places in two signatures estimates the
share of lines the two documents have in common (their Jaccard resemblance). A document
that repeats a stored one almost whole (a version, a copy) is named in the ingest's
warnings."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence

import numpy as np

from affidavit.store.schema import has_table

PERMUTATIONS = 64
# A signature is also kept cut into this many bands, found through an index (see _bands).
BANDS = 16
# Two documents whose lines are this much the same are near-duplicates (issue 42's bound).
NEAR_DUPLICATE = 0.95
_SEEDS = (
    np.random.default_rng(20261204)
    .integers(1, 2**63 - 1, size=(2, PERMUTATIONS), dtype=np.int64)
    .astype(np.uint64)
)
_MULTIPLIERS = _SEEDS[0] | np.uint64(1)  # odd: a permutation of the 64-bit integers
_OFFSETS = _SEEDS[1]


def signature(lines: Sequence[str]) -> bytes:
    """The document's signature over its lines' texts (spacing aside), as stored."""
    said = {" ".join(text.split()) for text in lines}
    said.discard("")
    if not said:
        return np.full(PERMUTATIONS, np.iinfo(np.uint64).max, dtype=np.uint64).tobytes()
    hashes = np.fromiter(
        (
            int.from_bytes(
                hashlib.blake2b(s.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                "little",
            )
            for s in said
        ),
        dtype=np.uint64,
        count=len(said),
    )
    with np.errstate(over="ignore"):
        permuted = hashes[:, None] * _MULTIPLIERS[None, :] + _OFFSETS[None, :]
    return permuted.min(axis=0).astype(np.uint64).tobytes()


def keep_signature(conn: sqlite3.Connection, document_id: int, lines: Sequence[str]) -> None:
    """Store the signature of document ``document_id`` and its bands (a store without the
    table, opened by an older schema's reader, keeps none)."""
    signed = signature(lines)
    conn.execute(
        "INSERT OR REPLACE INTO signatures (document_id, signature) VALUES (?, ?)",
        (document_id, signed),
    )
    if has_table(conn, "signature_bands"):
        conn.execute("DELETE FROM signature_bands WHERE document_id = ?", (document_id,))
        conn.executemany(
            "INSERT INTO signature_bands (document_id, band, value) VALUES (?, ?, ?)",
            [(document_id, band, value) for band, value in enumerate(_bands(signed))],
        )


def _bands(signed: bytes) -> list[bytes]:
    """The signature cut into BANDS runs of equal length. Two signatures equal in all but
    fewer than BANDS places are equal in at least one whole band (each place that differs
    spoils one band at most), so a near-duplicate always shares a band."""
    width = len(signed) // BANDS
    return [signed[at * width : (at + 1) * width] for at in range(BANDS)]


def near_duplicates(
    conn: sqlite3.Connection, names: Sequence[str], threshold: float = NEAR_DUPLICATE
) -> list[tuple[str, str, float]]:
    """For each of ``names``, the stored documents (other than those named) whose lines
    are at least ``threshold`` the same: (name, the other, the estimated share), the most
    alike first for each name."""
    if not names or not has_table(conn, "signatures"):
        return []
    differing = int(PERMUTATIONS - np.ceil(threshold * PERMUTATIONS - 1e-9))
    if has_table(conn, "signature_bands") and differing < BANDS:
        rows = _sharing_a_band(conn, names)
    else:  # a store before the bands, or a bound too loose for them: every signature
        rows = conn.execute(
            "SELECT d.name, s.signature FROM signatures s JOIN documents d "
            "ON d.id = s.document_id ORDER BY d.id"
        ).fetchall()
    if len(rows) < 2:
        return []
    stored = [name for name, _ in rows]
    table = np.frombuffer(b"".join(sig for _, sig in rows), dtype=np.uint64).reshape(
        len(rows), PERMUTATIONS
    )
    at = {name: i for i, name in enumerate(stored)}
    asked = set(names)
    found = []
    for name in names:
        if name not in at:
            continue
        share = (table == table[at[name]]).mean(axis=1)
        alike = [
            (stored[i], float(share[i]))
            for i in np.flatnonzero(share >= threshold).tolist()
            if stored[i] not in asked
        ]
        alike.sort(key=lambda pair: (-pair[1], pair[0]))
        found += [(name, other, round(s, 2)) for other, s in alike]
    return found


def _sharing_a_band(conn: sqlite3.Connection, names: Sequence[str]) -> list[tuple[str, bytes]]:
    """(name, signature) of ``names`` and of every document sharing a band with one of
    them, in id order: the only documents that can be near-duplicates of them."""
    ids: set[int] = set()
    for name in names:
        row = conn.execute("SELECT id FROM documents WHERE name = ?", (name,)).fetchone()
        if row is None:
            continue
        ids.add(int(row[0]))
        ids.update(
            int(other)
            for (other,) in conn.execute(
                "SELECT DISTINCT o.document_id FROM signature_bands b JOIN signature_bands o "
                "ON o.band = b.band AND o.value = b.value WHERE b.document_id = ?",
                (int(row[0]),),
            )
        )
    found: list[tuple[str, bytes]] = []
    chosen = sorted(ids)
    for start in range(0, len(chosen), 900):
        chunk = chosen[start : start + 900]
        marks = ",".join("?" * len(chunk))
        found += conn.execute(
            "SELECT d.name, s.signature FROM signatures s JOIN documents d "
            f"ON d.id = s.document_id WHERE d.id IN ({marks}) ORDER BY d.id",
            chunk,
        ).fetchall()
    return found


def repeat_warnings(conn: sqlite3.Connection, names: Sequence[str]) -> list[str]:
    """The ingest's words for each of ``names`` that repeats stored documents: one line a
    document, naming the one most alike and how many others are as alike."""
    by_name: dict[str, list[tuple[str, float]]] = {}
    for name, other, share in near_duplicates(conn, names):
        by_name.setdefault(name, []).append((other, share))
    said = []
    for name, alike in by_name.items():
        other, share = alike[0]
        more = f", and {len(alike) - 1} other documents' as much" if len(alike) > 1 else ""
        said.append(
            f"{name}: {share:.0%} of its lines are {other}'s too{more} (a version or a copy?)"
        )
    return said
