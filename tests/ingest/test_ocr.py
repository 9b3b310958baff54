"""Scanned pages, on a real one (corpora/scanned: a U.S. Senate expenditure page as an
image with no text layer). With the ``ocr`` extra the page is read by OCR, each line
keeping the recogniser's confidence, shown in citations; without it a scanned page is
named in the warnings (a whole scanned PDF is an IngestError saying what to install), and
never silently empty."""

from __future__ import annotations

import pytest
from conftest import CORPORA

from affidavit import IngestError, IngestLimits, Memory
from affidavit.cli.render import render
from affidavit.ingest.readers import ocr, pdf

SCANNED = CORPORA / "scanned" / "senate-expenditures-scanned.pdf"
MIXED = CORPORA / "scanned" / "senate-printed-and-scanned.pdf"
needs_ocr = pytest.mark.skipif(not ocr.ocr_available(), reason="the ocr extra is not installed")


@pytest.fixture(scope="module")
def scanned() -> tuple[Memory, list[str]]:
    if not ocr.ocr_available():
        pytest.skip("the ocr extra is not installed")
    memory = Memory(dense=False)
    report = memory.ingest(SCANNED)
    return memory, report.warnings


@needs_ocr
def test_a_scanned_page_is_read_by_ocr_with_its_confidence(scanned) -> None:
    memory, warnings = scanned
    assert any("1 scanned pages read by OCR" in w for w in warnings)
    header = memory.line("senate-expenditures-scanned.pdf", 0)
    assert header is not None and header.text.startswith("DOCUMENT NO. | DATE | PAYEE NAME")
    assert header.ocr_confidence is not None and 0.5 < header.ocr_confidence <= 1.0
    row = next(h for h in memory.search("DHAW20190001", k=5) if "DHAW20190001" in h.text)
    assert "05/03/2019" in row.text and "920.68" in row.text and row.ocr_confidence


@needs_ocr
def test_an_answer_from_a_scanned_page_shows_how_sure_ocr_was(scanned) -> None:
    memory, _ = scanned
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


@needs_ocr
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


def test_an_ocr_failure_is_an_ingest_error_naming_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(data: bytes, pages: list[int]) -> dict:
        raise RuntimeError("Failed to load page.")

    monkeypatch.setattr(pdf, "ocr_available", lambda: True)
    monkeypatch.setattr(pdf, "ocr_pages", broken)
    with pytest.raises(IngestError, match="OCR could not read its scanned pages") as raised:
        Memory(dense=False).ingest(SCANNED, limits=IngestLimits(isolated=False))
    assert raised.value.path == str(SCANNED)
