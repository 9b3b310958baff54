"""Cognates: words of Spanish or Turkish and English spelled alike once spelling habits
are set aside are one word's; a word that is another and more is not."""

from __future__ import annotations

import pytest

from affidavit.text.cognates import likeness, skeleton


@pytest.mark.parametrize(
    ("asked", "language", "english"),
    [
        ("ctenóforos", "es", "ctenophores"),
        ("cidípidos", "es", "cydippids"),
        ("otomano", "es", "Ottoman"),
        ("sistema", "es", "system"),
        ("fósiles", "es", "fossils"),
        ("enerji", "tr", "energy"),
        ("bakteri", "tr", "bacteria"),
        ("intercepciones", "es", "interceptions"),
    ],
)
def test_cognates_are_one_words(asked: str, language: str, english: str) -> None:
    assert likeness(asked, english, (language, "en")) >= 0.8


@pytest.mark.parametrize(
    ("asked", "english"),
    [("validadas", "valid"), ("término", "terminate"), ("peste", "plague"), ("casa", "case")],
)
def test_a_word_that_is_another_and_more_is_no_cognate(asked: str, english: str) -> None:
    assert likeness(asked, english, ("es", "en")) < 0.8


def test_a_skeleton_sets_spelling_habits_aside() -> None:
    assert skeleton("Ctenophores") == skeleton("ctenóforos", "es") == "ctenofor"
    assert skeleton("sol", "es") == "sol"  # too short to lose an ending


def test_spanish_cion_is_english_tion() -> None:
    assert likeness("dirección", "direction", ("es", "en")) == 1.0
    assert likeness("nación", "nation", ("es", "en")) == 1.0
