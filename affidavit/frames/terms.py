"""A document's defined terms: the names it gives its parties and things (`Acme Ltd (the
"Recipient")`, `"Confidential Information" means …`, `hereinafter "the Company"`), so
that one party named by its definition and by its description is one argument. The usual
names of a contract's two sides are one party too ("the Receiving Party", "the Recipient"):
a small table, each entry a name contracts use for the same role."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from affidavit.frames.model import Argument, Frame

# `Acme Ltd (the "Recipient")`, `(hereinafter referred to as "Discloser")`, `("NDA")`,
# `(each a "Party" and together the "Parties")`: the names a parenthesis gives what comes
# before it.
_GIVEN = re.compile(
    r"(?P<named>(?:[A-Z][\w&.,'-]*\s+){0,6}[A-Z][\w&.'-]*)\s*\(\s*"
    r"(?:(?:hereinafter|hereafter)(?:\s+(?:referred\s+to|called|known))?\s+as\s+|"
    r"hereinafter\s+|each\s+(?:a|an)\s+|collectively,?\s+|together,?\s+)?"
    r"(?:the\s+)?[\"“”'‘](?P<term>[^\"“”'’]{1,60})[\"“”'’]",
)
# `"Confidential Information" means …`, `"Term" shall mean …`, `"Term" refers to …`,
# `"Term" includes …`: the phrase after it says what the term is.
_MEANS = re.compile(
    r"[\"“](?P<term>[^\"”]{1,60})[\"”]\s*(?:\([^)]{0,60}\)\s*)?"
    r"(?:shall\s+mean|means|shall\s+refer\s+to|refers\s+to|is\s+defined\s+as)\s+"
    r"(?P<meaning>[^.;]{1,200})",
    re.I,
)
# Names contracts give the same side, each row one party: a document that writes one of
# them means the same side by every other.
ROLE_NAMES: tuple[frozenset[str], ...] = (
    frozenset({"receiving party", "recipient", "receiver", "receiving parties"}),
    frozenset({"disclosing party", "discloser", "disclosing parties"}),
    frozenset({"licensee", "you"}),
)


@dataclass(frozen=True, slots=True)
class DefinedTerms:
    """What a document calls its parties and things: each alias (lower case) with the
    canonical name it stands for, and what each defined term means (its definition's
    words)."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    meanings: Mapping[str, str] = field(default_factory=dict)

    def canonical(self, phrase: str) -> str:
        """The one name ``phrase`` (lower case) stands for in this document: itself, or
        the term it is an alias of, or the role name of its side."""
        said = _bare(phrase)
        said = self.aliases.get(said, said)
        for row in ROLE_NAMES:
            if said in row:
                return min(row)
        return said


NO_TERMS = DefinedTerms()


def defined_terms(lines: Iterable[str]) -> DefinedTerms:
    """The defined terms a document's ``lines`` give, each read where it is defined."""
    aliases: dict[str, str] = {}
    meanings: dict[str, str] = {}
    for line in lines:
        for found in _GIVEN.finditer(line):
            term, named = _bare(found.group("term")), _bare(found.group("named"))
            if term and named and term != named and named not in aliases:
                aliases[named] = term  # the description stands for the term
        for found in _MEANS.finditer(line):
            term = _bare(found.group("term"))
            meanings.setdefault(term, found.group("meaning").strip())
    return DefinedTerms(aliases, meanings)


def _bare(phrase: str) -> str:
    """A name as compared: lower case, without a leading article or trailing marks."""
    said = " ".join(phrase.lower().replace("’", "'").split())
    said = re.sub(r"^(?:the|a|an)\s+", "", said)
    return said.strip(" ,.;:'\"")


def with_terms(frames: tuple[Frame, ...], terms: DefinedTerms) -> tuple[Frame, ...]:
    """``frames`` (read without a document's terms, as the store keeps them) with each
    phrase named by the document's one name for it ("Acme Ltd" as "recipient")."""
    if not terms.aliases:
        return frames
    return tuple(_named(frame, terms) for frame in frames)


def _named(frame: Frame, terms: DefinedTerms) -> Frame:
    return replace(
        frame,
        arguments=tuple(_named_argument(a, terms) for a in frame.arguments),
        exceptions=tuple(_named_argument(a, terms) for a in frame.exceptions),
        conditions=tuple(_named(c, terms) for c in frame.conditions),
    )


def _named_argument(argument: Argument, terms: DefinedTerms) -> Argument:
    return replace(
        argument,
        head=terms.canonical(argument.head),
        words=frozenset(terms.canonical(w) for w in argument.words),
    )
