"""Ctrl-C during `affidavit ingest`, sent as a terminal sends it (to the whole process
group): one line saying which documents were written, no traceback from the command or its
workers, exit status 130, and a store that holds what the line says."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from affidavit import Memory

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
AFFIDAVIT = Path(sys.executable).parent / "affidavit"


def _folder(root: Path) -> Path:
    """Three copies of the SQuAD articles and the licences, each a little different."""
    folder = root / "big"
    for copy in range(3):
        part = folder / f"c{copy}"
        part.mkdir(parents=True)
        for source in [*CORPORA.glob("squad2_articles/*.txt"), *CORPORA.glob("licences/*.txt")]:
            shutil.copy(source, part / source.name)
        with (part / "Normans.txt").open("a", encoding="utf-8") as text:
            text.write(f"\nThis is copy {copy}.\n")
    return folder


@pytest.mark.parametrize("after", [0.2, 1.5])
def test_ctrl_c_says_what_was_written_and_the_store_holds_it(tmp_path: Path, after: float) -> None:
    folder, store = _folder(tmp_path), tmp_path / "s.sqlite"
    command = [str(AFFIDAVIT), "ingest", str(folder), "--store", str(store)]
    running = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A suite run in the background ignores SIGINT, and so would the ingest (it would
        # end whole and the test skip): Ctrl-C is given back its default, as at a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while not store.exists() and running.poll() is None:
        time.sleep(0.01)
    time.sleep(after)
    if running.poll() is None:
        os.killpg(running.pid, signal.SIGINT)
    out, err = running.communicate(timeout=120)
    said = err.decode()
    assert "Traceback" not in said and "Exception ignored" not in said
    if running.returncode == 0:  # done before the signal came: nothing to say of it
        pytest.skip("the ingest ended before it could be interrupted")
    assert running.returncode == 130, said
    (line,) = said.splitlines()
    assert line.startswith("affidavit: interrupted: ")
    with Memory(store, dense=False) as memory:
        held = memory.documents()
        written = re.search(r"(\d+) document\(s\) written", line)
        if written is None:
            assert "no document was written" in line and "as it was" in line
            assert held == []
        else:
            every = len(list(folder.rglob("*.txt")))
            assert len(held) == int(written.group(1)) == every
            assert memory.search("Normans", k=1)  # whole, and its indexes made on demand


def test_ctrl_c_after_the_write_says_the_documents_were_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interrupt that lands after the ingest's transaction (counting the store's lines
    at the end) says the documents were written, not that the store is unchanged."""
    from affidavit.cli.main import main
    from affidavit.memory import Memory as Front

    counted = {"calls": 0}
    stats = Front.stats

    def interrupted_second_count(self: Front) -> dict[str, object]:
        counted["calls"] += 1
        if counted["calls"] == 2:
            raise KeyboardInterrupt
        return stats(self)

    monkeypatch.setattr(Front, "stats", interrupted_second_count)
    licence = CORPORA / "licences" / "mpl-2.0.txt"
    status = main(["ingest", str(licence), "--store", str(tmp_path / "s.sqlite"), "--quiet"])
    (line,) = capsys.readouterr().err.splitlines()
    assert status == 130
    assert line.startswith("affidavit: interrupted: 1 document(s) written (mpl-2.0.txt)")
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        assert memory.documents() == ["mpl-2.0.txt"]


def test_ctrl_c_after_the_command_returned_is_not_said_to_leave_the_store_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interrupt that lands after the command has returned (its store closed, its summary
    printed) and before the program ignores Ctrl-C: the work is done, so the command's own
    status stands and nothing says "the store is unchanged" of a store just written."""
    from contextlib import contextmanager

    import affidavit.cli.main as cli

    @contextmanager
    def interrupted_on_leaving():  # type: ignore[no-untyped-def]
        yield
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "fewer_collections", interrupted_on_leaving)
    licence = CORPORA / "licences" / "mpl-2.0.txt"
    status = cli.main(["ingest", str(licence), "--store", str(tmp_path / "s.sqlite"), "--quiet"])
    assert status == 0
    assert "interrupted" not in capsys.readouterr().err
    with Memory(tmp_path / "s.sqlite", dense=False) as memory:
        assert memory.documents() == ["mpl-2.0.txt"]
