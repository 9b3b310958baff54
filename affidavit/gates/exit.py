"""The exit gate: judge each sentence against the evidence subset it is drawn from, in four
tiers (digit veto, mixture, read-back, support). The first to fail decides, and what fails
is dropped, never repaired (a repaired sentence has no source)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from affidavit.gates.binding import unbound_in_sentence
from affidavit.gates.claims import Claim, extract_claims
from affidavit.gates.context import (
    SupportTerms,
    bridged,
    chained,
    said_as_evidence,
    support_context,
    support_terms,
)
from affidavit.gates.decision import GateDecision
from affidavit.gates.holder import holder_decision
from affidavit.gates.readback import window_for, windows_of
from affidavit.gates.roles import SWAPPED
from affidavit.gates.support import (
    BARE_CARRIED,
    MIN_CARRIED,
    KeyWords,
    support_decision,
)
from affidavit.gates.veto import digit_veto, unsupported_numbers
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.content import content_terms, is_negated
from affidavit.text.dates import dates_in
from affidavit.text.numbers import evidence_numbers, written_numbers
from affidavit.text.wording import NO_WORDING, Wording
from affidavit.text.words import fold

# NOTE: no novel term is tolerated: on HaluEval QA (dev, 1,399 rows) 2.6% of right answers
# carry a novel term against 66.8% of hallucinated ones, so any tolerance buys little and
# costs much.
MAX_NOVEL_TERMS = 0
# NOTE: a claim's evidence words must stand in one line (reach 0): on HaluEval QA dev
# (400 rows) reading claims back from a line and its neighbours rejected 73% of the
# hallucinated answers, from single lines 87%, at the same acceptance of right ones.
CLAIM_REACH = 0
__all__ = ["Judgement", "judge", "mixture"]


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
            gate="mixture", passed=True, reason=None, detail="every content word is in the evidence"
        )
    supplied = terms & evidence
    if not supplied:
        return GateDecision(
            gate="mixture",
            passed=False,
            reason=Reason.UNSUPPORTED.value,
            detail="no content word comes from the evidence: " + ", ".join(novel),
        )
    return GateDecision(
        gate="mixture",
        passed=False,
        reason=Reason.MIXTURE.value,
        detail="evidence words around content the evidence never supplied: " + ", ".join(novel),
    )


@dataclass
class Judgement:
    """The tiers' decisions on one sentence and the lines that support it if it passed."""

    decisions: list[GateDecision] = field(default_factory=list)
    supporting: list[Evidence] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(d.passed for d in self.decisions)

    @property
    def failure(self) -> GateDecision | None:
        return next((d for d in self.decisions if not d.passed), None)


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
    """Run the four tiers on ``sentence`` against ``subset`` (one document's lines):

    1. **Digit veto** (veto.py): any number the sentence writes that the subset does not
       carry.
    2. **Mixture** (``mixture``): content words the subset never supplied.
    3. **Read-back**: the sentence is re-read as claims (one per clause, claims.py) and
       each claim's evidence words (its terms the subset has) must stand together in one
       line (CLAIM_REACH) that also carries the claim's numbers, each in the same company
       as the claim puts it (binding.py); a negated claim needs a negated line. Evidence
       words scattered over lines that never said them together do not make the claim. A
       sentence survives only if every claim does.
    4. **Support**, with a question: the supporting lines and the lines beside them
       (SUPPORT_REACH) must carry the question's distinctive words: its rarest key word
       and most of their rarity-weighted share (support.py). Otherwise the sentence
       answers some other question. The neighbours that carry key words are cited with it.

    ``anchor`` (optional) names lines the sentence was drawn from; their windows are tried
    first, so an extractive candidate is read back against its own line. ``turns_need``
    is the support tier's share when every supporting line is a conversation's turn
    (support.CONFIRMED_SPEAKER_CARRIED once the conversation was found to tell the
    question of the speaker it names). With ``bridge`` (verify's short answers), lines
    that carry too little of the question may borrow it from the lines that name what
    they name, a bridge question's second window. ``chain`` (the last organ's: the lines
    a candidate cites across a conversation read whole) is a second tier for support:
    those of its lines that name what the supporting lines name may carry the question's
    key words too, at the same share (nothing is loosened, the clues may only be apart),
    when they name what the supporting lines name or are their speaker's own turns.
    ``wording``: the question's words for its terms, which a failed support tier names.
    """
    judgement = Judgement()
    if not analyzer.terms(sentence) and not written_numbers(sentence) and not dates_in(sentence):
        judgement.decisions.append(
            GateDecision(
                gate="content",
                passed=False,
                reason=Reason.UNVERIFIABLE.value,
                detail="it says nothing to check",
            )
        )
        return judgement
    texts = [said_as_evidence(e) for e in subset]
    veto = digit_veto(sentence, texts, analyzer.language)
    judgement.decisions.append(veto)
    if not veto.passed:
        return judgement
    evidence_terms: set[str] = set()
    for text in texts:  # every term, single letters too: "R&B" must find its r and b
        evidence_terms.update(t for t in analyzer.terms(text) if not t[0].isdigit())
    without_dates = _without_dates(sentence)
    mix = mixture(
        content_terms(without_dates, analyzer), evidence_terms, Wording.of(without_dates, analyzer)
    )
    judgement.decisions.append(mix)
    if not mix.passed:
        return judgement

    unplaced = unbound_in_sentence(sentence, [said_as_evidence(e) for e in subset], analyzer)
    if unplaced:
        judgement.decisions.append(
            GateDecision(
                gate="readback",
                passed=False,
                reason=Reason.READBACK.value,
                detail="no evidence line writes "
                + ", ".join(unplaced)
                + " in this company of words",
            )
        )
        return judgement
    reach = CLAIM_REACH if claim_reach is None else claim_reach
    windows = windows_of(subset, anchor, analyzer, reach)
    claims = _claims(sentence, subset, analyzer)
    judgement.claims = claims
    used: list[Evidence] = []
    for claim in claims:
        window, clash = window_for(
            claim, windows, evidence_terms, analyzer, question_terms, term_weight, sentence
        )
        if window is None and clash is not None:
            # The line says the claim's verb, but with the roles swapped or the polarity
            # reversed: a distortion, not a paraphrase.
            reason = Reason.ROLES if clash == SWAPPED else Reason.NEGATION
            judgement.decisions.append(
                GateDecision(
                    gate="roles" if clash == SWAPPED else "polarity",
                    passed=False,
                    reason=reason.value,
                    detail=f"the evidence says it otherwise: {claim.text!r}",
                )
            )
            return judgement
        if window is None:
            judgement.decisions.append(
                GateDecision(
                    gate="readback",
                    passed=False,
                    reason=Reason.READBACK.value,
                    detail=f"no evidence window says together: {claim.text!r}",
                )
            )
            return judgement
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
    judgement.decisions.append(
        GateDecision(
            gate="readback",
            passed=True,
            reason=None,
            detail=f"{len(claims)} claim(s) read back from the evidence",
        )
    )
    if analyzer.language != "en":
        # A lower tier, said as such: without a parser the roles are not read.
        judgement.decisions.append(
            GateDecision(
                gate="roles",
                passed=True,
                reason=None,
                detail=f"who did what was not read: no {analyzer.language} parser is installed; "
                "the claims were read back as words",
            )
        )
    judgement.supporting = used or list(anchor) or list(subset[:1])
    if question_terms:
        keys = KeyWords.of(question_terms, term_weight, analyzer.language, wording=wording)
        near = support_context(judgement.supporting, subset)
        terms = support_terms(judgement.supporting, near, analyzer)
        spoken = all(line.speaker for line in judgement.supporting)
        share = turns_need if spoken else MIN_CARRIED
        decision = support_decision(keys, terms.carried, terms.written, share)
        if not decision.passed and chain:
            near, terms, decision = _supported_with(
                chained(judgement.supporting, chain),
                judgement.supporting,
                near,
                analyzer,
                keys,
                share,
                "with the cited lines told apart that name what it names or are its speaker's",
            )
        if not decision.passed and bridge:
            near, terms, decision = _supported_with(
                bridged(judgement.supporting, subset),
                judgement.supporting,
                near,
                analyzer,
                keys,
                BARE_CARRIED,
                "a bare answer, with the lines naming what they name "
                f"(at least {BARE_CARRIED:.0%} needed)",
            )
        judgement.decisions.append(decision)
        if decision.passed:
            # The holder is judged on the lines that say the claim, not on the neighbours
            # cited for carrying the question's words ("Leo: That's wonderful").
            own = list(judgement.supporting)
            _cite_carrying_neighbours(judgement, terms, keys)
            held = holder_decision(question_terms, own, subset, analyzer, sentence)
            if held is not None:
                judgement.decisions.append(held)
    return judgement


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
            gate="support", passed=True, reason=None, detail=f"{decision.detail}, {how}"
        )
    return near, terms, decision
