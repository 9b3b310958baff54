"""Files read in bounded workers a core at a time: the same lines as one by one in this
process, in order, and a bound hit by any file still stops the whole ingest cleanly."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from conftest import ARTICLES, stored_lines

from affidavit import IngestError, Memory
from affidavit.ingest.bounded import IngestLimits


def test_files_read_side_by_side_store_what_one_at_a_time_stores(tmp_path: Path) -> None:
    office = ARTICLES[0].parent.parent / "office"
    files = [*ARTICLES, *sorted(p for p in office.iterdir() if p.suffix in (".html", ".docx"))]
    progress: list[tuple[int, int, str]] = []
    with Memory(tmp_path / "side.sqlite", dense=False) as memory:
        names = memory.ingest(files, progress=lambda *said: progress.append(said))
    with Memory(tmp_path / "alone.sqlite", dense=False) as memory:
        memory.ingest(files, limits=IngestLimits(isolated=False))
    assert stored_lines(tmp_path / "side.sqlite") == stored_lines(tmp_path / "alone.sqlite")
    read = [said for said in progress if not said[2].startswith("index: ")]
    assert [name for _, _, name in read[:-1]] == list(names)  # in order, one each
    assert read[-1] == (len(files), len(files), "")
    # then the indexes, each stage told apart from the files and told when done
    stages = progress[len(read) :]
    assert stages and all(name.startswith("index: ") for _, _, name in stages)
    for stage in {name for _, _, name in stages}:
        done, total, _ = [said for said in stages if said[2] == stage][-1]
        assert done == total


def test_the_first_question_after_an_ingest_builds_no_index(
    tmp_path: Path, lines_read: list[object]
) -> None:
    """The ingest brought the word index, the meaning vectors and the entity graph up to
    date: the first ask reads no line to build one (it took 16 s at 20.9 MB)."""
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest(ARTICLES[:2])
        lines_read.clear()
        answer = memory.ask("When were the Normans in Normandy?")
        assert lines_read == []
        assert answer.citations


def test_a_bound_hit_while_others_are_read_leaves_the_store_and_no_worker(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.sqlite"
    # About 6 s to read here: a bound no machine meets in time, whatever the others do
    # (a bound of a microsecond on a small file raced its reader, which could finish first).
    slow_pdf = ARTICLES[0].parent.parent / "pdf_text_dumps" / "i1040nr.pdf"
    before = set(multiprocessing.active_children())  # other tests' processes
    with Memory(path, dense=False) as memory:
        memory.ingest_text("Kept before.", name="kept")
        with pytest.raises(IngestError, match=slow_pdf.name) as raised:
            memory.ingest([*ARTICLES[:1], slow_pdf, *ARTICLES[1:]], limits=IngestLimits(seconds=1))
        assert "longer than 1 s" in str(raised.value)
        assert memory.documents() == ["kept"]
    assert set(multiprocessing.active_children()) <= before  # every reader stopped
