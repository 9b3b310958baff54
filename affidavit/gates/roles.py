"""Who did what to whom: the roles and polarity of a claim against the line that carries it.
A bag of words cannot tell "Tom Hale taught Anna Berg" from "Anna Berg taught Tom Hale",
nor "The museum was finished" from "The museum was never finished"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

from affidavit.gates.case import Case, Judgement
from affidavit.gates.decision import Gate, GateDecision
from affidavit.gates.places import names_traded
from affidavit.reasons import Reason
from affidavit.text import LONGEST_PARSED, Analyzer, analyzer_for, fold, parsed, words

SWAPPED, NEGATION = "roles", "negation"

_SUBJECTS = frozenset({"nsubj", "csubj"})
_PASSIVE_SUBJECTS = frozenset({"nsubjpass", "csubjpass"})
_OBJECTS = frozenset({"dobj", "obj", "attr"})
# A pronoun fills a role as well as a name ("He wrote several treatises"), in either case.
_PRONOUNS = {
    "he": "he",
    "him": "he",
    "she": "she",
    "her": "she",
    "it": "it",
    "they": "they",
    "them": "they",
    "we": "we",
    "us": "we",
    "i": "i",
    "me": "i",
    "you": "you",
}
_PHRASE_PARTS = frozenset(
    {"compound", "amod", "flat", "poss", "nmod", "appos", "nummod", "prep", "pobj"}
)
# A claim needs a subject, a verb and something more to have roles worth reading.
_FEWEST_WORDS = 3
_BE_HAVE = {
    "is": "be",
    "are": "be",
    "was": "be",
    "were": "be",
    "am": "be",
    "been": "be",
    "being": "be",
    "be": "be",
    "has": "have",
    "had": "have",
    "have": "have",
    "having": "have",
    "does": "do",
    "did": "do",
    "do": "do",
}
_NEGATORS = frozenset({"not", "n't", "never", "no"})
# Verbs whose complement did not happen: "failed to finish", "refused to sign".
_NOT_DONE = frozenset(
    "fail fails failed failing refuse refuses refused refusing decline declines declined "
    "declining neglect neglects neglected neglecting".split()
)


@dataclass(frozen=True, slots=True)
class Predication:
    """A verb of the English dependency parse with its roles: the verb (stemmed, irregular
    forms to their base), its agent (the active subject, or the passive's "by" phrase),
    its patient (the active object, or the passive subject) and whether it is negated."""

    verb: str
    agent: frozenset[str]
    patient: frozenset[str]
    negated: bool
    # The words of the name filling each role, when a proper noun fills it: "Carl Kim"
    # ({carl, kim}), not "the class"; "Harold II of Normandy" is {harold}.
    agent_name: frozenset[str] = frozenset()
    patient_name: frozenset[str] = frozenset()
    # What the clause is said to be with, and without ("left without the trophy").
    having: frozenset[str] = frozenset()
    lacking: frozenset[str] = frozenset()

    def agrees_in_polarity(self, other: Predication) -> bool:
        """Both negated or neither, and neither with what the other is without."""
        return (
            self.negated == other.negated
            and not self.having & other.lacking
            and not self.lacking & other.having
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "verb": self.verb,
            "agent": sorted(self.agent),
            "patient": sorted(self.patient),
            "negated": self.negated,
        }


def predications(text: str, analyzer: Analyzer) -> tuple[Predication, ...]:
    """The predications of an English text (none for other languages)."""
    return _read(text, analyzer)[0]


def _parsed_verbs(text: str, analyzer: Analyzer) -> frozenset[str]:
    """The stems of every word the parse reads as a verb, roles or not ("exacerbated"
    in "The crisis exacerbated price controls" misread as a noun phrase)."""
    return _read(text, analyzer)[1]


def _read(text: str, analyzer: Analyzer) -> tuple[tuple[Predication, ...], frozenset[str]]:
    if analyzer.language != "en" or len(text) > LONGEST_PARSED:
        return (), frozenset()
    return _reading(text, analyzer.language)


@lru_cache(maxsize=8192)
def _reading(text: str, language: str) -> tuple[tuple[Predication, ...], frozenset[str]]:
    """The predications of ``text`` and the stems of every word parsed as a verb."""
    analyzer = analyzer_for(language)
    doc = parsed(text)
    verbs = frozenset(_verb_stem(t, analyzer) for t in doc if t.pos_ == "VERB")
    found = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or (verb.pos_ == "AUX" and verb.dep_ == "aux"):
            continue
        if verb.dep_ in ("aux", "auxpass"):
            continue
        agent: frozenset[str] = frozenset()
        patient: frozenset[str] = frozenset()
        agent_name: frozenset[str] = frozenset()
        patient_name: frozenset[str] = frozenset()
        for child in verb.children:
            if child.dep_ in _SUBJECTS:
                agent, agent_name = _phrase_terms(child, analyzer), _name_words(child)
            elif child.dep_ in _PASSIVE_SUBJECTS:
                patient, patient_name = _phrase_terms(child, analyzer), _name_words(child)
            elif child.dep_ in _OBJECTS and not patient:
                patient, patient_name = _phrase_terms(child, analyzer), _name_words(child)
            elif child.dep_ == "agent":  # "by the company"
                agent = frozenset().union(*(_phrase_terms(g, analyzer) for g in child.children))
                agent_name = frozenset().union(*(_name_words(g) for g in child.children))
        if not agent and not patient:
            continue
        stem = _verb_stem(verb, analyzer)
        having, lacking = _with_and_without(verb, analyzer)
        found.append(
            Predication(
                stem,
                agent,
                patient,
                _is_negated(verb),
                agent_name,
                patient_name,
                having,
                lacking,
            )
        )
    return tuple(found), verbs


def _verb_stem(verb: Token, analyzer: Analyzer) -> str:
    """The verb's index term, or the word itself for a stop word ("is", "had" -> "have")."""
    word = verb.lower_
    return analyzer.term(word) or _BE_HAVE.get(word, word)


def _verb_terms(text: str, analyzer: Analyzer) -> set[str]:
    """Every form a verb of ``text`` is compared by: index terms, and the words the index
    drops as stop words, "is" and "had" as "be" and "have" (as ``_verb_stem`` reads them)."""
    return set(analyzer.terms(text)) | {_BE_HAVE.get(w, w) for w in words(text, analyzer.language)}


def _phrase_terms(head: Token, analyzer: Analyzer) -> frozenset[str]:
    """The content terms of a noun phrase: the head with its modifiers, not its clauses."""
    tokens = [head]
    stack = [head]
    while stack:
        token = stack.pop()
        for child in token.children:
            if child.dep_ in _PHRASE_PARTS:
                tokens.append(child)
                stack.append(child)
    terms = (
        (_PRONOUNS.get(t.lower_) if t.tag_ == "PRP" else None) or analyzer.term(t.lower_)
        for t in tokens
    )
    return frozenset(t for t in terms if t and not t[0].isdigit())


_ROMAN = re.compile(r"^[ivxlcdm]+$")


def _name_words(head: Token) -> frozenset[str]:
    """The words of the name a proper-noun head makes with its compounds ("Duke William
    II" -> {duke, william}): a regnal number or a title's "of Normandy" is shared by too
    many names to tell them apart. Empty when the head is not a proper noun."""
    if head.pos_ != "PROPN":
        return frozenset()
    parts = [head, *(c for c in head.children if c.dep_ in ("compound", "flat"))]
    words = frozenset(
        t.lower_
        for t in parts
        if t.pos_ == "PROPN" and len(t.text) > 2 and not _ROMAN.match(t.lower_)
    )
    return words or frozenset({head.lower_})


def _is_negated(verb: Token) -> bool:
    """A negation on the verb or its auxiliaries ("was never finished", "did not buy"), or
    a verb that says its complement did not happen ("failed to finish")."""
    if _negators(verb):
        return True
    if verb.dep_ != "xcomp":
        return False
    # "did not fail to finish" is finished: the two negations cancel.
    return _is_negated(verb.head) != (verb.head.lower_ in _NOT_DONE)


def _negators(verb: Token) -> list[Token]:
    """The words negating ``verb`` itself ("not", "never", "n't")."""
    return [c for c in verb.children if c.dep_ == "neg" or c.lower_ in _NEGATORS]


def _with_and_without(verb: Token, analyzer: Analyzer) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of what the verb's clause is said to be with, and to be without ("left
    without the trophy"): a claim with what its line is without says the opposite."""
    found: dict[str, set[str]] = {"with": set(), "without": set()}
    for child in verb.children:
        if child.dep_ == "prep" and child.lower_ in found:
            for part in child.children:
                if part.dep_ == "pobj":
                    found[child.lower_].update(_phrase_terms(part, analyzer))
    return frozenset(found["with"]), frozenset(found["without"])


def conflict(claim: str, line: str, analyzer: Analyzer, sentence: str | None = None) -> str | None:
    """``roles`` or ``negation`` when the line says the claim's verb with its roles swapped
    or its polarity reversed, and never says it the claim's way; None otherwise.

    ``sentence`` is the whole sentence the claim was cut from: it is parsed whole (a
    clause cut out of it parses worse) and its predications whose verb the claim writes
    are the claim's. They are checked against the line's predications of the same verb:

    - the same roles (in either voice) and the same polarity: the claim stands;
    - the agent where the line has the patient and the patient where it has the agent, or
      a role both fill with a name holding another name ("Carl Kim taught Anna Berg"
      against "Tom Hale taught Anna Berg while Carl Kim watched"): ``roles``;
    - the same roles with the other polarity (``_is_negated``, ``_with_and_without``):
      ``negation``;
    - two names of the line each put where the other stands, in a role or a modifier ("a
      close US ally"): ``roles`` (places.py);
    - a claim the parser misreads, so that no role of the line's verb shows: its words on
      either side of the verb are read instead (``_written_the_other_way``);
    - no predication of that verb in the line (a paraphrase, another verb): None, and the
      read-back's other tests decide. Spanish and Turkish have no parser installable
      here, so their roles are not read (the audit says so).
    """
    if len(claim.split()) < _FEWEST_WORDS:
        return None  # "Fixed Price", "Dana Okafor": a bare answer has no roles to swap
    if fold(claim.strip().rstrip("."), analyzer.language) in fold(line, analyzer.language):
        return None  # the line's own words, in its order: its roles by construction
    # A clause cut out of a sentence may hold one of two names that traded places, or
    # half of what a verb's roles were: both are read on the whole sentence.
    whole = sentence or claim
    if names_traded(whole, line, analyzer):
        return SWAPPED
    claim_verbs = _verb_terms(claim, analyzer)
    if sentence:
        claimed = tuple(p for p in predications(sentence, analyzer) if p.verb in claim_verbs)
    else:
        claimed = predications(claim, analyzer)
    # Parse the line only when it writes one of the claim's verbs ("is" and "have" are
    # stop words to the index, and verbs here): one with roles, or one the parse read
    # as a verb without them (a misread claim, below).
    written = _verb_terms(line, analyzer)
    verbs = _parsed_verbs(whole, analyzer) & claim_verbs & written
    if not verbs and not any(p.verb in written for p in claimed):
        return None  # a bare answer, or a verb the line does not write: nothing to compare
    said = predications(line, analyzer)
    for told in said:
        # A claim whose parse does not show the line's roles of a verb may be one the
        # parser misread ("The crisis in the US exacerbated price controls" read as a
        # noun phrase): its word order around the verb still tells.
        if told.verb in verbs and not any(
            asked.verb == told.verb and _same_roles(asked, told) for asked in claimed
        ):
            if _written_the_other_way(whole, told, analyzer):
                return SWAPPED
    found: str | None = None
    for asked in claimed:
        same_verb = [p for p in said if p.verb == asked.verb]
        if not same_verb:
            continue
        if any(_same_roles(asked, p) and asked.agrees_in_polarity(p) for p in same_verb):
            continue
        if any(_same_roles(asked, p) for p in same_verb):
            found = found or NEGATION
        elif any(_swapped(asked, p) or _another_name(asked, p) for p in same_verb):
            found = found or SWAPPED
    return found


def _written_the_other_way(claim: str, told: Predication, analyzer: Analyzer) -> bool:
    """Does the claim write the line's patient where its voice puts the agent, and the
    agent where it puts the patient, around the one place it writes the verb?

    Active ("The crisis exacerbated price controls" against "Price controls exacerbated
    the crisis"): the patient's words before the verb, the agent's after it and none
    before. Passive (a form of "be" just before the verb, or "by" before the agent's
    words after it): the agent's words before, the patient's after and none before."""
    agent_only, patient_only = told.agent - told.patient, told.patient - told.agent
    if not agent_only or not patient_only:
        return False
    tokens = words(claim, analyzer.language)
    terms = [analyzer.term(w) for w in tokens]
    places = [i for i, w in enumerate(tokens) if (terms[i] or _BE_HAVE.get(w, w)) == told.verb]
    if len(places) != 1:
        return False  # the verb twice (or not at all): no one place to read around
    (verb,) = places
    before = {t for t in terms[:verb] if t}
    after = {t for t in terms[verb + 1 :] if t}
    first_agent = next((i for i, t in enumerate(terms) if i > verb and t in agent_only), None)
    by_before_agent = first_agent is not None and "by" in tokens[verb + 1 : first_agent]
    auxiliary = any(_BE_HAVE.get(w) == "be" for w in tokens[max(0, verb - 2) : verb])
    passive = by_before_agent or (auxiliary and "by" in tokens[verb + 1 :])
    first, second = (agent_only, patient_only) if passive else (patient_only, agent_only)
    return first <= before and second <= after and not second & before


def _same_roles(asked: Predication, said: Predication) -> bool:
    """Every role both fill shares a word (a name word, when both fill it with a name),
    and at least one such role exists."""
    pairs = [
        (a_name & s_name if a_name and s_name else a & s)
        for a, s, a_name, s_name in (
            (asked.agent, said.agent, asked.agent_name, said.agent_name),
            (asked.patient, said.patient, asked.patient_name, said.patient_name),
        )
        if a and s
    ]
    return bool(pairs) and all(pairs)


def _another_name(asked: Predication, said: Predication) -> bool:
    """A role both name with different names ("Carl Kim taught" against "Tom Hale
    taught"): the claim puts another entity in the line's role."""
    return bool(
        asked.agent_name and said.agent_name and not asked.agent_name & said.agent_name
    ) or bool(
        asked.patient_name and said.patient_name and not asked.patient_name & said.patient_name
    )


def _swapped(asked: Predication, said: Predication) -> bool:
    """The claim's agent is the line's patient, or its patient the line's agent, and no
    role shares a word the right way round ("England conquered" against "William
    conquered England": England is no agent there)."""
    straight = asked.agent & said.agent or asked.patient & said.patient
    if straight:
        return False
    return bool(asked.agent & said.patient and not said.agent & asked.agent) or bool(
        asked.patient & said.agent and not said.patient & asked.patient
    )


def slot_said_not_so(case: Case, found: Judgement) -> GateDecision | None:
    """An answer to a question that asks of what is so is not a phrase its line says is
    not so. Asked "From which code may errors be logged?", the line "Do not log errors
    from "library" code, only do so from "main program" code." answers "main program"
    code, never "library" code: in some line it cites, the clause holding the answer (the
    nearest verb above it in the line's parse) is not negated outside the answer. A
    question that asks of what is not so ("What may not be used…", "What is excluded?")
    is left alone, as is a language without a parser."""
    asked = case.question
    if asked is None or not case.cites or asked.negative or asked.language != "en":
        return None
    answer = case.text.strip()
    denied = None
    for at in case.cites:
        line = case.lines[at].text
        start = line.find(answer) if answer and len(line) <= LONGEST_PARSED else -1
        if start < 0:
            continue
        verb = _denying_verb(line, start, start + len(answer))
        if verb is None:
            return None  # a cited line says it is so
        denied = verb
    if denied is None:
        return None
    return GateDecision(
        gate=Gate.POLARITY,
        passed=False,
        reason=Reason.NEGATION.value,
        detail=f"every line cited says {denied!r} of {answer!r} is not so",
    )


def _denying_verb(line: str, start: int, end: int) -> str | None:
    """The negated verb of the clause holding ``line[start:end]``, when its negation
    stands outside that span; None when the clause says it is so."""
    span = parsed(line).char_span(start, end, alignment_mode="expand")
    verb = _clause_verb(span.root) if span is not None else None
    if span is None or verb is None or not _is_negated(verb):
        return None
    if all(span.start <= c.i < span.end for c in _negators(verb)):
        return None  # the answer says the "not" itself
    if _bounds_the_denial(span.root, verb):
        return None
    return verb.text


# "Not ... until X" says X is when it came to be: "did not recover until the 17th century"
# answers when it recovered. (A length of time under "not ... for" is left denied: "not
# improved on for three hundred years" says how long it took, "does not apply for three
# years" how long it does not apply.)
_UNTIL = frozenset({"until", "till", "til"})


def _bounds_the_denial(token: Token, verb: Token) -> bool:
    """Does the answer stand under "until" below the negated verb, the time the denial
    lasts up to, rather than in what it denies?"""
    while token.i != verb.i and token.head.i != token.i:
        if token.lower_ in _UNTIL:
            return True
        token = token.head
    return False


def _clause_verb(token: Token) -> Token | None:
    """The verb of the clause ``token`` stands in: itself or the nearest above it."""
    while token.pos_ not in ("VERB", "AUX"):
        if token.head.i == token.i:  # the root heads itself (a new Token object each read)
            return None
        token = token.head
    return token
