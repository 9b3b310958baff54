"""Contrast items for bench/contrast.py: from one sentence, rewrites that keep its meaning
(controls) and edits that change one fact (perturbations).

Every rewrite is read off spaCy's English parse of the sentence alone (the library's model,
loaded whole: the library's ``parse_pipeline`` leaves out the entity recogniser and the
lemmatiser, which the entity edit and the negation need). A kind that cannot be built
cleanly from a sentence is skipped for that sentence, never forced:

- controls: ``sentence`` (as written), ``main_clause`` (subject, verb and object of the
  root clause only), ``voice`` (active to passive or back, same roles);
- perturbations: ``swap`` (subject and object, or subject and agent, trade places),
  ``negation`` (the main verb negated), ``entity`` (a named entity replaced by another of
  its type from the same article), ``entity_role`` (the subject's name and another name of
  its type in the same sentence, outside the subject and object, trade places: both names
  stay in the line, in other roles; where the subject has no such partner, the first two
  names of one type that stand in different places and are not one list), ``number`` (a
  number replaced by another from the same article), ``attribute`` (a nationality the
  article never names put before the subject).

Every random choice is drawn from ``random.Random`` seeded with the seed, the article and
the sentence's place, over candidates sorted first, so an item does not depend on which
other sentences were drawn.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from affidavit.text.analyzer import Analyzer
from affidavit.text.nlp import ENGLISH_MODEL

CONTROLS = ("sentence", "main_clause", "voice")
PERTURBATIONS = ("swap", "negation", "entity", "entity_role", "number", "attribute")
KINDS = CONTROLS + PERTURBATIONS

MIN_WORDS, MAX_WORDS = 6, 40
# A noun phrase moved by swap or voice: at most this many tokens, no clause inside it.
MAX_PHRASE = 10
ENTITY_TYPES = ("PERSON", "ORG", "GPE", "NORP", "LOC", "EVENT", "WORK_OF_ART")

# base: (simple past, past participle), for the irregular verbs the voice change needs.
# A verb not listed is taken as regular only when its past ends in -ed.
IRREGULAR = {
    "arise": ("arose", "arisen"),
    "bear": ("bore", "borne"),
    "beat": ("beat", "beaten"),
    "become": ("became", "become"),
    "begin": ("began", "begun"),
    "bind": ("bound", "bound"),
    "break": ("broke", "broken"),
    "bring": ("brought", "brought"),
    "build": ("built", "built"),
    "buy": ("bought", "bought"),
    "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"),
    "cut": ("cut", "cut"),
    "deal": ("dealt", "dealt"),
    "draw": ("drew", "drawn"),
    "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"),
    "feed": ("fed", "fed"),
    "fight": ("fought", "fought"),
    "find": ("found", "found"),
    "forbid": ("forbade", "forbidden"),
    "forget": ("forgot", "forgotten"),
    "freeze": ("froze", "frozen"),
    "give": ("gave", "given"),
    "grow": ("grew", "grown"),
    "hang": ("hung", "hung"),
    "hear": ("heard", "heard"),
    "hide": ("hid", "hidden"),
    "hit": ("hit", "hit"),
    "hold": ("held", "held"),
    "keep": ("kept", "kept"),
    "know": ("knew", "known"),
    "lay": ("laid", "laid"),
    "lead": ("led", "led"),
    "leave": ("left", "left"),
    "lend": ("lent", "lent"),
    "lose": ("lost", "lost"),
    "make": ("made", "made"),
    "meet": ("met", "met"),
    "overcome": ("overcame", "overcome"),
    "overtake": ("overtook", "overtaken"),
    "pay": ("paid", "paid"),
    "put": ("put", "put"),
    "read": ("read", "read"),
    "ride": ("rode", "ridden"),
    "ring": ("rang", "rung"),
    "run": ("ran", "run"),
    "say": ("said", "said"),
    "see": ("saw", "seen"),
    "seek": ("sought", "sought"),
    "sell": ("sold", "sold"),
    "send": ("sent", "sent"),
    "set": ("set", "set"),
    "shake": ("shook", "shaken"),
    "shoot": ("shot", "shot"),
    "show": ("showed", "shown"),
    "shut": ("shut", "shut"),
    "sing": ("sang", "sung"),
    "speak": ("spoke", "spoken"),
    "spend": ("spent", "spent"),
    "split": ("split", "split"),
    "spread": ("spread", "spread"),
    "steal": ("stole", "stolen"),
    "strike": ("struck", "struck"),
    "swear": ("swore", "sworn"),
    "take": ("took", "taken"),
    "teach": ("taught", "taught"),
    "tear": ("tore", "torn"),
    "tell": ("told", "told"),
    "think": ("thought", "thought"),
    "throw": ("threw", "thrown"),
    "undergo": ("underwent", "undergone"),
    "understand": ("understood", "understood"),
    "undertake": ("undertook", "undertaken"),
    "upset": ("upset", "upset"),
    "wake": ("woke", "woken"),
    "wear": ("wore", "worn"),
    "win": ("won", "won"),
    "withdraw": ("withdrew", "withdrawn"),
    "write": ("wrote", "written"),
}
# Verbs whose passive does not say what the active said ("the team included Y" is not
# "Y was included by the team"), or reads as nonsense ("1990 saw" -> "was seen by 1990").
NO_PASSIVE = frozenset(
    "be become comprise contain cost equal feature get have include lack last mean measure "
    "number resemble see total weigh".split()
)
# Verb and object that make one idiom: "took place" has no passive "place was taken".
IDIOMS = frozenset(
    {
        ("take", "place"),
        ("take", "part"),
        ("take", "care"),
        ("take", "advantage"),
        ("take", "effect"),
        ("take", "hold"),
        ("take", "root"),
        ("take", "shape"),
        ("make", "sense"),
        ("make", "use"),
        ("pay", "attention"),
        ("give", "way"),
        ("give", "rise"),
        ("give", "birth"),
        ("come", "way"),
        ("lose", "ground"),
        ("gain", "ground"),
    }
)
# Verbs whose subject and object can trade places without changing the statement.
SYMMETRIC = frozenset(
    "battle border date divorce encounter equal face fight intersect marry match meet "
    "neighbor neighbour parallel play resemble tie touch".split()
)
# Adverbs that a main clause cannot drop: "almost won" is not "won", "usually is" not "is".
HEDGES = frozenset(
    "almost nearly reportedly allegedly barely hardly supposedly purportedly scarcely "
    "seldom rarely never often usually typically normally sometimes occasionally generally "
    "mostly mainly largely partly partially possibly probably perhaps frequently".split()
)
# Determiners that make a prepositional adjunct a limit: "in some cases", "in most years".
QUANTIFIERS = frozenset("some many most certain few several".split())
# Heads a noun phrase can have in a main clause.
NOMINAL = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
# Clauses inside a noun phrase: a phrase holding one never moves (swap, voice), and the
# main clause sheds the first four but gives up on the others, which it cannot drop
# without changing what is said ("is an Arab, largely Sunni Muslim nation").
SHED = frozenset({"relcl", "acl", "advcl", "parataxis"})
CLAUSAL = SHED | {"appos", "ccomp", "xcomp", "csubj"}
# Children of the root that make "subject verb object" drop part of what is said.
NEEDED = frozenset({"dative", "oprd", "xcomp", "ccomp", "csubj", "csubjpass", "expl"})
SUBJECT_CASE = {"he": "him", "she": "her", "they": "them", "we": "us", "i": "me"}
OBJECT_CASE = {v: k for k, v in SUBJECT_CASE.items()}
PLURAL_PRONOUNS = frozenset({"they", "them", "we", "us", "you"})
# A nationality adjective and its country: both must be absent from the article.
NATIONALITIES = (
    ("Argentine", "Argentina"),
    ("Austrian", "Austria"),
    ("Belgian", "Belgium"),
    ("Brazilian", "Brazil"),
    ("Canadian", "Canada"),
    ("Chilean", "Chile"),
    ("Danish", "Denmark"),
    ("Dutch", "Netherlands"),
    ("Egyptian", "Egypt"),
    ("Finnish", "Finland"),
    ("Greek", "Greece"),
    ("Hungarian", "Hungary"),
    ("Icelandic", "Iceland"),
    ("Kenyan", "Kenya"),
    ("Korean", "Korea"),
    ("Mexican", "Mexico"),
    ("Nigerian", "Nigeria"),
    ("Norwegian", "Norway"),
    ("Peruvian", "Peru"),
    ("Portuguese", "Portugal"),
    ("Swedish", "Sweden"),
    ("Swiss", "Switzerland"),
    ("Thai", "Thailand"),
    ("Turkish", "Turkey"),
)
CARDINAL_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety".split()
)
SCALE_WORDS = frozenset("hundred thousand million billion trillion".split())
NUMBER_ENTITY_TYPES = frozenset({"", "CARDINAL", "QUANTITY", "MONEY", "PERCENT"})
_DIGITS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# Read as a year, so as a date: SQuAD writes counts of a thousand or more with a comma.
_YEAR = re.compile(r"1\d{3}|20\d{2}")
# A phrase may not end on these: its words went on past the phrase ("hermaphroditism and").
_OPEN_END = frozenset({"cc", "prep", "det", "poss", "case", "preconj", "aux", "mark"})
_OPENERS = ("(", "[", "“", '"', "'")
_MATH = frozenset("= < > + × · − ± / ^ ≤ ≥".split())
# A name as an entity edit takes and gives it: capitalised words, no brackets or symbols.
_NAME = re.compile(r"(?=.*[A-Za-z]{2})[A-Z][\w.'’&-]*(?: [\w.'’&-]+){0,5}")
# Words that already deny: a second negation beside them makes a double negative.
NEGATIVES = frozenset("no not n't never neither nor none nothing nobody nowhere without".split())
# Adverbs a negation cannot go before without reading as another idiom ("not only").
_NOT_BEFORE = frozenset("only also just merely even still already always".split())
_ANALYZER = Analyzer("en")


@dataclass(frozen=True)
class Item:
    article: str
    position: int  # the source sentence's place among the article's sentences
    kind: str
    control: bool  # True: should be supported; False: should be rejected
    text: str
    source: str  # the sentence it was made from
    edit: str  # what changed, for a reader: "France -> Sweden", "active -> passive"


@dataclass(frozen=True)
class ArticleFacts:
    """What the edits draw on: the article's entities, numbers and words."""

    entities: dict[str, Counter[str]]  # entity type -> text (no leading "the") -> count
    numbers: dict[str, Counter[str]]  # number class (digits/words/scale) -> text -> count
    words: frozenset[str]  # every lower-cased word of letters


@lru_cache(maxsize=1)
def english() -> Language:
    """The library's English model, whole: tagger, parser, lemmatiser and entities."""
    return spacy.load(ENGLISH_MODEL)


def eligible(sentence: str) -> bool:
    """A sentence worth editing: 6-40 words, starts with a capital or digit, ends with '.'."""
    return (
        MIN_WORDS <= len(sentence.split()) <= MAX_WORDS
        and (sentence[0].isupper() or sentence[0].isdigit())
        and sentence.endswith(".")
    )


# -- what the article offers --


def article_facts(paragraphs: Sequence[str]) -> ArticleFacts:
    entities: dict[str, Counter[str]] = {label: Counter() for label in ENTITY_TYPES}
    numbers: dict[str, Counter[str]] = {"digits": Counter(), "words": Counter(), "scale": Counter()}
    for doc in english().pipe(paragraphs):
        for ent in doc.ents:
            if ent.label_ in entities:
                text = _name(ent.text)
                if _NAME.fullmatch(text):
                    entities[ent.label_][text] += 1
        for token in doc:
            kind = number_class(token)
            if kind is not None:
                numbers[kind][token.text.lower() if kind != "digits" else token.text] += 1
    words = frozenset(re.findall(r"[a-z]+", " ".join(paragraphs).lower()))
    return ArticleFacts(entities, numbers, words)


def _name(text: str) -> str:
    """An entity's text without a leading "the" or a trailing possessive."""
    text = text[4:] if text[:4].lower() == "the " else text
    for ending in ("'s", "’s"):
        text = text.removesuffix(ending)
    return text


def number_class(token: Token) -> str | None:
    """digits / words / scale for a number that is not a date, ordinal or part of a name."""
    if not token.like_num or token.ent_type_ not in NUMBER_ENTITY_TYPES:
        return None
    text = token.text
    before = token.doc.text[: token.idx]
    if before.rfind("[") > before.rfind("]"):
        return None  # a note or citation mark: "[Note 3]"
    if _DIGITS.fullmatch(text):
        return None if _YEAR.fullmatch(text) else "digits"
    lower = text.lower()
    if lower in CARDINAL_WORDS:
        return "words"
    if lower in SCALE_WORDS:
        return "scale"
    return None


# -- reading the sentence --


@dataclass(frozen=True)
class Clause:
    """The root clause: its verb, subject, object (or passive agent) and auxiliaries."""

    root: Token
    subject: Token | None
    obj: Token | None  # direct object (active) or the noun inside the by-phrase (passive)
    agent: Token | None  # the "by" of a passive
    attr: Token | None  # the complement of a copula ("X was the capital")
    auxiliaries: tuple[Token, ...]  # aux / auxpass children before the root
    particle: Token | None
    passive: bool
    negated: bool

    @property
    def shares_subject(self) -> bool:
        """Whether a coordinated verb takes the root's subject ("X bought Y and sold Z")."""
        return any(
            c.dep_ == "conj"
            and c.pos_ in ("VERB", "AUX")
            and not any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
            for c in self.root.children
        )

    @property
    def finite(self) -> bool:
        """Whether the verb group is finite: "was founded", "bought", not "to found"."""
        first = self.auxiliaries[0] if self.auxiliaries else self.root
        return first.tag_ in ("VBD", "VBZ", "VBP", "MD")

    @property
    def implicit_subject(self) -> bool:
        """Whether a clause hangs on the root with the root's subject as its own ("X conquered
        Y, killing Z"): a voice change would hand it to the other phrase."""
        return any(
            c.dep_ in ("advcl", "xcomp", "conj")
            and c.pos_ in ("VERB", "AUX")
            and not any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
            for c in self.root.children
        )

    @property
    def idiom(self) -> bool:
        return (
            self.obj is not None
            and not self.passive
            and (self.root.lemma_.lower(), self.obj.lemma_.lower()) in IDIOMS
        )

    @property
    def complete(self) -> bool:
        """No child that "subject verb object" would silently drop."""
        return not any(c.dep_ in NEEDED for c in self.root.children)

    @property
    def hedged(self) -> bool:
        """Whether an adjunct limits the claim: "almost won", "in some cases is", "if"."""
        for c in self.root.children:
            if c.dep_ == "advmod" and c.lower_ in HEDGES:
                return True
            if c.dep_ == "prep" and any(
                g.dep_ == "pobj" and any(d.lower_ in QUANTIFIERS for d in g.children)
                for g in c.children
            ):
                return True
            if c.dep_ == "advcl" and any(
                g.dep_ == "mark" and g.lower_ in ("if", "unless", "whether") for g in c.children
            ):
                return True
        return False


def clause(doc: Doc) -> Clause | None:
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].pos_ not in ("VERB", "AUX"):
        return None
    root = roots[0]
    children = list(root.children)

    def child(*deps: str) -> Token | None:
        return next((c for c in children if c.dep_ in deps), None)

    def only(*deps: str) -> Token | None:
        found = [c for c in children if c.dep_ in deps]
        return found[0] if len(found) == 1 else None  # two subjects or objects: unclear roles

    subject = only("nsubj", "nsubjpass")
    agent = child("agent")
    passive = child("auxpass") is not None or (
        subject is not None and subject.dep_.endswith("pass")
    )
    obj = only("dobj", "dative")
    if obj is not None and obj.dep_ == "dative":
        obj = None
    if passive:
        obj = next((c for c in agent.children if c.dep_ == "pobj"), None) if agent else None
    return Clause(
        root=root,
        subject=subject if subject is not None and subject.i < root.i else None,
        obj=obj if obj is not None and obj.i > root.i else None,
        agent=agent,
        attr=child("attr") if root.lemma_ == "be" else None,
        auxiliaries=tuple(c for c in children if c.dep_ in ("aux", "auxpass") and c.i < root.i),
        particle=child("prt"),
        passive=passive,
        negated=child("neg") is not None,
    )


def clean_phrase(head: Token) -> Span | None:
    """The noun phrase under ``head`` when it can move whole: short, no clause, no commas."""
    doc = head.doc
    span = doc[head.left_edge.i : head.right_edge.i + 1]
    if len(span) > MAX_PHRASE or head.pos_ not in ("NOUN", "PROPN", "PRON"):
        return None
    if head.pos_ == "PRON" and len(span) == 1:
        lower = head.lower_
        if lower not in SUBJECT_CASE and lower not in OBJECT_CASE and lower not in ("it", "you"):
            return None  # "which", "itself", "this": not a phrase that moves cleanly
    if not _sealed(span[0], span[-1]):
        return None
    if span[0].ent_type_ in ("DATE", "TIME"):
        return None  # "In 1767 political activity caused": the year is no part of the subject
    for token in span:
        if token.dep_ in CLAUSAL or token.dep_ in ("cc", "conj") and token.head.pos_ == "VERB":
            return None
        if token.pos_ in ("VERB", "AUX") and token.dep_ not in ("amod", "compound"):
            return None
        if token.is_punct and token.text not in ("-", "–", "'", "’", "&"):
            return None
    return span


def _sealed(first: Token, last: Token) -> bool:
    """Whether a phrase from ``first`` to ``last`` is whole: it does not end on a word that
    wants more, and no word outside is glued to it ("co" of "co-NP")."""
    doc = first.doc
    if last.dep_ in _OPEN_END:
        return False
    if first.i > 0 and not doc[first.i - 1].whitespace_ and doc[first.i - 1].text not in _OPENERS:
        return False
    if last.i + 1 < len(doc) and not last.whitespace_:
        return doc[last.i + 1].text in (",", ".", ";", ":", ")", "]", "”", '"', "'s", "’s")
    return True


def plural(phrase: Span) -> bool:
    head = phrase.root
    if head.pos_ == "PRON":
        return head.lower_ in PLURAL_PRONOUNS
    return head.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in head.children)


def moved(phrase: Span, role: str, first: bool) -> str:
    """``phrase`` written as subject or object; capitalised when it opens the sentence."""
    if len(phrase) == 1 and phrase.root.pos_ == "PRON":
        lower = phrase.root.lower_
        text = (SUBJECT_CASE if role == "object" else OBJECT_CASE).get(lower, lower)
        text = "I" if text == "i" else text
    else:
        text = phrase.text
        lead = phrase[0]
        if lead.i == 0 and lead.pos_ != "PROPN" and not lead.ent_type_ and lead.text != "I":
            text = text[0].lower() + text[1:]  # it opened the sentence; now it does not
    return text[0].upper() + text[1:] if first else text


def participle(verb: Token) -> str | None:
    """The past participle of a verb written in the simple past, when we know it."""
    text = verb.lower_
    forms = IRREGULAR.get(verb.lemma_.lower())
    if forms is not None:
        return forms[1] if text == forms[0] else None
    return text if text.endswith("ed") else None


def simple_past(verb: Token) -> str | None:
    """The simple past of a verb written as a past participle, when we know it."""
    text = verb.lower_
    forms = IRREGULAR.get(verb.lemma_.lower())
    if forms is not None:
        return forms[0] if text == forms[1] else None
    return text if text.endswith("ed") else None


def splice(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each (start, end, new) character range replaced, right to left."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def start(token_or_span: Token | Span) -> int:
    return token_or_span.idx if isinstance(token_or_span, Token) else token_or_span.start_char


def end(token_or_span: Token | Span) -> int:
    if isinstance(token_or_span, Token):
        return token_or_span.idx + len(token_or_span)
    return token_or_span.end_char


# -- controls --


def make_main_clause(doc: Doc, c: Clause) -> tuple[str, str] | None:
    """Subject, verb group and object of the root clause, asides and adjuncts left out."""
    if c.subject is None or c.negated or not c.complete or c.hedged or c.idiom:
        return None
    if not c.finite:
        return None
    if c.passive:
        if c.obj is None or c.agent is None or any(g.dep_ == "dobj" for g in c.root.children):
            return None  # "was dealt major blows by": the object cannot go
        complement, shape = c.obj, "subject, verb, by-agent"
    elif c.obj is not None:
        complement, shape = c.obj, "subject, verb, object"
    elif c.attr is not None and c.attr.i > c.root.i:
        complement, shape = c.attr, "subject, copula, complement"
    else:
        return None
    subject, complement_text = trimmed(c.subject), trimmed(complement, last=True)
    if not subject or not complement_text:
        return None
    verbs = [t.text for t in c.auxiliaries] + [c.root.text]
    if c.particle is not None:
        verbs.append(c.particle.text)
    if c.passive and c.agent is not None:
        verbs.append(c.agent.text)
    text = f"{subject[0].upper()}{subject[1:]} {' '.join(verbs)} {complement_text}."
    if _squash(text) == _squash(doc.text):
        return None
    return text, shape


def trimmed(head: Token, *, last: bool = False) -> str | None:
    """The phrase under ``head`` without its relative and participial clauses and its
    parentheses; None when it holds a clause that cannot be dropped or looks misparsed.
    ``last``: the phrase ends the clause, so no verb may follow it straight away."""
    doc = head.doc
    if head.pos_ not in NOMINAL:
        return None  # "a 40-minute long themed": the parse found no noun
    shed: set[int] = set()
    for token in head.subtree:
        if token.i == head.i or token.i in shed:
            continue
        infinitive = token.dep_ in ("acl", "relcl") and any(
            c.dep_ == "aux" and c.lower_ == "to" for c in token.children
        )
        if token.dep_ in CLAUSAL - SHED or infinitive:
            return None  # "enables populations to grow" is not "enables populations"
        if token.dep_ in SHED:
            if token.left_edge.i < head.i:
                return None  # a clause before its noun is a misparse
            shed.update(t.i for t in token.subtree)
    depth, bracketed = 0, set()
    for token in doc:
        if token.text in ("(", "["):
            depth += 1
        if depth:
            bracketed.add(token.i)
        if token.text in (")", "]"):
            depth = max(depth - 1, 0)
    kept = [t for t in head.subtree if t.i not in shed and t.i not in bracketed]
    while kept and kept[0].is_punct:
        kept.pop(0)
    while kept and kept[-1].is_punct:
        kept.pop()
    if not kept or not _sealed(kept[0], kept[-1]):
        return None
    if kept[0].ent_type_ in ("DATE", "TIME") or any(
        t.pos_ == "SYM" or t.text in _MATH for t in kept
    ):
        return None  # "In 1767 political activity", "are = 2, 3, 4"
    if shed and any(t.i > min(shed) and not t.is_punct for t in kept):
        return None  # words after a dropped clause: the clause was not where the parse said
    if (
        last
        and head.right_edge.i + 1 < len(doc)
        and doc[head.right_edge.i + 1].pos_
        in (
            "VERB",
            "AUX",
        )
    ):
        return None  # "Pharmacist and these pharmacists [will carry]": it took a subject in
    parts = []
    for here, after in zip(kept, kept[1:], strict=False):
        parts.append(here.text + (here.whitespace_ if after.i == here.i + 1 else " "))
    parts.append(kept[-1].text)
    text = re.sub(r"\s*,(?:\s*,)+", ",", "".join(parts))
    text = re.sub(r"\s+([,;:])", r"\1", text)
    if text.count('"') % 2 or text.count("“") != text.count("”"):
        return None  # a quotation cut in two
    if kept[0].i == 0 and kept[0].pos_ != "PROPN" and not kept[0].ent_type_:
        text = text[0].lower() + text[1:]
    return text


def _squash(text: str) -> str:
    return " ".join(text.rstrip(".").split()).lower()


def make_voice(doc: Doc, c: Clause) -> tuple[str, str] | None:
    """Active "X VERBed Y" as passive "Y was VERBed by X", or the passive back to active."""
    if c.subject is None or c.obj is None or c.negated or not c.complete:
        return None
    if c.implicit_subject or c.idiom or c.root.lemma_.lower() in NO_PASSIVE:
        return None
    subject, obj = clean_phrase(c.subject), clean_phrase(c.obj)
    if subject is None or obj is None:
        return None
    verb = c.root
    particle = [c.particle] if c.particle is not None else []
    # Between the two phrases: the verb group and nothing else, but for one adverb
    # ("also", "formally") that goes before the verb in either voice.
    between = list(doc[subject.end : obj.start])
    adverbs = [t for t in between if t.dep_ == "advmod" and t.head == verb]
    if len(adverbs) > 1:
        return None
    adverb = f"{adverbs[0].text} " if adverbs else ""
    first = subject.start == 0
    if not c.passive:
        if verb.tag_ != "VBD" or c.auxiliaries or between != [*adverbs, verb, *particle]:
            return None
        form = participle(verb)
        if form is None:
            return None
        be = "were" if plural(obj) else "was"
        words = [moved(obj, "subject", first), be, adverb + form, *(t.text for t in particle)]
        new = " ".join([*words, "by", moved(subject, "object", False)])
        return splice(doc.text, [(start(subject), end(obj), new)]), "active -> passive"
    if len(c.auxiliaries) != 1 or c.auxiliaries[0].lower_ not in ("was", "were"):
        return None
    aux = c.auxiliaries[0]
    if verb.tag_ != "VBN" or between != [aux, *adverbs, verb, *particle, c.agent]:
        return None
    form = simple_past(verb)
    if form is None:
        return None
    words = [moved(obj, "subject", first), adverb + form, *(t.text for t in particle)]
    new = " ".join([*words, moved(subject, "object", False)])
    return splice(doc.text, [(start(subject), end(obj), new)]), "passive -> active"


# -- perturbations --


def make_swap(doc: Doc, c: Clause) -> tuple[str, str] | None:
    """Subject and object (passive: subject and agent) trade places; the rest stays."""
    if c.subject is None or c.obj is None or c.shares_subject or not c.complete or c.idiom:
        return None
    if c.root.lemma_.lower() in SYMMETRIC | {"be"}:
        return None
    subject, obj = clean_phrase(c.subject), clean_phrase(c.obj)
    if subject is None or obj is None or subject.end > obj.start:
        return None
    if _squash(subject.text) == _squash(obj.text):
        return None
    first = subject.start == 0
    edits = [
        (start(subject), end(subject), moved(obj, "subject", first)),
        (start(obj), end(obj), moved(subject, "object", False)),
    ]
    if c.passive:
        aux = next((a for a in c.auxiliaries if a.lower_ in ("was", "were")), None)
        if aux is None:
            return None
        be = "were" if plural(obj) else "was"
        edits.append((start(aux), end(aux), be))
    else:
        # past tense, or an auxiliary that does not agree, so the verb needs no change
        agreeing = [
            a for a in c.auxiliaries if a.tag_ in ("VBZ", "VBP") or a.lower_ in ("was", "were")
        ]
        if agreeing or not c.auxiliaries and c.root.tag_ != "VBD":
            return None
    return splice(doc.text, edits), f"{subject.text} <-> {obj.text}"


def make_negation(doc: Doc, c: Clause) -> tuple[str, str] | None:
    """The main verb negated: "was founded" -> "was not founded", "bought" -> "did not buy"."""
    root = c.root
    if c.negated or root.i == 0 or any(t.lower_ in ("no", "never", "not") for t in root.children):
        return None
    negated = c.auxiliaries[0] if c.auxiliaries else root
    after = [t.lower_ for t in doc[negated.i + 1 : negated.i + 4]]
    if after and after[0] in _NOT_BEFORE or NEGATIVES & set(after):
        return None  # "is not only", "there is not no", "is home not only"
    if c.subject is not None and any(t.lower_ in NEGATIVES for t in c.subject.subtree):
        return None  # "Neither of these men did not have": a double negative
    if c.auxiliaries and c.subject is not None and c.auxiliaries[0].i < c.subject.i:
        return None  # "can T-cells perform": the auxiliary comes before its subject
    if c.auxiliaries and c.auxiliaries[0].lower_ in ("may", "might"):
        return None  # "may not be" does not deny "may be"
    if c.auxiliaries:
        aux = c.auxiliaries[0]
        return splice(doc.text, [(end(aux), end(aux), " not")]), f"{aux.text} -> {aux.text} not"
    if root.lemma_ == "be":
        return splice(doc.text, [(end(root), end(root), " not")]), f"{root.text} -> {root.text} not"
    do = {"VBD": "did", "VBZ": "does", "VBP": "do"}.get(root.tag_)
    lemma = root.lemma_.lower()
    if do is None or not lemma.isalpha():
        return None
    new = f"{do} not {lemma}"
    return splice(doc.text, [(start(root), end(root), new)]), f"{root.text} -> {new}"


def make_entity(doc: Doc, facts: ArticleFacts, rng: random.Random) -> tuple[str, str] | None:
    """A named entity replaced by another of its type named elsewhere in the article."""
    sentence = doc.text.lower()
    said = set(_ANALYZER.terms(doc.text))  # no word of the new name may be in the sentence
    options = []
    for ent in doc.ents:
        if ent.label_ not in ENTITY_TYPES:
            continue
        core = _name(ent.text)
        if not _NAME.fullmatch(core):
            continue
        offset = ent.text.index(core)
        pool = [
            (text, count)
            for text, count in facts.entities[ent.label_].items()
            if text.lower() not in sentence
            and not said & set(_ANALYZER.terms(text))
            and (not any(ch.isdigit() for ch in text) or any(ch.isdigit() for ch in core))
            and not _abbreviates(text, core)
            and not _abbreviates(core, text)
        ]
        frequent = [p for p in pool if p[1] >= 2]  # the recogniser agrees with itself
        if frequent or pool:
            at = ent.start_char + offset
            options.append((at, at + len(core), core, frequent or pool))
    if not options:
        return None
    at, until, core, pool = rng.choice(options)
    new = rng.choice(sorted(text for text, _ in pool))
    return splice(doc.text, [(at, until, new)]), f"{core} -> {new}"


def make_entity_role(doc: Doc, c: Clause) -> tuple[str, str] | None:
    """The subject's name and another name of its type in the sentence trade places; failing
    that, the first two names of one type that stand in different places (any_names_trade)."""
    return _subject_name_trade(doc, c) or any_names_trade(doc)


def any_names_trade(doc: Doc) -> tuple[str, str] | None:
    """The first two names of one type (in the order of the sentence) that trade places
    into a sentence that means something else: not members of one list ("Syria and
    Egypt", "Arab, Lombard, and Greek"), not one naming the other (apposition, one inside
    the other), and neither tied to the other by a symmetric word ("with", "between",
    "against"), where a trade says the same thing."""
    names = [
        e
        for e in doc.ents
        if e.label_ in ENTITY_TYPES
        and _NAME.fullmatch(e.text)
        and doc.text.count(e.text) == 1
        and not e.text.endswith(("'s", "’s"))  # "Nova Scotia's" moved would read "'s's"
    ]
    for number, first in enumerate(names):
        for second in names[number + 1 :]:
            if first.label_ != second.label_ or _squash(first.text) == _squash(second.text):
                continue
            if _squash(first.text) in _squash(second.text) or _squash(second.text) in _squash(
                first.text
            ):
                continue
            if _tied(first.root, second.root) or _listed(doc, first, second):
                continue
            edits = [
                (first.start_char, first.end_char, second.text),
                (second.start_char, second.end_char, first.text),
            ]
            return splice(doc.text, edits), f"{first.text} <-> {second.text}"
    return None


_SEPARATORS = re.compile(r"(?:[\s,;/&–—-]|\band\b|\bor\b|\bnor\b)*")


def _listed(doc: Doc, first: Span, second: Span) -> bool:
    """Whether only separators and other capitalised words stand between two names ("its
    Arab, Lombard, and Greek forebears", "the Israeli–Arab conflict"): a list the parse
    did not join, in which another order says the same."""
    between = doc.char_span(first.end_char, second.start_char, alignment_mode="expand")
    if between is None:
        return False
    rest = " ".join(t.text for t in between if not t.text[:1].isupper())
    return _SEPARATORS.fullmatch(rest) is not None


_SYMMETRIC = frozenset({"with", "between", "and", "against", "versus", "vs", "vs.", "or", "nor"})
_JOINING = frozenset({"conj", "appos", "compound", "flat", "cc", "punct", "nmod"})
_CORE = frozenset({"nsubj", "nsubjpass", "dobj", "obj", "attr"})


def _tied(a: Token, b: Token) -> bool:
    """Whether a trade of two names would say the same or what ``swap`` says: one list,
    one naming the other, joined by a symmetric word ("with", "between"), or the subject
    and the object of one verb ("Kissinger met Sadat")."""
    if b in a.conjuncts:
        return True
    path = _path(a, b)
    top = min(path, key=lambda t: sum(1 for _ in t.ancestors))
    below = [t for t in path if t is not top]
    near = [*path, *a.children, *b.children]
    if any(t.lower_ in _SYMMETRIC for t in near if t not in (a, b)):
        return True
    if all(t.dep_ in _JOINING for t in below):
        return True
    return len(below) == 2 and all(t.dep_ in _CORE for t in below)


def _path(a: Token, b: Token) -> list[Token]:
    """The tokens from ``a`` up to the lowest head it shares with ``b``, then down to ``b``."""
    up_a = [a, *a.ancestors]
    up_b = [b, *b.ancestors]
    shared = next((t for t in up_a if t in up_b), None)
    if shared is None:
        return up_a + up_b
    return up_a[: up_a.index(shared) + 1] + list(reversed(up_b[: up_b.index(shared)]))


def _subject_name_trade(doc: Doc, c: Clause) -> tuple[str, str] | None:
    if c.subject is None or c.subject.pos_ != "PROPN":
        return None
    subject_tokens = set(t.i for t in c.subject.subtree)
    named = [e for e in doc.ents if e.start <= c.subject.i < e.end]
    if len(named) != 1 or named[0].label_ not in ENTITY_TYPES:
        return None
    mine = named[0]
    object_tokens = set(t.i for t in c.obj.subtree) if c.obj is not None else set()
    others = [
        e
        for e in doc.ents
        if e.label_ == mine.label_
        and not subject_tokens & set(range(e.start, e.end))
        and not object_tokens & set(range(e.start, e.end))
        and _squash(e.text) != _squash(mine.text)
        and _NAME.fullmatch(e.text)
    ]
    if not _NAME.fullmatch(mine.text) or len(others) != 1:
        return None
    other = others[0]
    edits = [
        (mine.start_char, mine.end_char, other.text),
        (other.start_char, other.end_char, mine.text),
    ]
    return splice(doc.text, edits), f"{mine.text} <-> {other.text}"


def _abbreviates(short: str, long: str) -> bool:
    """Whether ``short`` is the initials of ``long``: "U.S." of "United States"."""
    letters = re.sub(r"[^A-Za-z]", "", short)
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", long) if w[0].isupper())
    return len(letters) >= 2 and letters.isupper() and letters == initials


def make_number(doc: Doc, facts: ArticleFacts, rng: random.Random) -> tuple[str, str] | None:
    """A number (not a date) replaced by another of its form written elsewhere in the article."""
    here = {_value(t.text) for t in doc if t.like_num}
    options = []
    for token in doc:
        kind = number_class(token)
        if kind is None:
            continue
        pool = sorted(n for n in facts.numbers[kind] if _value(n) not in here)
        if kind == "digits":  # prefer the same shape: as many digits, a fraction or not
            shape = _shape(token.text)
            same = [n for n in pool if _shape(n) == shape]
            near = [n for n in pool if _shape(n)[1] == shape[1]]
            pool = same or near or pool
        if pool:
            options.append((token, pool))
    if not options:
        return None
    token, pool = rng.choice(options)
    new = rng.choice(pool)
    if token.text[0].isupper():
        new = new[0].upper() + new[1:]
    return splice(doc.text, [(start(token), end(token), new)]), f"{token.text} -> {new}"


def _value(number: str) -> str:
    return number.lower().replace(",", "")


def _shape(number: str) -> tuple[int, bool]:
    whole, _, fraction = _value(number).partition(".")
    return len(whole), bool(fraction)


def make_attribute(
    doc: Doc, c: Clause, facts: ArticleFacts, rng: random.Random
) -> tuple[str, str] | None:
    """A nationality the article never names, put before the subject's head noun."""
    if c.subject is None or c.subject.tag_ not in ("NN", "NNS"):
        return None
    head = c.subject
    if any(m.dep_ == "amod" and (m.text[0].isupper() or m.ent_type_) for m in head.lefts) or any(
        m.pos_ == "PROPN" or m.ent_type_ for m in head.lefts
    ):
        return None  # already says where it is from, or names it
    # before the compound nouns and whatever modifies them ("computational complexity
    # theory"), after the head's own adjectives ("the large French oil company")
    chain = {head.i}
    at = head.i
    while at > head.left_edge.i:
        before = doc[at - 1]
        if before.dep_ == "compound" and before.head.i in chain:
            chain.add(before.i)
        elif not (
            before.dep_ in ("amod", "compound", "advmod") and before.head.i in chain - {head.i}
        ):
            break
        at -= 1
    sentence = doc.text.lower()
    choices = [
        adjective
        for adjective, country in NATIONALITIES
        if adjective.lower() not in facts.words
        and country.lower() not in facts.words
        and adjective.lower() not in sentence
    ]
    if not choices:
        return None
    adjective = rng.choice(choices)
    edits = [(doc[at].idx, doc[at].idx, f"{adjective} ")]
    if at == 0 and doc[0].pos_ != "PROPN":
        edits = [(0, 1, f"{adjective} {doc[0].text[0].lower()}")]
    elif at > 0 and doc[at - 1].lower_ in ("a", "an"):
        article = doc[at - 1]
        word = "an" if adjective[0] in "AEIOU" else "a"
        word = word.capitalize() if article.text[0].isupper() else word
        edits.append((start(article), end(article), word))
    return splice(doc.text, edits), f"+ {adjective}"


# -- one sentence's items --


def items_for(
    article: str, position: int, sentence: str, facts: ArticleFacts, seed: int
) -> list[Item]:
    """Every kind that can be built cleanly from ``sentence``, the control first."""
    doc = english()(sentence)
    c = clause(doc)
    built: dict[str, tuple[str, str] | None] = {"sentence": (sentence, "as written")}
    rng = {kind: random.Random(f"{seed}/{article}/{position}/{kind}") for kind in KINDS}
    if c is not None:
        built["main_clause"] = make_main_clause(doc, c)
        built["voice"] = make_voice(doc, c)
        built["swap"] = make_swap(doc, c)
        built["negation"] = make_negation(doc, c)
        built["attribute"] = make_attribute(doc, c, facts, rng["attribute"])
        built["entity_role"] = make_entity_role(doc, c)
    built["entity"] = make_entity(doc, facts, rng["entity"])
    built["number"] = make_number(doc, facts, rng["number"])
    items = []
    for kind in KINDS:
        made = built.get(kind)
        if made is None:
            continue
        text, edit = made
        if kind != "sentence" and _squash(text) == _squash(sentence):
            continue
        items.append(Item(article, position, kind, kind in CONTROLS, text, sentence, edit))
    return items
