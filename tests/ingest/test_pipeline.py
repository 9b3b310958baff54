"""Behaviour of windows: pointer ranges over existing line positions, inside one paragraph
(a heading may open it), never across table rows or documents."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import DEMO_DIR
from hypothesis import given
from hypothesis import strategies as st

from affidavit import Memory
from affidavit.ingest.formats.dispatch import read_document
from affidavit.ingest.prepare import WINDOW_SCALES, prepare_document, windows_over
from affidavit.ingest.units import Unit, UnitKind

SCALES = {scale for scale, _ in WINDOW_SCALES}


@st.composite
def disjoint_blocks(draw) -> list[tuple[int, int]]:
    """Sorted, non-overlapping inclusive ranges of positions, with gaps between them."""
    blocks, position = [], draw(st.integers(0, 3))
    for length in draw(st.lists(st.integers(1, 25), max_size=6)):
        blocks.append((position, position + length - 1))
        position += length + draw(st.integers(0, 3))
    return blocks


@given(disjoint_blocks())
def test_every_window_lies_inside_one_block(blocks: list[tuple[int, int]]) -> None:
    for scale, start, end in windows_over(blocks):
        assert scale in SCALES
        assert start <= end
        assert end - start + 1 <= scale
        assert sum(1 for first, last in blocks if first <= start and end <= last) == 1


@given(disjoint_blocks())
def test_every_line_of_a_multi_line_block_is_covered_at_the_widest_scale(
    blocks: list[tuple[int, int]],
) -> None:
    widest = max(SCALES)
    windows = windows_over(blocks)
    for first, last in blocks:
        covered = {p for s, a, b in windows if s == widest and first <= a for p in range(a, b + 1)}
        if last > first:
            assert set(range(first, last + 1)) <= covered


@given(st.integers(0, 50))
def test_a_single_line_block_has_no_window(position: int) -> None:
    assert windows_over([(position, position)]) == []


@pytest.mark.parametrize(
    ("length", "expected"),
    [
        (2, [(8, 0, 1)]),
        (3, [(3, 0, 2), (8, 0, 2)]),
        (4, [(3, 0, 2), (3, 1, 3), (8, 0, 3)]),
        (10, [(3, s, s + 2) for s in range(8)] + [(8, 0, 7), (8, 4, 9)]),
    ],
)
def test_windows_slide_by_their_stride(length: int, expected: list[tuple[int, int, int]]) -> None:
    assert windows_over([(0, length - 1)]) == expected


def mixed_units() -> list[Unit]:
    return [
        Unit(UnitKind.HEADING, "Canteen"),
        Unit(UnitKind.PROSE, "Lunch is at noon. It costs little. Tea is free."),
        Unit(UnitKind.ROW, "Tea | 1.10", (("Item", "Tea"), ("Price", "1.10")), 0),
        Unit(UnitKind.ROW, "Sandwich | 3.20", (("Item", "Sandwich"), ("Price", "3.20")), 0),
        Unit(UnitKind.ROW, "Soup | 2.00", (("Item", "Soup"), ("Price", "2.00")), 0),
        Unit(UnitKind.PROSE, "Prices include tax. They change in May."),
        Unit(UnitKind.HEADING, "Hours"),
        Unit(UnitKind.HEADING, "Weekdays"),
        Unit(UnitKind.PROSE, "Open at eight. Closed at six."),
    ]


def test_windows_never_hold_a_table_row() -> None:
    document = prepare_document(mixed_units(), name="canteen", digest="x")
    kinds = {line.position: line.kind for line in document.lines}
    assert [line.position for line in document.lines] == list(range(len(document.lines)))
    assert document.windows
    for _, start, end in document.windows:
        spanned = [kinds[p] for p in range(start, end + 1)]
        assert "row" not in spanned
        assert spanned.count("heading") <= 1 and spanned[1:].count("heading") == 0


def test_a_heading_opens_the_windows_of_the_paragraph_right_below_it() -> None:
    document = prepare_document(mixed_units(), name="canteen", digest="x")
    starts = {start for _, start, _ in document.windows}
    texts = {line.position: line.text for line in document.lines}
    assert texts[0] == "Canteen" and 0 in starts
    # "Hours" is not right above the paragraph ("Weekdays" is), so only "Weekdays" opens it.
    hours = next(p for p, t in texts.items() if t == "Hours")
    assert hours not in starts and hours + 1 in starts


def test_windows_of_a_real_table_document_never_hold_a_row() -> None:
    units = read_document(DEMO_DIR / "site-handbook.md")
    document = prepare_document(units, name="site-handbook.md", digest="x")
    kinds = {line.position: line.kind for line in document.lines}
    assert "row" in kinds.values()
    for _, start, end in document.windows:
        assert all(kinds[p] in {"sentence", "heading"} for p in range(start, end + 1))


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    with Memory(path) as memory:
        memory.ingest(sorted(DEMO_DIR.iterdir()))  # its links, named one by one
    return path


def test_stored_windows_point_at_existing_lines_of_their_own_document(demo_store: Path) -> None:
    conn = sqlite3.connect(demo_store)
    lines = {
        (doc, pos): kind
        for doc, pos, kind in conn.execute("SELECT document_id, position, kind FROM lines")
    }
    windows = list(conn.execute("SELECT document_id, scale, start, end FROM windows"))
    conn.close()
    assert windows
    assert "row" in lines.values()
    for doc, scale, start, end in windows:
        assert scale in SCALES
        for position in range(start, end + 1):
            assert lines.get((doc, position)) in {"sentence", "heading"}


def test_windows_are_pointers_not_copied_text(demo_store: Path) -> None:
    conn = sqlite3.connect(demo_store)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(windows)")]
    conn.close()
    assert columns == ["id", "document_id", "scale", "start", "end"]
