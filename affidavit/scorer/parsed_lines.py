"""A line as the reader reads it: its tokens with their stems, tags and tree, its names, and
the spans that could answer a question (names, noun phrases, patterned values), found once
per line whatever the question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Doc, Span, Token

from affidavit.text import (
    LONGEST_PARSED,
    Analyzer,
    analyzer_for,
    fold,
    label_end,
    parse_with_names_ahead,
    parsed_with_names,
    pattern_spans,
    words,
    written_word_spans,
)

# A span longer than this many tokens is a clause, not an answer.
MAX_TOKENS = 16
# Dependents whose whole subtree is a phrase that may answer: "by binding to transcription
# factors" (prep), "protein, bone for implements, ..." (dobj).
_PHRASE_ROLES = frozenset(
    "nsubj nsubjpass dobj pobj attr appos conj npadvmod oprd acomp prep agent dative "
    "compound nmod poss".split()
)


@dataclass(frozen=True, slots=True)
class Found:
    """A span of the line that could answer: tokens ``first:last``, headed by ``head``."""

    first: int
    last: int  # exclusive
    head: int
    kinds: tuple[str, ...]  # how it was found: entity, chunk, appos, subtree, pattern...
    label: str  # its entity or pattern label ("" when none)
    # Character offsets where a pattern says more exactly than the words where it ends
    # ("www.irs.gov" in the word "www.irs.gov."); -1 when the words say it.
    start: int = -1
    end: int = -1


@dataclass(frozen=True, slots=True)
class LineRead:
    text: str
    language: str
    starts: tuple[int, ...]  # each token's character offsets
    ends: tuple[int, ...]
    lower: tuple[str, ...]
    terms: tuple[str | None, ...]  # each token's stem (None for stop words and marks)
    pos: tuple[str, ...]  # "" where the language has no tagger here
    dep: tuple[str, ...]
    heads: tuple[int, ...]  # a token's own index where no parse says otherwise
    found: tuple[Found, ...]

    def span_text(self, first: int, last: int) -> str:
        return self.text[self.starts[first] : self.ends[last - 1]]


@lru_cache(maxsize=4096)
def read_line(text: str, language: str = "en", *, parse: bool = True) -> LineRead:
    """``text`` read once: parsed (English, up to LONGEST_PARSED characters) or cut into
    words (any other language, a longer line, or ``parse`` off: a code or a contact is
    found by its pattern, no parse needed), with every span that could answer."""
    if parse and language == "en" and len(text) <= LONGEST_PARSED:
        return line_from_doc(text, parsed_with_names(text))
    return _from_words(text, language)


def read_lines_ahead(texts: Sequence[str], language: str = "en", *, parse: bool = True) -> None:
    """Parse together the lines ``read_line`` will parse (the English ones up to
    LONGEST_PARSED characters, when ``parse``): its parse is then taken from the cache."""
    if parse and language == "en":
        parse_with_names_ahead([text for text in texts if len(text) <= LONGEST_PARSED])


def line_from_doc(text: str, doc: Doc) -> LineRead:
    """The reading of an English line from its parse (training pipes many lines at once)."""
    analyzer = analyzer_for("en")
    found: dict[tuple[int, int], tuple[int, set[str], str]] = {}
    labelled = label_end(text)  # "2." of "2. Pay the fee of $250" is no answer

    def offer(first: int, last: int, head: int, kind: str, label: str = "") -> None:
        while first < last and doc[first].idx < labelled:
            first += 1
        first, last = _trim(doc, first, last)
        if last <= first or last - first > MAX_TOKENS:
            return
        key = (first, last)
        if key in found:
            old_head, kinds, old_label = found[key]
            kinds.add(kind)
            found[key] = (old_head, kinds, old_label or label)
        else:
            found[key] = (head, {kind}, label)

    for entity in doc.ents:
        offer(entity.start, entity.end, entity.root.i, "entity", entity.label_)
    for chunk in doc.noun_chunks:
        if chunk.root.tag_ in ("WP", "WDT", "PRP", "EX"):
            continue  # who, which, it, there: pointers, not answers
        root = chunk.root
        offer(chunk.start, chunk.end, root.i, "chunk")
        offer(chunk.start, _complement_end(chunk), root.i, "of")
        offer(root.left_edge.i, root.right_edge.i + 1, root.i, "subtree")
        for apposed in (c for c in root.children if c.dep_ == "appos"):
            offer(chunk.start, apposed.right_edge.i + 1, apposed.i, "appos")
            offer(apposed.left_edge.i, apposed.right_edge.i + 1, apposed.i, "apposed")
    for token in doc:
        if token.dep_ in _PHRASE_ROLES:
            offer(token.left_edge.i, token.right_edge.i + 1, token.i, token.dep_)
        if token.pos_ == "ADJ" and token.dep_ in ("amod", "compound"):
            offer(token.i, token.i + 1, token.i, "adjective")
        elif token.pos_ == "VERB" and token.dep_ in ("xcomp", "pcomp", "acl", "advcl", "relcl"):
            offer(token.i, token.right_edge.i + 1, token.i, "clause")
    for _, start, end, label in pattern_spans(text, "en"):
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None and len(span):
            offer(span.start, span.end, span.root.i, "pattern", label)
    return LineRead(
        text=text,
        language="en",
        starts=tuple(t.idx for t in doc),
        ends=tuple(t.idx + len(t.text) for t in doc),
        lower=tuple(t.lower_ for t in doc),
        terms=tuple(token_term(t.text, analyzer) for t in doc),
        pos=tuple(t.pos_ for t in doc),
        dep=tuple(t.dep_ for t in doc),
        heads=tuple(t.head.i for t in doc),
        found=_frozen(found),
    )


def _from_words(text: str, language: str) -> LineRead:
    """Without a parser: the patterned values, the runs of capitalised words, and every run
    of up to four words between marks, so the scorer has something to weigh."""
    analyzer = analyzer_for(language)
    spans = written_word_spans(text)
    starts = tuple(s for s, _ in spans)
    ends = tuple(e for _, e in spans)
    lower = tuple(fold(text[s:e], language) for s, e in spans)
    found: dict[tuple[int, int], tuple[int, set[str], str]] = {}
    exact: dict[tuple[int, int], tuple[int, int]] = {}
    labelled = label_end(text)

    def offer(first: int, last: int, kind: str, label: str = "") -> None:
        while first < last and starts[first] < labelled:
            first += 1
        if last <= first or last - first > MAX_TOKENS:
            return
        head, kinds, old = found.get((first, last), (last - 1, set(), ""))
        kinds.add(kind)
        found[(first, last)] = (head, kinds, old or label)

    for _, start, end, label in pattern_spans(text, language):
        inside = [i for i, (s, e) in enumerate(spans) if s < end and start < e]
        if inside:
            offer(inside[0], inside[-1] + 1, "pattern", label)
            exact[(inside[0], inside[-1] + 1)] = (start, end)
    first_capital = None
    for i in range(len(lower)):
        capital = text[starts[i]].isupper()
        if capital and first_capital is None:
            first_capital = i
        if first_capital is not None and (not capital or i == len(lower) - 1):
            last = i + 1 if capital else i
            if last - first_capital > 1 or first_capital > 0:
                offer(first_capital, last, "capitals")
            first_capital = None
    broken = [i for i in range(1, len(spans)) if _breaks(text[ends[i - 1] : starts[i]])]
    for first in range(len(spans)):
        for size in range(1, 5):
            last = first + size
            if last > len(spans) or any(first < b < last for b in broken):
                break
            offer(first, last, "words")
    return LineRead(
        text=text,
        language=language,
        starts=starts,
        ends=ends,
        lower=lower,
        terms=tuple(token_term(w, analyzer) for w in lower),
        pos=("",) * len(spans),
        dep=("",) * len(spans),
        heads=tuple(range(len(spans))),
        found=_frozen(found, exact),
    )


def token_term(token: str, analyzer: Analyzer) -> str | None:
    """The index term of one written token (None for a stop word or a mark)."""
    found = words(token, analyzer.language)
    return analyzer.term(found[0]) if found else None


def _breaks(gap: str) -> bool:
    return any(mark in gap for mark in ',.;:!?()[]"“”')


def _frozen(
    found: dict[tuple[int, int], tuple[int, set[str], str]],
    exact: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> tuple[Found, ...]:
    exact = exact or {}
    return tuple(
        Found(first, last, head, tuple(sorted(kinds)), label, *exact.get((first, last), (-1, -1)))
        for (first, last), (head, kinds, label) in sorted(found.items())
    )


def _complement_end(chunk: Span) -> int:
    """Where a noun chunk ends with the "of" phrase that completes its noun ("the
    divestiture of the video business")."""
    after = chunk.doc[chunk.end] if chunk.end < len(chunk.doc) else None
    if after is not None and after.lower_ == "of" and after.head == chunk.root:
        return after.right_edge.i + 1
    return chunk.end


def _trim(doc: Doc, first: int, last: int) -> tuple[int, int]:
    """The span without punctuation or a conjunction at either end."""
    while first < last and _edge(doc[first]):
        first += 1
    while last > first and _edge(doc[last - 1]):
        last -= 1
    return first, last


def _edge(token: Token) -> bool:
    return token.is_punct or token.tag_ == "CC" or token.is_space
