"""Copy a few SQuAD 2.0 dev articles into corpora/squad2_articles as plain-text documents.

Each article becomes `<title>.txt` with its paragraphs, unchanged, separated by blank
lines; its questions (with answers, or none when unanswerable) go to questions.jsonl.
Run from the repository root with ../shared beside it:

    python tools/export_squad_articles.py
"""

from __future__ import annotations

import json
from pathlib import Path

ARTICLES = ("Normans", "Black_Death", "1973_oil_crisis", "Jacksonville,_Florida", "Pharmacy")
ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "corpora" / "squad2_dev" / "squad2_dev.json"
TARGET = ROOT / "corpora" / "squad2_articles"


def main() -> None:
    data = json.loads(SOURCE.read_text(encoding="utf-8"))["data"]
    TARGET.mkdir(parents=True, exist_ok=True)
    with (TARGET / "questions.jsonl").open("w", encoding="utf-8") as out:
        for article in data:
            title = article["title"]
            if title not in ARTICLES:
                continue
            paragraphs = [p["context"] for p in article["paragraphs"]]
            (TARGET / f"{title}.txt").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
            for number, paragraph in enumerate(article["paragraphs"]):
                for qa in paragraph["qas"]:
                    record = {
                        "id": qa["id"],
                        "article": title,
                        "paragraph": number,
                        "question": qa["question"],
                        "answers": sorted({a["text"] for a in qa["answers"]}),
                        "is_impossible": bool(qa.get("is_impossible")),
                    }
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
