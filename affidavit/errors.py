"""The exception tree every affidavit failure belongs to. Each error carries what a user
needs to act on it: the file or input, the problem, a hint."""

from __future__ import annotations

from pathlib import Path


class AffidavitError(Exception):
    """Base class of every error raised by affidavit::

    AffidavitError
    ├── IngestError   a file or text could not become lines (names the file and the fix)
    ├── StoreError    the SQLite store could not be opened, read or written
    ├── InputError    a question, a text, a question set or an answers file cannot be read
    └── EngineError   an engine failed to propose (bad response, unreachable server)
    """


class _Contextual(AffidavitError):
    """An error built from its parts; pickled as those parts, so one raised in a batch
    worker process reaches the parent whole."""

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), tuple(self.parts))

    parts: tuple[object, ...] = ()


class IngestError(_Contextual):
    """A document could not be ingested; the store is left exactly as it was."""

    def __init__(self, path: str | Path | None, problem: str, hint: str = "") -> None:
        self.parts = (path, problem, hint)
        self.path = str(path) if path is not None else None
        self.problem = problem
        self.hint = hint
        where = f"{self.path}: " if self.path else ""
        tail = f" ({hint})" if hint else ""
        super().__init__(f"{where}{problem}{tail}")


class IngestInterrupted(KeyboardInterrupt):
    """An ingest stopped by the user (Ctrl-C). Still a KeyboardInterrupt, so code that
    stops on one stops on this; it says which documents were written (``written``) and
    which were not (``unwritten``): the store holds the first whole and none of the
    second."""

    def __init__(self, written: list[str], unwritten: list[str]) -> None:
        self.written = written
        self.unwritten = unwritten
        super().__init__(interrupted_line(written, unwritten))


def interrupted_line(written: list[str], unwritten: list[str]) -> str:
    """One line on what an interrupted ingest left: which documents were written (their
    indexes, interrupted, are made at the next question) and which were not."""

    def some(names: list[str]) -> str:
        shown = ", ".join(names[:3])
        return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")

    if not written:
        return (
            f"no document was written ({len(unwritten)} not: {some(unwritten)}); "
            "the store is as it was"
            if unwritten
            else "no document was written; the store is as it was"
        )
    said = f"{len(written)} document(s) written ({some(written)})"
    if unwritten:
        said += f", {len(unwritten)} not ({some(unwritten)})"
    return said + "; the indexes are brought up to date at the next question"


class StoreError(_Contextual):
    """The store file is unusable: unreadable, not an affidavit store, or newer than this code."""

    def __init__(self, path: str | Path | None, problem: str, hint: str = "") -> None:
        self.parts = (path, problem, hint)
        self.path = str(path) if path is not None else None
        self.problem = problem
        self.hint = hint
        where = f"{self.path}: " if self.path else ""
        tail = f" ({hint})" if hint else ""
        super().__init__(f"{where}{problem}{tail}")


class InputError(_Contextual):
    """An input cannot be read: a question or text holding characters that are not text,
    or a question set, answers file or option a batch or a report cannot use."""

    def __init__(self, what: str, problem: str, hint: str = "") -> None:
        self.parts = (what, problem, hint)
        self.what = what
        self.problem = problem
        self.hint = hint
        tail = f" ({hint})" if hint else ""
        super().__init__(f"{what}: {problem}{tail}")


def readable(text: str, what: str) -> str:
    """``text`` if every character of it is text; an InputError naming ``what`` if it
    holds a lone surrogate (bytes that were not UTF-8, smuggled in by the OS or a bad
    decoder), which no tokenizer can read."""
    if not isinstance(text, str):
        raise InputError(what, f"expected text, got {type(text).__name__}")
    for position, character in enumerate(text):
        if "\ud800" <= character <= "\udfff":
            raise InputError(
                what,
                f"character {position} is not text (a lone surrogate, {character!a})",
                "decode the input as UTF-8, replacing what is not",
            )
    return text


def short_text(text: str, what: str, *, longest: int, empty_hint: str, long_hint: str) -> str:
    """``text`` readable (see ``readable``), its spaces collapsed, neither empty nor over
    ``longest`` characters; an InputError naming ``what`` and the hint otherwise."""
    readable(text, what)
    said = " ".join(text.split())
    if not said:
        raise InputError(what, "it is empty", empty_hint)
    if len(said) > longest:
        raise InputError(what, f"{len(said):,} characters, over {longest:,}", long_hint)
    return said


class IngestWarning(UserWarning):
    """Part of a document was left out on purpose (hidden HTML text, say); ingest goes
    on, and ``Memory.ingest``'s report lists the warning so nothing is lost unsaid."""


class EngineError(AffidavitError):
    """An engine could not propose candidates."""


__all__ = [
    "AffidavitError",
    "IngestError",
    "StoreError",
    "InputError",
    "EngineError",
    "IngestWarning",
]
