"""The default engine: no model, no network, the same candidates every run."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from affidavit.engine.protocol import Candidate, ProposedEvent, ProposedPlan
from affidavit.engine.rules.cells import cell_answer, cell_candidates, quoted_columns
from affidavit.engine.rules.chatter import asserted, is_chatter
from affidavit.engine.rules.clauses import ClauseAsk, clause_answer, clause_ask
from affidavit.engine.rules.events import list_events
from affidavit.engine.rules.phrases import answer_phrases
from affidavit.engine.rules.planning.for_arithmetic import plans_for
from affidavit.engine.rules.typed_candidates import typed_spans
from affidavit.gates import headings_standing_over, replies_to
from affidavit.question import (
    AnswerType,
    Question,
    Shape,
    asks_a_day,
    asks_a_deadline,
    is_whole_date,
    states_a_deadline,
)
from affidavit.results import Evidence, LineKind
from affidavit.scorer import BOUND, encode_ahead, read, read_ahead
from affidavit.text import (
    Analyzer,
    expansion_terms,
    fold,
    letters_asked,
    spelled_in,
    written_for,
    years_of,
)

# Only the best lines are read for spans: deeper lines rarely hold the answer and cost NER time.
LINES_READ = 8
# NOTE: phrases are parsed out of the best few lines only (a parse costs ~5 ms a line).
PHRASE_LINES = 3
MAX_CANDIDATES = 5
# The learned reader reads this many of the best lines (a parse costs ~10 ms a line) and
# proposes its best spans, each adding its probability times the gain to its line's base.
READER_LINES = 3
READER_SPANS = 8
READER_GAIN = 0.3
HEADING_PENALTY = 0.3
# NOTE: a line sharing less than this share of the question's words is not read for spans
# or phrases (a parse or NER costs ~5 ms a line); its candidates would have to borrow most
# of the question's weight from the lines beside it to pass the support tier. On 900
# questions of the SQuAD tune split: 0 -> p50 70 ms, F1 0.166; 0.25 -> 46 ms, 0.166;
# 0.4 -> 29 ms, 0.166; 0.5 -> 23 ms, 0.163.
READ_COVERAGE = 0.4
# How far a whole line ranks below the phrases drawn from it, and what a phrase's fit adds.
LINE_PENALTY = 0.25
PHRASE_GAIN = 0.3
# How far a year or a month ranks below a whole date when the question asks for a date.
PARTIAL_DATE_PENALTY = 0.2
# What a date written as a deadline ("due by", "before") adds when a deadline is asked: as
# much as a year loses to a whole date when a date is asked.
DEADLINE_GAIN = 0.2
# What a heading adds as the answer to a question asking for a title.
HEADING_TITLE_GAIN = 0.2
# A clause after the verb the question asks about ("includes ...", "due to ...") is the
# answer when the line writes one; it goes before the phrase reader's noun phrases.
CLAUSE_GAIN = 0.3
# The words whose initials spell the letters a question asks about, bracketed beside them
# ("Intent To Package (ITP)"), are what it asks: as sure as a quoted term's definition.
SPELLED_GAIN = 0.6
_DATES = frozenset({"DATE", "TIME", "YEAR"})
# A question asking for a time: a date it writes is no condition on the answer.
_TIMES = frozenset({AnswerType.TIME, AnswerType.DURATION})
# A sentence that opens on the change the sentence before it states.
_REFERS_BACK = re.compile(
    r"^\s*(?:the|this|these|such)\s+(?:(?:net|overall|year-over-year)\s+)?(?:increases?|"
    r"decreases?|changes?|declines?|growth|improvements?|reductions?|variances?)\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|we|our|us)\b")


class DefaultEngine:
    """Extractive candidates by the question's shape: a span of the expected type (a person
    for "who", a date for "when", a number for "how many"...) from the lines that best match
    the question, or, for questions no type describes (what/which), the clause or phrase of
    the best lines that answers (clauses.py, phrases.py), with the whole line as the last
    resort. In a table row whose columns are named, a cell under the column the question
    names is proposed directly. Plans come from planning/ for a question read as a
    computation."""

    name = "default"

    def propose_plans(self, question: Question, evidence: Sequence[Evidence]) -> list[ProposedPlan]:
        """Plans for the computation the question was read at the door to need (none
        otherwise)."""
        return list(plans_for(question.route)) if question.route else []

    def events(self, lines: Sequence[Evidence]) -> list[ProposedEvent]:
        """The events ``lines`` report, read from each asserted sentence's tree
        (events.py): the subject, the verb and its object, in the line's own words."""
        return list_events(lines)

    def propose(self, question: Question, evidence: Sequence[Evidence]) -> list[Candidate]:
        """The best few candidates from the best lines: cells, clauses, phrases, headings,
        speakers and typed spans line by line, then the learned reader's spans of the
        English lines worth its parse, less what a conversation's chatter says."""
        if not evidence:
            return []
        shape = question.shape
        reading = _reading(question, evidence)
        candidates: list[Candidate] = []
        for index, line in enumerate(evidence[:LINES_READ]):
            candidates.extend(_read_line(reading, index, line))
        # English lines are read by the learned reader (affidavit/scorer/) too.
        candidates.extend(_read_spans(question, _reader_lines(reading, evidence)))
        speakers = {fold(e.speaker) for e in evidence if e.speaker}
        if speakers:
            who = shape.answer_type is AnswerType.PERSON
            candidates = [
                c
                for c in candidates
                if not is_chatter(c.text, evidence[c.cites[0]], speakers, who=who)
            ]
        return _best_unique(candidates)

    def start_reading(self, question: Question, subsets: Sequence[Sequence[Evidence]]) -> None:
        """Start the reader's encoder on the lines it will read of every subset, on a
        thread of its own, while the ask computes and judges a yes or no."""
        encode_ahead(question, _lines_to_read(question, subsets))

    def read_ahead(self, question: Question, subsets: Sequence[Sequence[Evidence]]) -> None:
        """Parse together the lines the learned reader will read of every subset, before
        ``propose`` reads them one subset at a time."""
        read_ahead(question, _lines_to_read(question, subsets))


@dataclass(frozen=True, slots=True)
class _Reading:
    """What every line is read against, worked out once a question."""

    question: Question
    terms: set[str]  # the question's terms
    asked: set[str]  # the terms a line's coverage counts
    clause: ClauseAsk | None  # the verb whose clause answers (English questions)
    by_place: dict[tuple[str, int], Evidence]  # the evidence by (document, position)
    headers: set[tuple[str, ...]]  # the column names of the tables shown
    cell_answer: Callable[[str, str], str | None]  # what a cell answers (None: not the kind)
    quoted: frozenset[str]  # the columns the question quotes
    top_score: float  # the best line's score (1.0 when none scores)
    spelled: str | None  # the letters the question asks spelled out ("What does ITP stand for?")

    @property
    def english(self) -> bool:
        return self.question.shape.language == "en"


def _lines_to_read(question: Question, subsets: Sequence[Sequence[Evidence]]) -> list[str]:
    """The lines the learned reader reads of each subset, in order."""
    texts = []
    for evidence in subsets:
        if evidence:
            reading = _reading(question, evidence)
            texts += [line.text for _index, line, _base in _reader_lines(reading, evidence)]
    return texts


def _reading(question: Question, evidence: Sequence[Evidence]) -> _Reading:
    shape, analyzer = question.shape, question.analyzer
    question_terms = set(question.terms)
    # A line's coverage counts the question's own words, not the words that only name
    # the kind of answer ("what date"), and the words a document writes for them
    # ("due" for a deadline).
    asked = set(analyzer.terms(" ".join([*shape.content_words, *question.short_forms])))
    return _Reading(
        question=question,
        terms=question_terms,
        asked=asked or question_terms,
        clause=clause_ask(question.text) if shape.language == "en" else None,
        by_place={(e.document, e.position): e for e in evidence},
        # A row that only repeats the column names of a table shown is a header.
        headers={tuple(e.cells) for e in evidence if e.cells},
        # A cell is proposed only when it can be of the kind asked for (cells.cell_answer).
        cell_answer=cell_answer(shape.answer_type, question.text),
        quoted=quoted_columns(question.text),
        top_score=max(e.score for e in evidence) or 1.0,
        spelled=letters_asked(question.text),
    )


def _read_line(reading: _Reading, index: int, line: Evidence) -> list[Candidate]:
    """The candidates of the ``index``-th best line (the learned reader's spans apart)."""
    question = reading.question
    shape, analyzer = question.shape, question.analyzer
    read_as = _as_read(line)
    if read_as is None:
        return []
    line = read_as
    coverage = _coverage(reading, line)
    base = _base(reading, line, coverage)
    found = list(
        cell_candidates(
            index,
            line,
            reading.terms,
            analyzer,
            base,
            reading.headers,
            reading.cell_answer,
            reading.quoted,
        )
    )
    if reading.spelled is not None:
        found.extend(
            Candidate(
                text=words,
                value=words,
                cites=(index,),
                score=base + SPELLED_GAIN,
                note="the words its letters spell",
            )
            for words in spelled_in(line.text, reading.spelled)
        )
    if coverage < READ_COVERAGE:
        return found  # too far off the question for its answer to pass the support tier
    if shape.answer_type in (AnswerType.DESCRIPTION, AnswerType.REASON):
        if line.kind == LineKind.ROW:
            return found  # a row answers by its cells; its pipes and labels are no prose
        found.extend(_described(reading, index, line, base - _heading_penalty(line)))
        return found
    found.extend(_heading_title(reading, index, line, base))
    speaker = _speaker_who_did_it(line, shape)
    if speaker is not None:
        found.append(
            Candidate(
                text=speaker,
                value=speaker,
                cites=(index,),
                score=base + 0.15,
                note="the turn's speaker",
            )
        )
    if not reading.english:  # the learned reader reads English lines
        found.extend(_typed_spans(reading, index, line, base))
    return found


def _as_read(line: Evidence) -> Evidence | None:
    """The line as the engine reads it: a turn's question left out, for a question asserts
    nothing ("what's its name?"); None when the turn says nothing else."""
    if line.kind == LineKind.TURN and "?" in line.text:
        said = asserted(line.text)
        return replace(line, text=said) if said else None
    return line


def _base(reading: _Reading, line: Evidence, coverage: float) -> float:
    """A line's base score: its search score against the best line's, and its coverage."""
    return 0.5 * (line.score / reading.top_score) + 0.5 * coverage


def _heading_penalty(line: Evidence) -> float:
    # A heading names a topic; it rarely says anything about it.
    return HEADING_PENALTY if line.kind == LineKind.HEADING else 0.0


def _for_reader(
    reading: _Reading, index: int, line: Evidence, coverage: float, base: float
) -> tuple[int, Evidence, float] | None:
    """The line with its base score for the learned reader, which reads English prose near
    enough the question (a row answers by its cells; a heading asked for as a title,
    whole); None for any other line."""
    if coverage < READ_COVERAGE or not reading.english or line.kind == LineKind.ROW:
        return None
    if reading.question.shape.answer_type in (AnswerType.DESCRIPTION, AnswerType.REASON):
        return (index, line, base - _heading_penalty(line))
    titled = reading.question.shape.answer_type is AnswerType.TITLE
    if titled and line.kind == LineKind.HEADING:
        return None
    return (index, line, base)


def _reader_lines(
    reading: _Reading, evidence: Sequence[Evidence]
) -> list[tuple[int, Evidence, float]]:
    """The lines of ``evidence`` the learned reader reads, each with its index and base:
    what ``propose`` reads and ``read_ahead`` parses."""
    chosen = []
    for index, line in enumerate(evidence[:LINES_READ]):
        read_as = _as_read(line)
        if read_as is None:
            continue
        coverage = _coverage(reading, read_as)
        entry = _for_reader(reading, index, read_as, coverage, _base(reading, read_as, coverage))
        if entry is not None:
            chosen.append(entry)
    return chosen[: _reading_lines(reading.question.shape)]


def _reading_lines(shape: Shape) -> int:
    # A code or a contact is found by its pattern, no parse: every line read may hold it.
    return LINES_READ if shape.answer_type in BOUND else READER_LINES


def _coverage(reading: _Reading, line: Evidence) -> float:
    """The share of the question's asked words the line covers: its own terms and the
    expansions of its abbreviations, with the line before it when it refers back to that
    line or replies to it."""
    analyzer = reading.question.analyzer
    line_terms = set(analyzer.terms(line.text)) | expansion_terms(line.text, analyzer)
    before = reading.by_place.get((line.document, line.position - 1))
    if before is not None and _REFERS_BACK.match(line.text):
        # "The increase was mainly driven by ..." is about what the line before
        # says increased: it covers the question's words through that line.
        line_terms |= set(analyzer.terms(before.text))
    elif before is not None and replies_to(line, before):
        # A reply answers the question put to it: "Got any favorite flavors for
        # dairy-free desserts?" is what "Chocolate and mixed berry!" is about.
        line_terms |= set(analyzer.terms(before.text))
    # A line speaks under its document's title and its section's heading, as the support
    # tier reads it: "Version 3, 29 June 2007" under "GNU LESSER GENERAL PUBLIC LICENSE"
    # covers the question that names the licence.
    for heading in headings_standing_over(line, list(reading.by_place.values())):
        line_terms |= set(analyzer.terms(heading.text))
    asked = reading.asked
    return len(asked & line_terms) / len(asked) if asked else 0.0


def _described(reading: _Reading, index: int, line: Evidence, base: float) -> list[Candidate]:
    """For a question no type describes (what, why): the clause the line writes after the
    question's verb, the phrases that answer in the best few non-English lines, and the
    whole line as the last resort."""
    question, shape = reading.question, reading.question.shape
    found: list[Candidate] = []
    # A turn of a conversation is no statement to run a clause to its end
    # from the question's own verb ("raise awareness for ... I'm proud of you").
    turn = line.kind == LineKind.TURN
    chatty = reading.clause is not None and reading.clause.any_verb and turn
    # A clause costs a pattern, not a parse: every line read may give one.
    clause = (
        None if chatty else _clause(reading.clause, question.text, line.text, question.analyzer)
    )
    if clause is not None:
        found.append(
            Candidate(
                text=clause,
                value=clause,
                cites=(index,),
                score=base + CLAUSE_GAIN,
                note="clause",
            )
        )
    if not reading.english and shape.answer_type is AnswerType.DESCRIPTION and index < PHRASE_LINES:
        for phrase in answer_phrases(question.text, line.text, shape.language)[:2]:
            found.append(
                Candidate(
                    text=phrase.text,
                    value=phrase.text,
                    cites=(index,),
                    score=base + PHRASE_GAIN * phrase.fit,
                    note=f"phrase: {phrase.why}",
                )
            )
    found.append(
        Candidate(
            text=line.text,
            value=line.text,
            cites=(index,),
            score=base - LINE_PENALTY,
            note="best line",
        )
    )
    return found


def _heading_title(reading: _Reading, index: int, line: Evidence, base: float) -> list[Candidate]:
    """A heading, when a title is asked for: what a document or a section calls itself
    (unless it only repeats the question's words)."""
    question = reading.question
    if question.shape.answer_type is not AnswerType.TITLE or line.kind != LineKind.HEADING:
        return []
    title = line.text.strip().lstrip("#").strip()
    if not title or set(question.analyzer.terms(title)) <= reading.terms:
        return []
    return [
        Candidate(
            text=title,
            value=title,
            cites=(index,),
            score=base + HEADING_TITLE_GAIN,
            note="heading",
        )
    ]


def _typed_spans(reading: _Reading, index: int, line: Evidence, base: float) -> list[Candidate]:
    """The spans of the line of the type the question asks for (non-English lines: the
    learned reader reads English), each scored by its fit, its nearness to the question's
    words and the time the line writes it for."""
    question, question_terms = reading.question, reading.terms
    shape, analyzer = question.shape, question.analyzer
    found = []
    for span in typed_spans(line.text, shape.answer_type, shape.language):
        span_terms = set(analyzer.terms(span.text))
        if span_terms and span_terms <= question_terms:
            continue  # the question already says it; it cannot be the answer
        timing = _timing(question, line.text, span.text, span.start, span.end, span.label)
        if timing is None:
            continue
        nearness = _nearness(line.text, span.start, span.end, question_terms, analyzer)
        score = base + 0.15 * span.fit + 0.1 * nearness + timing
        note = f"{span.label} span, fit {span.fit:.2f}"
        found.append(
            Candidate(text=span.text, value=span.text, cites=(index,), score=score, note=note)
        )
    return found


def _read_spans(question: Question, lines: list[tuple[int, Evidence, float]]) -> list[Candidate]:
    """The reader's spans of the best lines, each scored by its line's base and its share
    of the reader's probability, and kept only where the line writes it for the time the
    question asks about."""
    if not lines:
        return []
    proposed = []
    for spanned in read(question, [line.text for _, line, _ in lines])[:READER_SPANS]:
        index, line, base = lines[spanned.line]
        span = spanned.span
        timing = _timing(question, line.text, span.text, span.start, span.end, span.found.label)
        if timing is None:
            continue
        score = base + READER_GAIN * spanned.probability + timing
        text, note = span.text, spanned.why
        if span.found.label == "PERSON":
            # A person with the role the line gives them: "the site manager, Dana Okafor".
            role = _with_role(question.text, line.text, span.start, span.end)
            if role is not None:
                text, note = role, f"{note}, with the role the line gives"
        proposed.append(
            Candidate(
                text=text,
                value=text,
                cites=(index,),
                score=score,
                note=note,
                extra={"reader": spanned.score, "probability": spanned.probability},
            )
        )
    return proposed


def _timing(
    question: Question, line: str, text: str, start: int, end: int, label: str
) -> float | None:
    """None when ``line`` writes the span at ``start:end`` for another time than the
    question asks about; otherwise what the question's time adds to its score."""
    wanted = question.shape.answer_type
    if question.dated and label in _DATES and wanted not in _TIMES:
        return None  # "the total assets as at 31 December 2018" is not a date
    if not written_for(years_of(line, start, end), question.years):
        return None  # the line writes this figure for another year than asked
    if wanted is not AnswerType.TIME:
        return 0.0
    timing = 0.0
    if asks_a_day(question.text) and not is_whole_date(text):
        timing -= PARTIAL_DATE_PENALTY  # "by what date": a year is not an answer
    if asks_a_deadline(question.text) and states_a_deadline(line, start):
        timing += DEADLINE_GAIN  # "due by April 15, 2008" answers "by what date"
    return timing


def _speaker_who_did_it(line: Evidence, shape: Shape) -> str | None:
    """For "who" over a conversation: the speaker of a turn that tells it in the first
    person ("Maya: I adopted a puppy"), whose name the line writes before the words."""
    if shape.answer_type is not AnswerType.PERSON or line.kind != LineKind.TURN or not line.speaker:
        return None
    said = line.text.removeprefix(f"{line.speaker}:")
    return line.speaker if _FIRST_PERSON.search(said) else None


def _clause(ask: ClauseAsk | None, question: str, line: str, analyzer: Analyzer) -> str | None:
    """The clause the line writes after the verb the question asks about."""
    if ask is None:
        return None
    subject = set(analyzer.terms(ask.subject))
    return clause_answer(ask, line, subject, lambda text: set(analyzer.terms(text)))


def _with_role(question: str, line: str, start: int, end: int) -> str | None:
    """The apposition that names a person with their role ("the site manager, Dana
    Okafor"), when the line writes one around the person at ``start:end``."""
    for phrase in answer_phrases(question, line):
        before = line[phrase.start : start].rstrip()
        if phrase.start < start and phrase.end == end and before.endswith(","):
            return phrase.text
    return None


def _nearness(
    text: str, start: int, end: int, question_terms: set[str], analyzer: Analyzer
) -> float:
    """1.0 when question words sit right beside the span, falling off with distance."""
    window = 60
    around = text[max(0, start - window) : start] + " " + text[end : end + window]
    near_terms = set(analyzer.terms(around))
    if not question_terms:
        return 0.0
    return len(near_terms & question_terms) / len(question_terms)


def _best_unique(candidates: list[Candidate]) -> list[Candidate]:
    ordered = sorted(candidates, key=lambda c: (-c.score, c.cites, c.text))
    seen: set[str] = set()
    unique = []
    for candidate in ordered:
        key = fold(candidate.text)
        if key in seen:
            continue
        seen.add(key)
        unique.append(candidate)
    return unique[:MAX_CANDIDATES]
