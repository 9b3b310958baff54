"""What the audit report states, worked out in Python so it is deterministic and tested:
the rows of an answers file (answers, refusals, input errors and claims verified), which
words of a cited line carry the answer, whether the store still holds each cited line as
cited, and the counts of the summary. No HTML: page.py and claims.py turn these facts into
the page."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from affidavit.errors import InputError
from affidavit.reasons import Reason
from affidavit.text import LETTER_OR_DIGIT, fold

ANSWERED = "answered"
INPUT_ERROR = "input error"
REFUSED = "refused"  # the outcome of a refusal that names no reason
# A claim row (batch/worker.py writes "kind": "verify") and its three verdicts.
VERIFY_KIND = "verify"
SUPPORTED, CONTRADICTED, NOT_SUPPORTED = "supported", "contradicted", "not supported"

# A word with its inner punctuation kept, so a number or code is one word: 5.75,
# $1,496.5 (as 1,496.5), III-52.1, O'Neil.
_WORD = re.compile(rf"{LETTER_OR_DIGIT}+(?:[.,'’/-]{LETTER_OR_DIGIT}+)*")
_JOINERS = ".,'’/-"
# NOTE: words under 3 letters are skipped by length; these longer ones carry no answer
# either, and marking every "the" of a cited line would hide the words that do.
_STOP = frozenset(
    "the and are but for from had has have her his its not our than that their them "
    "then there these they this those was were what when where which who whom whose why "
    "with you your into onto upon over also been being did does only".split()
)


@dataclass(frozen=True, slots=True)
class AnswerRows:
    """The rows of an answers file in file order, and how many torn lines were left out."""

    rows: list[dict[str, Any]]
    incomplete: int  # a run cut short leaves a torn last line: left out, and said so


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A claim the store contradicts: its row's id and line, the claim, and each of its
    sentences contradicted with the lines that say otherwise ("document #position")."""

    id: str
    line: int | None
    claim: str
    sentences: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class ReportSummary:
    """What a report counted, as ``write_report`` returns it (the page shows the same).
    Answers, refusals and input errors are the questions' rows; ``supported``,
    ``contradicted`` and ``not_supported`` count the claims verified."""

    answered: int
    refused: int
    errors: int
    by_reason: dict[str, int]  # refusals by reason code, most frequent first
    documents: dict[str, int]  # cited document -> answers citing it, most cited first
    changed_citations: int  # citations the store no longer holds as cited
    incomplete_lines: int
    out: Path
    # Answers said where the store disagrees with itself: (row id, question, the answer,
    # [(what the other side says, its lines)]), in the file's order.
    disagreements: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...] = ()
    supported: int = 0
    contradicted: int = 0
    not_supported: int = 0
    # Every claim the store contradicts, in the file's order.
    contradictions: tuple[Contradiction, ...] = ()

    @property
    def claims(self) -> int:
        """How many claims the answers file verified."""
        return self.supported + self.contradicted + self.not_supported


class Lines(Protocol):
    """Where cited lines are looked up: a Memory (``Memory.line``)."""

    def line(self, document: str, position: int) -> Any: ...


class CheckedStore(Lines, Protocol):
    """The store a report checks citations against, and names by its file and its
    fingerprint: a Memory, best opened read-only without the meaning model."""

    @property
    def path(self) -> str | None: ...

    def fingerprint(self) -> str: ...


def read_rows(path: str | Path) -> AnswerRows:
    """The JSON objects of an answers file, one a line; blank lines are skipped.

    A last line with no newline that is not JSON is a run cut short: it is left out and
    counted. Any other line that is not a JSON object raises InputError naming the file
    and the line."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputError(str(file), "no such answers file", "check the path") from None
    except OSError as error:
        raise InputError(str(file), f"cannot read the answers file ({error})") from None
    # Split as bytes: a write cut short can end inside a character, and only that line
    # may be unreadable for it.
    lines = data.split(b"\n")
    torn_at = len(lines) if not data.endswith(b"\n") else 0
    rows: list[dict[str, Any]] = []
    incomplete = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            if number == torn_at:
                incomplete += 1
                continue
            problem = error.msg if isinstance(error, json.JSONDecodeError) else "not UTF-8"
            raise InputError(
                f"{file} line {number}",
                f"not JSON ({problem})",
                "fix or remove the line and write the report again",
            ) from None
        if not isinstance(row, dict) or not (
            "question" in row or "error" in row or row.get("kind") == VERIFY_KIND
        ):
            raise InputError(
                f"{file} line {number}",
                "not an answer (no 'question'), a claim verified (no 'kind': 'verify') "
                "nor an input error (no 'error')",
                "give the file a batch run wrote",
            )
        row.setdefault("line", number)
        rows.append(row)
    return AnswerRows(rows, incomplete)


def reason_text(code: str) -> str:
    """The catalogue's words for a reason code, or "" for a code the catalogue does not
    hold (a row written by another version)."""
    try:
        return Reason(code).text
    except ValueError:
        return ""


def is_claim(row: Mapping[str, Any]) -> bool:
    """Whether the row is a claim's verdict (not an error row of a claim line)."""
    return row.get("kind") == VERIFY_KIND and "error" not in row


def verdict(row: Mapping[str, Any]) -> str:
    """A claim row's verdict: "contradicted" when a line of the store says otherwise of
    any sentence, else "supported" when every sentence is, else "not supported"."""
    if row.get("contradicted") is True:
        return CONTRADICTED
    return SUPPORTED if row.get("supported") is True else NOT_SUPPORTED


def outcome(row: Mapping[str, Any]) -> str:
    """How a row ended: "answered", "input error", the refusal's reason code, or a claim's
    verdict."""
    if "error" in row and "question" not in row:
        return INPUT_ERROR
    if is_claim(row):
        return verdict(row)
    if row.get("refused"):
        return str(row.get("reason") or REFUSED)
    return ANSWERED


def citations(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A row's citations (a malformed entry is skipped, not fatal: the report still opens)."""
    return dicts(row.get("citations"))


def sentences(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A claim row's sentences, each with its status and evidence."""
    return dicts(row.get("sentences"))


def cited_lines(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every line a row cites: an answer's citations, a claim's sentences' evidence."""
    return citations(row) + [line for s in sentences(row) for line in dicts(s.get("evidence"))]


def stored_lines(rows: Iterable[Mapping[str, Any]], store: Lines) -> dict[tuple[str, int], str]:
    """The text the store holds at every line the rows cite (each looked up once); a line
    the store does not hold is absent."""
    held: dict[tuple[str, int], str] = {}
    asked: set[tuple[str, int]] = set()
    for row in rows:
        for citation in cited_lines(row):
            key = cited_at(citation)
            if key is None or key in asked:
                continue
            asked.add(key)
            found = store.line(*key)
            if found is not None:
                held[key] = found.text
    return held


def check(citation: Mapping[str, Any], held: Mapping[tuple[str, int], str]) -> str | None:
    """None if the store holds the cited line word for word; else what the reviewer must
    be told: the line is gone, or the store's text differs from the text cited."""
    key = cited_at(citation)
    if key is None or key not in held:
        return "the line is gone from the store"
    if held[key] != citation.get("text"):
        return "the store holds different text at this position"
    return None


def cited_at(citation: Mapping[str, Any]) -> tuple[str, int] | None:
    """(document, position) of a citation, or None if it does not name a line."""
    document, position = citation.get("document"), citation.get("position")
    if not isinstance(document, str) or type(position) is not int:
        return None
    return document, position


def answer_terms(row: Mapping[str, Any]) -> list[str]:
    """The answer as phrases to find in its cited lines: the value and the text whole
    (longest first), then their words that can carry an answer."""
    if outcome(row) != ANSWERED:
        return []
    phrases = [p for p in _texts(row.get("value")) + _texts(row.get("text")) if p.strip()]
    return list(dict.fromkeys(sorted(phrases, key=len, reverse=True) + carrying_words(phrases)))


def carrying_words(phrases: Iterable[str]) -> list[str]:
    """The words of ``phrases`` that can carry a fact: numbers and codes, and words of 3
    letters or more that are not stop words."""
    return [
        w
        for p in phrases
        for w in _WORD.findall(p)
        if any(c.isdigit() for c in w) or (len(w) >= 3 and fold(w) not in _STOP)
    ]


def plan_cells(row: Mapping[str, Any]) -> dict[tuple[str, int], list[str]]:
    """The cells a plan read, as written, by the line they sit on (trace inputs' cites)."""
    audit = row.get("audit")
    plan = audit.get("plan") if isinstance(audit, dict) else None
    cells: dict[tuple[str, int], list[str]] = {}
    for step in dicts(plan.get("trace") if isinstance(plan, dict) else None):
        for value in dicts(step.get("inputs")):
            for cite in dicts(value.get("cites")):
                key, written = cited_at(cite), cite.get("written")
                if key is not None and isinstance(written, str) and written.strip():
                    cells.setdefault(key, []).append(written)
    return cells


def dicts(found: Any) -> list[dict[str, Any]]:
    """The objects of a JSON list (anything else is skipped: a hand-edited audit must not
    stop the report from being written)."""
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def marks(line: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """The spans (start, end) of ``line`` where any of ``terms`` stands as a whole word,
    case-insensitive, merged where they overlap. "5" is not found inside "15" or "5.75"."""
    spans = sorted(
        (found.start(), found.end()) for term in terms for found in _pattern(term).finditer(line)
    )
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def utf16(line: str, spans: Iterable[tuple[int, int]]) -> list[list[int]]:
    """``spans`` counted in UTF-16 code units, as JavaScript indexes a string."""
    if line.isascii():
        return [[start, end] for start, end in spans]

    def unit(i: int) -> int:
        return i + sum(1 for c in line[:i] if ord(c) > 0xFFFF)

    return [[unit(start), unit(end)] for start, end in spans]


@lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    # Word edges only where the term has a word character at that end ("$1,496.5" opens
    # with "$"); a joiner followed by a letter or digit continues the word (5 in 5.75).
    before = rf"(?<!\w)(?<!\w[{_JOINERS}])" if term[:1].isalnum() else ""
    after = rf"(?![{_JOINERS}]?\w)" if term[-1:].isalnum() else ""
    return re.compile(before + re.escape(term) + after, re.IGNORECASE)


def _texts(value: Any) -> list[str]:
    """A value as the texts it writes: a string, a number, or a list of them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, list):
        return [t for item in value for t in _texts(item)]
    return []


def summarise(
    rows: Sequence[Mapping[str, Any]],
    held: Mapping[tuple[str, int], str],
    *,
    incomplete: int,
    out: Path,
) -> ReportSummary:
    """The counts the report's summary states: the questions' outcomes and the claims'
    verdicts apart; a citation is checked whichever row cites it."""
    claims = [row for row in rows if is_claim(row)]
    outcomes = Counter(outcome(row) for row in rows if not is_claim(row))
    answered, errors = outcomes.pop(ANSWERED, 0), outcomes.pop(INPUT_ERROR, 0)
    verdicts = Counter(verdict(row) for row in claims)
    documents = Counter(
        document
        for row in rows
        for document in {c.get("document") for c in citations(row)}
        if isinstance(document, str)
    )
    changed = sum(check(c, held) is not None for row in rows for c in cited_lines(row))
    disagreements = tuple(found for found in map(_disagreement, rows) if found is not None)
    return ReportSummary(
        answered=answered,
        refused=sum(outcomes.values()),
        errors=errors,
        by_reason=_ranked(outcomes),
        documents=_ranked(documents),
        changed_citations=changed,
        incomplete_lines=incomplete,
        out=out,
        disagreements=disagreements,
        supported=verdicts[SUPPORTED],
        contradicted=verdicts[CONTRADICTED],
        not_supported=verdicts[NOT_SUPPORTED],
        contradictions=tuple(_contradiction(row) for row in claims if verdict(row) == CONTRADICTED),
    )


def _contradiction(row: Mapping[str, Any]) -> Contradiction:
    said = tuple(
        (
            str(sentence.get("text", "")),
            tuple(
                f"{key[0]} #{key[1]}"
                for key in map(cited_at, dicts(sentence.get("evidence")))
                if key is not None
            ),
        )
        for sentence in sentences(row)
        if sentence.get("status") == CONTRADICTED
    )
    line = row.get("line")
    return Contradiction(
        id=str(row.get("id", "")),
        line=line if type(line) is int else None,
        claim=str(row.get("text", "")),
        sentences=said,
    )


def _disagreement(
    row: Mapping[str, Any],
) -> tuple[str, str, str, tuple[tuple[str, str], ...]] | None:
    """An answered row whose audit names lines of equal standing that answer otherwise."""
    audit = row.get("audit")
    rivals = audit.get("contradicted_by") if isinstance(audit, dict) else None
    if outcome(row) != ANSWERED or not isinstance(rivals, list) or not rivals:
        return None
    sides = tuple(
        (str(rival.get("text", "")), "; ".join(str(line) for line in rival.get("lines", [])))
        for rival in rivals
        if isinstance(rival, dict)
    )
    said = (str(row.get("id", "")), str(row.get("question", "")), str(row.get("text", "")))
    return (*said, sides) if sides else None


def _ranked(counts: Counter[str]) -> dict[str, int]:
    """Most frequent first, ties by name, so two reports of one file read alike."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
