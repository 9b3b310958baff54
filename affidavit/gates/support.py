"""Whether lines carry a question: its distinctive words, weighed by how rare they are.
One test, one setting: ask's candidates, verify's sentences and the census all use it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from affidavit.gates.decision import Gate, GateDecision
from affidavit.question import document_nouns
from affidavit.reasons import Reason, compared
from affidavit.text import NO_WORDING, Analyzer, Wording, dates_in, name_terms

# NOTE: chosen on the tuning half of SQuAD 2.0 dev and of bench/doc_qa_questions.jsonl
# (bench/RESULTS.md, "Exact answers"); reported on the other halves.
MIN_CARRIED = 0.8
# The share asked of a conversation's turns when the conversation tells the question of
# the speaker it names and of no one else more fully (archive/told_of.py): the person is
# checked twice already (there, and by the holder tier on the answer's own lines), so fewer
# of the other words must be written. NOTE: chosen on LoCoMo's tune conversations, the
# report conversations never read (bench/RESULTS.md, issue 13). Answerable questions
# refused / adversarial ones refused: 0.65 0.424 / 0.897, 0.6 0.390 / 0.874, 0.55 0.379
# / 0.868, 0.5 0.343 / 0.845; 0.55 is the lowest share keeping the second above 0.85.
CONFIRMED_SPEAKER_CARRIED = 0.55
# The share asked of the lines behind a bare answer to a question ("Hawaii"), with the
# lines that name what they name (context.bridged): the question's own wording ("started",
# "located") is seldom the evidence's, and the answer's claims are read back in full
# before this tier; the rarest key word must still be written there. NOTE: chosen on the
# HaluEval QA tune rows (first 400; bench/RESULTS.md, issue 39), right answers accepted
# (hallucinated rejected 0.95 throughout): 0.6 0.66, 0.5 0.76, 0.4 0.83, 0.3 0.86, 0.0
# 0.89. Lower still gains on HaluEval, whose stores hold only the row's own knowledge;
# over a store of many documents the share is what keeps an answer to its question, so
# the highest share accepting 0.85 of the right answers is kept.
BARE_CARRIED = 0.3
# Lines beside a supporting line that may carry the question's words for it ("He was
# crowned in 1066." after the line naming him); they are then cited too. NOTE: swept by
# bench/gate_thresholds.py on the tune splits: 2 raised HaluEval 0.670 -> 0.712 but cost
# SQuAD 2.0 F1 (0.463 -> 0.447 on the whole tune split), so 1 is kept (bench/RESULTS.md,
# issue 12).
SUPPORT_REACH = 1
# Whether the rarest key word must stand in the supporting lines themselves, the lines
# beside them adding only to the share. NOTE: off: on the doc_qa tune split it answered
# 28% right and 22% wrong, off 33% and 25%; on HaluEval QA (first 400 rows) it accepted
# 0.19 of the right answers, off 0.35 (bench/RESULTS.md, "Exact answers").
RAREST_IN_OWN_LINE = False

# Words that describe the answer rather than what the question is about ("which
# countries", "the amount of money"), and words that name a document or its author as a
# whole ("the instructions", "this report", "the company" of a report that says "we"): a
# line of it need not repeat them, as it need not repeat the document's name.
_ANSWER_WORDS = {
    "en": (
        "name names named called number numbers title titled date dates year years day "
        "month time kind type sort term word words amount figure value code id identifier "
        "thing things according money country countries company companies document "
        "documents instructions report handbook manual guide publication booklet brochure "
        "activity activities event events item items piece pieces "
        "describe describes described mention mentions mentioned "
        "define defines defined definition definitions"
    ),
    "es": (
        "nombre número título fecha año día mes tipo clase término palabra cantidad código "
        "documento instrucciones informe manual guía define definido definida definición"
    ),
    "tr": "adı ismi numarası başlığı tarihi yılı günü türü tipi miktarı kodu belge rapor",
}


def naming_terms(
    question_terms: frozenset[str],
    document: str,
    analyzer: Analyzer,
    *,
    title: str = "",
    acronym_terms: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """The key terms of a question that name ``document`` as a document: words of its
    name or of its ``title`` (its first lines: "GNU GENERAL PUBLIC LICENSE / Version 2,
    June 1991"), when the question also says what kind of document it is ("What does
    'Contributor' mean in the Apache License?") or calls it by an acronym its name holds
    ("in the LGPL", "GPL v2" of lgpl-3.0.txt, gpl-2.0.txt; ``acronym_terms``, read from the
    question's capitals: "Normans" of Normans.txt is a word, not a name for the document);
    and, whatever the question, the date its title gives it. A line of that document need
    not repeat them."""
    named = frozenset(name_terms(document, analyzer))
    # The date a title gives its document ("November - 2015" under "NICS Firearm
    # Background Checks") picks the document: "in November 2015" names which report.
    dated = frozenset(analyzer.terms(" ".join(title[d.start : d.end] for d in dates_in(title))))
    if not names_a_document(question_terms, named, acronym_terms, analyzer):
        return question_terms & dated
    titled = named | frozenset(analyzer.terms(title))
    return frozenset(t for t in question_terms if t in titled or _version_of(t, titled))


def names_a_document(
    question_terms: frozenset[str],
    named: frozenset[str],
    acronym_terms: frozenset[str],
    analyzer: Analyzer,
) -> bool:
    """Does the question call a document by name, given the terms of its name (``named``):
    saying what kind of document it is ("the Apache License"), or an acronym its name
    holds ("the LGPL": ``acronym_terms``, the question's acronyms)?"""
    if question_terms & document_nouns(analyzer.language):
        return True
    return bool(acronym_terms & named)


def _version_of(term: str, titled: frozenset[str]) -> bool:
    """Is ``term`` a version the name or title numbers ("v2" of "Version 2", "2.0")?"""
    number = _VERSION.fullmatch(term)
    if number is None:
        return False
    wanted = number.group(1)
    return any(t == wanted or t.startswith(f"{wanted}.") for t in titled)


_VERSION = re.compile(r"v(\d+)")


@lru_cache(maxsize=8)
def answer_terms(language: str) -> frozenset[str]:
    """The index terms of the words that name the kind of answer, in ``language``."""
    analyzer = Analyzer(language)
    return frozenset(analyzer.terms(_ANSWER_WORDS.get(language, _ANSWER_WORDS["en"])))


@dataclass(frozen=True, slots=True)
class KeyWords:
    """A question's key terms, each with its weight (its rarity in the store)."""

    weights: tuple[tuple[str, float], ...]  # sorted by term, for a stable audit
    written: frozenset[str]  # the key terms some line of the store writes
    wording: Wording = NO_WORDING  # the question's words for its terms, for messages

    @classmethod
    def of(
        cls,
        terms: Iterable[str],
        weight: Callable[[str], float] | None,
        language: str = "en",
        *,
        wording: Wording = NO_WORDING,
    ) -> KeyWords:
        """Weigh ``terms`` with ``weight`` (IDF; 0 for a term no line carries);
        ``wording`` gives the words the question wrote for them, which messages show."""
        key = sorted(set(terms) - answer_terms(language))
        if weight is None:
            return cls(tuple((t, 1.0) for t in key), frozenset(key), wording)
        known = {t: weight(t) for t in key}
        # A word no line writes is at least as rare as the rarest word some line writes: no
        # line carries it, so a question about something the store never names is not
        # answered by a line that shares its common words; yet one paraphrased word
        # ("considered") does not by itself refuse a question whose other words the line
        # says.
        ceiling = max([w for w in known.values() if w > 0], default=1.0)
        return cls(
            tuple((t, w if w > 0 else ceiling) for t, w in known.items()),
            frozenset(t for t, w in known.items() if w > 0),
            wording,
        )

    @classmethod
    def read(cls, text: str, analyzer: Analyzer, weight: Callable[[str], float] | None) -> KeyWords:
        """The key words of ``text`` (its terms as ``analyzer`` reads them), weighed by
        ``weight`` and worded as ``text`` writes them."""
        terms = analyzer.terms(text)
        return cls.of(terms, weight, analyzer.language, wording=Wording.of(text, analyzer))

    @property
    def terms(self) -> frozenset[str]:
        return frozenset(t for t, _ in self.weights)

    @property
    def rarest(self) -> str | None:
        """The written key term of greatest weight (ties: the first in alphabetical order)."""
        written = [tw for tw in self.weights if tw[0] in self.written]
        if not written:
            return None
        return min(written, key=lambda tw: (-tw[1], tw[0]))[0]

    @property
    def rarest_word(self) -> str | None:
        """The rarest key term as the question wrote it ("harness", not "har")."""
        rarest = self.rarest
        return None if rarest is None else self.wording.word(rarest)

    def carried(self, terms: Iterable[str], written: Iterable[str] | None = None) -> Carried:
        """How much of the question ``terms`` (a set of lines' terms) carry; the rarest key
        word must be among ``written`` (by default ``terms``)."""
        held = set(terms)
        total = sum(w for _, w in self.weights)
        if total <= 0:
            return Carried(1.0, True, ())
        share = sum(w for t, w in self.weights if t in held) / total
        missing = tuple(t for t, _ in self.weights if t not in held)
        rarest = self.rarest
        among = held if written is None else set(written)
        return Carried(share, rarest is None or rarest in among, missing)


@dataclass(frozen=True, slots=True)
class Carried:
    share: float  # the weighted share of the question's key words the lines hold
    rarest: bool  # whether they hold its rarest key word
    missing: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.passes(MIN_CARRIED)

    def passes(self, needed: float) -> bool:
        return self.rarest and self.share >= needed - 1e-9


def support_decision(
    keys: KeyWords,
    terms: Iterable[str],
    written: Iterable[str] | None = None,
    needed: float = MIN_CARRIED,
) -> GateDecision:
    """The support tier's verdict: do lines holding ``terms`` carry the question? They do
    when they hold its rarest key word (of those the store writes at all) and at least
    ``needed`` of the weight.

    ``terms`` count toward the share: the supporting lines', those beside them and their
    documents' names. ``written`` (by default ``terms``) are the words the lines
    themselves write, which must include the rarest key word: a document's name says what
    it is about, not what one of its lines says.
    """
    if not keys.weights:
        return GateDecision(
            gate=Gate.SUPPORT, passed=True, reason=None, detail="the question names no key words"
        )
    carried = keys.carried(terms, written)
    share, least = compared(carried.share, needed, percent=True)
    said = f"the supporting lines carry {share} of the question's weighted key words"
    if carried.passes(needed):
        return GateDecision(gate=Gate.SUPPORT, passed=True, reason=None, detail=said)
    if not carried.rarest:
        where = "the supporting lines" + ("" if RAREST_IN_OWN_LINE else " and those beside them")
        detail = f"{where} do not write its rarest key word, {keys.rarest_word!r}"
    else:
        detail = f"{said} (at least {least} needed)"
    if carried.missing:
        # The words as the question wrote them: a stem ("presid") is the index's, not English.
        detail += "; missing: " + ", ".join(keys.wording.words(carried.missing))
    return GateDecision(
        gate=Gate.SUPPORT, passed=False, reason=Reason.WEAK_EVIDENCE.value, detail=detail
    )
