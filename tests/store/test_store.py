"""Behaviour of the SQLite store behind Memory: the file it makes, reopening it, replacing
documents in one transaction, and every way a file can be unusable."""

from __future__ import annotations

import shutil
import sqlite3
import warnings
from pathlib import Path

import pytest
from conftest import ARTICLES, QUESTIONS, SQUAD_DIR, stored_lines

from affidavit import Memory, StoreError
from affidavit.index.copies import copied_among
from affidavit.index.words.word_index import WordIndex
from affidavit.store.prepared import PreparedDocument, PreparedLine
from affidavit.store.schema import MIGRATIONS, READABLE_FROM, SCHEMA_VERSION
from affidavit.store.sqlite import Store

NORMANS = SQUAD_DIR / "Normans.txt"
# Questions asked of the reopened store: a spread of every article and question word.
REOPEN_QUESTIONS = [q["question"] for q in QUESTIONS[::37]]


def pragma(path: Path, name: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def meta(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT key, value FROM meta"))
    finally:
        conn.close()


def document_line_count(path: Path, name: str) -> int:
    return sum(1 for doc, *_ in stored_lines(path) if doc == name)


# -- the file --


def test_store_file_is_created_in_wal_mode_with_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with Memory(path) as memory:
        assert memory.path == str(path)
    assert path.is_file()
    assert pragma(path, "journal_mode") == "wal"
    assert meta(path)["schema_version"] == str(SCHEMA_VERSION)


def test_memory_without_path_stays_in_memory(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with Memory() as memory:
        memory.ingest_text("Kestrels hover over the motorway verge.", name="birds")
        assert memory.path is None
        assert memory.stats()["path"] is None
        assert [e.text for e in memory.search("kestrels")] == [
            "Kestrels hover over the motorway verge."
        ]
    assert list(tmp_path.iterdir()) == []


def test_context_manager_closes_the_store(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest_text("Kestrels hover.", name="birds")
    with pytest.raises(StoreError, match="closed"):
        memory.search("kestrels")


def test_closing_twice_is_safe(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "s.sqlite")
    memory.close()
    memory.close()
    in_memory = Memory()
    in_memory.close()
    in_memory.close()


def test_missing_folder_is_a_store_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "s.sqlite"
    with pytest.raises(StoreError) as caught:
        Memory(path)
    assert caught.value.path == str(path)
    assert not path.parent.exists()


@pytest.mark.parametrize(
    "content",
    [
        NORMANS.read_bytes()[:4096],  # a text file
        (SQUAD_DIR.parent / "pdf_text_dumps" / "senate-expenditures.pdf").read_bytes()[:4096],
        b"SQLite format 3\x00" + b"\xff" * 200,  # a header and nothing sane behind it
    ],
    ids=["text", "pdf", "truncated-sqlite"],
)
def test_a_file_that_is_not_sqlite_is_a_store_error_and_left_untouched(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "not-a-store.sqlite"
    path.write_bytes(content)
    with pytest.raises(StoreError) as caught:
        Memory(path)
    assert caught.value.path == str(path)
    assert "not a usable affidavit store" in str(caught.value)
    assert path.read_bytes() == content


def test_a_store_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    with Memory(path) as memory:
        memory.ingest_text("Kestrels hover.", name="birds")
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),)
        )
    conn.close()
    with pytest.raises(StoreError, match="newer") as caught:
        Memory(path)
    assert caught.value.path == str(path)
    # Refusing it did not migrate it back down or touch it.
    assert meta(path)["schema_version"] == str(SCHEMA_VERSION + 1)


def test_a_store_from_an_older_version_is_migrated_and_keeps_its_documents(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest_text("Kestrels hover over the motorway verge.", name="birds")
    conn = sqlite3.connect(path)  # undo migrations 2 to 18: the file as version 1 wrote it
    conn.execute("DROP TABLE record_links")
    conn.execute("DROP TABLE records")
    conn.execute("DROP TABLE labels")
    conn.execute("DROP TABLE distilled")
    conn.execute("DROP TABLE signature_bands")
    conn.execute("DROP TABLE signatures")
    conn.execute("DROP TABLE canaries")
    conn.execute("DROP TABLE health")
    conn.execute("DROP TABLE engine_replies")
    conn.execute("DROP INDEX headings_by_document")
    conn.execute("ALTER TABLE lines DROP COLUMN confidence")
    conn.execute("ALTER TABLE documents DROP COLUMN first_line")
    conn.execute("ALTER TABLE documents DROP COLUMN line_count")
    conn.execute("DROP INDEX documents_by_reading")
    conn.execute("ALTER TABLE documents DROP COLUMN reading_hash")
    conn.execute("DROP INDEX documents_by_written")
    conn.execute("ALTER TABLE documents DROP COLUMN written")
    conn.execute("ALTER TABLE documents DROP COLUMN origin")
    conn.execute("DROP TABLE line_frames")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Memory(path, dense=False) as memory:
        assert memory.stats()["schema_version"] == SCHEMA_VERSION
        assert memory.stats()["engine_replies"] == 0
        assert memory.search("kestrels")[0].document == "birds"


def test_a_store_of_version_17_gains_the_reading_hash_index_and_finds_copies_by_it(
    tmp_path: Path,
) -> None:
    """Migration 18 adds the index of documents by reading hash to a store of version 17;
    the first document with a hash is then looked up, not found by reading every row."""
    path = tmp_path / "v17.sqlite"
    text = "Kestrels hover over the motorway verge."
    with Memory(path, dense=False) as memory:
        memory.ingest_text(text, name="birds")
        for n in range(30):
            memory.ingest_text(f"Note {n} on the verge.", name=f"note-{n}")
    conn = sqlite3.connect(path)  # the file as version 17 wrote it
    conn.execute("DROP INDEX documents_by_reading")
    conn.execute("UPDATE meta SET value = '17' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the copy's "a version or a copy?"
        with Memory(path, dense=False) as memory:
            assert memory.stats()["schema_version"] == SCHEMA_VERSION == 18
            memory.ingest_text(text, name="birds again")
            store = memory._store
            ids = {name: number for number, name, _ in store.documents()}
            assert copied_among(store, [ids["birds again"]]) == {ids["birds again"]}
            plan = store.conn.execute(
                "EXPLAIN QUERY PLAN SELECT reading_hash, MIN(id) FROM documents "
                "WHERE reading_hash IN (?) GROUP BY reading_hash",
                ("x",),
            ).fetchall()
            assert any("documents_by_reading" in str(row) for row in plan)


def test_a_documents_headings_are_found_through_their_own_index(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(NORMANS)
        memory.ingest_text("# Birds\n\nKestrels hover.\n\n## Verges\n\nOver the road.", name="b")
    store = Store(path, read_only=True)
    try:
        ids = {name: document_id for document_id, name, _ in store.documents()}
        starts = store.heading_positions([ids["b"], ids["Normans.txt"]])
        kinds = {
            (d, p): k
            for d, p, k in store.conn.execute("SELECT document_id, position, kind FROM lines")
        }
        for document_id, positions in starts.items():
            every = sorted(p for (d, p), k in kinds.items() if d == document_id and k == "heading")
            assert positions == every
        assert len(starts[ids["b"]]) == 2
        # Through the index, a document's headings cost what they are, not what the
        # document is: SQLite's steps are counted (a handler call every 10 of them; a walk
        # of the document's lines takes about 5 a line).
        steps: list[int] = []
        store.conn.set_progress_handler(lambda: steps.append(1), 10)
        found = store.heading_positions([ids["Normans.txt"]])
        store.conn.set_progress_handler(None, 10)
        lines = sum(1 for d, _ in kinds if d == ids["Normans.txt"])
        assert lines > 100 and len(found[ids["Normans.txt"]]) < 5
        assert len(steps) < lines / 20
    finally:
        store.close()


def test_a_read_only_process_reads_a_store_that_lacks_only_newer_indexes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(NORMANS)
    conn = sqlite3.connect(path)  # the file as version 2 wrote it: no heading index, no OCR
    conn.execute("DROP TABLE record_links")  # and no records
    conn.execute("DROP TABLE records")
    conn.execute("DROP TABLE labels")
    conn.execute("DROP TABLE distilled")
    conn.execute("DROP TABLE signature_bands")
    conn.execute("DROP TABLE signatures")
    conn.execute("DROP TABLE canaries")
    conn.execute("DROP TABLE health")
    conn.execute("DROP INDEX headings_by_document")
    conn.execute("ALTER TABLE lines DROP COLUMN confidence")
    conn.execute("ALTER TABLE documents DROP COLUMN first_line")  # and no line ids kept
    conn.execute("ALTER TABLE documents DROP COLUMN line_count")
    conn.execute("DROP INDEX documents_by_reading")
    conn.execute("ALTER TABLE documents DROP COLUMN reading_hash")
    conn.execute("DROP INDEX documents_by_written")
    conn.execute("ALTER TABLE documents DROP COLUMN written")
    conn.execute("ALTER TABLE documents DROP COLUMN origin")
    conn.execute("DROP TABLE line_frames")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Memory(path, dense=False, read_only=True) as memory:
        hits = memory.search("Who was the duke in the battle of Hastings?")
        assert hits and hits[0].document == "Normans.txt"
        answer = memory.ask("In what year did Duke William conquer England?")
        assert answer.text == "1066" and answer.citations[0].document == "Normans.txt"
        assert memory.records(include_history=True) == []  # no records table: none told
    assert meta(path)["schema_version"] == "2"  # read, not written
    with Memory(path, dense=False) as memory:  # a writer brings it up to date
        assert memory.stats()["schema_version"] == SCHEMA_VERSION


def test_only_indexes_may_be_missing_from_a_store_read_only(tmp_path: Path) -> None:
    # What a read-only process cannot add must be there: every migration it may skip adds
    # an index, the OCR confidence column it reads as NULL when missing, a document's
    # first line and line count (read from its lines instead), its reading hash (none:
    # no document is taken for another's copy), where it was read from (only an ingest
    # reads it), or the records and labels tables (and the
    # day a record ended, its kind, the ledger of documents distilled) it reads as holding
    # none, and a store older than that is refused with the reason.
    records_tables = (
        "CREATE TABLE records (",
        "CREATE TABLE record_links (",
        "CREATE TABLE labels (",
        "ALTER TABLE records ADD COLUMN ended_at",
        "ALTER TABLE records ADD COLUMN kind",
        "CREATE TABLE distilled (",
        "CREATE TABLE signatures (",
        "CREATE TABLE signature_bands (",
        "WITH RECURSIVE bands",
        "CREATE TABLE canaries (",
        "CREATE TABLE health (",
        "CREATE TABLE IF NOT EXISTS line_frames (",  # no frames kept: each read again
    )
    read_otherwise = (
        "ALTER TABLE lines ADD COLUMN confidence REAL",
        *MIGRATIONS[11],  # each document's first line and count: the lines tell them
        *MIGRATIONS[13],  # each document's reading hash: none kept, no document a copy
        *MIGRATIONS[14],  # the generation each was written at: every document read
        *MIGRATIONS[15],  # where each was read from: only an ingest, which migrates, reads it
    )
    for migration in MIGRATIONS[READABLE_FROM:]:
        for statement in migration:
            said = statement.lstrip()
            skippable = said.upper().startswith("CREATE INDEX") or said.startswith(records_tables)
            # Columns read as NULL when missing, or read from the lines table instead.
            assert skippable or statement in read_otherwise, statement
    path = tmp_path / "v1.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(NORMANS)
    conn = sqlite3.connect(path)  # the file as version 1 wrote it
    conn.execute("DROP TABLE record_links")
    conn.execute("DROP TABLE records")
    conn.execute("DROP TABLE labels")
    conn.execute("DROP TABLE distilled")
    conn.execute("DROP TABLE signature_bands")
    conn.execute("DROP TABLE signatures")
    conn.execute("DROP TABLE canaries")
    conn.execute("DROP TABLE health")
    conn.execute("DROP TABLE engine_replies")
    conn.execute("DROP INDEX headings_by_document")
    conn.execute("ALTER TABLE lines DROP COLUMN confidence")
    conn.execute("ALTER TABLE documents DROP COLUMN first_line")
    conn.execute("ALTER TABLE documents DROP COLUMN line_count")
    conn.execute("DROP INDEX documents_by_reading")
    conn.execute("ALTER TABLE documents DROP COLUMN reading_hash")
    conn.execute("DROP INDEX documents_by_written")
    conn.execute("ALTER TABLE documents DROP COLUMN written")
    conn.execute("ALTER TABLE documents DROP COLUMN origin")
    conn.execute("DROP TABLE line_frames")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="needs upgrading"):
        Memory(path, dense=False, read_only=True)


def test_a_foreign_sqlite_database_is_refused_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users (name) VALUES ('ann')")
    conn.close()
    with pytest.raises(StoreError):
        Memory(path)
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    assert tables == {"users"}


def test_an_empty_file_becomes_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    with Memory(path) as memory:
        assert memory.stats()["schema_version"] == SCHEMA_VERSION
        assert memory.stats()["lines"] == 0


# -- reopening --


@pytest.mark.parametrize("question", REOPEN_QUESTIONS)
def test_reopened_store_gives_identical_search_and_answers(
    squad, squad_store: Path, question: str
) -> None:
    with Memory(squad_store) as reopened:
        assert [e.to_dict() for e in reopened.search(question, k=20)] == [
            e.to_dict() for e in squad.search(question, k=20)
        ]
        assert reopened.ask(question).to_dict() == squad.ask(question).to_dict()


def test_reopened_store_reads_the_cached_index_instead_of_rebuilding(
    squad_store: Path, monkeypatch
) -> None:
    def no_rebuild(*args, **kwargs):
        raise AssertionError("the word index was rebuilt from the lines")

    monkeypatch.setattr(WordIndex, "build", no_rebuild)
    with Memory(squad_store) as reopened:
        hits = reopened.search("Black Death", k=3)
    assert hits and all(h.document == "Black_Death.txt" for h in hits)


def test_a_fresh_index_and_a_cached_one_score_alike(squad_store: Path) -> None:
    with Memory(squad_store) as memory:
        cached = memory.search("oil embargo prices", k=30)
    copy = squad_store.parent / "copy.sqlite"
    shutil.copy(squad_store, copy)
    conn = sqlite3.connect(copy)
    with conn:
        conn.execute("DELETE FROM index_cache")
    conn.close()
    with Memory(copy) as memory:
        rebuilt = memory.search("oil embargo prices", k=30)
    assert [e.to_dict() for e in rebuilt] == [e.to_dict() for e in cached]


def test_reopening_does_not_reingest_unchanged_documents(squad_store: Path) -> None:
    with Memory(squad_store) as memory:
        before = memory.stats()
        names = memory.ingest(ARTICLES[0])
        assert names == [ARTICLES[0].name]
        assert memory.stats() == before


def test_a_second_memory_on_the_same_file_sees_new_writes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    with Memory(path) as writer, Memory(path) as reader:
        writer.ingest_text("Kestrels hover over the verge.", name="birds")
        assert [e.document for e in reader.search("kestrels")] == ["birds"]
        writer.ingest_text("Kestrels nest in church towers.", name="more birds")
        assert {e.document for e in reader.search("kestrels")} == {"birds", "more birds"}


# -- writes --


def test_reingesting_an_unchanged_document_is_a_no_op(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest(NORMANS)
        memory.ingest_text("Kestrels hover.", name="birds")
        before = memory.stats()
        assert before["generation"] == 2
        memory.ingest(NORMANS)
        memory.ingest_text("Kestrels hover.", name="birds")
        assert memory.stats() == before


def test_a_changed_document_replaces_its_old_lines_in_one_write(tmp_path: Path) -> None:
    document = tmp_path / "Normans.txt"
    paragraphs = NORMANS.read_text(encoding="utf-8").split("\n\n")
    document.write_text("\n\n".join(paragraphs), encoding="utf-8")
    store = tmp_path / "s.sqlite"
    with Memory(store) as memory:
        memory.ingest(document)
        memory.ingest_text("Kestrels hover.", name="birds")
        old_first = memory.search("Nourmands Normands Normanni", k=1)[0].text
        generation = memory.stats()["generation"]

        # Drop the opening paragraph and add one sentence with a word no other line has.
        changed = paragraphs[1:] + ["The Normans kept a zephyrine ledger of their ships."]
        document.write_text("\n\n".join(changed), encoding="utf-8")
        memory.ingest(document)

        assert memory.stats()["generation"] == generation + 1
        assert memory.documents() == ["birds", "Normans.txt"]
        assert all(e.text != old_first for e in memory.search("Nourmands Normands Normanni"))
        assert [e.text for e in memory.search("zephyrine", k=1)] == [
            "The Normans kept a zephyrine ledger of their ships."
        ]
    with Memory() as fresh:
        fresh.ingest(document)
        new_count = fresh.stats()["lines"]
    assert document_line_count(store, "Normans.txt") == new_count
    assert document_line_count(store, "birds") == 1
    conn = sqlite3.connect(store)
    orphans = conn.execute(
        "SELECT COUNT(*) FROM windows WHERE document_id NOT IN (SELECT id FROM documents)"
    ).fetchone()[0]
    conn.close()
    assert orphans == 0


def test_a_failure_mid_write_leaves_the_store_as_it_was(tmp_path: Path, monkeypatch) -> None:
    document = tmp_path / "Normans.txt"
    shutil.copy(NORMANS, document)
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest(document)
        before = memory.stats()
        first = memory.search("Normandy Rollo", k=5)

        def fail(self, conn):
            raise RuntimeError("disk pulled out mid-write")

        # The generation bump is the last statement of the write: everything before it
        # (delete the old version, insert lines and windows) has run when it fails.
        monkeypatch.setattr(Store, "changed", fail)
        document.write_text("A different text about Normandy entirely.", encoding="utf-8")
        with pytest.raises(RuntimeError, match="mid-write"):
            memory.ingest(document)
        with pytest.raises(RuntimeError, match="mid-write"):
            memory.ingest_text("Kestrels hover.", name="birds")
        monkeypatch.undo()

        assert memory.stats() == before
        assert memory.documents() == ["Normans.txt"]
        assert memory.search("Normandy Rollo", k=5) == first


def test_a_row_that_breaks_a_constraint_rolls_back_the_whole_write(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    good = PreparedDocument("a", "hash-a", "en", (PreparedLine(0, "sentence", "Kestrels hover."),))
    store.write_documents([good])
    before = store.stats()
    clash = PreparedDocument(
        "b",
        "hash-b",
        "en",
        (PreparedLine(0, "sentence", "One."), PreparedLine(0, "sentence", "Same position.")),
    )
    replacement = PreparedDocument("a", "hash-a2", "en", (PreparedLine(0, "sentence", "New."),))
    with pytest.raises(sqlite3.IntegrityError):
        store.write_documents([replacement, clash])
    assert store.stats() == before
    assert store.document_hash("a") == "hash-a"
    assert [r[4] for r in store.line_rows()] == ["Kestrels hover."]
    store.close()


def test_every_write_bumps_the_generation_by_one(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.sqlite") as memory:
        assert memory.stats()["generation"] == 0
        memory.ingest(SQUAD_DIR)  # one folder, one write
        assert memory.stats()["generation"] == 1
        memory.ingest_text("Kestrels hover.", name="birds")
        assert memory.stats()["generation"] == 2
