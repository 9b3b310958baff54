"""The kind judge: an answer is something the question asks for, never the form's own
furniture. A field's label ("g) Flash point" asked "What is the flash point?"), a heading
or section title ("1.3 Details"), a list marker, or the question's own words said back
are what a line is laid out with, not what it says; a piece cut from what the line names
("No-Ack" of "X-Debbugs-No-Ack") or stopping before the name it introduces ("the file"
before its path) says less than it. A typed question is answered by its kind as the
language layer's patterns read it, not as a model guessed: an address by an address, a date
or a year by one, a version by a figure, a count by a number and what it counts, how long
by a figure or a length of time ("seven days", "until the package is removed"; not "Log
files and directories", a section's title), how often by a frequency ("monthly", "every 12
months"; not "48 hours", what a repair is due within). Each is refused so the next
candidate may answer, and the audit names which it was."""

from __future__ import annotations

import re
from collections.abc import Callable

from affidavit.frames import comparison_of
from affidavit.gates.case import Case, Judgement
from affidavit.gates.decision import Gate, GateDecision
from affidavit.question import AnswerType, Shape, asks_how_often
from affidavit.reasons import Reason
from affidavit.results import LineKind
from affidavit.text import (
    LANGUAGE_NUMBER_WORDS,
    fold,
    is_abbreviation,
    letters_asked,
    opens_on_an_auxiliary,
    pattern_spans,
    says_how_often,
    spells,
    statement_asked,
    words,
)

# A list or section marker opening the answer: "g)", "(iv)", "1.3 Details", "5.1.1.2", "2.",
# "•". A number that is a value is not one: "3.5 million" (one dot, then a word in lower
# case), "2016 Annual Report" (no dot or bracket); nor is an initial ("J. Smith").
_MARKER = re.compile(
    r"^\s*(?:\(?[a-z]\)|\([ivxlc]+\)|[ivxlc]+\)|[A-Z]\)|\d+(?:\.\d+){2,}\.?|"
    r"\d+\.\d+(?=\s+[A-Z])|\d+[.)]|[•▪◦·*-])(?=\s|$)"
)
# A part's title is at most this many words; an item's sentence is longer.
_TITLE_WORDS = 6
# Kinds whose answer may be the title of something: a heading's words are what they ask.
_TITLE_KINDS = frozenset({AnswerType.TITLE, AnswerType.DESCRIPTION})
# A question that offers its own alternatives ("A or B?") is answered in its own words.
_ALTERNATIVES = re.compile(r"\bor\b|\bo\b|\bya da\b|\bveya\b", re.IGNORECASE)


def of_the_kind_asked(case: Case, found: Judgement) -> GateDecision | None:
    """An ``ask`` candidate is not a label, a heading or the question said back. None
    for a sentence given to verify or a quoted line (a quote is the line itself)."""
    asked = case.question
    if asked is None or case.cites is None or case.alone:
        return None
    answer = case.text.strip()
    why = _not_an_answer(answer, case, asked.text, asked.shape)
    if why is None:
        return None
    return GateDecision(gate=Gate.KIND, passed=False, reason=Reason.NOT_AN_ANSWER.value, detail=why)


def unspelled(answer: str, question: str) -> GateDecision | None:
    """The kind judge's refusal of an answer to a question asking what letters stand for
    ("What does DFSG stand for?") whose words' initials are not those letters; None when
    the question asks no such thing or the answer spells them. ``verify(answer,
    question=...)`` asks it of a bare answer, as ``ask`` does of its candidates."""
    letters = letters_asked(question)
    if letters is None or spells(answer, letters):
        return None
    return GateDecision(
        gate=Gate.KIND,
        passed=False,
        reason=Reason.NOT_AN_ANSWER.value,
        detail=f"{answer!r} does not spell out {letters!r}: its words' initials differ",
    )


def _not_an_answer(answer: str, case: Case, question: str, shape: Shape) -> str | None:
    """What the answer is instead of an answer, or None when it may be one."""
    kind = shape.answer_type
    if _asks_yes_or_no(question, case):
        return f"{answer!r} is no yes or no, which the question asks (its lines do not settle it)"
    if answer.endswith(":"):
        return f"{answer!r} is a field's label: its value is what is asked"
    if kind not in _TITLE_KINDS and _is_a_heading(answer, case):
        return f"{answer!r} is a heading of the document, not a value of the kind asked"
    marker = _MARKER.match(answer)
    rest = answer[marker.end() :].strip() if marker else answer
    if _says_back(rest, question, case):
        return f"{answer!r} says back the question's own words"
    unspelt = unspelled(answer, question)
    if unspelt is not None:
        return unspelt.detail
    if marker is not None and _a_title(rest):
        return f"{answer!r} opens with a list or section marker: it names a part, not a value"
    if _numbers_a_part(answer, case) and not _ASKS_A_PART.search(question):
        return f"{answer!r} numbers a part of the document, not a value the question asks for"
    if _ASKS_WHICH_PART.search(question) and _a_sentence(answer):
        return f"{answer!r} is a sentence: the question asks which part of the document"
    if any(_PAGE_MARK.fullmatch(case.lines[i].text.strip()) for i in case.cites or ()):
        return f"{answer!r} numbers the page its line marks, not a value the question asks for"
    cut = _cut_reference(answer, case)
    if cut is not None:
        return f"{answer!r} ends inside the reference {cut!r}: it stops short of what it names"
    for opening, closing in ("()", "[]"):
        if answer.count(opening) > answer.count(closing):
            return f"{answer!r} opens {opening!r} and stops before its {closing!r}: it is cut"
    whole = _cut_name(answer, case)
    if whole is not None:
        return f"{answer!r} is cut from {whole!r}: it stops short of what the line names"
    named = _name_after(answer, case)
    if named is not None:
        return f"{answer!r} stops before the name its line gives it, {named!r}"
    bounded = _bound_before(answer, question, case)
    if bounded is not None:
        return f"{answer!r} drops the bound its line sets on it, {bounded!r}"
    asks_a_date = kind is AnswerType.TIME and _CALENDAR_ASKED.search(shape.cue)
    if asks_a_date and not _writes_a_date(answer, case):
        return f"{answer!r} writes no date or year: the question asks for one"
    if kind is AnswerType.DURATION and not _says_how_long(answer, case):
        return f"{answer!r} says no length of time: the question asks how long"
    if asks_how_often(question) and not says_how_often(answer):
        return f"{answer!r} says no frequency: the question asks how often"
    if _ASKS_WHICH_NUMBER.search(question) and not _writes_a_figure(answer, case):
        return f"{answer!r} writes no figure: the question asks which version or number"
    if _COUNT_ASKED.fullmatch(shape.cue.strip()):
        if _count_stands_apart(answer, case):
            return (
                f"{answer!r} is not a count: its number stands apart from words that name a thing"
            )
        if not _writes_a_figure(answer, case) and _HOW_MANY_WORDS.search(answer) is None:
            return f"{answer!r} writes no number: the question asks how many"
    if _asks_an_address(shape) and not _writes_an_address(answer, case):
        return f"{answer!r} writes no address: the question asks for one (postal, e-mail or web)"
    return None


# A page's own marker ("Page 1 of 205", "- 3 -", "p. 12"): the document's furniture.
_PAGE_MARK = re.compile(
    r"(?:page|p\.|pg\.?|página|sayfa)\s*\d+(?:\s*(?:of|/|de)\s*\d+)?|[-–—]\s*\d+\s*[-–—]",
    re.IGNORECASE,
)
# A question asking which part says something ("Which section ...", "What guideline
# number ...") is answered by the part's number.
_ASKS_A_PART = re.compile(
    r"\b(?:section|clause|article|paragraph|part|chapter|guideline|item|rule|point|step|"
    r"schedule|annex|appendix|exhibit|line|number|sección|cláusula|artículo|madde|bölüm)s?\b",
    re.IGNORECASE,
)
# A part's number, as a line opens with it: "3.", "10.8", "4.2)", "7 " before a title.
_PART_NUMBER = re.compile(r"\d+(?:\.\d+)*")


# A question asking which part of a document says something is answered by the part's
# number or title, not by a sentence that speaks of it ("Which section ... specifies the
# syntax?" is not "The syntax ... is as specified in the Debian Policy Manual.").
_ASKS_WHICH_PART = re.compile(
    r"\b(?:which|what)\s+(?:section|chapter|article|part|paragraph|appendix|annex|schedule|"
    r"subsection)s?\b",
    re.IGNORECASE,
)
# A sentence: this many words or more, ended by a full stop.
_SENTENCE_WORDS = 8


def _asks_yes_or_no(question: str, case: Case) -> bool:
    """Does the question ask yes or no, as ask reads one (answer/polar.py: the statement it
    asks about), rather than offer its own alternatives ("Is the fee $5 or $10?")?"""
    language = case.analyzer.language
    if _ALTERNATIVES.search(question):
        return False
    # Opening on an auxiliary asks yes or no though the parse shows no subject to read the
    # statement from ("Is the debian-announce list moderated?").
    return statement_asked(question, language) is not None or (
        language == "en" and opens_on_an_auxiliary(question)
    )


def _a_sentence(answer: str) -> bool:
    return answer.endswith(".") and len(answer.split()) >= _SENTENCE_WORDS


# What an address is written as (text/spans.py's labels): a street or box with its town,
# an e-mail address, a web address.
_ADDRESSES = frozenset({"ADDRESS", "EMAIL", "URL"})


def _asks_an_address(shape: Shape) -> bool:
    """Does the question ask for an address ("To what address should reports be sent?")?
    An e-mail's or a web address's own kind is bound by its pattern already."""
    return shape.answer_type is AnswerType.PLACE and "address" in shape.cue.lower()


def _writes_an_address(answer: str, case: Case) -> bool:
    return any(label in _ADDRESSES for *_, label in pattern_spans(answer, case.analyzer.language))


def _numbers_a_part(answer: str, case: Case) -> bool:
    """Is the answer only the number a cited line opens with, where the line numbers a
    part of the document ("3.Communication of the Source Code", "4.2 Quorum")? A value
    written first ("40 people work in Leeds") is no part's number: a full stop, a bracket
    or a capital-led title follows a part's."""
    if not _PART_NUMBER.fullmatch(answer):
        return False
    for line in case.anchor:
        text = line.text.lstrip()
        if not text.startswith(answer):
            continue
        after = text[len(answer) :]
        if after[:1] in (".", ")") or (after[:1] == " " and after[1:2].isupper()):
            return True
        # A heading's opening number numbers its part whatever follows it ("9.8.3
        # developers-reference", a package named in lower case).
        if line.kind == LineKind.HEADING and after[:1].isspace():
            return True
    return False


def _cut_reference(answer: str, case: Case) -> str | None:
    """The reference ("Pub. 519", "No. 5") a cited line writes that the answer stops inside:
    the answer ends on a written abbreviation whose number the line writes after its full
    stop. A reader's span cut at the abbreviation's full stop names half a publication."""
    pieces = answer.split()
    last = pieces[-1] if pieces else ""  # as written: an abbreviation is read capitalised
    if not last.isalpha() or not is_abbreviation(last, case.analyzer.language):
        return None
    for line in case.anchor:
        at = line.text.find(answer)
        after = line.text[at + len(answer) :] if at >= 0 else ""
        following = after[1:].split() if after.startswith(".") else []
        number = following[0] if following else ""
        if number[:1].isdigit():
            return f"{last}. {number.rstrip('.,;')}"
    return None


# Quotation marks around a name the line gives ("Software in the Public Interest").
_QUOTES = {'"': '"', "“": "”", "«": "»"}
# A quoted stretch longer than this is a saying, not a name: its opening words may answer.
_NAME_WORDS = 8


def _cut_name(answer: str, case: Case) -> str | None:
    """The word or the quoted name a cited line writes that the answer is cut from, where
    every place the line writes the answer is such a cut: a piece of a hyphened word
    ("No-Ack" of "X-Debbugs-No-Ack"), or the opening words of a name in quotation marks
    ("Software" of "Software in the Public Interest"). A span ending there says less than
    the line names."""
    if not answer:
        return None
    return _at_every_place(answer, case, _cut_at)


def _at_every_place(
    answer: str, case: Case, found_at: Callable[[str, int, int], str | None]
) -> str | None:
    """What ``found_at(line, start, end)`` finds at every place a cited line writes the
    answer, the first place's; None when one place finds nothing (written whole there,
    the answer may stand) or no line writes it."""
    found = None
    for line in case.anchor:
        text = line.text
        at = text.find(answer)
        while at >= 0:
            here = found_at(text, at, at + len(answer))
            if here is None:
                return None
            found = found or here
            at = text.find(answer, at + 1)
    return found


# The small words a capitalised name goes on over ("the Court of Justice", "the United
# Nations Convention on Contracts for the International Sale of Goods").
_NAME_GOES_ON = re.compile(r"\s+(?:of|on|for)(?:\s+the)?\s+[A-Z][a-z]")
# The rest of such a name: its small words and capitalised words, as far as they run.
_NAME_RUN = re.compile(r"(?:\s+(?:of|on|for|the|and)|\s+[A-Z][\w.'’-]*)+")


def _cut_at(text: str, start: int, end: int) -> str | None:
    """The hyphened word, quoted name, or capitalised name that ``text[start:end]`` is a
    piece of, or None."""
    before, after = text[:start], text[end:]
    last = text[start:end].split()[-1:] or [""]
    if last[0][:1].isupper() and _NAME_GOES_ON.match(after):
        # The name goes on: its capitalised words run on over "of", "on", "for" (where
        # _NAME_GOES_ON matched, so does the run).
        run = _NAME_RUN.match(after)
        assert run is not None
        return (text[start:end] + run.group(0)).strip()
    inside_before = before[-1:].isalnum() and text[start].isalnum()
    inside_after = after[:1].isalnum() and text[end - 1].isalnum()
    # Letters joined by a hyphen make one word; a year or a figure beside one is a range.
    joined_before = before[-1:] == "-" and before[-2:-1].isalpha() and text[start].isalpha()
    joined_after = after[:1] == "-" and after[1:2].isalpha() and text[end - 1].isalpha()
    if inside_before or inside_after or joined_before or joined_after:
        word = before.split()[-1] if before and not before[-1].isspace() else ""
        tail = after.split()[0] if after and not after[0].isspace() else ""
        return (word + text[start:end] + tail).strip(".,;:()\"'")
    close = _QUOTES.get(before[-1:])
    if close is None or after[:1] == close:
        return None
    shut = text.find(close, end)
    if shut < 0 or len(text[start:shut].split()) > _NAME_WORDS:
        return None
    # Only a mark before the closing quotation mark (“LWAY.”) leaves the name whole.
    return text[start:shut] if any(c.isalnum() for c in text[end:shut]) else None


# A name written right after a common noun that introduces it ("the file /usr/share/doc",
# "the list debian-mentors@lists.debian.org", "the section 3.2"): its look tells it, or the
# language layer reads it as an address or a code.
_NAME_MARKS = frozenset("/@_$")
_NAMES = frozenset({"EMAIL", "URL", "CODE"})


def _name_after(answer: str, case: Case) -> str | None:
    """The name a cited line writes right after the answer, where the answer ends on a
    word in lower case that introduces it: "the file" stops before the path it is. None
    when any place the line writes the answer is not so followed."""
    said = answer.split()
    last = said[-1] if said else ""
    if not (last.isalpha() and last.islower()):
        return None

    def name_at(text: str, _start: int, end: int) -> str | None:
        after = text[end:]
        following = after[1:].split()[:1] if after[:1] == " " else []
        word = following[0].rstrip(".,;:)") if following else ""
        return word if _a_name(word, case) else None

    return _at_every_place(answer, case, name_at)


# The words a bound on a number takes before it at most ("no more than", "at least").
_BOUND_WORDS = 3
# What answers how many without a figure: a word for an amount ("several", "dozens",
# "none", "both", "a handful").
_HOW_MANY_WORDS = re.compile(
    r"\b(?:several|many|few|fewer|more|most|some|all|none|no|both|each|every|numerous|"
    r"dozens?|scores|hundreds|thousands|millions|billions|handful|twice|once|half|"
    r"varios|muchos|pocos|ninguno|ambos|birkaç|çok|az|hiç)\b",
    re.IGNORECASE,
)


def _bound_before(answer: str, question: str, case: Case) -> str | None:
    """The bounded figure a cited line writes where the answer is the figure alone: "2
    metres" of "more than 2 metres" says another thing. None when the answer bounds its
    own figure, writes none, the question writes the bound, or any place the line writes
    it is not so bounded."""
    if not any(c.isdigit() for c in answer) or comparison_of(answer):
        return None
    language = case.analyzer.language

    def folded(text: str) -> set[str]:
        return {fold(w) for w in words(text, language)}

    asked = folded(question)

    def bound_at(text: str, start: int, end: int) -> str | None:
        before = text[:start].split()[-_BOUND_WORDS:] if text[start - 1 : start] == " " else []
        for taken in range(1, len(before) + 1):
            bound = before[-taken:]
            phrase = " ".join([*bound, text[start:end]])
            if comparison_of(phrase):
                # "How long must secrets be at least?" sets the bound itself.
                return None if folded(" ".join(bound)) <= asked else phrase
        return None

    return _at_every_place(answer, case, bound_at)


def _a_name(word: str, case: Case) -> bool:
    if not word or not any(c.isalnum() for c in word):
        return False
    if any(mark in word[1:] or word[:1] == "/" for mark in _NAME_MARKS):
        return True
    spans = pattern_spans(word, case.analyzer.language)
    return any(start == 0 and label in _NAMES for _, start, _end, label in spans)


# A question asking for a date, a year or a decade ("By what date ...", "In what year
# ...", not "how many years") is answered by one, as the language layer's patterns read
# dates: not by a span a model took for a date ("11327A Form 1040A", a catalogue number
# beside a form's name).
_CALENDAR_ASKED = re.compile(r"\b(?:date|year|decade|fecha|año|tarih|yıl)", re.IGNORECASE)
_DATES = frozenset({"DATE", "YEAR"})


def _writes_a_date(answer: str, case: Case) -> bool:
    spans = pattern_spans(answer, case.analyzer.language)
    return any(label in _DATES for *_, label in spans)


# A question asking which version, edition or number ("What version of the sub-policy is
# this?", "Which guideline number ...") is answered by one: a figure, a number's word or a
# numeral ("version 4.6.2.0", "4", "v. 2", "Python 3.8.6", "II"), not a line's other words.
_ASKS_WHICH_NUMBER = re.compile(
    r"\b(?:what|which)\s+(?!(?:is|are|was|were|do|does|did)\b)(?:[\w-]+\s+)?"
    r"(?:(?:version|edition|revision)s?\b|numbers?\b(?!\s+of\b))",
    re.IGNORECASE,
)
_NUMERAL = re.compile(r"[IVX]{2,}")


def _writes_a_figure(answer: str, case: Case) -> bool:
    numbers = LANGUAGE_NUMBER_WORDS.get(case.analyzer.language, frozenset())
    return any(c.isdigit() for c in answer) or any(
        w.lower() in numbers or _NUMERAL.fullmatch(w) for w in answer.split()
    )


# What answers how long besides a figure: a unit of time ("a year", "months"), or how a
# span is bounded rather than measured ("until the package is removed", "indefinitely").
_HOW_LONG_WORDS = re.compile(
    r"\b(?:years?|months?|weeks?|days?|nights?|fortnights?|hours?|minutes?|seconds?|decades?|"
    r"centur(?:y|ies)|generations?|lifetimes?|life|term|period|shift|season|"
    r"indefinitely|permanently|forever|until|till|while|as long as|"
    r"años?|mes(?:es)?|semanas?|días?|horas?|minutos?|"
    r"yıl|ay|hafta|gün|saat|dakika)\b",
    re.IGNORECASE,
)


def _says_how_long(answer: str, case: Case) -> bool:
    """Does the answer measure or bound a length of time: a figure, or the words for one?"""
    return _writes_a_figure(answer, case) or _HOW_LONG_WORDS.search(answer) is not None


# A question asking how many ("how many", "cuántos", "kaç") is answered by a number and
# what it counts, a bound before it at most ("at least two", "more than 1,000").
_COUNT_ASKED = re.compile(r"how many|cu[aá]nt[oa]s|ka[çc]", re.IGNORECASE)
_BOUND_WORDS = 3


def _count_stands_apart(answer: str, case: Case) -> bool:
    """Does the answer write its first number after words that name something (a
    capitalised word past the first, or more words than a bound takes), as a form's
    heading writes a code ("Joint Filers With No Dependents (99)")? An answer writing no
    number the language layer reads is left to the reader ("several", "twice")."""
    numbers = LANGUAGE_NUMBER_WORDS.get(case.analyzer.language, frozenset())
    said = answer.split()
    for n, word in enumerate(said):
        bare = word.strip("()[],.;:")
        if bare[:1].isdigit() or bare.lower() in numbers:
            before = said[:n]
            return len(before) > _BOUND_WORDS or any(w[:1].isupper() for w in before[1:])
    return False


def _a_title(text: str) -> bool:
    """A few words and no figure: what a marker numbers when it names a part ("Details",
    "HAZARDS IDENTIFICATION"), not an item's sentence or a value ("1.1.1.1")."""
    said = text.split()
    return 0 < len(said) <= _TITLE_WORDS and not any(ch.isdigit() for ch in text)


def _says_back(answer: str, question: str, case: Case) -> bool:
    """Is every word of the answer one the question writes, as it writes it? A number
    ("50 franchise restaurants", "seven regions") is news however the rest echoes, and a
    question that offers its alternatives, or asks yes or no, is answered in its words."""
    # A question asking yes or no ("Is the Work licensed …?") is answered by a line that
    # says it, in its words (English; a Spanish or Turkish question's form is not read here).
    if opens_on_an_auxiliary(question) or _ALTERNATIVES.search(question):
        return False
    language = case.analyzer.language
    said = [w for w in words(answer, language) if case.analyzer.term(w) is not None]
    numbers = LANGUAGE_NUMBER_WORDS.get(language, frozenset())
    if not said or any(w[:1].isdigit() or w in numbers for w in said):
        return False
    return set(said) <= set(words(question, language))


def _is_a_heading(answer: str, case: Case) -> bool:
    """Is the answer the whole of a heading line it cites?"""
    language = case.analyzer.language
    said = words(answer, language)
    return any(
        line.kind == LineKind.HEADING and words(line.text, language) == said for line in case.anchor
    )
