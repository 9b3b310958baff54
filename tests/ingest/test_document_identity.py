"""A document is named by the folder it was ingested from and its path inside it, so two
folders' files of one name stay two documents; a replacement from another file is said."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from affidavit import InputError, Memory

LICENCES = Path(__file__).parents[2] / "corpora" / "licences"


def _two_projects(root: Path) -> tuple[Path, Path]:
    """projA/notes.txt and projB/notes.txt, each a different real licence text."""
    a, b = root / "projA", root / "projB"
    a.mkdir()
    b.mkdir()
    shutil.copy(LICENCES / "mpl-2.0.txt", a / "notes.txt")
    shutil.copy(LICENCES / "apache-2.0.txt", b / "notes.txt")
    return a, b


def test_same_named_files_of_two_folders_ingested_apart_are_two_documents(
    tmp_path: Path,
) -> None:
    a, b = _two_projects(tmp_path)
    with Memory(dense=False) as memory:
        assert memory.ingest(a) == ["projA/notes.txt"]
        assert memory.ingest(b) == ["projB/notes.txt"]
        assert sorted(memory.documents()) == [
            "projA/notes.txt",
            "projB/notes.txt",
        ]
        # Both texts are still there to be found: the first was not replaced.
        assert memory.search("Mozilla Public License", k=1)[0].document == "projA/notes.txt"
        assert memory.search("Apache License", k=1)[0].document == "projB/notes.txt"


def test_name_stands_for_the_folder_name(tmp_path: Path) -> None:
    a, _ = _two_projects(tmp_path)
    with Memory(dense=False) as memory:
        assert memory.ingest(a, name="contracts") == ["contracts/notes.txt"]


def test_a_replacement_read_from_another_file_names_both_paths(tmp_path: Path) -> None:
    a, b = _two_projects(tmp_path)
    with Memory(dense=False) as memory:
        memory.ingest(a / "notes.txt")
        report = memory.ingest(b / "notes.txt")
        assert report == ["notes.txt"]
        said = [w for w in report.warnings if "replaces" in w]
        assert len(said) == 1
        assert str(a / "notes.txt") in said[0] and str(b / "notes.txt") in said[0]
        # The same file ingested again after a change replaces without a word of it.
        (b / "notes.txt").write_text("A changed text of the same file.\n", encoding="utf-8")
        again = memory.ingest(b / "notes.txt")
        assert not [w for w in again.warnings if "replaces" in w]


def test_a_text_replacing_a_file_says_so(tmp_path: Path) -> None:
    a, _ = _two_projects(tmp_path)
    with Memory(dense=False) as memory:
        memory.ingest(a / "notes.txt")
        with pytest.warns(UserWarning, match="replaces the document read from"):
            memory.ingest_text("A note typed in.", name="notes.txt")


def _as_made_before_folder_names(store: Path, name: str, old_name: str, given: str) -> None:
    """Turn ``store`` back into a store of schema 15, whose folder documents were named
    by their path inside the folder alone and kept no origin."""
    conn = sqlite3.connect(store)
    with conn:
        conn.execute(
            "UPDATE documents SET name = ?, path = ? WHERE name = ?", (old_name, given, name)
        )
        conn.execute("ALTER TABLE documents DROP COLUMN origin")
        conn.execute("UPDATE meta SET value = '15' WHERE key = 'schema_version'")
    conn.close()


def test_a_store_made_before_folder_names_migrates_without_keeping_a_file_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _two_projects(tmp_path)
    monkeypatch.chdir(tmp_path)
    store = tmp_path / "old.sqlite"
    with Memory(store, dense=False) as memory:
        memory.ingest(Path("projA"))
    _as_made_before_folder_names(store, "projA/notes.txt", "notes.txt", "projA/notes.txt")

    with Memory(store, dense=False) as memory:
        assert memory.documents() == ["notes.txt"]
        # Another folder's file of the same name is a document of its own …
        memory.ingest(Path("projB"))
        assert sorted(memory.documents()) == ["notes.txt", "projB/notes.txt"]
        # … and the old document's own file, ingested again, takes its new name in its place.
        report = memory.ingest(Path("projA"))
        assert sorted(memory.documents()) == [
            "projA/notes.txt",
            "projB/notes.txt",
        ]
        assert any("takes the place of 'notes.txt'" in w for w in report.warnings)
        assert memory.search("Mozilla Public License", k=1)[0].document == "projA/notes.txt"


def test_a_scope_may_name_a_document_by_its_file_name_when_one_is_so_called(
    tmp_path: Path,
) -> None:
    a, b = _two_projects(tmp_path)
    with Memory(dense=False) as memory:
        memory.ingest(a)
        hits = memory.search("License", k=3, documents="notes.txt")
        assert hits and {h.document for h in hits} == {"projA/notes.txt"}
        memory.ingest(b)
        with pytest.raises(InputError, match="projA/notes.txt, projB/notes.txt"):
            memory.search("License", documents="notes.txt")
        # A glob over file names takes every match; a folder picks one.
        assert {h.document for h in memory.search("License", k=20, documents="*.txt")} == {
            "projA/notes.txt",
            "projB/notes.txt",
        }
        hits = memory.search("License", k=3, documents="projB/notes.txt")
        assert {h.document for h in hits} == {"projB/notes.txt"}
