"""Number binding: a number a claim writes must stand in its evidence line in the same company.

The digit veto asks whether the evidence carries a number at all; a line that writes
"3,000 rpm in Europe and 3,600 in the USA" carries 3,000, yet does not say "3,000 in the
USA". So the read-back also binds the numbers of a claim to the line that supports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from affidavit.text import (
    YEAR_WORD,
    Analyzer,
    QuantityToken,
    company_side,
    figures,
    numbers_in,
    percent_terms,
    read_tokens,
    writes_whole,
)

# A number's company is the nearest content terms on each side of it, up to COMPANY terms a
# side in the claim, searched a little wider (EVIDENCE_COMPANY) in the line; another number,
# a clause joint (; : "and", "or", "but") or a full stop ends the search, and dates (judged
# whole by the veto) are left out. BARE_SUPPORT: the share of a short answer's question its
# evidence must carry (``_unbound_short``).
# NOTE: each swept on the tune splits by bench/gate_thresholds.py (bench/RESULTS.md, issue
# 12): COMPANY 2-4 and BARE_SUPPORT 0.3-0.7 moved no figure; EVIDENCE_COMPANY 7 scored a
# hair above 5 (HaluEval tune 0.670 -> 0.671) and was kept by the sweep's rule.
COMPANY = 3
EVIDENCE_COMPANY = 7
BARE_SUPPORT = 0.5
# A claim with this many content terms or fewer is a short answer, bound through the question.
SHORT_ANSWER_TERMS = 1
# Operators that make a short answer a formula (not the hyphen of "MPEG-2" or a range's dash).
_FORMULA = re.compile(r"[−+=×÷·^!<>]")


def _is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    remaining = iter(haystack)
    return all(any(n == h for h in remaining) for n in needles)


def says_verbatim(line: str, words: str) -> bool:
    """Whether ``line`` writes ``words`` whole ("15" is not said by "150")."""
    words = words.strip().rstrip(".")
    return bool(words) and writes_whole(line, words)


def is_short_answer(claim: str, analyzer: Analyzer) -> bool:
    """Numbers or dates with at most SHORT_ANSWER_TERMS word ("981", "September 2001",
    "MPEG-2"): sense comes from the question."""
    tokens = read_tokens(claim, analyzer, committing=True)
    has_quantity = any(t.number is not None or t.date for t in tokens)
    return has_quantity and len({t.term for t in tokens if t.term}) <= SHORT_ANSWER_TERMS


def unbound_numbers(
    claim: str,
    line: str,
    analyzer: Analyzer,
    question_terms: Iterable[str] = (),
    term_weight: Callable[[str], float] | None = None,
    context_terms: Iterable[str] | None = None,
    short_forms: Mapping[str, str] | None = None,
) -> list[str]:
    """The numbers of ``claim`` that ``line`` does not write in the same company.
    ``short_forms`` maps an abbreviation a document may write for a question term to that
    term ("cat" -> "catalog"): written beside the number, it is the question's word there,
    and carried, it carries its term; it is never a question term of its own weight."""
    claim_tokens = read_tokens(claim, analyzer, committing=True)
    numbers = [t for t in claim_tokens if t.number is not None]
    if not numbers and not any(t.date for t in claim_tokens):
        return []  # binding is about numbers and dates only
    line_tokens = read_tokens(line, analyzer, committing=False)
    if _FORMULA.search(claim) and is_short_answer(claim, analyzer):
        # A formula means its symbols: "(n − 4)!" is not bound by "n > 4" and "(n − 1)!".
        return [] if _writes_formula(line, claim) else [claim.strip()]
    question = set(question_terms)
    if question and is_short_answer(claim, analyzer):
        context = set(context_terms) if context_terms is not None else None
        missing = _unbound_short(
            claim,
            line,
            claim_tokens,
            line_tokens,
            question,
            term_weight or (lambda term: 1.0),
            context,
            percent_asked=bool(question & percent_terms(analyzer.language)),
            short_forms=short_forms or {},
        )
        if missing:
            return missing
        if not any(t.term for t in claim_tokens):
            # A bare range or fraction ("200–300", "1/6") is a list of its own.
            return _unbound_runs(claim_tokens, line_tokens, years=True)
    if says_verbatim(line, claim):
        return []  # said verbatim, words and all
    claim_years = set(YEAR_WORD.findall(claim))
    unbound = [
        t.number
        for at, t in enumerate(claim_tokens)
        if t.number is not None and not _bound(claim_tokens, at, line_tokens, line, claim_years)
    ]
    return unbound or _unbound_runs(claim_tokens, line_tokens)


def _unbound_runs(
    claim_tokens: list[QuantityToken], line_tokens: list[QuantityToken], *, years: bool = False
) -> list[str]:
    """The claim's runs of numbers that the line does not write as one run, in order.

    Numbers written together with no word between them (a list: "1, 3, 7, or 9"; a
    formula: "(p − 1)! + 1"; a range or fraction: "200–300", "1/6") must come as a run of
    the line in the same order, so one changed number in a list is not excused by the
    same number elsewhere. With ``years`` (a bare answer), a date stands in a run as its
    year, so "1939–1945" is bound by "from 1 September 1939 to 2 September 1945".
    """
    line_runs = _number_runs(line_tokens, years=years)
    return [
        "(list) " + ", ".join(run)
        for run in _number_runs(claim_tokens, years=years)
        if len(run) > 1 and not any(_is_subsequence(run, theirs) for theirs in line_runs)
    ]


def _writes_formula(line: str, formula: str) -> bool:
    """Whether ``line`` writes ``formula`` symbol for symbol, however it is spaced."""
    symbols = re.sub(r"\s+", "", formula.strip().rstrip("."))
    pattern = r"\s*".join(re.escape(ch) for ch in symbols)
    if symbols[:1].isalnum():
        pattern = r"(?<!\w)" + pattern
    if symbols[-1:].isalnum():
        pattern += r"(?!\w)"
    return re.search(pattern, line) is not None


def _number_runs(tokens: list[QuantityToken], *, years: bool = False) -> list[list[str]]:
    """Maximal runs of numbers with no content word (and no date) between them."""
    runs: list[list[str]] = [[]]
    for token in tokens:
        if token.number is not None:
            if runs[-1] and _year_like(runs[-1][-1]) != _year_like(token.number):
                runs.append([])  # "in 2019 was £59.1m": a year beside a figure is no list
            runs[-1].append(token.number)
        elif years and token.date and token.year is not None:
            runs[-1].append(str(token.year))
        elif token.term is not None or token.date:
            if runs[-1]:
                runs.append([])
    return [run for run in runs if run]


def _bound(
    claim_tokens: list[QuantityToken],
    at: int,
    line_tokens: list[QuantityToken],
    line: str,
    claim_years: set[str],
) -> bool:
    """Whether the line writes the claim's number at ``at`` as the claim does: for the
    year the claim names, when the line ties its figures to years ("$2.5 million and
    $2.6 million in 2019 and 2018, respectively"), else in the same company."""
    number = claim_tokens[at].number
    assert number is not None
    tied = _years_written_for(line, {number}, claim_years)
    if tied is not None:
        return bool(tied & claim_years)
    return _binding(claim_tokens, at, line_tokens) is not None


def _year_like(number: str) -> bool:
    return bool(YEAR_WORD.fullmatch(number))


def _binding(
    claim_tokens: list[QuantityToken], at: int, line_tokens: list[QuantityToken]
) -> str | None:
    """ "strong" (same company), "weak" (no company to compare), or None (unbound).

    The line must write the same number with some of the claim's company around it. When
    the claim gives the number company on both sides ("as low as 7 million"), both sides
    must agree, so "as low as 7" is not bound by "as high as 7"; one-sided company may sit
    on either side, so word order can change.

    A claim whose company names what the line says only of *another* number, and nothing
    the line says only of this one ("the bridge opened in 1991" against "the bridge opened
    in 1990 and the tunnel opened in 1991"), is unbound, even if a word they share
    ("opened") stands by both.
    """
    token = claim_tokens[at]
    assert token.number is not None
    left = company_side(claim_tokens, at, -1, COMPANY)
    right = company_side(claim_tokens, at, 1, COMPANY)
    # Company per side: [0] before the number, [1] after it.
    own: tuple[set[str], set[str]] = (set(), set())
    others: tuple[set[str], set[str]] = (set(), set())
    for where, other in enumerate(line_tokens):
        if other.number is None and not other.date_numbers:
            continue
        sides = own if other.writes(token.number) else others
        sides[0].update(company_side(line_tokens, where, -1, EVIDENCE_COMPANY))
        sides[1].update(company_side(line_tokens, where, 1, EVIDENCE_COMPANY))
    if own[0] or own[1]:
        if _names_another(left | right, own[0] | own[1], others[0] | others[1]):
            return None
        # The same test side by side: "they design phase 1" names what "As they build
        # phase 1, they design phase 2" writes before its 2, not before its 1.
        # A side where the line writes nothing beside this number is not compared, so
        # word order may still change ("In 1990 the bridge opened").
        if any(
            own[side] and _names_another(claimed, own[side], others[side])
            for side, claimed in enumerate((left, right))
        ):
            return None
    weakly = False
    for where, other in enumerate(line_tokens):
        if not other.writes(token.number, decimal=token.decimal):
            continue
        their_left = company_side(line_tokens, where, -1, EVIDENCE_COMPANY)
        their_right = company_side(line_tokens, where, 1, EVIDENCE_COMPANY)
        if not (left or right) or not (their_left or their_right):
            weakly = True  # nothing to agree or disagree on ("Before 1350, ...")
        elif left and right and their_left and their_right:
            if left & their_left and right & their_right:
                return "strong"
        elif (left | right) & (their_left | their_right):
            return "strong"
    return "weak" if weakly else None


def _names_another(claimed: set[str], own: set[str], others: set[str]) -> bool:
    """Whether ``claimed`` names what the line says only beside other numbers, and nothing
    it says only beside this one."""
    return bool(claimed & (others - own)) and not claimed & (own - others)


def _unbound_short(
    claim: str,
    line: str,
    claim_tokens: list[QuantityToken],
    line_tokens: list[QuantityToken],
    question: set[str],
    weight: Callable[[str], float],
    context: set[str] | None,
    *,
    percent_asked: bool,
    short_forms: Mapping[str, str],
) -> list[str]:
    """The numbers of a short answer that its line does not bind through the question.

    The evidence must carry at least BARE_SUPPORT of the question's terms weighed by
    rarity (``weight``: IDF over the store's lines, when the caller knows it), and some
    question term must stand in the company of the number in its line. The line must write
    it as the same kind of quantity (``QuantityToken.writes_as``): a bare "61" passes for
    "61 per cent" only when the question asks for a percentage, and "19" members are not
    bound by "19 April 1943", nor "30" by "30% of the city".
    """
    # The question must be carried where the answer is: by its line, or (multi-hop) by
    # the subset the caller names. Rare question words weigh more: "University of
    # California" is not carried by a line that says "university" and "campuses" about
    # Harvard.
    carried_by = context if context is not None else {t.term for t in line_tokens if t.term}
    # A number the question writes ("in 2019", "version 1.0", which a line's tokens read as
    # 1) is carried by the line that writes it too, and so is a code ("Form 1040A"), which
    # the terms of words leave out.
    asked_numbers = {plain: term for term in question if (plain := _plain_number(term))}
    carried_by = carried_by | {
        asked_numbers[number]
        for t in line_tokens
        for number in (t.number, str(t.year) if t.year is not None else None)
        if number in asked_numbers
    }
    carried_by |= {term for term in question if term[:1].isdigit() and writes_whole(line, term)}
    # An abbreviation carries the word it stands for ("Cat." carries "catalog"), which
    # weighs as the rarer of the two (a store whose lines write only "Cat." gives
    # "catalog" no weight of its own).
    carried_by |= {short_forms[term] for term in carried_by if term in short_forms}
    own = question - short_forms.keys()
    written_as = {term: short for short, term in short_forms.items()}

    def weighed(term: str) -> float:
        short = written_as.get(term)
        return weight(term) if short is None else max(weight(term), weight(short))

    total = sum(weighed(q) for q in own)
    carried = sum(weighed(q) for q in own & carried_by)
    if total and carried < BARE_SUPPORT * total:
        return [claim.strip()]
    wanted = [t for t in claim_tokens if t.number is not None]
    # A number the question itself writes is one of its words ("the 2007 return"), so it
    # neither ends the answer's company nor is missing from it.
    line_tokens = [
        replace(t, term=asked_numbers[t.number], stop=False) if t.number in asked_numbers else t
        for t in line_tokens
    ]
    company: set[str] = set()
    for where, other in enumerate(line_tokens):
        writes_it = any(other.writes_as(w, percent_asked=percent_asked) for w in wanted)
        if writes_it or (other.date and not wanted):
            company |= company_side(line_tokens, where, -1, EVIDENCE_COMPANY)
            company |= company_side(line_tokens, where, 1, EVIDENCE_COMPANY)
    missing = [
        w.number
        for w in wanted
        if w.number and not any(o.writes_as(w, percent_asked=percent_asked) for o in line_tokens)
    ]
    if missing:
        return missing
    years = _years_written_for(line, {w.number for w in wanted if w.number}, question)
    if years is not None and not years & question:
        return [claim.strip()]  # the line writes this figure for another year than asked
    return [] if (company | (years or set())) & question else [claim.strip()]


_NUMBER_TERM = re.compile(r"\d+(?:\.\d+)?")


def _plain_number(term: str) -> str | None:
    """A question's number term as a line's tokens read the number ("1.0" is 1, "2.50"
    2.5), or None when the term is no plain number."""
    if not _NUMBER_TERM.fullmatch(term):
        return None
    return term.rstrip("0").rstrip(".") if "." in term else term


def _years_written_for(line: str, numbers: set[str], question: set[str]) -> set[str] | None:
    """The years ``line`` writes the figures holding ``numbers`` for ("$2.6 million"
    in "$2.5 million and $2.6 million in 2019 and 2018, respectively" is 2018's), when
    the question names a year and every such figure is tied to some; else None."""
    if not any(_year_like(term) for term in question):
        return None
    tied: set[str] = set()
    for figure in figures(line):
        if not numbers & set(numbers_in(line[figure.start : figure.end])):
            continue
        if not figure.years:
            return None
        tied |= figure.years
    return tied or None


def unbound_in_sentence(sentence: str, lines: Iterable[str], analyzer: Analyzer) -> list[str]:
    """Numbers of ``sentence`` that no line writes in the company the whole sentence gives.

    Claims are clauses, and a clause can cut a number off from the words that place it
    ("… if and only if (n − 4)! is divisible by n"); read at sentence scale, its company
    is whole. Each number may be bound by a different line (a sentence can draw on two).
    """
    texts = list(lines)
    if any(says_verbatim(text, sentence) for text in texts):
        return []
    tokens = read_tokens(sentence, analyzer, committing=True)
    if not any(t.number is not None for t in tokens):
        return []
    line_tokens = [read_tokens(text, analyzer, committing=False) for text in texts]
    claim_years = set(YEAR_WORD.findall(sentence))
    return [
        token.number
        for at, token in enumerate(tokens)
        if token.number is not None
        and not any(
            _bound(tokens, at, theirs, text, claim_years)
            for theirs, text in zip(line_tokens, texts, strict=True)
        )
    ]
