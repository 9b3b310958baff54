"""Finding by kind: a distilled record carries what sort of thing its value is ("pottery
class", "magazine subscription"), and a question that names the sort finds the line the
record was drawn from, though the line never writes the word. The kind only widens what
is found: the line still has to answer the question, through the same gates."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.index.document_scope import Scope
from affidavit.store import Store, StoredLine, witnesses_of_kinds
from affidavit.text import Reading, analyzer_for

# At most this many lines are found by kind for one question, and they are seated after
# the best word matches, so they reach the evidence block without displacing the best.
KIND_LINES = 3
KIND_SEAT = 2
# How many records of the named kinds are read to choose those lines from.
KIND_READ = 200


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
    """The stored lines that witness records of a kind one of ``terms`` names, where the
    line does not write the kind's word itself (then the words already find it) and does
    write another of ``terms`` (a kind alone, "place", names too many things to find by):
    most such words first, then in the order the records were told; each once."""
    if not terms:
        return []
    asked = set(terms)
    with store.reading():
        witnesses = witnesses_of_kinds(store.conn, terms, KIND_READ)
        found: list[tuple[int, int, StoredLine]] = []
        seen: set[int] = set()
        for order, (document, position, kind) in enumerate(witnesses):
            if scope is not None and not scope.keeps(document):
                continue
            line = store.line_at(document, position)
            if line is None or line.id in seen:
                continue
            seen.add(line.id)
            written = set(analyzer_for("en").terms(line.text))
            shared = len(asked & written)
            if shared and kind not in written:
                found.append((-shared, order, line))
    found.sort(key=lambda f: (f[0], f[1]))
    return [line for _, _, line in found[:KIND_LINES]]
