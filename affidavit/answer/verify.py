"""verify(): audit any text, ours or another system's, sentence by sentence against the
store; each sentence goes through answer/pipeline.py's VERIFY stages."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.archive import Archive
from affidavit.answer.audit import AskRecord
from affidavit.answer.pipeline import VERIFY, run
from affidavit.answer.read import read_for_verify
from affidavit.answer.state import Asking, Flow
from affidavit.index.scope import Scope
from affidavit.question.question import Question
from affidavit.results import SentenceVerdict, Verdict
from affidavit.text.sentences import split_sentences


def verify(
    text: str, archive: Archive, *, question: str | None = None, scope: Scope | None = None
) -> Verdict:
    """Audit ``text`` sentence by sentence against the documents of ``archive`` (one
    store's or a sharded store's).

    Each sentence is judged by the judges (gates/registry.py) against the evidence subsets
    its words (and the question's) retrieve, best document first: it is *supported* by the
    first subset whose lines pass every judge, *vetoed* when the best-matching document
    does not carry one of its numbers, and *dropped* otherwise, with the catalogued reason.
    A number no line writes ("rose 24.4%") is supported only when the store's own cells
    reproduce it (answer/recompute.py), and the verdict carries the plan that did. A bare
    "yes" is read as the question's statement and verified as such; a bare "no" asserts an
    absence that no line can attest, so it is unverifiable. With a ``scope`` only its
    documents are read: a sentence about one document is neither supported nor contested by
    another.
    """
    language, asked = read_for_verify(text, question, archive.main_language)
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    sentences = [s for group in split_sentences(paragraphs, language) for s in group]
    verdicts = [
        _verdict(sentence, archive, asked, question, language, scope) for sentence in sentences
    ]
    return Verdict(text=text, question=question, sentences=verdicts)


def _verdict(
    sentence: str,
    archive: Archive,
    asked: Question | None,
    question: str | None,
    language: str,
    scope: Scope | None,
) -> SentenceVerdict:
    state = Asking(
        flow=Flow.VERIFY,
        text=sentence,
        checked=sentence,
        archive=archive,
        record=AskRecord("verify", None, None),
        question=asked,
        question_text=question,
        language=language,
        scope=scope,
    )
    state = run(state, VERIFY)
    verdict: SentenceVerdict = state.verdict
    # A Spanish or Turkish sentence was checked as its English reading, said beside it.
    return replace(verdict, read_in=state.read_in) if state.read_in else verdict
