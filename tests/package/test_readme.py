"""The README's quickstart, run as a reader runs it, and its links followed.

Under the README's "## Quickstart" heading, each ```python block is a script and the
```text block that follows it is what the script prints; each ```console block holds
commands (lines opening with "$ ") each followed by what it prints. The scripts run in a
fresh process of this interpreter and the commands through the installed `affidavit`
command, in order, from a fresh folder holding a copy of corpora/demo, as a reader in the
repository's root would run them. What they print to standard output must be what the
README shows, line for line; the one tolerance is whitespace at the end of a line and
blank lines at the end of the output. A command exits with status 0, but `verify`, whose
status 2 (a sentence not supported) the README states.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
QUICKSTART = "## Quickstart"
# NOTE: the README held 1,016 lines of specification before the reference moved to docs/
# (issue 62); a door, not a manual.
MOST_LINES = 300
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True, slots=True)
class Example:
    """One thing the quickstart runs: a Python script or one shell command, the lines
    the README shows it printing, and the README line it starts on."""

    kind: str  # "python" or "console"
    source: str
    shown: tuple[str, ...]
    line: int

    @property
    def name(self) -> str:
        return f"{self.kind}@README:{self.line}"


def _section(lines: list[str], heading: str) -> tuple[int, list[str]]:
    """The lines under ``heading`` up to the next heading of its level, and where they
    start (0-based)."""
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start, lines[start:end]


def _fenced(lines: list[str], offset: int) -> list[tuple[str, list[str], int]]:
    """Each fenced block of ``lines``: its language, its lines, its 1-based README line."""
    blocks: list[tuple[str, list[str], int]] = []
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "```")
        blocks.append((opened.group(1), lines[i + 1 : end], offset + i + 2))
        i = end + 1
    return blocks


def quickstart_examples(text: str) -> list[Example]:
    """The quickstart's scripts and commands, in the order the README gives them."""
    start, section = _section(text.splitlines(), QUICKSTART)
    blocks = _fenced(section, start)
    examples: list[Example] = []
    for at, (language, body, line) in enumerate(blocks):
        if language == "python":
            following = blocks[at + 1] if at + 1 < len(blocks) else None
            assert following is not None and following[0] == "text", (
                f"README line {line}: a python block of the quickstart is followed by the "
                "```text block of what it prints"
            )
            examples.append(Example("python", "\n".join(body), tuple(following[1]), line))
        elif language == "console":
            commands = [i for i, row in enumerate(body) if row.startswith("$ ")]
            for n, i in enumerate(commands):
                upto = commands[n + 1] if n + 1 < len(commands) else len(body)
                source = body[i].removeprefix("$ ")
                examples.append(Example("console", source, tuple(body[i + 1 : upto]), line + i))
    return examples


EXAMPLES = quickstart_examples(README.read_text(encoding="utf-8"))


def _affidavit() -> str:
    """The `affidavit` command installed beside this interpreter (the venv's)."""
    beside = Path(sys.executable).with_name("affidavit")
    found = str(beside) if beside.exists() else shutil.which("affidavit")
    assert found, "the affidavit command is not installed beside this Python"
    return found


def _printed(stdout: str) -> list[str]:
    lines = [line.rstrip() for line in stdout.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess]:
    """Every example run once, in README order, from one fresh folder: a later command
    reads the store an earlier one wrote, as it does for a reader."""
    here = tmp_path_factory.mktemp("quickstart")
    shutil.copytree(ROOT / "corpora" / "demo", here / "corpora" / "demo")
    # A reader's own engine settings would change what an answer says.
    env = {k: v for k, v in os.environ.items() if not k.startswith("AFFIDAVIT_")}
    results: dict[str, subprocess.CompletedProcess] = {}
    for example in EXAMPLES:
        if example.kind == "python":
            argv = [sys.executable, "-c", example.source]
        else:
            argv = shlex.split(example.source)
            assert argv[0] == "affidavit", f"README line {example.line}: not an affidavit command"
            argv[0] = _affidavit()
        results[example.name] = subprocess.run(
            argv, cwd=here, env=env, capture_output=True, text=True, timeout=120
        )
    return results


def test_the_quickstart_shows_a_script_and_commands_with_their_output() -> None:
    kinds = [example.kind for example in EXAMPLES]
    assert "python" in kinds and "console" in kinds
    assert all(example.shown for example in EXAMPLES), "every example shows what it prints"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_the_quickstart_prints_what_the_readme_shows(
    example: Example, ran: dict[str, subprocess.CompletedProcess]
) -> None:
    result = ran[example.name]
    allowed = {0, 2} if example.source.startswith("affidavit verify") else {0}
    assert result.returncode in allowed, (
        f"README line {example.line} exited with {result.returncode}:\n{result.stderr}"
    )
    printed = _printed(result.stdout)
    shown = [line.rstrip() for line in example.shown]
    if printed != shown:
        diff = "\n".join(
            difflib.unified_diff(shown, printed, "README shows", "it prints", lineterm="")
        )
        pytest.fail(f"README line {example.line} is stale:\n{diff}\n{result.stderr}")


def test_the_readme_opens_with_the_two_commands_and_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    opening = "\n".join(lines[:8])
    assert "make demo" in opening and "make test" in opening
    assert len(lines) <= MOST_LINES


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped but
    hyphens and underscores, spaces as hyphens)."""
    anchors = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [README, *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(target)
    assert not broken, f"{page.name}: links that lead nowhere: {broken}"
