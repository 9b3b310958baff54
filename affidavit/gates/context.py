"""What the support tier reads around a supporting line: the headings it stands under,
the lines beside it, its document's name and its session's day, each as content terms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

from affidavit.gates.support import RAREST_IN_OWN_LINE, SUPPORT_REACH
from affidavit.results import Evidence, Line, LineKind
from affidavit.text import Analyzer, capitalised_names, evidence_terms, in_words, name_terms


def line_terms(line: Line, analyzer: Analyzer) -> frozenset[str]:
    """The content terms a line carries for the support tier, abbreviations spelled out."""
    return evidence_terms(said_as_evidence(line), analyzer)


def said_as_evidence(line: Line) -> str:
    """A line's words as evidence: a table row says each cell under its column's name.

    Each "column value" pair is closed by a joint, so a cell's number keeps the company
    of its own column and row, not of every column name.
    """
    if line.cells:
        pairs = "; ".join(f"{column} {value}" for column, value in line.cells.items())
        return f"{pairs}; {line.text}"
    return line.text


def support_context(lines: Sequence[Evidence], subset: Sequence[Evidence]) -> list[Evidence]:
    """The lines that may carry a question for ``lines``: the headings each stands under
    (its section's, the nearest above it, and its document's title, the first) and, for
    a sentence, the lines beside it (SUPPORT_REACH; rows excepted: another row says
    nothing about this one, nor a row about a sentence)."""
    near: list[Evidence] = []
    for line in lines:
        found = headings_standing_over(line, subset)
        if line.kind != LineKind.ROW:
            beside = lines_beside([line], subset, SUPPORT_REACH)
            found += [e for e in beside if e.kind != LineKind.ROW]
        near.extend(e for e in found if e not in near and e not in lines)
    return near


def bridged(lines: Sequence[Evidence], subset: Sequence[Evidence]) -> list[Evidence]:
    """The lines of ``subset`` that name someone or something ``lines`` name too: the
    second window of a bridge question ("the stadium of the team owned by X's husband":
    one line names the husband's team, another the team's stadium)."""
    names = frozenset().union(*(capitalised_names(line.text) for line in lines))
    if not names:
        return []
    return [
        e
        for e in subset
        if e not in lines and e.kind != LineKind.ROW and names & capitalised_names(e.text)
    ]


def chained(lines: Sequence[Evidence], chain: Sequence[Evidence]) -> list[Evidence]:
    """The lines of ``chain`` tied to ``lines``: they name someone or something ``lines``
    name (``bridged``), or are turns said by a speaker of ``lines`` (a person's own
    telling, sessions apart)."""
    speakers = {line.speaker for line in lines if line.speaker}
    tied = bridged(lines, chain)
    return [
        *tied,
        *(e for e in chain if e not in lines and e not in tied and e.speaker in speakers),
    ]


_Line = TypeVar("_Line", bound=Line)


def headings_standing_over(line: _Line, lines: Sequence[_Line]) -> list[_Line]:
    """Of the headings among ``lines``, those ``line`` stands under: its document's title
    (the first above it) and its section's (the nearest above it), each once, in order."""
    above = [
        e
        for e in lines
        if e.kind == LineKind.HEADING and e.document == line.document and e.position < line.position
    ]
    if not above:
        return []
    first = min(above, key=lambda e: e.position)
    nearest = max(above, key=lambda e: e.position)
    return [first] if first == nearest else [first, nearest]


class SupportTerms(NamedTuple):
    """What lines and their context hold for the support tier."""

    carried: set[str]  # the lines', the lines' beside them and their documents' names
    own: set[str]  # the supporting lines' own
    written: set[str]  # where the rarest key word may stand: ``own``, or with ``near``'s
    near: list[tuple[Evidence, frozenset[str]]]  # each context line with its terms


def support_terms(
    lines: Sequence[Evidence], near: Sequence[Evidence], analyzer: Analyzer
) -> SupportTerms:
    """The terms ``lines`` carry with their context ``near``. Every line speaks under its
    document's name, its dateline, and a turn under its session's day: their words count
    toward the share, but the rarest key word must be written in a line
    (RAREST_IN_OWN_LINE: in the supporting lines)."""
    own: set[str] = set()
    for line in lines:
        own |= line_terms(line, analyzer)
    beside = [(line, line_terms(line, analyzer)) for line in near]
    written = set(own)
    if not RAREST_IN_OWN_LINE:
        for _, said in beside:
            written |= said
    for day in sorted({line.date[:10] for line in lines if line.date}):
        # A turn is said under its session's stamp, and the stamp is the turn's own fact:
        # "What did Nate do on 25 May, 2022?" is carried by a turn said that day.
        stamp = set(analyzer.terms(in_words(day[:10])))
        own |= stamp
        written |= stamp
    carried = set(written)
    for document in sorted({line.document for line in lines}):
        carried.update(name_terms(document, analyzer))
    for _, said in beside:
        carried |= said
    return SupportTerms(carried, own, written, beside)


def lines_beside(
    lines: Sequence[Evidence], subset: Sequence[Evidence], reach: int
) -> list[Evidence]:
    places = {(e.document, e.position + d) for e in lines for d in range(-reach, reach + 1)}
    return [e for e in subset if (e.document, e.position) in places]
