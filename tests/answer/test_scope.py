"""Behaviour of a scope (``documents=``) on the SQuAD store of five real articles: ask,
verify and search read only the named documents (names or globs), the census counts only
them, the audit says what the scope was, a name that matches nothing is a typed error,
and the batch format and the CLI's ``--document`` carry the same scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affidavit import InputError, Memory, Reason
from affidavit.cli.main import main

EMBARGO = "When did the oil embargo end?"


def cited(answer) -> set[str]:
    return {c.document for c in answer.citations}


def test_a_scope_of_the_document_that_answers_gives_the_same_answer(squad: Memory) -> None:
    whole = squad.ask(EMBARGO)
    scoped = squad.ask(EMBARGO, documents="1973_oil_crisis.txt")
    assert not whole.refused and whole.text == scoped.text == "March 1974"
    assert cited(scoped) == {"1973_oil_crisis.txt"}
    assert scoped.audit["scope"] == {
        "patterns": ["1973_oil_crisis.txt"],
        "documents": ["1973_oil_crisis.txt"],
    }
    assert "scope" not in whole.audit


def test_a_scope_that_leaves_the_answer_out_never_reads_it(squad: Memory) -> None:
    answer = squad.ask(EMBARGO, documents=["Normans.txt", "Black_Death.txt"])
    assert answer.refused and not answer.citations
    shown = [line for subset in answer.audit["subsets"] for line in subset["block"]]
    assert all("1973_oil_crisis" not in line for line in shown)
    assert "1973_oil_crisis" not in answer.census


def test_a_glob_names_every_document_it_matches(squad: Memory) -> None:
    answer = squad.ask(EMBARGO, documents="1973*")
    assert answer.text == "March 1974"
    assert answer.audit["scope"]["documents"] == ["1973_oil_crisis.txt"]
    both = squad.ask("Who ruled the duchy of Normandy?", documents=["N*", "B*"])
    assert both.audit["scope"]["documents"] == ["Black_Death.txt", "Normans.txt"]


def test_the_census_counts_the_scope_alone(squad: Memory) -> None:
    question = "What did the Black Death cause in Europe?"
    whole = squad.ask(question)
    assert whole.audit["census"]["documents"]
    scoped = squad.ask(question, documents="Black_Death.txt")
    assert set(scoped.audit["census"]["documents"]) <= {"Black_Death.txt"}


def test_verify_within_a_scope_reads_only_its_documents(squad: Memory) -> None:
    claim = "The oil embargo ended in March 1974."
    assert squad.verify(claim).supported
    inside = squad.verify(claim, documents="1973_oil_crisis.txt")
    assert inside.supported
    assert {e.document for e in inside.sentences[0].evidence} == {"1973_oil_crisis.txt"}
    outside = squad.verify(claim, documents="Normans.txt").sentences[0]
    assert outside.status != "supported"
    assert all(e.document == "Normans.txt" for e in outside.evidence)


def test_search_within_a_scope_ranks_only_its_lines(squad: Memory) -> None:
    assert "Normans.txt" not in {h.document for h in squad.search("Europe", k=5)}
    hits = squad.search("Europe", k=5, documents="Normans.txt")
    assert hits and {h.document for h in hits} == {"Normans.txt"}


@pytest.mark.parametrize("documents", ["Normandy.txt", ["Normans.txt", "*.pdf"], [], [""]])
def test_a_scope_that_names_no_stored_document_is_an_input_error(squad: Memory, documents) -> None:
    with pytest.raises(InputError) as raised:
        squad.ask(EMBARGO, documents=documents)
    if documents and documents[-1]:
        pattern = documents if isinstance(documents, str) else documents[-1]
        assert raised.value.what == pattern and "no document" in str(raised.value)


def test_an_empty_scope_refuses_as_no_evidence_and_says_it_read_the_scope(
    squad: Memory,
) -> None:
    answer = squad.ask("Who discovered penicillin?", documents="Normans.txt")
    assert answer.refused
    if answer.reason == Reason.NO_EVIDENCE.value:
        assert "scope" in answer.text


def test_a_batch_line_carries_its_own_scope(squad: Memory) -> None:
    report = squad.batch(
        [
            {"id": "a", "question": EMBARGO, "documents": ["1973_oil_crisis.txt"]},
            {"id": "b", "question": EMBARGO, "documents": "Normans.txt"},
            {"id": "c", "question": EMBARGO, "documents": "Nowhere.txt"},
            {"id": "d", "question": EMBARGO, "documents": 7},
        ],
        workers=1,
        progress=False,
    )
    a, b, c, d = report
    assert a["text"] == "March 1974" and a["audit"]["scope"]["documents"] == ["1973_oil_crisis.txt"]
    assert b["refused"]
    assert "Nowhere.txt" in c["error"] and "no document" in c["error"]
    assert '"documents"' in d["error"]


def test_the_cli_takes_a_document_flag_for_ask_and_verify(squad_store: Path, capsys) -> None:
    code = main(["ask", EMBARGO, "--store", str(squad_store), "--json", "--document", "1973*"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["text"] == "March 1974"
    assert out["audit"]["scope"]["patterns"] == ["1973*"]
    claim = "The oil embargo ended in March 1974."
    assert main(["verify", claim, "--store", str(squad_store), "--document", "1973*"]) == 0
    assert main(["verify", claim, "--store", str(squad_store), "--document", "Normans.txt"]) == 2
    capsys.readouterr()
    assert main(["ask", EMBARGO, "--store", str(squad_store), "--document", "x.pdf"]) != 0
    assert "x.pdf" in capsys.readouterr().err
