"""CachedPieces.from_folder opens the bundled model as model2vec's from_pretrained does:
every setting the same (tests/index/test_pieces.py holds its ids and vectors to the
tokenizer's), and a model of another shape is left to from_pretrained."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from affidavit.index.meaning.encoder import bundled_model_path
from affidavit.index.meaning.pieces import CachedPieces


def test_the_folder_reader_makes_the_model_from_pretrained_makes() -> None:
    ours = CachedPieces.from_folder(bundled_model_path())
    theirs = CachedPieces.from_pretrained(bundled_model_path())
    assert ours.tokens == theirs.tokens  # read on first use, then kept like theirs
    own = {"_pieces", "_light", "_folder", "_written", "_splitter", "_split_here"}
    assert set(ours.__dict__) - own == set(theirs.__dict__)
    assert np.array_equal(ours.embedding, theirs.embedding)
    assert ours.embedding.dtype == theirs.embedding.dtype
    settings = ("unk_token_id", "median_token_length", "config", "max_length", "normalize")
    assert {name: getattr(ours, name) for name in settings} == {
        name: getattr(theirs, name) for name in settings
    }
    assert (ours.weights, ours.token_mapping) == (theirs.weights, theirs.token_mapping)
    assert (ours.base_model_name, ours.language) == (theirs.base_model_name, theirs.language)
    assert ours.tokenizer.to_str() == theirs.tokenizer.to_str()  # truncation, padding too
    texts = ["The embargo ended in March 1974.", "¿Dónde está la biblioteca?", "word " * 700]
    assert np.array_equal(ours.encode(texts), theirs.encode(texts))


def test_a_tokenizer_the_cache_cannot_read_is_left_to_from_pretrained(tmp_path: Path) -> None:
    bundled = Path(bundled_model_path())
    for name in ("model.safetensors", "config.json", "README.md", "modules.json"):
        (tmp_path / name).symlink_to(bundled / name)
    described = (bundled / "tokenizer.json").read_text(encoding="utf-8")
    other = re.sub(r'"prepend_scheme":\s*"always"', '"prepend_scheme": "first"', described)
    assert other != described  # control: the bundled one prepends the mark always
    (tmp_path / "tokenizer.json").write_text(other, encoding="utf-8")
    model = CachedPieces.from_folder(tmp_path)
    assert model.tokenize(["A line of words."])
    assert model.__dict__["_pieces"] is None  # from_pretrained's model: never cached
