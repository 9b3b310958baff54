"""The batch on a local two-worker Ray cluster writes the same bytes as one process.

Needs the ``ray`` extra (``pip install 'affidavit[ray]'``; .ci/run installs it)."""

from __future__ import annotations

import json
import shutil
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import QUESTIONS

from affidavit import Memory

# Whether Ray is installed, asked without importing it: imported here, at collection, Ray
# would be loaded in the process every other test runs in, whether or not this one runs.
pytestmark = pytest.mark.skipif(
    find_spec("ray") is None, reason="the ray extra is not installed: pip install 'affidavit[ray]'"
)


@pytest.mark.slow
def test_a_local_two_worker_ray_cluster_answers_byte_identically(
    squad_store: Path, tmp_path: Path
) -> None:
    import ray

    store = tmp_path / "store.sqlite"
    shutil.copy(squad_store, store)
    questions = tmp_path / "questions.jsonl"
    lines = [json.dumps({"id": q["id"], "question": q["question"]}) for q in QUESTIONS[:30]]
    questions.write_text("\n".join([*lines, "not json"]) + "\n", encoding="utf-8")
    alone, on_ray = tmp_path / "alone.jsonl", tmp_path / "ray.jsonl"
    with Memory(store) as memory:
        memory.batch(questions, workers=1, out=alone, progress=False)
        rows = memory.batch(questions, out=on_ray, progress=False, workers=2, cluster="local")
    assert len(rows) == 31 and "error" in rows[-1]
    assert on_ray.read_bytes() == alone.read_bytes()
    assert not ray.is_initialized()  # the cluster it started is stopped again
