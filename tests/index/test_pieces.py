"""The bundled encoder's word-piece cache reads every text as its tokenizer does: the
same ids, so the same vectors, on the real text of every corpus and on the edge cases
of its normaliser (spaces, marks, truncation)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import CORPORA
from model2vec import StaticModel
from tokenizers import Tokenizer

from affidavit.index.meaning.encoder import bundled_encoder, bundled_model_path
from affidavit.index.meaning.pieces import CachedPieces

EDGES = [
    "",
    "   ",
    "\t a tab,  two spaces and a trailing one ",
    "\u00a0no-break\u3000ideographic space",
    "a text that writes the mark \u2581 itself",
    "ﬁ ligature, full-width ＡＢＣ and é vs e\u0301",
    "word " * 700,  # past the tokenizer's 512 pieces
]


@pytest.fixture(scope="module")
def plain() -> StaticModel:
    return StaticModel.from_pretrained(bundled_model_path())


def _corpus_lines() -> list[str]:
    lines: set[str] = set()
    for path in sorted(CORPORA.rglob("*")):
        if path.suffix in (".txt", ".md", ".jsonl", ".html"):
            lines.update(line for line in path.read_text(errors="replace").splitlines())
    return sorted(lines)


def test_the_cache_gives_the_tokenizers_ids_on_every_corpus_line(plain: StaticModel) -> None:
    encoder = bundled_encoder()
    assert isinstance(encoder, CachedPieces)
    texts = _corpus_lines() + EDGES
    assert len(texts) > 5_000
    assert encoder.tokenize(texts) == plain.tokenize(texts)
    assert encoder.tokenize(texts) == plain.tokenize(texts)  # read again from the cache
    assert encoder.__dict__["_pieces"]  # the words were kept


def test_vectors_through_the_cache_are_the_models_to_the_bit(plain: StaticModel) -> None:
    texts = _corpus_lines()[::5] + EDGES
    ours = bundled_encoder().encode(texts, use_multiprocessing=False)
    theirs = plain.encode(texts, use_multiprocessing=False)
    assert np.array_equal(ours, theirs)


def test_a_tokenizer_of_another_shape_is_read_by_the_tokenizer(plain: StaticModel) -> None:
    other = CachedPieces.from_pretrained(bundled_model_path())
    described = other.tokenizer.to_str()
    other.tokenizer = Tokenizer.from_str(
        described.replace('"prepend_scheme":"always"', '"prepend_scheme":"first"')
    )
    texts = ["A line of words.", "Another line."]
    assert other.tokenize(texts) == [list(ids) for ids in StaticModel.tokenize(other, texts)]
    assert other.__dict__["_pieces"] is None  # never cached
