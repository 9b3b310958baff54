"""The meaning channel: the bundled model, the Encoder protocol, stored vectors, dense=False,
and cross-lingual retrieval on a real XQuAD slice (English paragraphs, Spanish and Turkish
questions)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from affidavit import DocumentHit, Encoder, InputError, Memory
from affidavit.index.meaning import build as meaning_build
from affidavit.index.meaning.build import build_meaning
from affidavit.index.meaning.encoder import bundled_encoder, bundled_model_path, encode
from affidavit.index.meaning.profiles import MeaningIndex, quantized
from affidavit.index.packing import save_arrays

XQUAD = Path(__file__).resolve().parents[2] / "corpora" / "xquad_slice"
# The bundled model's files, as tools/build_static_model.py writes them (rebuild: see the
# model folder's README.md). A changed file is a changed model: measure it, then pin it.
MODEL_SHA256 = {
    "model.safetensors": "e23c7114f848bda19fcf26f117cc3c26e84b3099bde496726219e9cedc9f80f5",
    "tokenizer.json": "939a77450e27d3b51484bc125db864bd02c39cc2ddb980708cc125b684ef27de",
    "config.json": "20c68592225284cf13e863be80a66009b0d2095fe4f922a6f3f430a65487425d",
    "modules.json": "a68dcbed0429dcdd5bfdca92b0b03cc30d09122c0a3fcf4758787d4b244e45b2",
    "word_pieces.json": "e47c4929f81c3a4830ec1fe1c34064a95d8a83e99f7cbc31e8efeee011d59209",
    "word_scores.npy": "d034f74df2060ba5d04a9f1bde0764e9475616f11824db72e4de6a71d84e4b47",
}


def paragraphs() -> list[dict]:
    with (XQUAD / "paragraphs.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def questions(language: str) -> list[dict]:
    with (XQUAD / "questions.jsonl").open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return [r for r in records if r["language"] == language]


@pytest.fixture(scope="module")
def xquad() -> Memory:
    memory = Memory()
    for record in paragraphs():
        memory.ingest_text(record["text"], name=record["name"])
    return memory


class CountingEncoder:
    """The bundled model behind the Encoder protocol, counting the texts it encodes."""

    def __init__(self) -> None:
        self.encoded = 0

    def encode(self, sentences: Sequence[str]) -> np.ndarray:
        self.encoded += len(sentences)
        return np.asarray(bundled_encoder().encode(list(sentences), use_multiprocessing=False))


# -- the bundled model --


def test_the_bundled_model_files_are_the_pinned_ones() -> None:
    folder = Path(bundled_model_path())
    for name, digest in MODEL_SHA256.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    assert "Apache" in (folder / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_bundled_model_loads_offline_in_a_fresh_process() -> None:
    code = (
        "from affidavit.index.meaning.encoder import bundled_encoder; "
        "v = bundled_encoder().encode(['¿Dónde está la biblioteca?', 'Where is the library?']); "
        "print(v.shape[1], round(float(v[0] @ v[1]), 3))"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_PROXY": "*"}
    env["HTTPS_PROXY"] = env["HTTP_PROXY"] = "http://127.0.0.1:9"  # any network use fails
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    dims, cosine = out.stdout.split()
    assert dims == "256"
    assert float(cosine) > 0.5  # the same question in two languages lands close


def test_encoding_is_deterministic() -> None:
    texts = [r["text"] for r in paragraphs()[:5]]
    first = bundled_encoder().encode(texts, use_multiprocessing=False)
    again = bundled_encoder().encode(texts, use_multiprocessing=False)
    assert np.array_equal(first, again)


# -- the protocol, storage, and the switch --


def test_any_encoder_with_the_protocol_is_used(tmp_path: Path) -> None:
    encoder = CountingEncoder()
    assert isinstance(encoder, Encoder)
    memory = Memory(tmp_path / "store.sqlite", encoder=encoder)
    for record in paragraphs()[:5]:
        memory.ingest_text(record["text"], name=record["name"])
    hits = memory.search_documents("Who was the duke of Normandy?", k=3)
    assert hits and all(isinstance(hit, DocumentHit) for hit in hits)
    assert encoder.encoded >= 5  # every line went through it, and the question


def test_vectors_are_stored_and_not_recomputed_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    encoder = CountingEncoder()
    with Memory(path, encoder=encoder) as memory:
        for record in paragraphs()[:5]:
            memory.ingest_text(record["text"], name=record["name"])
        memory.search_documents("Normandy", k=1)
    lines = Memory(path, dense=False).stats()["lines"]
    assert encoder.encoded >= lines

    reopened = CountingEncoder()
    with Memory(path, encoder=reopened) as memory:
        memory.search_documents("Normandy", k=1)
        # The probes that name the vector space and the question: no stored line again.
        assert reopened.encoded < 10
        record = paragraphs()[5]
        before = reopened.encoded
        memory.ingest_text(record["text"], name=record["name"])  # its lines encoded now
        memory.search_documents("Normandy", k=1)
        added = memory.stats()["lines"] - lines
        # The new lines and the question (unless it was just asked) only.
        assert reopened.encoded - before in (added, added + 1)


def test_dense_false_turns_the_meaning_channel_off() -> None:
    memory = Memory(dense=False)
    for record in paragraphs():
        memory.ingest_text(record["text"], name=record["name"])
    assert memory._retriever.meaning() is None
    spanish = "¿Qué tipo de profesional se considera un técnico de farmacia?"
    assert memory.search_documents(spanish, k=5) == []  # it shares no word with the store
    # Asked, it is read in English through the labels (records/gloss.py), not by meaning.
    assert memory.ask(spanish).audit["read_in"]["language"] == "es"
    english = memory.search_documents("What is a pharmacy technician considered?", k=1)
    assert english[0].document == "Pharmacy #1"
    assert english[0].meaning_rank is None


# -- cross-lingual --


def document_recall(memory: Memory, language: str, k: int) -> float:
    asked = questions(language)
    found = 0
    for record in asked:
        ranked = [hit.document for hit in memory.search_documents(record["question"], k=k)]
        found += record["paragraph"] in ranked
    return found / len(asked)


def test_spanish_and_turkish_questions_reach_their_english_paragraph(xquad: Memory) -> None:
    words_only = Memory(dense=False)
    for record in paragraphs():
        words_only.ingest_text(record["text"], name=record["name"])
    for language in ("es", "tr"):
        with_meaning = document_recall(xquad, language, 5)
        without = document_recall(words_only, language, 5)
        assert with_meaning >= 0.85, language
        assert with_meaning > without + 0.1, language


@pytest.mark.parametrize(
    ("question", "paragraph", "answer"),
    [
        (  # "What kind of professional is a pharmacy technician considered?"
            "¿Qué tipo de profesional se considera un técnico de farmacia?",
            "Pharmacy #1",
            "health care professional",
        ),
        (  # "What does pharmacy legislation make compulsory?"
            "Eczacılık mevzuatı neyi zorunlu kılmaktadır?",
            "Pharmacy #3",
            "storage conditions",
        ),
    ],
)
def test_a_question_sharing_no_word_reaches_its_line_by_late_interaction(
    xquad: Memory, question: str, paragraph: str, answer: str
) -> None:
    assert xquad._retriever.coverage(question) == 0.0  # not one of its words is stored
    assert xquad.search_documents(question, k=1)[0].document == paragraph
    retrieved = xquad._retriever.retrieve(question)
    assert answer in retrieved.hits[0].text  # the first line of the evidence block


def test_a_large_document_gets_a_profile_per_section() -> None:
    from affidavit.index.meaning.profiles import SECTION_LINES, MeaningIndex

    memory = Memory()
    text = "\n\n".join(r["text"] for r in paragraphs())  # one long document
    memory.ingest_text(text, name="all")
    memory.ingest_text(paragraphs()[0]["text"], name="short")
    meaning = memory._retriever.meaning()
    assert isinstance(meaning, MeaningIndex)
    lines = memory._store.line_rows()
    long_lines = sum(1 for row in lines if row[1] == lines[0][1])
    assert long_lines > SECTION_LINES
    sections = -(-long_lines // SECTION_LINES)
    owners = meaning.profile_documents.tolist()
    assert owners.count(lines[0][1]) == 1 + sections
    assert owners.count(lines[-1][1]) == 1  # a short document: its whole profile only
    assert np.allclose(np.linalg.norm(meaning.profiles, axis=1), 1.0, atol=1e-5)


def test_a_replaced_document_gets_fresh_vectors(tmp_path: Path) -> None:
    # SQLite may give the new lines of a replaced last document its old line ids.
    first, second, third = (r["text"] for r in paragraphs()[:3])
    path = tmp_path / "store.sqlite"
    with Memory(path) as memory:
        memory.ingest_text(first, name="a")
        memory.ingest_text(second, name="b")
        memory.search_documents("Normandy", k=1)
        memory.ingest_text(third, name="b")  # b now holds another paragraph
        memory.search_documents("Normandy", k=1)
    with Memory(path) as memory:
        meaning = memory._retriever.meaning()
        assert meaning is not None
        rows = memory._store.line_rows()
        fresh = encode(bundled_encoder(), [row[4] for row in rows])
        stored = meaning.line_vectors([row[0] for row in rows])
        # Each line's signs are its own text's, not those of the line its id once held.
        assert np.array_equal(stored > 0, quantized(fresh) > 0)


def test_nonsense_reaches_no_evidence(xquad: Memory) -> None:
    # Meaning ranks every document for anything; only a close one may add evidence.
    assert xquad.search_documents("Zyxwv qwertyuiop", k=1)[0].words_rank is None
    assert xquad._retriever.retrieve("Zyxwv qwertyuiop").hits == []
    assert xquad.ask("Zyxwv qwertyuiop?").reason == "no_evidence"


def test_dense_false_never_loads_the_model() -> None:
    code = (
        "import sys, json; from affidavit import Memory; m = Memory(dense=False); "
        "m.ingest_text('Rollo led the Vikings to Normandy.', name='n'); "
        "m.ask('Who led the Vikings?'); m.search_documents('Vikings'); "
        "m.verify('Rollo led the Vikings.'); print('model2vec' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_an_encoder_with_dense_false_is_a_contradiction() -> None:
    with pytest.raises(InputError, match="dense=False"):
        Memory(dense=False, encoder=CountingEncoder())


def test_line_vectors_are_kept_as_their_signs_a_bit_a_dimension() -> None:
    lines = [(n, 1, n, "line", text) for n, text in enumerate(_SAMPLE, 1)]
    index = build_meaning(bundled_encoder(), lambda: lines)
    exact = encode(bundled_encoder(), list(_SAMPLE))
    assert index.signs.dtype == np.uint8 and index.signs.shape == (3, exact.shape[1] // 8)
    kept = index.line_vectors(list(range(1, len(_SAMPLE) + 1)))
    assert np.array_equal(kept > 0, quantized(exact) > 0)
    assert np.allclose(np.linalg.norm(kept, axis=1), 1.0)
    assert (kept * exact).sum(axis=1).min() > 0.6  # a sign vector still points its way
    # The int8 and float16 caches older stores wrote are read as the same signs.
    for older_vectors in (quantized(exact), exact.astype(np.float16)):
        older = save_arrays(
            {
                "line_ids": index.line_ids,
                "vectors": older_vectors,
                "profile_documents": index.profile_documents,
                "profiles": index.profiles,
                "digests": index.digests,
            }
        )
        again = MeaningIndex.from_bytes(older)
        assert again.dim == index.dim and np.array_equal(again.signs, index.signs)


class NarrowEncoder:
    """The bundled model's first 13 dimensions: a width that fills no whole byte."""

    def encode(self, sentences: Sequence[str]) -> np.ndarray:
        return np.asarray(bundled_encoder().encode(list(sentences), use_multiprocessing=False))[
            :, :13
        ]


@pytest.mark.parametrize("encoder", [bundled_encoder(), NarrowEncoder()], ids=["256", "13"])
def test_closeness_read_a_byte_at_a_time_is_the_sign_vectors_cosine(encoder: Encoder) -> None:
    lines = [(n, 1, n, "line", text) for n, text in enumerate(_SAMPLE * 4, 1)]
    index = build_meaning(encoder, lambda: lines)
    query = encode(encoder, ["Where did the Normans settle?"])[0]
    ids = [row[0] for row in lines]
    assert np.allclose(index.closeness(ids, query), index.line_vectors(ids) @ query, atol=1e-5)
    assert index.closeness([], query).shape == (0,)


_SAMPLE = (
    "The Normans settled in Normandy in the tenth century.",
    "La peste negra llegó a Europa en 1347.",
    "Oil prices quadrupled during the 1973 embargo.",
)


def test_profiles_of_unchanged_documents_are_kept_and_equal_a_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [r["text"] for r in paragraphs()[:4]]
    rows = [(n, 1 + n // 3, n, "line", text) for n, text in enumerate(texts * 3)]
    before = build_meaning(bundled_encoder(), lambda: rows[:9])  # documents 1, 2 and 3
    # Document 4 added, document 2's lines replaced under the same ids.
    changed = [*rows[:3], *[(n, 2, n, "line", "A new line " + str(n)) for n in (3, 4, 5)]]
    later = [*changed, *rows[6:]]
    profiled: list[list[int]] = []
    original = meaning_build.profiles_of

    def spy(documents, vectors, weights):  # noqa: ANN001
        profiled.append(sorted(set(documents.tolist())))
        return original(documents, vectors, weights)

    monkeypatch.setattr(meaning_build, "profiles_of", spy)
    after = build_meaning(bundled_encoder(), lambda: later, previous=before)
    assert sorted(d for run in profiled for d in run) == [2, 4]  # changed and added only
    whole = build_meaning(bundled_encoder(), lambda: later)
    assert np.array_equal(after.profile_documents, whole.profile_documents)
    assert np.array_equal(after.profiles, whole.profiles)


def test_a_store_encodes_only_the_added_documents_lines(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    texts = [r["text"] for r in paragraphs()[:4]]
    with Memory(tmp_path / "s.sqlite") as memory:
        for n, text in enumerate(texts[:3]):
            memory.ingest_text(text, name=f"p{n}.md")
        memory.search_documents("Normandy", k=1)  # the meaning index, built
        read = request.getfixturevalue("lines_read")
        memory.ingest_text(texts[3], name="p3.md")  # the index grows as the text is added
        grown = memory._retriever.meaning()
        added = [doc_id for doc_id, name, _ in memory._store.documents() if name == "p3.md"]
        # Its lines for the graph, the vectors and late interaction: no other line.
        assert read and all(documents == added for documents in read)
        assert_as_built(grown, memory)


def assert_as_built(index: MeaningIndex | None, memory: Memory) -> None:
    """``index`` holds what a build from every stored line holds."""
    whole = build_meaning(bundled_encoder(), lambda: memory._store.line_rows())
    assert index is not None
    assert np.array_equal(index.line_ids, whole.line_ids)
    assert np.array_equal(index.signs, whole.signs)
    assert np.array_equal(index.profile_documents, whole.profile_documents)
    assert np.array_equal(index.profiles, whole.profiles)


def _stored_parts(memory: Memory) -> list[str]:
    from affidavit.store.index_parts import part_sizes

    return [name for name, _, _ in part_sizes(memory._store, "meaning3:")]


def _parts_kept_whatever_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about parts, not about when parts are merged: parts are kept as
    they were written, never merged."""
    from affidavit.store import index_parts as parts

    monkeypatch.setattr(parts, "MERGE_FACTOR", 10_000)


def _grown_in_steps(memory: Memory, additions: int, cut: int) -> list[str]:
    """The store given most paragraphs as one document, then ``additions`` short ones,
    one at a time, each followed by a question; the meaning parts cached, in order."""
    texts = [r["text"] for r in paragraphs()]
    memory.ingest_text("\n\n".join(texts[additions:]), name="many.md")
    memory.search_documents("Normandy", k=1)
    for n in range(additions):
        memory.ingest_text(texts[n][:cut], name=f"short{n}.md")
        memory.search_documents("Normandy", k=1)
    return _stored_parts(memory)


def test_an_addition_caches_a_part_and_a_reopened_store_joins_the_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _parts_kept_whatever_their_size(monkeypatch)
    path = tmp_path / "s.sqlite"
    with Memory(path) as memory:
        names = _grown_in_steps(memory, additions=1, cut=200)
        assert len(names) == 2 and "+" not in names[0] and "+" in names[1]
    with Memory(path) as reopened:
        assert_as_built(reopened._retriever.meaning(), reopened)


def test_a_store_cached_before_parts_reuses_its_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.sqlite"
    with Memory(path) as memory:
        memory.ingest_text(paragraphs()[0]["text"], name="a.md")
        index = memory._retriever.meaning()
        assert index is not None
        fingerprint_ = memory._retriever.ranker._fingerprint
        with memory._store.transaction() as conn:  # as an older version left it
            conn.execute("DELETE FROM index_cache WHERE name LIKE 'meaning3:%'")
            conn.execute(
                "INSERT INTO index_cache (name, generation, payload) VALUES (?, ?, ?)",
                (f"meaning2:{fingerprint_}", 0, replace(index, document_keys=[]).to_bytes()),
            )
    encoded: list[int] = []
    original = meaning_build.encode

    def counting(encoder, texts):  # noqa: ANN001
        encoded.append(len(texts))
        return original(encoder, texts)

    monkeypatch.setattr(meaning_build, "encode", counting)
    with Memory(path) as reopened:
        again = reopened._retriever.meaning()
    assert again is not None and np.array_equal(again.signs, index.signs)
    assert encoded == []  # every vector reused, none encoded again


def test_a_lost_part_lends_its_vectors_and_the_index_is_whole_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _parts_kept_whatever_their_size(monkeypatch)
    path = tmp_path / "s.sqlite"
    with Memory(path) as memory:
        names = _grown_in_steps(memory, additions=2, cut=150)
        assert len(names) == 3
        with memory._store.transaction() as conn:  # as a write lost to a busy store
            conn.execute("DELETE FROM index_cache WHERE name = ?", (names[1],))
    with Memory(path) as reopened:
        assert_as_built(reopened._retriever.meaning(), reopened)


class TextsEncoder:
    """The bundled model, counting the texts it is asked to encode."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def encode(self, sentences: Sequence[str]) -> np.ndarray:
        self.texts.extend(sentences)
        return np.asarray(bundled_encoder().encode(list(sentences), use_multiprocessing=False))


def test_a_line_written_again_is_encoded_once_and_equals_a_build_without_copies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [r["text"] for r in paragraphs()[:5]]
    # Three documents, each the same five lines: copies in chunks apart.
    rows = [(n, 1 + n // 5, n, "line", text) for n, text in enumerate(texts * 3)]
    monkeypatch.setattr(meaning_build, "ENCODE_CHUNK", 4)
    counting = TextsEncoder()
    built = build_meaning(counting, lambda: rows)
    assert sorted(counting.texts) == sorted(texts)  # each text once
    monkeypatch.setattr(meaning_build, "VECTORS_KEPT", 0)  # nothing kept: every line encoded
    plain = build_meaning(bundled_encoder(), lambda: rows)
    assert np.array_equal(built.signs, plain.signs)
    assert np.array_equal(built.profiles, plain.profiles)
