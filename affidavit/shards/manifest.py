"""A sharded store on disk: a folder of shard files (each an ordinary store) and the
manifest that says how many there are and which shard owns a document.

The rule is stable: a document belongs to the shard its name's BLAKE2b digest (8 bytes,
big-endian) names modulo the shard count, so the same name always lands on the same
shard, a replacement replaces in one shard, and no table of names has to be kept."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from affidavit.errors import StoreError

MANIFEST = "manifest.json"
FORMAT = "affidavit-shards"
VERSION = 1
MOST_SHARDS = 256


@dataclass(frozen=True)
class Manifest:
    """The folder of a sharded store and its shard files, in shard order."""

    folder: Path
    files: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.files)

    def paths(self) -> list[Path]:
        return [self.folder / name for name in self.files]

    def shard_of(self, document: str) -> int:
        return shard_of(document, self.count)


def shard_of(document: str, count: int) -> int:
    """The shard that owns the document named ``document`` among ``count`` shards."""
    digest = hashlib.blake2b(document.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


def is_sharded(path: str | Path | None) -> bool:
    """Whether ``path`` is the folder of a sharded store (it holds a manifest)."""
    return path is not None and (Path(path) / MANIFEST).is_file()


def open_manifest(folder: str | Path, shards: int | None) -> Manifest:
    """The manifest of the sharded store in ``folder``, written first when there is none
    (``shards`` then says how many; given for an existing store, it must agree)."""
    folder = Path(folder)
    if (folder / MANIFEST).is_file():
        manifest = _read(folder)
        if shards is not None and shards != manifest.count:
            raise StoreError(
                folder,
                f"the store has {manifest.count} shards, not {shards}",
                f"open it with shards={manifest.count} or without shards=",
            )
        return manifest
    if shards is None:
        raise StoreError(
            folder, "not a sharded store (no manifest.json)", "pass shards=N to make one"
        )
    if not 1 <= shards <= MOST_SHARDS:
        raise StoreError(folder, f"{shards} shards", f"give 1 to {MOST_SHARDS}")
    if folder.exists() and not folder.is_dir():
        raise StoreError(folder, "is a file, not a folder", "a sharded store is a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise StoreError(folder, "the folder is not empty", "make a sharded store in a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    width = len(str(shards - 1))
    files = tuple(f"shard-{number:0{width}d}.sqlite" for number in range(shards))
    body = {"format": FORMAT, "version": VERSION, "rule": "blake2b-8 of the name, mod count"}
    text = json.dumps({**body, "shards": list(files)}, indent=2) + "\n"
    # Written whole or not at all: a crash leaves no half manifest.
    partial = folder / f".{MANIFEST}.partial"
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, folder / MANIFEST)
    return Manifest(folder, files)


def _read(folder: Path) -> Manifest:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = tuple(str(name) for name in data["shards"])
        kind, version = data["format"], int(data["version"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(folder / MANIFEST, f"unreadable manifest ({exc})") from exc
    if kind != FORMAT or version > VERSION:
        raise StoreError(
            folder / MANIFEST,
            f"a {kind!r} manifest of version {version}",
            "open it with the affidavit version that made it",
        )
    if not files or any(Path(name).name != name for name in files):
        raise StoreError(folder / MANIFEST, "its shard list is empty or names other folders")
    return Manifest(folder, files)
