"""One of several things a line lists, read from the parse, on real licence lines: a thing
listed beside others is one of a list; a verb's two objects, a name alone, are not."""

from __future__ import annotations

from affidavit.text import one_of_a_list

# corpora/licences/idna-bsd-3-clause.md and apache-2.0.txt, each line as ingest joins it.
RETAIN = (
    "1. Redistributions of source code must retain the above copyright notice, this list "
    "of conditions and the following disclaimer."
)
GIVE = (
    "You must give any other recipients of the Work or Derivative Works a copy of this License; and"
)


def _said(line: str, span: str) -> bool:
    at = line.index(span)
    return one_of_a_list(line, at, at + len(span), "en")


def test_a_thing_listed_beside_others_is_one_of_a_list() -> None:
    assert _said(RETAIN, "the above copyright notice")
    assert _said(RETAIN, "the following disclaimer")


def test_a_verbs_two_objects_are_no_list() -> None:
    assert not _said(GIVE, "a copy of this License")
    assert not _said(GIVE, "any other recipients of the Work or Derivative Works")


def test_a_line_in_another_language_or_a_span_out_of_it_is_read_as_no_list() -> None:
    at = RETAIN.index("the above copyright notice")
    assert not one_of_a_list(RETAIN, at, at + 26, "es")
    assert not one_of_a_list(RETAIN, 0, len(RETAIN) + 5, "en")
