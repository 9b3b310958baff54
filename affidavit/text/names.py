"""Names as text writes them: segments cut at punctuation (a title's or an initial's full
stop does not cut), words with their apostrophes, and a word's possessive, contraction or
Turkish case ending taken off ("Lydgate’s" is Lydgate, "ABD'de" is ABD)."""

from __future__ import annotations

import re

from affidavit.text.tokens import LETTER, LETTER_OR_DIGIT, fold

# A word as names are read: letters and digits, with apostrophes inside ("O'Brien").
_NAME_WORD = re.compile(rf"{LETTER_OR_DIGIT}+(?:['’]{LETTER_OR_DIGIT}+)*", re.UNICODE)
# "Lydgate’s" is Lydgate, "I’m" is I: a possessive or a contraction is not part of a name.
_SUFFIX = re.compile(r"['’](?:s|m|ve|ll|re|d|t)$", re.IGNORECASE)
# Turkish writes a proper noun's case ending after an apostrophe: "ABD'de" is ABD.
_TURKISH_SUFFIX = re.compile(rf"['’]{LETTER}+$")


def bare(word: str, language: str) -> str:
    """A word without its possessive, contraction or (Turkish) case ending."""
    return (_TURKISH_SUFFIX if language == "tr" else _SUFFIX).sub("", word)


# Punctuation that ends a segment; a full stop after a short capitalised word (a title:
# "Mr.", "Mrs.", "St.") does not.
_BREAK = re.compile(r"[,;:!?()\[\]{}\"“”«»—–]|\.")
# A full stop after a title or an initial ("Mr. Brooke", "St. Peter", "J. Smith") is not
# the end of a segment; after any other word ("met Tom. Rollo came") it is.
_TITLES = frozenset(
    "mr mrs ms dr st sr jr mt rev col gen capt sgt lt prof sra sr dña dn av".split()
)
_LONGEST_TITLE = max(map(len, _TITLES))


def pieces(text: str) -> list[str]:
    """``text`` cut into segments at punctuation, keeping titles' and initials' stops."""
    if "." not in text:
        return _BREAK.split(text)
    found: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        if match.group(0) == "." and _after_title(text, start, match.start()):
            continue
        found.append(text[start : match.start()])
        start = match.end()
    found.append(text[start:])
    return found


def _after_title(text: str, start: int, stop: int) -> bool:
    """Whether the last word of ``text[start:stop]`` (its letters, then spaces) is a
    title or an initial. Read backwards from the stop, no further than a title is long:
    a longer word is neither (NOTE: a regular expression anchored at the stop tried
    every place of the segment, most of cutting a line's text at 100 MB)."""
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    begin = stop
    while begin > start and stop - begin <= _LONGEST_TITLE and _letter(text[begin - 1]):
        begin -= 1
    word = text[begin:stop]
    if len(word) > _LONGEST_TITLE:
        return False
    return fold(word) in _TITLES or (len(word) == 1 and word.isupper())


def _letter(char: str) -> bool:
    """A word character that is not a digit nor an underscore (a letter, "²" or "½")."""
    return char.isalnum() and not char.isdecimal()


def name_words(text: str) -> list[str]:
    """The words of ``text`` as names are read, as written."""
    return _NAME_WORD.findall(text)


def capitalised_names(text: str, language: str = "en") -> frozenset[str]:
    """The words ``text`` writes with a capital where a sentence does not begin, folded:
    the names it writes ("Longs Drugs", "Hawaii")."""
    found = set()
    opens = True
    for match in _NAME_WORD.finditer(text):
        word = match.group(0)
        if not opens and word[:1].isupper():
            found.add(fold(bare(word, language), language))
        before = text[match.end() : match.end() + 2]
        opens = bool(before) and before[0] in ".?!"
    return frozenset(found)


def segments(text: str, language: str = "en") -> str:
    """``text`` as the matcher reads it: folded words, one space apart, segments by " | "."""
    parts = []
    for piece in pieces(text):
        if "'" in piece or "’" in piece:  # endings to cut word by word
            folded = [
                fold(bare(m.group(0), language), language) for m in _NAME_WORD.finditer(piece)
            ]
        else:  # the common case, folded at once: the partition path reads every question
            folded = name_words(fold(piece, language))
        if folded:
            parts.append(" " + " ".join(folded) + " ")
    return "|".join(parts)
