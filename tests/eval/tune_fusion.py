"""Tune the dense/BM25 weighting on dev books and check it out of sample, side by side in one run.

    python tests/eval/tune_fusion.py [--cache DIR] [--dev sample glpk_manual algorithm2e_doc]

Candidates: the prose weight (DENSE_WEIGHT), the lookup weight (LOOKUP_DENSE_WEIGHT) and how far
rare terms move a longer query's weight (RARE_SHIFT), plus reciprocal rank fusion.  Each line shows
R@5 and MRR@10 pooled over the dev books (where the choice is made) and over the held-out books
(every other book with questions), which only check it.  The shipped setting lives in rag_core;
this script only measures.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

import rag_core as rag  # noqa: E402  (the ranking settings live in the core)
from evaluate import (OWN_SETS, SAMPLE, book_questions, corpus_books, evaluate, identifier_lookups,  # noqa: E402
                      knowledge_file, pooled, sample_questions)

SETTINGS = ("FUSION", "DENSE_WEIGHT", "LOOKUP_DENSE_WEIGHT", "RARE_SHIFT")
DEV = (SAMPLE, "glpk_manual", "algorithm2e_doc")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "bookrag-eval"))
    parser.add_argument("--sample-db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--dev", nargs="+", default=list(DEV))
    args = parser.parse_args(argv)
    books = {SAMPLE: (rag.KnowledgeBase(args.sample_db), sample_questions())}
    for name in corpus_books() + [*OWN_SETS]:
        pdf, questions = book_questions(name)
        books[name] = (rag.KnowledgeBase(knowledge_file(pdf, Path(args.cache))), questions)
    dev = [b for b in books if b in args.dev]
    held = [b for b in books if b not in args.dev]
    shipped = {s: getattr(rag, s) for s in SETTINGS}
    lookups = {name: identifier_lookups(kb) for name, (kb, _) in books.items()}
    candidates = [dict(shipped, DENSE_WEIGHT=w, LOOKUP_DENSE_WEIGHT=lw, RARE_SHIFT=rs)
                  for w, lw, rs in itertools.product((0.6, 0.7, 0.8, 0.9), (0.2, 0.4, 0.6), (0.0, 0.15, 0.3))]
    candidates.append(dict(shipped, FUSION="rrf"))
    print(f"dev: {', '.join(dev)}\nheld out: {', '.join(held)}")
    print(f"{'fusion':6} {'prose':>5} {'lookup':>6} {'shift':>5}   {'dev R@5':>7} {'MRR@10':>7}   "
          f"{'held R@5':>8} {'MRR@10':>7}   lookups R@1 dev/held   worst book MRR@10")
    for cand in candidates:
        for key, value in cand.items():
            setattr(rag, key, value)
        reports = {name: evaluate(kb, qs, methods=("hybrid",)) for name, (kb, qs) in books.items()}
        for name, (kb, _) in books.items():
            if lookups[name]:
                reports[name]["lookups"] = evaluate(kb, lookups[name], methods=("hybrid",))
        d = pooled({b: reports[b] for b in dev})
        h = pooled({b: reports[b] for b in held}) if held else {"recall@5": 0, "mrr@10": 0}
        dl = pooled({b: reports[b] for b in dev}, part="lookups")
        hl = pooled({b: reports[b] for b in held}, part="lookups") if held else {"recall@1": 0}
        worst = min((b for b in reports if b not in OWN_SETS), key=lambda b: reports[b]["hybrid"]["overall"]["mrr@10"])
        mark = " (shipped)" if cand == shipped else ""
        print(f"{cand['FUSION']:6} {cand['DENSE_WEIGHT']:5.2f} {cand['LOOKUP_DENSE_WEIGHT']:6.2f} "
              f"{cand['RARE_SHIFT']:5.2f}   {d['recall@5']:7.3f} {d['mrr@10']:7.3f}   {h['recall@5']:8.3f} "
              f"{h['mrr@10']:7.3f}   {dl['recall@1']:5.3f} / {hl['recall@1']:5.3f}        {worst} {reports[worst]['hybrid']['overall']['mrr@10']:.3f}{mark}")
    for key, value in shipped.items():
        setattr(rag, key, value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
