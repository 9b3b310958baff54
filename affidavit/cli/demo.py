"""The demo `make demo` runs: the bundled corpus ingested into a file store, sample
questions answered and refused, another system's text audited, a conversation asked,
and last the same questions as a batch with the audit report a reviewer would open."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from affidavit import SUPPORTED_SUFFIXES, Memory
from affidavit.cli.batch_commands import audit_report
from affidavit.cli.render import file_progress, render, render_verdict
from affidavit.errors import AffidavitError

DEMO_QUESTIONS = (
    "Who conquered England in 1066?",
    "Where did the Black Death originate?",
    "Which card is on DHAW20190001?",
    "What is the price of a hot meal?",
    "Which regulation requires a harness for work at height?",
    "Who must sign a hot work permit?",
    "What is the percentage change in Other in 2019 from 2018?",
    "Who was the first president of the Galactic Senate?",
)


DEMO_DIALOGUE = (
    "When did Maya adopt a puppy?",
    "How many days ago did Maya adopt the puppy?",
    "Who started learning Spanish?",
)
DEMO_ASKED_AT = "2023-06-10"

# Three sentences an outside system might write: one the documents support, one with a
# changed number, one that wraps evidence words around an invented claim.
DEMO_AUDIT = (
    "The Black Death is thought to have originated in the arid plains of Central Asia. "
    "It reached Crimea by 1344. "
    "A hot work permit must be signed by the site manager and the fire brigade."
)


def _demo_corpus(explicit: Path | None) -> Path:
    if explicit is not None:
        return explicit
    for candidate in (
        Path.cwd() / "corpora" / "demo",
        Path(__file__).resolve().parents[2] / "corpora" / "demo",
    ):
        if candidate.is_dir():
            return candidate
    raise AffidavitError(
        "no demo corpus found (run from the affidavit checkout, or pass --corpus FOLDER)"
    )


def run_demo(args: argparse.Namespace) -> int:
    """`affidavit demo`: ingest, answer, audit, a conversation, then a batch and its report."""
    corpus = _demo_corpus(args.corpus)
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "demo.sqlite"
    with Memory(store) as memory:
        # The bundled corpus links to the project's other corpora: named one by one, the
        # links are followed (a folder's links out of it are skipped, with a warning).
        files = sorted(p for p in corpus.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
        names = memory.ingest(files or [corpus], progress=file_progress(False))
        stats = memory.stats()
        print(
            f"Ingested {len(names)} documents from {corpus}: {stats['lines']} lines "
            f"({stats['rows']} table rows).\n"
        )
        for question in DEMO_QUESTIONS:
            print(render(memory.ask(question), name_document=len(names) > 1))
            print()
        print(f"Audit of another system's answer:\n  {DEMO_AUDIT!r}\n")
        print(render_verdict(memory.verify(DEMO_AUDIT)))
        _demo_dialogue(memory, corpus.parent / "dialogue" / "maya-and-leo.jsonl")
        _demo_batch(memory, args.out)
    return 0


def _demo_batch(memory: Memory, out: Path) -> None:
    """The demo's questions as a batch, and the audit report a reviewer would read."""
    questions = out / "questions.jsonl"
    asked = [{"id": f"doc-{n}", "question": q} for n, q in enumerate(DEMO_QUESTIONS, 1)]
    asked += [
        {"id": f"chat-{n}", "question": q, "asked_at": DEMO_ASKED_AT}
        for n, q in enumerate(DEMO_DIALOGUE, 1)
    ]
    questions.write_text("".join(json.dumps(q) + "\n" for q in asked), encoding="utf-8")
    answers = out / "answers.jsonl"
    answers.unlink(missing_ok=True)  # a demo answers afresh rather than resuming
    rows = memory.batch(questions, workers=1, out=answers, progress=False)
    counts = rows.counts()
    summary = audit_report(answers, memory.path or "", out / "report.html")
    print(
        f"\nBatch: {len(rows)} questions answered into {answers} ({counts['answered']} "
        f"answers, {counts['refused']} refusals).\nAudit report: {summary.out.resolve()}"
    )


def _demo_dialogue(memory: Memory, chat: Path) -> None:
    """A conversation: when a turn says it happened, how long ago, and who did it."""
    if not chat.is_file():
        return
    sessions = memory.ingest_dialogue(chat, name="chat")
    print(f"\nA conversation, {len(sessions)} sessions ({chat}), asked on {DEMO_ASKED_AT}:\n")
    for question in DEMO_DIALOGUE:
        print(render(memory.ask(question, asked_at=DEMO_ASKED_AT)))
        print()
