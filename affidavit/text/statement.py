"""The statement a question asking yes or no asks about: "May there be subdirectories in
/usr/sbin?" asks whether "There may be subdirectories in /usr/sbin." The gate reads
statements, not questions: a question's clause frame has no polarity to contradict, so a
line saying "There must be no subdirectories in /usr/sbin" is read against the statement.

English only, from the parse: the auxiliary the question opens with goes after its
subject, and "does X include" becomes "X includes". None where the parse does not show
where the subject ends (a copula whose predicate is a bare noun: "Are the packages in
these areas part of the system?")."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from affidavit.text.nlp import parsed

# The auxiliaries and modals an English question asking yes or no opens with.
_OPENERS = (
    *("is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would"),
    *("should", "shall", "has", "have", "had", "may", "must", "might"),
)
_OPENING = re.compile(rf"^\W*(?:{'|'.join(_OPENERS)})\b", re.IGNORECASE)
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"})
# What a copula's predicate is, as the parse tags it: a participle or an adjective.
_PREDICATE_TAGS = frozenset({"VBN", "JJ"})
_DO = frozenset({"do", "does", "did"})


def statement_asked(question: str, language: str) -> str | None:
    """The statement an English question asking yes or no asks about, or None (another
    kind of question, another language, or a parse that does not show the subject)."""
    if language != "en":
        return None
    text = question.strip()
    first = text.split(maxsplit=1)[0].lower() if text else ""
    if first not in _OPENERS:
        return None
    doc = parsed(text)
    if len(doc) < 3 or doc[0].pos_ not in ("AUX", "VERB"):
        return None
    end = _subject_end(doc)
    if end is None or end >= len(doc) - 2:
        return None
    return _said(doc, end)


def opens_on_an_auxiliary(question: str) -> bool:
    """Does the text open, past any marks, on an English auxiliary or modal ("Is ...",
    "Must ..."), as a question asking yes or no does?"""
    return _OPENING.match(question) is not None


def _subject_end(doc: Doc) -> int | None:
    """The index of the subject's last token, after the auxiliary at 0."""
    opener = doc[0]
    head = opener if opener.dep_ == "ROOT" else opener.head
    subject = next((c for c in head.children if c.dep_ in _SUBJECTS and c.i > 0), None)
    end = subject.right_edge.i if subject is not None else None
    if head is not opener:
        return end
    # A copula ("Is the field required ...?"): the subject ends where its predicate
    # begins, when the parse gives the predicate after the subject's phrase ...
    predicates = [c for c in opener.children if c.dep_ in ("acomp", "attr") and c.i > 1]
    if end is not None and predicates and predicates[0].i > end:
        return end
    # ... else at the first participle or adjective that stands outside a noun phrase
    # ("machine-readable" inside "the machine-readable specification" is not one).
    phrases = [range(c.start, c.end) for c in doc.noun_chunks]
    for token in doc[2:]:
        inside = any(token.i in phrase for phrase in phrases)
        hyphened = token.nbor(-1).text == "-"
        if token.tag_ in _PREDICATE_TAGS and not inside and not hyphened:
            return token.i - 1
    return None


def _said(doc: Doc, end: int) -> str:
    opener = doc[0]
    subject = "".join(t.text_with_ws for t in doc[1 : end + 1]).strip()
    if subject[:1].islower():
        subject = subject[0].upper() + subject[1:]
    rest = [t for t in doc[end + 1 :] if t.text != "?"]
    said = [t.text_with_ws for t in rest]
    verb: str | None = opener.lower_
    head = opener.head
    if verb in _DO and verb != "did" and head.i != 0 and rest and rest[0].i == head.i:
        # "Does the summary include X?" -> "The summary includes X." ("did" keeps its tense)
        lemma = head.lemma_.lower()
        said[0] = (_third_person(lemma) if verb == "does" else lemma) + head.whitespace_
        verb = None
    body = "".join(said).strip()
    return (f"{subject} {verb} {body}" if verb else f"{subject} {body}").rstrip(" .") + "."


def _third_person(lemma: str) -> str:
    """The present tense's third person of an English verb's lemma."""
    if lemma == "be":
        return "is"
    if lemma == "have":
        return "has"
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and lemma[-2:-1] not in ("a", "e", "i", "o", "u"):
        return lemma[:-1] + "ies"
    return lemma + "s"
