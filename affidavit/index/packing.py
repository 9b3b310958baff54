"""Index arrays as one npz payload, each stored in the narrowest type that holds it.

The indexes keep their arrays in the types their arithmetic wants: int64 line ids, int32
token ids, float32 term counts. On disk most of those bytes are zeros: a line id of a
store under 4 billion lines fits 32 bits, a token id of a vocabulary under 65,536 words 16,
and a term's count in a line is a small whole number. Each array is written in the
narrowest integer type its values need (a float array only when every value is a whole
number) and read back into the type it was written from, so an index read from the store
is the one that was written, value for value, and ranks as it did.

NOTE: measured on a 20.9 MB store (239,137 lines): the three index payloads took 163 MB
as written before; the narrowing is what `bench/scale.py` reports as store bytes.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping

import numpy as np

# The key under which each narrowed array's own type is written (a JSON object).
_TYPES = "packing_types"
_UNSIGNED = (np.uint8, np.uint16, np.uint32, np.uint64)
_SIGNED = (np.int8, np.int16, np.int32, np.int64)


def save_arrays(arrays: Mapping[str, np.ndarray]) -> bytes:
    """``arrays`` as one npz payload, each in its narrowest type (no pickles)."""
    stored: dict[str, np.ndarray] = {}
    types: dict[str, str] = {}
    for name, array in arrays.items():
        narrow = _narrowest(array)
        if narrow.dtype != array.dtype:
            types[name] = array.dtype.str
        stored[name] = narrow
    if types:
        stored[_TYPES] = np.frombuffer(json.dumps(types, sort_keys=True).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **stored)  # type: ignore[arg-type]
    return buffer.getvalue()


def load_arrays(payload: bytes) -> dict[str, np.ndarray]:
    """The arrays of a ``save_arrays`` payload (or of a plain npz), in their own types."""
    with np.load(io.BytesIO(payload), allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    types = json.loads(arrays.pop(_TYPES).tobytes().decode()) if _TYPES in arrays else {}
    for name, kind in types.items():
        arrays[name] = arrays[name].astype(np.dtype(kind))
    return arrays


def _narrowest(array: np.ndarray) -> np.ndarray:
    """``array`` in the narrowest integer type that holds every value exactly, or as it is."""
    if array.size == 0 or array.dtype.kind not in "iuf":
        return array
    if array.dtype.kind == "f":
        if not np.isfinite(array).all() or not (array == np.rint(array)).all():
            return array
    low, high = array.min(), array.max()
    for kind in _UNSIGNED if low >= 0 else _SIGNED:
        limits = np.iinfo(kind)
        if limits.min <= low and high <= limits.max:
            if np.dtype(kind).itemsize >= array.dtype.itemsize:
                return array  # nothing narrower holds it
            return array.astype(kind)
    return array
