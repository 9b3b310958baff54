"""The mining kept up to date as text is added (index/entities/mined_counts.py): after each
addition, the entities a mining of the whole text gives, phrase for phrase, count for
count and name for name."""

from __future__ import annotations

from conftest import ARTICLES
from test_entities import article_lines

from affidavit.index.entities.corpus import Corpus, KeptWords, read_after
from affidavit.index.entities.mined_counts import MinedCounts
from affidavit.index.entities.mining import mine_corpus


def _grown(rows: list[tuple[int, str, str]], cuts: list[int]) -> list[bool]:
    """Mine ``rows`` up to the first cut, add the rest cut by cut; whether the counts'
    entities equal a whole mining's after each addition."""
    counts = MinedCounts.mine(Corpus.read(rows[: cuts[0]]))
    assert counts is not None
    words = KeptWords.of_corpus(counts.corpus)
    equal = []
    for start, end in zip(cuts, cuts[1:], strict=False):
        counts.add(read_after(counts.corpus, rows[start:end], words))
        equal.append(counts.entity_list == mine_corpus(Corpus.read(rows[:end])))
    return equal


def test_an_article_added_a_paragraph_at_a_time_is_mined_as_a_whole() -> None:
    rows = article_lines(*ARTICLES[:3])
    equal = _grown(rows, list(range(1, len(rows) + 1)))
    assert len(equal) == len(rows) - 1 and all(equal)


def test_a_phrase_turned_away_on_its_pmi_alone_is_kept_once_the_text_has_grown() -> None:
    """The phrase "alpha beta" (3 times; alpha 10, beta 6) passes every test but its PMI
    while the text is short: text about other things, added, lifts its PMI over the bar
    though none of its counts changed."""
    told = [
        "one alpha beta two",
        "three alpha beta four",
        "five alpha beta six",
        *[f"alpha gamma{n} delta{n}" for n in range(7)],
        *[f"epsilon{n} beta zeta{n}" for n in range(3)],
        *[f"filler{n} words{n} here{n} there{n}" for n in range(12)],
    ]
    later = [f"other{n} matters{n} entirely{n} told{n} here" for n in range(30)]
    rows = [(i, text, "en") for i, text in enumerate([*told, *later])]
    counts = MinedCounts.mine(Corpus.read(rows[: len(told)]))
    assert counts is not None
    assert ("alpha", "beta") not in {e.words for e in counts.entity_list}
    counts.add(read_after(counts.corpus, rows[len(told) :], KeptWords.of_corpus(counts.corpus)))
    whole = mine_corpus(Corpus.read(rows))
    assert ("alpha", "beta") in {e.words for e in whole}
    assert counts.entity_list == whole


def test_the_lines_that_may_name_an_entity_are_those_linking_reads() -> None:
    from affidavit.index.entities.linking import lines_naming

    rows = article_lines(*ARTICLES)
    counts = MinedCounts.mine(Corpus.read(rows))
    assert counts is not None
    for entity in counts.entity_list[:40]:
        found = counts.lines_naming([entity])
        assert found is not None
        assert found.tolist() == lines_naming(counts.corpus, [entity]).tolist()
