"""Whose it is over shards (archive/told_of.py on a sharded store): each shard weighs its
turns by the whole store's word counts, so the speaker a conversation tells a thing of,
and the share of the question each turn carries, are one store's."""

from __future__ import annotations

from pathlib import Path

from conftest import ARTICLES, DEMO_DIR, RACE

from affidavit import Memory

# Two conversations with the same two speakers (RACE and maya-and-leo), on different
# shards; the articles make the words of the one rarer or commoner than each shard alone
# would weigh them.
QUESTIONS = [
    "What did Leo realize after the charity race?",
    "What did Maya realize after the charity race?",
    "What is Leo painting at the library?",
    "What did Maya adopt from the shelter?",
    "What did Leo adopt from the shelter?",
    "Where did Maya go hiking?",
]


def _load(memory: Memory) -> None:
    memory.ingest_dialogue(RACE, name="chat")
    memory.ingest_dialogue(DEMO_DIR.parent / "dialogue" / "maya-and-leo.jsonl", name="maya-and-leo")
    memory.ingest(list(ARTICLES))


def test_whose_it_is_weighs_every_shards_turns_as_one_store(tmp_path: Path) -> None:
    with Memory(dense=False) as one, Memory(tmp_path / "s", shards=3, dense=False) as sharded:
        _load(one)
        _load(sharded)
        held = sorted(shard["documents"] for shard in sharded.stats()["shards"])
        assert held[0] > 0, "a shard holds nothing: the conversations are not spread"
        weighed = 0
        for question in QUESTIONS:
            want = one.ask(question, asked_at="2023-06-10")
            got = sharded.ask(question, asked_at="2023-06-10")
            assert got.audit.get("whose") == want.audit.get("whose"), question
            assert (got.text, got.refused, got.reason) == (want.text, want.refused, want.reason)
            weighed += "whose" in want.audit
        assert weighed >= 4
