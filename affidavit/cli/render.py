"""What a terminal shows: an answer with the lines behind it and its plan, a verdict
sentence by sentence. Plain text, for the CLI and the demo; `--json` prints the records."""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable

from affidavit.reasons import Reason
from affidavit.results import INDEX_STAGE, Answer, Evidence, Status, Verdict
from affidavit.text import format_number


def render_verdict(verdict: Verdict) -> str:
    """One line per sentence: its status, its reason, the lines behind it."""
    contradicted = sum(s.status == Status.CONTRADICTED for s in verdict.sentences)
    lines = [
        f"{'SUPPORTED' if verdict.supported else 'NOT SUPPORTED'}: "
        f"{sum(s.supported for s in verdict.sentences)} of {len(verdict.sentences)} "
        "sentence(s) supported" + (f", {contradicted} contradicted" if contradicted else "")
    ]
    for sentence in verdict.sentences:
        quote = textwrap.shorten(sentence.text, width=120, placeholder=" …")
        why = f" ({sentence.reason}: {Reason(sentence.reason).text})" if sentence.reason else ""
        lines.append(f"  [{sentence.status}] {quote}{why}")
        failed = next((g for g in sentence.gates if not g["passed"]), None)
        if failed:
            lines.append(f"      gate {failed['gate']}: {failed['detail']}")
        # A contradicted sentence cites the line that says the opposite, named as such.
        said = "says otherwise: " if sentence.status == Status.CONTRADICTED else ""
        for hit in sentence.evidence:
            text = textwrap.shorten(hit.text, 140, placeholder=" …")
            lines.append(f"      {said}{where(hit)} {text}")
    return "\n".join(lines)


def where(hit: Evidence) -> str:
    """Where a line stands: its document and position, and how sure OCR was of it when it
    was read off a scanned page."""
    read = f" (OCR {hit.ocr_confidence:.2f})" if hit.ocr_confidence is not None else ""
    return f"[{hit.document} #{hit.position}{read}]"


def render(answer: Answer, *, name_document: bool = False) -> str:
    """A human-readable answer: what is said, the lines behind it, the census. With
    ``name_document`` (a store of several documents), an answer drawn from one document
    names it first ("In apache-2.0.txt: …")."""
    lines = [f"Q: {answer.question}"]
    if "read_in" in answer.audit:
        # Asked in Spanish or Turkish: the English it was asked as, so a reviewer sees what
        # the lines were searched and judged for.
        lines.append(f"   read as: {answer.audit['read_in']['read_as']}")
    if answer.refused:
        lines.append(f"REFUSED ({answer.reason}): {answer.text}")
        lines.extend(_refusing_checks(answer))
    else:
        said = f"“{answer.text}”" if answer.quoted else answer.text
        lines.append(f"A: {_said_where(answer, name_document)}{said}{_told_when(answer)}")
        if answer.quoted:
            # Why, as the audit says it: no span of the kind, a doubted span, or one of
            # several things the line lists.
            why = (answer.audit.get("quoted") or {}).get("why")
            lines.append(f"   (the line that answers, quoted whole{f': {why}' if why else ''})")
        lines.extend(_plan_lines(answer.audit.get("plan")))
        for hit in answer.citations:
            quote = textwrap.shorten(hit.text, width=160, placeholder=" …")
            lines.append(f"   cited {where(hit)} {quote}")
    if answer.census:
        lines.append(f"   census: {answer.census}")
    return "\n".join(lines)


def _said_where(answer: Answer, name_document: bool) -> str:
    """Among several documents a reviewer reads "which licence says so" first: "In
    apache-2.0.txt: ", for an answer drawn from one document. A told record's line is no
    document one reads "in": it is said after the answer (``_told_when``)."""
    documents = sorted({c.document for c in answer.citations})
    if not name_document or len(documents) != 1 or _TOLD.fullmatch(documents[0]):
        return ""
    return f"In {documents[0]}: "


def _told_when(answer: Answer) -> str:
    """ " (told by the operator on 2026-12-04, record 7)" for an answer whose every cited
    line is one told record's: who said it and when, in the words a reader expects."""
    documents = {c.document for c in answer.citations}
    told = _TOLD.fullmatch(next(iter(documents))) if len(documents) == 1 else None
    return f" ({told.group(1)}, record {told.group(2)})" if told else ""


# The name of a told record's one-line document (records/settle.py, told_name).
_TOLD = re.compile(r"(told by the \S+ on [\d-]+) \(record (\d+)\)")


def _refusing_checks(answer: Answer) -> list[str]:
    """The check that refused, named: its failures (the decisions of the refusal's own
    reason, each said once, at most three; a failure of another reason, on another
    candidate, did not refuse it), then the closest candidate it refused, if any."""
    closest = answer.audit.get("closest")
    shown: list[str] = []
    decisions = [*answer.audit.get("gate", [])]
    whose = answer.audit.get("whose")
    if whose is not None:
        decisions.append(whose)
    for decision in decisions:
        if decision["passed"] or decision.get("reason") != answer.reason:
            continue
        if closest and (decision["gate"], decision["detail"]) == (
            closest["check"],
            closest["detail"],
        ):
            continue  # said with the closest candidate below
        said = f"   gate {decision['gate']}: {decision['detail']}"
        if said not in shown:
            shown.append(said)
    shown = shown[:3]
    if closest:
        shown.append(
            f"   closest: “{closest['text']}” (refused: {closest['check']} — {closest['detail']})"
        )
    return shown


def _plan_lines(plan: dict | None) -> list[str]:
    """A computed answer's plan, one step a line, each with the result it gave."""
    if not plan or "trace" not in plan:
        return []
    lines = ["   plan:"]
    for step in plan["trace"]:
        args = ", ".join(f"{k}={v!r}" for k, v in step["args"].items())
        result = step["result"]
        number = result.get("number")
        shown = (
            format_number(number)
            if number is not None
            else result.get("text", f"{len(result.get('items', []))} items")
        )
        lines.append(f"     {step['step']}. {step['out']} = {step['op']}({args}) -> {shown}")
    return lines


def file_progress(quiet: bool) -> Callable[[int, int, str], None] | None:
    """A progress bar over an ingest's files on a terminal's stderr (None when quiet,
    or when stderr is not a terminal)."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    bar: dict[str, tqdm] = {}

    def report(done: int, total: int, name: str) -> None:
        if total < 2:
            return
        if "bar" not in bar:
            bar["bar"] = tqdm(total=total, unit="file", file=sys.stderr, leave=False)
        b = bar["bar"]
        b.n = done
        b.set_postfix_str(name[-40:], refresh=True)
        if done >= total:
            b.close()

    return report


def ingest_progress(quiet: bool) -> Callable[[int, int, str], None] | None:
    """An ingest's bars: one over its files, then one per index stage it brings up to
    date (told as ``"index: STAGE"``)."""
    files, stages = file_progress(quiet), index_progress(quiet)
    if files is None or stages is None:
        return None

    def report(done: int, total: int, name: str) -> None:
        if name.startswith(INDEX_STAGE):
            stages(done, total, name.removeprefix(INDEX_STAGE))
        else:
            files(done, total, name)

    return report


def index_progress(quiet: bool) -> Callable[[int, int, str], None] | None:
    """A bar per index-building stage on a terminal's stderr, with rate and ETA where a
    stage counts lines (None when quiet, or when stderr is not a terminal)."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    bars: dict[str, tqdm] = {}

    def report(done: int, total: int, stage: str) -> None:
        if stage not in bars:
            bars[stage] = tqdm(total=total, desc=stage, file=sys.stderr, leave=False)
        bar = bars[stage]
        if bar.total != total:  # a stage that counts lines says how many after its start
            bar.reset(total=total)
            bar.unit = "line"
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return report
