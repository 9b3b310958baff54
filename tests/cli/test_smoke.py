"""The program as a user runs it: the installed `affidavit` command, in a subprocess, from
a fresh directory, with default options, over a folder of the five kinds of document a
user brings (PDF, DOCX, HTML, Markdown and a scanned PDF), through ingest, ask, verify,
search, a batch interrupted and resumed, its report, tell and records."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
AFFIDAVIT = Path(sys.executable).parent / "affidavit"
OCR = all(
    importlib.util.find_spec(name) is not None
    for name in ("rapidocr_onnxruntime", "pypdfium2", "wordninja")
)
QUESTIONS = (
    ("Who must sign a hot work permit?", "Dana Okafor"),
    ("How much does a sandwich cost?", "3.20"),
    ("What does Regulation III-52.1 require?", None),
    ("Where is the moon base?", None),  # no document says
)


def run(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(AFFIDAVIT), *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert not check or done.returncode == 0, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    return done


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh directory holding a folder of documents, ingested there by the command."""
    here = tmp_path_factory.mktemp("user")
    docs = here / "docs"
    docs.mkdir()
    for source in (
        "demo/senate-expenditures.pdf",
        "office/nics-firearm-checks-2015-11.docx",
        "office/irs-1040nr-when-and-where-to-file.html",
        "demo/site-handbook.md",
        *(["scanned/senate-expenditures-scanned.pdf"] if OCR else []),
    ):
        shutil.copy(CORPORA / source, docs)
    said = run("ingest", "docs", "--store", "s.sqlite", cwd=here)
    assert said.stdout.startswith(f"{5 if OCR else 4} document(s) in s.sqlite")
    return here


def test_ask_answers_with_its_line_and_refuses_what_no_document_says(here: Path) -> None:
    answered = run("ask", "Who must sign a hot work permit?", "--store", "s.sqlite", cwd=here)
    assert "A: In docs/site-handbook.md: the site manager, Dana Okafor" in answered.stdout
    assert "cited [docs/site-handbook.md #" in answered.stdout
    refused = run("ask", "Where is the moon base?", "--store", "s.sqlite", cwd=here)
    assert "A:" not in refused.stdout and "refused" in refused.stdout.lower()


def test_verify_supports_what_a_line_says_and_fails_what_none_does(here: Path) -> None:
    held = run(
        "verify", "A hot work permit is valid for one shift.", "--store", "s.sqlite", cwd=here
    )
    assert held.returncode == 0 and "[supported]" in held.stdout
    false = "A hot work permit is valid for nine shifts."
    failed = run("verify", false, "--store", "s.sqlite", cwd=here, check=False)
    assert failed.returncode == 2 and "[supported]" not in failed.stdout


@pytest.mark.parametrize(
    ("query", "document"),
    [
        ("harness work above the ground", "docs/site-handbook.md"),
        ("NICS firearm background checks", "docs/nics-firearm-checks-2015-11.docx"),
        ("where to file Form 1040-NR", "docs/irs-1040nr-when-and-where-to-file.html"),
        # Read by rows, the PDF's expense rows are the scan's rows word for word
        # ("CITIBANK" ties them, the scan's name sorts first); OCR reads "AIRFARE" as "ARF
        # ARE" on most lines.
        ("AIRFARE", "docs/senate-expenditures.pdf"),
    ],
)
def test_search_finds_each_kind_of_document(here: Path, query: str, document: str) -> None:
    said = run("search", query, "--store", "s.sqlite", "--json", cwd=here)
    assert document in {hit["document"] for hit in json.loads(said.stdout)}


@pytest.mark.skipif(not OCR, reason="the ocr extra is not installed")
def test_the_scanned_pdf_is_read_by_ocr_and_found(here: Path) -> None:
    scanned = "docs/senate-expenditures-scanned.pdf"
    said = run(
        "search", "AIRFARE", "--store", "s.sqlite", "--document", scanned, "--json", cwd=here
    )
    hits = json.loads(said.stdout)
    assert hits and all(hit["document"] == scanned for hit in hits)
    assert "WASHINGTON DC" in hits[0]["text"] and hits[0]["ocr_confidence"] > 0.5


def test_a_batch_interrupted_resumes_and_its_report_shows_the_answers(here: Path) -> None:
    questions = here / "questions.jsonl"
    with questions.open("w", encoding="utf-8") as out:
        for n in range(400):
            question, _ = QUESTIONS[n % len(QUESTIONS)]
            out.write(json.dumps({"id": f"q{n}", "question": question}) + "\n")
    answers = here / "answers.jsonl"
    command = [str(AFFIDAVIT), "batch", "questions.jsonl", "--store", "s.sqlite"]
    command += ["--out", "answers.jsonl"]
    first = subprocess.Popen(
        command,
        cwd=here,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A suite run in the background ignores SIGINT, and so would the batch (it would
        # run whole, nothing left to resume): Ctrl-C is given its default, as at a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while first.poll() is None and _lines(answers) < 20:
        time.sleep(0.05)
    if first.poll() is None:
        os.killpg(first.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it
    _, err = first.communicate(timeout=120)
    assert "Traceback" not in err.decode()
    resumed = subprocess.run(command, cwd=here, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    rows = [json.loads(line) for line in answers.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == [f"q{n}" for n in range(400)]  # once each, in order
    signed = [row for row in rows if row["question"] == QUESTIONS[0][0]]
    assert all("Dana Okafor" in row["text"] for row in signed)

    run("report", "answers.jsonl", "--store", "s.sqlite", "--out", "report.html", cwd=here)
    page = (here / "report.html").read_text(encoding="utf-8")
    assert "Dana Okafor" in page and "docs/site-handbook.md" in page


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_a_record_told_is_listed_and_answers(here: Path) -> None:
    run("tell", "Riverside Works", "site manager", "Dana Okafor", "--store", "s.sqlite", cwd=here)
    listed = run("records", "Riverside Works", "--store", "s.sqlite", cwd=here)
    assert "site manager" in listed.stdout and "Dana Okafor" in listed.stdout
