"""English's tables for reading clauses: the words that make a clause an obligation, a
permission or a recommendation; that negate it; that quantify a phrase; that put a clause
under a condition or except a phrase from it; that bound it in time; and the verbs under
which a clause is, or is not, asserted."""

from __future__ import annotations

from affidavit.frames.model import Modality, Quantity

# Modal auxiliaries and what they make of the clause they govern.
MODALS: dict[str, Modality] = {
    "must": Modality.OBLIGATION,
    "shall": Modality.OBLIGATION,
    "will": Modality.OBLIGATION,
    "may": Modality.PERMISSION,
    "can": Modality.PERMISSION,
    "might": Modality.PERMISSION,
    "could": Modality.PERMISSION,
    "should": Modality.RECOMMENDATION,
    "ought": Modality.RECOMMENDATION,
}
# "is required to notify", "has to notify": a verb or adjective whose complement clause is
# the act, and what it makes of it. A negated obligation ("is not required to") is read
# from the polarity on the same verb.
MODAL_VERBS: dict[str, Modality] = {
    "require": Modality.OBLIGATION,
    "oblige": Modality.OBLIGATION,
    "obligate": Modality.OBLIGATION,
    "have": Modality.OBLIGATION,  # "has to"
    "need": Modality.OBLIGATION,
    "agree": Modality.OBLIGATION,  # "the Recipient agrees to keep": an undertaking
    "undertake": Modality.OBLIGATION,
    "covenant": Modality.OBLIGATION,
    "bind": Modality.OBLIGATION,  # "is bound to"
    "permit": Modality.PERMISSION,
    "allow": Modality.PERMISSION,
    "entitle": Modality.PERMISSION,
    "authorize": Modality.PERMISSION,
    "authorise": Modality.PERMISSION,
    "free": Modality.PERMISSION,  # "is free to"
    "able": Modality.PERMISSION,
    "encourage": Modality.RECOMMENDATION,
    "recommend": Modality.RECOMMENDATION,
    "advise": Modality.RECOMMENDATION,
}
# "is prohibited from disclosing", "is forbidden to": the act under them is not permitted.
PROHIBITING_VERBS = frozenset({"prohibit", "forbid", "bar", "preclude", "restrict", "prevent"})
# Verbs whose complement clause is asserted with them ("managed to return it": it was
# returned); "fail to", "refuse to", "decline to", "neglect to" assert its negation.
IMPLICATIVE_VERBS = frozenset({"manage", "continue", "proceed", "begin", "start", "remember"})
# "is thought to have originated", "is said to be": the document reports the act as held;
# a claim of the act reads it as the document's word (the hedge is not a negation).
REPORTING_VERBS = frozenset(
    {"think", "believe", "say", "report", "know", "estimate", "consider", "seem", "appear"}
)
NEGATING_VERBS = frozenset({"fail", "refuse", "decline", "neglect", "omit", "cease", "stop"})

# Words that negate the clause they stand in.
NEGATIONS = frozenset({"not", "n't", "never", "neither", "nor"})
# Determiners and pronouns, and the quantity they give a phrase.
QUANTIFIERS: dict[str, Quantity] = {
    "all": Quantity.UNIVERSAL,
    "every": Quantity.UNIVERSAL,
    "each": Quantity.UNIVERSAL,
    "any": Quantity.UNIVERSAL,
    "everything": Quantity.UNIVERSAL,
    "everyone": Quantity.UNIVERSAL,
    "anything": Quantity.UNIVERSAL,
    "anyone": Quantity.UNIVERSAL,
    "some": Quantity.EXISTENTIAL,
    "a": Quantity.EXISTENTIAL,
    "an": Quantity.EXISTENTIAL,
    "certain": Quantity.EXISTENTIAL,
    "several": Quantity.EXISTENTIAL,
    "many": Quantity.EXISTENTIAL,
    "few": Quantity.EXISTENTIAL,
    "no": Quantity.NEGATIVE,
    "none": Quantity.NEGATIVE,
    "nothing": Quantity.NEGATIVE,
    "nobody": Quantity.NEGATIVE,
    "neither": Quantity.NEGATIVE,
    "only": Quantity.RESTRICTIVE,
    "solely": Quantity.RESTRICTIVE,
    "exclusively": Quantity.RESTRICTIVE,
    "just": Quantity.RESTRICTIVE,
}
# The marks of a clause that states a condition ("if", "provided that", "unless").
CONDITIONS = frozenset({"if", "unless", "when", "whenever", "where", "provided", "providing"})
NEGATIVE_CONDITIONS = frozenset({"unless"})
# Prepositions and phrases that except what follows from the clause.
EXCEPTIONS = frozenset({"except", "excepting", "excluding", "but", "save", "besides"})
# Prepositions that bound a clause in time, and the relation each says.
BOUNDS: dict[str, str] = {
    "before": "before",
    "prior": "before",
    "after": "after",
    "following": "after",
    "within": "within",
    "by": "by",
    "until": "by",
    "till": "by",
    "during": "during",
    "on": "on",
    "upon": "on",
}
# Words that make a prepositional phrase a time (so "by the auditor" is an agent, "by 1
# March" a bound).
TIME_WORDS = frozenset(
    {
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "hour",
        "hours",
        "minute",
        "minutes",
        "date",
        "time",
        "termination",
        "expiration",
        "expiry",
        "end",
        "beginning",
        "start",
        "completion",
        "receipt",
        "notice",
        "request",
        "disclosure",
        "effective",
    }
)
# Verbs that say nothing of their own beside a noun that names the act ("make a payment",
# "give notice", "take delivery"): the noun is the predicate.
LIGHT_VERBS = frozenset({"make", "give", "take", "have", "do", "provide", "perform", "conduct"})
# The copula: "is" with an attribute is the attribute's predicate.
COPULAS = frozenset({"be", "become", "remain", "stay", "seem", "appear"})
# Stop words a phrase's words leave out (function words; the quantifiers are read apart).
FUNCTION_WORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "its",
        "their",
        "his",
        "her",
        "our",
        "your",
        "my",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "from",
        "as",
        "and",
        "or",
        "such",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "be",
        "'s",
        "s",
    }
)
