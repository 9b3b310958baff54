"""What the reader takes from the question: its wh-word and the word after it, the role the
wh-word plays and its verb, the noun it asks for, and its words as the lines write them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Doc, Token

from affidavit.question import Question
from affidavit.text import Analyzer, analyzer_for, parsed, words

WH_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")
# Spanish and Turkish question words, read as the English ones they ask like.
_WH_OTHER = {
    "qué": "what", "cuál": "which", "cuáles": "which", "quién": "who", "quiénes": "who",
    "cuándo": "when", "dónde": "where", "por qué": "why", "cómo": "how", "cuánto": "how",
    "cuántos": "how", "cuántas": "how", "cuánta": "how", "ne": "what", "hangi": "which",
    "kim": "who", "kimin": "whose", "ne zaman": "when", "nerede": "where", "neden": "why",
    "nasıl": "how", "kaç": "how", "nereye": "where", "nereden": "where",
}  # fmt: skip
_ROLES = {
    "nsubj": "subject",
    "nsubjpass": "object",  # "What was built?": the thing built, subject of a passive
    "dobj": "object",
    "attr": "attribute",
    "pobj": "prep",
    "dative": "object",
    "oprd": "attribute",
}
_BE = frozenset({"is", "was", "are", "were", "be", "been", "'s"})
# Nouns that name a kind, not a thing: "what type of ship" asks for a ship.
_VAGUE = frozenset({"type", "kind", "sort", "form", "name", "term", "part", "one", "group"})


@dataclass(frozen=True, slots=True)
class Cues:
    """The question as the reader reads it."""

    wh: str  # what / which / who / ... / "none"
    wh_next: str  # the wh-word with the word after it: "how_many", "what_year"
    answer_type: str
    role: str | None  # the wh-word's role: subject / object / attribute / prep
    verb: str | None  # the stem of the verb the wh-word hangs from
    focus: str | None  # the stem of the noun asked for ("regulation" in "Which regulation")
    focus_text: str  # its words ("type of ship" reads as "ship")
    terms: frozenset[str]  # the question's words as stems
    language: str


def cues_of(question: Question) -> Cues:
    """The reader's reading of ``question`` (read once per question text)."""
    return _cues(question.text, question.language, question.shape.answer_type.value)


@lru_cache(maxsize=512)
def _cues(text: str, language: str, answer_type: str) -> Cues:
    if language == "en":
        return cues_from_doc(text, parsed(text), answer_type)
    terms = frozenset(analyzer_for(language).terms(text))
    # Longest first: "por qué" is why, though it holds "qué".
    keys = sorted(_WH_OTHER, key=lambda k: (-len(words(k, language)), k))
    wh = next((_WH_OTHER[k] for k in keys if _says(text, words(k, language), language)), "none")
    return Cues(wh, wh, answer_type, None, None, None, "", terms, language)


def cues_from_doc(text: str, doc: Doc, answer_type: str) -> Cues:
    """The cues of an English question from its parse (training pipes many at once)."""
    analyzer = analyzer_for("en")
    language = "en"
    terms = frozenset(analyzer.terms(text))
    wh_token = next((t for t in doc if t.lower_ in WH_WORDS), None)
    if wh_token is None:
        return Cues("none", "none", answer_type, None, None, None, "", terms, language)
    after = doc[wh_token.i + 1].lower_ if wh_token.i + 1 < len(doc) else ""
    wh_next = f"{wh_token.lower_}_{after}"
    read = wh_role(wh_token, analyzer)
    focus = analyzer.term(read.focus.lower_) if read.focus is not None else None
    return Cues(
        *(wh_token.lower_, wh_next, answer_type, read.role, read.verb, focus),
        *(focus_words(read.focus), terms, language),
    )


def _says(text: str, words_of_it: list[str], language: str) -> bool:
    """Whether ``words_of_it`` stand together, in order, among the words of ``text``."""
    said = words(text, language)
    size = len(words_of_it)
    return any(said[i : i + size] == words_of_it for i in range(len(said) - size + 1))


@dataclass(frozen=True, slots=True)
class WhRole:
    """How a wh-word stands in its question: its role, the stem of its verb, the
    preposition it is the object of, and the token naming what is asked for."""

    role: str | None
    verb: str | None
    preposition: str | None
    focus: Token | None


def wh_role(wh: Token, analyzer: Analyzer) -> WhRole:
    """The role of the wh-word ``wh`` in its parsed question ("Which regulation covers
    ...": the subject of "cover", asking for a regulation)."""
    word, focus = wh, None
    if wh.dep_ in ("det", "poss"):  # "which regulation", "whose house"
        word = focus = wh.head
    role = _ROLES.get(word.dep_)
    preposition = word.head.lower_ if word.dep_ == "pobj" else None
    head = word.head.head if word.dep_ == "pobj" else word.head
    verb = analyzer.term(head.lower_) if head.pos_ in ("VERB", "AUX") else None
    if role == "attribute" or (head.lower_ in _BE and role == "subject"):
        # "What is the title of X?": the noun after "be" is what is asked for.
        attribute = next(
            (c for c in head.children if c.dep_ in ("attr", "nsubj") and c is not word), None
        )
        if attribute is not None and focus is None:
            focus = attribute
        role = "attribute"
    return WhRole(role, verb, preposition, focus)


def focus_words(token: Token | None) -> str:
    """The words naming what is asked for; "type of ship" and "kind of arches" name ships
    and arches."""
    if token is None:
        return ""
    if token.lower_ in _VAGUE:
        of = next((c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        objects = [c for c in of.children if c.dep_ == "pobj"] if of is not None else []
        if objects:
            token = objects[0]
    compounds = [c.text for c in token.children if c.dep_ in ("compound", "amod")]
    return " ".join([*compounds, token.text])
