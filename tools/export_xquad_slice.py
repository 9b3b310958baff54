"""Copy five XQuAD articles into corpora/xquad_slice: English paragraphs, three-language questions.

XQuAD (Artetxe, Ruder and Yogatama, 2020) holds the same paragraphs and questions in
English, Spanish and Turkish. For the articles below, each English paragraph becomes one
record of paragraphs.jsonl (name "<title> #<n>", text unchanged), and every question in
each language one record of questions.jsonl (id, language, paragraph name, question, and
the *English* gold answers, so a Spanish question's answering line can be found in the
English text). The Spanish and Turkish paragraphs go to paragraphs.es.jsonl and
paragraphs.tr.jsonl. Run from the repository root with ../shared beside it:

    python tools/export_xquad_slice.py
"""

from __future__ import annotations

import json
from pathlib import Path

ARTICLES = ("Normans", "Black_Death", "1973_oil_crisis", "Jacksonville,_Florida", "Pharmacy")
LANGUAGES = ("en", "es", "tr")
ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "corpora" / "xquad_en_es_tr"
TARGET = ROOT / "corpora" / "xquad_slice"


def main() -> None:
    data = {
        language: json.loads((SOURCE / f"xquad.{language}.json").read_text(encoding="utf-8"))
        for language in LANGUAGES
    }
    english_answers: dict[str, list[str]] = {}
    TARGET.mkdir(parents=True, exist_ok=True)
    with (TARGET / "paragraphs.jsonl").open("w", encoding="utf-8") as out:
        for article in data["en"]["data"]:
            if article["title"] not in ARTICLES:
                continue
            for number, paragraph in enumerate(article["paragraphs"], start=1):
                name = f"{article['title']} #{number}"
                record = {"name": name, "text": paragraph["context"]}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                for qa in paragraph["qas"]:
                    english_answers[qa["id"]] = [a["text"] for a in qa["answers"]]
    for language in ("es", "tr"):  # the same paragraphs, translated (names as in English)
        with (TARGET / f"paragraphs.{language}.jsonl").open("w", encoding="utf-8") as out:
            for english, article in zip(data["en"]["data"], data[language]["data"], strict=True):
                if english["title"] not in ARTICLES:
                    continue
                for number, paragraph in enumerate(article["paragraphs"], start=1):
                    record = {"name": f"{english['title']} #{number}", "text": paragraph["context"]}
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
    with (TARGET / "questions.jsonl").open("w", encoding="utf-8") as out:
        for language in LANGUAGES:
            for english, article in zip(data["en"]["data"], data[language]["data"], strict=True):
                if english["title"] not in ARTICLES:
                    continue
                for number, paragraph in enumerate(article["paragraphs"], start=1):
                    for qa in paragraph["qas"]:
                        record = {
                            "id": qa["id"],
                            "language": language,
                            "paragraph": f"{english['title']} #{number}",
                            "question": qa["question"],
                            "answers_en": english_answers[qa["id"]],
                        }
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    licence = (SOURCE / "CC-BY-SA4.0.txt").read_text(encoding="utf-8")
    (TARGET / "LICENSE.txt").write_text(licence, encoding="utf-8")


if __name__ == "__main__":
    main()
