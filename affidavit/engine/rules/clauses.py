"""Clause answers: what a line says after the verb the question asks about ("What does
interest expense include?", "How is EBITDA calculated?", "Why did operating income
decrease?", "What is goodwill?" ask for a clause, not a noun phrase)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from affidavit.text import before_sentence_end

# The question's kind of clause, and the words that open that clause in a line.
_INCLUDES = (
    r"(?:consists?|consisted|comprises?|comprised|is composed|are composed|is made up|"
    r"are made up)\s+(?:primarily\s+|mainly\s+|principally\s+)?of|includes?|included|"
    r"including|comprises?|represents?|refers?\s+to|means|covers?|excludes?"
)
_HOW = (
    r"(?:is|are|was|were)\s+(?:calculated|computed|determined|measured|derived|defined|"
    r"estimated|amortised|amortized|recognised|recognized)\s+(?:as|by|using|on|from|based on)|"
    r"(?:calculated|computed|determined|defined|measured)\s+(?:as|by|using)|"
    # the active voice: "The Company calculates net loss per share by dividing ..."
    r"(?:calculates|computes|determines|measures|derives)\s+[^.;]{1,120}?\s+(?:by|using)"
)
_WHY = (
    r"(?:primarily|mainly|largely|partly|principally)?\s*(?:due to|because of|because|as a "
    r"result of|driven by|attributable to|resulting from|reflecting)"
)
_IS = r"(?:is|are|was|were)\s+(?!not\b)"


@dataclass(frozen=True, slots=True)
class ClauseAsk:
    subject: str  # the thing the question asks about, as it words it
    opener: str  # a pattern for the words that open the answer in a line
    any_verb: bool = False  # opened by the question's own verb, not a verb of the list


_ASKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"^what\s+(?:does|do|did)\s+(?:the\s+)?(?P<s>.+?)\s+(?:primarily\s+|mainly\s+)?"
            r"(?:consist|comprise|include|represent|mean|cover|exclude|refer to)"
            r"(?:\s+(?:primarily|mainly|principally|largely))?(?:\s+of)?$",
            re.I,
        ),
        _INCLUDES,
    ),
    (
        re.compile(
            r"^what\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<s>.+?)\s+"
            r"(?:composed|comprised|made up|consisted)\s+of$",
            re.I,
        ),
        _INCLUDES,
    ),
    (
        re.compile(r"^what\s+(?:is|are|was|were)\s+included\s+in\s+(?:the\s+)?(?P<s>.+)$", re.I),
        _INCLUDES,
    ),
    (
        re.compile(
            r"^how\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<s>.+?)\s+(?:calculated|computed|"
            r"determined|measured|derived|defined|estimated|amortised|amortized|recognised|"
            r"recognized)(?:\s+as)?$",
            re.I,
        ),
        _HOW,
    ),
    (
        re.compile(
            r"^why\s+(?:did|does|do|is|was|were|are|has|have)\s+(?:the\s+)?(?P<s>.+)$", re.I
        ),
        _WHY,
    ),
    # "What was the reason for the increase in X?", "What caused X to increase?"
    (
        re.compile(
            r"^what\s+(?:is|was|are|were)\s+the\s+(?:main\s+|primary\s+|principal\s+|key\s+|"
            r"major\s+)?(?:reasons?|causes?|drivers?)\s+(?:for|of|behind)\s+(?:the\s+)?(?P<s>.+)$",
            re.I,
        ),
        _WHY,
    ),
    (
        re.compile(r"^what\s+(?:caused|drove|led to|contributed to)\s+(?:the\s+)?(?P<s>.+)$", re.I),
        _WHY,
    ),
    # "What is the increase in total revenue attributed to?"
    (
        re.compile(
            r"^what\s+(?:is|was|are|were)\s+(?:the\s+)?(?P<s>.+?)\s+(?:attributed|attributable|"
            r"due)\s+to$",
            re.I,
        ),
        _WHY,
    ),
    # A definition: "What is goodwill?", "What are distribution customers?" (a short name
    # without "the": "What is the name of ..." asks for a phrase, not a clause).
    (
        re.compile(
            r"^what\s+(?:is|are)\s+(?!the\b|this\b|that\b|its\b)(?:an?\s+)?"
            r"(?P<s>[\w][\w\-’'&]*(?:\s+[\w\-’'&()“”\"]+){0,4})$",
            re.I,
        ),
        _IS,
    ),
)


# Any other verb the question ends on with its particle ("What do the provisions relate
# to?", "What do the contributions depend on?"), or in the passive after "how" ("How were
# the inventories valued?"): the line answers with what it writes after that verb, in any
# of its forms. NOTE: a bare verb ("What did Caroline research?") asks for a thing, not a
# clause: allowing it cost SQuAD 2.0 report F1 0.530 -> 0.527 and LoCoMo single-hop
# 0.093 -> 0.089.
_WHAT_DOES_VERB = re.compile(
    r"^what\s+(?:does|do|did)\s+(?:the\s+)?(?P<s>.+?)\s+(?P<v>[a-z]{3,})"
    r"\s+(?P<p>to|of|for|on|in|with|from|by|as|at)$",
    re.I,
)
_HOW_WAS_VERBED = re.compile(
    r"^how\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<s>.+?)\s+(?P<v>[a-z]{3,}(?:ed|en|wn))"
    r"(?:\s+(?P<p>to|of|for|on|in|with|from|by|as|at))?$",
    re.I,
)
# Verbs that end a question without asking for a clause ("What does the table show?" asks
# about the document; "What did the company pay?" asks for a figure).
_NO_CLAUSE_VERBS = frozenset(
    "show shows showed present presents provide provides pay paid cost costs earn earned "
    "record recorded report reported total totaled totalled amount amounted have has had "
    "do does did be is are was were".split()
)


def _verb_forms(verb: str) -> str:
    """A pattern for a regular English verb in its forms: "valued" -> valu(e|es|ed|ing)."""
    word = verb.lower()
    for ending in ("ied", "ies", "ing", "ed", "es", "en", "s", "e"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return rf"{re.escape(word)}(?:e|es|ed|d|s|ing|ies|ied|y|en)?"


def clause_ask(question: str) -> ClauseAsk | None:
    """The clause a question asks for, or None when it asks for something else."""
    text = question.strip().rstrip("?").strip()
    for pattern, opener in _ASKS:
        found = pattern.match(text)
        if found:
            return ClauseAsk(found.group("s").strip(), opener)
    for pattern in (_WHAT_DOES_VERB, _HOW_WAS_VERBED):
        found = pattern.match(text)
        if found and found.group("v").lower() not in _NO_CLAUSE_VERBS:
            particle = found.group("p")
            opener = _verb_forms(found.group("v")) + (rf"\s+{particle}" if particle else "")
            return ClauseAsk(found.group("s").strip(), opener, any_verb=True)
    return None


def clause_answer(
    ask: ClauseAsk, line: str, subject_words: set[str], words_of: Callable[[str], set[str]]
) -> str | None:
    """The clause ``line`` writes after the ask's opener ("includes", "consist of", "is
    calculated by", "due to" or the subject's "is"), up to the end of its sentence, when
    the words before the opener name the subject (share a word with it); None otherwise.
    The clause is lifted verbatim from the line, so the gates judge it as any other
    candidate.

    ``words_of`` turns text into comparable terms (the analyzer's stems).
    """
    for found in re.finditer(rf"\b(?:{ask.opener})\b[:,]?\s*", line, re.I):
        # The subject stands before the opener, or inside it in the active voice.
        before = words_of(line[: found.end()])
        if subject_words and not subject_words & before:
            continue
        rest = line[found.end() :]
        clause = before_sentence_end(rest)
        clause = clause.strip().rstrip(".;:,").strip()
        if 2 <= len(clause.split()) <= 60:
            return clause
    return None
