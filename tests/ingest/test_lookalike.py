"""Look-alike document names: kept as the distinct documents they are named, and said."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.errors import IngestWarning
from affidavit.ingest.lookalike import StoredNames, lookalike_warnings, name_key

ALIKE = [
    "Report.txt",  # case
    "report.txt ",  # a trailing space
    "./report.txt",  # a current-folder step
    "re\u200bport.txt",  # a zero-width space
    "re\u0440ort.txt",  # a Cyrillic er for the Latin p
    "ｒｅｐｏｒｔ.txt",  # full-width letters
]


@pytest.mark.parametrize("name", ALIKE)
def test_names_a_reader_cannot_tell_apart_share_a_key(name: str) -> None:
    assert name_key(name) == name_key("report.txt")


@pytest.mark.parametrize("name", ["report-2.txt", "reports.txt", "rapport.txt", "отчёт.txt"])
def test_different_names_keep_different_keys(name: str) -> None:
    assert name_key(name) != name_key("report.txt")


def test_an_ingested_text_named_like_a_stored_one_is_kept_and_warned_of() -> None:
    with Memory(dense=False) as memory:
        memory.ingest_text("The gate closes at six.", name="report.txt")
        with pytest.warns(IngestWarning, match="looks like the document 'report.txt'"):
            memory.ingest_text("The gate closes at nine.", name="re\u0440ort.txt")
        assert sorted(memory.documents()) == ["report.txt", "re\u0440ort.txt"]


def test_a_folder_ingest_lists_look_alikes_in_its_warnings(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "Policy.md").write_text("Visitors sign in at the desk.", encoding="utf-8")
    (folder / "policy.md").write_text("Visitors sign out at the desk.", encoding="utf-8")
    (folder / "other.md").write_text("Badges are blue.", encoding="utf-8")
    with Memory(dense=False) as memory:
        report = memory.ingest(folder)
    said = [w for w in report.warnings if "looks like" in w]
    assert len(said) == 1 and "'docs/policy.md' looks like the document 'docs/Policy.md'" in said[0]


def test_no_warning_between_a_name_and_itself() -> None:
    assert lookalike_warnings(["a.txt", "b.txt"], ["c.txt"]) == []
    assert lookalike_warnings([], ["a.txt", "A.txt"]) != []


def test_stored_names_kept_between_calls_warn_as_a_fresh_reading() -> None:
    """The keys kept from one call to the next give the warnings keying every name again
    gives, as names are added at the end, and when the stored names change otherwise."""
    kept = StoredNames()
    stored: list[str] = []
    calls = [
        ["report.pdf"],
        ["Report.pdf"],  # a look-alike of a stored name
        ["notes.txt", "NOTES.txt"],  # a look-alike of the other name added with it
        ["summary.md"],
    ]
    for added in calls:
        assert kept.warnings(list(stored), added) == lookalike_warnings(stored, added)
        stored += added
    stored.remove("report.pdf")  # a removal: the names no longer extend those kept
    assert kept.warnings(list(stored), ["REPORT.pdf"]) == lookalike_warnings(stored, ["REPORT.pdf"])
    assert kept.warnings(list(stored), ["REPORT.pdf"]) != []  # "Report.pdf" is still held
