"""The memory bound of a bounded reading counts memory used, not address space reserved:
a reader whose libraries reserve far more than they touch (the ONNX runtime's threads
under OCR) reads within it, and one that keeps writing past it is stopped with an
IngestError naming the bound, its worker replaced for the next file. The time bound of a
file's size is moved by a step that asks for its own (a page read by OCR), unless the
caller set the seconds."""

from __future__ import annotations

import mmap
import time
from pathlib import Path

import pytest

from affidavit import IngestError, IngestLimits
from affidavit.ingest import bounded
from affidavit.ingest.bounded import Readers, finish_reading
from affidavit.ingest.formats.pacing import ask_for_time

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


def ask_for_two_seconds_and_take_one(units: list) -> int:
    """Run in the worker after reading: a slow step that says what it needs."""
    ask_for_time(2.0, "a slow step")
    time.sleep(1.0)
    return len(units)


def ask_for_half_a_second_and_take_three(units: list) -> int:
    ask_for_time(0.5, "a slow step")
    time.sleep(3.0)
    return len(units)


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


@pytest.fixture()
def half_a_second_a_file(monkeypatch: pytest.MonkeyPatch) -> IngestLimits:
    """The default time bound of a small file, shrunk from 30 s to half a second."""
    monkeypatch.setattr(bounded, "BASE_SECONDS", 0.5)
    limits = IngestLimits()
    assert limits.seconds_for(100) < 0.6
    return limits


def test_a_step_that_asks_for_its_own_time_is_given_it(
    small_text: Path, half_a_second_a_file: IngestLimits
) -> None:
    limits = half_a_second_a_file
    with Readers() as readers:
        read, _ = finish_reading(
            readers.start(small_text, limits, ask_for_two_seconds_and_take_one), limits
        )
        assert read == 1
        with pytest.raises(IngestError, match="the time it asked for a slow step"):
            finish_reading(
                readers.start(small_text, limits, ask_for_half_a_second_and_take_three), limits
            )


def test_a_caller_who_set_the_seconds_gets_no_more_than_those(small_text: Path) -> None:
    limits = IngestLimits(seconds=0.5)
    with Readers() as readers:
        with pytest.raises(IngestError, match=r"longer than 0\.5 s \(the limit for its size\)"):
            finish_reading(
                readers.start(small_text, limits, ask_for_two_seconds_and_take_one), limits
            )
