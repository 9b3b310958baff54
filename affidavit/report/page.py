"""The audit report: one self-contained HTML file a compliance reviewer opens offline,
written by ``write_report``: the summary (the claims the store contradicts first, the facts
of the run, the counts a reviewer must not miss marked, refusals by reason, documents
cited, the answers where the store disagrees with itself, the options of the page's
filters), then each answer, the claims verified (claims.py) and the entity pages."""

from __future__ import annotations

import html
import json
import os
import re
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from affidavit.errors import InputError
from affidavit.report.claims import claims_section, contradicted_box
from affidavit.report.data import (
    ANSWERED,
    INPUT_ERROR,
    CheckedStore,
    ReportSummary,
    answer_terms,
    check,
    citations,
    cited_at,
    dicts,
    is_claim,
    marks,
    outcome,
    plan_cells,
    read_rows,
    reason_text,
    stored_lines,
    summarise,
    utf16,
)
from affidavit.report.pages import entity_pages
from affidavit.runtime import installed_version
from affidavit.text import format_number

# Counts a reviewer must not miss when not zero.
WARNINGS = ("claims-contradicted", "changed", "incomplete", "disagrees")


def summary_html(summary: ReportSummary, facts: Mapping[str, str]) -> str:
    """The page's head: the claims the store contradicts, the facts of the run, the
    counts, refusals by reason, documents cited, and where the store disagrees with
    itself."""
    e = html.escape
    listed = "".join(f"<div><dt>{e(k)}</dt><dd>{e(v)}</dd></div>" for k, v in facts.items())
    counts = [
        ("answered", summary.answered, "answered"),
        ("refused", summary.refused, "refused"),
        ("errors", summary.errors, _plural(summary.errors, "input error")),
    ]
    if summary.claims:  # the three verdicts, contradicted first: named only where claims are
        counts += [
            (
                "claims-contradicted",
                summary.contradicted,
                _plural(summary.contradicted, "claim") + " contradicted",
            ),
            (
                "claims-supported",
                summary.supported,
                _plural(summary.supported, "claim") + " supported",
            ),
            (
                "claims-not-supported",
                summary.not_supported,
                _plural(summary.not_supported, "claim") + " not supported",
            ),
        ]
    counts.append(
        (
            "changed",
            summary.changed_citations,
            f"{_plural(summary.changed_citations, 'citation')} not in the store as cited",
        )
    )
    if summary.disagreements:
        counts.append(
            (
                "disagrees",
                len(summary.disagreements),
                _plural(len(summary.disagreements), "answer") + " where the store disagrees",
            )
        )
    if summary.incomplete_lines:
        counts.append(
            (
                "incomplete",
                summary.incomplete_lines,
                _plural(summary.incomplete_lines, "incomplete line") + " ignored",
            )
        )
    shown = "".join(
        f'<li data-count="{key}" class="{"warn" if n and key in WARNINGS else ""}">'
        f'<b class="n">{n}</b> {_to_claims(key, e(label))}</li>'
        for key, n, label in counts
    )
    reasons = "".join(
        f'<tr><td><button type="button" class="pick" data-outcome="{e(code)}">{e(code)}'
        f"</button></td><td>{n}</td><td>{e(reason_text(code))}</td></tr>"
        for code, n in summary.by_reason.items()
    )
    documents = "".join(
        f'<tr><td><button type="button" class="pick" data-document="{e(name)}">{e(name)}'
        f"</button></td><td>{n}</td></tr>"
        for name, n in summary.documents.items()
    )
    return (
        f'{contradicted_box(summary)}<dl class="facts">{listed}</dl>'
        f'<ul class="counts">{shown}</ul><div class="tables">'
        "<table><caption>Refusals by reason</caption><thead><tr><th>Reason</th>"
        f"<th>Refusals</th><th>What it means</th></tr></thead><tbody>{reasons}</tbody></table>"
        "<table><caption>Documents cited</caption><thead><tr><th>Document</th>"
        f"<th>Answers citing it</th></tr></thead><tbody>{documents}</tbody></table></div>"
        f"{_disagreeing(summary)}"
    )


def _disagreeing(summary: ReportSummary) -> str:
    """The section a reviewer reads first where the store disagrees with itself: each
    answer said, and what the other side says, with its lines."""
    if not summary.disagreements:
        return ""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(row_id)}</td><td>{e(question)}</td><td>{e(said)}</td><td>"
        + "".join(f"<p><b>{e(text)}</b>: {e(lines)}</p>" for text, lines in sides)
        + "</td></tr>"
        for row_id, question, said, sides in summary.disagreements
    )
    return (
        '<section class="disagrees"><h2>The store disagrees</h2><table><thead><tr>'
        "<th>Id</th><th>Question</th><th>Answer said</th><th>The other side, and its lines</th>"
        f"</tr></thead><tbody>{rows}</tbody></table></section>"
    )


def _to_claims(key: str, label: str) -> str:
    """A claims count's label, linked to the section that lists the claims."""
    return f'<a href="#claims">{label}</a>' if key.startswith("claims-") else label


def _plural(n: int, thing: str) -> str:
    return thing if n == 1 else f"{thing}s"


def outcome_options(summary: ReportSummary) -> str:
    total = summary.answered + summary.refused + summary.errors
    options = {
        "": f"Every outcome ({total})",
        ANSWERED: f"Answered ({summary.answered})",
        "*refused": f"Refused, any reason ({summary.refused})",
        **{code: f"Refused: {code} ({n})" for code, n in summary.by_reason.items()},
        INPUT_ERROR: f"Input error ({summary.errors})",
    }
    return "".join(
        f'<option value="{html.escape(value)}">{html.escape(label)}</option>'
        for value, label in options.items()
    )


def options(counts: Mapping[str, int], every: str) -> str:
    first = f'<option value="">{html.escape(every)}</option>'
    return first + "".join(
        f'<option value="{html.escape(name)}">{html.escape(name)} ({n})</option>'
        for name, n in counts.items()
    )


__all__ = ["write_report", "ReportSummary"]


def write_report(
    answers: str | Path,
    store: CheckedStore,
    out: str | Path,
    *,
    now: datetime | None = None,
    title: str | None = None,
    version: str | None = None,
) -> ReportSummary:
    """Write the audit report of ``answers`` (a batch's JSONL) over ``store`` to ``out``.

    ``store`` is the Memory the answers came from (the report opens none itself), best
    opened read-only without the meaning model (``Memory(path, read_only=True,
    dense=False)``, as ``affidavit report`` opens it): every citation is looked up in it
    and flagged when the store no longer holds it as cited. ``version`` is the affidavit
    the page names (default: the one installed). Returns the counts the page's summary
    states. Raises InputError for an unreadable answers file.
    """
    read = read_rows(answers)
    fingerprint = store.fingerprint()
    held = stored_lines(read.rows, store)
    target = Path(out)
    summary = summarise(read.rows, held, incomplete=read.incomplete, out=target)
    engines = Counter(
        str(audit["engine"])
        for audit in (_object(row.get("audit")) for row in read.rows)
        if audit.get("engine")
    )
    facts = {
        "Answers file": Path(answers).name,
        "Store": str(Path(store.path).resolve()) if store.path else "in memory",
        "Store fingerprint": fingerprint,
        "Engine": ", ".join(f"{name} ({n})" for name, n in engines.most_common()) or "none named",
        "affidavit": version or installed_version(),
        "Written": (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S %Z").strip(),
    }
    health = getattr(store, "last_health", None)
    point = health() if health is not None else None
    if point is not None:
        facts["Retrieval health"] = (
            f"recall@10 {point.recall:.2f}, MRR {point.mrr:.2f}, nDCG {point.ndcg:.2f}, "
            f"distinct lines {point.distinct_share:.2f} ({point.canaries} canaries, "
            f"measured {point.measured_at})"
        )
    name = title or f"Audit report: {Path(answers).name}"
    # The questions (and input errors) are drawn by the page's script; the claims are
    # their own section, written here.
    pages, links = entity_pages(read.rows, store)
    shown = []
    for row, linked in zip(read.rows, links, strict=True):
        if is_claim(row):
            continue
        shown.append(_shown(row, held))
        if linked and shown[-1]["outcome"] != INPUT_ERROR:
            shown[-1]["pages"] = linked
    claims = claims_section(read.rows, held, summary, links)
    page = _page(name, summary, facts, shown, pages, claims)
    # Written beside and moved in place, so a reviewer never opens half a report.
    part = target.with_name(target.name + ".part")
    try:
        part.write_text(page, encoding="utf-8", errors="replace")
        os.replace(part, target)
    except OSError as error:
        raise InputError(
            str(target), f"cannot write the report ({error.strerror or error})", "check the folder"
        ) from None
    return summary


# -- the data the script renders, one object per row --


def _shown(row: Mapping[str, Any], held: Mapping[tuple[str, int], str]) -> dict[str, Any]:
    """A row as the page shows it: only what a reviewer reads, with the highlights and
    the store's verdict on each citation worked out here."""
    kind = outcome(row)
    shown: dict[str, Any] = {"id": _plain(row.get("id")), "line": row.get("line"), "outcome": kind}
    if kind == INPUT_ERROR:
        shown["error"] = _plain(row.get("error")) or ""
        return {key: value for key, value in shown.items() if value is not None}
    audit = _object(row.get("audit"))
    shown.update(
        question=_plain(row.get("question")) or "",
        text=_plain(row.get("text")) or "",
        refused=kind != ANSWERED,
    )
    value = _plain(row.get("value"))
    if value is not None and value != shown["text"]:
        shown["value"] = value
    for key in ("asked_at", "speaker"):
        if row.get(key) or audit.get(key):
            shown[key] = _plain(row.get(key) or audit.get(key))
    if audit.get("engine"):
        shown["engine"] = _plain(audit["engine"])
    if row.get("census"):
        shown["census"] = _plain(row.get("census"))
    terms, cells = answer_terms(row), plan_cells(row)
    shown["citations"] = [_citation(c, terms, cells, held) for c in citations(row)]
    shown["plans"] = _plans(audit)
    shown["vetoed"], shown["passed"] = _gates(audit)
    shown["notes"] = _notes(audit)
    chosen = _object(_object(audit.get("chosen")).get("candidate"))
    if chosen:
        shown["chosen"] = f"{_plain(chosen.get('text'))!r} ({_plain(chosen.get('note'))})"
    return {key: value for key, value in shown.items() if value not in (None, [], "")}


def _citation(
    citation: dict[str, Any],
    terms: list[str],
    cells: Mapping[tuple[str, int], list[str]],
    held: Mapping[tuple[str, int], str],
) -> dict[str, Any]:
    text = _plain(citation.get("text")) or ""
    key = cited_at(citation)
    flag = check(citation, held)
    shown = {
        "document": _plain(citation.get("document")),
        "position": key[1] if key else _plain(citation.get("position")),
        "text": text,
        "kind": _plain(citation.get("kind")),
        "trust": citation.get("trust"),
        "speaker": _plain(citation.get("speaker")),
        "date": _plain(citation.get("date")),
        "marks": utf16(text, marks(text, terms + (cells.get(key, []) if key else []))),
        "flag": flag,
        "stored": held.get(key) if key and flag else None,
    }
    return {name: value for name, value in shown.items() if value not in (None, [])}


def _plans(audit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every plan tried, with its steps and what each computed, or how it died."""
    tried = dicts(audit.get("plans")) or dicts([audit.get("plan")])
    shown = []
    for entry in tried:
        plan, death = _object(entry.get("plan")), _object(entry.get("death"))
        trace = dicts(entry.get("trace"))
        steps = [_step(s) for s in trace] or [_step(s) for s in dicts(plan.get("steps"))]
        shown.append(
            {
                "answered": bool(trace) and not death,
                "note": _plain(plan.get("note")) or "",
                "steps": steps,
                "said": _plain(entry.get("said")) or "",
                "rounding": _plain(entry.get("rounding")) or "",
                "death": (
                    f"step {death.get('step')}: {death.get('death')}: {death.get('detail')}"
                    if death
                    else ""
                ),
            }
        )
    return shown


def _step(step: Mapping[str, Any]) -> dict[str, Any]:
    call = ", ".join(f"{key}={value!r}" for key, value in _object(step.get("args")).items())
    inputs = []
    for value in dicts(step.get("inputs")):
        for cite in dicts(value.get("cites")) or [{}]:
            where = f" [{cite.get('document')} #{cite.get('position')}]" if cite else ""
            written = cite.get("written", _said(value))
            inputs.append(f"{_plain(value.get('label'))} = {_plain(written)}{where}")
    result = step.get("result")
    return {
        "call": f"{_plain(step.get('out'))} = {_plain(step.get('op'))}({call})",
        "inputs": inputs,
        "result": _said(result) if isinstance(result, dict) else "",
        "dropped": [_plain(d) or "" for d in _items(step.get("dropped"))],
    }


def _said(value: Mapping[str, Any]) -> str:
    """A computed value as a reviewer reads it: $1,496.5 million, -22.22%, 3 items: ..."""
    number = value.get("number")
    if isinstance(number, int | float) and not isinstance(number, bool):
        said = format_number(number) + ("%" if value.get("kind") == "percent" else "")
        unit, scale = value.get("unit"), value.get("scale")
        said = f"{unit}{said}" if unit in ("$", "€", "£") else f"{said} {unit or ''}".strip()
        return f"{said} {scale or ''}".strip()
    items = dicts(value.get("items"))
    if items or value.get("kind") == "list":
        listed = "; ".join(_said(item) for item in items[:12])
        return (
            f"{len(items)} items"
            + (f": {listed}" if listed else "")
            + (" …" if len(items) > 12 else "")
        )
    return _plain(value.get("text") or value.get("label") or value.get("kind")) or ""


def _gates(audit: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The gate's vetoes and its passes, each grouped by gate and detail: one candidate
    failing one gate is said once, with every candidate it befell."""
    candidates = dicts(audit.get("candidates"))
    vetoed: dict[tuple[str, str, str], list[str]] = {}
    passed: dict[tuple[str, str], list[str]] = {}
    for decision in dicts(audit.get("gate")):
        gate, detail = _plain(decision.get("gate")) or "", _plain(decision.get("detail")) or ""
        number = decision.get("candidate")
        said = f"#{number}"
        if decision.get("passed"):
            passed.setdefault((gate, detail), []).append(said)
            continue
        if type(number) is int and 0 <= number < len(candidates):
            said = f"{said} {_plain(candidates[number].get('text'))!r}"
        reason = _plain(decision.get("reason")) or ""
        vetoed.setdefault((gate, reason, detail), []).append(said)
    return (
        [{"gate": g, "reason": r, "detail": d, "candidates": c} for (g, r, d), c in vetoed.items()],
        [{"gate": g, "detail": d, "candidates": c} for (g, d), c in passed.items()],
    )


_WITHHELD_SAID = ("withheld_below_trust", "withheld_as_orders")


def _notes(audit: Mapping[str, Any]) -> list[str]:
    """What the audit says was withheld or stands against the answer, and how the answer
    was read: a line quoted whole, a document the question named."""
    notes = []
    withheld = audit.get("withheld_below_trust")
    if isinstance(withheld, int) and withheld > 0:
        notes.append(
            f"{withheld} matching line(s) withheld: their source is below the speaking threshold."
        )
    orders = audit.get("withheld_as_orders")
    if isinstance(orders, int) and orders > 0:
        notes.append(
            f"{orders} matching line(s) withheld: they give orders to their reader or a model."
        )
    for rival in dicts(audit.get("contradicted_by")):
        lines = "; ".join(_plain(line) or "" for line in _items(rival.get("lines")))
        notes.append(f"Contradicted by {_plain(rival.get('text'))!r}: {lines}")
    for gone in dicts(audit.get("no_longer_holds")):
        notes.append(_no_longer(gone))
    if audit.get("read_as"):
        notes.append(f"The question was read as: {_plain(audit['read_as'])}")
    read_in = _object(audit.get("read_in"))
    if read_in:
        notes.append(
            f"Asked in {_plain(read_in.get('language'))}, read in English as: "
            f"{_plain(read_in.get('read_as'))}"
        )
    quoted = _object(audit.get("quoted"))
    if quoted:
        notes.append(f"Quoted whole: {_plain(quoted.get('line'))} ({_plain(quoted.get('why'))})")
    scope = _object(audit.get("scope"))
    if scope.get("named_by_the_question"):
        named = ", ".join(_plain(name) or "" for name in _items(scope.get("matched")))
        notes.append(f"Read in {named} alone: the question names it.")
    for key, value in audit.items():
        if key.startswith("withheld") and key not in _WITHHELD_SAID and value:
            notes.append(f"{key.replace('_', ' ')}: {_plain(value)}")
    return notes


def _no_longer(gone: Mapping[str, Any]) -> str:
    """A candidate drawn from a record that no longer holds, and what holds instead."""
    said = f"{_plain(gone.get('candidate'))!r} no longer holds: record {_plain(gone.get('record'))}"
    since = f" on {_plain(gone.get('since'))}" if gone.get("since") else ""
    if gone.get("state") == "ended":
        return f"{said} ended{since}."
    if gone.get("replaced_by") is not None:
        now = _plain(gone.get("now"))
        return f"{said} was superseded{since} by record {_plain(gone['replaced_by'])} ({now!r})."
    return f"{said} is {_plain(gone.get('state'))}."


def _object(found: Any) -> dict[str, Any]:
    """A JSON object, or an empty one for anything else (a hand-edited audit)."""
    return found if isinstance(found, dict) else {}


def _items(found: Any) -> list[Any]:
    return found if isinstance(found, list) else []


def _plain(value: Any) -> str | None:
    """Any JSON value as the text shown for it (None stays None)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


# -- the page --


# NOTE: the questions are drawn by the page's script from a JSON block, so 10,000 answers
# open in a second.
def _page(
    title: str,
    summary: ReportSummary,
    facts: Mapping[str, str],
    rows: list[dict[str, Any]],
    pages: str = "",
    claims: str = "",
) -> str:
    """The page: its summary and its claims rendered here, its questions by the inlined
    script from a JSON block (its filters hidden when there is none). No asset is
    fetched: the CSS and the script are inlined, and the page's policy forbids the
    network."""
    assets = resources.files("affidavit.report") / "assets"
    parts = {
        "title": html.escape(title),
        "css": (assets / "report.css").read_text(encoding="utf-8"),
        "js": (assets / "report.js").read_text(encoding="utf-8"),
        "summary": summary_html(summary, facts),
        "outcome_options": outcome_options(summary),
        "document_options": options(summary.documents, "Every document"),
        "data": _script_json(rows),
        "pages": pages,
        "claims": claims,
        "no_questions": "" if rows else " hidden",
    }
    template = (assets / "report.html").read_text(encoding="utf-8")
    # One pass, so a placeholder written inside the data is never filled in.
    named = "|".join(map(re.escape, parts))
    return re.sub(rf"\{{\{{({named})\}}\}}", lambda found: parts[found.group(1)], template)


def _script_json(value: Any) -> str:
    """JSON that cannot end its <script> block: "<" (so "</script>" and "<!--") and ">"
    and "&" are written as \\u escapes, which JSON.parse reads back as they were."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
