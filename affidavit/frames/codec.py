"""Frames as text, to keep in the store: a line's frames never change while the reader
does not, so each line is read once (store/frames.py) and its frames read back from JSON.
``FRAMES_VERSION`` names the reader; frames kept by another version are read again."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from affidavit.frames.model import Argument, Bound, Frame, Modality, Quantity, Role

# Raise it whenever frames/read.py, english.py or parse.py would read a line otherwise.
FRAMES_VERSION = 1


def frames_to_text(frames: Sequence[Frame]) -> str:
    return json.dumps([_frame_data(f) for f in frames], separators=(",", ":"), sort_keys=True)


def frames_from_text(text: str) -> tuple[Frame, ...]:
    return tuple(_frame(d) for d in json.loads(text))


def _frame_data(frame: Frame) -> dict[str, Any]:
    return {
        "p": frame.predicate,
        "a": [_argument_data(a) for a in frame.arguments],
        "t": frame.text,
        "n": frame.negated,
        "m": frame.modality.value,
        "c": [_frame_data(c) for c in frame.conditions],
        "x": [_argument_data(a) for a in frame.exceptions],
        "b": [[b.relation, sorted(b.words), list(b.values), b.text] for b in frame.bounds],
        "e": frame.embedded,
        "k": list(frame.anchors),
    }


def _frame(data: dict[str, Any]) -> Frame:
    return Frame(
        predicate=data["p"],
        arguments=tuple(_argument(a) for a in data["a"]),
        text=data["t"],
        negated=data["n"],
        modality=Modality(data["m"]),
        conditions=tuple(_frame(c) for c in data["c"]),
        exceptions=tuple(_argument(a) for a in data["x"]),
        bounds=tuple(Bound(r, frozenset(w), tuple(v), t) for r, w, v, t in data["b"]),
        embedded=data["e"],
        anchors=tuple(data["k"]),
    )


def _argument_data(argument: Argument) -> list[Any]:
    return [
        argument.role.value, argument.head, sorted(argument.words), argument.text,
        argument.marker, argument.quantity.value, list(argument.anchors),
        list(argument.values), argument.negated, argument.comparison,
    ]  # fmt: skip


def _argument(data: list[Any]) -> Argument:
    role, head, words, text, marker, quantity, anchors, values, negated, comparison = data
    return Argument(
        role=Role(role), head=head, words=frozenset(words), text=text, marker=marker,
        quantity=Quantity(quantity), anchors=tuple(anchors), values=tuple(values),
        negated=negated, comparison=comparison,
    )  # fmt: skip
