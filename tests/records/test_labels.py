"""Identity across languages: the shipped labels reproduce their recorded score on the
development word list; a Spanish or Turkish question over English paragraphs (XQuAD,
CC BY-SA 4.0) is read in English through the labels and answered from the English lines,
its reading word by word in the audit; the operator's labels come first and survive
reopen; `labels` lists a word's concepts both ways."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from affidavit import InputError, Label, Memory
from affidavit.records.labels import dev_score, shipped, threshold

ROOT = Path(__file__).resolve().parents[2]
SLICE = ROOT / "corpora" / "xquad_slice"
DEV_WORDS = ROOT / "tools" / "label_dev_words.tsv"
RECORDED = ROOT / "affidavit" / "data" / "labels" / "threshold.txt"


def test_the_shipped_labels_reproduce_their_recorded_dev_score() -> None:
    with DEV_WORDS.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    cells = []
    for language in ("es", "tr"):
        right, wrong, none = dev_score(rows, language, shipped(language), threshold())
        cells.append(f"{right} / {wrong} / {none}")
    recorded = RECORDED.read_text(encoding="utf-8")
    assert f"| {threshold():.2f} | {cells[0]} | {cells[1]} |" in recorded


@pytest.fixture(scope="module")
def english_paragraphs() -> Memory:
    memory = Memory(dense=False)
    with (SLICE / "paragraphs.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            paragraph = json.loads(line)
            memory.ingest_text(paragraph["text"], name=paragraph["name"])
    return memory


@pytest.mark.parametrize(
    ("question", "language", "answer"),
    [
        ("¿Quién es el primer administrador de la Oficina Federal de Energía?", "es", "Simon"),
        ("¿Cuántas personas murieron de peste en París en 1466?", "es", "40,000"),
        ("¿Cuántas veces se produjo la peste en Venecia?", "es", "22"),
    ],
)
def test_a_question_in_another_language_is_answered_from_the_english_lines(
    english_paragraphs: Memory, question: str, language: str, answer: str
) -> None:
    said = english_paragraphs.ask(question)
    assert not said.refused and answer in said.text
    assert said.question == question
    assert said.citations and answer in said.citations[0].text  # an English line
    read_in = said.audit["read_in"]
    assert read_in["language"] == language and read_in["read_as"] != question
    hows = {w["how"] for w in read_in["words"]}
    assert "question word" in hows and hows & {"label", "nearest in the evidence", "name"}


def test_a_turkish_question_is_read_with_its_question_word_and_noun_first(
    english_paragraphs: Memory,
) -> None:
    said = english_paragraphs.ask("Jacksonville hangi eyalettedir?")
    assert said.audit["read_in"]["read_as"].startswith("Which state")
    assert not said.text.startswith("Tropical Storm")  # "which Jacksonville" asked no storm


def test_an_english_question_is_read_as_asked(english_paragraphs: Memory) -> None:
    said = english_paragraphs.ask("Who is the first administrator of the Federal Energy Office?")
    assert "read_in" not in said.audit and "Simon" in said.text


def test_an_operator_label_comes_first_and_survives_reopen(tmp_path: Path) -> None:
    store = tmp_path / "labels.sqlite"
    with Memory(store, dense=False) as memory:
        memory.ingest_text(
            "The annual levy is 40 dollars a household. The annual parking fee is 10 dollars.",
            name="levy.txt",
        )
        as_a_fee = memory.ask("¿Cuál es la cuota anual?")
        read = {w["asked"]: (w["read"], w["how"]) for w in as_a_fee.audit["read_in"]["words"]}
        assert read["cuota"] == ("fee", "nearest in the evidence") and "10" in as_a_fee.text
        told = memory.label("cuota", "levy", language="es")
        assert told == Label("cuota", "es", "levy", told.concept, "operator")
    with Memory(store, dense=False) as memory:
        # the reader's confidence is not this test's subject
        said = memory.ask("¿Cuál es la cuota anual?", min_probability=0.0)
        assert not said.refused and "40 dollars" in said.text  # this office's "cuota"
        read = {w["asked"]: (w["read"], w["how"]) for w in said.audit["read_in"]["words"]}
        assert read["cuota"] == ("levy", "operator")
        assert memory.labels("cuota")[0].source == "operator"


def test_labels_are_listed_both_ways_with_their_concept() -> None:
    memory = Memory(dense=False)
    spanish = memory.labels("ciudad")
    assert [(x.language, x.means, x.source) for x in spanish] == [("es", "city", "bundled model")]
    naming_city = memory.labels("city")
    assert {"ciudad"} <= {x.word for x in naming_city if x.language == "es"}
    assert len({x.concept for x in naming_city}) == 1  # one concept, many labels
    assert spanish[0].cosine is not None and spanish[0].cosine >= threshold()


def test_a_label_in_a_language_the_labels_do_not_read_is_an_input_error() -> None:
    with pytest.raises(InputError, match="language 'fr'"):
        Memory(dense=False).label("ville", "city", language="fr")


def test_a_computed_answer_is_worded_in_the_askers_language() -> None:
    # A TAT-QA report's table (CC BY 4.0), asked in Spanish and Turkish: the plan runs on
    # the English rows, and the library's sentence is the asker's.
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import _memory

    memory = _memory("789efd09")
    spanish = memory.ask("¿Cuál fue el promedio del total de 2018 y 2019?")
    assert spanish.value == pytest.approx(49654.5)
    assert spanish.text.startswith("El promedio es $49,654.5")
    turkish = memory.ask("2019 yılında toplam neydi?")
    assert turkish.value == 55945 and turkish.text.startswith("Değer: $55,945")
    assert memory.ask("What was the total in 2019?").text.startswith("The value is $55,945")


def test_a_refusal_is_said_in_the_askers_language(english_paragraphs: Memory) -> None:
    spanish = english_paragraphs.ask("¿Cuál es el color favorito de Rollo?")
    turkish = english_paragraphs.ask("Rollo'nun en sevdiği renk nedir?")
    english = english_paragraphs.ask("What is the favourite colour of Rollo?")
    assert spanish.refused and turkish.refused and english.refused
    assert spanish.text.startswith("La evidencia no contiene nada del tipo que pide")
    assert turkish.text.startswith("Kanıtta sorunun istediği türden bir şey yok")
    assert english.text.startswith("The evidence holds nothing of the kind")
    assert spanish.reason == turkish.reason == english.reason  # the code stays the same


@pytest.mark.parametrize("language", ["es", "tr"])
def test_every_reason_has_its_line_in_spanish_and_turkish(language: str) -> None:
    from affidavit.reasons import Reason

    for reason in Reason:
        assert reason.said_in(language) != reason.text, reason
    assert Reason.NO_EVIDENCE.said_in("fr") == Reason.NO_EVIDENCE.text


def test_an_entitys_inflections_are_labels_of_one_concept() -> None:
    # The Normans article of SQuAD 2.0 (CC BY-SA 4.0): the entity graph holds "Norman"
    # (64 mentions) and "Normans" (39) as two entities.
    memory = Memory(dense=False)
    memory.ingest(str(ROOT / "corpora" / "squad2_articles" / "Normans.txt"))
    (plural,) = memory.labels("Norman")
    (singular,) = memory.labels("Normans")
    assert (plural.word, plural.source, singular.word) == ("Normans", "entity graph", "Norman")
    assert plural.concept == singular.concept  # one concept, whichever name is asked
    assert [label.word for label in memory.profile("Norman").labels] == ["Normans"]
    assert memory.labels("Rollo") == []


@pytest.mark.parametrize(
    ("word", "means", "problem"),
    [
        ("", "fee", "the word: it is empty"),
        ("cuota", "  ", "means: it is empty"),
        ("x" * 101, "fee", "over 100"),
    ],
)
def test_an_empty_or_overlong_label_is_an_input_error_and_stores_nothing(
    tmp_path: Path, word: str, means: str, problem: str
) -> None:
    with Memory(tmp_path / "m.sqlite", dense=False) as memory:
        with pytest.raises(InputError, match=problem):
            memory.label(word, means, language="es")
        assert all(label.source != "operator" for label in memory.labels("fee"))


def test_a_subjects_records_are_read_under_each_of_its_names(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.sqlite", dense=False) as memory:
        memory.ingest(str(ROOT / "corpora" / "squad2_articles" / "Normans.txt"))
        told = memory.tell("Normans", "spoke", "Norman French")
        assert memory.records("Norman") == [told] == memory.records("normans")
        assert memory.profile("Norman").facts == (told,)
        assert memory.records("Rollo") == []


def test_a_spanish_claim_is_verified_as_its_english_reading(tmp_path: Path) -> None:
    # The Jacksonville article of SQuAD 2.0 (CC BY-SA 4.0): "... with a population of
    # 1,345,596 in 2010."; Spanish writes the number 1.345.596.
    memory = Memory(dense=False)
    memory.ingest(str(ROOT / "corpora" / "squad2_articles" / "Jacksonville,_Florida.txt"))
    true = memory.verify("La población de Jacksonville en 2010 era de 1.345.596.").sentences[0]
    assert true.supported and "1,345,596" in true.evidence[0].text
    assert true.read_in is not None and "1,345,596" in true.read_in["read_as"]
    assert true.text == "La población de Jacksonville en 2010 era de 1.345.596."
    false = memory.verify("La población de Jacksonville en 2010 era de 1.345.597.").sentences[0]
    assert false.status.value == "vetoed" and false.reason == "digit_veto"
    english = memory.verify("Jacksonville had a population of 1,345,596 in 2010.").sentences[0]
    assert english.supported and english.read_in is None
