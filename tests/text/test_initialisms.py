"""A name a line writes in capitalised words carries its initials as evidence
(text/abbreviations.py ``initialisms``): a question asking by the acronym ("EU
institutions") finds its key word in a line writing "European Union institutions"."""

from __future__ import annotations

from affidavit.text import analyzer_for, evidence_terms
from affidavit.text.abbreviations import initialisms

EUPL_JURISDICTION = (
    "any litigation resulting from the interpretation of this License, arising between the "
    "European Union institutions, bodies, offices or agencies, as a Licensor, and any "
    "Licensee, will be subject to the jurisdiction of the Court of Justice of the European "
    "Union, as laid down in article 272 of the Treaty on the Functioning of the European Union"
)


def test_a_names_initials_are_read_through_its_joining_words() -> None:
    found = initialisms(EUPL_JURISDICTION)
    assert {"eu", "cjeu", "tfeu"} <= found


def test_a_name_opening_a_longer_one_carries_its_own_initials() -> None:
    line = "Python software is licensed under the Python Software Foundation License Version 2."
    assert "psf" in initialisms(line)


def test_words_apart_make_no_name() -> None:
    # A full stop, a figure or a comma between capitalised words ends a name; a
    # sentence's opening word alone is none.
    assert initialisms("The embargo ended in March 1974. Acme Corp employs 40 people.") == {"ac"}
    assert initialisms("Paris, Texas, is small.") == frozenset()
    assert initialisms("The licence ends.") == frozenset()


def test_a_line_writing_the_name_carries_the_acronym_a_question_asks_by() -> None:
    analyzer = analyzer_for("en")
    (eu,) = analyzer.terms("EU institutions")[:1]
    assert eu in evidence_terms(EUPL_JURISDICTION, analyzer)
    assert eu not in evidence_terms("any litigation between institutions and a Licensee", analyzer)
