"""Behaviour of the `affidavit` command, run in-process: ingest, search and ask with JSON out,
and every failure as one line on stderr naming the file, with the store left as it was."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import ARTICLES, DEMO_DIR

from affidavit import Memory
from affidavit.cli.demo import DEMO_DIALOGUE, DEMO_QUESTIONS
from affidavit.cli.main import main


def line_count(store: Path) -> int:
    conn = sqlite3.connect(store)
    try:
        return conn.execute("SELECT COUNT(*) FROM lines").fetchone()[0]
    finally:
        conn.close()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def store(tmp_path: Path, capsys) -> Path:
    path = tmp_path / "memory.sqlite"
    code, _, _ = run(capsys, "ingest", str(ARTICLES[0]), str(ARTICLES[1]), "--store", str(path))
    assert code == 0
    return path


def test_ingest_then_search_then_ask_as_json(tmp_path: Path, capsys) -> None:
    path = tmp_path / "memory.sqlite"
    code, out, err = run(
        capsys, "ingest", str(ARTICLES[0]), str(ARTICLES[1]), "--store", str(path), "--quiet"
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"2 document(s) in {path}: 2 documents, ")
    assert out.strip().endswith(f"lines (+{line_count(path)})")

    code, out, err = run(capsys, "search", "Battle of Hastings", "--store", str(path), "--json")
    assert (code, err) == (0, "")
    hits = json.loads(out)
    assert 0 < len(hits) <= 10
    assert {"document", "position", "text", "kind", "score", "cells"} <= set(hits[0])
    assert all(h["document"] in {"Normans.txt", "Black_Death.txt"} for h in hits)

    code, out, err = run(
        capsys, "ask", "When was the Battle of Hastings?", "--store", str(path), "--json"
    )
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["refused"] is False
    assert answer["text"] == "1066"
    assert answer["text"] in answer["citations"][0]["text"]
    assert answer["audit"]["evidence_block"][0].startswith("[Normans.txt #")


def test_search_k_limits_the_lines(store: Path, capsys) -> None:
    code, out, _ = run(capsys, "search", "plague", "--store", str(store), "-k", "3", "--json")
    assert code == 0 and len(json.loads(out)) == 3


def test_search_documents_finds_the_document_in_another_language(store: Path, capsys) -> None:
    # "How many people did the plague kill in Europe?" in Spanish.
    question = "¿Cuántas personas mató la peste en Europa?"
    code, out, _ = run(capsys, "search", question, "--documents", "--store", str(store), "--json")
    ranked = json.loads(out)
    assert code == 0 and ranked[0]["document"] == "Black_Death.txt"
    assert {"document", "score", "words_rank", "meaning_rank"} <= set(ranked[0])
    code, out, _ = run(capsys, "search", question, "--documents", "--store", str(store))
    assert out.splitlines()[0].endswith("Black_Death.txt")


def test_plain_output_is_readable(store: Path, capsys) -> None:
    code, out, _ = run(capsys, "search", "plague", "--store", str(store), "-k", "2")
    assert code == 0
    assert out.splitlines()[0].startswith("  1. ")
    assert "[Black_Death.txt #" in out
    code, out, _ = run(capsys, "search", "zyxwv", "--store", str(store))
    assert (code, out) == (0, "no line matches\n")
    code, out, _ = run(capsys, "ask", "Who was Robert's son?", "--store", str(store))
    assert code == 0
    # The store holds several articles: the answer names the one it is drawn from.
    said = "Q: Who was Robert's son?\nA: In Normans.txt: Bohemond\n   cited [Normans.txt #"
    assert out.startswith(said)
    assert "census:" in out


def test_a_refusal_says_why(store: Path, capsys) -> None:
    code, out, _ = run(capsys, "ask", "Zyxwv qwertyuiop?", "--store", str(store), "--json")
    assert code == 0
    assert json.loads(out)["reason"] == "no_evidence"
    code, out, _ = run(capsys, "ask", "Zyxwv qwertyuiop?", "--store", str(store))
    assert "REFUSED (no_evidence)" in out


@pytest.mark.parametrize("command", ["ask", "search"])
def test_a_missing_store_is_one_line_naming_the_file(tmp_path: Path, capsys, command: str) -> None:
    path = tmp_path / "nowhere.sqlite"
    code, out, err = run(capsys, command, "anything?", "--store", str(path))
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert str(path) in err
    assert not path.exists()


def test_a_file_that_is_not_a_store_is_one_line_naming_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "notes.sqlite"
    shutil.copy(ARTICLES[0], path)
    code, _, err = run(capsys, "ask", "Who?", "--store", str(path))
    assert code == 1
    assert err.count("\n") == 1 and str(path) in err


@pytest.mark.parametrize("content", [b"", b"\x00\xff\x10\x80" * 1024], ids=["empty", "binary"])
def test_ingesting_a_bad_file_fails_naming_it_and_keeps_the_store(
    store: Path, tmp_path: Path, capsys, content: bytes
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    before = line_count(store)
    code, out, err = run(capsys, "ingest", str(bad), "--store", str(store))
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and str(bad) in err
    assert line_count(store) == before


def test_ingesting_a_missing_path_fails_before_touching_the_store(tmp_path: Path, capsys) -> None:
    store = tmp_path / "memory.sqlite"
    missing = tmp_path / "missing.txt"
    code, _, err = run(capsys, "ingest", str(ARTICLES[0]), str(missing), "--store", str(store))
    assert code == 1
    assert str(missing) in err and err.count("\n") == 1
    assert not store.exists()


def test_one_bad_path_among_several_leaves_the_store_unchanged(
    store: Path, tmp_path: Path, capsys
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"")
    before = line_count(store)
    code, _, err = run(capsys, "ingest", str(ARTICLES[2]), str(bad), "--store", str(store))
    assert code == 1 and str(bad) in err
    assert line_count(store) == before


def test_reingesting_reports_no_new_lines(store: Path, capsys) -> None:
    code, out, _ = run(capsys, "ingest", str(ARTICLES[0]), "--store", str(store))
    assert code == 0
    assert out.strip().endswith("(+0)")


def test_ingest_into_a_missing_folder_is_one_line(tmp_path: Path, capsys) -> None:
    store = tmp_path / "no" / "memory.sqlite"
    code, _, err = run(capsys, "ingest", str(ARTICLES[0]), "--store", str(store))
    assert code == 1
    assert err.count("\n") == 1 and str(store) in err


def test_the_demo_answers_and_refuses(capsys, tmp_path: Path) -> None:
    code, out, err = run(capsys, "demo", "--corpus", str(DEMO_DIR), "--out", str(tmp_path))
    assert code == 0
    assert out.startswith("Ingested 6 documents")
    assert out.count("Q: ") == len(DEMO_QUESTIONS) + len(DEMO_DIALOGUE)
    assert out.count("\nA: ") >= 7  # every sample question but one is answered, cited
    # A computed answer shows its plan, step by step, and cites the row it computed from.
    # Of six documents, the one an answer is drawn from is named first.
    assert ": The change is -22.22% (from Other" in out
    assert "\nA: In " in out
    assert "3. answer = percent_change(from='v2018', to='v2019') -> -22.22" in out
    assert "   cited [" in out
    assert "Q: Who was the first president of the Galactic Senate?\nREFUSED (" in out
    # The conversation: when (read from the turn's "yesterday"), how long ago, who.
    assert "A: The date is 7 May 2023 (read from 'yesterday', 8 May 2023)." in out
    assert "A: The time between is 34 days" in out
    assert "Q: Who started learning Spanish?\nA: Leo\n" in out
    # Last, the same questions as a batch into a file, and the reviewer's report of it.
    asked = [*DEMO_QUESTIONS, *DEMO_DIALOGUE]
    assert f"Batch: {len(asked)} questions answered into {tmp_path / 'answers.jsonl'}" in out
    assert f"Audit report: {(tmp_path / 'report.html').resolve()}" in out
    rows = [json.loads(line) for line in (tmp_path / "answers.jsonl").read_text().splitlines()]
    assert [row["question"] for row in rows] == asked


@pytest.mark.parametrize("command", ["ingest", "search", "ask", "demo", "batch", "report"])
def test_every_command_shows_an_example_in_its_help(capsys, command: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    assert "Example: affidavit " + command in capsys.readouterr().out


def test_a_command_is_required(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main([])
    assert exited.value.code == 2


def test_entities_lists_names_and_neighbours_with_witnesses(store: Path, capsys) -> None:
    code, out, _ = run(capsys, "entities", "--store", str(store), "--top", "5", "--json")
    listed = json.loads(out)
    assert code == 0 and len(listed) == 5 and {"name", "count"} <= set(listed[0])
    code, out, _ = run(capsys, "entities", "--store", str(store), "--neighbours", "Rollo")
    assert code == 0 and "e.g. [Normans.txt #" in out
    code, _, err = run(capsys, "entities", "--store", str(store), "--neighbours", "Zyxwv")
    assert code != 0 and "no entity named 'Zyxwv'" in err


def test_ingest_on_a_terminal_shows_a_bar_for_the_files_and_one_per_index_stage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["ingest", *map(str, ARTICLES[:2]), "--store", str(tmp_path / "s.sqlite")]) == 0
    shown = capsys.readouterr().err
    assert "file" in shown  # the files' bar
    for stage in ("word index", "meaning vectors", "entity graph"):
        assert stage in shown
    assert "index: word" not in shown  # the stage's name, not the ingest's label for it


def test_the_demo_corpus_ingests_whole_from_the_cli(tmp_path: Path, capsys) -> None:
    """Every file of corpora/demo is a real file inside it (a link out of the folder is
    skipped by a folder ingest), so the documented `affidavit ingest corpora/demo` stores
    all of them."""
    files = sorted(p.name for p in DEMO_DIR.iterdir() if p.is_file() and not p.is_symlink())
    assert len(files) == len(list(DEMO_DIR.iterdir())) == 6
    store = tmp_path / "demo.sqlite"
    code, _, err = run(capsys, "ingest", str(DEMO_DIR), "--store", str(store), "--quiet")
    assert code == 0 and "skipped" not in err
    with Memory(store, read_only=True) as memory:
        assert sorted(memory.documents()) == [f"demo/{name}" for name in files]
