"""Build corpora/office: an HTML page and a Word file carrying real U.S. government text.

Both are made from the pdfminer dumps in corpora/pdf_text_dumps (public-domain works):
the HTML page holds When To File, Where To File and two 2007 tax rate schedules from the
IRS Instructions for Form 1040NR; the .docx holds the FBI's NICS November 2015 figures for
ten states, with the table's header row and its notes. Every passage is checked against
the dump lines it cites before anything is written, so a typo cannot slip in. The output
is byte-for-byte reproducible (fixed zip dates). Run from the repository root:

    .venv/bin/python tools/make_office_corpus.py
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument

ROOT = Path(__file__).resolve().parents[1]
DUMPS = ROOT / "corpora" / "pdf_text_dumps"
TARGET = ROOT / "corpora" / "office"
HTML_NAME = "irs-1040nr-when-and-where-to-file.html"
DOCX_NAME = "nics-firearm-checks-2015-11.docx"

# -- the HTML page: (tag, text, the i1040nr.pdfminer.txt line ranges it is read from) --
# A block may take several ranges: the dump interleaves the page's columns.

Lines = tuple[tuple[int, int], ...]
HTML_BLOCKS: tuple[tuple[str, str, Lines], ...] = (
    (
        "h1",
        "2007 Instructions for Form 1040NR U.S. Nonresident Alien Income Tax Return",
        ((20, 23),),
    ),
    ("h2", "When To File", ((833, 833),)),
    (
        "p",
        "<b>Individuals.</b> If you were an employee and received wages subject to U.S. "
        "income tax withholding, file Form 1040NR by the 15th day of the 4th month after "
        "your tax year ends. A return for the 2007 calendar year is due by April 15, 2008.",
        ((834, 834), (831, 831), (835, 840)),
    ),
    (
        "p",
        "If you did not receive wages as an employee subject to U.S. income tax "
        "withholding, file Form 1040NR by the 15th day of the 6th month after your tax year "
        "ends. A return for the 2007 calendar year is due by June 16, 2008.",
        ((873, 878),),
    ),
    (
        "p",
        "<b>Estates and trusts.</b> If you file for a nonresident alien estate or trust that "
        "has an office in the United States, file the return by the 15th day of the 4th "
        "month after the tax year ends. If you file for a nonresident alien estate or trust "
        "that does not have an office in the United States, file the return by the 15th day "
        "of the 6th month after the tax year ends.",
        ((879, 889),),
    ),
    (
        "p",
        "<b>Note.</b> If the regular due date for filing falls on a Saturday, Sunday, or "
        "legal holiday, file by the next business day.",
        ((890, 890), (909, 909), (891, 892)),
    ),
    (
        "p",
        "<b>Extension of time to file.</b> If you cannot file your return by the due date, "
        "you should file Form 4868. You must file Form 4868 by the regular due date of the "
        "return.",
        ((913, 913), (911, 911), (914, 917)),
    ),
    (
        "p",
        "<b>Note.</b> Form 4868 does not extend the time to pay your income tax. The tax is "
        "due by the regular due date of the return.",
        ((918, 921),),
    ),
    ("h2", "Where To File", ((923, 923),)),
    (
        "p",
        "<b>Individuals.</b> File Form 1040NR with the Department of the Treasury, Internal "
        "Revenue Service Center, Austin, TX 73301-0215 U.S.A.",
        ((924, 927),),
    ),
    (
        "p",
        "<b>Estates and trusts.</b> File Form 1040NR with the Department of the Treasury, "
        "Internal Revenue Service Center, Cincinnati, OH 45999-0048 U.S.A.",
        ((928, 932),),
    ),
    ("h2", "Private Delivery Services", ((934, 934),)),
    (
        "p",
        "You can use certain private delivery services designated by the IRS to meet the "
        "“timely mailing as timely filing/paying” rule for tax returns and payments. These "
        "private delivery services include only the following.",
        ((935, 936), (842, 845)),
    ),
    (
        "li",
        "DHL Express (DHL): DHL Same Day Service, DHL Next Day 10:30 am, DHL Next Day "
        "12:00 pm, DHL Next Day 3:00 pm, and DHL 2nd Day Service.",
        ((846, 849),),
    ),
    (
        "li",
        "Federal Express (FedEx): FedEx Priority Overnight, FedEx Standard Overnight, FedEx "
        "2Day, FedEx International Priority, and FedEx International First.",
        ((850, 854),),
    ),
    (
        "li",
        "United Parcel Service (UPS): UPS Next Day Air, UPS Next Day Air Saver, UPS 2nd Day "
        "Air, UPS 2nd Day Air A.M., UPS Worldwide Express Plus, and UPS Worldwide Express.",
        ((855, 859),),
    ),
    (
        "p",
        "The private delivery service can tell you how to get written proof of the mailing date.",
        ((860, 862),),
    ),
    (
        "p",
        "<b>Caution.</b> Private delivery services cannot deliver items to P.O. boxes. You "
        "must use the U.S. Postal Service to mail any item to an IRS P.O. box address.",
        ((869, 869), (866, 871)),
    ),
    ("h2", "2007 Tax Rate Schedules", ((19945, 19945),)),
    (
        "p",
        "<b>Individuals.</b> If your taxable income is $100,000 or more, use the Tax "
        "Computation Worksheet on page 46 to compute your tax. The Tax Rate Schedules are "
        "shown so you can see that tax rate that applies to all levels of taxable income but "
        "should not be used to figure your tax.",
        ((19947, 19949),),
    ),
    (
        "h3",
        "Schedule X — Single Taxpayers — If you checked Filing Status Box 1 or 2 on Form 1040NR",
        ((20026, 20029),),
    ),
    (
        "h3",
        "Schedule W — Estates or Trusts — Use this schedule for a nonresident alien estate or "
        "trust",
        ((19955, 19955), (19989, 19990)),
    ),
)

# The two schedules as the PDF prints them (page 47): header row, then one row per bracket.
SCHEDULE_X = (
    ("If taxable income is: Over —", "But not over —", "The tax is:", "of the amount over —"),
    ("$0", "$7,825", "10%", "$0"),
    ("7,825", "31,850", "$782.50 + 15%", "7,825"),
    ("31,850", "77,100", "4,386.25 + 25%", "31,850"),
    ("77,100", "160,850", "15,698.75 + 28%", "77,100"),
    ("160,850", "349,700", "39,148.75 + 33%", "160,850"),
    ("349,700", "", "101,469.25 + 35%", "349,700"),
)
SCHEDULE_W = (
    (
        "If the amount of Form 1040NR, line 40, is: Over —",
        "But not over —",
        "Enter on Form 1040NR, line 41",
        "of the amount over —",
    ),
    ("$0", "$2,150", "15%", "$0"),
    ("2,150", "5,000", "$322.50 + 25%", "2,150"),
    ("5,000", "7,650", "1,035.00 + 28%", "5,000"),
    ("7,650", "10,450", "1,777.00 + 33%", "7,650"),
    ("10,450", "", "2,701.00 + 35%", "10,450"),
)
# Both schedules are dumped column by column over the page, one column before its title.
SCHEDULES_LINES = ((19945, 20090),)

# -- the Word file: NICS columns as (header, line of the header, line of the first value) --

NICS_STATE_LINES = (5, 59)
NICS_COLUMNS = (
    ("Permit", 3, 63),
    ("Handgun", 120, 121),
    ("Long Gun", 178, 179),
    ("*Other", 236, 237),
    ("**Multiple", 294, 295),
    ("Admin", 352, 353),
    ("Totals", 1256, 1258),
)
NICS_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "Colorado",
    "Georgia", "Indiana", "Ohio", "Virginia", "Wyoming",
)  # fmt: skip
# (style, dump line); the PDF prints no full stop between sentences, only a wide gap.
NICS_NOTES = (
    ("Heading 2", 1374),
    ("Normal", 1372),
    ("Normal", 1376),
    ("Normal", 1378),
    ("Heading 2", 1380),
    ("Normal", 1382),
)

# Template parts the file does not need (relationship types, last path segment).
_UNUSED_PARTS = frozenset(
    {"stylesWithEffects", "customXml", "webSettings", "numbering", "thumbnail"}
)
_WORDS = re.compile(r"[a-z0-9]+")
_FIXED_DATE = datetime(2015, 12, 1)


def words(text: str) -> list[str]:
    return _WORDS.findall(re.sub(r"<[^>]+>", " ", text).lower())


def dump_lines(name: str) -> list[str]:
    """The dump's lines, numbered from 1 as SOURCE.md cites them (index 0 is unused)."""
    return ["", *(DUMPS / name).read_text(encoding="utf-8").split("\n")]


def span(lines: Sequence[str], ranges: Lines) -> str:
    return "\n".join("\n".join(lines[first : last + 1]) for first, last in ranges)


def check_in_order(text: str, source: str, where: str) -> None:
    """Every word of text appears in source, in the same order (columns may interleave)."""
    pool = iter(words(source))
    missing = [w for w in words(text) if not any(w == seen for seen in pool)]
    if missing:
        raise SystemExit(f"{where}: not in the dump, in this order: {missing[:5]}")


def check_cells(table: Sequence[Sequence[str]], source: str, where: str) -> None:
    """Every word of every cell appears in source (a PDF table is dumped column by column)."""
    short = Counter(w for row in table for cell in row for w in words(cell)) - Counter(
        words(source)
    )
    if short:
        raise SystemExit(f"{where}: cells not in the dump: {sorted(short)[:5]}")


def build_html() -> str:
    lines = dump_lines("i1040nr.pdfminer.txt")
    for _, text, ranges in HTML_BLOCKS:
        check_in_order(text, span(lines, ranges), f"i1040nr lines {ranges}")
    check_cells(SCHEDULE_X, span(lines, SCHEDULES_LINES), "Schedule X")
    check_cells(SCHEDULE_W, span(lines, SCHEDULES_LINES), "Schedule W")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8"><title>Instructions for Form 1040NR (2007): '
        "When and Where To File</title></head>",
        "<body>",
    ]
    in_list = False
    for tag, text, _ in HTML_BLOCKS:
        if (tag == "li") != in_list:
            out.append("<ul>" if tag == "li" else "</ul>")
            in_list = tag == "li"
        out.append(f"<{tag}>{text}</{tag}>")
        if tag == "h3":
            out.append(_html_table(SCHEDULE_X if "Schedule X" in text else SCHEDULE_W))
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def _html_table(table: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in table[0])
    rows = [
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table[1:]
    ]
    return "\n".join(
        ["<table>", f"<thead><tr>{head}</tr></thead>", "<tbody>", *rows, "</tbody>", "</table>"]
    )


def nics_table() -> list[list[str]]:
    """Header row plus one row per chosen state, read from the dump's columns."""
    lines = dump_lines("nics-background-checks-2015-11.pdfminer.txt")
    first, last = NICS_STATE_LINES
    states = lines[first : last + 1]
    rows = [["State / Territory", *(name for name, _, _ in NICS_COLUMNS)]]
    for state in NICS_STATES:
        index = states.index(state)
        row = [state]
        for name, header_line, value_line in NICS_COLUMNS:
            if lines[header_line].strip() != name:
                raise SystemExit(f"NICS line {header_line} is not the {name} header")
            row.append(lines[value_line + index].strip())
        rows.append(row)
    return rows


def build_docx() -> bytes:
    from docx import Document

    lines = dump_lines("nics-background-checks-2015-11.pdfminer.txt")
    document = Document()
    document.core_properties.title = "NICS Firearm Background Checks, November 2015"
    document.core_properties.author = "Federal Bureau of Investigation (NICS)"
    document.core_properties.created = _FIXED_DATE
    document.core_properties.modified = _FIXED_DATE
    document.core_properties.last_modified_by = ""
    document.core_properties.revision = 1
    document.add_heading(lines[529].strip(), level=1)  # NICS Firearm Background Checks
    document.add_paragraph(lines[530].strip())  # November - 2015
    rows = nics_table()
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = "Table Grid"
    for cells, values in zip(table.rows, rows, strict=True):
        for cell, value in zip(cells.cells, values, strict=True):
            cell.text = value
    for style, number in NICS_NOTES:
        text = re.sub(r"\s{2,}", ". ", lines[number].strip())
        if style == "Normal" and not text.endswith((".", ":")):
            text += "."
        document.add_paragraph(text, style=style)
    _slim(document)
    buffer = io.BytesIO()
    document.save(buffer)
    return _fixed_zip_dates(buffer.getvalue())


def _slim(document: DocxDocument) -> None:
    """Drop the template's unused parts and styles: 38 KB of boilerplate down to a few."""
    from docx.oxml.ns import qn

    for rels in (document.part.rels, document.part.package.rels):
        for rel_id, rel in list(rels.items()):
            if rel.reltype.rsplit("/", 1)[-1] in _UNUSED_PARTS:
                rels.pop(rel_id)
    styles = document.styles.element
    by_id = {style.get(qn("w:styleId")): style for style in styles.iter(qn("w:style"))}
    keep: set[str] = set()
    todo = ["Normal", "Heading1", "Heading2", "TableGrid", "TableNormal", "DefaultParagraphFont"]
    while todo:
        style_id = todo.pop()
        if style_id in keep or style_id not in by_id:
            continue
        keep.add(style_id)
        for link in ("w:basedOn", "w:next", "w:link"):
            found = by_id[style_id].find(qn(link))
            if found is not None:
                todo.append(found.get(qn("w:val")))
    for child in list(styles):
        if child.tag == qn("w:latentStyles") or (
            child.tag == qn("w:style") and child.get(qn("w:styleId")) not in keep
        ):
            styles.remove(child)


def _fixed_zip_dates(data: bytes) -> bytes:
    """The same zip with every member dated 1980-01-01, so a rebuild gives the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(member, source.read(info.filename))
    return out.getvalue()


def main() -> None:
    page = build_html()
    docx = build_docx()
    TARGET.mkdir(parents=True, exist_ok=True)
    (TARGET / HTML_NAME).write_text(page, encoding="utf-8")
    (TARGET / DOCX_NAME).write_bytes(docx)
    print(f"wrote {TARGET / HTML_NAME} ({len(page.encode())} bytes)")
    print(f"wrote {TARGET / DOCX_NAME} ({len(docx)} bytes)")


if __name__ == "__main__":
    main()
