"""The shape reader routes a question to the kind of answer it names: identifiers, contacts,
titles, deadlines, quantities and durations, in English, Spanish and Turkish, while counts,
manners and reasons that only look alike keep their own type.

The questions are asked of the project's corpora (the site handbook, the IRS 1040NR
instructions, the USDA round-up) or are SQuAD 2.0 and XQuAD questions as written.
"""

from __future__ import annotations

import json

import pytest
from conftest import CORPORA, QUESTIONS

from affidavit.question.shape import AnswerType, read_shape
from affidavit.text.typed_values import line_grade

SQUAD_QUESTIONS = frozenset(q["question"] for q in QUESTIONS)
with (CORPORA / "xquad_slice" / "questions.jsonl").open(encoding="utf-8") as _handle:
    XQUAD_QUESTIONS = frozenset(
        json.loads(line)["question"].strip() for line in _handle if line.strip()
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # identifiers: codes and numbers that name one thing
        ("What is the number of the regulation on hot work permits?", AnswerType.IDENTIFIER),
        ("What is the catalog number of the instructions?", AnswerType.IDENTIFIER),
        ("What is the routing number on the sample check?", AnswerType.IDENTIFIER),
        ("What is the docket number of the rule?", AnswerType.IDENTIFIER),
        ("What form number should you file to change a return?", AnswerType.IDENTIFIER),
        ("What is the RIN of the rule?", AnswerType.IDENTIFIER),
        ("What is the ISBN of the book?", AnswerType.IDENTIFIER),
        ("¿Cuál es el número de expediente?", AnswerType.IDENTIFIER),
        ("¿Cuál es el código del producto?", AnswerType.IDENTIFIER),
        ("Yönetmeliğin numarası nedir?", AnswerType.IDENTIFIER),
        # contacts
        ("What is the phone number of the SSA?", AnswerType.PHONE),
        ("What is the SSA's phone number?", AnswerType.PHONE),
        ("What number should you call for TTY/TDD help?", AnswerType.PHONE),
        ("What is the fax number of the IRS?", AnswerType.PHONE),
        ("¿Cuál es el número de teléfono del IRS?", AnswerType.PHONE),
        ("IRS'nin telefon numarası nedir?", AnswerType.PHONE),
        ("What is the email address of the Market News office?", AnswerType.EMAIL),
        ("¿Cuál es el correo electrónico de la oficina?", AnswerType.EMAIL),
        ("Ofisin e-posta adresi nedir?", AnswerType.EMAIL),
        ("What is the IRS website?", AnswerType.URL),
        ("Where can you download Form SS-5?", AnswerType.URL),
        ("¿Cuál es el sitio web del IRS?", AnswerType.URL),
        ("IRS'nin web sitesi nedir?", AnswerType.URL),
        ("What is the mailing address of the Internal Revenue Service?", AnswerType.PLACE),
        # titles of documents and works
        ("What is the title of these instructions?", AnswerType.TITLE),
        ("Jacksonville's popularity for films earned it what title?", AnswerType.TITLE),
        ("What is the name of the law which imposed the speed limit?", AnswerType.TITLE),
        ("¿Cuál es el título del informe?", AnswerType.TITLE),
        ("Raporun başlığı nedir?", AnswerType.TITLE),
        ("Kitabın adı nedir?", AnswerType.TITLE),
        # deadlines and dates named as the answer
        ("What is the deadline for filing Form 1040NR?", AnswerType.TIME),
        ("What is the due date of the return?", AnswerType.TIME),
        ("How far does one pharmacy in Croatia date back to?", AnswerType.TIME),
        ("¿Cuál es el plazo para presentar la declaración?", AnswerType.TIME),
        ("Son başvuru tarihi nedir?", AnswerType.TIME),
        # durations
        ("How long did Western Europe control Cyprus?", AnswerType.DURATION),
        ("How long is a hot work permit valid?", AnswerType.DURATION),
        ("How many years could separate outbreaks of the black death?", AnswerType.DURATION),
        (
            "¿Cuánto tiempo tardan las nuevas zonas en tener una producción de petróleo "
            "significativa?",
            AnswerType.DURATION,
        ),
        ("¿Cuánto duró la peste en el imperio otomano?", AnswerType.DURATION),
        (
            "Yeni alanların önemli miktarda petrol üretimine sahip olması ne kadar sürer?",
            AnswerType.DURATION,
        ),
        ("Savaş kaç yıl sürdü?", AnswerType.DURATION),
        # quantities with units
        ("How far is Jacksonville from Miami?", AnswerType.QUANTITY),
        ("How tall is the Bank of America Tower?", AnswerType.QUANTITY),
        ("How high do plague fevers run?", AnswerType.QUANTITY),
        ("How long is the St. Johns River?", AnswerType.QUANTITY),
        ("What is Jacksonville's hottest recorded temperature?", AnswerType.QUANTITY),
        ("What is the land area of Jacksonville?", AnswerType.QUANTITY),
        ("¿A qué distancia está Jacksonville de Miami?", AnswerType.QUANTITY),
        ("Jacksonville, Miami'den ne kadar uzakta?", AnswerType.QUANTITY),
        (
            "1964 kasırgasında Aziz Augustine etrafındaki rüzgarlar ne kadar hızlıydı?",
            AnswerType.QUANTITY,
        ),
        # counts that only Spanish and Turkish word differently
        ("¿Cuál es el número de muertos en París?", AnswerType.COUNT),
        ("Paris'teki ölü sayısı nedir?", AnswerType.COUNT),
    ],
)
def test_a_question_is_routed_to_the_kind_of_answer_it_names(
    question: str, expected: AnswerType
) -> None:
    assert read_shape(question).answer_type is expected


@pytest.mark.parametrize(
    ("names_one", "counts_many"),
    [
        (
            "What is the number of the regulation on hot work permits?",
            "What is the number of deaths from the plague in Paris?",
        ),
        ("What was the number of the house?", "What is the number of people who died?"),
        (
            "What is the number of this form?",
            "What was the number of the new members killed in the war?",
        ),
        ("What was the number of the bus?", "What was the number of the dead?"),
        ("What is the serial number of the device?", "What is the current number of members?"),
        ("¿Cuál es el número del expediente?", "¿Cuál es el número de víctimas?"),
    ],
)
def test_number_of_one_thing_names_it_and_number_of_plural_things_counts_them(
    names_one: str, counts_many: str
) -> None:
    # NOTE: the shape reader stays rules, not a parse: "the number of" + a singular,
    # definite head names; a plural head (or "the dead", "people") is counted.
    assert read_shape(names_one).answer_type is AnswerType.IDENTIFIER
    assert read_shape(counts_many).answer_type is AnswerType.COUNT


@pytest.mark.parametrize(
    ("question", "expected", "look_alike", "its_type"),
    [
        # a head noun that is the subject, not the answer's kind
        (
            "What is the IRS website?",
            AnswerType.URL,
            "What can you download from the IRS website?",
            AnswerType.DESCRIPTION,
        ),
        (
            "What is the email address for ordering forms?",
            AnswerType.EMAIL,
            "Which email claims to be from the IRS?",
            AnswerType.DESCRIPTION,
        ),
        # "type of number", "reference hospital", "what number" (real SQuAD questions)
        (
            "What form number should you file to change a return?",
            AnswerType.IDENTIFIER,
            "In what form are most hospital medications?",
            AnswerType.DESCRIPTION,
        ),
        (
            "What is the routing number on the sample check?",
            AnswerType.IDENTIFIER,
            "What type of number do modern mathematicians consider 1 to be?",
            AnswerType.DESCRIPTION,
        ),
        (
            "What is the docket number of the rule?",
            AnswerType.IDENTIFIER,
            "What is the highest reference hospital in all of Poland?",
            AnswerType.DESCRIPTION,
        ),
        (
            "What is the number of this form?",
            AnswerType.IDENTIFIER,
            "What number did early Greeks not regard as a true number?",
            AnswerType.COUNT,
        ),
        # "Which regulation covers ...?" is read by the phrase reader ("Regulation III-52.1")
        (
            "What is the regulation number for hot work permits?",
            AnswerType.IDENTIFIER,
            "Which regulation covers working at height?",
            AnswerType.DESCRIPTION,
        ),
        # without a copula, a word before the noun is a verb: "What makes day length ..."
        (
            "What is the due date of the return?",
            AnswerType.TIME,
            "What makes day length constant on Earth?",
            AnswerType.DESCRIPTION,
        ),
        # "plazo" in "a corto plazo" is a term, not a deadline
        (
            "¿Cuál es el plazo para presentar la declaración?",
            AnswerType.TIME,
            "¿Por qué se creó esta organización a corto plazo?",
            AnswerType.REASON,
        ),
        # the wh-word of a person still decides over a named kind
        (
            "What is the phone number of the SSA?",
            AnswerType.PHONE,
            "Whose phone number must be entered?",
            AnswerType.PERSON,
        ),
        # a reason asked by its noun, before "number of" or a figure noun can claim it
        (
            "What was the reason for the decrease in the number of employees?",
            AnswerType.REASON,
            "What was the number of employees in 2019?",
            AnswerType.COUNT,
        ),
        (
            "What caused the increase in interest expense in 2019?",
            AnswerType.REASON,
            "What was the interest expense in 2019?",
            AnswerType.AMOUNT,
        ),
        # a length of time, and the length of a thing
        (
            "How long is the St. Johns River?",
            AnswerType.QUANTITY,
            "How long was Warsaw occupied by Germany?",
            AnswerType.DURATION,
        ),
    ],
)
def test_look_alike_questions_keep_their_own_type(
    question: str, expected: AnswerType, look_alike: str, its_type: AnswerType
) -> None:
    assert read_shape(question).answer_type is expected
    assert read_shape(look_alike).answer_type is its_type


def test_unaccented_cuando_mid_question_is_the_conjunction_not_when() -> None:
    toyota = (
        "¿Qué coche más grande inventó Toyota cuando los compradores se lamentaron de los "
        "compactos de tamaño pequeño?"
    )
    leader = "¿Quién era el líder cuando los francos se adentraron en el valle del Éufrates?"
    assert {toyota, leader} <= XQUAD_QUESTIONS
    assert read_shape(toyota).answer_type is AnswerType.DESCRIPTION
    assert read_shape(leader).answer_type is AnswerType.PERSON
    assert read_shape("¿Cuándo llegó Y. pestis a Inglaterra?").answer_type is AnswerType.TIME


def test_the_cue_is_the_type_noun_and_its_modifiers_stay_content_words() -> None:
    shape = read_shape("What is the catalog number of the instructions?")
    assert shape.cue == "number"
    assert shape.content_words == ("catalog", "instructions")
    shape = read_shape("How long is the St. Johns River?")
    assert shape.answer_type is AnswerType.QUANTITY
    assert {"johns", "river"} <= set(shape.content_words)
    assert read_shape("What is the SSA's phone number?").content_words == ("ssa",)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How long did Western Europe control Cyprus?", AnswerType.DURATION),
        ("How many years could separate outbreaks of the black death?", AnswerType.DURATION),
        ("For how long did the plague stick around?", AnswerType.DURATION),
        ("How far is Jacksonville from Miami?", AnswerType.QUANTITY),
        ("How tall is the Bank of America Tower?", AnswerType.QUANTITY),
        ("How high do plague fevers run?", AnswerType.QUANTITY),
        ("What is Jacksonville's hottest recorded temperature?", AnswerType.QUANTITY),
        ("Jacksonville's popularity for films earned it what title?", AnswerType.TITLE),
        ("What is the name of the law which imposed the speed limit?", AnswerType.TITLE),
        ("How far does one pharmacy in Croatia date back to?", AnswerType.TIME),
        ("¿Cuánto duró la peste en el imperio otomano?", AnswerType.DURATION),
        ("¿A qué distancia está Jacksonville de Miami?", AnswerType.QUANTITY),
        (
            "Veba Osmanlı İmparatorluğu'nda ne kadar sürmüştür?",
            AnswerType.DURATION,
        ),
        (
            "1964 kasırgasında Aziz Augustine etrafındaki rüzgarlar ne kadar hızlıydı?",
            AnswerType.QUANTITY,
        ),
    ],
)
def test_corpus_questions_of_the_new_types_are_routed_to_them(
    question: str, expected: AnswerType
) -> None:
    """SQuAD 2.0 and XQuAD questions exactly as the project's corpora hold them."""
    assert question in SQUAD_QUESTIONS | XQUAD_QUESTIONS
    assert read_shape(question).answer_type is expected


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # A gloss in brackets repeats the words it follows; the kind is read around it.
        ("What is the catalog number (Cat. No.) of Form W-9?", AnswerType.IDENTIFIER),
        ("What is the employer identification number (EIN) of the filer?", AnswerType.IDENTIFIER),
        ("How long (in days) is the notice period?", AnswerType.DURATION),
    ],
)
def test_a_bracketed_gloss_leaves_the_kind_asked(question: str, kind: AnswerType) -> None:
    assert read_shape(question, "en").answer_type is kind


def test_a_year_alone_is_no_code_a_line_is_seated_for() -> None:
    # An IRS form's lines (corpora/compliance_set/irs-form-1040-2012.pdf): asked for the
    # form's catalog number, the footer's code outranks a line whose only figure besides
    # the question's own is the form's year.
    grade = line_grade("identifier", "What is the catalog number of Form 1040?", whole_date=False)
    assert grade is not None
    assert grade("Cat. No. 11320B\tForm 1040 (2012)") == 0
    assert grade("Form 1040 (2012)") == 1
    assert grade("Form 1040") == 2
