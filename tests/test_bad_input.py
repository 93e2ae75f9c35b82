"""Hostile and malformed input on every route: always the route's documented 4xx, never a 500."""

from __future__ import annotations

import json

import pytest

ROUTES = {  # route -> (a valid body, the keys of its error body)
    "/search/semantic": ({"query": "value iteration"}, {"detail", "status_code", "error_code", "timestamp"}),
    "/search/expand-graph": ({"document_ids": ["algorithm_5_3"]}, {"detail", "status_code", "error_code", "timestamp"}),
    "/api/rag/search": ({"query": "value iteration", "scope": "entire_book"}, {"error", "details", "timestamp"}),
    "/ask": ({"query": "What is CVaR?"}, {"status", "error_type", "message", "fallback_action"}),
    "/tools/retrieve_content": ({"query": "CVaR"}, {"status", "error_type", "message", "fallback_action"}),
}

RAW_BODIES = {
    "invalid utf-8": b'{"query": "\xff\xfe value"}',
    "nul byte in json": b'{"query": "val\x00ue"}',
    "truncated": b'{"query": "value',
    "not an object": b'["query"]',
    "deeply nested": b'{"query": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "megabyte": b'{"query": "' + b"a" * 1_100_000 + b'"}',
    "empty": b"",
}


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("name", sorted(RAW_BODIES))
def test_raw_bodies(client, route, name):
    resp = client.post(route, content=RAW_BODIES[name], headers={"content-type": "application/json",
                                                                 "X-Session-ID": f"bad-{route}-{name}"})
    assert 400 <= resp.status_code < 500, (route, name, resp.status_code, resp.text[:200])
    assert ROUTES[route][1] <= set(resp.json()), resp.text[:300]


@pytest.mark.parametrize("field, value", [
    ("k", -1), ("k", 10**18), ("k", 2.5), ("k", "5"), ("k", None), ("query", "\x00\x00\x00"),
    ("query", 42), ("query", ["a", "b"]), ("filters", {"chapter": {"$ne": 1}}), ("filters", "chapter=1"),
    ("traverse_types", "formula"), ("traverse_types", [1, 2]), ("surprise", True),
])
def test_semantic_search_fields(client, field, value):
    resp = client.post("/search/semantic", json={"query": "value iteration", field: value})
    if field == "query" and value == "\x00\x00\x00":
        assert resp.status_code in (200, 400)  # three characters, searched as plain text
    else:
        assert resp.status_code == 400, (field, value, resp.text)
    assert resp.status_code < 500


def test_counts_and_lengths_follow_json_rules(client):
    # JSON has one number type: 3.0 is the integer 3, as the OpenAPI document's "integer" allows.
    assert client.post("/search/semantic", json={"query": "value iteration", "k": 3.0}).json()["total_count"] == 3
    # Lengths are counted as sent, so padding cannot smuggle in a longer query than documented.
    padded = " " * 1990 + "value iteration"
    resp = client.post("/search/semantic", json={"query": padded})
    assert resp.status_code == 400 and resp.json()["detail"] == "query must be at most 2000 characters"
    resp = client.post("/api/rag/search", json={"query": " " * 499 + "ok", "scope": "entire_book"},
                       headers={"X-Session-ID": "padded"})
    assert resp.status_code == 422
    # A field of the wrong type is an error even where the mode would ignore it.
    resp = client.post("/tools/retrieve_content", json={"query": "value iteration", "selected_text_content": {}})
    assert resp.status_code == 400
    assert client.post("/ask", json={"query": "value iteration", "mode": {}}).status_code == 400


@pytest.mark.parametrize("ident", ["x'; DROP TABLE chunks;--", "algorithm_1_1' OR '1'='1", "../../etc/passwd",
                                   "a" * 500, "\u202eevil", "chunk_%00"])
def test_ids_with_sql_or_junk(client, ident):
    resp = client.post("/search/expand-graph", json={"document_ids": [ident]})
    assert resp.status_code in (200, 400)
    if resp.status_code == 200:
        assert resp.json()["expanded_documents"] == [] and resp.json()["warnings"]


@pytest.mark.parametrize("path", ["/entity/algorithm/1%27%20OR%201=1", "/entity/formula/%00", "/entity/%2e%2e/3.2",
                                  "/entity/table/" + "9" * 300, "/entity/figure/A.1.2.3.4.5"])
def test_entity_paths(client, path):
    resp = client.get(path)
    assert resp.status_code in (400, 404), (path, resp.status_code)
    assert {"detail", "status_code", "error_code", "timestamp"} <= set(resp.json())


def test_fts_syntax_through_every_search_route(client):
    for query in ['NEAR(value iteration)', 'policy* OR ^bellman', '"unbalanced', 'a:b AND NOT c']:
        assert client.post("/search/semantic", json={"query": query}).status_code == 200
        assert client.post("/api/rag/search", json={"query": query, "scope": "entire_book"},
                           headers={"X-Session-ID": "fts"}).status_code == 200
        assert client.post("/ask", json={"query": query}).status_code == 200


def test_service_still_answers_afterwards(client):
    assert client.post("/search/semantic", json={"query": "value iteration"}).json()["total_count"] == 5
    assert json.loads(client.get("/health").text)["status"] == "ok"
