"""What a line of plain text looks like to the layout: its words, whether it could be a
table cell or a heading, and whether it goes on in the line below."""

from __future__ import annotations

import re

from affidavit.ingest.table_rules import FUNCTION_WORDS
from affidavit.text import LETTER, LETTER_OR_DIGIT, ends_a_sentence_inside

BULLET = re.compile(r"^[-*+\u2022\u2023\u25aa\u25cf\u2013]\s")
_WORD = re.compile(rf"\S*{LETTER_OR_DIGIT}\S*")
_LETTER = re.compile(LETTER)
_DIGIT = re.compile(r"\d")
_CLOSERS = "\"'\u201d\u2019)]*_"
_QUOTES = "\"'\u201c\u2018"
# Ends that leave a sentence or clause open or closed, which a cell or a title does not.
_PROSE_ENDS = ".!?,;\u2014\u2013"

# A heading is a short standalone line: at most this many words and characters.
_HEADING_WORDS = 10
_HEADING_CHARS = 80
# A mixed-case line of more words than this reads as prose, not as a table cell.
_CELL_WORDS = 8
# An all-capitals line longer than this is a notice, not a cell.
_CELL_CHARS = 100


def words_of(line: str) -> list[str]:
    """The line's words: tokens holding a letter or digit (a dot leader's dots are none)."""
    return _WORD.findall(line)


def has_letter(line: str) -> bool:
    return _LETTER.search(line) is not None


def has_lower(line: str) -> bool:
    return line.upper() != line


def has_digit(line: str) -> bool:
    return _DIGIT.search(line) is not None


def is_numeric(line: str) -> bool:
    return has_digit(line) and not has_letter(line)


# How far back from a line's end its last word is looked for.
_LAST_WORD_REACH = 200


def ends_on_function_word(line: str) -> bool:
    # The last word only: its tail, so a cell grown by joined wraps is not read whole
    # again at each line (a million one-letter lines took minutes, read whole each time).
    words = words_of(line[-_LAST_WORD_REACH:])
    last = words[-1].strip(_CLOSERS + ".,;:") if words else ""
    # A capital "A" closing a line is as likely an initial ("ARMER, DEREK A") as an article.
    return last.lower() in FUNCTION_WORDS and (len(last) > 1 or last.islower())


def ends_open(line: str) -> bool:
    """The line stops mid-phrase (a comma or a function word), so the next line goes on."""
    return line.endswith(",") or ends_on_function_word(line)


def is_cell(line: str) -> bool:
    """Could this line be one table cell rather than a piece of running prose?

    Numbers, symbols and all-capitals labels are cells (an all-capitals line is prose only
    when it is a long sentence). A mixed-case line is a cell when it is short and shows none
    of prose's marks: a lowercase start, sentence or clause punctuation or a dash at its
    end, a sentence boundary inside, or a function word at its end.
    """
    if not has_letter(line):
        return True
    words = words_of(line)
    end = line.rstrip(_CLOSERS)[-1:]
    if not has_lower(line):
        return len(line) <= _CELL_CHARS and not (end in ".!?" and len(words) >= _CELL_WORDS)
    if len(words) > _CELL_WORDS or (line[0].islower() and len(words) >= 3):
        return False
    if len(words) >= 3 and end in _PROSE_ENDS:
        return False
    if len(words) >= 4 and ends_a_sentence_inside(line):
        return False
    return not (len(words) >= 2 and ends_on_function_word(line))


def is_heading(text: str) -> bool:
    """A short standalone line with no sentence end, set like a title.

    All-capitals ones may end in "." or ":" ("CHAPTER I.", "NOTES:"); a mixed-case one of
    more than five words must have at least half of them capitalised.
    """
    words = words_of(text)
    if not words or len(words) > _HEADING_WORDS or len(text) > _HEADING_CHARS:
        return False
    if not has_letter(text) or text[0].islower() or text[0] in _QUOTES or BULLET.match(text):
        return False
    end = text.rstrip(_CLOSERS)[-1:]
    if not has_lower(text):
        return end not in _PROSE_ENDS or end in ".:"
    if end in _PROSE_ENDS or end == ":":
        return False
    capitalised = sum(1 for word in words if not word[0].islower())
    return len(words) <= 5 or 2 * capitalised >= len(words)


def may_continue(line: str) -> bool:
    """May this line stand inside an index run (a wrapped entry's start, a letter heading)?"""
    end = line.rstrip(_CLOSERS)[-1:]
    return len(words_of(line)) <= _HEADING_WORDS and end not in ".!?"


def wraps_into(line: str, below: str) -> bool:
    """Does ``line`` go on in ``below`` (it stops mid-phrase, or ``below`` starts lowercase)?"""
    return ends_open(line) or below[:1].islower()
