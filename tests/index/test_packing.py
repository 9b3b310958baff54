"""Index arrays are stored narrow and compressed, and read back as they were written,
value for value; payloads written before compression are still read."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from conftest import DEMO_DIR

from affidavit import Memory
from affidavit.index.packing import load_arrays, save_arrays


def test_arrays_come_back_in_their_own_types_and_values() -> None:
    arrays = {
        "ids": np.arange(1, 300_000, dtype=np.int64),
        "counts": np.array([1.0, 19.0, 3.0], dtype=np.float32),
        "fractions": np.array([0.5, 1.0], dtype=np.float32),
        "signed": np.array([-3, 7], dtype=np.int64),
        "digests": np.array([-(2**62), 2**62], dtype=np.int64),
        "grid": np.ones((2, 3), dtype=np.int32),
        "empty": np.zeros(0, dtype=np.int64),
    }
    back = load_arrays(save_arrays(arrays))
    assert set(back) == set(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype, name
        assert back[name].shape == array.shape, name
        assert np.array_equal(back[name], array), name


def test_narrow_arrays_take_fewer_bytes() -> None:
    ids = np.arange(1, 300_000, dtype=np.int64)  # fits 32 bits
    counts = np.ones(300_000, dtype=np.float32)  # whole numbers: 8 bits
    wide = len(save_arrays({"x": ids.astype(np.float64) + 0.5}))  # nothing to narrow
    assert len(save_arrays({"x": ids})) < 0.55 * wide
    assert len(save_arrays({"x": counts})) < 0.3 * counts.nbytes


def test_sorted_ids_compress_far_below_their_narrow_bytes() -> None:
    # Line ids of a store: runs of consecutive ids (a removed document leaves a gap), so
    # their bytes, regrouped by significance, are long runs and steady steps.
    ids = np.concatenate([np.arange(1, 120_000), np.arange(150_000, 230_000)])
    assert len(save_arrays({"ids": ids})) < 0.05 * ids.astype(np.uint32).nbytes


def test_a_payload_written_before_compression_is_read_as_it_was() -> None:
    arrays = {"ids": np.arange(5, dtype=np.int64), "counts": np.ones(3, dtype=np.float32)}
    narrow = {"ids": arrays["ids"].astype(np.uint8), "counts": arrays["counts"].astype(np.uint8)}
    types = {"ids": "<i8", "counts": "<f4"}
    buffer = io.BytesIO()
    np.savez(buffer, **narrow, packing_types=np.frombuffer(json.dumps(types).encode(), np.uint8))
    for older in (buffer.getvalue(), _plain_npz(arrays)):
        back = load_arrays(older)
        for name, array in arrays.items():
            assert back[name].dtype == array.dtype and np.array_equal(back[name], array)


def _plain_npz(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_a_store_reopened_ranks_as_it_did(tmp_path: Path) -> None:
    """The indexes cached narrow in the store rank the same after a reopen."""
    path = tmp_path / "store.sqlite"
    questions = ["When did the Normans conquer England?", "How did the Black Death spread?"]

    def ranked(memory: Memory) -> list[list[tuple[str, int, float]]]:
        return [
            [(e.document, e.position, e.score) for e in memory.search(q, k=10)] for q in questions
        ]

    with Memory(path) as memory:
        memory.ingest([DEMO_DIR / "Normans.txt", DEMO_DIR / "Black_Death.txt"])
        before = ranked(memory)
    with Memory(path, read_only=True) as memory:
        assert ranked(memory) == before
