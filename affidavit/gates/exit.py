"""The exit gate: judge each sentence against the evidence subset it is drawn from, in
tiers (digit veto, mixture, read-back, support, holder), each a judge of the registry
(gates/registry.py). The first to fail decides, and what fails is dropped, never repaired
(a repaired sentence has no source). The read-back reads a claim back from windows of the
subset's lines: the first window that carries it as it is said (its words, its polarity,
its numbers in their company, its roles)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from affidavit.gates.binding import unbound_in_sentence, unbound_numbers
from affidavit.gates.case import Case, Judge, Judgement, run_judges
from affidavit.gates.claims import Claim, extract_claims
from affidavit.gates.context import (
    SupportTerms,
    bridged,
    chained,
    said_as_evidence,
    support_context,
    support_terms,
)
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.holder import holder_decision
from affidavit.gates.roles import NEGATION, SWAPPED, conflict
from affidavit.gates.support import (
    BARE_CARRIED,
    MIN_CARRIED,
    KeyWords,
    support_decision,
)
from affidavit.gates.veto import digit_veto, unsupported_numbers
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text import (
    NO_WORDING,
    Analyzer,
    Wording,
    content_terms,
    dates_in,
    evidence_numbers,
    fold,
    is_negated,
    short_forms_of,
    written_numbers,
)

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
    shorts = short_forms_of(question_terms, analyzer.language)
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
                question_terms | shorts.keys(),
                term_weight,
                # A short answer's question may be carried across its document's lines
                # (multi-hop), as the support tier reads it.
                evidence_terms,
                # A question word may stand abbreviated beside the number ("Cat. No.").
                shorts,
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


def _polarity_agrees(claim: Claim, window: Window) -> bool:
    if STRICT_POLARITY:
        return claim.negated == window.negated
    return window.negated or not claim.negated


# NOTE: no novel term is tolerated: on HaluEval QA (dev, 1,399 rows) 2.6% of right answers
# carry a novel term against 66.8% of hallucinated ones, so any tolerance buys little and
# costs much.
MAX_NOVEL_TERMS = 0
# NOTE: a claim's evidence words must stand in one line (reach 0): on HaluEval QA dev
# (400 rows) reading claims back from a line and its neighbours rejected 73% of the
# hallucinated answers, from single lines 87%, at the same acceptance of right ones.
CLAIM_REACH = 0
__all__ = ["EXIT_TIERS", "Judgement", "judge", "mixture"]


def mixture(
    terms: frozenset[str], evidence: set[str], wording: Wording = NO_WORDING
) -> GateDecision:
    """Every content word must come from the evidence. The question's words are not
    evidence: "Which French painter taught her?" does not make "French" true.

    ``terms`` are the sentence's content terms (stemmed, stop words out, numbers left to
    the digit veto); those ``evidence`` lacks are novel. A sentence with novel terms and
    some from the evidence wraps evidence words around content the evidence never
    supplied: a *mixture*. If none comes from the evidence, it is *unsupported*. The
    novel words are named as the sentence writes them (``wording``), not as stems.
    """
    novel = wording.words(sorted(terms - evidence))
    if len(novel) <= MAX_NOVEL_TERMS:
        return GateDecision(
            gate=Gate.MIXTURE,
            passed=True,
            reason=None,
            detail="every content word is in the evidence",
        )
    supplied = terms & evidence
    if not supplied:
        return GateDecision(
            gate=Gate.MIXTURE,
            passed=False,
            reason=Reason.UNSUPPORTED.value,
            detail="no content word comes from the evidence: " + ", ".join(novel),
        )
    return GateDecision(
        gate=Gate.MIXTURE,
        passed=False,
        reason=Reason.MIXTURE.value,
        detail="evidence words around content the evidence never supplied: " + ", ".join(novel),
    )


def judge(
    sentence: str,
    subset: Sequence[Evidence],
    analyzer: Analyzer,
    *,
    question_terms: frozenset[str] = frozenset(),
    anchor: Sequence[Evidence] = (),
    claim_reach: int | None = None,
    term_weight: Callable[[str], float] | None = None,
    turns_need: float = MIN_CARRIED,
    bridge: bool = False,
    chain: Sequence[Evidence] = (),
    wording: Wording = NO_WORDING,
) -> Judgement:
    """The exit gate's tiers (``EXIT_TIERS``) on ``sentence`` against ``subset`` (one
    document's lines), with the question's key terms ``question_terms``: a Case made of
    them, judged by the tiers the registry (gates/registry.py) runs first. ``anchor``
    names lines the sentence was drawn from (their windows are tried first); see Case for
    the rest."""
    cites = tuple(i for i, line in enumerate(subset) if line in anchor) if anchor else None
    case = Case(
        text=sentence,
        lines=subset,
        analyzer=analyzer,
        cites=cites,
        asked=question_terms,
        term_weight=term_weight,
        turns_need=turns_need,
        bridge=bridge,
        chain=chain,
        wording=wording,
        claim_reach=claim_reach,
    )
    return run_judges(case, EXIT_TIERS)


# -- the tiers, in order: each reads the case and what the tiers before it found --


def says_something(case: Case, found: Judgement) -> GateDecision | None:
    """A text with no word, number or date to check says nothing the evidence could
    support: unverifiable."""
    sentence, analyzer = case.text, case.analyzer
    if analyzer.terms(sentence) or written_numbers(sentence) or dates_in(sentence):
        return None
    return GateDecision(
        gate=Gate.CONTENT,
        passed=False,
        reason=Reason.UNVERIFIABLE.value,
        detail="it says nothing to check",
    )


def numbers_carried(case: Case, found: Judgement) -> GateDecision:
    """1. **Digit veto** (veto.py): any number the text writes that the lines do not
    carry."""
    return digit_veto(case.text, case.texts, case.analyzer.language)


def words_supplied(case: Case, found: Judgement) -> GateDecision | None:
    """2. **Mixture** (``mixture``): content words the lines never supplied (dates left to
    the digit veto). Not asked of a text whose lines' clause frames entail it: a synonym
    is not a mixture."""
    if found.settled:
        return None
    without_dates = _without_dates(case.text)
    return mixture(
        content_terms(without_dates, case.analyzer),
        set(case.evidence_terms),
        Wording.of(without_dates, case.analyzer),
    )


def numbers_in_company(case: Case, found: Judgement) -> GateDecision | None:
    """3a. **Read-back** of numbers: each number the text writes stands in a line in the
    company of words the whole text gives it (binding.py)."""
    unplaced = unbound_in_sentence(case.text, case.texts, case.analyzer)
    if not unplaced:
        return None
    return GateDecision(
        gate=Gate.READBACK,
        passed=False,
        reason=Reason.READBACK.value,
        detail="no evidence line writes " + ", ".join(unplaced) + " in this company of words",
    )


def claims_read_back(case: Case, found: Judgement) -> GateDecision | None:
    """3b. **Read-back** of claims: the text is re-read as claims (one per clause,
    claims.py) and each claim's evidence words (its terms the lines have) must stand
    together in one line (CLAIM_REACH) that also carries the claim's numbers; a negated
    claim needs a negated line, and a line saying the claim's verb with the roles swapped
    is a distortion. Evidence words scattered over lines that never said them together do
    not make the claim. The lines that say part of a claim become the supporting lines."""
    if found.settled:
        return None  # entailed clause by clause already (gates/entailment.py)
    analyzer, subset = case.analyzer, case.lines
    reach = CLAIM_REACH if case.claim_reach is None else case.claim_reach
    windows = windows_of(subset, case.anchor, analyzer, reach)
    claims = _claims(case.text, subset, analyzer)
    found.claims = claims
    evidence_terms = set(case.evidence_terms)
    used: list[Evidence] = []
    for claim in claims:
        window, clash = window_for(
            claim, windows, evidence_terms, analyzer, case.asked, case.term_weight, case.text
        )
        if window is None and clash is not None:
            # The line says the claim's verb, but with the roles swapped or the polarity
            # reversed: a distortion, not a paraphrase.
            swapped = clash == SWAPPED
            return GateDecision(
                gate=Gate.ROLES if swapped else Gate.POLARITY,
                passed=False,
                reason=(Reason.ROLES if swapped else Reason.NEGATION).value,
                detail=f"the evidence says it otherwise: {claim.text!r}",
            )
        if window is None:
            return GateDecision(
                gate=Gate.READBACK,
                passed=False,
                reason=Reason.READBACK.value,
                detail=f"no evidence window says together: {claim.text!r}",
            )
        # Only the window's lines that say part of the claim support it; a neighbour that
        # merely stands beside them is context, not support.
        needed = claim.terms & evidence_terms
        numbers = set(written_numbers(claim.text))
        for line in window.lines:
            says = (
                content_terms(said_as_evidence(line), analyzer) & needed
                or (numbers & evidence_numbers([line.text]))
                or (numbers and not unsupported_numbers(claim.text, [line.text]))
            )
            if says and line not in used:
                used.append(line)
    found.supporting = used or case.anchor or list(subset[:1])
    return GateDecision(
        gate=Gate.READBACK,
        passed=True,
        reason=None,
        detail=f"{len(claims)} claim(s) read back from the evidence",
    )


def roles_unread(case: Case, found: Judgement) -> GateDecision | None:
    """Without a parser for the language, who did what was not read: a lower tier, said
    as such in the audit."""
    if case.analyzer.language == "en":
        return None
    return GateDecision(
        gate=Gate.ROLES,
        passed=True,
        reason=None,
        detail=f"who did what was not read: no {case.analyzer.language} parser is installed; "
        "the claims were read back as words",
    )


def question_carried(case: Case, found: Judgement) -> GateDecision | None:
    """4. **Support**, with a question: the supporting lines and the lines beside them
    (SUPPORT_REACH) must carry the question's distinctive words: its rarest key word and
    most of their rarity-weighted share (support.py). Otherwise the text answers some
    other question. ``chain`` lines that name what the supporting lines name may carry
    them too, and a ``bridge`` lets a bare answer borrow them from the lines naming what
    its lines name. The neighbours that carry key words are cited with it."""
    if not case.asked:
        return None
    analyzer = case.analyzer
    keys = KeyWords.of(case.asked, case.term_weight, analyzer.language, wording=case.wording)
    near = support_context(found.supporting, case.lines)
    terms = support_terms(found.supporting, near, analyzer)
    spoken = all(line.speaker for line in found.supporting)
    share = case.turns_need if spoken else MIN_CARRIED
    decision = support_decision(keys, terms.carried, terms.written, share)
    if not decision.passed and case.chain:
        near, terms, decision = _supported_with(
            chained(found.supporting, case.chain),
            found.supporting,
            near,
            analyzer,
            keys,
            share,
            "with the cited lines told apart that name what it names or are its speaker's",
        )
    if not decision.passed and case.bridge:
        near, terms, decision = _supported_with(
            bridged(found.supporting, case.lines),
            found.supporting,
            near,
            analyzer,
            keys,
            BARE_CARRIED,
            "a bare answer, with the lines naming what they name "
            f"(at least {BARE_CARRIED:.0%} needed)",
        )
    if decision.passed:
        # The holder is judged on the lines that say the claim, not on the neighbours
        # cited for carrying the question's words ("Leo: That's wonderful").
        found.own = list(found.supporting)
        _cite_carrying_neighbours(found, terms, keys)
    return decision


def speaker_holds(case: Case, found: Judgement) -> GateDecision | None:
    """5. **Holder**: a question naming a speaker is answered by that speaker's own
    turns, or by a line that names them (holder.py)."""
    if not case.asked:
        return None
    own = found.own if found.own is not None else found.supporting
    return holder_decision(case.asked, own, case.lines, case.analyzer, case.text)


EXIT_TIERS: tuple[tuple[Gate, Judge], ...] = (
    (Gate.CONTENT, says_something),
    (Gate.DIGIT_VETO, numbers_carried),
    (Gate.MIXTURE, words_supplied),
    (Gate.READBACK, numbers_in_company),
    (Gate.READBACK, claims_read_back),
    (Gate.ROLES, roles_unread),
    (Gate.SUPPORT, question_carried),
    (Gate.HOLDER, speaker_holds),
)


def _cite_carrying_neighbours(judgement: Judgement, terms: SupportTerms, keys: KeyWords) -> None:
    """Cite the fewest neighbours that carry the key words the supporting lines lack,
    each time the one carrying the most weight still missing (ties: document order)."""
    weights = dict(keys.weights)
    missing = set(weights) - terms.own
    others = [(line, said) for line, said in terms.near if line not in judgement.supporting]
    while missing and others:
        gains = [sum(weights[t] for t in said & missing) for _, said in others]
        best = max(range(len(others)), key=lambda i: (gains[i], -i))
        if gains[best] <= 0:
            return
        line, said = others.pop(best)
        missing -= said
        judgement.supporting.append(line)


def _claims(sentence: str, subset: Sequence[Evidence], analyzer: Analyzer) -> list[Claim]:
    """The sentence's claims; a verbatim piece of one line needs no parse to be read back.

    Every claim of such a piece stands in that one line, so reading it as one whole claim
    gives the same verdict without running the parser (most extractive candidates).
    """
    folded = fold(sentence, analyzer.language)
    if any(folded in fold(line.text, analyzer.language) for line in subset):
        return [
            Claim(
                sentence, content_terms(sentence, analyzer), is_negated(sentence, analyzer.language)
            )
        ]
    return extract_claims(sentence, analyzer)


def _without_dates(sentence: str) -> str:
    spans = {(d.start, d.end) for d in dates_in(sentence)}
    for start, end in sorted(spans, reverse=True):
        sentence = sentence[:start] + " " + sentence[end:]
    return sentence


def _supported_with(
    more: Sequence[Evidence],
    supporting: Sequence[Evidence],
    near: list[Evidence],
    analyzer: Analyzer,
    keys: KeyWords,
    share: float,
    how: str,
) -> tuple[list[Evidence], SupportTerms, GateDecision]:
    """The support tier asked again with ``more`` lines beside the supporting ones, at
    ``share``: the context, its terms and the decision (a pass says ``how``)."""
    near = [*near, *(e for e in more if e not in near)]
    terms = support_terms(supporting, near, analyzer)
    decision = support_decision(keys, terms.carried, terms.written, share)
    if decision.passed:
        decision = GateDecision(
            gate=Gate.SUPPORT, passed=True, reason=None, detail=f"{decision.detail}, {how}"
        )
    return near, terms, decision
