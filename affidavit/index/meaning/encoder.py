"""The meaning channel's encoder: the protocol any encoder meets, the static multilingual
model bundled with the package, and the vectors and fingerprint read from an encoder."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Any, Protocol, runtime_checkable

import numpy as np

from affidavit.errors import EngineError
from affidavit.runtime import give_back_freed_memory

BUNDLED_MODEL = "static-use-m3-256"
# What an encoder makes of these names its vector space (see ``fingerprint``).
_PROBE = ["affidavit checks what the evidence says", "la memoria no inventa nada", "1984"]


@runtime_checkable
class Encoder(Protocol):
    """Anything that turns texts into one vector each (a model2vec ``StaticModel`` does)."""

    def encode(self, sentences: Sequence[str]) -> Any: ...


def bundled_model_path() -> str:
    return str(files("affidavit") / "data" / BUNDLED_MODEL)


@lru_cache(maxsize=1)
def bundled_encoder() -> Any:
    """The static model shipped with the package (loaded once per process, offline)."""
    from affidavit.index.meaning.pieces import CachedPieces

    model = CachedPieces.from_folder(bundled_model_path())
    give_back_freed_memory()  # loading leaves 117 MB of freed scratch on the C heap
    return model


class BundledEncoder:
    """The bundled model, loaded on first use: a Memory that never asks never pays for it."""

    def encode(self, sentences: Sequence[str], **options: Any) -> np.ndarray:
        return np.asarray(bundled_encoder().encode(list(sentences), **options))

    def tokenize(self, sentences: Sequence[str]) -> list[list[int]]:
        return list(bundled_encoder().tokenize(list(sentences)))

    @property
    def embedding(self) -> np.ndarray:
        return np.asarray(bundled_encoder().embedding)


def encode(encoder: Encoder, texts: Sequence[str]) -> np.ndarray:
    """Unit-length float32 vectors, one row per text (zero rows stay zero)."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    try:
        raw = encoder.encode(list(texts), use_multiprocessing=False)  # type: ignore[call-arg]
    except TypeError:  # an encoder without model2vec's keyword
        raw = encoder.encode(list(texts))
    vectors = np.asarray(raw, dtype=np.float32)
    if vectors.ndim != 2 or vectors.shape[0] != len(texts):
        raise EngineError(
            f"the encoder returned shape {vectors.shape} for {len(texts)} texts; "
            "an Encoder must return one vector per text"
        )
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


def fingerprint(encoder: Encoder) -> str:
    """A name for the encoder's vector space: the hash of what it makes of fixed probes."""
    if isinstance(encoder, BundledEncoder):
        return _bundled_fingerprint()  # every Memory shares it; probe it once per process
    probe = encode(encoder, _PROBE)
    digest = hashlib.sha256(np.round(probe, 4).astype(np.float32).tobytes())
    digest.update(str(probe.shape).encode())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _bundled_fingerprint() -> str:
    return fingerprint(bundled_encoder())
