"""Behaviour of the document readers: files of every supported format become ordered units,
and every way a file can be unusable becomes an IngestError that names it."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from affidavit.errors import IngestError
from affidavit.ingest.formats.dispatch import (
    MAX_LINE_CHARS,
    _pdf_text,
    iter_document_files,
    read_document,
    read_text,
)
from affidavit.ingest.units import Unit, UnitKind

PDF_DIR = Path(__file__).resolve().parents[2] / "corpora" / "pdf_text_dumps"
SENATE_PDF = PDF_DIR / "senate-expenditures.pdf"
NICS_PDF = PDF_DIR / "nics-background-checks-2015-11.pdf"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    return path


def all_text(units: list[Unit]) -> str:
    return "\n".join(unit.text for unit in units)


def rows(units: list[Unit]) -> list[Unit]:
    return [unit for unit in units if unit.kind is UnitKind.ROW]


def minimal_pdf(objects: list[bytes], trailer_extra: bytes = b"") -> bytes:
    """A well-formed PDF (correct xref offsets) made of the given object bodies."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, trailer_extra, xref)
    )
    return out.getvalue()


BLANK_PAGE = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
]


# --- plain text ---------------------------------------------------------------------------


def test_text_file_becomes_prose_with_its_words_verbatim(tmp_path: Path) -> None:
    path = write(
        tmp_path, "memo.txt", "The budget rose to $5.2 million in 2015.\n\nIt fell later.\n"
    )
    units = read_document(path)
    assert units and all(unit.kind in (UnitKind.PROSE, UnitKind.HEADING) for unit in units)
    assert "The budget rose to $5.2 million in 2015." in all_text(units)
    assert "It fell later." in all_text(units)


def test_markdown_heading_is_a_heading(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.md", "# Findings\n\nWater use fell by 12%.\n")
    units = read_document(path)
    assert units[0] == Unit(UnitKind.HEADING, "# Findings")
    assert "Water use fell by 12%." in all_text(units)


def test_read_text_lays_out_a_string_like_a_text_file(tmp_path: Path) -> None:
    content = "Alpha beta.\n\nGamma delta.\n"
    path = write(tmp_path, "same.txt", content)
    assert read_text(content, name="same.txt") == read_document(path)


def test_unknown_suffix_is_read_as_text_when_it_decodes(tmp_path: Path) -> None:
    path = write(tmp_path, "server.log", "Disk full at 03:00.\n")
    assert "Disk full at 03:00." in all_text(read_document(path))


def test_crlf_and_cr_newlines_are_normalised(tmp_path: Path) -> None:
    path = write(tmp_path, "dos.txt", b"First para.\r\n\r\nSecond para.\rStill second.\r\n")
    text = all_text(read_document(path))
    assert "\r" not in text
    assert "First para." in text and "Second para." in text


def test_text_is_nfc_normalised(tmp_path: Path) -> None:
    path = write(tmp_path, "nfd.txt", "Cafe\u0301 prices rose.\n")
    assert "Caf\u00e9 prices rose." in all_text(read_document(path))


# --- encodings ----------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_text_with_a_byte_order_mark_is_decoded(tmp_path: Path, encoding: str) -> None:
    text = "Résumé: naïve café, 5 €.\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data  # the plain codec writes no mark; add the big-endian one
    units = read_document(write(tmp_path, "bom.txt", data))
    assert all_text(units) == "Résumé: naïve café, 5 €."


def test_latin1_text_is_decoded(tmp_path: Path) -> None:
    text = "Le garçon a mangé une crème brûlée à l'hôtel près de la forêt.\n"
    path = write(tmp_path, "fr.txt", text.encode("latin-1"))
    assert text.strip() in all_text(read_document(path))


@pytest.mark.parametrize(
    "text",
    [
        "Análisis de la situación económica: el niño pequeño comió señales.",
        "El señor Muñoz llegó a la reunión del comité con “información” sobre la economía — 5 €.",
        "Año: señal",
        "A informação é disponível. Ações, São Paulo, coração.",
        "Die Größe des Gebäudes überrascht.",
    ],
)
def test_cp1252_western_text_is_decoded(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "es.txt", (text + "\n").encode("cp1252"))
    assert all_text(read_document(path)) == text


def test_other_legacy_encodings_are_guessed(tmp_path: Path) -> None:
    russian = "Привет, как дела? Сегодня хорошая погода, и мы идём гулять в парк."
    polish = "Zażółć gęślą jaźń. Łódź jest dużym miastem w środkowej Polsce."
    assert all_text(read_document(write(tmp_path, "ru.txt", russian.encode("cp1251")))) == russian
    assert all_text(read_document(write(tmp_path, "pl.txt", polish.encode("cp1250")))) == polish


def test_binary_file_is_refused(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64
    path = write(tmp_path, "picture.txt", png)
    with pytest.raises(IngestError, match="binary file, not text") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_undecodable_bytes_are_refused(tmp_path: Path) -> None:
    rng = random.Random(7)
    noise = bytes(rng.randrange(1, 256) for _ in range(4096))
    path = write(tmp_path, "noise.txt", noise)
    with pytest.raises(IngestError) as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_read_text_refuses_decoded_binary() -> None:
    with pytest.raises(IngestError, match="binary"):
        read_text("PK\x03\x04\x00\x00junk", name="blob")


# --- size checks --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["empty.txt", "empty.csv", "empty.html", "empty.pdf", "e.docx"])
def test_empty_file_is_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, b"")
    with pytest.raises(IngestError, match="empty document") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert info.value.hint == "nothing to ingest"


@pytest.mark.parametrize("name", ["blank.txt", "blank.md", "blank.csv", "blank.tsv"])
def test_whitespace_only_file_is_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, " \n\t\n   \r\n\n")
    with pytest.raises(IngestError, match="empty document"):
        read_document(path)


def test_html_without_text_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "shell.html", "<html><head><title>x</title></head><body> </body></html>")
    with pytest.raises(IngestError, match="empty document"):
        read_document(path)


def test_read_text_refuses_whitespace() -> None:
    with pytest.raises(IngestError, match="empty document") as info:
        read_text("  \n\n ", name="pasted")
    assert "pasted" in str(info.value)


@pytest.mark.parametrize("name", ["huge.txt", "huge.csv", "huge.unknown"])
def test_five_megabyte_line_is_refused_naming_the_line(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, "a,b\n\n" + "x" * 5_000_000 + "\nlast\n")
    with pytest.raises(IngestError, match=r"line 3 is 5,000,000 characters") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert "split it into lines or paragraphs" in str(info.value)


def test_line_at_the_limit_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "edge.txt", "y" * MAX_LINE_CHARS + "\n")
    assert read_document(path)


def test_read_text_refuses_a_huge_line() -> None:
    with pytest.raises(IngestError, match="line 1 is"):
        read_text("z" * (MAX_LINE_CHARS + 1), name="paste")


def test_huge_html_paragraph_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "big.html", "<p>ok</p>\n<p>" + "w " * 60_000 + "</p>")
    with pytest.raises(IngestError, match="line 2") as info:
        read_document(path)
    assert str(path) in str(info.value)


# --- unreadable files ---------------------------------------------------------------------


def test_missing_file_is_an_ingest_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.txt"
    with pytest.raises(IngestError, match="no such file") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value.__cause__, FileNotFoundError)


def test_directory_is_an_ingest_error(tmp_path: Path) -> None:
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    with pytest.raises(IngestError, match="folder") as info:
        read_document(folder)
    assert str(folder) in str(info.value)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file_is_an_ingest_error(tmp_path: Path) -> None:
    path = write(tmp_path, "secret.txt", "hidden")
    path.chmod(0)
    try:
        with pytest.raises(IngestError, match="permission denied"):
            read_document(path)
    finally:
        path.chmod(0o600)


# --- CSV / TSV ----------------------------------------------------------------------------


def test_csv_rows_carry_cells_under_header_names(tmp_path: Path) -> None:
    path = write(tmp_path, "prices.csv", "item, price ,unit\n  Tea,1.50,cup  \n\nCoffee,2.00,cup\n")
    units = read_document(path)
    assert units == [
        Unit(UnitKind.ROW, "item, price ,unit", cells=None, table=0),
        Unit(
            UnitKind.ROW,
            "Tea,1.50,cup",
            cells=(("item", "Tea"), ("price", "1.50"), ("unit", "cup")),
            table=0,
        ),
        Unit(
            UnitKind.ROW,
            "Coffee,2.00,cup",
            cells=(("item", "Coffee"), ("price", "2.00"), ("unit", "cup")),
            table=0,
        ),
    ]


def test_csv_quoted_multiline_field_keeps_the_raw_record(tmp_path: Path) -> None:
    content = 'name,note\nAda,"first line\nsecond, with comma"\nBob,"said ""hi"""\n'
    units = read_document(write(tmp_path, "notes.csv", content))
    assert [unit.text for unit in units] == [
        "name,note",
        'Ada,"first line\nsecond, with comma"',
        'Bob,"said ""hi"""',
    ]
    assert units[1].cells == (("name", "Ada"), ("note", "first line\nsecond, with comma"))
    assert units[2].cells == (("name", "Bob"), ("note", 'said "hi"'))


def test_csv_ragged_row_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ragged.csv", "a,b,c\n1,2,3\n\n4,5\n")
    with pytest.raises(IngestError, match=r"line 4 has 2 fields .* names 3 columns") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert "give every row 3 fields" in info.value.hint


def test_csv_line_numbers_count_lines_inside_quoted_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "multi.csv", 'a,b\n1,"x\ny\nz"\n2,3,4\n')
    with pytest.raises(IngestError, match="line 5 has 3 fields"):
        read_document(path)


def test_csv_unterminated_quote_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "open.csv", 'a,b\n1,2\n3,"never closed\n4,5\n')
    with pytest.raises(IngestError, match="quoted field on line 3 is never closed") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert info.value.__cause__ is not None


def test_csv_stray_quote_is_a_malformed_table(tmp_path: Path) -> None:
    path = write(tmp_path, "stray.csv", 'a,b\n"x"y,2\n')
    with pytest.raises(IngestError, match="malformed table: line 2") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_semicolon_csv_is_sniffed(tmp_path: Path) -> None:
    path = write(tmp_path, "eu.csv", "Land;Einwohner\nÖsterreich;9,1\n")
    assert rows(read_document(path))[1].cells == (("Land", "Österreich"), ("Einwohner", "9,1"))


def test_single_column_csv_stays_one_column(tmp_path: Path) -> None:
    units = read_document(write(tmp_path, "names.csv", "name\nAda\nBob\n"))
    assert [unit.cells for unit in units] == [None, (("name", "Ada"),), (("name", "Bob"),)]


def test_tsv_splits_on_tabs(tmp_path: Path) -> None:
    path = write(tmp_path, "t.tsv", "state\tchecks\nOhio\t1,234\n")
    units = read_document(path)
    assert units[1] == Unit(
        UnitKind.ROW, "Ohio\t1,234", cells=(("state", "Ohio"), ("checks", "1,234")), table=0
    )


def test_cp1252_csv_is_decoded(tmp_path: Path) -> None:
    path = write(tmp_path, "es.csv", "ciudad,año\nMálaga,2015\n".encode("cp1252"))
    assert rows(read_document(path))[1].cells == (("ciudad", "Málaga"), ("año", "2015"))


# --- HTML ---------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html><head><title>Ignored title</title><style>p { color: red }</style>
<script>var secret = 1;</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Caf&eacute; &amp; Bar report</h1>
<div>Bare text with <b>bold</b> words.<p>First&nbsp;paragraph,
   spread over   lines.<br>After a break.</p></div>
<ul><li>Fruit<ul><li>Apple</li></ul></li><li>Bread</li></ul>
<!-- a comment that must not appear -->
<table><caption>Prices</caption>
  <thead><tr><th>Item</th><th>Price</th></tr></thead>
  <tbody><tr><td>Tea</td><td>&euro;1.50</td></tr>
  <tr><td></td><td></td></tr>
  <tr><td>Coffee</td><td>&euro;2.00</td></tr></tbody>
</table>
<h2>Second section</h2>
<blockquote>Quoted words.</blockquote>
<table><tr><td>no</td><td>header</td></tr></table>
<script>document.write("nope")</script>
</body></html>
"""


def test_html_blocks_become_headings_and_prose_in_order(tmp_path: Path) -> None:
    units = read_document(write(tmp_path, "page.html", PAGE))
    prose_and_headings = [(u.kind, u.text) for u in units if u.kind is not UnitKind.ROW]
    assert prose_and_headings == [
        (UnitKind.HEADING, "Café & Bar report"),
        (UnitKind.PROSE, "Bare text with bold words."),
        (UnitKind.PROSE, "First paragraph, spread over lines. After a break."),
        (UnitKind.PROSE, "Fruit"),
        (UnitKind.PROSE, "Apple"),
        (UnitKind.PROSE, "Bread"),
        (UnitKind.HEADING, "Prices"),
        (UnitKind.HEADING, "Second section"),
        (UnitKind.PROSE, "Quoted words."),
    ]


def test_html_drops_scripts_styles_navigation_head_and_comments(tmp_path: Path) -> None:
    text = all_text(read_document(write(tmp_path, "page.htm", PAGE)))
    for hidden in ("secret", "color", "Home", "About", "Ignored title", "comment", "nope"):
        assert hidden not in text


def test_html_table_rows_use_th_column_names(tmp_path: Path) -> None:
    table_rows = rows(read_document(write(tmp_path, "page.html", PAGE)))
    assert table_rows == [
        Unit(UnitKind.ROW, "Item | Price", cells=None, table=0),
        Unit(UnitKind.ROW, "Tea | €1.50", cells=(("Item", "Tea"), ("Price", "€1.50")), table=0),
        Unit(
            UnitKind.ROW, "Coffee | €2.00", cells=(("Item", "Coffee"), ("Price", "€2.00")), table=0
        ),
        Unit(UnitKind.ROW, "no | header", cells=None, table=1),
    ]


def test_html_first_row_of_th_names_columns_without_thead(tmp_path: Path) -> None:
    page = "<table><tr><th>State</th><th>Total</th></tr><tr><th>Ohio</th><td>12</td></tr></table>"
    units = read_document(write(tmp_path, "t.html", page))
    assert units[1].cells == (("State", "Ohio"), ("Total", "12"))


def test_html_cells_with_blocks_and_breaks_read_as_spaced_text(tmp_path: Path) -> None:
    page = "<table><tr><td>a<br>b</td><td><p>one</p><p>two</p></td></tr></table>"
    assert rows(read_document(write(tmp_path, "t.html", page)))[0].text == "a b | one two"


def test_html_declared_latin1_charset_is_honoured(tmp_path: Path) -> None:
    page = '<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9 \x93ok\x94</p>'
    path = write(tmp_path, "old.html", page.encode("latin-1"))
    assert read_document(path) == [Unit(UnitKind.PROSE, "Café “ok”")]


def test_xhtml_with_xml_declaration_is_parsed(tmp_path: Path) -> None:
    page = '<?xml version="1.0" encoding="utf-8"?>\n<html><body><p>Hello</p></body></html>'
    assert read_document(write(tmp_path, "x.html", page)) == [Unit(UnitKind.PROSE, "Hello")]


# --- DOCX ---------------------------------------------------------------------------------


def make_docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    document.add_heading("Annual report", level=0)  # "Title" style
    document.add_paragraph("Opening words.")
    document.add_paragraph("")
    document.add_heading("Spending", level=1)
    table = document.add_table(rows=3, cols=2)
    spending = [("Office", "Amount"), ("Rent", "1,200"), ("Travel", "")]
    for row, values in zip(table.rows, spending, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.add_paragraph("Closing   words.")
    numbers = document.add_table(rows=2, cols=2)
    for row, values in zip(numbers.rows, [("2015", "2016"), ("10", "12")], strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.save(str(path))
    return path


def test_docx_keeps_headings_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    units = read_document(make_docx(tmp_path / "report.docx"))
    assert [(u.kind, u.text, u.table) for u in units] == [
        (UnitKind.HEADING, "Annual report", None),
        (UnitKind.PROSE, "Opening words.", None),
        (UnitKind.HEADING, "Spending", None),
        (UnitKind.ROW, "Office | Amount", 0),
        (UnitKind.ROW, "Rent | 1,200", 0),
        (UnitKind.ROW, "Travel", 0),
        (UnitKind.PROSE, "Closing words.", None),
        (UnitKind.ROW, "2015 | 2016", 1),
        (UnitKind.ROW, "10 | 12", 1),
    ]


def test_docx_first_row_names_columns_only_when_it_looks_like_labels(tmp_path: Path) -> None:
    table_rows = rows(read_document(make_docx(tmp_path / "report.docx")))
    assert table_rows[0].cells is None
    assert table_rows[1].cells == (("Office", "Rent"), ("Amount", "1,200"))
    assert table_rows[2].cells == (("Office", "Travel"), ("Amount", ""))
    assert table_rows[3].cells is None and table_rows[4].cells is None  # "2015" is data


def test_docx_merged_header_cell_names_each_column_it_spans(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).text = "Region"
    merged = table.cell(0, 1).merge(table.cell(0, 2))
    merged.text = "Sales"
    for cell, value in zip(table.rows[1].cells, ["North", "5", "7"], strict=True):
        cell.text = value
    path = tmp_path / "merged.docx"
    document.save(str(path))
    units = read_document(path)
    assert units[0].text == "Region | Sales"
    assert units[1].cells == (("Region", "North"), ("Sales", "5"), ("Sales", "7"))


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04" + b"\x01" * 200])
def test_corrupt_docx_is_an_ingest_error(tmp_path: Path, content: bytes) -> None:
    path = write(tmp_path, "broken.docx", content)
    with pytest.raises(IngestError, match="cannot open the .docx") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert info.value.__cause__ is not None


def test_docx_with_only_empty_paragraphs_is_empty(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("   ")
    path = tmp_path / "blank.docx"
    document.save(str(path))
    with pytest.raises(IngestError, match="empty document"):
        read_document(path)


# --- PDF ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pdf", [SENATE_PDF, NICS_PDF], ids=lambda p: p.stem)
def test_pdf_text_matches_pdf2txt_default_dump(pdf: Path) -> None:
    dump = pdf.with_suffix(".pdfminer.txt").read_text(encoding="utf-8")
    assert _pdf_text(pdf, pdf.read_bytes()) == dump


@pytest.mark.parametrize("pdf", [SENATE_PDF, NICS_PDF], ids=lambda p: p.stem)
def test_pdf_units_hold_every_line_of_the_dump(pdf: Path) -> None:
    units = read_document(pdf)
    assert units and all(unit.kind in set(UnitKind) for unit in units)
    # Spaces squeezed: pdfminer's text doubles a space where the PDF draws two.
    text = " ".join(all_text(units).split())
    dump = pdf.with_suffix(".pdfminer.txt").read_text(encoding="utf-8")
    for line in dump.splitlines():
        assert " ".join(line.split()) in text


def test_truncated_pdf_is_an_ingest_error(tmp_path: Path) -> None:
    data = SENATE_PDF.read_bytes()
    path = write(tmp_path, "cut.pdf", data[: len(data) // 2])
    with pytest.raises(IngestError, match="cannot read the PDF") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert "not a valid PDF" in info.value.hint
    assert info.value.__cause__ is not None


def test_random_bytes_named_pdf_are_an_ingest_error(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = write(tmp_path, "fake.pdf", bytes(rng.randrange(256) for _ in range(2048)))
    with pytest.raises(IngestError, match="not a PDF") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_pdf_header_with_garbage_body_is_an_ingest_error(tmp_path: Path) -> None:
    path = write(tmp_path, "junk.pdf", b"%PDF-1.7\n" + b"garbage " * 100)
    with pytest.raises(IngestError, match="cannot read the PDF") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_pdf_without_text_asks_for_ocr(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", minimal_pdf(BLANK_PAGE))
    with pytest.raises(IngestError, match="no extractable text") as info:
        read_document(path)
    assert str(path) in str(info.value)
    assert "OCR" in info.value.hint


def test_encrypted_pdf_is_an_ingest_error(tmp_path: Path) -> None:
    # Standard security handler whose user password is not empty (the O/U keys are bogus),
    # so pdfminer cannot open it with the default empty password.
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P -4 >>" % (b"11" * 32, b"22" * 32)
    file_id = b"<00112233445566778899aabbccddeeff>"
    trailer = b"/Encrypt 4 0 R /ID [%s %s] " % (file_id, file_id)
    path = write(tmp_path, "locked.pdf", minimal_pdf([*BLANK_PAGE, encrypt], trailer))
    with pytest.raises(IngestError, match="encrypted") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_pdf_with_an_unknown_suffix_is_read_as_pdf(tmp_path: Path) -> None:
    path = write(tmp_path, "download.bin", SENATE_PDF.read_bytes())
    assert read_document(path) == read_document(SENATE_PDF)


# --- folders ------------------------------------------------------------------------------


def test_iter_document_files_is_recursive_sorted_skips_hidden_and_names_what_it_leaves_out(
    tmp_path: Path,
) -> None:
    for name in [
        "b.txt",
        "a.PDF",
        "sub/z.csv",
        "sub/deeper/y.md",
        "sub-x/w.html",
        ".hidden.txt",
        ".git/config.txt",
        "sub/.cache/c.txt",
        "~$lock.docx",
        "script.py",
        "noext",
    ]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    skipped: list[str] = []
    found = [p.relative_to(tmp_path).as_posix() for p in iter_document_files(tmp_path, skipped)]
    # "noext" is text under a name with no extension (a README, a copyright file): read.
    assert found == ["a.PDF", "b.txt", "noext", "sub/deeper/y.md", "sub/z.csv", "sub-x/w.html"]
    assert [line.split(": skipped, ")[0].rsplit("/", 1)[-1] for line in skipped] == [
        "image.png",
        "script.py",
    ]


def test_iter_document_files_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="not a folder") as info:
        iter_document_files(tmp_path / "absent")
    assert "absent" in str(info.value)


PROSE = Unit(UnitKind.PROSE, "The quarry permit was renewed in May.")
CELLS = (("Item", "Quarry permit"), ("Price", "5.75"))
CORPORA = Path(__file__).resolve().parents[2] / "corpora"


@pytest.mark.parametrize(
    ("suffix", "data", "unit"),
    [
        (".txt", b"The quarry permit was renewed in May.\n", PROSE),
        (".text", b"The quarry permit was renewed in May.\n", PROSE),
        (".md", b"# Permit\n\nThe quarry permit was renewed in May.\n", PROSE),
        (".markdown", b"# Permit\n\nThe quarry permit was renewed in May.\n", PROSE),
        (".rst", b"Permit\n======\n\nThe quarry permit was renewed in May.\n", PROSE),
        (
            ".csv",
            b"Item,Price\nQuarry permit,5.75\n",
            Unit(UnitKind.ROW, "Quarry permit,5.75", CELLS, 0),
        ),
        (
            ".tsv",
            b"Item\tPrice\nQuarry permit\t5.75\n",
            Unit(UnitKind.ROW, "Quarry permit\t5.75", CELLS, 0),
        ),
        (".html", b"<p>The quarry <b>permit</b> was renewed in May.</p>", PROSE),
        (".htm", b"<p>The quarry <b>permit</b> was renewed in May.</p>", PROSE),
        (
            ".pdf",
            SENATE_PDF.read_bytes(),
            Unit(UnitKind.ROW, "BAIN, J MATTHEW\t\t\tDISTRICT DIRECTOR\t37,499.96", None, 2),
        ),
        (
            ".docx",
            (CORPORA / "office" / "nics-firearm-checks-2015-11.docx").read_bytes(),
            Unit(UnitKind.HEADING, "NICS Firearm Background Checks"),
        ),
    ],
)
def test_a_file_of_every_format_is_found_in_a_folder_and_read_as_its_format(
    tmp_path: Path, suffix: str, data: bytes, unit: Unit
) -> None:
    path = tmp_path / f"notes{suffix.upper()}"  # a suffix in capitals is the same format
    path.write_bytes(data)
    assert iter_document_files(tmp_path) == [path]
    assert unit in read_document(path)
