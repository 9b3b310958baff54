"""A question in Spanish or Turkish read in English, word by word through the labels, so
that it is asked of English lines by the same reader, retrieval and gates as an English
question: a question word matches a line word when both label one concept.

Each word of the question is read, in this order, as: a question word of its language
("¿cuántos" is "how many"); a number, spelled alike in every language; a Turkish name
before its case ending ("Broncos'u" is "Broncos"); a word the operator labelled; one of
the few common words the model cannot place ("nuevo" is "new"); the cognate the found
lines write ("ctenóforos": "ctenophores"); a name the store holds; a label of the bundled
model the found lines use; the found lines' word nearest it in the model's space; a label
the store holds; the word itself, where the store writes it; the label of its stem
("bölgelerinde" by "bölge"). The found lines are those the question finds as asked (the
meaning channel reads across languages), then those its reading so far finds. A function
word nothing reads is left out; any other word nothing reads stays as asked, so the gate
finds it missing. The reading, word by word, goes into the answer's audit (``read_in``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from affidavit.index import Retriever, Scope
from affidavit.records.labels import LABELLED_LANGUAGES, Label, Labels
from affidavit.text import NEAR, analyzer_for, asked_words, english_number, fold, likeness, words
from affidavit.text import stem as stem_of
from affidavit.text import vocabulary as vocabulary_of

_LONGEST_QUESTION_PHRASE = 3
# Letters and marks only Spanish or Turkish write, each as good as a function word.
_MARKS = {"es": "ñ¿¡", "tr": "ğışİĞŞ"}
# How near (cosine, the bundled model) a word of the evidence must lie to a word of the
# question to be read as it. NOTE: read off XQuAD's tune articles (bench/xquad.py, es / tr
# questions over the English paragraphs, answered and F1): at 0.7 es 0.136 / 0.091, tr
# 0.074 / 0.031; 0.5 es 0.132 / 0.098, tr 0.089 / 0.047; 0.4 es 0.144 / 0.109, tr 0.082
# / 0.049; 0.3 es 0.144 / 0.114, tr 0.069 / 0.043. The evidence is a few lines, so a
# loose cut finds few wrong words; a word left unread would only fail the gate.
EVIDENCE_THRESHOLD = 0.4
# How many of the lines a question finds lend their words to its reading.
EVIDENCE_LINES = 8


@dataclass(frozen=True, slots=True)
class Gloss:
    """``question`` (in ``language``) as read in the store's language: ``read_as``, and
    for each word of it what it was read as and how."""

    question: str
    language: str
    read_as: str
    words: tuple[tuple[str, str, str], ...]  # (as asked, as read, how)

    def to_dict(self) -> dict[str, object]:
        return {
            "language": self.language,
            "read_as": self.read_as,
            "words": [{"asked": a, "read": r, "how": h} for a, r, h in self.words],
        }


def gloss(
    question: str,
    language: str,
    labels: Labels,
    vocabulary: Mapping[str, int] | Container[str],
    store_language: str = "en",
    evidence: Sequence[str] = (),
) -> Gloss:
    """Read ``question``, asked in ``language``, in the store's language (English, the
    one the labels point into) against the store's ``vocabulary`` (its index terms).
    ``evidence`` are the lines the question, as asked, found: a word of the question is
    read as the word of those lines nearest it in the model's space when one is near
    enough, so the reading speaks the lines' words ("surrender", not "escape")."""
    lists = vocabulary_of(language)
    operator = labels.operator()
    analyzer = analyzer_for(store_language)
    near_lines = NearWords(evidence, store_language)

    def held(word: str) -> bool:
        """Do the store's lines hold ``word`` (a content word of the store's language)?"""
        term = analyzer.term(fold(word, store_language))
        return term is not None and term in vocabulary

    tokens = asked_words(question)
    folded = [fold(t, language) for t in tokens]
    # (place in the question, (as asked, as read, how))
    read: list[tuple[int, tuple[str, str, str]]] = []
    asks: list[tuple[int, tuple[str, str, str]]] = []
    i = 0
    while i < len(tokens):
        phrase = _question_phrase(folded, i, lists.question_words)
        if phrase is not None:
            span, english = phrase
            asks.append((i, (" ".join(tokens[i : i + span]), english, "question word")))
            i += span
            continue
        word = _read_word(tokens[i], folded[i], i, language, labels, operator, held, near_lines)
        if word is not None:
            read.append((i, word))
        elif not _function_word(folded[i], language):
            # A word nothing reads stays as asked, so the gate finds it missing and refuses
            # rather than answer a vaguer question ("¿Cuál es la cuota anual?" without
            # "cuota" is "what is annual?"). NOTE: leaving such words out answered more on
            # XQuAD tune (es 0.141 against 0.104) but about one wrong answer per extra right.
            read.append((i, (tokens[i], tokens[i], "not read")))
        i += 1
    # The question word leads in English; Turkish asks at the end of the clause, and the
    # noun a Turkish "hangi" or "kaç" asks about follows it ("Jacksonville hangi
    # eyalettedir?": "which state ... Jacksonville"), so it is led out with it. Spanish
    # keeps its order, near enough English's.
    placed = _turkish_order(asks, read) if language == "tr" else sorted([*asks, *read])
    words = tuple(entry for _, entry in placed)
    text = " ".join(r for _, r, _ in words if r)
    return Gloss(question, language, (text[:1].upper() + text[1:] + "?") if text else "", words)


def across_languages(
    question: str, language: str, retriever: Retriever, scope: Scope | None = None
) -> Gloss | None:
    """``question``, asked in ``language`` (as read at the door), read in the store's
    language when that is another that the labels read (Spanish or Turkish, over English
    lines); None when it needs no reading. The words are read against the lines the
    question finds (within ``scope``): as asked first (the meaning channel reads across
    languages), then as read so far."""
    index = retriever.words()

    def evidence(asked: str) -> list[str]:
        return [hit.text for hit in retriever.retrieve(asked, scope=scope).hits[:EVIDENCE_LINES]]

    return read_across(
        question, language, index.main_language, index.vocabulary, Labels(retriever.store), evidence
    )


def read_across(
    question: str,
    language: str,
    store_language: str,
    vocabulary: Mapping[str, int] | Container[str],
    labels: Labels,
    evidence: Callable[[str], list[str]],
) -> Gloss | None:
    """``across_languages`` over a store read through these: its main language, its
    index terms (``vocabulary``), its labels, and the lines a text finds (``evidence``,
    the best EVIDENCE_LINES): ``reading_across``'s steps, each text answered by
    ``evidence``."""
    steps = reading_across(question, language, store_language, vocabulary, labels)
    found: list[str] | None = None
    while True:
        try:
            asked = steps.send(found)
        except StopIteration as done:
            return done.value
        found = evidence(asked)


# The texts a reading across languages asks the lines of, and the lines each finds.
ReadingSteps = Generator[str, Any, Gloss | None]


def reading_across(
    question: str,
    language: str,
    store_language: str,
    vocabulary: Mapping[str, int] | Container[str],
    labels: Labels,
) -> ReadingSteps:
    """The steps of ``read_across``: each step yields a text whose lines the reading
    needs and is sent them back, so a room whose lines come from elsewhere (a sharded
    store's, archive/) finds them itself and is never called back from here."""
    if store_language != "en" or language not in LABELLED_LANGUAGES:
        return None
    # A guess is not enough to rewrite a question: its own language's function words must
    # outnumber English's ("Which two compounds did Al-Muwaffaq..." is not Spanish for
    # its "al").
    asked = words(question, language)
    own = sum(1 for w in asked if w in vocabulary_of(language).probes)
    theirs, ours = vocabulary_of("en").stop_words, vocabulary_of(language).stop_words
    english = sum(1 for w in asked if w in theirs and w not in ours)
    if own + sum(1 for c in question if c in _MARKS[language]) <= english:
        return None
    found = list((yield question))
    read = gloss(question, language, labels, vocabulary, store_language, found)
    if read.read_as and any(how == "not read" for _, _, how in read.words):
        # The words read so far find English lines the question as asked may not (the
        # word channel reads no Spanish): their words read the rest.
        found += [line for line in (yield read.read_as) if line not in found]
        read = gloss(question, language, labels, vocabulary, store_language, found)
    return read if read.read_as else None


def _turkish_order(
    asks: list[tuple[int, tuple[str, str, str]]], read: list[tuple[int, tuple[str, str, str]]]
) -> list[tuple[int, tuple[str, str, str]]]:
    led: list[tuple[int, tuple[str, str, str]]] = []
    rest = list(read)
    for place, asked in asks:
        led.append((place, asked))
        span = len(asked[0].split())
        following = next((r for r in rest if r[0] == place + span), None)
        if following is not None and asked[1] in ("which", "how many", "what kind of"):
            led.append(following)
            rest.remove(following)
    return led + rest


def _question_phrase(
    folded: list[str], start: int, phrases: Mapping[str, str]
) -> tuple[int, str] | None:
    for span in range(_LONGEST_QUESTION_PHRASE, 0, -1):
        english = phrases.get(" ".join(folded[start : start + span]))
        if english is not None and start + span <= len(folded):
            return span, english
    return None


def _read_word(
    token: str,
    word: str,
    place: int,
    language: str,
    labels: Labels,
    operator: Mapping[tuple[str, str], list[str]],
    held: Callable[[str], bool],
    near_lines: NearWords,
) -> tuple[str, str, str] | None:
    if any(c.isdigit() for c in token):
        return token, english_number(_before_apostrophe(token)), "number"
    if _before_apostrophe(token) != token:  # a Turkish name with its ending: "Polonya'daki"
        name = _before_apostrophe(token)
        cognate = near_lines.cognate(name, language)
        if cognate is not None:
            return token, cognate, "cognate in the evidence"
        if not held(name):
            label = _chosen(labels.meanings(fold(name, language), language, operator), held)
            if label is not None:
                return token, label.means, "label"
        return token, name, "name"
    labelled = labels.meanings(word, language, operator)  # the operator's first
    if labelled and labelled[0].source == "operator":
        return token, labelled[0].means, "operator"
    common = vocabulary_of(language).common_words.get(word)
    if common is not None:
        return token, common, "common word"
    stop = _function_word(word, language)
    # The found lines' spelling of the word first ("Italia": "Italy", "ctenóforos":
    # "ctenophores"), even where the store spells it the asker's way somewhere too.
    cognate = None if stop else near_lines.cognate(word, language)
    if cognate is not None:
        return token, cognate, "cognate in the evidence"
    if token[:1].isupper() and place > 0 and held(word):
        return token, token, "name"
    # A Turkish or Spanish word is read by its stem too: "bölgelerinde" by "bölge".
    root = stem_of(word, language)
    meanings = labelled or (labels.meanings(root, language, operator) if len(root) >= 3 else [])
    if not stop:
        # A label the found lines use is the surest reading; then the lines' own word
        # nearest the question's.
        used = next((m.means for m in meanings if near_lines.uses(m.means)), None)
        if used is not None:
            return token, used, "label"
        # NOTE: reading a capitalised word only as its cognate (so "Nobel" is never read as
        # the nearby "Edison") took XQuAD tune es from F1 0.109 to 0.101, precision too.
        near = near_lines.nearest(word, language)
        if near is not None:
            return token, near, "nearest in the evidence"
    chosen = _chosen(meanings, held)
    if chosen is not None:
        # A function word is read only where it means a word the store's lines hold
        # ("día": "day"), not a function word of English ("antes": "before").
        return token, chosen.means, "label"
    if stop or len(word) < 3:
        return None
    if held(word):
        return token, token, "same spelling"
    stem = _chosen(labels.stem_meanings(word, language, operator), held)
    if stem is not None:
        return token, stem.means, "label of its stem"
    if token[:1].isupper() and place > 0:
        return token, token, "name"  # a name the store does not hold must still be matched
    return None


class NearWords:
    """The content words of some lines, with the model's vectors, to find the one nearest
    a word of another language."""

    def __init__(self, lines: Sequence[str], language: str) -> None:
        stop = vocabulary_of(language).stop_words
        found = {w for line in lines for w in words(line, language) if w not in stop}
        self._words = sorted(w for w in found if len(w) > 2 and w.isalpha())
        self._analyzer = analyzer_for(language)
        self._terms = {self._analyzer.term(w) for w in self._words}
        self._vectors: np.ndarray | None = None

    def uses(self, word: str) -> bool:
        """Do the lines use ``word`` (in any of its inflections)?"""
        return self._analyzer.term(word) in self._terms

    def cognate(self, word: str, language: str) -> str | None:
        """The lines' word that is ``word``'s cognate (text/cognates.py), if one is."""
        if not self._words:
            return None
        alike = max(self._words, key=lambda w: (likeness(word, w, (language, "en")), w))
        return alike if likeness(word, alike, (language, "en")) >= NEAR else None

    def nearest(self, word: str, language: str) -> str | None:
        """The lines' word nearest ``word`` in the model's space, at or above
        EVIDENCE_THRESHOLD. NOTE: the stem's vector beside the word's ("bölge" for
        "bölgelerinde") took XQuAD tune from F1 0.109 / 0.052 (es / tr) to 0.094 / 0.045:
        a stem piece lies near too many words. Keeping the lines' names (words written
        capitalised inside a sentence only) out of reach, so "diseñó" is never read as the
        nearby "Vail", took es from answered 0.117 / F1 0.094 to 0.099 / 0.082."""
        if not self._words:
            return None
        from affidavit.index import BundledEncoder, encode

        if self._vectors is None:
            self._vectors = encode(BundledEncoder(), self._words)
        vector = encode(BundledEncoder(), [word])[0]
        if not vector.any():
            return None
        similarity = self._vectors @ vector
        best = int(np.argmax(similarity))
        return self._words[best] if similarity[best] >= EVIDENCE_THRESHOLD else None


def _function_word(word: str, language: str) -> bool:
    """A stop word, a number word as often an article ("bir", "una"), or a light verb or
    copula ("etmiştir"): what a reading leaves out unless a label says otherwise."""
    lists = vocabulary_of(language)
    return (
        word in lists.stop_words
        or word in lists.ambiguous_number_words
        or word.startswith(lists.light_word_starts)
    )


def _before_apostrophe(token: str) -> str:
    return token.replace("’", "'").split("'")[0]


def _chosen(meanings: list[Label], held: Callable[[str], bool]) -> Label | None:
    """Of a word's meanings, the first the store's lines use (a meaning no line uses can
    match no line: it is no reading)."""
    return next((label for label in meanings if held(label.means)), None)
