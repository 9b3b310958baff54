"""Document names for ingested files, and the check that keeps one from replacing another."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.formats.dispatch import iter_document_files, storable_path
from affidavit.ingest.formats.format_table import supported_formats_hint


def named_files(
    path: str | Path | Sequence[str | Path], name: str | None
) -> tuple[list[tuple[Path, str]], list[str]]:
    """(file, document name) for a file, a folder or a list of them, and the warnings of
    what was skipped or renamed; an IngestError when two would share a name."""
    roots = [Path(path)] if isinstance(path, str | Path) else [Path(p) for p in path]
    if name is not None and len(roots) > 1:
        raise IngestError(None, "name= applies to one file or folder", "ingest them one by one")
    named: list[tuple[Path, str]] = []
    warnings: list[str] = []
    for root in roots:
        named.extend(name_files(root, name, warnings))
    refuse_name_clashes(named)
    return named, warnings


def name_files(
    root: Path, name: str | None, warnings: list[str] | None = None
) -> list[tuple[Path, str]]:
    """(file, document name) for a file or every supported file under a folder; what is
    skipped or renamed is said in ``warnings``. A file ingested alone is named by its file
    name (or ``name``); a folder's files by the folder's name (or ``name``) and their path
    inside it, so projA/notes.txt and projB/notes.txt stay two documents whether the two
    folders are ingested together or one after the other."""
    if root.is_dir():
        skipped: list[str] = []
        files = iter_document_files(root, skipped)
        if not files:
            # What was passed over, and why, is part of the error: nothing else says it.
            why = "".join(f"\n  {line}" for line in skipped[:20])
            more = f"\n  and {len(skipped) - 20} more" if len(skipped) > 20 else ""
            raise IngestError(
                root, f"no supported documents in this folder{why}{more}", supported_formats_hint()
            )
        if warnings is not None:
            warnings.extend(skipped)
        folder = name or folder_name(root)
        prefix = f"{folder}/" if folder else ""
        return [(f, _storable(prefix + f.relative_to(root).as_posix(), warnings)) for f in files]
    if not root.exists():
        if root.is_symlink():  # a link that leads nowhere: say which way it fails
            raise IngestError(root, _broken_link(root), "give the file itself")
        raise IngestError(root, "no such file or folder", "check the path")
    return [(root, name or _storable(root.name, warnings))]


def folder_name(root: Path) -> str:
    """The name a folder's documents carry before their path inside it: its own name as
    the path says it ("." is the current folder's), empty for the file system's root."""
    return Path(os.path.abspath(root)).name


def _storable(name: str, warnings: list[str] | None) -> str:
    kept = storable_path(name)
    if kept != name and warnings is not None:
        warnings.append(f"{kept}: the file name is not UTF-8; its bytes are kept as escapes")
    return kept


def legacy_names(
    named: Sequence[tuple[Path, str]], legacy: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """The files of ``named`` (file, document name) stored before a folder's documents
    were named by the folder: each one's new name and the name it is stored under.
    ``legacy`` is (name, path as given) of each such stored document; a relative path is
    taken from the current folder, and the old name must end the new one (projA/notes.txt
    takes the place of notes.txt read from projA/notes.txt, never of another file)."""
    by_file: dict[str, str] = {}
    for old, given in legacy:
        by_file.setdefault(os.path.abspath(given), old)
    found: dict[str, str] = {}
    for file, new in named:
        stored = by_file.get(storable_path(os.path.abspath(file)))
        if stored is not None and stored != new and new.endswith("/" + stored):
            found[new] = stored
    return found


def refuse_name_clashes(named: list[tuple[Path, str]]) -> None:
    seen: dict[str, Path] = {}
    for file, doc_name in named:
        if doc_name in seen and seen[doc_name].resolve() != file.resolve():
            raise IngestError(
                file,
                f"would replace {seen[doc_name]}: both are named {doc_name!r}",
                "ingest their folder instead, or give one of them another name with name=",
            )
        seen[doc_name] = file


def _broken_link(link: Path) -> str:
    """Why the link ``link`` reaches no file: a loop or too long a chain, or a dead end."""
    try:
        os.stat(link)  # the system's own walk, whose chain of links ends at 40
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a link that loops, or a chain of more than 40 links"
    return "a link to a file that does not exist"
