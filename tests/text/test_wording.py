"""A message's words for index terms: the word the text wrote, first come, never the stem."""

from __future__ import annotations

from affidavit.text.analyzer import analyzer_for
from affidavit.text.wording import Wording


def test_each_term_reads_as_the_first_word_the_text_wrote_for_it() -> None:
    english = analyzer_for("en")
    wording = Wording.of("Which regulation requires a harness? Harnesses, puppies, Puppy.", english)
    assert wording.words(["har", "puppi", "regul"]) == ["regulation", "harness", "puppies"]
    assert wording.word("requir") == "requires"


def test_a_term_the_text_never_wrote_stays_itself_after_the_written_ones() -> None:
    wording = Wording.of("the Galactic Senate", analyzer_for("en"))
    assert wording.words(["zzz", "senat", "galact"]) == ["Galactic", "Senate", "zzz"]


def test_turkish_words_keep_their_letters() -> None:
    turkish = analyzer_for("tr")
    wording = Wording.of("İstanbul'da eczaneleri", turkish)
    assert wording.words(turkish.terms("istanbul eczaneleri")) == ["İstanbul", "eczaneleri"]
