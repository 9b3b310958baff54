"""A sharded store whose shards are Ray actors on a local cluster: ingest all or nothing,
and the same answers as the same shards held in this process.

Needs the ``ray`` extra (``pip install 'affidavit[ray]'``; .ci/run installs it)."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import ARTICLES, QUESTIONS

from affidavit import IngestError, Memory

# Whether Ray is installed, asked without importing it: imported here, at collection, Ray
# would be loaded in the process every other test runs in, whether or not this one runs.
pytestmark = pytest.mark.skipif(
    find_spec("ray") is None, reason="the ray extra is not installed: pip install 'affidavit[ray]'"
)


@pytest.mark.slow
def test_shards_on_ray_answer_as_the_shards_held_here(tmp_path: Path) -> None:
    questions = [q["question"] for q in QUESTIONS[:12]]
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / ARTICLES[0].name).write_bytes(ARTICLES[0].read_bytes())
    (bad / "broken.pdf").write_bytes(b"%PDF-1.4 not a pdf at all")
    folder = tmp_path / "estate"
    with Memory(folder, shards=2, cluster="local", dense=False) as memory:
        memory.ingest(list(ARTICLES))
        before = memory.fingerprint()
        with pytest.raises(IngestError, match="broken.pdf"):
            memory.ingest(bad)  # raised on an actor, reaching the caller whole
        assert memory.fingerprint() == before
        on_ray = [memory.ask(q).to_dict() for q in questions]
        hits = memory.search("oil embargo", k=5)
    with Memory(folder, dense=False) as memory:
        here = [memory.ask(q).to_dict() for q in questions]
        assert memory.search("oil embargo", k=5) == hits
    assert on_ray == here
    assert not list(folder.glob(".spool-*"))
