"""A folder with bad files: without keep_going every bad file is named and nothing is
stored; with it every file that reads is stored and each one that does not is listed with
its reason. Interrupted, an ingest says which documents it wrote and which it did not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from affidavit import IngestError, Memory
from affidavit.errors import IngestInterrupted

CORPORA = Path(__file__).parents[2] / "corpora"


def _folder_with_two_bad_files(root: Path) -> Path:
    """Three real documents, an empty file and a PDF cut off after 2,000 bytes."""
    folder = root / "mixed"
    folder.mkdir()
    for name in ("mpl-2.0.txt", "apache-2.0.txt", "idna-bsd-3-clause.md"):
        shutil.copy(CORPORA / "licences" / name, folder / name)
    (folder / "empty.txt").write_bytes(b"")
    pdf = (CORPORA / "pdf_text_dumps" / "i1040nr.pdf").read_bytes()
    (folder / "broken.pdf").write_bytes(pdf[:2000])
    return folder


def test_without_keep_going_every_bad_file_is_named_and_nothing_stored(tmp_path: Path) -> None:
    folder = _folder_with_two_bad_files(tmp_path)
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        with pytest.raises(IngestError) as failed:
            memory.ingest(folder)
        said = str(failed.value)
        assert "empty.txt" in said and "broken.pdf" in said
        assert "keep_going" in said
        assert memory.documents() == []


def test_keep_going_stores_what_reads_and_lists_the_rest(tmp_path: Path) -> None:
    folder = _folder_with_two_bad_files(tmp_path)
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        report = memory.ingest(folder, keep_going=True)
        assert sorted(report) == [
            "mixed/apache-2.0.txt",
            "mixed/idna-bsd-3-clause.md",
            "mixed/mpl-2.0.txt",
        ]
        assert sorted(memory.documents()) == sorted(report)
        unread = {Path(f.path).name: f for f in report.failed}
        assert sorted(unread) == ["broken.pdf", "empty.txt"]
        assert all(f.problem for f in unread.values())
        assert unread["empty.txt"].document == "mixed/empty.txt"
        assert memory.search("Mozilla Public License", k=1)[0].document == "mixed/mpl-2.0.txt"


def test_one_bad_file_keeps_its_own_error(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(CORPORA / "licences" / "mpl-2.0.txt", folder / "mpl.txt")
    (folder / "empty.txt").write_bytes(b"")
    with Memory(dense=False) as memory:
        with pytest.raises(IngestError) as failed:
            memory.ingest(folder)
        assert failed.value.path is not None and failed.value.path.endswith("empty.txt")


def _interrupt_at(stage: str):  # type: ignore[no-untyped-def]
    def progress(done: int, total: int, name: str) -> None:
        if name.startswith(stage) and done >= 1:
            raise KeyboardInterrupt

    return progress


def test_interrupted_while_reading_writes_nothing_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "licences"
    shutil.copytree(CORPORA / "licences", folder)
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        with pytest.raises(IngestInterrupted) as stopped:
            memory.ingest(folder, progress=_interrupt_at("licences/"))
        assert stopped.value.written == []
        assert len(stopped.value.unwritten) == len(list(folder.iterdir()))
        assert "no document was written" in str(stopped.value)
        assert isinstance(stopped.value, KeyboardInterrupt)
        assert memory.documents() == []


def test_interrupted_while_indexing_keeps_the_documents_written(tmp_path: Path) -> None:
    folder = tmp_path / "licences"
    shutil.copytree(CORPORA / "licences", folder)
    store = tmp_path / "s.sqlite"
    with Memory(store, dense=False) as memory:
        with pytest.raises(IngestInterrupted) as stopped:
            memory.ingest(folder, progress=_interrupt_at("index: "))
        written = stopped.value.written
        assert sorted(written) == sorted(memory.documents()) and written
        assert stopped.value.unwritten == []
        assert "written" in str(stopped.value) and "next question" in str(stopped.value)
    # The store is whole: reopened, its indexes are made and the documents answer.
    with Memory(store, dense=False) as memory:
        assert memory.search("Mozilla Public License", k=1)[0].document == "licences/mpl-2.0.txt"


def test_a_folder_of_nothing_readable_names_what_it_passed_over(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "kestrel.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8)
    with Memory(dense=False) as memory:
        with pytest.raises(IngestError) as failed:
            memory.ingest(folder)
    assert "no supported documents" in str(failed.value)
    assert "kestrel.jpg" in str(failed.value)
