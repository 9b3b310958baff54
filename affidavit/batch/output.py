"""The batch's answer file: rows written in input order, each in one write, so the file is
always a whole-line prefix of the run and a restart answers only what is missing; one run
at a time writes it."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from affidavit.batch.questions import Item
from affidavit.errors import InputError

# A row is flushed to the OS at once (a killed process loses nothing written); fsync, which
# only matters for a power loss, is paid at most once a second.
SYNC_EVERY_SECONDS = 1.0
if sys.platform != "win32":
    import fcntl

# The answer files this process writes, by (device, inode): a POSIX lock is the process's,
# so it cannot keep this process's own second writer out.
_writing: set[tuple[int, int]] = set()


def row_bytes(row: dict[str, Any]) -> bytes:
    """One output line: compact JSON, keys in the order given, non-ASCII kept."""
    return (json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class AnswerFile:
    """The output file of one question set, opened for resuming."""

    def __init__(self, path: str | Path, items: Sequence[Item]) -> None:
        self.path = Path(path)
        self._fd = -1
        self._file: tuple[int, int] | None = None
        if self.path.is_dir():
            raise InputError(str(self.path), "is a folder", "name a file for the answers")
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            self._claim()
            self.done = self._resume(items)
        except OSError as exc:
            self._release()
            raise self._unwritable(exc) from exc
        except BaseException:
            self._release()
            raise
        self._synced = time.monotonic()

    def _claim(self) -> None:
        """Hold the file for this run, or refuse: a second run appending beside a running
        one would write again every row the first writes (and the first, the second's).

        A POSIX record lock is held by this process alone: its forked workers do not
        inherit it, and the kernel lets it go the moment the process ends, however it
        ends (a run killed with kill -9 leaves the file free to resume at once). It is
        lost if this process closes another descriptor of the file, so the file is read
        through this one."""
        status = os.fstat(self._fd)
        file = (status.st_dev, status.st_ino)
        held = file in _writing
        if not held and sys.platform != "win32":
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except (BlockingIOError, PermissionError):
                held = True
        if held:
            raise InputError(
                str(self.path),
                "another batch is writing these answers",
                "let it finish, or stop it, then run the same command to resume",
            )
        _writing.add(file)
        self._file = file

    def _release(self) -> None:
        """Close the file (which lets its lock go) and forget it as this process's."""
        if self._file is not None:
            _writing.discard(self._file)
            self._file = None
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)

    def _resume(self, items: Sequence[Item]) -> int:
        """How many rows the file already holds, after cutting off a torn last line.

        A process killed mid-run leaves at most the start of one line that never finished
        (a write cut by a full disk or a power loss). A file that does not begin with the
        rows this question set would write belongs to another run and is refused rather
        than appended to.
        """
        data = self._contents()
        whole = data.rfind(b"\n") + 1
        if whole < len(data):  # the start of a line whose write never finished
            os.ftruncate(self._fd, whole)
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

    def _contents(self) -> bytes:
        """The file's bytes, read through the locked descriptor."""
        chunks = []
        offset = 0
        while chunk := os.pread(self._fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks)

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
            try:
                os.fsync(self._fd)
            except OSError as exc:
                raise self._unwritable(exc) from exc
            finally:
                self._release()

    def __enter__(self) -> AnswerFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
