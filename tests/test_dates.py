"""A date becomes a value only when its line writes day, month and year."""

from __future__ import annotations

import pytest

from affidavit.engine.dates import iso_date


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("October 16, 1973", "en", "1973-10-16"),
        ("05/03/2019", "en", "2019-05-03"),  # U.S. order: month first
        ("05/03/2019", "es", "2019-03-05"),  # Spanish order: day first
        ("5 de mayo de 1700", "es", "1700-05-05"),
        ("3 Ekim 1923", "tr", "1923-10-03"),
    ],
)
def test_a_fully_written_date_becomes_iso(text: str, language: str, expected: str) -> None:
    assert iso_date(text, language) == expected


@pytest.mark.parametrize("text", ["1066", "March 1974", "the 10th and 11th centuries", "May"])
def test_a_date_missing_a_part_stays_text(text: str) -> None:
    assert iso_date(text, "en") is None
