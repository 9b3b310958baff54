"""The clause frames of the lines a sentence is judged against, read once per line and
kept in the store (store/frames.py): a line's frames are made the first time a judge
reads the line and read back after, so no stored line is parsed twice."""

from __future__ import annotations

from collections.abc import Sequence

from affidavit.frames import Frame, read_frames
from affidavit.frames.codec import FRAMES_VERSION, frames_from_text, frames_to_text
from affidavit.store.frames import StoredFrames, frames_key


def kept_frames(kept: StoredFrames | None, texts: Sequence[str]) -> list[tuple[Frame, ...]]:
    """Each of ``texts``' frames: read back from ``kept`` where it has them, else read and
    given to it to keep (None: read, keep nothing)."""
    if kept is None:
        return [read_frames(text) for text in texts]
    keys = [frames_key(FRAMES_VERSION, text) for text in texts]
    found = kept.get(keys)
    made: dict[str, str] = {}
    frames = []
    for key, text in zip(keys, texts, strict=True):
        said = found.get(key)
        if said is None:
            read = read_frames(text)
            made[key] = frames_to_text(read)
            frames.append(read)
        else:
            frames.append(frames_from_text(said))
    kept.put(made)
    return frames
