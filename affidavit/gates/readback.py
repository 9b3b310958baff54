"""The exit gate's read-back tier, its windows: the lines of an evidence subset a claim
is read back from (gates/exit.py), and the first window that carries a claim as it is
said: its words, its polarity, its numbers in their company, its roles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from affidavit.gates.binding import unbound_numbers
from affidavit.gates.claims import Claim
from affidavit.gates.context import said_as_evidence
from affidavit.gates.roles import NEGATION, conflict
from affidavit.gates.veto import unsupported_numbers
from affidavit.results import Evidence
from affidavit.text import Analyzer, evidence_numbers, is_negated, short_form

# NOTE: a negated claim needs a negated line; with STRICT_POLARITY an affirmative claim
# also needs an affirmative one ("X died out" against "X never died out"). Lines often
# negate another clause, so this is measured before it is turned on (see bench/).
STRICT_POLARITY = False


@dataclass(frozen=True, slots=True)
class Window:
    """Lines read back together: a line of the subset and those within reach of it."""

    lines: tuple[Evidence, ...]
    text: str
    terms: frozenset[str]
    numbers: frozenset[str]
    negated: bool


def windows_of(
    subset: Sequence[Evidence], anchor: Sequence[Evidence], analyzer: Analyzer, reach: int
) -> list[Window]:
    """A window about each line of ``subset`` (the ``anchor`` lines' first), holding the
    subset's lines within ``reach`` of it in its document."""
    by_place = {(e.document, e.position): e for e in subset}
    order = list(anchor) + [e for e in subset if e not in anchor]
    windows = []
    for line in order:
        members = tuple(
            by_place[(line.document, p)]
            for p in range(line.position - reach, line.position + reach + 1)
            if (line.document, p) in by_place
        )
        text = " ".join(said_as_evidence(m) for m in members)
        windows.append(
            Window(
                members,
                text,
                frozenset(t for t in analyzer.terms(text) if not t[0].isdigit()),
                frozenset(evidence_numbers([text])),
                is_negated(text, analyzer.language),
            )
        )
    return windows


def window_for(
    claim: Claim,
    windows: list[Window],
    evidence_terms: set[str],
    analyzer: Analyzer,
    question_terms: frozenset[str],
    term_weight: Callable[[str], float] | None,
    sentence: str | None = None,
) -> tuple[Window | None, str | None]:
    """The first window that carries the claim, and what the windows that carried its
    words but said it otherwise (roles swapped, polarity reversed) said."""
    needed = claim.terms & evidence_terms
    clash: str | None = None
    for window in windows:
        if (
            needed <= window.terms
            and _polarity_agrees(claim, window)
            # Numbers and dates as the digit veto reads them: dates whole, in any form ...
            and not unsupported_numbers(claim.text, [window.text])
            # ... and each number in the same company as the claim puts it.
            and not unbound_numbers(
                claim.text,
                window.text,
                analyzer,
                # A question word may stand abbreviated beside the number ("Cat. No.").
                question_terms | _short_forms_of(question_terms, analyzer.language),
                term_weight,
                # A short answer's question may be carried across its document's lines
                # (multi-hop), as the support tier reads it.
                evidence_terms,
            )
        ):
            said_otherwise = conflict(claim.text, window.text, analyzer, sentence)
            if analyzer.language != "en" and claim.negated != window.negated:
                # Without a parser the whole sentence is one claim: its polarity and the
                # line's must agree ("El museo fue terminado" / "nunca fue terminado").
                said_otherwise = said_otherwise or NEGATION
            if said_otherwise is None:
                return window, None
            clash = clash or said_otherwise
    return None, clash


def _short_forms_of(terms: frozenset[str], language: str) -> frozenset[str]:
    return frozenset(short for term in terms if (short := short_form(term, language)) is not None)


def _polarity_agrees(claim: Claim, window: Window) -> bool:
    if STRICT_POLARITY:
        return claim.negated == window.negated
    return window.negated or not claim.negated
