"""The phrase that answers: the part of an evidence line a what/which/who question asks for,
a verbatim slice of the line, so the gates read it against it."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from spacy.tokens import Doc, Span, Token

from affidavit.errors import EngineError
from affidavit.index import BundledEncoder, encode
from affidavit.scorer import focus_words, wh_role
from affidavit.text import Analyzer, parsed, words, written_word_spans

# A phrase longer than this many tokens is a clause, not an answer.
MAX_TOKENS = 12

_WH = frozenset({"what", "which", "who", "whom", "whose"})
# Line roles that answer each question role (an active object is a passive subject).
_ANSWERS = {
    "subject": {"nsubj", "agent_pobj"},
    "object": {"dobj", "nsubjpass", "dative", "attr"},
    "attribute": {"attr", "nsubj", "appos", "dobj", "oprd"},
    "prep": {"pobj"},
}
_BOUNDARY = re.compile(r"[,.;:!?()\[\]]")


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str
    start: int  # character offsets in the line
    end: int
    fit: float  # 0..1, how well it answers
    why: str


@dataclass(frozen=True, slots=True)
class Asking:
    """What the question's parse says about where its answer sits."""

    role: str | None  # subject / object / attribute / prep
    verb: str | None  # the stem of the verb the wh-word hangs from
    preposition: str | None
    focus: str | None  # the stem of the noun asked for ("regulation" in "Which regulation")
    focus_text: str = ""  # its words ("type of ship" reads as "ship")


def read_asking(question: str, analyzer: Analyzer) -> Asking:
    """The wh-word's role, its verb and the focus noun of an English question."""
    return _read_asking(question, analyzer.language)


@lru_cache(maxsize=256)
def _read_asking(question: str, language: str) -> Asking:
    # Read once a question: the phrase reader asks it of every line it reads.
    analyzer = Analyzer(language)
    doc = parsed(question)
    wh = next((t for t in doc if t.lower_ in _WH), None)
    if wh is None:
        return Asking(None, None, None, None)
    read = wh_role(wh, analyzer)
    focus = analyzer.term(read.focus.lower_) if read.focus is not None else None
    return Asking(read.role, read.verb, read.preposition, focus, focus_words(read.focus))


def answer_phrases(question: str, line: str, language: str = "en") -> list[Phrase]:
    """Verbatim phrases of ``line`` that could answer ``question``, best first.

    An English line is read with the dependency parse of the installed English pipeline,
    and so is the question: its wh-word's role (subject, object, the object of a
    preposition) and the verb it hangs from say where the answer sits in a line that uses
    the same verb (``read_asking``). Every noun phrase of the line (with its apposition:
    "the site manager, Dana Okafor") that the question does not already say is a
    candidate, described by FEATURES (``phrase_features``); a logistic model over them
    (``_weights``) gives each phrase its fit. Spanish and Turkish have no parser installed
    here, so a rule stands in (``_rule_phrases``).
    """
    analyzer = Analyzer(language)
    asked = set(analyzer.terms(question))
    if language != "en":
        return _rule_phrases(line, asked, analyzer)
    weights = _weights()
    found: dict[tuple[int, int], Phrase] = {}
    for span, features in phrase_features(question, line, analyzer):
        score = float(np.dot(weights, features))
        fit = 1.0 / (1.0 + math.exp(-score))
        start, end = _quoted_name(line, span.start_char, span.end_char, asked, analyzer)
        why = ", ".join(
            f"{name} {value:.2f}" for name, value in zip(FEATURES, features, strict=True) if value
        )
        if (start, end) not in found or found[(start, end)].fit < fit:
            found[(start, end)] = Phrase(line[start:end], start, end, fit, why)
    return sorted(found.values(), key=lambda p: (-p.fit, p.start, p.end))


_OPENING_QUOTES = "“\"‘'"
_QUOTES = "“”\"‘’'"


def _quoted_name(
    line: str, start: int, end: int, asked: set[str], analyzer: Analyzer
) -> tuple[int, int]:
    """A phrase that is the question's own words before a quoted name ("the symbol
    “TZOO”") answers with the name; a quote the phrase opens but does not close (the
    parser leaves the closing one outside) is not part of it."""
    text = line[start:end]
    opened = next((i for i, char in enumerate(text) if char in _OPENING_QUOTES), -1)
    if opened < 0:
        return start, end
    before = set(analyzer.terms(text[:opened]))
    inside_end = end
    while inside_end > start + opened + 1 and line[inside_end - 1] in _QUOTES + ".,;: ":
        inside_end -= 1
    if before <= asked and inside_end > start + opened + 1:
        return start + opened + 1, inside_end
    closed = any(char in _QUOTES for char in text[opened + 1 :])
    if closed or not text[:opened].strip():
        return start, end
    return start, start + len(text[:opened].rstrip())


# What describes a candidate phrase, chief among them its role (it plays the wh-word's role
# beside the question's own verb), its nearness (near, near_mean, adjacent: few dependency
# arcs, and few words, from the line's words the question says) and its focus (focus,
# type_sim: it holds, or is near in the bundled static model to, the noun the question
# asks for: "Which regulation ...", "what kind of climate").
FEATURES = tuple(
    "bias role near near_mean adjacent focus said length apposition extended proper number "
    "after nsubj dobj pobj attr nsubjpass conj attached called verb_known density type_sim".split()
)
_CALLED = frozenset({"called", "named", "termed", "known", "as", "dubbed"})
# A phrase that points at what another sentence says names nothing by itself, and nor
# does a report's defined name for its own author ("the Company", "the Group").
_POINTS_ELSEWHERE = re.compile(
    r"^(?:this|these|that|those|such|the\s+(?:following|above|foregoing|same))\b|"
    r"^the\s+(?:company|group|registrant)$",
    re.I,
)


def phrase_features(question: str, line: str, analyzer: Analyzer) -> list[tuple[Span, np.ndarray]]:
    """Each candidate phrase of an English ``line`` with its FEATURES (for scoring and fitting)."""
    asked = set(analyzer.terms(question))
    asking = read_asking(question, analyzer)
    calls = bool(_CALLED & set(words(question)))
    doc = parsed(line)
    matched = [t.i for t in doc if set(analyzer.terms(t.text)) & asked]
    first_match = min(matched) if matched else len(doc)
    candidates = _noun_phrases(doc)
    similarity = _type_similarity(asking.focus_text, [span.text for span, _, _ in candidates])
    out = []
    for (span, head, extended), type_sim in zip(candidates, similarity, strict=True):
        if _POINTS_ELSEWHERE.match(span.text):
            continue  # "this time frame", "the following tables" point at what is said elsewhere
        terms = set(analyzer.terms(span.text))
        novel = terms - asked - ({asking.focus} if asking.focus else set())
        if not novel:
            continue  # the question already says it
        tail = (
            set(analyzer.terms(doc[head.i + 1 : span.end].text)) if span.end > head.i + 1 else set()
        )
        if extended and tail and tail <= asked:
            continue  # what it adds to its noun, the question already says
        anchor = head.head if head.dep_ == "appos" else head
        inside = set(range(span.start, span.end))
        outside = [i for i in matched if i not in inside]
        arcs = [_arcs(anchor, doc[i]) for i in outside]
        gaps = [min(abs(i - span.start), abs(i - (span.end - 1))) for i in outside]
        before = doc[max(span.start - 2, 0) : span.start]
        features = np.array(
            [
                1.0,
                _role_fit(anchor, asking, analyzer),
                max((1.0 / (1.0 + a) for a in arcs), default=0.0),
                sum(1.0 / (1.0 + a) for a in arcs) / len(arcs) if arcs else 0.0,
                max((1.0 / (1.0 + g) for g in gaps), default=0.0),
                1.0 if asking.focus and asking.focus in terms else 0.0,
                1.0 - len(novel) / max(len(terms), 1),
                len(span) / 10.0,
                1.0 if head.dep_ == "appos" else 0.0,
                1.0 if extended else 0.0,
                1.0 if any(t.pos_ == "PROPN" for t in span) else 0.0,
                1.0 if any(t.like_num for t in span) else 0.0,
                1.0 if span.start > first_match else 0.0,
                *(1.0 if anchor.dep_ == d else 0.0 for d in _DEPS),
                1.0 if anchor.head.i in outside else 0.0,
                1.0 if calls and any(t.lower_ in _CALLED for t in before) else 0.0,
                1.0 if asking.verb is not None else 0.0,
                len({doc[i].lower_ for i, gap in zip(outside, gaps, strict=True) if gap <= 3})
                / max(len(asked), 1),
                type_sim,
            ]
        )
        out.append((span, features))
    return out


def _type_similarity(focus: str, texts: list[str]) -> list[float]:
    """Cosine of each text with the asked-for words in the bundled static model: a
    country is near "France", a religion near "Catholic"."""
    if not focus or not texts:
        return [0.0] * len(texts)
    vectors = encode(BundledEncoder(), [focus, *texts])
    return [float(max(v, 0.0)) for v in vectors[1:] @ vectors[0]]


_DEPS = ("nsubj", "dobj", "pobj", "attr", "nsubjpass", "conj")
_WEIGHTS_FILE = Path(__file__).resolve().parents[2] / "data" / "phrase_weights.json"


@lru_cache(maxsize=1)
def _weights() -> np.ndarray:
    """The weights of the logistic model over FEATURES, in FEATURES order: fitted on SQuAD
    2.0 dev's tune split (tools/fit_phrase_weights.py), kept in
    affidavit/data/phrase_weights.json."""
    hint = "reinstall affidavit, or refit them with tools/fit_phrase_weights.py"
    try:
        fitted = json.loads(_WEIGHTS_FILE.read_text(encoding="utf-8"))["weights"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EngineError(
            f"{_WEIGHTS_FILE}: the phrase scorer's weights cannot be read ({hint})"
        ) from exc
    missing = [name for name in FEATURES if name not in fitted]
    if missing:
        raise EngineError(
            f"{_WEIGHTS_FILE}: the phrase scorer has no weight for {', '.join(missing)} ({hint})"
        )
    return np.array([float(fitted[name]) for name in FEATURES])


def _noun_phrases(doc: Doc) -> list[tuple[Span, Token, bool]]:
    """Noun chunks, each also with its apposition and with its modifiers ("the Duchy of
    Normandy"), and the numbers and names the chunker leaves out; (span, head, extended)."""
    found: list[tuple[Span, Token, bool]] = []
    for chunk in doc.noun_chunks:
        if chunk.root.tag_ in ("WP", "WDT", "PRP", "EX"):
            continue  # who, which, it, there: pointers, not answers
        span = _trim(doc, chunk.start, _complement_end(chunk))
        if span is not None:
            found.append((span, chunk.root, False))
        for a in (c for c in chunk.root.children if c.dep_ == "appos"):
            whole = _trim(doc, chunk.start, a.right_edge.i + 1)
            if whole is not None and len(whole) <= MAX_TOKENS:
                found.append((whole, a, True))  # headed by the apposition: the name it gives
        subtree = _trim(doc, chunk.root.left_edge.i, chunk.root.right_edge.i + 1)
        if (
            subtree is not None
            and len(subtree) <= MAX_TOKENS
            and (span is None or (subtree.start, subtree.end) != (span.start, span.end))
        ):
            found.append((subtree, chunk.root, True))
    for token in doc:
        if token.dep_ == "pobj" and token.pos_ in ("NUM", "PROPN", "ADJ"):
            span = _trim(doc, token.left_edge.i, token.right_edge.i + 1)
            if span is not None and len(span) <= MAX_TOKENS:
                found.append((span, token, False))
    return found


def _complement_end(chunk: Span) -> int:
    """Where a noun chunk ends with the "of" phrase that completes its noun ("the
    divestiture of the video business"), unless that makes a clause of it."""
    after = chunk.doc[chunk.end] if chunk.end < len(chunk.doc) else None
    if after is not None and after.lower_ == "of" and after.head == chunk.root:
        end = after.right_edge.i + 1
        return end if end - chunk.start <= 2 * MAX_TOKENS else chunk.end
    return chunk.end


def _trim(doc: Doc, start: int, end: int) -> Span | None:
    """The span without punctuation or a conjunction at either end."""
    while start < end and (doc[start].is_punct or doc[start].tag_ == "CC"):
        start += 1
    while end > start and (doc[end - 1].is_punct or doc[end - 1].tag_ == "CC"):
        end -= 1
    return doc[start:end] if end > start else None


def _role_fit(head: Token, asking: Asking, analyzer: Analyzer) -> float:
    """1 when the phrase plays the wh-word's role beside the question's verb."""
    if asking.role is None:
        return 0.0
    dep = head.dep_
    if dep == "pobj" and head.head.dep_ == "agent":
        dep = "agent_pobj"  # "signed by the site manager": the one who signs
    if dep not in _ANSWERS.get(asking.role, set()):
        return 0.0
    governor = head.head.head if dep in ("pobj", "agent_pobj") else head.head
    if asking.role == "prep" and asking.preposition and head.head.lower_ != asking.preposition:
        return 0.3
    if asking.verb is None:
        return 0.5
    return 1.0 if analyzer.term(governor.lower_) == asking.verb else 0.3


def _arcs(a: Token, b: Token) -> int:
    up = {}
    step, node = 0, a
    while True:
        up[node.i] = step
        if node.head.i == node.i:
            break
        node, step = node.head, step + 1
    step, node = 0, b
    while node.i not in up:
        if node.head.i == node.i:
            return 99
        node, step = node.head, step + 1
    return step + up[node.i]


def _rule_phrases(line: str, asked: set[str], analyzer: Analyzer) -> list[Phrase]:
    """For languages without a parser: the words after the last question word, up to the
    next punctuation; else the words before the first."""
    tokens = written_word_spans(line)

    def term(i: int) -> str | None:
        found = words(line[tokens[i][0] : tokens[i][1]], analyzer.language)
        return analyzer.term(found[0]) if found else None

    hits = [i for i in range(len(tokens)) if term(i) in asked]
    if not hits:
        return []
    phrases = []
    for first, step, fit in ((hits[-1] + 1, 1, 0.5), (hits[0] - 1, -1, 0.3)):
        run: list[int] = []
        i = first
        while 0 <= i < len(tokens) and len(run) < MAX_TOKENS and term(i) not in asked:
            if run:
                gap = line[tokens[min(i, run[-1])][1] : tokens[max(i, run[-1])][0]]
                if _BOUNDARY.search(gap):
                    break
            run.append(i)
            i += step
        if any(term(j) is not None for j in run):
            start, end = tokens[min(run)][0], tokens[max(run)][1]
            text = line[start:end].rstrip(".")
            side = "after the last" if step == 1 else "before the first"
            phrases.append(
                Phrase(text, start, start + len(text), fit, f"words {side} question word")
            )
    return phrases
