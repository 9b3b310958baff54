"""Sentences cut from runs of paragraphs are the ones spaCy's sentencizer cuts from each.

The splitter tokenizes a run of paragraphs as one text and applies the sentencizer's rule
to the token arrays (text/sentences.py); the reference here is the sentencizer itself,
run on a Doc of each paragraph. Both then move stray openers the same way.
"""

from __future__ import annotations

import json

import pytest
from conftest import CORPORA, PDF_DIR, SQUAD_DIR
from hypothesis import given
from hypothesis import strategies as st

from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.units import UnitKind
from affidavit.text import sentences
from affidavit.text.language import detect_language


def sentencizer_reading(paragraphs: list[str], language: str) -> list[list[str]]:
    """Each paragraph as a Doc of its own through the sentencizer pipeline, its list
    labels kept with the sentences they open and its abbreviations with the numbers they
    go on into, as the splitter keeps them."""
    nlp = sentences._pipeline(language)
    cut = (p[: sentences._MAX_PARAGRAPH] for p in paragraphs)
    read = []
    for doc in nlp.pipe(cut):
        cuts = sentences._past_labels(doc.text, [s.start_char for s in doc.sents] + [len(doc.text)])
        cuts = sentences._past_abbreviations(doc.text, cuts, language)
        pieces = (doc.text[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False))
        read.append(sentences._move_openers([s for s in pieces if s]))
    return read


def _prose(path) -> list[str]:
    return [u.text for u in read_document(path) if u.kind is UnitKind.PROSE]


def _corpus_documents() -> list[tuple[str, list[str]]]:
    found = [
        (p.name, _prose(p)) for p in sorted(SQUAD_DIR.glob("*.txt")) if p.name != "LICENSE.txt"
    ]
    found += [(p.name, _prose(p)) for p in sorted(PDF_DIR.glob("*.pdf"))]
    for suffix in ("", ".es", ".tr"):
        path = CORPORA / "xquad_slice" / f"paragraphs{suffix}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        found.append((path.name, [row["text"] for row in rows]))
    return [(name, paragraphs) for name, paragraphs in found if paragraphs]  # not all tables


@pytest.mark.parametrize(("name", "paragraphs"), _corpus_documents(), ids=lambda x: str(x)[:40])
def test_every_corpus_paragraph_is_cut_as_the_sentencizer_cuts_it(name, paragraphs):
    language = detect_language(" ".join(paragraphs[:50]))
    assert list(sentences.split_sentences(paragraphs, language)) == sentencizer_reading(
        paragraphs, language
    )


def test_runs_are_cut_anywhere_without_changing_a_sentence(monkeypatch):
    paragraphs = _prose(SQUAD_DIR / "Normans.txt")
    whole = list(sentences.split_sentences(paragraphs))
    for run in (1, 5_000):  # a run of one paragraph each, then of a few
        monkeypatch.setattr(sentences, "_SPLITS", sentences._Splits(100))  # nothing remembered
        monkeypatch.setattr(sentences, "_RUN_CHARS", run)
        assert list(sentences.split_sentences(paragraphs)) == whole


def test_a_paragraph_split_before_is_remembered_and_the_memory_is_bounded(monkeypatch):
    paragraphs = _prose(SQUAD_DIR / "Normans.txt")
    monkeypatch.setattr(sentences, "_SPLITS", sentences._Splits(10_000))
    first = list(sentences.split_sentences(paragraphs))

    def never(*_: object) -> None:
        raise AssertionError("split again")

    long_ones = [p for p in paragraphs if len(p) >= sentences._REMEMBERED_CHARS]
    monkeypatch.setattr(sentences, "_split_run", never)
    assert list(sentences.split_sentences(long_ones)) == [
        cut for p, cut in zip(paragraphs, first, strict=True) if p in long_ones
    ]
    monkeypatch.undo()
    small = sentences._Splits(3)
    for n in range(5):
        small.put(("en", f"{n} " + "x" * 100), [str(n)])
    assert small.get(("en", "0 " + "x" * 100)) is None
    assert small.get(("en", "4 " + "x" * 100)) == ["4"]


def test_empty_and_blank_paragraphs_keep_their_places():
    paragraphs = ["", "  Hello.  World  ", " ", "\n", "...", "Hi. ", '"Yes," he said. "No." ok']
    got = list(sentences.split_sentences(paragraphs))
    assert got == sentencizer_reading(paragraphs, "en")
    assert got[0] == [] and got[1] == ["Hello.", "World"] and got[2] == [] and got[3] == []
    assert list(sentences.split_sentences([""])) == [[]]
    assert list(sentences.split_sentences([])) == []


_PIECES = [
    "Hello", "world", "Dr.", "etc.", "U.S.", ".", "...", "…", "!", "?", "?!", "¿", "¡", '"',
    "“", "”", "'", "(", ")", "[", "«", "»", ",", ";", ":", "—", "3.14", "1,200", "e.g.",
    ":)", "don't", "İstanbul", "ñandú", "\u2028", "\u00a0", "#", "۔", "。", "a@b.c", "\u200b",
    "\r\n", "\t", "www.example.com.", "(p − 1)! + 1",
]  # fmt: skip
_PARAGRAPH = st.lists(
    st.tuples(st.sampled_from(_PIECES), st.sampled_from(["", " ", " ", "  ", "\n"])), max_size=20
).map(lambda parts: "".join(word + gap for word, gap in parts))


@given(st.lists(_PARAGRAPH, min_size=1, max_size=12), st.sampled_from(["en", "es", "tr"]))
def test_generated_paragraphs_are_cut_as_the_sentencizer_cuts_them(paragraphs, language):
    got = list(sentences.split_sentences(paragraphs, language))
    assert got == sentencizer_reading(paragraphs, language)


@pytest.mark.parametrize(
    ("paragraph", "cut"),
    [
        (
            "1. Submit the form. 2. Pay the fee of $250.",
            ["1. Submit the form.", "2. Pay the fee of $250."],
        ),
        (
            "(a) *Scope.* This section applies to all data.",
            ["(a) *Scope.* This section applies to all data."],
        ),
        ('1.1. "Contributor" means each one.', ['1.1. "Contributor" means each one.']),
        (
            "8. Limitation of Liability. In no event shall.",
            ["8. Limitation of Liability. In no event shall."],
        ),
        ("We met in 1066. It was cold.", ["We met in 1066.", "It was cold."]),
        ("The fee is 12. Pay it now.", ["The fee is 12.", "Pay it now."]),
        ("2.", ["2."]),
        # A caption's label: a report's table and its title are one line.
        (
            "Table 324. Arrests by Sex and Age: 2009 [In thousands]",
            ["Table 324. Arrests by Sex and Age: 2009 [In thousands]"],
        ),
        ("Figure 2-1. Revenue by year.", ["Figure 2-1. Revenue by year."]),
        ("See Figure 2. It shows the rise.", ["See Figure 2.", "It shows the rise."]),
    ],
)
def test_a_list_label_opens_the_sentence_it_numbers(paragraph, cut):
    """A label the sentencizer leaves alone ("1.", "(a) *Scope.*", "Table 324.") is cut with
    the text it numbers, verbatim: a reviewer reads "2. Pay the fee", never "2." and "Pay
    the fee"."""
    assert list(sentences.split_sentences([paragraph])) == [cut]


@pytest.mark.parametrize(
    ("paragraph", "cut"),
    [
        (
            "See separate instructions. Cat. No. 11327A Form 1040A (2012)",
            ["See separate instructions.", "Cat. No. 11327A Form 1040A (2012)"],
        ),
        ("Results are in Fig. 3 below. They hold.", ["Results are in Fig. 3 below.", "They hold."]),
        ("Call Tel. 555 0100 today.", ["Call Tel. 555 0100 today."]),
        ("He fed the cat. No one saw.", ["He fed the cat.", "No one saw."]),
        ("Ask the Dept. Then wait.", ["Ask the Dept.", "Then wait."]),
        ("Llame al Tel. 555 0100 hoy.", ["Llame al Tel. 555 0100 hoy."]),
    ],
)
def test_an_abbreviation_going_on_into_a_number_is_not_an_end(paragraph, cut):
    """A form's "Cat. No. 11327A" is one line: the sentencizer cut it at each full stop,
    and the catalogue number stood alone, away from the words that name it."""
    language = "es" if paragraph.startswith("Llame") else "en"
    assert list(sentences.split_sentences([paragraph], language)) == [cut]
