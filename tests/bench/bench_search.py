"""Search latency, side by side in one run: in-process (with the stage split), REST over HTTP, MCP.

    python tests/bench/bench_search.py [--db knowledge.sqlite] [--rounds 3]

Prints medians and p95 in milliseconds over the evaluation questions.  In-process search runs on
one thread; the server is started as its own process on a loopback port; the MCP figures come
from fastmcp's client over streamable HTTP.  This machine is noisy: compare ratios within a run.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

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
    args = parser.parse_args(argv)
    queries = [q["question"] for q in json.loads((ROOT / "tests" / "eval" / "questions.json").read_text())]
    t = time.perf_counter()
    kb = KnowledgeBase(args.db)
    load_ms = (time.perf_counter() - t) * 1000
    kb.search("warm up", k=5)
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
