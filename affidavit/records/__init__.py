"""Records: facts as (subject, predicate, value) over the store, told, superseded and
forgotten (told.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.records.calls import RecordCalls
    from affidavit.records.distil import Event
    from affidavit.records.gloss import (
        EVIDENCE_LINES,
        Gloss,
        across_languages,
        read_across,
        reading_across,
    )
    from affidavit.records.labels import Labels, ToldLabels
    from affidavit.records.told import Records

# What other rooms may use of records/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "calls": "RecordCalls",
    "distil": "Event",
    "gloss": "EVIDENCE_LINES Gloss across_languages read_across reading_across",
    "labels": "Labels ToldLabels",
    "told": "Records",
}

__all__ = [
    "EVIDENCE_LINES", "Event", "Gloss", "Labels", "RecordCalls", "Records", "ToldLabels",
    "across_languages", "read_across", "reading_across",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
