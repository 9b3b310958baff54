"""Sentences split on forked workers for a long ingest are the ones split here, in order,
and a worker that dies leaves the rest to this process."""

from __future__ import annotations

import multiprocessing.context

import pytest
from conftest import ARTICLES

from affidavit.ingest import sentences
from affidavit.ingest.sentences import split_sentences, splitters


def _paragraphs() -> list[str]:
    text = "\n\n".join(article.read_text(encoding="utf-8") for article in ARTICLES)
    return [p for p in text.split("\n\n") if p.strip()]


def test_splitters_split_as_this_process_does() -> None:
    paragraphs = _paragraphs()
    here = list(split_sentences(paragraphs))
    with splitters(2):
        assert len(sentences._workers) == 2
        elsewhere = list(split_sentences(paragraphs))
    assert not sentences._workers  # closed with the ingest
    assert elsewhere == here
    assert sum(len(s) for s in here) > len(paragraphs)  # runs of several paragraphs each


def test_a_splitter_gone_leaves_the_rest_to_this_process() -> None:
    paragraphs = _paragraphs()
    here = list(split_sentences(paragraphs))
    with splitters(2):
        process, _ = sentences._workers[1]
        process.kill()
        process.join()
        assert list(split_sentences(paragraphs)) == here
        assert not sentences._workers  # no longer used


def test_where_no_process_may_be_forked_the_sentences_are_split_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A daemonic process (a pool's worker) may not start children: multiprocessing
    # refuses with an AssertionError.
    def refused(self: object) -> None:
        raise AssertionError("daemonic processes are not allowed to have children")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refused)
    paragraphs = _paragraphs()
    with splitters(2):
        assert not sentences._workers
        assert list(split_sentences(paragraphs)) == list(sentences._split_here(paragraphs, "en"))
