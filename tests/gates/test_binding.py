"""Number binding: a claim's numbers must stand in their line in the same company."""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory
from affidavit.gates.binding import is_short_answer, unbound_numbers
from affidavit.text.analyzer import Analyzer

EN = Analyzer("en")
BLACK_DEATH = (
    Path(__file__).resolve().parents[2] / "corpora" / "squad2_articles" / "Black_Death.txt"
)


@pytest.fixture(scope="module")
def black_death() -> Memory:
    memory = Memory()
    memory.ingest(BLACK_DEATH)
    return memory


def line_with(memory: Memory, words: str) -> str:
    return next(h.text for h in memory.search(words, k=10) if words in h.text)


def test_a_number_in_another_company_is_unbound(black_death: Memory) -> None:
    line = line_with(black_death, "as high as 7 million to as low as 4 million")
    said = "historians propose figures from as high as 7 million to as low as 4 million"
    changed = "historians propose figures from as high as 7 million to as low as 7 million"
    assert unbound_numbers(said, line, EN) == []
    assert unbound_numbers(changed, line, EN) == ["7"]


def test_word_order_may_change_when_the_company_agrees(black_death: Memory) -> None:
    line = line_with(black_death, "170,000 settlements")
    assert (
        unbound_numbers("There were about 170000 settlements in Germany before 1350.", line, EN)
        == []
    )


def test_a_clause_joint_keeps_numbers_apart() -> None:
    line = "The turbines run at 3,600 revolutions per minute in the USA and 3,000 in Europe."
    assert unbound_numbers("3,600 revolutions per minute in the USA", line, EN) == []
    assert unbound_numbers("3,000 revolutions per minute in the USA", line, EN) == ["3000"]


def test_a_changed_number_in_a_list_is_not_excused_elsewhere() -> None:
    line = "All primes larger than 5 end in 1, 3, 7, or 9, and numbers ending in 0 or 5 are not."
    assert unbound_numbers("primes larger than 5 end in 1, 3, 7, or 9", line, EN) == []
    assert unbound_numbers("primes larger than 5 end in 1, 3, 7, or 0", line, EN) != []


def test_a_number_word_is_a_number_but_not_a_decimal() -> None:
    line = "Ten of these 14 reconstructions agree, with three exceptions."
    assert unbound_numbers("Ten of these 10 reconstructions agree", line, EN) != []
    question = {"exception", "reconstruct"}
    assert unbound_numbers("3", line, EN, question) == []
    assert unbound_numbers("3.00", line, EN, question) == ["3"]


def test_a_short_answer_must_stand_among_the_question_words() -> None:
    question = {"duchi", "normandi", "found"}
    founded = "The Duchy of Normandy was founded in 911 by treaty with Rollo."
    scholar = "The Persian scholar Ibn Sina (Avicenna, 981–1037) wrote on minerals."
    assert unbound_numbers("911", founded, EN, question) == []
    assert unbound_numbers("981", scholar, EN, question) == ["981"]


def test_a_year_inside_a_written_date_binds_a_short_answer() -> None:
    line = "Chirlane Irene McCray (born November 29, 1954) is an American writer."
    assert unbound_numbers("1954", line, EN, {"born", "mccray"}) == []


def test_numbers_glued_to_units_are_numbers() -> None:
    line = "The park is open April through October, 6am to 10pm."
    assert unbound_numbers("open April through October, 6am to 10pm", line, EN) == []
    assert unbound_numbers("open April through October, 7am to 10pm", line, EN) != []


def test_short_answers_are_numbers_with_at_most_one_word() -> None:
    assert is_short_answer("981", EN)
    assert is_short_answer("MPEG-2", EN)
    assert not is_short_answer("Rollo", EN)
    assert not is_short_answer("founded in 911 by Rollo", EN)


def test_verify_rejects_a_one_digit_change_of_a_real_line(black_death: Memory) -> None:
    line = line_with(black_death, "as high as 7 million to as low as 4 million")
    verdict = black_death.verify(line.replace("as low as 4 million", "as low as 7 million"))
    assert not verdict.supported
    assert black_death.verify(line).supported


def test_a_number_is_read_in_the_company_of_its_whole_sentence() -> None:
    from affidavit.gates.binding import unbound_in_sentence

    line = (
        "Wilson's theorem says that an integer p > 1 is prime if and only if the factorial "
        "(p − 1)! + 1 is divisible by p. Moreover, an integer n > 4 is composite if and only "
        "if (n − 1)! is divisible by n."
    )
    # A clause would cut "(n − 4)!" off from "divisible"; the sentence keeps them together,
    # and the full stop keeps the line's "n > 4" away from the previous sentence's words.
    assert unbound_in_sentence(line.replace("(n − 1)!", "(n − 4)!"), [line], EN) == ["4"]
    assert unbound_in_sentence(line, [line], EN) == []


def test_a_short_answer_is_bound_only_by_the_same_kind_of_quantity() -> None:
    # Real lines of SQuAD 2.0 dev's Warsaw article that bound wrong bare answers: a count
    # by a percent, a percent by a date's day, a count by a date's day.
    herded = (
        "All higher education institutions were immediately closed and Warsaw's entire "
        "Jewish population – several hundred thousand, some 30% of the city – herded into "
        "the Warsaw Ghetto."
    )
    returned = (
        "Germany did so, and underground leader Piłsudski returned to Warsaw on 11 November "
        "and set up what became the Second Polish Republic, with Warsaw the capital."
    )
    uprising = (
        'When the order came to annihilate the ghetto as part of Hitler\'s "Final Solution" '
        "on 19 April 1943, Jewish fighters launched the Warsaw Ghetto Uprising."
    )
    council = {"member", "warsaw", "citi", "counil"}
    assert unbound_numbers("30", herded, EN, council) == ["30"]
    assert unbound_numbers("30%", herded, EN, {"popul", "warsaw", "citi"}) == []
    assert unbound_numbers("11%", returned, EN, {"warsaw", "capit", "republ"}) == ["11"]
    assert unbound_numbers("19", uprising, EN, {"natur", "reserv", "warsaw"}) == ["19"]
    assert unbound_numbers("1943", uprising, EN, {"ghetto", "upris", "warsaw"}) == []


def test_a_bare_number_answers_a_question_asking_for_a_percentage() -> None:
    line = "Over 61 per cent of private students attend Catholic schools."
    question = {"percentag", "privat", "school", "student", "cathol"}
    assert unbound_numbers("61", line, EN, question) == []
    assert unbound_numbers("61", line, EN, {"privat", "school", "student", "cathol"}) == ["61"]


def test_a_number_is_bound_by_the_company_on_its_own_side() -> None:
    # SQuAD 2.0 dev, Construction: "they design phase 1" names what the line writes before
    # its 2, even though the words also stand after its 1.
    line = "As they build phase 1, they design phase 2."
    assert unbound_numbers("they design phase 2", line, EN) == []
    assert unbound_numbers("they build phase 1", line, EN) == []
    assert unbound_numbers("they design phase 1", line, EN) == ["1"]


def test_a_bare_range_or_fraction_is_read_whole() -> None:
    # SQuAD 2.0 dev, Immune_system and Prime_number: one end of a range, or one term of
    # a fraction, changed to a number the line writes elsewhere.
    receptors = (
        "Helper T cells have a weaker association with the MHC:antigen complex than observed "
        "for killer T cells, meaning many receptors (around 200–300) on the helper T cell "
        "must be bound by an MHC:antigen in order to activate the helper cell."
    )
    question = {"receptor", "helper", "cell", "bound", "activ"}
    assert unbound_numbers("around 200–300", receptors, EN, question) == []
    assert unbound_numbers("200–300", receptors, EN, question) == []
    assert unbound_numbers("around 200–200", receptors, EN, question) == ["(list) 200, 200"]
    assert unbound_numbers("300–200", receptors, EN, question) == ["(list) 300, 200"]
    density = "The density of all primes congruent a modulo 9 is 1/6."
    assert unbound_numbers("1/9", density, EN, {"densiti", "prime", "modulo"}) != []


def test_word_order_may_change_where_the_line_has_no_company_on_that_side() -> None:
    line = "In 1990 the bridge opened, and the tunnel opened in 2005."
    assert unbound_numbers("the bridge opened in 1990", line, EN) == []
    assert unbound_numbers("the tunnel opened in 1990", line, EN) != []


def test_a_range_shares_its_percent_sign() -> None:
    question = {"europ", "popul", "black", "death", "kill"}
    split = "The Black Death killed 30% to 60% of Europe's population."
    joined = "The Black Death killed 30–60% of Europe's population."
    assert unbound_numbers("30–60%", split, EN, question) == []
    assert unbound_numbers("30% to 60%", joined, EN, question) == []
    assert unbound_numbers("30–70%", joined, EN, question) == ["70"]
    spanish = "La peste mató entre el 30 % y el 60 % de la población de Europa."
    assert unbound_numbers("30–60 %", spanish, Analyzer("es"), {"pest", "poblacion"}) == []


def test_percent_spellings_and_a_bare_range_of_dated_years() -> None:
    turkish = "Enflasyon geçen yıl yüzde 7 arttı."
    assert unbound_numbers("%7", turkish, Analyzer("tr"), {"enflasyo", "yuz"}) == []
    assert unbound_numbers("7%", "Sales grew by a 7-percent margin.", EN, {"sale"}) == []
    war = "The war lasted from 1 September 1939 to 2 September 1945."
    assert unbound_numbers("1939–1945", war, EN, {"war", "last"}) == []
    assert unbound_numbers("1939–1946", war, EN, {"war", "last"}) == ["1946"]


def test_a_percent_in_words_is_supported_by_a_percent_sign() -> None:
    memory = Memory(dense=False)
    memory.ingest_text("Sales at the Leeds shop grew by 7% last year.", name="shop")
    question = "By how much did sales at the Leeds shop grow last year?"
    for text in ("Sales at the Leeds shop grew by 7 percent last year.", "7 percent"):
        assert memory.verify(text, question=question).supported, text
    assert not memory.verify("8 percent", question=question).supported
    assert not memory.verify("Sales grew by 7 apples last year.", question=question).supported
    assert unbound_numbers("7 percent", "Sales grew by 7% last year.", EN, {"sale"}) == []


def test_an_abbreviated_question_word_and_a_code_carry_a_short_answer() -> None:
    # An IRS form's footer (corpora/compliance_set/irs-form-1040a-2012.pdf): "Cat." is the
    # question's "catalog", and the form's code "1040A" is carried where the line writes
    # it; the abbreviation weighs as the word it stands for, not as a word of its own.
    line = "Cat. No. 11327A Form 1040A (2012)"
    question = {"catalog", "number", "form", "1040a", "cat"}
    rare = {"catalog": 7.7, "cat": 7.2, "1040a": 7.6, "form": 3.4, "number": 2.0}
    context = {"cat", "form"}  # the lines' word terms: codes and abbreviations not spelled out

    def unbound(shorts: dict[str, str]) -> list[str]:
        return unbound_numbers("11327A", line, EN, question, rare.get, context, shorts)

    assert unbound({"cat": "catalog"}) == []
    # A store whose lines write only "Cat." gives "catalog" no weight of its own: the word
    # weighs as its abbreviation does (the 2007 Instructions for Form 1040NR's footer).
    unwritten = {**rare, "catalog": 0.0}
    assert (
        unbound_numbers(
            "11327A", line, EN, question, unwritten.get, {"cat", "form"}, {"cat": "catalog"}
        )
        == []
    )
    # Another form's line carries neither the code nor the catalog word.
    assert unbound_numbers(
        "11327A", "Form 1040EZ (2012) 11327A", EN, question, rare.get, {"form"}, {"cat": "catalog"}
    ) == ["11327A"]


def test_a_version_the_question_writes_binds_the_date_beside_it() -> None:
    # The Debian Social Contract's second line (corpora/compliance_set): "1.0" is read as
    # the number 1 in the line, and is the question's word there all the same.
    line = (
        "Supersedes Version 1.1 ratified on April 26th, 2004, and Version 1.0 ratified on "
        "July 5, 1997."
    )
    assert unbound_numbers("July 5, 1997", line, EN, {"1.0"}, lambda _: 1.0, set()) == []
