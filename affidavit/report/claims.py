"""The audit report's verified claims: the section listing every claim of the answers file
in file order (each sentence with its status, the lines that support it or the line that
says otherwise, each checked against the store as an answer's citations are), and the
box at the top of the summary naming every claim the store contradicts. Written as HTML
here, not by the page's script: it reads the same with scripts off, and prints whole."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from affidavit.report.data import (
    CONTRADICTED,
    SUPPORTED,
    ReportSummary,
    carrying_words,
    check,
    cited_at,
    dicts,
    is_claim,
    marks,
    reason_text,
    sentences,
    verdict,
)

_e = html.escape
# What a sentence's lines are to it, by its status: evidence, or the line it goes against.
_LINES_TITLE = {SUPPORTED: "Supported by", CONTRADICTED: "Says otherwise"}


def claims_section(
    rows: Sequence[Mapping[str, Any]],
    held: Mapping[tuple[str, int], str],
    summary: ReportSummary,
    links: Sequence[Sequence[Sequence[str]]] = (),
) -> str:
    """The section of every claim verified, or "" when the file holds none. ``links``:
    each row's (name, anchor) of the entity pages it names, as entity_pages gives them."""
    if not summary.claims:
        return ""
    linked = list(links) or [[] for _ in rows]
    body = "".join(
        _claim(row, held, pages) for row, pages in zip(rows, linked, strict=True) if is_claim(row)
    )
    return (
        '<section id="claims" aria-label="Verified claims"><h2>Verified claims</h2>'
        f'<p class="meta">{_tally(summary)}, each sentence checked against the store '
        "(the lines cited are checked again as they stand now).</p>"
        f"{body}</section>"
    )


def contradicted_box(summary: ReportSummary) -> str:
    """What a reviewer reads first: every claim the store contradicts, with the sentence
    and the lines that say otherwise, each linked to its claim below. "" when none."""
    if not summary.contradictions:
        return ""
    rows = "".join(
        f'<tr><td><a href="#{_anchor(found.line)}">{_e(found.id)}</a></td>'
        f"<td>{_e(found.claim)}</td><td>"
        + "".join(
            f"<p><b>{_e(sentence)}</b>: {_e('; '.join(lines) or 'no line named')}</p>"
            for sentence, lines in found.sentences
        )
        + "</td></tr>"
        for found in summary.contradictions
    )
    n = len(summary.contradictions)
    return (
        '<section class="disagrees contradicted" aria-label="Claims the store contradicts">'
        f"<h2>The store contradicts {n} {'claim' if n == 1 else 'claims'}</h2>"
        "<table><thead><tr><th>Id</th><th>Claim</th><th>Sentence contradicted, and the "
        f"lines that say otherwise</th></tr></thead><tbody>{rows}</tbody></table></section>"
    )


def _tally(summary: ReportSummary) -> str:
    n = summary.claims
    return (
        f"{n} {'claim' if n == 1 else 'claims'} verified: {summary.supported} supported, "
        f"{summary.contradicted} contradicted, {summary.not_supported} not supported"
    )


def _anchor(line: int | None) -> str:
    return f"claim-{line}"


def _claim(
    row: Mapping[str, Any], held: Mapping[tuple[str, int], str], pages: Sequence[Sequence[str]]
) -> str:
    said = verdict(row)
    line = row.get("line")
    checked = [_sentence(sentence, held) for sentence in sentences(row)]
    changed = sum(flags for _, flags in checked)
    flagged = f'<span class="badge flag">{changed} not in the store as cited</span>'
    head = (
        f'<span class="qid">{_e(_text(row.get("id")))}</span>'
        f'<span class="line">line {_e(_text(line))}</span>'
        f'<span class="badge">{_e(said)}</span>' + (flagged if changed else "")
    )
    listed = "".join(part for part, _ in checked) or '<li class="meta">No sentence was read.</li>'
    linked = ", ".join(f'<a href="#{_e(anchor)}">{_e(name)}</a>' for name, anchor in pages)
    anchor = _anchor(line if type(line) is int else None)
    return (
        f'<article class="claim {said.replace(" ", "-")}" id="{anchor}">'
        f'<header>{head}</header><p class="question">{_e(_text(row.get("text")))}</p>'
        f'<ol class="sentences">{listed}</ol>'
        + (f'<p class="meta">Pages: {linked}</p>' if linked else "")
        + "</article>"
    )


def _sentence(sentence: Mapping[str, Any], held: Mapping[tuple[str, int], str]) -> tuple[str, int]:
    """One sentence as a list item, and how many of its lines the store no longer holds
    as cited."""
    status = _text(sentence.get("status"))
    parts = [
        f'<li class="sentence {_e(status)}"><p><span class="badge">{_e(status)}</span> '
        f"{_e(_text(sentence.get('text')))}</p>"
    ]
    read_in = sentence.get("read_in")
    if isinstance(read_in, dict) and read_in.get("read_as"):
        parts.append(f'<p class="meta">Read in English as: {_e(_text(read_in["read_as"]))}</p>')
    why = _why(sentence)
    if why:
        parts.append(f'<p class="meta">{_e(why)}</p>')
    evidence = dicts(sentence.get("evidence"))
    flagged = 0
    if evidence:
        terms = carrying_words([_text(sentence.get("text"))])
        title = _LINES_TITLE.get(status, "Lines read")
        cited = []
        for line in evidence:
            item, flag = _cited(line, terms, held)
            cited.append(item)
            flagged += flag
        parts.append(
            f'<div class="section-title">{title}</div><ul class="citations">{"".join(cited)}</ul>'
        )
    parts.append("</li>")
    return "".join(parts), flagged


def _why(sentence: Mapping[str, Any]) -> str:
    """Why a sentence is not supported: its reason code with the catalogue's text, and
    the gate that said so."""
    reason = sentence.get("reason")
    said = ""
    if isinstance(reason, str) and reason:
        text = reason_text(reason)
        said = f"{reason}: {text}" if text else reason
    failed = next((g for g in dicts(sentence.get("gates")) if g.get("passed") is False), None)
    if failed is not None:
        gate = f"gate {_text(failed.get('gate'))}: {_text(failed.get('detail'))}"
        said = f"{said} ({gate})" if said else gate
    return said


def _cited(
    line: Mapping[str, Any], terms: list[str], held: Mapping[tuple[str, int], str]
) -> tuple[str, int]:
    """A line cited, as an answer's citation is shown: where it stands, the text with the
    sentence's words marked, and whether the store still holds it as cited."""
    text = _text(line.get("text"))
    key = cited_at(line)
    flag = check(line, held)
    extra = [
        _text(line.get("kind")) if line.get("kind") else "",
        f"trust {line['trust']}" if line.get("trust") is not None else "",
        f"said by {_text(line['speaker'])}" if line.get("speaker") else "",
        _text(line.get("date")) if line.get("date") else "",
    ]
    where = (
        f'<div class="where"><span class="doc">{_e(_text(line.get("document")))}</span> '
        f"#{_e(_text(key[1] if key else line.get('position')))}"
        + "".join(f" · {_e(x)}" for x in extra if x)
        + "</div>"
    )
    parts = [
        f'<li class="citation{" flagged" if flag else ""}">{where}'
        f'<blockquote class="cited">{_marked(text, terms)}</blockquote>'
    ]
    if flag:
        parts.append(f'<p class="flag-text">Not in the store as cited: {_e(flag)}.</p>')
        if key is not None and key in held:
            parts.append(
                '<div class="section-title">The store holds</div>'
                f'<blockquote class="stored">{_e(held[key])}</blockquote>'
            )
    parts.append("</li>")
    return "".join(parts), int(flag is not None)


def _marked(text: str, terms: list[str]) -> str:
    """``text`` escaped, with the words it shares with the sentence in <mark>."""
    out, at = [], 0
    for start, end in marks(text, terms):
        out.append(_e(text[at:start]) + f"<mark>{_e(text[start:end])}</mark>")
        at = end
    return "".join(out) + _e(text[at:])


def _text(value: Any) -> str:
    """Any JSON value as the text shown for it (None as nothing)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
