"""Batch answering: the question set's errors by line, input order, byte-identical rows
whatever the number of workers, and resuming after Ctrl-C, kill -9 or a torn line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import QUESTIONS

from affidavit import Memory
from affidavit.batch import questions_from, read_questions
from affidavit.batch.output import AnswerFile, row_bytes
from affidavit.cli.main import main
from affidavit.errors import InputError

ASKED = [q["question"] for q in QUESTIONS[:24]]


@pytest.fixture
def store(squad_store: Path, tmp_path: Path) -> Path:
    """A private copy of the shared SQuAD store (a batch's parent may warm its caches)."""
    copy = tmp_path / "store.sqlite"
    shutil.copy(squad_store, copy)
    return copy


@pytest.fixture
def question_file(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    lines = [json.dumps({"id": f"q{n}", "question": q}) for n, q in enumerate(ASKED, 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# An interrupted run must still be running when the signal lands: the questions asked
# ten times over, so the signal comes long before the last row, however fast the answers.
LONG = 10


@pytest.fixture
def long_question_file(tmp_path: Path) -> Path:
    path = tmp_path / "many.jsonl"
    lines = [json.dumps({"id": f"q{n}", "question": q}) for n, q in enumerate(ASKED * LONG, 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def reference_rows(store: Path, times: int = 1) -> list[bytes]:
    """The rows one process writes, computed question by question with ask()."""
    with Memory(store) as memory:
        said = {q: memory.ask(q).to_dict() for q in ASKED}
    return [
        row_bytes({"id": f"q{n}", "line": n, **said[q]}) for n, q in enumerate(ASKED * times, 1)
    ]


def test_bad_lines_become_error_rows_naming_their_line_number(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"id": "a", "question": "Who ruled Normandy?"}\n'
        "not json\n"
        "\n"
        '{"id": "b"}\n'
        '["a list"]\n'
        '{"id": "a", "question": "again?"}\n'
        '{"question": "When?", "asked_at": "last week"}\n'
        '{"question": "Who am I?", "speaker": "Maya"}\n',
        encoding="utf-8",
    )
    items = read_questions(path)
    assert [item.line for item in items] == [1, 2, 3, 4, 5, 6, 7, 8]
    errors = {item.line: item.error for item in items if hasattr(item, "error")}
    assert errors[2].startswith("line 2: not JSON")
    assert errors[3] == "line 3: empty (a line holds one question)"
    assert errors[4] == 'line 4: no "question" or "claim" (a non-empty string)'
    assert errors[5] == "line 5: not a JSON object"
    assert "id 'a' is line 1's" in errors[6]
    assert '"asked_at" is not an ISO day' in errors[7]
    last = items[-1]
    assert (last.id, last.speaker) == ("8", "Maya")  # a missing id is the line number


def test_lines_not_utf8_and_ids_alike_as_text_are_error_rows(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_bytes(
        b'{"id": 7, "question": "Who ruled Normandy?"}\r\n'
        b'{"id": "q2", "question": "Who ruled \xff Normandy?"}\n'
        b'{"id": "7", "question": "Who ruled Normandy again?"}\n'
    )
    items = read_questions(path)
    assert [item.line for item in items] == [1, 2, 3]
    assert items[0].question == "Who ruled Normandy?"  # a CRLF line is a line
    assert items[1].error == "line 2: not UTF-8 (byte 0xff at 37)"
    assert items[2].error == 'line 3: id "7" is line 1\'s 7 (ids are compared as text)'


def test_a_line_may_set_the_readers_threshold(store: Path, tmp_path: Path) -> None:
    # the reader is unsure of its span
    question = "Which outbreak was associated with troops in the thirty years war?"
    path = tmp_path / "q.jsonl"
    path.write_text(
        json.dumps({"id": "default", "question": question})
        + "\n"
        + json.dumps({"id": "lowered", "question": question, "min_probability": 0})
        + "\n"
        + json.dumps({"id": "bad", "question": question, "min_probability": 2})
        + "\n",
        encoding="utf-8",
    )
    with Memory(store) as memory:
        rows = {r["id"]: r for r in memory.batch(path, workers=1, progress=False)}
        assert rows["default"]["reason"] == "unlikely"
        lowered = memory.ask(question, min_probability=0.0).to_dict()
    assert rows["lowered"] == {"id": "lowered", "line": 2, **lowered}
    assert not rows["lowered"]["refused"]
    assert rows["bad"]["error"] == 'line 3: "min_probability" is not 0 to 1'


def test_a_missing_question_set_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nowhere.jsonl"):
        read_questions(tmp_path / "nowhere.jsonl")


def test_rows_are_the_answers_in_input_order(store: Path) -> None:
    with Memory(store) as memory:
        rows = memory.batch(ASKED[:5], workers=1, progress=False)
        for n, (row, question) in enumerate(zip(rows, ASKED[:5], strict=True), 1):
            assert row == {"id": str(n), "line": n, **memory.ask(question).to_dict()}


def test_two_worker_processes_write_the_same_bytes_as_one_process(
    store: Path, question_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "two.jsonl"
    seen: list[tuple[int, int]] = []
    with Memory(store) as memory:
        report = memory.batch(
            question_file, workers=2, out=out, progress=lambda d, t: seen.append((d, t))
        )
    assert out.read_bytes().splitlines(keepends=True) == reference_rows(store)
    assert len(report) == len(ASKED) and report.resumed == 0
    assert seen[-1] == (len(ASKED), len(ASKED))  # the callback hears every row


def test_a_torn_last_line_is_cut_off_and_only_missing_rows_are_answered(
    store: Path, question_file: Path, tmp_path: Path
) -> None:
    expected = reference_rows(store)
    out = tmp_path / "answers.jsonl"
    out.write_bytes(b"".join(expected[:3]) + expected[3][:40])  # a write cut short
    with Memory(store) as memory:
        report = memory.batch(question_file, workers=1, out=out, progress=False)
    assert report.resumed == 3
    assert [row["line"] for row in report] == list(range(4, len(ASKED) + 1))  # none twice
    assert out.read_bytes() == b"".join(expected)


def test_an_answer_file_of_another_question_set_is_refused_untouched(
    store: Path, question_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "other.jsonl"
    out.write_bytes(row_bytes({"id": "zz", "line": 1, "text": "from another run"}))
    before = out.read_bytes()
    with Memory(store) as memory, pytest.raises(InputError, match="another --out"):
        memory.batch(question_file, workers=1, out=out, progress=False)
    assert out.read_bytes() == before


def test_an_unreadable_question_is_an_error_row_and_the_run_goes_on(store: Path) -> None:
    with Memory(store) as memory:
        rows = memory.batch(
            ["Who ruled Normandy?", "bad \ud800 text", "Where is Normandy?"],
            workers=1,
            progress=False,
        )
    assert "error" not in rows[0] and "error" not in rows[2]
    assert rows[1]["line"] == 2 and "lone surrogate" in rows[1]["error"]


def test_an_in_memory_store_is_answered_in_this_process() -> None:
    with Memory(dense=False) as memory:
        memory.ingest_text("The Normans settled in Normandy in the 10th century.", name="n")
        rows = memory.batch(["Where did the Normans settle?"], workers=2, progress=False)
    assert rows[0]["text"] == "Normandy"


def test_one_worker_answers_on_one_thread_of_the_numeric_libraries(store: Path) -> None:
    """Like each of several workers: a worker is a core (BLAS on both doubled the CPU
    time for no speed); the caller's thread pools are as they were afterwards."""
    from threadpoolctl import threadpool_info

    def pools() -> list[int]:
        return [pool["num_threads"] for pool in threadpool_info()]

    during: list[list[int]] = []
    before = pools()
    with Memory(store) as memory:
        memory.batch(ASKED[:2], workers=1, progress=lambda done, total: during.append(pools()))
    assert during and all(threads == 1 for seen in during for threads in seen)
    assert pools() == before


def test_a_batch_freezes_the_heap_after_its_first_answer_and_hands_it_back(store: Path) -> None:
    """Its full collections stop walking the models and indexes while it runs; after
    it, everything is collectable again. A caller that froze objects itself keeps its
    freeze as it was."""
    import gc

    seen: list[int] = []
    with Memory(store) as memory:
        memory.batch(
            ASKED[:3], workers=1, progress=lambda done, total: seen.append(gc.get_freeze_count())
        )
        assert seen[0] == 0 < seen[1] == seen[2]  # frozen once the first answer is in
        assert gc.get_freeze_count() == 0
        gc.freeze()
        try:
            theirs = gc.get_freeze_count()
            seen.clear()
            memory.batch(
                ASKED[:2],
                workers=1,
                progress=lambda done, total: seen.append(gc.get_freeze_count()),
            )
            # nothing more frozen, nothing handed back (objects freed meanwhile leave)
            assert all(0 < count <= theirs for count in [*seen, gc.get_freeze_count()])
        finally:
            gc.unfreeze()


def _cli_batch(
    store: Path, questions: Path, out: Path, workers: int | None = 1
) -> subprocess.Popen[bytes]:
    """``affidavit batch`` as a user runs it (``workers`` None: the default, one per core)."""
    chosen = [] if workers is None else ["--workers", str(workers)]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "affidavit.cli.main",
            "batch",
            str(questions),
            "--store",
            str(store),
            "--out",
            str(out),
            *chosen,
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A shell running the suite in the background ignores SIGINT, and so would the
        # batch it starts: Ctrl-C is given back its default, as at a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for_rows(out: Path, rows: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= rows:
            return
        time.sleep(0.05)
    pytest.fail(f"the batch wrote fewer than {rows} rows (exit {process.poll()})")


@pytest.mark.slow
@pytest.mark.parametrize("workers", [None, 1], ids=["default workers", "one worker"])
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_an_interrupted_run_resumed_by_the_same_command_loses_and_repeats_nothing(
    store: Path, long_question_file: Path, tmp_path: Path, how: signal.Signals, workers: int | None
) -> None:
    """The real command, killed and run again; the default-run tests of the same with a
    fake answerer are in tests/batch/test_resume.py."""
    expected = reference_rows(store, LONG)
    out = tmp_path / "answers.jsonl"
    process = _cli_batch(store, long_question_file, out, workers)
    _wait_for_rows(out, 4, process)
    process.send_signal(how)
    _, stderr = process.communicate(timeout=60)
    if how == signal.SIGINT:
        assert process.returncode == 130
        assert b"run the same command again" in stderr
    partial = out.read_bytes()
    assert partial.endswith(b"\n") and len(partial.splitlines()) < len(expected)
    assert partial == b"".join(expected[: len(partial.splitlines())])
    process = _cli_batch(store, long_question_file, out, workers)
    stdout, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    assert f"({len(partial.splitlines())} already there)".encode() in stdout
    assert out.read_bytes() == b"".join(expected)


@pytest.mark.slow
def test_the_command_run_again_while_it_runs_writes_nothing_and_says_why(
    store: Path, long_question_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "answers.jsonl"
    first = _cli_batch(store, long_question_file, out, None)
    try:
        _wait_for_rows(out, 2, first)
        second = _cli_batch(store, long_question_file, out, None)
        _, stderr = second.communicate(timeout=120)
        assert second.returncode == 1
        assert b"another batch is writing these answers" in stderr
    finally:
        first.kill()
        first.communicate(timeout=60)
    rows = out.read_bytes().splitlines(keepends=True)
    assert rows == reference_rows(store, LONG)[: len(rows)]  # the first run's rows alone


def test_the_cli_says_what_it_answered(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "1", "question": "Who was the duke in the battle of Hastings?"}\n'
        '{"id": "2", "question": "What colour is the Moon\'s cheese?"}\nnot json\n',
        encoding="utf-8",
    )
    out = tmp_path / "a.jsonl"
    argv = ["batch", str(questions), "--store", str(store), "--out", str(out), "--quiet"]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert "3 answered into" in said and "1 input errors" in said
    assert main(argv) == 0  # again: nothing left to answer
    again = capsys.readouterr().out
    assert again.startswith("0 answered into") and "(3 already there)" in again
    assert (
        main(["batch", str(tmp_path / "none.jsonl"), "--store", str(store), "--out", str(out)]) == 1
    )


def test_answer_file_resume_needs_every_row_in_place(tmp_path: Path) -> None:
    items = questions_from(["a?", "b?"])
    out = tmp_path / "a.jsonl"
    out.write_bytes(row_bytes({"id": "1", "line": 1}) + b"{broken\n")
    with pytest.raises(InputError, match="line 2 is not JSON"):
        AnswerFile(out, items)
    os.remove(out)
    with AnswerFile(out, items) as writer:
        assert writer.done == 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_workers_of_a_killed_batch_exit_rather_than_linger(
    store: Path, long_question_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "answers.jsonl"
    process = _cli_batch(store, long_question_file, out, workers=2)
    _wait_for_rows(out, 2, process)
    workers = _children(process.pid)
    assert len(workers) >= 2
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.1)
    lingering = [w for w in workers if Path(f"/proc/{w}/status").exists()]
    # A worker that exited may stay a zombie until reaped by init: not running is enough.
    running = [w for w in lingering if "State:\tZ" not in Path(f"/proc/{w}/status").read_text()]
    assert running == []


def test_rows_only_written_are_counted_not_kept(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    with Memory(store) as memory:
        report = memory.batch(ASKED[:3] + [""], workers=1, out=out, keep_rows=False, progress=False)
    assert list(report) == [] and report.rows == 4
    assert report.counts()["errors"] == 1
    assert sum(report.counts().values()) == len(out.read_bytes().splitlines()) == 4


def test_an_answer_file_that_cannot_be_written_is_an_input_error(tmp_path: Path) -> None:
    folder = tmp_path / "no-such-folder" / "a.jsonl"
    with pytest.raises(InputError, match="cannot write the answers"):
        AnswerFile(folder, questions_from(["a?"]))


def test_a_forked_worker_takes_the_indexes_its_parent_read(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from affidavit.index.words import word_parts

    with Memory(store) as parent, Memory(store, read_only=True) as worker:
        parent.build_indexes()
        expected = [(hit.document, hit.position) for hit in parent.search(ASKED[0])]
        worker._retriever.adopt(parent._retriever)  # noqa: SLF001 - what Memory.batch does

        def read_again(*args: object) -> None:
            raise AssertionError("the word index was read from the store again")

        with monkeypatch.context() as patched:
            patched.setattr(word_parts, "current", read_again)
            found = [(hit.document, hit.position) for hit in worker.search(ASKED[0])]
        assert found == expected
        # An index adopted at another generation than the store's is not used.
        parent.ingest_text("The lighthouse keeper logged every ship.", name="log.txt")
        fresh = Memory(store, read_only=True)
        fresh._retriever.adopt(worker._retriever)  # noqa: SLF001
        assert [h.document for h in fresh.search("lighthouse keeper logged")][:1] == ["log.txt"]
        fresh.close()


def test_workers_send_rows_as_the_lines_the_parent_writes(store: Path, tmp_path: Path) -> None:
    from affidavit.batch.worker import written

    with Memory(store) as memory:
        row = {"id": "q1", "line": 1, **memory.ask(ASKED[0]).to_dict()}
    line = written(row)
    assert line.line == row_bytes(row)
    assert line.kind == ("refused" if row["refused"] else "answered")
    assert written({"id": "q2", "line": 2, "error": "line 2: not JSON"}).kind == "errors"
