"""The entity graph: PMI and LLR by hand, mined entities on real articles in three
languages, edges only with witnesses, the partition path, and the CLI."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.errors import AffidavitError
from affidavit.index.entities.corpus import Corpus, _runs, extended_arrays
from affidavit.index.entities.grams import Grams, unique_keys
from affidavit.index.entities.graph import EntityGraph, _fingerprints
from affidavit.index.entities.linking import apart, mentions_in
from affidavit.index.entities.mining import entropy, llr, mine, pmi_weakest_split
from affidavit.text.names import _TITLES, pieces, segments

XQUAD = Path(__file__).resolve().parents[2] / "corpora" / "xquad_slice"


def article_lines(*paths: Path) -> list[tuple[int, str, str]]:
    texts = [p.read_text(encoding="utf-8") for p in paths]
    lines = [line for text in texts for line in text.split("\n") if line.strip()]
    return [(i, line, "en") for i, line in enumerate(lines)]


@pytest.fixture(scope="module")
def articles() -> Memory:
    memory = Memory(dense=False)
    memory.ingest([str(p) for p in ARTICLES])
    return memory


# -- the measures, by hand --


def test_grams_count_every_word_sequence_as_a_scan_of_the_segments_would() -> None:
    corpus = Corpus.read(article_lines(*ARTICLES))
    grams = Grams.count(corpus, 4)
    ids, segment = corpus.ids.tolist(), corpus.segment.tolist()
    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 4):
        starts = rng.choice(len(ids) - n, 40, replace=False).tolist()
        asked = np.array([ids[s : s + n] for s in starts] + [[len(corpus.vocabulary) - 1] * n])
        naive = [
            sum(
                ids[i : i + n] == list(row) and segment[i] == segment[i + n - 1]
                for i in range(len(ids) - n + 1)
            )
            for row in asked.tolist()
        ]
        assert grams.counts_of(asked).tolist() == naive


def test_pmi_is_taken_over_the_weakest_split() -> None:
    # p(phrase) = 4/1000; splits (10, 8) and (40, 2): PMI log2(50) and log2(50) ... and
    # a third split (100, 5) gives log2(8): the weakest, so the phrase's PMI.
    assert pmi_weakest_split(4, [(10, 8)], 1000) == pytest.approx(math.log2(50))
    assert pmi_weakest_split(4, [(10, 8), (100, 5)], 1000) == pytest.approx(math.log2(8))
    assert pmi_weakest_split(0, [(1, 1)], 10) == float("-inf")


def test_entropy_in_bits() -> None:
    assert entropy([1, 1, 1, 1]) == pytest.approx(2.0)
    assert entropy([5]) == 0.0
    assert entropy([]) == 0.0


def test_llr_matches_dunnings_worked_example() -> None:
    # Dunning (1993) as in his "Surprise and coincidence" note: k11=110, k12=2442,
    # k21=111, k22=29114 gives G² = 270.72.
    assert llr(110, 2442, 111, 29114) == pytest.approx(270.72, abs=0.01)
    # By the definition: 2 Σ k ln(k N / (row col)).
    k = (10, 5, 3, 82)
    n, rows, cols = 100, (15, 85), (13, 87)
    by_hand = 2 * (
        10 * math.log(10 * n / (rows[0] * cols[0]))
        + 5 * math.log(5 * n / (rows[0] * cols[1]))
        + 3 * math.log(3 * n / (rows[1] * cols[0]))
        + 82 * math.log(82 * n / (rows[1] * cols[1]))
    )
    assert llr(*k) == pytest.approx(by_hand)


def test_llr_is_zero_for_independence_and_for_avoidance() -> None:
    assert llr(5, 5, 5, 5) == 0.0  # exactly as chance has it
    assert llr(1, 50, 50, 10) == 0.0  # together less often than chance


# -- mining on real text --


def test_mined_entities_on_english_articles() -> None:
    names = {e.name for e in mine(article_lines(*ARTICLES))}
    assert {"Normandy", "Rollo", "Jacksonville", "bubonic plague", "Saudi Arabia"} <= names
    assert "Mr" not in names and "The" not in names


def test_capitals_are_not_required_for_phrases() -> None:
    lowered = [(i, text.lower(), lang) for i, text, lang in article_lines(*ARTICLES)]
    names = {e.name for e in mine(lowered)}
    assert {"bubonic plague", "saudi arabia", "consultant pharmacists"} <= names


@pytest.mark.parametrize(
    ("language", "expected"),
    [("es", {"Francia", "Inglaterra", "Jacksonville"}), ("tr", {"Fransa", "ABD", "Orta Çağ"})],
)
def test_mining_works_in_spanish_and_turkish(language: str, expected: set[str]) -> None:
    records = (XQUAD / f"paragraphs.{language}.jsonl").read_text(encoding="utf-8").splitlines()
    lines = [(i, json.loads(r)["text"], language) for i, r in enumerate(records)]
    assert expected <= {e.name for e in mine(lines)}


# -- edges --


def test_every_edge_has_witnesses_that_mention_both() -> None:
    rows = article_lines(*ARTICLES)
    graph = EntityGraph.build(rows)
    texts = dict((i, t) for i, t, _ in rows)
    assert graph.pairs
    for (a, b), witnesses in graph.pairs.items():
        assert len(witnesses) >= 1
        for line_id in witnesses.tolist():
            mentions = mentions_in(graph.automaton, segments(texts[line_id]))
            assert {a, b} <= {entity for entity, _, _ in mentions}
            assert apart(mentions, a, b)  # two mentions, not one inside the other


def test_an_entity_in_every_line_is_nobodys_neighbour() -> None:
    import numpy as np

    from affidavit.index.entities.mining import Entity

    every = np.arange(100)
    graph = EntityGraph(
        [
            Entity(("acme",), "Acme", 100),
            Entity(("rollo",), "Rollo", 10),
            Entity(("drogo",), "Drogo", 10),
        ],
        [every, np.arange(10), np.arange(5, 15)],
        {(0, 1): np.arange(10), (0, 2): np.arange(5, 15), (1, 2): np.arange(5, 10)},
        100,
    )
    assert [edge.weight for edge in graph.neighbours(0)] == [0.0, 0.0]
    assert graph.weight(1, 2) > 10  # Rollo and Drogo meet far beyond chance
    assert graph.neighbours(1)[0].other == 2


def test_the_graph_survives_its_cache() -> None:
    graph = EntityGraph.build(article_lines(*ARTICLES))
    again = EntityGraph.from_bytes(graph.to_bytes())
    assert again.entities == graph.entities
    assert again.pairs.keys() == graph.pairs.keys()
    assert all((again.pairs[p] == graph.pairs[p]).all() for p in graph.pairs)
    assert all((a == b).all() for a, b in zip(again.postings, graph.postings, strict=True))


# -- the public API and the partition --


def test_entities_neighbours_and_cooccurrences(articles: Memory) -> None:
    top = articles.entities(top=5)
    assert len(top) == 5 and top[0].count >= top[-1].count
    neighbours = articles.neighbours("Rollo", top=5)
    assert neighbours and all(n.witnesses for n in neighbours)
    assert neighbours == sorted(neighbours, key=lambda n: -n.weight)
    lines = articles.cooccurrences("Rollo", "Normandy")
    assert lines and all("Rollo" in e.text and "Normand" in e.text for e in lines)
    with pytest.raises(AffidavitError, match="no entity named"):
        articles.neighbours("Zyxwv")


def test_a_question_naming_two_entities_reads_their_shared_lines(articles: Memory) -> None:
    graph = articles._retriever.graph()
    question = "Which lands in France did Rollo receive?"
    assert [graph.entities[i].name for i in graph.find(question)] == ["France", "Rollo"]
    hits = articles.search(question, k=10)
    shared = articles.cooccurrences("Rollo", "France")
    places = {(e.document, e.position + step) for e in shared for step in (-1, 0, 1)}
    assert hits and all((h.document, h.position) in places for h in hits)
    assert (hits[0].document, hits[0].position) in {(e.document, e.position) for e in shared}
    # One entity only: the whole store is scored, as before.
    assert articles.search("Who was Rollo?", k=3)


def test_an_empty_intersection_falls_back_to_the_store(articles: Memory) -> None:
    graph = articles._retriever.graph()
    a, b = graph.named("Rollo"), graph.named("Chrysler")
    assert a is not None and b is not None
    assert len(graph.together([a, b])) == 0
    assert articles.search("Did Rollo ever drive a Chrysler?", k=3)


def test_incremental_ingest_equals_a_full_build(tmp_path: Path) -> None:
    step = Memory(tmp_path / "step.sqlite", dense=False)
    for path in ARTICLES:
        step.ingest(str(path))
        step.entities(top=1)  # the graph is brought up to date after each document
    whole = Memory(tmp_path / "whole.sqlite", dense=False)
    whole.ingest([str(p) for p in ARTICLES])
    a, b = step._retriever.graph(), whole._retriever.graph()
    assert a.entities == b.entities
    assert a.pairs.keys() == b.pairs.keys()
    assert all((a.pairs[p] == b.pairs[p]).all() for p in a.pairs)


def test_copies_of_one_text_are_mined_once(tmp_path: Path) -> None:
    """Three copies of an article (the same text under three names) have the one copy's
    entities, with its counts, whether the graph is built once or grown copy by copy;
    every copy's lines are matched: each posting list is three times the one copy's."""
    text = ARTICLES[0].read_text(encoding="utf-8")
    one = Memory(dense=False)
    one.ingest_text(text, name="article.txt")
    built = Memory(tmp_path / "built.sqlite", dense=False)
    grown = Memory(tmp_path / "grown.sqlite", dense=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "a version or a copy?"
        for number in range(3):
            built.ingest_text(text, name=f"copy-{number}.txt")
            grown.ingest_text(text, name=f"copy-{number}.txt")
            grown.entities(top=1)  # the graph grows after each copy
    base = one._retriever.graph()
    assert len(base.entities) > 10
    for memory in (built, grown):
        graph = memory._retriever.graph()
        assert graph.entities == base.entities
        assert [len(p) for p in graph.postings] == [3 * len(p) for p in base.postings]


def same_graph(a: EntityGraph, b: EntityGraph) -> bool:
    return (
        a.entities == b.entities
        and a.pairs.keys() == b.pairs.keys()
        and all((a.pairs[p] == b.pairs[p]).all() for p in a.pairs)
        and len(a.postings) == len(b.postings)
        and all((x == y).all() for x, y in zip(a.postings, b.postings, strict=True))
    )


def test_an_update_reads_only_the_added_lines_and_equals_a_build() -> None:
    rows = article_lines(*ARTICLES)
    cut = len(rows) - 40
    before = EntityGraph.build(rows[:cut])
    after = before.updated(rows)
    assert before.corpus is not None and after.corpus is not None
    # The kept corpus was extended, not read again: its first tokens are the same objects.
    known = len(before.corpus.surface)
    assert (after.corpus.surface[:known] == before.corpus.surface).all()
    assert after.corpus.forms[: len(before.corpus.forms)] == before.corpus.forms
    assert same_graph(after, EntityGraph.build(rows))
    # A line whose text changed under the same id is not an addition: a full build.
    changed = list(rows)
    changed[5] = (changed[5][0], "Rollo met Drogo.", "en")
    assert same_graph(before.updated(changed), EntityGraph.build(changed))


def test_the_cache_keeps_everything_an_update_needs() -> None:
    graph = EntityGraph.build(article_lines(*ARTICLES))
    again = EntityGraph.from_bytes(graph.to_bytes())
    assert again.lines == graph.lines
    assert (again.line_ids == graph.line_ids).all() and (again.digests == graph.digests).all()
    kept, original = again.corpus, graph.corpus
    assert kept is not None and original is not None
    assert kept.vocabulary == original.vocabulary and kept.forms == original.forms
    assert (kept.surface == original.surface).all()
    assert (kept.ids == original.ids).all() and (kept.segment == original.segment).all()


def test_an_update_matches_only_the_new_lines_when_the_entities_stay(monkeypatch) -> None:
    rows = article_lines(*ARTICLES)
    before = EntityGraph.build(rows)
    added = rows + [(len(rows) + 10, "Nothing of note happened that day.", "en")]
    linked: list[tuple[int, bool]] = []
    original = EntityGraph._link

    def spy(self, lines, *, extend=False, counted=None, only=None, spelled=None):
        linked.append((len(lines), extend))
        return original(self, lines, extend=extend, counted=counted, only=only, spelled=spelled)

    monkeypatch.setattr(EntityGraph, "_link", spy)
    after = before.updated(added)
    assert linked == [(1, True)]
    monkeypatch.setattr(EntityGraph, "_link", original)
    assert same_graph(after, EntityGraph.build(added))


def test_the_kept_corpus_grows_in_its_compact_form_as_a_whole_reading_would() -> None:
    rows = article_lines(*ARTICLES)
    cut = len(rows) - 40
    kept = Corpus.read(rows[:cut]).to_arrays()
    grown, words = extended_arrays(kept, rows[cut:])
    whole = Corpus.read(rows).to_arrays()
    assert grown.keys() == whole.keys()
    for name, values in whole.items():
        if name == "c_segment_values":  # numbered on from the kept corpus's last segment
            continue
        assert grown[name].dtype == values.dtype and np.array_equal(grown[name], values), name
    assert (np.diff(grown["c_segment_values"]) > 0).all()
    # Grown again with the words handed on from the first growth, as with them decoded.
    more = [(rows[-1][0] + 1, "Zorvath Quell sailed to Ōsaka with Rollo.", "en")]
    handed, _ = extended_arrays(grown, more, words)
    decoded, _ = extended_arrays(grown, more)
    assert handed.keys() == decoded.keys()
    assert all(np.array_equal(handed[name], decoded[name]) for name in decoded)
    assert Corpus.from_arrays(handed).vocabulary[-4:] == ["zorvath", "quell", "sailed", "ōsaka"]
    # An older store's plain columns grow the same.
    plain = Corpus.from_arrays(kept)
    old = {k: v for k, v in kept.items() if not k.startswith(("c_line", "c_seg", "c_flags"))}
    old.update(
        c_line=np.repeat(*plain.line_runs),
        c_segment=plain.segment,
        c_capital=plain.capital,
        c_opening=plain.opening,
    )
    from_old, _ = extended_arrays(old, rows[cut:])
    assert all(np.array_equal(from_old[name], values) for name, values in grown.items())


def test_a_run_crossing_the_join_is_one_run() -> None:
    from affidavit.index.entities.corpus import joined_runs

    first, then = np.array([4, 4, 4, 7]), np.array([7, 7, 9])
    joined = joined_runs(_runs(first), _runs(then))
    whole = _runs(np.concatenate([first, then]))
    assert joined[0].tolist() == whole[0].tolist() == [4, 7, 9]
    assert joined[1].tolist() == whole[1].tolist() == [3, 3, 1]


def test_a_cached_graph_grows_and_keeps_its_minings_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A graph built whole keeps no counts; its first growth counts the kept corpus once
    and keeps the counts, and the next growth adds to them without a mining."""
    from affidavit.index.entities import mined_counts

    rows = article_lines(*ARTICLES)
    cached = EntityGraph.from_bytes(EntityGraph.build(rows).to_bytes())
    assert cached.counts is None
    fresh = [(len(rows) + 10, "Nothing of note happened that day.", "en")]
    after = cached.grown(fresh, [], lambda ids: [])
    assert after.counts is not None
    assert same_graph(after, EntityGraph.build(rows + fresh))
    more = [(len(rows) + 11, "Rollo met Drogo of Hauteville in Normandy.", "en")]

    def no_mining(*_: object) -> None:
        raise AssertionError("mined whole")

    monkeypatch.setattr(mined_counts, "mine_corpus", no_mining)
    again = EntityGraph.from_bytes(after.to_bytes())  # the counts survive the cache
    grown = again.grown(more, [], lambda ids: [r for r in rows + fresh + more if r[0] in ids])
    assert same_graph(grown, EntityGraph.build(rows + fresh + more))


def test_a_mention_inside_a_longer_one_is_not_a_second_entity() -> None:
    from affidavit.index.entities.mining import Entity

    graph = EntityGraph(
        [
            Entity(("mr", "brooke"), "Mr Brooke", 6),
            Entity(("brooke",), "Brooke", 8),
            Entity(("casaubon",), "Casaubon", 8),
        ],
        [],
        {},
        38,
    )
    rows = [(i, "Mr Brooke met Casaubon.", "en") for i in range(6)]
    rows += [(6 + i, "Brooke met Casaubon.", "en") for i in range(2)]
    rows += [(8 + i, "Nothing here.", "en") for i in range(30)]
    graph._link(rows)
    assert (0, 1) not in graph.pairs  # Mr Brooke and the Brooke inside it
    assert graph.pairs[(1, 2)].tolist() == list(range(8))  # Brooke met Casaubon, 8 times
    assert graph.together([1, 2]).tolist() == list(range(8))
    assert graph.weight(1, 2) == pytest.approx(llr(8, 0, 0, 30))


def test_stranger_lines_never_decide_what_is_read(tmp_path: Path) -> None:
    memory = Memory(dense=False)
    # The trusted document names Rollo and France on separate lines only; the stranger's
    # lines name them together, so only they would make the partition.
    memory.ingest_text(
        "The Viking Rollo was a leader of raiders.\n\n"
        "In 911 the king of France gave the land of Normandy to him.",
        name="history",
    )
    memory.ingest_text(
        "I think Rollo bought France cheaply.\n\nMaybe Rollo sold France again.\n\n"
        "Honestly Rollo and France are fine.",
        name="forum",
        source="stranger",
    )
    graph = memory._retriever.graph()
    assert {"Rollo", "France"} <= {e.name for e in graph.entities}
    answer = memory.ask("Which land did Rollo receive from France?")
    assert answer.reason != "below_trust"
    assert all(line.document == "history" for line in answer.citations)


def test_turkish_names_are_found_with_turkish_case_folding() -> None:
    records = (XQUAD / "paragraphs.tr.jsonl").read_text(encoding="utf-8").splitlines()
    memory = Memory(dense=False)
    for record in map(json.loads, records):
        memory.ingest_text(record["text"], name=record["name"])
    assert "İngiltere" in {e.name for e in memory.entities(top=100)}
    assert memory.neighbours("İngiltere")  # folded as Turkish: İ -> i


def test_a_full_stop_cuts_unless_it_closes_a_title_or_an_initial() -> None:
    assert segments("I met Tom. Rollo came with Mr. Brooke and J. Smith.") == (
        " i met tom | rollo came with mr brooke and j smith "
    )
    assert segments("Lydgate’s horse; Dorothea’s") == " lydgate horse | dorothea "


def test_the_kept_corpus_is_stored_compactly_and_read_back_whole() -> None:
    rows = [
        (n, line, "en")
        for n, line in enumerate(ARTICLES[0].read_text(encoding="utf-8").splitlines(), 1)
        if line.strip()
    ]
    corpus = Corpus.read(rows)
    arrays = corpus.to_arrays()
    back = Corpus.from_arrays(arrays)
    for name in ("ids", "segment", "capital", "opening", "surface"):
        assert np.array_equal(getattr(back, name), getattr(corpus, name)), name
    assert all(map(np.array_equal, back.line_runs, corpus.line_runs))
    # Each line with a word is one run, its tokens as many as its words.
    line_ids, tokens = corpus.line_runs
    assert (np.diff(line_ids) > 0).all() and (tokens > 0).all()
    assert int(tokens.sum()) == len(corpus.ids)
    assert (back.vocabulary, back.forms) == (corpus.vocabulary, corpus.forms)
    per_token = sum(a.nbytes for k, a in arrays.items() if k not in ("c_vocabulary", "c_forms"))
    assert per_token < 13 * len(corpus.ids)  # plain columns took 26 bytes a token
    # An older store's plain columns are still read.
    old = {key: value for key, value in arrays.items() if not key.startswith(("c_line", "c_seg"))}
    per_line = np.repeat(*corpus.line_runs)  # a line id a token, as they were stored
    old.update(
        c_line=per_line,
        c_segment=corpus.segment,
        c_capital=corpus.capital,
        c_opening=corpus.opening,
    )
    assert all(map(np.array_equal, Corpus.from_arrays(old).line_runs, corpus.line_runs))


def test_a_name_first_written_in_added_lines_is_an_entity_at_once() -> None:
    """A few lines added make a name an entity (its third mention), and the graph grown
    by them is a build's: the name's lines and edges, every count, in order."""
    rows = article_lines(*ARTICLES)
    before = EntityGraph.build(rows)
    told = [
        "Then Zorvath Quell sailed north with Rollo.",
        "The people feared Zorvath Quell in winter.",
        "Many years later and Zorvath Quell returned to Normandy.",
        "Rollo stood with Zorvath Quell beside the river.",
    ]
    first_id = rows[-1][0] + 1
    added = rows + [(first_id + i, text, "en") for i, text in enumerate(told)]
    after = before.updated(added)
    assert ("zorvath", "quell") not in {e.words for e in before.entities}
    assert ("zorvath", "quell") in {e.words for e in after.entities}
    assert same_graph(after, EntityGraph.build(added))
    rollo, quell = after.named("Rollo"), after.named("Zorvath Quell")
    assert rollo is not None and quell is not None
    assert after.together([rollo, quell]).tolist() == [first_id, first_id + 3]


def test_a_store_reads_only_the_added_documents_lines_to_update_its_graph(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest([str(p) for p in ARTICLES])
        before = memory._retriever.graph()
        read = request.getfixturevalue("lines_read")
        memory.ingest_text("Rollo and the Normans met the Duke of Normandy.", name="note.md")
        added = [doc_id for doc_id, name, _ in memory._store.documents() if name == "note.md"]
        # The graph grew as the text was added (no mining was due): the next question
        # reads nothing more.
        assert read == [added]  # the known lines were neither read nor hashed again
        after = memory._retriever.graph()
        assert read == [added]
        languages = {doc_id: lang for doc_id, _, lang in memory._store.documents()}
        rows = [(i, text, languages[d]) for i, d, _, _, text in memory._store.line_rows()]
        assert same_graph(after, before.updated(rows))


# -- memory: the lines read twice, the grams counted from one sort --


@pytest.mark.parametrize("size", [0, 1, 7, 5_000])
def test_grams_are_counted_as_numpy_unique_counts_them(size: int) -> None:

    keys = np.random.default_rng(size).integers(0, max(size // 3, 2), size).astype(np.int64)
    expected = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
    found = unique_keys(keys)
    for want, got in zip(expected, found, strict=True):
        assert np.array_equal(want.reshape(-1), got)
    assert found[2].dtype == np.int32  # the inverse, one per occurrence, kept narrow


def test_mining_in_small_pieces_finds_the_same_entities(monkeypatch) -> None:
    # The worker counts and judges a chunk at a time to bound its memory; chunks of a few
    # tokens and a few occurrences cut every run, segment and candidate somewhere.
    from affidavit.index.entities import grams, mining

    lines = article_lines(*ARTICLES)
    whole = mine(lines)
    monkeypatch.setattr(grams, "_COMPARED_AT_ONCE", 7)
    monkeypatch.setattr(mining, "_OCCURRENCES_AT_ONCE", 5)
    assert mine(lines) == whole
    assert len(whole) > 20


def test_a_graph_read_twice_from_its_source_is_the_graph_built_from_a_list() -> None:
    rows = article_lines(*ARTICLES)
    asked: list[int] = []

    def lines():  # noqa: ANN202 - a fresh generator each time, as a store cursor is
        asked.append(1)
        yield from rows

    read = EntityGraph.read(lines)
    assert len(asked) == 2  # the corpus, then the matches: never a list of every line
    assert same_graph(read, EntityGraph.build(rows))
    ids, digests = _fingerprints(rows)  # what an update compares the store's lines with
    assert np.array_equal(read.line_ids, ids)
    assert np.array_equal(read.digests, digests)
    assert read.lines == len(rows)


def test_a_full_stop_after_a_title_is_read_backwards_as_a_pattern_would_read_it() -> None:
    last_word = re.compile(r"([^\W\d_]+)\s*$")

    def reference(text: str) -> list[str]:
        found, start = [], 0
        for match in re.finditer(r"[,;:!?()\[\]{}\"“”«»—–]|\.", text):
            if match.group(0) == ".":
                before = last_word.search(text, start, match.start())
                word = before.group(1) if before else ""
                if word.casefold() in _TITLES or (len(word) == 1 and word.isupper()):
                    continue
            found.append(text[start : match.start()])
            start = match.end()
        return [*found, text[start:]]

    texts = [text for _, text, _ in article_lines(*ARTICLES)]
    texts += ["Mr  . Brooke", "Mr\u00a0. Brooke", "J. Smith met Dña. Ana", "x², y½. z"]
    texts += ["a_Mr. b", "Mr9. c", ". . .", "CAPT. Bly", "Straße. x", "İ. Ö. ü"]
    dotted = [text for text in texts if "." in text]
    assert len(dotted) > 100
    for text in dotted:
        assert pieces(text) == reference(text), text


def test_lines_read_again_give_the_graph_they_give_when_read_afresh(monkeypatch) -> None:
    """A line whose text was read before (a copy's) is copied, not tokenised again: the
    corpus, the entities and their postings are the ones reading every line gives."""
    from affidavit.index.entities import seen

    text = ARTICLES[0].read_text(encoding="utf-8").splitlines()
    # Three copies, and lines of the first repeated out of order inside the second.
    lines = [*text, *text[::-1], *text]
    rows = [(number, line, "en") for number, line in enumerate(lines, 1) if line.strip()]
    remembered = EntityGraph.build(rows)
    monkeypatch.setattr(seen.SeenTexts, "get", lambda self, text, language: None)
    afresh = EntityGraph.build(rows)
    assert remembered.entities == afresh.entities and remembered.entities
    for name in ("ids", "segment", "capital", "opening", "surface"):
        assert np.array_equal(getattr(remembered.corpus, name), getattr(afresh.corpus, name))
    for kept, read in zip(remembered.postings, afresh.postings, strict=True):
        assert np.array_equal(kept, read)
    assert remembered.pairs.keys() == afresh.pairs.keys()
