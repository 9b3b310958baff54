"""A sharded store made, opened, written and read through the Memory front door, its
shards in this process (tests/shards/test_on_ray.py runs them as Ray actors)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from conftest import ARTICLES, DEMO_DIR, SQUAD_DIR

from affidavit import AffidavitError, IngestError, InputError, Memory, StoreError
from affidavit.memory import ShardedMemory
from affidavit.memory.common import MemoryCalls
from affidavit.memory.one_store import StoreMemory
from affidavit.shards.manifest import MANIFEST, shard_of


@pytest.fixture(scope="module")
def articles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-shard store of the five SQuAD articles (closed: each test opens it)."""
    folder = tmp_path_factory.mktemp("sharded") / "articles"
    with Memory(folder, shards=3, dense=False) as memory:
        memory.ingest(list(ARTICLES))
    return folder


def test_shards_make_a_folder_with_a_manifest_and_one_store_a_shard(tmp_path: Path) -> None:
    folder = tmp_path / "estate"
    with Memory(folder, shards=3, dense=False) as memory:
        assert isinstance(memory, ShardedMemory) and isinstance(memory, Memory)
        assert memory.path == str(folder)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["shards"] == ["shard-0.sqlite", "shard-1.sqlite", "shard-2.sqlite"]
    assert all((folder / name).is_file() for name in manifest["shards"])


def test_a_sharded_store_reopens_by_its_folder_alone(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        assert isinstance(memory, ShardedMemory) and memory.shard_count == 3
        assert sorted(memory.documents()) == sorted(path.name for path in ARTICLES)


def test_each_document_lives_on_the_shard_its_name_chooses(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        held = [shard["documents"] for shard in memory.stats()["shards"]]
    expected = [0, 0, 0]
    for path in ARTICLES:
        expected[shard_of(path.name, 3)] += 1
    assert held == expected and sum(held) == len(ARTICLES)


def test_the_shard_rule_is_a_fixed_function_of_the_name() -> None:
    # The same name must land on the same shard in every process, on every machine.
    assert [shard_of(name, 4) for name in ("Normans.txt", "a", "b/c.pdf")] == [
        shard_of("Normans.txt", 4),
        shard_of("a", 4),
        shard_of("b/c.pdf", 4),
    ]
    assert shard_of("Normans.txt", 1) == 0
    assert {shard_of(f"doc-{n}", 4) for n in range(64)} == {0, 1, 2, 3}


def test_opening_with_another_shard_count_is_refused(articles: Path) -> None:
    with pytest.raises(StoreError, match="has 3 shards, not 2"):
        Memory(articles, shards=2)


def test_shards_are_made_only_in_a_new_or_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="not empty"):
        Memory(tmp_path / "full", shards=2)
    with pytest.raises(InputError, match="needs a folder"):
        Memory(None, shards=2)


def test_shards_or_a_cluster_on_a_plain_store_is_an_input_error(tmp_path: Path) -> None:
    with Memory(tmp_path / "one.sqlite", dense=False):
        pass
    with pytest.raises(InputError, match="not a sharded store"):
        Memory(tmp_path / "one.sqlite", cluster="local")


def test_a_bad_file_leaves_every_shard_as_it_was(articles: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    for path in ARTICLES[:3]:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not a pdf at all")
    with Memory(articles, dense=False) as memory:
        before = memory.fingerprint()
        with pytest.raises(IngestError, match="broken.pdf"):
            memory.ingest(folder)
        assert memory.fingerprint() == before
    assert not list(articles.glob(".spool-*")), "a spool was left behind"


def test_search_merges_the_shards_best_lines_by_score(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        hits = memory.search("oil embargo prices", k=8)
        documents = {hit.document for hit in hits}
    scores = [hit.score for hit in hits]
    assert len(hits) == 8 and scores == sorted(scores, reverse=True)
    assert "1973_oil_crisis.txt" in documents


def test_the_census_counts_documents_on_every_shard(tmp_path: Path) -> None:
    said = "The Varnholt permit for the north quarry was renewed on 4 May 2021."
    names = [f"permits/{n}.txt" for n in range(6)]
    assert len({shard_of(name, 2) for name in names}) == 2  # the documents straddle shards
    with Memory(tmp_path / "s", shards=2, dense=False) as memory:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # each is a copy of the others
            for name in names:
                memory.ingest_text(said, name=name)
        answer = memory.ask("When was the Varnholt permit renewed?")
    assert not answer.refused and answer.value is not None
    assert set(answer.audit["census"]["documents"]) == set(names)
    assert answer.census.startswith("6 documents speak of this")


def test_a_replaced_text_stays_on_its_shard_and_remove_finds_it(tmp_path: Path) -> None:
    with Memory(tmp_path / "s", shards=4, dense=False) as memory:
        memory.ingest_text("The gate code is 4411.", name="codes.txt")
        memory.ingest_text("The gate code is 9020.", name="codes.txt")
        assert memory.documents() == ["codes.txt"]
        assert memory.line("codes.txt", 0).text == "The gate code is 9020."
        assert memory.remove("codes.txt") == 1
        assert memory.documents() == []
        with pytest.raises(InputError, match="no document"):
            memory.remove("codes.txt")


def test_a_scope_reads_only_the_shards_holding_its_documents(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        answer = memory.ask("When did the embargo end?", documents="Normans.txt")
        assert all(c.document == "Normans.txt" for c in answer.citations)
        with pytest.raises(InputError, match="no document of the store's 5"):
            memory.ask("When did the embargo end?", documents="nowhere.txt")


def test_verify_is_supported_when_a_shard_supports_it(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        verdict = memory.verify("The embargo ended in March 1974.")
    assert verdict.supported
    assert verdict.sentences[0].evidence[0].document == "1973_oil_crisis.txt"


def test_entities_sum_their_mentions_over_the_shards(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        merged = {e.name: e.count for e in memory.entities(top=1000)}
        shards = memory.stats()["shards"]
    assert merged and len(shards) == 3
    with Memory(dense=False) as one:
        one.ingest([p for p in ARTICLES if p.name == "Normans.txt"])
        alone = {e.name: e.count for e in one.entities(top=5)}
    # Normans.txt is on one shard: its own entities are counted there as alone.
    for name, count in alone.items():
        assert merged.get(name, 0) >= count


def test_the_records_graph_says_it_is_one_stores(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        with pytest.raises(AffidavitError, match="not available on a sharded store"):
            memory.tell("Ana", "lives in", "Quito")


def test_a_batch_asks_every_shard_and_refuses_workers(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        report = memory.batch(["When did the oil embargo end?"], progress=False)
        assert report[0]["text"] == memory.ask("When did the oil embargo end?").text
        with pytest.raises(InputError, match="answers a batch on its shards"):
            memory.batch(["Who?"], workers=2, progress=False)


def test_a_dialogue_goes_whole_to_one_shard(tmp_path: Path) -> None:
    dialogue = DEMO_DIR.parent / "dialogue" / "maya-and-leo.jsonl"
    with Memory(tmp_path / "s", shards=3, dense=False) as memory:
        names = memory.ingest_dialogue(dialogue, name="maya-and-leo")
        held = [shard["documents"] for shard in memory.stats()["shards"]]
    assert sorted(held) == [0, 0, len(names)]


def test_stats_sum_the_shards(articles: Path) -> None:
    with Memory(dense=False) as one:
        one.ingest(list(ARTICLES))
        expected = one.stats()
    with Memory(articles, dense=False) as memory:
        stats = memory.stats()
    assert (stats["documents"], stats["lines"]) == (expected["documents"], expected["lines"])
    assert stats["path"] == str(articles)
    assert SQUAD_DIR.name not in stats["path"]


def test_the_cli_makes_a_sharded_store_and_asks_it_by_its_folder(tmp_path: Path, capsys) -> None:
    from affidavit.cli.main import main

    folder = tmp_path / "estate"
    assert (
        main(
            ["ingest", *map(str, ARTICLES[:3]), "--store", str(folder), "--shards", "2", "--quiet"]
        )
        == 0
    )
    assert "3 document(s)" in capsys.readouterr().out
    assert main(["ask", "When did the oil embargo end?", "--store", str(folder), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["text"] == "March 1974"
    assert main(["ingest", str(ARTICLES[3]), "--store", str(folder), "--quiet"]) == 0
    assert "4 documents" in capsys.readouterr().out


def test_a_lower_trust_replacement_is_refused_before_any_shard_writes(tmp_path: Path) -> None:
    folder = tmp_path / "texts"
    folder.mkdir()
    names = [f"rule-{n}.txt" for n in range(6)]
    for n, name in enumerate(names):
        (folder / name).write_text(f"Rule {n}: the gate closes at {n + 6} pm.", encoding="utf-8")
    with Memory(tmp_path / "s", shards=2, dense=False) as memory:
        # The file stored under the name its folder's ingest gives it.
        memory.ingest(folder / names[0], source="operator", name=f"texts/{names[0]}")
        before = memory.fingerprint()
        (folder / names[0]).write_text("Rule 0: the gate never closes.", encoding="utf-8")
        with pytest.raises(IngestError, match="would replace 'texts/rule-0.txt'"):
            memory.ingest(folder, source="stranger")
        assert memory.fingerprint() == before
        assert memory.documents() == [f"texts/{names[0]}"]


def test_no_call_of_one_store_reaches_a_sharded_store() -> None:
    # ShardedMemory is a Memory at the front door: each public call and each hook the
    # shared calls are written over (memory/common.py) is either written once for every
    # memory or the sharded store's own, never one store's, which would reach for a store
    # a sharded store does not have.
    public = {name for name in dir(StoreMemory) if not name.startswith("_")}
    hooks = {name for name in vars(MemoryCalls) if name.startswith("_") and name[1] != "_"}
    assert {"_open", "_archive", "_scope", "_ingest_files"} <= hooks
    shared = vars(MemoryCalls)
    one_stores = {
        name
        for name in public | hooks
        if getattr(ShardedMemory, name) is getattr(StoreMemory, name)
        and getattr(StoreMemory, name) is not shared.get(name)
    }
    assert one_stores == set()


def test_upkeep_and_health_cover_every_shard(articles: Path) -> None:
    with Memory(articles, dense=False) as memory:
        catalogue = memory.catalogue()
        health = memory.health()
        freed = memory.vacuum()
        last = memory.last_health()
    assert sorted(d.name for d in catalogue) == sorted(p.name for p in ARTICLES)
    assert health.now.documents == len(ARTICLES) and health.now.canaries > 0
    assert 0.0 <= health.now.recall <= 1.0 and last is not None
    assert set(freed) and all(isinstance(v, int) for v in freed.values())


def test_an_answer_cites_the_copies_on_other_shards(tmp_path: Path) -> None:
    said = "The Varnholt permit for the north quarry was renewed on 4 May 2021."
    names = [f"permits/{n}.txt" for n in range(6)]
    with Memory(tmp_path / "s", shards=3, dense=False) as memory:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in names:
                memory.ingest_text(f"Permits.\n\n{said}", name=name)
        answer = memory.ask("When was the Varnholt permit renewed?")
    assert sorted(c.document for c in answer.citations if c.text == said) == names
    assert "6 documents say this word for word" in answer.census


def test_a_shard_reads_its_indexes_back_after_its_ingest(tmp_path: Path) -> None:
    # What the ingest held (the graph's corpus as read, its scratch) is given back: each
    # shard then holds its indexes as a reopened store reads them from its cache, and
    # answers as before.
    with Memory(tmp_path / "s", shards=2, dense=False) as memory:
        memory.ingest(list(ARTICLES))
        assert isinstance(memory, ShardedMemory)
        for shard in memory._shards._shards:
            held = shard._retriever._held.graph
            assert isinstance(held.kept, dict)  # compact arrays, not the Corpus read
            assert shard._retriever._words._index is not None  # read back, not left
        found = memory.search("Who were the Normans?", k=1)
    with Memory(dense=False) as one:
        one.ingest(list(ARTICLES))
        assert [(e.document, e.position) for e in found] == [
            (e.document, e.position) for e in one.search("Who were the Normans?", k=1)
        ]
