"""The `affidavit` command as a shell tool: search takes ask's scope options, an option is
spelt whole or refused, and output into a pipe its reader closed ends quietly."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.cli.main import _parser, _scope, main
from affidavit.options import SCOPE_KEYS, Filters

# Lines of both articles match it (26 of Black_Death.txt, 14 of Normans.txt in the top 40).
SHARED_WORD = "century"
# What a shell shows for a command a closed pipe ended, as `seq 100000 | head -1` ends seq.
SIGPIPE_STATUS = 128 + 13


@pytest.fixture(scope="module")
def two_articles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli-options") / "memory.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest([ARTICLES[0], ARTICLES[1]])
    return path


def searched(capsys, store: Path, *options: str) -> list[tuple[str, int]]:
    """The (document, position) of each line ``search`` shows, best first."""
    code = main(["search", SHARED_WORD, "--store", str(store), "-k", "40", "--json", *options])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return [(hit["document"], hit["position"]) for hit in json.loads(out)]


def documents(hits: list[tuple[str, int]]) -> set[str]:
    return {document for document, _ in hits}


def test_search_document_keeps_the_hits_to_that_document(two_articles: Path, capsys) -> None:
    every = searched(capsys, two_articles)
    assert documents(every) == {"Normans.txt", "Black_Death.txt"}  # control: both match

    scoped = searched(capsys, two_articles, "--document", "Normans.txt")
    assert documents(scoped) == {"Normans.txt"}
    # The same lines in the same order, and more of them: the scope's lines fill the k.
    normans = [hit for hit in every if hit[0] == "Normans.txt"]
    assert len(scoped) > len(normans) and scoped[: len(normans)] == normans


def test_search_document_takes_globs_and_repeats(two_articles: Path, capsys) -> None:
    assert documents(searched(capsys, two_articles, "--document", "Black_*")) == {"Black_Death.txt"}
    both = searched(capsys, two_articles, "--document", "Black_*", "--document", "Normans.txt")
    assert documents(both) == {"Normans.txt", "Black_Death.txt"}


def test_search_source_and_trust_choose_the_documents(two_articles: Path, capsys) -> None:
    assert searched(capsys, two_articles, "--source", "document")  # control: they are documents
    assert searched(capsys, two_articles, "--source", "operator") == []
    assert searched(capsys, two_articles, "--min-trust", "0.99") == []


def test_search_of_a_document_not_stored_is_one_line_naming_it(two_articles: Path, capsys) -> None:
    code = main(["search", SHARED_WORD, "--store", str(two_articles), "--document", "nope.md"])
    _, err = capsys.readouterr()
    assert code == 1 and err.startswith("affidavit: error: nope.md")


def test_ranking_documents_refuses_scope_options_naming_them(two_articles: Path, capsys) -> None:
    code = main(
        ["search", SHARED_WORD, "--store", str(two_articles), "--documents", "--source", "operator"]
    )
    _, err = capsys.readouterr()
    assert code == 1 and "--source" in err and "--documents" in err


def test_an_abbreviated_option_is_an_error_naming_it(two_articles: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["search", SHARED_WORD, "--store", str(two_articles), "--doc", "Normans.txt"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --doc Normans.txt" in err and "spelt whole" in err


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(commands.choices)


def test_no_command_takes_an_abbreviation_of_its_options() -> None:
    checked = 0
    for name, parser in _commands().items():
        for action in parser._actions:
            action.required = False  # --store: so that each option is tried alone
        spelt = {s for action in parser._actions for s in action.option_strings}
        positionals = ["1" for action in parser._actions if not action.option_strings]
        for option in sorted(spelt):
            abbreviation = option[:-1]
            if not option.startswith("--") or abbreviation in spelt:
                continue  # --document is an option of its own beside --documents
            _, unknown = parser.parse_known_args([*positionals, abbreviation, "1"])
            assert abbreviation in unknown, f"affidavit {name} read {abbreviation} as {option}"
            checked += 1
    assert checked > 40


def test_a_pipe_closed_by_its_reader_ends_quietly(two_articles: Path) -> None:
    # About 90 KB of JSON: more than a pipe holds, so the command is still writing when
    # the reader, having read one line, closes its end.
    command = [sys.executable, "-m", "affidavit.cli.main", "search", "Normans plague Europe "]
    command[-1] += "century people city death"
    command += ["-k", "1000", "--json", "--store", str(two_articles)]
    reader = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.readline() == b"[\n"
    reader.stdout.close()
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == SIGPIPE_STATUS
    assert err == ""


def test_a_broken_pipe_not_of_the_output_stays_an_internal_error(
    two_articles: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise BrokenPipeError("a worker's pipe")

    monkeypatch.setattr(Memory, "search", broken)
    code = main(["search", SHARED_WORD, "--store", str(two_articles)])
    assert code == 3
    assert "internal error: BrokenPipeError" in capsys.readouterr().err


def test_ask_verify_and_search_read_every_scope_flag_into_one_scope() -> None:
    # Every key of the scope (affidavit/options.py Filters) has its flag on each command
    # that reads within a scope, and the flags given make the value Memory's calls take.
    flags = ["--document", "a.md", "--source", "operator", "--min-trust", "0.5"]
    flags += ["--since", "2001-02-03", "--until", "2004-05-06"]
    for command in (["ask", "q"], ["verify", "t"], ["search", "q"]):
        args = _parser().parse_args([*command, "--store", "s.sqlite", *flags])
        scope = _scope(args)
        assert scope == Filters(["a.md"], ["operator"], 0.5, "2001-02-03", "2004-05-06")
        assert set(scope.keywords()) == set(SCOPE_KEYS), command
    bare = _scope(_parser().parse_args(["ask", "q", "--store", "s.sqlite"]))
    assert bare.is_empty() and bare.keywords() == {}
