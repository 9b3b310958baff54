"""The word splitter a cold start uses splits every word as the bundled tokenizer's own
model does, its files are what the tokenizer.json beside them writes, and a question is
encoded without building the tokenizer."""

from __future__ import annotations

from pathlib import Path

from conftest import CORPORA
from tokenizers import Tokenizer

from affidavit.index.meaning import pieces
from affidavit.index.meaning.encoder import bundled_model_path
from affidavit.index.meaning.pieces import CachedPieces
from affidavit.index.meaning.unigram import (
    WORD_PIECES,
    WORD_SCORES,
    WordSplitter,
    read_light,
    write_word_pieces,
)

MARK = "\u2581"


def _corpus_words(tokenizer: Tokenizer) -> list[str]:
    words: set[str] = set()
    for path in sorted(CORPORA.rglob("*")):
        if path.suffix in (".txt", ".md", ".jsonl", ".html", ".csv"):
            text = tokenizer.normalizer.normalize_str(path.read_text(errors="replace"))
            words.update(text.split(" "))
    return sorted(words)


def test_the_splitter_splits_every_corpus_word_as_the_tokenizer_does() -> None:
    folder = Path(bundled_model_path())
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    light = read_light(folder)
    assert light is not None
    splitter = WordSplitter.from_written(light[1])
    # Words no piece covers whole (unknown characters, a run of them fused) and ties.
    edges = ["", "\U0001f9ea\U0001f9ea", "x\U000e0001y", "ab" * 40, "ÇalışmaPlanı"]
    words = _corpus_words(tokenizer) + edges
    assert len(words) > 20_000
    for word in words:
        theirs = [token.id for token in tokenizer.model.tokenize(MARK + word)]
        assert splitter.ids(MARK + word) == theirs, word


def test_the_written_pieces_are_what_the_bundled_tokenizer_writes(tmp_path: Path) -> None:
    bundled = Path(bundled_model_path())
    (tmp_path / "tokenizer.json").write_bytes((bundled / "tokenizer.json").read_bytes())
    write_word_pieces(tmp_path)
    for name in (WORD_PIECES, WORD_SCORES):
        assert (tmp_path / name).read_bytes() == (bundled / name).read_bytes(), name


def test_a_question_is_encoded_without_building_the_tokenizer() -> None:
    cold = CachedPieces.from_folder(bundled_model_path())
    warm = CachedPieces.from_pretrained(bundled_model_path())
    question = ["When did the embargo end?", "¿Dónde está la biblioteca?"]
    assert (cold.encode(question) == warm.encode(question)).all()
    assert "_tokenizer" not in cold.__dict__  # the splitter split every word


def test_a_process_that_splits_many_words_builds_the_tokenizer(monkeypatch) -> None:
    monkeypatch.setattr(pieces, "SPLIT_HERE_AT_MOST", 3)
    cold = CachedPieces.from_folder(bundled_model_path())
    warm = CachedPieces.from_pretrained(bundled_model_path())
    texts = ["one two three", "four five six seven", "word " * 700]
    assert cold.tokenize(texts) == warm.tokenize(texts)
    assert "_tokenizer" in cold.__dict__
    assert cold.tokenizer.truncation == warm.tokenizer.truncation  # its setting carried over
