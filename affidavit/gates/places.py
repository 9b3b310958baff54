"""Names that trade places: two names of a line, each put where the other stands.

"At the time, Iran was the world's second-largest oil exporter and a close US ally" and
"... US was the world's second-largest oil exporter and a close Iran ally" hold the same
words; only the words each name hangs from differ. The roles of a verb (roles.py) see a
trade between its subject and object; a name can also sit in a modifier ("US ally",
"under Norman domination", "correspondence with Leonhard Euler"), where no verb's role
holds it. So each capitalised word of an English text is read with what it hangs from in
the dependency parse: its head, passing over the name it is part of, a preposition or a
passive's "by", and a conjunction's first member. Two names traded when each hangs, in the
claim, from a word the other hangs from in the line, and never from one of its own there.

A change of voice or a clause cut out of the sentence leaves every name where it was; a
paraphrase that writes a name otherwise ("the United States") matches nothing here and is
left to the read-back's other tests.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from spacy.tokens import Token

from affidavit.index.nlp import parse_pipeline
from affidavit.index.text import Analyzer

# Words a name is read through to what it hangs from: "with Leonhard Euler" hangs from the
# noun before "with", "by Robert Guiscard" from the passive verb.
_THROUGH = frozenset({"prep", "agent", "pcomp"})
_LONGEST = 2000  # characters: longer texts are not parsed here (as roles.py)


def names_traded(claim: str, line: str, analyzer: Analyzer) -> bool:
    """Do two names the claim and the line both write each hang, in the claim, from what
    the other hangs from in the line (and never from their own)?"""
    if analyzer.language != "en" or len(claim) > _LONGEST or len(line) > _LONGEST:
        return False
    in_claim = _hangs_from(claim)
    shared = [name for name in in_claim if name in line]
    if len(shared) < 2:
        return False  # nothing can trade places with fewer than two names in common
    in_line = _hangs_from(line)
    shared = sorted(name for name in shared if name in in_line)
    for number, first in enumerate(shared):
        for second in shared[number + 1 :]:
            if _trade(in_claim, in_line, first, second):
                return True
    return False


def _trade(
    claim: dict[str, frozenset[str]], line: dict[str, frozenset[str]], first: str, second: str
) -> bool:
    if line[first] == line[second]:
        return False  # both hang from the same words: a verb's roles tell them apart
    return all(
        not claim[a] & line[a] and claim[a] & line[b] for a, b in ((first, second), (second, first))
    )


@lru_cache(maxsize=4096)
def _hangs_from(text: str) -> dict[str, frozenset[str]]:
    """Each capitalised word of ``text`` (as written) -> the words it hangs from."""
    found: dict[str, set[str]] = defaultdict(set)
    for token in parse_pipeline()(text):
        if _is_name_word(token):
            found[token.text].add(_governor(token))
    return {name: frozenset(heads) for name, heads in found.items()}


def _is_name_word(token: Token) -> bool:
    if not token.text[:1].isupper() or not token.is_alpha or len(token.text) < 2:
        return False
    # A capital at the start of a sentence is the sentence's, unless the parse calls the
    # word a proper noun ("Iran was ...", not "The ...").
    return token.pos_ == "PROPN" or not token.is_sent_start


def _governor(token: Token) -> str:
    """The word ``token`` hangs from, read past its own name, prepositions and conjuncts."""
    seen = {token.i}
    node = token
    while True:
        head = node.head
        if head.i == node.i or head.i in seen:
            return "<root>"
        seen.add(head.i)
        if (
            _is_name_word(head)
            and node.dep_ in ("compound", "flat")
            or node.dep_ == "conj"
            or head.dep_ in _THROUGH
            and head.pos_ in ("ADP", "SCONJ")
        ):
            node = head  # part of a longer name, a list's later member, "with X", "by X"
            continue
        return _ANALYZER.term(head.lower_) or head.lower_


_ANALYZER = Analyzer("en")  # "defeated" and "defeats" hang the same name alike
