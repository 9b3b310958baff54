"""The reason catalogue: stable codes a reviewer can filter on, each with one line of text,
saying why ask refused an answer or verify vetoed or dropped a sentence."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """A code never changes meaning once published; new ones are only added."""

    EMPTY_STORE = "empty_store"
    EMPTY_QUESTION = "empty_question"
    NO_EVIDENCE = "no_evidence"
    WEAK_EVIDENCE = "weak_evidence"
    NO_CANDIDATE = "no_candidate"
    DIGIT_VETO = "digit_veto"
    MIXTURE = "mixture"
    UNSUPPORTED = "unsupported"
    READBACK = "readback"
    UNVERIFIABLE = "unverifiable"
    BELOW_TRUST = "below_trust"
    PLAN_DEAD = "plan_dead"
    ROLES = "roles"
    NEGATION = "negation"
    HOLDER = "holder"
    NO_CLAIM = "no_claim"
    CONTESTED = "contested"
    UNLIKELY = "unlikely"

    @property
    def text(self) -> str:
        return _TEXT[self]


_TEXT: dict[Reason, str] = {
    Reason.EMPTY_STORE: "The store holds no documents, so there is nothing to answer from.",
    Reason.EMPTY_QUESTION: "The question has no words to look for.",
    Reason.NO_EVIDENCE: "No line in the store shares a content word with the question.",
    Reason.WEAK_EVIDENCE: (
        "The best evidence lines miss too many of the question's key words to support an answer."
    ),
    Reason.NO_CANDIDATE: (
        "The evidence holds nothing of the kind the question asks for (a person, a date, "
        "a number...)."
    ),
    Reason.UNLIKELY: (
        "The best candidate passed every check, but the reader judges it unlikely to answer "
        "the question: its probability is below the threshold chosen on held-out data."
    ),
    Reason.DIGIT_VETO: "It carries a number the cited evidence does not carry.",
    Reason.MIXTURE: (
        "It wraps words from the evidence around content the evidence never supplied."
    ),
    Reason.UNSUPPORTED: "Nothing it says comes from the evidence.",
    Reason.READBACK: (
        "Read back clause by clause, one of its claims is not said by any evidence line."
    ),
    Reason.UNVERIFIABLE: "It asserts nothing the evidence can be checked against.",
    Reason.CONTESTED: (
        "The evidence says it, and another line of equal trust says otherwise: the store "
        "disagrees with itself."
    ),
    Reason.NO_CLAIM: (
        "It makes no claim: a search expression or a bare phrase states nothing to check."
    ),
    Reason.BELOW_TRUST: "The only evidence comes from sources below the speaking threshold.",
    Reason.ROLES: (
        "The evidence says it with the roles the other way round (who did what to whom), "
        "or with two of its names in each other's places."
    ),
    Reason.NEGATION: "The evidence says the opposite: one side is negated, the other not.",
    Reason.HOLDER: (
        "The question is about a speaker of the conversation, and none of the lines behind "
        "the answer is that speaker's own or says it of them."
    ),
    Reason.PLAN_DEAD: (
        "The question needs a computation, and no plan could be carried out on values the "
        "store holds."
    ),
}
