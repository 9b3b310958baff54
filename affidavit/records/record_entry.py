"""The entry gate for records drawn from a line (a model's or a reader's extraction): a
record enters only if its witnessing line carries its subject, a cue of its predicate and
its value, every digit exactly. A record the line does not say never enters; the refusal
names what the line lacks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from affidavit.text import Analyzer, analyzer_for, content_terms, detect_language, fold, name_terms

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Entry:
    """Whether a record may enter, and what its line lacks when it may not."""

    admitted: bool
    lacks: tuple[str, ...] = ()

    @property
    def detail(self) -> str:
        if self.admitted:
            return "the line carries the subject, a cue of the predicate and the value"
        return "the witnessing line does not say " + "; ".join(self.lacks)


def entry(subject: str, predicate: str, value: str, line: str, document: str) -> Entry:
    """May the record (subject, predicate, value) enter on the witness of ``line`` of
    ``document`` (its name, and its title where known)? The subject's words may stand in
    the line or in the document's name or title (a form's "Docket No." is the form's); the
    predicate needs one of its content words in
    the line, unless it has none; the value must stand in the line whole, and each digit
    run of it exactly (a "1,500" is not the line's "1,050")."""
    analyzer: Analyzer = analyzer_for(detect_language(line))
    said = set(analyzer.terms(line))
    lacks = []
    subject_terms = set(content_terms(subject, analyzer))
    if not subject_terms <= said | set(name_terms(document, analyzer)):
        lacks.append(f"the subject {subject!r}")
    cues = set(content_terms(predicate, analyzer))
    if cues and not cues & said:
        lacks.append(f"a word of the predicate {predicate!r}")
    written = " ".join(fold(line).split())
    if " ".join(fold(value).split()) not in written:
        lacks.append(f"the value {value!r}")
    elif not set(_DIGITS.findall(value)) <= set(_DIGITS.findall(line)):
        lacks.append(f"the digits of {value!r}")
    return Entry(not lacks, tuple(lacks))
