"""Does a 500-page PDF pass ingest's default bounds? Build one, ingest it, time it.

The PDF is written here: each page sets 45 lines of a SQuAD article's sentences
(corpora/squad2_articles, in turn) in Helvetica, so pdfminer has real text layout to read.
It is ingested with the default ``IngestLimits`` (in the bounded worker) and the wall
time, the lines stored and the worker's peak memory (its RUSAGE_CHILDREN maximum
resident set) are printed.

    .venv/bin/python bench/long_pdf.py [--pages 500]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
import zlib
from pathlib import Path

from _record import measures_table, record

ROOT = Path(__file__).resolve().parents[1]
LINES_PER_PAGE = 45


def sentences() -> list[str]:
    found: list[str] = []
    for article in sorted((ROOT / "corpora" / "squad2_articles").glob("*.txt")):
        text = article.read_text(encoding="utf-8")
        found += [s.strip() + "." for s in text.replace("\n", " ").split(". ") if 30 < len(s) < 95]
    return found


def _escaped(text: str) -> bytes:
    safe = text.encode("latin-1", "replace").replace(b"\\", b"\\\\")
    return safe.replace(b"(", b"\\(").replace(b")", b"\\)")


def long_pdf(pages: int) -> bytes:
    said = sentences()
    objects: list[bytes] = [b"", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for page in range(pages):
        lines = [said[(page * LINES_PER_PAGE + i) % len(said)] for i in range(LINES_PER_PAGE)]
        body = b"BT /F1 9 Tf 40 800 Td 12 TL " + b" ".join(
            b"(" + _escaped(line) + b") '" for line in lines
        )
        body += b" ET"
        stream = zlib.compress(body)
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream"
        )
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % content
        )
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        pages,
    )
    return pdf_of(objects)


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF file of ``objects`` (numbered from 1, the first the catalogue) with its
    cross-reference table."""
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        table,
    )
    return out


def inflating_pdf(inflated_mb: int) -> bytes:
    """A one-page PDF whose content stream is small on disk and ``inflated_mb`` once
    inflated: a deflate bomb."""
    packer = zlib.compressobj(9)
    chunk = b"0 0 Td (A) Tj\n" * 4096
    stream = b"".join(packer.compress(chunk) for _ in range(inflated_mb * 2**20 // len(chunk)))
    stream += packer.flush()
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream",
        ]
    )


def main() -> None:
    from affidavit import Memory

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="affidavit-pdf-")) / f"long-{args.pages}.pdf"
    path.write_bytes(long_pdf(args.pages))
    memory = Memory(dense=False)
    started = time.monotonic()
    memory.ingest(path)
    seconds = time.monotonic() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{args.pages} pages ({path.stat().st_size / 1e6:.1f} MB): ingested in {seconds:.1f} s "
        f"with the default limits, {memory.stats()['lines']} lines; reader's peak memory "
        f"{peak_mb:.0f} MB"
    )
    figures = {
        "pages": args.pages,
        "PDF MB": path.stat().st_size / 1e6,
        "ingest s (default limits)": seconds,
        "lines stored": memory.stats()["lines"],
        "reader's peak memory MB": peak_mb,
    }
    record(
        __file__,
        split="none",
        tables=[measures_table("A long PDF's ingest", figures)],
        remarks=(
            "No baseline: it checks that ingest's default bounds pass a long PDF; another "
            "reader's time on the same file is not measured.",
        ),
    )


if __name__ == "__main__":
    main()
