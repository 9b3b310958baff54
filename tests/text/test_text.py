"""Behaviour of text analysis: Turkish-aware lower-casing, accent folding, tokens that keep
numbers whole, stems and stop words per language, and language detection."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import ARTICLES
from hypothesis import given
from hypothesis import strategies as st

from affidavit.text.analyzer import STOP_WORDS, Analyzer
from affidavit.text.content import is_negated
from affidavit.text.lang import LANGUAGES
from affidavit.text.language import detect_language
from affidavit.text.tokens import content_words, fold, strip_accents, words

# Letters where case and accents matter: ASCII, Spanish, Turkish, plus separators.
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáéíóúñüÁÉÍÓÚÑÜ¿¡çğıöşİÇĞÖŞ"


# -- lower-casing --


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("İSTANBUL", "tr", "istanbul"),
        ("IŞIK", "tr", "ışık"),
        ("İstanbul", "en", "istanbul"),
        ("İstanbul", "es", "istanbul"),
        ("ISTANBUL", "en", "istanbul"),
        ("CANCIÓN", "es", "canción"),
    ],
)
def test_lower_maps_dotted_and_dotless_i_by_language(
    text: str, language: str, expected: str
) -> None:
    assert fold(text, language) == expected


@given(st.text(max_size=80), st.sampled_from(LANGUAGES))
def test_lower_never_changes_the_length_of_a_text(text: str, language: str) -> None:
    # str.lower() turns "İ" into two characters; offsets into lines depend on this not happening.
    lowered = fold(text, language)
    assert len(lowered) == len(text)
    assert "\u0307" not in lowered or "\u0307" in text


# -- accents --


@pytest.mark.parametrize(
    ("word", "folded"),
    [("canción", "cancion"), ("ñandú", "nandu"), ("ışık", "isik"), ("Müller", "Muller")],
)
def test_strip_accents_folds_to_plain_letters(word: str, folded: str) -> None:
    assert strip_accents(word) == folded


@given(st.text(max_size=40))
def test_strip_accents_is_idempotent_and_leaves_no_combining_marks(word: str) -> None:
    once = strip_accents(word)
    assert strip_accents(once) == once
    assert not any(unicodedata.combining(c) for c in once)


@given(st.text(alphabet="abcxyz0123 .,", max_size=30))
def test_strip_accents_leaves_ascii_alone(word: str) -> None:
    assert strip_accents(word) is word


# -- tokens --


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("İstanbul'da", ["istanbul", "da"]),
        ("It cost 1,260.00 lira", ["it", "cost", "1,260.00", "lira"]),
        ("3.5 kg", ["3.5", "kg"]),
        ("snake_case words", ["snake", "case", "words"]),
        ("— … ?!", []),
    ],
)
def test_words_are_lower_cased_tokens_with_whole_numbers(text: str, tokens: list[str]) -> None:
    assert words(text) == tokens


@given(st.text(alphabet=LETTERS + " '.,-", max_size=60), st.sampled_from(LANGUAGES))
def test_every_term_is_a_folded_lower_case_token(text: str, language: str) -> None:
    for term in Analyzer(language).terms(text):
        assert term
        assert term == strip_accents(term)
        assert term == term.lower()
        assert " " not in term


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz áéíóúñü.", max_size=60))
def test_terms_ignore_case_in_english_and_spanish(text: str) -> None:
    for language in ("en", "es"):
        analyzer = Analyzer(language)
        assert analyzer.terms(text.upper()) == analyzer.terms(text)


# -- terms --


@pytest.mark.parametrize(
    ("a", "b", "language"),
    [
        ("running", "runs", "en"),
        ("prices", "price", "en"),
        ("canción", "cancion", "es"),
        ("canciones", "canción", "es"),
        ("İstanbul", "ISTANBUL", "tr"),
        ("istanbul", "İstanbul", "en"),
    ],
)
def test_inflections_and_spellings_meet_on_one_term(a: str, b: str, language: str) -> None:
    analyzer = Analyzer(language)
    assert analyzer.terms(a) == analyzer.terms(b) != []


def test_stop_words_drop_out_but_answer_words_stay() -> None:
    analyzer = Analyzer("en")
    assert analyzer.terms("the of and it was") == []
    assert analyzer.terms("first three many") == ["first", "three", "mani"]
    assert "first" not in STOP_WORDS["en"]


def test_a_token_opening_with_a_digit_is_still_folded() -> None:
    analyzer = Analyzer("es")
    assert analyzer.terms("la 1ª edición") == analyzer.terms("la 1a edicion")


def test_numbers_are_terms_without_thousands_separators() -> None:
    assert Analyzer("en").terms("In 1066, 1,200 knights.") == ["1066", "1200", "knight"]
    assert Analyzer("en").terms("1200 knights") == Analyzer("en").terms("1,200 knights")


def test_an_unknown_language_analyses_as_english() -> None:
    assert Analyzer("xx").language == "en"
    assert Analyzer("xx").terms("running dogs") == Analyzer("en").terms("running dogs")


def test_an_analyser_gives_the_same_term_every_time() -> None:
    analyzer = Analyzer("en")
    first = [analyzer.term(w) for w in ("running", "the", "1066", "running", "the")]
    assert first == ["run", None, "1066", "run", None]


def test_content_words_drop_stop_words_of_every_language() -> None:
    assert content_words("Who was the first king of the Normans in 1066?") == [
        "first",
        "king",
        "normans",
        "1066",
    ]
    assert content_words("¿Quién fue el rey de los normandos?", "es") == ["rey", "normandos"]


# -- language --


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The king of the Normans was crowned in the abbey.", "en"),
        ("El rey de los normandos fue coronado en la abadía.", "es"),
        ("Normanların kralı bu manastırda taç giydi ve bir savaş başladı.", "tr"),
        ("¿Dónde?", "es"),
        ("İzmir", "tr"),
        ("", "en"),
        ("12345", "en"),
    ],
)
def test_detect_language_reads_function_words_and_letters(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_the_squad_articles_read_as_english() -> None:
    for article in ARTICLES:
        assert detect_language(article.read_text(encoding="utf-8")) == "en"


def test_a_word_reads_the_same_whatever_was_read_before() -> None:
    # An irregular form was cached under its base form, so after "gave" the stop word
    # "give" became a term: one line indexed two ways by the order lines were read.
    fresh = Analyzer("en")
    after = Analyzer("en")
    after.terms("They gave what they did, and the city fell.")
    for text in ["to give", "we do", "fall", "they gave", "he did"]:
        assert after.terms(text) == fresh.terms(text) == Analyzer("en").terms(text)
    assert fresh.terms("they gave") == fresh.terms("to give")  # an irregular form of a stop word
    assert fresh.terms("the city fell") == fresh.terms("the city falls")


@pytest.mark.parametrize(
    ("line", "negated"),
    [
        # "No." written for "number" on forms and registers says no "no".
        ("Cat. No. 11327A Form 1040A (2012)", False),
        ("Invoice No.: 4411", False),
        ("No. of employees: 12", False),
        ("Phone No:", False),
        ("Registration No 55", False),
        # The word itself still negates, alone, in a sentence or after a verb.
        ("No.", True),
        ("I said No.", True),
        ("No smoking is allowed.", True),
        ("There is no 30-day grace period.", True),
        ("No 5-year-old may enter.", True),
    ],
)
def test_a_number_sign_is_no_negation(line: str, negated: bool) -> None:
    assert is_negated(line, "en") is negated
