"""A PDF whose objects refer to each other round a loop is refused at once, the loop
named, rather than spinning until the reader's time bound; a PDF whose references end
in values is read as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from affidavit import IngestError, IngestLimits, Memory
from affidavit.ingest.formats.dispatch import read_document

BENCH = Path(__file__).resolve().parents[2] / "bench"
CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def _pdf_of(objects: list[bytes]) -> bytes:
    sys.path.insert(0, str(BENCH))
    try:
        from long_pdf import pdf_of
    finally:
        sys.path.pop(0)
    return pdf_of(objects)


def test_a_chain_of_references_round_to_itself_is_named_at_once(tmp_path: Path) -> None:
    path = tmp_path / "loop.pdf"
    path.write_bytes(_pdf_of([b"3 0 R", b"1 0 R", b"2 0 R"]))
    # Without the check the time bound stops it, saying "longer than 20 s" (how soon the
    # loop is named: bench/hostile_corpus.py, class "pdf loops").
    with pytest.raises(IngestError, match=r"loop \(1 -> 3 -> 2 -> 1\)"):
        Memory(dense=False).ingest(path, limits=IngestLimits(seconds=20))


def test_a_chain_of_references_that_ends_is_followed(tmp_path: Path) -> None:
    """The catalogue reached through two bare references, as a PDF tool may write it."""
    stream = b"BT /F1 12 Tf 72 700 Td (The quarry permit was renewed in May 2021.) Tj ET"
    objects = [
        b"2 0 R",
        b"3 0 R",
        b"<< /Type /Catalog /Pages 4 0 R >>",
        b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] /Contents 6 0 R "
        b"/Resources << /Font << /F1 7 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    path = tmp_path / "chain.pdf"
    path.write_bytes(_pdf_of(objects))
    memory = Memory(dense=False)
    memory.ingest(path)
    assert memory.ask("When was the quarry permit renewed?").text == "May 2021"


def test_real_pdfs_read_the_same() -> None:
    path = CORPORA / "pdf_text_dumps" / "senate-expenditures.pdf"
    memory = Memory(dense=False)
    memory.ingest(path)
    assert memory.stats()["lines"] > 50
    # Every one of the page's 22 expense rows is read, each whole on one line (read by
    # rows, a row's cells a tab apart; pdfminer's own text gave a line a cell, 100+ lines).
    rows = [unit.text for unit in read_document(path) if unit.text.startswith("DHAW2019")]
    assert len(rows) == 22
    assert rows[0].split("\t") == [
        "DHAW20190001",
        "05/03/2019",
        "CITIBANK - TRAVEL CBA CARD",
        "03/04/2019",
        "03/06/2019",
        "STAFF TRANSPORTATION",
        "920.68",
    ]


class _Counted(int):
    """An object number that counts how often it is compared with another."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return int.__eq__(self, other)

    __hash__ = int.__hash__


class _Chain:
    """A document whose object n is a bare reference to object n + 1, up to ``length``."""

    def __init__(self, length: int) -> None:
        self.length = length

    def getobj(self, objid: int) -> object:
        from pdfminer.pdftypes import PDFObjRef

        return PDFObjRef(self, _Counted(objid + 1)) if objid < self.length else "the end"


def test_a_long_chain_is_followed_in_steps_linear_in_its_length() -> None:
    """Each object passed is looked up, not compared with every one passed before: 20,000
    links, about one comparison a link (a list of the passed made 200 million)."""
    from pdfminer.pdftypes import PDFObjRef

    from affidavit.ingest.formats.pdf_references import follow_chains_once

    follow_chains_once()
    _Counted.compared = 0
    assert PDFObjRef(_Chain(20_000), _Counted(1)).resolve() == "the end"
    assert _Counted.compared < 2 * 20_000
