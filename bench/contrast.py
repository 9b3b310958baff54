"""Contrast sets for the verify gate (issue 12): does it tell a sentence from its near misses?

Sentences are drawn from SQuAD 2.0 dev articles (6-40 words, seeded). From each, spaCy's
parse builds items (bench/_contrast_make.py): three controls that keep the sentence's
meaning and should come back supported, the sentence itself, its main clause alone, and
the same statement in the other voice; and five perturbations that change one fact and
should be rejected, subject and object swapped, the main verb negated, a named entity or
a number replaced by another from the same article, a nationality the article never
names added to the subject. A kind that cannot be built cleanly is skipped.

Each article goes into a fresh in-memory store as one document (paragraphs separated by
blank lines, as in the other SQuAD benchmarks) and every item made from it is audited
with ``Memory.verify(text)``, no question. Beside the gate, on the same items: the
verbatim baseline (supported iff the item, less its final full stop, is written in the
article) and the all-words baseline (supported iff every content word of the item occurs
in the article). Balanced accuracy is the mean of the controls' acceptance and the
perturbations' rejection, each pooled over its kinds.

Articles at even places in alphabetical order are the tune split, the others the report
split (refusal_squad2.split_of).

    .venv/bin/python bench/contrast.py [--split tune|report] [--limit N] [--seed S]
        [--show K] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _contrast_make import (  # noqa: E402
    CONTROLS,
    KINDS,
    Item,
    article_facts,
    eligible,
    items_for,
)
from _record import record  # noqa: E402
from _squad import load_squad  # noqa: E402
from digit_perturbation import outcome  # noqa: E402
from refusal_squad2 import SPLITS, split_of  # noqa: E402

from affidavit import Memory  # noqa: E402
from affidavit.text.sentences import split_sentences  # noqa: E402
from affidavit.text.tokens import content_words  # noqa: E402

SYSTEMS = ("affidavit", "verbatim", "all_words")
SYSTEM_NAMES = {"affidavit": "affidavit", "verbatim": "verbatim", "all_words": "all words"}
WARM_UP = "The warm-up sentence names nothing in this article."


def sentences_of(text: str) -> list[str]:
    """The article's sentences in order, split as ingest splits them."""
    return [s for group in split_sentences(text.split("\n\n")) for s in group]


def sample(
    articles: dict[str, str], split: str, limit: int | None, seed: int
) -> tuple[list[tuple[str, int, str]], int]:
    """(article, place, sentence) for ``limit`` eligible sentences of the split, seeded;
    also how many were eligible."""
    titles = sorted(articles)
    pool = [
        (title, position, sentence)
        for title in titles
        if split_of(title, titles) == split
        for position, sentence in enumerate(sentences_of(articles[title]))
        if eligible(sentence)
    ]
    drawn = list(pool)  # already in (article, place) order: the shuffle is reproducible
    random.Random(seed).shuffle(drawn)
    return sorted(drawn[:limit] if limit is not None else drawn), len(pool)


def verbatim(text: str, article: str) -> bool:
    return text.strip().removesuffix(".") in article


def audit_article(title: str, text: str, items: Sequence[Item]) -> tuple[list[dict], dict]:
    """Every item of one article verified against a store holding only that article."""
    article_words = set(content_words(text))
    start = time.perf_counter()
    memory = Memory()
    try:
        memory.ingest_text(text, name=title)
        ingested = time.perf_counter()
        memory.verify(WARM_UP)  # build the index (and load models) off the clock
        warmed = time.perf_counter()
        audited = []
        for item in items:
            began = time.perf_counter()
            verdict = memory.verify(item.text)
            ms = (time.perf_counter() - began) * 1000
            audited.append(
                {
                    **asdict(item),
                    "affidavit": verdict.supported,
                    "verbatim": verbatim(item.text, text),
                    "all_words": set(content_words(item.text)) <= article_words,
                    "outcome": outcome(verdict),
                    "evidence": [e.dateline() for s in verdict.sentences for e in s.evidence][:3],
                    "ms": ms,
                }
            )
    finally:
        memory.close()
    return audited, {"ingest_s": ingested - start, "warm_up_s": warmed - ingested}


def right(record: dict, system: str) -> bool:
    """A control accepted or a perturbation rejected."""
    return record[system] == record["control"]


def scores(records: Sequence[dict]) -> dict:
    by_kind = {}
    for kind in KINDS:
        chosen = [r for r in records if r["kind"] == kind]
        by_kind[kind] = {
            "n": len(chosen),
            **{s: sum(right(r, s) for r in chosen) for s in SYSTEMS},
            "outcomes": dict(Counter(r["outcome"] for r in chosen).most_common()),
        }
    pooled = {}
    for name, control in (("controls", True), ("perturbations", False)):
        chosen = [r for r in records if r["control"] == control]
        pooled[name] = {
            "n": len(chosen),
            **{s: sum(right(r, s) for r in chosen) for s in SYSTEMS},
        }
    balanced = {
        s: (
            pooled["controls"][s] / max(pooled["controls"]["n"], 1)
            + pooled["perturbations"][s] / max(pooled["perturbations"]["n"], 1)
        )
        / 2
        for s in SYSTEMS
    }
    return {"by_kind": by_kind, "pooled": pooled, "balanced": balanced}


def command(split: str, limit: int | None, seed: int) -> str:
    parts = [".venv/bin/python bench/contrast.py", f"--split {split}"]
    if limit is not None:
        parts.append(f"--limit {limit}")
    return " ".join([*parts, f"--seed {seed}"])


def run(split: str, limit: int | None, seed: int) -> dict:
    began = time.perf_counter()
    articles, _ = load_squad()
    drawn, eligible_count = sample(articles, split, limit, seed)
    by_article: dict[str, list[tuple[int, str]]] = {}
    for title, position, sentence in drawn:
        by_article.setdefault(title, []).append((position, sentence))
    records: list[dict] = []
    make_s = ingest_s = warm_up_s = 0.0
    for title, chosen in by_article.items():
        text = articles[title]
        start = time.perf_counter()
        facts = article_facts(text.split("\n\n"))
        items = [
            item
            for position, sentence in chosen
            for item in items_for(title, position, sentence, facts, seed)
        ]
        make_s += time.perf_counter() - start
        audited, timing = audit_article(title, text, items)
        records += audited
        ingest_s += timing["ingest_s"]
        warm_up_s += timing["warm_up_s"]
    ms = [r["ms"] for r in records]
    p50, p95 = np.percentile(ms, [50, 95]) if ms else (0.0, 0.0)
    return {
        "command": command(split, limit, seed),
        "corpus": {
            "split": split,
            "articles": len(by_article),
            "eligible_sentences": eligible_count,
            "sentences": len(drawn),
            "seed": seed,
            "built": {k: sum(r["kind"] == k for r in records) for k in KINDS},
        },
        **scores(records),
        "timing": {
            "verifies": len(ms),
            "p50_ms": float(p50),
            "p95_ms": float(p95),
            "mean_ms": float(np.mean(ms)) if ms else 0.0,
            "make_s": make_s,
            "ingest_s": ingest_s,
            "warm_up_s": warm_up_s,
            "total_s": time.perf_counter() - began,
        },
        "items": records,
        "python": platform.python_version(),
    }


# -- reporting --


def rate(hits: int, n: int) -> str:
    return f"{hits / n:.3f} ({hits}/{n})" if n else "—"


def report(result: dict, show: int = 0) -> str:
    corpus, by_kind, pooled = result["corpus"], result["by_kind"], result["pooled"]
    lines = [
        f"Contrast sets, SQuAD 2.0 dev, **{corpus['split']}** split: {corpus['sentences']} "
        f"sentences drawn (seed {corpus['seed']}) of {corpus['eligible_sentences']} eligible "
        f"in {corpus['articles']} articles; each article alone in a fresh store, each item "
        "audited with `Memory.verify(text)`",
        "",
        f"`{result['command']}`",
        "",
        "| kind | n | affidavit | verbatim | all words |",
        "|---|---|---|---|---|",
    ]
    for kind in KINDS:
        k = by_kind[kind]
        goal = "accepted" if kind in CONTROLS else "rejected"
        cells = " | ".join(rate(k[s], k["n"]) for s in SYSTEMS)
        lines.append(f"| {kind} ({goal}) | {k['n']} | {cells} |")
    for name, goal in (("controls", "accepted"), ("perturbations", "rejected")):
        p = pooled[name]
        cells = " | ".join(rate(p[s], p["n"]) for s in SYSTEMS)
        lines.append(f"| **all {name}** ({goal}) | {p['n']} | {cells} |")
    balanced = " | ".join(f"**{result['balanced'][s]:.3f}**" for s in SYSTEMS)
    lines.append(f"| **balanced accuracy** | | {balanced} |")
    built = ", ".join(f"{k} {n}" for k, n in corpus["built"].items())
    lines += ["", f"Items built from {corpus['sentences']} sentences: {built}."]
    lines += _outcome_table(by_kind)
    t = result["timing"]
    lines += [
        "",
        f"verify: p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, mean {t['mean_ms']:.1f} ms "
        f"per claim ({t['verifies']} claims). Making the items {t['make_s']:.1f} s, ingest "
        f"{t['ingest_s']:.1f} s, first verify per store (index, models) {t['warm_up_s']:.1f} s, "
        f"run {t['total_s']:.1f} s.",
    ]
    if show:
        lines += _examples(result["items"], show, corpus["seed"])
    return "\n".join(lines)


def _outcome_table(by_kind: dict) -> list[str]:
    """How the gate answered, per kind: supported, or the failing gate's status:reason."""
    outcomes = sorted(
        {o for k in by_kind.values() for o in k["outcomes"]},
        key=lambda o: (o != "supported", -sum(k["outcomes"].get(o, 0) for k in by_kind.values())),
    )
    lines = ["", "| affidavit's answer | " + " | ".join(KINDS) + " |"]
    lines.append("|---|" + "---|" * len(KINDS))
    for o in outcomes:
        counts = " | ".join(str(by_kind[k]["outcomes"].get(o, 0)) for k in KINDS)
        lines.append(f"| {o} | {counts} |")
    return lines


def _examples(records: Sequence[dict], show: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = ["", f"{show} items per kind, drawn with seed {seed}:"]
    for kind in KINDS:
        chosen = [r for r in records if r["kind"] == kind]
        picked = rng.sample(chosen, min(show, len(chosen)))
        lines += ["", f"**{kind}** ({'control' if kind in CONTROLS else 'perturbation'})"]
        for r in picked:
            verdict = "supported" if r["affidavit"] else f"rejected, {r['outcome']}"
            lines += [
                f"- [{r['article']} #{r['position']}] {r['edit']} -> {verdict}",
                f"  item: {r['text']}",
                f"  from: {r['source']}",
            ]
            if r["affidavit"] and r["evidence"]:
                lines.append(f"  cited: {r['evidence'][0]}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, default="report")
    parser.add_argument("--limit", type=int, help="draw only N sentences (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw and edits (0)")
    parser.add_argument("--show", type=int, default=0, help="print K items of each kind")
    parser.add_argument("--json", type=Path, help="also write every item and verdict here")
    args = parser.parse_args(argv)
    result = run(args.split, args.limit, args.seed)
    printed = report(result, args.show)
    print(printed)
    record(__file__, split=args.split, printed=printed, keep=(0,), notes=("verify:",))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
