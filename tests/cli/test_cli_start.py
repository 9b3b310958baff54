"""What the `affidavit` command does for its own start and end: a command runs with the
collector's young threshold raised (runtime.fewer_collections) and leaves it as it found
it; the program, done, freezes what it made before Python shuts down (runtime.before_exit),
which a caller of main() in Python never sees."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.cli.main import main
from affidavit.runtime import COLLECT_EVERY


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli-start") / "memory.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest_text(ARTICLES[0].read_text(encoding="utf-8")[:2000], name="normans.txt")
    return path


def test_a_command_runs_with_fewer_collections_then_puts_them_back(
    store: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []
    search = Memory.search

    def watched(self: Memory, *args: object, **options: object) -> object:
        seen.append(gc.get_threshold())
        return search(self, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Memory, "search", watched)
    before = gc.get_threshold()
    assert before[0] < COLLECT_EVERY  # control: pytest runs at the default
    assert main(["search", "Normans", "--store", str(store)]) == 0
    assert "normans.txt" in capsys.readouterr().out
    assert seen == [(COLLECT_EVERY, *before[1:])]
    assert gc.get_threshold() == before


def test_the_program_freezes_what_it_made_before_it_ends(store: Path, capsys) -> None:
    frozen = gc.get_freeze_count()
    assert main(["documents", "--store", str(store)]) == 0  # called from Python: untouched
    assert "normans.txt" in capsys.readouterr().out
    assert gc.get_freeze_count() == frozen
    program = (
        "import gc, sys\nfrom affidavit.cli.main import main\n"
        f"sys.argv = ['affidavit', 'documents', '--store', {str(store)!r}]\n"
        "status = main()\nprint(status, gc.get_freeze_count() > 10_000)"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1] == "0 True"
