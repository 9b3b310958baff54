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
        "documents": ["1973_oil_crisis.txt"],
        "matched": ["1973_oil_crisis.txt"],
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
    assert answer.audit["scope"]["matched"] == ["1973_oil_crisis.txt"]
    both = squad.ask("Who ruled the duchy of Normandy?", documents=["N*", "B*"])
    assert both.audit["scope"]["matched"] == ["Black_Death.txt", "Normans.txt"]


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
    assert a["text"] == "March 1974" and a["audit"]["scope"]["matched"] == ["1973_oil_crisis.txt"]
    assert b["refused"]
    assert "Nowhere.txt" in c["error"] and "no document" in c["error"]
    assert "documents" in d["error"] and "7" in d["error"]


def test_the_cli_takes_a_document_flag_for_ask_and_verify(squad_store: Path, capsys) -> None:
    code = main(["ask", EMBARGO, "--store", str(squad_store), "--json", "--document", "1973*"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["text"] == "March 1974"
    assert out["audit"]["scope"]["documents"] == ["1973*"]
    claim = "The oil embargo ended in March 1974."
    assert main(["verify", claim, "--store", str(squad_store), "--document", "1973*"]) == 0
    assert main(["verify", claim, "--store", str(squad_store), "--document", "Normans.txt"]) == 2
    capsys.readouterr()
    assert main(["ask", EMBARGO, "--store", str(squad_store), "--document", "x.pdf"]) != 0
    assert "x.pdf" in capsys.readouterr().err


# -- filters by the documents' own facts: source, trust, date --


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """The real licences of corpora/licences, each told by another source on its own day
    (the BSD licence undated)."""
    from conftest import LICENCES_DIR

    memory = Memory(tmp_path_factory.mktemp("dated") / "dated.sqlite")
    memory.ingest(LICENCES_DIR / "apache-2.0.txt", source="operator", date="2004-01-01")
    memory.ingest(LICENCES_DIR / "mpl-2.0.txt", date="2012-01-03")
    memory.ingest(LICENCES_DIR / "idna-bsd-3-clause.md")
    return memory


LICENCE_QUESTION = "Who must retain the copyright notice in the Source form?"


def test_the_filters_choose_documents_by_source_trust_and_date(dated: Memory) -> None:
    def matched(**filters) -> list[str]:
        return dated.ask(LICENCE_QUESTION, **filters).audit["scope"]["matched"]

    assert matched(source="operator") == ["apache-2.0.txt"]
    assert matched(source=["document"]) == ["idna-bsd-3-clause.md", "mpl-2.0.txt"]
    assert matched(min_trust=0.7) == ["apache-2.0.txt"]
    assert matched(since="2010-01-01") == ["mpl-2.0.txt"]  # the undated BSD licence is out
    assert matched(until="2010-12-31") == ["apache-2.0.txt"]
    assert matched(since="2004-01-01", until="2004-01-01") == ["apache-2.0.txt"]
    assert matched(documents="*.txt", min_trust=0.7) == ["apache-2.0.txt"]
    assert matched(since="2030-01-01") == []
    answer = dated.ask(LICENCE_QUESTION, since="2030-01-01")
    assert answer.refused and not answer.citations and "scope: 0 documents" in answer.text
    assert dated.ask(LICENCE_QUESTION, source="operator").audit["scope"]["source"] == ["operator"]


def test_search_and_verify_take_the_same_filters(dated: Memory) -> None:
    hits = dated.search("copyright notice", k=10, min_trust=0.7)
    assert hits and {h.document for h in hits} == {"apache-2.0.txt"}
    claim = "Redistributions of source code must retain the above copyright notice."
    assert dated.verify(claim).supported
    assert not dated.verify(claim, source="operator").supported
    assert dated.verify(claim, documents="idna*", until="2030-01-01").supported is False
    assert dated.verify(claim, documents="idna*").supported


@pytest.mark.parametrize(
    ("filters", "what"),
    [
        ({"source": "bogus"}, "source"),
        ({"source": 3}, "source"),
        ({"min_trust": 1.5}, "min_trust"),
        ({"min_trust": True}, "min_trust"),
        ({"since": "last week"}, "since"),
        ({"until": "2024-13-01"}, "until"),
    ],
)
def test_a_filter_that_is_not_one_is_an_input_error(dated: Memory, filters, what) -> None:
    with pytest.raises(InputError) as raised:
        dated.ask(LICENCE_QUESTION, **filters)
    assert raised.value.what == what


def test_a_batch_line_and_the_cli_carry_the_filters(dated: Memory, capsys) -> None:
    rows = dated.batch(
        [
            {"id": "a", "question": LICENCE_QUESTION, "min_trust": 0.7},
            {"id": "b", "question": LICENCE_QUESTION, "since": "someday"},
        ],
        workers=1,
        progress=False,
    )
    assert rows[0]["audit"]["scope"]["matched"] == ["apache-2.0.txt"]
    assert "since" in rows[1]["error"]
    store = str(dated.path)
    code = main(["ask", LICENCE_QUESTION, "--store", store, "--json", "--since", "2010-01-01"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["audit"]["scope"]["matched"] == ["mpl-2.0.txt"]
