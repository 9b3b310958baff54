"""TAT-QA dev: financial tables with their text, one store per table; EM and F1 beside baselines.

The data is ``../shared/corpora/tatqa/tatqa_dataset_dev.json`` (NExTplusplus/TAT-QA,
CC BY 4.0; see the SOURCE.md beside it): the 195 contexts the shared copy holds (the
rest of TAT-QA's 278 dev contexts are held out and never read here). Each context is one
table with its paragraphs and its questions.

Each context becomes one document, written as a user would write it: the table as a
GitHub Markdown table (its first row as the header row, ``|`` inside a cell escaped),
a blank line, then the paragraphs in their order, separated by blank lines. It goes into
a fresh in-memory store (``Memory().ingest_text(text, name=f"{table_uid}.md")``) and the
context's questions are asked of it with ``Memory.ask``, timed (``ask`` only).

The prediction is ``str(answer.value)`` when the value is a number, else
``answer.text``; a cell a plan looked up (no computation) is predicted as its cell is
written, "(140,687)", as ``answer.text`` quotes it; a list value (or an audit ``plan``
whose final value is a list) is a multi-span answer, and when a plan answered, its value
(a year, a name) is the prediction rather than the sentence around it; a refusal
predicts nothing and scores 0. Scoring is TAT-QA's official EM and F1
(``bench/_tatqa_scoring.py``: numbers compared as numbers at 2 decimals, multi-span
answers as one bag of words, F1 = EM for arithmetic and count), with the prediction read
in no scale, in the gold's scale, or in the scale the engine states (its plan's result:
percent, thousand, million, billion), whichever scores best, since a bare value carries
no scale. Beside it, "EM, own scale": the official EM with the engine's own scale alone
(none without a plan), what the official scorer would give.

Also counted: **unbacked numbers**, answers whose value is a number that was neither
computed (the audit has a ``plan``) nor written in a cited line (each number in the
answer's text, thousands separators dropped, must stand in some citation's text).

Beside the engine, on the same questions in the same run: refuse everything; the best
line (the text of ``search(question, k=1)[0]``, never refusing); and the best cell (of
that top line, when it is a table row with ``cells``, the cell whose column name shares
most words with the question; else the line's text).

Split by context: the contexts sorted by the sha1 hex digest of their table uid, those at
even places are the **tune** split, those at odd places the **report** split. With
``--data`` the split is made over that file's contexts: run the slice in
``corpora/tatqa/`` (fourteen tune contexts) with ``--split all``.

    .venv/bin/python bench/tatqa.py [--split tune|report|all] [--limit N] [--json PATH]
                                    [--data corpora/tatqa/tatqa_slice.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import numbers
import platform
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import ask_timing  # noqa: E402
from _record import record  # noqa: E402
from _squad import SHARED  # noqa: E402
from _tatqa_scoring import gold_answers, score  # noqa: E402

from affidavit import Answer, Evidence, Memory  # noqa: E402

DATA = SHARED / "tatqa" / "tatqa_dataset_dev.json"
SPLITS = ("tune", "report")
ANSWER_TYPES = ("span", "multi-span", "arithmetic", "count")
ANSWER_FROM = ("table", "text", "table-text")
# The hard subset: answers written in the paragraphs, where no plan over the table helps.
HARD = "text"
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


# -- the data --


def load_contexts(path: Path = DATA) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


def _digest(context: dict[str, Any]) -> str:
    return hashlib.sha1(context["table"]["uid"].encode("utf-8")).hexdigest()


def split_contexts(contexts: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """tune and report: the contexts in sha1 order of their table uid, alternating."""
    ordered = sorted(contexts, key=_digest)
    return {name: ordered[i :: len(SPLITS)] for i, name in enumerate(SPLITS)}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def document_text(context: dict[str, Any]) -> str:
    """The context as a Markdown document: the table, a blank line, the paragraphs."""
    rows = context["table"]["table"]
    width = max(len(row) for row in rows)
    rows = [[*row, *[""] * (width - len(row))] for row in rows]
    table = [
        "| " + " | ".join(_cell(c) for c in rows[0]) + " |",
        "|" + "---|" * width,
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows[1:]),
    ]
    paragraphs = sorted(context["paragraphs"], key=lambda p: p["order"])
    return "\n".join(table) + "\n\n" + "\n\n".join(p["text"].strip() for p in paragraphs) + "\n"


# -- predictions --


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _plan_result(answer: Answer) -> dict[str, Any]:
    """The result of the last step of the plan that answered (``audit["plan"]["trace"]``)."""
    plan = answer.audit.get("plan")
    trace = plan.get("trace") if isinstance(plan, dict) else None
    last = trace[-1] if isinstance(trace, list) and trace else None
    result = last.get("result") if isinstance(last, dict) else None
    return result if isinstance(result, dict) else {}


def _said(value: dict[str, Any]) -> str:
    number = value.get("number")
    return str(number) if number is not None else str(value.get("text") or value.get("label"))


def _looked_up(answer: Answer) -> list[str] | None:
    """The cells a plan looked up (anchors and gathers of figures only, each item one
    cited cell), as each is written: "(140,687)", "39%"; None otherwise."""
    plan = answer.audit.get("plan")
    trace = plan.get("trace") if isinstance(plan, dict) else None
    if not isinstance(trace, list) or not trace:
        return None
    if any(not isinstance(s, dict) or s.get("op") not in ("anchor", "gather") for s in trace):
        return None
    result = trace[-1].get("result") or {}
    items = result.get("items") if result.get("kind") == "list" else [result]
    # A gather of earlier anchors cites nothing itself: its items are theirs, in order.
    inputs = [i for step in trace for i in step.get("inputs") or []]
    if len(trace) == 1 or trace[-1].get("inputs"):
        inputs = trace[-1].get("inputs") or []
    if not items or len(items) != len(inputs) or any("number" not in i for i in items):
        return None
    written = [
        c[0].get("written", "") if len(c := i.get("cites") or []) == 1 else "" for i in inputs
    ]
    return written if all(w.strip() for w in written) else None


def prediction(answer: Answer) -> str | list[str] | None:
    """What is scored: None for a refusal, a list for a multi-span answer, else a string.

    A cell a plan looked up is its cell as written ("(140,687)": what a span answer
    quotes); a list value, or a plan whose final value is a list, is a multi-span answer;
    a number is ``str(value)``; a plan's other value (a year, a name) is that value, not
    the sentence around it; anything else is the answer's text.
    """
    if answer.refused:
        return None
    value, result = answer.value, _plan_result(answer)
    quoted = _looked_up(answer)
    if quoted is not None:
        return quoted if result.get("kind") == "list" else quoted[0]
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    if result.get("kind") == "list":
        return [_said(item) for item in result.get("items", [])]
    if _is_number(value) or (result and value not in (None, "")):
        return str(value)
    return answer.text


def predicted_scale(answer: Answer) -> str:
    """The scale the answering plan states (percent for a percentage), "" without a plan."""
    result = _plan_result(answer)
    if result.get("kind") == "percent":
        return "percent"
    items = result.get("items") or [result]
    return str(items[0].get("scale", "")) if isinstance(items[0], dict) else ""


def _path(answer: Answer) -> str:
    """How the answer was made, for reading a run: "plan: <note>" or the engine's note on
    the candidate chosen ("clause", "best line", "phrase: ...", "DATE span, fit 0.80")."""
    if answer.refused:
        return ""
    plan = answer.audit.get("plan")
    if isinstance(plan, dict):
        proposed = plan.get("plan")
        note = proposed.get("note", "") if isinstance(proposed, dict) else ""
        return f"plan: {note}"
    chosen = answer.audit.get("chosen")
    candidate = chosen.get("candidate") if isinstance(chosen, dict) else None
    if not isinstance(candidate, dict):
        return ""
    return f"{candidate.get('note', '')} | score {candidate.get('score', 0.0):.2f}"


def unbacked_number(answer: Answer) -> bool:
    """A number answered that was not computed and whose digits no cited line writes."""
    if answer.refused or not _is_number(answer.value) or "plan" in answer.audit:
        return False
    said = _NUMBER.findall(answer.text) or _NUMBER.findall(str(answer.value))
    cited = {n.replace(",", "") for c in answer.citations for n in _NUMBER.findall(c.text)}
    return any(n.replace(",", "") not in cited for n in said)


def best_cell(question: str, hit: Evidence) -> str:
    """The top line's cell whose column name shares most words with the question."""
    cells = {column: value for column, value in (hit.cells or {}).items() if value.strip()}
    if not cells:
        return hit.text
    asked = set(_WORD.findall(question.lower()))
    column = max(cells, key=lambda c: len(asked & set(_WORD.findall(c.lower()))))
    return cells[column]


# -- measuring --


@dataclass(frozen=True)
class Asked:
    uid: str
    table_uid: str
    split: str
    question: str
    answer_type: str
    answer_from: str
    scale: str
    gold: list[str]
    prediction: str | list[str] | None
    em: float
    f1: float
    em_own_scale: float  # the official EM with the engine's own scale ("" without a plan)
    refused: bool
    reason: str | None
    cited: list[str]
    number: bool  # answered with a number
    planned: bool  # answered by a plan (computed, or a cell the plan anchored)
    path: str  # how the answer was made: the plan's note, or the chosen candidate's
    unbacked_number: bool
    ms: float
    best_line: str
    best_line_em: float
    best_line_f1: float
    best_cell: str
    best_cell_em: float
    best_cell_f1: float


def ask_context(context: dict[str, Any], split: str) -> tuple[list[Asked], float]:
    """Every question of one context, asked of a fresh store holding it; and ingest seconds."""
    memory = Memory()
    start = time.perf_counter()
    memory.ingest_text(document_text(context), name=f"{context['table']['uid']}.md")
    ingest_s = time.perf_counter() - start
    questions = sorted(context["questions"], key=lambda q: q["order"])
    # The baselines first: their searches build the store's index off the ask clock.
    tops = [memory.search(q["question"], k=1) for q in questions]
    asked = []
    for q, top in zip(questions, tops, strict=True):
        start = time.perf_counter()
        answer = memory.ask(q["question"])
        ms = (time.perf_counter() - start) * 1000
        said = prediction(answer)
        own = score(said, q, scale=predicted_scale(answer))
        em, f1 = max(score(said, q), own)
        line = top[0].text if top else ""
        cell = best_cell(q["question"], top[0]) if top else ""
        (line_em, line_f1), (cell_em, cell_f1) = score(line, q), score(cell, q)
        asked.append(
            Asked(
                uid=q["uid"],
                table_uid=context["table"]["uid"],
                split=split,
                question=q["question"],
                answer_type=q["answer_type"],
                answer_from=q["answer_from"],
                scale=q["scale"],
                gold=gold_answers(q),
                prediction=said,
                em=em,
                f1=f1,
                em_own_scale=own[0],
                refused=answer.refused,
                reason=answer.reason,
                cited=[c.text for c in answer.citations],
                number=not answer.refused and _is_number(answer.value),
                planned=not answer.refused and "plan" in answer.audit,
                path=_path(answer),
                unbacked_number=unbacked_number(answer),
                ms=ms,
                best_line=line,
                best_line_em=line_em,
                best_line_f1=line_f1,
                best_cell=cell,
                best_cell_em=cell_em,
                best_cell_f1=cell_f1,
            )
        )
    memory.close()
    return asked, ingest_s


def scores(asked: Sequence[Asked]) -> dict[str, Any]:
    """EM, F1, answered, refused and wrong for the engine; EM and F1 for the baselines."""
    answered = [a for a in asked if not a.refused]

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    return {
        "questions": len(asked),
        "em": mean([a.em for a in asked]),
        "f1": mean([a.f1 for a in asked]),
        "em_own_scale": mean([a.em_own_scale for a in asked]),
        "answered": mean([float(not a.refused) for a in asked]),
        "refused": mean([float(a.refused) for a in asked]),
        # Answered with F1 0, as a share of the answered questions.
        "wrong_of_answered": mean([float(a.f1 == 0.0) for a in answered]),
        "em_answered": mean([a.em for a in answered]),
        "f1_answered": mean([a.f1 for a in answered]),
        "numbers": sum(a.number for a in asked),
        "numbers_planned": sum(a.number and a.planned for a in asked),
        "planned": sum(a.planned for a in asked),
        "unbacked_numbers": sum(a.unbacked_number for a in asked),
        "best_line_em": mean([a.best_line_em for a in asked]),
        "best_line_f1": mean([a.best_line_f1 for a in asked]),
        "best_line_wrong": mean([float(a.best_line_f1 == 0.0) for a in asked]),
        "best_cell_em": mean([a.best_cell_em for a in asked]),
        "best_cell_f1": mean([a.best_cell_f1 for a in asked]),
        "best_cell_wrong": mean([float(a.best_cell_f1 == 0.0) for a in asked]),
    }


def run(limit: int | None, split: str = "report", path: Path = DATA) -> dict[str, Any]:
    halves = split_contexts(load_contexts(path))
    chosen = [(name, c) for name in SPLITS if split in (name, "all") for c in halves[name]]
    if limit is not None:
        chosen = chosen[:limit]
    # Load the models off the clock: the first ask of a process pays for them.
    warm = Memory()
    warm.ingest_text("| a | b |\n|---|---|\n| x | 1 |\n\nWarm-up text.\n", name="warm-up.md")
    warm.ask("What is x?")
    warm.close()
    asked: list[Asked] = []
    ingest_s = 0.0
    start = time.perf_counter()
    for name, context in tqdm(chosen, desc=f"TAT-QA {split}", unit="context", file=sys.stderr):
        rows, seconds = ask_context(context, name)
        asked.extend(rows)
        ingest_s += seconds
    wall_s = time.perf_counter() - start
    ms = [a.ms for a in asked] or [0.0]
    p50, p90, p95 = np.percentile(ms, [50, 90, 95])
    command = f".venv/bin/python bench/tatqa.py --split {split}"
    if limit is not None:
        command += f" --limit {limit}"
    if path != DATA:
        command += f" --data {path}"
    return {
        "data": str(path),
        "split": split,
        "command": command,
        "contexts": len(chosen),
        "all": scores(asked),
        "by_type": {t: scores([a for a in asked if a.answer_type == t]) for t in ANSWER_TYPES},
        "by_source": {s: scores([a for a in asked if a.answer_from == s]) for s in ANSWER_FROM},
        "refusal_reasons": dict(Counter(a.reason for a in asked if a.refused).most_common()),
        "timing": {
            "ingest_s": ingest_s,
            "wall_s": wall_s,
            "ms_per_question_mean": float(np.mean(ms)),
            "p50_ms": float(p50),
            "p90_ms": float(p90),
            "p95_ms": float(p95),
        },
        "asked": [asdict(a) for a in asked],
        "python": platform.python_version(),
    }


# -- reporting --


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _table(rows: dict[str, dict[str, Any]], label: str) -> list[str]:
    lines = [
        f"| {label} | questions | answered % | refused % | wrong % of answered "
        "| EM | F1 | EM, own scale | best line EM / F1 | best cell EM / F1 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in rows.items():
        if not s["questions"]:
            continue
        lines.append(
            f"| {name} | {s['questions']} | {_pct(s['answered'])} | {_pct(s['refused'])} "
            f"| {_pct(s['wrong_of_answered'])} | {_pct(s['em'])} | {_pct(s['f1'])} "
            f"| {_pct(s['em_own_scale'])} | {_pct(s['best_line_em'])} / {_pct(s['best_line_f1'])} "
            f"| {_pct(s['best_cell_em'])} / {_pct(s['best_cell_f1'])} |"
        )
    return lines


def _headline(label: str, s: dict[str, Any]) -> list[str]:
    """affidavit's row for a group of questions, then the baselines' on the same questions."""
    return [
        f"| **{label}** | {s['questions']} | {_pct(s['answered'])} | {_pct(s['refused'])} "
        f"| {_pct(s['wrong_of_answered'])} | {_pct(s['em'])} | {_pct(s['f1'])} |",
        f"| {label}: refuse everything | {s['questions']} | 0.0 | 100.0 | — | 0.0 | 0.0 |",
        f"| {label}: best line (search k=1) | {s['questions']} | 100.0 | 0.0 "
        f"| {_pct(s['best_line_wrong'])} | {_pct(s['best_line_em'])} | {_pct(s['best_line_f1'])} |",
        f"| {label}: best cell of the best line | {s['questions']} | 100.0 | 0.0 "
        f"| {_pct(s['best_cell_wrong'])} | {_pct(s['best_cell_em'])} | {_pct(s['best_cell_f1'])} |",
    ]


def report(result: dict[str, Any]) -> str:
    s = result["all"]
    n = s["questions"]
    timing = result["timing"]
    # The hard subset beside the whole: answers written in the text rather than the table.
    hard = result["by_source"].get(HARD, {"questions": 0})
    lines = [
        f"TAT-QA dev, split **{result['split']}**: {result['contexts']} contexts "
        f"(one store each), {n} questions, default engine",
        "",
        f"    {result['command']}",
        "",
        "| questions | n | answered % | refused % | wrong % of answered | EM | F1 |",
        "|---|---|---|---|---|---|---|",
        *_headline("all", s),
        *(_headline(f"hard subset (answer from the {HARD})", hard) if hard["questions"] else []),
        "",
        f"Answered questions only: EM {_pct(s['em_answered'])}, F1 {_pct(s['f1_answered'])}. "
        f"EM with the scale the engine states (its plan's; none without a plan), as the "
        f"official scorer takes a predicted scale: {_pct(s['em_own_scale'])}. "
        f"Answered by a plan: {s['planned']}. Numbers answered: {s['numbers']} "
        f"({s['numbers_planned']} by a plan); unbacked (not by a plan, and a number of the "
        f"answer in no cited line): {s['unbacked_numbers']}.",
        "",
        "By answer type:",
        "",
        *_table(result["by_type"], "answer type"),
        "",
        "By where the answer is:",
        "",
        *_table(result["by_source"], "answer from"),
        "",
        "| refusal reason | questions |",
        "|---|---|",
        *(f"| {r} | {k} |" for r, k in result["refusal_reasons"].items()),
        "",
        ask_timing(timing) + f"; p90 {timing['p90_ms']:.1f} ms; whole run {timing['wall_s']:.1f} s",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    # _cli.bench_main's --split defaults to all; this benchmark reports on report by default.
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="report")
    parser.add_argument("--limit", type=int, help="ask only the first N contexts of the split")
    parser.add_argument("--json", type=Path, help="also write the numbers and every question")
    parser.add_argument(
        "--data", type=Path, default=DATA, help="a TAT-QA JSON file (corpora/tatqa/ has a slice)"
    )
    args = parser.parse_args(argv)
    result = run(args.limit, args.split, args.data)
    printed = report(result)
    print(printed)
    record(
        __file__,
        split=args.split,
        printed=printed,
        keep=(0,),
        baselines=("refuse everything", "best line", "best cell"),
        notes=("Answered questions only", "Ingest"),
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
