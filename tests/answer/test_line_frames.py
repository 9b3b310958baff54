"""A line's clause frames are made the first time a judge reads it and kept in the store:
the next verify reads them back (a kept row is what the judge reads), and a store opened
read-only keeps none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.errors import InputError

MPL = Path(__file__).resolve().parents[2] / "corpora" / "licences" / "mpl-2.0.txt"
FORBIDDEN = "You may remove the substance of any license notices."


def kept(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM line_frames").fetchone()[0])


def test_frames_are_kept_at_first_use_and_read_back_after(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(MPL)
    assert kept(path) == 0  # ingest reads no frames
    with Memory(path, dense=False) as memory:
        assert memory.verify(FORBIDDEN).sentences[0].status == "contradicted"
    assert kept(path) > 0
    # The kept frames are what the judge reads: emptied, the line says nothing to it.
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE line_frames SET frames = '[]'")
    with Memory(path, dense=False) as memory:
        assert memory.verify(FORBIDDEN).sentences[0].status != "contradicted"


def test_a_read_only_store_keeps_no_frames(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(MPL)
    with Memory(path, dense=False, read_only=True) as memory:
        assert memory.verify(FORBIDDEN).sentences[0].status == "contradicted"
    assert kept(path) == 0


def test_frames_are_read_ahead_on_request_and_not_again(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    heard: list[tuple[int, int, str]] = []
    with Memory(path, dense=False) as memory:
        memory.ingest(MPL)
        memory.build_indexes()
        assert kept(path) == 0  # only on request
        memory.build_indexes(frames=True, progress=lambda *done: heard.append(done))
        lines = kept(path)
        assert lines > 0 and ("frames" in {stage for _, _, stage in heard})
        memory.build_indexes(frames=True)
        assert kept(path) == lines
        # verify finds them kept: nothing more is written.
        memory.verify(FORBIDDEN)
    assert kept(path) == lines


def test_a_sharded_store_refuses_to_read_frames_ahead(tmp_path: Path) -> None:
    with Memory(tmp_path / "sharded", shards=2, dense=False) as memory:
        with pytest.raises(InputError, match="keeps no clause frames"):
            memory.build_indexes(frames=True)
