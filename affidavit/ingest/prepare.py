"""Units to a stored document: sentences, line kinds, and windows as pointer ranges."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from affidavit.ingest.fields import field_of
from affidavit.ingest.units import Unit, UnitKind
from affidavit.results import LineKind
from affidavit.store import PreparedDocument, PreparedLine
from affidavit.text import detect_language, split_sentences
from affidavit.trust import DOCUMENT_TRUST

# Bump when line-making changes, so re-ingesting an unchanged file rebuilds its lines.
INGEST_VERSION = "9"

# Sliding windows of 3 sentences, and paragraph-sized windows of up to 8 (stride 4).
WINDOW_SCALES: tuple[tuple[int, int], ...] = ((3, 1), (8, 4))


def content_hash(
    data: bytes | Iterable[bytes], source: str = "document", date: str | None = None
) -> str:
    """The identity of a document as ingested: same bytes, same source, same date.
    ``data`` may come in pieces (a file read a piece at a time): the hash is the same."""
    digest = hashlib.sha256(f"{INGEST_VERSION}\0{source}\0{date or ''}\0".encode())
    for piece in (data,) if isinstance(data, bytes) else data:
        digest.update(piece)
    return digest.hexdigest()


def prepare_document(
    units: list[Unit],
    *,
    name: str,
    digest: str,
    path: str | None = None,
    origin: str | None = None,
    date: str | None = None,
    source: str = "document",
    trust: float = DOCUMENT_TRUST,
) -> PreparedDocument:
    if date is None:
        date = next((u.text for u in units if u.kind is UnitKind.DATE), None)
    units = [u for u in units if u.kind is not UnitKind.DATE]
    prose = [u.text for u in units if u.kind is UnitKind.PROSE]
    language = detect_language(
        " ".join(prose[:50]) if prose else " ".join(u.text for u in units[:50])
    )
    sentence_lists = iter(split_sentences(prose, language))

    lines: list[PreparedLine] = []
    blocks: list[tuple[int, int]] = []  # inclusive position ranges that windows may cover
    heading_at: int | None = None
    for unit in units:
        position = len(lines)
        if unit.kind is UnitKind.PROSE:
            sentences = next(sentence_lists)
            for sentence in sentences:
                # A field ("Fax: 202-555-0100") carries its label and value as a cell.
                cells = field_of(sentence)
                lines.append(
                    PreparedLine(
                        len(lines), LineKind.SENTENCE, sentence, cells, confidence=unit.confidence
                    )
                )
            if sentences:
                # A heading directly above a paragraph gives its first windows their subject.
                start = (
                    heading_at
                    if heading_at is not None and heading_at == position - 1
                    else position
                )
                blocks.append((start, len(lines) - 1))
            heading_at = None
        elif unit.kind is UnitKind.HEADING:
            cells = field_of(unit.text)
            lines.append(
                PreparedLine(
                    position, LineKind.HEADING, unit.text, cells, confidence=unit.confidence
                )
            )
            heading_at = position
        else:
            lines.append(
                PreparedLine(
                    position,
                    LineKind.ROW,
                    unit.text,
                    unit.cells if unit.cells is not None else _fields_of_cells(unit.text),
                    unit.table,
                    confidence=unit.confidence,
                )
            )
            heading_at = None
    return PreparedDocument(
        name=name,
        content_hash=digest,
        language=language,
        lines=tuple(lines),
        windows=tuple(windows_over(blocks)),
        path=path,
        origin=origin,
        date=date,
        source=source,
        trust=trust,
    )


def windows_over(blocks: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Pointer-range windows at every scale over each block of consecutive prose lines.

    A window is ``(scale, start, end)`` over line positions, never copied text. A block is
    one paragraph's sentences (a heading may open the first one), so no window ever spans
    two table rows, a row and prose, or two documents.
    """
    windows: list[tuple[int, int, int]] = []
    for first, last in blocks:
        length = last - first + 1
        if length < 2:
            continue
        for scale, stride in WINDOW_SCALES:
            if length <= scale:
                if scale == WINDOW_SCALES[-1][0] or length == scale:
                    windows.append((scale, first, last))
                continue
            start = first
            while True:
                end = min(start + scale - 1, last)
                windows.append((scale, start, end))
                if end == last:
                    break
                start += stride
    return windows


def _fields_of_cells(row: str) -> tuple[tuple[str, str], ...] | None:
    """The fields a row's cells write when no header names its columns: a PDF row read
    across ("210 Walnut Street, Room 767<tab>Email: desm.lpgmn@ams.usda.gov", "Guest
    Name: Sanjay<tab>Date: 31/12/2017") carries "Email", "Date" as a field line would."""
    if "\t" not in row:
        return None
    found = tuple(pair for cell in row.split("\t") for pair in field_of(cell) or ())
    return found or None
