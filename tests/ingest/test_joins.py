"""PDF line joins (issue 10): a line broken inside a word or code after its dash runs on.

Real cases come from the IRS instructions (i1040nr.pdf, ingested once) and its pdfminer
dump; snippets check each kind of real break beside a join, so the rule must tell them apart,
and a syllable break's hyphen beside a compound's, which only the rest of the document tells.
"""

from __future__ import annotations

import re

import pytest
from conftest import PDF_DIR, stored_lines

from affidavit import Memory
from affidavit.ingest.joins import DocumentWords, join_lines
from affidavit.ingest.layout import lay_out
from affidavit.ingest.units import Unit, UnitKind

I1040NR = PDF_DIR / "i1040nr.pdf"
I1040NR_DUMP = PDF_DIR / "i1040nr.pdfminer.txt"

# The dump's lines ending in a word's hyphen, with the word going on below (Pub 4655 insert).
# All five are syllable breaks: the dump writes each word whole elsewhere (case-folded, as a
# whole word: apply 54 times, instructions 175, charitable 20, included 32, additional 33)
# and never hyphenated at that syllable.
INSERT_BREAKS = [
    ("ap-", "ply"),
    ("instruc-", "tions"),
    ("chari-", "table"),
    ("in-", "cluded"),
    ("addi-", "tional"),
]


@pytest.fixture(scope="module")
def irs_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The text of every line stored from i1040nr.pdf (about ten seconds, once)."""
    path = tmp_path_factory.mktemp("irs") / "irs.sqlite"
    with Memory(path) as memory:
        memory.ingest(I1040NR)
    return [text for _doc, _pos, _kind, text in stored_lines(path)]


def _texts(text: str) -> list[str]:
    return [unit.text for unit in lay_out(text)]


# --- the real PDF -----------------------------------------------------------------------------


# Where each break stands once stored: the word whole, in its sentence.
INSERT_PHRASES = [
    "the following instructional changes apply",
    "(and Form 1040NR) and instructions will not be revised",
    "recapture of a charitable contribution of a fractional interest",
    "line 41), must instead be included in the total",
    "must instead be included in the total on Form 1040, line 63 (or Form 1040NR, line 58), "
    "as an additional write-in tax",
]


@pytest.mark.parametrize(
    ("end", "start", "phrase"),
    [
        (end, start, phrase)
        for (end, start), phrase in zip(INSERT_BREAKS, INSERT_PHRASES, strict=True)
    ],
    ids=[e for e, _ in INSERT_BREAKS],
)
def test_a_word_broken_at_a_syllable_is_stored_whole_without_its_hyphen(
    irs_lines: list[str], end: str, start: str, phrase: str
) -> None:
    dump = I1040NR_DUMP.read_text(encoding="utf-8")
    word = end[:-1] + start
    # The document's own say: the word whole elsewhere, the hyphenated form nowhere.
    assert re.search(rf"(?<![\w-]){word}(?![\w-])", dump, re.IGNORECASE)
    assert not re.search(rf"\b{end}{start}\b", dump, re.IGNORECASE)
    assert any(phrase in line for line in irs_lines)
    assert not any(end + start in line or f"{end} {start}" in line for line in irs_lines)


def test_every_line_end_dash_of_the_dump_joins_only_inside_a_word(irs_lines: list[str]) -> None:
    """Each dash ending a dump line either runs on into the next line or is left standing.

    The dump's 41 cases: five words of the insert (joined), 35 page markers "-2-" ... "-48-"
    (running footers: the reader by rows sets each on its page's last row, so all are left
    out, formats/running.py; none is joined to a word) and "Your tax is—" (stored alone).
    """
    dump = I1040NR_DUMP.read_text(encoding="utf-8").splitlines()
    ends = [(k, line.strip()) for k, line in enumerate(dump) if re.search(r"\w[-–—]$", line)]
    markers = [line for _, line in ends if re.fullmatch(r"-\d+-", line)]
    in_words = [k for k, line in ends if line[-1] == "-" and not line.startswith("-")]
    words = [(dump[k].split()[-1], dump[k + 1].split()[0]) for k in in_words]
    assert len(ends) == 41 and len(markers) == 35 and "Your tax is—" in {t for _, t in ends}
    assert words == INSERT_BREAKS
    stored = set(irs_lines)
    assert not any(marker in line for marker in markers for line in irs_lines)
    # the tax tables' two columns side by side each open with it: a row of two cells
    assert any("Your tax is—" in line.split("\t") for line in stored)
    assert all(any(end[:-1] + start in line for line in irs_lines) for end, start in INSERT_BREAKS)


# --- snippets: the issue's code, compounds, and the real breaks beside them ----------------


def test_the_issue_s_code_is_stored_whole() -> None:
    text = "This AD was prompted by Product Identifier 2019–\nNM–035–AD, and the FAA proposes"
    assert _texts(text) == [
        "This AD was prompted by Product Identifier 2019–NM–035–AD, and the FAA proposes"
    ]


def test_a_hyphenated_compound_keeps_its_hyphen() -> None:
    text = "If you were self-\nemployed in 2007, attach Schedule SE."
    assert _texts(text) == ["If you were self-employed in 2007, attach Schedule SE."]


def test_a_compound_in_a_wrapped_index_entry_is_joined() -> None:
    text = "\n".join(
        [
            "Self-",
            "employment tax . . . . 14",
            "Gift to reduce debt . . . . 20",
            "Income tax withholding . . . . 27",
            "Interest income . . . . 12",
        ]
    )
    rows = [unit for unit in lay_out(text) if unit.kind is UnitKind.ROW]
    assert rows[0].text == "Self-employment tax . . . . 14"


# --- the document decides: a syllable break's hyphen goes, a compound's stays ----------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Read the instruc-\ntions first.\n\nThe instructions are short.",
            ["Read the instructions first.", "The instructions are short."],
        ),
        (
            "Instruc-\ntions for Form 1040NR follow.\n\nKeep these instructions.",
            ["Instructions for Form 1040NR follow.", "Keep these instructions."],
        ),
        (
            "(The instruc-\ntions), in brief.\n\nSee the Instructions.",
            ["(The instructions), in brief.", "See the Instructions."],
        ),
    ],
    ids=["lowercase", "capital-first", "opener-and-comma"],
)
def test_a_syllable_break_loses_its_hyphen_where_the_document_writes_the_word_whole(
    text: str, expected: list[str]
) -> None:
    assert _texts(text) == expected


@pytest.mark.parametrize(
    "elsewhere",
    [
        "Self-employed people read the instructions.",
        # Even with the closed spelling written too, the hyphenated one keeps the hyphen.
        "Self-employed or selfemployed, read the instructions.",
    ],
    ids=["hyphenated-elsewhere", "both-spellings-elsewhere"],
)
def test_a_compound_keeps_its_hyphen_beside_a_dropped_syllable_break(elsewhere: str) -> None:
    text = f"If you were self-\nemployed, see the instruc-\ntions.\n\n{elsewhere}"
    assert _texts(text)[0] == "If you were self-employed, see the instructions."


def test_a_code_keeps_its_dash_beside_a_dropped_syllable_break() -> None:
    """Digits or capitals inside either piece, or an en dash, make it a code, kept as printed.

    The closed forms are written below, so only the shape of the pieces keeps each dash.
    """
    text = (
        "See Form 2555-\nEZ, line 1040-\nnr, box AB-\ncd, code ab-\nCD, ab-\ncd2, the north–\n"
        "south line and the instruc-\ntions.\n\n"
        "Form 2555EZ, line 1040nr, box ABcd, code abCD, northsouth: the instructions."
    )
    assert _texts(text)[0] == (
        "See Form 2555-EZ, line 1040-nr, box AB-cd, code ab-CD, ab-cd2, the north–south line "
        "and the instructions."
    )


def test_a_word_the_document_never_writes_whole_keeps_its_hyphen() -> None:
    text = (
        "The tax on recapture of a chari-\ntable gift is in the instruc-\ntions.\n\n"
        "Read the instructions."
    )
    assert _texts(text)[0] == "The tax on recapture of a chari-table gift is in the instructions."


def test_a_break_elsewhere_is_neither_the_word_written_whole_nor_hyphenated() -> None:
    text = (
        "You may ap-\nply now.\n\nOthers ap-\nply later.\n\nTo apply, read the chari-\n"
        "table rules.\n\nThe chari-\ntable rules."
    )
    assert _texts(text) == [
        "You may apply now.",
        "Others apply later.",
        "To apply, read the chari-table rules.",
        "The chari-table rules.",
    ]


def test_join_lines_drops_a_break_hyphen_only_when_given_the_document_s_words() -> None:
    lines = ["the instruc-", "tions"]
    assert join_lines(lines) == "the instruc-tions"
    assert join_lines(lines, words=DocumentWords("See the instructions.")) == "the instructions"
    assert join_lines(lines, words=DocumentWords("No such word here.")) == "the instruc-tions"


REAL_BREAKS = {
    # A page marker as pdfminer prints it, inside a box.
    "page-marker": (
        "attach Form 2555-\nEZ to your return.\n-2-\nInstructions for Form 1040NR",
        ["attach Form 2555-EZ to your return. -2- Instructions for Form 1040NR"],
    ),
    # IRS writes a zero as "–0–"; the line below is not part of it.
    "zero-written-with-dashes": (
        "on line 58 of Form 1040-\nNR, enter –0–\non line 16b.",
        ["on line 58 of Form 1040-NR, enter –0– on line 16b."],
    ),
    # A dash after a space is punctuation ("2007 Tax Table – Continued").
    "spaced-dash": (
        "see the 2007 Tax Table -\nContinued on page 2555-\nEZ.",
        ["see the 2007 Tax Table - Continued on page 2555-EZ."],
    ),
    "em-dash": (
        "Form 2555-\nEZ filers. Your tax is—\nthe amount shown.",
        ["Form 2555-EZ filers. Your tax is— the amount shown."],
    ),
    "bullet": (
        "The additional tax on recapture of a chari-\ntable contribution is reported on "
        "Form 1040-\n– All filers of Forms 2555 or 2555-EZ must\ndisregard the worksheet",
        [
            "The additional tax on recapture of a chari-table contribution is reported on "
            "Form 1040-",
            "– All filers of Forms 2555 or 2555-EZ must disregard the worksheet",
        ],
    ),
    "list-item": (
        "attach a list of the kinds of exclu-\nsions you claim and Form 2555-\n"
        "2. You were a nonresident alien not\nengaged in a trade or business",
        [
            "attach a list of the kinds of exclu-sions you claim and Form 2555- "
            "2. You were a nonresident alien not engaged in a trade or business"
        ],
    ),
    "dash-alone": (
        "Form 1040-\nNR\n-\nand Form 8889",
        ["Form 1040-NR - and Form 8889"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), REAL_BREAKS.values(), ids=REAL_BREAKS.keys())
def test_a_real_line_break_stays_a_break_beside_a_joined_code(
    text: str, expected: list[str]
) -> None:
    assert _texts(text) == expected


def _expenditure_cells(rows: int) -> list[str]:
    """A senate-style shattered table whose document numbers end in a dash."""
    cells: list[str] = []
    for k in range(rows):
        day = f"{k + 1:02d}"
        cells += [f"DHAW-{day}-", f"05/{day}/2019", "CITIBANK - TRAVEL CBA CARD", f"03/{day}/2019"]
    return cells


@pytest.mark.parametrize("between_cells", ["\n\n", "\n"], ids=["box-per-cell", "one-box"])
def test_a_table_cell_ending_in_a_dash_is_not_glued_to_the_next_cell(between_cells: str) -> None:
    text = "Documents of batch 2019-\nNM are listed below.\n\n" + between_cells.join(
        _expenditure_cells(6)
    )
    units = lay_out(text)
    assert units[0] == Unit(UnitKind.PROSE, "Documents of batch 2019-NM are listed below.")
    rows = [unit.text for unit in units[1:]]
    assert rows[0] == "DHAW-01- | 05/01/2019 | CITIBANK - TRAVEL CBA CARD | 03/01/2019"
    assert len(rows) == 6 and all(unit.kind is UnitKind.ROW for unit in units[1:])
