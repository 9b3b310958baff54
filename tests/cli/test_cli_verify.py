"""Behaviour of `affidavit verify` and `ingest --source`, run in-process on a store of a real
Senate expenditure PDF and the Black Death article: one line per sentence with its status,
exit 0 only when every sentence is supported (2 otherwise), JSON on request, the text from
--file, every misuse one line on stderr with exit 1, and a stranger's store refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ARTICLES, PDF_DIR

from affidavit import Memory
from affidavit.cli.main import main

SENATE = PDF_DIR / "senate-expenditures.pdf"
BLACK_DEATH = ARTICLES[1]
ORIGIN = "The Black Death originated in the arid plains of Central Asia."
SENATE_ROW = "DHAW20190031: CITIBANK - SENATOR IBA CARD, 05/10/2019 to 05/11/2019."
# The PDF's row read whole by rows (its category and amount too), printed a space a cell.
ROW_29 = (
    "      [senate-expenditures.pdf #29] DHAW20190031 05/28/2019 CITIBANK - SENATOR IBA CARD "
    "05/10/2019 05/11/2019 SENATOR'S TRANSPORTATION 618.00"
)
SUPPORTED_TEXT = f"{ORIGIN} {SENATE_ROW}"
MIXED_TEXT = f"{ORIGIN} It reached Crimea by 1344. {SENATE_ROW.replace('05/11', '05/12')}"
USAGE_ERROR = "affidavit: error: give the text to verify, or --file FILE (not both)\n"


def run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli_verify") / "memory.sqlite"
    with Memory(path) as memory:
        memory.ingest([SENATE, BLACK_DEATH])
    return path


def test_verify_prints_each_sentence_with_its_lines_and_exits_0_when_all_are_supported(
    store: Path, capsys
) -> None:
    code, out, err = run(capsys, "verify", SUPPORTED_TEXT, "--store", store)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "SUPPORTED: 2 of 2 sentence(s) supported"
    assert lines[1] == f"  [supported] {ORIGIN}"
    assert lines[2].startswith("      [Black_Death.txt #0] The Black Death is thought to have ")
    assert lines[3:] == [f"  [supported] {SENATE_ROW}", ROW_29]


def test_verify_exits_2_and_names_each_failure_when_a_sentence_is_not_supported(
    store: Path, capsys
) -> None:
    code, out, err = run(capsys, "verify", MIXED_TEXT, "--store", store)
    assert (code, err) == (2, "")
    lines = out.splitlines()
    assert lines[0] == "NOT SUPPORTED: 1 of 3 sentence(s) supported"
    assert lines[1] == f"  [supported] {ORIGIN}"
    assert lines[3:] == [
        "  [vetoed] It reached Crimea by 1344. "
        "(digit_veto: It carries a number the cited evidence does not carry.)",
        "      gate digit_veto: not in the cited evidence: 1344",
        "  [vetoed] DHAW20190031: CITIBANK - SENATOR IBA CARD, 05/10/2019 to 05/12/2019. "
        "(digit_veto: It carries a number the cited evidence does not carry.)",
        "      gate digit_veto: not in the cited evidence: 05/12/2019",
    ]


def test_a_dropped_sentence_shows_its_reason_and_failing_gate(store: Path, capsys) -> None:
    text = "The Black Death originated in Central Asia and was spread by pigeons."
    code, out, _ = run(capsys, "verify", text, "--store", store)
    assert code == 2
    assert out.splitlines()[1:] == [
        f"  [dropped] {text} (mixture: It wraps words from the evidence around content the "
        "evidence never supplied.)",
        "      gate mixture: evidence words around content the evidence never supplied: pigeons",
    ]


@pytest.mark.parametrize(("text", "code"), [(SUPPORTED_TEXT, 0), (MIXED_TEXT, 2)])
def test_json_output_is_the_verdict(store: Path, capsys, text: str, code: int) -> None:
    exit_code, out, err = run(capsys, "verify", text, "--store", store, "--json")
    assert (exit_code, err) == (code, "")
    verdict = json.loads(out)
    assert verdict["supported"] is (code == 0)
    assert verdict["text"] == text and verdict["question"] is None
    statuses = [s["status"] for s in verdict["sentences"]]
    assert statuses == (["supported"] * 2 if code == 0 else ["supported", "vetoed", "vetoed"])
    first = verdict["sentences"][0]["evidence"][0]
    assert (first["document"], first["position"], first["trust"]) == ("Black_Death.txt", 0, 0.6)
    with Memory(store) as memory:
        assert verdict == memory.verify(text).to_dict()


def test_the_text_can_come_from_a_file(store: Path, tmp_path: Path, capsys) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(f"{ORIGIN}\n\n{SENATE_ROW}\n", encoding="utf-8")
    from_file = run(capsys, "verify", "--file", answer, "--store", store)
    assert from_file[0] == 0 and from_file[2] == ""
    assert from_file[1] == run(capsys, "verify", SUPPORTED_TEXT, "--store", store)[1]
    answer.write_text("It reached Crimea by 1344.\n", encoding="utf-8")
    code, out, _ = run(capsys, "verify", "--file", answer, "--store", store)
    assert code == 2 and out.startswith("NOT SUPPORTED: 0 of 1 sentence(s) supported\n")


def test_the_question_is_passed_to_verify(store: Path, capsys) -> None:
    question = "Did the Black Death originate in Central Asia?"
    code, out, _ = run(capsys, "verify", "yes", "--question", question, "--store", store)
    assert code == 0
    assert out.splitlines()[:2] == ["SUPPORTED: 1 of 1 sentence(s) supported", "  [supported] yes"]
    code, out, _ = run(capsys, "verify", "no", "--question", question, "--store", store)
    assert code == 2
    assert out.splitlines()[1] == (
        "  [dropped] no (unverifiable: It asserts nothing the evidence can be checked against.)"
    )


def test_text_and_file_together_or_neither_is_a_one_line_error(
    store: Path, tmp_path: Path, capsys
) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(ORIGIN, encoding="utf-8")
    assert run(capsys, "verify", ORIGIN, "--file", answer, "--store", store) == (1, "", USAGE_ERROR)
    assert run(capsys, "verify", "--store", store) == (1, "", USAGE_ERROR)


def test_an_unreadable_file_is_a_one_line_error(store: Path, tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nowhere.txt"
    code, out, err = run(capsys, "verify", "--file", missing, "--store", store)
    assert (code, out) == (1, "")
    assert err.startswith(f"affidavit: error: {missing}: cannot read it as UTF-8 text (")
    assert err.count("\n") == 1
    binary = tmp_path / "latin1.txt"
    binary.write_bytes("Peste négra".encode("latin-1"))
    code, _, err = run(capsys, "verify", "--file", binary, "--store", store)
    assert code == 1 and err.startswith(f"affidavit: error: {binary}: cannot read it as UTF-8")


def test_a_missing_store_is_a_one_line_error_and_is_not_created(tmp_path: Path, capsys) -> None:
    path = tmp_path / "absent.sqlite"
    code, out, err = run(capsys, "verify", ORIGIN, "--store", path)
    assert (code, out) == (1, "")
    assert err == (
        f"affidavit: error: {path}: no such store "
        f"(create it with `affidavit ingest ... --store {path}`)\n"
    )
    assert not path.exists()


# -- ingest --source --


def test_a_store_ingested_from_a_stranger_refuses_to_answer(tmp_path: Path, capsys) -> None:
    path = tmp_path / "rumours.sqlite"
    code, out, err = run(
        capsys, "ingest", BLACK_DEATH, "--store", path, "--source", "stranger", "--quiet"
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"1 document(s) in {path}: 1 documents, ")

    code, out, _ = run(capsys, "search", "Black Death Central Asia", "--store", path, "--json")
    assert code == 0 and {hit["trust"] for hit in json.loads(out)} == {0.3}

    question = "Where did the Black Death originate?"
    code, out, _ = run(capsys, "ask", question, "--store", path)
    assert code == 0
    assert out.splitlines()[:2] == [
        f"Q: {question}",
        "REFUSED (below_trust): The only evidence comes from sources below the speaking threshold.",
    ]
    code, out, _ = run(capsys, "ask", question, "--store", path, "--json")
    answer = json.loads(out)
    assert (answer["refused"], answer["reason"], answer["citations"]) == (True, "below_trust", [])

    code, out, _ = run(capsys, "verify", ORIGIN, "--store", path)
    assert code == 2 and "[dropped]" in out and "(below_trust: " in out


def test_operator_source_is_cited_at_operator_trust(tmp_path: Path, capsys) -> None:
    path = tmp_path / "operator.sqlite"
    assert run(capsys, "ingest", BLACK_DEATH, "--store", path, "--source", "operator")[0] == 0
    code, out, _ = run(
        capsys, "ask", "By what year did the Black Death reach Crimea?", "--store", path, "--json"
    )
    answer = json.loads(out)
    assert code == 0 and not answer["refused"]
    assert {c["trust"] for c in answer["citations"]} == {0.75}


def test_an_unknown_source_is_a_usage_error_and_creates_no_store(tmp_path: Path, capsys) -> None:
    path = tmp_path / "never.sqlite"
    with pytest.raises(SystemExit) as stopped:
        main(["ingest", str(BLACK_DEATH), "--store", str(path), "--source", "extraction"])
    assert stopped.value.code == 2
    assert "invalid choice: 'extraction'" in capsys.readouterr().err
    assert not path.exists()


def test_ask_takes_a_min_probability(tmp_path: Path, capsys) -> None:
    path = tmp_path / "store.sqlite"
    assert run(capsys, "ingest", BLACK_DEATH, "--store", path)[0] == 0
    question = "Which outbreak was associated with troops in the thirty years war?"
    _, out, _ = run(capsys, "ask", question, "--store", path, "--json")
    assert json.loads(out)["reason"] == "unlikely"
    _, out, _ = run(capsys, "ask", question, "--store", path, "--json", "--min-probability", "0")
    lowered = json.loads(out)
    assert not lowered["refused"] and lowered["audit"]["answerability"]["threshold"] == 0.0
