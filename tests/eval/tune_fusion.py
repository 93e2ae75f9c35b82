"""Compare fusion methods on a question file, side by side in one run (recall@5, MRR@10).

    python tests/eval/tune_fusion.py [--db knowledge.sqlite] [--questions tests/eval/questions.json]

Candidates: the convex combination at dense weights 0.3..0.9, and reciprocal rank fusion.
The shipped setting is rag.FUSION / rag.DENSE_WEIGHT; this script only measures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rag_core as rag  # noqa: E402  (the ranking settings live in the core)
from evaluate import evaluate  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--questions", default=str(ROOT / "tests" / "eval" / "questions.json"))
    args = parser.parse_args(argv)
    kb = rag.KnowledgeBase(args.db)
    questions = json.loads(Path(args.questions).read_text())
    shipped = (rag.FUSION, rag.DENSE_WEIGHT)
    candidates = [("convex", w / 10) for w in range(3, 10)] + [("rrf", None)]
    print(f"{'fusion':14} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR@10':>7}   typo R@5  reference R@1")
    for method, weight in candidates:
        rag.FUSION, rag.DENSE_WEIGHT = method, weight if weight is not None else shipped[1]
        m = evaluate(kb, questions, methods=("hybrid",))["hybrid"]
        o = m["overall"]
        name = f"{method} {weight}" if weight is not None else method
        mark = " (shipped)" if (method, weight) == shipped else ""
        print(f"{name:14} {o['recall@1']:6.3f} {o['recall@5']:6.3f} {o['recall@10']:6.3f} {o['mrr@10']:7.3f}"
              f"   {m['by_kind']['typo']['recall@5']:8.3f}  {m['by_kind']['reference']['recall@1']:13.3f}{mark}")
    rag.FUSION, rag.DENSE_WEIGHT = shipped
    return 0


if __name__ == "__main__":
    sys.exit(main())
