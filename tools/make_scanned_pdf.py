"""Make corpora/scanned/: a real PDF page as a scanner would hand it over, an image with no
text layer, so OCR is tested on real print (the U.S. Senate expenditure page of
corpora/pdf_text_dumps, public domain); and a two-page PDF whose first page is that page as
printed (its text layer) and whose second is the scan, as a reviewer's packet often is.

The page is rendered by pypdfium2 at 150 dpi in grey, saved as a JPEG inside a one-page
PDF by Pillow, with fixed dates, so the scan is the same bytes on every run of the same
library versions (the two-page file differs between runs in its PDF identifier alone).
Both libraries come with the `ocr` extra.

    .venv/bin/python tools/make_scanned_pdf.py
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pypdfium2
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "corpora" / "pdf_text_dumps" / "senate-expenditures.pdf"
OUT = ROOT / "corpora" / "scanned" / "senate-expenditures-scanned.pdf"
MIXED = ROOT / "corpora" / "scanned" / "senate-printed-and-scanned.pdf"
DPI = 150


def main() -> None:
    document = pypdfium2.PdfDocument(SOURCE)
    page = document[0]
    image = page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    jpeg = io.BytesIO()
    image.save(jpeg, format="JPEG", quality=70, optimize=True)
    scanned = Image.open(io.BytesIO(jpeg.getvalue()))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fixed = time.gmtime(1_561_939_200)  # 2019-07-01, the report's quarter: a rebuild matches
    scanned.save(OUT, format="PDF", resolution=DPI, creationDate=fixed, modDate=fixed)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size:,} bytes, {image.size[0]}x{image.size[1]}")
    mixed = pypdfium2.PdfDocument.new()
    mixed.import_pages(pypdfium2.PdfDocument(SOURCE), [0])
    mixed.import_pages(pypdfium2.PdfDocument(OUT), [0])
    mixed.save(MIXED)
    print(f"{MIXED.relative_to(ROOT)}: {MIXED.stat().st_size:,} bytes, 2 pages")


if __name__ == "__main__":
    main()
