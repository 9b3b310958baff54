"""Cognates: words of two languages spelled alike once their spelling habits are set aside
("ctenóforos" and "ctenophores", "otomano" and "Ottoman", "bakteri" and "bacteria").

A word's skeleton drops accents, writes each sound one way (ph and f, y and i, k and c,
j and g), keeps one of a doubled letter and leaves off the endings that mark plural or
gender; two words are cognates when their skeletons are equal, or share nearly all their
letter pairs.
"""

from __future__ import annotations

from functools import lru_cache

from affidavit.text.tokens import fold, strip_accents

# One spelling for each sound the three languages write differently, longest first.
_SOUNDS = (
    ("cion", "tion"),  # "dirección", "nación": "direction", "nation"
    ("ph", "f"),
    ("th", "t"),
    ("ch", "c"),
    ("y", "i"),
    ("k", "c"),
    ("q", "c"),
    ("j", "g"),
    ("v", "b"),
    ("z", "s"),
    ("w", "u"),
)
_ENDINGS = ("es", "os", "as", "s", "a", "e", "i", "o", "u")
# Below this a skeleton is too short to tell a cognate from a chance likeness ("sol"/"soul").
SHORTEST = 5
# Dice overlap of letter pairs at or above which two skeletons are one word's.
NEAR = 0.8
FAR_NEAR = 0.86


@lru_cache(maxsize=65536)
def skeleton(word: str, language: str = "en") -> str:
    """``word`` with its language's spelling habits set aside."""
    plain = strip_accents(fold(word, language))
    plain = "".join(c for c in plain if c.isalpha())
    for written, sound in _SOUNDS:
        plain = plain.replace(written, sound)
    collapsed = "".join(c for i, c in enumerate(plain) if i == 0 or c != plain[i - 1])
    for ending in _ENDINGS:
        if collapsed.endswith(ending) and len(collapsed) - len(ending) >= SHORTEST - 1:
            return collapsed[: -len(ending)]
    return collapsed


def likeness(first: str, second: str, languages: tuple[str, str] = ("en", "en")) -> float:
    """How alike two words' skeletons are: 1.0 when equal, else the Dice overlap of their
    letter pairs (at two letters apart, only a near-whole overlap); 0.0 when either is too
    short to tell or they are further apart."""
    a, b = skeleton(first, languages[0]), skeleton(second, languages[1])
    if len(a) < SHORTEST or len(b) < SHORTEST:
        return 0.0
    if a == b:
        return 1.0
    if abs(len(a) - len(b)) > 2:
        return 0.0  # one is the other and more: "valid" is not "validadas"
    pairs_a = [a[i : i + 2] for i in range(len(a) - 1)]
    pairs_b = [b[i : i + 2] for i in range(len(b) - 1)]
    common = sum(min(pairs_a.count(p), pairs_b.count(p)) for p in set(pairs_a))
    dice = 2 * common / (len(pairs_a) + len(pairs_b))
    # Two letters apart, only a near-whole overlap counts ("farmacéutico" and
    # "pharmaceutical"; not "término" and "terminate").
    return dice if abs(len(a) - len(b)) <= 1 or dice >= FAR_NEAR else 0.0
