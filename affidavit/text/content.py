"""What a sentence commits to, as the gates compare it: content terms, numbers, polarity."""

from __future__ import annotations

import re
from functools import lru_cache

from affidavit.text.abbreviations import (
    bound_terms,
    expansion_terms,
    initial_terms,
    without_number_signs,
)
from affidavit.text.analyzer import Analyzer, analyzer_for
from affidavit.text.lang import VOCABULARIES
from affidavit.text.numbers import LANGUAGE_NUMBER_WORDS
from affidavit.text.quantities import PERCENT_WORDS
from affidavit.text.spans import EMAIL_SHAPE, URL_SHAPE
from affidavit.text.tokens import words

# The words that negate a clause, by language.
NEGATIONS: dict[str, frozenset[str]] = {
    language: words.negations for language, words in VOCABULARIES.items()
}
_CONTRACTED = re.compile(r"n[’']t\b", re.IGNORECASE)
# The negative suffix -ma/-me before a tense: past -madı, progressive -mıyor, future
# -mayacak, aorist -maz, reported -mamış (with their vowel-harmony forms); a capitalised
# word is a name ("Yılmaz"), not a verb.
_TURKISH_NEGATIVE_VERB = re.compile(
    r"\b[a-zçğıöşü]\w+(?:m[aeıi]d[ıiuü]|m[ıiuü]yor|m[ae]y[ae]c[ae]k|m[ae]z|m[ae]m[ıi]ş)\w*\b",
)


def content_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """The non-numeric index terms of ``text``: the index's own terms (stemmed, folded, stop
    words out), so the gates and retrieval agree on what counts as the same word.

    Number words of the text's language ("three", "one") and the words that make a number
    a percent ("7 percent" is "7%") are the digit veto's, and are left out here by the
    exact word, so "tens" or "quinces" remain words to check. Single
    letters (a possessive's s) are left out, unless they are all the text says ("R&B"),
    which must still be checked against the evidence.
    """
    numbers = LANGUAGE_NUMBER_WORDS.get(analyzer.language, frozenset()) | PERCENT_WORDS
    terms = [
        t
        for w in words(text, analyzer.language)
        if w not in numbers and (t := analyzer.term(w)) is not None and not t[0].isdigit()
    ]
    longer = frozenset(t for t in terms if len(t) > 1)
    return longer if longer or not terms else frozenset(terms)


def is_negated(text: str, language: str = "en") -> bool:
    """Whether ``text`` says no: a negation word, an English "n't", or a Turkish verb in
    its negative form ("gelmedi", "bilmiyor", "olmaz")."""
    if language == "en" and _CONTRACTED.search(text):
        return True
    if language == "tr" and _TURKISH_NEGATIVE_VERB.search(text):
        return True
    negations = NEGATIONS.get(language, NEGATIONS["en"])
    if language == "en":
        text = without_number_signs(text)  # "Cat. No. 11327A" says a number, not no
    return any(w in negations for w in words(text, language))


def evidence_terms(text: str, analyzer: Analyzer) -> frozenset[str]:
    """The terms a line's text carries as evidence: its content terms, its abbreviations
    spelled out, the initials of the names it writes ("European Union": "eu"), the bounds
    it sets as a question names them ("at least 8": "minimum"), the kind of address it
    writes ("email", "website") and its numbers. Read once per text and language."""
    return _evidence_terms(text, analyzer.language)


# A line writing an e-mail address carries the word for one ("To what address are new
# bug reports e-mailed?" of "send it to submit@bugs.debian.org"), and one writing a web
# address the word for that: the value says what kind it is.
_KIND_WORDS = {"en": ((EMAIL_SHAPE, "email mail"), (URL_SHAPE, "website web"))}


# NOTE: measured on a 20.9 MB store, 15 questions: the exit gate read lines' terms 4,880
# times (325 a question: each candidate's judgement reads the same lines again), 20% of
# ask's time.
@lru_cache(maxsize=8192)
def _evidence_terms(text: str, language: str) -> frozenset[str]:
    analyzer = analyzer_for(language)
    numbers = frozenset(t for t in analyzer.terms(text) if t[0].isdigit())
    named = initial_terms(text, analyzer)
    spelled = expansion_terms(text, analyzer) | bound_terms(text, analyzer)
    kinds = [names for shape, names in _KIND_WORDS.get(language, ()) if shape.search(text)]
    if kinds:
        spelled |= frozenset(analyzer.terms(" ".join(kinds)))
    return content_terms(text, analyzer) | spelled | named | numbers
