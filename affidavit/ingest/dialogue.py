"""Conversations as the store keeps them, read from LoCoMo's JSON or JSONL turn records:
one document per session, one line per turn."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affidavit.errors import IngestError
from affidavit.ingest.prepare import content_hash, windows_over
from affidavit.results import LineKind
from affidavit.store import PreparedDocument, PreparedLine
from affidavit.text import detect_language
from affidavit.trust import DOCUMENT_TRUST

_SESSION_KEY = re.compile(r"^session_(\d+)$")
# Day before month where a date is ambiguous.
_DATE_SETTINGS = {
    "DATE_ORDER": "DMY",
    "PREFER_DAY_OF_MONTH": "first",
    "RETURN_AS_TIMEZONE_AWARE": False,
}


@dataclass(frozen=True, slots=True)
class Turn:
    speaker: str
    text: str
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    label: str  # "1", "2", ... as the input numbers or names them
    date: str  # ISO day, "2023-05-08"
    turns: tuple[Turn, ...]


def read_dialogue(source: Any, *, name: str) -> list[Session]:
    """The sessions of ``source``: a LoCoMo sample or conversation (a mapping), JSONL turn
    records (an iterable of mappings), or a path to a ``.json`` or ``.jsonl`` file.

    - LoCoMo: a sample (``{"conversation": {...}, ...}``) or its conversation, whose
      ``session_N`` lists hold turns (``speaker``, ``text``, optional ``blip_caption``)
      and whose ``session_N_date_time`` give the sessions' dates ("1:56 pm on 8 May, 2023").
    - JSONL, one turn a line: ``{"session": ..., "date": ..., "speaker": ..., "text": ...}``
      with an optional ``"caption"``; turns of one session share its ``session`` value
      and date, in file order.

    Dates are kept as ISO days. Anything else is an IngestError naming the input, the
    place and what to do.
    """
    if isinstance(source, str | Path):
        return read_dialogue(_load(Path(source), name), name=name)
    if isinstance(source, Mapping):
        conversation = source.get("conversation", source)
        if not isinstance(conversation, Mapping):
            raise IngestError(name, "'conversation' is not an object", "pass a LoCoMo sample")
        return _locomo(conversation, name)
    if isinstance(source, Iterable):
        return _records(list(source), name)
    raise IngestError(
        name,
        f"a dialogue cannot be read from {type(source).__name__}",
        "pass a LoCoMo sample, JSONL turn records or a path to a .json or .jsonl file",
    )


def prepare_dialogue(
    sessions: list[Session], *, name: str, source: str = "document", trust: float = DOCUMENT_TRUST
) -> list[PreparedDocument]:
    """One prepared document a session, named ``{name}/session-{label}``.

    A turn keeps who said it and its session's date, and is a line of its own: a line
    break between turns is a boundary, so one speaker's words never run into the next's.
    An image or attachment shared with a turn stays beside it as a caption line ("[Maya
    shared an image: a photo of a brown puppy on a rug]"), never glued to the next turn.
    """
    prepared = []
    for session in sessions:
        lines: list[PreparedLine] = []
        for turn in session.turns:
            said = f"{turn.speaker}: {turn.text}"
            lines.append(
                PreparedLine(
                    len(lines), LineKind.TURN, said, speaker=turn.speaker, date=session.date
                )
            )
            if turn.caption:
                shared = f"[{turn.speaker} shared an image: {turn.caption}]"
                lines.append(
                    PreparedLine(
                        len(lines),
                        LineKind.CAPTION,
                        shared,
                        speaker=turn.speaker,
                        date=session.date,
                    )
                )
        body = "\n".join(line.text for line in lines)
        prepared.append(
            PreparedDocument(
                name=f"{name}/session-{session.label}",
                content_hash=content_hash(body.encode("utf-8"), source, session.date),
                language=detect_language(" ".join(t.text for t in session.turns[:50])),
                lines=tuple(lines),
                windows=tuple(windows_over([(0, len(lines) - 1)])),
                date=session.date,
                source=source,
                trust=trust,
            )
        )
    return prepared


def _load(path: Path, name: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise IngestError(
            str(path), f"cannot read it ({exc})", "check the path and that it is UTF-8"
        ) from exc
    if path.suffix.lower() == ".jsonl":
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                records.append(_json(line, f"{path}, line {number}"))
        return records
    loaded = _json(text, str(path))
    if (
        isinstance(loaded, list)
        and loaded
        and all(isinstance(x, Mapping) and "conversation" in x for x in loaded)
    ):
        if len(loaded) != 1:
            raise IngestError(
                str(path),
                f"it holds {len(loaded)} conversations",
                "ingest one at a time: pass one sample (e.g. data[0]) with its own name",
            )
        return loaded[0]
    return loaded


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise IngestError(
            where, f"not JSON ({exc.msg} at column {exc.colno})", "fix the record"
        ) from exc


def _locomo(conversation: Mapping[str, Any], name: str) -> list[Session]:
    numbers = sorted(int(m.group(1)) for key in conversation if (m := _SESSION_KEY.match(str(key))))
    if not numbers:
        raise IngestError(
            name, "no 'session_N' lists of turns", "pass a LoCoMo sample or its conversation"
        )
    sessions = []
    for number in numbers:
        where = f"{name}, session_{number}"
        stamp = conversation.get(f"session_{number}_date_time")
        if not isinstance(stamp, str):
            raise IngestError(
                where, "it has no 'session_N_date_time'", "give every session its date"
            )
        turns = conversation[f"session_{number}"]
        if not isinstance(turns, list):
            raise IngestError(
                where, "its turns are not a list", "write the session as a list of turns"
            )
        read = [
            _turn(t, f"{where}, turn {i + 1}", caption_key="blip_caption")
            for i, t in enumerate(turns)
        ]
        sessions.append(Session(str(number), _day(stamp, where), tuple(read)))
    return sessions


def _records(records: list[Any], name: str) -> list[Session]:
    if not records:
        raise IngestError(name, "there are no turns", "pass at least one turn record")
    labels: list[str] = []
    dates: dict[str, str] = {}
    turns: dict[str, list[Turn]] = {}
    for number, record in enumerate(records, start=1):
        where = f"{name}, record {number}"
        if not isinstance(record, Mapping):
            raise IngestError(
                where,
                "a turn record is not an object",
                'write {"session", "date", "speaker", "text"}',
            )
        missing = [key for key in ("session", "date", "speaker", "text") if key not in record]
        if missing:
            raise IngestError(
                where,
                f"it has no {', '.join(missing)}",
                'write {"session", "date", "speaker", "text"}',
            )
        label = str(record["session"])
        day = _day(str(record["date"]), where)
        if label not in dates:
            labels.append(label)
            dates[label], turns[label] = day, []
        elif dates[label] != day:
            raise IngestError(
                where,
                f"session {label!r} is dated both {dates[label]} and {day}",
                "give one date a session",
            )
        turns[label].append(_turn(record, where, caption_key="caption"))
    return [Session(label, dates[label], tuple(turns[label])) for label in labels]


def _turn(record: Any, where: str, *, caption_key: str) -> Turn:
    if not isinstance(record, Mapping):
        raise IngestError(where, "a turn is not an object", "write each turn as an object")
    speaker, text = record.get("speaker"), record.get("text")
    if not isinstance(speaker, str) or not speaker.strip():
        raise IngestError(where, "the turn names no speaker", "give every turn its speaker")
    if not isinstance(text, str):
        raise IngestError(where, "the turn has no text", "give every turn its text")
    caption = record.get(caption_key)
    caption = caption.strip() if isinstance(caption, str) and caption.strip() else None
    return Turn(speaker.strip(), " ".join(text.split()), caption)


def _day(stamp: str, where: str) -> str:
    """The ISO day a session's stamp writes ("1:56 pm on 8 May, 2023" -> "2023-05-08"),
    read by ``dateparser``."""
    import dateparser  # 0.1 s to import (pytz): only a conversation's stamps need it

    parsed = dateparser.parse(stamp.replace(" on ", " "), languages=["en"], settings=_DATE_SETTINGS)
    if parsed is None:
        raise IngestError(where, f"the date {stamp!r} cannot be read", "write it as YYYY-MM-DD")
    return parsed.date().isoformat()
