"""The clause frames of the lines a sentence is judged against, read once per line and
kept in the store (store/frame_rows.py): a line's frames are made the first time a judge
reads the line, or ahead for a whole store (keep_every_frame), and read back after, so
no stored line is parsed twice."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affidavit.frames import FRAMES_VERSION, Frame, frames_from_text, frames_to_text, read_frames
from affidavit.gates import FRAME_LANGUAGES, said_as_evidence
from affidavit.store import Store, StoredFrames, frames_key


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


def keep_every_frame(store: Store, progress: Callable[[int, int, str], None] | None = None) -> int:
    """Read ahead the frames of every line of the store's English documents that has none
    kept, and keep them (``Memory.build_indexes(frames=True)``); returns how many lines
    were read. ``progress(done, total, "frames")`` hears each document."""
    kept = StoredFrames(store)
    documents = [name for _, name, language in store.documents() if language in FRAME_LANGUAGES]
    made = 0
    for done, name in enumerate(documents, 1):
        texts = [said_as_evidence(line) for line in store.document_lines(name)]
        keys = [frames_key(FRAMES_VERSION, text) for text in texts]
        have = kept.get(keys)
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in have}
        kept.put({key: frames_to_text(read_frames(text)) for key, text in missing.items()})
        made += len(missing)
        if progress is not None:
            progress(done, len(documents), "frames")
    return made
