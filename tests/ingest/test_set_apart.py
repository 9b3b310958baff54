"""A box of text set line by line (a safety data sheet's fields, a form's "Label: value"
lines) keeps each line that does not go on from the one above; wrapped prose is joined
as it always was."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


@pytest.fixture(scope="module")
def sheet() -> list[str]:
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "forms" / "nist-srm3133-sds.txt")
    return [line.text for line in memory.search("Telephone FAX Website SRM Number", k=30)]


@pytest.mark.parametrize(
    "field", ["Telephone: 301-975-2200", "FAX: 301-948-3730", "SRM Number: 3133"]
)
def test_each_field_of_a_data_sheet_is_a_line_of_its_own(sheet: list[str], field: str) -> None:
    assert field in sheet


def test_wrapped_prose_is_still_one_paragraph() -> None:
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "licences" / "cc0-1.0.txt")
    (line,) = memory.search("Affirmer hereby overtly fully permanently irrevocably", k=1)
    # The sentence runs over five lines of the file; it is one stored line.
    assert "fully, permanently, irrevocably and unconditionally waives" in line.text


def test_a_field_after_a_wrapped_field_is_a_line_of_its_own() -> None:
    # The Debian mailing lists page (corpora/compliance_set): a list's "Description :"
    # wraps onto a second line, and "Moderated   : yes" and "Subscription: open" below it
    # are fields of their own, not the description's tail or one another's value.
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "compliance_set" / "debian-mailing-lists.txt")
    moderated = {line.text for line in memory.search("Moderated yes", k=5)}
    subscription = {line.text for line in memory.search("Subscription open", k=5)}
    assert "Moderated   : yes" in moderated
    assert "Subscription: open" in subscription
    assert not any("Moderated" in text and "Subscription" in text for text in moderated)
