"""A question in Spanish or Turkish read in English, word by word through the labels, so
that it is asked of English lines by the same reader, retrieval and gates as an English
question: a question word matches a line word when both label one concept.

Each word of the question is read, in this order, as: a question word of its language
("¿cuántos" is "how many"); a number or a name, spelled alike in every language (the
part of a Turkish name before its apostrophe: "Broncos'u" is "Broncos"); a word the
operator labelled; a word of the bundled labels (among several meanings, the one the
store's lines use); a word the store's lines hold as it is; the labelled stem of an
inflected word; the store's nearest English word in the model's space. A function word of
the question's language that none of these reads is left out; any other word is kept as
asked. The gloss, word by word, goes into the answer's audit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from affidavit.records.labels import LABELLED_LANGUAGES, Label, Labels
from affidavit.store.sqlite import Store
from affidavit.text.analyzer import analyzer_for
from affidavit.text.lang import vocabulary as vocabulary_of
from affidavit.text.language import detect_language
from affidavit.text.words import asked_words, fold, words

_LONGEST_QUESTION_PHRASE = 3
# Letters and marks only Spanish or Turkish write, each as good as a function word.
_MARKS = {"es": "ñ¿¡", "tr": "ğışİĞŞ"}
# How near (cosine, the bundled model) a word of the evidence must lie to a word of the
# question to be read as it: read off XQuAD's tune articles (bench/xquad.py).
EVIDENCE_THRESHOLD = 0.7


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
    vocabulary: Mapping[str, int],
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
        elif folded[i] not in lists.stop_words:
            # A word nothing reads is left out of the reading (the audit lists it): kept,
            # it could only fail to match, and the lines are tested on the words read.
            read.append((i, (tokens[i], "", "not read")))
        i += 1
    # The question word leads in English; Turkish asks at the end of the clause. Spanish
    # keeps its order, near enough English's.
    placed = [*asks, *read] if language == "tr" else sorted([*asks, *read])
    words = tuple(entry for _, entry in placed)
    text = " ".join(r for _, r, _ in words if r)
    return Gloss(question, language, (text[:1].upper() + text[1:] + "?") if text else "", words)


def across_languages(
    question: str,
    store: Store,
    vocabulary: Mapping[str, int],
    store_language: str,
    evidence: Callable[[str], Sequence[str]],
) -> Gloss | None:
    """``question`` read in the store's language when it is asked in another that the
    labels read (Spanish or Turkish, over English lines); None when it needs no reading.
    ``evidence`` gives the lines a question finds as asked (the meaning channel reads
    across languages)."""
    language = detect_language(question, default=store_language)
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
    found = evidence(question)
    read = gloss(question, language, Labels(store), vocabulary, store_language, found)
    return read if read.read_as else None


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
        return token, _before_apostrophe(token), "number"
    if _before_apostrophe(token) != token:  # a Turkish name with its ending: "Polonya'daki"
        name = _before_apostrophe(token)
        if not held(name):
            label = _chosen(labels.meanings(fold(name, language), language, operator), held)
            if label is not None:
                return token, label.means, "label"
        return token, name, "name"
    if token[:1].isupper() and place > 0 and held(word):
        return token, token, "name"
    told = [m for m in labels.meanings(word, language, operator) if m.source == "operator"]
    if told:
        return token, told[0].means, "operator"
    stop = word in vocabulary_of(language).stop_words
    if not stop:
        near = near_lines.nearest(word)
        if near is not None:
            return token, near, "nearest in the evidence"
    chosen = _chosen(labels.meanings(word, language, operator), held)
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
        self._vectors: np.ndarray | None = None

    def nearest(self, word: str) -> str | None:
        if not self._words:
            return None
        from affidavit.index.meaning.encoder import BundledEncoder, encode

        if self._vectors is None:
            self._vectors = encode(BundledEncoder(), self._words)
        vector = encode(BundledEncoder(), [word])[0]
        if not vector.any():
            return None
        similarity = self._vectors @ vector
        best = int(np.argmax(similarity))
        return self._words[best] if similarity[best] >= EVIDENCE_THRESHOLD else None


def _before_apostrophe(token: str) -> str:
    return token.replace("’", "'").split("'")[0]


def _chosen(meanings: list[Label], held: Callable[[str], bool]) -> Label | None:
    """Of a word's meanings, the first the store's lines use (a meaning no line uses can
    match no line: it is no reading)."""
    return next((label for label in meanings if held(label.means)), None)
