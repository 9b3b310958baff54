"""Finding by kind: a distilled record carries what sort of thing its value is ("pottery
class", "magazine subscription"), and a question that names the sort finds the line the
record was drawn from, though the line never writes the word. The kind only widens what
is found: the line still has to answer the question, through the same gates."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.index.scope import Scope
from affidavit.store.records import witnesses_of_kinds
from affidavit.store.sqlite import Store, StoredLine
from affidavit.text.reading import Reading

# At most this many lines are found by kind for one question, and they are seated after
# the best word matches, so they reach the evidence block without displacing the best.
KIND_LINES = 3
KIND_SEAT = 2


def with_kinds(
    store: Store,
    reading: Reading,
    ranked: list[tuple[int, float]],
    rows: dict[int, StoredLine],
    scope: Scope | None,
) -> tuple[list[tuple[int, float]], dict[int, StoredLine]]:
    """``ranked`` with the lines of the records whose kind the question names seated after
    its best matches (those within the scope and not ranked there already), and ``rows``
    with their stored lines."""
    found = _kind_lines(store, sorted(set(reading.terms)), scope)
    seated = {line_id for line_id, _ in ranked[:KIND_SEAT]}
    extra = [line for line in found if line.id not in seated]
    if not extra:
        return ranked, rows
    extra_ids = {line.id for line in extra}
    rest = [pair for pair in ranked[KIND_SEAT:] if pair[0] not in extra_ids]
    scores = dict(ranked)
    widened = [(line.id, scores.get(line.id, 0.0)) for line in extra]
    return (
        [*ranked[:KIND_SEAT], *widened, *rest],
        {**rows, **{line.id: line for line in extra}},
    )


def _kind_lines(store: Store, terms: Sequence[str], scope: Scope | None) -> list[StoredLine]:
    """The stored lines that witness records of a kind one of ``terms`` names, in the
    order the records were told, each once."""
    if not terms:
        return []
    with store.reading():
        witnesses = witnesses_of_kinds(store.conn, terms, KIND_LINES)
        lines: list[StoredLine] = []
        for document, position in witnesses:
            if scope is not None and not scope.keeps(document):
                continue
            line = store.line_at(document, position)
            if line is not None and all(line.id != kept.id for kept in lines):
                lines.append(line)
    return lines[:KIND_LINES]
