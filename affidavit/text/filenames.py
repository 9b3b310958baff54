"""What a file's name says besides its words: the extensions that give its type (".txt",
".tar.gz"), told apart from words a name carries after a dot ("README.Debian",
"changelog.source", "syslog.1")."""

from __future__ import annotations

import re

# An extension: one to five letters and digits, at least one a letter, all in one case
# (".pdf", ".PDF", ".jsonl", ".mp3"); a name ends in at most two ("notes.txt.gz").
# NOTE: the shape, not a list of formats: a folder's files may carry any extension, and
# the formats affidavit reads (ingest/formats/format_table.py) sit in a room above this one.
# Longer runs and mixed case are words of the name: Debian's docs ship "README.Debian",
# "README.source", "NEWS.Debian.gz".
_EXTENSION = r"\.(?:(?=[a-z0-9]*[a-z])[a-z0-9]{1,5}|(?=[A-Z0-9]*[A-Z])[A-Z0-9]{1,5})"
_EXTENSIONS = re.compile(rf"(?:{_EXTENSION}){{1,2}}$")
_LAST_EXTENSION = re.compile(rf"{_EXTENSION}$")


def extensions(name: str) -> str:
    """The extensions that end ``name`` (".txt.gz"), or "" when it ends in none."""
    found = _EXTENSIONS.search(_last_part(name))
    return found.group(0) if found else ""


def last_extension(name: str) -> str:
    """The last extension of ``name``, lower-cased (".gz" of "notes.txt.gz"), or ""."""
    found = _LAST_EXTENSION.search(_last_part(name))
    return found.group(0).lower() if found else ""


def without_extensions(name: str) -> str:
    """``name`` without the extensions that end it: "notes" of "notes.txt.gz"."""
    return name[: len(name) - len(extensions(name))]


def _last_part(name: str) -> str:
    """The file name of a path ("a/b.txt": "b.txt"); a dot file's leading dot is no
    extension (".profile")."""
    part = name.rsplit("/", 1)[-1]
    return part[1:] if part.startswith(".") else part
