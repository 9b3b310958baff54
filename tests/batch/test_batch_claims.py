"""Claims in a batch: a line with "claim" instead of "question" is verified over the store,
its row the verdict beside its id and line, the same whichever worker computed it; its
verdict counted; a line with both, neither, or a question's own key is an error row; an
answerer that cannot verify makes a claim an error row, not a crash.

The store is a real licence (corpora/licences/mpl-2.0.txt); the three claims are those
tests/gates/test_entailment.py finds supported, contradicted and not supported."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from affidavit import Memory
from affidavit.batch import BatchClaim, BatchQuestion, questions_from, read_questions
from affidavit.batch.cluster import RayAnswerer, snapshot
from affidavit.batch.output import row_bytes
from affidavit.batch.worker import Opener, written
from affidavit.cli.main import main
from affidavit.results import Answer

MPL = Path(__file__).resolve().parents[2] / "corpora" / "licences" / "mpl-2.0.txt"
# The line: "You may not remove or alter the substance of any license notices ..."
SUPPORTED = "You must not remove the substance of any license notices."
CONTRADICTED = "You may remove the substance of any license notices."
NOT_SUPPORTED = "You must alter any license notices."  # the line: "may alter ... to the extent"
QUESTION = "Who is a Contributor?"
SET = [
    {"id": "c-yes", "claim": SUPPORTED},
    {"id": "c-no", "claim": CONTRADICTED, "documents": "mpl-2.0.txt"},
    {"id": "q1", "question": QUESTION},
    {"id": "c-unsure", "claim": NOT_SUPPORTED},
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("claims") / "mpl.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(MPL)
    return path


@pytest.fixture
def claim_file(tmp_path: Path) -> Path:
    path = tmp_path / "claims.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in SET), encoding="utf-8")
    return path


def expected_rows(store: Path) -> list[bytes]:
    """The rows one process writes, each made with verify() or ask() alone."""
    with Memory(store, dense=False) as memory:
        return [
            row_bytes(
                {"id": line["id"], "line": n, **memory.ask(line["question"]).to_dict()}
                if "question" in line
                else {
                    "id": line["id"],
                    "line": n,
                    "kind": "verify",
                    **memory.verify(line["claim"], documents=line.get("documents")).to_dict(),
                }
            )
            for n, line in enumerate(SET, 1)
        ]


def test_a_claim_line_is_read_with_its_id_and_scope(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        json.dumps({"id": 7, "claim": SUPPORTED, "documents": ["mpl-2.0.txt"], "since": None})
        + "\n"
        + json.dumps({"claim": CONTRADICTED, "min_trust": 0.5, "question": None})
        + "\n",
        encoding="utf-8",
    )
    first, second = read_questions(path)
    assert isinstance(first, BatchClaim) and isinstance(second, BatchClaim)
    assert (first.id, first.claim, first.scope.documents) == ("7", SUPPORTED, ["mpl-2.0.txt"])
    assert (second.id, second.scope.min_trust) == ("2", 0.5)  # a null question is none


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            {"id": "x", "claim": SUPPORTED, "question": QUESTION},
            'line 1: both "question" and "claim" (a line holds one: a question to ask or a '
            "claim to verify)",
        ),
        ({"id": "x"}, 'line 1: no "question" or "claim" (a non-empty string)'),
        ({"id": "x", "claim": "  "}, 'line 1: "claim" is not a non-empty string'),
        ({"id": "x", "claim": ["a", "b"]}, 'line 1: "claim" is not a non-empty string'),
        (
            {"id": "x", "claim": SUPPORTED, "speaker": "Maya"},
            "line 1: \"speaker\" is a question's key, not a claim's (a claim line reads only "
            "the scope keys: documents, source, min_trust, since, until)",
        ),
        ({"id": "x", "claim": SUPPORTED, "asked_at": "2024-01-01"}, '"asked_at" is a question'),
        ({"id": "x", "claim": SUPPORTED, "min_probability": 0.2}, '"min_probability" is a'),
    ],
)
def test_a_line_with_both_neither_or_a_question_s_key_is_an_error_row(
    line: dict[str, Any], error: str
) -> None:
    (item,) = questions_from([line])
    assert item.row()["id"] == "x" and error in item.row()["error"]  # type: ignore[union-attr]


def test_claims_and_questions_share_one_id_space() -> None:
    items = questions_from([{"id": "a", "claim": SUPPORTED}, {"id": "a", "question": QUESTION}])
    assert isinstance(items[0], BatchClaim)
    assert "id 'a' is line 1's" in items[1].error  # type: ignore[union-attr]


def test_python_items_may_be_claims_beside_plain_questions() -> None:
    items = questions_from([QUESTION, {"claim": SUPPORTED}])
    assert isinstance(items[0], BatchQuestion) and isinstance(items[1], BatchClaim)


def test_each_claim_row_is_its_verdict_and_each_question_row_its_answer(
    store: Path, claim_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "answers.jsonl"
    with Memory(store, dense=False) as memory:
        report = memory.batch(claim_file, workers=1, out=out, progress=False)
    assert out.read_bytes().splitlines(keepends=True) == expected_rows(store)
    verdicts = {row["id"]: row for row in report if row.get("kind") == "verify"}
    assert (verdicts["c-yes"]["supported"], verdicts["c-yes"]["contradicted"]) == (True, False)
    (said,) = verdicts["c-no"]["sentences"]
    assert said["status"] == "contradicted"
    assert "You may not remove or alter the substance" in said["evidence"][0]["text"]
    assert verdicts["c-unsure"]["supported"] is verdicts["c-unsure"]["contradicted"] is False
    assert "kind" not in report[2] and report[2]["question"] == QUESTION
    counts = report.counts()
    assert counts["answered"] + counts["refused"] == 1 and counts["errors"] == 0  # the question
    assert (counts["supported"], counts["contradicted"], counts["not_supported"]) == (1, 1, 1)
    assert report.claims() == 3 and report.rows == 4


def test_a_claim_is_verified_within_its_line_s_scope(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        (row,) = memory.batch(
            [{"id": "c", "claim": CONTRADICTED, "documents": "nda-*.pdf"}],
            workers=1,
            progress=False,
        )
    assert row["id"] == "c" and "nda-*.pdf" in row["error"]  # no such document: its error


def test_two_worker_processes_write_the_same_claim_rows_as_one_process(
    store: Path, claim_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "two.jsonl"
    with Memory(store, dense=False) as memory:
        report = memory.batch(claim_file, workers=2, out=out, progress=False, keep_rows=False)
    assert out.read_bytes().splitlines(keepends=True) == expected_rows(store)
    assert (report.counts()["contradicted"], report.claims()) == (1, 3)  # counted as sent


def test_a_ray_actor_makes_the_same_claim_row(store: Path) -> None:
    """The actor's own code, run here (no cluster needed): it opens the shipped copy of
    the store and answers through the same row function."""
    actor = RayAnswerer(snapshot(str(store)), Opener(Memory, {"dense": False}), _version())
    (claim,) = questions_from([{"id": "c-no", "claim": CONTRADICTED}])
    row = actor.answer(claim)
    with Memory(store, dense=False) as memory:
        verdict = memory.verify(CONTRADICTED).to_dict()
    assert row == {"id": "c-no", "line": 1, "kind": "verify", **verdict}


def _version() -> str:
    from affidavit.runtime import installed_version

    return installed_version()


def test_a_claim_row_sent_as_its_line_is_counted_by_its_verdict(store: Path) -> None:
    with Memory(store, dense=False) as memory:
        rows = memory.batch(
            [{"claim": c} for c in (SUPPORTED, CONTRADICTED, NOT_SUPPORTED)],
            workers=1,
            progress=False,
        )
    assert [written(row).kind for row in rows] == ["supported", "contradicted", "not_supported"]
    assert written(rows[1]).line == row_bytes(rows[1])


class AsksOnly:
    """An answerer written before claims: it can only ask."""

    def ask(self, question: str, **options: Any) -> Answer:
        return Answer(question=question, text="yes", value=None, refused=False, reason=None)


def test_an_answerer_that_cannot_verify_makes_a_claim_an_error_row() -> None:
    from affidavit.batch import run_batch

    rows = run_batch(AsksOnly(), [QUESTION, {"id": "c", "claim": SUPPORTED}], progress=False)
    assert rows[0]["text"] == "yes"
    assert rows[1] == {
        "id": "c",
        "line": 2,
        "error": "line 2: AsksOnly cannot verify a claim (it has no verify method)",
    }
    assert rows.counts()["errors"] == 1


def test_a_run_with_claims_stopped_then_resumed_verifies_only_the_rest(
    store: Path, claim_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "answers.jsonl"

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with Memory(store, dense=False) as memory:
        with pytest.raises(KeyboardInterrupt):
            memory.batch(claim_file, workers=1, out=out, progress=stop_after_two)
        report = memory.batch(claim_file, workers=1, out=out, progress=False)
    assert report.resumed == 2 and [row["id"] for row in report] == ["q1", "c-unsure"]
    assert (report.counts()["not_supported"], report.claims()) == (1, 1)
    assert out.read_bytes().splitlines(keepends=True) == expected_rows(store)


def test_the_cli_counts_the_verdicts(
    store: Path, claim_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a.jsonl"
    argv = ["batch", str(claim_file), "--store", str(store), "--out", str(out), "--quiet"]
    argv += ["--workers", "1"]
    assert main(argv) == 0
    said = capsys.readouterr().out.strip()
    assert said.endswith(
        "0 input errors; 3 claims verified: 1 supported, 1 contradicted, 1 not supported"
    )
    assert said.startswith(f"4 answered into {out}: ")


@pytest.mark.slow
@pytest.mark.skipif(find_spec("ray") is None, reason="needs the ray extra")
def test_a_local_ray_cluster_writes_the_same_claim_rows(
    store: Path, claim_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ray.jsonl"
    with Memory(store, dense=False) as memory:
        memory.batch(claim_file, out=out, progress=False, workers=2, cluster="local")
    assert out.read_bytes().splitlines(keepends=True) == expected_rows(store)
