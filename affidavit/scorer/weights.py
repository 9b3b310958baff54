"""The span scorer's weights: trained by tools/train_reader.py, shipped in
affidavit/data/reader.npz with where they came from, loaded once: one weight per hashed
feature, and the arrays of the network that reads a line word by word."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from affidavit.errors import EngineError
from affidavit.scorer.features import BITS
from affidavit.scorer.network import Network

WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "data" / "reader.npz"
_NET = "net."  # the network's arrays are stored under this prefix
_HINT = "reinstall affidavit, or retrain them with `make reader`"


@dataclass(frozen=True)
class Weights:
    """One weight per hashed feature, the network (None in weights trained without one),
    and the training run's record (corpus, checksum, commit, held-out scores)."""

    values: np.ndarray
    provenance: dict[str, Any]
    network: Network | None = None

    def score(self, features: np.ndarray) -> float:
        return float(self.values[features].sum())


@lru_cache(maxsize=1)
def weights() -> Weights:
    """The shipped weights; an EngineError naming the file when they cannot be read."""
    return load_weights(WEIGHTS_FILE)


def load_weights(path: Path) -> Weights:
    try:
        with np.load(path) as stored:
            values = stored["weights"].astype(np.float32)
            provenance = json.loads(str(stored["meta"]))
            arrays = {k[len(_NET) :]: stored[k] for k in stored.files if k.startswith(_NET)}
    except (OSError, ValueError, KeyError) as exc:
        raise EngineError(f"{path}: the reader's weights cannot be read ({_HINT})") from exc
    if values.shape != (1 << BITS,) or provenance.get("bits") != BITS:
        raise EngineError(
            f"{path}: the reader's weights were trained for other features "
            f"({values.shape[0]:,} weights, {BITS} bits expected; {_HINT})"
        )
    return Weights(values, provenance, Network(arrays) if arrays else None)
