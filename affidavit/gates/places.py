"""Names that trade places: two names of a line, each put where the other stands, in a
verb's role or in a modifier no role holds ("a close US ally" read back as "a close Iran
ally")."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

from affidavit.text import LONGEST_PARSED, Analyzer, analyzer_for, parsed

# Words a name is read through to what it hangs from: "with Leonhard Euler" hangs from the
# noun before "with", "by Robert Guiscard" from the passive verb.
_THROUGH = frozenset({"prep", "agent", "pcomp"})
_NEAR = 3  # words read on either side of a name (punctuation and other names skipped)


@dataclass(frozen=True)
class _Places:
    """Where each capitalised word of a text stands: the words it hangs from, the words
    around it, and the pairs of names that are members of one list."""

    hangs_from: dict[str, frozenset[str]]
    neighbours: dict[str, frozenset[str]]
    listed_together: frozenset[frozenset[str]]
    plain_words: tuple[str, ...]  # the other words, in order


def names_traded(claim: str, line: str, analyzer: Analyzer) -> bool:
    """Do two names the claim and the line both write stand, in the claim, each where the
    other stands in the line (and never where it stands itself)?

    "At the time, Iran was the world's second-largest oil exporter and a close US ally" and
    "... US was the world's second-largest oil exporter and a close Iran ally" hold the
    same words; only where each name stands differs. The roles of a verb (roles.py) see a
    trade between its subject and object; a name can also sit in a modifier ("US ally",
    "under Norman domination", "from Hawaii to Los Angeles"), where no verb's role holds
    it. Each capitalised word is read two ways: by what it hangs from in the dependency
    parse (``_governor``), and by the words around it (``_NEAR`` on either side, past
    punctuation and other names). A change of voice or a clause cut out of the sentence
    leaves every name where it was; a paraphrase that writes a name otherwise ("the United
    States") matches nothing here and is left to the read-back's other tests.
    """
    if analyzer.language != "en" or len(claim) > LONGEST_PARSED or len(line) > LONGEST_PARSED:
        return False
    in_claim = _places(claim)
    shared = [name for name in in_claim.hangs_from if name in line]
    if len(shared) < 2:
        return False  # nothing can trade places with fewer than two names in common
    in_line = _places(line)
    shared = sorted(name for name in shared if name in in_line.hangs_from)
    for number, first in enumerate(shared):
        for second in shared[number + 1 :]:
            if frozenset((first, second)) in in_line.listed_together:
                continue  # "Syria and Egypt" said as "Egypt and Syria" says the same
            if _exchanged(in_claim.hangs_from, in_line.hangs_from, first, second, apart=False):
                return True
            # The words around a name tell where it stands only where the claim keeps the
            # line's other words in their order: a change of voice moves them all.
            if _in_order(in_claim.plain_words, in_line.plain_words) and _exchanged(
                in_claim.neighbours, in_line.neighbours, first, second, apart=True
            ):
                return True
    return False


def _exchanged(
    claim: dict[str, frozenset[str]],
    line: dict[str, frozenset[str]],
    first: str,
    second: str,
    *,
    apart: bool,
) -> bool:
    """Does each name stand, in the claim, by what the other stands by in the line, and
    by nothing of its own? ``apart``: only what sets the two apart in the line counts
    ("northern" and "southern" in "the northern shore of Lake Erie ... the southern shore
    of Lake Ontario", not their shared "shore of")."""
    own = {first: line[first], second: line[second]}
    if apart:
        own = {first: line[first] - line[second], second: line[second] - line[first]}
    if own[first] == own[second]:
        return False  # both stand by the same words: a verb's roles tell them apart
    return all(
        not claim[a] & own[a] and claim[a] & own[b] for a, b in ((first, second), (second, first))
    )


@lru_cache(maxsize=4096)
def _places(text: str) -> _Places:
    """Where each capitalised word of an English ``text`` stands (see _Places)."""
    hangs: dict[str, set[str]] = defaultdict(set)
    near: dict[str, set[str]] = defaultdict(set)
    together: set[frozenset[str]] = set()
    doc = parsed(text)
    plain = [t for t in doc if not t.is_punct and not _is_name_word(t)]
    for token in doc:
        if not _is_name_word(token):
            continue
        hangs[token.text].add(_governor(token))
        before = [t.lower_ for t in plain if t.i < token.i][-_NEAR:]
        after = [t.lower_ for t in plain if t.i > token.i][:_NEAR]
        near[token.text].update(before + after)
        together.update(
            frozenset((token.text, other.text))
            for other in token.conjuncts
            if _is_name_word(other) and other.text != token.text
        )
    return _Places(
        {name: frozenset(heads) for name, heads in hangs.items()},
        {name: frozenset(words) for name, words in near.items()},
        frozenset(together),
        tuple(t.lower_ for t in plain),
    )


def _in_order(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    """Are the words of ``part`` all in ``whole``, in the same order (gaps allowed)?"""
    rest = iter(whole)
    return all(word in rest for word in part)


def _is_name_word(token: Token) -> bool:
    if not token.text[:1].isupper() or not token.is_alpha or len(token.text) < 2:
        return False
    # A capital at the start of a sentence is the sentence's, unless the parse calls the
    # word a proper noun ("Iran was ...", not "The ...").
    return token.pos_ == "PROPN" or not token.is_sent_start


def _governor(token: Token) -> str:
    """The word ``token`` hangs from, read past its own name, prepositions (and a passive's
    "by"), and a list's later members to its first."""
    seen = {token.i}
    node = token
    while True:
        head = node.head
        if head.i == node.i or head.i in seen:
            return "<root>"
        seen.add(head.i)
        within_name = _is_name_word(head) and node.dep_ in ("compound", "flat")
        through = head.dep_ in _THROUGH and head.pos_ in ("ADP", "SCONJ")
        if within_name or through or node.dep_ == "conj":
            node = head  # part of a longer name, a list's later member, "with X", "by X"
            continue
        # "defeated" and "defeats" hang the same name alike
        return analyzer_for("en").term(head.lower_) or head.lower_
