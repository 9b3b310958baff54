"""The floor a Ray round trip puts under a sharded store's search and ask on this machine:
the time of one call asked of N actors at once (as affidavit/archive/shard_group.py asks every
shard) when the call does nothing, beside the same through a Ray compiled graph, and the
CPU the compiled graph's actors burn while idle.

Nothing of affidavit runs here: what it measures is what any sharded reply pays before
a shard has read a word. A sharded search can be no faster than this plus its slowest
shard's own search.

    .venv/bin/python bench/ray_floor.py [--actors 1 2 4] [--calls 300] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import ray
from _record import record, rows_table

# What a shard is sent (a method, its arguments) and sends back, as small as a search's.
REQUEST = ("search", ("Who approves a purchase over 10,000 euros?",), {"k": 10})


@ray.remote
class Echo:
    def call(self, request: Any) -> Any:
        return request

    def pid(self) -> int:
        return os.getpid()


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (Linux: /proc/PID/stat, user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(calls: int, once: Any) -> float:
    """The median of ``calls`` timings of ``once()``, in ms."""
    once()
    spent = []
    for _ in range(calls):
        start = time.perf_counter()
        once()
        spent.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(spent), 3)


def measure(actors: int, calls: int) -> dict[str, Any]:
    share = 2.0 / max(actors, 2)  # the actors share this machine's 2 cores, as shards do
    held = [Echo.options(num_cpus=share).remote() for _ in range(actors)]
    ray.get([a.pid.remote() for a in held])
    plain = timed(calls, lambda: ray.get([a.call.remote(REQUEST) for a in held]))
    from ray.dag import InputNode, MultiOutputNode

    with InputNode() as given:
        graph = MultiOutputNode([a.call.bind(given) for a in held])
    compiled = graph.experimental_compile()
    try:
        fast = timed(calls, lambda: ray.get(compiled.execute(REQUEST)))
        pids = ray.get([a.pid.remote() for a in held])
        before = [cpu_seconds(pid) for pid in pids]
        time.sleep(2.0)
        idle = [round(50.0 * (cpu_seconds(p) - b), 1) for p, b in zip(pids, before, strict=True)]
    finally:
        compiled.teardown()
    for actor in held:
        ray.kill(actor)
    return {
        "actors": actors,
        "round trip p50 ms": plain,
        "compiled graph p50 ms": fast,
        "compiled graph idle CPU % per actor": idle,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        rows = [measure(n, args.calls) for n in args.actors]
    finally:
        ray.shutdown()
    for row in rows:
        print(json.dumps(row))
    title = "A Ray round trip's floor under a sharded store's search and ask"
    table = rows_table(title, {f"{row['actors']} actors": row for row in rows}, label="actors")
    record(__file__, split="none", tables=[table])
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
