"""Markdown before its layout: front matter read as the document's metadata, and inline
marks (emphasis, code ticks) taken out of the text, so that "**personal data**" is stored
and read as "personal data" and "---\ntitle: …" never becomes a sentence."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import yaml

from affidavit.errors import IngestError
from affidavit.ingest.formats.checks import lay_out_checked
from affidavit.ingest.units import Unit, UnitKind
from affidavit.text import LETTER_OR_DIGIT, fold

# Front matter longer than this is not front matter: it is read as text.
_FRONT_MATTER_CHARS = 20_000
_OPEN = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
# The key whose value is the document's date when the caller gives none.
_DATE_KEYS = ("date", "published", "effective", "effective_date", "updated")
# Table number of the rows that carry the front matter's other fields.
_FIELDS_TABLE = -1

_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
# A mark inside a word ("snake_case", "a*b") is not emphasis: none may touch a word outside.
_OUTSIDE = rf"{LETTER_OR_DIGIT}|[_*\\]"
_STAR = re.compile(rf"(?<!{_OUTSIDE})\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?!{_OUTSIDE})")
_UNDERSCORE = re.compile(rf"(?<!{_OUTSIDE})_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?!{_OUTSIDE})")
_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def lay_out_markdown(text: str, source: str | Path) -> list[Unit]:
    """A Markdown text as units: its front matter's fields first (under its title, which
    is the text's own opening heading when that says the same), then the text laid out
    without its inline marks."""
    fields, body = front_matter(text)
    units = lay_out_checked(plain_inline(body), source) if body.strip() else []
    opening = units[:1] if units and units[0].kind is UnitKind.HEADING else []
    if opening and fold(fields.get("title", "")) == fold(opening[0].text.lstrip("#").strip()):
        fields.pop("title")  # the text opens with its title: the fields stand under it
    else:
        opening = []
    laid_out = [*opening, *field_units(fields), *units[len(opening) :]]
    if all(unit.kind is UnitKind.DATE for unit in laid_out):
        raise IngestError(source, "empty document (front matter alone)", "nothing to ingest")
    return laid_out


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """The fields of ``text``'s YAML front matter (scalars as text, the date as an ISO
    day) and the text after it; no fields and the whole text when it opens with none,
    or with a block that is not a mapping of YAML."""
    opened = _OPEN.match(text)
    if not opened:
        return {}, text
    closed = _CLOSE.search(text, opened.end(), opened.end() + _FRONT_MATTER_CHARS)
    if not closed:
        return {}, text
    try:
        parsed = yaml.safe_load(text[opened.end() : closed.start()])
    except (yaml.YAMLError, RecursionError):
        # A rule line and prose, or brackets nested past what a parser can follow: not
        # front matter, kept as written.
        return {}, text
    if not isinstance(parsed, dict):
        return {}, text
    fields = {str(k).strip(): said for k, v in parsed.items() if (said := _scalar(v))}
    return fields, text[closed.end() :].lstrip("\r\n")


def field_units(fields: dict[str, str]) -> list[Unit]:
    """The front matter as units: its date the document's (when the caller gives none),
    its title a heading, its other fields rows of one two-column table (``owner:
    Compliance Office``), each under its own name."""
    units = []
    dated = document_date(fields)
    if dated is not None:
        units.append(Unit(UnitKind.DATE, dated))
    title = fields.get("title")
    if title:
        units.append(Unit(UnitKind.HEADING, title))
    for key, value in fields.items():
        if key != "title":
            units.append(Unit(UnitKind.ROW, f"{key}: {value}", ((key, value),), _FIELDS_TABLE))
    return units


def document_date(fields: dict[str, str]) -> str | None:
    """The front matter's date of the document, as an ISO day, if it gives one."""
    for key in _DATE_KEYS:
        value = fields.get(key)
        if value is None:
            continue
        try:
            return dt.date.fromisoformat(value[:10]).isoformat()
        except ValueError:
            continue
    return None


def plain_inline(text: str) -> str:
    """``text`` with Markdown's emphasis and code ticks taken out of every line outside a
    fenced block; list bullets ("* item") and arithmetic ("2 * 3") are left alone."""
    out = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if not fenced:
            line = _CODE.sub(r"\1", line)
            line = _STRONG.sub(r"\2", line)
            line = _STAR.sub(r"\1", line)
            line = _UNDERSCORE.sub(r"\1", line)
        out.append(line)
    return "\n".join(out)


def _scalar(value: object) -> str:
    """A front matter value as text ("" for what is not one value: a list, a mapping)."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).strip()
    if isinstance(value, list):  # tags: [privacy, retention]; a list in it is no one value
        flat = (_scalar(part) for part in value if not isinstance(part, list | dict))
        return ", ".join(part for part in flat if part)
    return ""  # a nested mapping: no one value to store
