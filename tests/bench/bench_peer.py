"""Side by side with a peer: bookrag's knowledge file against an embedded Chroma store of the same book.

    /work/venv-chroma/bin/python tests/bench/bench_peer.py [--db knowledge.sqlite] [--rounds 3]

Run it with an interpreter that has chromadb; the project itself never depends on it.  Set up once:

    python3 -m venv /work/venv-chroma
    /work/venv-chroma/bin/pip install chromadb
    /work/venv-chroma/bin/pip install -e .

Chroma gets exactly our data: every chunk's id and content, and OUR stored vectors (chunks_vec,
float32, dim 384) passed as embeddings=, in a collection with cosine space in a temporary
PersistentClient directory.  Queries are embedded for Chroma by our own model through a small
EmbeddingFunction, so both sides pay the same embedding cost and differ only in the store.

Measured in one run, each on the evaluation questions:
  * query time p50/p95 in process, one query at a time, interleaved per question: our
    KnowledgeBase.search (hybrid, as shipped), our dense-only mode, and collection.query;
  * recall@5 with the rule of tests/eval/evaluate.py (a hit is a result that is an expected entity
    or lies on an expected page; Chroma's ids are looked up in knowledge.sqlite for their page);
  * cold start, each in a fresh subprocess: import, load the model, open the store, answer one
    query (median of --cold runs);
  * resident memory after loading and after --rss-queries queries, each in its own subprocess;
  * size on disk of knowledge.sqlite against Chroma's persist directory.
RAG_QUERY_CACHE=0 throughout, so our query-vector cache does not flatter us.  Prints tables; no
assertions.  This machine has 2 cores and is noisy: compare ratios within a run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

os.environ["RAG_QUERY_CACHE"] = "0"  # before rag is imported, here and in every subprocess
os.environ["ANONYMIZED_TELEMETRY"] = "False"  # Chroma: no telemetry attempts

COLLECTION = "book"
COLD_QUERY = "value iteration"


# --------------------------------------------------------------------------- shared pieces
def chroma_missing() -> str | None:
    """Why chromadb cannot be used from this interpreter, or None when it can."""
    try:
        import chromadb  # noqa: F401
    except Exception as exc:  # ImportError, or e.g. an sqlite3 too old for it
        return f"{type(exc).__name__}: {exc}"
    return None


def embedding_function(embedder):
    """Our ONNX MiniLM as a chromadb EmbeddingFunction (queries only; documents come with vectors)."""
    from chromadb.api.types import EmbeddingFunction

    class BookragEmbedding(EmbeddingFunction):
        def __init__(self, embedder):
            self.embedder = embedder

        def __call__(self, input):
            return list(self.embedder.embed(list(input)))

        @staticmethod
        def name() -> str:
            return "bookrag-minilm-int8"

        def get_config(self) -> dict:
            return {"model_dir": str(self.embedder.model_dir)}

        @staticmethod
        def build_from_config(config: dict):
            from rag import Embedder

            return BookragEmbedding(Embedder(config["model_dir"]))

        def default_space(self) -> str:
            return "cosine"

    return BookragEmbedding(embedder)


def open_chroma(path: str, embedder):
    import chromadb

    client = chromadb.PersistentClient(path=path, settings=chromadb.Settings(anonymized_telemetry=False))
    return client, client.get_collection(COLLECTION, embedding_function=embedding_function(embedder))


def questions() -> list[dict]:
    return json.loads((ROOT / "tests" / "eval" / "questions.json").read_text())


def memory() -> dict[str, float]:
    """Resident and peak resident memory of this process in MiB (from /proc/self/status)."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def du(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --------------------------------------------------------------------------- subprocess roles
def role_build(args) -> dict:
    """Fill a Chroma collection with our chunks and our stored vectors."""
    import chromadb
    import numpy as np

    from rag import KnowledgeBase

    kb = KnowledgeBase(args.db)
    rows = kb.db.execute("SELECT c.id, c.content, v.embedding FROM chunks c "
                         "JOIN chunks_vec v ON v.rowid = c.rowid ORDER BY c.rowid").fetchall()
    ids = [r[0] for r in rows]
    docs = [r[1] for r in rows]
    vectors = np.stack([np.frombuffer(r[2], dtype=np.float32) for r in rows])
    assert vectors.shape[1] == kb.embedder.dim
    t = time.perf_counter()
    client = chromadb.PersistentClient(path=args.chroma_dir, settings=chromadb.Settings(anonymized_telemetry=False))
    collection = client.create_collection(COLLECTION, embedding_function=embedding_function(kb.embedder),
                                          configuration={"hnsw": {"space": "cosine"}})
    batch = client.get_max_batch_size()
    for start in range(0, len(ids), batch):
        collection.add(ids=ids[start:start + batch], documents=docs[start:start + batch],
                       embeddings=vectors[start:start + batch])
    return {"n": collection.count(), "seconds": time.perf_counter() - t,
            "configuration": {k: v for k, v in collection.configuration.items() if k == "hnsw"},
            "chromadb": chromadb.__version__}


def role_cold(args) -> dict:
    """import, load the model, open the store, answer one query: seconds of each, in this fresh process."""
    t0 = time.perf_counter()
    if args.side == "chroma":
        import chromadb  # noqa: F401
    import rag
    t_import = time.perf_counter()
    embedder = rag.Embedder(args.models)
    t_model = time.perf_counter()
    if args.side == "chroma":
        _, collection = open_chroma(args.chroma_dir, embedder)
        t_open = time.perf_counter()
        n = len(collection.query(query_texts=[COLD_QUERY], n_results=5)["ids"][0])
    else:
        kb = rag.KnowledgeBase(args.db, embedder=embedder)
        t_open = time.perf_counter()
        n = len(kb.search(COLD_QUERY, k=5).hits)
    t_query = time.perf_counter()
    return {"import": t_import - t0, "model": t_model - t_import, "open": t_open - t_model,
            "query": t_query - t_open, "total": t_query - t0, "results": n}


def role_rss(args) -> dict:
    """Resident memory after loading, and after args.rss_queries queries (the questions, cycled)."""
    import rag

    embedder = rag.Embedder(args.models)
    if args.side == "chroma":
        _, collection = open_chroma(args.chroma_dir, embedder)

        def ask(q):
            collection.query(query_texts=[q], n_results=5)
    else:
        kb = rag.KnowledgeBase(args.db, embedder=embedder)

        def ask(q):
            kb.search(q, k=5)
    ask(COLD_QUERY)
    loaded = memory()
    texts = [q["question"] for q in questions()]
    for i in range(args.rss_queries):
        ask(texts[i % len(texts)])
    after = memory()
    return {"loaded": loaded["VmRSS"], "after": after["VmRSS"], "peak": after["VmHWM"]}


def run_role(role: str, side: str, args, chroma_dir: str) -> tuple[dict, float]:
    """Run this script as `--role role --side side` in a fresh interpreter; (its JSON, wall seconds)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--role", role, "--side", side, "--db", args.db,
           "--models", args.models, "--chroma-dir", chroma_dir, "--rss-queries", str(args.rss_queries)]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{role}/{side} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1]), wall


# --------------------------------------------------------------------------- the comparison
def in_process(args, chroma_dir: str, texts: list[str]):
    """Query times (ms) of hybrid, dense and Chroma, interleaved per question; first-round results."""
    from rag import KnowledgeBase

    kb = KnowledgeBase(args.db, args.models)
    client, collection = open_chroma(chroma_dir, kb.embedder)
    runners = {
        "hybrid": lambda q: [h.chunk.id for h in kb.search(q, k=5).hits],
        "dense": lambda q: [h.chunk.id for h in kb.search(q, k=5, mode="dense").hits],
        "chroma": lambda q: collection.query(query_texts=[q], n_results=5)["ids"][0],
    }
    names = list(runners)
    for q in texts[:5]:  # warm up every path
        for name in names:
            runners[name](q)
    times = {name: [] for name in names}
    results = {name: [] for name in names}
    for round_no in range(args.rounds):
        for i, q in enumerate(texts):
            order = names[i % 3:] + names[:i % 3]  # rotate who goes first
            for name in order:
                t = time.perf_counter()
                ids = runners[name](q)
                times[name].append((time.perf_counter() - t) * 1000)
                if round_no == 0:
                    results[name].append(ids)
    pages = dict(kb.db.execute("SELECT id, page FROM chunks").fetchall())
    return times, results, pages


def recall_at_5(results: list[list[str]], qs: list[dict], pages: dict[str, int]) -> float:
    """Share of questions with a hit in the first five (rule of tests/eval/evaluate.py first_hit)."""
    hits = 0
    for ids, q in zip(results, qs):
        entities = set(q.get("expected_entities") or [])
        expected_pages = set(q.get("expected_pages") or [])
        if any(cid in entities or (expected_pages and pages.get(cid) in expected_pages) for cid in ids[:5]):
            hits += 1
    return hits / len(qs)


def mib(n_bytes: int) -> str:
    return f"{n_bytes / 2**20:.2f} MiB" if n_bytes >= 2**20 else f"{n_bytes / 1024:.1f} KiB"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--models", default=str(ROOT / "models"))
    parser.add_argument("--rounds", type=int, default=3, help="rounds over the questions for query times")
    parser.add_argument("--cold", type=int, default=5, help="cold starts of each side (median)")
    parser.add_argument("--rss-queries", type=int, default=300, help="queries before reading RSS")
    parser.add_argument("--keep", help="build the Chroma store in this directory and keep it")
    parser.add_argument("--role", choices=["build", "cold", "rss"], help=argparse.SUPPRESS)
    parser.add_argument("--side", choices=["ours", "chroma"], help=argparse.SUPPRESS)
    parser.add_argument("--chroma-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.db = str(Path(args.db).resolve())
    args.models = str(Path(args.models).resolve())

    if args.role:
        role = {"build": role_build, "cold": role_cold, "rss": role_rss}[args.role]
        print(json.dumps(role(args)))
        return 0

    reason = chroma_missing()
    if reason:
        print(f"bench_peer: SKIPPED, chromadb cannot be imported by {sys.executable}\n  ({reason}).\n"
              "  Run it from a venv that has it, e.g.:\n"
              "    python3 -m venv /work/venv-chroma && /work/venv-chroma/bin/pip install chromadb\n"
              f"    /work/venv-chroma/bin/pip install -e {ROOT}\n"
              f"    /work/venv-chroma/bin/python {Path(__file__).relative_to(ROOT)}")
        return 0

    qs = questions()
    texts = [q["question"] for q in qs]
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bookrag-chroma-"))
    chroma_dir = str(workdir / "chroma")
    if Path(chroma_dir).exists():
        shutil.rmtree(chroma_dir)
    try:
        build, build_wall = run_role("build", "chroma", args, chroma_dir)
        disk_ours = du(Path(args.db))
        disk_chroma = du(Path(chroma_dir))
        chroma_files = sorted((str(p.relative_to(chroma_dir)), p.stat().st_size)
                              for p in Path(chroma_dir).rglob("*") if p.is_file())

        cold = {"ours": [], "chroma": []}
        for _ in range(args.cold):  # interleaved, so load on the machine hits both alike
            for side in cold:
                result, wall = run_role("cold", side, args, chroma_dir)
                cold[side].append({**result, "wall": wall})
        rss = {side: run_role("rss", side, args, chroma_dir)[0] for side in ("ours", "chroma")}

        times, results, pages = in_process(args, chroma_dir, texts)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)

    recall = {name: recall_at_5(results[name], qs, pages) for name in results}
    same_top5 = sum(1 for a, b in zip(results["dense"], results["chroma"]) if a == b)
    same_set = sum(1 for a, b in zip(results["dense"], results["chroma"]) if set(a) == set(b))
    p50 = {name: statistics.median(v) for name, v in times.items()}
    p95 = {name: pct(v, 0.95) for name, v in times.items()}

    load = os.getloadavg()
    print(f"bookrag vs Chroma {build['chromadb']} (embedded PersistentClient) on {len(texts)} questions, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}")
    print(f"Chroma store: {build['n']} chunks with our vectors, {build['configuration']}, "
          f"built in {build['seconds']:.2f} s; RAG_QUERY_CACHE=0; python {sys.version.split()[0]}")
    print()
    print(f"query time, in process, one thread of queries, {args.rounds} rounds x {len(texts)} questions "
          "(same embedder on every side)")
    print(f"  {'':36} {'p50 ms':>8} {'p95 ms':>8} {'p50 / Chroma':>13} {'p95 / Chroma':>13} {'recall@5':>9}")
    labels = {"hybrid": "bookrag KnowledgeBase.search hybrid", "dense": "bookrag dense only (sqlite-vec)",
              "chroma": "Chroma collection.query (HNSW)"}
    for name in ("hybrid", "dense", "chroma"):
        print(f"  {labels[name]:36} {p50[name]:8.2f} {p95[name]:8.2f} {p50[name] / p50['chroma']:12.2f}x "
              f"{p95[name] / p95['chroma']:12.2f}x {recall[name]:9.3f}")
    print(f"  Chroma's top 5 vs our dense top 5 (same vectors): identical lists {same_top5}/{len(texts)}, "
          f"identical sets {same_set}/{len(texts)}")
    print()

    def med(side, key):
        return statistics.median(run[key] for run in cold[side])

    print(f"store and process, each measured in fresh subprocesses (cold: median of {args.cold})")
    print(f"  {'':44} {'bookrag':>12} {'Chroma':>12} {'Chroma / ours':>14}")
    rows = [
        ("cold: import (rag; + chromadb for Chroma)", med("ours", "import") * 1000, med("chroma", "import") * 1000, "ms"),
        ("cold: load the model", med("ours", "model") * 1000, med("chroma", "model") * 1000, "ms"),
        ("cold: open the store", med("ours", "open") * 1000, med("chroma", "open") * 1000, "ms"),
        ("cold: first query", med("ours", "query") * 1000, med("chroma", "query") * 1000, "ms"),
        ("cold: total in process", med("ours", "total") * 1000, med("chroma", "total") * 1000, "ms"),
        ("cold: Popen -> exit (interpreter included)", med("ours", "wall") * 1000, med("chroma", "wall") * 1000, "ms"),
        ("RSS after load + 1 query", rss["ours"]["loaded"], rss["chroma"]["loaded"], "MiB"),
        (f"RSS after {args.rss_queries} more queries", rss["ours"]["after"], rss["chroma"]["after"], "MiB"),
        ("peak RSS (VmHWM)", rss["ours"]["peak"], rss["chroma"]["peak"], "MiB"),
        ("size on disk", disk_ours / 2**20, disk_chroma / 2**20, "MiB"),
    ]
    for name, ours, theirs, unit in rows:
        print(f"  {name:44} {ours:8.1f} {unit:3} {theirs:8.1f} {unit:3} {theirs / ours:13.2f}x")
    print(f"  (knowledge.sqlite holds chunks, vectors, FTS5, graph and spell index: {mib(disk_ours)}; "
          f"the model, {mib(du(Path(args.models) / 'model.onnx'))}, is shared by both and not counted)")
    print("  Chroma directory: " + ", ".join(f"{name.split('/')[-1]} {mib(size)}" for name, size in chroma_files))
    print("  cold phases: chromadb's import already brings numpy in, which ours pays in 'load the model'; "
          "compare the totals")
    threshold = build["configuration"].get("hnsw", {}).get("sync_threshold")
    if threshold and build["n"] < threshold:
        print(f"  Chroma's hnsw sync_threshold ({threshold}) is above the {build['n']} chunks, so (its default) "
              "the vectors stay in chroma.sqlite3's log, the HNSW files hold almost none of them, and each "
              "new process rebuilds the index from the log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
