"""The word index as bytes, as the store's index cache keeps it: one npz payload of its
arrays and a JSON head (its vocabulary in column order, its documents' languages, names
and stored versions), with no pickles."""

from __future__ import annotations

import json
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from affidavit.index.packing import load_arrays, save_arrays
from affidavit.index.words.name_bonus import name_slots


class Indexed(Protocol):
    """What is stored of a word index (word_index.WordIndex is one)."""

    vocabulary: dict[str, int]
    line_ids: np.ndarray
    line_documents: np.ndarray
    document_ids: np.ndarray
    document_languages: list[str]
    document_names: list[str]
    document_keys: list[str]
    line_counts: sp.csc_matrix
    window_counts: sp.csc_matrix
    window_documents: np.ndarray
    incidence: sp.csr_matrix


def index_bytes(index: Indexed, removed: list[str], after: str) -> bytes:
    """``index`` as one payload; ``removed`` and ``after`` as WordIndex.to_bytes's."""
    arrays = {
        "line_ids": index.line_ids,
        "line_documents": index.line_documents,
        "document_ids": index.document_ids,
        "window_documents": index.window_documents,
        "inc_indices": index.incidence.indices,
        "inc_indptr": index.incidence.indptr,
    }
    for prefix, matrix in (("lc", index.line_counts), ("wc", index.window_counts)):
        arrays[f"{prefix}_data"] = matrix.data
        arrays[f"{prefix}_indices"] = matrix.indices
        arrays[f"{prefix}_indptr"] = matrix.indptr
        arrays[f"{prefix}_shape"] = np.asarray(matrix.shape, dtype=np.int64)
    meta = {
        "vocabulary": sorted(index.vocabulary, key=index.vocabulary.__getitem__),
        "languages": index.document_languages,
        "names": index.document_names,
        "keys": index.document_keys,
        "removed": removed,
        "after": after,
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    return save_arrays(arrays)


def index_fields(payload: bytes) -> tuple[dict[str, Any], list[str], str]:
    """The fields of the index ``index_bytes`` wrote, the versions it says were removed,
    and the digest of the versions of the index it was made on."""
    data = load_arrays(payload)
    meta = json.loads(data["meta"].tobytes().decode())

    def matrix(prefix: str) -> sp.csc_matrix:
        return sp.csc_matrix(
            (data[f"{prefix}_data"], data[f"{prefix}_indices"], data[f"{prefix}_indptr"]),
            shape=tuple(data[f"{prefix}_shape"]),
        )

    line_ids = data["line_ids"]
    window_documents = data["window_documents"]
    incidence = sp.csr_matrix(
        (
            np.ones(len(data["inc_indices"]), dtype=np.int8),
            data["inc_indices"],
            data["inc_indptr"],
        ),
        shape=(len(window_documents), len(line_ids)),
    )
    fields = {
        "vocabulary": {t: i for i, t in enumerate(meta["vocabulary"])},
        "line_ids": line_ids,
        "line_documents": data["line_documents"],
        "document_ids": data["document_ids"],
        "document_languages": meta["languages"],
        "document_names": meta["names"],
        "document_keys": meta["keys"],
        "line_counts": matrix("lc"),
        "window_counts": matrix("wc"),
        "window_documents": window_documents,
        "incidence": incidence,
        "name_terms": name_slots(meta["names"], meta["languages"]),
    }
    return fields, list(meta["removed"]), str(meta.get("after", ""))
