"""Search latency, side by side in one run: in-process (with the stage split), REST over HTTP, MCP.

    python tests/bench/bench_search.py [--db knowledge.sqlite] [--rounds 3]
    python tests/bench/bench_search.py --against /tmp/main     # this checkout vs another, side by side

Prints medians and p95 in milliseconds over the evaluation questions.  In-process search runs on
one thread; the server is started as its own process on a loopback port; the MCP figures come
from fastmcp's client over streamable HTTP.  This machine is noisy: compare ratios within a run.

--against DIR measures another checkout (its rag.py, models and knowledge.sqlite, e.g. the main
branch unpacked with `git archive main | tar -x -C DIR`) in the same run: its in-process search in
a child process that imports it and its own server, the two versions taking turns query by query,
then both versions' p50/p95 and the ratio.
"""

from __future__ import annotations

import argparse
import os
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' server harness (conftest.start_server)

os.environ["RAG_QUERY_CACHE"] = "0"  # every query is embedded, here and in the server we start

from rag import KnowledgeBase  # noqa: E402


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def line(name, values):
    return f"  {name:34} p50 {statistics.median(values):7.2f} ms   p95 {pct(values, 0.95):7.2f} ms   n={len(values)}"


def in_process(kb, queries, rounds):
    stages = {s: [] for s in ("tokenize", "embed", "knn", "fts", "fuse", "expand")}
    totals = []
    for _ in range(rounds):
        for q in queries:
            t = time.perf_counter()
            kb.embedder.tokenizer.encode(q)
            stages["tokenize"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            result = kb.search(q, k=5)
            totals.append((time.perf_counter() - t) * 1000)
            for key, value in result.timings_ms.items():
                stages[key].append(value)
    return totals, stages


OTHER_IN_PROCESS = """
import json, sys, time
root, db = sys.argv[1], sys.argv[2]
from rag import KnowledgeBase
kb = KnowledgeBase(db)
kb.search("warm up", k=5)
print("ready", flush=True)
for line in sys.stdin:
    q = json.loads(line)
    t = time.perf_counter()
    kb.search(q, k=5)
    print((time.perf_counter() - t) * 1000, flush=True)
"""


class OtherInProcess:
    """Another checkout's KnowledgeBase in a child process that imports it: one query in, its
    in-process search time out, so the two versions can take turns query by query."""

    def __init__(self, root: Path, db: Path):
        import subprocess

        # Run in the other checkout's folder: `python -c` puts the working folder first on the
        # import path, so its rag.py is the one imported.
        self.proc = subprocess.Popen([sys.executable, "-c", OTHER_IN_PROCESS, str(root), str(db)], cwd=str(root),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def search_ms(self, query: str) -> float:
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def side_by_side(args, kb, queries) -> None:
    """This checkout and args.against, taking turns round by round: in process, then over HTTP."""
    import http.client

    from conftest import start_server

    other = Path(args.against)
    other_db = Path(args.against_db or other / "knowledge.sqlite")
    times = {"this": {"in-process": [], "http": []}, "other": {"in-process": [], "http": []}}
    child = OtherInProcess(other, other_db)
    try:
        for r in range(args.rounds):
            for q in queries:   # query by query, taking turns, so load drift hits both versions alike
                for name in (("this", "other") if r % 2 == 0 else ("other", "this")):
                    if name == "other":
                        times["other"]["in-process"].append(child.search_ms(q))
                    else:
                        t = time.perf_counter()
                        kb.search(q, k=5)
                        times["this"]["in-process"].append((time.perf_counter() - t) * 1000)
    finally:
        child.close()
    env = {"RAG_RATE_LIMIT": "1000/second", "RAG_ACCESS_LOG": "0"}
    servers = {"this": start_server("--db", args.db, env=env),
               "other": start_server("--db", str(other_db), env=env, root=other)}
    try:
        conns = {name: http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]))
                 for name, (_, base) in servers.items()}

        def post(name, body):
            conn = conns[name]
            t = time.perf_counter()
            conn.request("POST", "/search/semantic", body=json.dumps(body), headers={"content-type": "application/json"})
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
            return (time.perf_counter() - t) * 1000

        for name in conns:
            post(name, {"query": "warm up"})
        for r in range(args.rounds):
            for q in queries:   # query by query, taking turns (first one, then the other), so load drift hits both
                for name in (("this", "other") if r % 2 == 0 else ("other", "this")):
                    times[name]["http"].append(post(name, {"query": q, "k": 5}))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait()
    print(f"{len(queries)} queries x {args.rounds} rounds, side by side: this checkout ({args.db}) "
          f"vs {other} ({other_db})")
    for what in ("in-process", "http"):
        a, b = times["this"][what], times["other"][what]
        print(f"  {what:11} this  p50 {statistics.median(a):6.2f} ms  p95 {pct(a, 0.95):6.2f} ms   "
              f"other p50 {statistics.median(b):6.2f} ms  p95 {pct(b, 0.95):6.2f} ms   "
              f"p95 ratio {pct(a, 0.95) / pct(b, 0.95):.2f}")


def over_http(queries, rounds):
    """REST through a keep-alive http.client connection (a lean client, so the figures are the
    service's: httpx alone adds about 2 ms a request here); MCP through fastmcp's client."""
    import http.client

    from conftest import start_server

    proc, base = start_server(env={"RAG_RATE_LIMIT": "1000/second", "RAG_ACCESS_LOG": "0"})
    try:
        conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]))

        def post(path, body):
            conn.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status

        post("/search/semantic", {"query": "warm up"})
        times, scoped = [], []
        for _ in range(rounds):
            for q in queries:
                t = time.perf_counter()
                post("/search/semantic", {"query": q, "k": 5})
                times.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                post("/api/rag/search", {"query": q, "scope": "entire_book"})
                scoped.append((time.perf_counter() - t) * 1000)

        async def mcp():
            from fastmcp.client import Client, StreamableHttpTransport

            out = []
            async with Client(StreamableHttpTransport(base + "/mcp")) as c:
                await c.call_tool("search_knowledge_base", {"query": "warm up"})
                for _ in range(rounds):
                    for q in queries:
                        t = time.perf_counter()
                        await c.call_tool("search_knowledge_base", {"query": q, "k": 5})
                        out.append((time.perf_counter() - t) * 1000)
            return out

        return times, scoped, asyncio.run(mcp())
    finally:
        proc.terminate()
        proc.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", help="another checkout to measure side by side (e.g. main unpacked)")
    parser.add_argument("--against-db", help="its knowledge file (default: DIR/knowledge.sqlite)")
    args = parser.parse_args(argv)
    queries = [q["question"] for q in json.loads((ROOT / "tests" / "eval" / "questions.json").read_text())]
    t = time.perf_counter()
    kb = KnowledgeBase(args.db)
    load_ms = (time.perf_counter() - t) * 1000
    kb.search("warm up", k=5)
    if args.against:
        side_by_side(args, kb, queries)
        return
    totals, stages = in_process(kb, queries, args.rounds)
    http, scoped, mcp = over_http(queries, args.rounds)
    print(f"{len(queries)} queries x {args.rounds} rounds on {kb.title!r}; knowledge base opened in {load_ms:.0f} ms")
    print("in-process KnowledgeBase.search (one thread):")
    print(line("total", totals))
    for name, values in stages.items():
        print(line(f"  {name}", values))
    print("over loopback HTTP (one client; REST via http.client keep-alive, MCP via fastmcp):")
    print(line("POST /search/semantic", http))
    print(line("POST /api/rag/search (entire_book)", scoped))
    print(line("MCP search_knowledge_base (fastmcp)", mcp))
    print(f"  HTTP p50 / in-process p50 = {statistics.median(http) / statistics.median(totals):.2f}x")


if __name__ == "__main__":
    main()
