"""Does a line say what a claim says, say the opposite, or say nothing of it? The clause
frames of both (frames/) compared as natural logic compares two sentences: each edit from
the line's frame to the claim's either keeps the truth (the same or a wider word, a
dropped modifier, "must" read as "may"), reverses it (the opposite polarity, "must not"
against "may", a filler the line excepts, another anchor or number in the same slot), or
loses it (a wider quantifier, a dropped condition, a narrower word).

A claim is *entailed* when each of its asserted frames is entailed by a frame of the
lines; *contradicted* when one of its frames is the same proposition as a line's with the
truth reversed, and no line entails it; *not found* otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from affidavit.frames import (
    PRONOUNS,
    Argument,
    Bound,
    Frame,
    Modality,
    Quantity,
    Role,
    anchors_in,
    content_lemmas,
    defined_terms,
    entails,
    opposite,
    read_frames,
    same,
    with_terms,
)
from affidavit.gates.case import Case, Judgement
from affidavit.gates.claims import Claim
from affidavit.gates.context import said_as_evidence
from affidavit.gates.decision import Gate, GateDecision
from affidavit.reasons import Reason

# The languages whose clause frames are read (frames/english.py); any other is judged by
# the word tiers alone.
FRAME_LANGUAGES = frozenset({"en"})


class Relation(StrEnum):
    ENTAILS = "entails"
    CONTRADICTS = "contradicts"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Finding:
    """One line frame against one claim frame: the relation, and what decided it (the
    audit's words: "polarity", "modality", "quantity", "condition", "exception", "anchor",
    "number", "roles", "predicate", "argument", "bound", "embedded")."""

    relation: Relation
    why: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Reading:
    """A claim against lines: the relation, what decided it, and the lines behind it
    (indices into the lines given; the entailing lines, or the contradicting one)."""

    relation: Relation
    why: str
    detail: str
    lines: tuple[int, ...] = ()


# What a frame says of its act, modality and polarity taken together.
_MUST, _MUST_NOT, _MAY, _MAY_NOT = "must", "must not", "may", "need not"
_IS, _IS_NOT, _SHOULD, _SHOULD_NOT = "is", "is not", "should", "should not"
# Each stance and the stances it entails ("must" entails "may" and "is").
_ENTAILED_STANCES = {
    _MUST: {_MUST, _IS, _MAY},
    _MUST_NOT: {_MUST_NOT, _IS_NOT, _MAY_NOT},
    _MAY: {_MAY},
    _MAY_NOT: {_MAY_NOT},
    _IS: {_IS, _MAY},
    _IS_NOT: {_IS_NOT, _MAY_NOT},
    _SHOULD: {_SHOULD},
    _SHOULD_NOT: {_SHOULD_NOT},
}
# Stances that cannot both hold of one act.
_OPPOSED_STANCES = {
    frozenset({_MUST, _MUST_NOT}),
    frozenset({_MUST, _MAY_NOT}),
    frozenset({_MAY, _MUST_NOT}),
    frozenset({_IS, _IS_NOT}),
    frozenset({_IS, _MUST_NOT}),
    frozenset({_IS_NOT, _MUST}),
    frozenset({_SHOULD, _SHOULD_NOT}),
}


def _stance(frame: Frame) -> str:
    if frame.modality is Modality.OBLIGATION:
        return _MUST_NOT if frame.negated else _MUST
    if frame.modality is Modality.PERMISSION:
        return _MAY_NOT if frame.negated else _MAY
    if frame.modality is Modality.RECOMMENDATION:
        return _SHOULD_NOT if frame.negated else _SHOULD
    return _IS_NOT if frame.negated else _IS


def reading(claim: Sequence[Frame], lines: Sequence[Sequence[Frame]]) -> Reading | None:
    """The claim's frames against every line's frames: entailed when each asserted frame
    of the claim is entailed by a frame of some line; contradicted when one is reversed by
    a line's frame and none entails it; else not found, with the nearest miss as the
    reason. None when the claim has no asserted frame to judge (it did not parse)."""
    asserted = [f for f in claim if not f.embedded]
    if not asserted:
        return None
    entailing: list[int] = []
    nearest: Finding | None = None
    for frame in asserted:
        best: tuple[Finding, int] | None = None
        for number, frames in enumerate(lines):
            for line_frame in frames:
                found = relation(line_frame, frame)
                if found.relation is Relation.ENTAILS:
                    best = (found, number)
                    break
                if best is None or _rank(found) > _rank(best[0]):
                    best = (found, number)
            if best is not None and best[0].relation is Relation.ENTAILS:
                break
        if best is None:
            return Reading(Relation.UNKNOWN, "argument", "no line says anything of it")
        found, number = best
        if found.relation is Relation.CONTRADICTS:
            return Reading(Relation.CONTRADICTS, found.why, found.detail, (number,))
        if found.relation is Relation.UNKNOWN:
            if nearest is None or _rank(found) > _rank(nearest):
                nearest = found
            continue
        entailing.append(number)
    if nearest is not None:
        return Reading(Relation.UNKNOWN, nearest.why, nearest.detail)
    return Reading(Relation.ENTAILS, "entailed", "", tuple(sorted(set(entailing))))


# How close a finding came: a contradiction says the most, then a miss on one edit with
# everything else held, then a miss on the predicate.
_CLOSENESS = {"predicate": 0, "embedded": 1, "argument": 2}


def _rank(found: Finding) -> int:
    if found.relation is Relation.CONTRADICTS:
        return 10
    if found.relation is Relation.ENTAILS:
        return 11
    return _CLOSENESS.get(found.why, 5)


def relation(line: Frame, claim: Frame) -> Finding:
    """One line frame against one claim frame."""
    reversed_act = False
    if not entails(line.predicate, claim.predicate):
        if not opposite(line.predicate, claim.predicate):
            return Finding(Relation.UNKNOWN, "predicate", f"{line.predicate} / {claim.predicate}")
        reversed_act = True
    excepted = _excepted(line, claim)
    if excepted is not None:
        return excepted
    arguments = _arguments_relation(line, claim)
    if arguments.relation is not Relation.ENTAILS:
        return arguments
    if line.embedded:
        return Finding(Relation.UNKNOWN, "embedded", f"the line only says it of {line.text!r}")
    line_stance, claim_stance = _stance(line), _stance(claim)
    if reversed_act:
        claim_stance = _negated_stance(claim_stance)
    bounds = _bounds_relation(line.bounds, claim.bounds)
    conditions = _conditions_relation(line, claim)
    if frozenset({line_stance, claim_stance}) in _OPPOSED_STANCES:
        if bounds.relation is Relation.ENTAILS and conditions.relation is Relation.ENTAILS:
            why = "predicate" if reversed_act else "polarity"
            if line.negated == claim.negated and not reversed_act:
                why = "modality"
            return Finding(Relation.CONTRADICTS, why, f"{line_stance} / {claim_stance}")
        return bounds if bounds.relation is not Relation.ENTAILS else conditions
    if claim_stance not in _ENTAILED_STANCES[line_stance]:
        return Finding(Relation.UNKNOWN, "modality", f"the line says {line_stance!r}")
    if line.exceptions and not claim.exceptions:
        if any(a.quantity is Quantity.UNIVERSAL for a in claim.arguments):
            return Finding(
                Relation.UNKNOWN, "exception", f"the line excepts {line.exceptions[0].text!r}"
            )
    if bounds.relation is not Relation.ENTAILS:
        return bounds
    return conditions


def _negated_stance(stance: str) -> str:
    flip = {
        _MUST: _MUST_NOT, _MUST_NOT: _MUST, _MAY: _MAY_NOT, _MAY_NOT: _MAY,
        _IS: _IS_NOT, _IS_NOT: _IS, _SHOULD: _SHOULD_NOT, _SHOULD_NOT: _SHOULD,
    }  # fmt: skip
    return flip[stance]


def _arguments_relation(line: Frame, claim: Frame) -> Finding:
    """Each claim argument matched by a line argument in the same role (an oblique under
    the same preposition). A claim argument the line has in another role is a role swap;
    one whose slot the line fills with another anchor or number is reversed."""
    for wanted in claim.arguments:
        if wanted.head in PRONOUNS and wanted.role in (Role.AGENT, Role.PATIENT):
            continue
        if wanted.role is Role.MANNER:
            # How the act is done is held against the line only where the line says the
            # opposite ("rarely" / "regularly"); "fully or partly" is not a new claim.
            said = [a for a in line.arguments if a.role is Role.MANNER]
            if any(opposite(a.head, wanted.head) for a in said):
                return Finding(
                    Relation.CONTRADICTS, "opposite", f"{said[0].text!r} / {wanted.text!r}"
                )
            continue
        same_role = [a for a in line.arguments if _same_slot(a, wanted)]
        found = [_argument_relation(a, wanted) for a in same_role]
        if any(f.relation is Relation.ENTAILS for f in found):
            continue
        clash = next((f for f in found if f.relation is Relation.CONTRADICTS), None)
        if clash is not None:
            return clash
        elsewhere = [
            a
            for a in line.arguments
            if a.role is not wanted.role
            and _argument_relation(a, wanted).relation is Relation.ENTAILS
        ]
        if elsewhere and wanted.role in (Role.AGENT, Role.PATIENT, Role.RECIPIENT):
            # A swap: the claim's phrase is in another role of the line, and the line's
            # phrase in its role is another of the claim's ("the supplier reviews the
            # auditor's invoices" against "the auditor reviews the supplier's invoices").
            traded = any(
                _argument_relation(a, other).relation is Relation.ENTAILS
                for a in same_role
                for other in claim.arguments
                if other is not wanted
            )
            if traded:
                return Finding(Relation.UNKNOWN, "roles", f"{wanted.text!r} is {elsewhere[0].role}")
        elif elsewhere:
            continue  # an oblique read under another preposition: the same phrase
        near = next((f for f in found if f.why in ("quantity", "anchor", "number")), None)
        if near is None and wanted.role in _CORE and _words_elsewhere(line, wanted):
            # "Agencies will monitor CISA's compliance" against "CISA will monitor agency
            # compliance": every word is the line's, in another of its parties' places.
            return Finding(Relation.UNKNOWN, "roles", f"{wanted.text!r} is said of another party")
        return near or Finding(Relation.UNKNOWN, "argument", f"{wanted.text!r} is not in the line")
    return Finding(Relation.ENTAILS, "entailed")


_CORE = frozenset({Role.AGENT, Role.PATIENT, Role.RECIPIENT})
# Prepositions that name a party to the act ("offer guidance to the subscriber").
_PARTY_MARKERS = frozenset({"to", "from", "by", "for", "with"})


def _words_elsewhere(line: Frame, wanted: Argument) -> bool:
    """Are all of a claim phrase's words in the line frame's parties, its head among them
    in a role other than the claim's?"""
    parties = [
        a for a in line.arguments if a.role in _CORE or a.marker in _PARTY_MARKERS
    ]  # fmt: skip
    words = {w for a in parties for w in a.words}
    content = {w for w in wanted.words if w not in PRONOUNS}
    head_elsewhere = any(
        a.role is not wanted.role and any(entails(w, wanted.head) for w in a.words) for a in parties
    )
    held = all(any(entails(v, w) for v in words) for w in content)
    return bool(content) and head_elsewhere and held


def _same_slot(line: Argument, claim: Argument) -> bool:
    if line.role is not claim.role:
        return False
    return line.role is not Role.OBLIQUE or same(line.marker, claim.marker)


def _argument_relation(line: Argument, claim: Argument) -> Finding:
    """One claim phrase against one line phrase in its slot. A pronoun in the line ("may
    return it") stands for what the sentence named before: it is not held against the
    claim's phrase, and no number or anchor is read from it."""
    if line.head in PRONOUNS and not claim.anchors and not claim.values:
        return Finding(Relation.ENTAILS, "entailed")
    if claim.anchors or line.anchors:
        if set(claim.anchors) - set(line.anchors):
            kinds = {a.split(" ")[0] for a in line.anchors}
            if any(a.split(" ")[0] in kinds for a in claim.anchors):
                return Finding(Relation.CONTRADICTS, "anchor", f"{line.anchors} / {claim.anchors}")
            return Finding(Relation.UNKNOWN, "anchor", f"{claim.anchors} not in the line")
    if (
        claim.values
        and claim.comparison != line.comparison
        and set(claim.values) <= set(line.values)
    ):
        # "more than 64 bits" against "less than 64 bits", "over 13" against "under 13".
        if frozenset({claim.comparison, line.comparison}) in _OPPOSED_COMPARISONS:
            return Finding(Relation.CONTRADICTS, "comparison", f"{line.text!r} / {claim.text!r}")
        if not _comparison_entails(line.comparison, claim.comparison):
            return Finding(Relation.UNKNOWN, "comparison", f"the line says {line.text!r}")
    if set(claim.values) - set(line.values):
        if line.values:
            return Finding(Relation.CONTRADICTS, "number", f"{line.values} / {claim.values}")
        return Finding(Relation.UNKNOWN, "number", f"{claim.values} not in the line")
    if not (entails(line.head, claim.head) or any(entails(w, claim.head) for w in line.words)):
        if opposite(line.head, claim.head):  # "regularly" / "rarely", "written" / "oral"
            return Finding(Relation.CONTRADICTS, "opposite", f"{line.text!r} / {claim.text!r}")
        return Finding(Relation.UNKNOWN, "argument", f"{line.head} / {claim.head}")
    missing = [
        w for w in claim.words
        if w not in PRONOUNS and not any(entails(v, w) for v in line.words)
    ]  # fmt: skip
    if missing:
        if any(opposite(v, w) for w in missing for v in line.words):
            return Finding(Relation.CONTRADICTS, "opposite", f"{line.text!r} / {claim.text!r}")
        return Finding(
            Relation.UNKNOWN, "argument", f"the line has no {', '.join(sorted(missing))}"
        )
    if claim.quantity is Quantity.UNIVERSAL and line.quantity is not Quantity.UNIVERSAL:
        return Finding(Relation.UNKNOWN, "quantity", f"the line says {line.quantity} {line.head}")
    if claim.quantity is Quantity.RESTRICTIVE and line.quantity is not Quantity.RESTRICTIVE:
        return Finding(Relation.UNKNOWN, "quantity", f"the line does not say only {line.head}")
    if claim.negated != line.negated:
        return Finding(Relation.CONTRADICTS, "polarity", f"without {claim.head}")
    return Finding(Relation.ENTAILS, "entailed")


# Comparisons that cannot both hold of one number, and those a line's entails.
_OPPOSED_COMPARISONS = {
    frozenset({"gt", "lt"}), frozenset({"gt", "le"}), frozenset({"ge", "lt"}),
    frozenset({"gt", ""}), frozenset({"lt", ""}),
}  # fmt: skip


def _comparison_entails(line: str, claim: str) -> bool:
    """ "more than 64" entails "at least 64"; the number itself entails "at least" and "at
    most" it."""
    return line == claim or (line, claim) in {("gt", "ge"), ("lt", "le"), ("", "ge"), ("", "le")}


def _excepted(line: Frame, claim: Frame) -> Finding | None:
    """A claim about a phrase the line excepts ("all staff except interns must" against
    "interns must") is reversed, when the rest of it is what the line says of the others
    and in the same stance."""
    for wanted in claim.arguments:
        if wanted.head in PRONOUNS:
            continue
        for excepted in line.exceptions:
            if not entails(excepted.head, wanted.head):
                continue
            others = [a for a in line.arguments if a.role is wanted.role]
            rest = replace(claim, arguments=tuple(a for a in claim.arguments if a is not wanted))
            held = _arguments_relation(line, rest).relation is Relation.ENTAILS
            if others and held and _stance(line) == _stance(claim):
                return Finding(
                    Relation.CONTRADICTS, "exception", f"the line excepts {excepted.text!r}"
                )
    return None


def _bounds_relation(line: Sequence[Bound], claim: Sequence[Bound]) -> Finding:
    """Each time bound of the claim said by the line: the same relation and the same
    values; "before" against "after" of the same thing, or another number, is reversed."""
    for wanted in claim:
        matched = False
        for bound in line:
            overlap = _overlap(bound.words, wanted.words)
            if (
                bound.relation == wanted.relation
                and overlap
                and set(wanted.values) <= set(bound.values)
            ):
                matched = True
                break
            if overlap and opposite(bound.relation, wanted.relation):
                return Finding(Relation.CONTRADICTS, "bound", f"{bound.text!r} / {wanted.text!r}")
            if bound.relation == wanted.relation and bound.values and wanted.values:
                return Finding(Relation.CONTRADICTS, "number", f"{bound.text!r} / {wanted.text!r}")
        if not matched:
            return Finding(Relation.UNKNOWN, "bound", f"the line does not say {wanted.text!r}")
    return Finding(Relation.ENTAILS, "entailed")


def _overlap(line: frozenset[str], claim: frozenset[str]) -> bool:
    content = {w for w in claim if w not in PRONOUNS}
    if not content:
        return True
    held = sum(1 for w in content if any(entails(v, w) for v in line))
    return held * 2 >= len(content)


def _conditions_relation(line: Frame, claim: Frame) -> Finding:
    """Every condition the line holds under must be the claim's too: a claim that drops
    "if the shipment is damaged" says more than the line. A condition the claim adds only
    narrows it."""
    for condition in line.conditions:
        kept = any(
            relation(condition, said).relation is Relation.ENTAILS
            or relation(said, condition).relation is Relation.ENTAILS
            for said in claim.conditions
        )
        if not kept:
            return Finding(
                Relation.UNKNOWN, "condition", f"the line holds only if {condition.text!r}"
            )
    return Finding(Relation.ENTAILS, "entailed")


# The misses that say the line is about the claim's proposition and says it otherwise (a
# frame that matched up to one edit): the claim is not supported, whatever its words share.
_SAID_OTHERWISE = frozenset(
    {"polarity", "modality", "quantity", "condition", "exception", "anchor", "number",
     "roles", "bound", "embedded", "comparison", "opposite"}
)  # fmt: skip


# Contradictions by another value in the slot, left to the tiers that read numbers whole.
_ANOTHER_VALUE = frozenset({"number", "anchor"})


def frames_entail(case: Case, found: Judgement) -> GateDecision | None:
    """The entailment judge, before the word tiers: a sentence given to verify (it cites no
    line) read into clause frames against its lines'. Entailed: it passes, and the tiers
    that ask for the lines' own words have nothing to add. Contradicted: it fails and the
    line that says the opposite is kept. Otherwise the word tiers judge it (and
    ``frames_said_otherwise`` after them); in a language without frame tables the audit
    says the word tiers judge it alone."""
    if case.cites is not None or case.bridge:
        return None
    language = case.analyzer.language
    if language not in FRAME_LANGUAGES:
        return GateDecision(
            gate=Gate.ENTAILMENT, passed=True, reason=None,
            detail=f"no clause frames for {language!r}: the word tiers judge it",
        )  # fmt: skip
    terms = defined_terms(case.texts)
    claim = with_terms(read_frames(case.text), terms)
    read = case.line_frames
    if read is None:
        read = [read_frames(text) for text in case.texts]
    lines = [with_terms(frames, terms) for frames in read]
    found.reading = found_reading = reading(claim, lines)
    if found_reading is None or found_reading.relation is Relation.UNKNOWN:
        return None
    if found_reading.relation is Relation.CONTRADICTS and found_reading.why in _ANOTHER_VALUE:
        # Another number or anchor in the same slot: a document may give a city's figure
        # and its metropolitan area's in one page. The digit veto and the numbers' company
        # judge which line says the sentence's; a value is not contradicted by a neighbour.
        return None
    if found_reading.relation is Relation.ENTAILS:
        if not _words_said(case.text, [case.texts[i] for i in found_reading.lines]):
            # A word the frames do not hold (an apposition, an adjunct they skip) that no
            # entailing line says or entails: the word tiers judge the sentence.
            return None
        found.settled = True
        found.supporting = [case.lines[i] for i in found_reading.lines]
        # The audit's claims are the frames read, as the read-back would have listed them.
        found.claims = [
            Claim(
                f.text,
                frozenset(w for a in f.arguments for w in a.words) | {f.predicate},
                f.negated,
            )
            for f in claim
            if not f.embedded
        ]
        return GateDecision(
            gate=Gate.ENTAILMENT, passed=True, reason=None,
            detail="entailed by its lines' clause frames",
        )  # fmt: skip
    found.contradicting = [case.lines[i] for i in found_reading.lines]
    return GateDecision(
        gate=Gate.ENTAILMENT, passed=False, reason=Reason.CONTRADICTED.value,
        detail=f"{found_reading.why}: {found_reading.detail}",
    )  # fmt: skip


def _words_said(claim: str, lines: Sequence[str]) -> bool:
    """Is each content word of ``claim`` a word of ``lines``, or entailed by one (a
    synonym or a narrower word of the lexicon)?"""
    said = frozenset().union(*(content_lemmas(line) for line in lines))
    return all(any(entails(v, w) for v in said) for w in content_lemmas(claim))


def frames_said_otherwise(case: Case, found: Judgement) -> GateDecision | None:
    """After the word tiers passed a sentence its frames did not entail: fails it when the
    closest line frame is its proposition said otherwise (one edit away: another
    condition, quantity, modality, time, anchor, party, or only said under another verb).
    A sentence whose words the lines carry is not yet a sentence they say."""
    said = found.reading
    if not isinstance(said, Reading) or said.relation is not Relation.UNKNOWN:
        return None
    if said.why not in _SAID_OTHERWISE:
        return None
    # Roles the other way round keep their own catalogued reason.
    reason = Reason.ROLES if said.why == "roles" else Reason.NOT_ENTAILED
    return GateDecision(
        gate=Gate.ENTAILMENT, passed=False, reason=reason.value,
        detail=f"{said.why}: {said.detail}",
    )  # fmt: skip


def anchors_kept(case: Case, found: Judgement) -> GateDecision | None:
    """An answer to a question that names an anchor ("Who leads Project A?", "What does
    Section 5(a) require?") is drawn only from lines about that anchor: a line that names
    another of its kind (Project B, Section 5(b)) and not it answers another question."""
    asked = case.question
    if asked is None or not asked.anchors:
        return None
    lines = found.supporting or case.anchor or list(case.lines)
    named = {a.key for line in lines for a in anchors_in(said_as_evidence(line))}
    for anchor in asked.anchors:
        kind = anchor.split(" ")[0]
        others = sorted(a for a in named if a.split(" ")[0] == kind and a != anchor)
        if others and anchor not in named:
            return GateDecision(
                gate=Gate.ANCHORS, passed=False, reason=Reason.NOT_ENTAILED.value,
                detail=f"the question asks of {anchor!r}; its lines name {', '.join(others)}",
            )  # fmt: skip
    return GateDecision(
        gate=Gate.ANCHORS, passed=True, reason=None,
        detail=f"its lines name {', '.join(asked.anchors)} or no other of the kind",
    )  # fmt: skip
