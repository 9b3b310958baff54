"""Wrapped lines back into one text: one space between lines, none inside a split word or code.

A PDF breaks lines wherever its column ends, so a code printed ``2019–NM–035–AD`` can come
out as ``2019–`` on one line and ``NM–035–AD`` on the next. Joined with a space it could
never be quoted whole; joined here it is stored as printed, dash kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["continues_across_break", "join_lines"]

# Dashes that sit inside a word or a code: hyphen-minus, hyphen, non-breaking hyphen,
# figure dash, en dash ("2019–NM–035–AD").
# NOTE: the em dash is left out: it is punctuation between words, so an em dash ending a
# line is a real break. In the shared PDF dumps (i1040nr) 198 em dashes are spaced
# ("Line 11 — Taxable refunds") and 3 closed, all three inside headings
# ("Worksheet—Line 41"); the one line ending in a word and an em dash, "Your tax is—",
# heads a column of numbers.
_JOINING_DASHES = "-\u2010\u2011\u2012\u2013"
# Openers that may stand before a word or code ("(self-", "“2019–").
_OPENERS = "([{\"'\u201c\u2018"
# A numbered or lettered list item ("2. You were ...", "b) ...") opens a new thought.
_LIST_ITEM = re.compile(r"^(?:\d{1,3}|[A-Za-z])[.)]\s")


def continues_across_break(line: str, below: str) -> bool:
    """Does ``line`` end inside a word or code that ``below`` goes on with?

    True when ``line`` ends in a dash set right after a letter or digit, its last word does
    not open with a dash (a page marker "-2-", a zero written "–0–"), and ``below`` starts
    with a letter or digit and is not a list item. A dash after a space ("Tax Table -"), a
    line that is only a dash, and a bullet below ("– item") all stay breaks.
    """
    if len(line) < 2 or line[-1] not in _JOINING_DASHES or not line[-2].isalnum():
        return False
    last_word = line.rsplit(None, 1)[-1].lstrip(_OPENERS)
    if not last_word[:1].isalnum():
        return False
    return below[:1].isalnum() and _LIST_ITEM.match(below) is None


def join_lines(lines: Iterable[str]) -> str:
    """Lines of one wrapped paragraph, entry or cell as one text.

    Lines are joined by one space, except that a line ending inside a word or code
    (``continues_across_break``) runs on into the next with no space and its dash kept:
    "self-" + "employed" is "self-employed", "2019–" + "NM–035–AD" is "2019–NM–035–AD".
    """
    # NOTE: the dash is never dropped. pdfminer prints a syllable-break hyphen as the same
    # "-" as a compound's (in i1040nr's insert "instruc-" / "tions" and "write-in" share
    # the glyph and width), and no U+00AD soft hyphen occurs in the dumps, so telling a
    # break hyphen from a real one would take a dictionary; "instruc-tions" is kept.
    pieces: list[str] = []
    for line in lines:
        if pieces and continues_across_break(pieces[-1], line):
            pieces[-1] += line
        else:
            pieces.append(line)
    return " ".join(pieces)
