"""A written date as a value: "May 3, 2019" -> "2019-05-03", only when the text says all of it.

dateparser reads the forms of English, Spanish and Turkish; a span missing its day, month
or year stays text (a value must not claim more precision than its line). The day/month
order is explicit per language, because "03/04/2024" means March in the U.S. and April in
Spain and Turkey.
"""

from __future__ import annotations

from functools import lru_cache

_DATE_ORDER = {"en": "MDY", "es": "DMY", "tr": "DMY"}


@lru_cache(maxsize=2048)
def iso_date(text: str, language: str = "en") -> str | None:
    """The ISO date ``text`` names in full, or None."""
    if not any(c.isdigit() for c in text):
        return None
    import dateparser  # imported on first use: most questions never need it

    settings = {
        "DATE_ORDER": _DATE_ORDER.get(language, "MDY"),
        "REQUIRE_PARTS": ["day", "month", "year"],
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        parsed = dateparser.parse(text, languages=[language], settings=settings)
    except (ValueError, OverflowError):
        return None
    return parsed.date().isoformat() if parsed is not None else None
