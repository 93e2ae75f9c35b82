"""Access control: the optional API key (401 in each route's format) and the CORS allowlist."""

from __future__ import annotations

import asyncio

import pytest

from conftest import HTTP, start_server

KEY = "s3cret-key-for-tests"
ORIGIN = "https://app.example.org"


@pytest.fixture(scope="module")
def guarded():
    proc, base = start_server(env={"RAG_API_KEY": KEY, "RAG_CORS_ORIGINS": ORIGIN})
    yield base, proc
    proc.terminate()
    proc.wait()


def test_health_needs_no_key(guarded):
    base, _ = guarded
    assert HTTP.get(base + "/health").status_code == 200


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"X-API-Key": KEY[:-1]},
                                     {"Authorization": KEY}])
def test_rest_routes_need_the_key(guarded, headers):
    base, _ = guarded
    resp = HTTP.post(base + "/search/semantic", json={"query": "value iteration"}, headers=headers)
    assert resp.status_code == 401 and resp.headers["www-authenticate"] == "Bearer"
    assert set(resp.json()) == {"detail", "status_code", "error_code", "timestamp"}
    assert resp.json()["error_code"] == "UNAUTHORIZED" and KEY not in resp.text
    assert HTTP.get(base + "/entity/algorithm/5.3", headers=headers).status_code == 401


@pytest.mark.parametrize("headers", [{"Authorization": f"Bearer {KEY}"}, {"X-API-Key": KEY}])
def test_the_key_opens_every_route(guarded, headers):
    base, _ = guarded
    assert HTTP.post(base + "/search/semantic", json={"query": "value iteration"}, headers=headers).status_code == 200
    assert HTTP.get(base + "/entity/algorithm/5.3", headers=headers).status_code == 200
    assert HTTP.post(base + "/api/rag/search", json={"query": "x", "scope": "entire_book"},
                      headers=headers).status_code == 200
    assert HTTP.post(base + "/ask", json={"query": "What is CVaR?"}, headers=headers).status_code == 200


def test_401_in_each_routes_format(guarded):
    base, _ = guarded
    spec03 = HTTP.post(base + "/api/rag/search", json={"query": "x", "scope": "entire_book"})
    assert spec03.status_code == 401 and spec03.json()["details"][0]["code"] == "UNAUTHORIZED"
    assert spec03.json()["request_id"] == spec03.headers["x-request-id"]
    spec05 = HTTP.post(base + "/ask", json={"query": "What is CVaR?"})
    assert spec05.status_code == 401 and spec05.json()["error_type"] == "unauthorized"
    mcp = HTTP.post(base + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert mcp.status_code == 401


def test_mcp_client_with_the_key(guarded):
    from fastmcp.client import Client, StreamableHttpTransport

    base, _ = guarded

    async def go():
        transport = StreamableHttpTransport(base + "/mcp", headers={"Authorization": f"Bearer {KEY}"})
        async with Client(transport) as client:
            return await client.call_tool("search_knowledge_base", {"query": "belief update", "k": 2})

    assert len(asyncio.run(go()).structured_content["result"]) == 2


def test_cors_allowlist(guarded):
    base, _ = guarded
    allowed = HTTP.get(base + "/health", headers={"Origin": ORIGIN})
    assert allowed.headers.get("access-control-allow-origin") == ORIGIN
    other = HTTP.get(base + "/health", headers={"Origin": "https://evil.example.com"})
    assert "access-control-allow-origin" not in other.headers
    preflight = HTTP.options(base + "/search/semantic", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,authorization"})
    assert preflight.status_code in (200, 204)
    assert preflight.headers.get("access-control-allow-origin") == ORIGIN


def test_no_cors_headers_by_default(client):
    assert "access-control-allow-origin" not in client.get("/health", headers={"Origin": ORIGIN}).headers


def test_the_key_never_reaches_the_log(guarded):
    base, proc = guarded
    HTTP.get(base + "/health", headers={"Authorization": f"Bearer {KEY}"})
    proc.log.flush()
    proc.log.seek(0)
    assert KEY not in proc.log.read()


# ---- /mcp's Host check (DNS-rebinding protection) follows the bind address

@pytest.mark.parametrize("bind, allowed, expected", [
    ("127.0.0.1", None, ["localhost", "127.0.0.1", "[::1]"]),
    ("::1", None, ["localhost", "127.0.0.1", "[::1]"]),
    ("localhost", None, ["localhost", "127.0.0.1", "[::1]"]),
    (None, None, ["localhost", "127.0.0.1", "[::1]"]),   # not served by rag.py (tests, Lambda): the safe default
    ("0.0.0.0", None, None),                             # a container: any Host (rag-service:8001)
    ("::", None, None),
    ("192.168.1.20", None, None),
    ("0.0.0.0", "rag-service,localhost", ["rag-service", "localhost"]),   # an allowlist wins
    ("127.0.0.1", "*", None),
])
def test_mcp_host_policy(monkeypatch, bind, allowed, expected):
    from rag_mcp import mcp_host_policy

    if allowed is None:
        monkeypatch.delenv("RAG_MCP_ALLOWED_HOSTS", raising=False)
    else:
        monkeypatch.setenv("RAG_MCP_ALLOWED_HOSTS", allowed)
    assert mcp_host_policy(bind) == expected


def test_allowlist_wins_on_a_service_bound_to_every_interface():
    proc, base = start_server(host="0.0.0.0", env={"RAG_MCP_ALLOWED_HOSTS": "rag-service"})
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"Accept": "application/json, text/event-stream"}
        port = base.rsplit(":", 1)[1]
        # The first /mcp request starts the MCP servers: allow for a busy machine.
        listed = HTTP.post(base + "/mcp", json=body, headers={**headers, "Host": f"rag-service:{port}"}, timeout=60)
        other = HTTP.post(base + "/mcp", json=body, headers={**headers, "Host": f"evil.example:{port}"}, timeout=60)
        assert listed.status_code == 200 and other.status_code == 421
    finally:
        proc.terminate()
        proc.wait(timeout=10)
