"""The probe set (issue 64): does ``Memory.verify`` support what a document says and reject
what it does not, class by class?

Each probe (bench/probes/probes-*.jsonl) is a sentence taken verbatim from a real public
document (bench/probes/documents/<doc-id>.txt), with a faithful paraphrase the document
entails and a false one it does not; the false one is marked ``contradicted`` (the document
says the opposite) or ``not_found`` (it is merely not said). Each document goes into an
in-memory store of its own (``Memory().ingest(path)``) and every faithful and false claim
is audited with ``verify(claim)``, no question. A verdict whose sentences are all
``supported`` is supported; one with a ``contradicted`` sentence is contradicted; anything
else is not found (the status values are read as strings, so a new status needs no change
here).

Reported per split (tune / report, by document, from every bench/probes/split*.json) and
per class: faithful supported (share of faithful claims supported), false rejected (share
of false claims not supported), false said contradicted (share of the false claims marked
``contradicted`` that are judged contradicted), and counts. Beside the gate, in the same
run: verbatim (supported iff the claim, less its final full stop, is written in the
document), refuse everything, and the best-line lexical baseline (bench/_lexical.py) whose
threshold is chosen on the tune split (balanced: the mean of faithful supported and false
rejected) and applied to both.

    .venv/bin/python bench/probes.py [--check] [--out bench/probes/last-run.json] [--workers N]

``--check`` only checks the probes (every source verbatim in its document after whitespace
normalisation, known classes, unique ids, every document split once) and exits 1 listing
the problems. The full run checks first too, and stops on a problem.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _lexical import best_line, best_threshold, judged, sentences
from _record import record

HERE = Path(__file__).resolve().parent / "probes"
DOCUMENTS = HERE / "documents"
CLASSES = (
    "roles", "negation", "modality", "quantifier", "condition", "exception", "time",
    "anchors", "numbers", "synonyms", "hypernyms", "lists", "defined_terms", "comparatives",
)  # fmt: skip
EXPECTS = ("contradicted", "not_found")
FIELDS = ("id", "document", "class", "source", "faithful", "false", "false_expect", "note")
SPLITS = ("tune", "report")
SYSTEMS = ("affidavit", "verbatim", "refuse", "lexical")


def normalised(text: str) -> str:
    return " ".join(text.split())


# -- reading and checking ------------------------------------------------------------------


def read_probes(folder: Path = HERE) -> tuple[list[dict[str, Any]], list[str]]:
    """Every probe of every probes-*.jsonl (files and lines in order), and the lines that
    are not a JSON object."""
    probes, problems = [], []
    for path in sorted(folder.glob("probes-*.jsonl")):
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            try:
                probe = json.loads(raw)
            except json.JSONDecodeError as error:
                problems.append(f"{path.name}:{number}: not JSON ({error.msg})")
                continue
            if not isinstance(probe, dict):
                problems.append(f"{path.name}:{number}: not a JSON object")
                continue
            probes.append({**probe, "_at": f"{path.name}:{number}"})
    return probes, problems


def read_splits(folder: Path = HERE) -> tuple[dict[str, str], list[str]]:
    """document -> split, merged from every split*.json, and the documents named twice."""
    split_of: dict[str, str] = {}
    problems = []
    for path in sorted(folder.glob("split*.json")):
        sides = json.loads(path.read_text(encoding="utf-8"))
        for side in SPLITS:
            for document in sides.get(side, []):
                if document in split_of:
                    problems.append(f"{path.name}: {document} is split twice")
                split_of[document] = side
        for side in set(sides) - set(SPLITS):
            problems.append(f"{path.name}: unknown split {side!r}")
    return split_of, problems


def check(
    probes: Sequence[dict[str, Any]], split_of: dict[str, str], documents: Path = DOCUMENTS
) -> list[str]:
    """What is wrong with the probes: fields, classes, ids, sources not verbatim, splits."""
    problems = []
    texts: dict[str, str | None] = {}
    seen: set[str] = set()
    for probe in probes:
        at = f"{probe['_at']} ({probe.get('id', '?')})"
        missing = [f for f in FIELDS if not isinstance(probe.get(f), str) or not probe[f].strip()]
        if missing:
            problems.append(f"{at}: missing or empty {', '.join(missing)}")
            continue
        if probe["id"] in seen:
            problems.append(f"{at}: id used twice")
        seen.add(probe["id"])
        if not probe["id"].startswith(probe["document"] + ":"):
            problems.append(f"{at}: id does not start with its document {probe['document']}:")
        if probe["class"] not in CLASSES:
            problems.append(f"{at}: unknown class {probe['class']!r}")
        if probe["false_expect"] not in EXPECTS:
            problems.append(f"{at}: false_expect must be one of {EXPECTS}")
        claims = {normalised(probe[f]) for f in ("source", "faithful", "false")}
        if len(claims) < 3:
            problems.append(f"{at}: source, faithful and false are not three different sentences")
        document = probe["document"]
        if document not in texts:
            path = documents / f"{document}.txt"
            texts[document] = normalised(path.read_text("utf-8")) if path.is_file() else None
            if texts[document] is None:
                problems.append(f"{at}: no document file {path}")
            if document not in split_of:
                problems.append(f"{at}: document {document} is in no split*.json")
        text = texts[document]
        if text is not None and normalised(probe["source"]) not in text:
            problems.append(f"{at}: source is not verbatim in {document}.txt")
    for document in sorted(set(split_of) - set(texts)):
        if not (documents / f"{document}.txt").is_file():
            problems.append(f"split*.json: {document} has no document file")
    return problems


# -- judging -------------------------------------------------------------------------------


def verdict_status(verdict: Any) -> str:
    """supported, contradicted or not_found, read from the verdict's sentence statuses as
    strings: a contradicted sentence makes the claim contradicted, all supported supported."""
    statuses = [str(getattr(s.status, "value", s.status)) for s in verdict.sentences]
    if "contradicted" in statuses:
        return "contradicted"
    if statuses and all(status == "supported" for status in statuses):
        return "supported"
    return "not_found"


def judge_document(job: tuple[str, list[tuple[str, str]]]) -> dict[str, Any]:
    """One document's store and the gate's verdict on each (key, claim), with timings."""
    from affidavit import Memory

    document, claims = job
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        memory = Memory()
        memory.ingest(DOCUMENTS / f"{document}.txt")
    ingest_s = time.perf_counter() - started
    verdicts = {}
    for key, claim in claims:
        began = time.perf_counter()
        verdict = memory.verify(claim)
        verdicts[key] = {
            "status": verdict_status(verdict),
            "sentences": [
                [str(getattr(s.status, "value", s.status)), s.reason] for s in verdict.sentences
            ],
            "ms": (time.perf_counter() - began) * 1000,
        }
    memory.close()
    return {
        "document": document,
        "ingest_s": ingest_s,
        "warnings": [str(w.message) for w in heard],
        "verdicts": verdicts,
    }


def claims_of(probe: dict[str, Any]) -> list[dict[str, Any]]:
    """The two claims a probe makes: the faithful one (expect supported) and the false one."""
    common = {k: probe[k] for k in ("id", "document", "class")}
    return [
        {**common, "side": "faithful", "claim": probe["faithful"], "expect": "supported"},
        {**common, "side": "false", "claim": probe["false"], "expect": probe["false_expect"]},
    ]


def baselines(claims: list[dict[str, Any]]) -> float:
    """Fill each claim's verbatim, refuse and lexical verdicts; the lexical threshold is
    chosen on the tune split and returned."""
    lines: dict[str, list[str]] = {}
    wholes: dict[str, str] = {}
    for claim in claims:
        document = claim["document"]
        if document not in lines:
            # NOTE: the documents are wrapped text (licences at 72 columns), so the
            # baseline's "lines" are their sentences, unwrapped, as the store reads them.
            text = (DOCUMENTS / f"{document}.txt").read_text("utf-8")
            lines[document] = sentences(text)
            wholes[document] = normalised(text)
        whole = wholes[document]
        wanted = normalised(claim["claim"]).removesuffix(".")
        claim["verbatim"] = "supported" if wanted.casefold() in whole.casefold() else "not_found"
        claim["refuse"] = "not_found"
        claim["lexical_overlap"], claim["lexical_flipped"] = best_line(
            claim["claim"], lines[document]
        )
    tune = [c for c in claims if c["split"] == "tune"]

    def balanced(threshold: float) -> float:
        for claim in tune:
            claim["lexical"] = judged(claim["lexical_overlap"], claim["lexical_flipped"], threshold)
        return balanced_accuracy(tune, "lexical")

    threshold = best_threshold([c["lexical_overlap"] for c in tune], balanced)
    for claim in claims:
        claim["lexical"] = judged(claim["lexical_overlap"], claim["lexical_flipped"], threshold)
    return threshold


# -- scoring -------------------------------------------------------------------------------


def rates(claims: Iterable[dict[str, Any]], system: str) -> dict[str, Any]:
    """faithful supported, false rejected and false said contradicted, with their counts."""
    claims = list(claims)
    faithful = [c for c in claims if c["side"] == "faithful"]
    false = [c for c in claims if c["side"] == "false"]
    flipped = [c for c in false if c["expect"] == "contradicted"]

    def share(items: list[dict[str, Any]], hit: Any) -> float | None:
        return sum(1 for c in items if hit(c)) / len(items) if items else None

    return {
        "faithful_supported": share(faithful, lambda c: c[system] == "supported"),
        "false_rejected": share(false, lambda c: c[system] != "supported"),
        "false_contradicted": share(flipped, lambda c: c[system] == "contradicted"),
        "faithful": len(faithful),
        "false": len(false),
        "false_expect_contradicted": len(flipped),
    }


def balanced_accuracy(claims: list[dict[str, Any]], system: str) -> float:
    scored = rates(claims, system)
    return ((scored["faithful_supported"] or 0.0) + (scored["false_rejected"] or 0.0)) / 2


def summary(claims: list[dict[str, Any]]) -> dict[str, Any]:
    """split -> class (and "all") -> system -> rates."""
    table: dict[str, Any] = {}
    for split in SPLITS:
        in_split = [c for c in claims if c["split"] == split]
        by_class: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for claim in in_split:
            by_class[claim["class"]].append(claim)
        rows = {name: by_class[name] for name in CLASSES if by_class[name]}
        rows["all"] = in_split
        table[split] = {
            name: {system: rates(items, system) for system in SYSTEMS}
            for name, items in rows.items()
        }
    return table


# -- reporting -----------------------------------------------------------------------------


def cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def markdown(result: dict[str, Any]) -> str:
    """The overall table (split x system) and, per split, the per-class table."""
    out = [
        f"Probe set: {result['probes']} probes ({result['claims']} claims) from "
        f"{result['documents']} documents; lexical threshold {result['lexical_threshold']:.2f}"
        " (chosen on tune).",
        "",
        "| split | system | faithful supported | false rejected | false said contradicted "
        "| faithful | false | false (contradicted) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for split in SPLITS:
        for system in SYSTEMS:
            r = result["summary"][split]["all"][system]
            out.append(
                f"| {split} | {system} | {cell(r['faithful_supported'])} "
                f"| {cell(r['false_rejected'])} | {cell(r['false_contradicted'])} "
                f"| {r['faithful']} | {r['false']} | {r['false_expect_contradicted']} |"
            )
    for split in SPLITS:
        out += [
            "",
            f"{split} split, per class: faithful supported / false rejected / false said "
            "contradicted",
            "",
            "| class | probes | contradicted-expected | " + " | ".join(SYSTEMS) + " |",
            "|---|---|---|" + "---|" * len(SYSTEMS),
        ]
        for name, systems in result["summary"][split].items():
            first = systems["affidavit"]
            triples = [
                " / ".join(
                    cell(systems[s][k])
                    for k in ("faithful_supported", "false_rejected", "false_contradicted")
                )
                for s in SYSTEMS
            ]
            out.append(
                f"| {name} | {first['faithful']} | {first['false_expect_contradicted']} | "
                + " | ".join(triples)
                + " |"
            )
    timing = result["timing"]
    out += [
        "",
        f"Timings: ingest {timing['ingest_s_per_document']:.2f} s per document (median); verify "
        f"{timing['verify_ms_mean']:.0f} ms mean, {timing['verify_ms_p50']:.0f} ms p50 per "
        f"claim; {timing['wall_s']:.0f} s in all with {timing['workers']} worker(s) "
        f"({result['python']}).",
    ]
    return "\n".join(out)


def run(probes: list[dict[str, Any]], split_of: dict[str, str], workers: int) -> dict[str, Any]:
    started = time.perf_counter()
    claims = [claim for probe in probes for claim in claims_of(probe)]
    for claim in claims:
        claim["split"] = split_of[claim["document"]]
        claim["key"] = f"{claim['id']}/{claim['side']}"
    by_document: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for claim in claims:
        by_document[claim["document"]].append((claim["key"], claim["claim"]))
    jobs = sorted(by_document.items())
    # NOTE: each document is its own store, judged whole by one worker; the results are
    # gathered in document order, so the run is the same with any number of workers.
    if workers > 1:
        # NOTE: not multiprocessing.Pool, whose daemonic workers may not start the
        # readers' own processes that ingest starts.
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=spawn) as pool:
            judged_documents = list(pool.map(judge_document, jobs))
    else:
        judged_documents = [judge_document(job) for job in jobs]
    verdicts = {k: v for d in judged_documents for k, v in d["verdicts"].items()}
    for claim in claims:
        found = verdicts[claim["key"]]
        claim["affidavit"] = found["status"]
        claim["affidavit_sentences"] = found["sentences"]
        claim["ms"] = round(found["ms"], 1)
    threshold = baselines(claims)
    times = [c["ms"] for c in claims]
    return {
        "probes": len(probes),
        "claims": len(claims),
        "documents": len(jobs),
        "classes": dict(sorted(Counter(p["class"] for p in probes).items())),
        "lexical_threshold": threshold,
        "summary": summary(claims),
        "timing": {
            # NOTE: the median, as the first document of each worker also loads the models.
            "ingest_s_per_document": statistics.median(d["ingest_s"] for d in judged_documents),
            "verify_ms_mean": statistics.fmean(times),
            "verify_ms_p50": statistics.median(times),
            "wall_s": time.perf_counter() - started,
            "workers": workers,
        },
        "ingest_warnings": {d["document"]: d["warnings"] for d in judged_documents},
        "python": platform.python_version(),
        "judgements": [{k: v for k, v in c.items() if k != "key"} for c in claims],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the probes")
    parser.add_argument("--out", type=Path, default=HERE / "last-run.json")
    parser.add_argument("--workers", type=int, default=1, help="processes, one per document")
    args = parser.parse_args(argv)
    probes, problems = read_probes()
    split_of, split_problems = read_splits()
    problems += split_problems + check(probes, split_of)
    if problems:
        print(f"{len(problems)} problem(s) in the probes:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    counts = Counter(p["class"] for p in probes)
    if args.check:
        sides = Counter(split_of[p["document"]] for p in probes)
        print(
            f"{len(probes)} probes from {len({p['document'] for p in probes})} documents, "
            f"no problems; tune {sides['tune']}, report {sides['report']}; "
            + ", ".join(f"{name} {counts[name]}" for name in CLASSES)
        )
        return 0
    result = run(probes, split_of, args.workers)
    printed = markdown(result)
    print(printed)
    record(
        __file__,
        split="all",
        printed=printed,
        keep=(0,),
        baselines=("verbatim", "refuse", "lexical"),
        notes=("Timings",),
    )
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
