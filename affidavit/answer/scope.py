"""The second stage: what the question is asked of. The documents the filters chose (given
with it), or, with none given, the one document a question names when it names one of
several ("in the Apache License"), read there without the words that name it; and for
every document, the key terms its lines must carry."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.state import Asking, Flow


def scope(state: Asking) -> Asking:
    """The naming of the documents, the scope and the query retrieval reads."""
    asked = state.question
    naming = state.archive.naming(asked, state.analyzer)
    if state.flow is Flow.VERIFY:
        checked, question = state.checked, state.question_text
        said = f"{question} {checked}" if question and checked != question else checked
        return replace(state, naming=naming, query=said)
    assert asked is not None
    if state.scope is not None:
        return replace(state, naming=naming, query=asked.reading)
    query, named = naming.narrowed(asked)
    state = replace(state, naming=naming, query=query, scope=named)
    return state.noting(scope=named.to_dict()) if named is not None else state
