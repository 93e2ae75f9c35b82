"""A bounded mixed load run on loopback: 16 clients for a fixed time; errors, latency, RSS growth.

    python tests/bench/bench_load.py [--clients 16] [--seconds 60]

Each client loops over a mix of spec 01 search, entity and expansion calls, spec 03 search and an
MCP tools/call, until the time is up (the loop stops by itself; only 127.0.0.1 is contacted).
Prints errors (anything not 2xx/3xx), p50/p95/p99 per kind, and the server's RSS after warm-up
and at the end (target: 0 errors, growth at most 10%).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from bench_http import pct, rss_mb  # noqa: E402


def requests_for(i: int, queries: list[str], entities: list[tuple[str, str]]):
    q = queries[i % len(queries)]
    kind, number = entities[i % len(entities)]
    return [
        ("search", "POST", "/search/semantic", {"query": q, "k": 5}),
        ("entity", "GET", f"/entity/{kind}/{number}", None),
        ("expand", "POST", "/search/expand-graph", {"document_ids": [f"{kind}_{number.replace('.', '_')}"]}),
        ("spec03", "POST", "/api/rag/search", {"query": q, "scope": "entire_book"}),
        ("mcp", "POST", "/mcp", {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                 "params": {"name": "search_knowledge_base", "arguments": {"query": q, "k": 3}}}),
    ][i % 5]


async def run(base: str, clients: int, seconds: float, queries, entities):
    import httpx

    times: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    stop = time.perf_counter() + seconds

    async def client(c: int):
        headers = {"X-Session-ID": f"load-{c}", "accept": "application/json, text/event-stream",
                   "mcp-protocol-version": "2025-11-25"}
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as http:
            i = c
            while time.perf_counter() < stop:
                name, method, path, body = requests_for(i, queries, entities)
                t = time.perf_counter()
                try:
                    resp = await http.request(method, path, json=body)
                    ok = resp.status_code < 400 and not (name == "mcp" and "error" in resp.json())
                except Exception:
                    ok = False
                times[name].append((time.perf_counter() - t) * 1000)
                errors[name] += not ok
                i += clients

    await asyncio.gather(*(client(c) for c in range(clients)))
    return times, errors


def main(argv=None):
    from conftest import start_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args(argv)
    queries = [q["question"] for q in json.loads((ROOT / "tests" / "eval" / "questions.json").read_text())]
    entities = [tuple(line.split("|")[:2]) for line in (ROOT / "book" / "labels.txt").read_text().splitlines()]
    entities = [("formula" if k == "equation" else k, n) for k, n in entities]
    # A short rate-limit window keeps the limiter's per-session history small under load.
    proc, base = start_server(env={"RAG_ACCESS_LOG": "0", "RAG_RATE_LIMIT": "1000/second"})
    try:
        asyncio.run(run(base, args.clients, min(10.0, args.seconds / 4), queries, entities))  # warm-up
        before = rss_mb(proc.pid)
        times, errors = asyncio.run(run(base, args.clients, args.seconds, queries, entities))
        after = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
    total = sum(len(v) for v in times.values())
    print(f"{args.clients} clients for {args.seconds:.0f} s: {total} requests ({total / args.seconds:.0f}/s), "
          f"errors {sum(errors.values())}")
    for name, values in sorted(times.items()):
        print(f"  {name:7} n={len(values):5}  p50 {statistics.median(values):6.1f} ms  p95 {pct(values, .95):6.1f} ms"
              f"  p99 {pct(values, .99):6.1f} ms  errors {errors[name]}")
    print(f"  server RSS {before:.0f} MB after warm-up, {after:.0f} MB at the end ({(after - before) / before * 100:+.1f}%)")


if __name__ == "__main__":
    main()
