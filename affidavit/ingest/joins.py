"""Wrapped lines back into one text: one space between lines, none inside a split word or
code, and no hyphen that only broke a word at a syllable."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from affidavit.text import LETTER, WORD_CHARACTER, fold

__all__ = ["DocumentWords", "continues_across_break", "join_lines"]

# Dashes that sit inside a word or a code: hyphen-minus, hyphen, non-breaking hyphen,
# figure dash, en dash ("2019–NM–035–AD").
# NOTE: the em dash is left out: it is punctuation between words, so an em dash ending a
# line is a real break. In the shared PDF dumps (i1040nr) 198 em dashes are spaced
# ("Line 11 — Taxable refunds") and 3 closed, all three inside headings
# ("Worksheet—Line 41"); the one line ending in a word and an em dash, "Your tax is—",
# heads a column of numbers.
_JOINING_DASHES = "-\u2010\u2011\u2012\u2013"
# The hyphens a typesetter breaks a word with; a figure or en dash joins codes and ranges.
_HYPHENS = "-\u2010\u2011"
_HYPHEN = re.compile(f"[{_HYPHENS}]")
# A word, or words joined by hyphens, bounded by what is not a word character ("self-employed",
# "1040NR", "2555-EZ"); a hyphen ending a line is outside it, so a break is never read as one.
_TOKEN = re.compile(rf"{WORD_CHARACTER}+(?:[{_HYPHENS}]{WORD_CHARACTER}+)*")
# The start of the line below a break: its letters, and whatever follows them.
_LEADING_LETTERS = re.compile(rf"({LETTER}+)({WORD_CHARACTER}?)")
# Openers that may stand before a word or code ("(self-", "“2019–").
_OPENERS = "([{\"'\u201c\u2018"
# A numbered or lettered list item ("2. You were ...", "b) ...") opens a new thought.
_LIST_ITEM = re.compile(r"^(?:\d{1,3}|[A-Za-z])[.)]\s")


class DocumentWords:
    """The words one document writes within its lines, to judge its line-break hyphens.

    Holds the case-folded whole words (letters only, bounded by non-word characters; the
    parts of "self-employed" count) and the hyphenated pairs ("self-employed") written
    inside a line. A word broken across lines is in neither, so what is found was written
    elsewhere. The text is read once, on the first question: a document with no word broken
    at a hyphen (a novel) never pays for it.
    """

    # NOTE: sets, not a Counter: whether a form occurs elsewhere is all the rule asks, and
    # the break's own pieces never form the word, so a count of one already means elsewhere.
    # Memory is the document's distinct tokens (17,544 for Middlemarch's 1.8 MB; building
    # them takes ~0.1 s there, next to ~0.1 s for its whole layout).

    def __init__(self, text: str) -> None:
        self._text: str | None = text
        self._words: set[str] = set()
        self._pairs: set[str] = set()

    def _read(self) -> None:
        if self._text is None:
            return
        for token in {match.group() for match in _TOKEN.finditer(self._text)}:
            parts = _HYPHEN.split(fold(token))
            self._words.update(part for part in parts if part.isalpha())
            self._pairs.update(
                f"{left}-{right}"
                for left, right in pairwise(parts)
                if left.isalpha() and right.isalpha()
            )
        self._text = None

    def writes_whole(self, head: str, tail: str) -> bool:
        """Does the document write ``head + tail`` as one word and never ``head-tail``?"""
        self._read()
        head, tail = fold(head), fold(tail)
        return head + tail in self._words and f"{head}-{tail}" not in self._pairs


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


def _breaks_a_word(line: str, below: str, words: DocumentWords) -> bool:
    """Is the hyphen ending ``line`` only a syllable break of a word ``below`` finishes?

    Only a hyphen between letters is asked about: the piece before it (after any earlier
    hyphen, so "non-resi-" offers "resi") is letters with at most a capital first, and the
    piece below is lowercase letters standing as a whole word ("tions," not "NM–035" or
    "EZ"). Then the document decides (``DocumentWords.writes_whole``).
    """
    if line[-1] not in _HYPHENS:
        return False
    head = _HYPHEN.split(line[:-1].rsplit(None, 1)[-1].lstrip(_OPENERS))[-1]
    start = _LEADING_LETTERS.match(below)
    if not head.isalpha() or head[1:] != head[1:].lower():
        return False
    if start is None or start.group(2) or not start.group(1).islower():
        return False
    return words.writes_whole(head, start.group(1))


def join_lines(lines: Iterable[str], *, words: DocumentWords | None = None) -> str:
    """Lines of one wrapped paragraph, entry or cell as one text.

    A PDF breaks lines wherever its column ends, and a code joined back with a space could
    never be quoted whole. Lines are joined by one space, except that a line ending inside a
    word or code (``continues_across_break``) runs on into the next with no space and its
    dash kept: "self-" + "employed" is "self-employed", "2019–" + "NM–035–AD" is
    "2019–NM–035–AD".
    Given the document's ``words``, a hyphen that only breaks a word at a syllable is
    dropped, so "instruc-" + "tions" is stored "instructions" where the document writes
    "instructions" and never "instruc-tions"; this is the one place a stored word differs
    from the printed characters. Without ``words`` every dash is kept.
    """
    # NOTE: the document decides, not a dictionary: pdfminer prints a syllable-break hyphen
    # as the same "-" as a compound's (in i1040nr's insert "instruc-" / "tions" and
    # "write-in" share the glyph and width), and no U+00AD soft hyphen occurs in the dumps.
    pieces: list[str] = []
    for line in lines:
        if pieces and continues_across_break(pieces[-1], line):
            if words is not None and _breaks_a_word(pieces[-1], line, words):
                pieces[-1] = pieces[-1][:-1] + line
            else:
                pieces[-1] += line
        else:
            pieces.append(line)
    return " ".join(pieces)
