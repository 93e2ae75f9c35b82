"""Evaluate retrieval on every question set: recall@1/5/10 and MRR@10, per book, per kind, per method.

    python tests/eval/evaluate.py                      # the sample book and every corpus book
    python tests/eval/evaluate.py --book glpk_manual   # one book (repeat --book for more)
    python tests/eval/evaluate.py --db knowledge.sqlite --questions tests/eval/questions.json

Question sets: the sample book's tests/eval/questions.json (expected entity ids and printed pages)
and each ../shared/corpora/questions/NAME.json (expected PDF pages and at most one expected entity,
see ../shared/corpora/README.md).  A question is a hit at rank r when the r-th result is one of its
expected entities or lies on one of its expected pages.  Dense-only, BM25-only and the shipped
ranking run side by side in one process on the same questions, with per-query time.

Each corpus book's knowledge file is built by build_db.py into a cache folder (--cache, by default
$TMPDIR/bookrag-eval) and rebuilt when the PDF or the builder's code changed since.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from rag import KnowledgeBase  # noqa: E402

METHODS = ("dense", "bm25", "hybrid")
SAMPLE = "sample"
SAMPLE_QUESTIONS = ROOT / "tests" / "eval" / "questions.json"
CORPORA = Path(os.environ.get("BOOKRAG_SHARED") or ROOT.parent / "shared") / "corpora"
# Question sets we wrote for corpus books that came without reader questions (the sample's shape).
OWN_SETS = {"stopt": ("stopt-manual.pdf", ROOT / "tests" / "eval" / "stopt_questions.json")}
BUILDER_FILES = ("build_db.py", "build_common.py", "build_pdf.py", "build_layout.py", "build_heads.py", "build_page.py",
                 "build_roles.py", "build_glyphs.py", "build_objects.py", "build_math.py", "build_formula.py", "build_markdown.py", "build_tags.py")


# ---- question sets

def sample_questions(path: Path = SAMPLE_QUESTIONS) -> list[dict]:
    """The sample book's questions as they are (expected_entities ids, expected_pages printed pages)."""
    return json.loads(Path(path).read_text())


def corpus_questions(path: Path) -> tuple[str, list[dict]]:
    """(PDF file name, questions) of a corpus question file, in the sample's shape: the expected
    entity becomes expected_kind_number, the expected pages are PDF pages."""
    data = json.loads(Path(path).read_text())
    out = []
    for i, q in enumerate(data["questions"], start=1):
        entity = q.get("expected_entity")
        out.append({"id": f"{Path(path).stem}-{i:02d}", "question": q["q"], "kind": q["kind"],
                    "expected_pdf_pages": q["expected_pdf_pages"],
                    "expected_kind_number": [[entity["type"], entity["number"]]] if entity else []})
    return data["file"], out


def corpus_books(corpora: Path = CORPORA) -> list[str]:
    """Names of the corpus books that have reader questions (empty without the corpus folder)."""
    folder = corpora / "questions"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def book_questions(name: str, corpora: Path = CORPORA) -> tuple[Path, list[dict]]:
    """(PDF, questions) of a corpus book: its reader questions, or the set we wrote for it."""
    if name in OWN_SETS:
        pdf, questions = OWN_SETS[name]
        return corpora / pdf, sample_questions(questions)
    pdf, questions = corpus_questions(corpora / "questions" / f"{name}.json")
    return corpora / pdf, questions


def identifier_lookups(kb: KnowledgeBase, limit: int = 30, most: int = 5) -> list[dict]:
    """Generated lookups, the "exact identifier" kind: each identifier the book prints (glp_simplex,
    SetKwInput) in at most `most` chunks, asked alone; a hit is a chunk that prints it.  Taken in
    order of first appearance, every n-th one, so the set spreads over the book."""
    from rag_core import identifiers

    where: dict[str, set] = {}
    for cid, content in kb.db.execute("SELECT id, content FROM chunks ORDER BY ord"):
        for name in identifiers(content):
            where.setdefault(name, set()).add(cid)
    names = [n for n, ids in where.items() if len(ids) <= most]
    step = max(1, len(names) // limit)
    return [{"id": f"lookup-{i:02d}", "question": n, "kind": "identifier", "expected_entities": sorted(where[n])}
            for i, n in enumerate(names[::step][:limit], start=1)]


def first_hit(results, question) -> int | None:
    """1-based rank of the first result that answers the question, or None."""
    entities = set(question.get("expected_entities") or [])
    pages = set(question.get("expected_pages") or [])
    pdf_pages = set(question.get("expected_pdf_pages") or [])
    numbered = {tuple(e) for e in question.get("expected_kind_number") or []}
    for rank, hit in enumerate(results, start=1):
        c = hit.chunk
        if (c.id in entities or (pages and c.page in pages) or (pdf_pages and c.pdf_page in pdf_pages)
                or (c.kind, c.number) in numbered):
            return rank
    return None


# ---- knowledge files

def builder_hash() -> str:
    """A hash of the builder's code: a cached knowledge file built by other code is stale."""
    h = hashlib.sha256()
    for name in BUILDER_FILES:
        path = ROOT / name
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def listens_on(pid: int, port: int) -> bool:
    """Whether process `pid` holds the socket listening on loopback `port` (Linux's /proc: the socket
    inodes its descriptors point at against the listening sockets' table).  A server started on a
    port another server took in the meantime answers /health with the other's voice until it gives
    up.  True where /proc cannot tell."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    if not inodes:
        return not Path("/proc/net/tcp").exists()
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return True
    return any(link == f"socket:[{inode}]" for link in links for inode in inodes)


def niced(command: list[str], nice: int) -> list[str]:
    """The command run at priority `nice` (as it is where the system has no `nice`, or `nice` is 0)."""
    return ["nice", "-n", str(nice)] + command if nice and shutil.which("nice") else command


def cached_build(pdf: Path, cache: Path):
    """(where the cache folder keeps the PDF's knowledge file, whether the file there is fresh, a
    function that marks it fresh once built): fresh means built from these PDF bytes by this builder."""
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"{pdf.stem}.sqlite"
    stamp = cache / f"{pdf.stem}.stamp.json"
    want = {"pdf_sha256": hashlib.sha256(pdf.read_bytes()).hexdigest(), "builder": builder_hash()}
    fresh = out.is_file() and stamp.is_file() and json.loads(stamp.read_text()) == want
    return out, fresh, lambda: stamp.write_text(json.dumps(want))


def knowledge_file(pdf: Path, cache: Path, quiet: bool = False, workers: int | None = None, nice: int = 0) -> Path:
    """The knowledge file of a PDF in the cache folder, built (or rebuilt when stale) by build_db.py
    (with `workers` processes, the builder's default when None; at priority `nice`, where `nice` runs)."""
    out, fresh, stamp = cached_build(pdf, cache)
    if fresh:
        return out
    if not quiet:
        print(f"building {pdf.name} -> {out} ...", file=sys.stderr, flush=True)
    t = time.perf_counter()
    env = {**os.environ, "BUILD_DB_WORKERS": str(workers)} if workers else None
    proc = subprocess.run(niced([sys.executable, str(ROOT / "build_db.py"), str(pdf), "-o", str(out), "--quiet"], nice),
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"build of {pdf} failed: {proc.stderr[-2000:]}")
    stamp()
    if not quiet:
        print(f"  built in {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
    return out


# ---- metrics

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
            if r is None or r > 1:
                misses.append({"id": q["id"], "question": q["question"], "rank": r,
                               "got": [f"{h.chunk.id}@{h.chunk.pdf_page}" for h in results[:3]]})
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


def pooled(reports: dict[str, dict], method: str = "hybrid", part: str | None = None) -> dict:
    """Metrics over every question of several books together (each question counts once);
    part="lookups" pools the generated identifier lookups instead."""
    total = {"n": 0, "recall@1": 0.0, "recall@5": 0.0, "recall@10": 0.0, "mrr@10": 0.0}
    for rep in reports.values():
        if part and part not in rep:
            continue
        m = (rep[part] if part else rep)[method]["overall"]
        total["n"] += m["n"]
        for key in ("recall@1", "recall@5", "recall@10", "mrr@10"):
            total[key] += m[key] * m["n"]
    n = total["n"] or 1
    return {k: (v if k == "n" else round(v / n, 3)) for k, v in total.items()}


def print_table(report: dict, out=sys.stdout) -> None:
    kinds = ["overall"] + sorted(next(iter(report.values()))["by_kind"])
    print(f"{'kind':12} {'n':>4}  " + "  ".join(f"{m:>22}" for m in report), file=out)
    print(f"{'':12} {'':>4}  " + "  ".join(f"{'R@1   R@5   MRR@10':>22}" for _ in report), file=out)
    for kind in kinds:
        cells = []
        n = 0
        for method, rep in report.items():
            m = rep["overall"] if kind == "overall" else rep["by_kind"][kind]
            n = m["n"]
            cells.append(f"{m['recall@1']:.3f} {m['recall@5']:.3f} {m['mrr@10']:.3f}")
        print(f"{kind:12} {n:>4}  " + "  ".join(f"{c:>22}" for c in cells), file=out)
    print("query time ms (p50/p95): " + ", ".join(f"{m} {r['p50_ms']}/{r['p95_ms']}" for m, r in report.items()),
          file=out)


def run_book(name: str, db: Path, questions: list[dict], misses: bool = False) -> dict:
    kb = KnowledgeBase(db)
    report = evaluate(kb, questions)
    print(f"\n== {name}: {len(questions)} questions on {kb.title!r} ({db})")
    print_table(report)
    lookups = identifier_lookups(kb)
    if lookups:
        report["lookups"] = evaluate(kb, lookups)
        print(f"-- {len(lookups)} generated identifier lookups (the identifier alone; hit = a chunk printing it):")
        print_table(report["lookups"])
    if misses:
        for miss in report["hybrid"]["misses"]:
            print(f"  not first {miss['id']} rank={miss['rank']}: {miss['question']}  -> {miss['got']}")
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="evaluate this one knowledge file (with --questions)")
    parser.add_argument("--questions", help="a question file: the sample's shape or a corpus NAME.json")
    parser.add_argument("--book", action="append", help=f"only these books ({SAMPLE!r} or a corpus name)")
    parser.add_argument("--cache", default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "bookrag-eval"),
                        help="folder of the corpus books' knowledge files (built when missing or stale)")
    parser.add_argument("--sample-db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--misses", action="store_true", help="list the questions the shipped ranking misses")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args(argv)

    reports: dict[str, dict] = {}
    if args.db or args.questions:
        path = Path(args.questions or SAMPLE_QUESTIONS)
        data = json.loads(path.read_text())
        questions = corpus_questions(path)[1] if isinstance(data, dict) else data
        reports[path.stem] = run_book(path.stem, Path(args.db or args.sample_db), questions, args.misses)
    else:
        books = args.book or [SAMPLE] + corpus_books() + ([*OWN_SETS] if CORPORA.is_dir() else [])
        if len(books) == 1 and not corpus_books() and books == [SAMPLE]:
            print(f"(no corpus question sets at {CORPORA / 'questions'}: the sample book only)")
        for name in books:
            if name == SAMPLE:
                reports[name] = run_book(name, Path(args.sample_db), sample_questions(), args.misses)
                continue
            pdf, questions = book_questions(name)
            db = knowledge_file(pdf, Path(args.cache))
            reports[name] = run_book(name, db, questions, args.misses)
        corpus = {n: r for n, r in reports.items() if n not in (SAMPLE, *OWN_SETS)}
        if corpus:
            print(f"\n== summary (shipped ranking)\n{'book':20} {'n':>4} {'R@1':>6} {'R@5':>6} {'MRR@10':>7}")
            for name, rep in reports.items():
                m = rep["hybrid"]["overall"]
                print(f"{name:20} {m['n']:4} {m['recall@1']:6.3f} {m['recall@5']:6.3f} {m['mrr@10']:7.3f}")
            m = pooled(corpus)
            print(f"{'corpus sets, pooled':20} {m['n']:4} {m['recall@1']:6.3f} {m['recall@5']:6.3f} {m['mrr@10']:7.3f}")
    if args.json:
        print(json.dumps(reports, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
