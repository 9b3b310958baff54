"""verify(): audit any text, ours or another system's, sentence by sentence against the store."""

from __future__ import annotations

from dataclasses import replace

from affidavit.answer.archive import Archive
from affidavit.answer.disagreement import rival_line
from affidavit.answer.recompute import Recomputed, recompute
from affidavit.gates.binding import is_short_answer
from affidavit.gates.claims import makes_a_claim
from affidavit.gates.exit import Judgement, judge
from affidavit.index.scope import Scope
from affidavit.plans.ground import Ground
from affidavit.question.question import Question
from affidavit.reasons import Reason
from affidavit.results import Evidence, SentenceVerdict, Status, Verdict
from affidavit.text.analyzer import Analyzer, analyzer_for
from affidavit.text.content import content_terms
from affidavit.text.lang import VOCABULARIES
from affidavit.text.language import detect_language
from affidavit.text.numbers import written_numbers
from affidavit.text.sentences import split_sentences
from affidavit.text.wording import NO_WORDING, Wording
from affidavit.text.words import words

# A bare "yes" or "no" in any of the languages (text/lang).
_YES = frozenset().union(*(words.yes for words in VOCABULARIES.values()))
_NO = frozenset().union(*(words.no for words in VOCABULARIES.values()))


def verify(
    text: str, archive: Archive, *, question: str | None = None, scope: Scope | None = None
) -> Verdict:
    """Audit ``text`` sentence by sentence against the documents of ``archive`` (one
    store's or a sharded store's).

    Each sentence is judged by the exit gate against the evidence subsets its words (and
    the question's) retrieve, best document first: it is *supported* by the first subset
    whose lines pass every tier, *vetoed* when the best-matching document does not carry
    one of its numbers, and *dropped* otherwise, with the catalogued reason. A number no
    line writes ("rose 24.4%") is supported only when the store's own cells reproduce it
    (answer/recompute.py), and the verdict carries the plan that did. A bare "yes" is read
    as the question's statement and verified as such; a bare "no" asserts an absence that
    no line can attest, so it is unverifiable. With a ``scope`` only its documents are
    read: a sentence about one document is neither supported nor contested by another.
    """
    # The text and its question are read in one language, the store's when neither shows.
    language = detect_language(
        text if not question else f"{question} {text}", default=archive.main_language
    )
    analyzer = analyzer_for(language)
    # The question is read as ask reads it (its key words: one gate, one setting).
    asked = Question.read(question, language=language) if question else None
    question_terms = asked.key_terms if asked is not None else frozenset()
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    sentences = [s for group in split_sentences(paragraphs, language) for s in group]
    verdicts = [
        _across(sentence, archive, analyzer, question, question_terms, scope)
        for sentence in sentences
    ]
    return Verdict(text=text, question=question, sentences=verdicts)


def _across(
    sentence: str,
    archive: Archive,
    analyzer: Analyzer,
    question: str | None,
    question_terms: frozenset[str],
    scope: Scope | None,
) -> SentenceVerdict:
    """A sentence's verdict; a Spanish or Turkish sentence over English lines (with no
    question) is checked as its English reading, as ``ask`` reads a question."""
    crossed = archive.across_languages(sentence, scope) if question is None else None
    if crossed is None:
        return _verify_sentence(sentence, archive, analyzer, question, question_terms, scope)
    english = analyzer_for(archive.main_language)
    checked = _verify_sentence(
        crossed.read_as.rstrip("?") + ".", archive, english, None, frozenset(), scope
    )
    return replace(checked, text=sentence, read_in=crossed.to_dict())


def _verify_sentence(
    sentence: str,
    archive: Archive,
    analyzer: Analyzer,
    question: str | None,
    question_terms: frozenset[str],
    scope: Scope | None = None,
) -> SentenceVerdict:
    checked = sentence
    said = set(words(sentence, analyzer.language))
    if said and said <= _YES | _NO:
        if question and not said & _NO:
            checked = question  # "yes" asserts the question's own statement
        else:
            return SentenceVerdict(
                text=sentence, status=Status.DROPPED, reason=Reason.UNVERIFIABLE.value
            )
    elif not content_terms(sentence, analyzer) and not written_numbers(sentence):
        return SentenceVerdict(
            text=sentence, status=Status.DROPPED, reason=Reason.UNVERIFIABLE.value
        )
    elif question is None and not makes_a_claim(sentence):
        return SentenceVerdict(text=sentence, status=Status.DROPPED, reason=Reason.NO_CLAIM.value)
    query = f"{question} {checked}" if question and checked != question else checked
    retrieved = archive.retrieve(query, asked=None, scope=scope, partitioned=False)
    if not retrieved.subsets:
        reason = Reason.BELOW_TRUST if retrieved.withheld else Reason.UNSUPPORTED
        return SentenceVerdict(text=sentence, status=Status.DROPPED, reason=reason.value)
    first: Judgement | None = None
    # A short answer ("981") takes its sense from the question, so only the document that
    # best answers to the question may carry it; a sentence's own words may find another.
    short = question is not None and is_short_answer(checked, analyzer)
    naming = archive.naming(question or "", question_terms, analyzer)
    # A failed support tier names the question's words as it wrote them, not their stems.
    wording = Wording.of(question, analyzer) if question else NO_WORDING
    for subset in retrieved.subsets[:1] if short else retrieved.subsets:
        judgement = judge(
            checked,
            subset,
            analyzer,
            # The words that name this subset's document as a document its dateline carries.
            question_terms=(
                naming.asked_of(subset[0].document) if checked != question else frozenset()
            ),
            term_weight=archive.term_weight,
            bridge=question is not None and _is_bare_answer(checked, analyzer),
            wording=wording,
        )
        if judgement.passed:
            rival = None
            if question is None:
                hits = [e for sub in retrieved.subsets for e in sub]
                rival = rival_line(checked, judgement.supporting, hits, analyzer)
            if rival is not None:
                return _contested(sentence, judgement, rival)
            return _verdict(sentence, Status.SUPPORTED, None, judgement)
        first = first or judgement
    assert first is not None
    failure = first.failure
    assert failure is not None
    status = Status.VETOED if failure.gate == "digit_veto" else Status.DROPPED
    if status == Status.VETOED:
        recomputed = _recomputed(checked, archive, analyzer, retrieved.hits)
        if recomputed is not None:
            return _recomputed_verdict(sentence, recomputed, first)
    return _verdict(sentence, status, failure.reason, first)


# An answer of at most this many content words is a bare answer to its question (a name,
# a phrase), not a statement of its own: its sense, and the question's, may span a
# bridge (gates/context.bridged).
BARE_ANSWER_TERMS = 6


def _is_bare_answer(text: str, analyzer: Analyzer) -> bool:
    return len(content_terms(text, analyzer)) <= BARE_ANSWER_TERMS


def _recomputed(
    sentence: str, archive: Archive, analyzer: Analyzer, hits: list[Evidence]
) -> Recomputed | None:
    # A computed claim is grounded in the tables of the rows its words find, as ask's plans.
    around = archive.tables_around(hits)
    if not around:
        return None
    ground = Ground([*hits, *around], analyzer)
    return recompute(sentence, ground)


def _recomputed_verdict(
    sentence: str, recomputed: Recomputed, judgement: Judgement
) -> SentenceVerdict:
    """A number no line writes stands only when the store's own cells reproduce it."""
    gate = {
        "gate": "recompute",
        "passed": recomputed.held,
        "reason": None if recomputed.held else Reason.DIGIT_VETO.value,
        "detail": recomputed.detail,
    }
    decisions = [*(d.to_dict() for d in judgement.decisions), gate]
    claim = {"claim": recomputed.claimed, "plan": recomputed.plan, "trace": recomputed.trace}
    if recomputed.held:
        return SentenceVerdict(
            text=sentence,
            status=Status.SUPPORTED,
            reason=None,
            evidence=recomputed.evidence,
            claims=[claim],
            gates=decisions,
        )
    return SentenceVerdict(
        text=sentence,
        status=Status.VETOED,
        reason=Reason.DIGIT_VETO.value,
        claims=[claim],
        gates=decisions,
    )


def _contested(sentence: str, judgement: Judgement, rival: Evidence) -> SentenceVerdict:
    """Supported by its lines, and said otherwise by ``rival``: both are cited."""
    gate = {
        "gate": "contest",
        "passed": False,
        "reason": Reason.CONTESTED.value,
        "detail": f"[{rival.document} #{rival.position}] says otherwise: {rival.text!r}",
    }
    return SentenceVerdict(
        text=sentence,
        status=Status.CONTESTED,
        reason=Reason.CONTESTED.value,
        evidence=[*judgement.supporting, rival],
        claims=[c.to_dict() for c in judgement.claims],
        gates=[*(d.to_dict() for d in judgement.decisions), gate],
    )


def _verdict(
    sentence: str, status: Status, reason: str | None, judgement: Judgement
) -> SentenceVerdict:
    return SentenceVerdict(
        text=sentence,
        status=status,
        reason=reason,
        evidence=list(judgement.supporting) if status == Status.SUPPORTED else [],
        claims=[c.to_dict() for c in judgement.claims],
        gates=[d.to_dict() for d in judgement.decisions],
    )
