"""A sentence parsed for its frames: the English pipeline's tagger, parser and lemmatizer
run over a Doc whose anchors ("Project A", "Section 5(b)") and Title-Case terms
("Confidential Information", "Receiving Party") are single tokens first, so the parser
sees one noun where the document named one thing.

The loaded pipeline is shared with the rest of affidavit (text/nlp.py) and never changed:
the tokens are merged on a Doc of our own, then the pipeline's components run over it."""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from affidavit.frames.anchors import anchors_in
from affidavit.text import LONGEST_PARSED, parsed, reading_pipeline

# Capitalised words that open a phrase but do not name a thing: a sentence's first
# article or a quantifier stays a word of its own ("The Receiving Party" merges
# "Receiving Party" only).
_NOT_A_NAME_PART = frozenset(
    "the a an this that these those any all each every no none some such and or of to "
    "for by with in on at if unless except where when however notwithstanding it its "
    "you your we our they their he she i shall must may will not should can cannot "
    "never".split()
)
# Modals and negations written in capitals for emphasis ("verifiers SHALL", "is NOT
# intended"): the tagger reads capitals as a name, so they are parsed in lower case (the
# same length, so every offset holds).
_EMPHASIS = re.compile(
    r"\b(?:SHALL|MUST|MAY|WILL|SHOULD|NOT|NEVER|CANNOT|REQUIRED|RECOMMENDED|OPTIONAL)\b"
)
# Pipes the frames do not read: names are the reader's business, not a clause's.
_SKIPPED = frozenset({"ner", "senter"})


@lru_cache(maxsize=8192)
def parsed_for_frames(text: str) -> Doc | None:
    """``text`` tokenised, its names merged, tagged, parsed and lemmatised; None when it is
    too long to parse for what it says (a table flattened into a line)."""
    if not text.strip() or len(text) > LONGEST_PARSED:
        return None
    nlp = reading_pipeline()
    lowered = _EMPHASIS.sub(lambda m: m.group().lower(), text)
    doc = nlp.make_doc(lowered)
    if not _merge_names(doc) and lowered == text:
        # Nothing merged or lowered: the tokens are the pipeline's own, so the parse is the
        # one the rest of affidavit reads (the reader's, where it read the line: an ask's
        # cited line is not parsed twice; its names do not change its tags or its tree,
        # and no frame reads a name, so a line's frames do not hang on who parsed it).
        return parsed(text)
    for name, component in nlp.pipeline:
        if name not in _SKIPPED:
            doc = component(doc)
    return doc


def _merge_names(doc: Doc) -> bool:
    """Each anchor, and each run of two or more capitalised words, made one token; whether
    any was."""
    spans: list[Span] = []
    for anchor in anchors_in(doc.text):
        span = doc.char_span(anchor.start, anchor.end, alignment_mode="expand")
        if span is not None and len(span) > 1:
            spans.append(span)
    start = None
    for token in [*doc, None]:
        capital = (
            token is not None
            and token.is_alpha
            and token.text[:1].isupper()
            and token.lower_ not in _NOT_A_NAME_PART
            and not (token.is_upper and len(token) > 1 and token.lower_ in _NOT_A_NAME_PART)
        )
        if capital and start is None:
            start = token.i  # type: ignore[union-attr]
        elif not capital and start is not None:
            end = token.i if token is not None else len(doc)
            if end - start > 1:
                spans.append(doc[start:end])
            start = None
    if not spans:
        return False
    with doc.retokenize() as retokenizer:
        for span in filter_spans(spans):
            retokenizer.merge(span, attrs={"TAG": "NNP", "POS": "PROPN"})
    return True
