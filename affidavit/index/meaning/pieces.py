"""The bundled encoder's tokenizer, read a word at a time through a cache of word pieces."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from model2vec import StaticModel
from safetensors import safe_open
from tokenizers import Tokenizer

# Words kept; past this many, new words are split each time (memory stays bounded).
CACHE_WORDS = 400_000
_MARK = "\u2581"


# NOTE: at 100 MB the tokenizer was most of encoding the lines (about 60 s of two cores);
# through the cache a line costs its normalisation and a lookup a word, and the ids are the
# tokenizer's own (tests/index/test_pieces.py compares them on every corpus).
class CachedPieces(StaticModel):  # type: ignore[misc]
    """A model2vec StaticModel whose ``tokenize`` splits each distinct word once.

    The bundled model's tokenizer normalises a text, cuts it at spaces (each word carries
    the "▁" that marks where a space was) and splits each word into pieces on its own. So
    a word's pieces do not depend on the words around it, and a word once split need not
    be split again. A text the cache could read otherwise than the tokenizer (one that
    writes "▁" itself) or a tokenizer of another shape (``_cacheable``) goes to the
    tokenizer.
    """

    # NOTE: from_pretrained took 2.1 s of CPU to open the bundled model, this 0.6 s (the
    # same run, a machine at load 9 on 2 cores), and at most 390 MB against 510 MB for a
    # cold ask: it imports huggingface_hub for the model card, copies the tokenizer (100 MB
    # each), sorts its 128,000 pieces and parses its JSON twice more; here the JSON is read
    # once, for what the model needs of it, and let go before the tokenizer is made from
    # it. The model is the same (tests/index/test_pieces_loading.py compares every setting
    # with from_pretrained's, tests/index/test_pieces.py its vectors).
    @classmethod
    def from_folder(cls, folder: str | Path) -> CachedPieces:
        """The model saved in ``folder`` (model2vec's files: model.safetensors holding
        ``embeddings`` alone, tokenizer.json, config.json); a model of another shape (a
        weighted or quantised one, a tokenizer the cache cannot read) by from_pretrained."""
        path = Path(folder)
        with safe_open(str(path / "model.safetensors"), framework="numpy") as tensors:
            plain = set(tensors.keys()) == {"embeddings"}
            embedding = tensors.get_tensor("embeddings") if plain else None
        text = (path / "tokenizer.json").read_text(encoding="utf-8")
        described = json.loads(text)
        pieces = [piece for piece, _ in (described.get("model") or {}).get("vocab") or []]
        if (
            embedding is None
            or not _shape_cacheable(described)
            or described.get("padding") is not None
            or len(pieces) != len(embedding)
        ):
            return cls.from_pretrained(str(path))
        unknown = described["model"].get("unk_id")
        median_length = int(np.median([len(piece) for piece in pieces]))
        del described, pieces
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        model = cls.__new__(cls)
        model.__dict__.update(
            embedding=embedding,
            weights=None,
            token_mapping=None,
            tokenizer=Tokenizer.from_str(text),
            unk_token_id=unknown,
            median_token_length=median_length,
            config=dict(config),
            base_model_name=None,
            language=None,
            _pieces={},
        )
        model.max_length = config.get("max_length", 512)  # truncates the tokenizer too
        model.normalize = config.get("normalize", False)
        return model

    # A property that from_pretrained's assignment replaces (cached_property has no setter).
    @cached_property
    def tokens(self) -> tuple[str, ...]:  # type: ignore[override]
        """The pieces in id order (from_pretrained sets them; from_folder on first read:
        encoding never reads them)."""
        vocabulary = self.tokenizer.get_vocab()
        return tuple(sorted(vocabulary, key=vocabulary.__getitem__))

    def tokenize(self, sentences: Sequence[str]) -> list[list[int]]:
        if "_pieces" not in self.__dict__:
            self.__dict__["_pieces"] = {} if _cacheable(self.tokenizer) else None
        pieces = self.__dict__["_pieces"]
        if pieces is None:
            return list(super().tokenize(sentences))
        normalize = self.tokenizer.normalizer.normalize_str
        split_word = self.tokenizer.model.tokenize
        truncation = self.tokenizer.truncation
        limit = truncation["max_length"] if truncation else None
        unknown = self.unk_token_id
        out: list[list[int]] = []
        odd: list[int] = []  # texts the tokenizer reads itself
        for number, sentence in enumerate(sentences):
            if _MARK in sentence:
                odd.append(number)
                out.append([])
                continue
            ids: list[int] = []
            normalized = normalize(sentence)
            for word in normalized.split(" ") if normalized else ():
                known = pieces.get(word)
                if known is None:
                    # A tuple of ints, not a list: the collector stops tracking it, and a
                    # full collection walked every cached word's list (70,000 after a
                    # 20 MB ingest, a third of all the objects it walked).
                    known = tuple(token.id for token in split_word(_MARK + word))
                    if len(pieces) < CACHE_WORDS:
                        pieces[word] = known
                ids.extend(known)
            if limit is not None:
                del ids[limit:]
            if unknown is not None:
                ids = [token for token in ids if token != unknown]
            out.append(ids)
        if odd:
            for number, ids in zip(odd, super().tokenize([sentences[i] for i in odd]), strict=True):
                out[number] = ids
        return out


def _cacheable(tokenizer: Any) -> bool:
    """Whether the tokenizer splits words apart as the cache assumes: one normaliser,
    a Unigram model, a Metaspace cut at every space with the mark always prepended, and
    nothing done after."""
    return _shape_cacheable(json.loads(tokenizer.to_str()))


def _shape_cacheable(described: dict[str, Any]) -> bool:
    """``_cacheable`` of a tokenizer as its JSON describes it."""
    cut = described.get("pre_tokenizer") or {}
    return bool(
        described.get("normalizer") is not None
        and (described.get("model") or {}).get("type") == "Unigram"
        and cut.get("type") == "Metaspace"
        and cut.get("replacement") == _MARK
        and cut.get("prepend_scheme") == "always"
        and cut.get("split") is True
        and described.get("post_processor") is None
    )
