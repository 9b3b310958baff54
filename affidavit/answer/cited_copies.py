"""An answer's lines that other documents write word for word (versions, copies): each copy
is cited after the answer's own lines, and the census says how many documents say it, so
a reviewer sees every place the answer stands without reading the same line twelve
times."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affidavit.results import Evidence

# The documents a census names before it says how many more.
NAMED = 5


def copies_of(
    cited: Sequence[Evidence], copies: Mapping[tuple[str, int], list[Evidence]]
) -> list[Evidence]:
    """The copies of the cited lines, in the order found, each once, none already cited."""
    found: list[Evidence] = []
    for line in cited:
        for copy in copies.get((line.document, line.position), ()):
            if copy not in cited and copy not in found:
                found.append(copy)
    return found


def said_by(cited: Sequence[Evidence], copied: Sequence[Evidence]) -> str:
    """The census's words for the copies: "12 documents say this word for word: a, b, c,
    d, e and 7 more."."""
    names = list(dict.fromkeys([*(line.document for line in cited), *(c.document for c in copied)]))
    shown = ", ".join(names[:NAMED])
    more = f" and {len(names) - NAMED} more" if len(names) > NAMED else ""
    return f"{len(names)} documents say this word for word: {shown}{more}."
