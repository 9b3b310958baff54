"""The gate's thresholds, chosen on tuning splits and reported on splits they never saw.

Each setting of the gate is swept alone, the others held where they are, and scored on
three **tune** splits: the contrast set's tune articles (``contrast.py --split tune``,
the first ``--contrast N`` sentences), HaluEval QA's even rows (``gate_halueval.py
--split tune``) and SQuAD 2.0's tune articles (``refusal_squad2.py --split tune``, the
first ``--squad N`` questions: ``ask`` answers through the same gate). The score of a
value is the mean of the contrast set's balanced accuracy, HaluEval's balanced accuracy
and SQuAD 2.0's F1 (an unanswerable question right iff refused). A value may be kept only
if the requirements open issues set still hold on the tune splits: document QA's
unanswerable questions refused >= 90% (``doc_qa.py``'s tune split, issue 10's target), and
SQuAD 2.0's F1 no lower than with the value in the code (issue 11: "the existing SQuAD
figures do not get worse"). Of the values that keep both, the best score is kept, ties
going to the value in the code. Then every setting is put at its kept value and the three
**report** splits are run once, beside the values in the code. ``--decide PATH`` applies
the rule again to the figures a run wrote with ``--json``, running nothing.

Both constraints were added after seeing sweeps without them. The first kept MIN_CARRIED
0.6 and SUPPORT_REACH 2, which on the tune splits refused 80% of document QA's
unanswerable questions (92% before) and 39% of SQuAD's (65% before). The second run kept
SUPPORT_REACH 2 (SQuAD 2.0 F1 0.378 -> 0.376 on its 500 questions); on all 3,886 tune
questions that was 0.463 -> 0.447, a regression issue 11 forbids, bought for HaluEval
0.670 -> 0.714: a verify that accepts more right answers, paid for by an ask that answers
more of what the documents cannot.

A setting is a module constant; the sweep sets it in every ``affidavit`` module that holds
it (some import it by value), so what runs is the library's own code.

    .venv/bin/python bench/gate_thresholds.py [--contrast N] [--squad N] [--json PATH]
    .venv/bin/python bench/gate_thresholds.py --decide bench/gate_thresholds.json

``bench/gate_thresholds.json`` holds the figures of the run at commit c140fdc (the rule's
second run; its constraint on SQuAD was applied to them afterwards with ``--decide``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contrast  # noqa: E402
import doc_qa  # noqa: E402
import gate_halueval  # noqa: E402
import refusal_squad2  # noqa: E402
from _record import record  # noqa: E402

import affidavit  # noqa: E402,F401

# name -> the values tried; the value in the code is read from the library.
SETTINGS: dict[str, tuple[float, ...]] = {
    "MIN_CARRIED": (0.6, 0.7, 0.8, 0.9),  # gates/support.py: share of the question carried
    "SUPPORT_REACH": (0, 1, 2),  # gates/support.py: lines beside that may carry it
    "BARE_SUPPORT": (0.3, 0.5, 0.7),  # gates/binding.py: a short answer's question share
    "COMPANY": (2, 3, 4),  # gates/binding.py: a claim number's company, terms a side
    "EVIDENCE_COMPANY": (3, 5, 7),  # gates/binding.py: the same in the evidence line
    "CLAIM_REACH": (0, 1),  # gates/exit.py: lines a claim's words may be read across
}


def _holders(name: str) -> list[object]:
    return [
        module
        for module_name, module in sorted(sys.modules.items())
        if module_name.startswith("affidavit.") and hasattr(module, name)
    ]


def current(name: str) -> float:
    values = {getattr(module, name) for module in _holders(name)}
    if len(values) != 1:
        raise RuntimeError(f"{name} is held with different values: {values}")
    return values.pop()


@contextmanager
def setting(values: dict[str, float]) -> Iterator[None]:
    saved = {name: current(name) for name in values}
    try:
        for name, value in values.items():
            for module in _holders(name):
                setattr(module, name, value)
        yield
    finally:
        for name, value in saved.items():
            for module in _holders(name):
                setattr(module, name, value)


def measure(split: str, contrast_limit: int | None, squad_limit: int | None) -> dict:
    started = time.perf_counter()
    contrasted = contrast.run(split, contrast_limit, 0)
    halu = gate_halueval.run(None, split)
    squad = refusal_squad2.run(squad_limit, split)
    documents = doc_qa.run(None)["splits"][split]
    figures = {
        "contrast_balanced": contrasted["balanced"]["affidavit"],
        "halueval_balanced": halu["all"]["balanced"],
        "halueval_right_accepted": halu["all"]["accept_right"],
        "squad2_f1": squad["all"]["squad2_f1"],
        "squad_answered_f1": squad["all"]["f1"],
        "squad_unanswerable_refused": squad["all"]["refusal_rate"],
        "doc_qa_unanswerable_refused": documents["unanswerable_refused"],
        "doc_qa_right": documents["right"],
        "doc_qa_wrong": documents["wrong"],
    }
    figures["score"] = (
        figures["contrast_balanced"] + figures["halueval_balanced"] + figures["squad2_f1"]
    ) / 3
    figures["seconds"] = time.perf_counter() - started
    return figures


# Issue 10's target: document QA's unanswerable questions refused at least this often.
REFUSAL_TARGET = 0.90


def keeps_targets(figures: dict, in_code: dict) -> bool:
    """Issue 10's refusal target holds, and SQuAD 2.0's F1 is no worse than in the code."""
    return (
        figures["doc_qa_unanswerable_refused"] >= REFUSAL_TARGET - 1e-9
        and figures["squad2_f1"] >= in_code["squad2_f1"] - 1e-9
    )


def choose(swept: dict[str, dict[str, dict]], in_code: dict[str, float]) -> dict[str, float]:
    """Per setting, the best-scoring value that keeps the targets (ties: the code's)."""
    kept = {}
    for name, by_value in swept.items():
        base = by_value[str(in_code[name])]
        allowed = [v for v in by_value if keeps_targets(by_value[v], base)]
        best = max(
            allowed or [str(in_code[name])],
            key=lambda v: (round(by_value[v]["score"], 4), v == str(in_code[name])),
        )
        kept[name] = float(best) if "." in best else int(best)
    return kept


def _print_kept(kept: dict[str, float], in_code: dict[str, float]) -> None:
    print(
        f"\nKept (best tune score of the values that refuse >= {REFUSAL_TARGET:.0%} of document"
        " QA's unanswerable questions and keep SQuAD 2.0's F1; ties to the code's value):"
    )
    for name in in_code:
        print(f"- {name}: {kept[name]} (in the code: {in_code[name]})")


def _line(label: str, figures: dict) -> str:
    return (
        f"| {label} | {figures['contrast_balanced']:.3f} | {figures['halueval_balanced']:.3f} "
        f"| {figures['squad2_f1']:.3f} | {figures['doc_qa_unanswerable_refused']:.3f} "
        f"| **{figures['score']:.3f}** |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contrast", type=int, default=150, help="contrast sentences (150)")
    parser.add_argument("--squad", type=int, default=500, help="SQuAD questions (500)")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--decide", type=Path, help="apply the rule to a run's --json figures")
    args = parser.parse_args(argv)
    if args.decide:
        earlier = json.loads(args.decide.read_text())
        _print_kept(choose(earlier["swept"], earlier["in_code"]), earlier["in_code"])
        return
    in_code = {name: current(name) for name in SETTINGS}
    print(
        "Tune splits: contrast, HaluEval, SQuAD 2.0 F1, their mean (the score), and document"
        " QA's unanswerable questions refused (the constraint).\n"
    )
    header = (
        "| setting = value | contrast | HaluEval | SQuAD 2.0 F1 | doc QA unanswerable refused "
        "| score |\n|---|---|---|---|---|---|"
    )
    print(header)
    base = measure("tune", args.contrast, args.squad)
    print(_line("as in the code", base), flush=True)
    swept: dict[str, dict[str, dict]] = {}
    for name, values in SETTINGS.items():
        swept[name] = {str(in_code[name]): base}
        for value in values:
            if value == in_code[name]:
                continue
            with setting({name: value}):
                swept[name][str(value)] = measure("tune", args.contrast, args.squad)
            print(_line(f"{name} = {value}", swept[name][str(value)]), flush=True)
    kept = choose(swept, in_code)
    _print_kept(kept, in_code)
    print("\nReport splits:\n")
    print(header)
    reported = {"as in the code": measure("report", args.contrast, args.squad)}
    print(_line("as in the code", reported["as in the code"]))
    if kept != in_code:
        with setting(kept):
            reported["kept"] = measure("report", args.contrast, args.squad)
        print(_line("kept on tune", reported["kept"]))
    kept_lines = "".join(f"; {name} {kept[name]} (code {in_code[name]})" for name in in_code)
    printed = "\n".join(
        [
            f"Report splits, the thresholds kept on tune{kept_lines}",
            header,
            *(_line(label, figures) for label, figures in reported.items()),
        ]
    )
    record(__file__, split="report", printed=printed)
    if args.json:
        args.json.write_text(
            json.dumps(
                {"in_code": in_code, "swept": swept, "kept": kept, "report": reported}, indent=1
            )
        )


if __name__ == "__main__":
    main()
