"""The format table, on real files: a folder's files with no known suffix are sniffed and
read as what they are (package docs as /usr/share/doc holds them: ``copyright``,
``changelog.Debian.gz``; a PDF, DOCX or HTML page renamed without its suffix), or named
in the warnings with the reason they were left out; a container is measured against
``IngestLimits.unpacked_mb`` whatever its name, before it is opened."""

from __future__ import annotations

import gzip
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import CORPORA, SQUAD_DIR

from affidavit import IngestError, IngestLimits, Memory
from affidavit.ingest.formats.format_table import SUPPORTED_SUFFIXES
from affidavit.text.analyzer import analyzer_for, name_terms

PACKAGE_DOCS = CORPORA / "package_docs" / "python3-blinker"
OFFICE = CORPORA / "office"
ROUND_UP_PDF = CORPORA / "pdf_text_dumps" / "ag-energy-round-up-2017-02-24.pdf"


def test_a_folder_of_package_docs_is_read_though_no_file_has_a_known_suffix() -> None:
    memory = Memory(dense=False)
    report = memory.ingest(PACKAGE_DOCS)
    docs = ["changelog.Debian.gz", "changelog.gz", "copyright"]
    assert memory.documents() == [f"python3-blinker/{name}" for name in docs]
    assert report.warnings == []
    licence = memory.search("Permission is hereby granted, free of charge", k=1)[0]
    assert licence.document == "python3-blinker/copyright" and "free of charge" in licence.text
    packaging = memory.search("Switch to git mode on the GitHub repository", k=1)[0]
    assert (
        packaging.document == "python3-blinker/changelog.Debian.gz" and "d/watch" in packaging.text
    )
    upstream = memory.search("Verified Python 3.4 support", k=1)[0]
    assert upstream.document == "python3-blinker/changelog.gz"


def test_a_document_renamed_without_its_suffix_is_read_by_its_signature(tmp_path: Path) -> None:
    shutil.copy(OFFICE / "irs-1040nr-when-and-where-to-file.html", tmp_path / "when-to-file")
    shutil.copy(OFFICE / "nics-firearm-checks-2015-11.docx", tmp_path / "firearm-checks")
    shutil.copy(ROUND_UP_PDF, tmp_path / "round-up")
    (tmp_path / "round-up-copy.pdf.gz").write_bytes(gzip.compress(ROUND_UP_PDF.read_bytes()))
    memory = Memory(dense=False)
    report = memory.ingest(tmp_path, name="docs")
    assert memory.documents() == [
        "docs/firearm-checks",
        "docs/round-up",
        "docs/round-up-copy.pdf.gz",
        "docs/when-to-file",
    ]
    assert report.warnings == []
    headings = [h for h in memory.search("When To File", k=5) if h.text == "When To File"]
    assert [h.document for h in headings] == ["docs/when-to-file"]  # read as HTML: no tags
    rows = [h for h in memory.search("Alabama", k=10) if h.text.startswith("Alabama | 18,870")]
    assert [(h.document, h.kind) for h in rows] == [("docs/firearm-checks", "row")]  # a table's row
    read = {h.document for h in memory.search("National Weekly Ag Energy Round-Up", k=5)}
    assert {"docs/round-up", "docs/round-up-copy.pdf.gz"} <= read


def test_a_folder_names_each_file_it_leaves_out_and_why(tmp_path: Path) -> None:
    program = Path(sys.executable).resolve().read_bytes()[: 64 * 1024]  # a real ELF program
    shutil.copy(PACKAGE_DOCS / "copyright", tmp_path / "copyright")
    (tmp_path / "python").write_bytes(program)
    (tmp_path / "python.gz").write_bytes(gzip.compress(program))
    shutil.copy(SQUAD_DIR / "questions.jsonl", tmp_path / "questions.jsonl")
    with zipfile.ZipFile(tmp_path / "bundle", "w") as bundle:
        bundle.write(PACKAGE_DOCS / "copyright", "copyright")
    (tmp_path / "minutes.docx.gz").write_bytes(
        gzip.compress((OFFICE / "nics-firearm-checks-2015-11.docx").read_bytes())
    )
    (tmp_path / "TODO").write_bytes(b"")
    memory = Memory(dense=False)
    report = memory.ingest(tmp_path, name="docs")
    assert memory.documents() == ["docs/copyright"]
    said = {w.split(": skipped, ")[0].rsplit("/", 1)[-1]: w for w in report.warnings}
    assert sorted(said) == [
        "TODO",
        "bundle",
        "minutes.docx.gz",
        "python",
        "python.gz",
        "questions.jsonl",
    ]
    assert "binary data" in said["python"]
    assert "compressed with gzip: binary data" in said["python.gz"]
    assert "a .jsonl file: text, but not a document format" in said["questions.jsonl"]
    assert "ingest it by name" in said["questions.jsonl"]
    assert "a zip archive, not a DOCX" in said["bundle"]
    assert "a docx file compressed with gzip" in said["minutes.docx.gz"]
    assert said["TODO"].endswith("skipped, empty")


def test_a_file_left_out_of_a_folder_is_read_when_named_alone() -> None:
    memory = Memory(dense=False)
    memory.ingest(SQUAD_DIR / "questions.jsonl")
    assert memory.search("In what country is Normandy located", k=1)[0].document == (
        "questions.jsonl"
    )


def test_a_gzip_file_is_measured_against_the_unpacked_limit_before_it_is_read(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.txt.gz"
    notes.write_bytes(gzip.compress(b"The bridge opened in 1932 after six years.\n" * 100_000))
    memory = Memory(dense=False)
    with pytest.raises(IngestError, match="unpacks to more than the 1 MB limit") as raised:
        memory.ingest(notes, limits=IngestLimits(unpacked_mb=1))
    assert raised.value.path == str(notes) and memory.documents() == []
    memory.ingest(notes, limits=IngestLimits(unpacked_mb=8))
    assert memory.search("bridge opened", k=1)[0].document == "notes.txt.gz"


def test_a_docx_named_without_its_suffix_is_measured_before_it_is_opened(tmp_path: Path) -> None:
    padded = tmp_path / "padded"  # a real DOCX with 4 MB of XML added, under no suffix
    with zipfile.ZipFile(OFFICE / "nics-firearm-checks-2015-11.docx") as source:
        with zipfile.ZipFile(padded, "w", zipfile.ZIP_DEFLATED) as target:
            for item in source.infolist():
                target.writestr(item, source.read(item.filename))
            target.writestr("word/padding.xml", b"<a/>" * (2**20))
    with pytest.raises(IngestError, match="unpacks to 4 MB, more than the 1 MB limit"):
        Memory(dense=False).ingest(padded, limits=IngestLimits(unpacked_mb=1))


def test_a_names_format_suffixes_are_left_out_of_its_terms() -> None:
    analyzer = analyzer_for("en")
    bare = name_terms("minutes", analyzer)
    # ".markdown" is as long as a word: a name keeps it, as it always has.
    for suffix in sorted(s for s in SUPPORTED_SUFFIXES if len(s) <= 6):
        assert name_terms(f"minutes{suffix}", analyzer) == bare, suffix
    assert name_terms("minutes.txt.gz", analyzer) == bare
    assert name_terms("changelog.Debian.gz", analyzer) == name_terms("changelog Debian", analyzer)
