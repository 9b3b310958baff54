"""The audit report at scale: write the report of 10,000 real answers and open it in
headless Chromium, timing the write, the first screen and the whole list.

The answers are SQuAD 2.0 dev questions answered by ``Memory.batch`` over the SQuAD dev
store (every article one document): the first ``--limit`` questions (default 2,000) are
answered, and their rows repeated with new ids up to 10,000 (a reviewer's page holds
real rows, each with its citations, plan and gate decisions). Chromium is Debian's, driven
by selenium; the page sets ``data-render-ms`` on <html> when its first screen is drawn,
and ``data-drawn-all-ms`` when every question is in the page.

    .venv/bin/python bench/report_load.py [--limit N] [--json PATH]
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from _record import measures_table  # noqa: E402
from _squad import load_squad  # noqa: E402

from affidavit import Memory  # noqa: E402
from affidavit.report.page import write_report  # noqa: E402

ROWS = 10_000


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if binary is None or driver is None:
        raise SystemExit("needs Debian's chromium and chromium-driver (apt-get install)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


def run(limit: int | None) -> dict[str, Any]:
    articles, questions = load_squad()
    asked = [q.text for q in questions[: limit or 2000]]
    with tempfile.TemporaryDirectory(prefix="affidavit-report-bench-") as name:
        folder = Path(name)
        store = folder / "squad-dev.sqlite"
        with Memory(store) as memory:
            for title, text in articles.items():
                memory.ingest_text(text, name=title)
            real = memory.batch(asked, progress=False)
        rows = [{**real[n % len(real)], "id": f"r{n}", "line": n + 1} for n in range(ROWS)]
        answers = folder / "answers.jsonl"
        answers.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        started = time.perf_counter()
        with Memory(store, read_only=True, dense=False) as reading:  # as `affidavit report`
            page = write_report(answers, reading, folder / "report.html").out
        write_s = time.perf_counter() - started
        chrome = browser()
        try:
            started = time.perf_counter()
            chrome.get(page.resolve().as_uri())
            root = chrome.find_element("tag name", "html")
            deadline = time.monotonic() + 120
            while not root.get_attribute("data-drawn-all-ms") and time.monotonic() < deadline:
                time.sleep(0.02)
            wall_s = time.perf_counter() - started
            first_ms = int(root.get_attribute("data-render-ms") or 0)
            all_ms = int(root.get_attribute("data-drawn-all-ms") or 0)
            shown = chrome.execute_script("return document.querySelectorAll('.item').length")
        finally:
            chrome.quit()
        return {
            "rows": ROWS,
            "distinct_real_rows": len(real),
            "answers_mb": round(answers.stat().st_size / 1e6, 1),
            "page_mb": round(page.stat().st_size / 1e6, 1),
            "write_s": round(write_s, 2),
            "first_screen_ms": first_ms,
            "all_drawn_ms": all_ms,
            "wall_until_all_drawn_s": round(wall_s, 2),
            "items_in_page": shown,
        }


def report(result: dict[str, Any]) -> str:
    return (
        f"{result['rows']:,} answers ({result['distinct_real_rows']} real, repeated; "
        f"{result['answers_mb']} MB of JSONL): report written in {result['write_s']} s "
        f"({result['page_mb']} MB); in Chromium the first screen is drawn "
        f"{result['first_screen_ms']} ms after navigation, all {result['items_in_page']:,} "
        f"questions at {result['all_drawn_ms']} ms"
    )


if __name__ == "__main__":
    bench_main(
        __doc__,
        run,
        report,
        limit_help="real questions answered (default 2,000)",
        keep=(),
        tables=lambda result: [measures_table("The report of 10,000 answers in Chromium", result)],
        remarks=(
            "No baseline: it checks that the report of 10,000 answers opens and draws in a "
            "browser; no other report is timed beside it.",
        ),
    )
