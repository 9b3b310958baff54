"""The hostile corpus (bench/hostile_corpus.py), two cases a class of its seeded ones: no
case may end in a raw exception, a crash, a hang past 60 s or a lost document."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.slow
def test_no_hostile_file_ends_raw_crashed_hung_or_losing_a_document() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import hostile_corpus
    finally:
        sys.path.remove(str(BENCH))
    result = hostile_corpus.run(per_class=2, only=None, seconds=60.0)
    bad = [
        row
        for row in result["cases"]
        if row["outcome"].split(":")[0].split(" (")[0] not in ("ingested", "typed")
    ]
    assert result["summary"]["classes"] >= 15
    assert not bad, bad
