"""Behaviour of the Memory facade: ingesting files, folders and texts all or nothing,
citations that slice back to stored lines, refusals for empty stores and empty questions."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from conftest import ARTICLES, DEMO_DIR, QUESTIONS, SQUAD_DIR, store_reads
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affidavit import AffidavitError, Answer, Evidence, IngestError, Memory, Reason, StoreError


def make_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / ".hidden").mkdir()
    shutil.copy(ARTICLES[0], folder / "Normans.txt")
    shutil.copy(ARTICLES[1], folder / "sub" / "Black_Death.txt")
    (folder / "notes.md").write_text("# Notes\n\nKestrels hover over the verge.\n")
    (folder / "script.py").write_text("print('not evidence')\n")
    (folder / ".hidden" / "secret.txt").write_text("Hidden text.\n")
    return folder


# -- ingesting --


def test_ingesting_a_folder_takes_every_supported_file_by_the_folder_and_relative_name(
    tmp_path: Path,
) -> None:
    with Memory() as memory:
        names = memory.ingest(make_folder(tmp_path))
        assert names == ["docs/Normans.txt", "docs/notes.md", "docs/sub/Black_Death.txt"]
        assert sorted(memory.documents()) == sorted(names)
        assert memory.stats()["documents"] == 3


def test_a_folder_name_prefixes_its_documents(tmp_path: Path) -> None:
    with Memory() as memory:
        names = memory.ingest(make_folder(tmp_path), name="archive")
    assert names == ["archive/Normans.txt", "archive/notes.md", "archive/sub/Black_Death.txt"]


def test_a_file_takes_its_own_name_or_the_given_one() -> None:
    with Memory() as memory:
        assert memory.ingest(ARTICLES[0]) == ["Normans.txt"]
        assert memory.ingest(ARTICLES[1], name="plague") == ["plague"]
        assert memory.documents() == ["Normans.txt", "plague"]


def test_progress_is_reported_per_file_and_at_the_end(tmp_path: Path) -> None:
    calls: list[tuple[int, int, str]] = []
    with Memory() as memory:
        memory.ingest(make_folder(tmp_path), progress=lambda *call: calls.append(call))
    assert calls[:4] == [
        (0, 3, "docs/Normans.txt"),
        (1, 3, "docs/notes.md"),
        (2, 3, "docs/sub/Black_Death.txt"),
        (3, 3, ""),
    ]
    # then the indexes brought up to date, each stage from its start to its end
    started = [name for done, _, name in calls[4:] if done == 0]
    assert started == ["index: word index", "index: meaning vectors", "index: entity graph"]
    assert calls[-1] == (1, 1, "index: entity graph")


@pytest.mark.parametrize(
    "bad",
    [b"", b"\x00\x01\x02\x03" * 512, b"   \n\n\t\n"],
    ids=["empty", "binary", "blank"],
)
def test_one_bad_file_in_a_folder_leaves_the_store_unchanged(tmp_path: Path, bad: bytes) -> None:
    folder = make_folder(tmp_path)
    (folder / "sub" / "zz-bad.txt").write_bytes(bad)
    with Memory(tmp_path / "s.sqlite") as memory:
        memory.ingest_text("Kestrels hover.", name="birds")
        before = memory.stats()
        with pytest.raises(IngestError) as caught:
            memory.ingest(folder)
        assert caught.value.path is not None and caught.value.path.endswith("zz-bad.txt")
        assert "zz-bad.txt" in str(caught.value)
        assert memory.stats() == before
        assert memory.documents() == ["birds"]


def test_a_missing_file_is_an_ingest_error_naming_it(tmp_path: Path) -> None:
    with Memory() as memory, pytest.raises(IngestError, match="nowhere.txt"):
        memory.ingest(tmp_path / "nowhere.txt")


def test_a_folder_without_documents_is_an_ingest_error(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text("print(1)\n")
    with Memory() as memory, pytest.raises(IngestError, match="no supported documents"):
        memory.ingest(tmp_path)


@pytest.mark.parametrize("name", ["", "   "])
def test_a_text_needs_a_name(name: str) -> None:
    with Memory() as memory, pytest.raises(IngestError, match="name"):
        memory.ingest_text("Kestrels hover.", name=name)


@pytest.mark.parametrize("text", ["", "  \n ", "\x00\x01\x02" * 100])
def test_an_unusable_text_is_an_ingest_error_naming_it(text: str) -> None:
    with Memory() as memory:
        with pytest.raises(IngestError, match="birds"):
            memory.ingest_text(text, name="birds")
        assert memory.stats()["lines"] == 0


def test_ingest_errors_are_affidavit_errors() -> None:
    assert issubclass(IngestError, AffidavitError)


def test_the_demo_corpus_ingests_prose_pdf_and_tables() -> None:
    with Memory() as memory:
        memory.ingest(sorted(DEMO_DIR.iterdir()))  # its links, named one by one
        stats = memory.stats()
        assert set(memory.documents()) == {p.name for p in DEMO_DIR.iterdir()}
        assert stats["rows"] > 0 and stats["lines"] > stats["rows"]
        rows = [h for h in memory.search("hot meal price", k=5) if h.kind == "row"]
    assert rows[0].cells == {"Item": "Hot meal", "Price": "5.75"}


# -- answering --


def test_an_empty_store_refuses_every_question() -> None:
    with Memory() as memory:
        answer = memory.ask("Who was the first duke of Normandy?")
        assert memory.search("duke") == []
    assert answer.refused
    assert answer.reason == Reason.EMPTY_STORE
    assert answer.text == Reason.EMPTY_STORE.text


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("", Reason.EMPTY_QUESTION),
        ("What is it that was?", Reason.EMPTY_QUESTION),
        ("Zyxwv qwertyuiop?", Reason.NO_EVIDENCE),
    ],
)
def test_questions_without_usable_words_are_refused(squad, question: str, reason: Reason) -> None:
    answer = squad.ask(question)
    assert (answer.refused, answer.reason) == (True, reason.value)
    assert answer.audit["gate"] == []


def test_the_asking_context_goes_into_the_audit(squad) -> None:
    answer = squad.ask("When was the Battle of Hastings?", asked_at="2024-05-01", speaker="ann")
    assert answer.audit["asked_at"] == "2024-05-01"
    assert answer.audit["speaker"] == "ann"


def test_results_are_frozen(squad) -> None:
    answer = squad.ask("When was the Battle of Hastings?")
    assert isinstance(answer, Answer) and isinstance(answer.citations[0], Evidence)
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.text = "1067"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.citations[0].text = "forged"  # type: ignore[misc]


ALL_QUESTIONS = [q["question"] for q in QUESTIONS]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(ALL_QUESTIONS))
def test_every_citation_slices_back_to_its_stored_line(squad, squad_lines, question) -> None:
    answer = squad.ask(question)
    for cited in answer.citations:
        assert squad_lines[(cited.document, cited.position)] == (cited.kind, cited.text)
    if not answer.refused:
        assert answer.citations
        if "plan" in answer.audit:
            # A computed answer is the library's sentence ("The value is 1,345,596."); what
            # must slice back is every line its plan's inputs cite.
            for step in answer.audit["plan"]["trace"]:
                for given in step.get("inputs", []):
                    for cite in given["cites"]:
                        stored = squad_lines[(cite["document"], cite["position"])]
                        assert stored[1] == cite["text"]
        else:
            assert answer.text in " ".join(c.text for c in answer.citations)
    assert json.loads(json.dumps(answer.to_dict()))["refused"] is answer.refused


def test_search_evidence_is_json_ready(squad) -> None:
    hits = squad.search("Normandy", k=3)
    assert [h.to_dict()["document"] for h in hits] == ["Normans.txt"] * 3
    json.dumps([h.to_dict() for h in hits])
    assert hits[0].dateline().startswith("[Normans.txt #")


def test_the_squad_source_notes_are_not_in_the_shared_store(squad) -> None:
    # The shared store holds the five articles only: LICENSE and SOURCE stay out.
    assert sorted(squad.documents()) == sorted(a.name for a in ARTICLES)
    assert (SQUAD_DIR / "LICENSE.txt").exists()


def test_a_folders_special_files_and_links_out_are_skipped_with_a_warning(
    tmp_path: Path,
) -> None:
    import os

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ferry.txt").write_text("The ferry stopped in 1933.", encoding="utf-8")
    os.mkfifo(folder / "pipe.txt")  # reading it would block for ever
    (folder / "zero.txt").symlink_to("/dev/zero")  # reading it would never end
    outside = tmp_path / "outside.txt"
    outside.write_text("Not part of the folder.", encoding="utf-8")
    (folder / "out.txt").symlink_to(outside)
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("The cafe opened in 1920.", "utf-8")
    with Memory(dense=False) as memory:
        report = memory.ingest(folder)
        assert list(report) == ["docs/caf\\xe9.txt", "docs/ferry.txt"]
        assert [w.split(": ", 1)[1] for w in report.warnings] == [
            f"skipped, a link out of the folder (to {outside})",  # out.txt
            "skipped, not a regular file (a FIFO, device or socket)",  # pipe.txt
            "skipped, a link out of the folder (to /dev/zero)",  # zero.txt
            "the file name is not UTF-8; its bytes are kept as escapes",
        ]
        assert memory.ask("When did the cafe open?").text == "1920"


def test_a_store_opened_read_only_answers_but_refuses_every_write(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path, dense=False) as memory:
        memory.ingest_text("The Normans settled in Normandy.", name="n")
    with Memory(path, dense=False, read_only=True) as memory:
        assert memory.search("Normandy", k=1)[0].document == "n"
        with pytest.raises(StoreError, match="read-only"):
            memory.ingest_text("Another text.", name="m")
        assert memory.documents() == ["n"]
    with pytest.raises(StoreError, match="no store to open read-only"):
        Memory(tmp_path / "missing.sqlite", read_only=True)


def test_the_fingerprint_names_what_the_store_holds(tmp_path: Path) -> None:
    one, two = Memory(dense=False), Memory(tmp_path / "two.sqlite", dense=False)
    with one, two:
        for memory in (one, two):
            memory.ingest_text("The Normans settled in Normandy.", name="n")
        assert one.fingerprint() == two.fingerprint()
        before = one.fingerprint()
        one.ingest_text("The Normans settled in Normandy in 911.", name="n")
        assert one.fingerprint() != before


def test_line_gives_the_stored_line_a_citation_names() -> None:
    with Memory(dense=False) as memory:
        memory.ingest_text("First line here.\n\nSecond line there.", name="doc")
        cited = memory.search("Second line", k=1)[0]
        assert memory.line("doc", cited.position).text == cited.text
        assert memory.line("doc", 999) is None and memory.line("nowhere", 0) is None


def test_a_documents_headings_are_read_once_until_the_store_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = store_reads(monkeypatch, "heading_positions")
    text = "# The Normans\n\nThe Normans settled in Normandy.\n\nRollo led them there in 911.\n"
    with Memory(dense=False) as memory:
        memory.ingest_text(text, name="normans")
        first = memory.ask("Who led the Normans to Normandy?")
        memory.ask("Where did the Normans settle?")
        assert read == [read[0]]  # one document, read for the first question only
        memory.ingest_text("The Vikings raided Paris in 845.", name="vikings")
        again = memory.ask("Who led the Normans to Normandy?")
        assert len(read) == 2  # read again after the store changed
        # The same verdict on the same lines; the reader's probability weighs the
        # question's words by their rarity in the store, which the new document changes.
        assert (again.refused, again.reason, again.value) == (
            first.refused,
            first.reason,
            first.value,
        )
        assert [c.text for c in again.citations] == [c.text for c in first.citations]
