"""The gate, drawn twice: the entry gate (what may be stored, at what trust) and the exit
gate (digit veto, mixture, read-back, support, holder), pure judges over a sentence and
its lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.gates.answer_value import gated_value
    from affidavit.gates.answerability import likely_enough
    from affidavit.gates.binding import is_short_answer
    from affidavit.gates.case import Case, Judgement
    from affidavit.gates.claims import makes_a_claim
    from affidavit.gates.contest import contested_by, rival_line
    from affidavit.gates.context import headings_standing_over, line_terms, said_as_evidence
    from affidavit.gates.decision import Gate, GateDecision
    from affidavit.gates.definition import defines_asked_terms
    from affidavit.gates.entailment import FRAME_LANGUAGES
    from affidavit.gates.entry import admit, refused_downgrades
    from affidavit.gates.holder import holds_for, replies_to
    from affidavit.gates.kind import unspelled
    from affidavit.gates.registry import judged
    from affidavit.gates.reread import worth_reading_back
    from affidavit.gates.support import (
        CONFIRMED_SPEAKER_CARRIED,
        MIN_CARRIED,
        SUPPORT_REACH,
        KeyWords,
        naming_terms,
    )
    from affidavit.gates.veto import reproduced, unsupported_numbers
    from affidavit.gates.whose import ToldOf

# What other rooms may use of gates/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "answer_value": "gated_value",
    "answerability": "likely_enough",
    "binding": "is_short_answer",
    "case": "Case Judgement",
    "claims": "makes_a_claim",
    "contest": "contested_by rival_line",
    "context": "headings_standing_over line_terms said_as_evidence",
    "decision": "Gate GateDecision",
    "definition": "defines_asked_terms",
    "entailment": "FRAME_LANGUAGES",
    "entry": "admit refused_downgrades",
    "holder": "holds_for replies_to",
    "kind": "unspelled",
    "registry": "judged",
    "reread": "worth_reading_back",
    "support": "CONFIRMED_SPEAKER_CARRIED MIN_CARRIED SUPPORT_REACH KeyWords naming_terms",
    "veto": "reproduced unsupported_numbers",
    "whose": "ToldOf",
}

__all__ = [
    "CONFIRMED_SPEAKER_CARRIED", "FRAME_LANGUAGES", "MIN_CARRIED", "SUPPORT_REACH", "Case", "Gate",
    "GateDecision", "Judgement", "KeyWords", "ToldOf", "admit", "contested_by",
    "defines_asked_terms", "gated_value", "headings_standing_over", "holds_for", "is_short_answer",
    "judged", "likely_enough", "line_terms", "makes_a_claim", "naming_terms", "refused_downgrades",
    "replies_to", "reproduced", "rival_line", "said_as_evidence", "unspelled",
    "unsupported_numbers", "worth_reading_back",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
