"""Retrieval's health over real articles (corpora/demo): the canary set is drawn at the
first ingest, kept in the store and the same after reopening; each ingest adds a measure
to the trend; a search that stops finding its lines is a warning, in health() and in the
ingest's warnings; refresh draws the set again and starts the trend over; the CLI shows it."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.cli.main import main
from affidavit.index import health

DEMO = Path(__file__).resolve().parents[2] / "corpora" / "demo"


def test_the_canaries_are_drawn_kept_and_measured_at_each_ingest(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(DEMO / "Normans.txt")
        memory.ingest(DEMO / "Black_Death.txt")
        found = memory.health()
        drawn = health.canaries_of(memory._store)
    assert len(found.trend) == 3 and [p.documents for p in found.trend] == [1, 2, 2]
    assert found.now.canaries == len(drawn) == health.CANARIES
    assert all(d == "Normans.txt" for d, _, _ in drawn)  # drawn at the first ingest
    assert found.now.recall >= 0.9 and 0 < found.now.mrr <= found.now.ndcg <= 1
    assert found.now.distinct_share == 1.0 and found.warning is None
    with Memory(path, dense=False) as memory:
        assert health.canaries_of(memory._store) == drawn
        again = memory.health(refresh=True)
    assert len(again.trend) == 1  # a new set: its trend starts over


def test_a_search_that_stops_finding_its_lines_is_a_warning(tmp_path: Path, monkeypatch) -> None:
    memory = Memory(tmp_path / "s.sqlite", dense=False)
    memory.ingest(DEMO / "Normans.txt")
    monkeypatch.setattr(memory._retriever, "search", lambda *args, **kwargs: [])
    collapsed = memory.health()
    assert collapsed.now.recall == 0.0
    assert collapsed.warning is not None and collapsed.warning.startswith("recall@10 fell from 1")
    report = memory.ingest(DEMO / "Black_Death.txt")
    assert any(w.startswith("retrieval's health: recall@10 fell") for w in report.warnings)


def test_the_cli_shows_the_trend(capsys, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    Memory(path, dense=False).ingest(DEMO / "Normans.txt")
    assert main(["health", "--store", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and "recall@10" in out[0] and out[-1] == "no warning"


def test_the_audit_report_states_the_last_measure(tmp_path: Path) -> None:
    from affidavit.report.page import write_report

    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest(DEMO / "Normans.txt")
        measured = memory.health().now
    answers = tmp_path / "answers.jsonl"
    answers.write_text("", encoding="utf-8")
    with Memory(path, dense=False, read_only=True) as memory:
        assert memory.last_health() == measured
        write_report(answers, memory, tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert f"recall@10 {measured.recall:.2f}, MRR {measured.mrr:.2f}" in page
