"""From files to units to verbatim lines: format readers (formats/), tables, layout, sentences,
windows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.ingest.bounded import IngestLimits
    from affidavit.ingest.dialogue import prepare_dialogue, read_dialogue
    from affidavit.ingest.files import (
        Ingesting,
        NamedFiles,
        addressing,
        checked_date,
        index_stages,
        prepare_files,
        replaced_from,
        unread_error,
    )
    from affidavit.ingest.formats.dispatch import read_text
    from affidavit.ingest.formats.format_table import SUPPORTED_SUFFIXES
    from affidavit.ingest.lookalike import StoredNames
    from affidavit.ingest.naming import legacy_names, named_files
    from affidavit.ingest.prepare import content_hash, prepare_document

# What other rooms may use of ingest/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "bounded": "IngestLimits",
    "dialogue": "prepare_dialogue read_dialogue",
    "files": (
        "Ingesting NamedFiles addressing checked_date index_stages prepare_files replaced_from "
        "unread_error"
    ),
    "formats.dispatch": "read_text",
    "formats.format_table": "SUPPORTED_SUFFIXES",
    "lookalike": "StoredNames",
    "naming": "legacy_names named_files",
    "prepare": "content_hash prepare_document",
}

__all__ = [
    "SUPPORTED_SUFFIXES", "IngestLimits", "Ingesting", "NamedFiles", "StoredNames", "addressing",
    "checked_date", "content_hash", "index_stages", "legacy_names", "named_files",
    "prepare_dialogue", "prepare_document", "prepare_files", "read_dialogue", "read_text",
    "replaced_from", "unread_error",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
