"""ContractNLI's development split as a bench (issue 64 item 7): does ``Memory.verify`` read
what a real NDA says about each of the 17 lawyer-labelled hypotheses?

Each of the 61 NDAs (../shared/corpora/contract_nli_dev/dev.json) is a store of its own
(``Memory().ingest_text``) and each hypothesis, read from the JSON, goes through
``verify``: supported is read as Entailment, contradicted as Contradiction, anything else
as NotMentioned (status values are read as strings, probes.verdict_status). Reported per
split: accuracy, supported precision (of the hypotheses judged supported, the share gold
Entailment), entailments supported (the share of gold Entailment judged supported) and
contradictions said (the share of gold Contradiction judged contradicted), with counts
and seconds per NDA (its ingest and its 17 verifies). Beside the gate, in the same run:
always NotMentioned and the best-sentence lexical baseline (bench/_lexical.py over the
dataset's own spans, role names folded, a negation check) whose threshold is chosen on
tune for accuracy.

Split: an NDA is **tune** when the first byte of the SHA-256 of its id (as a decimal
string) is even, else **report**: 28 NDAs tune, 33 report. No hypothesis is written here.

    .venv/bin/python bench/contract_nli.py [--limit N] [--workers N] [--json PATH] [--dev PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _lexical import best_line, best_threshold, judged
from _record import record
from probes import verdict_status

# The shared corpora sit beside the checkout (../shared), two levels up from a worktree.
DEV = next(
    (
        found
        for parent in Path(__file__).resolve().parents
        if (found := parent / "shared" / "corpora" / "contract_nli_dev" / "dev.json").is_file()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "contract_nli_dev" / "dev.json",
)
SPLITS = ("tune", "report")
SYSTEMS = ("affidavit", "not_mentioned", "lexical")
# The gate's three verdicts as ContractNLI's labels.
LABEL_OF = {"supported": "Entailment", "contradicted": "Contradiction", "not_found": "NotMentioned"}


def split_of(document_id: int | str) -> str:
    first = hashlib.sha256(str(document_id).encode("utf-8")).digest()[0]
    return "tune" if first % 2 == 0 else "report"


def judge_nda(job: tuple[dict[str, Any], list[tuple[str, str]]]) -> dict[str, Any]:
    """One NDA's store and the gate's label for each (key, hypothesis), with its seconds."""
    from affidavit import Memory

    document, hypotheses = job
    started = time.perf_counter()
    memory = Memory()
    memory.ingest_text(document["text"], name=document["file_name"])
    labels = {}
    for key, hypothesis in hypotheses:
        labels[key] = LABEL_OF[verdict_status(memory.verify(hypothesis))]
    memory.close()
    return {"labels": labels, "seconds": time.perf_counter() - started}


def rows_of(data: dict[str, Any], limit: int | None) -> list[dict[str, Any]]:
    """One row per (NDA, hypothesis): its split, gold label and the lexical best sentence."""
    hypotheses = sorted(data["labels"].items(), key=lambda item: int(item[0].split("-")[1]))
    documents = sorted(data["documents"], key=lambda d: d["id"])[:limit]
    rows = []
    for document in documents:
        text = document["text"]
        spans = [text[start:end] for start, end in document["spans"]]
        gold = document["annotation_sets"][0]["annotations"]
        for key, hypothesis in hypotheses:
            overlap, flipped = best_line(hypothesis["hypothesis"], spans, fold_roles=True)
            rows.append(
                {
                    "document": document["id"],
                    "hypothesis": key,
                    "split": split_of(document["id"]),
                    "gold": gold[key]["choice"],
                    "not_mentioned": "NotMentioned",
                    "lexical_overlap": overlap,
                    "lexical_flipped": flipped,
                }
            )
    return rows


def lexical_labels(rows: list[dict[str, Any]]) -> float:
    """Fill each row's lexical label with the threshold most accurate on tune; return it."""
    as_label = {"supported": "Entailment", "contradicted": "Contradiction"}

    def label(row: dict[str, Any], threshold: float) -> str:
        said = judged(row["lexical_overlap"], row["lexical_flipped"], threshold)
        return as_label.get(said, "NotMentioned")

    tune = [r for r in rows if r["split"] == "tune"]

    def accuracy_at(threshold: float) -> float:
        return sum(label(r, threshold) == r["gold"] for r in tune) / max(len(tune), 1)

    threshold = best_threshold([r["lexical_overlap"] for r in tune], accuracy_at)
    for row in rows:
        row["lexical"] = label(row, threshold)
    return threshold


def scores(rows: list[dict[str, Any]], system: str) -> dict[str, Any]:
    said = Counter(r[system] for r in rows)
    gold = Counter(r["gold"] for r in rows)
    supported_right = sum(1 for r in rows if r[system] == r["gold"] == "Entailment")
    contradictions_said = sum(1 for r in rows if r[system] == r["gold"] == "Contradiction")
    return {
        "pairs": len(rows),
        "accuracy": sum(r[system] == r["gold"] for r in rows) / len(rows) if rows else None,
        "supported_precision": supported_right / said["Entailment"] if said["Entailment"] else None,
        "entailments_supported": supported_right / gold["Entailment"]
        if gold["Entailment"]
        else None,
        "contradictions_said": contradictions_said / gold["Contradiction"]
        if gold["Contradiction"]
        else None,
        "said_supported": said["Entailment"],
        "said_contradicted": said["Contradiction"],
        "gold": dict(sorted(gold.items())),
    }


def run(limit: int | None, workers: int, dev: Path = DEV) -> dict[str, Any]:
    started = time.perf_counter()
    data = json.loads(dev.read_text(encoding="utf-8"))
    rows = rows_of(data, limit)
    hypotheses = [(key, label["hypothesis"]) for key, label in data["labels"].items()]
    documents = sorted(data["documents"], key=lambda d: d["id"])[:limit]
    jobs = [({"text": d["text"], "file_name": d["file_name"]}, hypotheses) for d in documents]
    # NOTE: each NDA is judged whole by one worker and gathered in NDA order, so the
    # labels are the same with any number of workers.
    if workers > 1:
        # NOTE: not multiprocessing.Pool, whose daemonic workers may not start the
        # readers' own processes that ingest starts.
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=spawn) as pool:
            judged_ndas = list(pool.map(judge_nda, jobs))
    else:
        judged_ndas = [judge_nda(job) for job in jobs]
    labels = {
        (document["id"], key): label
        for document, nda in zip(documents, judged_ndas, strict=True)
        for key, label in nda["labels"].items()
    }
    for row in rows:
        row["affidavit"] = labels[(row["document"], row["hypothesis"])]
    threshold = lexical_labels(rows)
    seconds = {
        split: [
            nda["seconds"]
            for document, nda in zip(documents, judged_ndas, strict=True)
            if split_of(document["id"]) == split
        ]
        for split in SPLITS
    }
    return {
        "ndas": {split: len(seconds[split]) for split in SPLITS},
        "nda_ids": {
            split: [d["id"] for d in documents if split_of(d["id"]) == split] for split in SPLITS
        },
        "lexical_threshold": threshold,
        "summary": {
            split: {
                system: scores([r for r in rows if r["split"] == split], system)
                for system in SYSTEMS
            }
            for split in SPLITS
        },
        "seconds_per_nda": {
            split: statistics.median(seconds[split]) if seconds[split] else None for split in SPLITS
        },
        "wall_s": time.perf_counter() - started,
        "workers": workers,
        "python": platform.python_version(),
        "rows": rows,
    }


def cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def report(result: dict[str, Any]) -> str:
    out = [
        f"ContractNLI dev: {result['ndas']['tune']} NDAs tune, {result['ndas']['report']} "
        f"report, 17 hypotheses each; lexical threshold {result['lexical_threshold']:.2f} "
        "(chosen on tune).",
        "",
        "| split | system | accuracy | supported precision | entailments supported "
        "| contradictions said | said supported | said contradicted | pairs |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for split in SPLITS:
        for system in SYSTEMS:
            s = result["summary"][split][system]
            out.append(
                f"| {split} | {system} | {cell(s['accuracy'])} "
                f"| {cell(s['supported_precision'])} | {cell(s['entailments_supported'])} "
                f"| {cell(s['contradictions_said'])} | {s['said_supported']} "
                f"| {s['said_contradicted']} | {s['pairs']} |"
            )
    gold = result["summary"]["report"]["affidavit"]["gold"]
    per_nda = result["seconds_per_nda"]
    out += [
        "",
        f"Report gold labels: {gold}.",
        *(f"{split} NDA ids: {', '.join(map(str, result['nda_ids'][split]))}." for split in SPLITS),
        f"Seconds per NDA (ingest and 17 verifies, median): tune {cell(per_nda['tune'])}, "
        f"report {cell(per_nda['report'])}; {result['wall_s']:.0f} s in all with "
        f"{result['workers']} worker(s) ({result['python']}).",
    ]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N NDAs (by id)")
    parser.add_argument("--workers", type=int, default=1, help="processes, one NDA each")
    parser.add_argument("--json", type=Path, help="also write every label to this JSON file")
    parser.add_argument("--dev", type=Path, default=DEV, help=f"the split's JSON ({DEV})")
    args = parser.parse_args(argv)
    if not args.dev.is_file():
        parser.error(f"no ContractNLI dev split at {args.dev}: pass --dev PATH/dev.json")
    result = run(args.limit, args.workers, args.dev)
    printed = report(result)
    print(printed)
    record(
        __file__,
        split="all",
        printed=printed,
        baselines=("not_mentioned", "lexical"),
        notes=("Seconds per NDA",),
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
