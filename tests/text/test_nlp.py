"""The spaCy pipelines: the parse (the reading pipeline less its NER) tags and parses
every line as the English model loaded without NER does, and the tokenizer the English
defaults make is the model's own."""

from __future__ import annotations

import spacy
from conftest import ARTICLES

from affidavit.text.nlp import ENGLISH_MODEL, entity_pipeline, parse_pipeline, reading_pipeline


def _reading_of(doc: spacy.tokens.Doc) -> list[tuple[object, ...]]:
    return [
        (t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.is_sent_start, t.morph.to_json()) for t in doc
    ]


def test_the_parse_is_the_english_model_without_ner_on_every_line() -> None:
    alone = spacy.load(ENGLISH_MODEL, exclude=["ner", "lemmatizer", "senter"])
    paragraphs = [line for line in ARTICLES[0].read_text(encoding="utf-8").splitlines() if line]
    lines = paragraphs[:12]  # about a hundred sentences
    for line in lines:
        ours = parse_pipeline()(line)
        assert _reading_of(ours) == _reading_of(alone(line)), line
        assert ours.ents == ()  # the NER did not run: no names, as before
    assert reading_pipeline()(lines[0]).ents  # control: the reader's pipeline finds them


def test_the_tokenizer_left_to_the_english_defaults_is_the_models_to_the_byte() -> None:
    whole = spacy.load(ENGLISH_MODEL, exclude=["lemmatizer", "senter"])  # its tokenizer read
    theirs = whole.tokenizer.to_bytes(exclude=["vocab"])
    assert reading_pipeline().tokenizer.to_bytes(exclude=["vocab"]) == theirs
    assert entity_pipeline().tokenizer.to_bytes(exclude=["vocab"]) == theirs
