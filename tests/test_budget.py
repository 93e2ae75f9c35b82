"""A bounded request (issue 23): work past RAG_REQUEST_BUDGET stops and answers 503 in each route's
format, other requests go on meanwhile, and a stop signal ends the process within seconds.

Every server here is a real `rag.py serve` process; the slow requests are real ones (an answer
from 200 passages of selected text embeds each passage, one model run each).
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time

import httpx
import pytest

from conftest import HTTP, start_server

# A paragraph of about 80 words; 200 of them are the most /ask and retrieve_content read as passages.
PARAGRAPH = ("A policy maps each state to an action, and its value is the expected discounted sum of the "
             "rewards it collects from that state onward. Value iteration repeats the Bellman backup over "
             "every state until the largest change falls below a threshold, and the greedy policy of the "
             "result is then close to optimal. Policy iteration alternates evaluation and improvement, and "
             "it stops when the policy no longer changes between two rounds of the loop.")
SELECTED = "\n\n".join(f"{n}. {PARAGRAPH}" for n in range(200))
SLOW_TOOL = {"query": "when does value iteration stop", "top_k": 3, "selected_text_only": True,
             "selected_text_content": SELECTED}


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except Exception:
        proc.kill()


@pytest.fixture(scope="module")
def no_time():
    """A server whose budget (1 ms) every search and answer exceeds."""
    proc, base = start_server(env={"RAG_REQUEST_BUDGET": "0.001"})
    yield base
    stop(proc)


def test_each_route_answers_a_stopped_request_in_its_own_format(no_time):
    with httpx.Client(base_url=no_time, timeout=30) as c:
        query = "value iteration convergence " * 60  # a long query: its embedding alone outlasts 1 ms
        semantic = c.post("/search/semantic", json={"query": query[:2000], "k": 5})
        assert semantic.status_code == 503, semantic.text
        body = semantic.json()
        assert body["error_code"] == "TIME_BUDGET_EXCEEDED" and body["status_code"] == 503
        assert "time budget" in body["detail"] and semantic.headers["Retry-After"] == "1"

        spec03 = c.post("/api/rag/search", json={"query": query[:500], "scope": "entire_book"})
        assert spec03.status_code == 503, spec03.text
        body = spec03.json()
        assert body["details"][0]["code"] == "TIME_BUDGET_EXCEEDED" and body["retry_after"] == 1
        assert spec03.headers["Retry-After"] == "1"

        ask = c.post("/ask", json={"query": "What is value iteration?"})
        assert ask.status_code == 503, ask.text
        assert ask.json()["error_type"] == "service_unavailable" and ask.json()["fallback_action"] == "retry"
        assert "time budget" in ask.json()["message"] and ask.headers["Retry-After"] == "1"

        tool = c.post("/tools/retrieve_content", json={"query": "value iteration", "top_k": 3})
        assert tool.status_code == 503, tool.text
        assert tool.json()["fallback_action"] == "retry"

        # What does no searching is still answered.
        health = c.get("/health")
        assert health.status_code == 200 and health.json()["status"] == "ok"


def test_an_mcp_search_past_its_budget_is_a_tool_error(no_time):
    from fastmcp.client import Client, StreamableHttpTransport

    async def go():
        async with Client(StreamableHttpTransport(no_time + "/mcp")) as client:
            return await client.call_tool("search_knowledge_base", {"query": "value iteration", "k": 3},
                                          raise_on_error=False)

    result = asyncio.run(go())
    assert result.is_error
    assert "time budget" in result.content[0].text


def test_a_long_request_stops_at_its_budget_while_others_are_answered():
    proc, base = start_server(env={"RAG_REQUEST_BUDGET": "1", "RAG_SEARCH_THREADS": "2"})
    try:
        outcome = {}

        def slow():
            started = time.monotonic()
            r = HTTP.post(base + "/tools/retrieve_content", json=SLOW_TOOL, timeout=120)
            outcome.update(status=r.status_code, body=r.json(), seconds=time.monotonic() - started)

        worker = threading.Thread(target=slow)
        worker.start()
        time.sleep(0.3)
        answered = []
        while worker.is_alive() and len(answered) < 20:
            r = HTTP.post(base + "/search/semantic", json={"query": "value iteration", "k": 3}, timeout=60)
            answered.append(r.status_code)
        worker.join(timeout=120)
        assert outcome["status"] == 503, outcome
        assert outcome["body"]["fallback_action"] == "retry"
        assert outcome["seconds"] < 1 + 10  # its budget, plus a generous allowance for a busy machine
        assert answered and set(answered) == {200}, answered
    finally:
        stop(proc)


def test_a_stop_signal_ends_the_process_within_seconds_whatever_is_in_flight():
    proc, base = start_server(env={"RAG_REQUEST_BUDGET": "600", "RAG_SEARCH_THREADS": "1"})
    try:
        started = time.monotonic()
        first = HTTP.post(base + "/tools/retrieve_content", json=SLOW_TOOL, timeout=120)
        one = time.monotonic() - started
        assert first.status_code == 200, first.text
        # Enough of them queued on the one worker that they would run for a minute or more.
        count = max(4, int(60 / max(one, 0.05)) + 1)
        finished = []

        def send():
            try:
                finished.append(HTTP.post(base + "/tools/retrieve_content", json=SLOW_TOOL, timeout=300).status_code)
            except httpx.HTTPError:
                finished.append("cut")

        senders = [threading.Thread(target=send, daemon=True) for _ in range(count)]
        for t in senders:
            t.start()
        time.sleep(min(1.0, one / 2))
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        exited = time.monotonic() - signalled
        assert exited < 10, f"the process took {exited:.1f} s to stop after SIGTERM"
        assert len([s for s in finished if s == 200]) < count, "the work did not outlast the stop: no test"
    finally:
        if proc.poll() is None:
            proc.kill()
