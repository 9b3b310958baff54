"""Batch answering over a store, on one machine or a Ray cluster, and the audit report
a reviewer reads."""

from affidavit.batch.questions import BadLine, BatchQuestion, questions_from, read_questions
from affidavit.batch.runner import BatchReport, run_batch

__all__ = [
    "BadLine",
    "BatchQuestion",
    "BatchReport",
    "questions_from",
    "read_questions",
    "run_batch",
]
