"""Concurrency: REST and MCP searches at once share the worker pool safely; several workers serve."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import httpx

from conftest import HTTP, ROOT, start_server

MCP_HEADERS = {"accept": "application/json, text/event-stream"}


QUERIES = ["value iteration", "belief update", "newsvendor critical ratio", "policy gradient",
           "Bellman equation", "safety stock", "conditional value at risk", "Q-learning"]


def test_one_knowledge_base_searched_from_several_threads():
    """MCP tools, the worker pool and the event loop all search one KnowledgeBase from their own threads."""
    from rag import KnowledgeBase

    kb = KnowledgeBase()
    questions = [q["question"] for q in json.loads((ROOT / "tests/eval/questions.json").read_text())]
    errors: list[str] = []

    def searches(t: int) -> None:
        for i in range(150):
            try:  # the book's questions, typos included (the spelling path has its own queries)
                hits = kb.search(questions[(t * 37 + i) % len(questions)] + f" {i}", k=5).hits
                assert len(hits) == 5
                kb.references_of(hits[0].chunk.id)
            except Exception as exc:  # collected, so the test reports what failed and how often
                errors.append(f"{type(exc).__name__}: {exc}")

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(searches, range(4)))
    assert not errors, (len(errors), errors[:3])


def test_rest_and_mcp_searches_at_once(server):
    """Both paths search the same knowledge base from different threads: no call may fail.

    (Before the shared pool and per-thread connections, an MCP tool thread and a REST search could
    meet on one SQLite connection and the tool failed with a threading error.)
    """
    def rest(i: int) -> bool:
        resp = HTTP.post(server + "/search/semantic", json={"query": QUERIES[i % 8], "k": 3}, timeout=30)
        return resp.status_code == 200 and resp.json()["total_count"] == 3

    def mcp(i: int) -> bool:
        resp = HTTP.post(server + "/mcp", headers=MCP_HEADERS, timeout=30, json={
            "jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "search_knowledge_base", "arguments": {"query": QUERIES[i % 8], "k": 3}}})
        body = resp.json()
        return resp.status_code == 200 and not body["result"].get("isError") and len(
            body["result"]["structuredContent"]["result"]) == 3

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(lambda i: (rest if i % 2 else mcp)(i), range(160)))
    assert outcomes.count(False) == 0


def test_two_worker_processes_serve():
    proc, base = start_server(serve_args=("--workers", "2"))
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            for query in ["value iteration", "belief update", "safety stock", "Q-learning"] * 3:
                assert client.post("/search/semantic", json={"query": query, "k": 2}).json()["total_count"] == 2
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_app_does_not_load_pydantic():
    """Litestar loads its pydantic and attrs plugins whenever pydantic is installed (the MCP SDK needs
    it); our app uses neither, and skipping them is a tenth of a second of cold start."""
    probe = "import sys, rag; rag.create_app(); print(sorted(m for m in ('pydantic', 'attrs') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
