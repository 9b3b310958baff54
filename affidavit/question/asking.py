"""What a question asks for, beyond its shape, read once at the door from its words: a
definition of a term it quotes, what a rule says, a value it names, the past rather than
now, and the words it names a document by. The stages after the door read these, never the
question's text."""

from __future__ import annotations

import re
from functools import lru_cache

from affidavit.text import (
    YEAR,
    Analyzer,
    acronyms,
    is_negated,
    parsed,
    quoted_terms,
    written_word_spans,
)

# "What does “X” mean?", "What is the “X”?", "Who is the “X”?", "How is “X” defined?":
# a question asking what a quoted term is.
_ASKS_DEFINITION = re.compile(
    r"\b(?:mean|means|meant|refers?|defined?|definition)\b"
    r"|\b(?:what|who)\s+(?:is|are)\s+(?:(?:a|an|the)\s+)?[“\"]",
    re.IGNORECASE,
)
# The words of a question that asks what a rule says. NOTE: only a rule is quoted: on
# SQuAD 2.0's tune split, quoting the line for every clause-shaped question ("What was
# replaced…?") answered its unanswerable questions and took F1 from 0.569 to 0.526.
_RULE_WORDS = frozenset(
    "must shall should may required permitted allowed obliged prohibited forbidden".split()
)
# Nouns that name a value ("Which UID range is used…?"): asked right after "what" or
# "which", they make the answer a typed value whatever the shape reads.
_VALUE_NOUNS = frozenset(
    "range ranges number numbers amount amounts fee fees rate rates percentage price prices "
    "cost costs date dates year years day days limit limits total value values size count "
    "version versions address".split()
)
# Nouns that ask for a kind rather than name one ("what kind of research"): the noun they
# govern is the one asked for.
_KIND_NOUNS = frozenset("kind kinds type types sort sorts".split())
# The words that put a question in the past: what was, not what is.
_PAST = re.compile(
    r"\b(?:did|was|were|had|used to|before|previous(?:ly)?|former(?:ly)?|originally|first|"
    rf"ago|earlier|then|once|until|in {YEAR}|last (?:year|month|week))\b",
    re.I,
)
# Nouns a question uses to name a document as a document: "in the Apache License", "under
# the retention policy". A question that says one names its document, and the document's
# name, which its dateline writes for every line, carries the words that name it.
_DOCUMENT_NOUNS = {
    "en": (
        "license licence licenses licences agreement policy act regulation regulations rule "
        "rules contract lease standard"
    ),
    "es": "licencia acuerdo política ley reglamento norma contrato",
    "tr": "lisans sözleşme politika kanun yönetmelik kural",
}


def definition_asked(text: str) -> tuple[str, ...]:
    """The terms ``text`` quotes when it asks what they are or mean ("What does
    “Contributor” mean?"), lower-cased; empty when it asks no definition."""
    quoted = quoted_terms(text)
    if not quoted or not _ASKS_DEFINITION.search(text):
        return ()
    return tuple(dict.fromkeys(t.strip().lower() for t in quoted))


def quoted_asked(text: str) -> frozenset[str]:
    """Every term ``text`` sets in quotation marks, lower-cased: a line that answers a
    question about a quoted term quotes it too."""
    return frozenset(t.strip().lower() for t in quoted_terms(text))


def rule_asked(text: str) -> bool:
    """Does the question ask what a rule requires, permits or forbids ("What must
    redistributions retain?")? Its answer is the rule: the line that states it. The words
    are read as written: "May" with a capital is a month ("in May of 2012")."""
    return any(w.strip("?,.\"'") in _RULE_WORDS for w in text.split())


def value_asked(text: str) -> bool:
    """Does a "what/which" question name a value as what it asks for ("Which UID range…",
    "What fee…")? Its answer is typed though its shape is loose: a line is no answer."""
    words = [w.strip("?,.\"'").lower() for w in text.split()]
    for at, word in enumerate(words):
        if word in ("what", "which"):
            return any(w in _VALUE_NOUNS for w in words[at + 1 : at + 4])
    return False


def past_asked(text: str) -> bool:
    """Does the question ask of what was ("Who was the first…", "in 2019") rather than of
    what is now?"""
    return _PAST.search(text) is not None


# Words that ask of what is not so, or not allowed, without a "not": asked "What is
# excluded?", the line "It does not include X" answers X.
_NEGATIVE_WORDS = re.compile(
    r"\b(?:exclu(?:de|des|ded|ding|sion)|prohibit\w*|forb(?:id|ids|ade|idden)|"
    r"bann?(?:s|ed|ing)?|barr(?:ed|ing)|restrict\w*|prevent\w*|disallow\w*|except\w*|"
    r"exempt\w*|lack\w*|omit\w*|fail\w*|refus\w*|den(?:y|ies|ied)|avoid\w*|without|"
    r"unless|neither|nor)\b",
    re.IGNORECASE,
)


def negative_asked(text: str, language: str) -> bool:
    """Does the question ask of what is not so ("What may not be used…", "Which files
    are excluded?")? Only English is read for the words that mean it without a "not";
    another language's question counts as negative whenever it negates."""
    if is_negated(text, language):
        return True
    return language != "en" or _NEGATIVE_WORDS.search(text) is not None


@lru_cache(maxsize=8)
def document_nouns(language: str) -> frozenset[str]:
    """The index terms of the nouns that name a kind of document ("licence", "policy"),
    in ``language``."""
    return frozenset(Analyzer(language).terms(_DOCUMENT_NOUNS.get(language, "")))


def words_naming_a_document(text: str, analyzer: Analyzer) -> list[str]:
    """The words a question names a document by: the capitalised words right before a
    noun of a kind of document ("Mozilla Public" of "the Mozilla Public License") and the
    version after it ("2" of "License version 2")."""
    nouns = document_nouns(analyzer.language)
    written = [text[start:end] for start, end in written_word_spans(text)]
    found: list[str] = []
    for at, word in enumerate(written):
        if not word[:1].isupper() or analyzer.term(word.lower()) not in nouns:
            continue
        before = at
        while before > 0 and written[before - 1][:1].isupper() and at - before < 4:
            before -= 1
        found.extend(written[before:at])
        # "License version 2", "License, v. 2.0": the version the name goes with.
        after = written[at + 1 : at + 3]
        if after and after[0].lower() in ("version", "v", "v."):
            found.extend(after[1:2])
    return list(dict.fromkeys(found))


def naming_words(text: str, analyzer: Analyzer) -> tuple[frozenset[str], frozenset[str]]:
    """The terms a question may name a document by: the words of a title it writes out
    (``words_naming_a_document``, less the nouns of a kind of document), and its acronyms' terms."""
    nouns = document_nouns(analyzer.language)
    phrase = frozenset(analyzer.terms(" ".join(words_naming_a_document(text, analyzer)))) - nouns
    return phrase, frozenset(analyzer.terms(" ".join(acronyms(text))))


def without_words(text: str, terms: frozenset[str], analyzer: Analyzer) -> str:
    """``text`` without the words whose terms are ``terms``, as written otherwise."""
    kept = [
        text[start:end]
        for start, end in written_word_spans(text)
        if analyzer.term(text[start:end].lower()) not in terms
    ]
    return " ".join(kept)


@lru_cache(maxsize=1024)
def asked_noun(text: str) -> str | None:
    """The noun an English question's wh-word asks for, as a lemma in lower case:
    "option" of "Which option of dh_make recovers…?", "basis" of "On what basis…?", "day"
    of "Within how many days…?", "research" of "For what kind of research…?". None when
    the wh-word asks for no noun ("What is…?", "Who…?"). An answer that names the noun or
    stands in its phrase fills the slot asked; one apart from the noun its line writes
    fills another (scorer/likelihood.py reads both)."""
    doc = parsed(text)
    for token in doc:
        word = token.lower_
        asks = word in ("which", "what", "whose") and token.dep_ in ("det", "poss")
        counts = word in ("many", "much") and token.i > 0 and doc[token.i - 1].lower_ == "how"
        noun = token.head
        if not (asks or counts) or noun.i <= token.i or noun.pos_ not in ("NOUN", "PROPN"):
            continue
        if noun.lemma_.lower() in _KIND_NOUNS:
            # "what kind of research": the kind's own noun
            of = next((c for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"), None)
            governed = next((c for c in of.children if c.dep_ == "pobj"), None) if of else None
            noun = governed if governed is not None else noun
        return noun.lemma_.lower()
    return None
