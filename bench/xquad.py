"""Answer XQuAD in English, Spanish and Turkish, each language over its own documents.

XQuAD's dev part (34 articles, 170 paragraphs, 824 questions in each language, every one
answerable) goes into one store per language, each article one document, and every
question is asked of the whole store. A refusal scores 0; an answer scores SQuAD's F1 and
exact match against the best gold answer. Beside the engine, in the same run: refuse
everything (0 by construction) and answer with the best line (the top line of
``search``).

Split by article as bench/refusal_squad2.py: even places in alphabetical order are
**tune**, odd places **report**; its hard subset too (the report split's description
questions), per language.

    .venv/bin/python bench/xquad.py [--split tune|report|all] [--limit N] [--json PATH]

XQUAD_LANGUAGES=en,es in the environment asks only those languages. XQUAD_OVER=en asks
every language's questions over the English articles (the cross-language reading of
issue 41: the same paragraphs, so the languages compare question for question).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cli import bench_main  # noqa: E402
from refusal_squad2 import HARD, SPLITS, exact, f1, split_of  # noqa: E402

from affidavit import Memory  # noqa: E402

XQUAD = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "xquad_en_es_tr"
LANGUAGES = ("en", "es", "tr")


@dataclass(frozen=True)
class Asked:
    language: str
    split: str
    question: str
    answer_type: str
    refused: bool
    reason: str | None
    text: str
    f1: float
    em: float
    best_line_f1: float
    ms: float
    # The reader's probability for its best candidate and that candidate's F1, whether
    # said or refused below the threshold (None where the reader did not judge).
    probability: float | None
    judged_f1: float | None


def load(language: str) -> tuple[dict[str, str], list[tuple[str, str, tuple[str, ...]]]]:
    """(article title -> text with paragraphs split by blank lines, (title, question, golds))."""
    data = json.loads((XQUAD / f"xquad.{language}.json").read_text(encoding="utf-8"))["data"]
    articles, questions = {}, []
    for article in data:
        title = article["title"]
        articles[title] = "\n\n".join(p["context"] for p in article["paragraphs"])
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                golds = tuple(a["text"] for a in qa["answers"])
                questions.append((title, qa["question"], golds))
    return articles, questions


def run_language(
    language: str, limit: int | None, split: str, over: str | None = None
) -> tuple[list[Asked], float]:
    articles, questions = load(language)
    if over is not None and over != language:
        # The same articles in the store's language: titles and question order align, and
        # the answer is a span of the store's lines, so it is scored against their golds.
        articles, theirs = load(over)
        questions = [
            (t, q, golds) for (t, q, _), (_, _, golds) in zip(questions, theirs, strict=True)
        ]
    titles = sorted(articles)
    if split != "all":
        questions = [q for q in questions if split_of(q[0], titles) == split]
    questions = questions[:limit] if limit is not None else questions
    memory = Memory()
    start = time.perf_counter()
    for title, text in articles.items():
        memory.ingest_text(text, name=title)
    ingest_s = time.perf_counter() - start
    memory.ask("warm-up")
    asked = []
    for title, question, golds in questions:
        begin = time.perf_counter()
        answer = memory.ask(question)
        ms = (time.perf_counter() - begin) * 1000
        top = memory.search(question, k=1)
        best_line = top[0].text if top else ""
        said = "" if answer.refused else answer.text
        judged = answer.audit.get("answerability")
        asked.append(
            Asked(
                language,
                split_of(title, titles),
                question,
                str(answer.audit.get("shape", {}).get("answer_type", "none")),
                answer.refused,
                answer.reason,
                said,
                max(f1(g, said) for g in golds) if said else 0.0,
                max(exact(g, said) for g in golds) if said else 0.0,
                max(f1(g, best_line) for g in golds),
                ms,
                judged["probability"] if judged else None,
                max(f1(g, judged["text"]) for g in golds) if judged else None,
            )
        )
    memory.close()
    return asked, ingest_s


def scores(asked: Sequence[Asked]) -> dict[str, float | int]:
    answered = [a for a in asked if not a.refused]

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    return {
        "questions": len(asked),
        "answered_rate": len(answered) / len(asked) if asked else 0.0,
        "f1": mean([a.f1 for a in asked]),
        "em": mean([a.em for a in asked]),
        "f1_answered": mean([a.f1 for a in answered]),
        "best_line_f1": mean([a.best_line_f1 for a in asked]),
    }


def run(
    limit: int | None,
    split: str = "all",
    languages: Sequence[str] = LANGUAGES,
    over: str | None = None,
) -> dict:
    results: dict = {
        "split": split,
        "over": over,
        "languages": {},
        "python": platform.python_version(),
    }
    for language in languages:
        asked, ingest_s = run_language(language, limit, split, over)
        ms = [a.ms for a in asked]
        results["languages"][language] = {
            "splits": {
                name: scores([a for a in asked if a.split == name])
                for name in SPLITS
                if any(a.split == name for a in asked)
            },
            "all": scores(asked),
            # The hard subset as bench/refusal_squad2.py's: the report split's questions
            # read as asking for a description.
            "hard_report": scores(
                [a for a in asked if a.split == "report" and a.answer_type == HARD]
            ),
            "reasons": dict(Counter(a.reason for a in asked if a.refused).most_common()),
            "ingest_s": ingest_s,
            "p50_ms": float(np.percentile(ms, 50)) if ms else 0.0,
            "asked": [asdict(a) for a in asked],
        }
    return results


def report(result: dict) -> str:
    over = result.get("over")
    where = f"the {over} articles" if over else "its own 34 articles"
    lines = [
        f"XQuAD dev, each language over {where} ({result['split']})",
        "",
        "| language, split | questions | answered | F1 | EM | F1 answered | best line F1 "
        "| refuse all F1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for language, found in result["languages"].items():
        groups = [*found["splits"].items(), ("all", found["all"])]
        if found["hard_report"]["questions"]:
            groups.append((f"report, hard subset ({HARD} questions)", found["hard_report"]))
        for name, s in groups:
            lines.append(
                f"| {language}, {name} | {s['questions']} | {s['answered_rate']:.3f} "
                f"| {s['f1']:.3f} | {s['em']:.3f} | {s['f1_answered']:.3f} "
                f"| {s['best_line_f1']:.3f} | 0.000 |"
            )
    lines.append("")
    for language, found in result["languages"].items():
        reasons = ", ".join(f"{r} {n}" for r, n in found["reasons"].items())
        lines.append(
            f"{language}: ingest {found['ingest_s']:.2f} s, ask p50 {found['p50_ms']:.1f} ms; "
            f"refusals: {reasons or 'none'}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    languages = os.environ.get("XQUAD_LANGUAGES", ",".join(LANGUAGES)).split(",")
    over = os.environ.get("XQUAD_OVER") or None
    bench_main(
        __doc__ or "",
        lambda limit, split: run(limit, split, languages, over),
        report,
        limit_help="ask only the first N questions of each language",
        argv=argv,
        splits=SPLITS,
        notes=tuple(f"{language}: ingest" for language in languages),
    )


if __name__ == "__main__":
    main()
