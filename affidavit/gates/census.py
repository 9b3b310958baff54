"""The census: which documents speak of a question, counted by the support tier's own test.

A line speaks of a question when it, with the lines beside it, carries the question's
distinctive words exactly as the exit gate's support tier asks of an answer's lines
(gates/support.py): its rarest key word and most of their weight. Only lines that hold
the rarest key word (or the abbreviation a document writes for it) can pass, so the
census reads that word's posting list, never the whole store, and says how it counted.
Lines below the speaking threshold are not counted: nothing may be said from them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from affidavit.gates.exit import support_context, support_terms
from affidavit.gates.support import MIN_CARRIED, SUPPORT_REACH, KeyWords
from affidavit.index.abbreviations import short_forms
from affidavit.index.retrieval import Retriever
from affidavit.index.text import Analyzer
from affidavit.results import Evidence

# The most lines holding the rarest key word that one census reads; past it, it says so.
CENSUS_LIMIT = 2000


@dataclass(frozen=True, slots=True)
class Census:
    documents: dict[str, int]  # document -> lines that speak of the question, most first
    rarest: str | None
    complete: bool  # False when the rarest word's lines passed CENSUS_LIMIT

    @property
    def line(self) -> str:
        """One line of store-attested fact, saying how it was counted."""
        if self.rarest is None:
            return "No document speaks of this: the store writes none of the question's key words."
        how = (
            f"lines carrying its rarest key word ({self.rarest!r}) and at least "
            f"{MIN_CARRIED:.0%} of its rarity-weighted key words, with the lines beside them"
        )
        if not self.documents:
            return f"No document speaks of this ({how})."
        n = len(self.documents)
        parts = ", ".join(
            f"{name} ({count} line{'s' if count != 1 else ''})"
            for name, count in self.documents.items()
        )
        first = "At least " if not self.complete else ""
        return (
            f"{first}{n} document{'s' if n != 1 else ''} speak{'s' if n == 1 else ''} of this "
            f"({how}): {parts}."
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "documents": dict(self.documents),
            "rarest": self.rarest,
            "complete": self.complete,
            "line": self.line,
        }


def take_census(
    retriever: Retriever, keys: KeyWords, analyzer: Analyzer, speaking_threshold: float
) -> Census:
    """Count, per document, the lines that carry ``keys`` by the support tier's test."""
    rarest = keys.rarest
    if rarest is None:
        return Census({}, None, True)
    index = retriever.words()
    columns = [index.vocabulary.get(rarest)]
    columns += [index.vocabulary.get(t) for t in analyzer.terms(" ".join(short_forms(rarest)))]
    held: set[int] = set()
    for column in columns:
        if column is not None:
            start, end = index.line_counts.indptr[column], index.line_counts.indptr[column + 1]
            held.update(int(r) for r in index.line_counts.indices[start:end])
    rows = sorted(held)
    complete = len(rows) <= CENSUS_LIMIT
    rows = rows[:CENSUS_LIMIT]
    if not rows:
        return Census({}, rarest, True)
    # The rows beside each (same document: index rows run in document order).
    near = {
        r + step
        for r in rows
        for step in range(-SUPPORT_REACH, SUPPORT_REACH + 1)
        if 0 <= r + step < index.size and index.line_documents[r + step] == index.line_documents[r]
    }
    ordered = sorted(near)
    ids = [int(index.line_ids[r]) for r in ordered]
    lines = dict(zip(ordered, retriever.lines(ids), strict=True))
    # Each row's document and position are known: no second read of the rows.
    places = [(int(index.document_ids[index.line_documents[r]]), lines[r].position) for r in rows]
    headings = dict(zip(rows, retriever.headings_at(places), strict=True))
    counts: Counter[str] = Counter()
    for r in rows:
        line: Evidence = lines[r]
        if line.trust < speaking_threshold:
            continue
        around = [
            lines[n] for n in sorted(near & set(range(r - SUPPORT_REACH, r + SUPPORT_REACH + 1)))
        ]
        around.extend(headings[r])
        # The same test as the support tier's, with the line as the one supporting.
        terms = support_terms([line], support_context([line], around), analyzer)
        # The line itself must hold the rarest word (its context may hold the rest).
        if rarest in terms.own and keys.carried(terms.carried).passed:
            counts[line.document] += 1
    ranked = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return Census(ranked, rarest, complete)


__all__ = ["CENSUS_LIMIT", "Census", "take_census"]
