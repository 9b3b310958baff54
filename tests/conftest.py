"""Shared fixtures: the project's real corpora, and one SQuAD store ingested once per session.

Tests that only read share ``squad`` (an open Memory) or ``squad_store`` (its file, for
tests that reopen it); tests that write build their own store in ``tmp_path``.
Hypothesis draws the same examples on every run (profile "ci"; "explore" draws anew).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings

from affidavit import Memory

# The same examples on every run, so a red CI names a real failure, not an unlucky draw;
# HYPOTHESIS_PROFILE=explore draws new ones (run it by hand to search wider).
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"
SQUAD_DIR = CORPORA / "squad2_articles"
DEMO_DIR = CORPORA / "demo"
PDF_DIR = CORPORA / "pdf_text_dumps"
LICENCES_DIR = CORPORA / "licences"
ARTICLES = tuple(
    SQUAD_DIR / name
    for name in (
        "Normans.txt",
        "Black_Death.txt",
        "1973_oil_crisis.txt",
        "Jacksonville,_Florida.txt",
        "Pharmacy.txt",
    )
)


def affidavit_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``affidavit *arguments`` as a user runs it: a fresh process beside this Python, the
    default options (no AFFIDAVIT_ variable of the test run's), its output captured; a
    failing command fails the test."""
    command = Path(sys.executable).with_name("affidavit")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AFFIDAVIT_")}
    return subprocess.run(
        [str(command), *arguments], check=True, capture_output=True, text=True, timeout=300, env=env
    )


def load_questions() -> list[dict]:
    """Every SQuAD 2.0 question asked of the bundled articles, in file order."""
    with (SQUAD_DIR / "questions.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


QUESTIONS = load_questions()


def questions_starting(prefix: str, n: int, *, answerable: bool = True) -> list[str]:
    """The first ``n`` questions that open with ``prefix`` (answerable ones by default)."""
    found = [
        q["question"]
        for q in QUESTIONS
        if q["question"].startswith(prefix) and (not answerable or not q["is_impossible"])
    ]
    return found[:n]


def stored_lines(path: str | Path) -> list[tuple[str, int, str, str]]:
    """(document, position, kind, text) of every line, read straight from the SQLite file."""
    conn = sqlite3.connect(path)
    try:
        return list(
            conn.execute(
                "SELECT d.name, l.position, l.kind, l.text FROM lines l "
                "JOIN documents d ON d.id = l.document_id ORDER BY l.id"
            )
        )
    finally:
        conn.close()


# The TAT-QA reports (corpora/tatqa, CC BY 4.0) the plans' tests (tests/plans/) and the
# clause answers' (tests/engine/test_clauses.py) are asked of, by their table's uid.
TATQA_SLICE = CORPORA / "tatqa" / "tatqa_slice.json"


@cache
def _contexts() -> dict[str, dict]:
    return {c["table"]["uid"][:8]: c for c in json.loads(TATQA_SLICE.read_text(encoding="utf-8"))}


def report(uid: str) -> str:
    """One TAT-QA context as a user saves it: the table in Markdown, then the text."""
    context = _contexts()[uid]
    rows = [[cell.replace("|", "/") for cell in row] for row in context["table"]["table"]]
    table = [f"| {' | '.join(rows[0])} |", "|" + "---|" * len(rows[0])]
    table += [f"| {' | '.join(row)} |" for row in rows[1:]]
    paragraphs = sorted(context["paragraphs"], key=lambda p: p["order"])
    return "\n".join(table) + "\n\n" + "\n\n".join(p["text"] for p in paragraphs) + "\n"


@cache
def _memory(*uids: str) -> Memory:
    memory = Memory(dense=False)
    for uid in uids:
        memory.ingest_text(report(uid), name=f"{uid}.md")
    return memory


def turn(session: int, day: str, speaker: str, text: str) -> dict[str, object]:
    """One turn of a conversation as ``Memory.ingest_dialogue`` reads it."""
    return {"session": session, "date": day, "speaker": speaker, "text": text}


# Leo mentions Maya's race; what she realised after it is hers alone.
RACE = [
    turn(1, "2023-05-08", "Leo", "I heard you ran the charity race on Sunday. How was it?"),
    turn(
        1,
        "2023-05-08",
        "Maya",
        "It was thought-provoking. After the charity race I realized that rest days "
        "matter as much as training.",
    ),
    turn(1, "2023-05-08", "Leo", "Good to hear. I am painting a mural at the library."),
    turn(2, "2023-06-02", "Leo", "The charity race photos came out, by the way."),
    turn(2, "2023-06-02", "Maya", "Great, send them over!"),
]


@pytest.fixture(scope="session")
def squad_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store file holding the five SQuAD articles, ingested once and closed."""
    path = tmp_path_factory.mktemp("squad") / "squad.sqlite"
    with Memory(path) as memory:
        for article in ARTICLES:
            memory.ingest(article)
    return path


@pytest.fixture(scope="session")
def squad(squad_store: Path) -> Iterator[Memory]:
    """The SQuAD store, open for reading; no test may write to it."""
    memory = Memory(squad_store)
    yield memory
    memory.close()


@pytest.fixture(scope="session")
def squad_lines(squad_store: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(document, position) -> (kind, text) for every line of the SQuAD store."""
    return {(doc, pos): (kind, text) for doc, pos, kind, text in stored_lines(squad_store)}


def store_reads(monkeypatch: pytest.MonkeyPatch, method: str) -> list[object]:
    """The first argument of every call of ``Store.<method>`` from here on (None for a
    call without one)."""
    from affidavit.store.sqlite import Store

    read: list[object] = []
    original = getattr(Store, method)

    def spy(self: Store, *args: object) -> object:
        read.append(args[0] if args else None)
        return original(self, *args)

    monkeypatch.setattr(Store, method, spy)
    return read


@pytest.fixture
def lines_read(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The ``documents`` argument of every ``Store.line_rows`` call from here on (None:
    every line of the store)."""
    return store_reads(monkeypatch, "line_rows")


@pytest.fixture
def gate_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answerability's threshold at 0: for tests of what the gate passes, not of how
    likely the reader finds a passed span."""
    from affidavit.scorer import likelihood as answerability

    shipped = answerability.model()
    unbounded = answerability.Model(shipped.weights, 0.0, shipped.provenance)
    monkeypatch.setattr(answerability, "model", lambda: unbounded)


@pytest.fixture(scope="session")
def licences(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """A store of the four real licence and procedure documents of corpora/licences,
    ingested once; no test may write to it."""
    path = tmp_path_factory.mktemp("licences") / "licences.sqlite"
    with Memory(path) as memory:
        memory.ingest(LICENCES_DIR)
    memory = Memory(path, read_only=True)
    yield memory
    memory.close()
