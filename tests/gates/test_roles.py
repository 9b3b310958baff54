"""The gate reads who did what: swapped roles are dropped and reversed polarity is
contradicted, each with its own reason, a change of voice with the same roles stands, and
the question's words are never evidence for the answer; an answer its line says is not so
is refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import DEMO_DIR

from affidavit import Memory, Reason
from affidavit.gates.case import Case, Judgement
from affidavit.gates.roles import slot_said_not_so
from affidavit.question.question import Question
from affidavit.results import Evidence, LineKind


def verdict(line: str, text: str, question: str | None = None) -> tuple[str, str | None]:
    memory = Memory(dense=False)
    memory.ingest_text(line, name="note.md")
    (sentence,) = memory.verify(text, question=question).sentences
    return sentence.status, sentence.reason


@pytest.mark.parametrize(
    ("line", "text", "reason"),
    [
        (
            "Tom Hale taught Anna Berg in Paris.",
            "Anna Berg taught Tom Hale in Paris.",
            Reason.ROLES,
        ),
        ("The startup was bought by the company.", "The startup bought the company.", Reason.ROLES),
        ("The museum was never finished.", "The museum was finished.", Reason.CONTRADICTED),
        (
            "The committee did not approve the budget.",
            "The committee approved the budget.",
            Reason.CONTRADICTED,
        ),
        # a verb that says its complement did not happen, and "without"
        (
            "The company failed to finish the museum.",
            "The company finished the museum.",
            Reason.CONTRADICTED,
        ),
        (
            "The board refused to sign the lease.",
            "The board signed the lease.",
            Reason.CONTRADICTED,
        ),
        ("The team left without the trophy.", "The team left with the trophy.", Reason.NEGATION),
    ],
)
def test_a_distortion_of_who_did_what_is_dropped(line: str, text: str, reason: Reason) -> None:
    # The line that says the opposite makes the sentence contradicted, not merely dropped.
    status = "contradicted" if reason is Reason.CONTRADICTED else "dropped"
    assert verdict(line, text) == (status, reason.value)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("Tom Hale taught Anna Berg in Paris.", "Tom Hale taught Anna Berg in Paris."),
        ("The startup was bought by the company.", "The company bought the startup."),
        ("The company bought the startup.", "The startup was bought by the company."),
        ("The museum was never finished.", "The museum was never finished."),
        # two negations cancel; what is left out is not denied
        ("The company did not fail to finish the museum.", "The company finished the museum."),
        ("The team left the stadium without the trophy.", "The team left the stadium."),
    ],
)
def test_the_same_roles_in_either_voice_stand(line: str, text: str) -> None:
    assert verdict(line, text) == ("supported", None)


def test_the_question_words_are_not_evidence_for_the_answer() -> None:
    line = "Tom Hale, a painter, taught Anna Berg."
    text = "Tom Hale, a French painter, taught Anna Berg."
    question = "Which French painter taught Anna Berg?"
    assert verdict(line, text, question) == ("dropped", Reason.MIXTURE.value)
    assert verdict(line, "Tom Hale", question)[0] == "supported"  # the bare answer stands


def test_where_roles_cannot_be_read_the_audit_says_so() -> None:
    memory = Memory(dense=False)
    memory.ingest_text("El museo fue terminado por la ciudad en 1990.", name="nota.md")
    (sentence,) = memory.verify("El museo fue terminado por la ciudad en 1990.").sentences
    assert sentence.supported
    roles = [g for g in sentence.gates if g["gate"] == "roles"]
    assert roles and "no es parser" in roles[0]["detail"]


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("El museo nunca fue terminado.", "El museo fue terminado."),
        ("Ali müzeye gelmedi.", "Ali müzeye geldi."),
    ],
)
def test_spanish_and_turkish_polarity_must_agree(line: str, text: str) -> None:
    status, _ = verdict(line, text)
    assert status == "dropped"
    assert verdict(line, line) == ("supported", None)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Carl Kim taught Anna Berg in Paris.", "dropped"),  # Carl Kim only watched
        ("Tom Hale taught Carl Kim in Paris.", "dropped"),
        ("Anna Berg watched.", "dropped"),
        ("Tom Hale taught Anna Berg in Paris.", "supported"),
        ("Anna Berg was taught by Tom Hale in Paris.", "supported"),
    ],
)
def test_a_name_must_be_the_one_the_line_gives_that_role(text: str, status: str) -> None:
    line = "Tom Hale taught Anna Berg in Paris while Carl Kim watched."
    found, reason = verdict(line, text)
    assert found == status
    if status == "dropped":
        assert reason == Reason.ROLES.value


def test_names_sharing_a_regnal_number_or_a_title_are_still_two_names() -> None:
    line = "In 1066, Duke William II of Normandy conquered England, killing King Harold II."
    assert verdict(line, "Harold II of Normandy conquered England.") == ("dropped", "roles")
    assert verdict(line, "William conquered England.")[0] == "supported"


@pytest.fixture(scope="module")
def article_verdict() -> Callable[[str, str], tuple[str, str | None]]:
    """verdict() over two real articles (SQuAD 2.0, in corpora/demo), each alone in a
    store: the status and reason of ``text`` against the named article."""
    stores = {}
    for name in ("1973_oil_crisis.txt", "Normans.txt"):
        memory = Memory(dense=False)
        memory.ingest_text((DEMO_DIR / name).read_text(encoding="utf-8"), name=name)
        stores[name] = memory

    def judged(article: str, text: str) -> tuple[str, str | None]:
        (sentence,) = stores[article].verify(text).sentences
        return sentence.status, sentence.reason

    return judged


@pytest.mark.parametrize(
    ("article", "text"),
    [
        # "Iran was ... a close US ally": a name in a modifier, which no verb's role holds
        (
            "1973_oil_crisis.txt",
            "At the time, US was the world's second-largest oil exporter and a close Iran ally.",
        ),
        # "Lombard Salerno was ... under Norman domination": the names trade across clauses
        (
            "Normans.txt",
            "Lombard Norman was a centre of ivorywork in the 11th century and this continued "
            "under Salerno domination.",
        ),
        (
            "Normans.txt",
            "King William of Scotland married Edgar's sister Margaret, and came into opposition "
            "to Malcolm III who had already disputed Scotland's southern borders.",
        ),
        # "Syria and Egypt ... launched a surprise attack on Israel"
        (
            "1973_oil_crisis.txt",
            "On October 6, 1973, Syria and Israel, with support from other Arab nations, "
            "launched a surprise attack on Egypt, on Yom Kippur.",
        ),
        # "kings of England ... the King of France": both hang from "king"; the words
        # around each name tell them apart
        (
            "Normans.txt",
            "Early Norman kings of France, as Dukes of Normandy, owed homage to the King of "
            "England for their land on the continent.",
        ),
        # "Price controls exacerbated the crisis in the US": the swap parses as a noun
        # phrase, with no roles; its word order around the verb still tells
        ("1973_oil_crisis.txt", "The crisis in the US exacerbated price controls."),
    ],
)
def test_names_or_roles_that_trade_places_are_dropped(
    article_verdict: Callable[[str, str], tuple[str, str | None]], article: str, text: str
) -> None:
    assert article_verdict(article, text) == ("dropped", Reason.ROLES.value)


@pytest.mark.parametrize(
    ("article", "text"),
    [
        (
            "1973_oil_crisis.txt",
            "At the time, Iran was the world's second-largest oil exporter and a close US ally.",
        ),
        ("1973_oil_crisis.txt", "The crisis in the US was exacerbated by price controls."),
        ("Normans.txt", "Lombard Salerno was a centre of ivorywork in the 11th century."),
        # the members of a list in another order say the same
        (
            "1973_oil_crisis.txt",
            "On October 6, 1973, Egypt and Syria, with support from other Arab nations, "
            "launched a surprise attack on Israel, on Yom Kippur.",
        ),
        ("Normans.txt", "In 1066, England was conquered by Duke William II of Normandy."),
    ],
)
def test_names_where_the_article_puts_them_stand(
    article_verdict: Callable[[str, str], tuple[str, str | None]], article: str, text: str
) -> None:
    assert article_verdict(article, text) == ("supported", None)


def _slot(question: str, line: str, answer: str) -> str | None:
    asked = Question.read(question)
    evidence = [
        Evidence(document="style.md", position=0, text=line, kind=LineKind.SENTENCE, score=1.0)
    ]
    case = Case(text=answer, lines=evidence, analyzer=asked.analyzer, cites=(0,), question=asked)
    decision = slot_said_not_so(case, Judgement())
    return None if decision is None else decision.reason


# systemd's coding style (corpora/compliance/systemd-coding-style.md), as ingest joins it.
LOGGING = 'Do not log errors from "library" code, only do so from "main program" code.'


def test_an_answer_its_line_says_is_not_so_is_refused() -> None:
    asked = "From which code may errors be logged?"
    assert _slot(asked, LOGGING, '"library" code') == Reason.NEGATION
    assert _slot(asked, LOGGING, '"main program" code') is None  # control: the line's "do"


def test_a_question_asking_what_is_not_so_or_an_answer_saying_not_stands() -> None:
    assert _slot("From which code must errors not be logged?", LOGGING, '"library" code') is None
    assert _slot("Which code is excluded from logging?", LOGGING, '"library" code') is None
    line = "You must not remove the license notices."
    assert (
        _slot("What must you do with the notices?", line, "not remove the license notices") is None
    )
    assert _slot("What must you do with the notices?", line, "remove the license notices") == (
        Reason.NEGATION
    )


def test_not_until_says_when_and_other_denials_stand() -> None:
    """ "Did not recover until the 17th century" says when it recovered (SQuAD 2.0's Black
    Death article, whose right answer the polarity judge refused); what the clause denies,
    and a length of time it is denied for, stay refused."""
    recovered = (
        "The world population as a whole did not recover to pre-plague levels until the 17th "
        "century."
    )
    asked = "When did the world's population recover from the black death?"
    assert _slot(asked, recovered, "the 17th century") is None
    newton = (
        "What we now call gravity was not identified as a universal force until the work of "
        "Isaac Newton."
    )
    assert _slot("Who identified gravity as a force?", newton, "Isaac Newton") is None
    lapse = "The licence does not apply for three years after signing."
    assert _slot("For how long does the licence apply?", lapse, "three years") == Reason.NEGATION
    bergen = "Bergen op Zoom was not directly infected from England or France in 1349."
    assert _slot("When was Bergen op Zoom infected from England?", bergen, "1349") == (
        Reason.NEGATION
    )
