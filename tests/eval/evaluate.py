"""Evaluate retrieval on a question file: recall@1/5/10 and MRR@10, per kind, per method.

    python tests/eval/evaluate.py [--db knowledge.sqlite] [--questions tests/eval/questions.json]

A question is a hit at rank r when the r-th result is one of its expected entities or lies on one
of its expected printed pages.  Dense-only, BM25-only and the shipped ranking run side by side in
one process on the same questions, with per-query time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rag import KnowledgeBase  # noqa: E402

METHODS = ("dense", "bm25", "hybrid")


def first_hit(results, question) -> int | None:
    """1-based rank of the first result that answers the question, or None."""
    entities = set(question.get("expected_entities") or [])
    pages = set(question.get("expected_pages") or [])
    for rank, hit in enumerate(results, start=1):
        if hit.chunk.id in entities or (pages and hit.chunk.page in pages):
            return rank
    return None


def evaluate(kb: KnowledgeBase, questions: list[dict], methods=METHODS) -> dict:
    """{method: {"overall": metrics, "by_kind": {kind: metrics}, "p50_ms", "p95_ms"}} and misses."""
    report = {}
    for method in methods:
        ranks: dict[str, list] = defaultdict(list)
        times = []
        misses = []
        for q in questions:
            t = time.perf_counter()
            results = kb.search(q["question"], k=10, mode=method).hits
            times.append((time.perf_counter() - t) * 1000)
            r = first_hit(results, q)
            ranks[q["kind"]].append(r)
            ranks["overall"].append(r)
            if r is None or r > 5:
                misses.append({"id": q["id"], "question": q["question"], "rank": r,
                               "got": [h.chunk.id for h in results[:3]]})
        metrics = {kind: summarize(rs) for kind, rs in ranks.items()}
        times.sort()
        report[method] = {"overall": metrics.pop("overall"), "by_kind": metrics,
                          "p50_ms": round(statistics.median(times), 2),
                          "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "misses": misses}
    return report


def summarize(ranks: list) -> dict:
    n = len(ranks)
    return {"n": n,
            "recall@1": round(sum(1 for r in ranks if r and r <= 1) / n, 3),
            "recall@5": round(sum(1 for r in ranks if r and r <= 5) / n, 3),
            "recall@10": round(sum(1 for r in ranks if r and r <= 10) / n, 3),
            "mrr@10": round(sum(1 / r for r in ranks if r and r <= 10) / n, 3)}


def print_table(report: dict) -> None:
    kinds = ["overall"] + sorted(next(iter(report.values()))["by_kind"])
    print(f"{'kind':12} {'n':>4}  " + "  ".join(f"{m:>26}" for m in report))
    print(f"{'':12} {'':>4}  " + "  ".join(f"{'R@1   R@5   R@10  MRR@10':>26}" for _ in report))
    for kind in kinds:
        cells = []
        n = 0
        for method, rep in report.items():
            m = rep["overall"] if kind == "overall" else rep["by_kind"][kind]
            n = m["n"]
            cells.append(f"{m['recall@1']:.3f} {m['recall@5']:.3f} {m['recall@10']:.3f} {m['mrr@10']:.3f}")
        print(f"{kind:12} {n:>4}  " + "  ".join(f"{c:>26}" for c in cells))
    print("query time ms (p50/p95): " + ", ".join(f"{m} {r['p50_ms']}/{r['p95_ms']}" for m, r in report.items()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--questions", default=str(ROOT / "tests" / "eval" / "questions.json"))
    parser.add_argument("--misses", action="store_true", help="list the questions the shipped ranking misses")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    kb = KnowledgeBase(args.db)
    questions = json.loads(Path(args.questions).read_text())
    report = evaluate(kb, questions)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{len(questions)} questions on {kb.title!r} ({args.db})")
    print_table(report)
    if args.misses:
        for miss in report["hybrid"]["misses"]:
            print(f"  miss {miss['id']} rank={miss['rank']}: {miss['question']}  -> {miss['got']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
