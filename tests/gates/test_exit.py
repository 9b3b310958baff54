"""Behaviour of the exit gate's four tiers on real lines: a line or a faithful shortening of it
passes every tier; a changed digit is vetoed (dates compared whole); an invented word is a
mixture, a sentence of none of the evidence's words unsupported; words the document never
said in one line, or a negation it never made, fail the read-back; and an answer whose lines
do not carry the question is weak. Answers are drawn from one document's lines at a time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import DEMO_DIR

from affidavit import Candidate, Memory, ScriptedEngine
from affidavit.gates.context import support_context, support_terms
from affidavit.gates.exit import Judgement, judge
from affidavit.gates.support import KeyWords
from affidavit.question.question import key_terms
from affidavit.question.shape import read_shape
from affidavit.reasons import Reason
from affidavit.results import Evidence
from affidavit.text.analyzer import Analyzer
from affidavit.text.content import content_terms
from affidavit.text.numbers import evidence_numbers, numbers_in

EN = Analyzer("en")
ORIGIN = (
    "The Black Death is thought to have originated in the arid plains of Central Asia, where it "
    "then travelled along the Silk Road, reaching Crimea by 1343."
)
FLEAS = (
    "From there, it was most likely carried by Oriental rat fleas living on the black rats that "
    "were regular passengers on merchant ships."
)
THREE_WAVES = (
    "In October 2010, medical geneticists suggested that all three of the great waves of the "
    "plague originated in China."
)
CHARTER = (
    "Led by Isaiah D. Hart, residents wrote a charter for a town government, which was approved "
    "by the Florida Legislative Council on February 9, 1832."
)
NEVER_DIED_OUT = (
    "By the end of 1350, the Black Death subsided, but it never really died out in England."
)
ORIGIN_QUESTION = "Where did the Black Death originate?"
ALL_TIERS_PASS = [("digit_veto", True), ("mixture", True), ("readback", True), ("support", True)]
NO_QUESTION_PASS = ALL_TIERS_PASS[:3]


@pytest.fixture(scope="module")
def articles(squad_lines) -> dict[str, list[Evidence]]:
    """Every stored line of the SQuAD store, per document, in document order."""
    by_document: dict[str, list[Evidence]] = {}
    for (document, position), (kind, text) in sorted(squad_lines.items()):
        by_document.setdefault(document, []).append(
            Evidence(document=document, position=position, text=text, kind=kind, score=1.0)
        )
    return by_document


@pytest.fixture(scope="module")
def black_death(articles) -> list[Evidence]:
    return articles["Black_Death.txt"]


@pytest.fixture(scope="module")
def opening(black_death) -> list[Evidence]:
    """The article's first two paragraphs (origin, spread, Yersinia pestis, China)."""
    lines = black_death[:12]
    assert lines[0].text == ORIGIN and lines[1].text == FLEAS and lines[8].text == THREE_WAVES
    return lines


def the_line(lines: Sequence[Evidence], text: str) -> Evidence:
    """The one stored line whose text is exactly ``text``."""
    (found,) = [e for e in lines if e.text == text]
    return found


def gates(judgement: Judgement) -> list[tuple[str, bool]]:
    return [(d.gate, d.passed) for d in judgement.decisions]


def question_terms(question: str) -> frozenset[str]:
    return content_terms(question, EN)


# -- a supported sentence passes every tier --


def test_a_verbatim_line_passes_every_tier_and_is_its_own_support(opening) -> None:
    judgement = judge(ORIGIN, opening, EN, question_terms=question_terms(ORIGIN_QUESTION))
    assert gates(judgement) == ALL_TIERS_PASS
    assert judgement.passed and judgement.failure is None
    assert judgement.supporting == [opening[0]]


@pytest.mark.parametrize(
    ("sentence", "source"),
    [
        ("The Black Death originated in the arid plains of Central Asia.", ORIGIN),
        ("It travelled along the Silk Road, reaching Crimea by 1343.", ORIGIN),
        ("It was carried by Oriental rat fleas living on black rats.", FLEAS),
        ("All three of the great waves of the plague originated in China.", THREE_WAVES),
    ],
)
def test_a_faithful_shortening_of_a_real_line_passes_and_cites_that_line(
    opening, sentence: str, source: str
) -> None:
    judgement = judge(sentence, opening, EN)
    assert gates(judgement) == NO_QUESTION_PASS
    assert judgement.supporting == [the_line(opening, source)]


def test_every_line_of_an_article_is_read_back_from_its_own_place(black_death) -> None:
    sentences = [e for e in black_death if e.kind == "sentence"]
    assert len(sentences) > 100
    for line in sentences:
        subset = black_death[max(0, line.position - 2) : line.position + 3]
        judgement = judge(line.text, subset, EN)
        assert judgement.passed, (line.position, judgement.failure)
        assert line in judgement.supporting


# -- tier 1: the digit veto --


def one_digit_changed(text: str) -> str | None:
    """``text`` with its first digit changed so that it writes a number it did not carry."""
    carried = evidence_numbers([text])
    for match in re.finditer(r"\d", text):
        at = match.start()
        for digit in "1234567890":
            if digit == text[at]:
                continue
            changed = text[:at] + digit + text[at + 1 :]
            if not set(numbers_in(changed)) <= carried:
                return changed
    return None


def test_a_one_digit_change_of_any_real_sentence_is_vetoed(black_death) -> None:
    with_numbers = [e for e in black_death if e.kind == "sentence" and numbers_in(e.text)]
    assert len(with_numbers) > 40
    for line in with_numbers:
        changed = one_digit_changed(line.text)
        assert changed is not None, line.text
        assert judge(line.text, [line], EN).passed, line.text  # the control: as written
        judgement = judge(changed, [line], EN)
        assert gates(judgement) == [("digit_veto", False)], changed
        assert judgement.failure is not None
        assert judgement.failure.reason == Reason.DIGIT_VETO.value
        assert judgement.supporting == [] and judgement.claims == []


@pytest.mark.parametrize(
    ("sentence", "not_carried"),
    [
        ("The Black Death reached Crimea by 1344.", "1344"),
        ("Medical geneticists suggested this in October 2011.", "October 2011"),
        ("The plague reduced the world population from 451 million.", "451"),
    ],
)
def test_the_veto_names_the_number_the_evidence_does_not_carry(
    opening, sentence: str, not_carried: str
) -> None:
    decision = judge(sentence, opening, EN).decisions[0]
    assert (decision.gate, decision.passed, decision.reason) == ("digit_veto", False, "digit_veto")
    assert decision.detail == f"not in the cited evidence: {not_carried}"


@pytest.mark.parametrize("date", ["February 9, 1832", "9 February 1832", "February 1832"])
def test_a_date_written_another_way_passes(articles, date: str) -> None:
    charter = the_line(articles["Jacksonville,_Florida.txt"], CHARTER)
    judgement = judge(f"The charter was approved on {date}.", [charter], EN)
    assert gates(judgement) == NO_QUESTION_PASS
    assert judgement.supporting == [charter]


def test_an_iso_date_is_compared_whole_by_the_digit_veto(articles) -> None:
    charter = the_line(articles["Jacksonville,_Florida.txt"], CHARTER)
    # 02 is not a number the line writes, but 1832-02-09 is a date it does.
    assert judge("The charter was approved on 1832-02-09.", [charter], EN).decisions[0].passed


def test_an_iso_date_of_a_written_date_passes_every_tier(articles) -> None:
    charter = the_line(articles["Jacksonville,_Florida.txt"], CHARTER)
    judgement = judge("The charter was approved on 1832-02-09.", [charter], EN)
    assert gates(judgement) == NO_QUESTION_PASS


@pytest.mark.parametrize(
    ("date", "not_carried"),
    [
        ("February 2, 1832", "February 2, 1832"),
        ("2 February 1832", "2 February 1832"),
        ("1832-02-02", "1832-02-02"),
        ("February 9, 1833", "February 9, 1833"),
        ("March 1832", "March 1832"),
    ],
)
def test_a_date_differing_in_any_part_is_vetoed_whole(
    articles, date: str, not_carried: str
) -> None:
    charter = the_line(articles["Jacksonville,_Florida.txt"], CHARTER)
    judgement = judge(f"The charter was approved on {date}.", [charter], EN)
    assert gates(judgement) == [("digit_veto", False)]
    assert judgement.decisions[0].detail == f"not in the cited evidence: {not_carried}"


def test_grouped_digits_are_the_same_number(black_death) -> None:
    line = next(e for e in black_death if "170,000 settlements" in e.text)
    judgement = judge("There were about 170000 settlements in Germany before 1350.", [line], EN)
    assert gates(judgement) == NO_QUESTION_PASS
    assert gates(judge("There were about 170001 settlements.", [line], EN)) == [
        ("digit_veto", False)
    ]


def test_a_digit_is_carried_by_the_number_word_the_line_writes(opening) -> None:
    line = the_line(opening, THREE_WAVES)
    judgement = judge("All 3 of the great waves of the plague originated in China.", opening, EN)
    assert gates(judgement) == NO_QUESTION_PASS
    assert judgement.supporting == [line]
    vetoed = judge("All 4 of the great waves of the plague originated in China.", opening, EN)
    assert gates(vetoed) == [("digit_veto", False)]
    other_word = judge("All four of the great waves originated in China.", opening, EN)
    assert gates(other_word) == [("digit_veto", False)]


@pytest.fixture(scope="module")
def handbook() -> Memory:
    memory = Memory()
    memory.ingest(DEMO_DIR / "site-handbook.md")
    return memory


def handbook_line(memory: Memory, words: str) -> Evidence:
    return next(e for e in memory.search(words, k=5) if words in e.text)


def test_a_digit_written_where_the_line_has_a_word_passes(handbook: Memory) -> None:
    line = handbook_line(handbook, "valid for one shift")
    judgement = judge("A hot work permit is valid for 1 shift.", [line], EN)
    assert gates(judgement) == NO_QUESTION_PASS


def test_a_number_word_where_the_line_has_digits_passes(handbook: Memory) -> None:
    line = handbook_line(handbook, "more than 2 metres")
    judgement = judge(
        "A harness is required for any work more than two metres above the ground.", [line], EN
    )
    assert gates(judgement) == NO_QUESTION_PASS


def test_a_number_word_the_line_does_not_carry_is_vetoed(handbook: Memory) -> None:
    line = handbook_line(handbook, "more than 2 metres")
    judgement = judge("A harness is required above three metres.", [line], EN)
    assert gates(judgement) == [("digit_veto", False)]
    assert judgement.decisions[0].detail == "not in the cited evidence: 3"


# -- tier 2: mixture and unsupported --


def test_evidence_words_around_an_invented_one_are_a_mixture(opening) -> None:
    sentence = "The Black Death originated in Central Asia and was spread by pigeons."
    judgement = judge(sentence, opening, EN)
    assert gates(judgement) == [("digit_veto", True), ("mixture", False)]
    failure = judgement.failure
    assert failure is not None and failure.reason == Reason.MIXTURE.value
    # The word as the sentence writes it, not its stem ("pigeon").
    assert failure.detail == "evidence words around content the evidence never supplied: pigeons"
    assert judgement.supporting == []


def test_a_sentence_with_no_evidence_word_is_unsupported(opening) -> None:
    judgement = judge("Zebras yodel loudly.", opening, EN)
    assert gates(judgement) == [("digit_veto", True), ("mixture", False)]
    failure = judgement.failure
    assert failure is not None and failure.reason == Reason.UNSUPPORTED.value
    # The words as the sentence writes them, in its order, never stems ("zebra", "loud").
    assert failure.detail == "no content word comes from the evidence: Zebras, yodel, loudly"


def test_the_first_failing_tier_decides_and_later_tiers_do_not_run(opening) -> None:
    sentence = "The Black Death originated in Central Asia in 1344 and was spread by pigeons."
    judgement = judge(sentence, opening, EN, question_terms=question_terms(ORIGIN_QUESTION))
    assert gates(judgement) == [("digit_veto", False)]
    assert judgement.failure is not None and judgement.failure.reason == "digit_veto"


def test_a_word_only_the_question_supplies_is_not_evidence(opening) -> None:
    sentence = "The Black Death started in Central Asia."
    alone = judge(sentence, opening[:1], EN)
    assert alone.failure is not None and alone.failure.reason == Reason.MIXTURE.value
    asked = judge(
        sentence,
        opening[:1],
        EN,
        question_terms=question_terms("Where did the Black Death start?"),
    )
    # The line never says "started": the question saying it does not make it evidence.
    assert asked.failure is not None and asked.failure.reason == Reason.MIXTURE.value
    # The control: the word the line does say passes.
    assert judge("The Black Death originated in Central Asia.", opening[:1], EN).passed


# -- tier 3: the read-back --


@pytest.mark.parametrize(
    ("crossing", "halves"),
    [
        (
            "Yersinia pestis travelled along the Silk Road.",
            (
                "The plague disease was caused by Yersinia pestis.",
                "It travelled along the Silk Road.",
            ),
        ),
        (
            "Oriental rat fleas reached Crimea by 1343.",
            ("It was carried by Oriental rat fleas.", "The Black Death reached Crimea by 1343."),
        ),
    ],
)
def test_words_of_two_lines_never_said_together_fail_the_read_back(
    opening, crossing: str, halves: tuple[str, str]
) -> None:
    for half in halves:  # each part is said by some line of the document ...
        assert judge(half, opening, EN).passed, half
    judgement = judge(crossing, opening, EN)  # ... but no line says them together
    assert gates(judgement) == [("digit_veto", True), ("mixture", True), ("readback", False)]
    failure = judgement.failure
    assert failure is not None and failure.reason == Reason.READBACK.value
    assert failure.detail.startswith("no evidence window says together: ")
    assert judgement.supporting == []


def test_a_noun_phrase_before_a_relative_clause_is_read_back_too(opening) -> None:
    assert not judge("Yersinia pestis reached Crimea by 1343.", opening, EN).passed
    judgement = judge("Yersinia pestis, which reached Crimea by 1343.", opening, EN)
    assert not judgement.passed


def test_a_negated_claim_against_an_affirmative_line_fails_the_read_back(opening) -> None:
    assert judge("The Black Death originated in Central Asia.", opening, EN).passed
    judgement = judge("The Black Death did not originate in Central Asia.", opening, EN)
    assert gates(judgement) == [("digit_veto", True), ("mixture", True), ("readback", False)]
    assert judgement.claims[0].negated


def test_a_negated_claim_is_read_back_from_a_negated_line(black_death) -> None:
    line = the_line(black_death, NEVER_DIED_OUT)
    subset = black_death[line.position - 2 : line.position + 3]
    judgement = judge("The Black Death never really died out in England.", subset, EN)
    assert gates(judgement) == NO_QUESTION_PASS
    assert judgement.supporting == [line]


# -- tier 4: support --


def test_a_bare_answer_is_supported_when_its_line_carries_the_question(opening) -> None:
    judgement = judge(
        "Central Asia",
        opening,
        EN,
        question_terms=question_terms(ORIGIN_QUESTION),
        anchor=[opening[0]],
    )
    assert gates(judgement) == ALL_TIERS_PASS
    assert judgement.supporting == [opening[0]]
    assert judgement.decisions[-1].detail == (
        "the supporting lines carry 100% of the question's weighted key words"
    )


def test_an_answer_whose_lines_miss_the_rarest_key_word_is_weak(opening) -> None:
    kyrgyzstan = next(e for e in opening if "Kyrgyzstan" in e.text)
    # Its neighbour says "originated" (of China), but neither names the Black Death.
    judgement = judge(
        "Kyrgyzstan",
        opening,
        EN,
        question_terms=question_terms(ORIGIN_QUESTION),
        anchor=[kyrgyzstan],
        term_weight={"black": 3.0, "death": 2.0, "origin": 1.0}.get,
    )
    assert gates(judgement) == [*NO_QUESTION_PASS, ("support", False)]
    assert judgement.failure is not None
    assert judgement.failure.reason == Reason.WEAK_EVIDENCE.value
    assert judgement.failure.detail == (
        "the supporting lines and those beside them do not write its rarest key word, 'black'"
    )


def test_the_neighbour_that_carries_the_question_is_cited_with_the_answer(opening) -> None:
    # "Oriental rat fleas" stands in the line after the one naming the Black Death's origin.
    judgement = judge(
        "Oriental rat fleas",
        opening,
        EN,
        question_terms=question_terms("What carried the Black Death from Crimea?"),
        anchor=[the_line(opening, FLEAS)],
    )
    assert gates(judgement) == ALL_TIERS_PASS
    assert judgement.supporting == [the_line(opening, FLEAS), the_line(opening, ORIGIN)]


# -- one document at a time --

MULTI_DOCUMENT_QUESTIONS = (
    "When did the plague reach Europe?",
    "Who ruled the Duchy of Normandy?",
    ORIGIN_QUESTION,
    "When was the Jacksonville town charter approved?",
)


@pytest.mark.parametrize("question", MULTI_DOCUMENT_QUESTIONS)
def test_each_engine_call_sees_one_documents_lines_named_by_their_document(
    squad_store: Path, squad, question: str
) -> None:
    seen: list[list[Evidence]] = []

    def script(asked: str, evidence: Sequence[Evidence]) -> list[Candidate]:
        seen.append(list(evidence))
        return []

    with Memory(squad_store, engine=ScriptedEngine(script)) as memory:
        answer = memory.ask(question)
    documents = set(squad.documents())
    assert len(seen) == len(answer.audit["subsets"]) >= 1
    assert all(len({e.document for e in evidence}) == 1 for evidence in seen)
    assert len({evidence[0].document for evidence in seen}) == len(seen)
    block = answer.audit["evidence_block"]
    assert block == [e.dateline() for evidence in seen for e in evidence]
    for line in block:
        name = line[1 : line.index(" #")]
        assert name in documents and line.startswith(f"[{name} #")


def naive_census(squad, articles, question: str) -> dict[str, int]:
    """The census by reading every line of the store with the support tier's own test."""
    shape = read_shape(question)
    analyzer = Analyzer(shape.language)
    index = squad._retriever.words()
    keys = KeyWords.of(key_terms(shape, analyzer), index.idf, analyzer.language)
    counts: dict[str, int] = {}
    for document, lines in articles.items():
        for line in lines:
            terms = support_terms([line], support_context([line], lines), analyzer)
            if keys.rarest in terms.own and keys.carried(terms.carried).passed:
                counts[document] = counts.get(document, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


@pytest.mark.parametrize("question", MULTI_DOCUMENT_QUESTIONS)
def test_the_census_counts_the_lines_that_carry_the_question_in_each_document(
    squad, articles, question: str
) -> None:
    answer = squad.ask(question)
    counts = answer.audit["census"]["documents"]
    assert counts == naive_census(squad, articles, question)
    assert "\n" not in answer.census
    parts = ", ".join(f"{name} ({n} line{'s' if n != 1 else ''})" for name, n in counts.items())
    if counts:
        assert answer.census.endswith(f"): {parts}.")
    else:
        assert answer.census.startswith("No document speaks of this (")
    assert "rarest key word" in answer.census  # it says how it counted


def test_the_census_names_only_documents_that_speak_of_the_question() -> None:
    memory = Memory(dense=False)
    memory.ingest(sorted(DEMO_DIR.iterdir()))  # its links, named one by one
    answer = memory.ask("Who must sign a hot work permit?")
    assert list(answer.audit["census"]["documents"]) == ["site-handbook.md"]
    assert answer.census.startswith("1 document speaks of this (")


def test_a_candidate_is_judged_against_its_own_documents_lines_only(
    squad_store: Path, gate_alone: None
) -> None:
    # "Central Asia" and the question are both said by the Black Death article; offered in
    # every other article's subset, the same words are not that subset's evidence.
    def script(asked: str, evidence: Sequence[Evidence]) -> list[Candidate]:
        return [
            Candidate(
                text="Central Asia",
                value="Central Asia",
                cites=(0,),
                score=0.9,
                note=evidence[0].document,
            )
        ]

    with Memory(squad_store, engine=ScriptedEngine(script)) as memory:
        answer = memory.ask(ORIGIN_QUESTION)
    assert not answer.refused
    assert {c.document for c in answer.citations} == {"Black_Death.txt"}
    assert answer.citations[0].text == ORIGIN
    verdicts = {
        record["document"]: record["candidates"][0]["gate"][-1]["passed"]
        for record in answer.audit["subsets"]
    }
    assert verdicts["Black_Death.txt"] is True
    assert not any(passed for name, passed in verdicts.items() if name != "Black_Death.txt")


def test_a_lines_evidence_terms_are_read_once_per_text_and_language() -> None:
    """Each candidate's judgement reads the same lines again (325 times a question at
    20.9 MB): their terms are read once per text and language, whichever analyzer asks."""
    from affidavit.text.analyzer import Analyzer
    from affidavit.text.content import _evidence_terms, evidence_terms

    text = "The Normans gave their name to Normandy, a region in France, in 911 (AD)."
    read = _evidence_terms.cache_info().misses
    english = evidence_terms(text, Analyzer("en"))
    assert evidence_terms(text, Analyzer("en")) is english
    spanish = evidence_terms(text, Analyzer("es"))
    assert _evidence_terms.cache_info().misses == read + 2
    assert "911" in english and "normandi" in english and english != spanish
