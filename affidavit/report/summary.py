"""The audit report's summary, rendered as HTML: the facts of the run, the counts (those a
reviewer must not miss marked), refusals by reason, documents cited, the answers where the
store disagrees with itself, and the options of the page's filters."""

from __future__ import annotations

import html
from collections.abc import Mapping

from affidavit.reasons import Reason
from affidavit.report.data import ANSWERED, INPUT_ERROR, ReportSummary

WARNINGS = ("changed", "incomplete", "disagrees")  # counts a reviewer must not miss when not zero


def summary_html(summary: ReportSummary, facts: Mapping[str, str]) -> str:
    """The page's head: the facts of the run, the counts, refusals by reason, documents
    cited, and where the store disagrees with itself."""
    e = html.escape
    listed = "".join(f"<div><dt>{e(k)}</dt><dd>{e(v)}</dd></div>" for k, v in facts.items())
    counts = [
        ("answered", summary.answered, "answered"),
        ("refused", summary.refused, "refused"),
        ("errors", summary.errors, _plural(summary.errors, "input error")),
        (
            "changed",
            summary.changed_citations,
            f"{_plural(summary.changed_citations, 'citation')} not in the store as cited",
        ),
    ]
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
        f'<b class="n">{n}</b> {e(label)}</li>'
        for key, n, label in counts
    )
    reasons = "".join(
        f'<tr><td><button type="button" class="pick" data-outcome="{e(code)}">{e(code)}'
        f"</button></td><td>{n}</td><td>{e(_reason_text(code))}</td></tr>"
        for code, n in summary.by_reason.items()
    )
    documents = "".join(
        f'<tr><td><button type="button" class="pick" data-document="{e(name)}">{e(name)}'
        f"</button></td><td>{n}</td></tr>"
        for name, n in summary.documents.items()
    )
    return (
        f'<dl class="facts">{listed}</dl><ul class="counts">{shown}</ul><div class="tables">'
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


def _plural(n: int, thing: str) -> str:
    return thing if n == 1 else f"{thing}s"


def _reason_text(code: str) -> str:
    try:
        return Reason(code).text
    except ValueError:
        return ""


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
