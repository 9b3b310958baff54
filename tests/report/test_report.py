"""The audit report, read as Python sees it: counts, escaping, highlights, the store
check on every citation, and how a damaged answers file is read (test_report_browser.py
drives the page itself in Chromium)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import affidavit
from affidavit import InputError, Memory, StoreError
from affidavit.report.data import ReportSummary, answer_terms, marks, read_rows, utf16
from affidavit.report.page import write_report

NOW = datetime(2025, 3, 14, 9, 26, 53, tzinfo=UTC)
HANDBOOK = (
    "The harness rule is Regulation III-52.1.\n"
    "A hot meal costs 5.75 at the canteen 🍲 today.\n\n"
    "| Item | Price |\n|---|---|\n| Hot meal | 5.75 |\n"
)
RULE, MEAL, MEAL_ROW = (
    "The harness rule is Regulation III-52.1.",
    "A hot meal costs 5.75 at the canteen 🍲 today.",
    "| Hot meal | 5.75 |",
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "store.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest_text(HANDBOOK, name="handbook.md")
        memory.ingest_text("Dana Okafor signs every permit.", name="notes.txt")
    return path


def cite(document: str, position: int, text: str, kind: str = "sentence") -> dict[str, Any]:
    return {"document": document, "position": position, "text": text, "kind": kind, "trust": 0.6}


def answered(
    id: str, question: str, text: str, *cited: dict[str, Any], **audit: Any
) -> dict[str, Any]:
    return {
        "id": id,
        "question": question,
        "text": text,
        "value": text,
        "refused": False,
        "reason": None,
        "citations": list(cited),
        "census": "",
        "audit": {"engine": "default", **audit},
    }


def refused(id: str, question: str, reason: str, **audit: Any) -> dict[str, Any]:
    return {
        "id": id,
        "question": question,
        "text": "Refused.",
        "value": None,
        "refused": True,
        "reason": reason,
        "citations": [],
        "audit": {"engine": "default", **audit},
    }


PERMIT = "Dana Okafor signs every permit."
ROWS = [
    answered("q1", "Which regulation?", "Regulation III-52.1", cite("handbook.md", 0, RULE)),
    answered(
        "q2",
        "What does a hot meal cost?",
        "5.75",
        cite("handbook.md", 1, MEAL),
        cite("handbook.md", 3, MEAL_ROW, "row"),
    ),
    answered("q3", "Who signs permits?", "Dana Okafor", cite("notes.txt", 0, PERMIT)),
    refused("q4", "Who founded the canteen?", "weak_evidence"),
    refused("q5", "Who won in 1999?", "no_evidence", withheld_below_trust=2),
    refused("q6", "Who is the CEO?", "weak_evidence"),
    {"id": "q7", "error": "line 7: not JSON"},
]


def write_rows(path: Path, rows: list[dict[str, Any]], tail: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + tail, encoding="utf-8")
    return path


def write(answers: Path, store: Path, out: Path, **options: Any) -> ReportSummary:
    """The report as ``affidavit report`` writes it: the store opened read-only, without
    the meaning model; this affidavit's version named."""
    with Memory(store, read_only=True, dense=False) as memory:
        return write_report(answers, memory, out, version=affidavit.__version__, **options)


def report(tmp_path: Path, store: Path, rows: list[dict[str, Any]], **options: Any) -> str:
    answers = write_rows(tmp_path / "answers.jsonl", rows)
    write(answers, store, tmp_path / "report.html", now=NOW, **options)
    return (tmp_path / "report.html").read_text(encoding="utf-8")


def page_data(page: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_summary_counts_outcomes_reasons_documents_and_changed_citations(
    tmp_path: Path, store: Path
) -> None:
    answers = write_rows(tmp_path / "answers.jsonl", ROWS)
    summary = write(answers, store, tmp_path / "report.html", now=NOW)
    assert (summary.answered, summary.refused, summary.errors) == (3, 3, 1)
    assert summary.by_reason == {"weak_evidence": 2, "no_evidence": 1}
    assert summary.documents == {"handbook.md": 2, "notes.txt": 1}  # answers citing each
    assert summary.changed_citations == 0 and summary.incomplete_lines == 0
    assert summary.out == tmp_path / "report.html" and summary.out.is_file()
    page = summary.out.read_text(encoding="utf-8")
    assert '<li data-count="answered" class=""><b class="n">3</b>' in page
    assert '<b class="n">1</b> input error</li>' in page
    assert "incomplete" not in page.split('id="controls"')[0]


def test_page_names_the_store_its_fingerprint_the_version_the_file_and_the_day(
    tmp_path: Path, store: Path
) -> None:
    page = report(tmp_path, store, ROWS)
    with Memory(store, read_only=True, dense=False) as memory:
        fingerprint = memory.fingerprint()
    for fact in (fingerprint, str(store.resolve()), "answers.jsonl", affidavit.__version__):
        assert f"<dd>{fact}</dd>" in page
    assert "<dd>2025-03-14 09:26:53 UTC</dd>" in page
    assert "<dd>default (6)</dd>" in page  # the engine, with the answers it gave


def test_everything_from_the_answers_is_escaped(tmp_path: Path, store: Path) -> None:
    hostile = "</script><script>alert(1)</script><!--"
    rows = [
        answered(hostile, hostile, hostile, cite("<b>doc</b>.md", 0, hostile)),
        refused("r", hostile, "<img src=x onerror=alert(1)>"),
        {"id": "e", "line": 9, "error": hostile},
    ]
    page = report(tmp_path, store, rows, title="Q1 <i>audit</i>")
    assert "<script>alert" not in page and "<b>doc" not in page and "<img" not in page
    assert "<title>Q1 &lt;i&gt;audit&lt;/i&gt;</title>" in page
    assert page.count("</script>") == 2  # the data block's and the script's own
    assert "&lt;b&gt;doc&lt;/b&gt;.md" in page  # the summary's documents
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the summary's reasons
    shown = page_data(page)  # and the data reads back as it was written
    assert shown[0]["question"] == hostile and shown[0]["citations"][0]["text"] == hostile
    assert shown[1]["outcome"] == "<img src=x onerror=alert(1)>"
    assert shown[2] == {"id": "e", "line": 9, "outcome": "input error", "error": hostile}


def test_the_page_fetches_nothing(tmp_path: Path, store: Path) -> None:
    page = report(tmp_path, store, ROWS)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert not re.search(r"<link\b|<script[^>]+\bsrc=|@import|url\(", page, re.I)
    assert "default-src 'none'" in page  # and the page's policy forbids it anyway


@pytest.mark.parametrize(
    ("line", "terms", "marked"),
    [
        ("In 1066, Duke William II of Normandy", ["Duke William II"], ["Duke William II"]),
        ("the SITE manager signs", ["site manager"], ["SITE manager"]),
        ("| Hot meal | 15.75 | 5.75 |", ["5.75"], ["5.75"]),  # not inside 15.75
        ("it costs 5.75 in total", ["5"], []),  # not the 5 of 5.75
        ("| Total | $1,496.5 | $1,202.9 |", ["$1,496.5"], ["$1,496.5"]),
        ("Regulation III-52.1 requires it", ["III-52.1"], ["III-52.1"]),
        ("Dana and Okafor", ["Dana", "Okafor"], ["Dana", "Okafor"]),
        ("Central Asia, Central Asian", ["Central Asia", "Asia"], ["Central Asia"]),
    ],
)
def test_marks_find_whole_words_and_numbers_only(
    line: str, terms: list[str], marked: list[str]
) -> None:
    assert [line[s:e] for s, e in marks(line, terms)] == marked


def test_the_answer_is_marked_whole_then_by_its_words_without_stop_words() -> None:
    row = answered("q", "?", "the site manager, Dana Okafor of the 2nd crew")
    terms = answer_terms(row)
    assert terms[0] == "the site manager, Dana Okafor of the 2nd crew"
    assert {"site", "manager", "Dana", "Okafor", "2nd", "crew"} <= set(terms)
    assert not {"the", "of"} & set(terms)
    assert answer_terms(refused("r", "?", "weak_evidence")) == []


def test_marks_are_counted_in_utf16_units_as_javascript_counts() -> None:
    line = "🍲 soup costs 5.75 🍲 today"
    spans = marks(line, ["5.75", "today"])
    assert [line[s:e] for s, e in spans] == ["5.75", "today"]
    as_js = line.encode("utf-16-le")
    assert [as_js[2 * s : 2 * e].decode("utf-16-le") for s, e in utf16(line, spans)] == [
        "5.75",
        "today",
    ]


def test_a_cited_line_is_marked_in_the_page_data(tmp_path: Path, store: Path) -> None:
    shown = page_data(report(tmp_path, store, ROWS))
    meal, row = shown[1]["citations"]
    units = MEAL.encode("utf-16-le")
    assert [units[2 * s : 2 * e].decode("utf-16-le") for s, e in meal["marks"]] == ["5.75"]
    assert [MEAL_ROW[s:e] for s, e in row["marks"]] == ["5.75"]


def test_a_plan_answer_marks_the_cells_its_trace_read(tmp_path: Path, store: Path) -> None:
    trace = [
        {
            "step": 1,
            "op": "anchor",
            "args": {"row": "Hot meal", "column": "Price"},
            "out": "answer",
            "inputs": [
                {
                    "label": "Hot meal, Price",
                    "kind": "amount",
                    "number": 5.75,
                    "cites": [{"document": "handbook.md", "position": 3, "written": "5.75"}],
                }
            ],
            "result": {"kind": "amount", "number": 5.75, "unit": "$"},
        }
    ]
    plan = {"proposal": 1, "plan": {"steps": [], "note": "the price"}, "trace": trace}
    # The answer's own words are not in the row: the mark comes from the trace alone.
    row = answered("p", "Price?", "The price is listed.", cite("handbook.md", 3, MEAL_ROW, "row"))
    row["value"], row["audit"]["plan"], row["audit"]["plans"] = None, plan, [plan]
    (shown,) = page_data(report(tmp_path, store, [row]))
    assert [MEAL_ROW[s:e] for s, e in shown["citations"][0]["marks"]] == ["5.75"]
    (computed,) = shown["plans"]
    assert computed["answered"] and computed["note"] == "the price"
    assert computed["steps"] == [
        {
            "call": "answer = anchor(row='Hot meal', column='Price')",
            "inputs": ["Hot meal, Price = 5.75 [handbook.md #3]"],
            "result": "$5.75",
            "dropped": [],
        }
    ]


def test_gate_vetoes_are_grouped_and_withheld_lines_said(tmp_path: Path, store: Path) -> None:
    veto = {
        "gate": "support",
        "passed": False,
        "reason": "weak_evidence",
        "detail": "misses 'canteen'",
    }
    gate = [{"candidate": 0, **veto}, {"candidate": 1, **veto}]
    gate.append(
        {"candidate": 0, "gate": "digit_veto", "passed": True, "reason": None, "detail": "ok"}
    )
    candidates = [{"text": "Dana"}, {"text": "<Okafor>"}]
    row = refused("r", "Who?", "weak_evidence", gate=gate, candidates=candidates)
    row["audit"]["withheld_below_trust"] = 3
    row["audit"]["contradicted_by"] = [{"text": "Kim", "lines": ["[notes.txt #4] Kim signs."]}]
    (shown,) = page_data(report(tmp_path, store, [row]))
    assert shown["vetoed"] == [
        {
            "gate": "support",
            "reason": "weak_evidence",
            "detail": "misses 'canteen'",
            "candidates": ["#0 'Dana'", "#1 '<Okafor>'"],
        }
    ]
    assert shown["passed"] == [{"gate": "digit_veto", "detail": "ok", "candidates": ["#0"]}]
    assert shown["notes"][0].startswith("3 matching line(s) withheld")
    assert shown["notes"][1] == "Contradicted by 'Kim': [notes.txt #4] Kim signs."


def test_a_quoted_answer_and_a_named_document_are_said(tmp_path: Path, store: Path) -> None:
    row = answered("q", "What must a permit holder do?", PERMIT, cite("notes.txt", 0, PERMIT))
    row["audit"]["quoted"] = {"line": f"[notes.txt #0] {PERMIT}", "why": "no span"}
    row["audit"]["scope"] = {
        "documents": ["notes.txt"],
        "named_by_the_question": True,
        "matched": ["notes.txt"],
    }
    (shown,) = page_data(report(tmp_path, store, [row]))
    assert shown["notes"] == [
        f"Quoted whole: [notes.txt #0] {PERMIT} (no span)",
        "Read in notes.txt alone: the question names it.",
    ]


def test_what_no_longer_holds_is_said_with_what_replaced_it(tmp_path: Path, store: Path) -> None:
    row = answered("q", "Who signs a permit?", "Dana Okafor", cite("notes.txt", 0, PERMIT))
    row["audit"]["no_longer_holds"] = [
        {
            "candidate": "Kim",
            "record": 3,
            "state": "superseded",
            "replaced_by": 7,
            "now": "Dana Okafor",
            "since": "2024-05-01",
        },
        {
            "candidate": "Lee",
            "record": 2,
            "state": "ended",
            "replaced_by": None,
            "now": None,
            "since": "2023-06-04",
        },
    ]
    (shown,) = page_data(report(tmp_path, store, [row]))
    assert shown["notes"] == [
        "'Kim' no longer holds: record 3 was superseded on 2024-05-01 by record 7 ('Dana Okafor').",
        "'Lee' no longer holds: record 2 ended on 2023-06-04.",
    ]


def test_changed_and_missing_citations_are_flagged_and_counted(tmp_path: Path, store: Path) -> None:
    rows = [
        answered("ok", "?", "Dana Okafor", cite("notes.txt", 0, PERMIT)),
        answered("changed", "?", "Dana Okafor", cite("notes.txt", 0, "Dana Okafor signs none.")),
        answered("gone", "?", "5.75", cite("handbook.md", 99, "A hot meal costs 5.75.")),
        answered("renamed", "?", "5.75", cite("old-handbook.md", 1, MEAL)),
    ]
    answers = write_rows(tmp_path / "answers.jsonl", rows)
    summary = write(answers, store, tmp_path / "report.html", now=NOW)
    assert summary.changed_citations == 3
    page = summary.out.read_text(encoding="utf-8")
    assert '<li data-count="changed" class="warn"><b class="n">3</b>' in page
    ok, changed, gone, renamed = (r["citations"][0] for r in page_data(page))
    assert "flag" not in ok and "stored" not in ok
    assert changed["flag"] == "the store holds different text at this position"
    assert changed["stored"] == "Dana Okafor signs every permit."
    assert gone["flag"] == renamed["flag"] == "the line is gone from the store"
    assert "stored" not in gone


def test_a_torn_last_line_is_ignored_and_said(tmp_path: Path, store: Path) -> None:
    answers = write_rows(tmp_path / "answers.jsonl", ROWS[:2], tail='{"id": "q3", "quest')
    summary = write(answers, store, tmp_path / "report.html", now=NOW)
    assert (summary.answered, summary.incomplete_lines) == (2, 1)
    page = summary.out.read_text(encoding="utf-8")
    assert '<b class="n">1</b> incomplete line ignored' in page
    assert [r["id"] for r in page_data(page)] == ["q1", "q2"]


def test_a_last_line_torn_inside_a_character_is_ignored_too(tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    whole = (json.dumps(ROWS[0]) + "\n").encode()
    answers.write_bytes(whole + '{"id": "q2", "question": "Café'.encode()[:-1])
    read = read_rows(answers)
    assert [row["id"] for row in read.rows] == ["q1"] and read.incomplete == 1


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b'{"id": "q1", "question": "?"}\nnot json\n{"id": "q3", "error": "x"}\n', 2),
        (b'{"id": "q1", "question": "?"}\n{"id": "q2", "quest\n', 2),  # torn, then a newline
        (b'{"id": "q1", "question": "?"}\n["a list"]\n', 2),
        (b'{"id": "q1", "question": "?"}\n\n{"id": "q3", "answer": "neither"}', 3),
        (b'{"id": "q1", "question": "\xff"}\n{"id": "q2", "question": "?"}\n', 1),  # not UTF-8
    ],
)
def test_a_bad_line_raises_input_error_naming_the_file_and_line(
    tmp_path: Path, data: bytes, line: int
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_bytes(data)
    with pytest.raises(InputError, match=rf"answers\.jsonl line {line}:"):
        read_rows(answers)


def test_a_missing_answers_file_or_store_is_named(tmp_path: Path, store: Path) -> None:
    with pytest.raises(InputError, match="nowhere.jsonl: no such answers file"):
        write(tmp_path / "nowhere.jsonl", store, tmp_path / "report.html")
    answers = write_rows(tmp_path / "answers.jsonl", ROWS)
    with pytest.raises(StoreError, match="no-store.sqlite"):
        write(answers, tmp_path / "no-store.sqlite", tmp_path / "report.html")
    assert not (tmp_path / "report.html").exists()


def test_input_error_rows_keep_their_line(tmp_path: Path, store: Path) -> None:
    rows = [ROWS[0], {"id": None, "line": 11, "error": "line 11: not JSON"}, {"error": "bad"}]
    shown = page_data(report(tmp_path, store, rows))
    assert shown[1] == {"line": 11, "outcome": "input error", "error": "line 11: not JSON"}
    assert shown[2]["line"] == 3  # no line of its own: its line in the answers file


def test_answers_where_the_store_disagrees_have_their_own_section(
    tmp_path: Path, store: Path
) -> None:
    row = answered("q9", "Who signs permits?", "Dana Okafor", cite("notes.txt", 0, PERMIT))
    row["audit"]["contradicted_by"] = [{"text": "Kim", "lines": ["[memo.txt #4] Kim signs."]}]
    row["audit"]["read_in"] = {"language": "es", "read_as": "Who signs permits?", "words": []}
    quiet = answered("q1", "Which regulation?", "Regulation III-52.1", cite("handbook.md", 0, RULE))
    page = report(tmp_path, store, [quiet, row])
    section = page[page.index('<section class="disagrees">') : page.index("</section>")]
    assert "<h2>The store disagrees</h2>" in section
    assert "<td>q9</td><td>Who signs permits?</td><td>Dana Okafor</td>" in section
    assert "<b>Kim</b>: [memo.txt #4] Kim signs." in section and "q1" not in section
    assert '<li data-count="disagrees" class="warn"><b class="n">1</b>' in page
    (_, shown) = page_data(page)
    assert "Asked in es, read in English as: Who signs permits?" in shown["notes"]


def test_a_report_with_no_disagreement_has_no_such_section(tmp_path: Path, store: Path) -> None:
    page = report(tmp_path, store, ROWS)
    assert '<section class="disagrees">' not in page and 'data-count="disagrees"' not in page


def test_each_entity_an_answer_names_has_a_page_it_links_to(tmp_path: Path) -> None:
    normans = Path(__file__).resolve().parents[2] / "corpora" / "demo" / "Normans.txt"
    path = tmp_path / "normans.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(normans)
        memory.tell("Rollo", "founded", "the Duchy of Normandy", at="0911-01-01")
        memory.tell("Rollo", "was baptised in", "912")
    rows = [
        answered("n1", "Who was Rollo?", "a Viking leader", cite("Normans.txt", 1, "Rollo")),
        refused("n2", "What did the Normans build?", "weak_evidence"),
        {"id": "n3", "error": "line 3: not JSON"},
    ]
    page = report(tmp_path, path, rows)
    shown = page_data(page)
    assert shown[0]["pages"][0][0] == "Rollo"
    anchor = shown[0]["pages"][0][1]
    assert f'<article class="page" id="{anchor}"><h3>Rollo</h3>' in page
    section = page[page.index(f'id="{anchor}"') :]
    section = section[: section.index("</article>")]
    assert "Rollo | founded | the Duchy of Normandy" in section and "operator" in section
    assert "<h4>Mentioned with</h4>" in section
    assert any(name == "Normans" for name, _ in shown[1]["pages"])
    assert "pages" not in shown[2]  # an input error names nothing
