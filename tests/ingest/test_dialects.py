"""Tables written in the dialects people paste into text files: pipes with no rule line,
no outer pipes, a short rule, tabs, commas, columns aligned with spaces. The table is a
real one (TAT-QA, corpora/tatqa: a company's non-vested share awards for 2019); in every
dialect each row is stored under its column names and a question gets its own column's
value, never a neighbour's. Prose with commas or wide gaps is not taken for a table."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import CORPORA

from affidavit import Memory
from affidavit.ingest.dialects import names_itself, pasted_table_end
from affidavit.ingest.layout import lay_out
from affidavit.ingest.units import UnitKind


def _awards() -> list[list[str]]:
    tables = json.loads((CORPORA / "tatqa" / "tatqa_slice.json").read_text(encoding="utf-8"))
    found = [
        t["table"]["table"] for t in tables if t["table"]["table"][0][0] == "Non-vested awards"
    ]
    assert len(found) == 1
    return found[0]


AWARDS = _awards()
CAPTION = "Non-vested share awards in 2019"


def _written(dialect: str) -> str:
    rows = AWARDS
    if dialect == "comma":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        return out.getvalue()
    if dialect == "aligned":
        widths = [max(len(row[i]) for row in rows) + 3 for i in range(len(rows[0]))]
        padded = ("".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows)
        return "\n".join(line.rstrip() for line in padded)
    if dialect == "tabs":
        return "\n".join("\t".join(row) for row in rows)
    lines = [" | ".join(row) for row in rows]
    if dialect == "pipes, no rule":
        return "\n".join(f"| {line} |" for line in lines)
    if dialect == "no outer pipes":
        return "\n".join([lines[0], " | ".join("---" for _ in rows[0]), *lines[1:]])
    assert dialect == "short rule"
    return "\n".join([f"| {lines[0]} |", "|-|-|-|", *(f"| {line} |" for line in lines[1:])])


DIALECTS = ["pipes, no rule", "no outer pipes", "short rule", "tabs", "comma", "aligned"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_row_stands_under_its_column_names(dialect: str) -> None:
    units = lay_out(f"{CAPTION}\n\n{_written(dialect)}\n")
    rows = [u for u in units if u.kind is UnitKind.ROW and u.cells]
    assert len(rows) == len(AWARDS) - 1
    granted = dict(next(u.cells for u in rows if u.text.lstrip("| ").startswith("Granted")))
    assert granted == {
        "Non-vested awards": "Granted",
        "Shares": "473,550",
        "Weighted-Average Grant Date Fair Value": "$53.53",
    }


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_question_gets_its_own_columns_value(dialect: str) -> None:
    memory = Memory(dense=False)
    memory.ingest_text(f"{CAPTION}\n\n{_written(dialect)}\n", name="awards.txt")
    value = memory.ask("What was the weighted-average grant date fair value of the awards granted?")
    assert value.text.endswith("$53.53") and not value.refused
    shares = memory.ask("How many shares were granted?")
    assert "473,550" in shares.text and "$53.53" not in shares.text


@pytest.mark.parametrize(
    "text",
    [
        # Prose with commas: no header of labels over rows of amounts.
        "The licence costs $120, payable on application,\nand a further $40, due yearly,\n"
        "with a late fee of $15, per month, after that.",
        # Two spaces after each full stop, as typewriters taught.
        "Applicants must apply in person.  Forms are online.\nThe fee is $120.  It is due now.\n"
        "Renewals cost $40.  They are due yearly.",
        # Too few rows under the would-be header.
        "Year,Cost\n2018,$1200",
    ],
)
def test_prose_is_not_taken_for_a_pasted_table(text: str) -> None:
    lines = text.split("\n")
    assert pasted_table_end(lines, 0) is None
    assert not any(u.cells for u in lay_out(text))


def test_a_header_needs_labels_over_amounts() -> None:
    assert names_itself([["Year", "Cost"], ["2017", "$1,100"], ["2018", "$1,200"]])
    assert not names_itself([["Year", "$5"], ["2017", "$1,100"], ["2018", "$1,200"]])
    assert not names_itself([["Year", "Cost"], ["2017", "$1,100"], ["2018", "soon"]])
    assert not names_itself([["Year", "Cost"], ["2017", "$1,100", "x"], ["2018", "$1,200"]])
