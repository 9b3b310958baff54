"""One reply from many shards: ranked lines, documents, answers, verdicts and counts merged,
every tie broken by document name and position so the merged reply is the same on every
run whatever order the shards answered in.

A shard answers as a store does, under its own term statistics (documents are routed by
a hash of their names, so each shard's statistics are a sample of the whole's). Merged:

- **lines** by their word score, best first: a shard's BM25 weights are its sample's, close
  to the whole store's, and a score keeps what reciprocal rank loses (a shard whose best
  line barely matches would otherwise rank it beside another shard's best);
- **an answer**: the shards that answered, the most probable first (a computed answer,
  which the reader does not judge, before a judged one); none answered, the refusal of the
  shard that came closest to answering (``REFUSAL_ORDER``): a shard that found a candidate
  the gate refused holds the documents the question is about, one with no candidate not;
- **the census** is a sum: every shard's documents that speak of the question, counted by
  its own test;
- **a verdict**, sentence by sentence: supported where any shard supports it (contested
  where any contests it), else the failure of the shard whose evidence passed the most of
  the gate's tiers (a shard without the lines a sentence is about fails at its first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from affidavit.answer.census import Census
from affidavit.answer.copies import said_by
from affidavit.reasons import Reason
from affidavit.results import Answer, Evidence, SentenceVerdict, Status, Verdict

# How close a refusal came to an answer, closest first: a candidate judged and found
# unlikely, one a gate read back or vetoed, ..., none proposed, no evidence at all.
REFUSAL_ORDER = (
    Reason.UNLIKELY,
    Reason.READBACK,
    Reason.CONTESTED,
    Reason.DIGIT_VETO,
    Reason.MIXTURE,
    Reason.ROLES,
    Reason.NEGATION,
    Reason.HOLDER,
    Reason.UNSUPPORTED,
    Reason.UNVERIFIABLE,
    Reason.PLAN_DEAD,
    Reason.NO_CLAIM,
    Reason.WEAK_EVIDENCE,
    Reason.BELOW_TRUST,
    Reason.NO_CANDIDATE,
    Reason.NO_EVIDENCE,
    Reason.EMPTY_STORE,
)
_CLOSENESS = {reason.value: at for at, reason in enumerate(REFUSAL_ORDER)}
# A verdict's statuses, the one kept first.
_STATUS_ORDER = (Status.CONTESTED, Status.SUPPORTED, Status.VETOED, Status.DROPPED)


def merged_lines(replies: Sequence[Sequence[Evidence]], k: int) -> list[Evidence]:
    """The ``k`` best lines of every shard's ranking, by score, ties by place."""
    every = [line for lines in replies for line in lines]
    every.sort(key=lambda line: (-line.score, line.document, line.position))
    return every[:k]


def merged_documents(replies: Sequence[Sequence[Any]], k: int) -> list[Any]:
    """The ``k`` best documents (DocumentHit) of every shard's ranking, by fused score."""
    every = [hit for hits in replies for hit in hits]
    every.sort(key=lambda hit: (-hit.score, hit.document))
    return every[:k]


def merged_answer(answers: Sequence[Answer]) -> Answer:
    """The whole store's answer from its shards' answers to one question."""
    if len(answers) == 1:
        return answers[0]
    answered = [a for a in answers if not a.refused]
    if answered:
        chosen = min(answered, key=_answer_rank)
        rivals = [
            (other.text, other.probability)
            for other in answered
            if other is not chosen and other.probability is not None and other.text != chosen.text
        ]
        everything = sorted([*chosen.rivals, *rivals], key=lambda r: (-r[1], r[0]))
        chosen = _with_copies(replace(chosen, rivals=everything), answered)
    else:
        chosen = min(answers, key=_refusal_rank)
    return _with_census(chosen, answers)


def _with_copies(chosen: Answer, answered: Sequence[Answer]) -> Answer:
    """``chosen`` citing, after its own lines, the lines of every other shard that gave the
    same answer (copies and versions of its documents stored elsewhere), with its census
    counting them: as one store cites every copy of a line it answers from."""
    same = [a for a in answered if a is not chosen and a.text == chosen.text]
    cited = {(c.document, c.position) for c in chosen.citations}
    extra = []
    for line in (c for a in same for c in a.citations):
        if (line.document, line.position) not in cited:
            cited.add((line.document, line.position))
            extra.append(line)
    if not extra:
        return chosen
    listed = chosen.audit.get("copies") or []
    own = chosen.citations[: len(chosen.citations) - len(listed)]
    copied = chosen.citations[len(own) :]
    census = chosen.census
    if copied:
        census = census.replace(said_by(own, copied), said_by(own, [*copied, *extra]), 1)
    else:
        census = f"{census} {said_by(own, extra)}".strip()
    audit = dict(chosen.audit)
    audit["copies"] = [*listed, *(line.dateline() for line in extra)]
    return replace(chosen, citations=[*chosen.citations, *extra], census=census, audit=audit)


def _answer_rank(answer: Answer) -> tuple[Any, ...]:
    judged = answer.probability is not None
    first = answer.citations[0] if answer.citations else None
    place = (first.document, first.position) if first else ("", 0)
    return (judged, -(answer.probability or 0.0), place)


def _refusal_rank(answer: Answer) -> tuple[Any, ...]:
    best = answer.audit.get("best_lines") or []
    return (_CLOSENESS.get(answer.reason or "", len(_CLOSENESS)), -len(best))


def _with_census(chosen: Answer, answers: Sequence[Answer]) -> Answer:
    """``chosen`` with the census of every shard: the documents each counted, summed
    under the chosen shard's way of counting (its rarest key word)."""
    own = chosen.audit.get("census")
    if not isinstance(own, dict) or "documents" not in own:
        return chosen
    counted: dict[str, int] = {}
    complete = bool(own.get("complete", True))
    for answer in answers:
        census = answer.audit.get("census")
        if isinstance(census, dict) and census.get("documents"):
            counted.update(census["documents"])
            complete = complete and bool(census.get("complete", True))
    ordered = dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))
    line = census_line(ordered, own.get("rarest"), complete)
    said = chosen.census.replace(str(own.get("line", "")), line, 1) if own.get("line") else line
    audit = dict(chosen.audit)
    audit["census"] = {**own, "documents": ordered, "complete": complete, "line": line}
    return replace(chosen, census=said, audit=audit)


def census_line(documents: dict[str, int], rarest: str | None, complete: bool) -> str:
    """The census's line for ``documents`` (as answer/census.py's Census says it)."""
    return Census(documents, rarest, complete).line


def merged_verdict(verdicts: Sequence[Verdict]) -> Verdict:
    """The whole store's verdict from its shards' verdicts on one text (the same sentences
    in each: the text is split before any shard is read)."""
    first = verdicts[0]
    if len(verdicts) == 1:
        return first
    sentences = [
        _merged_sentence([v.sentences[at] for v in verdicts]) for at in range(len(first.sentences))
    ]
    return replace(first, sentences=sentences)


def _merged_sentence(sentences: Sequence[SentenceVerdict]) -> SentenceVerdict:
    def rank(sentence: SentenceVerdict) -> tuple[int, int, int, int]:
        closeness = _CLOSENESS.get(sentence.reason or "", len(_CLOSENESS))
        if sentence.status in (Status.CONTESTED, Status.SUPPORTED):
            return (_STATUS_ORDER.index(sentence.status), 0, closeness, -len(sentence.evidence))
        # Not supported anywhere: the shard whose evidence passed the most of the gate's
        # tiers holds the lines the sentence is about (one store judges it against them);
        # a shard without them stops at the digit veto, or finds no evidence at all.
        passed = sum(1 for gate in sentence.gates if gate.get("passed"))
        return (len(_STATUS_ORDER), -passed, closeness, _STATUS_ORDER.index(sentence.status))

    return min(sentences, key=rank)  # min keeps the first shard's among equals
