"""``affidavit`` resolves its public names when first read (PEP 562): importing the package,
or the CLI to print its help, loads no model, no spaCy and no numpy; every name of
``__all__`` is still there, the very object its room defines. Each room's face does the
same for the names the other rooms use (runtime.names_read_when_used)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

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


PACKAGE = Path(affidavit.__file__).parent
# The faces that read their names when used: every package room's but these, whose
# ``__init__`` holds or imports its names (results defines its types there; frames
# imports its light ones, and reads its parse and its word relations when used).
EAGER_FACES = frozenset({"results", "frames"})
FACES = sorted(
    path.parent.name
    for path in PACKAGE.glob("*/__init__.py")
    if "names_read_when_used" in path.read_text(encoding="utf-8")
    and path.parent.name not in EAGER_FACES
)


def test_rooms_have_faces_that_read_names_when_used() -> None:
    assert {"text", "store", "index", "gates", "answer", "memory"} <= set(FACES)


def test_importing_every_face_loads_nothing_heavy() -> None:
    faces = "; ".join(f"import affidavit.{room}" for room in [*FACES, *EAGER_FACES])
    assert [m for m in _loaded_after(faces) if not m.startswith("affidavit")] == []


def _hinted(room: str) -> dict[str, str]:
    """The names a face imports for the type checker, each with its module."""
    tree = ast.parse((PACKAGE / room / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module or ""
        for block in tree.body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


@pytest.mark.parametrize("room", FACES)
def test_a_faces_names_are_its_modules_objects_said_once(room: str) -> None:
    face = importlib.import_module(f"affidavit.{room}")
    homes = {
        name: f"affidavit.{room}.{module}"
        for module, names in face._HOMES.items()
        for name in names.split()
    }
    # The three lists of a face agree: what it shows, where each lives, what mypy reads.
    assert sorted(face.__all__) == sorted(homes)
    assert _hinted(room) == homes
    modules = {info.name for info in pkgutil.iter_modules(face.__path__)}
    for name, module in homes.items():
        # A name that is also a module of the room would be that module once imported.
        assert name not in modules, f"affidavit.{room}.{name} is a module and a name"
        assert getattr(face, name) is getattr(importlib.import_module(module), name)
        assert name in dir(face)
    with pytest.raises(AttributeError, match="no attribute 'not_shown'"):
        face.not_shown  # noqa: B018


def test_an_ask_in_a_fresh_process_reads_no_file_format_and_builds_no_tokenizer(
    tmp_path: Path,
) -> None:
    # A cold ask's start (bench/start.py): ingest's readers and the look-alike tables are
    # imported when a file is read, and the bundled tokenizer built when many words are
    # split; a question needs neither.
    store = str(tmp_path / "store")
    made = "\n".join(
        [
            "from affidavit import Memory",
            f"with Memory({store!r}) as m:",
            "    m.ingest_text('The embargo ended in March 1974.', name='a.txt')",
        ]
    )
    subprocess.run([sys.executable, "-c", made], check=True, timeout=300)
    probe = "\n".join(
        [
            "import sys",
            "from affidavit import Memory",
            "from affidavit.index.meaning.encoder import bundled_encoder",
            f"with Memory({store!r}) as m:",
            "    answer = m.ask('When did the embargo end?')",
            "readers = ('affidavit.ingest.formats.dispatch', 'confusable_homoglyphs', 'lxml')",
            "print(answer.text)",
            "print(sorted(name for name in readers if name in sys.modules))",
            "print('_tokenizer' in bundled_encoder().__dict__)",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300
    )
    text, readers, tokenizer = done.stdout.splitlines()[-3:]
    assert "1974" in text  # control: the ask ran, through the meaning channel too
    assert (readers, tokenizer) == ("[]", "False")
