"""The scorer: the learned span scorer that picks the answer out of the best lines, and the
answerability model that says whether to give it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.scorer.cues import focus_words, wh_role
    from affidavit.scorer.likelihood import Likelihood, judge_answerable, judges, rivals_of
    from affidavit.scorer.read_spans import encode_ahead, read, read_ahead
    from affidavit.scorer.types import BOUND, LABEL_FIT

# What other rooms may use of scorer/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "cues": "focus_words wh_role",
    "likelihood": "Likelihood judge_answerable judges rivals_of",
    "read_spans": "encode_ahead read read_ahead",
    "types": "BOUND LABEL_FIT",
}

__all__ = [
    "BOUND", "LABEL_FIT", "Likelihood", "encode_ahead", "focus_words", "judge_answerable",
    "judges", "read", "read_ahead", "rivals_of", "wh_role",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
