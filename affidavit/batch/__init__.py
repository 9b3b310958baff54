"""Batch answering over a store (questions asked, claims verified): in this process, in
worker processes or on a Ray cluster, with whatever answers (an Answerer: a Memory, or a
fake), never importing the Memory itself; the audit report a reviewer reads of it is
affidavit.report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.batch.cluster import joined_ray, same_version
    from affidavit.batch.questions import (
        BadLine,
        BatchClaim,
        BatchQuestion,
        questions_from,
        read_questions,
    )
    from affidavit.batch.runner import BatchReport, run_batch
    from affidavit.batch.worker import Answerer, Opener, Sharing

# What other rooms may use of batch/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "cluster": "joined_ray same_version",
    "questions": "BadLine BatchClaim BatchQuestion questions_from read_questions",
    "runner": "BatchReport run_batch",
    "worker": "Answerer Opener Sharing",
}

__all__ = [
    "Answerer", "BadLine", "BatchClaim", "BatchQuestion", "BatchReport", "Opener", "Sharing",
    "joined_ray", "questions_from", "read_questions", "run_batch", "same_version",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
