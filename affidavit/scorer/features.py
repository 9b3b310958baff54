"""What the scorer sees of a candidate span: its kind, label, tags and shape; where it stands
beside the question's words (the tree path and the distance to the nearest); whether it
plays the wh-word's role beside the question's verb; how much of the question its line
holds. Each feature is a string, conjoined with the question's wh-words and answer type,
and hashed into a fixed number of weights."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from affidavit.scorer.cues import Cues
from affidavit.scorer.parsed_lines import Found, LineRead

# 2**20 weights: few collisions among the ~10**5 features SQuAD's train set shows.
BITS = 20
_MASK = (1 << BITS) - 1
# Line roles that answer each question role (an active object is a passive subject).
_ANSWERS = {
    "subject": {"nsubj", "agent"},
    "object": {"dobj", "nsubjpass", "dative", "attr"},
    "attribute": {"attr", "nsubj", "appos", "dobj", "oprd"},
    "prep": {"pobj"},
}
_NO_PATH = "far"
MAX_ARCS = 4


class Matches:
    """The line's tokens that say a word of the question, and how far each token is from
    them along the tree."""

    def __init__(self, line: LineRead, cues: Cues) -> None:
        self.line = line
        self.tokens = [i for i, t in enumerate(line.terms) if t is not None and t in cues.terms]
        held = {line.terms[i] for i in self.tokens}
        self.coverage = len(held) / len(cues.terms) if cues.terms else 0.0
        self._chains = _chains(line.heads)

    def path(self, head: int, outside: range) -> str:
        """The dependency path from ``head`` to the nearest question word outside the span."""
        best: tuple[int, int, str] | None = None
        for token in self.tokens:
            if token in outside:
                continue
            steps = _path(self._chains[head], self._chains[token], self.line.dep)
            if steps is None:
                continue
            key = (steps.count(" ") + 1, abs(token - head), steps)
            if best is None or key < best:
                best = key
        return best[2] if best is not None else _NO_PATH


@lru_cache(maxsize=4096)
def _chains(heads: tuple[int, ...]) -> tuple[list[int], ...]:
    """Each token's way up the tree, read once a line whatever the question."""
    return tuple(_chain(heads, i) for i in range(len(heads)))


def _chain(heads: tuple[int, ...], token: int) -> list[int]:
    chain = [token]
    while heads[chain[-1]] != chain[-1] and len(chain) < 40:
        chain.append(heads[chain[-1]])
    return chain


def _path(up: list[int], down: list[int], dep: tuple[str, ...]) -> str | None:
    """Up from the candidate's head to the common ancestor, then down to the word."""
    where = {t: i for i, t in enumerate(down)}
    for i, token in enumerate(up):
        if token in where:
            j = where[token]
            if i + j > MAX_ARCS:
                return None
            rising = [f"{dep[t]}^" for t in up[:i]]
            falling = [f"v{dep[t]}" for t in reversed(down[:j])]
            return " ".join([*rising, *falling]) or "self"
    return None


def _bucket(value: int, edges: tuple[int, ...]) -> str:
    for edge in edges:
        if value <= edge:
            return str(edge)
    return f">{edges[-1]}"


def _shape(line: LineRead, first: int, last: int) -> str:
    marks: list[str] = []
    for i in range(first, min(last, first + 4)):
        word = line.text[line.starts[i] : line.ends[i]]
        mark = (
            "d"
            if any(c.isdigit() for c in word)
            else "C"
            if word[:1].isupper()
            else "l"
            if word[:1].isalpha()
            else "p"
        )
        if not marks or marks[-1] != mark:
            marks.append(mark)
    return "".join(marks)


def feature_names(cues: Cues, matches: Matches, found: Found, rank: int) -> Iterator[str]:
    """Every feature of ``found`` in its line, as strings."""
    line = matches.line
    first, last, head = found.first, found.last, found.head
    inside = range(first, last)
    governor = line.heads[head]
    terms = {t for t in line.terms[first:last] if t is not None}
    asked = terms & cues.terms
    outside = [t for t in matches.tokens if t not in inside]
    distance = min((min(abs(t - first), abs(t - (last - 1))) for t in outside), default=99)
    near = {line.terms[t] for t in outside if t >= first - 4 and t < last + 4}
    first_match = matches.tokens[0] if matches.tokens else len(line.lower)
    general = [
        *(f"k:{kind}" for kind in found.kinds),
        f"l:{found.label}",
        f"p:{line.pos[head]}",
        f"d:{line.dep[head]}",
        f"gd:{line.dep[governor]}",
        f"gp:{line.pos[governor]}",
        f"n:{_bucket(last - first, (1, 2, 3, 5, 8))}",
        f"s:{_shape(line, first, last)}",
        f"path:{matches.path(head, inside)}",
        f"dist:{_bucket(distance, (1, 2, 4, 8, 16))}",
        f"near:{_bucket(len(near), (0, 1, 2, 3))}",
        f"ovl:{_overlap(len(asked), len(terms))}",
        f"cov:{int(matches.coverage * 4)}",
        f"rank:{min(rank, 3)}",
        f"side:{'after' if first > first_match else 'before'}",
        f"gq:{line.terms[governor] in cues.terms}",
        f"gv:{cues.verb is not None and line.terms[governor] == cues.verb}",
        f"fi:{cues.focus is not None and cues.focus in terms}",
        f"fl:{cues.focus is not None and cues.focus in line.terms[max(first - 3, 0) : first]}",
        f"role:{_role(cues, line, head)}",
        f"first:{first == 0}",
    ]
    for name in general:
        yield name
        yield f"W|{cues.wh_next}|{name}"
        yield f"w|{cues.wh}|{name}"
        yield f"A|{cues.answer_type}|{name}"
    left = line.lower[first - 1] if first > 0 else "<s>"
    right = line.lower[last] if last < len(line.lower) else "</s>"
    lexical = [f"h:{line.lower[head]}", f"L:{left}", f"R:{right}", f"g:{line.lower[governor]}"]
    for name in lexical:
        yield name
        yield f"w|{cues.wh}|{name}"
    if cues.focus is not None:
        for name in (f"l:{found.label}", f"p:{line.pos[head]}", f"h:{line.lower[head]}"):
            yield f"F|{cues.focus}|{name}"
    yield f"W|{cues.wh_next}|l:{found.label}|p:{line.pos[head]}"


def _overlap(asked: int, terms: int) -> str:
    if terms == 0:
        return "none"
    if asked == 0:
        return "0"
    return "all" if asked == terms else "some"


def _role(cues: Cues, line: LineRead, head: int) -> str:
    """How the span's head stands to the wh-word's role and verb."""
    if cues.role is None:
        return "none"
    dep = line.dep[head]
    governor = line.heads[head]
    if dep == "pobj" and line.dep[governor] == "agent":
        dep, governor = "agent", line.heads[governor]
    elif dep == "pobj":
        governor = line.heads[governor]
    if dep not in _ANSWERS.get(cues.role, set()):
        return "other"
    if cues.verb is None:
        return "role"
    return "role+verb" if line.terms[governor] == cues.verb else "role-verb"


def hashed(names: Iterator[str]) -> np.ndarray:
    """The weights' indices of ``names``, each once, sorted."""
    return np.unique(np.fromiter(map(_index_of, names), dtype=np.int64))


# NOTE: a question's candidates share most of their feature names ("p:PROPN", "rank:0"):
# each name's index is kept, not hashed again (a tenth of an ask's time at 12 copies of
# a novel, where each ask reads about 6,000 names).
@lru_cache(maxsize=1 << 18)
def _index_of(name: str) -> int:
    return zlib.crc32(name.encode()) & _MASK
