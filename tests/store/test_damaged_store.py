"""A damaged store is a StoreError with the recovery step, a damaged cache is rebuilt from
the lines, and a store file this process may not write is still searched and asked."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import affidavit.store.sqlite as store_module
from affidavit import Memory, StoreError

FACT = "The bridge opened in 1932 after six years of work."


def made(path: Path) -> Path:
    memory = Memory(path, dense=False)
    memory.ingest_text(FACT, name="bridge.md")
    memory.search("bridge")  # leaves the word index cached in the store
    memory.close()
    return path


def damage(path: Path, statement: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("statement", "said"),
    [
        ("UPDATE meta SET value = 'x' WHERE key = 'schema_version'", "schema version"),
        ("DROP TABLE lines", "missing tables lines"),
    ],
)
def test_a_damaged_store_is_a_store_error_with_the_recovery_step(
    tmp_path: Path, statement: str, said: str
) -> None:
    path = made(tmp_path / "s.sqlite")
    damage(path, statement)
    with pytest.raises(StoreError) as raised:
        Memory(path, dense=False)
    assert said in str(raised.value) and ".recover" in str(raised.value)


def test_a_damaged_cache_is_rebuilt_from_the_lines(tmp_path: Path) -> None:
    path = made(tmp_path / "s.sqlite")
    damage(path, "UPDATE index_cache SET payload = randomblob(100)")
    memory = Memory(path, dense=False)
    assert [hit.text for hit in memory.search("bridge", k=1)] == [FACT]
    memory.close()
    conn = sqlite3.connect(path)
    payloads = [bytes(row[0]) for row in conn.execute("SELECT payload FROM index_cache")]
    conn.close()
    assert payloads and all(len(p) > 100 for p in payloads)  # the garbage was replaced


def test_a_store_this_process_may_not_write_is_searched_and_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = made(tmp_path / "s.sqlite")
    # As root every file is writable, so the check is made to say what a reader sees.
    monkeypatch.setattr(store_module.os, "access", lambda *_: False)
    memory = Memory(path, dense=False)
    assert [hit.text for hit in memory.search("bridge", k=1)] == [FACT]
    assert memory.ask("When did the bridge open?").text == "1932"
    with pytest.raises(StoreError, match="read-only"):
        memory.ingest_text("The ferry stopped in 1933.", name="ferry.md")
    memory.close()
    assert os.path.exists(path)


def test_text_that_is_not_text_is_an_input_error_naming_it(tmp_path: Path) -> None:
    from affidavit import InputError

    memory = Memory(dense=False)
    memory.ingest_text(FACT, name="bridge.md")
    for call, what in (
        (lambda: memory.ask("When did the \udcff bridge open?"), "the question"),
        (lambda: memory.verify("The \udcff bridge opened."), "the text to verify"),
        (lambda: memory.search("bridge \ud800"), "the query"),
        (lambda: memory.ingest_text("A \udcff line.", name="x.md"), "the text of x.md"),
    ):
        with pytest.raises(InputError, match=what):
            call()
    assert memory.documents() == ["bridge.md"]


def test_the_cli_prints_one_line_never_a_traceback(tmp_path: Path, capsys) -> None:
    from affidavit.cli.main import main

    store = made(tmp_path / "s.sqlite")
    assert main(["verify", "The \udcff bridge opened.", "--store", str(store), "--json"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("affidavit: error: the text to verify") and "Traceback" not in err
