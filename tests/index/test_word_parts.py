"""The word index kept in parts: an ingest analyses its own documents only, caches a part
of their size, and the parts add up to exactly the index a whole build makes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.index.words import held_words, word_parts
from affidavit.index.words.word_index import WordIndex
from affidavit.store import index_parts as store_parts
from affidavit.store.index_parts import (
    MERGE_FACTOR,
    cached_parts,
    document_keys,
    searchable_lines,
    windows,
)

BUILD = WordIndex.build  # as it is before any test patches it


@pytest.fixture
def a_part_a_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each addition cached as a part of its own at once (not held until they add up)."""
    monkeypatch.setattr(held_words, "WRITTEN_AT_ADDITIONS", 1)


QUESTIONS = ["oil embargo prices", "When did the plague reach Europe?", "Amazon rainforest"]


def whole_build(memory: Memory) -> WordIndex:
    store = memory._store
    documents = document_keys(store)
    return BUILD(
        [(doc_id, name, language) for doc_id, name, language, _ in documents],
        searchable_lines(store),
        windows(store),
        keys=[key for *_, key in documents],
    )


def assert_same_as_whole(memory: Memory, index: WordIndex) -> None:
    whole = whole_build(memory)
    assert np.array_equal(index.line_ids, whole.line_ids)
    assert index.document_keys == whole.document_keys
    assert set(index.vocabulary) == set(whole.vocabulary)
    for question in QUESTIONS:
        terms = index.read(question).searched
        assert np.array_equal(index.scores(terms), whole.scores(terms))  # bit for bit


def test_an_ingest_analyses_its_own_documents_and_caches_a_part_at_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[list[str]] = []
    whole = WordIndex.build.__func__  # type: ignore[attr-defined]

    def recording(cls, documents, lines, windows, keys=None):  # noqa: ANN001
        built.append([name for _, name, _ in documents])
        return whole(cls, documents, lines, windows, keys)

    monkeypatch.setattr(WordIndex, "build", classmethod(recording))
    first_ones = [a.name for a in ARTICLES[:4]]
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[:4])
        memory.ingest_text("A note on the oil embargo of 1973.", name="note.md")
        store = memory._store
        names = [name for name, _, _ in cached_parts(store, word_parts.PREFIX)]
        assert built == [first_ones, ["note.md"]]
        assert names == [word_parts.PREFIX]  # the addition held, not yet cached
        assert_same_as_whole(memory, memory._retriever.words())
        memory.search("oil", k=3)  # the first question builds nothing
    assert built == [first_ones, ["note.md"]]
    with Memory(path, dense=False) as reopened:
        names = [name for name, _, _ in cached_parts(reopened._store, word_parts.PREFIX)]
        assert names[0] == word_parts.PREFIX and len(names) == 2  # the whole, then a part
        assert_same_as_whole(reopened, reopened._retriever.words())
    assert len(built) == 2  # reopening assembled the parts, it analysed nothing


def test_additions_are_cached_once_they_add_up_and_read_again_if_never_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Additions are held until WRITTEN_AT_ADDITIONS of them are, then cached as one part;
    those a process held and never cached (it stopped) are read from their lines by the
    next process to open the store."""
    monkeypatch.setattr(held_words, "WRITTEN_AT_ADDITIONS", 3)
    path = tmp_path / "s.sqlite"
    memory = Memory(path, dense=False)
    memory.ingest(ARTICLES[0])
    store = memory._store
    for n in range(4):
        memory.ingest_text(f"Note {n} on the oil embargo.", name=f"note-{n}.md")
        parts = cached_parts(store, word_parts.PREFIX)
        assert len(parts) == (1 if n < 2 else 2)  # three held, then one part of them
    memory._retriever.forget()  # as a process that stops: the fourth is never cached
    store.close()
    with Memory(path, dense=False) as reopened:
        index = reopened._retriever.words()
        assert "note-3.md" in index.document_names
        assert_same_as_whole(reopened, index)


def test_a_replaced_document_leaves_no_line_behind_even_when_its_id_is_reused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        for article in ARTICLES[:3]:
            memory.ingest(article)
        last = ARTICLES[2].name
        ids = {name: doc_id for doc_id, name, _, _ in document_keys(memory._store)}
        # The last document replaced: SQLite gives the new version the same id.
        memory.ingest_text("The embargo ended in March.", name=last)
        assert {n: i for i, n, _, _ in document_keys(memory._store)}[last] == ids[last]
        memory.ingest_text(ARTICLES[2].read_text(encoding="utf-8"), name=last)
        assert_same_as_whole(memory, memory._retriever.words())
    with Memory(path, dense=False) as reopened:
        index = reopened._retriever.words()
        assert_same_as_whole(reopened, index)
        assert len(index.document_keys) == 3


def test_an_addition_is_joined_term_by_term_as_the_general_merge_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest(ARTICLES[:3])
        before = memory._retriever.words()
        memory.ingest_text("The zyzzyva and the oil embargo of 1973.", name="zz-note.md")
        store = memory._store
        added = [d for d in document_keys(store) if d[3] not in set(before.document_keys)]
        update = word_parts.index_of(store, added)
        pieces = [(before, set(before.document_keys)), (update, set(update.document_keys))]
        joined = word_parts._appended(pieces)
        assert joined is not None
        monkeypatch.setattr(word_parts, "_appended", lambda pieces: None)
        general = word_parts.merged(pieces)
        monkeypatch.undo()
        assert joined.to_bytes() == general.to_bytes()  # every array, value for value
        assert_same_as_whole(memory, joined)
        # A replaced document is not an addition: the general merge takes it.
        kept = set(before.document_keys) - {before.document_keys[0]}
        assert word_parts._appended([(before, kept), pieces[1]]) is None


def test_parts_are_merged_in_size_tiers_and_the_whole_is_not_written_again(
    tmp_path: Path, a_part_a_call: None
) -> None:
    """Notes added one call at a time: once MERGE_FACTOR parts of one tier stand newest
    they are merged into one, so the parts stay few (a tier's worth a tier); the whole
    index is never written again while the parts weigh less than it, and the parts add up
    to the whole build's index, in this process and reopened."""
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[0])
        store = memory._store

        def whole() -> bytes:
            return cached_parts(store, word_parts.PREFIX)[0][2]

        first = whole()
        counts = []
        for n in range(5 * MERGE_FACTOR):
            memory.ingest_text(f"Note {n} on the oil embargo.", name=f"note-{n}.md")
            parts = cached_parts(store, word_parts.PREFIX)
            assert parts[0][0] == word_parts.PREFIX and whole() == first
            counts.append(len(parts) - 1)
        assert counts[: MERGE_FACTOR - 1] == list(range(1, MERGE_FACTOR))
        assert counts[MERGE_FACTOR - 1] == 1  # the first tier's parts merged into one
        assert max(counts) <= 2 * MERGE_FACTOR - 1
        assert_same_as_whole(memory, memory._retriever.words())
    with Memory(path, dense=False) as reopened:
        assert_same_as_whole(reopened, reopened._retriever.words())


def test_merged_parts_keep_the_removals_they_carry(tmp_path: Path, a_part_a_call: None) -> None:
    """A part that removes a document of the parts before it (a replacement) is merged
    with the parts after it: the merged part still removes it."""
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[:2])
        memory.ingest_text("A note on the oil embargo.", name="note.md")
        memory._retriever.words()  # joined: the replacement below is a part of removals
        memory.ingest_text(ARTICLES[0].read_text(encoding="utf-8")[:500], name=ARTICLES[0].name)
        memory._retriever.words()
        for n in range(2 * MERGE_FACTOR):
            memory.ingest_text(f"Note {n} on the plague.", name=f"n-{n}.md")
        assert_same_as_whole(memory, memory._retriever.words())
    with Memory(path, dense=False) as reopened:
        index = reopened._retriever.words()
        assert_same_as_whole(reopened, index)
        assert len(index.document_keys) == 3 + 2 * MERGE_FACTOR


def test_an_unreadable_part_is_rebuilt_from_the_lines(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[:2])
        memory.ingest(ARTICLES[2])
    with Memory(path, dense=False) as memory:
        with memory._store.transaction() as conn:
            conn.execute(
                "UPDATE index_cache SET payload = x'00' WHERE name > ?", (word_parts.PREFIX,)
            )
    with Memory(path, dense=False) as reopened:
        assert_same_as_whole(reopened, reopened._retriever.words())


def test_a_lost_part_is_told_and_the_store_is_asked(tmp_path: Path, a_part_a_call: None) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[:4])
        memory.ingest_text("A note on the oil embargo.", name="b.md")
        memory.ingest_text("A note on the plague in Europe.", name="c.md")
        parts = [name for name, _, _ in cached_parts(memory._store, word_parts.PREFIX)]
        assert len(parts) == 3
        with memory._store.transaction() as conn:  # as a write lost to a busy store
            conn.execute("DELETE FROM index_cache WHERE name = ?", (parts[1],))
    with Memory(path, dense=False) as reopened:
        index = reopened._retriever.words()
        assert "b.md" in index.document_names
        assert_same_as_whole(reopened, index)


def test_document_versions_are_read_once_a_generation(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest(ARTICLES[0])
        store = memory._store
        first = document_keys(store)
        assert document_keys(store) is first  # the indexes ask after one change alike
        memory.ingest_text("A note.", name="note.md")
        again = document_keys(store)
        assert again is not first and [name for _, name, _, _ in again][-1] == "note.md"


def test_a_documents_version_is_read_from_its_row_as_its_lines_tell_it(tmp_path: Path) -> None:
    """Each document's first line id and line count are kept in its row (one row read, not
    every line, at each ingest) and agree with its lines after adds and replacements, and
    after the migration fills them in for a store written before they were kept."""
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES[:2])
        memory.ingest_text("A note.\n\nA second line.", name="note.md")
        memory.ingest_text("The note, replaced.", name="note.md")
        store = memory._store
        from_lines = store.conn.execute(
            "SELECT d.id, d.name, d.language, d.content_hash, MIN(l.id), COUNT(l.id) "
            "FROM documents d LEFT JOIN lines l ON l.document_id = d.id GROUP BY d.id "
            "ORDER BY d.id"
        ).fetchall()
        kept = [
            (i, n, lang, f"{i}:{h}:{first}:{count}") for i, n, lang, h, first, count in from_lines
        ]
        assert document_keys(store) == kept
        store.conn.execute("UPDATE documents SET first_line = NULL, line_count = NULL")
        store.conn.execute("UPDATE meta SET value = '11' WHERE key = 'schema_version'")
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE documents DROP COLUMN first_line")
        conn.execute("ALTER TABLE documents DROP COLUMN line_count")
        conn.execute("DROP TABLE signature_bands")  # migration 13, made again too
        conn.execute("DROP INDEX documents_by_reading")  # migration 18
        conn.execute("ALTER TABLE documents DROP COLUMN reading_hash")  # and 14
        conn.execute("DROP INDEX documents_by_written")  # and 15
        conn.execute("ALTER TABLE documents DROP COLUMN written")
        conn.execute("ALTER TABLE documents DROP COLUMN origin")  # and 16
    with Memory(path, dense=False) as memory:
        assert document_keys(memory._store) == kept


keyed_whole = store_parts._keyed


def read_whole(memory: Memory) -> list[tuple[int, str, str, str]]:
    """Every document's version, read from every row (no generation remembered)."""
    store = memory._store
    return keyed_whole(store.conn.execute(store_parts._versions_query(store)))


def test_versions_after_a_write_are_read_from_the_documents_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After each write, the versions are those of every row, whatever the write did (add,
    replace, remove, an id used again, a write by another process), and after one that
    only added documents only those rows are read."""
    path = tmp_path / "versions.sqlite"
    texts = [a.read_text(encoding="utf-8")[:3000] for a in ARTICLES]
    read: list[int] = []
    keyed = store_parts._keyed

    def counted(rows):  # type: ignore[no-untyped-def]
        found = keyed(rows)
        read.append(len(found))
        return found

    monkeypatch.setattr(store_parts, "_keyed", counted)
    with Memory(path, dense=False) as memory:
        store = memory._store

        def check() -> None:
            read.clear()
            assert store_parts.document_keys(store) == read_whole(memory)

        for number, text in enumerate(texts[:3]):
            memory.ingest_text(text, name=f"doc-{number}.txt")
            check()
        read.clear()
        memory.ingest_text(texts[3], name="doc-3.txt")
        assert read == [1]  # the one document added, not all four
        memory.ingest_text(texts[4], name="doc-1.txt")  # replaced: a new version
        check()
        memory.remove("doc-2.txt")
        check()
        memory.remove("doc-3.txt")  # the largest id, used again by the next document
        memory.ingest_text(texts[0], name="doc-5.txt")
        check()
        with Memory(path, dense=False) as other:  # another process's write
            other.ingest_text(texts[2], name="doc-6.txt")
        check()
        memory.ingest_text(texts[2], name="doc-6.txt")  # the same text again: no write
        check()


def test_additions_are_joined_once_when_a_question_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, a_part_a_call: None
) -> None:
    """Documents added one call at a time are each cached as a part and held unjoined
    (joining moves every posting of the store); the next question joins them all in one
    pass, and the index it reads is the whole build's, in this process and reopened.
    A removal or another process's write among the additions is read as a question would."""
    path = tmp_path / "held.sqlite"
    joins: list[int] = []
    appended = word_parts._appended

    def counted(pieces):  # type: ignore[no-untyped-def]
        joins.append(len(pieces))
        return appended(pieces)

    monkeypatch.setattr(word_parts, "_appended", counted)
    with Memory(path, dense=False) as memory:
        memory.ingest(ARTICLES)  # two parts stay small beside it: no whole rewrite is due
        memory._retriever.words()
        joins.clear()
        for n in range(2):
            memory.ingest_text(f"Note {n}: the zyzzyva ate the oil embargo.", name=f"n-{n}.md")
        assert joins == []  # nothing joined at ingest
        assert len(cached_parts(memory._store, word_parts.PREFIX)) == 3
        index = memory._retriever.words()
        assert joins == [2, 2]  # the additions, then the index and them in one pass
        assert_same_as_whole(memory, index)
        memory.ingest_text("Another zyzzyva note.", name="n-5.md")
        memory.remove("n-1.md")
        memory.ingest_text("A last zyzzyva note.", name="n-6.md")
        with Memory(path, dense=False) as other:
            other.ingest_text("The other process's zyzzyva.", name="other.md")
        memory.ingest_text("After the other process.", name="n-7.md")
        assert_same_as_whole(memory, memory._retriever.words())
    with Memory(path, dense=False) as reopened:
        assert_same_as_whole(reopened, reopened._retriever.words())


def test_additions_are_joined_in_the_call_that_makes_them_a_quarter_of_the_index(
    tmp_path: Path,
) -> None:
    """Small additions wait for a question; the one that makes the additions held
    JOINED_AT_SHARE of the index is joined in its own call, so the next question joins
    less than that share."""
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest(ARTICLES[:2])
        held = memory._retriever._words
        memory.ingest_text("A note on the oil embargo.", name="note.md")
        assert len(held._added) == 1  # held, unjoined
        memory.ingest_text(ARTICLES[2].read_text(encoding="utf-8"), name=ARTICLES[2].name)
        assert held._added == [] and "note.md" in held._index.document_names
        assert_same_as_whole(memory, memory._retriever.words())


def test_a_versions_digest_grows_by_the_versions_added_alone() -> None:
    """The digest of a set of versions is the same however they are ordered, and grown by
    an addition's own versions it is the digest of the whole set: an addition hashes its
    own versions, not every one held."""
    from affidavit.store.index_parts import versions_digest

    held = [f"{n}:hash{n}:{10 * n}:10" for n in range(50)]
    added = ["50:hash50:500:3", "51:hash51:503:7"]
    whole = versions_digest(held + added)
    assert versions_digest(added, versions_digest(held)) == whole
    assert versions_digest(list(reversed(held + added))) == whole
    assert versions_digest(held + added[:1]) != whole


def test_the_version_keys_and_names_grow_with_an_addition(tmp_path: Path) -> None:
    """A write that only added documents extends the lists of keys and names the last
    generation held (the old entries are the same objects); any other write reads them
    again."""
    from affidavit.store.index_parts import document_names, version_keys

    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        memory.ingest(ARTICLES[:2])
        store = memory._store
        keys, names = version_keys(store), document_names(store)
        memory.ingest_text("A note.", name="note.md")
        grown = version_keys(store)
        assert all(a is b for a, b in zip(keys, grown[: len(keys)], strict=True))
        assert document_names(store) == [*names, "note.md"]
        memory.remove(names[0])
        assert version_keys(store) == [key for *_, key in read_whole(memory)]
        assert document_names(store) == [names[1], "note.md"]


def test_a_rows_column_names_are_searched_each_word_once(tmp_path: Path) -> None:
    """A table row is found by its columns' names, but a wide table's names, repeated over
    its groups, do not make the row long: each word once."""
    table = tmp_path / "checks.csv"
    table.write_text(
        "State,Handgun,Long Gun,Pre-Pawn Handgun,Pre-Pawn Long Gun\n"
        "Kentucky,12155,14847,9,11\nOhio,7,8,9,10\n",
        encoding="utf-8",
    )
    memory = Memory(tmp_path / "store", dense=False)
    memory.ingest(table)
    searched = {text.split(" ")[0]: text for *_, text in searchable_lines(memory._store)}
    words = searched["Kentucky,12155,14847,9,11"].split(" ")[1:]
    assert sorted(words) == sorted(["State", "Handgun", "Long", "Gun", "Pre-Pawn"])
    assert "Kentucky" in memory.search("Kentucky handgun", k=1)[0].text
    memory.close()
