"""Steady state over loopback HTTP: latency with 1 and 16 concurrent clients, throughput, server RSS.

    python tests/bench/bench_http.py [--seconds 20] [--workers 1 2]

For each worker count: one client sending the evaluation questions in turn (a lean keep-alive
http.client connection, then an httpx one, which costs about 1 ms more), then 16 concurrent httpx
clients for a fixed time (the loop stops by itself); p50/p95/p99, searches per second, and the
server's resident memory (all its processes) before and after.  Query-vector cache off.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (workers), from /proc."""
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                                                   text=True).stdout.split()]
    total = 0
    for p in pids:
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total / 1024


async def clients(base: str, queries: list[str], n: int, seconds: float) -> tuple[list[float], int]:
    import httpx

    times: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds

    async def one(i: int):
        nonlocal errors
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            j = i
            while time.perf_counter() < stop:
                t = time.perf_counter()
                r = await c.post("/search/semantic", json={"query": queries[j % len(queries)], "k": 5})
                times.append((time.perf_counter() - t) * 1000)
                errors += r.status_code != 200
                j += 1

    await asyncio.gather(*(one(i) for i in range(n)))
    return times, errors


def lean_client(base: str, queries: list[str], seconds: float) -> tuple[list[float], int]:
    """One keep-alive http.client connection: what the service takes, with little client cost on top."""
    import http.client
    from urllib.parse import urlsplit

    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    times: list[float] = []
    errors, j = 0, 0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        body = json.dumps({"query": queries[j % len(queries)], "k": 5})
        t = time.perf_counter()
        conn.request("POST", "/search/semantic", body=body, headers={"content-type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        times.append((time.perf_counter() - t) * 1000)
        errors += resp.status != 200
        j += 1
    conn.close()
    return times, errors


def main(argv=None):
    from conftest import start_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[1])
    args = parser.parse_args(argv)
    queries = [q["question"] for q in json.loads((ROOT / "tests" / "eval" / "questions.json").read_text())]
    import httpx

    for workers in args.workers:
        proc, base = start_server(env={"RAG_QUERY_CACHE": "0", "RAG_ACCESS_LOG": "0"},
                                  serve_args=("--workers", str(workers)))
        try:
            for q in queries[:20]:
                httpx.post(base + "/search/semantic", json={"query": q})
            before = rss_mb(proc.pid)
            lean, err0 = lean_client(base, queries, args.seconds / 2)
            single, err1 = asyncio.run(clients(base, queries, 1, args.seconds / 2))
            many, err16 = asyncio.run(clients(base, queries, 16, args.seconds))
            after = rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait()
        print(f"{workers} worker(s):")
        for name, values, errors, secs in (("1 client (http.client)", lean, err0, args.seconds / 2),
                                           ("1 client (httpx)", single, err1, args.seconds / 2),
                                           ("16 clients", many, err16, args.seconds)):
            print(f"  {name:22} p50 {statistics.median(values):6.1f} ms  p95 {pct(values, .95):6.1f} ms  "
                  f"p99 {pct(values, .99):6.1f} ms  {len(values) / secs:6.0f} searches/s  errors {errors}")
        print(f"  server RSS {before:.0f} MB after warm-up, {after:.0f} MB after the run "
              f"({(after - before) / before * 100:+.1f}%)")


if __name__ == "__main__":
    main()
