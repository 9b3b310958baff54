"""Running headers and footers of a paginated text (a PDF's pages, split at form feeds):
the lines a page opens or closes with that come back, figures aside, on most pages — "Page
3 of 16", a print date and URL, a form's name. They say nothing a question asks about and,
repeated on every page, crowd the evidence; they are left out and reported, never kept
silently and never dropped silently."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from affidavit.text import LETTER, fold

# How many lines at each end of a page may be a running header or footer: up to this
# many, and no more than a third of the page's lines (a short page is mostly body).
_EDGE_LINES = 4
# A line is running when its shape stands at an edge of at least this share of the pages,
# and the text has at least MIN_PAGES pages (two pages that both open with a title prove
# nothing).
_SHARE = 0.5
_MIN_PAGES = 3
_FIGURES = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(LETTER)
_CELLS = re.compile(r"\t| \| ")


@dataclass(frozen=True, slots=True)
class Running:
    """What was left out: each running line's first appearance, and how many lines."""

    examples: tuple[str, ...]
    removed: int
    pages: int


def left_out_running(text: str) -> tuple[str, Running | None]:
    """``text`` without its running headers and footers, and what was left out (None
    when nothing was)."""
    pages = text.split("\f")
    if len(pages) < _MIN_PAGES:
        return text, None
    edges = [_edge_indices(page.split("\n")) for page in pages]
    seen: Counter[str] = Counter()
    for page, indices in zip(pages, edges, strict=True):
        lines = page.split("\n")
        seen.update({shape for i in indices for shape in _shapes(lines[i])})
    needed = max(_MIN_PAGES, _SHARE * len(pages))
    running = {shape for shape, count in seen.items() if count >= needed and shape}
    if not running:
        return text, None
    kept_pages: list[str] = []
    examples: dict[str, str] = {}
    removed = 0
    for page, indices in zip(pages, edges, strict=True):
        lines = page.split("\n")
        # A running line with words is left out wherever the extraction put it on the page
        # (pdfminer may set a header among the body's boxes); a bare figure ("-4-", "3")
        # only at an edge, since a table's cells come out as such lines too.
        drop = {i for i in indices if _running(lines[i], running)}
        drop |= {
            i
            for i, line in enumerate(lines)
            if _running(line, running) and _LETTER.search(_shape(line))
        }
        for i in sorted(drop):
            examples.setdefault(_shape(lines[i]), lines[i].strip())
        removed += len(drop)
        kept_pages.append("\n".join(line for i, line in enumerate(lines) if i not in drop))
    said = Running(tuple(examples.values()), removed, len(pages))
    return "\f".join(kept_pages), said


def _edge_indices(lines: list[str]) -> list[int]:
    """The indices of a page's first and last few non-blank lines."""
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    reach = min(_EDGE_LINES, len(nonblank) // 3)
    if not reach:
        return []
    return sorted(set(nonblank[:reach]) | set(nonblank[-reach:]))


def _shapes(line: str) -> set[str]:
    """The shapes of a line's cells: a PDF row read across holds a page's header or
    footer pieces side by side, as cells ("-2- | Instructions for Form 1040NR" on even
    pages, the other way round on odd ones)."""
    return {_shape(cell) for cell in _CELLS.split(line)} - {""}


def _running(line: str, running: set[str]) -> bool:
    shapes = _shapes(line)
    return bool(shapes) and shapes <= running


def _shape(line: str) -> str:
    """A line with its figures blanked out ("Page 3 of 16" and "Page 4 of 16" are one)."""
    return _SPACES.sub(" ", _FIGURES.sub("#", fold(line.strip())))
