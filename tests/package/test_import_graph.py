"""The house's layout, held against the code: rooms, what each may import, no circles.

Each top-level module or package of ``affidavit`` is a room. ROOMS lists them from the
ground floor up, each with the rooms it may import: a room may import only rooms below
it, so no import climbs a floor. Every import counts, wherever it stands (inside a
function, under ``TYPE_CHECKING``): a type hint that climbs is still a climb.

A room shows the others a face: a package room's ``__init__`` lists in ``__all__`` what the
other rooms may use, and they import it from there (``from affidavit.text import fold``,
never ``from affidavit.text.tokens import fold``); a room of one module is its own face.
Inside a room, modules import each other directly, never through their own face.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "affidavit"

# The rooms, ground floor first, each with the rooms it may import (its own aside).
ROOMS: dict[str, frozenset[str]] = {}


def _room(name: str, *below: str) -> None:
    for other in below:
        assert other in ROOMS, f"{name} may only import rooms below it: {other} is not"
    ROOMS[name] = frozenset(below)


FOUNDATION = ("errors", "reasons", "trust", "results", "runtime", "options")
_room("errors")
_room("reasons")
_room("trust")
_room("runtime")
_room("results", "errors", "reasons", "trust")
# The front door's keyword options, each set written once (the scope's value, Filters).
_room("options", "errors")
_room("text", *FOUNDATION)
# Clause frames: pure, text in, frames out, read by the question's door and the gates.
_room("frames", *FOUNDATION, "text")
_room("store", *FOUNDATION)
_room("ingest", *FOUNDATION, "text", "store")
_room("index", *FOUNDATION, "text", "store")
_room("question", *FOUNDATION, "text", "frames")
# Records: facts told, superseded and forgotten, over the store.
_room("records", *FOUNDATION, "text", "store", "index")
_room("gates", *FOUNDATION, "text", "frames", "question")
# The scorer: the learned span scorer reads answer spans in the lines a search found.
_room("scorer", *FOUNDATION, "text", "frames", "question", "index")
# Plans run over verified primitives: a step's inputs pass the digit veto.
_room("plans", *FOUNDATION, "text", "frames", "question", "gates")
_room(
    "engine",
    *FOUNDATION,
    *("text", "frames", "store", "index", "question", "scorer", "plans", "gates"),
)
_room("batch", *FOUNDATION)
# The documents a question is answered from, one store's or every shard's (the shards
# asked in this process, or on Ray actors through batch's cluster), and what the flows
# read of them beyond the ranked lines.
_room(
    "archive",
    *FOUNDATION,
    *("text", "frames", "store", "index", "records", "question", "gates", "engine", "batch"),
)
_room(
    "answer",
    *FOUNDATION,
    *("text", "frames", "store", "index", "records", "question", "scorer", "plans", "gates"),
    *("engine", "archive"),
)
# The report writes numbers as answers write them (text.numbers.format_number).
_room("report", *FOUNDATION, "text")
# A sharded store's driver answers a question once over every shard's lines, so it reads
# the question as ask() does; each shard is a store, opened as the front door says.
_room(
    "shards",
    *FOUNDATION,
    *("text", "frames", "store", "ingest", "index", "records", "gates", "engine", "archive"),
    *("answer", "batch", "question"),
)
# The front door: Memory over one store, or over a sharded store's shards.
_room("memory", *ROOMS["shards"], "shards")
# The public API: the names users import from ``affidavit``.
_room("api", *(r for r in ROOMS))
_room("cli", "api", *FOUNDATION, "text", "report", "batch")


@dataclass(frozen=True, slots=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module
    names: tuple[str, ...]  # the names taken from it (empty for ``import x``)
    line: int


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def room_of(module: str) -> str:
    parts = module.split(".")
    return "api" if len(parts) == 1 else parts[1]


def _resolved(module: str, level: int, found: str | None, source: str) -> str:
    if not level:
        return found or ""
    base = source.split(".")
    if not modules()[source].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, found] if found else base)


@cache
def imports() -> tuple[Import, ...]:
    found: list[Import] = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "affidavit":
                        found.append(Import(name, alias.name, (), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                target = _resolved(node.module or "", node.level, node.module, name)
                if target.split(".")[0] != "affidavit":
                    continue
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    if submodule in modules():
                        found.append(Import(name, submodule, (), node.lineno))
                    else:
                        found.append(Import(name, target, (alias.name,), node.lineno))
    return tuple(found)


def _cycles(graph: dict[str, set[str]]) -> Iterator[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0

    def visit(node: str) -> Iterator[list[str]]:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                yield from visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                yield sorted(component)

    for node in sorted(graph):
        if node not in index:
            yield from visit(node)


def test_every_room_is_named_in_the_layout() -> None:
    rooms = {room_of(m) for m in modules()}
    assert rooms <= set(ROOMS), f"rooms missing from ROOMS: {sorted(rooms - set(ROOMS))}"


def test_no_import_climbs_a_floor() -> None:
    climbs = sorted(
        f"{i.source}:{i.line} imports {i.target}"
        for i in imports()
        if room_of(i.source) != room_of(i.target)
        and room_of(i.target) not in ROOMS[room_of(i.source)]
    )
    assert not climbs, "imports outside the layout:\n" + "\n".join(climbs)


def test_no_module_imports_in_a_circle() -> None:
    graph: dict[str, set[str]] = {}
    for i in imports():
        if i.target != i.source and i.target in modules():
            graph.setdefault(i.source, set()).add(i.target)
    circles = [" -> ".join(c) for c in _cycles(graph)]
    assert not circles, "import circles:\n" + "\n".join(circles)


def face_of(room: str) -> str:
    """The module other rooms import ``room`` through: the package, or the one module."""
    return "affidavit" if room == "api" else f"affidavit.{room}"


@cache
def shown(room: str) -> frozenset[str] | None:
    """The names ``room``'s face shows (its ``__all__``); None for a room of one module,
    which shows every public name it has."""
    path = modules()[face_of(room)]
    if path.name != "__init__.py":
        return None
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


def _across(i: Import) -> bool:
    return room_of(i.source) != room_of(i.target)


def test_every_import_into_another_room_goes_through_its_face() -> None:
    bypasses = sorted(
        f"{i.source}:{i.line} imports {i.target}" + (f" ({', '.join(i.names)})" if i.names else "")
        for i in imports()
        if _across(i) and i.target != face_of(room_of(i.target))
    )
    assert not bypasses, "imports that bypass a room's face:\n" + "\n".join(bypasses)


def test_another_room_takes_only_what_a_face_shows() -> None:
    hidden = sorted(
        f"{i.source}:{i.line} takes {name} from {i.target}, whose __all__ does not show it"
        for i in imports()
        if _across(i) and i.target == face_of(room_of(i.target))
        for name in i.names
        if not name.startswith("__")  # a module's own facts (``__version__``) are no name
        and (names := shown(room_of(i.target))) is not None
        and name not in names
    )
    assert not hidden, "names taken that a face does not show:\n" + "\n".join(hidden)


def test_a_room_imports_its_own_modules_not_its_face() -> None:
    # The face is for the other rooms: a module reading its own room's face would import
    # through a package still being initialised, and hide where the name lives.
    inward = sorted(
        f"{i.source}:{i.line} imports {i.target}"
        for i in imports()
        if room_of(i.source) != "api"
        and i.source != i.target
        and i.target == face_of(room_of(i.source))
    )
    assert not inward, "modules importing their own room's face:\n" + "\n".join(inward)


def test_no_private_name_is_imported_from_another_module() -> None:
    private = sorted(
        f"{i.source}:{i.line} takes {name} from {i.target}"
        for i in imports()
        for name in i.names
        if name.startswith("_") and not name.startswith("__")
    )
    assert not private, "private names imported across modules:\n" + "\n".join(private)


def test_no_private_name_is_read_off_another_module() -> None:
    """``module._name`` on an imported module is a private import by another road."""
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {
            alias.asname or alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
            if isinstance(node, ast.Import)
            and alias.name.startswith("affidavit")
            or isinstance(node, ast.ImportFrom)
            and f"{_resolved(node.module or '', node.level, node.module, name)}.{alias.name}"
            in modules()
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{name}:{node.lineno} reads {node.value.id}.{node.attr}")
    assert not found, "private names read off other modules:\n" + "\n".join(sorted(found))


def _calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str]]:
    """Every call of ``tree`` with the name it calls: ``f(...)`` is "f", ``a.b.f(...)``
    is "a.b.f"."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts: list[str] = []
        func = node.func
        while isinstance(func, ast.Attribute):
            parts.append(func.attr)
            func = func.value
        if isinstance(func, ast.Name):
            parts.append(func.id)
        yield node, ".".join(reversed(parts))


def _trees() -> Iterator[tuple[str, ast.AST]]:
    for name, path in modules().items():
        yield name, ast.parse(path.read_text(encoding="utf-8"))


def test_every_gate_decision_is_made_in_gates() -> None:
    # The library disposes in one room: whatever refuses a candidate, a sentence or a
    # line is a judge of gates/ (its registry, or a decision a judge there makes).
    outside = sorted(
        f"{name}:{call.lineno}"
        for name, tree in _trees()
        if room_of(name) != "gates"
        for call, called in _calls(tree)
        if called.split(".")[-1] == "GateDecision"
    )
    assert not outside, "gate decisions made outside gates/:\n" + "\n".join(outside)


# What reads a question's words: the question room's readers. Only the door (the read
# stage, answer/door.py) reads a question, once; every stage after it reads the Question.
QUESTION_READERS = frozenset(
    {
        "Question.read",
        "read_shape",
        "definition_asked",
        "quoted_asked",
        "rule_asked",
        "value_asked",
        "past_asked",
        "naming_words",
        "words_naming_a_document",
    }
)
THE_DOOR = "affidavit.answer.door"


def test_a_question_is_read_only_at_the_door() -> None:
    read_after = sorted(
        f"{name}:{call.lineno} calls {called}"
        for name, tree in _trees()
        if room_of(name) != "question" and name != THE_DOOR
        for call, called in _calls(tree)
        if called in QUESTION_READERS
        or called.split(".")[-1] in QUESTION_READERS - {"Question.read"}
    )
    assert not read_after, "a question read after the door:\n" + "\n".join(read_after)


LONGEST_FUNCTION = 100


def test_no_function_is_over_a_hundred_lines() -> None:
    # A function is one step of its module's idea; past a hundred lines it is several.
    long = sorted(
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for name, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION
    )
    assert not long, "functions over a hundred lines:\n" + "\n".join(long)
