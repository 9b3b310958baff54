"""``affidavit`` resolves its public names when first read (PEP 562): importing the package,
or the CLI to print its help, loads no model, no spaCy and no numpy; every name of
``__all__`` is still there, the very object its room defines."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

import affidavit

HEAVY = ("spacy", "numpy", "scipy", "model2vec", "tokenizers", "affidavit.memory")


def _loaded_after(code: str) -> list[str]:
    """The HEAVY modules a fresh Python holds after running ``code`` (its output aside)."""
    probe = f"{code}\nimport sys\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return ast.literal_eval(done.stdout.splitlines()[-1])


def test_importing_the_package_loads_nothing_heavy() -> None:
    assert _loaded_after("import affidavit") == []


def test_the_clis_help_loads_nothing_heavy() -> None:
    code = "\n".join(
        [
            "from affidavit.cli.main import main",
            "try:",
            "    main(['--help'])",
            "except SystemExit:",
        ]
    )
    code += "\n    pass"
    assert _loaded_after(code) == []
    assert _loaded_after(code + "\nimport affidavit\naffidavit.Memory") != []  # control


def test_memory_read_from_the_package_opens_a_sharded_folder_too(tmp_path) -> None:
    # Memory's own constructor chooses the sharded store (memory/memory.py): nothing has to
    # be imported first for Memory(folder) to open a folder made with shards=N.
    folder = str(tmp_path / "estate")
    probe = "\n".join(
        [
            "from affidavit import Memory",
            f"Memory({folder!r}, shards=2, dense=False).close()",
            f"print(type(Memory({folder!r}, dense=False)).__name__)",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "ShardedMemory"


@pytest.mark.parametrize("name", affidavit.__all__)
def test_every_public_name_is_its_rooms_object(name: str) -> None:
    home = importlib.import_module(affidavit._HOMES.get(name, "affidavit.errors"))
    assert getattr(affidavit, name) is getattr(home, name)
    assert name in dir(affidavit)


def test_a_name_the_package_does_not_have_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Memroy'"):
        affidavit.Memroy  # noqa: B018
    from affidavit import Memory  # the usual spelling still works

    assert Memory.__name__ == "Memory"
