"""Batch answering over a store: in this process, in worker processes or on a Ray
cluster, with whatever answers (an Answerer: a Memory, or a fake), never importing the
Memory itself; the audit report a reviewer reads of it is affidavit.report."""

from affidavit.batch.questions import BadLine, BatchQuestion, questions_from, read_questions
from affidavit.batch.runner import BatchReport, run_batch
from affidavit.batch.worker import Answerer, Opener, Sharing

__all__ = [
    "Answerer",
    "BadLine",
    "BatchQuestion",
    "BatchReport",
    "Opener",
    "Sharing",
    "questions_from",
    "read_questions",
    "run_batch",
]
