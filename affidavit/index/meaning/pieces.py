"""The bundled encoder's tokenizer, read a word at a time through a cache of word pieces."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from model2vec import StaticModel

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
    described = json.loads(tokenizer.to_str())
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
