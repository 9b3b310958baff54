"""The analyzer: a word's index term is never empty."""

from affidavit.text.analyzer import Analyzer


def test_a_suffix_the_stemmer_reads_as_nothing_stays_a_term():
    # Turkish Snowball stems "ları" (of "DNA'ları") to an empty string; a term is never empty.
    assert Analyzer("tr").terms("DNA'ları") == ["dna", "lari"]
