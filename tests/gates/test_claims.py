"""Behaviour of claim extraction for the read-back, on real sentences of the SQuAD articles:
one claim per clause, a conjunct verb sharing its head's subject, polarity per clause, a bare
answer as one claim, and Spanish and Turkish sentences (no parser) as one claim each."""

from __future__ import annotations

import pytest
from conftest import QUESTIONS

from affidavit.gates.claims import Claim, extract_claims
from affidavit.text.analyzer import Analyzer
from affidavit.text.content import content_terms

EN = Analyzer("en")


@pytest.fixture(scope="module")
def sentences(squad_lines) -> set[str]:
    """Every sentence line of the SQuAD store."""
    return {text for kind, text in squad_lines.values() if kind == "sentence"}


def real(sentences: set[str], sentence: str) -> str:
    assert sentence in sentences, "not a stored line of the corpus"
    return sentence


def texts(claims: list[Claim]) -> list[str]:
    return [c.text for c in claims]


# -- one claim per clause --


@pytest.mark.parametrize(
    ("sentence", "first_only", "second_only"),
    [
        (
            "The UK had traditionally been an ally of Israel, and Harold Wilson's government "
            "supported the Israelis during the Six-Day War.",
            {"uk", "alli", "tradit"},
            {"harold", "wilson", "govern", "support", "war"},
        ),
        (
            "The disease bypassed some areas, and the most isolated areas were less vulnerable "
            "to contagion.",
            {"diseas", "bypass"},
            {"isol", "vulner", "contagion"},
        ),
        (
            "At Saint Evroul, a tradition of singing had developed and the choir achieved fame "
            "in Normandy.",
            {"saint", "evroul", "tradit", "sing", "develop"},
            {"choir", "achiev", "fame", "normandi"},
        ),
    ],
)
def test_a_compound_sentence_makes_one_claim_per_clause(
    sentences, sentence: str, first_only: set[str], second_only: set[str]
) -> None:
    first, second = extract_claims(real(sentences, sentence), EN)
    assert first_only <= first.terms and not second_only & first.terms
    assert second_only <= second.terms and not first_only & second.terms
    assert first.terms | second.terms == content_terms(sentence, EN)


def test_each_clause_of_a_long_line_is_its_own_claim_in_order(sentences) -> None:
    sentence = real(
        sentences,
        "The Black Death is thought to have originated in the arid plains of Central Asia, "
        "where it then travelled along the Silk Road, reaching Crimea by 1343.",
    )
    claims = extract_claims(sentence, EN)
    # "thought to have originated": the infinitival complement stays with its verb.
    assert texts(claims) == [
        "The Black Death is thought to have originated in the arid plains of Central Asia, , .",
        "Central Asia where it then travelled along the Silk Road",
        "reaching Crimea by 1343",
    ]
    # A relative clause speaks of its antecedent, so it carries it.
    assert [sorted(c.terms) for c in claims[1:]] == [
        ["asia", "central", "road", "silk", "travel"],
        ["crimea", "reach"],
    ]
    assert not any(c.negated for c in claims)


def test_adverbial_and_relative_clauses_are_claims_apart_from_the_main_one(sentences) -> None:
    sentence = real(
        sentences,
        "The city's garrison resisted until February 1082, when Dyrrachium was betrayed to the "
        "Normans by the Venetian and Amalfitan merchants who had settled there.",
    )
    main, when, who = extract_claims(sentence, EN)
    assert main.terms == {"citi", "garrison", "resist", "februari"} and "1082" in main.text
    assert {"dyrrachium", "betray", "norman", "venetian", "amalfitan", "merchant"} <= when.terms
    assert {"settl", "merchant"} <= who.terms  # with its antecedent, the merchants


def test_negation_belongs_to_the_clause_that_says_it(sentences) -> None:
    sentence = real(
        sentences,
        "By the end of 1350, the Black Death subsided, but it never really died out in England.",
    )
    subsided, never = extract_claims(sentence, EN)
    assert {"black", "death", "subsid"} <= subsided.terms and not subsided.negated
    assert {"die", "england"} <= never.terms and never.negated


def test_a_claim_keeps_the_numbers_of_its_clause(sentences) -> None:
    sentence = real(
        sentences,
        "Before 1350, there were about 170,000 settlements in Germany, and this was reduced by "
        "nearly 40,000 by 1450.",
    )
    were, reduced = extract_claims(sentence, EN)
    assert "1350" in were.text and "170,000" in were.text and "40,000" not in were.text
    assert "40,000" in reduced.text and "1450" in reduced.text and "170,000" not in reduced.text


# -- a conjunct verb shares its head's subject --


@pytest.mark.parametrize(
    ("sentence", "inherited"),
    [
        (
            "He appointed Robert of Jumièges archbishop of Canterbury and made Ralph the Timid "
            "earl of Hereford.",
            "He made Ralph the Timid earl of Hereford",
        ),
        (
            "The crisis had a major impact on international relations and created a rift within "
            "NATO.",
            "The crisis created a rift within NATO",
        ),
        (
            "Union forces then retreated to Jacksonville and held the city for the remainder of "
            "the war.",
            "Union forces held the city for the remainder of the war",
        ),
        (
            "The plague killed two-thirds of the inhabitants of Helsinki, and claimed a third of "
            "Stockholm's population.",
            "The plague claimed a third of Stockholm's population",
        ),
    ],
)
def test_a_conjunct_verb_without_a_subject_inherits_its_heads(
    sentences, sentence: str, inherited: str
) -> None:
    claims = extract_claims(real(sentences, sentence), EN)
    assert len(claims) == 2
    assert claims[1].text == inherited
    # The second verb's object is its own claim's, not the first verb's.
    assert not (claims[1].terms - claims[0].terms) <= claims[0].terms


def test_a_subject_is_inherited_through_a_chain_of_conjuncts(sentences) -> None:
    sentence = real(sentences, "But Isaac changed his mind and tried to escape.")
    assert texts(extract_claims(sentence, EN)) == [
        "But Isaac changed his mind and .",
        "Isaac tried to escape",
    ]


# -- sentences that are one claim --

# Bare answers given to SQuAD questions on the Black Death article: noun phrases, no verb.
BARE_ANSWERS = [
    "serious depopulation and permanent change in both economic and social structures",
    "30–60% of Europe's total population",
    "French-Swiss bacteriologist Alexandre Yersin",
    "typhus, smallpox and respiratory infections",
    "the port of Marseille around November 1347",
]


@pytest.mark.parametrize("answer", BARE_ANSWERS)
def test_a_bare_noun_phrase_is_one_claim(answer: str) -> None:
    assert any(answer in q["answers"] for q in QUESTIONS), "not a SQuAD answer"
    assert extract_claims(answer, EN) == [Claim(answer, content_terms(answer, EN), False)]


# The Black Death article's opening line and its "never died out" line, in translation:
# no parser is installable for Spanish or Turkish, so each sentence is one claim.
@pytest.mark.parametrize(
    ("sentence", "language", "negated"),
    [
        (
            "Se cree que la peste negra se originó en las llanuras áridas de Asia Central y "
            "viajó por la Ruta de la Seda, llegando a Crimea en 1343.",
            "es",
            False,
        ),
        (
            "A finales de 1350 la peste negra remitió, pero nunca desapareció del todo en "
            "Inglaterra.",
            "es",
            True,
        ),
        (
            "Kara Ölüm'ün Orta Asya'nın kurak ovalarında ortaya çıktığı ve İpek Yolu boyunca "
            "1343'te Kırım'a ulaştığı düşünülmektedir.",
            "tr",
            False,
        ),
    ],
)
def test_a_sentence_in_another_language_is_one_claim(
    sentence: str, language: str, negated: bool
) -> None:
    analyzer = Analyzer(language)
    assert extract_claims(sentence, analyzer) == [
        Claim(sentence, content_terms(sentence, analyzer), negated)
    ]


def test_the_same_compound_sentence_in_english_is_split(sentences) -> None:
    sentence = real(
        sentences,
        "By the end of 1350, the Black Death subsided, but it never really died out in England.",
    )
    assert len(extract_claims(sentence, EN)) == 2
    assert texts(extract_claims(sentence, Analyzer("es"))) == [sentence]


def test_claims_serialise_with_sorted_terms() -> None:
    (claim,) = extract_claims("French-Swiss bacteriologist Alexandre Yersin", EN)
    assert claim.to_dict() == {
        "text": "French-Swiss bacteriologist Alexandre Yersin",
        "terms": sorted(claim.terms),
        "negated": False,
    }
    assert claim.to_dict()["terms"] == ["alexandr", "bacteriolog", "french", "swiss", "yersin"]


# -- every word is read back --


@pytest.mark.parametrize(
    "sentence",
    [
        pytest.param(
            "The investigation of the pathogen that caused the 19th-century plague was begun by "
            "teams of scientists who visited Hong Kong in 1894, among whom was the French-Swiss "
            "bacteriologist Alexandre Yersin, after whom the pathogen was named Yersinia pestis.",
            id="noun-root",
        ),
        pytest.param(
            "Yersinia pestis, which reached Crimea by 1343.",
            id="noun-phrase-with-relative-clause",
        ),
        pytest.param(
            "The Genoese traders fled, taking the plague by ship into Sicily and the south of "
            "Europe, whence it spread north.",
            id="verb-root",
        ),
    ],
)
def test_every_content_word_of_a_sentence_is_in_some_claim(sentence: str) -> None:
    claims = extract_claims(sentence, EN)
    assert frozenset().union(*(c.terms for c in claims)) == content_terms(sentence, EN)


def test_an_infinitival_complement_stays_in_the_claim_of_the_verb_it_completes(
    sentences,
) -> None:
    # "estimated to have killed 30–60%" asserts an estimate, not a killing: read apart, the
    # complement "... to have killed 30–60%" could be read back from any line about deaths.
    sentence = real(
        sentences,
        "Spreading throughout the Mediterranean and Europe, the Black Death is estimated to "
        "have killed 30–60% of Europe's total population.",
    )
    with_number = [c for c in extract_claims(sentence, EN) if "30–60%" in c.text]
    assert len(with_number) == 1
    assert {"estim", "kill", "popul"} <= with_number[0].terms


def test_a_number_considered_in_a_complement_is_read_back_with_its_subject() -> None:
    # SQuAD 2.0 dev, Prime_number: "8" in place of "1" was excused by another line that
    # writes 8 beside "prime numbers" while the complement stood as a claim of its own.
    claims = extract_claims(
        "Most early Greeks did not even consider 8 to be a number, so they could not "
        "consider it to be a prime.",
        EN,
    )
    with_number = next(c for c in claims if "8" in c.text)
    assert {"greek", "consid", "number"} <= with_number.terms and with_number.negated


def test_a_condition_stays_in_the_claim_it_conditions() -> None:
    # SQuAD 2.0 dev, Prime_number: "if 2 were considered a prime" read as a claim of its
    # own was read back from another line that calls 2 a prime.
    claims = extract_claims(
        "Similarly, the sieve of Eratosthenes would not work correctly if 2 were considered "
        "a prime.",
        EN,
    )
    assert len(claims) == 1
    assert {"siev", "work", "consid", "prime"} <= claims[0].terms and claims[0].negated


def test_a_conjunct_of_a_condition_is_a_condition_too() -> None:
    claims = extract_claims(
        "The sieve of Eratosthenes would not work correctly if 1 were considered a prime "
        "or if 9 were considered a prime.",
        EN,
    )
    assert len(claims) == 1 and claims[0].negated and "9" in claims[0].text
