"""Build the cross-language labels shipped in ``affidavit/data/labels/``: which English
words label the same concept as a Spanish or Turkish word.

Source: the bundled static model's word-piece vectors (``affidavit/data/static-use-m3-256``,
distilled from the multilingual Universal Sentence Encoder, whose pieces of one meaning
lie close across languages). A word takes part only where it is one whole piece of the
model's vocabulary ("▁ciudad", or capitalised where only that form is one), so its vector
is the teacher's, not a mean of fragments.

Which piece belongs to which language comes from ``wordfreq`` (build-time only, the
``model-build`` extra; its word lists are CC BY-SA 4.0): a word is on the English side
when English uses it at least as often as any of the rival languages below (so "maison",
"zee" and "nieuwe" stay off it), and on the Spanish or Turkish side when that language
uses it at least as often as English and its near neighbours (``FOREIGN_RIVALS``).

A foreign word is labelled with an English word when both are each other's near
neighbours across the two sides: the English word is among the foreign word's nearest
English words, within ``MARGIN`` of the best and at or above the threshold, and the
foreign word is among the English word's ``MUTUAL_K`` nearest foreign words. The
threshold is read off the development word list ``tools/label_dev_words.tsv`` (115 common
words in en/es/tr, written for this purpose): the one with the most right labels less
twice the wrong ones (a wrong label misleads the gate; a missing one only fails to help).

    .venv/bin/pip install -e '.[model-build]'
    .venv/bin/python tools/build_labels.py            # writes affidavit/data/labels/
    .venv/bin/python tools/build_labels.py --dev-only # prints the threshold table only
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affidavit.index.meaning.encoder import bundled_encoder  # noqa: E402
from affidavit.records.labels import dev_score  # noqa: E402

OUT = ROOT / "affidavit" / "data" / "labels"
DEV = Path(__file__).resolve().parent / "label_dev_words.tsv"
FOREIGN = ("es", "tr")
# Languages whose words leak into wordfreq's English list (names, loans, web text).
RIVALS = ("es", "tr", "fr", "pt", "it", "de", "nl", "id", "ms", "pl", "sv", "ro", "ca", "ar")
# A Spanish or Turkish word must be that language's more than its neighbours' ("cidade",
# "città", "kota" and "stad" stay off the sides).
FOREIGN_RIVALS = {"es": ("en", "pt", "it", "fr", "ca"), "tr": ("en", "id", "ms", "nl", "de", "sv")}
FOREIGN_MARGIN = 1.0
TOP_N = 100_000  # wordfreq's most frequent words considered per language
MUTUAL_K = 10
MARGIN = 0.05
MAX_LABELS = 3
# The SIF weighting shrinks the most frequent pieces ("▁el", "▁was", "▁de") to a few units of
# int8 noise, whose directions mean nothing (they met at cosine 1.0); a normal piece's norm
# is 20 or more (the 1st percentile), so these stay out of both sides.
MIN_NORM = 10.0
THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def side(
    language: str, rivals: tuple[str, ...], vocab: dict[str, int], norms: np.ndarray
) -> tuple[list[str], list[int]]:
    margin = 1.0 if language == "en" else FOREIGN_MARGIN
    """The words of ``language`` that are whole pieces, with their piece ids."""
    import wordfreq

    words, ids = [], []
    for word in wordfreq.top_n_list(language, TOP_N):
        if len(word) < 2 or not word.isalpha():
            continue
        # A word the model only holds capitalised ("▁Stadium") is that piece.
        piece = vocab.get("\u2581" + word, vocab.get("\u2581" + word.capitalize()))
        if piece is None or norms[piece] < MIN_NORM:
            continue
        mine = wordfreq.word_frequency(word, language)
        # Each side's word must be its language's more than any rival's. NOTE: letting
        # Spanish words be outweighed up to 3x by Portuguese or Italian labelled 4,812
        # Spanish words instead of 2,843 and took XQuAD's tune split (Spanish questions,
        # English paragraphs) from answered 0.141 / F1 0.093 to 0.119 / 0.085.
        if any(wordfreq.word_frequency(word, other) > margin * mine for other in rivals):
            continue
        words.append(word)
        ids.append(piece)
    return words, ids


def unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (rows / norms).astype(np.float32)


def labels_for(
    foreign: list[str], foreign_vectors: np.ndarray, english: list[str], english_vectors: np.ndarray
) -> dict[str, list[tuple[str, float]]]:
    """Each foreign word's English labels (best first) at any cosine; thresholds come later."""
    similarity = foreign_vectors @ english_vectors.T
    # For each English word, its MUTUAL_K nearest foreign words (unordered).
    mutual = np.argpartition(-similarity, MUTUAL_K, axis=0)[:MUTUAL_K]
    nearest = np.argsort(-similarity, axis=1)[:, :MAX_LABELS]
    found: dict[str, list[tuple[str, float]]] = {}
    for i, word in enumerate(foreign):
        best = float(similarity[i, nearest[i, 0]])
        kept = [
            (english[j], round(float(similarity[i, j]), 3))
            for j in nearest[i]
            if similarity[i, j] >= best - MARGIN and i in mutual[:, j]
        ]
        if kept:
            found[word] = kept
    return found


def dev_table(found: dict[str, dict[str, list[tuple[str, float]]]]) -> tuple[str, float]:
    """The threshold table on the dev list, and the threshold chosen from it."""
    with DEV.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    lines = ["| threshold | es right / wrong / none | tr right / wrong / none |", "|---|---|---|"]
    worth: dict[float, int] = {}
    for threshold in THRESHOLDS:
        cells = []
        worth[threshold] = 0
        for language in FOREIGN:
            right, wrong, none = dev_score(rows, language, found[language], threshold)
            worth[threshold] += right - 2 * wrong
            cells.append(f"{right} / {wrong} / {none}")
        lines.append(f"| {threshold:.2f} | {cells[0]} | {cells[1]} |")
    chosen = max(THRESHOLDS, key=lambda t: (worth[t], t))
    return "\n".join(lines), chosen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev-only", action="store_true", help="print the dev table only")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = bundled_encoder()
    vocab = model.tokenizer.get_vocab()
    table = np.asarray(model.embedding, dtype=np.float32)
    norms = np.linalg.norm(table, axis=1)
    english, english_ids = side("en", RIVALS, vocab, norms)
    english_vectors = unit(table[english_ids])
    found = {}
    for language in FOREIGN:
        words, ids = side(language, FOREIGN_RIVALS[language], vocab, norms)
        found[language] = labels_for(words, unit(table[ids]), english, english_vectors)
    dev, threshold = dev_table(found)
    print(dev)
    print(f"threshold {threshold:.2f}; built in {time.perf_counter() - start:.1f} s")
    if args.dev_only:
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for language in FOREIGN:
        rows = []
        for word in sorted(found[language]):
            kept = [(e, c) for e, c in found[language][word] if c >= threshold]
            if kept:
                rows.append(word + "\t" + "\t".join(f"{e} {c:.3f}" for e, c in kept))
        (OUT / f"{language}.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        print(f"{language}: {len(rows)} words labelled")
    (OUT / "threshold.txt").write_text(f"{threshold:.2f}\n{dev}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
