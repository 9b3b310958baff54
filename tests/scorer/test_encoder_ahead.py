"""The encoder reads ahead: an ask starts it on the lines its reader will read as soon as
they are found, on a thread of its own, and the reader then takes those scores rather
than reading the lines again; the scores are the same whichever thread read them, a
reading that failed is read again where the ask can raise its error, and a forked batch
worker waits for nothing its parent's thread was reading."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import Future

import pytest
from conftest import _memory

from affidavit import Memory
from affidavit.engine import DefaultEngine
from affidavit.errors import EngineError
from affidavit.runtime import ENCODER_AHEAD_VARIABLE
from affidavit.scorer import encoder as encoding
from affidavit.scorer.encoder import Encoder, encoder, line_scores, read_ahead

CASH = "3d7f346b"  # a TAT-QA cash flow table with its text (corpora/tatqa)
QUESTION = "Who may request a copy of the records?"
LINES = [
    "Any member of the public may request a copy of the records in writing.",
    "Requests are answered within 20 working days by the records officer.",
]


@pytest.fixture
def reads(monkeypatch):
    """Each (thread name, question, line) the encoder reads, the memory of scores empty."""
    monkeypatch.setattr(encoding, "_scores", encoding.OrderedDict())
    seen: list[tuple[str, str, str]] = []
    scoring = Encoder.score

    def score(self, question, lines):
        seen.extend((threading.current_thread().name, question, line) for line in lines)
        return scoring(self, question, lines)

    monkeypatch.setattr(Encoder, "score", score)
    return seen


def test_lines_read_ahead_are_read_on_the_encoders_thread_and_taken_from_there(reads):
    read_ahead(QUESTION, LINES)
    taken = line_scores(QUESTION, LINES)
    assert {name.startswith("affidavit-encoder") for name, _, _ in reads} == {True}
    assert sorted(line for _, _, line in reads) == sorted(LINES)  # each line read once
    alone = encoder().score(QUESTION, LINES)
    for mine, fresh in zip(taken, alone, strict=True):
        assert mine.start_scores.tolist() == fresh.start_scores.tolist()
        assert mine.end_scores.tolist() == fresh.end_scores.tolist()


def test_an_ask_starts_the_encoder_on_its_reader_lines_before_it_proposes(monkeypatch, reads):
    started: list[bool] = []  # at the parse before proposing: was the encoder reading?
    parsing = DefaultEngine.read_ahead

    def read_ahead_noting(self, question, subsets):
        with encoding._scores_lock:
            known = [q for q, _ in encoding._pending] + [q for q, _ in encoding._scores]
        started.append(question.text in known)
        return parsing(self, question, subsets)

    monkeypatch.setattr(DefaultEngine, "read_ahead", read_ahead_noting)
    memory = Memory()
    memory.ingest_text(
        "Records policy.\n\n" + " ".join(LINES) + " The office is closed on public holidays.",
        name="records-policy.txt",
    )
    answer = memory.ask(QUESTION)
    assert not answer.refused, answer.reason
    assert reads, "the reader read no line"
    # Every line the reader scored was read ahead, on the encoder's thread, and once.
    assert {name.startswith("affidavit-encoder") for name, _, _ in reads} == {True}
    assert len(reads) == len(set(reads))
    assert started == [True]


def test_a_question_a_plan_answers_starts_no_reading(reads):
    # Routed to a computation, the question is most often answered by a plan: the encoder
    # reading its lines meanwhile would spend a batch's other worker's core for nothing.
    answer = _memory(CASH).ask(
        "What was the percentage change in net cash provided by operating activities from "
        "2017 to 2018?"
    )
    assert not answer.refused and answer.audit["plan"], answer.audit.get("closest")
    assert reads == []


def test_a_batch_worker_reads_in_its_asking_thread(monkeypatch, reads):
    # A batch's workers take a core each: a reading thread would take another's.
    from affidavit.batch.processes import _one_thread_each

    monkeypatch.delenv(ENCODER_AHEAD_VARIABLE, raising=False)
    with _one_thread_each():  # the environment the workers start in
        read_ahead(QUESTION, LINES)
        line_scores(QUESTION, LINES)
    assert {name for name, _, _ in reads} == {threading.current_thread().name}
    assert ENCODER_AHEAD_VARIABLE not in os.environ  # put back as it was


def test_a_reading_that_failed_is_read_again_where_the_ask_raises_it(monkeypatch, reads):
    def broken(self, question, lines):
        raise EngineError("the reader's encoder cannot be read (test)")

    monkeypatch.setattr(Encoder, "score", broken)
    read_ahead(QUESTION, LINES)
    with pytest.raises(EngineError, match="cannot be read"):
        line_scores(QUESTION, LINES)
    assert not encoding._pending


def _pending_in_child(queue) -> None:
    queue.put((len(encoding._pending), encoding._ahead is None))


def test_a_forked_worker_waits_for_nothing_its_parents_thread_was_reading(monkeypatch):
    never: Future[None] = Future()  # a reading the parent's thread has not finished
    monkeypatch.setitem(encoding._pending, (QUESTION, LINES[0]), never)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_pending_in_child, args=(queue,))
    child.start()
    found = queue.get(timeout=60)
    child.join(timeout=60)
    assert found == (0, True)
