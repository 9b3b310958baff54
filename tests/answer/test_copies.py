"""Copies: a document stored twice under two names (a policy's versions, a copied file)
is read once and cited twice. The answer is the one a single copy gives; its citations
hold the same line in each copy; its census says how many documents say it word for word;
the census counts each copy; a table row or a short line is never taken for a copy,
unless the two documents are the same file stored twice, where every line at one place is
the line at the same place of the other. The text is the Normans article
(corpora/demo/Normans.txt)."""

from __future__ import annotations

from pathlib import Path

from affidavit import Memory
from affidavit.index.copies import copy_key, distinct
from affidavit.results import Evidence, LineKind

NORMANS = Path(__file__).resolve().parents[2] / "corpora" / "demo" / "Normans.txt"
QUESTION = "Who was the duke in the battle of Hastings?"


def test_a_copied_line_is_read_once_and_cited_in_every_copy() -> None:
    text = NORMANS.read_text(encoding="utf-8")
    single = Memory(dense=False)
    single.ingest_text(text, name="2023/normans.txt")
    copied = Memory(dense=False)
    for year in ("2023", "2024", "2025"):
        copied.ingest_text(text, name=f"{year}/normans.txt")
    # The reader's confidence is not this test's subject: every candidate may answer.
    once = single.ask(QUESTION, min_probability=0.0)
    thrice = copied.ask(QUESTION, min_probability=0.0)
    assert not once.refused and thrice.text == once.text
    own = once.citations[0]
    places = {(c.document, c.position) for c in thrice.citations}
    assert {(f"{y}/normans.txt", own.position) for y in ("2023", "2024", "2025")} <= places
    assert "3 documents say this word for word: " in thrice.census
    assert len(thrice.audit["copies"]) >= 2
    assert "2024/normans.txt" in thrice.audit["census"]["documents"]


def line(
    document: str, text: str, kind: LineKind = LineKind.SENTENCE, position: int = 0
) -> Evidence:
    return Evidence(document=document, position=position, text=text, kind=kind, score=1.0)


def test_rows_and_short_lines_are_never_copies() -> None:
    row = "| Total | 5 |"
    hits = [
        line("a.md", row, LineKind.ROW),
        line("b.md", row, LineKind.ROW),
        line("a.md", "Yes!"),
        line("b.md", "Yes!"),
        line("a.md", "The permit is valid for one shift and must be signed."),
        line("b.md", "The  permit is valid for one shift and must be signed."),
    ]
    kept, copies = distinct(hits)
    assert [h.document for h in kept] == ["a.md", "b.md", "a.md", "b.md", "a.md"]
    assert [c.document for c in copies[("a.md", 0)]] == ["b.md"]
    assert copy_key(hits[0]) is None and copy_key(hits[2]) is None


def test_in_a_file_stored_twice_every_line_is_a_copy_of_its_twin() -> None:
    """Rows and short lines are copies when their documents have the same content hash:
    the same text around them says the same thing."""
    hits = [
        line("2023.md", "| Total | 5 |", LineKind.ROW),
        line("2024.md", "| Total | 5 |", LineKind.ROW),
        line("other.md", "| Total | 5 |", LineKind.ROW),
        line("2023.md", "Yes!", position=1),
        line("2024.md", "Yes!", position=1),
    ]
    twins = {"2023.md": "hash-a", "2024.md": "hash-a"}
    kept, copies = distinct(hits, twins)
    assert [(h.document, h.text) for h in kept] == [
        ("2023.md", "| Total | 5 |"),
        ("other.md", "| Total | 5 |"),
        ("2023.md", "Yes!"),
    ]
    assert [c.document for c in copies[("2023.md", 0)]] == ["2024.md"]
    assert [c.document for c in copies[("2023.md", 1)]] == ["2024.md"]


def test_a_short_line_of_a_file_stored_twice_is_read_once_and_cited_twice() -> None:
    text = "# Rota\n\nAda Brook works nights.\n\nBen Stone works days.\n"
    memory = Memory(dense=False)
    for year in ("2023", "2024"):
        memory.ingest_text(text, name=f"{year}/rota.md")
    # the reader's confidence is not this test's subject
    answer = memory.ask("Who works nights?", min_probability=0.0)
    assert answer.text == "Ada Brook"
    cited = [(c.document, c.text) for c in answer.citations]
    assert cited == [(f"{y}/rota.md", "Ada Brook works nights.") for y in ("2023", "2024")]
    assert answer.audit["subsets"][0]["document"] == "2023/rota.md"
    assert len(answer.audit["subsets"]) == 1  # the twin's line is not read again


def test_the_same_text_read_by_two_readers_is_no_twin() -> None:
    """One text named .md and .txt is read into different lines (front matter is a title
    and a row in one, a sentence in the other): the line at a place of one is not the
    line at that place of the other, and neither is taken for a copy of the other."""
    text = (
        "---\ntitle: Rota\nowner: Ada Brook\n---\n\n"
        "Ada Brook works nights.\n\nBen Stone works days.\n"
    )
    memory = Memory(dense=False)
    memory.ingest_text(text, name="a.md")
    memory.ingest_text(text, name="b.txt")
    lines = [memory._store.document_lines(name) for name in ("a.md", "b.txt")]
    assert lines[0][2].text != lines[1][2].text
    retrieved = memory._retriever.retrieve("Who works nights?")
    for (document, position), copies in retrieved.copies.items():
        kept = memory._store.line_at(document, position)
        assert kept is not None
        assert all(copy.text == kept.text for copy in copies)
    assert retrieved.copies == {}
    assert memory.ask("Who works nights?", min_probability=0.0).text == "Ada Brook"
