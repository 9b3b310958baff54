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

from affidavit.index.meaning.unigram import WordSplitter, read_light

# Words kept; past this many, new words are split each time (memory stays bounded).
CACHE_WORDS = 400_000
# Words split in Python before the tokenizer is built: the splitter takes about 20-60 µs a
# word against 5-8 µs for the tokenizer's model, and building the tokenizer 0.25-0.5 s of
# CPU; so past a few thousand words (an ingest, never one question) the tokenizer pays.
SPLIT_HERE_AT_MOST = 5_000
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

    # NOTE: from_pretrained took 2.1 s of CPU to open the bundled model, the folder reader
    # 0.6 s (the same run, a machine at load 9 on 2 cores), and at most 390 MB against
    # 510 MB for a cold ask: it imports huggingface_hub for the model card, copies the
    # tokenizer (100 MB each), sorts its 128,000 pieces and parses its JSON twice more. Here
    # the tokenizer itself is built only when a process splits many words (an ingest): a
    # cold ask's few words are split by ``unigram.WordSplitter`` over pieces written beside
    # the model, with the same ids. The model is the same (tests/index/test_pieces_loading.py
    # compares every setting with from_pretrained's, tests/index/test_pieces.py its vectors).
    @classmethod
    def from_folder(cls, folder: str | Path) -> CachedPieces:
        """The model saved in ``folder`` (model2vec's files: model.safetensors holding
        ``embeddings`` alone, tokenizer.json, config.json, and the word pieces written
        beside them); a model of another shape (a weighted or quantised one, a tokenizer
        the cache cannot read) by from_pretrained."""
        path = Path(folder)
        with safe_open(str(path / "model.safetensors"), framework="numpy") as tensors:
            plain = set(tensors.keys()) == {"embeddings"}
            embedding = tensors.get_tensor("embeddings") if plain else None
        light = read_light(path)
        unknown: int | None
        written: dict[str, Any] | None
        if light is not None:
            settings, written = light
            text, unknown = settings.settings, settings.unknown_id
            median_length = settings.median_piece_length
            described = json.loads(text)
            size = len(written["scores"])
        else:
            written = None
            text = (path / "tokenizer.json").read_text(encoding="utf-8")
            described = json.loads(text)
            lengths = [len(piece) for piece, _ in (described.get("model") or {}).get("vocab") or []]
            unknown = (described.get("model") or {}).get("unk_id")
            median_length = int(np.median(lengths)) if lengths else 0
            size = len(lengths)
        if (
            embedding is None
            or not _shape_cacheable(described)
            or described.get("padding") is not None
            or size != len(embedding)
        ):
            return cls.from_pretrained(str(path))
        del described
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        model = cls.__new__(cls)
        model.__dict__.update(
            embedding=embedding,
            weights=None,
            token_mapping=None,
            unk_token_id=unknown,
            median_token_length=median_length,
            config=dict(config),
            base_model_name=None,
            language=None,
            _pieces={},
            _folder=path,
            _written=written,
        )
        if written is None:
            model.tokenizer = Tokenizer.from_str(text)
        else:
            model.__dict__["_light"] = Tokenizer.from_str(text)  # settings, one piece
        model.max_length = config.get("max_length", 512)  # truncates the tokenizer too
        model.normalize = config.get("normalize", False)
        return model

    # The tokenizer, built on first read where the model was opened with its word pieces;
    # from_pretrained's assignment sets it.
    @property
    def tokenizer(self) -> Tokenizer:
        built = self.__dict__.get("_tokenizer")
        if built is None:
            built = Tokenizer.from_file(str(self.__dict__["_folder"] / "tokenizer.json"))
            limit = self.__dict__.get("_limit")
            if limit is None:
                built.no_truncation()
            else:
                built.enable_truncation(limit)
            self.__dict__["_tokenizer"] = built
        return built

    @tokenizer.setter
    def tokenizer(self, value: Tokenizer) -> None:
        self.__dict__["_tokenizer"] = value

    def _set_max_length_in_tokenizer(self, max_length: int | None) -> None:
        """model2vec sets the truncation before each encoding and back after it: kept
        here, and passed on to the tokenizer only once it is built."""
        self.__dict__["_limit"] = max_length
        if "_tokenizer" in self.__dict__:
            super()._set_max_length_in_tokenizer(max_length)

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
        settings = self.__dict__.get("_light") or self.tokenizer
        normalize = settings.normalizer.normalize_str
        limit = self.__dict__.get("_limit")
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
                    known = tuple(self._split(_MARK + word))
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

    def _split(self, word: str) -> list[int]:
        """One word's piece ids: by the splitter while the process has split few words,
        by the tokenizer's own model once it has split many (an ingest), or never had the
        word pieces to split by."""
        splitter = self.__dict__.get("_splitter")
        if splitter is None and self.__dict__.get("_written") is not None:
            splitter = self.__dict__["_splitter"] = WordSplitter.from_written(
                self.__dict__.pop("_written")
            )
        split = self.__dict__.get("_split_here", 0)
        if splitter is not None and split < SPLIT_HERE_AT_MOST:
            self.__dict__["_split_here"] = split + 1
            return splitter.ids(word)
        return [token.id for token in self.tokenizer.model.tokenize(word)]


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
