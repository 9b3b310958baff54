"""The exit gate as a hallucination detector on HaluEval QA dev: right answers kept, made-up not.

Every row gets a fresh in-memory store holding only its ``knowledge``; the right and the
hallucinated answer are each audited with ``Memory.verify(answer, question=question)``.
A right answer should come back supported, a hallucinated one should not.

Beside the gate, on the same rows: **verbatim** (supported iff the answer, less a final
period, is written in the knowledge, case folded) and **all words** (supported iff every
content word of the answer is somewhere in the knowledge). HaluEval's right answers are
mostly spans copied from the knowledge, so verbatim is a hard baseline; the **hard
subset** is the rows whose right answer is not written verbatim in the knowledge.

Split: rows at even places are **tune**, odd places **report** (``--split``). Some of the
gate's thresholds were chosen on the tune half (``BARE_CARRIED`` on its first 400 rows,
``EVIDENCE_COMPANY`` by bench/gate_thresholds.py); the report half was never tuned on.
Asked whole, both halves are printed beside the whole.

    .venv/bin/python bench/gate_halueval.py [--split tune|report|all] [--limit N] [--json PATH]
"""

from __future__ import annotations

import json
import platform
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from _cli import bench_main

from affidavit import Memory
from affidavit.results import Verdict
from affidavit.text.tokens import content_words

HALUEVAL = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "halueval" / "halueval_qa.jsonl"
)
# HaluEval (Li et al., 2023), Table 5: ChatGPT's accuracy at telling whether a QA answer is
# hallucinated. Not like for like: ChatGPT judged closed-book (question and answer only, one
# of the two answers per row at random) over all 10,000 rows; we judge open-book against
# the row's knowledge, both answers of every dev row.
CHATGPT_ACCURACY = 0.626
# A number as written in digits; "1,200" and "1200" are the same number.
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Row:
    knowledge: str
    question: str
    right: str
    hallucinated: str


@dataclass(frozen=True)
class Outcome:
    right_supported: bool
    hallucinated_supported: bool
    right_reason: str | None  # "status:reason" of the first sentence not supported
    hallucinated_reason: str | None
    new_digit: bool  # the hallucinated answer writes a number the knowledge and question do not
    ms: float  # fresh store + ingest + both audits
    right_verbatim: bool = False  # the verbatim baseline's verdicts
    hallucinated_verbatim: bool = False
    right_words: bool = False  # the all-words baseline's verdicts
    hallucinated_words: bool = False


def load_rows(path: Path = HALUEVAL) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            rows.append(
                Row(r["knowledge"], r["question"], r["right_answer"], r["hallucinated_answer"])
            )
    return rows


def numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def introduces_digit(row: Row) -> bool:
    """Whether the hallucinated answer writes a number that neither knowledge nor question does."""
    return bool(numbers(row.hallucinated) - numbers(row.knowledge + " " + row.question))


def rejection(verdict: Verdict) -> str | None:
    """Why a verdict is not supported, as "status:reason" of its first failing sentence."""
    if verdict.supported:
        return None
    failing = [s for s in verdict.sentences if not s.supported]
    if not failing:
        return "no sentence"
    return f"{failing[0].status}:{failing[0].reason}"


def audit_row(number: int, row: Row) -> Outcome:
    start = time.perf_counter()
    memory = Memory()
    try:
        memory.ingest_text(row.knowledge, name=f"row{number}")
        right = memory.verify(row.right, question=row.question)
        hallucinated = memory.verify(row.hallucinated, question=row.question)
    finally:
        memory.close()
    ms = (time.perf_counter() - start) * 1000
    return Outcome(
        right.supported,
        hallucinated.supported,
        rejection(right),
        rejection(hallucinated),
        introduces_digit(row),
        ms,
        verbatim(row.right, row.knowledge),
        verbatim(row.hallucinated, row.knowledge),
        all_words(row.right, row.knowledge),
        all_words(row.hallucinated, row.knowledge),
    )


def verbatim(answer: str, knowledge: str) -> bool:
    said = answer.strip().rstrip(".").strip().casefold()
    return bool(said) and said in knowledge.casefold()


def all_words(answer: str, knowledge: str) -> bool:
    wanted = set(content_words(answer))
    return bool(wanted) and wanted <= set(content_words(knowledge))


# -- measuring --


def rates(outcomes: Sequence[Outcome], judge: str = "gate") -> dict[str, float | int]:
    """Acceptance, rejection and balanced accuracy of one judge: the gate or a baseline."""
    n = len(outcomes)
    if n == 0:
        return {"rows": 0, "accept_right": 0.0, "reject_hallucinated": 0.0, "balanced": 0.0}
    fields = {
        "gate": ("right_supported", "hallucinated_supported"),
        "verbatim": ("right_verbatim", "hallucinated_verbatim"),
        "words": ("right_words", "hallucinated_words"),
    }[judge]
    accept = sum(getattr(o, fields[0]) for o in outcomes) / n
    reject = sum(not getattr(o, fields[1]) for o in outcomes) / n
    return {
        "rows": n,
        "accept_right": accept,
        "reject_hallucinated": reject,
        "balanced": (accept + reject) / 2,
    }


def run(limit: int | None, split: str = "all") -> dict:
    rows = load_rows()
    if split != "all":
        rows = rows[0 if split == "tune" else 1 :: 2]
    if limit is not None:
        rows = rows[:limit]
    if rows:
        audit_row(-1, rows[0])  # load the language models before the clock starts
    outcomes = [audit_row(n, row) for n, row in enumerate(rows)]
    ms = [o.ms for o in outcomes]
    p50, p95 = np.percentile(ms, [50, 95])
    # Asked whole, the rows at even places are the tune half and the odd ones the report half.
    halves = {"tune": rates(outcomes[0::2]), "report": rates(outcomes[1::2])}
    return {
        "corpus": {"file": HALUEVAL.name, "rows": len(rows), "split": split},
        "all": rates(outcomes),
        **(halves if split == "all" else {}),
        "new_digit": rates([o for o in outcomes if o.new_digit]),
        "no_new_digit": rates([o for o in outcomes if not o.new_digit]),
        "verbatim": rates(outcomes, "verbatim"),
        "words": rates(outcomes, "words"),
        "hard": rates([o for o in outcomes if not o.right_verbatim]),
        "hard_verbatim": rates([o for o in outcomes if not o.right_verbatim], "verbatim"),
        "hard_words": rates([o for o in outcomes if not o.right_verbatim], "words"),
        "right_rejected": dict(
            Counter(o.right_reason for o in outcomes if not o.right_supported).most_common()
        ),
        "hallucinated_rejected": dict(
            Counter(
                o.hallucinated_reason for o in outcomes if not o.hallucinated_supported
            ).most_common()
        ),
        "timing": {
            "ms_per_row_mean": float(np.mean(ms)),
            "p50_ms": float(p50),
            "p95_ms": float(p95),
        },
        "outcomes": [asdict(o) for o in outcomes],
        "python": platform.python_version(),
    }


# -- reporting --


def report(result: dict) -> str:
    lines = [
        f"HaluEval QA dev, {result['corpus'].get('split', 'all')} split: "
        f"{result['corpus']['rows']} rows, each audited against its own knowledge "
        "(fresh store per row)",
        "",
        "| rows | n | right answers accepted | hallucinated answers rejected | balanced accuracy |",
        "|---|---|---|---|---|",
    ]
    for label, key in (
        ("all", "all"),
        ("tune half (even rows)", "tune"),
        ("report half (odd rows, never tuned on)", "report"),
        ("all: verbatim baseline", "verbatim"),
        ("all: all-words baseline", "words"),
        ("hard subset (right answer not verbatim in the knowledge)", "hard"),
        ("hard subset: verbatim baseline", "hard_verbatim"),
        ("hard subset: all-words baseline", "hard_words"),
        ("hallucination introduces a number", "new_digit"),
        ("hallucination introduces no number", "no_new_digit"),
    ):
        if key not in result:
            continue
        r = result[key]
        lines.append(
            f"| {label} | {r['rows']} | {r['accept_right']:.3f} | {r['reject_hallucinated']:.3f} "
            f"| {r['balanced']:.3f} |"
        )
    lines.append(
        f"| ChatGPT, HaluEval paper (closed-book, 10,000 rows; accuracy) | — | — | — "
        f"| {CHATGPT_ACCURACY:.3f} |"
    )
    lines += ["", "| why rejected (status:reason) | right answers | hallucinated answers |"]
    lines.append("|---|---|---|")
    right, hallucinated = result["right_rejected"], result["hallucinated_rejected"]
    reasons = sorted(set(right) | set(hallucinated), key=lambda r: (-hallucinated.get(r, 0), r))
    for reason in reasons:
        lines.append(f"| {reason} | {right.get(reason, 0)} | {hallucinated.get(reason, 0)} |")
    lines.append(f"| total | {sum(right.values())} | {sum(hallucinated.values())} |")
    t = result["timing"]
    lines += [
        "",
        f"Per row (new store, ingest, two audits): mean {t['ms_per_row_mean']:.1f} ms, "
        f"p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="audit only the first N rows",
        argv=argv,
        splits=("tune", "report"),
        baselines=("baseline", "ChatGPT"),
        notes=("Per row",),
    )


if __name__ == "__main__":
    main()
