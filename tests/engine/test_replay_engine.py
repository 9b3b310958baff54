"""A model engine against the replay server (affidavit.engine.replay) on 127.0.0.1: the
store keeps the model's replies (a second run costs no calls, ``--no-cache`` asks again),
the read-back of a sentence, lies of roles and lists refused, and every failure of the
wire (429 and 503 then a reply, a timeout, malformed JSON, a reply outside the schema, a
refused key) a result or an EngineError naming the server and never the key."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from affidavit import EngineError, HttpEngine, Memory
from affidavit.cli.main import main
from affidavit.engine.replay import ReplayServer, read_recording

BRIDGE = "The Tyne bridge opened in 1928 after four years of work."
QUESTION = "When did the Tyne bridge open?"
MODEL = "replay-model"


def answers(text: str, holding: str = "Tyne bridge") -> Callable[[dict[str, Any]], dict]:
    """A model that answers ``text`` to an answer prompt, citing the line holding
    ``holding``, and finds no claims and no plan otherwise."""

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        system, user = (m["content"] for m in body["messages"])
        if system.startswith("You answer"):
            rows = [row for row in user.splitlines() if row[:1].isdigit()]
            cited = [int(row.split(":")[0]) for row in rows if holding in row][:1]
            reply = {"answers": [{"text": text, "cites": cited}]}
        elif system.startswith("You read"):
            reply = {"claims": []}
        else:
            reply = {"steps": []}
        exchange = {"model": body["model"], "messages": body["messages"]}
        return {**exchange, "reply": json.dumps(reply), "usage": {"prompt_tokens": 50}}

    return respond


def asked(memory: Memory) -> Any:
    return memory.ask(QUESTION)


def test_the_store_keeps_the_replies_so_a_second_run_costs_no_calls(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    with ReplayServer(respond=answers("1928")) as server:
        with Memory(store, dense=False, engine=HttpEngine(server.url, MODEL)) as memory:
            memory.ingest_text(BRIDGE, name="bridge.md")
            first = asked(memory)
        assert first.text == "1928" and first.audit["engine_calls"]["calls"] >= 1
        sent = len(server.requests)
        # A new process (a new engine, the same store): every reply comes from the store.
        with Memory(store, dense=False, engine=HttpEngine(server.url, MODEL)) as memory:
            again = asked(memory)
            assert memory.stats()["engine_replies"] == first.audit["engine_calls"]["calls"]
        assert again.text == "1928" and len(server.requests) == sent
        assert again.audit["engine_calls"]["calls"] == 0
        assert again.audit["engine_calls"]["cache_hits"] >= 1
        # cache=False asks the model again; forgetting the replies does too.
        with Memory(store, dense=False, engine=HttpEngine(server.url, MODEL, cache=False)) as m:
            assert asked(m).audit["engine_calls"]["calls"] >= 1
            assert m.forget_replies() >= 1 and m.stats()["engine_replies"] == 0
        with Memory(store, dense=False, engine=HttpEngine(server.url, MODEL)) as memory:
            assert asked(memory).audit["engine_calls"]["calls"] >= 1


def test_a_sharded_store_keeps_the_replies_in_its_first_shard(tmp_path: Path) -> None:
    folder = tmp_path / "estate"
    with ReplayServer(respond=answers("1928")) as server:
        engine = HttpEngine(server.url, MODEL)
        with Memory(folder, shards=2, dense=False, engine=engine) as memory:
            memory.ingest_text(BRIDGE, name="bridge.md")
            memory.ingest_text("The Tees bridge is older.", name="tees.md")
            first = asked(memory)
        sent = len(server.requests)
        with Memory(folder, dense=False, engine=HttpEngine(server.url, MODEL)) as memory:
            again = asked(memory)
            assert memory.stats()["shards"][0]["engine_replies"] >= 1
        assert first.text == again.text == "1928" and len(server.requests) == sent
        assert again.audit["engine_calls"]["cache_hits"] >= 1


def test_a_recorded_replay_answers_from_the_cli_and_no_cache_asks_again(
    tmp_path: Path, capsys
) -> None:
    store = tmp_path / "s.sqlite"
    with Memory(store, dense=False) as memory:
        memory.ingest_text(BRIDGE, name="bridge.md")
    # Record what a model says, through the server's own recording format.
    with ReplayServer(respond=answers("1928")) as live:
        with Memory(tmp_path / "r.sqlite", dense=False, engine=HttpEngine(live.url, MODEL)) as m:
            m.ingest_text(BRIDGE, name="bridge.md")
            m.ask(QUESTION)
        recording = tmp_path / "recording.jsonl"
        recording.write_text(
            "".join(json.dumps(answers("1928")(body)) + "\n" for body in live.requests)
        )
    with ReplayServer(read_recording(recording)) as server:
        command = ["ask", QUESTION, "--store", str(store), "--json"]
        command += ["--engine-url", server.url, "--engine-model", MODEL]
        runs = []
        for extra in ([], [], ["--no-cache"]):
            assert main(command + extra) == 0
            runs.append(json.loads(capsys.readouterr().out))
    assert [run["text"] for run in runs] == ["1928"] * 3
    assert [run["audit"]["engine_calls"]["calls"] > 0 for run in runs] == [True, False, True]


def test_a_prompt_the_recording_lacks_is_an_error_naming_the_server(tmp_path: Path) -> None:
    with ReplayServer() as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL, max_retries=0))
        memory.ingest_text(BRIDGE, name="bridge.md")
        with pytest.raises(EngineError, match="no recorded reply") as caught:
            asked(memory)
    assert server.url in str(caught.value)


@pytest.mark.parametrize(
    ("evidence", "question", "lie", "gate"),
    [
        (  # a swapped role: the evidence says who beat whom
            "Arsenal beat Chelsea in the 1998 cup final at Wembley.",
            "Who beat Arsenal in the 1998 cup final?",
            "Chelsea beat Arsenal in the 1998 cup final.",
            "roles",
        ),
        (  # a list with an invented item
            "The field kit holds a tent, a stove and a lantern for each team.",
            "What does the field kit hold?",
            "a tent, a stove, a compass and a lantern",
            "mixture",
        ),
    ],
)
def test_a_lie_of_roles_or_lists_is_refused_and_the_audit_says_why(
    evidence: str, question: str, lie: str, gate: str
) -> None:
    with ReplayServer(respond=answers(lie, holding=evidence[:12])) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_text(evidence, name="evidence.md")
        reply = memory.ask(question)
    assert reply.refused, reply.text
    judged = reply.audit["subsets"][0]["candidates"][0]
    assert judged["text"] == lie
    failed = [d for d in judged["gate"] if not d["passed"]]
    assert failed and failed[0]["gate"] == gate, failed


def reading_back(claims: list[str], answer: str) -> Callable[[dict[str, Any]], dict]:
    proposing = answers(answer)

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        if body["messages"][0]["content"].startswith("You read"):
            reply = json.dumps({"claims": claims})
            return {"model": body["model"], "messages": body["messages"], "reply": reply}
        return proposing(body)

    return respond


def test_the_engines_read_back_is_judged_claim_by_claim() -> None:
    claims = ["The Tyne bridge opened in 1928", "the work lasted four whole years"]
    with ReplayServer(respond=reading_back(claims, BRIDGE)) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_text(BRIDGE, name="bridge.md")
        reply = memory.ask(QUESTION)
    assert not reply.refused
    chosen = reply.audit["subsets"][0]["candidates"][0]["gate"][-1]
    assert chosen["gate"] == "engine_readback" and chosen["passed"]
    assert "1 claim(s)" in chosen["detail"] and "lasted" in chosen["detail"]  # set aside


def test_a_read_back_claim_the_evidence_denies_drops_the_sentence() -> None:
    claims = ["The Tyne bridge opened in 1928", "The Tyne bridge never opened"]
    with ReplayServer(respond=reading_back(claims, BRIDGE + " It never closed.")) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_text(BRIDGE + " It never closed.", name="bridge.md")
        reply = memory.ask(QUESTION)
    judged = reply.audit["subsets"][0]["candidates"][0]["gate"]
    assert judged[-1]["gate"] == "engine_readback" and not judged[-1]["passed"], judged


def failing(*exchanges: dict[str, Any]) -> Callable[[dict[str, Any]], dict]:
    """Serve ``exchanges`` in order to the first prompts, then answer truly."""
    script = list(exchanges)
    truthful = answers("1928")

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        made = truthful(body)
        return {**made, **script.pop(0)} if script else made

    return respond


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_server_is_asked_again(status: int) -> None:
    busy = {"status": status, "headers": {"retry-after": "0"}, "reply": "busy"}
    with ReplayServer(respond=failing(busy, busy)) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_text(BRIDGE, name="bridge.md")
        reply = asked(memory)
    assert reply.text == "1928"


@pytest.mark.parametrize(
    ("exchange", "said"),
    [
        ({"delay": 1.5}, "no answer within 0.5 s"),
        ({"body": "{not json"}, "unusable response"),
        ({"status": 401, "reply": "bad key sk-secret"}, "refused the API key"),
    ],
)
def test_a_failing_server_is_an_engine_error_naming_it_never_the_key(
    exchange: dict[str, Any], said: str
) -> None:
    with ReplayServer(respond=failing(*[exchange] * 3)) as server:
        engine = HttpEngine(server.url, MODEL, api_key="sk-secret", timeout=0.5, max_retries=1)
        memory = Memory(dense=False, engine=engine)
        memory.ingest_text(BRIDGE, name="bridge.md")
        with pytest.raises(EngineError, match=said) as caught:
            asked(memory)
    assert server.url in str(caught.value) and "sk-secret" not in str(caught.value)


def test_a_reply_outside_the_schema_is_no_candidate() -> None:
    wrong = {"reply": json.dumps({"answer": "1928", "line": 0})}
    with ReplayServer(respond=failing(*[wrong] * 9)) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_text(BRIDGE, name="bridge.md")
        reply = asked(memory)
    assert reply.refused and reply.reason == "no_candidate"


def test_recording_in_front_of_a_server_then_replaying_without_it(tmp_path: Path) -> None:
    with ReplayServer(respond=answers("1928")) as model:
        with ReplayServer(upstream=model.url) as recorder:
            memory = Memory(dense=False, engine=HttpEngine(recorder.url, MODEL))
            memory.ingest_text(BRIDGE, name="bridge.md")
            assert asked(memory).text == "1928"
        recorded = recorder.recorded
    assert recorded and all("reply" in exchange for exchange in recorded)
    file = tmp_path / "replies.jsonl"
    file.write_text("".join(json.dumps(exchange) + "\n" for exchange in recorded))
    with ReplayServer(read_recording(file)) as replay:  # the model is gone
        memory = Memory(dense=False, engine=HttpEngine(replay.url, MODEL))
        memory.ingest_text(BRIDGE, name="bridge.md")
        assert asked(memory).text == "1928"


def test_a_recorder_whose_upstream_is_down_says_so_and_records_nothing() -> None:
    with ReplayServer(upstream="http://127.0.0.1:9/v1") as recorder:
        memory = Memory(dense=False, engine=HttpEngine(recorder.url, MODEL, max_retries=0))
        memory.ingest_text(BRIDGE, name="bridge.md")
        with pytest.raises(EngineError, match="HTTP 502.*did not answer"):
            asked(memory)
    assert recorder.recorded == []


def listing(events: list[dict[str, Any]]) -> Callable[[dict[str, Any]], dict]:
    """A model that lists ``events`` (their ``line`` the block's row holding ``at``) when
    asked for a passage's events."""

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        system, user = (m["content"] for m in body["messages"])
        assert system.startswith("You list")
        rows = [row for row in user.splitlines() if row[:1].isdigit()]
        listed = []
        for event in events:
            at = event.pop("at")
            listed.append({"line": next(i for i, r in enumerate(rows) if at in r), **event})
        exchange = {"model": body["model"], "messages": body["messages"]}
        return {**exchange, "reply": json.dumps({"events": listed}), "usage": {}}

    return respond


def test_a_model_engines_events_enter_only_where_their_lines_say_them() -> None:
    chat = Path(__file__).resolve().parents[2] / "corpora" / "dialogue" / "maya-and-leo.jsonl"
    said = {"subject": "Maya", "predicate": "adopted", "value": "a puppy", "kind": "pet"}
    invented = {"subject": "Maya", "predicate": "adopted", "value": "a kitten", "kind": "pet"}
    events = [
        {**said, "at": "adopted", "when": "yesterday", "ends": False},
        {**invented, "at": "pottery", "when": "", "ends": False},
    ]
    with ReplayServer(respond=listing(events)) as server:
        memory = Memory(dense=False, engine=HttpEngine(server.url, MODEL))
        memory.ingest_dialogue(chat, name="chat")
        result = memory.distil("chat/session-1")
    (record,) = result.records
    assert (record.value, record.kind, record.true_at) == ("a puppy", "pet", "2023-05-07")
    assert record.witness == (("chat/session-1", 0),) and record.source == "extraction"
    ((event, reason),) = result.refused
    assert "a kitten" in event and "the value 'a kitten'" in reason
