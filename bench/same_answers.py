"""Same answers before and after a refactor: fixed question sets asked through the public API.

make-sets writes the sets (keep them outside the repository: LoCoMo is non-commercial data),
ask answers them into DIR/<set>.jsonl, compare lists the items whose answers changed, and
record writes the answers on the project's own corpora for tests/regressions.

    .venv/bin/python bench/same_answers.py {make-sets,ask,compare,record} ...

Run make-sets and ask on the code before a change (a worktree of it first on PYTHONPATH),
then ask on the code after, and compare the two answer folders. ``ask --grow`` loads each
store a document a call (a step of files ingested one file at a time; texts are added one
call each already): compared with ``ask``, the answers of a store grown a document at a
time against those of the same store built at once.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from affidavit import Memory

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
SHARED = ROOT.parent / "shared" / "corpora"
DOC_QA_QUESTIONS = ROOT / "bench" / "doc_qa_questions.jsonl"
PDFS = (
    "ag-energy-round-up-2017-02-24.pdf",
    "i1040nr.pdf",
    "nics-background-checks-2015-11.pdf",
    "senate-expenditures.pdf",
)
SQUAD_ARTICLES = (
    "Normans.txt",
    "Black_Death.txt",
    "1973_oil_crisis.txt",
    "Jacksonville,_Florida.txt",
    "Pharmacy.txt",
)
SEED = 38
# Outside the repository: the sets hold LoCoMo's text, which is non-commercial.
DEFAULT_SETS = Path.home() / ".cache" / "affidavit-same-answers" / "sets.json"
ANSWER_FIELDS = ("text", "value", "refused", "reason", "census", "citations")
VERDICT_FIELDS = ("supported", "sentences")


# -- the sets: a set is a list of stores, each {"id", "load": [step, ...], "items": [...]} --


def store(store_id: str, load: list[dict], items: list[dict]) -> dict:
    return {"id": store_id, "load": load, "items": items}


def ask_item(item_id: str, question: str, asked_at: str | None = None, speaker=None) -> dict:
    return {"id": item_id, "ask": question, "asked_at": asked_at, "speaker": speaker}


def verify_item(item_id: str, text: str, question: str | None = None) -> dict:
    return {"id": item_id, "verify": text, "question": question}


def read_jsonl(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def demo_constants() -> Any:
    """affidavit's demo module, wherever the code in use keeps it (make time only)."""
    try:
        from affidavit import demo
    except ImportError:
        from affidavit.cli import demo
    return demo


def document_files(pdf_folders: Sequence[Path]) -> list[Path]:
    """bench/doc_qa.py document_files(): demo, office, then the PDFs not already taken."""
    files = sorted(p for p in (CORPORA / "demo").iterdir() if not p.name.startswith("."))
    office = CORPORA / "office"
    files += sorted(p for p in office.iterdir() if p.suffix in (".html", ".docx"))
    folder = next((f for f in pdf_folders if (f / PDFS[0]).exists()), None)
    if folder is None:
        raise SystemExit(f"no pdf_text_dumps folder found (looked in {pdf_folders})")
    taken = {p.name for p in files}
    return files + [folder / name for name in PDFS if name not in taken]


def documents_set(pdf_folders: Sequence[Path], rel: bool = False) -> list[dict]:
    """The doc_qa questions, the demo's questions and audit, and 30 gold answers verified."""
    demo = demo_constants()
    questions = read_jsonl(DOC_QA_QUESTIONS)
    items = [ask_item(q["id"], q["question"]) for q in questions]
    items += [ask_item(f"demo-{n}", q) for n, q in enumerate(demo.DEMO_QUESTIONS, 1)]
    items.append(verify_item("demo-audit", demo.DEMO_AUDIT))
    answerable = [q for q in questions if q["answerable"]][:30]
    items += [verify_item(f"gold-{q['id']}", q["answers"][0], q["question"]) for q in answerable]
    files = [path_name(p, rel) for p in document_files(pdf_folders)]
    return [store("documents", [{"files": files}], items)]


def dialogue_set(rel: bool = False) -> list[dict]:
    demo = demo_constants()
    items = []
    for n, question in enumerate(demo.DEMO_DIALOGUE, 1):
        for speaker in (None, "Maya", "Leo"):
            item_id = f"chat-{n}" + (f"-{speaker}" if speaker else "")
            items.append(ask_item(item_id, question, demo.DEMO_ASKED_AT, speaker))
    path = path_name(CORPORA / "dialogue" / "maya-and-leo.jsonl", rel)
    return [store("maya-and-leo", [{"dialogue": path, "name": "maya-and-leo"}], items)]


def path_name(path: Path, rel: bool) -> str:
    return str(path.relative_to(ROOT)) if rel else str(path)


def by_store(drawn: list[tuple[str, dict]]) -> dict[str, list[dict]]:
    """Items grouped by their store, stores in order of first appearance."""
    grouped: dict[str, list[dict]] = {}
    for key, item in drawn:
        grouped.setdefault(key, []).append(item)
    return grouped


def squad_set(size: int = 300) -> list[dict]:
    """SQuAD 2.0 dev questions drawn with seed 38; one store per article (bench/_squad.py)."""
    data = json.loads((SHARED / "squad2_dev" / "squad2_dev.json").read_text(encoding="utf-8"))
    articles, questions = {}, []
    for article in data["data"]:
        title = article["title"]
        articles[title] = "\n\n".join(p["context"] for p in article["paragraphs"])
        questions += [(title, qa) for p in article["paragraphs"] for qa in p["qas"]]
    picked = sorted(random.Random(SEED).sample(range(len(questions)), size))
    drawn = [questions[i] for i in picked]
    grouped = by_store([(title, ask_item(qa["id"], qa["question"])) for title, qa in drawn])
    return [
        store(title, [{"text": articles[title], "name": title}], items)
        for title, items in grouped.items()
    ]


def tatqa_set(size: int = 100) -> list[dict]:
    path = SHARED / "tatqa" / "tatqa_dataset_dev.json"
    contexts = json.loads(path.read_text(encoding="utf-8"))
    questions = [
        (str(n), q)
        for n, context in enumerate(contexts)
        for q in sorted(context["questions"], key=lambda q: q["order"])
    ]
    picked = sorted(random.Random(SEED).sample(range(len(questions)), size))
    drawn = [questions[i] for i in picked]
    grouped = by_store([(n, ask_item(q["uid"], q["question"])) for n, q in drawn])
    bench_helpers()
    from tatqa import document_text  # the documents as bench/tatqa.py writes them

    stores = []
    for key, items in grouped.items():
        context = contexts[int(key)]
        name = f"{context['table']['uid']}.md"
        stores.append(store(name, [{"text": document_text(context), "name": name}], items))
    return stores


def locomo_set(samples: int = 2, per_sample: int = 50) -> list[dict]:
    """The first questions of the first samples, asked on the day of the last session."""
    from affidavit.ingest.dialogue import read_dialogue  # make time only

    path = SHARED / "locomo" / "locomo.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    stores = []
    for index, sample in enumerate(data[:samples]):
        name = str(sample["sample_id"])
        now = max(s.date for s in read_dialogue(sample, name=name))
        items = [
            ask_item(f"{name}-q{n}", qa["question"], now)
            for n, qa in enumerate(sample["qa"][:per_sample], 1)
        ]
        load = [{"dialogue_json": str(path), "index": index, "name": name}]
        stores.append(store(name, load, items))
    return stores


def bench_helpers() -> Path:
    """The bench folder beside the affidavit package in use, put first on sys.path."""
    import affidavit

    folder = Path(affidavit.__file__).resolve().parents[1] / "bench"
    sys.path.insert(0, str(folder))
    return folder


def contrast_set(limit: int = 100, seed: int = 0) -> list[dict]:
    """bench/contrast.py run() for the tune and the report split: its items, verified."""
    bench_helpers()
    import contrast  # the bench script of the code in use (affidavit internals, make time)

    articles, _ = contrast.load_squad()
    stores = []
    for split in ("tune", "report"):
        drawn, _ = contrast.sample(articles, split, limit, seed)
        grouped = by_store([(title, (position, sentence)) for title, position, sentence in drawn])
        for title, chosen in grouped.items():
            text = articles[title]
            facts = contrast.article_facts(text.split("\n\n"))
            made = [
                item
                for position, sentence in chosen
                for item in contrast.items_for(title, position, sentence, facts, seed)
            ]
            items = [
                {
                    **verify_item(f"{split}-{title}-{n}-{i.kind}", i.text),
                    "kind": i.kind,
                    "article": title,
                }
                for n, i in enumerate(made)
            ]
            load = [{"text": text, "name": title}]
            stores.append(store(f"{split}/{title}", load, items))
    return stores


def halueval_set(size: int = 100) -> list[dict]:
    rows = read_jsonl(SHARED / "halueval" / "halueval_qa.jsonl")[:size]
    return [
        store(
            f"row{n}",
            [{"text": row["knowledge"], "name": f"row{n}"}],
            [
                verify_item(f"row{n}-right", row["right_answer"], row["question"]),
                verify_item(f"row{n}-hallucinated", row["hallucinated_answer"], row["question"]),
            ],
        )
        for n, row in enumerate(rows)
    ]


def xquad_set(rel: bool = False) -> list[dict]:
    """The English paragraphs, one document each (as in test_meaning.py), every question."""
    folder = CORPORA / "xquad_slice"
    questions = read_jsonl(folder / "questions.jsonl")
    items = [ask_item(f"{q['id']}-{q['language']}", q["question"]) for q in questions]
    load = [{"jsonl_texts": path_name(folder / "paragraphs.jsonl", rel)}]
    return [store("xquad_slice", load, items)]


def squad_articles_set(size: int = 60) -> list[dict]:
    """The first questions of corpora/squad2_articles, one store ingested as conftest does."""
    folder = CORPORA / "squad2_articles"
    questions = read_jsonl(folder / "questions.jsonl")[:size]
    load = [{"file": path_name(folder / name, True)} for name in SQUAD_ARTICLES]
    return [store("squad2_articles", load, [ask_item(q["id"], q["question"]) for q in questions])]


def make_sets() -> dict[str, list[dict]]:
    builders = {
        "documents": lambda: documents_set((SHARED / "pdf_text_dumps", CORPORA / "pdf_text_dumps")),
        "dialogue": dialogue_set,
        "squad": squad_set,
        "tatqa": tatqa_set,
        "locomo": locomo_set,
        "contrast": contrast_set,
        "halueval": halueval_set,
        "xquad": xquad_set,
    }
    sets = {}
    for name, build in builders.items():
        sets[name] = build()
        count = sum(len(s["items"]) for s in sets[name])
        print(f"{name}: {len(sets[name])} stores, {count} items", flush=True)
    return sets


def local_sets() -> dict[str, list[dict]]:
    """The sets of tests/regressions: the project's own corpora only, paths relative."""
    return {
        "documents": documents_set((CORPORA / "pdf_text_dumps",), rel=True),
        "dialogue": dialogue_set(rel=True),
        "squad2_articles": squad_articles_set(),
        "xquad": xquad_set(rel=True),
    }


# -- asking: the public API only --


def load_store(memory: Memory, steps: Sequence[dict], root: Path, *, grow: bool = False) -> None:
    for step in steps:
        if "files" in step and grow:
            for p in step["files"]:
                memory.ingest(str(root / p))
        elif "files" in step:
            memory.ingest([str(root / p) for p in step["files"]])
        elif "file" in step:
            memory.ingest(str(root / step["file"]))
        elif "text" in step:
            memory.ingest_text(step["text"], name=step["name"])
        elif "dialogue" in step:
            memory.ingest_dialogue(str(root / step["dialogue"]), name=step["name"])
        elif "dialogue_json" in step:
            data = json.loads((root / step["dialogue_json"]).read_text(encoding="utf-8"))
            memory.ingest_dialogue(data[step["index"]], name=step["name"])
        elif "jsonl_texts" in step:
            for record in read_jsonl(root / step["jsonl_texts"]):
                memory.ingest_text(record["text"], name=record["name"])
        else:
            raise ValueError(f"unknown load step {sorted(step)}")


def json_safe(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def answer_record(item: dict, memory: Memory) -> tuple[dict, Any]:
    """The answer's fields as recorded, and its audit."""
    answer = memory.ask(item["ask"], asked_at=item["asked_at"], speaker=item["speaker"])
    record = {
        "question": item["ask"],
        "asked_at": item["asked_at"],
        "speaker": item["speaker"],
        "text": answer.text,
        "value": json_safe(answer.value),
        "refused": answer.refused,
        "reason": answer.reason,
        "census": answer.census,
        "citations": [[c.document, c.position, c.text] for c in answer.citations],
    }
    return record, json_safe(answer.to_dict()["audit"])


def verdict_record(item: dict, memory: Memory) -> tuple[dict, Any]:
    """The verdict's fields as recorded, and each sentence's claims and gates."""
    verdict = memory.verify(item["verify"], question=item["question"])
    sentences = [
        {
            "text": s.text,
            "status": s.status,
            "reason": s.reason,
            "evidence": [[e.document, e.position] for e in s.evidence],
        }
        for s in verdict.sentences
    ]
    record = {
        "text": item["verify"],
        "question": item["question"],
        "supported": verdict.supported,
        "sentences": sentences,
    }
    audit = [{"claims": s.claims, "gates": s.gates} for s in verdict.sentences]
    return record, json_safe(audit)


def answer_store(
    spec: dict, root: Path, *, grow: bool = False
) -> Iterator[tuple[dict, dict, Any]]:
    """(item, record, audit) for every item of one store, asked of a fresh Memory."""
    with Memory() as memory:
        load_store(memory, spec["load"], root, grow=grow)
        for item in spec["items"]:
            asked = answer_record if "ask" in item else verdict_record
            record, audit = asked(item, memory)
            yield item, {"id": item["id"], **record}, audit


def write_jsonl(path: Path, records: Sequence[dict]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    path.write_text(text, encoding="utf-8")


def ask_set(name: str, stores: Sequence[dict], out: Path, *, grow: bool = False) -> None:
    start = time.perf_counter()
    records, audits = [], []
    for spec in stores:
        for _item, record, audit in answer_store(spec, ROOT, grow=grow):
            records.append({"set": name, **record})
            audits.append({"id": record["id"], "audit": audit})
    write_jsonl(out / f"{name}.jsonl", records)
    write_jsonl(out / f"{name}.audit.jsonl", audits)
    print(f"{name}: {len(records)} items, {time.perf_counter() - start:.1f} s", flush=True)


def run_ask(args: argparse.Namespace) -> int:
    sets = json.loads(args.sets.read_text(encoding="utf-8"))["sets"]
    unknown = set(args.only or ()) - set(sets)
    if unknown:
        raise SystemExit(f"no such set: {', '.join(sorted(unknown))}")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, stores in sets.items():
        if not args.only or name in args.only:
            ask_set(name, stores, args.out, grow=args.grow)
    return 0


# -- comparing two runs --


def fields_of(record: dict) -> tuple[str, ...]:
    return VERDICT_FIELDS if "supported" in record else ANSWER_FIELDS


def differences(old: dict | None, new: dict | None) -> list[tuple[str, Any, Any]]:
    """(field, old, new) for every answer field that differs; a missing item is one row."""
    if old is None or new is None:
        return [("item", "present" if old else "missing", "present" if new else "missing")]
    return [(f, old.get(f), new.get(f)) for f in fields_of(old) if old.get(f) != new.get(f)]


def keyed(path: Path, field: str = "id") -> dict[str, dict]:
    return {r[field]: r for r in read_jsonl(path)}


def short(value: Any, width: int = 70) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


def show(name: str, item_id: str, diffs: list[tuple[str, Any, Any]]) -> None:
    print(f"\n{name} {item_id}")
    for field, old, new in diffs:
        print(f"  {field:<10} old {short(old):<72} | new {short(new)}")


def compare_set(name: str, old_dir: Path, new_dir: Path, budget: list[int]) -> tuple[int, int]:
    """Print this set's differences within the budget; (items, differing)."""
    old, new = keyed(old_dir / f"{name}.jsonl"), keyed(new_dir / f"{name}.jsonl")
    ids = list(old) + [i for i in new if i not in old]
    differing = 0
    for item_id in ids:
        diffs = differences(old.get(item_id), new.get(item_id))
        if diffs:
            differing += 1
            if budget[0] > 0:
                budget[0] -= 1
                show(name, item_id, diffs)
    return len(ids), differing


def audits_differing(name: str, old_dir: Path, new_dir: Path) -> int:
    paths = (old_dir / f"{name}.audit.jsonl", new_dir / f"{name}.audit.jsonl")
    if not all(p.exists() for p in paths):
        return 0
    old, new = keyed(paths[0]), keyed(paths[1])
    return sum(old.get(i) != new.get(i) for i in set(old) | set(new))


def run_compare(args: argparse.Namespace) -> int:
    names = sorted(
        p.name.removesuffix(".jsonl")
        for p in args.old.glob("*.jsonl")
        if not p.name.endswith(".audit.jsonl") and (args.new / p.name).exists()
    )
    budget, rows, audits = [args.show], [], 0
    for name in names:
        items, differing = compare_set(name, args.old, args.new, budget)
        rows.append((name, items, items - differing, differing))
        audits += audits_differing(name, args.old, args.new)
    print(f"\n{'set':<12} {'items':>6} {'identical':>10} {'differing':>10}")
    for name, items, same, differing in rows:
        print(f"{name:<12} {items:>6} {same:>10} {differing:>10}")
    print(f"audits differing: {audits}")
    return 1 if any(row[3] for row in rows) else 0


# -- the commands --


def run_make_sets(args: argparse.Namespace) -> int:
    sets = make_sets()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"seed": SEED, "sets": sets}, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    return 0


def run_record(args: argparse.Namespace) -> int:
    """The local sets with their answers, for tests/regressions/test_recorded_answers.py."""
    stores = []
    for name, specs in local_sets().items():
        start = time.perf_counter()
        for spec in specs:
            items = [
                {**item, "expected": {k: v for k, v in record.items() if k != "id"}}
                for item, record, _audit in answer_store(spec, ROOT)
            ]
            stores.append({"set": name, **spec, "items": items})
        print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
    text = json.dumps({"stores": stores}, ensure_ascii=False, indent=1, sort_keys=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = p.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make-sets", help="write the fixed question sets")
    make.add_argument("--out", type=Path, default=DEFAULT_SETS)
    make.set_defaults(run=run_make_sets)
    ask = commands.add_parser("ask", help="answer every item into DIR/<set>.jsonl")
    ask.add_argument("--sets", type=Path, default=DEFAULT_SETS)
    ask.add_argument("--out", type=Path, required=True)
    ask.add_argument("--only", nargs="+", metavar="SET")
    ask.add_argument("--grow", action="store_true", help="each store loaded a document a call")
    ask.set_defaults(run=run_ask)
    compare = commands.add_parser("compare", help="the items whose answers differ")
    compare.add_argument("old", type=Path)
    compare.add_argument("new", type=Path)
    compare.add_argument("--show", type=int, default=20, metavar="N")
    compare.set_defaults(run=run_compare)
    record = commands.add_parser("record", help="the recorded answers of tests/regressions")
    record.add_argument("--out", type=Path, required=True)
    record.set_defaults(run=run_record)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
