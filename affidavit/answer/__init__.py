"""Answers and audits: ask() draws an answer through the exit gate or refuses, verify()
audits any text against the store, and what both share (the census, disagreements, the
engine's read-back, recomputed figures, the audit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.answer.archive import WHOLE_LINES, Archive, Naming, Passed, StoreArchive
    from affidavit.answer.census import Census, take_census
    from affidavit.answer.currency import Stale
    from affidavit.answer.document_naming import (
        DocumentNaming,
        document_title,
        names_held,
        the_one_named,
    )
    from affidavit.answer.line_frames import keep_every_frame, kept_frames
    from affidavit.answer.nearby_tables import ROW_REACH, ROWS_READ
    from affidavit.answer.pipeline import answer, verify
    from affidavit.answer.told_of import LINES_READ, ToldOf, told_of_counted

# What other rooms may use of answer/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "archive": "WHOLE_LINES Archive Naming Passed StoreArchive",
    "census": "Census take_census",
    "currency": "Stale",
    "document_naming": "DocumentNaming document_title names_held the_one_named",
    "line_frames": "keep_every_frame kept_frames",
    "nearby_tables": "ROWS_READ ROW_REACH",
    "pipeline": "answer verify",
    "told_of": "LINES_READ ToldOf told_of_counted",
}

__all__ = [
    "LINES_READ", "ROWS_READ", "ROW_REACH", "WHOLE_LINES", "Archive", "Census", "DocumentNaming",
    "Naming", "Passed", "Stale", "StoreArchive", "ToldOf", "answer", "document_title",
    "keep_every_frame", "kept_frames", "names_held", "take_census", "the_one_named",
    "told_of_counted", "verify",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
