"""Shared loading for the SQuAD 2.0 dev benchmarks: articles as documents, gold lines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
SQUAD = SHARED / "squad2_dev" / "squad2_dev.json"


@dataclass(frozen=True)
class Question:
    text: str
    article: str
    paragraph: str
    answers: tuple[str, ...]
    impossible: bool


def load_squad(path: Path = SQUAD) -> tuple[dict[str, str], list[Question]]:
    """(article title -> document text with paragraphs split by blank lines, questions)."""
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    articles: dict[str, str] = {}
    questions: list[Question] = []
    for article in data:
        title = article["title"]
        paragraphs = [p["context"] for p in article["paragraphs"]]
        articles[title] = "\n\n".join(paragraphs)
        for p in article["paragraphs"]:
            for qa in p["qas"]:
                questions.append(
                    Question(
                        qa["question"],
                        title,
                        p["context"],
                        tuple(a["text"] for a in qa["answers"]),
                        bool(qa.get("is_impossible")),
                    )
                )
    return articles, questions


def is_gold(line_document: str, line_text: str, question: Question) -> bool:
    """A line answers when it sits in the question's paragraph and holds a gold answer."""
    return (
        line_document == question.article
        and line_text in question.paragraph
        and any(a in line_text for a in question.answers)
    )
