"""A process killed with SIGKILL while it tells, ends and labels records and removes
documents leaves the store as before a call or as after it, never between: every
superseded record has the record that superseded it, one live record per subject and
predicate, an ended record's told line says until when and a live one's does not, and a
document is whole or gone."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from affidavit import Memory

CHILD = """
import sys
from affidavit import Memory
memory = Memory(sys.argv[1], dense=False)
print("ready", flush=True)
n = 0
while True:
    n += 1
    told = memory.tell("Maya", "lives in", f"city {n}")
    if n == 1:
        print("told", flush=True)
    if n % 3 == 0:
        memory.end(told.id)
        memory.label(f"palabra{n}", "word", language="es")
    memory.ingest_text("Kestrels hover over the verge. " * 50, name=f"doc-{n % 3}")
    if n % 2:
        memory.remove(f"doc-{n % 3}")
"""
KILLS = 6


def test_a_killed_writer_leaves_records_and_documents_whole(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    Memory(path, dense=False).close()
    for kill in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)],
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        # Killed only once it has told a record (a loaded machine may take longer than
        # any fixed wait to get there), then at a moment that moves run to run.
        assert child.stdout.readline().strip() == b"told"
        time.sleep(0.15 + 0.1 * kill)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        with Memory(path, dense=False) as memory:
            history = memory.records("Maya", "lives in", include_history=True)
            live = [r for r in history if r.state in ("live", "ended")]
            assert len(live) <= 1
            assert all(r.superseded_by is not None for r in history if r.state == "superseded")
            for record in live:  # its told line, rewritten in the same transaction as it ends
                (line,) = [
                    h.text
                    for h in memory.search("Maya lives in city", k=50)
                    if h.document.endswith(f"(record {record.id})")
                ]
                assert line.endswith(f"until {record.ended_at}.") == (record.state == "ended")
        conn = sqlite3.connect(path)
        counts = conn.execute(
            "SELECT d.name, COUNT(l.id) FROM documents d LEFT JOIN lines l "
            "ON l.document_id = d.id GROUP BY d.id"
        ).fetchall()
        conn.close()
        assert all(lines > 0 for _, lines in counts)  # whole, never a document without lines
    assert len(history) >= KILLS  # each child wrote before it was killed
