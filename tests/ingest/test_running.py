"""Running headers and footers of a real PDF (corpora/pdf_text_dumps/i1040nr.pdf, the IRS
instructions for Form 1040NR): the page headers, the print stamp and the page markers
that stand at an edge of most pages are left out of the store and reported in the
ingest's warnings; text that stands once, or in the middle of a page, stays."""

from __future__ import annotations

import pytest
from conftest import PDF_DIR

from affidavit import Memory
from affidavit.ingest.formats.running import left_out_running

I1040NR = PDF_DIR / "i1040nr.pdf"


@pytest.fixture(scope="module")
def irs() -> tuple[Memory, list[str]]:
    memory = Memory(dense=False)
    report = memory.ingest(I1040NR)
    return memory, report.warnings


def test_the_running_lines_of_a_real_pdf_are_left_out_and_reported(irs) -> None:
    memory, warnings = irs
    said = [w for w in warnings if "running header and footer lines left out" in w]
    assert len(said) == 1 and "Instructions for Form 1040NR" in said[0]
    for header in ("Page 2 of 48 Instructions for Form 1040NR", "7:48 -  6-DEC-2007"):
        assert all(hit.text != header for hit in memory.search(header, k=50))
    assert not any(
        hit.text.startswith("The type and rule above prints")
        for hit in (memory.search("type and rule above prints on all proofs", k=20))
    )


def test_what_the_pages_say_stays(irs) -> None:
    memory, _ = irs
    # the contact lines, in the middle of their pages, are still there to read
    hits = memory.search("What is the IRS's TTY/TDD number?", k=5)
    assert any("TTY/TDD" in hit.text and "1-800-829-4059" in hit.text for hit in hits)
    assert memory.search("Your tax is", k=5)


def test_a_short_or_varied_text_loses_nothing() -> None:
    two_pages = "Title\nBody one.\fTitle\nBody two."
    assert left_out_running(two_pages) == (two_pages, None)
    varied = "\f".join(f"Heading {chr(65 + i)}\nLine {i}.\nEnd {chr(70 + i)}" for i in range(6))
    assert left_out_running(varied) == (varied, None)


def test_a_page_number_footer_is_one_kind_whatever_its_figures() -> None:
    pages = [f"Report\nFinding {i} holds.\nPage {i} of 5" for i in range(1, 6)]
    kept, running = left_out_running("\f".join(pages))
    assert running is not None and running.removed == 10 and running.pages == 5
    assert kept.split("\f")[2] == "Finding 3 holds."
