"""Behaviour of engines behind the exit gate: a scripted engine's candidates are answered,
vetoed or refused exactly as the gate decides, and the default engine answers real SQuAD
questions with typed spans out of the lines it cites, or refuses with a catalogued reason."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import QUESTIONS, questions_starting

from affidavit import Candidate, DefaultEngine, Engine, Memory, Reason, ScriptedEngine
from affidavit.archive import census
from affidavit.gates import context, support
from affidavit.index.retrieved import BLOCK_SIZE
from affidavit.question.shape import AnswerType, read_shape
from affidavit.results import Evidence

LIMASSOL = "When did Richard's fleet arrive in Limassol?"
LIMASSOL_LINE = "On 1 May 1191, Richard's fleet arrived in the port of Limassol on Cyprus."
REASONS = {r.value for r in Reason}


def ask_scripted(store: Path, question: str, *candidates: Candidate):
    engine = ScriptedEngine({question: candidates})
    with Memory(store, engine=engine) as memory:
        answer = memory.ask(question)
    return answer, engine


# -- the protocol --


def test_engines_satisfy_the_runtime_checkable_protocol() -> None:
    assert isinstance(DefaultEngine(), Engine)
    assert isinstance(ScriptedEngine({}), Engine)
    assert not isinstance(object(), Engine)

    class Nameless:
        def propose(self, question, evidence):
            return []

    assert not isinstance(Nameless(), Engine)


def test_memory_uses_the_default_engine_unless_given_one(squad_store: Path) -> None:
    with Memory(squad_store) as memory:
        assert isinstance(memory.engine, DefaultEngine)
        assert memory.ask(LIMASSOL).audit["engine"] == "default"


def test_a_callable_script_sees_the_question_and_one_document_per_call(
    squad_store: Path,
) -> None:
    seen: list[tuple[str, list[Evidence]]] = []

    def script(question: str, evidence: Sequence[Evidence]) -> list[Candidate]:
        seen.append((question, list(evidence)))
        return []

    with Memory(squad_store, engine=ScriptedEngine(script)) as memory:
        answer = memory.ask(LIMASSOL)
    assert seen and all(question == LIMASSOL for question, _ in seen)
    first = seen[0][1]
    assert first[0].text == LIMASSOL_LINE
    assert len({e.document for e in first}) == 1  # candidates come per evidence subset
    assert len({evidence[0].document for _, evidence in seen}) == len(seen)
    assert answer.audit["evidence_block"][0] == f"[Normans.txt #125] {LIMASSOL_LINE}"
    shown = set(answer.audit["evidence_block"])
    assert all(e.dateline() in shown for _, evidence in seen for e in evidence)


def first_subset_gates(answer) -> list[list[tuple[str, bool]]]:
    """Per candidate of the best document's subset: its (gate, passed) decisions."""
    return [
        [(d["gate"], d["passed"]) for d in candidate["gate"]]
        for candidate in answer.audit["subsets"][0]["candidates"]
    ]


ALL_TIERS_PASS = [("digit_veto", True), ("mixture", True), ("readback", True), ("support", True)]


# -- the scripted engine through the gate --


def test_a_candidate_citing_its_line_with_only_evidence_numbers_is_answered(
    squad_store: Path,
) -> None:
    candidate = Candidate(
        text="1 May 1191", value="1191-05-01", cites=(0,), score=0.9, note="scripted"
    )
    answer, engine = ask_scripted(squad_store, LIMASSOL, candidate)
    assert not answer.refused and answer.reason is None
    assert (answer.text, answer.value) == ("1 May 1191", "1191-05-01")
    assert (answer.citations[0].document, answer.citations[0].position) == ("Normans.txt", 125)
    assert answer.citations[0].text == LIMASSOL_LINE
    assert engine.calls[0][1][0] == answer.citations[0]
    assert answer.audit["engine"] == "scripted"
    assert answer.audit["candidates"][0] == {**candidate.to_dict(), "subset": 0}
    assert first_subset_gates(answer) == [ALL_TIERS_PASS]


def test_a_candidate_with_a_number_the_evidence_lacks_is_vetoed(squad_store: Path) -> None:
    answer, _ = ask_scripted(
        squad_store,
        LIMASSOL,
        Candidate(text="1 May 1192", value="1192", cites=(0,), score=0.9, note="scripted"),
    )
    assert answer.refused
    assert answer.reason == Reason.DIGIT_VETO == "digit_veto"
    assert answer.text == Reason.DIGIT_VETO.text
    assert answer.citations == []
    assert answer.audit["gate"][0] == {
        "candidate": 0,
        "gate": "digit_veto",
        "passed": False,
        "reason": "digit_veto",
        "detail": "not in the cited evidence: 1 May 1192",
    }


def test_a_vetoed_candidate_is_dropped_not_repaired(squad_store: Path) -> None:
    answer, _ = ask_scripted(
        squad_store,
        LIMASSOL,
        Candidate(text="in 1192", value="1192", cites=(0,)),
        Candidate(text="in May 1191", value="1191", cites=(0,)),
    )
    assert not answer.refused
    assert answer.text == "in May 1191"
    assert first_subset_gates(answer) == [[("digit_veto", False)], ALL_TIERS_PASS]


@pytest.mark.parametrize("cites", [(BLOCK_SIZE * 10,), (99,), (-1,), (), (0, 500)])
def test_a_candidate_citing_outside_the_block_is_refused(
    squad_store: Path, cites: tuple[int, ...]
) -> None:
    answer, _ = ask_scripted(
        squad_store, LIMASSOL, Candidate(text="1 May 1191", value="1191", cites=cites)
    )
    assert answer.refused
    assert answer.reason == Reason.NO_CANDIDATE
    assert answer.citations == []
    assert {(d["gate"], d["passed"]) for d in answer.audit["gate"]} == {("citation", False)}


def test_a_candidate_citing_a_line_off_the_question_is_weak(
    squad_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lines beside a supporting line may carry the question's words for it; with no reach,
    # a line that does not name Limassol is off the question.
    for module in (support, context, census):
        monkeypatch.setattr(module, "SUPPORT_REACH", 0)
    with Memory(squad_store) as memory:
        block = memory.ask(LIMASSOL).audit["subsets"][0]["block"]
    off_topic = next(i for i, line in enumerate(block) if "Limassol" not in line)
    # Extractive, so it passes the mixture and read-back tiers; its line is off the question.
    words = block[off_topic].split("] ", 1)[1]
    answer, _ = ask_scripted(
        squad_store, LIMASSOL, Candidate(text=words, value=None, cites=(off_topic,))
    )
    assert answer.refused
    assert answer.reason == Reason.WEAK_EVIDENCE
    assert answer.audit["subsets"][0]["candidates"][0]["gate"][-1]["gate"] == "support"


def test_no_candidates_is_no_candidate(squad_store: Path) -> None:
    answer, engine = ask_scripted(squad_store, LIMASSOL)
    assert answer.refused and answer.reason == Reason.NO_CANDIDATE
    assert answer.audit["candidates"] == [] and answer.audit["gate"] == []
    assert len(engine.calls) == len(answer.audit["subsets"]) >= 1


def test_an_unscripted_question_gets_no_candidates(squad_store: Path) -> None:
    engine = ScriptedEngine({"some other question?": [Candidate(text="x", value="x", cites=(0,))]})
    with Memory(squad_store, engine=engine) as memory:
        assert memory.ask(LIMASSOL).reason == Reason.NO_CANDIDATE


def test_an_empty_store_is_refused_before_the_engine_is_asked() -> None:
    engine = ScriptedEngine({LIMASSOL: [Candidate(text="1 May 1191", value="1191", cites=(0,))]})
    with Memory(engine=engine) as memory:
        answer = memory.ask(LIMASSOL)
    assert answer.reason == Reason.EMPTY_STORE
    assert engine.calls == []


# -- the default engine on real SQuAD questions --

TYPED_QUESTIONS = [
    *questions_starting("How many", 12),
    *questions_starting("When", 12),
    *questions_starting("Who", 12),
]


@pytest.mark.parametrize("question", TYPED_QUESTIONS)
def test_a_typed_answer_is_a_span_of_its_cited_line(squad, question: str) -> None:
    answer = squad.ask(question)
    if answer.refused:
        assert answer.reason in REASONS
        assert answer.citations == []
        return
    assert answer.citations
    assert answer.text in answer.citations[0].text
    datelines = answer.audit["evidence_block"]
    assert all(c.dateline() in datelines for c in answer.citations)
    shape = read_shape(question)
    if shape.answer_type is AnswerType.COUNT and answer.text.replace(",", "").isdigit():
        assert answer.value == int(answer.text.replace(",", ""))


@pytest.mark.parametrize(
    # NOTE: lowered from 10 / 10 / 8 of 12 when the support tier came to ask for the
    # question's rarest key word and 80% of its weight, the numbers it writes among them
    # (issue 10): "When did Dyrrachium fall" is not answered by a line saying it "was
    # betrayed". "Who" lowered from 5 when answerability came (issue 39): the reader
    # shares "who" between the name and the role beside it, and refuses below 0.42. "When"
    # lowered from 7 when the encoder came (issue 65): its spans of these lines are judged
    # otherwise, and one more of the twelve falls under the threshold.
    ("prefix", "answered_at_least"),
    [("How many", 6), ("When", 6), ("Who", 3)],
)
def test_many_typed_questions_are_answered(squad, prefix: str, answered_at_least: int) -> None:
    questions = questions_starting(prefix, 12)
    answered = [q for q in questions if not squad.ask(q).refused]
    assert len(answered) >= answered_at_least


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("When was the Battle of Hastings?", "1066"),
        ("How many people died of plague in Paris in 1466?", "40,000"),
        ("How many men were in Robert's army?", "30,000"),
        ("Who was Robert's son?", "Bohemond"),
        ("When did the Normans attack Dyrrachium?", "1185"),
    ],
)
def test_known_squad_questions_get_their_gold_answer(squad, question: str, gold: str) -> None:
    assert any(q["question"] == question and gold in q["answers"] for q in QUESTIONS)
    assert squad.ask(question).text == gold


def test_an_answer_and_its_audit_are_json(squad) -> None:
    answer = squad.ask("How many people died of plague in Paris in 1466?")
    data = answer.to_dict()
    assert json.loads(json.dumps(data)) == data
    audit = data["audit"]
    assert {"engine", "shape", "evidence_block", "candidates", "gate", "census"} <= set(audit)
    documents = set(squad.documents())
    for line in audit["evidence_block"]:
        assert any(line.startswith(f"[{name} #") for name in documents)
    assert audit["shape"]["answer_type"] == "count"
    assert audit["census"]["line"].endswith(".")
    assert data["value"] == 40000


@pytest.mark.parametrize(
    "question",
    [
        "Xyzzy plugh frobnicate?",
        "What is the airspeed velocity of an unladen swallow?",
        "the of and",
        "???",
        "",
    ],
)
def test_nonsense_is_refused_with_a_catalogued_reason(squad, question: str) -> None:
    answer = squad.ask(question)
    assert answer.refused
    assert answer.reason in REASONS
    assert answer.text == Reason(answer.reason).text
    assert answer.citations == []
    json.dumps(answer.to_dict())


@pytest.mark.parametrize("question", [LIMASSOL, *TYPED_QUESTIONS[::5], "Xyzzy plugh?"])
def test_the_same_question_twice_gives_the_same_answer(squad, question: str) -> None:
    assert squad.ask(question).to_dict() == squad.ask(question).to_dict()


def test_the_evidence_block_gives_every_speaking_document_a_share(squad) -> None:
    answer = squad.ask("Who became president of the oil company in Jacksonville?")
    block = answer.audit["best_lines"]
    counts: dict[str, int] = {}
    for line in block:
        document = line[1:].split(" #")[0]
        counts[document] = counts.get(document, 0) + 1
    assert len(block) <= BLOCK_SIZE
    speaking = len(counts)
    if speaking > 1:
        assert max(counts.values()) <= max(2, -(-BLOCK_SIZE // speaking))


def test_the_default_engine_reads_a_named_column_of_a_table_row() -> None:
    with Memory() as memory:
        memory.ingest_text(
            "| Item | Price |\n|------|-------|\n| Tea | 1.10 |\n| Hot meal | 5.75 |\n",
            name="canteen.md",
        )
        answer = memory.ask("What is the price of the hot meal?")
    assert not answer.refused
    assert answer.text == "5.75"
    assert answer.citations[0].cells == {"Item": "Hot meal", "Price": "5.75"}


def test_a_line_under_the_documents_title_covers_the_words_naming_it() -> None:
    # The LGPL's title block (corpora/licences/lgpl-3.0.txt): "Version 3, 29 June 2007"
    # says the version and its date under "GNU LESSER GENERAL PUBLIC LICENSE"; asked for
    # the date of that licence's version 3, the line is read and its date proposed.
    memory = Memory(dense=False)
    memory.ingest(Path(__file__).resolve().parents[2] / "corpora" / "licences" / "lgpl-3.0.txt")
    question = "What is the date of version 3 of the GNU Lesser General Public License?"
    said = memory.ask(question, min_probability=0.0)
    subsets = said.audit.get("subsets") or []
    proposed = {candidate["text"] for subset in subsets for candidate in subset["candidates"]}
    assert "29 June 2007" in proposed
