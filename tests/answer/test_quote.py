"""Quote the line rather than guess, on real licences and a real allocation policy: a rule
asked for as a clause is answered with its line, whole, quoted, cited and said to be a
quote; a line that only uses a quoted term, or that holds no value of the kind a question
names, is never quoted; the CLI names the document an answer is drawn from."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import affidavit_command

from affidavit import Memory
from affidavit.answer import choose
from affidavit.answer.quote import LISTED_SPAN
from affidavit.cli.main import main
from affidavit.gates.case import Case, Judgement
from affidavit.gates.definition import defines_asked_terms
from affidavit.gates.quoted import carries_by_itself
from affidavit.question.question import Question

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
RETAIN = "What must redistributions of source code retain?"
FHS = CORPORA / "compliance_set" / "filesystem-hierarchy-standard-3.0.pdf"
ADEQUATE = "What must the contents of the root filesystem be adequate to do?"
ADEQUATE_LINE = (
    "The contents of the root filesystem must be adequate to boot, restore, recover, "
    "and/or repair the system."
)


def test_a_rule_asked_for_as_a_clause_is_its_line_quoted_and_cited(licences: Memory) -> None:
    answer = licences.ask(RETAIN)
    assert not answer.refused and answer.quoted
    assert answer.text.startswith("1. Redistributions of source code must retain")
    assert answer.text.endswith("disclaimer.") and answer.value is None
    first = answer.citations[0]
    assert first.document == "licences/idna-bsd-3-clause.md" and answer.text == first.text
    assert answer.audit["quoted"]["line"].startswith("[licences/idna-bsd-3-clause.md #")
    assert answer.to_dict()["quoted"] is True


def test_a_span_answer_is_not_a_quote(licences: Memory) -> None:
    # the reader's confidence is not this test's subject
    answer = licences.ask("Who is the steward of the Mozilla Public License?", min_probability=0.0)
    assert not answer.refused and answer.text == "Mozilla Foundation"
    assert not answer.quoted and "quoted" not in answer.audit


def test_a_quoted_term_is_answered_only_by_the_line_that_defines_it() -> None:
    question = 'What does "Contributor" mean in the Mozilla Public License?'
    uses = '1.11. "Patent Claims" of a Contributor means any patent claim(s) ...'
    defines = '1.1. "Contributor" means each individual or legal entity that creates ...'
    asked = Question.read(question)
    assert not defines_asked_terms(asked, uses)
    assert defines_asked_terms(asked, defines)
    assert defines_asked_terms(Question.read(RETAIN), uses)  # no term quoted: any line may


def test_only_a_question_about_a_rule_is_answered_with_a_line() -> None:
    assert Question.read(RETAIN).rule
    assert Question.read("Who shall bear the cost of the inspection?").rule
    assert not Question.read("What was the name of the storm that hit it in May of 2012?").rule
    assert not Question.read("What replaced the Norse religion?").rule


def test_a_question_naming_a_value_is_never_answered_with_a_line(tmp_path: Path) -> None:
    assert Question.read("Which UID range is used for home directories?").value
    assert Question.read("What fee may be charged?").value
    assert not Question.read(RETAIN).value
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "compliance" / "systemd-uids-gids.md")
    for question in (
        "From which UID range are dynamic service users allocated?",
        "Which UID range is used for home directories managed by systemd-homed?",
    ):
        assert not memory.ask(question).quoted


def test_the_cli_names_the_document_and_says_the_answer_is_a_quote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "licences.sqlite"
    assert main(["ingest", str(CORPORA / "licences"), "--store", str(store), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["ask", RETAIN, "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "A: In licences/idna-bsd-3-clause.md: “1. Redistributions" in out
    assert "quoted whole" in out


def test_a_line_that_says_the_question_back_is_never_quoted() -> None:
    """A quote must say something beside the question's key words: the bug-reporting
    guide's "The first line of the message body has to include a pseudo-header." is
    what "What pseudo-header must ...?" asks, said back, not its answer."""
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "compliance_set" / "debian-bug-reporting.txt")
    opening = "The first line of the message body has to include"
    line = next(h for h in memory.search(opening, k=10) if h.text.startswith(opening))
    said_back = Question.read("What pseudo-header must the first line of the message body include?")
    answered = Question.read("What must the first line of a bug report include?")

    def quoting(asked: Question) -> Case:
        terms = frozenset(asked.key_terms)
        return Case(
            text=line.text,
            lines=[line],
            analyzer=asked.analyzer,
            cites=(0,),
            asked=terms,
            alone=True,
        )

    decision = carries_by_itself(quoting(said_back), Judgement())
    assert decision is not None and decision.reason == "not_an_answer"
    assert "says back" in decision.detail
    # Asked without the line's own words, the line says more than the question.
    decision = carries_by_itself(quoting(answered), Judgement())
    assert decision is None or "says back" not in decision.detail


def test_a_rules_listed_thing_is_its_line_quoted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader finds "boot, restore, recover", three of the four things the rule lists:
    the rule is its line, quoted, and said to be for the list (sure of the span or not);
    without the list read, the span."""
    memory = Memory(dense=False)
    memory.ingest(FHS)
    answer = memory.ask(ADEQUATE)
    assert answer.quoted and answer.text == ADEQUATE_LINE
    assert answer.audit["quoted"]["why"] == LISTED_SPAN
    monkeypatch.setattr(choose, "cut_from_a_list", lambda *_: False)
    span = memory.ask(ADEQUATE, min_probability=0.0)  # the list, not the reader's doubt
    assert not span.refused and not span.quoted and span.text in ADEQUATE_LINE


def test_a_rules_listed_thing_is_its_line_quoted_from_a_fresh_cli(tmp_path: Path) -> None:
    """As a user runs it: `affidavit ingest` and `affidavit ask` in fresh processes with
    the default options; the CLI says the line is quoted and why."""
    store = str(tmp_path / "fhs.sqlite")
    affidavit_command("ingest", str(FHS), "--store", store)
    asked = affidavit_command("ask", ADEQUATE, "--store", store)
    said = asked.stdout.splitlines()
    assert said[1] == f"A: “{ADEQUATE_LINE}”"
    assert said[2] == f"   (the line that answers, quoted whole: {LISTED_SPAN})"
    assert said[3].startswith("   cited [filesystem-hierarchy-standard-3.0.pdf #")
