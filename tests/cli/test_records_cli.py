"""The records commands: tell, records (with --history and --json), forget and remove,
each a thin shell over Memory, each failure one line naming the input."""

from __future__ import annotations

import json
from pathlib import Path

from affidavit.cli.main import main

CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tell_supersede_forget_and_history(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    assert run(capsys, "tell", "Maya", "lives in", "Lisbon", "--store", store)[0] == 0
    code, out, _ = run(capsys, "tell", "Maya", "lives in", "Porto", "--store", store, "--json")
    porto = json.loads(out)
    assert code == 0 and porto["value"] == "Porto" and porto["supersedes"] == [1]
    code, out, _ = run(capsys, "records", "Maya", "--history", "--store", store)
    assert out.splitlines()[0].startswith("#1 Maya | lives in | Lisbon [superseded]")
    assert "(superseded by #2)" in out
    assert run(capsys, "forget", str(porto["id"]), "--store", store)[0] == 0
    assert run(capsys, "records", "--store", store)[1] == "no record\n"
    code, _, err = run(capsys, "forget", "99", "--store", store)
    assert code == 1 and err.count("\n") == 1 and "no record 99" in err


def test_remove_takes_a_document_out(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    licences = CORPORA / "licences"
    cc0, bsd = str(licences / "cc0-1.0.txt"), str(licences / "idna-bsd-3-clause.md")
    assert run(capsys, "ingest", cc0, bsd, "--store", store, "--quiet")[0] == 0
    code, out, _ = run(capsys, "remove", "cc0-1.0.txt", "--store", store)
    assert code == 0 and out.startswith("removed cc0-1.0.txt: ")
    code, _, err = run(capsys, "remove", "cc0-1.0.txt", "--store", store)
    assert code == 1 and "no document 'cc0-1.0.txt'" in err


def test_profile_shows_facts_history_and_neighbours(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    normans = str(CORPORA / "squad2_articles" / "Normans.txt")
    assert run(capsys, "ingest", normans, "--store", store, "--quiet")[0] == 0
    run(capsys, "tell", "Rollo", "died in", "928", "--store", store)
    run(capsys, "tell", "Rollo", "died in", "932", "--store", store)
    code, out, _ = run(capsys, "profile", "Rollo", "--top", "2", "--store", store)
    assert code == 0 and out.startswith("Rollo\nfacts:\n  #2 Rollo | died in | 932")
    assert "history:\n  #1 Rollo | died in | 928 [superseded]" in out
    assert "mentioned with:" in out


def test_labels_lists_a_words_concepts_and_takes_the_operators(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    cc0 = str(CORPORA / "licences" / "cc0-1.0.txt")
    assert run(capsys, "ingest", cc0, "--store", store, "--quiet")[0] == 0
    code, out, _ = run(capsys, "labels", "ciudad", "--store", store)
    assert code == 0 and out.startswith("ciudad (es) = city (en) — concept ")
    assert "bundled model, cosine 0.94" in out
    code, out, _ = run(
        capsys, "labels", "obra", "--means", "work", "--language", "es", "--store", store
    )
    assert code == 0 and "obra (es) = work (en)" in out and "operator" in out
    code, out, _ = run(capsys, "labels", "obra", "--store", store, "--json")
    assert json.loads(out)[0]["source"] == "operator"
    code, _, err = run(capsys, "labels", "obra", "--means", "work", "--store", store)
    assert code == 1 and "--language" in err


def test_end_says_until_when_and_the_record_leaves_what_holds(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    assert run(capsys, "tell", "Maya", "subscribes to", "Wired", "--store", store)[0] == 0
    code, out, _ = run(capsys, "end", "1", "--at", "2024-05-01", "--store", store)
    assert code == 0 and "[ended]" in out and "until 2024-05-01" in out
    assert run(capsys, "records", "--store", store)[1] == "no record\n"
    code, _, err = run(capsys, "end", "1", "--at", "May", "--store", store)
    assert code == 1 and "not an ISO date" in err


def test_ask_in_spanish_shows_the_english_it_was_asked_as(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    article = str(CORPORA / "squad2_articles" / "Jacksonville,_Florida.txt")
    assert run(capsys, "ingest", article, "--store", store, "--quiet")[0] == 0
    question = "¿Cuál fue la población de la ciudad de Jacksonville en 2010?"
    code, out, _ = run(capsys, "ask", question, "--store", store)
    lines = out.splitlines()
    assert code == 0 and lines[1].startswith("   read as: What was ")
    assert lines[2] == "A: El valor es 1,345,596."


def test_distil_writes_a_sessions_events_and_says_what_it_ended(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    chat = str(CORPORA / "dialogue" / "ana-and-sam.jsonl")
    assert run(capsys, "ingest", chat, "--dialogue", "chat", "--store", store, "--quiet")[0] == 0
    code, out, _ = run(capsys, "distil", "chat/session-1", "--store", store)
    assert code == 0 and "#1 Ana | live in | Lisbon [place]" in out
    code, out, _ = run(capsys, "distil", "chat/session-2", "--store", store, "--json")
    ended = json.loads(out)[0]["ended"]
    assert code == 0 and [r["value"] for r in ended] == ["Wired magazine"]
    code, out, _ = run(capsys, "profile", "Ana", "--store", store)
    assert "kinds: " in out and "Lisbon [place] [superseded]" in out
    code, _, err = run(capsys, "distil", "chat/session-9", "--store", store)
    assert code == 1 and "no document 'chat/session-9'" in err
    code, out, _ = run(capsys, "distil", "--store", store)  # the one left: session 3
    assert code == 0 and out.startswith("chat/session-3: ")
    assert run(capsys, "distil", "--store", store)[1] == "every document is distilled already\n"
    code, out, _ = run(
        capsys, "tell", "Ana", "reads", "Wired", "--kind", "magazine", "--store", store, "--json"
    )
    assert code == 0 and json.loads(out)["kind"] == "magazine"


def test_infer_says_what_it_learned_and_derived(capsys, tmp_path: Path) -> None:
    store = str(tmp_path / "m.sqlite")
    for place, within in [("Rouen", "Normandy"), ("Normandy", "France"), ("Rouen", "France")]:
        assert run(capsys, "tell", place, "is in", within, "--store", store)[0] == 0
    code, out, _ = run(capsys, "infer", "--store", store)
    assert code == 0 and out.startswith("transitive: none; 0 record(s) derived")
    for place, within in [("Caen", "Normandy"), ("Caen", "France"), ("Bayeux", "Normandy")]:
        assert run(capsys, "tell", place, "is in", within, "--store", store)[0] == 0
    code, out, _ = run(capsys, "infer", "--store", store)
    assert code == 0 and "transitive: 'is in'; 1 record(s) derived" in out
    assert "Bayeux | is in | France — told by the inference" in out
