"""Clause frames read from a sentence's parse (frames/parse.py): each clause's predicate,
its arguments by role with the voice undone, and what bends it — negation, modality, the
quantity of each phrase, the conditions it holds under, the phrases it excepts, its time
bounds, and whether the sentence asserts it at all.

The reading follows the dependency tree: an active subject is the agent and a passive one
the patient; "by" in a passive is the agent; a relative clause's missing argument is the
noun it qualifies; a verb coordinated with another shares its subject and its modal; a
verb of obligation or permission ("is required to notify", "agrees to keep", "is
prohibited from disclosing") gives its modality to the act it governs; a verb that does
not assert its complement ("is intended to store", "wishes to disclose") leaves that act
embedded: said, not asserted."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spacy.tokens import Token

from affidavit.frames.anchors import anchors_in
from affidavit.frames.english import (
    BOUNDS,
    CONDITIONS,
    COPULAS,
    EXCEPTIONS,
    FUNCTION_WORDS,
    IMPLICATIVE_VERBS,
    MODAL_VERBS,
    MODALS,
    NEGATING_VERBS,
    NEGATIONS,
    NEGATIVE_CONDITIONS,
    PROHIBITING_VERBS,
    QUANTIFIERS,
    REPORTING_VERBS,
    TIME_WORDS,
)
from affidavit.frames.model import Argument, Bound, Frame, Modality, Quantity, Role
from affidavit.frames.parse import parsed_for_frames
from affidavit.frames.terms import NO_TERMS, DefinedTerms
from affidavit.text import carried_numbers

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_CLAUSES = frozenset({"ROOT", "conj", "relcl", "advcl", "ccomp", "acl", "xcomp", "parataxis"})
# Verbs whose "that" clause the sentence asserts ("agrees that it shall keep", "ensure that
# it is kept", "Regulation III-52.4 says a permit is valid": a document's rules are said in
# its sources' words); under any other verb ("believes that", "asks whether") it is only
# said.
_ASSERTING = frozenset(
    "agree acknowledge confirm represent warrant certify ensure understand note provide "
    "stipulate covenant undertake declare state know recognize recognise say specify "
    "require indicate show establish mean".split()
)
# A clause is cut short at these: what a phrase says inside them is another clause's.
_OWN_CLAUSE = frozenset({"relcl", "acl", "advcl", "ccomp", "xcomp", "punct", "cc", "prep"})


@dataclass(frozen=True, slots=True)
class _Mood:
    """What a clause's auxiliaries and governing verbs make of its act."""

    modality: Modality = Modality.FACT
    negated: bool = False
    embedded: bool = False


def read_frames(text: str, terms: DefinedTerms = NO_TERMS) -> tuple[Frame, ...]:
    """The clause frames ``text`` says, in the order of their verbs; conditions are read
    into the frame they bound, not listed apart. Empty when ``text`` cannot be parsed."""
    doc = parsed_for_frames(text)
    if doc is None:
        return ()
    frames = []
    for token in doc:
        if not _heads_a_clause(token) or _is_bound_clause(token):
            continue
        governor = token.head.head if token.dep_ == "pcomp" else token.head
        if token.dep_ in ("xcomp", "pcomp") and _governs_its_act(governor):
            continue  # read with its governing verb ("required to notify": notify)
        frames.append(_frame(token, terms))
    return tuple(frames)


def _heads_a_clause(token: Token) -> bool:
    if token.dep_ == "pcomp" and token.head.lower_ == "from":
        return _governs_its_act(token.head.head)
    if token.dep_ not in _CLAUSES:
        return False
    if token.pos_ in ("VERB", "AUX"):
        return token.dep_ != "conj" or token.head.pos_ in ("VERB", "AUX")
    return token.dep_ == "ROOT"  # a verbless line ("Term: five years") is one frame


def _governs_its_act(token: Token) -> bool:
    """Is ``token`` a verb of obligation, permission or implication whose act (its xcomp)
    carries the frame instead ("is required to notify": notify)?"""
    return token.lemma_.lower() in _MODALISING and _act_of(token) is not None


_MODALISING = (
    frozenset(MODAL_VERBS)
    | PROHIBITING_VERBS
    | IMPLICATIVE_VERBS
    | NEGATING_VERBS
    | REPORTING_VERBS
)


def _act_of(governor: Token) -> Token | None:
    """The act a governing verb governs: its infinitive ("required to notify") or, after
    "from", its gerund ("prohibited from disclosing")."""
    for child in governor.children:
        if child.dep_ == "xcomp" and child.pos_ in ("VERB", "AUX"):
            return child
        if child.dep_ == "prep" and child.lower_ == "from":
            gerund = next((c for c in child.children if c.dep_ == "pcomp"), None)
            if gerund is not None:
                return gerund
    return None


def _is_bound_clause(token: Token) -> bool:
    """A condition or a time clause ("if it is damaged", "before he has accepted") is read
    into the frame it bounds."""
    return token.dep_ == "advcl" and _clause_mark(token) in (CONDITIONS | frozenset(BOUNDS))


def _clause_mark(clause: Token) -> str:
    for child in clause.children:
        if child.dep_ == "mark" or (child.dep_ == "advmod" and child.lower_ in CONDITIONS):
            return child.lower_
    return ""


def _frame(token: Token, terms: DefinedTerms) -> Frame:
    """The frame of the clause ``token`` heads: through any governing verbs to its act."""
    act, mood, subject_from = token, _own_mood(token), token
    subject = _subject(token)
    if subject is not None and _quantity(subject) is Quantity.NEGATIVE:
        # "No employee shall disclose", "no one is required to": every one, not so.
        mood = replace(mood, negated=not mood.negated)
    act, mood = _through_governors(act, mood)
    infinitive = any(c.dep_ == "aux" and c.lower_ == "to" for c in token.children)
    if token.dep_ == "xcomp" and infinitive and not _governs_its_act(token.head):
        mood = replace(mood, embedded=True)  # "is intended to store": said, not asserted
        subject_from = token.head
    if token.dep_ == "ccomp" and token.head.lemma_.lower() not in _ASSERTING:
        mood = replace(mood, embedded=True)
    if token.dep_ == "conj" and mood.modality is Modality.FACT and not _has_aux(token):
        first = token.head
        while first.dep_ == "conj":
            first = first.head
        shared = _frame_mood(first)
        # "may not remove or alter": the second verb is forbidden as the first is.
        mood = _Mood(shared.modality, shared.negated != mood.negated, shared.embedded)
    arguments = _arguments(act, token, subject_from, terms)
    negated = mood.negated
    folded = []
    for argument in arguments:
        if argument.quantity is Quantity.NEGATIVE and argument.role is not Role.OBLIQUE:
            # "shall disclose nothing", "no employee may": the act negated of every one
            # (a negative subject is folded into the mood above, before any governor).
            if subject is None or argument.text != _argument(subject, argument.role, terms).text:
                negated = not negated
            argument = replace(argument, quantity=Quantity.UNIVERSAL)
        folded.append(argument)
    return Frame(
        predicate=_predicate(act),
        arguments=tuple(a for a in folded if a.role is not None),
        text=" ".join(t.text for t in _clause_tokens(act)),
        negated=negated,
        modality=mood.modality,
        conditions=tuple(_conditions(token, act, terms)),
        exceptions=tuple(_exceptions(act, terms)),
        bounds=tuple(_bounds(act, token, terms)),
        embedded=mood.embedded,
        anchors=tuple(sorted({a for arg in folded for a in arg.anchors})),
    )


def _frame_mood(token: Token) -> _Mood:
    """The mood of the frame ``token`` heads, through its governing verbs."""
    return _through_governors(token, _own_mood(token))[1]


def _through_governors(act: Token, mood: _Mood) -> tuple[Token, _Mood]:
    """From a verb of obligation, permission or implication down to the act it governs
    ("is required to notify": notify), the mood composed at each step."""
    while _governs_its_act(act):
        governed = _act_of(act)
        assert governed is not None
        mood = _governed_mood(act, mood, _own_mood(governed))
        act = governed
    return act, mood


def _has_aux(token: Token) -> bool:
    return any(c.dep_ in ("aux", "auxpass") for c in token.children)


def _own_mood(token: Token) -> _Mood:
    """The modality and negation ``token``'s own auxiliaries and adverbs give it: "must
    not", "may not" and "cannot" forbid (an obligation not to), "need not" waives (a
    permission not to)."""
    modality, negated = Modality.FACT, False
    for child in token.children:
        word = child.lower_
        if child.dep_ == "aux" and word in MODALS:
            modality = MODALS[word]
        elif child.dep_ == "neg" or (child.dep_ == "advmod" and word in NEGATIONS):
            negated = True
        elif child.dep_ == "aux" and word == "need":
            modality = Modality.OBLIGATION
    if negated and modality is Modality.PERMISSION:
        modality = Modality.OBLIGATION  # "may not disclose": must not
    elif negated and any(c.lower_ == "need" for c in token.children if c.dep_ == "aux"):
        modality = Modality.PERMISSION  # "need not return": may not return it
    return _Mood(modality, negated)


def _governed_mood(governor: Token, outer: _Mood, inner: _Mood) -> _Mood:
    """The mood an act takes from the verb governing it: "is (not) required to", "is
    permitted to", "is prohibited from", "fails to", "manages to"."""
    lemma = governor.lemma_.lower()
    negated = inner.negated
    if lemma in NEGATING_VERBS:
        return _Mood(outer.modality, outer.negated != (not negated), outer.embedded)
    if lemma in IMPLICATIVE_VERBS or lemma in REPORTING_VERBS:
        return _Mood(outer.modality, outer.negated != negated, outer.embedded)
    if lemma in PROHIBITING_VERBS:
        # Prohibited: an obligation not to; not prohibited: a permission to.
        if outer.negated:
            return _Mood(Modality.PERMISSION, negated, outer.embedded)
        return _Mood(Modality.OBLIGATION, not negated, outer.embedded)
    said = MODAL_VERBS[lemma]
    if not outer.negated:
        strongest = said if outer.modality is Modality.FACT else outer.modality
        if said is Modality.OBLIGATION and outer.modality is Modality.PERMISSION:
            strongest = Modality.PERMISSION  # "may be required to": not an obligation
        return _Mood(strongest, negated, outer.embedded)
    if said is Modality.OBLIGATION:
        return _Mood(Modality.PERMISSION, not negated, outer.embedded)  # not required to
    if said is Modality.PERMISSION:
        return _Mood(Modality.OBLIGATION, not negated, outer.embedded)  # not permitted to
    return _Mood(said, not negated, outer.embedded)


def _predicate(act: Token) -> str:
    """The act's name: the verb's lemma with its particle ("set up"), or for a copula the
    word it links to ("is responsible" → responsible)."""
    lemma = _lemma(act)
    if lemma in COPULAS:
        attribute = next((c for c in act.children if c.dep_ in ("acomp", "attr")), None)
        if attribute is not None and attribute.pos_ in ("ADJ", "VERB"):
            return _lemma(attribute)
        return "be"
    particle = next((c for c in act.children if c.dep_ == "prt"), None)
    return f"{lemma} {particle.lower_}" if particle is not None else lemma


def _lemma(token: Token) -> str:
    if token.tag_ == "NNP" and " " in token.text:
        return token.lower_  # a merged name is its own lemma
    return (token.lemma_ or token.text).lower()


def _arguments(act: Token, head: Token, subject_from: Token, terms: DefinedTerms) -> list[Argument]:
    """The act's arguments by role, with the subject looked for up its chain of governing
    and coordinated verbs, and a relative clause's noun in its missing place."""
    passive = _passive(act)
    found: list[Argument] = []
    subject = _subject(act) or _subject(head) or _inherited_subject(head, subject_from)
    # "is valid for one shift", "is responsible for the audit": the adjective's phrases are
    # the clause's.
    attribute = [c for c in act.children if c.dep_ == "acomp" and _lemma(act) in COPULAS]
    for child in [*act.children, *(p for a in attribute for p in a.children if p.dep_ == "prep")]:
        dep = child.dep_
        if dep in ("dobj", "obj") or (dep == "attr" and _lemma(act) not in COPULAS):
            found.append(_argument(child, Role.PATIENT, terms))
        elif dep == "dative":
            found.append(_argument(_object_of(child), Role.RECIPIENT, terms))
        elif dep in ("attr", "acomp", "oprd") and _lemma(act) in COPULAS:
            if child.pos_ not in ("ADJ", "VERB"):
                found.append(_argument(child, Role.ATTRIBUTE, terms))
        elif dep == "agent":
            found.append(_argument(_object_of(child), Role.AGENT, terms))
        elif dep == "prep" and child.lower_ not in EXCEPTIONS and not _is_bound(child):
            found.append(_oblique(child, terms))
        elif dep == "ccomp":
            found.append(_argument(child, Role.CLAUSE, terms))
        elif dep == "advmod" and _is_manner(child):
            found.append(_argument(child, Role.MANNER, terms))
        elif dep == "npadvmod" and child.pos_ in ("NOUN", "PROPN") and not _has_object(act):
            found.append(_argument(child, Role.PATIENT, terms))  # a misparsed object
    if not _has_object(act) and not passive:
        # "remove or alter the substance": the object written once, after the last verb.
        for verb in act.children:
            if verb.dep_ == "conj" and verb.pos_ == "VERB" and _subject(verb) is None:
                shared = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
                if shared is not None:
                    found.append(_argument(shared, Role.PATIENT, terms))
                    break
    if subject is not None:
        role = Role.PATIENT if passive else Role.AGENT
        if passive and _has_object(act):
            role = Role.RECIPIENT  # "You are granted a license": you receive it
        if subject.lower_ in ("that", "which", "who", "whom") and head.dep_ == "relcl":
            subject = head.head
        found.insert(0, _argument(subject, role, terms))
    elif head.dep_ in ("relcl", "acl") and head.head.pos_ in ("NOUN", "PROPN", "PRON"):
        # "the notices that You distribute": the noun is what the clause lacks.
        role = Role.AGENT if head.tag_ == "VBG" else Role.PATIENT
        if not any(a.role is role for a in found):
            found.insert(0, _argument(head.head, role, terms))
    for argument in list(found):
        if argument.head in ("that", "which", "whom") and head.dep_ == "relcl":
            found.remove(argument)
            found.append(replace(_argument(head.head, argument.role, terms)))
    return found


def _passive(verb: Token) -> bool:
    """Is ``verb`` passive, or a subjectless conjunct of a passive ("was agreed or
    negotiated")?"""
    if any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children):
        return True
    return (
        verb.dep_ == "conj"
        and _subject(verb) is None
        and verb.tag_ == "VBN"
        and _passive(verb.head)
    )


# Adverbs that say how often or how an act is done, beside those in -ly.
_MANNER = frozenset({"often", "seldom", "sometimes", "always", "once", "twice", "annually"})
# Adverbs in -ly that frame a sentence rather than say how its act is done.
_NOT_MANNER = frozenset(
    {"only", "solely", "exclusively", "merely", "simply", "early", "likely", "really",
     "generally", "usually", "currently", "accordingly", "additionally", "finally", "namely"}
)  # fmt: skip


def _is_manner(adverb: Token) -> bool:
    word = adverb.lower_
    return word not in _NOT_MANNER and (word in _MANNER or (word.endswith("ly") and len(word) > 4))


def _has_object(verb: Token) -> bool:
    return any(c.dep_ in ("dobj", "obj") for c in verb.children)


def _subject(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ in _SUBJECTS and c.dep_ != "expl"), None)


def _inherited_subject(head: Token, subject_from: Token) -> Token | None:
    """A subject written once for several verbs: the first conjunct's ("must retain and
    keep"), or the governing verb's ("agrees to keep", "is intended to store")."""
    at = head
    for _ in range(6):
        if at.dep_ in ("conj", "xcomp") or at is subject_from:
            at = at.head
            found = _subject(at)
            if found is not None:
                return found
            if at.dep_ == "ROOT":
                break
        else:
            break
    return None


def _object_of(preposition: Token) -> Token:
    return next((c for c in preposition.children if c.dep_ in ("pobj", "pcomp")), preposition)


def _is_bound(preposition: Token) -> bool:
    """Does this preposition bound the act in time ("within 30 days", "by 1 March", "prior
    to disclosure")? "by the auditor" names an agent, "on the server" a place."""
    word = preposition.lower_
    if word not in BOUNDS:
        return False
    phrase = _object_of(preposition)
    words = {t.lower_ for t in phrase.subtree} | {_lemma(t) for t in phrase.subtree}
    return (
        bool(words & TIME_WORDS)
        or any(t.like_num for t in phrase.subtree)
        or word in ("before", "after", "prior", "within", "until", "following", "during")
    )


def _oblique(preposition: Token, terms: DefinedTerms) -> Argument:
    marker = preposition.lower_
    filler = _object_of(preposition)
    role = Role.RECIPIENT if marker == "to" and filler.pos_ in ("PROPN", "PRON") else Role.OBLIQUE
    argument = _argument(filler, role, terms)
    negated = marker == "without"
    return replace(argument, marker="" if role is Role.RECIPIENT else marker, negated=negated)


def _argument(token: Token, role: Role, terms: DefinedTerms) -> Argument:
    """The phrase ``token`` heads, in ``role``: its head (a defined term's one name), its
    content words, its quantity, anchors and numbers."""
    excepted = {t.i for e in _excepted_phrases(token) for t in e.subtree}
    # A time bound read onto the noun ("the training within 30 days") bounds the act.
    excepted |= {
        t.i for c in token.children if c.dep_ == "prep" and _is_bound(c) for t in c.subtree
    }
    tokens = [t for t in token.subtree if not t.is_punct and t.i not in excepted]
    text = " ".join(t.text for t in tokens)
    head = terms.canonical(_lemma(token))
    words = frozenset(
        terms.canonical(_lemma(t))
        for t in tokens
        if _lemma(t) not in FUNCTION_WORDS and _lemma(t) not in QUANTIFIERS
    )
    return Argument(
        role=role,
        head=head,
        words=words | {head},
        text=text,
        comparison=comparison_of(text),
        quantity=_quantity(token),
        anchors=tuple(a.key for a in anchors_in(text)),
        values=tuple(sorted(carried_numbers(text))),
    )


_COMPARISONS = (
    (re.compile(r"\b(?:no|not)\s+(?:more|greater|higher)\s+than\b|\bat\s+most\b|\bup\s+to\b"
                r"|\bor\s+(?:less|fewer|lower)\b|\bmaximum\s+of\b", re.I), "le"),
    (re.compile(r"\b(?:no|not)\s+(?:less|fewer|lower)\s+than\b|\bat\s+least\b"
                r"|\bor\s+(?:more|greater|higher|longer)\b|\bminimum\s+of\b", re.I), "ge"),
    (re.compile(r"\b(?:more|greater|higher|longer)\s+than\b|\bover\b|\babove\b|\bexceed",
                re.I), "gt"),
    (re.compile(r"\b(?:less|fewer|lower|shorter)\s+than\b|\bunder\b|\bbelow\b", re.I), "lt"),
)  # fmt: skip


def comparison_of(text: str) -> str:
    """How a phrase's number compares ("more than 64 bits": gt; "30 minutes or more": ge),
    "" when it names no number or names it alone."""
    if not any(ch.isdigit() for ch in text) and not carried_numbers(text):
        return ""
    return next((kind for pattern, kind in _COMPARISONS if pattern.search(text)), "")


def _quantity(token: Token) -> Quantity:
    """How much of what ``token`` names its phrase speaks of: its determiner's quantity,
    an "only" before it, or the pronoun's own ("none", "everything")."""
    if token.lower_ in QUANTIFIERS and token.pos_ in ("PRON", "DET", "NOUN"):
        return QUANTIFIERS[token.lower_]
    for child in [*_preceding_only(token), *token.children]:
        said = QUANTIFIERS.get(child.lower_)
        if (
            said is not None
            and child.dep_
            in ("det", "predet", "amod", "advmod", "nummod", "quantmod", "nsubj", "dobj", "pobj")
            or (said is not None and child.i < token.i and child.dep_ == "advmod")
        ):
            return said
    return Quantity.UNMARKED


def _excepted_phrases(token: Token) -> list[Token]:
    """The phrases an "except" or "other than" under ``token`` excepts."""
    found = []
    for child in token.children:
        if child.dep_ == "prep" and child.lower_ in EXCEPTIONS and child.lower_ != "but":
            found.append(child)
        elif (
            child.lower_ == "other"
            and child.i + 1 < len(child.doc)
            and child.nbor(1).lower_ == "than"
        ):
            found.append(child)
    return found


def _preceding_only(token: Token) -> list[Token]:
    """An "only" before a phrase is often parsed onto the verb ("only the IT manager may"):
    the word just before the phrase's first word counts as the phrase's."""
    first = token.left_edge
    if first.i > 0 and first.nbor(-1).lower_ in ("only", "solely", "exclusively"):
        return [first.nbor(-1)]
    return []


def _clause_tokens(act: Token) -> list[Token]:
    return sorted(
        [act, *(t for c in act.children if c.dep_ not in _OWN_CLAUSE for t in c.subtree)],
        key=lambda t: t.i,
    )


def _conditions(head: Token, act: Token, terms: DefinedTerms) -> list[Frame]:
    """The conditions the clause holds under: "if", "unless" (read as "if not"), "when",
    "where", "provided that" clauses of its verb or its governing verb."""
    found = []
    for verb in {head, act}:
        for child in verb.children:
            if child.dep_ != "advcl":
                continue
            mark = _clause_mark(child)
            if mark not in CONDITIONS:
                continue
            condition = _frame(child, terms)
            if mark in NEGATIVE_CONDITIONS:
                condition = replace(condition, negated=not condition.negated)
            found.append(condition)
    return found


def _exceptions(act: Token, terms: DefinedTerms) -> list[Argument]:
    """The phrases the clause excepts: "except (for) interns", "other than", "excluding"
    — under the verb or under any of its arguments."""
    found = []
    for token in act.subtree:
        if token.dep_ == "prep" and token.lower_ in EXCEPTIONS and token.lower_ != "but":
            found.append(_argument(_object_of(token), Role.OBLIQUE, terms))
        elif token.lower_ == "other" and token.i + 1 < len(token.doc):
            if token.nbor(1).lower_ == "than":
                filler = next((c for c in token.nbor(1).children if c.dep_ == "pobj"), None)
                if filler is not None:
                    found.append(_argument(filler, Role.OBLIQUE, terms))
    return found


def _bounds(act: Token, head: Token, terms: DefinedTerms) -> list[Bound]:
    """The act's time bounds: a preposition ("within 30 days", "before the offer") or a
    clause ("before he or she has accepted", "after it is received")."""
    found = []
    nouns = [c for c in act.children if c.dep_ in ("dobj", "nsubj", "nsubjpass", "attr")]
    for verb in {act, head, *nouns}:
        for child in verb.children:
            if child.dep_ == "prep" and _is_bound(child):
                phrase = _argument(_object_of(child), Role.OBLIQUE, terms)
                found.append(Bound(BOUNDS[child.lower_], phrase.words, phrase.values, phrase.text))
            elif child.dep_ == "advcl" and _clause_mark(child) in BOUNDS:
                clause = [t for t in child.subtree if not t.is_punct]
                words = frozenset(_lemma(t) for t in clause if not t.is_stop)
                text = " ".join(t.text for t in clause)
                found.append(
                    Bound(
                        BOUNDS[_clause_mark(child)],
                        words,
                        tuple(sorted(carried_numbers(text))),
                        text,
                    )
                )
    return found


def content_lemmas(text: str) -> frozenset[str]:
    """The lemmas of ``text``'s content words (letters only; function words, quantifiers
    and numbers left to their own judges): what a claim says beyond its frames' parties."""
    doc = parsed_for_frames(text)
    if doc is None:
        return frozenset()
    return frozenset(
        _lemma(t)
        for t in doc
        if t.is_alpha and not t.is_stop and _lemma(t) not in FUNCTION_WORDS | frozenset(QUANTIFIERS)
    )
