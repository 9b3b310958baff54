"""A sentence to the claims it makes, for the read-back.

In English each clause head (the root verb, and verbs joined to it as conjuncts, clausal
complements, adverbial or relative clauses) makes one claim: its subject, the verb, and
its objects and prepositional phrases, without the sub-clauses, which make claims of
their own. A conjunct verb with no subject of its own shares its head's. A sentence with
no verb (a bare answer such as "Arthur's Magazine") is one claim. Spanish and Turkish
have no parser installable here, so each of their sentences is one claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

from affidavit.gates.content import content_terms, is_negated
from affidavit.index.text import Analyzer
from affidavit.nlp import parse_pipeline

_CLAUSE_DEPS = frozenset({"ROOT", "conj", "ccomp", "advcl", "relcl", "xcomp", "acl", "pcomp"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
_VERBAL = frozenset({"VERB", "AUX"})


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    terms: frozenset[str]
    negated: bool

    def to_dict(self) -> dict[str, object]:
        return {"text": self.text, "terms": sorted(self.terms), "negated": self.negated}


def extract_claims(sentence: str, analyzer: Analyzer) -> list[Claim]:
    """The claims of one sentence, in order (at least one for any non-empty sentence)."""
    language = analyzer.language
    whole = Claim(sentence, content_terms(sentence, analyzer), is_negated(sentence, language))
    if language != "en" or len(sentence) > 2000:
        return [whole]
    claims = []
    for text, has_number in clause_texts(sentence):
        terms = content_terms(text, analyzer)
        if terms or has_number:
            claims.append(Claim(text, terms, is_negated(text, language)))
    return claims or [whole]


@lru_cache(maxsize=4096)
def clause_texts(sentence: str) -> tuple[tuple[str, bool], ...]:
    """(clause text, whether it holds a number) per clause head of an English sentence."""
    doc = parse_pipeline()(sentence)
    heads = [t for t in doc if t.pos_ in _VERBAL and t.dep_ in _CLAUSE_DEPS]
    head_ids = {t.i for t in heads}
    clauses = []
    for head in heads:
        tokens = _clause_tokens(head, head_ids)
        if not any(t.dep_ in _SUBJECT_DEPS for t in head.children):
            tokens |= _inherited_subject(head, head_ids)
        ordered = sorted(tokens, key=lambda t: t.i)
        clauses.append((" ".join(t.text for t in ordered), any(t.like_num for t in ordered)))
    return tuple(clauses)


def _clause_tokens(head: Token, head_ids: set[int]) -> set[Token]:
    """The head and everything under it, minus the sub-clauses headed elsewhere."""
    collected: set[Token] = set()
    stack = [head]
    while stack:
        token = stack.pop()
        collected.add(token)
        stack.extend(c for c in token.children if c.i not in head_ids)
    return collected


def _inherited_subject(head: Token, head_ids: set[int]) -> set[Token]:
    """For "X founded Y and led Z": the second verb's subject is the first verb's."""
    current = head
    while current.dep_ in ("conj", "xcomp") and current.head is not current:
        current = current.head
        for child in current.children:
            if child.dep_ in _SUBJECT_DEPS:
                return _clause_tokens(child, head_ids)
    return set()
