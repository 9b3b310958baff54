"""The process itself: freed memory given back where the C library can, collections made
rarer while a command works, and an exit an interrupt cannot cut short."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from affidavit import runtime as heap


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_glibc_gives_freed_memory_back() -> None:
    assert heap.give_back_freed_memory() is True


def test_without_malloc_trim_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_trim", lambda: None)
    assert heap.give_back_freed_memory() is False


def test_fewer_collections_raises_the_young_threshold_and_puts_it_back() -> None:
    import gc

    before = gc.get_threshold()
    with pytest.raises(KeyError), heap.fewer_collections(every=before[0] + 12_345):
        assert gc.get_threshold() == (before[0] + 12_345, *before[1:])
        raise KeyError("a command that failed")
    assert gc.get_threshold() == before


def test_spacy_imported_through_affidavit_leaves_its_command_line_until_used() -> None:
    # A fresh process: spaCy's command line (weasel, requests) is not imported with spaCy,
    # and what it offers still works once asked for, as plain spaCy's does.
    import subprocess
    import sys

    probe = (
        "import sys, affidavit, spacy\n"
        "print('weasel' in sys.modules, 'requests' in sys.modules)\n"
        "print(spacy.info()['spacy_version'] == spacy.__version__)\n"
        "import spacy.cli\n"
        "print(callable(spacy.cli.download), spacy.cli.download.__name__)\n"
    )
    said = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert said[0] == "False False"
    assert said[1] == "True"
    assert said[2] == "True download"


def test_a_ctrl_c_after_the_work_is_done_does_not_cut_the_exit_short() -> None:
    """Once a command's work is done and said, an interrupt leaves the exit alone: no
    death by SIGINT and no traceback from Python's exit handlers."""
    program = (
        "import os, signal\n"
        "from affidavit.runtime import before_exit\n"
        "before_exit()\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "print('ended as it meant to')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ended as it meant to\n" and done.stderr == ""
