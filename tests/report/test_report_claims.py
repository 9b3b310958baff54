"""Claims verified in a batch, as the audit report shows them: the three verdicts counted,
every contradicted claim at the top of the summary with the line that says otherwise,
and a section where each claim's sentences stand with their status and lines, each line
checked against the store as an answer's citations are.

The rows are a real batch over a real licence (corpora/licences/mpl-2.0.txt), with the
claims tests/gates/test_entailment.py finds supported, contradicted and not supported."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from affidavit import Memory
from affidavit.cli.main import main
from affidavit.report.data import Contradiction, ReportSummary, read_rows
from affidavit.report.page import write_report

MPL = Path(__file__).resolve().parents[2] / "corpora" / "licences" / "mpl-2.0.txt"
NOW = datetime(2025, 3, 14, 9, 26, 53, tzinfo=UTC)
SUPPORTED = "You must not remove the substance of any license notices."
CONTRADICTED = "You may remove the substance of any license notices."
NOT_SUPPORTED = "You must alter any license notices."
# What the store says of the contradicted claim: its line 58.
SAYS_OTHERWISE = "You may not remove or alter the substance of any license notices"
SET = [
    {"id": "steward", "question": "Who is the license steward?", "min_probability": 0},
    {"id": "c-yes", "claim": SUPPORTED},
    {"id": "c-no", "claim": CONTRADICTED},
    {"id": "c-unsure", "claim": NOT_SUPPORTED},
    {"id": "bad", "claim": SUPPORTED, "speaker": "Maya"},
]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The store, and the rows its batch of SET wrote."""
    folder = tmp_path_factory.mktemp("claims-report")
    store = folder / "mpl.sqlite"
    with Memory(store, dense=False) as memory:
        memory.ingest(MPL)
        rows = list(memory.batch(SET, workers=1, progress=False))
    return store, rows


def report(folder: Path, store: Path, rows: list[dict[str, Any]]) -> tuple[str, ReportSummary]:
    answers = folder / "answers.jsonl"
    answers.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with Memory(store, read_only=True, dense=False) as memory:
        summary = write_report(answers, memory, folder / "report.html", now=NOW, version="0")
    return (folder / "report.html").read_text(encoding="utf-8"), summary


def section(page: str, opening: str) -> str:
    found = re.search(re.escape(opening) + r".*?</section>", page, re.S)
    assert found is not None, opening
    return found.group(0)


def article(page: str, line: int) -> str:
    found = re.search(rf'<article class="claim [^"]*" id="claim-{line}">.*?</article>', page, re.S)
    assert found is not None
    return found.group(0)


def page_data(page: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_summary_counts_the_three_verdicts_apart_from_the_questions(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, summary = report(tmp_path, store, rows)
    assert (summary.answered, summary.refused, summary.errors) == (1, 0, 1)
    assert (summary.supported, summary.contradicted, summary.not_supported) == (1, 1, 1)
    assert summary.claims == 3 and summary.changed_citations == 0
    assert summary.contradictions == (
        Contradiction(
            id="c-no", line=3, claim=CONTRADICTED, sentences=((CONTRADICTED, ("mpl-2.0.txt #58",)),)
        ),
    )
    counts = dict(re.findall(r'data-count="([^"]+)"[^>]*><b class="n">(\d+)</b>', page))
    assert {k: v for k, v in counts.items() if k.startswith("claims-")} == {
        "claims-contradicted": "1",
        "claims-supported": "1",
        "claims-not-supported": "1",
    }
    assert '<li data-count="claims-contradicted" class="warn">' in page
    assert '<li data-count="claims-supported" class="">' in page


def test_a_contradicted_claim_opens_the_summary_with_the_line_that_says_otherwise(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, _ = report(tmp_path, store, rows)
    box = section(page, '<section class="disagrees contradicted"')
    # The summary opens with it, before the facts of the run and the counts.
    assert page.index('<section id="summary"') < page.index(box) < page.index('class="facts"')
    assert "The store contradicts 1 claim</h2>" in box
    assert '<a href="#claim-3">c-no</a>' in box and f"<b>{CONTRADICTED}</b>: mpl-2.0.txt #58" in box
    assert SUPPORTED not in box and NOT_SUPPORTED not in box


def test_each_claim_shows_its_sentences_their_status_and_their_lines(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, _ = report(tmp_path, store, rows)
    claims = section(page, '<section id="claims"')
    assert "3 claims verified: 1 supported, 1 contradicted, 1 not supported" in claims
    assert re.findall(r'<article class="claim ([^"]+)" id="claim-(\d+)">', claims) == [
        ("supported", "2"),
        ("contradicted", "3"),
        ("not-supported", "4"),
    ]
    said = article(page, 3)
    assert '<li class="sentence contradicted"><p><span class="badge">contradicted</span>' in said
    assert "gate entailment: polarity: must not / may" in said
    assert '<div class="section-title">Says otherwise</div>' in said
    assert '<span class="doc">mpl-2.0.txt</span> #58 · sentence · trust 0.6' in said
    # The line as cited, the claim's words marked in it, and no flag: the store holds it.
    quoted = re.search(r'<blockquote class="cited">(.*?)</blockquote>', said, re.S)
    assert quoted is not None
    assert re.sub(r"</?mark>", "", quoted.group(1)).startswith(SAYS_OTHERWISE)
    assert "<mark>may</mark> not <mark>remove</mark>" in quoted.group(1)
    assert "flag" not in said
    assert '<div class="section-title">Supported by</div>' in article(page, 2)
    unsure = article(page, 4)
    assert '<li class="sentence dropped">' in unsure and "not_entailed: " in unsure


def test_a_claim_s_line_the_store_no_longer_holds_as_cited_is_flagged_and_counted(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    edited = json.loads(json.dumps(rows))
    (sentence,) = edited[2]["sentences"]
    sentence["evidence"][0]["text"] = "You may remove any notice."  # not what line 58 says
    page, summary = report(tmp_path, store, edited)
    assert summary.changed_citations == 1
    said = article(page, 3)
    assert '<span class="badge flag">1 not in the store as cited</span>' in said
    assert "Not in the store as cited: the store holds different text at this position." in said
    stored = re.search(r'<blockquote class="stored">(.*?)</blockquote>', said, re.S)
    assert stored is not None and stored.group(1).startswith(SAYS_OTHERWISE)


def test_claims_are_not_drawn_as_questions(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, _ = report(tmp_path, store, rows)
    assert [(row["id"], row["outcome"]) for row in page_data(page)] == [
        ("steward", "answered"),
        ("bad", "input error"),  # a claim line's error is an input error like any other
    ]
    assert '<nav id="controls" aria-label="Filters">' in page  # there are questions


def test_a_file_of_claims_alone_hides_the_question_list_and_its_filters(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, summary = report(tmp_path, store, [r for r in rows if r.get("kind") == "verify"])
    assert (summary.answered, summary.refused, summary.errors, summary.claims) == (0, 0, 0, 3)
    assert page_data(page) == []
    assert '<nav id="controls" aria-label="Filters" hidden>' in page
    assert '<main id="questions" aria-label="Questions" hidden>' in page
    assert page.count('<article class="claim ') == 3


def test_a_file_of_questions_alone_has_no_claim_section_or_counts(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    page, summary = report(tmp_path, store, [r for r in rows if r.get("kind") != "verify"])
    assert summary.claims == 0 and summary.contradictions == ()
    assert 'id="claims"' not in page and 'data-count="claims-' not in page
    assert "The store contradicts" not in page


def test_the_report_of_the_same_rows_is_the_same_page(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, _ = report(tmp_path / "a", store, rows)
    second, _ = report(tmp_path / "b", store, rows)
    assert first == second


def test_a_claim_s_text_is_escaped(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, rows = batch
    hostile = '<img src=x onerror="alert(1)">'
    edited = json.loads(json.dumps(rows))
    edited[2]["text"] = edited[2]["sentences"][0]["text"] = hostile
    edited[2]["id"] = "</script><b>"
    page, _ = report(tmp_path, store, edited)
    assert hostile not in page and "</script><b>" not in page
    assert html_escaped(hostile) in article(page, 3)
    assert html_escaped(hostile) in section(page, '<section class="disagrees contradicted"')


def html_escaped(text: str) -> str:
    import html

    return html.escape(text)


def test_an_answers_file_of_claims_is_read(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    _, rows = batch
    claim = {key: value for key, value in rows[1].items() if key != "question"}
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(claim) + "\n", encoding="utf-8")
    assert read_rows(path).rows == [claim]  # a claim row needs no "question" key


def test_the_cli_writes_the_report_of_a_batch_of_claims(
    batch: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    store, _ = batch
    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        "".join(json.dumps(line) + "\n" for line in SET if "claim" in line), encoding="utf-8"
    )
    answers, out = tmp_path / "answers.jsonl", tmp_path / "report.html"
    assert main(["batch", str(claims), "--store", str(store), "--out", str(answers),
                 "--workers", "1", "--quiet"]) == 0  # fmt: skip
    assert main(["report", str(answers), "--store", str(store), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "The store contradicts 1 claim" in page and page.count('<article class="claim ') == 3
