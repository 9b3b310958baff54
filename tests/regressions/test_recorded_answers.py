"""Answers on the project's own corpora, recorded before a refactor, asked again: none changes.

``recorded_answers.json`` is written by ``bench/same_answers.py record`` on the code before
the refactor: each store's documents (paths from the repository root), its questions and
audited texts, and what the answer or verdict was. A failure names every item that differs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from affidavit import Memory

ROOT = Path(__file__).resolve().parents[2]
RECORDED = Path(__file__).with_name("recorded_answers.json")
STORES = json.loads(RECORDED.read_text(encoding="utf-8"))["stores"]


def load(memory: Memory, steps: Sequence[dict]) -> None:
    for step in steps:
        if "files" in step:
            memory.ingest([str(ROOT / p) for p in step["files"]])
        elif "file" in step:
            memory.ingest(str(ROOT / step["file"]))
        elif "dialogue" in step:
            memory.ingest_dialogue(str(ROOT / step["dialogue"]), name=step["name"])
        elif "jsonl_texts" in step:
            for line in (ROOT / step["jsonl_texts"]).read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                memory.ingest_text(record["text"], name=record["name"])
        else:
            raise ValueError(f"unknown load step {sorted(step)}")


def answered(memory: Memory, item: dict) -> dict[str, Any]:
    """The fields compared, as bench/same_answers.py records them (citations by place)."""
    if "verify" in item:
        verdict = memory.verify(item["verify"], question=item["question"])
        sentences = [
            {
                "text": s.text,
                "status": s.status,
                "reason": s.reason,
                "evidence": [[e.document, e.position] for e in s.evidence],
            }
            for s in verdict.sentences
        ]
        return {"supported": verdict.supported, "sentences": sentences}
    answer = memory.ask(item["ask"], asked_at=item["asked_at"], speaker=item["speaker"])
    return {
        "text": answer.text,
        "value": json.loads(json.dumps(answer.value, default=str)),
        "refused": answer.refused,
        "reason": answer.reason,
        "census": answer.census,
        "citations": [[c.document, c.position] for c in answer.citations],
    }


def expected(item: dict) -> dict[str, Any]:
    want = item["expected"]
    if "verify" in item:
        return {"supported": want["supported"], "sentences": want["sentences"]}
    fields = ("text", "value", "refused", "reason", "census")
    return {
        **{f: want[f] for f in fields},
        "citations": [c[:2] for c in want["citations"]],
    }


def short(value: Any, width: int = 100) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


# The documents' set (the demo corpus, the office files and the PDFs, the 553 KB i1040nr.pdf
# among them) takes about 20 s: it runs with the slow tests (make test-slow), the rest always.
SLOW_SETS = {"documents"}


@pytest.mark.parametrize(
    "spec",
    [pytest.param(s, marks=pytest.mark.slow) if s["set"] in SLOW_SETS else s for s in STORES],
    ids=lambda spec: spec["set"],
)
def test_answers_are_the_recorded_ones(spec: dict) -> None:
    changed = []
    with Memory() as memory:
        load(memory, spec["load"])
        for item in spec["items"]:
            got, want = answered(memory, item), expected(item)
            for field in want:
                if got[field] != want[field]:
                    changed.append(
                        f"{item['id']} {field}: {short(want[field])} -> {short(got[field])}"
                    )
    ids = sorted({line.split(" ", 1)[0] for line in changed})
    assert not changed, (
        f"{len(ids)} of {len(spec['items'])} items of {spec['set']} changed: {', '.join(ids)}\n"
        + "\n".join(changed)
    )
