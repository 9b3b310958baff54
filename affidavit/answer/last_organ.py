"""The last organ. When every subset's candidates died, a store small enough to read whole,
every line of it dated (a conversation's turns), is read whole, in the order it was told,
as one subset: the engine proposes over it and the same gates judge each candidate (the
question's key words carried by the lines it cites, digits exactly), so clues said in
sessions apart can meet, and nothing is loosened. A store of more lines, or with an undated
line, is not read this way."""

from __future__ import annotations

from affidavit.index import Retriever, Scope, as_evidence
from affidavit.results import Evidence

# A store of at most this many lines is read whole (an engine reads it as one block).
WHOLE_LINES = 200


def whole_telling(retriever: Retriever, scope: Scope | None) -> list[Evidence] | None:
    """Every citable line of the store (of the scope's documents), oldest telling first,
    when there are at most WHOLE_LINES of them and each is dated; None otherwise."""
    index = retriever.words()
    if index.size == 0 or index.size > WHOLE_LINES:
        return None
    store = retriever.store
    with store.reading():
        ids = [row[0] for row in store.line_rows()]
        lines = list(store.lines_by_id(ids).values())
    if scope is not None:
        lines = [line for line in lines if scope.keeps(line.document)]
    lines = [line for line in lines if retriever.speaks(line)]
    if not lines or any(not line.date for line in lines):
        return None
    lines.sort(key=lambda line: (line.date or "", line.document_id, line.position))
    return [as_evidence(line) for line in lines]
