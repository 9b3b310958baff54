"""The exception tree every affidavit failure belongs to.

    AffidavitError
    ├── IngestError   a file or text could not become lines (names the file and the fix)
    ├── StoreError    the SQLite store could not be opened, read or written
    └── EngineError   an engine failed to propose (bad response, unreachable server)

Each error carries the context a user needs to act on it (``path``, ``hint``).
"""

from __future__ import annotations

from pathlib import Path


class AffidavitError(Exception):
    """Base class of every error raised by affidavit."""


class IngestError(AffidavitError):
    """A document could not be ingested; the store is left exactly as it was."""

    def __init__(self, path: str | Path | None, problem: str, hint: str = "") -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        self.hint = hint
        where = f"{self.path}: " if self.path else ""
        tail = f" ({hint})" if hint else ""
        super().__init__(f"{where}{problem}{tail}")


class StoreError(AffidavitError):
    """The store file is unusable: unreadable, not an affidavit store, or newer than this code."""

    def __init__(self, path: str | Path | None, problem: str, hint: str = "") -> None:
        self.path = str(path) if path is not None else None
        self.problem = problem
        self.hint = hint
        where = f"{self.path}: " if self.path else ""
        tail = f" ({hint})" if hint else ""
        super().__init__(f"{where}{problem}{tail}")


class EngineError(AffidavitError):
    """An engine could not propose candidates."""


__all__ = ["AffidavitError", "IngestError", "StoreError", "EngineError"]
