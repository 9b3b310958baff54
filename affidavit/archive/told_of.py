"""Whose it is, across the whole conversation: a question about one speaker is refused
when the conversation tells what it asks more fully of someone else."""

from __future__ import annotations

from collections.abc import Callable

from affidavit.archive.census import KeyTermsSaid
from affidavit.gates import SUPPORT_REACH, KeyWords, ToldOf, holds_for, replies_to
from affidavit.index import Retriever, Scope
from affidavit.store import StoredLine
from affidavit.text import Analyzer

# The most lines one reading weighs; past it (a store of many conversations all saying
# the question's words) nothing is judged here and the holder tier alone decides.
LINES_READ = 4000


def told_of(
    retriever: Retriever,
    question_terms: frozenset[str],
    speakers: set[str],
    analyzer: Analyzer,
    scope: Scope | None = None,
) -> ToldOf | None:
    """Weigh the store's turns for the one speaker among ``speakers`` (those of the
    evidence found) the question names; None when it names none or several, or when
    its other words are too common to read every turn holding them.

    The holder tier (gates/holder.py) checks the lines behind an answer: they must be the
    named speaker's own, or say it of them. That alone lets a question with a false
    premise through on a weaker line: asked "What did Caroline realize after her charity
    race?" of a conversation in which Melanie says "I'm starting to realize that self-care
    is really important" after her race, a turn of Caroline's that mentions the race is
    still hers. So before any answer is drawn, every turn of the store that carries the
    question's words, its speakers' names set aside, is weighed by the support tier's own
    measure (the rarity-weighted share of those words) and read for whom it tells of
    (gates/holder.py's reading: the speaker, or the listener of a sentence said to them,
    or someone its words name). When the best such turn is another person's and no turn
    of the named speaker's carries as much, the conversation does not say it of them
    (``ToldOf.passed`` is False) and ask refuses.
    """
    return told_of_counted(retriever, question_terms, speakers, analyzer, scope)[0]


def told_of_counted(
    retriever: Retriever,
    question_terms: frozenset[str],
    speakers: set[str],
    analyzer: Analyzer,
    scope: Scope | None = None,
    idf: Callable[[str], float] | None = None,
) -> tuple[ToldOf | None, int]:
    """``told_of``, with the number of turns that hold the question's words (read when it
    is at most LINES_READ). ``idf``: the words' weights, when not this store's own (a
    shard's, weighed by the whole sharded store's counts)."""
    named = [s for s in sorted(speakers) if (t := set(analyzer.terms(s))) and t <= question_terms]
    if len(named) != 1:
        return None, 0
    speaker = named[0]
    index = retriever.words()
    content = question_terms - frozenset(analyzer.terms(speaker))
    keys = KeyWords.of(content, idf or index.idf, analyzer.language)
    if not keys.written:
        return None, 0
    held: set[int] = set()
    for term in sorted(keys.written):
        column = index.vocabulary.get(term)
        if column is None:  # a word of the whole sharded store that this shard never writes
            continue
        start, end = index.line_counts.indptr[column], index.line_counts.indptr[column + 1]
        held.update(int(r) for r in index.line_counts.indices[start:end])
    allowed = retriever.rows_in(scope)  # the scope's turns only
    if allowed is not None:
        held = {r for r in held if allowed[r]}
    if not held or len(held) > LINES_READ:
        return None, len(held)
    near = sorted(
        {
            r + step
            for r in held
            for step in range(-SUPPORT_REACH, SUPPORT_REACH + 1)
            if 0 <= r + step < index.size
            and index.line_documents[r + step] == index.line_documents[r]
        }
    )
    lines = dict(
        zip(near, retriever.stored_lines([int(index.line_ids[r]) for r in near]), strict=True)
    )
    in_session: dict[str, set[str]] = {}
    for line in lines.values():
        if line.speaker:
            in_session.setdefault(line.document, set()).add(line.speaker)
    said = KeyTermsSaid(keys.terms, analyzer)
    best: dict[bool, tuple[float, StoredLine | None, str | None]] = {
        True: (0.0, None, None),
        False: (0.0, None, None),
    }
    for r in sorted(held):
        line = lines[r]
        if not line.speaker or not retriever.speaks(line):
            continue
        carried = set(said.of(line)) | said.name(line.document)
        if line.date:
            carried |= said.stamp(line.date[:10])
        ours = holds_for(line, speaker, in_session.get(line.document, set()), keys.terms, analyzer)
        before = lines.get(r - 1)
        if ours and before is not None and replies_to(line, before):
            # A reply of the speaker's says what the question put to it asks about
            # ("What got you into running?" - "To clear my head"). Each turn is read on
            # its own words otherwise: a turn that borrows the question's words from the
            # turn beside it, another speaker's, tells nothing of anyone.
            carried |= said.of(before)
        share = keys.carried(carried).share
        if share > best[ours][0] + 1e-9:
            best[ours] = (share, line, speaker if ours else _holder(line, speaker, in_session))
    own_share = best[True][0]
    rival_share, rival_line, rival = best[False]
    where = f"[{rival_line.document} #{rival_line.position}]" if rival_line is not None else None
    return ToldOf(speaker, own_share, rival, rival_share, where), len(held)


def _holder(line: StoredLine, speaker: str, in_session: dict[str, set[str]]) -> str:
    """Whom a turn the named ``speaker`` does not hold tells of, for the audit: its own
    speaker, or, for the speaker's own words said to a listener, that listener."""
    if line.speaker != speaker:
        return str(line.speaker)
    others = sorted(in_session.get(line.document, set()) - {speaker})
    return others[0] if len(others) == 1 else f"the listener of {speaker}"


__all__ = ["LINES_READ", "ToldOf", "told_of", "told_of_counted"]
