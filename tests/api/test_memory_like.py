"""Memory and ShardedMemory are both what a memory offers (MemoryLike): checked at run time
(isinstance, and every call's parameters as the protocol declares them) and by mypy."""

from __future__ import annotations

import inspect
import textwrap
from functools import partial
from pathlib import Path

import pytest

import affidavit
from affidavit import InputError
from affidavit.memory import Memory, MemoryLike, ShardedMemory

ROOT = Path(__file__).resolve().parents[2]


def _members() -> list[str]:
    return sorted(
        name
        for name, value in vars(MemoryLike).items()
        if callable(value) and (not name.startswith("_") or name in ("__enter__", "__exit__"))
    )


def test_one_store_and_a_sharded_store_are_both_memory_like(tmp_path: Path) -> None:
    with Memory(dense=False) as one, Memory(tmp_path / "estate", shards=2, dense=False) as many:
        assert isinstance(many, ShardedMemory)
        assert isinstance(one, MemoryLike) and isinstance(many, MemoryLike)
        assert affidavit.MemoryLike is MemoryLike  # the seam users write against

    class Half:  # a memory that forgot how to answer is not one
        def ingest(self, path: str) -> None: ...

    assert not isinstance(Half(), MemoryLike)


def test_a_keyword_a_call_does_not_take_is_an_input_error_naming_it(tmp_path: Path) -> None:
    # The scope's keywords are written once (affidavit/options.py); a misspelt one must not
    # read the whole store, on one store or many.
    with Memory(dense=False) as one, Memory(tmp_path / "estate", shards=2, dense=False) as many:
        for memory in (one, many):
            calls = {
                "ask": partial(memory.ask, "Who signed the lease?"),
                "search": partial(memory.search, "lease"),
                "verify": partial(memory.verify, "The lease was signed."),
            }
            for name, call in calls.items():
                with pytest.raises(InputError) as misspelt:
                    call(documnets="lease.md")
                assert misspelt.value.what == "documnets" and name in str(misspelt.value)
                with pytest.raises(InputError) as spelt:  # control: read, and matches nothing
                    call(documents="lease.md")
                assert spelt.value.what == "lease.md"
            with pytest.raises(InputError) as asked:  # an ask's own keyword is not search's
                memory.search("lease", asked_at="2024-01-01")
            assert asked.value.what == "asked_at"
            assert memory.ask("Who signed the lease?", asked_at="2024-01-01").refused


@pytest.mark.parametrize("kind", [Memory, ShardedMemory], ids=["one", "sharded"])
def test_every_call_takes_the_parameters_the_protocol_declares(kind: type) -> None:
    assert len(_members()) > 30  # ingest, search, ask, verify, the records calls, upkeep
    for name in _members():
        declared = inspect.signature(getattr(MemoryLike, name)).parameters
        taken = inspect.signature(getattr(kind, name)).parameters
        kinds = [p.kind for p in taken.values()]
        if kinds[1:] == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
            continue  # takes any call, and says it is one store's (the records calls)
        assert [(p.name, p.kind, p.default) for p in taken.values()] == [
            (p.name, p.kind, p.default) for p in declared.values()
        ], name
    assert isinstance(inspect.getattr_static(kind, "path"), property)


@pytest.mark.slow
def test_mypy_holds_both_to_the_protocol(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    probe = tmp_path / "probe.py"
    probe.write_text(
        textwrap.dedent(
            """
            from affidavit.batch import Answerer
            from affidavit.memory import Memory, MemoryLike, ShardedMemory

            def one(memory: Memory) -> MemoryLike:
                return memory

            def many(memory: ShardedMemory) -> MemoryLike:
                return memory

            def answers(memory: MemoryLike) -> Answerer:
                return memory

            class Half:
                def ask(self, question: str) -> None: ...

            def half(memory: Half) -> MemoryLike:
                return memory  # the control: the one error expected
            """
        )
    )
    out, _, status = api.run(
        [
            str(probe),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--follow-imports=silent",
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
        ]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 1, out
    assert 'Incompatible return value type (got "Half"' in errors[0], out
