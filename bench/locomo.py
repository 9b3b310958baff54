"""LoCoMo: long dated conversations, questions about them, scored by LoCoMo's own rules.

The data is ``../shared/corpora/locomo/locomo.json`` (snap-research/LoCoMo, CC BY-NC 4.0:
read here, never copied into the repository; see the SOURCE.md beside it): seven
conversations of 19 to 32 sessions, each with its questions in five categories (1
multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial: not answerable from the
conversation).

Each conversation goes into a fresh in-memory store as it is
(``Memory().ingest_dialogue(sample, name=sample_id)``: one document a session, one line a
turn, the session's date on each turn), timed, and its questions are asked with
``Memory.ask(question, asked_at=<the last session's day>)`` — the conversation's "now" —
timed (``ask`` only). No speaker is set: the questions name their people.

The prediction is, for an answer a plan composed, the value as the answer writes it
(``audit["plan"]["said"]``: "7 May 2023", "the week before 9 June 2023"), else the
answer's text; a refusal is the prediction "Not mentioned in the conversation.". Scoring
is LoCoMo's (``bench/_locomo_scoring.py``): per category, the mean score; the refusal rate;
and for temporal questions whose gold names a placeable date, the share answered with a
date inside the gold's days ("right date"). Hard subsets beside them (``is_hard``):
temporal questions whose gold is a day counted from a session, adversarial questions
every key word of which the conversation writes.

Beside the engine, on the same questions in the same run: refuse everything; the best line
(the text of ``search(question, k=1)[0]``, never refusing); and for the right-date share,
the best line's day (the day of the session the top line was said in). For categories 2-4,
the extractive ceiling: the token F1 of the best run of at most 25 words of the top line,
and of the best of the top five lines — what a reader that only lifts words, never refuses
and always picks the best ones could score over this retrieval. And for categories 1-4,
the engine reading its evidence alone ("on its evidence"): the same question asked of a
store holding only the turns LoCoMo names as its evidence (each with its speaker and its
session's day) — the answer with retrieval taken out, so what is left is the reading.

The paper's figures are printed beside ours for orientation only: they come from a
different setup (a language model reading the conversation, or retrieved observations).

With ``LOCOMO_DISTIL=1`` every session is distilled (``Memory.distil``) after ingest and
before the questions, so records say what superseded or ended what (timed apart from
ingest). The questions that ask of now (``of_now``: "now", "currently", "still", "latest",
"recently", "these days", "anymore", "new ..." in the question) are scored apart beside the
rest: the questions whose answer is what holds at the end of the conversation.

Split by conversation: the conversations sorted by the sha1 hex digest of their
``sample_id``, those at even places are the **tune** split, those at odd places the
**report** split.

    [LOCOMO_DISTIL=1] .venv/bin/python bench/locomo.py [--split tune|report|all] [--limit N]
        [--json PATH]
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from _locomo_scoring import (  # noqa: E402
    CATEGORIES,
    REFUSAL_SAID,
    best_span_f1,
    gold_days,
    is_relative,
    right_date,
    score,
    written_days,
)
from _record import Table, rows_table  # noqa: E402
from _squad import SHARED  # noqa: E402

from affidavit import Answer, Memory  # noqa: E402
from affidavit.ingest.dialogue import read_dialogue  # noqa: E402
from affidavit.text.analyzer import Analyzer  # noqa: E402
from affidavit.text.relative import days_named  # noqa: E402

DATA = SHARED / "locomo" / "locomo.json"
_ANALYZER = Analyzer("en")
SPLITS = ("tune", "report")
# LoCoMo paper (Maharana et al., ACL 2024), Table 2: F1 by category and overall; a language
# model answering, not this setup.
PAPER = (
    ("GPT-4-turbo, 128k context, whole conversation", 51.6, 15.7),
    ("RAG over observations, gpt-3.5-turbo", 43.3, None),
)


# The extractive ceiling reads the best run of words of the top this many lines.
CEILING_LINES = 5
DISTIL = os.environ.get("LOCOMO_DISTIL", "") not in ("", "0")
# A question that asks of now: its answer is what holds at the end of the conversation.
OF_NOW = re.compile(
    r"\b(?:now|currently|current|still|latest|these days|anymore|any more|recently|"
    r"most recent|new)\b",
    re.I,
)


def load_samples(path: Path = DATA) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


def _digest(sample: dict[str, Any]) -> str:
    return hashlib.sha1(str(sample["sample_id"]).encode("utf-8")).hexdigest()


def split_samples(samples: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    ordered = sorted(samples, key=_digest)
    return {name: ordered[i :: len(SPLITS)] for i, name in enumerate(SPLITS)}


def last_day(sample: dict[str, Any]) -> str:
    """The day of the conversation's last session, as the store reads the stamps."""
    return max(s.date for s in read_dialogue(sample, name=str(sample["sample_id"])))


def prediction(answer: Answer) -> str:
    if answer.refused:
        return REFUSAL_SAID
    for part in ("plan", "value"):  # a plan's value, or a lifted time, as said
        said = answer.audit.get(part, {}).get("said")
        if said:
            return str(said)
    return answer.text


def answered_days(answer: Answer) -> tuple[date, date] | None:
    """The days an answer names: its value when that is an ISO time (a plan's date, a
    lifted time read against its turn's day), else a date its text writes ("1993")."""
    if answer.refused:
        return None
    if isinstance(answer.value, str):
        named = days_named(answer.value)
        if named is not None:
            return named
    return written_days(prediction(answer))


@dataclass(frozen=True)
class Asked:
    sample: str
    split: str
    category: int
    question: str
    gold: str
    prediction: str
    score: float
    refused: bool
    reason: str | None
    right_date: bool | None  # None when the gold names no placeable date
    best_line: str
    best_line_score: float
    best_line_right_date: bool | None
    hard: bool  # see HARD
    ask_ms: float
    of_now: bool = False  # asks of now (OF_NOW)
    # The extractive ceiling (categories 2-4): the best run of words of the top line, and
    # of the best of the top five lines (``best_span_f1``); None for categories 1 and 5.
    ceiling_line: float | None = None
    ceiling_five: float | None = None
    # The engine's score and refusal asked of a store of the evidence turns alone
    # (categories 1-4; None for 5 and for a question naming no turn of the conversation).
    evidence_only: float | None = None
    evidence_only_refused: bool | None = None


def is_hard(category: int, question: str, gold: str, said: frozenset[str]) -> bool:
    """The hard subsets: temporal questions whose gold is a day counted from a session
    ("the Friday before 15 July 2023": the turn said "last Friday"), and adversarial
    questions every key word of which the conversation writes (``said``: its turns'
    terms), so only who did it or what was said of whom makes them unanswerable."""
    if category == 2:
        return is_relative(gold)
    if category == 5:
        return set(_ANALYZER.terms(question)) <= said
    return False


def ask_sample(sample: dict[str, Any], split: str) -> tuple[list[Asked], float]:
    memory = Memory()
    start = time.perf_counter()
    memory.ingest_dialogue(sample, name=str(sample["sample_id"]))
    ingest_s = time.perf_counter() - start
    if DISTIL:
        for document in memory.documents():
            memory.distil(document)
    now = last_day(sample)
    written = frozenset(
        term
        for session in read_dialogue(sample, name=str(sample["sample_id"]))
        for turn in session.turns
        for term in _ANALYZER.terms(f"{turn.speaker} {turn.text} {turn.caption or ''}")
    )
    turns = evidence_turns(sample)
    asked: list[Asked] = []
    for qa in sample["qa"]:
        category = int(qa["category"])
        gold = str(qa.get("answer", "")) if category != 5 else ""
        start = time.perf_counter()
        answer = memory.ask(qa["question"], asked_at=now)
        ms = (time.perf_counter() - start) * 1000
        said = prediction(answer)
        hits = memory.search(qa["question"], k=CEILING_LINES)
        best = hits[0].text if hits else ""
        wanted = gold.split(";")[0].strip() if category == 3 else gold
        ceilings = [best_span_f1(h.text, wanted) for h in hits] if category in (2, 3, 4) else []
        alone = _on_its_evidence(qa, turns, now) if category != 5 else None
        days = gold_days(gold) if category == 2 else None
        best_day = days_named(hits[0].date[:10]) if hits and hits[0].date else None
        asked.append(
            Asked(
                sample=str(sample["sample_id"]),
                split=split,
                category=category,
                question=qa["question"],
                gold=gold,
                prediction=said,
                score=score(category, said, gold),
                refused=answer.refused,
                reason=answer.reason,
                right_date=None if days is None else right_date(answered_days(answer), days),
                best_line=best,
                best_line_score=score(category, best, gold),
                best_line_right_date=None if days is None else right_date(best_day, days),
                hard=is_hard(category, qa["question"], gold, written),
                ask_ms=ms,
                of_now=category != 5 and OF_NOW.search(qa["question"]) is not None,
                ceiling_line=ceilings[0] if ceilings else None,
                ceiling_five=max(ceilings) if ceilings else None,
                evidence_only=None if alone is None else score(category, prediction(alone), gold),
                evidence_only_refused=None if alone is None else alone.refused,
            )
        )
    return asked, ingest_s


def evidence_turns(sample: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each turn of the conversation by its LoCoMo id ("D3:11"), as a JSONL turn record
    (its session, the session's ISO day, speaker, text and caption)."""
    days = {s.label: s.date for s in read_dialogue(sample, name=str(sample["sample_id"]))}
    found = {}
    for key, turns in sample["conversation"].items():
        session = key.removeprefix("session_")
        if not key.startswith("session_") or not session.isdigit():
            continue
        for turn in turns:
            record = {
                "session": session,
                "date": days[session],
                "speaker": turn["speaker"],
                "text": turn["text"],
            }
            if turn.get("blip_caption"):
                record["caption"] = turn["blip_caption"]
            found[str(turn["dia_id"])] = record
    return found


def _on_its_evidence(
    qa: dict[str, Any], turns: dict[str, dict[str, str]], now: str
) -> Answer | None:
    """The question asked of a store holding only its evidence turns (in conversation
    order), or None when it names none the conversation has."""
    named = [part.strip() for item in qa.get("evidence", []) for part in str(item).split(";")]
    wanted = sorted(
        {name for name in named if name in turns},
        key=lambda n: tuple(int(x) for x in n[1:].split(":")),
    )
    if not wanted:
        return None
    memory = Memory(dense=False)
    memory.ingest_dialogue([turns[name] for name in wanted], name="evidence")
    return memory.ask(qa["question"], asked_at=now)


def summary(asked: Sequence[Asked]) -> dict[str, Any]:
    out: dict[str, Any] = {"questions": len(asked)}
    for number, name in CATEGORIES.items():
        rows = [a for a in asked if a.category == number]
        if not rows:
            continue
        out[name] = {
            "n": len(rows),
            "score": float(np.mean([a.score for a in rows])),
            "refused": float(np.mean([a.refused for a in rows])),
            "best_line": float(np.mean([a.best_line_score for a in rows])),
        }
        lined = [a for a in rows if a.ceiling_line is not None]
        if lined:
            out[name]["ceiling_line"] = float(np.mean([a.ceiling_line for a in lined]))
            out[name]["ceiling_five"] = float(np.mean([a.ceiling_five for a in lined]))
        alone = [a for a in rows if a.evidence_only is not None]
        if alone:
            out[name]["evidence_only"] = float(np.mean([a.evidence_only for a in alone]))
            out[name]["evidence_only_refused"] = float(
                np.mean([bool(a.evidence_only_refused) for a in alone])
            )
            out[name]["evidence_only_n"] = len(alone)
    answerable = [a for a in asked if a.category != 5]
    if answerable:
        out["overall_1_4"] = {
            "score": float(np.mean([a.score for a in answerable])),
            "refused": float(np.mean([a.refused for a in answerable])),
            "best_line": float(np.mean([a.best_line_score for a in answerable])),
        }
        alone = [a for a in answerable if a.evidence_only is not None]
        if alone:
            out["overall_1_4"]["evidence_only"] = float(np.mean([a.evidence_only for a in alone]))
            out["overall_1_4"]["evidence_only_refused"] = float(
                np.mean([bool(a.evidence_only_refused) for a in alone])
            )
    for number in (2, 5):
        rows = [a for a in asked if a.category == number and a.hard]
        if rows:
            out[f"hard_{CATEGORIES[number]}"] = {
                "n": len(rows),
                "score": float(np.mean([a.score for a in rows])),
                "refused": float(np.mean([a.refused for a in rows])),
                "best_line": float(np.mean([a.best_line_score for a in rows])),
            }
    now = [a for a in asked if a.of_now]
    if now:
        out["of_now"] = {
            "n": len(now),
            "score": float(np.mean([a.score for a in now])),
            "refused": float(np.mean([a.refused for a in now])),
            "best_line": float(np.mean([a.best_line_score for a in now])),
        }
    dated = [a for a in asked if a.right_date is not None]
    if dated:
        out["temporal_right_date"] = {
            "n": len(dated),
            "engine": float(np.mean([bool(a.right_date) for a in dated])),
            "best_line_day": float(np.mean([bool(a.best_line_right_date) for a in dated])),
        }
    return out


def run(limit: int | None, split: str = "all") -> dict[str, Any]:
    parts = split_samples(load_samples())
    chosen = [(name, s) for name in SPLITS if split in (name, "all") for s in parts[name]]
    asked: list[Asked] = []
    ingests: list[float] = []
    for name, sample in tqdm(chosen, desc="conversations", unit="conv"):
        if limit is not None:
            sample = {**sample, "qa": sample["qa"][:limit]}
        rows, ingest_s = ask_sample(sample, name)
        asked.extend(rows)
        ingests.append(ingest_s)
    times = [a.ask_ms for a in asked]
    return {
        "split": split,
        "distilled": DISTIL,
        "samples": {name: [str(s["sample_id"]) for s in parts[name]] for name in SPLITS},
        "by_split": {
            name: summary([a for a in asked if a.split == name])
            for name in SPLITS
            if any(a.split == name for a in asked)
        },
        "timing": {
            "ingest_s_max": max(ingests) if ingests else 0.0,
            "ingest_s_mean": float(np.mean(ingests)) if ingests else 0.0,
            "p50_ms": float(np.percentile(times, 50)) if times else 0.0,
            "p95_ms": float(np.percentile(times, 95)) if times else 0.0,
        },
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "questions": [asdict(a) for a in asked],
    }


def report(result: dict[str, Any]) -> str:
    distilled = ", every session distilled" if result.get("distilled") else ""
    lines = [f"LoCoMo ({result['machine']}), split {result['split']}{distilled}"]
    for name, part in result["by_split"].items():
        lines.append(
            f"\n{name}: {', '.join(result['samples'][name])}; {part['questions']} questions"
        )
        lines.append(
            f"{'category':<14}{'n':>5}{'engine':>9}{'refused':>9}{'best line':>11}"
            f"{'ceiling 1':>11}{'ceiling 5':>11}{'on its evidence (refused)':>27}"
        )
        rows = (*CATEGORIES.values(), "overall_1_4", "hard_temporal", "hard_adversarial", "of_now")
        for category in rows:
            row = part.get(category)
            if row is None:
                continue
            ceilings = "".join(
                f"{row[key]:>11.3f}" for key in ("ceiling_line", "ceiling_five") if key in row
            )
            if "evidence_only" in row:
                blank = "" if "ceiling_line" in row else " " * 22
                ceilings += (
                    f"{blank}{row['evidence_only']:>19.3f} ({row['evidence_only_refused']:.3f})"
                )
            lines.append(
                f"{category:<14}{row.get('n', ''):>5}{row['score']:>9.3f}"
                f"{row['refused']:>9.3f}{row['best_line']:>11.3f}{ceilings}"
            )
        dated = part.get("temporal_right_date")
        if dated:
            lines.append(
                f"temporal right date, {name} ({dated['n']} with a placeable gold date): engine "
                f"{dated['engine']:.3f}, best line's day {dated['best_line_day']:.3f}"
            )
        lines.append("refuse everything: adversarial 1.000, every answerable category 0.000")
        lines.append(
            "ceiling 1 / 5: the best run of at most 25 words of the top line / of the best "
            f"of the top {CEILING_LINES} lines, never refusing (an extractive reader's bound); "
            "on its evidence: the engine asked of a store of the question's evidence turns alone"
        )
    timing = result["timing"]
    lines.append(
        f"\nIngest per conversation: max {timing['ingest_s_max']:.2f} s, mean "
        f"{timing['ingest_s_mean']:.2f} s; ask p50 {timing['p50_ms']:.1f} ms, "
        f"p95 {timing['p95_ms']:.1f} ms"
    )
    lines.append("LoCoMo paper, Table 2 (a language model answering; not this setup):")
    for name, overall, adversarial in PAPER:
        extra = f", adversarial {adversarial}" if adversarial is not None else ""
        lines.append(f"  {name}: overall F1 {overall}{extra}")
    return "\n".join(lines)


def _as_printed(value: Any) -> Any:
    """A score to three places, as the report prints it."""
    return f"{value:.3f}" if isinstance(value, float) else value


def page_tables(result: dict[str, Any]) -> list[Table]:
    """Per split, the F1 of each category (the report's columns) for RESULTS.md."""
    columns = {"n": "n", "score": "engine", "refused": "refused", "best_line": "best line"}
    columns |= {"ceiling_line": "ceiling 1", "ceiling_five": "ceiling 5"}
    columns |= {"evidence_only": "on its evidence"}
    return [
        rows_table(
            f"{name}: {', '.join(result['samples'][name])}; {part['questions']} questions; "
            "F1 by category (refuse everything: adversarial 1.000, the others 0.000)",
            {
                category: {
                    shown: _as_printed(part[category].get(key)) for key, shown in columns.items()
                }
                for category in (
                    *CATEGORIES.values(),
                    "overall_1_4",
                    "hard_temporal",
                    "hard_adversarial",
                )
                if category in part
            },
            label="category",
        )
        for name, part in result["by_split"].items()
    ]


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="ask only the first N questions of each conversation",
        argv=argv,
        splits=SPLITS,
        keep=(),
        tables=page_tables,
        notes=("Ingest per conversation", "temporal right date"),
    )


if __name__ == "__main__":
    main()
