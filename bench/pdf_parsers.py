"""pdfminer.six, pypdfium2 and docling-parse as affidavit's PDF text layer, side by side.

Each parser is called the plain way, one string per page: pdfminer.six ``extract_text``,
default layout (as ``affidavit/ingest/readers/pdf.py`` calls it); pypdfium2
``get_text_range()``; docling-parse's text-line cells in its own order, one per line.
On the real PDFs of ``corpora/pdf_text_dumps`` (and ``corpora/scanned``'s printed-and-
scanned senate PDF, which stands for the compliance set's scanned one) it measures:
1. Quality. Gold: answerable questions of ``bench/doc_qa_questions.jsonl`` and
   ``compliance_questions.jsonl`` on these PDFs with an answer verbatim in the text (both
   case-folded, whitespace collapsed). Columns: 10 sentences of i1040nr.pdf, read off its
   rendered pages, each over a line break inside one of a page's 3 columns, kept when
   contiguous. Hyphens: the 5 words it breaks at a line end (page 49), and the count of
   "x-\\ny" in the four PDFs' text. Table rows: a NICS or ag-energy row counts when one
   output line holds its cells in order.
2. Speed: seconds per document, median of 3 runs after a warm-up (imports not timed).
3. Hostile files built in a temp folder, each read by each parser in a fresh subprocess,
   killed at 60 s or at 8 GiB RSS: outcome, seconds, peak RSS (the child's VmHWM).

A parser that cannot be imported is skipped. Run (4 minutes) after ``python3.11 -m venv
/tmp/parsers && /tmp/parsers/bin/pip install pdfminer.six pypdfium2 docling-parse``:
``/tmp/parsers/bin/python bench/pdf_parsers.py [--json PATH] [--skip-hostile]``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from _record import record

ROOT = Path(__file__).resolve().parents[1]
DUMPS = ROOT / "corpora" / "pdf_text_dumps"
PDFS = ["senate-expenditures.pdf", "nics-background-checks-2015-11.pdf"]
PDFS += ["ag-energy-round-up-2017-02-24.pdf", "i1040nr.pdf"]
_, NICS, AG, IRS = PDFS
PRINTED = ROOT / "corpora" / "scanned" / "senate-printed-and-scanned.pdf"
STANDS_FOR = {"senate-expenditures-scanned.pdf": PRINTED.name}  # that one has no text layer
WALL_SECONDS, RSS_CAP_MB = 60.0, 8192  # a hostile-file child past either is killed


# -- the parsers: each returns the text of every page, in page order ------------------------
def pdfminer_text(path: Path) -> list[str]:
    from pdfminer.high_level import extract_text

    pages = extract_text(str(path)).split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages  # \f ends every page


def pdfium_text(path: Path) -> list[str]:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:  # its lines end in CRLF
        return [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in document]
    finally:
        document.close()


def docling_text(path: Path) -> list[str]:
    from docling_parse.pdf_parser import ContentConfig, ContentLevel, DoclingPdfParser

    skipped = ("char_cells", "word_cells", "shapes", "bitmaps")  # computed: text lines only
    lines_only = ContentConfig(**{f"{kind}_content_level": ContentLevel.SKIP for kind in skipped})
    document = DoclingPdfParser(loglevel="fatal").load(path, content_config=lines_only)
    try:
        return ["\n".join(c.text for c in p.textline_cells) for _, p in document.iterate_pages()]
    finally:
        document.unload()


PARSERS = {"pdfminer.six": pdfminer_text, "pypdfium2": pdfium_text, "docling-parse": docling_text}


def importable() -> dict[str, str]:
    """The parsers this Python can import, with their versions."""
    found = {}
    for name, module in zip(PARSERS, ("pdfminer", "pypdfium2", "docling_parse"), strict=True):
        try:
            __import__(module)
            found[name] = importlib.metadata.version(name)
        except Exception as exc:  # noqa: BLE001 - whatever the reason, the parser is skipped
            print(f"skipped {name}: cannot import {module}: {type(exc).__name__}: {exc}")
    if "pypdfium2" in found:  # and the PDFium build inside its wheel
        found["pypdfium2"] += f" (PDFium {sys.modules['pypdfium2'].version.PDFIUM_INFO})"
    return found


# -- 1. quality ------------------------------------------------------------------------------
def norm(text: str) -> str:
    return " ".join(text.casefold().split())


def gold_answers() -> dict[str, list[list[str]]]:
    """Each PDF's answerable questions, as the answers each one accepts."""
    by_pdf: dict[str, list[list[str]]] = {}
    for name in ("doc_qa_questions.jsonl", "compliance_questions.jsonl"):
        for line in (ROOT / "bench" / name).read_text(encoding="utf-8").splitlines():
            question = json.loads(line)
            document = Path(question["document"] or "").name
            if question["answers"] and document.endswith(".pdf"):
                by_pdf.setdefault(STANDS_FOR.get(document, document), []).append(
                    question["answers"]
                )
    return by_pdf


# Read off the rendered pages 4, 10 and 22 (columns 1 to 3), not off any parser's text:
# "page|sentence", a sentence going on over indented lines.
COLUMN_SENTENCES = """
4|You can have the refund deposited in one or more accounts.
4|If the regular due date for filing falls on a Saturday, Sunday, or legal holiday, file by
  the next business day.
4|Form 4868 does not extend the time to pay your income tax.
4|The private delivery service can tell you how to get written proof of the mailing date.
10|Only the U.S. source income is included on line 8 as effectively connected wages.
10|You must keep documentation showing why the alternative basis more properly determines the
  source of the compensation.
10|See Pub. 901 for a quick reference guide to the provisions of U.S. tax treaties.
22|Your employer will figure and collect the RRTA tax.
22|If you owe this tax, you must attach a statement to your return that includes the
  information described in Pub. 519.
22|Household work includes work done in or around your home by babysitters, nannies, health
  aides, maids, yard workers, and similar domestic workers."""
# Page 49's words broken at a line end, "text before|text after" the break, found only there.
HYPHEN_BREAKS = """
the following instructional changes ap|ply when completing the 2007
(and Form 1040NR) and instruc|tions will not be revised
the additional tax on recapture of a chari|table contribution of a fractional
1040NR, line 41), must instead be in|cluded in the total on Form 1040
line 58), as an addi|tional write-in tax. On the dotted line next to Form 1040, line 63
  (or Form 1040NR, line 58), enter "FITPP\""""
# Table rows read off the rendered pages, "cell|cell|...;" (a line break is no separator).
# NICS: label, first cell (Permit), last cell (Totals).
NICS_ROWS = """Alabama|18,870|71,137;Alaska|209|7,095;Arizona|2,303|27,087;Arkansas|3,298|25,048;
California|98 452|180 116;Colorado|4,144|42,271;Connecticut|9,631|26,438;Delaware|204|5,040;
District of Columbia|8|64;Florida|15,907|103,532;Georgia|14,111|50,795;Guam|0|171;
Hawaii|1,248|1,252;Idaho|1,944|11,925;Illinois|87,190|129,861;Indiana|81,935|130,333;
Iowa|8,785|13,794;Kansas|894|18,433;Kentucky|264,140|295,891;Louisiana|1,945|37,752;
Maine|299|9,297;Mariana Islands|0|0;Maryland|1,512|13,463;Massachusetts|5,214|15,885;
Michigan|16,786|50,278;Minnesota|18,939|44,023;Mississippi|618|27,504;Missouri|5,884|55,031;
Montana|852|10,415;Nebraska|4,258|8,299;Nevada|1,543|10,632;New Hampshire|3,630|12,850;
New Jersey|0|8,313;New Mexico|829|12,721;New York|2,906|36,421;North Carolina|22,469|49,217;
North Dakota|453|6,288;Ohio|9,338|81,616;Oklahoma|0|35,457;Oregon|35|25,453;
Pennsylvania|24,136|103,836;Puerto Rico|0|1,242;Rhode Island|0|2,101;South Carolina|7,284|32,064;
South Dakota|819|9,727;Tennessee|9,509|63,670;Texas|21,550|146,982;Utah|10,429|21,772;
Vermont|0|3,136;Virgin Islands|93|109;Virginia|622|48,010;Washington|10,314|43,989;
West Virginia|2,217|25,063;Wisconsin|5,867|38,541;Wyoming|383|5,017;Totals|804,006|2,236,457"""
# Ag-energy: label, W/E 02/24/17, Last Week, Year Ago.
AG_ROWS = """Iowa|1.35 - 1.42|1.38 - 1.43|1.27 - 1.35;Minnesota|1.38 - 1.48|1.40 - 1.49|1.28 - 1.35;
Nebraska|1.38 - 1.40|1.36 - 1.43|1.27 - 1.35;South Dakota|1.48 - 1.55|1.49 - 1.55|1.28 - 1.34;
Eastern Cornbelt|1.49 - 1.51|1.50 - 1.53|1.35 - 1.40;Wisconsin|unq|unq|1.27 - 1.34;Iowa|2.85|
2.99 - 3.30|2.85 - 3.07;IL/IN/OH|unq|3.47 - 3.54|2.95 - 3.05;Cornstalks|41.25|39.38|52.00;
Straw|55.71|54.29|58.33;Grass|61.46|59.17|63.75;Central Illinois|30.02 - 30.82|31.22 - 32.52|
29.58 - 31.08;Indiana/Ohio|30.92 - 31.17|32.89 - 33.39|30.36 - 31.11;Iowa|30.92 - 31.92|
31.94 - 33.19|30.49 - 31.24;Minnesota|31.17 - 31.92|32.64 - 33.39|30.33 - 31.08;
Midwest (Food Grade)|37.88|37.75|39.75 - 40.75;Chicago|30.50|unq|28.00;Chicago|unq|34.50|30.50;
Central U.S.|23.50 - 25.05|23.50 - 23.75|20.00 - 20.50;Minneapolis|23.75 - 25.50|24.00 - 25.50|
21.00 - 24.50;Central U.S.|23.00|22.00 - 23.00|18.00;Minneapolis|22.50 - 24.50|22.50 - 24.50|
18.50 - 23.00;San Joaquin Valley|23.00 - 24.50|23.00 - 25.00|19.00 - 24.00;San Francisco|
21.00 - 27.00|21.00 - 27.00|19.00 - 21.50;Los Angeles|21.00 - 25.75|21.00 - 25.75|19.00 - 22.75;
CME Group Ethanol ($/gal)|1.5060|1.5410|1.3960;CME Group Soybean Oil (cents/lb)|32.32|33.52|
31.83;NYMEX Crude Oil ($/barrel)|54.45|53.36|30.77;NYMEX RBOB ($/gal)|1.5286|1.5247|0.9724;
NYMEX Natural Gas (mmBtu)|2.6170|2.8540|1.8520;NYMEX Heating Oil ($/gal)|1.6567|1.6291|1.0792"""


def entries(data: str, separator: str) -> list[list[str]]:
    """The ``|``-split entries of one of the strings above, whitespace runs made spaces."""
    return [" ".join(e.split()).split("|") for e in re.split(separator, data.strip())]


def hyphen_outcome(page: str, before: str, after: str) -> str:
    """How a word broken at a line end came out: joined, marked, broken or interleaved."""
    words = lambda phrase: r"\s+".join(map(re.escape, phrase.split()))  # noqa: E731
    page = page.replace("\u201c", '"').replace("\u201d", '"')  # docling-parse writes ASCII
    found = re.search(words(before) + "(.{0,60}?)" + words(after), page, re.S | re.I)
    gap = found.group(1) if found else None
    plain = {None: "missing", "": "joined", "\ufffe": "marked"}  # U+FFFE: PDFium's mark
    if gap in plain:  # for a hyphen it took out at a line end
        return plain[gap]
    return "broken" if re.fullmatch(r"-\s*", gap or "") else "interleaved"


def rows_kept(pages: list[str], rows: str) -> str:
    """How many table rows have their cells in order on one line of ``pages``."""
    lines, table = [norm(line) for line in "\n".join(pages).split("\n")], entries(rows, ";")
    patterns = [".*?".join(re.escape(norm(cell)) for cell in row) for row in table]
    return f"{sum(any(re.search(p, line) for line in lines) for p in patterns)}/{len(table)}"


def quality(texts: dict[str, list[str]]) -> tuple[dict, dict]:
    """Two report rows for one parser from its text of every PDF: gold answers, layout."""
    whole = {name: norm("\n".join(pages)) for name, pages in texts.items()}
    hits = {
        p: [any(norm(a) in whole[p] for a in q) for q in qs] for p, qs in gold_answers().items()
    }
    hits = {"all": [hit for found in hits.values() for hit in found], **hits}
    sentences = entries(COLUMN_SENTENCES, r"\n(?=\d+\|)")
    kept = sum(norm(s) in norm(texts[IRS][int(page) - 1]) for page, s in sentences)
    breaks = [hyphen_outcome(texts[IRS][48], *pair) for pair in entries(HYPHEN_BREAKS, r"\n(?! )")]
    eol = sum(len(re.findall(r"[A-Za-z]-\n[a-z]", "\n".join(texts[p]))) for p in PDFS)
    layout = {
        "column sentences kept": f"{kept}/{len(sentences)}",
        "5 line-end hyphen breaks": ", ".join(breaks),
        "`x-\\ny` in all text": eol,
        "NICS rows": rows_kept(texts[NICS], NICS_ROWS),
        "ag-energy rows": rows_kept(texts[AG], AG_ROWS),
        "chars on the scanned page": len(texts[PRINTED.name][1].strip()),
    }
    return {pdf: f"{sum(found)}/{len(found)}" for pdf, found in hits.items()}, layout


# -- 2. speed --------------------------------------------------------------------------------
def speed(extract) -> dict[str, str]:
    """Per PDF: median seconds of 3 runs, and pages per second."""
    extract(DUMPS / PDFS[0])  # warm-up: lazy imports and first-use caches are not timed
    timed = {}
    for name in PDFS:
        seconds = []
        for _ in range(3):
            started = time.perf_counter()
            pages = len(extract(DUMPS / name))
            seconds.append(time.perf_counter() - started)
        timed[name] = f"{(median := statistics.median(seconds)):.3f} s ({pages / median:.0f} p/s)"
    return timed


# -- 3. hostile files ------------------------------------------------------------------------
def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), extra, data)


FONTS = b"<< /Font << /F1 5 0 R >> >>"
PAGE = {  # a valid page showing "Hostile page text": object number -> body
    1: b"<< /Type /Catalog /Pages 2 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s /Contents 4 0 R >>"
    % FONTS,
    4: stream(b"BT /F1 12 Tf 72 720 Td (Hostile page text) Tj ET"),
    5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
}


def assemble(objects: dict[int, bytes], packed: dict[int, int] | None = None) -> bytes:
    """``objects`` as a PDF whose root is object 1, with a classic xref table; or, when some
    objects are ``packed`` (number -> its index in object stream 6), with an xref stream."""
    out, at = b"%PDF-1.5\n", {}
    for number, body in sorted(objects.items()):
        at[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref, size = len(out), max([*objects, *(packed or {})]) + 1 + bool(packed)
    if not packed:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        out += b"".join(b"%010d 00000 n \n" % at[n] for n in range(1, size))
        return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    at[size - 1] = xref  # the xref stream is the last object; type 2 = in object stream 6
    rows = [(2, 6, packed[n]) if n in packed else (1, at[n], 0) for n in range(1, size)]
    table = b"".join(struct.pack(">BIH", *row) for row in [(0, 0, 65535), *rows])
    xref_stream = stream(table, b" /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R" % size)
    out += b"%d 0 obj\n%s\nendobj\n" % (size - 1, xref_stream)
    return out + b"startxref\n%d\n%%%%EOF\n" % xref


def object_stream_in_itself() -> bytes:
    """The catalog is in object stream 6, and the xref stream puts 6 inside 6 too."""
    catalog = b"<< /Type /Catalog /Pages 2 0 R >> "
    header = b"1 0 6 %d " % len(catalog)  # object 1 at offset 0, object 6 right after it
    body = header + catalog + b"<< /Type /ObjStm >>"
    objstm = stream(body, b" /Type /ObjStm /N 2 /First %d" % len(header))
    objects = {n: body for n, body in PAGE.items() if n != 1}
    return assemble({**objects, 6: objstm}, packed={1: 0, 6: 1})


def flate_bomb(chunk: bytes, inflated_mb: int = 1024) -> bytes:
    """One page whose content stream, 1-2 MB on disk, inflates to ``inflated_mb`` MiB."""
    packer, block = zlib.compressobj(9), chunk * (2**20 // len(chunk))
    data = b"".join(packer.compress(block) for _ in range(inflated_mb)) + packer.flush()
    return assemble({**PAGE, 4: stream(data, b" /Filter /FlateDecode")})


def broken_xref_243() -> bytes:
    """243 bytes, as the issue's: its xref lists object 1 wrong, its /Prev is itself."""
    body = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages"
    body += b"/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page>>endobj\n"
    xref = len(body)
    body += b"xref\n0 2\n0000000000 65535 f \n0000000001 00000 n \n"
    body += b"trailer<</Size 4/Root 1 0 R/Prev %d>>\nstartxref\n%d\n%%%%EOF\n" % (xref, xref)
    return body + b"\n" * (243 - len(body))


SENATE = DUMPS / "senate-expenditures.pdf"
KID_OF_ROOT = b"<< /Type /Pages /Kids [2 0 R] >>"  # a /Pages node whose kid is the root
HOSTILE: dict = {  # a builder, or the objects that replace or join PAGE's
    "control: senate-expenditures.pdf": SENATE.read_bytes,
    # /Resources is object 6, and object 6 is "6 0 R": resolving it never ends.
    "object that references itself": {3: PAGE[3].replace(FONTS, b"6 0 R"), 6: b"6 0 R"},
    "object stream containing itself": object_stream_in_itself,
    "/Pages kid whose /Kids is the root": {
        2: PAGE[2].replace(b"] /Count 1", b" 6 0 R] /Count 2"),
        6: KID_OF_ROOT,
    },
    # tests/ingest/test_hostile_inputs.py's bomb at 1 GiB: 77 M operators, no glyph shown.
    "Flate -> 1 GiB of `0 0 Td (A) Tj`": lambda: flate_bomb(b"0 0 Td (A) Tj\n"),
    "Flate -> 1 GiB of spaces": lambda: flate_bomb(b" "),
    "first half of senate-expenditures.pdf": lambda: (d := SENATE.read_bytes())[: len(d) // 2],
    "243 bytes: broken xref, /Prev loop": broken_xref_243,
}


def proc_kb(pid: int | str, field: str) -> int:
    try:
        found = re.search(field + r":\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    except OSError:  # already gone
        return 0
    return int(found.group(1)) if found else 0


def run_child(parser: str, path: Path) -> str:
    """Read ``path`` with ``parser`` in a fresh interpreter, watched: outcome (s, peak MB)."""
    out = tempfile.TemporaryFile()  # not a pipe, which a chatty child could fill and block on
    child = subprocess.Popen([sys.executable, __file__, "--child", parser, str(path)], stdout=out)
    started, outcome, peak = time.monotonic(), "", 0.0
    while child.poll() is None and not outcome:
        peak = max(peak, proc_kb(child.pid, "VmHWM") / 1024)
        if time.monotonic() - started > WALL_SECONDS:
            outcome = f"still running at {WALL_SECONDS:g} s: killed"
        elif proc_kb(child.pid, "VmRSS") / 1024 > RSS_CAP_MB:
            outcome = f"RSS past {RSS_CAP_MB} MB: killed"
        time.sleep(0.05)
    child.kill()  # a no-op unless it is still running
    child.wait()
    elapsed = time.monotonic() - started
    out.seek(0)
    said = out.read().decode(errors="replace").strip().splitlines()
    if not outcome and said and "\t" in said[-1]:
        outcome, own_peak = said[-1].rsplit("\t", 1)  # the child's VmHWM at its end
        peak = max(peak, int(own_peak) / 1024)
    elif not outcome:  # died without a word: a native crash (negative: the signal) or abort
        outcome = f"died: exit code {child.returncode}"
    return f"{outcome.replace(str(path.parent) + '/', '')} ({elapsed:.1f} s, {peak:,.0f} MB)"


def child_main(parser: str, path: str) -> None:
    """In the watched subprocess: extract, print what happened and this process's peak."""
    try:
        pages = PARSERS[parser](Path(path))
        said = f"text: {len(pages)} pages, {sum(len(p.strip()) for p in pages):,} chars"
    except BaseException as exc:  # noqa: BLE001 - RecursionError, MemoryError included
        said = f"raises {type(exc).__name__}: {str(exc)[:70]}"
    print(f"{said}\t{proc_kb('self', 'VmHWM')}")


# -- report ----------------------------------------------------------------------------------
def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--json", type=Path, help="also write every table here")
    options.add_argument("--skip-hostile", action="store_true")
    args = options.parse_args()
    versions = importable()
    tables: dict = {"Versions": {name: {"version": v} for name, v in versions.items()}}
    gold, layout, speeds = "Gold answers found verbatim", "Layout", "Speed: median of 3 runs"
    for name in versions:
        extract = PARSERS[name]
        texts = {path.name: extract(path) for path in [DUMPS / p for p in PDFS] + [PRINTED]}
        rows = (*quality(texts), speed(extract))
        for title, row in zip((gold, layout, speeds), rows, strict=True):
            tables.setdefault(title, {})[name] = row
    hostile = f"Hostile files ({WALL_SECONDS:g} s, {RSS_CAP_MB} MB RSS cap; fresh subprocess each)"
    with tempfile.TemporaryDirectory() as folder:
        for label, build in {} if args.skip_hostile else HOSTILE.items():
            path = Path(folder) / (re.sub(r"\W+", "-", label).strip("-") + ".pdf")
            path.write_bytes(assemble(PAGE | build) if isinstance(build, dict) else build())
            row = {"bytes": f"{path.stat().st_size:,}"} | {n: run_child(n, path) for n in versions}
            tables.setdefault(hostile, {})[label] = row
    printed = []
    for title, rows in tables.items():
        header = ["", *next(iter(rows.values()))]
        body = ["| " + " | ".join(map(str, [k, *row.values()])) + " |" for k, row in rows.items()]
        printed.append(f"\n**{title}**\n\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        printed.append("\n".join(body))
    print("\n".join(printed))
    # NOTE: pdfminer.six is the parser affidavit ships; the others are its baselines.
    record(__file__, split="none", printed="\n".join(printed), baselines=("pypdfium2", "docling"))
    if args.json:
        args.json.write_text(json.dumps(tables, indent=2), encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child_main(sys.argv[2], sys.argv[3])
    else:
        main()
