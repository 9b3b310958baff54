"""Answers and audits: ask() draws an answer through the judges or refuses, verify()
audits any text against the store; each an order of named stages over one state
(answer/pipeline.py), reading the documents through an archive (archive/)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.answer.pipeline import answer, verify

# What other rooms may use of answer/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "pipeline": "answer verify",
}

__all__ = ["answer", "verify"]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
