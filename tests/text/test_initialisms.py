"""A name a line writes in capitalised words carries its initials as evidence
(text/abbreviations.py ``initialisms``): a question asking by the acronym ("EU
institutions") finds its key word in a line writing "European Union institutions"."""

from __future__ import annotations

from affidavit.text import analyzer_for, evidence_terms
from affidavit.text.abbreviations import initialisms, letters_asked, spelled_in, spells

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


def test_the_letters_a_question_asks_spelled_out() -> None:
    assert letters_asked("What does DFSG stand for?") == "DFSG"
    assert letters_asked("What is PPE short for?") == "PPE"
    assert letters_asked("What is the full form of GHS?") == "GHS"
    assert letters_asked("Who maintains the DFSG?") is None  # asks no spelling out


def test_the_words_a_line_spells_letters_out_with() -> None:
    # Real lines: the Debian Social Contract, the Python licence history, the New
    # Maintainers' Guide (corpora/compliance_set).
    assert spelled_in("The Debian Free Software Guidelines (DFSG)", "DFSG") == [
        "Debian Free Software Guidelines"
    ]
    psf = (
        "In 2001, the Python Software Foundation (PSF, see https://www.python.org/psf/) was "
        "formed, a non-profit organization created specifically to own Python-related "
        "Intellectual Property."
    )
    assert spelled_in(psf, "PSF") == ["Python Software Foundation"]
    itp = (
        "If no one else is working on it, file an ITP (Intent To Package) bug report to the "
        "wnpp pseudo-package using reportbug."
    )
    assert spelled_in(itp, "ITP") == ["Intent To Package"]
    # Letters in brackets beside words that do not spell them are no expansion.
    assert spelled_in("the Filesystem Hierarchy (FHS, see below)", "FHS") == []


def test_words_spell_letters_through_their_joins_and_hyphens() -> None:
    assert spells("Globally Harmonized System of Classification and Labelling", "GHS")
    assert spells("Self-Contained Breathing Apparatus", "SCBA")
    assert spells("Software in the Public Interest", "SPI")
    assert not spells("our definition of free software", "DFSG")
