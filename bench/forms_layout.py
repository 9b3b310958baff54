"""Forms as laid out: are labels kept on the line of their values, and sentences kept
whole, in the stored lines of a form-like PDF, read by pdfminer.six's text (as affidavit
read PDFs before), by pypdfium2's text, by affidavit's reader by rows, and by a choice
page by page between the rows and pypdfium2's text (the one whose lines keep more
"Label: value" pairs, counted without gold)?

Each parser's page texts go through the project's own ingest (``Memory.ingest`` of the
PDF, its layout and line splitter; the parser stands in for the PDF reader's
``page_texts``), and the stored lines are read back from the store. On the 12 PDFs of
``bench/forms/documents`` (split by document into tune and report, see its SOURCE.md):

- labels kept: the share of the gold pairs of ``bench/forms/pairs.jsonl`` (a label and
  its value, read off the rendered page) whose label and value stand in one stored line,
  the label first and the value starting within 60 characters after it, with no other
  label of the document between them (all compared
  case-folded, with every space taken out, so a parser's spacing of "August 3 , 2014"
  counts as the page's).
- sentences whole: the share of the gold sentences of ``bench/forms/sentences.jsonl``
  (sentences of the rendered pages that run over a line break) that stand whole in one
  stored line, compared the same way; and, for pages of columns, the same share for the
  10 sentences of the IRS instructions' three columns that ``bench/pdf_parsers.py`` reads
  off ``corpora/pdf_text_dumps/i1040nr.pdf``.
- seconds a page: the parser's page texts alone (no ingest), median of 3 runs over every
  PDF of the split, after a warm-up.

Run (the ``ocr`` extra brings pypdfium2): ``.venv/bin/python bench/forms_layout.py``
(about 3 minutes; it records both splits). ``--show NAME`` prints each parser's stored
lines of one document; ``--split tune`` measures one split alone and records nothing, and
with ``--failures`` prints the pairs and sentences each parser loses (rules are changed
by reading tune's alone).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from _record import Row, Table, record

from affidavit.ingest.formats import pdf

ROOT = Path(__file__).resolve().parents[1]
FORMS = ROOT / "bench" / "forms"
SPLITS = ("tune", "report")
IRS = ROOT / "corpora" / "pdf_text_dumps" / "i1040nr.pdf"

PageTexts = Callable[[Path, bytes], list[str]]
_ROWS: PageTexts = pdf.page_texts  # taken before stored_lines stands a parser in for it


# -- the parsers: each returns the text of every page, in page order ------------------------
def pdfminer_pages(path: Path, data: bytes) -> list[str]:
    """pdfminer.six's ``extract_text`` (default layout), split at its form feeds, as the
    PDF reader took it before the reader by rows."""
    from affidavit.ingest.formats.pdf import pdf_text

    pages = pdf_text(path, data).split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages  # \f ends every page


def pdfium_pages(path: Path, data: bytes) -> list[str]:
    """pypdfium2's ``get_text_range()`` of each page (PDFium's text in stored order)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:  # its lines end in CRLF
        return [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in document]
    finally:
        document.close()


def rows_pages(path: Path, data: bytes) -> list[str]:
    """affidavit's reader by rows (``affidavit/ingest/formats/pdf_rows.py``)."""
    return _ROWS(path, data)


# A line that keeps a label with its value: a few words ending in ":", then the value.
_LABEL_AND_VALUE = re.compile(r"^[^:\t]{1,60}:[ \t]*\S", re.MULTILINE)
# A line that is a label alone, its value elsewhere.
_LABEL_ALONE = re.compile(r"^[^:\t]{1,60}:[ \t]*$", re.MULTILINE)


def labels_with_values(page: str) -> int:
    """How many of a page's lines keep a label with its value, less those that hold a
    label alone: what a reader can count on a page without any gold."""
    return len(_LABEL_AND_VALUE.findall(page)) - len(_LABEL_ALONE.findall(page))


def per_page_pages(path: Path, data: bytes) -> list[str]:
    """Each page as the reader by rows sets it, or as pypdfium2's text gives it where that
    keeps more labels with their values (``labels_with_values``); a tie keeps the rows."""
    rows, pdfium = rows_pages(path, data), pdfium_pages(path, data)
    if len(rows) != len(pdfium):
        return rows
    return [
        other if labels_with_values(other) > labels_with_values(own) else own
        for own, other in zip(rows, pdfium, strict=True)
    ]


# The reader affidavit uses: the best on tune, and the simpler of the candidates that
# come close (a per-page choice needs both parsers).
CHOSEN = "affidavit rows"
PARSERS: dict[str, PageTexts] = {
    "pdfminer.six text (before)": pdfminer_pages,
    "pypdfium2 text": pdfium_pages,
    "affidavit rows": rows_pages,
    "per page: rows or pypdfium2": per_page_pages,
}


# -- gold and matching ---------------------------------------------------------------------
def squeezed(text: str) -> str:
    """Case-folded, every whitespace character out, typographic quotes and dashes plain."""
    text = text.translate(str.maketrans("\u2018\u2019\u201c\u201d\u2013\u2014", "''\"\"--"))
    return re.sub(r"\s+", "", text.casefold())


def gold(name: str) -> list[dict]:
    return [json.loads(line) for line in (FORMS / name).read_text("utf-8").splitlines() if line]


# A value counts as the label's when it starts this near after it (squeezed characters):
# a long paragraph that happens to hold both, far apart, does not keep them together.
NEAR = 60


def pair_kept(lines: list[str], label: str, value: str, others: set[str]) -> bool:
    """Does a line hold ``label`` and then ``value``, near, with none of the document's
    ``others`` labels between them (a column of labels set before its column of values,
    "Race or Ethnicity: Special Needs: African American/Black", keeps no pair)?"""
    want_label, want_value = squeezed(label), squeezed(value)
    for line in lines:
        at = line.find(want_label)
        while at >= 0:
            after = at + len(want_label)
            found = line.find(want_value, after, after + NEAR + len(want_value))
            if found >= 0 and not any(other in line[after:found] for other in others):
                return True
            at = line.find(want_label, at + 1)
    return False


def labels_of(pair: dict, pairs: list[dict]) -> set[str]:
    """The other labels of ``pair``'s document, squeezed."""
    own = squeezed(pair["label"])
    found = {squeezed(p["label"]) for p in pairs if p["document"] == pair["document"]}
    return {label for label in found if label != own and label not in own}


def sentence_whole(lines: list[str], sentence: str) -> bool:
    want = squeezed(sentence)
    return any(want in line for line in lines)


# -- ingest ----------------------------------------------------------------------------------
def stored_lines(paths: list[Path], parser: PageTexts) -> dict[str, list[str]]:
    """Each document's stored lines (squeezed) when ``parser`` reads the PDFs' pages."""
    from affidavit import Memory

    reader, pdf.page_texts = pdf.page_texts, parser  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = Path(folder) / "forms.sqlite"
            with warnings.catch_warnings(), Memory(store, dense=False) as memory:
                warnings.simplefilter("ignore")
                memory.ingest(paths)
            connection = sqlite3.connect(store)
            try:
                rows = connection.execute(
                    "SELECT d.name, l.text FROM lines l JOIN documents d "
                    "ON d.id = l.document_id ORDER BY l.id"
                ).fetchall()
            finally:
                connection.close()
    finally:
        pdf.page_texts = reader
    by_document: dict[str, list[str]] = {}
    for name, text in rows:
        by_document.setdefault(name, []).append(text)
    return by_document


def seconds_a_page(paths: list[Path], parser: PageTexts) -> float:
    datas = [(path, path.read_bytes()) for path in paths]
    parser(*datas[0])  # warm-up: lazy imports are not timed
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        pages = sum(len(parser(path, data)) for path, data in datas)
        runs.append((time.perf_counter() - started) / pages)
    return statistics.median(runs)


def share(hits: list[bool]) -> str:
    return f"{sum(hits) / len(hits):.1%} ({sum(hits)}/{len(hits)})" if hits else "-"


def measure(split: str, parser: PageTexts) -> dict[str, str]:
    paths = sorted((FORMS / "documents" / split).glob("*.pdf"))
    lines = {
        name: [squeezed(t) for t in texts] for name, texts in stored_lines(paths, parser).items()
    }
    names = {path.name for path in paths}
    pairs = [p for p in gold("pairs.jsonl") if p["document"] in names]
    sentences = [s for s in gold("sentences.jsonl") if s["document"] in names]
    return {
        "labels kept": share(
            [
                pair_kept(lines.get(p["document"], []), p["label"], p["value"], labels_of(p, pairs))
                for p in pairs
            ]
        ),
        "sentences whole": share(
            [sentence_whole(lines.get(s["document"], []), s["sentence"]) for s in sentences]
        ),
        "s a page": f"{seconds_a_page(paths, parser):.4f}",
    }


def column_sentences(parser: PageTexts) -> str:
    """The IRS instructions' column-spanning sentences kept whole (three columns a page)."""
    import pdf_parsers

    lines = [squeezed(t) for t in stored_lines([IRS], parser).get(IRS.name, [])]
    sentences = pdf_parsers.entries(pdf_parsers.COLUMN_SENTENCES, r"\n(?=\d+\|)")
    return share([sentence_whole(lines, sentence) for _page, sentence in sentences])


def failures(split: str) -> None:
    """Each parser's gold pairs and sentences of ``split`` that its stored lines lose."""
    paths = sorted((FORMS / "documents" / split).glob("*.pdf"))
    names = {path.name for path in paths}
    pairs = [p for p in gold("pairs.jsonl") if p["document"] in names]
    sentences = [s for s in gold("sentences.jsonl") if s["document"] in names]
    for label, parser in PARSERS.items():
        print(f"===== {label}")
        lines = {
            name: [squeezed(t) for t in texts]
            for name, texts in stored_lines(paths, parser).items()
        }
        for p in pairs:
            kept = lines.get(p["document"], [])
            if not pair_kept(kept, p["label"], p["value"], labels_of(p, pairs)):
                print(f"pair  {p['document']} p{p['page']}: {p['label']!r} -> {p['value']!r}")
        for s in sentences:
            if not sentence_whole(lines.get(s["document"], []), s["sentence"]):
                print(f"sent  {s['document']} p{s['page']}: {s['sentence'][:90]!r}")


def show(name: str) -> None:
    path = next((FORMS / "documents").glob(f"*/{name}"))
    for label, parser in PARSERS.items():
        print(f"===== {label}")
        for text in stored_lines([path], parser).get(path.name, []):
            print(text)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--show", help="print each parser's stored lines of this PDF")
    options.add_argument("--skip-irs", action="store_true", help="leave out i1040nr.pdf")
    options.add_argument(
        "--split", choices=SPLITS, help="measure this split alone (prints, records nothing)"
    )
    options.add_argument(
        "--failures", action="store_true", help="with --split: print what each parser loses"
    )
    args = options.parse_args()
    if args.show:
        show(args.show)
        return
    if args.split and args.failures:
        failures(args.split)
        return
    if args.split:
        for label, parser in PARSERS.items():
            figures = measure(args.split, parser)
            print(" | ".join([label, *figures.values()]), flush=True)
        return
    rows = []
    for label, parser in PARSERS.items():
        figures = {split: measure(split, parser) for split in SPLITS}
        irs = "-" if args.skip_irs else column_sentences(parser)
        cells = [label]
        for split in SPLITS:
            cells += [figures[split][k] for k in ("labels kept", "sentences whole", "s a page")]
        cells.append(irs)
        system = "affidavit" if label == CHOSEN else "baseline"
        rows.append(Row(tuple(cells), system))
        print(" | ".join(cells), flush=True)
    columns = (
        ("parser",)
        + tuple(
            f"{split}: {what}"
            for split in SPLITS
            for what in ("labels kept", "sentences whole", "s a page")
        )
        + ("i1040nr column sentences whole",)
    )
    title = "Labels kept with their values and sentences kept whole, in stored lines"
    record(
        __file__,
        split="all",
        tables=[Table(title, columns, tuple(rows))],
        remarks=(
            "Both splits are in the table, each its own columns: the rules were tuned on "
            "tune, and report is measured as it came out.",
            f"affidavit reads PDFs with '{CHOSEN}', chosen on tune's figures alone.",
        ),
    )


if __name__ == "__main__":
    main()
