"""Resuming a batch run by several worker processes (the CLI's default): stopped by Ctrl-C,
by kill -9 or by the caller, the same call then asks only the questions whose rows are not
in the answer file; no row is written twice, none is lost, no line is torn; and a second
run never writes into an answer file a running batch is writing.

The answerer is a fake (it answers a question with the question, and logs every question
it is asked, from whichever process), so these runs cost well under a second each; the
real command is run the same way in tests/batch/test_batch.py (slow)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from affidavit.batch import Opener, Sharing, run_batch
from affidavit.batch.output import AnswerFile
from affidavit.batch.questions import questions_from
from affidavit.errors import InputError
from affidavit.results import Answer

QUESTIONS = [{"id": f"q{n}", "question": f"Question number {n}?"} for n in range(1, 41)]
WORKERS = 3  # several, whatever this machine's core count (the CLI's default is one a core)


class Echo:
    """An Answerer that answers a question with the question itself, after ``pause``
    seconds, appending the question to ``log`` first (one write: the log of several
    processes holds every ask whole)."""

    def __init__(self, path: str, *, log: str, pause: float = 0.0) -> None:
        self.log = log
        self.pause = pause

    def ask(self, question: str, **options: Any) -> Answer:
        time.sleep(self.pause)
        fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, f"{question}\n".encode())
        finally:
            os.close(fd)
        return Answer(
            question=question, text=question.upper(), value=None, refused=False, reason=None
        )


def _batch(out: Path, log: Path, *, workers: int = WORKERS, pause: float = 0.0, **options: Any):
    """run_batch as Memory.batch calls it, with Echo answering in ``workers`` processes."""
    opener = Opener(Echo, {"log": str(log), "pause": pause})
    return run_batch(
        opener(str(out)),
        QUESTIONS,
        sharing=Sharing(str(out.with_suffix(".store")), opener),
        workers=workers,
        out=out,
        **{"progress": False, **options},
    )


def _asked(log: Path) -> Counter[str]:
    return Counter(log.read_text(encoding="utf-8").splitlines()) if log.exists() else Counter()


def _ids(out: Path) -> list[str]:
    import json

    return [json.loads(line)["id"] for line in out.read_bytes().splitlines()]


@pytest.fixture
def expected(tmp_path: Path) -> bytes:
    """The answer file one uninterrupted run in this process writes."""
    out = tmp_path / "whole.jsonl"
    _batch(out, tmp_path / "whole.log", workers=1)
    return out.read_bytes()


def _stop_after(rows: int):
    def progress(done: int, total: int) -> None:
        if done == rows:
            raise KeyboardInterrupt  # as Ctrl-C lands in the parent between two rows

    return progress


def test_a_run_of_several_workers_stopped_then_resumed_asks_only_the_missing_questions(
    tmp_path: Path, expected: bytes
) -> None:
    out, first, second = tmp_path / "answers.jsonl", tmp_path / "first.log", tmp_path / "second.log"
    with pytest.raises(KeyboardInterrupt):
        _batch(out, first, progress=_stop_after(5))
    assert _ids(out) == [q["id"] for q in QUESTIONS[:5]]
    report = _batch(out, second)
    missing = [q["question"] for q in QUESTIONS[5:]]
    assert _asked(second) == Counter(missing)  # each missing question once, no other
    assert (report.resumed, report.rows) == (5, len(missing))
    assert [row["id"] for row in report] == [q["id"] for q in QUESTIONS[5:]]
    assert out.read_bytes() == expected


def _run_until_killed(out: Path, log: Path) -> None:
    """A batch child process's work: what the CLI does, exit 130 on Ctrl-C included."""
    # A shell that starts the suite in the background (`pytest &`, no job control) has it
    # ignore SIGINT, and a forked child inherits that: the signal was then dropped and the
    # run ended whole (exit 0). Ctrl-C is given back Python's handler, as at a terminal.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _batch(out, log, pause=0.05, keep_rows=False)
    except KeyboardInterrupt:
        os._exit(130)
    os._exit(0)


def _wait_for_rows(out: Path, rows: int, child: Any) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.is_alive():
        if out.exists() and out.read_bytes().count(b"\n") >= rows:
            return
        time.sleep(0.01)
    pytest.fail(f"the batch wrote fewer than {rows} rows (exit {child.exitcode})")


@pytest.mark.skipif(sys.platform != "linux", reason="forks a batch to kill it (Linux)")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["kill -9", "Ctrl-C"])
def test_a_killed_run_of_several_workers_resumes_with_no_row_lost_or_repeated(
    tmp_path: Path, expected: bytes, how: signal.Signals
) -> None:
    out, first, second = tmp_path / "answers.jsonl", tmp_path / "first.log", tmp_path / "second.log"
    child = multiprocessing.get_context("fork").Process(target=_run_until_killed, args=(out, first))
    child.start()
    _wait_for_rows(out, 5, child)
    os.kill(child.pid, how)
    child.join(30)
    assert child.exitcode == (130 if how == signal.SIGINT else -signal.SIGKILL)
    partial = out.read_bytes()
    written = len(partial.splitlines())
    assert partial.endswith(b"\n") and 5 <= written < len(QUESTIONS)  # whole lines, cut short
    assert expected.startswith(partial)
    report = _batch(out, second)
    assert report.resumed == written
    assert _asked(second) == Counter(q["question"] for q in QUESTIONS[written:])
    assert out.read_bytes() == expected
    assert _ids(out) == [q["id"] for q in QUESTIONS]


@pytest.mark.skipif(sys.platform != "linux", reason="forks a batch to run beside this one")
def test_a_second_run_is_refused_while_a_batch_writes_the_answer_file(
    tmp_path: Path, expected: bytes
) -> None:
    """Two runs appending to one file would each write the rows the other writes: a resume
    started while the first run still runs (its Ctrl-C ignored, or in another terminal)."""
    out, first, second = tmp_path / "answers.jsonl", tmp_path / "first.log", tmp_path / "second.log"
    child = multiprocessing.get_context("fork").Process(target=_run_until_killed, args=(out, first))
    child.start()
    try:
        _wait_for_rows(out, 2, child)
        with pytest.raises(InputError, match="another batch is writing") as refused:
            _batch(out, second)
        assert refused.value.what == str(out)
        assert not second.exists()  # it asked nothing
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.join(30)
    _batch(out, second)  # the first run gone, the same call resumes
    assert out.read_bytes() == expected


def test_one_process_cannot_open_an_answer_file_twice(tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    items = questions_from(["a?", "b?"])
    with AnswerFile(out, items):
        with pytest.raises(InputError, match="another batch is writing"):
            AnswerFile(out, items)
    with AnswerFile(out, items) as again:  # closed, it is free
        assert again.done == 0
