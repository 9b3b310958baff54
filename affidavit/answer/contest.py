"""A supported sentence the store also says otherwise: "contested", not "supported".

"The CEO of Acme is Mallory." is supported by one document and contradicted by another
of equal trust, "The CEO of Acme is Alice Brown.". The rival is found as a parallel
line: it writes every word of the claim but some of its values (names and numbers),
shares at least half of the claim's words, and puts values of its own in their place —
and nothing else, so
"The CEO of Acme met Bob." is another fact, not a rival. Only lines of the supporting
lines' trust or above count: a stranger cannot contest a document.
"""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.words import values_written


def rival_line(
    claim: str, supporting: Sequence[Evidence], lines: Sequence[Evidence], analyzer: Analyzer
) -> Evidence | None:
    """The first of ``lines`` that says ``claim`` with other values, or None."""
    if not supporting:
        return None
    said = set(analyzer.terms(claim))
    values = set(analyzer.terms(" ".join(values_written(claim))))
    if not values:
        return None
    trust = min(line.trust for line in supporting)
    for line in lines:
        if line in supporting or line.trust < trust:
            continue
        other = set(analyzer.terms(line.text))
        their_values = set(analyzer.terms(" ".join(values_written(line.text))))
        missing, added = said - other, other - said
        shared = len(said & other)
        if (
            missing
            and missing <= values
            and added
            and added <= their_values
            and 2 * shared >= len(said)
        ):
            return line
    return None
