"""Document names for ingested files, and the check that keeps one from replacing another."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

from affidavit.errors import IngestError
from affidavit.ingest.readers.formats import iter_document_files, storable_path


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
    name; a folder's files by their path relative to the folder (so a/notes.txt and
    b/notes.txt stay two documents)."""
    if root.is_dir():
        files = iter_document_files(root, warnings)
        if not files:
            raise IngestError(
                root,
                "no supported documents in this folder",
                "point at .txt, .md, .csv, .tsv, .html, .pdf or .docx files",
            )
        prefix = f"{name}/" if name else ""
        return [(f, _storable(prefix + f.relative_to(root).as_posix(), warnings)) for f in files]
    if not root.exists():
        if root.is_symlink():  # a link that leads nowhere: say which way it fails
            raise IngestError(root, _broken_link(root), "give the file itself")
        raise IngestError(root, "no such file or folder", "check the path")
    return [(root, name or _storable(root.name, warnings))]


def _storable(name: str, warnings: list[str] | None) -> str:
    kept = storable_path(name)
    if kept != name and warnings is not None:
        warnings.append(f"{kept}: the file name is not UTF-8; its bytes are kept as escapes")
    return kept


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
