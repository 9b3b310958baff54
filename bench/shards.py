"""Shards: a sharded store against one store, on the same documents and questions.

``equality``: the question sets of tests/regressions/recorded_answers.json (the project's
own corpora: 11 documents of every format, a dialogue, five SQuAD articles, 240 XQuAD
paragraphs as texts; 566 questions and 31 texts to verify), each loaded into one store
and into a sharded store of 2 and of 4 shards, in the same run. Counted: the answers
equal in text, value, refusal, reason and citations (the equivalence the issue asks for),
the census too, and the verdicts equal; with ask p50 of each. Beside them, the trivial
merge (``first_shard``): each shard file asked alone, the first shard's reply that is not a
refusal (or supported verdict) taken, else shard 0's. ``--cluster local`` runs
the shards as Ray actors (the answers are the same by construction; the timings differ).

``big``: the same corpus at ``--megabytes`` (1,000 for the issue's 1 GB) ingested into
``--shards`` shards (8) on a local Ray cluster; then search and ask p50 over the 100
questions, and each shard actor's peak RSS (VmHWM of the ``ray::_Holder`` processes).

``scale``: the corpus of bench/scale.py (real text from ../shared/corpora, repeated with
renamed copies up to ``--megabytes``) ingested as a folder into one store in this process,
and into 2 shards on a local Ray cluster of 2 workers; then search and ask p50 over 300
SQuAD dev questions on one store and on 4 shards (Ray, then the same shards opened in this
process), and the answers' equality.

    .venv/bin/python bench/shards.py equality [--shards 2 4] [--cluster local] [--json PATH]
    .venv/bin/python bench/shards.py scale [--megabytes 100] [--json PATH]
    .venv/bin/python bench/shards.py big --megabytes 1000 --shards 8 [--keep DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import measures_table, record  # noqa: E402
from same_answers import answer_record, load_store, verdict_record  # noqa: E402

from affidavit import Memory  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "tests" / "regressions" / "recorded_answers.json"
ANSWER_FIELDS = ("text", "value", "refused", "reason", "citations")


def answers_of(memory: Memory, spec: dict) -> dict[str, tuple[dict, float]]:
    """Each item's record (bench/same_answers.py's) and its seconds."""
    load_store(memory, spec["load"], ROOT)
    found = {}
    for item in spec["items"]:
        asked = answer_record if "ask" in item else verdict_record
        start = time.perf_counter()
        record, _ = asked(item, memory)
        found[item["id"]] = (record, time.perf_counter() - start)
    return found


def equality(shard_counts: list[int], cluster: str | None) -> dict[str, Any]:
    specs = json.loads(RECORDED.read_text(encoding="utf-8"))["stores"]
    result: dict[str, Any] = {"cluster": cluster, "stores": [s["id"] for s in specs]}
    with tempfile.TemporaryDirectory(prefix="affidavit-shards-") as folder:
        one: dict[str, tuple[dict, float]] = {}
        for spec in specs:
            with Memory() as memory:
                one.update({f"{spec['id']}/{k}": v for k, v in answers_of(memory, spec).items()})
        result["one store"] = _timing(one)
        for count in shard_counts:
            sharded: dict[str, tuple[dict, float]] = {}
            naive: dict[str, tuple[dict, float]] = {}
            for spec in specs:
                path = Path(folder) / f"{spec['id']}-{count}"
                with Memory(path, shards=count, cluster=cluster) as memory:
                    found = answers_of(memory, spec)
                sharded.update({f"{spec['id']}/{k}": v for k, v in found.items()})
                naive.update({f"{spec['id']}/{k}": v for k, v in first_shard(path, spec).items()})
            result[f"{count} shards"] = {**_timing(sharded), **_compared(one, sharded)}
            baseline = _compared(one, naive)
            result[f"{count} shards, first shard's reply"] = {
                key: baseline[key] for key in ("answers equal", "of those, equal", "verdicts equal")
            }
            print(count, "shards:", json.dumps(result[f"{count} shards"]), flush=True)
    return result


def first_shard(folder: Path, spec: dict) -> dict[str, tuple[dict, float]]:
    """The trivial merge, the baseline of the merge rule: each shard (its own store file)
    asked alone, and the first shard's answer that is not a refusal (the first supported
    verdict) taken, else shard 0's."""
    shards = [Memory(path, read_only=True) for path in sorted(folder.glob("shard-*.sqlite"))]
    try:
        found = {}
        for item in spec["items"]:
            if "ask" in item:
                records = [answer_record(item, memory)[0] for memory in shards]
                kept = [r for r in records if not r["refused"]]
            else:
                records = [verdict_record(item, memory)[0] for memory in shards]
                kept = [r for r in records if r["supported"]]
            found[item["id"]] = ((kept or records)[0], 0.0)
        return found
    finally:
        for memory in shards:
            memory.close()


def _compared(one: dict, other: dict) -> dict[str, Any]:
    asks = [key for key, (record, _) in one.items() if "refused" in record]
    verifies = [key for key in one if key not in asks]

    def same(key: str, fields: tuple[str, ...]) -> bool:
        return all(one[key][0][f] == other[key][0][f] for f in fields)

    equal = [key for key in asks if same(key, ANSWER_FIELDS)]
    answered = [key for key in asks if not one[key][0]["refused"]]
    return {
        "questions": len(asks),
        "answers equal": len(equal),
        "with census too": sum(same(key, (*ANSWER_FIELDS, "census")) for key in asks),
        "answered by one store": len(answered),
        "of those, equal": sum(key in equal for key in answered),
        "refused by one store, equal": sum(key in equal for key in asks if key not in answered),
        "verdicts": len(verifies),
        "verdicts equal": sum(same(key, ("supported", "sentences")) for key in verifies),
        "equal by set": {
            store: f"{sum(k in equal for k in asks if k.startswith(store + '/'))} of "
            f"{sum(k.startswith(store + '/') for k in asks)}"
            for store in sorted({key.split("/", 1)[0] for key in asks})
        },
        "differing": [key for key in asks if key not in equal],
    }


def _timing(found: dict[str, tuple[dict, float]]) -> dict[str, float]:
    asks = [seconds for record, seconds in found.values() if "refused" in record]
    return {"ask p50 ms": round(statistics.median(asks) * 1000, 1)}


def scale(megabytes: float) -> dict[str, Any]:
    from scale import build_corpus, questions  # the corpus and questions of bench/scale.py

    asked = questions(300)  # the equality is on 300 questions
    result: dict[str, Any] = {"megabytes": megabytes}
    with tempfile.TemporaryDirectory(prefix="affidavit-shards-") as folder:
        corpus = Path(folder) / "corpus"
        corpus.mkdir()
        files, size = build_corpus(corpus, megabytes)
        result["files"], result["bytes"] = files, size
        one_path = Path(folder) / "one.sqlite"
        with Memory(one_path) as memory:
            before = os.times()
            result["one store ingest s"] = _seconds(lambda: memory.ingest(corpus))
            after = os.times()
        # The cores one store's ingest kept busy: what 2 shards on this machine could gain.
        busy = sum(after[:4]) - sum(before[:4])
        result["one store ingest cores busy"] = round(busy / result["one store ingest s"], 2)
        two = Path(folder) / "two"
        with Memory(two, shards=2, cluster="local") as memory:
            result["2 shards on Ray ingest s"] = _seconds(lambda: memory.ingest(corpus))
        result["ingest speed-up"] = round(
            result["one store ingest s"] / result["2 shards on Ray ingest s"], 2
        )
        print(json.dumps(result), flush=True)
        four = Path(folder) / "four"
        with Memory(four, shards=4, cluster="local") as memory:
            result["4 shards on Ray ingest s"] = _seconds(lambda: memory.ingest(corpus))
        with Memory(one_path) as memory:
            one = _asked(memory, asked)
        with Memory(four, cluster="local") as memory:
            sharded = _asked(memory, asked)
        with Memory(four) as memory:  # the same shards opened in this process, no Ray
            here = _asked(memory, asked)
        for what in ("search", "ask"):
            result[f"one store {what} p50 ms"] = one[what]
            result[f"4 shards {what} p50 ms"] = sharded[what]
            result[f"{what} ratio"] = round(sharded[what] / one[what], 2)
            result[f"4 shards in this process {what} p50 ms"] = here[what]
            result[f"in this process {what} ratio"] = round(here[what] / one[what], 2)
        result["answers equal"] = sum(
            a == b for a, b in zip(one["answers"], sharded["answers"], strict=True)
        )
        result["answers equal in this process"] = sum(
            a == b for a, b in zip(one["answers"], here["answers"], strict=True)
        )
        result["questions"] = len(asked)
    return result


def big(megabytes: float, shards: int, kept: Path | None) -> dict[str, Any]:
    """The ``big`` run; with ``kept``, the store is built there once and reopened after."""
    from scale import build_corpus, questions

    asked = questions()
    result: dict[str, Any] = {"megabytes": megabytes, "shards": shards}
    with tempfile.TemporaryDirectory(prefix="affidavit-shards-") as folder:
        store = kept or Path(folder) / "store"
        opened = {} if store.exists() else {"shards": shards}
        with Memory(store, cluster="local", **opened) as memory:
            if opened:
                corpus = Path(folder) / "corpus"
                corpus.mkdir()
                result["files"], result["bytes"] = build_corpus(corpus, megabytes)
                result["ingest s"] = _seconds(lambda: memory.ingest(corpus))
                result["peak RSS per shard after ingest MB"] = _holder_peaks()
                print(json.dumps(result), flush=True)
            start = time.perf_counter()
            memory.search(asked[0])
            result["first search s"] = round(time.perf_counter() - start, 2)
            timed = _asked(memory, asked)
            result["search p50 ms"], result["ask p50 ms"] = timed["search"], timed["ask"]
            result["answered"] = sum(not refused for _, refused, _, _ in timed["answers"])
            result["peak RSS per shard MB"] = _holder_peaks()
        result["store bytes"] = sum(f.stat().st_size for f in store.iterdir())
    return result


def _holder_peaks() -> list[int]:
    """The peak RSS (MB) of every shard actor's process on this machine."""
    peaks = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
            command = (status.parent / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if "_Holder" in command or "ray::_Holder" in text:
            for line in text.splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) // 1024)
    return sorted(peaks)


def _seconds(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return round(time.perf_counter() - start, 1)


def _asked(memory: Memory, asked: list[str]) -> dict[str, Any]:
    memory.search(asked[0])  # the first call warms what a reopened store reads
    memory.ask(asked[0])
    searches, asks, answers = [], [], []
    for question in asked:
        start = time.perf_counter()
        memory.search(question)
        searches.append(time.perf_counter() - start)
        start = time.perf_counter()
        answer = memory.ask(question)
        asks.append(time.perf_counter() - start)
        cited = [(c.document, c.position) for c in answer.citations]
        answers.append((answer.text, answer.refused, answer.reason, cited))
    return {
        "search": round(statistics.median(searches) * 1000, 2),
        "ask": round(statistics.median(asks) * 1000, 1),
        "answers": answers,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("mode", choices=("equality", "scale", "big"))
    parser.add_argument("--shards", type=int, nargs="+", default=None)
    parser.add_argument("--cluster")
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", type=Path, help="big: build the store here, or reopen it")
    args = parser.parse_args()
    if args.mode == "equality":
        result = equality(args.shards or [2, 4], args.cluster)
    elif args.mode == "big":
        result = big(args.megabytes, (args.shards or [8])[0], args.keep)
    else:
        result = scale(args.megabytes)
    print(json.dumps(result, indent=2))
    title = f"`{args.mode}`: a sharded store beside one store (the baseline) on the same input"
    table = measures_table(title, result, baselines=("one store",))
    record(__file__, split="none", tables=[table])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
