"""The memory bound of a bounded reading counts memory used, not address space reserved:
a reader whose libraries reserve far more than they touch (the ONNX runtime's threads
under OCR) reads within it, and one that keeps writing past it is stopped with an
IngestError naming the bound, its worker replaced for the next file."""

from __future__ import annotations

import mmap
from pathlib import Path

import pytest

from affidavit import IngestError, IngestLimits
from affidavit.ingest.bounded import Readers, finish_reading

_MB = 2**20


def reserve_a_gigabyte_and_use_a_little(units: list) -> int:
    """Run in the worker after reading: a gigabyte reserved, ten megabytes of it written."""
    reserved = mmap.mmap(-1, 1024 * _MB, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    reserved[: 10 * _MB] = b"x" * (10 * _MB)
    reserved.close()
    return len(units)


def keep_writing(units: list) -> int:
    """Run in the worker after reading: 16 MB at a time, every page written, forever."""
    held = []
    while True:
        held.append(bytearray(16 * _MB))


@pytest.fixture()
def small_text(tmp_path: Path) -> Path:
    path = tmp_path / "note.txt"
    path.write_text("The bridge opened in 1932.\n", encoding="utf-8")
    return path


def test_address_space_reserved_but_not_used_is_not_counted(small_text: Path) -> None:
    limits = IngestLimits(memory_mb=100)
    with Readers() as readers:
        read, said = finish_reading(
            readers.start(small_text, limits, reserve_a_gigabyte_and_use_a_little), limits
        )
    assert read == 1 and said == []


def test_a_reading_that_keeps_writing_is_stopped_at_its_bound_and_its_worker_replaced(
    small_text: Path,
) -> None:
    limits = IngestLimits(memory_mb=100)
    with Readers() as readers:
        with pytest.raises(IngestError, match="needed more than 100 MB") as raised:
            finish_reading(readers.start(small_text, limits, keep_writing), limits)
        assert raised.value.path == str(small_text)
        units, _ = finish_reading(readers.start(small_text, limits), limits)
    assert [unit.text for unit in units] == ["The bridge opened in 1932."]
