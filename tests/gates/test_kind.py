"""The kind judge on real lines (NIST SP 800-63B, corpora/rules): a heading, a section
number, a field's label or the question said back is refused as an answer; a value the
same lines hold passes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.gates import Case, Judgement, judged
from affidavit.gates.kind import of_the_kind_asked
from affidavit.question import Question
from affidavit.results import Evidence, LineKind

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
NIST = CORPORA / "rules" / "nist-sp800-63b.txt"


@pytest.fixture(scope="module")
def lines() -> list[Evidence]:
    memory = Memory(dense=False)
    memory.ingest(NIST)
    return memory.search("Memorized Secret Verifiers minimum length characters", k=12)


def _case(question: str, answer: str, lines: list[Evidence]) -> Case:
    asked = Question.read(question)
    cited = next(n for n, line in enumerate(lines) if answer.rstrip(":") in line.text)
    return Case(text=answer, lines=lines, analyzer=asked.analyzer, question=asked, cites=(cited,))


def _kind(question: str, answer: str, lines: list[Evidence]) -> dict[str, object] | None:
    """The kind judge's decision on the answer, as a dict (None: it has nothing against it)."""
    decision = of_the_kind_asked(_case(question, answer, lines), Judgement())
    return decision.to_dict() if decision is not None else None


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        # The heading the verifiers' rules stand under, whole and without its number.
        (
            "Which rules apply to memorized secret verifiers?",
            "Memorized Secret Verifiers",
            "question's own words",
        ),
    ],
)
def test_a_heading_or_the_question_said_back_is_not_an_answer(
    lines: list[Evidence], question: str, answer: str, said: str
) -> None:
    decision = _kind(question, answer, lines)
    assert decision is not None and decision["passed"] is False
    assert decision["reason"] == "not_an_answer" and said in str(decision["detail"])


def test_a_part_s_marker_and_title_is_not_an_answer() -> None:
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "licences" / "apache-2.0.txt")
    lines = memory.search("Grant of Copyright License perpetual worldwide", k=5)
    decision = _kind(
        "What does each Contributor grant You?", "2. Grant of Copyright License", lines
    )
    assert decision is not None and "section marker" in str(decision["detail"])
    # The clause itself, which the same line goes on to say, is judged on.
    assert _kind("What does each Contributor grant You?", "a perpetual, worldwide", lines) is None


def test_a_heading_line_cited_whole_is_refused_for_a_value_question(
    lines: list[Evidence],
) -> None:
    heading = next(line for line in lines if line.kind.value == "heading")
    decision = _kind("How many characters must verifiers require?", heading.text, lines)
    assert decision is not None and "heading" in str(decision["detail"])


def test_a_value_the_lines_hold_is_judged_on(lines: list[Evidence]) -> None:
    assert (
        _kind("How long must memorized secrets be at least?", "at least 8 characters", lines)
        is None
    )


def test_a_question_offering_alternatives_may_be_answered_in_its_words(
    lines: list[Evidence],
) -> None:
    question = "Are the rules for verifiers or for authenticators?"
    assert _kind(question, "Memorized Secret Verifiers", lines) is None


def test_a_sentence_given_to_verify_is_not_judged_for_its_kind(lines: list[Evidence]) -> None:
    asked = Question.read("Memorized Secret Verifiers")
    case = Case(text="Memorized Secret Verifiers", lines=lines, analyzer=asked.analyzer)
    assert of_the_kind_asked(case, Judgement()) is None
    assert all(d.gate.value != "kind" for d in judged(case).decisions)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # A number is news, whatever words it comes with.
        ("How many characters must memorized secrets be?", "at least 8 characters"),
    ],
)
def test_a_number_is_not_the_question_said_back(
    lines: list[Evidence], question: str, answer: str
) -> None:
    assert _kind(question, answer, lines) is None


EUPL = CORPORA / "compliance_set" / "eupl-1.2.txt"
APACHE = CORPORA / "licences" / "apache-2.0.txt"


def _cited(document: Path, opening: str, question: str, answer: str) -> dict[str, object] | None:
    memory = Memory(dense=False)
    memory.ingest(document)
    line = next(hit for hit in memory.search(opening, k=20) if hit.text.startswith(opening))
    asked = Question.read(question)
    case = Case(text=answer, lines=[line], analyzer=asked.analyzer, question=asked, cites=(0,))
    decision = of_the_kind_asked(case, Judgement())
    return decision.to_dict() if decision is not None else None


def _refused_why(document: Path, opening: str, question: str, answer: str) -> str:
    """The kind judge's detail for an answer it refuses (failing when it lets it pass)."""
    decision = _cited(document, opening, question, answer)
    assert decision is not None and decision["passed"] is False
    return str(decision["detail"])


def test_the_number_a_part_opens_with_is_not_a_value() -> None:
    assert "numbers a part" in _refused_why(
        EUPL, "3.Communication", "What is the Source Code under the EUPL?", "3"
    )


def test_a_question_asking_which_part_is_answered_by_its_number() -> None:
    question = "Which section of the Apache License limits liability?"
    assert _cited(APACHE, "8. Limitation of Liability", question, "8") is None


I1040NR = CORPORA / "pdf_text_dumps" / "i1040nr.pdf"


def test_an_answer_ending_inside_a_reference_is_not_an_answer() -> None:
    """ "What is the title of Pub. 519?" is not answered "chapter 3 of Pub", cut at the
    full stop of "Pub. 519"; the reference whole, or a span not ending on it, may be."""
    question = "What is the title of Pub. 519?"
    assert "Pub. 519" in _refused_why(
        I1040NR, "See chapter 3 of Pub. 519", question, "chapter 3 of Pub"
    )
    assert _cited(I1040NR, "See chapter 3 of Pub. 519", question, "chapter 3 of Pub. 519") is None


BUGS = CORPORA / "compliance_set" / "debian-bug-reporting.txt"
LISTS = CORPORA / "compliance_set" / "debian-mailing-lists.txt"


def test_an_answer_cut_from_a_hyphened_word_is_not_an_answer() -> None:
    """ "No-Ack" is a piece of the header "X-Debbugs-No-Ack" the line names."""
    opening, question = "If you want to suppress", "Which header suppresses the acknowledgement?"
    assert "X-Debbugs-No-Ack" in _refused_why(BUGS, opening, question, "No-Ack")
    assert _cited(BUGS, opening, question, "X-Debbugs-No-Ack") is None


def test_the_opening_words_of_a_quoted_name_are_not_an_answer() -> None:
    """ "Software" stops short of "Software in the Public Interest", named in quotation
    marks; the whole name, or its abbreviation written apart, answers."""
    opening, question = "The fee for advertisments", "To whom is the advertising fee donated?"
    assert "Software in the Public Interest" in _refused_why(LISTS, opening, question, "Software")
    assert _cited(LISTS, opening, question, "Software in the Public Interest") is None
    assert _cited(LISTS, opening, question, "SPI") is None


def test_an_answer_that_opens_a_bracket_and_stops_inside_it_is_cut() -> None:
    opening, question = "The fee for advertisments", "To whom is the advertising fee donated?"
    assert "stops before its ')'" in _refused_why(
        LISTS, opening, question, 'Software in the Public Interest" (SPI'
    )
    assert _cited(LISTS, opening, question, 'Software in the Public Interest" (SPI)') is None


COPYRIGHT_FORMAT = CORPORA / "compliance_set" / "debian-copyright-format-1.0.txt"


def test_a_question_asking_which_section_is_not_answered_by_a_sentence() -> None:
    opening = "The syntax of the file is the same as for other Debian control files"
    question = "Which section of the Debian Policy Manual specifies the control file syntax?"
    line = f"{opening}, as specified in the Debian Policy Manual."
    assert "asks which part" in _refused_why(COPYRIGHT_FORMAT, opening, question, line)
    # Asked what the syntax is, the same line may answer.
    assert _cited(COPYRIGHT_FORMAT, opening, "What is the syntax of the file?", line) is None


def test_a_question_asking_for_an_address_is_answered_by_one() -> None:
    """Asked where mail goes, "need to contact a human listmaster" names no address; the
    e-mail address the same line writes does."""
    opening, question = (
        "If you need to contact",
        "To what address should mail for a human listmaster be directed?",
    )
    assert "writes no address" in _refused_why(
        LISTS, opening, question, "need to contact a human listmaster"
    )
    assert _cited(LISTS, opening, question, "listmaster@lists.debian.org") is None


FORM_1040A = CORPORA / "compliance_set" / "irs-form-1040a-2012.pdf"
FORM_1040EZ = CORPORA / "compliance_set" / "irs-form-1040ez-2012.pdf"
MENU_POLICY = CORPORA / "compliance_set" / "debian-menu-policy.txt"


def test_a_question_asking_for_a_date_is_answered_by_one_the_patterns_read() -> None:
    """A catalogue number beside a form's name, which a model took for a date, answers no
    "by what date"; a date or a year the language layer reads does."""
    opening, question = "Cat. No. 11327A", "By what date must Form 1040A for 2012 be filed?"
    assert "writes no date" in _refused_why(FORM_1040A, opening, question, "11327A Form 1040A")
    assert _cited(FORM_1040A, opening, question, "April 15, 2013") is None
    assert _cited(FORM_1040A, opening, "In what year was the form issued?", "2012") is None


def test_a_count_is_a_number_and_what_it_counts() -> None:
    """A form's heading writing its code in brackets is no count of dependents; a number
    after a bound ("at least two") is one."""
    opening = "1040EZ\tJoint Filers"
    question = "If there are more than how many dependents should the filer see the instructions?"
    heading = "Joint Filers With No Dependents (99)"
    assert "not a count" in _refused_why(FORM_1040EZ, opening, question, heading)
    assert _cited(FORM_1040EZ, opening, question, "more than two") is None
    assert _cited(FORM_1040EZ, opening, question, "99") is None


def test_an_answer_stopping_before_the_name_it_introduces_is_cut() -> None:
    """ "the file" stops before the path the line names it by."""
    opening = "Comment: On Debian systems, the full text of the GNU General Public License"
    question = "Where can the full text of the GNU General Public License version 2 be found?"
    path = "'/usr/share/common-licenses/GPL-2'"
    assert path in _refused_why(COPYRIGHT_FORMAT, opening, question, "the file")
    assert _cited(COPYRIGHT_FORMAT, opening, question, f"the file {path}") is None


def test_a_question_asking_which_version_is_answered_by_a_figure() -> None:
    """A name the title page writes is no version; the version line's figure is one."""
    question = "What version of the Debian Menu sub-policy is this?"
    refused = _refused_why(MENU_POLICY, "Copyright © 1999", question, "Chris Waters")
    assert "writes no figure" in refused
    assert _cited(MENU_POLICY, "version 4.6.2.0", question, "version 4.6.2.0") is None


def test_a_question_asking_how_many_years_is_answered_by_a_number() -> None:
    """ "how many years" asks a length of time, not a year: "3" answers it."""
    opening = "Generally, Form 1040X must be filed within 3 years"
    question = "Within how many years after the original return was filed must Form 1040X be filed?"
    assert _cited(I1040NR, opening, question, "3") is None


def test_a_figure_is_not_answered_without_the_bound_its_line_sets(lines: list[Evidence]) -> None:
    decision = _kind("How many characters must memorized secrets be?", "8 characters", lines)
    assert decision is not None and "'at least 8 characters'" in str(decision["detail"])
    # The question that sets the bound itself is answered by the figure.
    assert _kind("How long must memorized secrets be at least?", "8 characters", lines) is None


def test_a_question_opening_on_an_auxiliary_asks_yes_or_no_though_unparsed() -> None:
    # The Debian mailing lists page (corpora/compliance_set): the parse shows no subject in
    # "Is the debian-announce list moderated?", and the field of another list ("Moderated
    # : no", its next field run on) is no yes or no the lines settle.
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "compliance_set" / "debian-mailing-lists.txt")
    lines = memory.search("Moderated no Subscription open", k=5)
    answer = next(line.text for line in lines if line.text.startswith("Moderated"))
    answer = answer.split(":", 1)[1].strip()
    decision = _kind("Is the debian-announce list moderated?", answer, lines)
    assert decision is not None and "no yes or no" in str(decision["detail"])


def test_a_yes_or_no_question_is_never_answered_by_a_span(lines: list[Evidence]) -> None:
    # Its lines say yes or no through the clause frames (answer/polar.py), or its line is
    # quoted: a span, the question's words among them, answers neither.
    decision = _kind(
        "Are memorized secret verifiers required?", "Memorized Secret Verifiers", lines
    )
    assert decision is not None and "no yes or no" in str(decision["detail"])


def test_a_pages_marker_is_no_value() -> None:
    # The NICS report's footer (corpora/pdf_text_dumps): "Page 1 of 205" counts pages, not
    # background checks.
    memory = Memory(dense=False)
    memory.ingest(CORPORA / "pdf_text_dumps" / "nics-background-checks-2015-11.pdf")
    lines = [line for line in memory.search("Page 1 of 205", k=10) if line.text == "Page 1 of 205"]
    decision = _kind("What was the total number of NICS firearm background checks?", "205", lines)
    assert decision is not None and "numbers the page" in str(decision["detail"])


def _heading(document: str, position: int, text: str) -> Evidence:
    """A heading line as the store reads it from a document of corpora/compliance_set."""
    return Evidence(
        document=document, position=position, text=text, kind=LineKind.HEADING, score=1.0
    )


def test_a_question_asking_how_long_is_answered_by_a_length_of_time() -> None:
    """The Filesystem Hierarchy Standard's /var/log heading names what the directory holds,
    not how long: a section's title is refused, a figure or a bound in time is judged on."""
    line = _heading(
        "filesystem-hierarchy-standard-3.0.pdf",
        970,
        "The /var Hierarchy 5.10. /var/log : Log files and directories",
    )
    question = "How long must log files be kept in /var/log?"
    refused = _kind(question, "Log files and directories", [line])
    assert refused is not None and "no length of time" in str(refused["detail"])
    for said in ("seven days", "until the package is removed", "3 months"):
        assert _kind(question, said, [replace(line, text=f"Keep them {said}.")]) is None


def test_the_number_a_heading_opens_with_numbers_its_part_whatever_follows() -> None:
    """ "9.8.3 developers-reference" (Debian Developer's Reference: a package named in lower
    case) numbers a section; it is no count of developers. A sentence's opening figure is."""
    line = _heading("debian-developers-reference.pdf", 3032, "9.8.3 developers-reference")
    refused = _kind("How many Debian Developers are there?", "9.8.3", [line])
    assert refused is not None and "numbers a part" in str(refused["detail"])
    sentence = replace(line, text="1000 developers maintain the archive.", kind=LineKind.SENTENCE)
    assert _kind("How many Debian Developers are there?", "1000", [sentence]) is None


def test_a_question_asking_how_many_is_answered_by_a_number_or_a_word_for_one() -> None:
    """A section's title (Debian Developer's Reference) names developers but counts none."""
    line = _heading(
        "debian-developers-reference.pdf",
        2654,
        "7.5 Interacting with prospective Debian developers",
    )
    question = "How many Debian Developers are there?"
    refused = _kind(question, "prospective Debian developers", [line])
    assert refused is not None and "writes no number" in str(refused["detail"])
    for said in ("dozens of volunteers", "1,000 Debian developers"):
        assert _kind(question, said, [replace(line, text=f"There are {said}.")]) is None


def test_a_name_cut_before_it_goes_on_over_of_on_or_for_is_not_an_answer() -> None:
    """The CDDL's governing-law clause names the United Nations Convention on Contracts for
    the International Sale of Goods: "the United Nations Convention" stops inside it."""
    text = (
        "The application of the United Nations Convention on Contracts for the International "
        "Sale of Goods is expressly excluded."
    )
    line = Evidence(document="cddl-1.0.txt", position=0, text=text, kind=LineKind.SENTENCE, score=1)
    question = "Which convention's application is expressly excluded by the CDDL?"
    refused = _kind(question, "the United Nations Convention", [line])
    assert refused is not None and "Sale of Goods" in str(refused["detail"])
    whole = "the United Nations Convention on Contracts for the International Sale of Goods"
    assert _kind(question, whole, [line]) is None
