"""ask(): an answer from the store, drawn through the exit gate with its citations, or a
refusal that says why."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from affidavit.answer.archive import Archive
from affidavit.answer.audit import AskRecord, Judged, SubsetRecord
from affidavit.answer.copies import copies_of, said_by
from affidavit.answer.currency import Stale, asks_of_the_past
from affidavit.answer.disagreement import asked_kind, contest_line, rivals
from affidavit.answer.likely import likeliest, refused_by_the_reader
from affidavit.answer.quote import Quote, clear_line, line_judge
from affidavit.answer.readback import engine_read_back
from affidavit.engine.protocol import Candidate, Engine, Planner
from affidavit.gates.answer_value import gated_value
from affidavit.gates.decision import GateDecision
from affidavit.gates.definition import asks_a_definition, definition_decision
from affidavit.gates.exit import Judgement, judge
from affidavit.gates.support import (
    CONFIRMED_SPEAKER_CARRIED,
    MIN_CARRIED,
    KeyWords,
)
from affidavit.index.evidence_block import Retrieved, evidence_block
from affidavit.index.scope import Scope
from affidavit.plans.compose import compose
from affidavit.plans.ground import Ground
from affidavit.plans.templates import told_time
from affidavit.question.question import Question
from affidavit.question.routes import TABLE_LOOK_UPS
from affidavit.question.shape import AnswerType
from affidavit.reader.answerability import rivals_of
from affidavit.reasons import Reason
from affidavit.results import Answer, Evidence, LineKind
from affidavit.text.analyzer import Analyzer
from affidavit.text.reading import Reading
from affidavit.text.wording import NO_WORDING, Wording


@dataclass(frozen=True, slots=True, kw_only=True)
class _Said:
    """What ask says, before its audit is frozen."""

    text: str
    value: Any = None
    refused: bool = False
    reason: str | None = None
    citations: list[Evidence] = field(default_factory=list)
    census: str = ""

    probability: float | None = None
    rivals: list[tuple[str, float]] = field(default_factory=list)
    quoted: bool = False

    @classmethod
    def refusal(cls, reason: Reason, census: str = "", detail: str = "") -> _Said:
        text = f"{reason.text} ({detail})" if detail else reason.text
        return cls(text=text, refused=True, reason=reason.value, census=census)


def answer(
    question: str,
    archive: Archive,
    engine: Engine,
    *,
    asked_at: str | None = None,
    speaker: str | None = None,
    min_probability: float | None = None,
    scope: Scope | None = None,
) -> Answer:
    """Answer ``question`` from the documents of ``archive`` (one store's or a sharded
    store's) with citations, or refuse and say why; an answer the reader judges less likely
    than ``min_probability`` (default: the shipped threshold) is refused. With a ``scope``,
    only its documents are read."""
    record = AskRecord(engine.name, asked_at, speaker)
    if scope is not None:
        record.scope = scope.to_dict()
    said = _reached(question, archive, engine, record, asked_at, speaker, min_probability, scope)
    if said.refused and said.reason and record.read_in:
        # Refused in the asker's language; the detail in brackets stays as measured.
        reason, language = Reason(said.reason), str(record.read_in["language"])
        said = replace(said, text=said.text.replace(reason.text, reason.said_in(language), 1))
    # A model engine accounts for this ask's calls, tokens, cache hits and latency.
    take = getattr(engine, "take_accounting", None)
    return Answer(
        question=question,
        text=said.text,
        value=said.value,
        refused=said.refused,
        reason=said.reason,
        citations=said.citations,
        audit=record.audit(take() if take is not None else None),
        census=said.census,
        probability=said.probability,
        rivals=said.rivals,
        quoted=said.quoted,
    )


def _reached(
    question: str,
    archive: Archive,
    engine: Engine,
    record: AskRecord,
    asked_at: str | None,
    speaker: str | None,
    min_probability: float | None = None,
    scope: Scope | None = None,
) -> _Said:
    """What to say, or why not, with the audit kept in ``record``.

    Candidates are proposed per evidence subset (one document's lines at a time), so an
    engine never builds an answer from lines two documents never said together, and each
    candidate is judged against the subset it was drawn from. Among the candidates that
    pass, the best by the engine's score, weighed by how well its document matched, is said.
    """
    if archive.size == 0:
        return _Said.refusal(Reason.EMPTY_STORE)
    rarity = archive.term_weight  # how rare a word is among the lines
    crossed = archive.across_languages(question, scope)
    if crossed is not None:
        # Asked in Spanish or Turkish of English lines: read in English through the labels,
        # and from here on asked as an English question is.
        record.read_in = crossed.to_dict()
        question = crossed.read_as
    asked = Question.read(
        question, asked_at=asked_at, speaker=speaker, default_language=archive.main_language
    )
    shape, analyzer, question_terms = asked.shape, asked.analyzer, asked.key_terms
    # What a message names of the question's terms is the words it wrote, not their stems.
    wording = Wording.of(asked.text, analyzer)
    record.shape = shape.to_dict()
    if asked.text != question:
        record.read_as = asked.text  # "I" read as the speaker
    if not asked.has_words():
        return _Said.refusal(Reason.EMPTY_QUESTION)
    naming = archive.naming(asked.text, question_terms, analyzer)
    query: str | Reading = asked.reading
    if scope is None:  # a question naming one document of several is asked of it alone
        query, scope = naming.narrowed(asked.reading)
        record.scope = scope.to_dict() if scope is not None else None
    retrieved = archive.retrieve(query, asked=asked, scope=scope)
    if not retrieved.hits and query is not asked.reading:  # the name was all it said
        retrieved = archive.retrieve(asked.reading, asked=asked, scope=scope)
    record.withheld_below_trust = retrieved.withheld
    record.withheld_as_orders = retrieved.ordering or None
    if not retrieved.hits:
        reason = Reason.BELOW_TRUST if retrieved.withheld else Reason.NO_EVIDENCE
        within = "" if scope is None else f"read within the scope: {len(scope.names)} documents"
        return _Said.refusal(reason, detail=within)
    # A computed answer is worded in the asker's language, whatever language it was read in.
    speaking = crossed.language if crossed is not None else shape.language
    computed = _compose(asked, engine, archive, retrieved, record, speaking)
    if computed is not None and not computed.refused and asked.route is not None:
        # A computed answer's census counts the documents that speak of what it computed
        # over (the rows and years), not of the operation's words ("percentage change").
        over_words = " ".join([*asked.route.rows, *asked.route.years])
        over = KeyWords.read(over_words, analyzer, rarity)
        computed_census = archive.census(over, analyzer, scope)
        record.census = computed_census.to_dict()
        return replace(computed, census=computed_census.line)
    keys = KeyWords.of(question_terms, rarity, analyzer.language, wording=wording)
    the_census = archive.census(keys, analyzer, scope)
    census_line = the_census.line
    record.census = the_census.to_dict()
    if computed is not None:
        return computed
    speakers = {h.speaker for h in retrieved.hits if h.speaker}
    whose = archive.told_of(question_terms, speakers, analyzer, scope) if speakers else None
    turns_need = MIN_CARRIED
    if whose is not None:
        record.whose = whose.to_dict()
        if not whose.passed:
            return _Said.refusal(Reason.HOLDER, census_line)
        turns_need = CONFIRMED_SPEAKER_CARRIED
    block = evidence_block(retrieved.hits)
    # The best lines chosen for the engine (no document beyond its share) ...
    record.best_lines = [e.dateline() for e in block]
    # ... and what the engine is shown: each subset's lines with context, best document first.
    record.evidence_block = [e.dateline() for subset in retrieved.subsets for e in subset]
    best_score = max(h.score for h in retrieved.hits) or 1.0

    passed: list[tuple[float, int, int, Candidate, Judgement, list[Evidence]]] = []
    defining = asks_a_definition(asked.text)

    def weigh(
        number: int,
        subset: list[Evidence],
        weight: float,
        asked_here: frozenset[str],
        chained: bool = False,
    ) -> None:
        """Judge the engine's candidates for one subset; those that pass join ``passed``
        (``chained``: the last organ's, whose cited lines are a second tier of support)."""
        candidates = engine.propose(asked, subset)
        subset_record = SubsetRecord(subset[0].document, weight, [e.dateline() for e in subset])
        record.subsets.append(subset_record)
        for rank, candidate in enumerate(candidates):
            if asked.route is not None and _only_rows(candidate, subset):
                # The question's route asks for a figure of a table and no plan could anchor it:
                # a cell lifted instead is a guess at the cell the plan did not find.
                continue
            judgement = _judge(
                candidate, subset, analyzer, asked_here, rarity, turns_need, chained, wording
            )
            if judgement.passed and defining:
                cited_text = [subset[i].text for i in candidate.cites]
                judgement.decisions.append(definition_decision(asked.text, cited_text))
            if judgement.passed:
                cited = [subset[i] for i in candidate.cites]
                read = engine_read_back(engine, candidate.text, subset, analyzer, cited)
                if read is not None:
                    judgement.decisions.append(read)
            subset_record.judged.append(Judged(candidate, tuple(judgement.decisions)))
            if judgement.passed:
                passed.append((candidate.score * weight, number, rank, candidate, judgement, cited))

    for number, subset in enumerate(retrieved.subsets):
        weight = 0.5 + 0.5 * max(e.score for e in subset) / best_score
        # The words that name this subset's document as a document its dateline carries.
        weigh(number, subset, weight, naming.asked_of(subset[0].document))
    if not passed:
        # Every organ died: a small store whose every line is dated is read whole, in time
        # order, through the same gates, so clues said apart can meet.
        whole = archive.whole_telling(scope)
        if whole is not None:
            record.last_organ = {"lines": len(whole)}
            weigh(len(retrieved.subsets), whole, 1.0, question_terms, chained=True)
    if not passed:
        why = record.why_refused()
        if why is Reason.NO_CANDIDATE:
            # No span of the kind asked for: one line that plainly answers is said whole.
            judge_line = line_judge(analyzer, naming.asked_of, rarity, turns_need, wording)
            quote = clear_line(
                question, shape.answer_type, retrieved.hits, retrieved.subsets, judge_line
            )
            if quote is not None:
                return _quoted(quote, record, census_line)
        record.closest = record.nearest_miss(why)
        return _Said.refusal(why, census_line)
    passed.sort(key=lambda p: (-p[0], p[1], p[2]))
    stale: list[Stale] = []
    if not asks_of_the_past(asked.text):
        # Asked of now: a candidate whose record was superseded or ended gives way.
        passed, stale = archive.current_first(passed, analyzer)
        record.no_longer_holds = [s.to_dict() for s in stale]
    best, number, _, chosen, judgement, cited = passed[0]
    record.chosen = {"subset": number, "candidate": chosen.to_dict()}
    likely = likeliest(asked, [(p[3], p[5]) for p in passed], best_score, rarity, min_probability)
    probability, said_rivals = None, []
    if likely is not None:
        top, others = likely
        record.answerability = {**top.to_dict(), "rivals": rivals_of(others)}
        probability, said_rivals = top.probability, [(j.text, j.probability) for j in others]
        if not top.answerable:
            # The reader doubts the span: the line that plainly answers is said whole.
            judge_line = line_judge(analyzer, naming.asked_of, rarity, turns_need, wording)
            quote = clear_line(
                question, shape.answer_type, retrieved.hits, retrieved.subsets, judge_line
            )
            if quote is not None:
                return _quoted(quote, record, census_line)
            detail, record.closest = refused_by_the_reader(top)
            refused = _Said.refusal(Reason.UNLIKELY, census_line, detail)
            return replace(refused, probability=probability, rivals=said_rivals)
    # What was and no longer is does not disagree with what is; said, it says so.
    gone = {s.candidate for s in stale}
    if chosen.text in gone:
        note = next(s.note for s in stale if s.candidate == chosen.text)
        census_line = f"{census_line} {note}".strip()
    standing = [(p[0], p[3], p[5]) for p in passed[1:] if p[3].text not in gone]
    of_the_kind = asked_kind(shape.answer_type, asked.text, chosen.text)
    disagreeing = rivals((best, chosen, cited), standing, of_the_kind)
    if disagreeing:
        record.contradicted_by = [
            {"text": other.text, "lines": [line.dateline() for line in lines]}
            for other, lines in disagreeing
        ]
        census_line = f"{census_line} {contest_line(disagreeing)}".strip()
    citations: list[Evidence] = []
    for line in [*cited, *judgement.supporting]:
        if line not in citations:
            citations.append(line)
    # The value is the library's reading of the gated text, never the engine's.
    value = gated_value(
        chosen.text, shape.answer_type, [c.text for c in citations], analyzer.language
    )
    record.value = {"engine": chosen.value, "read": value}
    text = chosen.text
    relative = told_time(text, cited) if shape.answer_type is AnswerType.TIME else None
    if relative is not None:
        # "last week" lifted from a turn is a time only with the day it was said.
        text, value, record.value["said"] = relative
        record.value["read"] = value
    # Where the store disagrees with itself, the other side is cited too, after the
    # answer's own lines: saying one side must not hide the other.
    citations += [line for _, lines in disagreeing for line in lines if line not in citations]
    # The documents that write a cited line word for word are cited too, and counted.
    copied = copies_of(citations, retrieved.copies)
    if copied:
        record.copies = [line.dateline() for line in copied]
        census_line = f"{census_line} {said_by(citations, copied)}".strip()
        citations += copied
    return _Said(
        text=text,
        value=value,
        citations=citations,
        census=census_line,
        probability=probability,
        rivals=said_rivals,
    )


def _quoted(quote: Quote, record: AskRecord, census: str) -> _Said:
    """The line said whole as the answer, and the audit told why."""
    record.quoted = quote.to_dict()
    return _Said(text=quote.text, citations=quote.citations, census=census, quoted=True)


def _compose(
    asked: Question,
    engine: Engine,
    archive: Archive,
    retrieved: Retrieved,
    record: AskRecord,
    speaking: str,
) -> _Said | None:
    """A computed answer from the engine's plans, worded in ``speaking``; a refusal when
    the question needs a computation and no plan survives (the shape's verdict binds);
    None to go on lifting. The census is left to the caller."""
    analyzer, found = asked.analyzer, asked.route
    record.routed, record.route = True, found.to_dict() if found else None
    evidence = [e for subset in retrieved.subsets for e in subset]
    proposals = engine.propose_plans(asked, evidence) if isinstance(engine, Planner) else []
    ground = None
    if proposals:
        # The ground: the evidence, and the whole of every table a found row stands in.
        around = archive.tables_around(retrieved.hits)
        ground = Ground([*evidence, *around], analyzer, archive.term_weight)
        composed = compose(proposals, ground, speaking, now=asked.asked_at)
        record.plans = composed.audit
        if composed.answered:
            record.plan = composed.audit[-1]
            return _Said(text=composed.text, value=composed.value, citations=composed.citations)
    if found is None:
        return None
    # A look-up of a row in a year whose row a table names (even loosely) is asked of
    # that table: when no plan finds the cell, a number lifted from a sentence is more
    # often another figure than the one asked for, so refuse. A row no table names is
    # asked of the text, and lifting goes on.
    over_a_table = (
        ground is not None
        and found.need in TABLE_LOOK_UPS
        and any(ground.names_a_row(r) for r in found.rows)
    )
    if found.binds or over_a_table:
        record.plans = record.plans or []
        return _Said.refusal(Reason.PLAN_DEAD)
    return None


def _only_rows(candidate: Candidate, subset: Sequence[Evidence]) -> bool:
    """Does the candidate cite table rows only (a cell lifted from a row)?"""
    cited = [subset[i] for i in candidate.cites if 0 <= i < len(subset)]
    return bool(cited) and all(line.kind == LineKind.ROW for line in cited)


def _judge(
    candidate: Candidate,
    subset: Sequence[Evidence],
    analyzer: Analyzer,
    question_terms: frozenset[str],
    term_weight: Callable[[str], float],
    turns_need: float,
    chained: bool = False,
    wording: Wording = NO_WORDING,
) -> Judgement:
    if not candidate.cites or any(not 0 <= i < len(subset) for i in candidate.cites):
        failed = Judgement()
        failed.decisions.append(
            GateDecision(
                gate="citation",
                passed=False,
                reason=Reason.NO_CANDIDATE.value,
                detail="the candidate cites no line of its evidence subset",
            )
        )
        return failed
    anchor = [subset[i] for i in candidate.cites]
    return judge(
        candidate.text,
        subset,
        analyzer,
        question_terms=question_terms,
        anchor=anchor,
        term_weight=term_weight,
        turns_need=turns_need,
        chain=anchor if chained else (),
        wording=wording,
    )
