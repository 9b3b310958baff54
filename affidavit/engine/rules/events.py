"""The default engine's list of what a passage reports: "Maya: I adopted a puppy from the
shelter yesterday!" is (Maya, adopted, puppy from the shelter), a puppy, yesterday. Read
from the dependency tree of each sentence a line asserts, in its own words; the engine only
proposes, and records/distil.py admits each event on its line before it is written."""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Span, Token

from affidavit.engine.protocol import ProposedEvent
from affidavit.engine.rules.chatter import asserted
from affidavit.results import Evidence, LineKind
from affidavit.text import LONGEST_PARSED, parsed, parsed_with_names, times_told

_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_COPULAS = frozenset({"is", "are", "was", "were", "am", "'s", "'re", "'m", "be", "been"})
# Said of what may happen, not of what did: "I will visit Paris", "I might quit".
_MODALS = frozenset(
    {"will", "would", "could", "should", "might", "may", "can", "must", "shall", "'ll", "'d"}
)
# Verbs of wanting, thinking and saying report no event of their own ("I want a dog").
_NOT_EVENTS = frozenset(
    "want wanted wants hope hoped hopes plan planned plans wish wished try tried need needed "
    "think thought guess know knew mean meant feel felt bet suppose wonder wondered see saw "
    "say said tell told ask asked hear heard".split()
)
# A value that names nothing: "I had a great time", "I love it".
_EMPTY_VALUES = frozenset(
    "it that this them those these one something anything everything nothing lot lots time "
    "times thing things fun way stuff bit day".split()
)
# Verbs that say an earlier fact stopped holding.
ENDING_VERBS = frozenset(
    "cancelled canceled quit stopped ended left sold closed dropped unsubscribed terminated "
    "retired resigned".split()
)
# Prepositions that say whose or what a thing is ("subscription to Wired").
_BELONGING = frozenset({"to", "of", "for", "at", "with"})
# What a name is, by the sort of entity it is, when the line writes no common noun for it.
_NAMED_KINDS = {
    "PERSON": "person",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "ORG": "organization",
    "LANGUAGE": "language",
    "NORP": "group",
    "WORK_OF_ART": "work",
    "EVENT": "event",
    "PRODUCT": "product",
}
# A value longer than this is a clause, not a thing: the head noun's phrase is kept.
_LONGEST_VALUE = 8


def list_events(lines: Sequence[Evidence]) -> list[ProposedEvent]:
    """Every event ``lines`` report, in line order: for each sentence a line asserts, one
    event per verb that has a subject and a thing said of it."""
    found: list[ProposedEvent] = []
    for line in lines:
        if line.kind not in (LineKind.SENTENCE, LineKind.TURN) or len(line.text) > LONGEST_PARSED:
            continue
        text = line.text
        if line.speaker and text.startswith(f"{line.speaker}:"):
            text = text[len(line.speaker) + 1 :]
        said = asserted(text)
        if not said:
            continue
        for sentence in parsed(said).sents:
            found.extend(_sentence_events(sentence, line))
    return found


def _sentence_events(sentence: Span, line: Evidence) -> list[ProposedEvent]:
    events = []
    for verb in sentence:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ not in ("ROOT", "conj", "ccomp"):
            continue
        subject = next((c for c in verb.children if c.dep_ in _SUBJECTS), None)
        if subject is None and verb.dep_ == "conj":
            subject = next((c for c in verb.head.children if c.dep_ in _SUBJECTS), None)
        if subject is None or _unsure(verb):
            continue
        said = _said_of(verb)
        if said is None:
            continue
        predicate, value = said
        who = _subject(subject, line.speaker)
        if who is None or value.root.lower_ in _EMPTY_VALUES or value.root.pos_ == "PRON":
            continue
        owner, named = who
        if owner and verb.lower_ in _COPULAS and value.root.dep_ in ("attr", "acomp"):
            # "My favorite book is Dune": Maya's favorite book, said of Maya.
            subject_text, predicate = owner, named
        else:
            subject_text = f"{owner}'s {named}" if owner and named else owner or named
        events.append(
            ProposedEvent(
                subject=subject_text,
                predicate=predicate,
                value=_words(value),
                position=line.position,
                kind=_kind(value),
                when=_when(sentence.text, line.date),
                ends=verb.lower_ in ENDING_VERBS,
                lasting=_lasting(verb),
            )
        )
    return events


def _lasting(verb: Token) -> bool:
    """Does the verb state what holds now (the present: "I live", "my favorite book is",
    "I'm reading"), not an event that happened (the past: "I moved", "I adopted")?"""
    if verb.tag_ in ("VBP", "VBZ"):
        return True
    present = {"am", "is", "are", "'m", "'re", "'s"}
    return verb.tag_ == "VBG" and any(
        c.dep_ == "aux" and c.lower_ in present for c in verb.children
    )


def _unsure(verb: Token) -> bool:
    """Is the verb negated, hedged by a modal, or a verb of wanting or saying?"""
    if verb.lower_ in _NOT_EVENTS:
        return True
    return any(c.dep_ == "neg" or (c.dep_ == "aux" and c.lower_ in _MODALS) for c in verb.children)


def _said_of(verb: Token) -> tuple[str, Span] | None:
    """The predicate's words and the value's phrase: the verb's object, its complement,
    or the object of its preposition ("signed up for | a pottery class")."""
    children = list(verb.children)
    particles = [c.lower_ for c in children if c.dep_ == "prt"]
    words = [verb.lower_, *particles]
    for child in children:
        if child.dep_ in ("dobj", "attr"):
            return " ".join(words), _with_following(_phrase(child), verb)
        if child.dep_ == "xcomp" and child.pos_ == "VERB":
            object_ = next((c for c in child.children if c.dep_ == "dobj"), None)
            if object_ is not None:
                return " ".join([*words, child.lower_]), _phrase(object_)
    for child in children:
        if child.dep_ == "acomp":
            preposition = next((c for c in child.children if c.dep_ == "prep"), None)
            if preposition is None:
                return " ".join(words), _phrase(child)
            rest = _after(preposition)
            if rest is not None:
                return " ".join([*words, child.lower_, preposition.lower_]), rest
    for child in children:
        if child.dep_ in ("prep", "dative"):
            object_ = next((c for c in child.children if c.dep_ == "pobj"), None)
            if object_ is not None:
                return " ".join([*words, child.lower_]), _phrase(object_)
    return None


def _with_following(value: Span, verb: Token) -> Span:
    """The value with the phrase the tree hangs on the verb right after it ("cancelled my
    subscription | to Wired magazine"), when that phrase says whose or what it is."""
    doc = value.doc
    if value.end >= len(doc):
        return value
    after = doc[value.end]
    if after.head.i == verb.i and after.dep_ == "prep" and after.lower_ in _BELONGING:
        last = max(t.i for t in after.subtree)
        if last + 1 - value.start <= _LONGEST_VALUE:
            return doc[value.start : last + 1]
    return value


def _after(preposition: Token) -> Span | None:
    """The words a preposition governs, to the end of its sentence's clause ("due on | 1
    March 2024"), when the tree hangs them elsewhere."""
    object_ = next((c for c in preposition.children if c.dep_ == "pobj"), None)
    if object_ is not None:
        return _phrase(object_)
    sentence = preposition.sent
    end = preposition.i + 1
    while end < sentence.end and not sentence.doc[end].is_punct:
        end += 1
    return sentence.doc[preposition.i + 1 : end] if end > preposition.i + 1 else None


def _phrase(head: Token) -> Span:
    """The head's noun phrase without leading determiners, and without a clause that
    describes it; only the head's own words when the phrase runs long."""
    doc = head.doc
    cut = {
        t.i
        for c in head.children
        if c.dep_ in ("relcl", "acl", "cc", "conj", "appos", "advcl")
        for t in c.subtree
    }
    kept = [t.i for t in head.subtree if t.i not in cut]
    start, end = min(kept), max(kept) + 1
    while start < head.i and (doc[start].pos_ in ("DET", "PRON") or doc[start].is_punct):
        start += 1
    while end - 1 > head.i and doc[end - 1].is_punct:
        end -= 1
    if end - start > _LONGEST_VALUE:
        modifiers = [t.i for t in head.lefts if t.dep_ in ("compound", "amod")]
        start, end = min([*modifiers, head.i]), head.i + 1
    return doc[start:end]


def _subject(subject: Token, speaker: str | None) -> tuple[str, str] | None:
    """(whose, what) the subject names: ("Maya", "") for a speaker's "I", ("Maya",
    "sister") for "my sister", ("", "annual inspection") for a thing; None for a pronoun
    the line does not resolve ("she", "we", "it")."""
    owner = ""
    if subject.lower_ == "i":
        return (speaker, "") if speaker else None
    if subject.pos_ == "PRON":
        return None
    possessor = next((c for c in subject.children if c.dep_ == "poss"), None)
    if possessor is not None and possessor.lower_ == "my":
        if not speaker:
            return None
        owner = speaker
    elif possessor is not None and possessor.pos_ == "PRON":
        return None
    named = _words(_phrase(subject)).removeprefix("my ")
    return owner, named


def _words(span: Span) -> str:
    return span.text.strip()


def _kind(value: Span) -> str:
    """What sort of thing the value is: its head noun with the nouns compounded onto it
    ("pottery class"), or the sort of name it is ("place" for Porto)."""
    head = value.root
    if head.pos_ == "NOUN":
        nouns = [t.lower_ for t in head.lefts if t.dep_ == "compound" and t.pos_ == "NOUN"]
        return " ".join([*nouns, head.lower_])
    if head.pos_ == "PROPN":
        for entity in parsed_with_names(value.sent.text).ents:
            if entity.start_char <= head.idx - value.sent.start_char < entity.end_char:
                return _NAMED_KINDS.get(entity.label_, "")
    return ""


def _when(sentence: str, said_on: str | None) -> str:
    """The words of the sentence that tell when, as written ("yesterday"), if it has a
    day to count from."""
    if not said_on:
        return ""
    told = times_told(sentence, said_on, fast=True)
    return told[0][1].words if told else ""
