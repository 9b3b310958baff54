"""Files read in bounded workers a core at a time: the same lines as one by one in this
process, in order, and a bound hit by any file still stops the whole ingest cleanly; the
workers live for the whole ingest, and each document is written as it comes."""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
from pathlib import Path

import pytest
from conftest import ARTICLES, stored_lines

from affidavit import IngestError, Memory
from affidavit.ingest import files
from affidavit.ingest.bounded import IngestLimits, Readers, finish_reading


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
        # the reader's confidence is not this test's subject
        answer = memory.ask("When were the Normans in Normandy?", min_probability=0.0)
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


def test_one_reader_a_core_serves_the_whole_ingest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker forked for each file cost 25-35 ms a file in a large process."""
    forks: list[object] = []
    start = multiprocessing.process.BaseProcess.start

    def counted(self: multiprocessing.process.BaseProcess) -> None:
        forks.append(self)
        start(self)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", counted)
    monkeypatch.setattr(files, "usable_cores", lambda: 2)
    named = [(article, article.stem) for article in ARTICLES]
    prepared = list(
        files.prepare_files(
            named,
            known_hash=lambda _: None,
            source="document",
            trust=0.6,
            date=None,
            limits=IngestLimits(),
            warnings=[],
            failed=[],
        )
    )
    assert [doc.name for doc in prepared] == [name for _, name in named]
    assert len(ARTICLES) > 2 and len(forks) == 2


@pytest.mark.slow
def test_a_long_file_does_not_hold_back_the_reading_of_the_next(tmp_path: Path) -> None:
    """While one worker reads a long file, the other reads the files after it."""
    slow_pdf = ARTICLES[0].parent.parent / "pdf_text_dumps" / "i1040nr.pdf"  # about 6 s
    limits = IngestLimits()
    with Readers(2) as readers:
        slow = readers.start(slow_pdf, limits)
        quick = []
        while len(quick) < len(ARTICLES):
            if readers.free:
                quick.append(readers.start(ARTICLES[len(quick)], limits))
            else:
                readers.collect(slow, limits)
        assert slow.reply is None  # the small files were all read meanwhile
        units, _ = finish_reading(slow, limits)
        assert units
        assert all(reading.reply is not None for reading in quick[:-1])


def test_documents_are_written_as_they_are_read(tmp_path: Path) -> None:
    """The ingest holds a few documents in memory, never the corpus: when a file comes
    up, the ones before it are already in the open transaction."""
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest_text("Kept before.", name="kept")
        store = memory._store
        stored: list[int] = []

        def heard(done: int, total: int, name: str) -> None:
            if not name.startswith("index: "):
                stored.append(store.conn.execute("SELECT count(*) FROM documents").fetchone()[0])

        memory.ingest(ARTICLES, progress=heard)
    assert stored == [1 + done for done in range(len(ARTICLES) + 1)]
