"""A sentence to the claims it makes, one a clause, for the read-back."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

from affidavit.text import LETTER, LETTER_OR_DIGIT, Analyzer, content_terms, is_negated, parsed

_CLAUSE_DEPS = frozenset({"ROOT", "conj", "ccomp", "advcl", "relcl", "xcomp", "acl", "pcomp"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
_VERBAL = frozenset({"VERB", "AUX"})
_MODIFYING = frozenset({"relcl", "acl"})
_CONDITIONS = frozenset({"if", "unless"})
_NOUN_PARTS = frozenset({"compound", "amod", "flat", "nmod", "poss", "nummod", "appos"})


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    terms: frozenset[str]
    negated: bool

    def to_dict(self) -> dict[str, object]:
        return {"text": self.text, "terms": sorted(self.terms), "negated": self.negated}


def extract_claims(sentence: str, analyzer: Analyzer) -> list[Claim]:
    """The claims of one sentence, in order (at least one for any non-empty sentence).

    A sentence with no verb (a bare answer such as "Arthur's Magazine") is one claim.
    Spanish and Turkish have no parser installable here, so each of their sentences is one
    claim.
    """
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
    """(clause text, whether it holds a number) per clause head of an English sentence.

    Each clause head (the root verb, and verbs joined to it as conjuncts, clausal
    complements, adverbial or relative clauses) makes one claim: its subject, the verb,
    and its objects and prepositional phrases, without the sub-clauses, which make claims
    of their own. A conjunct verb with no subject of its own shares its head's. A relative
    clause also takes the noun phrase it modifies.
    """
    doc = parsed(sentence)
    heads = [
        t for t in doc if t.pos_ in _VERBAL and t.dep_ in _CLAUSE_DEPS and not _is_unasserted(t)
    ]
    if not heads:
        return ()  # no verb: the sentence is one claim, as written
    head_ids = {t.i for t in heads}
    groups: list[set[Token]] = []
    for head in heads:
        tokens = _clause_tokens(head, head_ids)
        if not any(t.dep_ in _SUBJECT_DEPS for t in head.children):
            tokens |= _inherited_subject(head, head_ids)
        if head.dep_ in _MODIFYING and head.head is not head:
            # "Yersinia pestis, which reached Crimea": the clause speaks of its antecedent.
            tokens |= _noun_phrase(head.head, head_ids)
        groups.append(tokens)
    # Words no clause holds (a noun at the root, a phrase before a relative clause) still
    # make a claim: they join the first one, so the read-back sees every word.
    covered = set().union(*groups) if groups else set()
    stray = {t for t in doc if t not in covered and not t.is_punct and not t.is_space}
    if stray:
        groups[0] |= stray
    clauses = []
    for tokens in groups:
        ordered = sorted(tokens, key=lambda t: t.i)
        text = _as_written(ordered)
        clauses.append((text, any(t.like_num for t in ordered)))
    return tuple(clauses)


def _is_unasserted(verb: Token) -> bool:
    """An infinitival complement ("consider 8 to be a number", "began to write") or a
    condition ("would not work if 1 were considered a prime").

    Neither is said on its own (to consider 8 a number is not to say 8 is one; a
    condition is not a fact), so each stays inside the claim of the clause it belongs
    to, numbers and all, and is read back with it.
    """
    if verb.dep_ in ("ccomp", "xcomp"):
        return any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children)
    if verb.dep_ == "advcl":
        return any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in verb.children)
    if verb.dep_ == "conj" and verb.head is not verb:
        # "if 1 were a prime or if 9 were one": a conjunct of a condition is one too.
        return verb.head.pos_ in _VERBAL and _is_unasserted(verb.head)
    return False


def _as_written(tokens: list[Token]) -> str:
    """The tokens with the sentence's own spacing ("1832-02-09" stays whole), and a space
    where the claim skips words that were between them."""
    parts: list[str] = []
    for previous, token in zip([None, *tokens], tokens, strict=False):
        if previous is not None and token.i != previous.i + 1 and not previous.whitespace_:
            parts.append(" ")
        parts.append(token.text_with_ws)
    return "".join(parts).strip()


def _noun_phrase(noun: Token, head_ids: set[int]) -> set[Token]:
    """A noun with its own modifiers (compounds, adjectives, names), not its clauses."""
    phrase = {noun}
    for child in noun.children:
        if child.dep_ in _NOUN_PARTS and child.i not in head_ids:
            phrase |= _clause_tokens(child, head_ids)
    return phrase


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


# Search syntax, not a statement: "+embargo -March", "(a|b)+$". Only in a short text: a
# long sentence may write a suffix ("-φορος") or a set ("{xx | x is any string}").
_QUERY_SYNTAX = re.compile(
    rf"(?:^|\s)[+\-]{LETTER}|{LETTER_OR_DIGIT}\|{LETTER_OR_DIGIT}|[)\]][+*?]"
)
_QUERY_WORDS = 6


def makes_a_claim(sentence: str) -> bool:
    """Whether ``sentence`` states something rather than searching for it: a text of a
    few words written in search syntax ("+embargo -March", "(a|b)+$") makes no claim.
    (A verb test was tried and dropped: the small English parser tags "lack", "secrete"
    and "concerns" in real sentences as nouns.)"""
    if len(sentence.split()) > _QUERY_WORDS:
        return True
    return _QUERY_SYNTAX.search(sentence) is None
