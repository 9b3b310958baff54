"""A batch's question set: JSONL lines (or Python items) read into questions to ask and
claims to verify, each bad line kept as an error naming its line number so one typo never
sinks a whole run."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from affidavit.errors import InputError
from affidavit.options import SCOPE_KEYS, Filters


@dataclass(frozen=True, slots=True)
class BatchQuestion:
    """One question to answer, with the line of the input it came from."""

    line: int
    id: str
    question: str
    asked_at: str | None = None
    speaker: str | None = None
    min_probability: float | None = None  # the reader's threshold for this question
    # The documents the question may read: Memory.ask's scope as the line sets it.
    scope: Filters = Filters()


@dataclass(frozen=True, slots=True)
class BatchClaim:
    """One claim to verify (Memory.verify), with the line of the input it came from."""

    line: int
    id: str
    claim: str
    # The documents the claim is checked against: Memory.verify's scope as the line sets it.
    scope: Filters = Filters()


@dataclass(frozen=True, slots=True)
class BadLine:
    """An input line that is neither a question nor a claim: answered with an error row,
    never fatal."""

    line: int
    id: str | None
    error: str

    def row(self) -> dict[str, Any]:
        return {"id": self.id, "line": self.line, "error": self.error}


Item = BatchQuestion | BatchClaim | BadLine

# A question's own keys, which a claim line may not hold: verify has no reader's threshold
# and reads no "I" or "how long ago" (see _claim).
ASK_ONLY_KEYS = ("asked_at", "speaker", "min_probability")


def read_questions(path: str | Path) -> list[Item]:
    """The question set in the JSONL file at ``path``, one item per line.

    A line: ``{"id": "q1", "question": "...", "asked_at": "2023-06-10", "speaker": "Maya",
    "min_probability": 0.2, "documents": ["licence-a.pdf"]}``; only ``question`` is
    required (a missing ``id`` is the line number; ``documents``, ``source``,
    ``min_trust``, ``since`` and ``until`` limit the evidence as ``Memory.ask``'s do, and
    one that cannot makes the line an error row). A line may hold ``"claim": "..."``
    instead of ``question``: the claim is verified (``Memory.verify``) within the same
    scope keys; a line with both or neither, or a claim with a question's own key
    (``asked_at``, ``speaker``, ``min_probability``), is an error row. A line that is not
    UTF-8, an empty or blank line, and an id another line has (as text: ``7`` and ``"7"``
    are one id) are error rows naming their line; only the file's last line break ends
    no line.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise InputError(
            str(file), f"cannot read the question set ({exc.strerror or exc})", "check the path"
        ) from exc
    lines = raw.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the break that ends the last line
    return _checked((number, _parsed(text, number)) for number, text in enumerate(lines, 1))


def questions_from(items: Iterable[str | Mapping[str, Any]]) -> list[Item]:
    """The question set given in Python: plain strings (questions), or mappings shaped
    like the JSONL lines (a "question" or a "claim"); item N (from 1) plays the part of
    line N."""
    return _checked(
        (number, item if isinstance(item, Mapping) else {"question": item})
        for number, item in enumerate(items, 1)
    )


def _parsed(raw: bytes, number: int) -> Any:
    try:
        text = raw.removesuffix(b"\r").decode("utf-8")
    except UnicodeDecodeError as exc:
        return BadLine(
            number,
            None,
            f"line {number}: not UTF-8 (byte {raw[exc.start]:#04x} at {exc.start + 1})",
        )
    if not text.strip():
        return BadLine(number, None, f"line {number}: empty (a line holds one question)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return BadLine(number, None, f"line {number}: not JSON ({exc.msg}, column {exc.colno})")


def _checked(numbered: Iterable[tuple[int, Any]]) -> list[Item]:
    items: list[Item] = []
    seen: dict[str, tuple[int, Any]] = {}  # id as text -> its first line and id as written
    for number, value in numbered:
        item = value if isinstance(value, BadLine) else _item(value, number)
        if not isinstance(item, BadLine):
            written = value.get("id", number) if isinstance(value, Mapping) else number
            if item.id in seen:
                first, was = seen[item.id]
                item = BadLine(number, item.id, _twice(number, written, first, was))
            else:
                seen[item.id] = (number, written)
        items.append(item)
    return items


def _twice(number: int, written: Any, first: int, was: Any) -> str:
    """The error of an id a line shares with an earlier one (compared as text)."""
    if type(written) is type(was):
        return f"line {number}: id {written!r} is line {first}'s"
    return (
        f"line {number}: id {json.dumps(written)} is line {first}'s {json.dumps(was)} "
        "(ids are compared as text)"
    )


def _item(value: Any, number: int) -> Item:
    """A question or a claim from one parsed line, or the BadLine saying what is wrong."""
    if not isinstance(value, Mapping):
        return BadLine(number, None, f"line {number}: not a JSON object")
    raw_id = value.get("id", number)
    if not isinstance(raw_id, str | int) or isinstance(raw_id, bool):
        return BadLine(number, None, f"line {number}: id must be a string or a number")
    ident = str(raw_id)
    # A key set to null is a key not given, as for every other key of a line.
    if value.get("claim") is not None:
        if value.get("question") is not None:
            return BadLine(
                number,
                ident,
                f'line {number}: both "question" and "claim" (a line holds one: a question '
                "to ask or a claim to verify)",
            )
        return _claim(value, number, ident)
    return _question(value, number, ident)


def _question(value: Mapping[str, Any], number: int, ident: str) -> Item:
    question = value.get("question")
    if not isinstance(question, str) or not question.strip():
        return BadLine(
            number, ident, f'line {number}: no "question" or "claim" (a non-empty string)'
        )
    asked_at, speaker = value.get("asked_at"), value.get("speaker")
    if asked_at is not None:
        if not isinstance(asked_at, str) or not _is_day(asked_at):
            return BadLine(number, ident, f'line {number}: "asked_at" is not an ISO day')
    if speaker is not None and (not isinstance(speaker, str) or not speaker.strip()):
        return BadLine(number, ident, f'line {number}: "speaker" is not a name')
    least = value.get("min_probability")
    if least is not None and (
        isinstance(least, bool) or not isinstance(least, int | float) or not 0 <= least <= 1
    ):
        return BadLine(number, ident, f'line {number}: "min_probability" is not 0 to 1')
    threshold = None if least is None else float(least)
    scope = Filters.of(value)
    return BatchQuestion(number, ident, question, asked_at, speaker, threshold, scope)


def _claim(value: Mapping[str, Any], number: int, ident: str) -> Item:
    """A claim line: its text and scope. A question's own key is refused, not ignored: a
    claim checked without the day or the speaker its writer meant would be judged as
    another claim."""
    claim = value["claim"]
    if not isinstance(claim, str) or not claim.strip():
        return BadLine(number, ident, f'line {number}: "claim" is not a non-empty string')
    for key in ASK_ONLY_KEYS:
        if value.get(key) is not None:
            return BadLine(
                number,
                ident,
                f"line {number}: \"{key}\" is a question's key, not a claim's (a claim "
                f"line reads only the scope keys: {', '.join(SCOPE_KEYS)})",
            )
    return BatchClaim(number, ident, claim, Filters.of(value))


def _is_day(text: str) -> bool:
    try:
        date.fromisoformat(text.strip()[:10])
    except ValueError:
        return False
    return True
