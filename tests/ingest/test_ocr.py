"""Scanned pages, on a real one (corpora/scanned: a U.S. Senate expenditure page as an
image with no text layer). With the ``ocr`` extra the page is read by OCR, each line
keeping the recogniser's confidence, shown in citations: from the ``affidavit`` command
in a fresh process with its default bounds, as a user runs it. A page OCR cannot read
(blank, too small, a failed model call) is named in the warnings and the rest kept;
without the extra a scanned page is named in the warnings (a whole scanned PDF is an
IngestError saying what to install), and never silently empty.

Whether the extra is installed is asked with ``find_spec``: nothing here loads the OCR
libraries at collection, so a worker reading a page starts as a user's would."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPORA

from affidavit import IngestError, IngestLimits, Memory
from affidavit.cli.render import render
from affidavit.ingest.formats import ocr, pdf

SCANNED = CORPORA / "scanned" / "senate-expenditures-scanned.pdf"
MIXED = CORPORA / "scanned" / "senate-printed-and-scanned.pdf"
AFFIDAVIT = Path(sys.executable).with_name("affidavit")
OCR_EXTRA = all(
    importlib.util.find_spec(name) is not None
    for name in ("pypdfium2", "rapidocr_onnxruntime", "wordninja")
)
needs_ocr = pytest.mark.skipif(not OCR_EXTRA, reason="the ocr extra is not installed")


def run(*arguments: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(AFFIDAVIT), *arguments], cwd=folder, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """The scanned PDF ingested by the ``affidavit`` command, in a fresh directory."""
    if not OCR_EXTRA:
        pytest.skip("the ocr extra is not installed")
    folder = tmp_path_factory.mktemp("cli-ocr")
    ingested = run("ingest", str(SCANNED), "--store", "store.sqlite", "--quiet", folder=folder)
    return folder, ingested


@needs_ocr
def test_the_command_reads_a_scanned_pdf_by_ocr_under_its_default_bounds(scanned) -> None:
    folder, ingested = scanned
    assert ingested.returncode == 0, ingested.stderr
    assert "1 scanned pages read by OCR (pages 1)" in ingested.stderr
    searched = run("search", "DHAW20190001", "--store", "store.sqlite", "--json", folder=folder)
    assert searched.returncode == 0, searched.stderr
    hit = next(h for h in json.loads(searched.stdout) if "DHAW20190001" in h["text"])
    assert "05/03/2019" in hit["text"] and "920.68" in hit["text"]
    assert hit["document"] == "senate-expenditures-scanned.pdf" and hit["ocr_confidence"] > 0.5


@needs_ocr
def test_a_scanned_page_is_read_by_ocr_with_its_confidence(scanned) -> None:
    folder, ingested = scanned
    assert ingested.returncode == 0, ingested.stderr
    with Memory(folder / "store.sqlite", read_only=True, dense=False) as memory:
        header = memory.line("senate-expenditures-scanned.pdf", 0)
        assert header is not None and header.text.startswith("DOCUMENT NO. | DATE | PAYEE NAME")
        assert header.ocr_confidence is not None and 0.5 < header.ocr_confidence <= 1.0


@needs_ocr
def test_an_answer_from_a_scanned_page_shows_how_sure_ocr_was(scanned) -> None:
    folder, ingested = scanned
    assert ingested.returncode == 0, ingested.stderr
    with Memory(folder / "store.sqlite", read_only=True, dense=False) as memory:
        answer = memory.ask("Who is the district director?", min_probability=0)
    assert not answer.refused and answer.citations
    cited = answer.citations[0]
    assert cited.ocr_confidence is not None
    assert answer.to_dict()["citations"][0]["ocr_confidence"] == round(cited.ocr_confidence, 4)
    assert f"(OCR {cited.ocr_confidence:.2f})" in render(answer)


@needs_ocr
def test_the_spaces_ocr_leaves_out_of_english_are_put_back() -> None:
    assert ocr._spaced("AIRFAREFORSENHAWLEY") == "AIRFARE FOR SEN HAWLEY"
    assert ocr._spaced("CITIBANK-TRAVEL") == "CITIBANK-TRAVEL"  # a short run is one name
    assert ocr._spaced("DHAW20190001") == "DHAW20190001"


@needs_ocr  # a row's cells are read with the extra's word splitter (wordninja)
def test_rows_gather_the_boxes_of_one_line_as_cells() -> None:
    def box(left: float, top: float, text: str, score: float) -> list:
        corners = [[left, top], [left + 50, top], [left + 50, top + 10], [left, top + 10]]
        return [corners, text, score]

    rows = ocr._rows(
        [box(200, 101, "920.68", 0.9), box(10, 100, "DHAW", 0.99), box(10, 130, "Note", 0.8)]
    )
    assert [(r.text, r.confidence) for r in rows] == [("DHAW | 920.68", 0.9), ("Note", 0.8)]
    assert ocr.page_text(rows) == "DHAW | 920.68\n\nNote"  # a gap of two rows: a new paragraph


def test_without_the_extra_a_scanned_page_is_reported_never_silently_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pdf, "ocr_available", lambda: False)
    with pytest.raises(IngestError, match="no extractable text") as raised:
        Memory(dense=False).ingest(SCANNED)
    assert "affidavit[ocr]" in str(raised.value)
    memory = Memory(dense=False)
    report = memory.ingest(MIXED)
    said = [w for w in report.warnings if "have no text layer" in w]
    assert len(said) == 1 and "pages 2" in said[0] and "affidavit[ocr]" in said[0]
    assert memory.search("DHAW20190001", k=1)  # the printed page is read


class _Recogniser:
    """Stands in for RapidOCR: counts its calls, and fails each as a model call can."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, pixels: object) -> tuple:
        self.calls += 1
        raise RuntimeError("[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : std::bad_alloc")


@pytest.fixture()
def failing_recogniser(monkeypatch: pytest.MonkeyPatch) -> _Recogniser:
    recogniser = _Recogniser()
    monkeypatch.setattr(ocr, "_engine", lambda: recogniser)
    return recogniser


@needs_ocr
def test_a_failed_model_call_names_its_page_and_the_rest_is_kept(
    failing_recogniser: _Recogniser,
) -> None:
    memory = Memory(dense=False)
    report = memory.ingest(MIXED, limits=IngestLimits(isolated=False))
    assert failing_recogniser.calls == 1
    said = [w for w in report.warnings if "not read by OCR" in w]
    assert said == [
        "senate-printed-and-scanned.pdf: page 2 not read by OCR: OCR failed (RuntimeError: "
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : std::bad_alloc); the rest of the "
        "document is kept"
    ]
    assert memory.search("DHAW20190001", k=1)  # the printed page is read


@needs_ocr
def test_a_scanned_pdf_whose_every_page_failed_is_an_error_saying_why(
    failing_recogniser: _Recogniser,
) -> None:
    with pytest.raises(IngestError, match="OCR read none of its pages: page 1 ") as raised:
        Memory(dense=False).ingest(SCANNED, limits=IngestLimits(isolated=False))
    assert raised.value.path == str(SCANNED) and "std::bad_alloc" in str(raised.value)


def _printed_blank_and_tiny(path: Path) -> Path:
    """A real PDF: the printed Senate page, a blank page, and the scanned page cut down
    to 12 points square."""
    import pypdfium2

    source = pypdfium2.PdfDocument(MIXED)
    document = pypdfium2.PdfDocument.new()
    document.import_pages(source, [0])
    document.new_page(612, 792)
    document.import_pages(source, [1])
    document[2].set_mediabox(0, 0, 12, 12)
    document.save(path)
    return path


@needs_ocr
def test_a_blank_page_never_goes_to_ocr_and_each_unread_page_is_named(
    tmp_path: Path, failing_recogniser: _Recogniser
) -> None:
    document = _printed_blank_and_tiny(tmp_path / "with-blank.pdf")
    memory = Memory(dense=False)
    report = memory.ingest(document, limits=IngestLimits(isolated=False))
    assert failing_recogniser.calls == 0
    assert [w for w in report.warnings if "not read by OCR" in w] == [
        "with-blank.pdf: page 2 not read by OCR: no image and no text on it (blank, or "
        "drawings only); the rest of the document is kept",
        "with-blank.pdf: page 3 not read by OCR: too small to read (12 x 12 points); the "
        "rest of the document is kept",
    ]
    assert memory.search("DHAW20190001", k=1)[0].document == "with-blank.pdf"
