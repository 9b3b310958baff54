"""Giving freed memory back: done where the C library can, told where it cannot."""

from __future__ import annotations

import platform

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
