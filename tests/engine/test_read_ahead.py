"""The default engine reads ahead: before it proposes for each evidence subset, the lines its
learned reader will read of every subset are parsed in one pass of the pipeline
(engine/rules/engine.py's read_ahead, text/nlp.py's parse_with_names_ahead), and what it
proposes is what it proposes without that pass (licences of corpora/licences, one store)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from affidavit import Memory
from affidavit.engine import DefaultEngine
from affidavit.scorer.parsed_lines import read_line
from affidavit.text import nlp

LICENCES = Path(__file__).resolve().parents[2] / "corpora" / "licences"
QUESTIONS = [
    "Who may publish revised versions of the GNU Lesser General Public License?",
    "Where may litigation relating to the Mozilla Public License be brought?",
    "What must you give any other recipients of the Work under the Apache License?",
]


class _Counting:
    """The reading pipeline, counting the lines it parses one at a time and in passes."""

    def __init__(self, pipeline: Any) -> None:
        self.pipeline, self.alone, self.passes, self.in_passes = pipeline, 0, 0, 0

    def __call__(self, text: str, **options: Any) -> Any:
        self.alone += 1
        return self.pipeline(text, **options)

    def pipe(self, texts: list[str], **options: Any) -> Any:
        self.passes += 1
        self.in_passes += len(texts)
        return self.pipeline.pipe(texts, **options)


@pytest.fixture(scope="module")
def memory() -> Memory:
    store = Memory(dense=False)
    store.ingest(sorted(LICENCES.glob("*.[mt]*[dt]")))
    return store


def _asked(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], _Counting]:
    """Each question's answer with nothing parsed before, and the pipeline's count."""
    nlp.parse_pipeline()  # made before: the parse without names is not counted
    counting = _Counting(nlp.reading_pipeline())
    monkeypatch.setattr(nlp, "reading_pipeline", lambda: counting)
    answers = []
    for question in QUESTIONS:
        nlp._read_with_names.clear()
        read_line.cache_clear()
        answer = memory.ask(question)
        answers.append((answer.refused, answer.reason, answer.text, answer.audit.get("chosen")))
    return answers, counting


def test_the_reader_s_lines_of_every_subset_are_parsed_in_one_pass(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _answers, counting = _asked(memory, monkeypatch)
    # Every question reads lines of more than one licence: one pass each, no line alone.
    assert counting.passes == len(QUESTIONS)
    assert counting.in_passes >= 2 * len(QUESTIONS)
    assert counting.alone == 0


def test_reading_ahead_changes_no_answer(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    ahead, _ = _asked(memory, monkeypatch)
    monkeypatch.setattr(DefaultEngine, "read_ahead", lambda self, question, subsets: None)
    one_at_a_time, counting = _asked(memory, monkeypatch)
    assert counting.passes == 0 and counting.alone > 0  # the control: each line alone
    assert ahead == one_at_a_time
