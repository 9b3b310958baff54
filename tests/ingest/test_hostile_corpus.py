"""The hostile corpus (bench/hostile_corpus.py), two cases a class of its seeded ones: no
case may end in a raw exception, a crash, a hang past 60 s or a lost document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

# The corpus forks a process per case. It runs in a fresh interpreter, as the bench does:
# forked from the test process, a case inherits whatever threads earlier tests left
# running (a cluster's, a model runtime's), and a fork of a threaded process may crash in
# ways no user's ingest would.
RUN_CORPUS = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); import hostile_corpus; "
    "print(json.dumps(hostile_corpus.run(per_class=2, only=None, seconds=60.0)))"
)


@pytest.mark.slow
def test_no_hostile_file_ends_raw_crashed_hung_or_losing_a_document() -> None:
    finished = subprocess.run(
        [sys.executable, "-c", RUN_CORPUS, str(BENCH)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=True,
    )
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    bad = [
        row
        for row in result["cases"]
        if row["outcome"].split(":")[0].split(" (")[0] not in ("ingested", "typed")
    ]
    assert result["summary"]["classes"] >= 15
    assert not bad, bad
