"""The store's upkeep over the demo corpus: the catalogue lists every document oldest
stored first with its source and lines; stats count documents and lines per source;
vacuum gives back the room a removed document left and changes nothing the store holds;
a vacuum killed with SIGKILL leaves the store as it was; the CLI shows both; a document
that repeats a stored one almost whole is named in the ingest's warnings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

from affidavit import Memory
from affidavit.cli.main import main

DEMO = Path(__file__).resolve().parents[2] / "corpora" / "demo"


def filled(path: Path) -> Memory:
    memory = Memory(path, dense=False)
    memory.ingest(DEMO)
    memory.ingest_text("Dana Okafor signs every permit.", name="notes.txt", source="operator")
    return memory


def test_the_catalogue_and_the_counts_per_source(tmp_path: Path) -> None:
    with filled(tmp_path / "s.sqlite") as memory:
        listed = memory.catalogue()
        assert [d.name for d in listed][-1] == "notes.txt"  # stored last, listed last
        assert sorted(d.name for d in listed) == sorted(memory.documents())
        notes = listed[-1]
        assert (notes.source, notes.trust, notes.lines) == ("operator", 0.75, 1)
        assert [d.stored_at for d in listed] == sorted(d.stored_at for d in listed)
        by_source = memory.stats()["by_source"]
        assert by_source["operator"] == {"documents": 1, "lines": 1}
        assert by_source["document"]["documents"] == 6
        assert by_source["document"]["lines"] == sum(d.lines for d in listed[:-1])


def test_vacuum_gives_back_the_room_and_changes_nothing_held(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with filled(path) as memory:
        memory.remove("demo/Black_Death.txt")
        memory.remove("demo/Normans.txt")
        before = (memory.fingerprint(), [h.text for h in memory.search("oil embargo", k=5)])
        sizes = memory.vacuum()
        assert sizes["after"] < sizes["before"]
        assert (memory.fingerprint(), [h.text for h in memory.search("oil embargo", k=5)]) == before
    with Memory(path, dense=False) as memory:
        assert memory.fingerprint() == before[0]


VACUUMING = """
import sys
from affidavit import Memory
memory = Memory(sys.argv[1], dense=False)
print("ready", flush=True)
while True:
    memory.vacuum()
"""


def test_a_killed_vacuum_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with filled(path) as memory:
        memory.remove("demo/Black_Death.txt")
        held = memory.fingerprint()
    for kill in range(4):
        child = subprocess.Popen(
            [sys.executable, "-c", VACUUMING, str(path)], stdout=subprocess.PIPE
        )
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        time.sleep(0.05 + 0.07 * kill)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        with Memory(path, dense=False) as memory:
            assert memory.fingerprint() == held
            assert memory.search("oil embargo", k=1)


def test_the_cli_lists_and_vacuums(capsys, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    filled(path).close()
    assert main(["documents", "--store", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith("notes.txt") and "operator" in out[-2]
    assert out[-1] == "document: 6 documents, 515 lines; operator: 1 documents, 1 lines"
    assert main(["remove", "demo/Normans.txt", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main(["vacuum", "--store", str(path)]) == 0
    assert "bytes before" in capsys.readouterr().out
    assert os.path.exists(path)


def test_a_near_duplicate_is_named_in_the_ingests_warnings(tmp_path: Path) -> None:
    text = (DEMO / "Normans.txt").read_text(encoding="utf-8")
    versions = tmp_path / "versions"
    versions.mkdir()
    (versions / "normans-2024.txt").write_text(text.replace("Normandy", "Normandie", 1))
    memory = Memory(dense=False)
    assert memory.ingest(DEMO).warnings == []  # six different documents
    report = memory.ingest(versions)
    (said,) = report.warnings
    assert said.startswith("versions/normans-2024.txt: 9") and "demo/Normans.txt's too" in said
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        memory.ingest_text((DEMO / "Black_Death.txt").read_text(encoding="utf-8"), name="bd.txt")
        memory.ingest_text("Dana Okafor signs every permit.", name="notes.txt")
    assert [str(w.message).split(":")[0] for w in heard] == ["bd.txt"]


def test_near_duplicates_found_through_the_bands_are_those_every_signature_gives(
    monkeypatch,
) -> None:
    """The bands are an index, not an estimate: a document repeating another by 95% or more
    shares a band with it, so reading the documents that share a band finds the same
    pairs as reading every signature; a removed document's bands go with it."""
    from affidavit.store import resemblance

    lines = [f"Line {n} of the register says permit {n * 7} was signed." for n in range(200)]
    memory = Memory(dense=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for changed in (0, 2, 5, 9, 12, 40):  # lines replaced: 100% to 80% the same
            edited = [
                f"Line {n} was struck out." if n < changed else t for n, t in enumerate(lines)
            ]
            memory.ingest_text("\n\n".join(edited), name=f"v{changed}.txt")
        memory.ingest_text("Something else entirely, said once.", name="other.txt")
    conn = memory._store.conn
    names = [f"v{changed}.txt" for changed in (0, 2, 5, 9, 12, 40)] + ["other.txt"]
    banded = resemblance.near_duplicates(conn, names[:1])
    real_has_table = resemblance.has_table
    monkeypatch.setattr(
        resemblance, "has_table", lambda c, t: t != "signature_bands" and real_has_table(c, t)
    )
    every = resemblance.near_duplicates(conn, names[:1])
    others = {other for _, other, _ in banded}
    assert banded == every and "v2.txt" in others and "v40.txt" not in others
    monkeypatch.undo()
    memory.remove("v2.txt")
    held = conn.execute("SELECT COUNT(DISTINCT document_id) FROM signature_bands").fetchone()[0]
    assert held == len(names) - 1
