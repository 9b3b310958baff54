"""Per-language word lists, one module a language as spaCy keeps its own (en, es, tr),
read through one typed Vocabulary each."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from affidavit.text.lang import en, es, tr

LANGUAGES = ("en", "es", "tr")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A language's word lists (see text/lang/en.py for what each holds)."""

    language: str
    stop_words: frozenset[str]
    number_words: dict[str, int]  # number words to twenty, and their values
    pronoun_numbers: frozenset[str]  # number words as often pronouns as counts ("one")
    ambiguous_number_words: frozenset[str]  # also ordinary words: never read as numbers
    scale_words: frozenset[str]  # "thousand", "million": a number word before one counts
    months: tuple[tuple[str, ...], ...]  # each month's spellings, the full name first
    weekdays: tuple[str, ...]
    probes: frozenset[str]  # function words whose count tells the language
    negations: frozenset[str]  # the words that negate a clause
    yes: frozenset[str]
    no: frozenset[str]
    abbreviations: dict[str, str]  # a written abbreviation -> the word it stands for
    question_words: dict[str, str]  # a question word or phrase -> the English one
    common_words: dict[str, str]  # a word -> its English, where the model cannot place it
    light_word_starts: tuple[str, ...]  # how light verbs and copulas begin (Turkish)

    @classmethod
    def of(cls, language: str, words: ModuleType) -> Vocabulary:
        return cls(
            language=language,
            stop_words=words.STOP_WORDS,
            number_words=words.NUMBER_WORDS,
            pronoun_numbers=words.PRONOUN_NUMBERS,
            ambiguous_number_words=words.AMBIGUOUS_NUMBER_WORDS,
            scale_words=words.SCALE_WORDS,
            months=words.MONTHS,
            weekdays=words.WEEKDAYS,
            probes=words.PROBES,
            negations=words.NEGATIONS,
            yes=words.YES,
            no=words.NO,
            abbreviations=words.ABBREVIATIONS,
            question_words=words.QUESTION_WORDS,
            common_words=words.COMMON_WORDS,
            light_word_starts=words.LIGHT_WORD_STARTS,
        )


VOCABULARIES: dict[str, Vocabulary] = {
    language: Vocabulary.of(language, words)
    for language, words in (("en", en), ("es", es), ("tr", tr))
}


def vocabulary(language: str) -> Vocabulary:
    """The word lists of ``language`` (English for any other)."""
    return VOCABULARIES.get(language, VOCABULARIES["en"])
