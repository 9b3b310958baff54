"""The audit report of a batch's answer file: one self-contained HTML page a reviewer opens
offline (``page``), over the facts ``data`` works out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.report.page import ReportSummary, write_report

# What other rooms may use of report/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "page": "ReportSummary write_report",
}

__all__ = [
    "ReportSummary", "write_report",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
