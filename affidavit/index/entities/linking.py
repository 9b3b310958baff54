"""Matching lines against the mined entities: every mention a line holds, the entities it
mentions together, and, after a mining, which lines may mention the entities it found
first (read off the kept corpus's tokens), so they alone are read again."""

from __future__ import annotations

from array import array
from collections.abc import Collection, Iterable, Mapping, Sequence

import ahocorasick
import numpy as np

from affidavit.index.entities.corpus import Corpus
from affidavit.index.entities.mining import Entity
from affidavit.index.entities.seen import SeenTexts
from affidavit.index.packing import typed_numbers
from affidavit.text import segments

Row = tuple[int, str, str]  # a line as the graph reads it: (line id, text, language)
Mention = tuple[int, int, int]  # (entity, start, end) in a line's segments


def matched(
    automaton: ahocorasick.Automaton,
    entities: int,
    rows: Iterable[Row],
    *,
    counted: Collection[int] | None = None,
    only: Collection[int] | None = None,
    spelled: Mapping[int, str] | None = None,
) -> tuple[np.ndarray, dict[int, np.ndarray], dict[tuple[int, int], np.ndarray]]:
    """What ``rows`` (in line id order) say of the ``entities`` the automaton knows: how
    many mentions of each they hold (of the ``counted`` line ids only, if given), the
    lines of each entity they mention, and each pair's witnessing lines. With ``only``:
    the lines and pairs of those entities alone (a pair with one of them), every mention
    still read, since whether two mentions stand apart is a matter of the two alone.
    ``spelled``: lines' texts as ``segments`` gives them, already made (corpus.py)."""
    mentioned = np.zeros(entities, dtype=np.int64)
    # Typed arrays: a list holds a pointer and an int object a mention. Only the entities
    # mentioned have one (a line added to a large store names few of them).
    found: dict[int, array[int]] = {}
    together: dict[tuple[int, int], array[int]] = {}
    seen: SeenTexts[list[Mention]] = SeenTexts()
    for line_id, text, language in rows:
        mentions = seen.get(text, language)
        if mentions is None:
            read = spelled.get(line_id) if spelled is not None else None
            mentions = mentions_in(automaton, segments(text, language) if read is None else read)
            seen.keep(text, language, mentions)
        if not mentions:
            continue
        if counted is None or line_id in counted:
            for entity, _, _ in mentions:
                mentioned[entity] += 1
        named = sorted({e for e, _, _ in mentions})
        for entity in named:
            if only is None or entity in only:
                found.setdefault(entity, array("q")).append(line_id)
        for i, a in enumerate(named):
            for b in named[i + 1 :]:
                if (only is None or a in only or b in only) and apart(mentions, a, b):
                    together.setdefault((a, b), array("q")).append(line_id)
    postings = {entity: typed_numbers(ids) for entity, ids in found.items()}
    return mentioned, postings, {pair: typed_numbers(ids) for pair, ids in together.items()}


def mentions_in(automaton: ahocorasick.Automaton, text: str) -> list[Mention]:
    """(entity, start, end) of every mention; the padding spaces make whole-word matches."""
    if not text or automaton.kind != ahocorasick.AHOCORASICK:
        return []
    return [(entity, end - length + 1, end) for end, (entity, length) in automaton.iter(text)]


def apart(mentions: Sequence[Mention], a: int, b: int) -> bool:
    """Whether some mention of ``a`` and some mention of ``b`` do not overlap ("Mr Brooke"
    holds "Brooke": that is one mention, not two entities mentioned together)."""
    spans_a = [(s, e) for entity, s, e in mentions if entity == a]
    spans_b = [(s, e) for entity, s, e in mentions if entity == b]
    # Mentions share their padding space when adjacent: an overlap of one is apart.
    return any(ea <= sb + 1 or eb <= sa + 1 for sa, ea in spans_a for sb, eb in spans_b)


def maximal(mentions: Sequence[Mention], start: int, end: int) -> bool:
    return not any(s <= start and end <= e and (s, e) != (start, end) for _, s, e in mentions)


def lines_naming(corpus: Corpus, entities: Sequence[Entity]) -> np.ndarray | None:
    """The ids of the corpus's lines that may mention any of ``entities``: those holding
    each one's rarest word (a mention holds all its words). The corpus reads a line's
    words as the matcher does (a segment's words, folded), and a mined entity is made of
    them; None, meaning every line, for an entity with a word the corpus never read."""
    if not entities:
        return np.zeros(0, dtype=np.int64)
    number = {word: at for at, word in enumerate(corpus.vocabulary)}
    counts = np.bincount(corpus.ids, minlength=len(corpus.vocabulary))
    rarest = set()
    for entity in entities:
        words = [number.get(word) for word in entity.words]
        if any(word is None for word in words):
            return None
        rarest.add(min((int(counts[w]), w) for w in words if w is not None)[1])
    holding = np.isin(corpus.ids, np.fromiter(rarest, dtype=np.int64, count=len(rarest)))
    line_of_token = np.repeat(*corpus.line_runs)
    return np.unique(line_of_token[holding])
