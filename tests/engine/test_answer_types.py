"""Answer types real documents ask for: each span pattern is read on lines of the project's
corpora (the site handbook, the IRS 1040NR instructions, the USDA energy round-up, the
Senate expenditures, SQuAD and XQuAD articles), and the default engine answers the
handbook's and the instructions' questions with them.

Every line below is checked to be in its corpus (whitespace as the PDF text dump broke it
is folded), so no pattern is tested on text written for it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

import pytest
from conftest import CORPORA, DEMO_DIR, PDF_DIR, SQUAD_DIR

from affidavit import Memory
from affidavit.engine.rules.typed_candidates import typed_spans
from affidavit.question.shape import AnswerType, read_shape

HANDBOOK = DEMO_DIR / "site-handbook.md"
IRS_PDF = PDF_DIR / "i1040nr.pdf"


def _folded(text: str) -> str:
    return " ".join(text.split())


@cache
def corpus(name: str) -> str:
    """A corpus's text with its whitespace folded, the way ingest joins PDF lines."""
    if name == "handbook":
        return _folded(HANDBOOK.read_text(encoding="utf-8"))
    if name in ("irs", "usda", "senate"):
        dump = {
            "irs": "i1040nr",
            "usda": "ag-energy-round-up-2017-02-24",
            "senate": "senate-expenditures",
        }[name]
        return _folded((PDF_DIR / f"{dump}.pdfminer.txt").read_text(encoding="utf-8"))
    if name == "squad":
        return _folded(" ".join(p.read_text(encoding="utf-8") for p in SQUAD_DIR.glob("*.txt")))
    path = CORPORA / "xquad_slice" / f"paragraphs.{name}.jsonl"
    with path.open(encoding="utf-8") as handle:
        return _folded(" ".join(json.loads(line)["text"] for line in handle if line.strip()))


def span_texts(line: str, wanted: AnswerType, language: str = "en") -> list[str]:
    return [s.text for s in typed_spans(line, wanted, language)]


# (type asked, the span it must offer, corpus, a line of it); es and tr lines are read so.
REAL_SPANS = [
    # identifiers: after a cue word, or by their look
    (AnswerType.IDENTIFIER, "III-52.4", "handbook", "Regulation III-52.4 says a hot work permit"),
    (AnswerType.IDENTIFIER, "11368V", "irs", "Cat. No. 11368V"),
    (AnswerType.IDENTIFIER, "250250025", "irs", "the routing number is 250250025."),
    (AnswerType.IDENTIFIER, "1997-10", "irs", "page 40 of Internal Revenue Bulletin 1997-10"),
    (AnswerType.IDENTIFIER, "519", "irs", "See Pub. 519 for more details."),
    (AnswerType.IDENTIFIER, "1099-R", "irs", "income from Forms W-2 and 1099-R."),
    (AnswerType.IDENTIFIER, "W-8BEN", "irs", "required on Form W-8BEN or"),
    (AnswerType.IDENTIFIER, "DHAW20190001", "senate", "DHAW20190001"),
    # e-mail, URLs (a PDF line break inside a URL is kept), phones
    (AnswerType.EMAIL, "taxforms@irs.gov", "irs", "You can email us at *taxforms@irs.gov."),
    (
        AnswerType.EMAIL,
        "desm.lpgmn@ams.usda.gov",
        "usda",
        "Email: desm.lpgmn@ams.usda.gov www.ams.usda.gov",
    ),
    (
        AnswerType.URL,
        "www.ams.usda.gov/LPSMarketNewsPage",
        "usda",
        "www.ams.usda.gov/LPSMarketNewsPage",
    ),
    (AnswerType.URL, "www.irs.gov", "irs", "from the IRS website at www.irs.gov."),
    (
        AnswerType.URL,
        "www.irs.gov/pub/ irs-irbs/irb97-10.pdf",
        "irs",
        "at www.irs.gov/pub/ irs-irbs/irb97-10.pdf.",
    ),
    (AnswerType.URL, "www. irs.gov", "irs", "visit www. irs.gov and click"),
    (AnswerType.PHONE, "1-800-829-1040", "irs", "Call the IRS at 1-800-829-1040 if you think"),
    (AnswerType.PHONE, "1-888-PAY-1040SM", "irs", "1-888-PAY-1040SM (1-888-729-1040)"),
    (AnswerType.PHONE, "1-800-829-3676", "irs", "1-800-TAX-FORM (1-800-829-3676)."),
    (AnswerType.PHONE, "215-516-2000", "irs", "If overseas, you may call 215-516-2000"),
    (AnswerType.PHONE, "01-787-622-8940", "irs", "If overseas, call 01-787-622-8940"),
    # postal addresses answer "where" and "what is the address"
    (
        AnswerType.PLACE,
        "P.O. Box 920, Bensalem, PA 19020-8518",
        "irs",
        "Section, P.O. Box 920, Bensalem, PA 19020-8518.",
    ),
    (AnswerType.PLACE, "210 Walnut Street, Room 767", "usda", "210 Walnut Street, Room 767"),
    # partial dates (a full one, "April 15, 2008", is read in the last test)
    (AnswerType.TIME, "siglo XIX", "es", "hasta el segundo cuarto del siglo XIX"),
    (AnswerType.TIME, "década del 880", "es", "comenzado a llegar en la década del 880"),
    (AnswerType.TIME, "19. yüzyıl", "tr", "Osmanlı toplumunda 19. yüzyılın ikinci çeyreğine"),
    (AnswerType.TIME, "880'ler", "tr", "Viking yerleşimcileri 880'lerde gelmeye başlamıştı"),
    # money with its currency
    (AnswerType.AMOUNT, "US$3", "squad", "had risen from US$3 per barrel"),
    # quantities with units
    (
        AnswerType.QUANTITY,
        "more than 2 metres",
        "handbook",
        "any work more than 2 metres above the ground",
    ),
    (AnswerType.QUANTITY, "100–106 °F", "squad", "fever of 38–41 °C (100–106 °F), headache"),
    (AnswerType.QUANTITY, "617 ft", "squad", "It has a height of 617 ft (188 m)"),
    (
        AnswerType.QUANTITY,
        "70 millas por hora",
        "es",
        "vientos de hasta 70 millas por hora (113 km/h)",
    ),
    (AnswerType.QUANTITY, "340 millas", "es", "a unas 340 millas (550 km) al norte de Miami"),
    (AnswerType.QUANTITY, "340 mil", "tr", "Miami'nin yaklaşık 340 mil (550 km) kuzeyinde"),
    (AnswerType.QUANTITY, "180 km/s", "tr", "Gözler zar zor 110 mph (180 km/s'a azalan"),
    # durations
    (AnswerType.DURATION, "one shift", "handbook", "a hot work permit is valid for one shift"),
    (AnswerType.DURATION, "5 to 15 years", "squad", "in the same areas separated by 5 to 15 years"),
    (AnswerType.DURATION, "121-day", "irs", "less than 61 days during the 121-day period"),
    (AnswerType.DURATION, "cinco a diez años", "es", "se necesitaban de cinco a diez años antes"),
    (AnswerType.DURATION, "üç yıl", "tr", "devam etmeden önce üç yıl boyunca Avrupa'yı"),
    # titles: a run of capitalised words, or a quoted one
    (
        AnswerType.TITLE,
        "Instructions for Form 1040NR U.S. Nonresident Alien Income Tax Return",
        "irs",
        "2007 Instructions for Form 1040NR U.S. Nonresident Alien Income Tax Return",
    ),
    (
        AnswerType.TITLE,
        "Winter Film Capital of the World",
        "squad",
        'the title of "Winter Film Capital of the World".',
    ),
]


@pytest.mark.parametrize(("wanted", "expected", "name", "line"), REAL_SPANS)
def test_a_real_line_offers_the_span_its_answer_type_asks_for(
    wanted: AnswerType, expected: str, name: str, line: str
) -> None:
    assert _folded(line) in corpus(name)
    language = name if name in ("es", "tr") else "en"
    assert expected in span_texts(line, wanted, language)


@pytest.mark.parametrize(
    ("name", "line", "wanted", "expected"),
    [
        (
            "handbook",
            "Regulation III-52.4 says a hot work permit is valid for one shift",
            AnswerType.IDENTIFIER,
            "III-52.4",
        ),
        ("irs", "Cat. No. 11368V", AnswerType.IDENTIFIER, "11368V"),
        ("irs", "You can email us at *taxforms@irs.gov.", AnswerType.EMAIL, "taxforms@irs.gov"),
        (
            "irs",
            "Call the IRS at 1-800-829-1040 if you think your identity has been used",
            AnswerType.PHONE,
            "1-800-829-1040",
        ),
    ],
)
def test_a_code_or_contact_is_the_first_span_offered(
    name: str, line: str, wanted: AnswerType, expected: str
) -> None:
    assert _folded(line) in corpus(name)
    assert span_texts(line, wanted)[0] == expected


def test_numbers_inside_codes_and_phones_are_no_counts() -> None:
    regulation = "Regulation III-52.1 requires a harness for any work more than 2 metres"
    phone = "Call the IRS at 1-800-829-1040 if you think your identity has been used"
    assert regulation in corpus("handbook") and phone in corpus("irs")
    assert "52.1" not in span_texts(regulation, AnswerType.COUNT)
    assert span_texts(phone, AnswerType.COUNT) == []


def test_form_numbers_and_codes_are_no_dates() -> None:
    forms = "you should have filed a Form 1040, 1040A, or 1040EZ, or vice versa."
    catalog = "Cat. No. 11368V"
    assert forms in corpus("irs") and catalog in corpus("irs")
    assert "1040" not in span_texts(forms, AnswerType.TIME)
    assert span_texts(catalog, AnswerType.TIME) == []


def test_a_year_inside_a_code_shaped_form_name_is_no_year() -> None:
    line = "income from Forms W-2 and 1099-R."
    assert line in corpus("irs")
    assert "1099" not in span_texts(line, AnswerType.TIME)


def test_a_phone_number_does_not_answer_for_an_identifier_before_a_code() -> None:
    line = (
        "see Notice 2007-30, 2007-14 I.R.B. 883, available at www.irs.gov/irb/ "
        "2007-14_IRB/ar20.html."
    )
    assert _folded(line) in corpus("irs")
    spans = typed_spans(line, AnswerType.IDENTIFIER)
    assert spans[0].text == "2007-30"
    assert all("www" not in s.text for s in spans)  # a URL is read whole, never as a code


def test_units_are_read_per_language() -> None:
    # NOTE: "mil" is a mile in Turkish but a thousand in Spanish ("30 mil personas").
    turkish = "Miami'nin yaklaşık 340 mil (550 km) kuzeyinde bulunmaktadır"
    assert turkish in corpus("tr")
    assert "340 mil" in span_texts(turkish, AnswerType.QUANTITY, "tr")
    assert "340 mil" not in span_texts(turkish, AnswerType.QUANTITY, "es")


# -- the default engine answers with the new types --


@pytest.fixture(scope="module")
def handbook() -> Iterator[Memory]:
    with Memory() as memory:
        memory.ingest(HANDBOOK)
        yield memory


@pytest.mark.parametrize(
    ("question", "answer_type", "expected"),
    [
        (
            "What is the number of the regulation on hot work permits?",
            AnswerType.IDENTIFIER,
            "III-52.4",
        ),
        (
            "How high above the ground does work require a harness?",
            AnswerType.QUANTITY,
            "more than 2 metres",
        ),
        ("How long is a hot work permit valid?", AnswerType.DURATION, "one shift"),
    ],
)
def test_the_handbook_answers_identifier_and_measure_questions(
    handbook: Memory, question: str, answer_type: AnswerType, expected: str
) -> None:
    answer = handbook.ask(question, min_probability=0.0)  # the span of the kind, not its odds
    assert answer.audit["shape"]["answer_type"] == answer_type.value
    assert answer.text == expected
    assert expected in answer.citations[0].text


@pytest.fixture(scope="module")
def irs() -> Iterator[Memory]:
    with Memory() as memory:
        memory.ingest(IRS_PDF)
        yield memory


@pytest.mark.parametrize(
    ("question", "answer_type", "expected"),
    [
        ("What is the phone number of the SSA?", AnswerType.PHONE, "1-800-772-1213"),
        ("What is the IRS website?", AnswerType.URL, "www.irs.gov"),
        (
            "What is the email address of the Federal Trade Commission?",
            AnswerType.EMAIL,
            "spam@uce.gov",
        ),
    ],
)
def test_the_instructions_answer_contact_questions(
    irs: Memory, question: str, answer_type: AnswerType, expected: str
) -> None:
    answer = irs.ask(question)
    assert answer.audit["shape"]["answer_type"] == answer_type.value
    assert answer.text == expected


def test_the_known_failures_are_routed_and_their_lines_hold_the_answer() -> None:
    """The issue's three questions: a regulation number is no count, a catalog number and a
    filing date have their spans on the instructions' lines."""
    regulation = read_shape("What is the number of the regulation on hot work permits?")
    catalog = read_shape("What is the catalog number of the instructions?")
    deadline = read_shape("By what date must the 2007 return be filed?")
    assert regulation.answer_type is AnswerType.IDENTIFIER
    assert catalog.answer_type is AnswerType.IDENTIFIER
    assert deadline.answer_type is AnswerType.TIME
    assert span_texts("Cat. No. 11368V", catalog.answer_type) == ["11368V"]
    due = "A return for the 2007 calendar year is due by April 15, 2008."
    assert "April 15, 2008" in span_texts(due, deadline.answer_type)


def test_a_footnotes_mark_is_no_count() -> None:
    contexts = json.loads((CORPORA / "tatqa" / "tatqa_slice.json").read_text(encoding="utf-8"))
    note = next(
        p["text"]
        for c in contexts
        for p in c["paragraphs"]
        if p["text"].startswith("(2) Working capital and total assets decreased")
    )
    offered = span_texts(note, AnswerType.COUNT)
    assert "2" not in offered and "(2)" not in offered  # the mark the footnote opens with
    assert "36.1" in offered  # the figure the footnote states is still offered
