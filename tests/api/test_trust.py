"""Behaviour of the trust ladder and the entry gate: each line carries its source's trust; a
stranger's lines are found by search but never cited by ask nor support a verify; operator
lines outrank document lines; an unknown source is refused before anything is written; and
re-ingesting a text under another source re-rates it."""

from __future__ import annotations

import pytest
from conftest import ARTICLES, DEMO_DIR

from affidavit import IngestError, Memory, Reason
from affidavit.gates.entry import INGESTIBLE, Admission, admit
from affidavit.trust import DOCUMENT_TRUST, SPEAKING_THRESHOLD, Source, trust_of

HANDBOOK = DEMO_DIR / "site-handbook.md"
BLACK_DEATH = ARTICLES[1]
HOT_WORK = "Who must sign a hot work permit?"
SIGNED_BY = "A hot work permit must be signed by the site manager, Dana Okafor."
HOT_WORK_LINE = (
    "Regulation III-52.4 says a hot work permit is valid for one shift and must be signed by the "
    "site manager, Dana Okafor, before welding starts."
)
ORIGIN = (
    "The Black Death is thought to have originated in the arid plains of Central Asia, where it "
    "then travelled along the Silk Road, reaching Crimea by 1343."
)


def handbook_text() -> str:
    return HANDBOOK.read_text(encoding="utf-8")


def trusts(memory: Memory, query: str) -> set[float]:
    return {e.trust for e in memory.search(query, k=50)}


# -- the ladder --


def test_the_ladder_ranks_the_sources_and_reads_them_by_name() -> None:
    assert sorted(Source, key=trust_of, reverse=True) == [
        Source.OPERATOR,
        Source.DOCUMENT,
        Source.EXTRACTION,
        Source.INFERENCE,
        Source.STRANGER,
    ]
    assert all(trust_of(source.value) == trust_of(source) for source in Source)


@pytest.mark.parametrize(
    ("threshold", "speaks"),
    [(DOCUMENT_TRUST, True), (DOCUMENT_TRUST + 0.01, False)],
    ids=["at the threshold", "just below it"],
)
def test_a_line_speaks_at_the_speaking_threshold_and_not_below_it(
    threshold: float, speaks: bool
) -> None:
    """The same document and question either side of the threshold: the answer is the
    control of the refusal."""
    with Memory(dense=False, speaking_threshold=threshold) as memory:
        memory.ingest(BLACK_DEATH)
        answer = memory.ask("By what year did the Black Death reach Crimea?")
    if speaks:
        assert not answer.refused and answer.text == "1343"
    else:
        assert answer.refused and answer.reason == Reason.BELOW_TRUST


# -- the entry gate --


@pytest.mark.parametrize(
    ("source", "trust", "citable"),
    [("operator", 0.75, True), ("document", 0.6, True), ("stranger", 0.3, False)],
)
def test_a_caller_may_name_operator_document_or_stranger(
    source: str, trust: float, citable: bool
) -> None:
    assert admit(source) == Admission(source=Source(source), trust=trust, citable=citable)
    assert Source(source) in INGESTIBLE


def test_a_higher_threshold_leaves_documents_uncitable() -> None:
    assert not admit("document", threshold=0.7).citable
    assert admit("operator", threshold=0.7).citable


@pytest.mark.parametrize("source", ["extraction", "inference", "friend", "Operator", ""])
def test_any_other_source_is_refused_with_the_ones_allowed(source: str) -> None:
    with pytest.raises(IngestError) as caught:
        admit(source, name="notes.md")
    error = caught.value
    assert error.path == "notes.md"
    assert error.problem == f"unknown source {source!r}"
    assert error.hint == "use one of: operator, document, stranger"


# -- a stranger's lines --


def test_a_strangers_lines_are_found_but_never_cited() -> None:
    with Memory() as memory:
        memory.ingest_text(handbook_text(), name="site-handbook.md", source="stranger")
        hits = memory.search("hot work permit signed", k=3)
        # the reader's confidence is not this test's subject
        answer = memory.ask(HOT_WORK, min_probability=0.0)
        verdict = memory.verify(SIGNED_BY)
    assert HOT_WORK_LINE in [h.text for h in hits]
    assert {h.trust for h in hits} == {0.3}
    assert answer.refused and answer.reason == Reason.BELOW_TRUST == "below_trust"
    assert answer.text == Reason.BELOW_TRUST.text
    assert answer.citations == [] and answer.audit["withheld_below_trust"] > 0
    assert [(s.status, s.reason, s.evidence) for s in verdict.sentences] == [
        ("dropped", "below_trust", [])
    ]
    assert not verdict.supported


def test_a_strangers_altered_copy_of_a_line_supports_nothing() -> None:
    rumour = ORIGIN.replace("1343", "1344").replace("Central Asia", "Kyrgyzstan")
    with Memory() as memory:
        memory.ingest(BLACK_DEATH)
        memory.ingest_text(rumour, name="rumour.txt", source="stranger")
        found = {(h.document, h.trust) for h in memory.search("Black Death Crimea 1344", k=3)}
        statuses = [
            [(s.status, s.reason) for s in memory.verify(text).sentences]
            for text in (
                "The Black Death reached Crimea by 1344.",
                "The Black Death originated in the arid plains of Kyrgyzstan.",
                "The Black Death reached Crimea by 1343.",
            )
        ]
        answer = memory.ask("When did the Black Death reach Crimea?")
    assert ("rumour.txt", 0.3) in found and ("Black_Death.txt", 0.6) in found
    assert statuses == [
        [("vetoed", "digit_veto")],
        [("dropped", "readback")],
        [("supported", None)],
    ]
    assert not answer.refused and answer.text == "1343"
    assert {c.document for c in answer.citations} == {"Black_Death.txt"}
    assert not any(line.startswith("[rumour.txt") for line in answer.audit["evidence_block"])
    assert "rumour.txt" not in answer.census


def test_a_stranger_file_is_ingested_at_stranger_trust() -> None:
    with Memory() as memory:
        assert memory.ingest(BLACK_DEATH, source="stranger") == ["Black_Death.txt"]
        assert trusts(memory, "Black Death Central Asia") == {0.3}
        assert memory.ask("Where did the Black Death originate?").reason == Reason.BELOW_TRUST


# -- operator and document lines --


def test_operator_lines_carry_operator_trust_and_are_cited() -> None:
    with Memory() as memory:
        memory.ingest_text(handbook_text(), name="site-handbook.md", source="operator")
        # the reader's confidence is not this test's subject
        answer = memory.ask(HOT_WORK, min_probability=0.0)
        verdict = memory.verify(SIGNED_BY)
        assert trusts(memory, "hot work permit") == {0.75}
    assert not answer.refused and answer.text == "the site manager, Dana Okafor"
    assert [(c.text, c.trust) for c in answer.citations] == [(HOT_WORK_LINE, 0.75)]
    (sentence,) = verdict.sentences
    assert sentence.status == "supported"
    assert [(e.text, e.trust) for e in sentence.evidence] == [(HOT_WORK_LINE, 0.75)]


def test_document_is_the_default_source() -> None:
    with Memory() as memory:
        memory.ingest(HANDBOOK)
        memory.ingest_text(handbook_text(), name="copy.md")
        assert trusts(memory, "hot work permit") == {0.6}
        assert memory.ask(HOT_WORK, min_probability=0.0).citations[0].trust == 0.6


# -- refusing and re-rating --


def test_an_unknown_source_raises_and_writes_nothing() -> None:
    with Memory() as memory:
        memory.ingest(BLACK_DEATH)
        before = memory.stats()
        with pytest.raises(IngestError, match="unknown source 'friend'"):
            memory.ingest_text(handbook_text(), name="site-handbook.md", source="friend")
        with pytest.raises(IngestError, match="unknown source 'extraction'"):
            memory.ingest(HANDBOOK, source="extraction")
        assert memory.stats() == before
        assert memory.documents() == ["Black_Death.txt"]


@pytest.mark.parametrize(
    ("first", "then", "trust"),
    [("stranger", "operator", 0.75), ("operator", "stranger", 0.3), ("document", "stranger", 0.3)],
)
def test_re_ingesting_a_text_under_another_source_re_rates_its_lines(
    first: str, then: str, trust: float
) -> None:
    with Memory() as memory:
        memory.ingest_text(handbook_text(), name="site-handbook.md", source=first)
        lines = memory.stats()["lines"]
        # Lowering a document's trust is asked for explicitly (raising it needs no leave).
        memory.ingest_text(
            handbook_text(), name="site-handbook.md", source=then, replace_trusted=True
        )
        assert memory.documents() == ["site-handbook.md"]
        assert memory.stats()["lines"] == lines
        assert trusts(memory, "hot work permit") == {trust}
        # the reader's confidence is not this test's subject
        answer = memory.ask(HOT_WORK, min_probability=0.0)
    assert answer.refused is (trust < SPEAKING_THRESHOLD)


def test_re_ingesting_a_file_under_another_source_is_not_skipped() -> None:
    with Memory() as memory:
        memory.ingest(BLACK_DEATH, source="stranger")
        memory.ingest(BLACK_DEATH)
        assert memory.documents() == ["Black_Death.txt"]
        assert trusts(memory, "Black Death Central Asia") == {0.6}
        assert not memory.ask("By what year did the Black Death reach Crimea?").refused


# -- the speaking threshold --


def test_a_higher_speaking_threshold_silences_document_lines() -> None:
    with Memory(speaking_threshold=0.7) as memory:
        memory.ingest(BLACK_DEATH)
        assert trusts(memory, "Black Death Central Asia") == {0.6}  # still searchable
        answer = memory.ask("Where did the Black Death originate?")
        verdict = memory.verify("The Black Death originated in the arid plains of Central Asia.")
    assert answer.refused and answer.reason == Reason.BELOW_TRUST
    assert [(s.status, s.reason) for s in verdict.sentences] == [("dropped", "below_trust")]


def test_a_higher_speaking_threshold_still_hears_the_operator() -> None:
    with Memory(speaking_threshold=0.7) as memory:
        memory.ingest_text(handbook_text(), name="site-handbook.md", source="operator")
        memory.ingest(BLACK_DEATH)
        # the reader's confidence is not this test's subject
        answer = memory.ask(HOT_WORK, min_probability=0.0)
        verdict = memory.verify(SIGNED_BY)
    assert not answer.refused and answer.text == "the site manager, Dana Okafor"
    assert verdict.supported


def test_a_lower_trust_source_does_not_replace_a_document_by_its_name(tmp_path) -> None:
    from affidavit import IngestError

    memory = Memory(dense=False)
    memory.ingest_text("The CEO of Acme is Alice Brown.", name="acme.md")
    with pytest.raises(IngestError, match="would replace 'acme.md'"):
        memory.ingest_text("The CEO of Acme is Mallory.", name="acme.md", source="stranger")
    assert memory.ask("Who is the CEO of Acme?").text == "Alice Brown"
    memory.ingest_text(
        "The CEO of Acme is Mallory.", name="acme.md", source="stranger", replace_trusted=True
    )
    assert memory.search("CEO of Acme", k=1)[0].text == "The CEO of Acme is Mallory."


def test_text_a_browser_does_not_show_is_no_evidence(tmp_path) -> None:
    page = tmp_path / "acme.html"
    page.write_text(
        "<html><body><p>The CEO of Acme is Alice Brown.</p>"
        '<p style="display: none">The CEO of Acme is Mallory.</p>'
        "<div hidden><p>Mallory signs every contract.</p></div></body></html>",
        encoding="utf-8",
    )
    memory = Memory(dense=False)
    report = memory.ingest(page)
    assert [h.text for h in memory.search("CEO Acme Mallory contract", k=5)] == [
        "The CEO of Acme is Alice Brown."
    ]
    # Left out on purpose, and said: nothing is dropped without a word.
    assert report.warnings == [
        "acme.html: 2 hidden element(s) left out (1 by display:none, 1 by the hidden "
        "attribute): text no reader of the page sees is not evidence"
    ]


def test_when_lines_of_equal_trust_disagree_the_answer_and_verify_say_so() -> None:
    memory = Memory(dense=False)
    memory.ingest_text("The CEO of Acme is Mallory. Acme makes anvils.", name="a.md")
    memory.ingest_text(
        "The CEO of Acme is Alice Brown. The CEO of Acme met Bob in Springfield.", name="b.md"
    )
    # the reader's confidence is not this test's subject
    answer = memory.ask("Who is the CEO of Acme?", min_probability=0.0)
    assert answer.audit["contradicted_by"]
    assert "Contested: lines of equal trust answer otherwise" in answer.census
    for claim in ("The CEO of Acme is Mallory.", "The CEO of Acme is Alice Brown."):
        sentence = memory.verify(claim).sentences[0]
        assert (sentence.status, sentence.reason) == ("contested", Reason.CONTESTED)
        assert {e.document for e in sentence.evidence} == {"a.md", "b.md"}
    # Another fact about the same people is no disagreement, nor is a stranger's word.
    assert memory.verify("The CEO of Acme met Bob in Springfield.").supported
    memory.ingest_text("The CEO of Acme is Eve.", name="c.md", source="stranger")
    assert memory.verify("Acme makes anvils.").supported
