"""Whether a span of a line is one of several things the line lists ("the above copyright
notice" of "must retain the above copyright notice, this list of conditions and the
following disclaimer"): read from the line's parse, a conjunct beside other conjuncts."""

from __future__ import annotations

from affidavit.text.nlp import LONGEST_PARSED, parsed


def one_of_a_list(line: str, start: int, end: int, language: str) -> bool:
    """Does the span ``line[start:end]`` stand in a list with other things the line
    names: its head coordinated with a word outside it? English only (no other parser is
    installed); a line too long to parse is read as holding no list."""
    if language != "en" or len(line) > LONGEST_PARSED or not 0 <= start < end <= len(line):
        return False
    doc = parsed(line)
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or not len(span):
        return False
    inside = range(span.start, span.end)
    root = span.root
    if root.dep_ == "conj" and root.head.i not in inside:
        return True
    if any(child.dep_ == "conj" and child.i not in inside for child in root.children):
        return True
    # The parser often reads a list without its first "and" as two objects of one verb
    # ("retain the notice, this list of conditions and the disclaimer"): a sibling in the
    # same role, a comma or a conjunction between them, is a thing listed beside it
    # ("give recipients a copy" is two objects, no list).
    if root.dep_ not in _LISTED_ROLES:
        return False
    for sibling in root.head.children:
        if sibling.dep_ != root.dep_ or sibling.i in inside or sibling == root:
            continue
        between = doc[min(sibling.i, root.i) + 1 : max(sibling.i, root.i)]
        joined = (root.head, root, sibling)  # a mark inside either object joins nothing
        if any((t.text in (",", ";") or t.dep_ == "cc") and t.head in joined for t in between):
            return True
    return False


_LISTED_ROLES = frozenset({"dobj", "pobj", "attr", "nsubj", "nsubjpass"})
