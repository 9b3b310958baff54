"""The house's floors held at run time: one question's calls only ever go down.

The import-graph test holds what each room may import. A room can still be entered from
below at run time, by a function handed down to it (a weight, a grade, a store's reader
called back by a judge): a reader following one question would then have to climb back
upstream. Here every call an ask or a verify makes is watched (``sys.setprofile``): a call
from one room into another must go to a lower floor, so along any chain of calls each room
is entered once, in floor order.

A sharded store is held too: its driver (archive/sharded_archive.py) asks the shards and
drives the steps of a finding (index/finding.py) and of a reading across languages
(records/gloss.py) itself, so neither calls back up into it; the judges weigh words by an
index-room value over the summed tallies.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from affidavit import Memory

ROOT = Path(__file__).resolve().parents[2]
_GRAPH = importlib.util.spec_from_file_location(
    "import_graph", Path(__file__).with_name("test_import_graph.py")
)
assert _GRAPH is not None and _GRAPH.loader is not None
_graph = sys.modules.setdefault("import_graph", importlib.util.module_from_spec(_GRAPH))
_GRAPH.loader.exec_module(_graph)
FLOOR = {room: at for at, room in enumerate(_graph.ROOMS)}


def _room(frame: FrameType) -> str | None:
    module = frame.f_globals.get("__name__", "")
    if not module.startswith("affidavit."):
        return None
    return module.split(".")[1]


def _where(frame: FrameType) -> str:
    return f"{frame.f_globals['__name__']}:{frame.f_code.co_name}"


@contextmanager
def climbs_watched() -> Iterator[set[tuple[str, str]]]:
    """Every call, made inside the block, from one room into a room on a higher floor (or
    one the layout does not name), as (caller, callee); calls through code outside the
    package (the standard library's) count from the nearest affidavit caller."""
    climbs: set[tuple[str, str]] = set()

    def watch(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = _room(frame)
        if callee is None:
            return
        caller_frame = frame.f_back
        while caller_frame is not None and _room(caller_frame) is None:
            caller_frame = caller_frame.f_back
        if caller_frame is None:
            return
        caller = _room(caller_frame)
        assert caller is not None
        if caller != callee and FLOOR.get(callee, len(FLOOR)) >= FLOOR.get(caller, -1):
            climbs.add((_where(caller_frame), _where(frame)))

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        yield climbs
    finally:
        sys.setprofile(previous)


def _watched(memory: Memory, calls: list[Callable[[], object]]) -> set[tuple[str, str]]:
    calls[0]()  # the first builds the indexes and loads the models, outside the watch
    with climbs_watched() as climbs:
        for call in calls:
            call()
    return climbs


def _questions(name: str, count: int) -> list[str]:
    rows = [json.loads(line) for line in (ROOT / "bench" / name).read_text().splitlines()]
    return [row["question"] for row in rows[:count]]


@pytest.fixture(scope="module")
def documents() -> Iterator[Memory]:
    with Memory(dense=True) as memory:
        memory.ingest([ROOT / "corpora" / "demo", ROOT / "corpora" / "office"])
        yield memory


def test_an_ask_and_a_verify_over_documents_only_go_down_the_floors(documents: Memory) -> None:
    asked = _questions("doc_qa_questions.jsonl", 24)
    calls: list[Callable[[], object]] = [
        *(lambda q=q: documents.ask(q) for q in asked),
        *(lambda q=q: documents.verify(q) for q in asked[:6]),
        lambda: documents.verify("The Black Death originated in Central Asia.", question=None),
    ]
    assert not _watched(documents, calls)


def test_a_conversation_and_a_table_only_go_down_the_floors() -> None:
    dialogue = ROOT / "corpora" / "dialogue" / "maya-and-leo.jsonl"
    with Memory(dense=False) as memory:
        memory.ingest_dialogue(str(dialogue), name="maya-and-leo")
        memory.ingest(ROOT / "corpora" / "demo" / "senate-expenditures.pdf")
        calls: list[Callable[[], object]] = [
            lambda: memory.ask("What is the name of Maya's puppy?"),
            lambda: memory.ask("When did I go hiking?", speaker="Maya", asked_at="2023-06-03"),
            lambda: memory.ask("What was the total of Sen Hawley's train fares?"),
            lambda: memory.ask("How many airfare expenses are there?"),
        ]
        assert not _watched(memory, calls)


def test_a_sharded_stores_ask_verify_and_reading_across_languages_only_go_down(
    tmp_path: Path,
) -> None:
    spanish = [
        json.loads(line)
        for line in (ROOT / "corpora" / "xquad_slice" / "questions.jsonl").read_text().splitlines()
        if json.loads(line)["language"] == "es"
    ]
    paragraphs = ROOT / "corpora" / "xquad_slice" / "paragraphs.jsonl"
    with Memory(tmp_path / "estate", shards=2, dense=False) as memory:
        memory.ingest([ROOT / "corpora" / "demo"])
        for line in paragraphs.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            memory.ingest_text(record["text"], name=record["name"])
        asked = _questions("doc_qa_questions.jsonl", 12)
        calls: list[Callable[[], object]] = [
            *(lambda q=q: memory.ask(q) for q in asked),
            *(lambda q=q: memory.verify(q) for q in asked[:4]),
            *(lambda q=q["question"]: memory.ask(q) for q in spanish[:4]),
            lambda: memory.search("the oil embargo", k=5),
        ]
        assert not _watched(memory, calls)


def test_a_call_back_up_a_floor_is_seen_and_calls_down_are_not() -> None:
    # The control: answer/ calls a judge (down), which calls back a function of answer/
    # handed down to it (up): the one climb is seen.
    upstairs: dict[str, Any] = {"__name__": "affidavit.answer.upstairs"}
    downstairs: dict[str, Any] = {"__name__": "affidavit.gates.downstairs"}
    exec("def weigh(term):\n    return 1.0\ndef ask():\n    return judge(weigh)", upstairs)
    exec("def judge(weigh):\n    return weigh('x')", downstairs)
    upstairs["judge"] = downstairs["judge"]
    with climbs_watched() as climbs:
        upstairs["ask"]()
    assert climbs == {("affidavit.gates.downstairs:judge", "affidavit.answer.upstairs:weigh")}
