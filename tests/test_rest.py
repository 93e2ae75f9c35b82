"""Spec 01 over real HTTP: every validation rule, every status code, the error body."""

from __future__ import annotations

import pytest

ERROR_KEYS = {"detail", "status_code", "error_code", "timestamp"}


def assert_error(resp, status: int, contains: str):
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == ERROR_KEYS, body
    assert body["status_code"] == status
    assert contains in body["detail"], body["detail"]
    return body


def test_health(client):
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["service"] == "rag-service"
    assert body["timestamp"].endswith("Z")
    assert body["book"]
    assert body["counts"]["text"] > 0 and body["counts"]["algorithm"] > 0


def test_search_returns_k_results_sorted_with_pages(client):
    resp = client.post("/search/semantic", json={"query": "POMDP belief state update", "k": 5})
    assert resp.status_code == 200
    body = resp.json()
    assert body["total_count"] == len(body["results"]) == 5
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)
    for r in body["results"]:
        assert {"id", "type", "content", "number", "title", "chapter", "section", "page_number",
                "pdf_page", "score"} <= set(r)
        assert isinstance(r["page_number"], int) and isinstance(r["pdf_page"], int)
        assert 0.0 <= r["score"] <= 1.0


def test_search_default_k_is_5(client):
    body = client.post("/search/semantic", json={"query": "expected utility"}).json()
    assert body["total_count"] == 5


@pytest.mark.parametrize("query", ["", "  ", "ab"])
def test_query_too_short(client, query):
    assert_error(client.post("/search/semantic", json={"query": query}), 400,
                 "query must be at least 3 characters")


def test_query_missing(client):
    assert_error(client.post("/search/semantic", json={"k": 3}), 400, "query is required")


@pytest.mark.parametrize("k", [0, 21, -1, 1000])
def test_k_out_of_range(client, k):
    assert_error(client.post("/search/semantic", json={"query": "value iteration", "k": k}), 400,
                 "k must be between 1 and 20")


@pytest.mark.parametrize("k", ["five", 2.5, None, [1]])
def test_k_not_an_integer(client, k):
    assert_error(client.post("/search/semantic", json={"query": "value iteration", "k": k}), 400,
                 "k must be")


def test_traverse_types_invalid(client):
    body = assert_error(client.post("/search/semantic", json={"query": "value iteration",
                                                               "traverse_types": ["formula", "invalid_type"]}),
                        400, "traverse_types contains invalid value: 'invalid_type'")
    assert "Valid values: [formula, algorithm" in body["detail"]


def test_filter_key_invalid(client):
    assert_error(client.post("/search/semantic", json={"query": "value iteration", "filters": {"invalid_key": 1}}),
                 400, "filter 'invalid_key' is not supported")


def test_filter_page_number_must_be_integer(client):
    assert_error(client.post("/search/semantic", json={"query": "value iteration",
                                                        "filters": {"page_number": "12"}}),
                 400, "page_number must be an integer")


def test_filters_apply(client, kb):
    chapter = kb.db.execute("SELECT chapter FROM chunks WHERE kind='algorithm' ORDER BY ord LIMIT 1").fetchone()[0]
    body = client.post("/search/semantic", json={"query": "algorithm", "k": 5,
                                                   "filters": {"chapter": chapter}}).json()
    assert body["results"] and all(r["chapter"] == chapter for r in body["results"])
    page = body["results"][0]["page_number"]
    body = client.post("/search/semantic", json={"query": "algorithm", "k": 3,
                                                   "filters": {"page_number": page}}).json()
    assert body["results"] and all(r["page_number"] == page for r in body["results"])


def test_null_filters_mean_no_filter(client, kb):
    chapter = kb.db.execute("SELECT chapter FROM chunks WHERE kind='algorithm' ORDER BY ord LIMIT 1").fetchone()[0]
    scoped = client.post("/search/semantic", json={"query": "algorithm", "k": 5, "filters": {
        "chapter": chapter, "section": None, "page_number": None}})
    assert scoped.status_code == 200
    assert all(r["chapter"] == chapter for r in scoped.json()["results"])
    every = client.post("/search/semantic", json={"query": "algorithm", "k": 5, "filters": {
        "chapter": None, "section": None, "page_number": None}}).json()
    plain = client.post("/search/semantic", json={"query": "algorithm", "k": 5}).json()
    assert [r["id"] for r in every["results"]] == [r["id"] for r in plain["results"]]
    spec03 = client.post("/api/rag/search", json={"query": "reorder point", "scope": "entire_book",
                                                  "current_chapter": None, "current_lesson": None})
    assert spec03.status_code == 200


def test_traverse_types_add_linked_entities(client):
    body = client.post("/search/semantic", json={"query": "expected utility", "k": 3,
                                                   "traverse_types": ["algorithm", "formula"]}).json()
    assert body["total_count"] == len(body["results"]) >= 3
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)
    assert all(r["score"] is not None for r in body["results"])
    assert len({r["id"] for r in body["results"]}) == len(body["results"])


@pytest.mark.parametrize("body", ['{"query": ', "not json", "[1,2]", '"just a string"'])
def test_malformed_body(client, body):
    resp = client.post("/search/semantic", content=body, headers={"content-type": "application/json"})
    assert resp.status_code == 400
    assert set(resp.json()) == ERROR_KEYS


def test_unknown_field(client):
    assert_error(client.post("/search/semantic", json={"query": "value iteration", "kk": 3}), 400,
                 "unknown field 'kk'")


def test_entity_found(client, kb):
    kind, number = kb.db.execute("SELECT kind, number FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()
    body = client.get(f"/entity/algorithm/{number}").json()
    assert body["id"] == f"algorithm_{number.replace('.', '_')}"
    assert body["type"] == "algorithm" and body["number"] == number
    assert isinstance(body["page_number"], int)
    assert isinstance(body["references"], list) and isinstance(body["cited_by"], list)


def test_entity_number_normalised(client, kb):
    number = kb.db.execute("SELECT number FROM chunks WHERE kind='formula' ORDER BY ord").fetchone()[0]
    for variant in (f"{number}.", f"({number})"):
        assert client.get(f"/entity/formula/{variant}").json()["number"] == number


def test_entity_not_found(client):
    body = assert_error(client.get("/entity/algorithm/99.99"), 404, "Algorithm 99.99 not found in knowledge base")
    assert body["error_code"] == "NOT_FOUND"


def test_entity_bad_type_lists_every_accepted_kind(client):
    from rag_core import ENTITY_KINDS

    body = assert_error(client.get("/entity/widget/3.2"), 400, "entity_type must be one of: formula, algorithm, "
                                                                 "table, figure")
    for kind in (*ENTITY_KINDS, "image"):
        assert kind in body["detail"]
    assert client.get("/entity/image/6.1").status_code == 200


@pytest.mark.parametrize("number", ["x..y", "3..2", "abc", "3.2.x"])
def test_entity_bad_number(client, number):
    assert_error(client.get(f"/entity/formula/{number}"), 400, "number format invalid")


def test_expand_graph(client, kb):
    algo = kb.db.execute("SELECT id FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]
    body = client.post("/search/expand-graph", json={"document_ids": [algo]}).json()
    assert body["relationship_count"] == sum(len(d["relationships"]) for d in body["expanded_documents"])
    assert body["expanded_documents"]
    for doc in body["expanded_documents"]:
        for rel in doc["relationships"]:
            assert rel["target_id"] == algo and rel["type"] in (
                "USES_IN", "CITES", "REFERENCES", "RELATED_TO", "FOLLOWS", "REFERENCED_BY", "PART_OF")


def test_expand_graph_labels_relations_as_seen_from_the_requested_document(client):
    body = client.post("/search/expand-graph", json={"document_ids": ["formula_4_10"],
                                                       "traverse_types": ["REFERENCED_BY"]}).json()
    assert body["expanded_documents"]
    for doc in body["expanded_documents"]:
        assert doc["relationships"] == [{"type": "REFERENCED_BY", "target_id": "formula_4_10",
                                         "target_type": "formula", "direction": "outgoing"}]
    uses = client.post("/search/expand-graph", json={"document_ids": ["algorithm_5_3"],
                                                       "traverse_types": ["USES_IN"]}).json()
    formulas = [d for d in uses["expanded_documents"] if d["type"] == "formula"]
    assert formulas and all(r["direction"] == "incoming" for d in formulas for r in d["relationships"])


def test_expand_graph_accepts_aliases_and_reports_unknown(client, kb):
    number = kb.db.execute("SELECT number FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]
    alias = "algo_" + number.replace(".", "_")
    body = client.post("/search/expand-graph", json={"document_ids": [alias, "no_such_thing_1"],
                                                       "traverse_types": ["FOLLOWS"]}).json()
    assert body["expanded_documents"]
    assert body["warnings"] == ["document id not found: no_such_thing_1"]


def test_expand_graph_invalid(client):
    assert_error(client.post("/search/expand-graph", json={"document_ids": []}), 400, "document_ids")
    assert_error(client.post("/search/expand-graph", json={"document_ids": ["x'; DROP TABLE chunks;--"]}), 400,
                 "invalid id")
    assert_error(client.post("/search/expand-graph", json={"document_ids": ["formula_1_1"],
                                                           "traverse_types": ["LIKES"]}), 400,
                 "traverse_types contains invalid value: 'LIKES'")


def test_unknown_route_and_method(client):
    assert_error(client.get("/nope"), 404, "")
    assert_error(client.get("/search/semantic"), 405, "")


def test_openapi(client):
    doc = client.get("/schema/openapi.json").json()
    assert "/search/semantic" in doc["paths"] and "/entity/{entity_type}/{number}" in doc["paths"]


@pytest.mark.parametrize("page", ["/schema", "/schema/redoc", "/schema/swagger"])
def test_docs_pages_load_everything_from_the_service(client, page):
    """ReDoc and Swagger UI work offline: every script, style and icon comes from the service itself."""
    import re

    html = client.get(page).text
    assets = re.findall(r"""<(?:script|link)[^>]*?(?:src|href)=["']([^"']+)["']""", html)
    assert any(a.endswith(".js") for a in assets), html[:500]
    for url in assets:
        assert not re.match(r"(?i)(https?:)?//", url), url
        resp = client.get(url)
        assert resp.status_code == 200 and len(resp.content) > 500, url


def test_request_id_echoed_or_generated(client):
    resp = client.post("/search/semantic", json={"query": "value iteration", "k": 1},
                       headers={"X-Request-ID": "trace-42"})
    assert resp.headers["x-request-id"] == "trace-42"
    generated = client.get("/entity/algorithm/99.99").headers["x-request-id"]
    assert len(generated) == 32
    bad = client.get("/health", headers={"X-Request-ID": "bad;id" * 40}).headers["x-request-id"]
    assert len(bad) == 32  # unusable ids are replaced, not echoed


@pytest.mark.parametrize("method, path, body, max_age", [
    ("POST", "/search/semantic", {"query": "value iteration", "k": 2}, 86400),
    ("POST", "/search/expand-graph", {"document_ids": ["algorithm_5_3"]}, 86400),
    ("GET", "/entity/formula/4.10", None, 604800),
])
def test_cache_headers_and_304(client, method, path, body, max_age):
    first = client.request(method, path, json=body)
    assert first.status_code == 200
    assert first.headers["cache-control"] == f"public, max-age={max_age}"
    etag = first.headers["etag"]
    again = client.request(method, path, json=body, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    if body and "query" in body:
        other = client.request(method, path, json={**body, "query": "policy iteration"},
                               headers={"If-None-Match": etag})
        assert other.status_code == 200 and other.headers["etag"] != etag


def test_search_suggestion_for_typos(client):
    body = client.post("/search/semantic", json={"query": "POMP belief update"}).json()
    assert body["suggestion"] == "did you mean POMDP"
    assert body["corrected_query"] == "POMDP belief update"
    assert "suggestion" not in client.post("/search/semantic", json={"query": "value iteration"}).json()


@pytest.mark.parametrize("method, path", [("PUT", "/search/semantic"), ("DELETE", "/entity/formula/4.10"),
                                          ("PATCH", "/tools"), ("TRACE", "/ask")])
def test_405_names_the_allowed_methods(client, method, path):
    resp = client.request(method, path)
    assert resp.status_code == 405 and resp.headers["allow"]
    assert resp.json()["error_code"] == "METHOD_NOT_ALLOWED"
