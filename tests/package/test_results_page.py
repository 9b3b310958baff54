"""bench/RESULTS.md is generated: bench/results_page.py renders the run files the bench
scripts write (bench/_record.py), and the committed page is exactly what the committed
run files make, so the page cannot drift from its sources."""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

PRINTED = """\
SQuAD 2.0 dev: 3 articles, 40 questions

| ranker | R@1 | R@5 |
|---|---|---|
| **affidavit** | 0.724 | 0.914 |
| bm25s, same run | 0.698 | 0.870 |

| refusal reason | questions |
|---|---|
| weak_evidence | 4 |

Ingest 1.20 s; ask p50 3.1 ms
"""


def _bench(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


def _run(name: str, **changes: object) -> dict:
    record = _bench("_record")
    table = record.markdown_tables(PRINTED, baselines=("bm25s",))[0]
    run = {
        "benchmark": name,
        "title": "Answer-sentence retrieval on SQuAD 2.0 dev.",
        "command": f".venv/bin/python bench/{name}.py",
        "commit": "1a2b3c4",
        "ran_at": "2026-12-06 07:10 UTC",
        "seconds": 95.0,
        "machine": {
            "cores": 2,
            "python": "3.11.7",
            "platform": "x86_64",
            "load_average": 2.31,
            "load_average_start": 1.04,
        },
        "split": "report",
        "tables": [json.loads(json.dumps(dataclasses.asdict(table)))],
        "notes": ["Ingest 1.20 s; ask p50 3.1 ms"],
    }
    return run | changes


def test_a_run_renders_as_its_section_with_baselines_command_commit_and_split():
    page = _bench("results_page").render({"retrieval": _run("retrieval")}, ["retrieval"])
    section = page[page.index("### ") :].splitlines()
    assert section == [
        "### Answer-sentence retrieval on SQuAD 2.0 dev (`retrieval.py`)",
        "",
        "`.venv/bin/python bench/retrieval.py` · commit `1a2b3c4` · 2026-12-06 07:10 UTC · "
        "split **report** · took 95 s · timings taken on a shared machine under other work's "
        "load (1-minute load average 1.0 at the start, 2.3 at the end, on 2 cores)  ",
        "SQuAD 2.0 dev: 3 articles, 40 questions",
        "",
        "| ranker | R@1 | R@5 |",
        "|---|---|---|",
        "| **affidavit** | 0.724 | 0.914 |",
        "| bm25s, same run | 0.698 | 0.870 |",
        "",
        "- Ingest 1.20 s; ask p50 3.1 ms",
    ]
    assert "2 cores, x86_64, Python 3.11.7 (every run)" in page


def test_a_list_of_single_measures_is_one_line_with_targets():
    measures = {
        "title": "Ingest of a novel",
        "columns": ["measure", "value", "target"],
        "rows": [
            {"cells": ["ingest", "5.45 s", "≤ 5 s: missed"], "system": "affidavit"},
            {"cells": ["peak RSS", "383 MiB", ""], "system": "affidavit"},
            {"cells": ["bm25s index", "0.19 s", ""], "system": "baseline"},
        ],
    }
    page = _bench("results_page").render(
        {"ingest": _run("ingest", tables=[measures], notes=[])}, ["ingest"]
    )
    assert (
        "Ingest of a novel: **ingest** 5.45 s (target ≤ 5 s: missed) · **peak RSS** 383 MiB · "
        "bm25s index 0.19 s"
    ) in page.splitlines()
    assert "| measure |" not in page


def test_scripts_without_a_run_file_are_listed_as_not_yet_rerun():
    page = _bench("results_page").render({"retrieval": _run("retrieval")}, ["retrieval", "xquad"])
    tail = page[page.index("## Not yet re-run") :]
    assert "`xquad.py`" in tail and "`retrieval.py`" not in tail


def test_the_page_follows_the_fixed_order_whatever_order_the_runs_come_in():
    results_page = _bench("results_page")
    runs = {name: _run(name) for name in ("start", "zz_new", "retrieval", "gate_halueval")}
    page = results_page.render(runs, list(runs))
    assert page == results_page.render(dict(reversed(runs.items())), list(runs))
    places = [page.index(f"(`{name}.py`)") for name in ("retrieval", "gate_halueval", "start")]
    assert places == sorted(places) and page.index("## Other benchmarks") < page.index("zz_new")


def test_a_page_over_the_line_cap_is_refused_naming_the_longest_sections():
    results_page = _bench("results_page")
    table = {"title": "", "columns": ["a"], "rows": [{"cells": ["1"], "system": "affidavit"}]}
    long = _run("meaning", tables=[table] * 200)
    with pytest.raises(ValueError, match="over 400.*meaning"):
        results_page.render({"meaning": long}, ["meaning"])


def test_printed_tables_are_read_with_their_titles_and_baseline_rows():
    tables = _bench("_record").markdown_tables(PRINTED, baselines=("bm25s",))
    assert [t.title for t in tables] == ["SQuAD 2.0 dev: 3 articles, 40 questions", ""]
    assert tables[0].columns == ("ranker", "R@1", "R@5")
    assert [(r.cells[0], r.system) for r in tables[0].rows] == [
        ("affidavit", "affidavit"),
        ("bm25s, same run", "baseline"),
    ]


def test_a_recorded_run_holds_command_commit_split_kept_tables_notes_and_remarks(
    tmp_path, monkeypatch
):
    record = _bench("_record")
    monkeypatch.setattr(record, "RUNS", tmp_path)
    written = record.record(
        str(BENCH / "retrieval.py"),
        split="none",
        printed=PRINTED,
        keep=(0,),
        baselines=("bm25s",),
        notes=("Ingest",),
        remarks=("No baseline: it checks a bound.",),
        argv=["--limit", "40"],
    )
    run = json.loads(written.read_text(encoding="utf-8"))
    assert written == tmp_path / "retrieval.json"
    assert run["command"].endswith("bench/retrieval.py --limit 40")
    assert run["commit"].split("+")[0] and run["split"] == "none"
    assert [t["title"] for t in run["tables"]] == ["SQuAD 2.0 dev: 3 articles, 40 questions"]
    assert [r["system"] for r in run["tables"][0]["rows"]] == ["affidavit", "baseline"]
    assert run["notes"] == ["Ingest 1.20 s; ask p50 3.1 ms", "No baseline: it checks a bound."]
    page = _bench("results_page").render({"retrieval": run}, ["retrieval"])
    assert "(partial: `--limit`)" in page and "| bm25s, same run | 0.698 | 0.870 |" in page


def test_the_committed_results_page_is_what_the_committed_run_files_make():
    results_page = _bench("results_page")
    expected = results_page.render(results_page.load_runs(), results_page.recording_scripts())
    committed = (BENCH / "RESULTS.md").read_text(encoding="utf-8")
    assert committed == expected, "RESULTS.md is stale: run .venv/bin/python bench/results_page.py"
    assert committed.count("\n") <= results_page.MAX_LINES
