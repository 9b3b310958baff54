"""The batch's answer file: rows written in input order, each in one write, so the file is
always a whole-line prefix of the run and a restart answers only what is missing."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from affidavit.batch.questions import Item
from affidavit.errors import InputError

# A row is flushed to the OS at once (a killed process loses nothing written); fsync, which
# only matters for a power loss, is paid at most once a second.
SYNC_EVERY_SECONDS = 1.0


def row_bytes(row: dict[str, Any]) -> bytes:
    """One output line: compact JSON, keys in the order given, non-ASCII kept."""
    return (json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class AnswerFile:
    """The output file of one question set, opened for resuming."""

    def __init__(self, path: str | Path, items: Sequence[Item]) -> None:
        self.path = Path(path)
        self._fd = -1
        try:
            self.done = self._resume(items)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise self._unwritable(exc) from exc
        self._synced = time.monotonic()

    def _resume(self, items: Sequence[Item]) -> int:
        """How many rows the file already holds, after cutting off a torn last line.

        A process killed mid-run leaves at most the start of one line that never finished
        (a write cut by a full disk or a power loss). A file that does not begin with the
        rows this question set would write belongs to another run and is refused rather
        than appended to.
        """
        if not self.path.exists():
            return 0
        if self.path.is_dir():
            raise InputError(str(self.path), "is a folder", "name a file for the answers")
        data = self.path.read_bytes()
        whole = data.rfind(b"\n") + 1
        if whole < len(data):  # the start of a line whose write never finished
            os.truncate(self.path, whole)
        rows = data[:whole].splitlines()
        if len(rows) > len(items):
            raise self._foreign(f"it holds {len(rows)} rows, the question set {len(items)}")
        for number, (raw, item) in enumerate(zip(rows, items, strict=False), 1):
            try:
                row = json.loads(raw)
            except json.JSONDecodeError:
                raise self._foreign(f"its line {number} is not JSON") from None
            if not isinstance(row, dict) or (row.get("line"), row.get("id")) != (
                item.line,
                item.id,
            ):
                raise self._foreign(
                    f"its line {number} is not the answer to question line {item.line} "
                    f"(id {item.id!r})"
                )
        return len(rows)

    def _unwritable(self, exc: OSError) -> InputError:
        return InputError(
            str(self.path),
            f"cannot write the answers ({exc.strerror or exc})",
            "free space or fix the permissions, then run the same command to resume",
        )

    def _foreign(self, problem: str) -> InputError:
        return InputError(
            str(self.path),
            f"not a resumable answer file of this question set: {problem}",
            "give another --out, or delete the file to start again",
        )

    def write(self, row: dict[str, Any] | bytes) -> None:
        """Append one row (or its line, ``row_bytes``) in a single write (a process
        killed now leaves the line whole or absent)."""
        data = row if isinstance(row, bytes) else row_bytes(row)
        try:
            written = os.write(self._fd, data)
            if written != len(data):  # a full disk: the tail is cut off on the next open
                raise OSError(f"wrote {written} of {len(data)} bytes of a row")
            if time.monotonic() - self._synced >= SYNC_EVERY_SECONDS:
                os.fsync(self._fd)
                self._synced = time.monotonic()
        except OSError as exc:
            raise self._unwritable(exc) from exc
        self.done += 1

    def close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            try:
                os.fsync(fd)
            except OSError as exc:
                raise self._unwritable(exc) from exc
            finally:
                os.close(fd)

    def __enter__(self) -> AnswerFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
