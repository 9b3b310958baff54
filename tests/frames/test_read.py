"""Clause frames read from real licence sentences (corpora/licences): the voice undone,
"may not" read as a prohibition shared by a coordinated verb, a governing verb's modality
given to its act, an act only said under another verb, anchors kept whole, and a
document's defined terms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affidavit.frames import Modality, Quantity, Role, anchors_in, defined_terms, read_frames

LICENCES = Path(__file__).resolve().parents[2] / "corpora" / "licences"


def sentence(document: str, opening: str) -> str:
    """The sentence of ``document`` that opens with ``opening``, its lines unwrapped."""
    text = " ".join((LICENCES / document).read_text(encoding="utf-8").split())
    match = re.search(re.escape(opening) + r"(?:[^.]|\.(?=\S))*\.", text)
    assert match, opening
    return match.group()


def test_may_not_forbids_and_the_coordinated_verb_shares_it() -> None:
    said = sentence("mpl-2.0.txt", "You may not remove or alter the substance")
    frames = {f.predicate: f for f in read_frames(said)}
    for act in ("remove", "alter"):
        assert frames[act].modality is Modality.OBLIGATION and frames[act].negated
        assert frames[act].argument(Role.AGENT).head in ("you", "licensee")


def test_the_passive_subject_is_the_patient() -> None:
    said = "Such Covered Software must also be made available in Source Code Form."
    (frame,) = [f for f in read_frames(said) if f.predicate == "make"]
    assert frame.argument(Role.PATIENT).head == "covered software"
    assert frame.modality is Modality.OBLIGATION and not frame.negated


def test_shall_not_include_is_a_negated_obligation_with_its_subject_as_agent() -> None:
    said = sentence(
        "apache-2.0.txt", "For the purposes of this License, Derivative Works shall not"
    )
    (frame,) = [f for f in read_frames(said) if f.predicate == "include"]
    assert frame.negated and frame.modality is Modality.OBLIGATION
    assert frame.argument(Role.AGENT).head == "derivative works"


def test_an_act_under_an_attempt_is_said_not_asserted_and_a_requirement_binds() -> None:
    said = sentence("mpl-2.0.txt", "You may not attempt to alter or restrict")
    frames = {f.predicate: f for f in read_frames(said)}
    # "may not attempt to alter": the attempt is forbidden, the altering only said.
    assert frames["alter"].embedded
    required = read_frames("The Recipient is required to notify the Discloser within 30 days.")
    (notify,) = [f for f in required if f.predicate == "notify"]
    assert notify.modality is Modality.OBLIGATION and not notify.embedded
    assert (
        notify.bounds and notify.bounds[0].relation == "within" and "30" in notify.bounds[0].values
    )


def test_a_negative_subject_negates_the_act_of_every_one() -> None:
    (frame,) = read_frames("No employee shall disclose the password.")
    assert frame.negated and frame.argument(Role.AGENT).quantity is Quantity.UNIVERSAL


def test_anchors_are_whole_and_a_year_is_not_one() -> None:
    said = sentence("mpl-2.0.txt", "(a) such Covered Software must also be made available")
    assert [a.key for a in anchors_in(said)] == ["section 3.1"]
    assert [a.key for a in anchors_in("Project A and Project B; Phase 2019; Section 5(b)")] == [
        "project a",
        "project b",
        "section 5(b)",
    ]


def test_a_document_s_defined_terms_name_one_party_one_way() -> None:
    lines = (LICENCES / "apache-2.0.txt").read_text(encoding="utf-8").split("\n\n")
    terms = defined_terms(" ".join(line.split()) for line in lines)
    assert "copyright owner" in terms.meanings["licensor"]
    # The usual names of a contract's sides are one party.
    assert terms.canonical("the Receiving Party") == terms.canonical("Recipient")


@pytest.mark.parametrize("text", ["", "x" * 3000])
def test_nothing_to_parse_reads_no_frame(text: str) -> None:
    assert read_frames(text) == ()


def test_a_line_s_frames_do_not_hang_on_whether_the_reader_parsed_it_first() -> None:
    # The frames reuse the reader's parse of a line where no name is merged; that parse
    # has names, which no frame may read ("by Christmas" is a date to the reader), or a
    # line's frames would hang on which part of affidavit read it first.
    from affidavit.frames import frames_to_text
    from affidavit.frames.parse import parsed_for_frames
    from affidavit.text import parsed, parsed_with_names

    line = "The recipient must return the drawings by Christmas."
    before = frames_to_text(read_frames(line))
    assert any(e.label_ == "DATE" for e in parsed_with_names(line).ents)
    parsed_for_frames.cache_clear()
    parsed.cache_clear()  # the next parse of the line is the reader's, with its names
    assert frames_to_text(read_frames(line)) == before
