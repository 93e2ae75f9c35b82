"""Evaluate /ask's extractive answers: does the answer contain each question's key fact?

    python tests/eval/evaluate_answers.py [--db knowledge.sqlite] [--questions tests/eval/questions.json]
    python tests/eval/evaluate_answers.py --db /tmp/kb/glpk_manual.sqlite \
        --questions ../shared/corpora/questions/glpk_manual.json

Two question formats are read: the sample book's list ({"id", "kind", "question", "answer_keywords"})
and a corpus file ({"file", "questions": [{"q", "kind", "check_keywords"}]}).  A question's key facts
are its answer_keywords, else its check_keywords; a question with neither is skipped.

Matching: the answer's own sentences (its text before the "Sources:" list, so a cited title alone
never counts) and each key fact are both Unicode-normalised (NFKC), case-folded, stripped of
hyphens and dashes (PDF text drops the hyphen of a word broken at a line end) and whitespace
collapsed; a key fact matches when it occurs as a substring.  A
question counts as answered only when ALL its key facts occur (the default; --match any relaxes that): a corpus key
such as ["Sidenote width", "2 inches"] or ["symmetric", "outside edge"] states one fact in two
halves, and "any" would credit an answer that names the topic without giving the fact.

The answer is computed in process by rag_answers.answer, the function /ask and the MCP tool
answer_question call, with the real model and knowledge file.  --save writes the answers to a JSON
file and --answers scores a saved file instead, so two versions of the code can be compared on
the same questions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# Hyphens and dashes are dropped: PDF text loses the hyphen of a word broken at a line end
# ("belief-state" becomes "beliefstate") and turns "--" into an en dash.
_DASHES = dict.fromkeys(map(ord, "-\u2010\u2011\u2012\u2013\u2014\u2212"), None)


def normalise(text: str) -> str:
    """NFKC, case-folded, hyphens and dashes dropped, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_DASHES).casefold().split())


def load_questions(path: str | Path) -> list[dict]:
    """Questions as [{"id", "kind", "question", "keys"}] from either format."""
    data = json.loads(Path(path).read_text())
    items = data["questions"] if isinstance(data, dict) else data
    out = []
    for i, q in enumerate(items):
        keys = q.get("answer_keywords") or q.get("check_keywords") or []
        out.append({"id": q.get("id") or f"q{i + 1:02d}", "kind": q.get("kind", ""),
                    "question": q.get("question") or q.get("q"), "keys": list(keys)})
    return [q for q in out if q["keys"]]


def answer_body(content: str) -> str:
    """The answer's sentences, without the numbered source list."""
    return content.split("\n\nSources:\n", 1)[0]


def holds(answer: str, keys: list[str], match: str = "all") -> bool:
    text = normalise(answer)
    found = [normalise(k) in text for k in keys]
    return all(found) if match == "all" else any(found)


def answer_all(kb, questions: list[dict]) -> dict[str, dict]:
    """{id: {"content", "status", "ms"}} from rag_answers.answer, one question after another."""
    from rag_answers import answer

    out = {}
    for q in questions:
        started = time.perf_counter()
        body = answer(kb, q["question"])
        out[q["id"]] = {"content": body["content"], "status": body["status"],
                        "ms": round((time.perf_counter() - started) * 1000, 2)}
    return out


def score(questions: list[dict], answers: dict[str, dict], match: str = "all") -> dict:
    """Key-fact rate overall and per kind, answer latency, and the misses."""
    by_kind: dict[str, list[bool]] = defaultdict(list)
    misses = []
    for q in questions:
        ok = holds(answer_body(answers[q["id"]]["content"]), q["keys"], match)
        by_kind[q["kind"]].append(ok)
        by_kind["overall"].append(ok)
        if not ok:
            misses.append(q["id"])
    times = sorted(a["ms"] for a in answers.values())
    rate = {kind: round(sum(v) / len(v), 3) for kind, v in by_kind.items()}
    return {"n": len(questions), "rate": rate.pop("overall"), "by_kind": rate,
            "n_by_kind": {k: len(v) for k, v in by_kind.items() if k != "overall"},
            "median_ms": round(statistics.median(times), 1) if times else None,
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1) if times else None, "misses": misses}


def key_fact_rate(kb, questions_path: str | Path, match: str = "all") -> dict:
    questions = load_questions(questions_path)
    return score(questions, answer_all(kb, questions), match)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--questions", default=str(ROOT / "tests" / "eval" / "questions.json"))
    parser.add_argument("--match", choices=("all", "any"), default="all")
    parser.add_argument("--save", help="write the answers to this JSON file")
    parser.add_argument("--answers", help="score the answers saved in this JSON file instead of answering")
    parser.add_argument("--misses", action="store_true", help="print each missed question and its answer")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    questions = load_questions(args.questions)
    if args.answers:
        answers = json.loads(Path(args.answers).read_text())
    else:
        from rag import KnowledgeBase

        kb = KnowledgeBase(args.db)
        answer_all(kb, questions[:1])  # load the model before timing
        answers = answer_all(kb, questions)
    if args.save:
        Path(args.save).write_text(json.dumps(answers, indent=1, ensure_ascii=False))
    report = score(questions, answers, args.match)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{Path(args.questions).name}: key fact ({args.match}) in {report['rate']:.3f} of {report['n']} answers; "
          f"answer time median {report['median_ms']} ms, p95 {report['p95_ms']} ms")
    for kind, rate in sorted(report["by_kind"].items()):
        print(f"  {kind:10} {report['n_by_kind'][kind]:>4}  {rate:.3f}")
    if args.misses:
        by_id = {q["id"]: q for q in questions}
        for qid in report["misses"]:
            q = by_id[qid]
            print(f"\n- {qid} [{q['kind']}] {q['question']}\n  keys: {q['keys']}\n  answer: "
                  f"{answer_body(answers[qid]['content'])[:600]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
