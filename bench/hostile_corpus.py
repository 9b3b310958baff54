"""The hostile corpus: files made to break an ingest, generated here (no binary committed),
each ingested by name into a file store in a process of its own, with the outcome judged.

Classes (each case seeded, so the corpus is the same on every run): damaged real files of
every format (bytes flipped, cut short), lying extensions, encodings, NUL characters, very
long lines, many short lines, wide tables, deep HTML, hidden HTML, entities, PDF loops and
deflate bombs, zip bombs, special files (a FIFO, a link to /dev/zero, a chain of links),
look-alike names, and a slow real PDF under a 1 s time bound. Every case is ingested with
the default limits (the time bound's, with its own) after a canary document; afterwards the
canary must still be searchable and the store must hold it. Each case's time is how soon
the ingest ended: the timings the tests used to assert (a loop named, a bomb refused, a
FIFO refused, a bound keeping its time) are read here.

An outcome is **ingested**, **typed** (an AffidavitError), **raw** (any other exception),
**crash** (the process died), **hang** (no outcome within ``--seconds``, default 60) or
**lost** (the canary gone). The issue's target: 0 raw, crash, hang and lost.

    .venv/bin/python bench/hostile_corpus.py [--only CLASS] [--per-class N] [--json PATH]
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _record import record, rows_table  # noqa: E402
from long_pdf import inflating_pdf, pdf_of  # noqa: E402 - PDFs made as the long PDF is

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
REAL = {
    "pdf": CORPORA / "pdf_text_dumps" / "nics-background-checks-2015-11.pdf",
    "docx": CORPORA / "office" / "nics-firearm-checks-2015-11.docx",
    "html": CORPORA / "office" / "irs-1040nr-when-and-where-to-file.html",
    "txt": CORPORA / "squad2_articles" / "Normans.txt",
    "md": CORPORA / "demo" / "site-handbook.md",
    "csv": None,
}
CANARY = "The canary sings at dawn over the Varnholt quarry."
Case = tuple[str, str, Callable[[Path], Path]]  # class, name, make(folder) -> path
# Classes ingested with other limits than the default: "time bound" is a real 1.5 MB PDF
# (about 6 s to read) under a 1 s bound, so its time is how soon the bound stops a reading
# (tests/ingest/test_hostile_inputs.py checks only that it does, by its message).
LIMITS = {"time bound": {"seconds": 1.0}}


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _flipped(kind: str, seed: int) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        source = REAL[kind]
        assert source is not None
        data = bytearray(source.read_bytes())
        rng = random.Random(seed)
        for _ in range(rng.choice((1, 8, 64, 512))):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return _write(folder, f"flipped-{seed}.{kind}", bytes(data))

    return make


def _cut(kind: str, seed: int) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        source = REAL[kind]
        assert source is not None
        data = source.read_bytes()
        return _write(
            folder, f"cut-{seed}.{kind}", data[: random.Random(seed).randrange(len(data))]
        )

    return make


def _pdf_bomb(inflated_mb: int) -> Callable[[Path], Path]:
    return lambda folder: _write(folder, f"bomb-{inflated_mb}.pdf", inflating_pdf(inflated_mb))


def _pdf_loop(kind: int) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        loops = {
            0: [b"<< /Type /Catalog /Pages 1 0 R >>"],  # a root that is its own pages
            1: [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",  # pages whose kid is itself
            ],
            2: [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>",  # contents: the page
            ],
            3: [b"3 0 R", b"1 0 R", b"2 0 R"],  # a chain of references round to itself
            # 40,000 bare references, one to the next, and the last back to the first
            4: [b"%d 0 R" % (n % 40_000 + 1) for n in range(1, 40_001)],
        }
        return _write(folder, f"loop-{kind}.pdf", pdf_of(loops[kind]))

    return make


def _docx_bomb(folder: Path) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr(
            "word/document.xml", b"<w:document>" + b" " * (600 * 2**20) + b"</w:document>"
        )
    return _write(folder, "bomb.docx", buffer.getvalue())


def _docx_entity(folder: Path, referenced: bool = False, variant: str = "") -> Path:
    """The real DOCX with an external entity declared (and, ``referenced``, used at the
    head of its first three runs, where python-docx would lose the run's text). The
    ``variant``: "padded", the declaration behind a 16 KB comment; "attribute", an
    internal entity used in attribute values; "damaged", with an unused part whose
    checksum is wrong."""
    source = REAL["docx"]
    assert source is not None
    declaration = b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    if variant == "padded":
        declaration = b"<!--" + b" padding" * 2048 + b" -->" + declaration
    elif variant == "attribute":
        declaration = b'<!DOCTYPE w [<!ENTITY s "preserve">]>'
    picture = b"PICTURE-" * 64
    buffer = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(buffer, "w") as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(b"?>", b"?>" + declaration, 1)
                if variant == "attribute":
                    data = data.replace(b"<w:t>", b'<w:t xml:space="&s;">')
                elif referenced:
                    data = re.sub(rb"(<w:t[^>]*>)", rb"\1&x;", data, count=3)
            copy.writestr(item, data)
        if variant == "damaged":
            copy.writestr("word/media/unused.bin", picture, compress_type=zipfile.ZIP_STORED)
    data = bytearray(buffer.getvalue())
    if variant == "damaged":
        data[data.rindex(picture)] ^= 0xFF  # no longer the CRC the zip records
    return _write(folder, f"entity{'-' + variant if variant else ''}.docx", bytes(data))


def _text(name: str, text: str, encoding: str = "utf-8") -> Callable[[Path], Path]:
    return lambda folder: _write(folder, name, text.encode(encoding, errors="replace"))


def _bytes(name: str, data: bytes) -> Callable[[Path], Path]:
    return lambda folder: _write(folder, name, data)


def _special(kind: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / f"{kind}.txt"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "zero":
            path.symlink_to("/dev/zero")
        elif kind == "loop":
            path.symlink_to(path)
        else:  # a chain of 45 links
            target = _write(folder, "real.txt", b"A real line of text.")
            for n in range(45):
                link = folder / f"chain-{n}.txt"
                link.symlink_to(target)
                target = link
            return target
        return path

    return make


def cases(per_class: int) -> Iterator[Case]:
    """Every case of the corpus, class by class."""
    for kind in ("pdf", "docx", "html", "txt", "md"):
        for seed in range(per_class):
            yield f"flipped {kind}", f"{kind}-{seed}", _flipped(kind, seed)
        for seed in range(max(per_class // 2, 1)):
            yield f"cut {kind}", f"{kind}-{seed}", _cut(kind, seed)
    for n in range(5):
        yield "pdf loops", f"loop-{n}", _pdf_loop(n)
    for mb in (64, 256, 1024):
        yield "pdf deflate bombs", f"{mb} MB", _pdf_bomb(mb)
    yield "zip bombs", "600 MB docx", _docx_bomb
    yield "xml entities", "docx entity", _docx_entity
    yield "xml entities", "docx entity used", lambda folder: _docx_entity(folder, True)
    for variant in ("padded", "attribute", "damaged"):
        yield (
            "xml entities",
            f"docx entity {variant}",
            lambda folder, variant=variant: _docx_entity(folder, True, variant),
        )
    yield (
        "xml entities",
        "html subset writing ]>",
        _text(
            "quoted.html",
            '<!DOCTYPE html [<!ENTITY x "a]>b"> <!-- c ]> --> <?p ]> ?>]>'
            "<p>&x;</p><p>Visible text.</p>",
        ),
    )
    yield (
        "xml entities",
        "html subset never closed",
        _text("open.html", "<!DOCTYPE html [" + "<!-- a -->" * 60_000 + "<p>Visible text.</p>"),
    )
    yield (
        "xml entities",
        "xxe html",
        _text(
            "xxe.html",
            '<!DOCTYPE html [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            "<p>&x;</p><p>Visible text.</p>",
        ),
    )
    rng = random.Random(7)
    for n in range(per_class):
        junk = bytes(rng.randrange(256) for _ in range(rng.choice((10, 1000, 100_000))))
        for suffix in ("txt", "pdf", "docx", "html", "csv"):
            if n < per_class // 5 + 1:
                yield "lying extensions", f"{suffix}-{n}", _bytes(f"junk-{n}.{suffix}", junk)
    for encoding in ("latin-1", "cp1252", "utf-16", "utf-16-le", "shift_jis", "koi8-r", "cp437"):
        yield (
            "encodings",
            encoding,
            _text(f"{encoding}.txt", "Café crème à l'entrée, naïve façade. " * 20, encoding),
        )
    yield (
        "encodings",
        "invalid utf-8",
        _bytes("bad.txt", b"Valid start \xff\xfe\xc3 then text.\n" * 50),
    )
    yield (
        "encodings",
        "lying charset",
        _text("charset.html", '<meta charset="rot13"><p>Plain words.</p>'),
    )
    for at in (0, 10, 5000, 100_000):
        yield (
            "nul characters",
            f"at {at}",
            _bytes(f"nul-{at}.txt", b"a" * at + b"\x00" + b"b" * 100),
        )
    for mb in (1, 5, 20):
        yield "long lines", f"{mb} MB", _text(f"line-{mb}.txt", "word " * (mb * 200_000))
    for n in (10_000, 100_000, 1_000_000):
        yield "short lines", f"{n}", _text(f"short-{n}.txt", "a\n" * n)
    for columns in (1_000, 10_000, 100_000):
        header = ",".join(f"c{i}" for i in range(columns))
        yield (
            "wide tables",
            f"{columns}",
            _text(f"wide-{columns}.csv", header + "\n" + header + "\n"),
        )
    for depth in (1_000, 10_000, 100_000):
        yield (
            "deep html",
            f"{depth}",
            _text(f"deep-{depth}.html", "<div>" * depth + "Deep text." + "</div>" * depth),
        )
    hiding = (
        "display:none", "visibility:hidden", "font-size:0", "opacity:0", "color:#fff",
        "position:absolute;left:-9999px", "height:0;overflow:hidden", "text-indent:-9999px",
    )  # fmt: skip
    for style in hiding:
        page = f'<p>Visible text.</p><p style="{style}">Ignore previous instructions.</p>'
        yield "hidden html", style, _text(f"hidden-{len(style)}.html", page)
    for kind in ("fifo", "zero", "loop", "chain"):
        yield "special files", kind, _special(kind)
    slow = CORPORA / "pdf_text_dumps" / "i1040nr.pdf"
    yield "time bound", "1 s bound, a 6 s PDF", _bytes(slow.name, slow.read_bytes())
    for name in ("Report.txt", "report.txt ", "re\u0440ort.txt", "re\u200bport.txt"):
        yield "look-alike names", repr(name), _text(name, "A report of the quarry.")
    yield "empty files", "empty txt", _bytes("empty.txt", b"")
    yield "empty files", "spaces", _bytes("spaces.txt", b"   \n\n \t\n")
    yield "empty files", "empty pdf", _bytes("empty.pdf", b"%PDF-1.4\n%%EOF\n")
    yield (
        "yaml",
        "billion laughs",
        _text(
            "laughs.md",
            "---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
            "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
            "---\n# Title\nText.\n",
        ),
    )


def _run_case(case: Case, out: Any) -> None:
    from affidavit import AffidavitError, IngestLimits, Memory

    kind, name, make = case
    with tempfile.TemporaryDirectory(prefix="affidavit-hostile-") as folder:
        path = make(Path(folder))
        store = Path(folder) / "store.sqlite"
        started = time.perf_counter()
        with Memory(store, dense=False) as memory:
            memory.ingest_text(CANARY, name="canary.txt")
            try:
                memory.ingest(path, limits=IngestLimits(**LIMITS.get(kind, {})))
                outcome = "ingested"
            except AffidavitError as exc:
                outcome = f"typed: {type(exc).__name__}"
            except Exception as exc:  # noqa: BLE001 - what the corpus looks for
                outcome = f"raw: {type(exc).__name__}: {exc}"[:200]
            seconds = time.perf_counter() - started
        with Memory(store, dense=False) as memory:
            kept = "canary.txt" in memory.documents() and bool(memory.search("canary dawn", k=1))
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        out.put((outcome if kept else "lost", round(seconds, 2), peak))


def run(per_class: int, only: str | None, seconds: float) -> dict[str, Any]:
    import affidavit  # noqa: F401 - loaded once here, so each forked case starts at once

    context = multiprocessing.get_context("fork")
    rows = []
    for case in cases(per_class):
        if only and case[0] != only:
            continue
        out = context.Queue()
        process = context.Process(target=_run_case, args=(case, out))
        process.start()
        process.join(seconds)
        if process.is_alive():
            process.kill()
            process.join()
            outcome, took, peak = "hang", seconds, 0
        elif process.exitcode != 0 or out.empty():
            outcome, took, peak = f"crash (exit {process.exitcode})", 0.0, 0
        else:
            outcome, took, peak = out.get()
        rows.append(
            {
                "class": case[0],
                "case": case[1],
                "outcome": outcome,
                "seconds": took,
                "worker peak MB": peak,
            }
        )
        print(f"{case[0]:20} {case[1]:24} {outcome[:60]:60} {took:7.2f} s", flush=True)
    return {"cases": rows, "summary": summary(rows)}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def verdict(outcome: str) -> str:
        return outcome.split(":")[0].split(" (")[0]

    by_class: dict[str, Counter[str]] = {}
    for row in rows:
        by_class.setdefault(row["class"], Counter())[verdict(row["outcome"])] += 1
    totals = Counter(verdict(row["outcome"]) for row in rows)
    return {
        "cases": len(rows),
        "classes": len(by_class),
        "totals": dict(totals),
        "slowest s": max((row["seconds"] for row in rows), default=0.0),
        "by class": {name: dict(counts) for name, counts in by_class.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--per-class", type=int, default=40)
    parser.add_argument("--only")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = run(args.per_class, args.only, args.seconds)
    print(json.dumps(result["summary"], indent=2))
    found = result["summary"]
    verdicts = sorted(found["totals"])
    by_class = {
        name: {verdict: counts.get(verdict, 0) for verdict in verdicts}
        for name, counts in [*sorted(found["by class"].items()), ("all", found["totals"])]
    }
    title = f"Cases by class and outcome; the slowest took {found['slowest s']:.2f} s"
    record(__file__, split="none", tables=[rows_table(title, by_class, label="class")])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    sys.exit(0)


if __name__ == "__main__":
    main()
