"""Answer or refuse on SQuAD 2.0 dev (default engine): F1 on answerable, refusals on the rest.

All 24 articles go into one store, each as one document, and every question is asked.
Answerable questions score SQuAD's F1 and exact match (official normalisation, best over
the gold answers, a refusal scores 0); unanswerable ones score whether they were refused.
The two pull against each other, so they are reported side by side, with SQuAD 2.0's
overall F1 (an unanswerable question is right iff refused).

Two halves, by article: the articles at even places in alphabetical order are the
**tune** split (thresholds are chosen on it), those at odd places the **report** split
(never tuned on). Beside the engine, in the same run: refuse everything, and answer with
the best line (the top line of ``search``, never refusing). Hard subset, beside them: the
report split's questions read as asking for a description (``Question``'s answer type,
question/shape.py), whose answer is a phrase inside a line.

    .venv/bin/python bench/refusal_squad2.py [--split tune|report|all] [--limit N] [--json PATH]
"""

from __future__ import annotations

import platform
import re
import string
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import ask_timing, bench_main  # noqa: E402
from _squad import Question, load_squad  # noqa: E402

from affidavit import Memory  # noqa: E402

SPLITS = ("tune", "report")
# The hard subset: questions read as asking for a description (what/which/how), whose
# answer is a phrase inside the line rather than a date, number or name.
HARD = "description"


def split_of(article: str, titles: Sequence[str]) -> str:
    """tune for the articles at even places in alphabetical order, report for the others."""
    return SPLITS[sorted(titles).index(article) % 2]


@dataclass(frozen=True)
class Asked:
    question: str
    split: str
    impossible: bool
    answer_type: str
    refused: bool
    reason: str | None
    text: str  # the answer said, "" when refused
    f1: float  # 0 for unanswerable questions
    em: float
    ms: float
    best_line_f1: float  # the best-line baseline on the same question


# -- SQuAD's official scoring (evaluate-v2.0.py) --

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)


def normalize(text: str) -> str:
    """Lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact(gold: str, said: str) -> float:
    return float(normalize(gold) == normalize(said))


def f1(gold: str, said: str) -> float:
    gold_tokens, said_tokens = normalize(gold).split(), normalize(said).split()
    if not gold_tokens or not said_tokens:
        return float(gold_tokens == said_tokens)
    same = sum((Counter(gold_tokens) & Counter(said_tokens)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(said_tokens), same / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


# -- measuring --


def ask(memory: Memory, question: Question, split: str) -> Asked:
    start = time.perf_counter()
    answer = memory.ask(question.text)
    ms = (time.perf_counter() - start) * 1000
    top = memory.search(question.text, k=1)
    best_line = top[0].text if top else ""
    best_line_f1 = 0.0 if question.impossible else max(f1(g, best_line) for g in question.answers)
    said = "" if answer.refused else answer.text
    answer_type = str(answer.audit.get("shape", {}).get("answer_type", "none"))
    if question.impossible or answer.refused:
        best_f1 = best_em = 0.0
    else:
        best_f1 = max(f1(g, said) for g in question.answers)
        best_em = max(exact(g, said) for g in question.answers)
    return Asked(
        question.text,
        split,
        question.impossible,
        answer_type,
        answer.refused,
        answer.reason,
        said,
        best_f1,
        best_em,
        ms,
        best_line_f1,
    )


def scores(asked: Sequence[Asked]) -> dict[str, float | int]:
    """The trade-off for one group of questions: answerable scores beside unanswerable refusals."""
    answerable = [a for a in asked if not a.impossible]
    answered = [a for a in answerable if not a.refused]
    unanswerable = [a for a in asked if a.impossible]

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    # SQuAD 2.0's overall F1: a refusal of an unanswerable question scores 1, an answer 0.
    overall = [a.f1 for a in answerable] + [float(a.refused) for a in unanswerable]
    return {
        "answerable": len(answerable),
        "answered_rate": len(answered) / len(answerable) if answerable else 0.0,
        "f1": mean([a.f1 for a in answerable]),
        "em": mean([a.em for a in answerable]),
        "f1_answered": mean([a.f1 for a in answered]),
        "em_answered": mean([a.em for a in answered]),
        "unanswerable": len(unanswerable),
        "refusal_rate": mean([float(a.refused) for a in unanswerable]),
        "squad2_f1": mean(overall),
        # The baselines on the same questions: refuse everything, answer with the best line.
        "refuse_all_f1": len(unanswerable) / len(asked) if asked else 0.0,
        "best_line_f1": mean([a.best_line_f1 for a in answerable]),
        "best_line_squad2_f1": mean(
            [a.best_line_f1 for a in answerable] + [0.0] * len(unanswerable)
        ),
    }


def run(limit: int | None, split: str = "all") -> dict:
    articles, questions = load_squad()
    titles = sorted(articles)
    if split != "all":
        questions = [q for q in questions if split_of(q.article, titles) == split]
    if limit is not None:
        questions = questions[:limit]
    memory = Memory()
    start = time.perf_counter()
    for title, text in articles.items():
        memory.ingest_text(text, name=title)
    ingest_s = time.perf_counter() - start
    memory.ask("warm-up: when was the index built?")  # build the index off the clock
    asked = [ask(memory, q, split_of(q.article, titles)) for q in questions]
    stats = memory.stats()
    memory.close()
    ms = [a.ms for a in asked]
    p50, p95 = np.percentile(ms, [50, 95])
    types = sorted(
        {a.answer_type for a in asked}, key=lambda t: -sum(a.answer_type == t for a in asked)
    )
    return {
        "corpus": {
            "articles": stats["documents"],
            "lines": stats["lines"],
            "questions": len(asked),
        },
        "engine": "default",
        "split": split,
        "all": scores(asked),
        "splits": {
            name: scores([a for a in asked if a.split == name])
            for name in SPLITS
            if any(a.split == name for a in asked)
        },
        "by_type": {t: scores([a for a in asked if a.answer_type == t]) for t in types},
        "by_type_report": {
            t: scores([a for a in asked if a.answer_type == t and a.split == "report"])
            for t in types
            if any(a.answer_type == t and a.split == "report" for a in asked)
        },
        "refusal_reasons": {
            "answerable": dict(
                Counter(a.reason for a in asked if a.refused and not a.impossible).most_common()
            ),
            "unanswerable": dict(
                Counter(a.reason for a in asked if a.refused and a.impossible).most_common()
            ),
        },
        "timing": {
            "ingest_s": ingest_s,
            "ms_per_question_mean": float(np.mean(ms)),
            "p50_ms": float(p50),
            "p95_ms": float(p95),
        },
        "asked": [asdict(a) for a in asked],
        "python": platform.python_version(),
    }


# -- reporting --


def row(label: str, s: dict) -> str:
    return (
        f"| {label} | {s['answerable']} | {s['answered_rate']:.3f} | {s['f1']:.3f} | {s['em']:.3f} "
        f"| {s['f1_answered']:.3f} | {s['em_answered']:.3f} | {s['unanswerable']} "
        f"| {s['refusal_rate']:.3f} | {s['squad2_f1']:.3f} |"
    )


def baseline_rows(name: str, s: dict) -> list[str]:
    """A group's engine row, then the two baselines on the same questions."""
    return [
        row(f"**{name}**: engine", s),
        f"| {name}: refuse everything | {s['answerable']} | 0.000 | 0.000 | 0.000 | — | — "
        f"| {s['unanswerable']} | 1.000 | {s['refuse_all_f1']:.3f} |",
        f"| {name}: best line | {s['answerable']} | 1.000 | {s['best_line_f1']:.3f} | — "
        f"| {s['best_line_f1']:.3f} | — | {s['unanswerable']} | 0.000 "
        f"| {s['best_line_squad2_f1']:.3f} |",
    ]


def report(result: dict) -> str:
    corpus = result["corpus"]
    header = [
        "| questions | answerable | answered | F1 | EM | F1 answered | EM answered "
        "| unanswerable | refused | SQuAD 2.0 F1 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines = [
        f"SQuAD 2.0 dev: {corpus['articles']} articles in one store ({corpus['lines']} lines), "
        f"{corpus['questions']} questions ({result['split']}), {result['engine']} engine",
        "",
        *header,
    ]
    groups = [*result["splits"].items(), ("all", result["all"])]
    # The hard subset beside the headline: the report split's description questions.
    if HARD in result["by_type_report"]:
        groups.append((f"report, hard subset ({HARD} questions)", result["by_type_report"][HARD]))
    for name, s in groups:
        lines += baseline_rows(name, s)
    lines += ["", "By the question's shape, all questions:", "", *header]
    lines += [row(f"type: {t}", s) for t, s in result["by_type"].items()]
    if result["by_type_report"]:
        lines += ["", "By the question's shape, report split only:", "", *header]
        lines += [row(f"type: {t}", s) for t, s in result["by_type_report"].items()]
    reasons = result["refusal_reasons"]
    answerable, unanswerable = reasons["answerable"], reasons["unanswerable"]
    all_reasons = sorted(
        set(answerable) | set(unanswerable),
        key=lambda r: -(answerable.get(r, 0) + unanswerable.get(r, 0)),
    )
    lines += [
        "",
        "| refusal reason | answerable (wrongly refused) | unanswerable (rightly refused) |",
        "|---|---|---|",
    ]
    for r in all_reasons:
        lines.append(f"| {r} | {answerable.get(r, 0)} | {unanswerable.get(r, 0)} |")
    lines.append(f"| total | {sum(answerable.values())} | {sum(unanswerable.values())} |")
    lines += ["", ask_timing(result["timing"])]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(
        __doc__ or "",
        run,
        report,
        limit_help="ask only the first N questions (all articles)",
        argv=argv,
        splits=SPLITS,
        baselines=("refuse everything", "best line"),
        notes=("Ingest",),
    )


if __name__ == "__main__":
    main()
