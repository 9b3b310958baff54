"""The one reader of language, for every room: words and index terms, numbers, years,
dates, quantities, typed spans and sentences, in English, Spanish and Turkish."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.text.abbreviations import (
        abbreviated_terms,
        acronyms,
        expansion_terms,
        initial_terms,
        is_abbreviation,
        letters_asked,
        short_form,
        short_forms,
        short_forms_of,
        spelled_in,
        spells,
    )
    from affidavit.text.addressing import addresses_a_model
    from affidavit.text.analyzer import STOP_WORDS, Analyzer, analyzer_for, name_terms, stem
    from affidavit.text.cognates import NEAR, likeness
    from affidavit.text.content import content_terms, evidence_terms, is_negated
    from affidavit.text.dates import (
        MONTH_AND_YEAR,
        MONTH_NAMES,
        WrittenDate,
        column_date,
        date_value,
        dates_in,
        day_written,
        in_words,
        is_month_day_year,
        month_in_words,
        spaced_dates,
        time_written,
    )
    from affidavit.text.figure_years import figures, written_for, years_of
    from affidavit.text.filenames import last_extension
    from affidavit.text.lang import VOCABULARIES, vocabulary
    from affidavit.text.language import detect_language
    from affidavit.text.list_labels import label_end
    from affidavit.text.listing import one_of_a_list
    from affidavit.text.names import bare, capitalised_names, name_words, pieces, segments
    from affidavit.text.nlp import (
        LONGEST_PARSED,
        entity_pipeline,
        parse_pipeline,
        parse_with_names_ahead,
        parsed,
        parsed_with_names,
        reading_pipeline,
    )
    from affidavit.text.numbers import (
        BOUND_FIGURE,
        LANGUAGE_NUMBER_WORDS,
        NUMBER_WORDS,
        carried_numbers,
        english_number,
        evidence_numbers,
        format_number,
        is_figure_only,
        looks_like_an_amount,
        numbers_in,
        plain_count,
        rounded,
        written_numbers,
    )
    from affidavit.text.quantities import (
        CLAIMED_FIGURE,
        PERCENT_WORDS,
        SCALES,
        QuantityToken,
        company_side,
        currency_of,
        is_percent_text,
        percent_terms,
        read_number,
        read_tokens,
        scale_of,
    )
    from affidavit.text.relative import days_named, times_told, when_told
    from affidavit.text.search_terms import Reading, read_for_search
    from affidavit.text.sentences import (
        before_sentence_end,
        ends_a_sentence_inside,
        says_a_sentence,
        split_sentences,
    )
    from affidavit.text.spans import (
        CODE_SHAPE,
        EMAIL_SHAPE,
        LENGTH_OF_TIME,
        PHONE_SHAPE,
        URL_SHAPE,
        YEAR_OR_CENTURY,
        pattern_spans,
    )
    from affidavit.text.statement import opens_on_an_auxiliary, statement_asked
    from affidavit.text.tokens import (
        LETTER,
        LETTER_OR_DIGIT,
        LETTER_RUN,
        WORD_CHARACTER,
        asked_words,
        content_words,
        count_words,
        fold,
        holds_a_word,
        quoted_terms,
        spoken_words,
        values_written,
        words,
        writes_whole,
        written_word_spans,
    )
    from affidavit.text.typed_values import line_grade, lone_value, says_how_often
    from affidavit.text.wording import NO_WORDING, Wording
    from affidavit.text.years import (
        COLUMN_YEAR,
        FISCAL_YEAR,
        TWO_YEARS_COMPARED,
        YEAR,
        YEAR_SINCE_1000,
        YEAR_WORD,
        YEARS,
        is_year_alone,
        is_year_term,
    )

# What other rooms may use of text/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "abbreviations": (
        "abbreviated_terms acronyms expansion_terms initial_terms is_abbreviation "
        "letters_asked short_form short_forms short_forms_of spelled_in spells"
    ),
    "addressing": "addresses_a_model",
    "analyzer": "STOP_WORDS Analyzer analyzer_for name_terms stem",
    "cognates": "NEAR likeness",
    "content": "content_terms evidence_terms is_negated",
    "dates": (
        "MONTH_AND_YEAR MONTH_NAMES WrittenDate column_date date_value dates_in day_written "
        "in_words is_month_day_year month_in_words spaced_dates time_written"
    ),
    "figure_years": "figures written_for years_of",
    "filenames": "last_extension",
    "lang": "VOCABULARIES vocabulary",
    "language": "detect_language",
    "list_labels": "label_end",
    "listing": "one_of_a_list",
    "names": "bare capitalised_names name_words pieces segments",
    "nlp": (
        "LONGEST_PARSED entity_pipeline parse_pipeline parse_with_names_ahead parsed "
        "parsed_with_names reading_pipeline"
    ),
    "numbers": (
        "BOUND_FIGURE LANGUAGE_NUMBER_WORDS NUMBER_WORDS carried_numbers english_number "
        "evidence_numbers format_number is_figure_only looks_like_an_amount numbers_in plain_count "
        "rounded written_numbers"
    ),
    "quantities": (
        "CLAIMED_FIGURE PERCENT_WORDS SCALES QuantityToken company_side currency_of "
        "is_percent_text percent_terms read_number read_tokens scale_of"
    ),
    "relative": "days_named times_told when_told",
    "search_terms": "Reading read_for_search",
    "sentences": "before_sentence_end ends_a_sentence_inside says_a_sentence split_sentences",
    "spans": (
        "CODE_SHAPE EMAIL_SHAPE LENGTH_OF_TIME PHONE_SHAPE URL_SHAPE YEAR_OR_CENTURY pattern_spans"
    ),
    "statement": "opens_on_an_auxiliary statement_asked",
    "tokens": (
        "LETTER LETTER_OR_DIGIT LETTER_RUN WORD_CHARACTER asked_words content_words count_words "
        "fold holds_a_word quoted_terms spoken_words values_written words writes_whole "
        "written_word_spans"
    ),
    "typed_values": "line_grade lone_value says_how_often",
    "wording": "NO_WORDING Wording",
    "years": (
        "COLUMN_YEAR FISCAL_YEAR TWO_YEARS_COMPARED YEAR YEARS YEAR_SINCE_1000 YEAR_WORD "
        "is_year_alone is_year_term"
    ),
}

__all__ = [
    "BOUND_FIGURE", "CLAIMED_FIGURE", "CODE_SHAPE", "COLUMN_YEAR", "EMAIL_SHAPE", "FISCAL_YEAR",
    "LANGUAGE_NUMBER_WORDS", "LENGTH_OF_TIME", "LETTER", "LETTER_OR_DIGIT", "LETTER_RUN",
    "LONGEST_PARSED", "MONTH_AND_YEAR", "MONTH_NAMES", "NEAR", "NO_WORDING", "NUMBER_WORDS",
    "PERCENT_WORDS", "PHONE_SHAPE", "SCALES", "STOP_WORDS", "TWO_YEARS_COMPARED", "URL_SHAPE",
    "VOCABULARIES", "WORD_CHARACTER", "YEAR", "YEARS", "YEAR_OR_CENTURY", "YEAR_SINCE_1000",
    "YEAR_WORD", "Analyzer", "QuantityToken", "Reading", "Wording", "WrittenDate",
    "abbreviated_terms", "acronyms", "addresses_a_model", "analyzer_for", "asked_words", "bare",
    "before_sentence_end", "capitalised_names", "carried_numbers", "column_date", "company_side",
    "content_terms", "content_words", "count_words", "currency_of", "date_value", "dates_in",
    "day_written", "days_named", "detect_language", "ends_a_sentence_inside", "english_number",
    "entity_pipeline", "evidence_numbers", "evidence_terms", "expansion_terms", "figures", "fold",
    "format_number", "holds_a_word", "in_words", "initial_terms", "is_figure_only",
    "is_abbreviation", "is_month_day_year", "is_negated", "is_percent_text", "is_year_alone",
    "is_year_term",
    "label_end", "last_extension", "letters_asked",
    "likeness", "line_grade", "lone_value", "looks_like_an_amount", "month_in_words", "name_terms",
    "name_words", "numbers_in", "one_of_a_list", "opens_on_an_auxiliary",
    "parse_pipeline", "parse_with_names_ahead", "parsed", "parsed_with_names", "pattern_spans",
    "percent_terms", "pieces",
    "plain_count", "quoted_terms", "read_for_search", "read_number", "read_tokens",
    "reading_pipeline", "rounded", "says_a_sentence", "says_how_often", "scale_of",
    "segments", "short_form", "short_forms", "short_forms_of", "spelled_in",
    "spells",
    "spaced_dates", "split_sentences", "spoken_words", "statement_asked", "stem", "time_written",
    "times_told",
    "values_written", "vocabulary", "when_told", "words", "writes_whole", "written_for",
    "written_numbers",
    "written_word_spans", "years_of",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
