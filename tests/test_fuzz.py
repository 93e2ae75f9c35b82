"""Fuzzing: schemathesis against our own OpenAPI document, and generated JSON-RPC against /mcp.

Both run against the app served as its own process.  The REST run uses every check schemathesis
has (server errors, response schemas, status codes, content types, schema-valid requests accepted,
schema-invalid ones rejected, unsupported methods) and at least 200 requests per operation that
takes input; the server's own request log is the count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import HTTP, start_server, started_work

CASES_PER_OPERATION = 200
# Operations that take no input have a single request to make: /health, GET /tools and /llms.txt.
WITHOUT_INPUT = {"GET /health", "GET /tools", "GET /llms.txt"}
# Routes with a path parameter are logged with the path as requested; counted under their template.
TEMPLATES = {"/entity/": "/entity/{entity_type}/{number}", "/book/": "/book/{name}"}


@pytest.fixture(scope="module")
def fuzz_server():
    # The spec 03 rate limit would turn most of the run into 429s; lift it for this server only.
    proc, base = start_server(env={"RAG_RATE_LIMIT": "1000000/minute"})
    yield base, Path(proc.log.name)
    proc.terminate()
    proc.wait(timeout=10)


def operation_of(line: dict) -> str:
    route = line["route"]
    template = next((t for prefix, t in TEMPLATES.items() if route.startswith(prefix)), route)
    return f"{line['method']} {template}"


def schemathesis_run(folder: Path) -> dict:
    """schemathesis against a server of its own (the rate limit lifted), in `folder`: its exit code and
    output, its JSON report, the server's request log lines and the operations the server documents.
    Started with the session (conftest), its run is a subprocess that needs nothing the other tests make."""
    proc, base = start_server(env={"RAG_RATE_LIMIT": "1000000/minute"})
    try:
        # The MCP servers start on the first /mcp or /tools request (about a second alone, longer
        # while the rest of the suite holds both cores); start them before schemathesis's 10 s
        # per-request timeout applies, since this run judges input handling, not cold start.
        HTTP.get(base + "/tools", timeout=120).raise_for_status()
        cli = Path(sys.executable).parent / "schemathesis"
        report = folder / "report.json"
        run = subprocess.run(
            [str(cli), "run", f"{base}/schema/openapi.json", "--checks", "all", "--max-examples", "250",
             "--seed", "20261122", "--generation-deterministic", "--no-color",
             # One worker: CPython 3.11.7's ast.parse is not safe across threads (CPython issue gh-106905, fixed in 3.11.8), and
             # hypothesis parses lambdas' source while schemathesis generates in two at once.
             "--workers", "1",
             "--report", "json", "--report-json-path", str(report)],
            capture_output=True, text=True, timeout=600, cwd=folder)
        documented = json.loads(HTTP.get(base + "/schema/openapi.json").text)["paths"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return {"returncode": run.returncode, "output": run.stdout[-6000:] + run.stderr[-2000:],
            "summary": json.loads(report.read_text()) if report.exists() else None,
            "log": [json.loads(x) for x in Path(proc.log.name).read_text().splitlines() if x.startswith("{")],
            "documented": documented}


def test_schemathesis_finds_nothing(tmp_path):
    result = started_work("schemathesis", lambda: schemathesis_run(tmp_path))
    assert result["returncode"] == 0, result["output"]
    summary = result["summary"]
    assert summary["test_cases"]["with_failures"] == 0 and summary["operations"]["errored"] == 0

    lines = result["log"]
    per_operation = Counter(operation_of(x) for x in lines)
    for path, item in result["documented"].items():
        for method in item:
            name = f"{method.upper()} {path}"
            if name not in WITHOUT_INPUT:
                assert per_operation[name] >= CASES_PER_OPERATION, (name, per_operation)
    assert not [x for x in lines if x["status"] >= 500]


def test_openapi_documents_the_real_error_bodies(fuzz_server):
    base, _ = fuzz_server
    doc = HTTP.get(base + "/schema/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for path, body in [("/search/semantic", "ErrorBody"), ("/entity/{entity_type}/{number}", "ErrorBody"),
                       ("/api/rag/search", "Spec03Error"), ("/ask", "AnswerErrorBody")]:
        operation = next(iter(doc["paths"][path].values()))
        assert operation["responses"]["400"]["content"]["application/json"]["schema"]["$ref"].endswith(body)
    assert set(schemas["ErrorBody"]["required"]) == {"detail", "status_code", "error_code", "timestamp"}
    # The request rules are in the document, not only in the code.
    semantic = schemas["SemanticSearchRequest"]
    assert semantic["additionalProperties"] is False
    assert semantic["properties"]["k"] == {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}
    assert semantic["properties"]["query"]["minLength"] == 3


# ----------------------------------------------------------------------------- MCP

TOOL_NAMES = ["search_knowledge_base", "get_entity_by_number", "expand_graph_by_ids",
              "get_related_code_definitions", "get_search_tags_catalog", "answer_question"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
plausible = {
    "query": st.sampled_from(["value iteration", "ab", "", " " * 5, "x" * 300_000, "MATCH \"\" OR *"]),
    "k": st.integers(-5, 50) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=3),
    "number": st.sampled_from(["3.2", "A.1", "99.99", "'; DROP TABLE chunks; --", "\x00"]),
    "entity_type": st.sampled_from(["formula", "algorithm", "image", "widget", ""]),
    "document_ids": st.lists(st.sampled_from(["algorithm_3_1", "formula_2_1", "x" * 200, "1 OR 1=1"]), max_size=120),
    "traverse_types": st.lists(st.sampled_from(["formula", "REFERENCES", "widget", ""]), max_size=5),
    "filters": st.dictionaries(st.sampled_from(["part", "section", "page_number", "zzz"]), json_values, max_size=3),
    "search_tags": st.dictionaries(st.sampled_from(["bc_concepts", "bc_db_tables", "zzz"]), json_values, max_size=2),
    "tag_type": st.sampled_from(["concepts", "tables", "widgets", ""]),
    "category": st.sampled_from(["INVENTORY_CONTROL", "nope", ""]) | st.none(),
}
arguments = st.dictionaries(st.sampled_from(sorted(plausible)), json_values, max_size=4).flatmap(
    lambda wild: st.fixed_dictionaries({}, optional=plausible).map(lambda good: {**good, **wild}))
tool_calls = st.fixed_dictionaries({
    "jsonrpc": st.just("2.0"), "id": st.integers(1, 10**6), "method": st.just("tools/call"),
    "params": st.fixed_dictionaries({"name": st.sampled_from(TOOL_NAMES + ["no_such_tool", ""]),
                                     "arguments": arguments | json_values})})
envelopes = st.fixed_dictionaries({
    "jsonrpc": st.sampled_from(["2.0", "1.0", None]), "id": json_values,
    "method": st.sampled_from(["tools/call", "tools/list", "initialize", "ping", "resources/read"]) | st.text(max_size=20),
    "params": json_values})
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def mcp_http(fuzz_server):
    base, _ = fuzz_server
    with httpx.Client(base_url=base, timeout=30) as client:
        yield client


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(call=tool_calls)
def test_mcp_tool_calls_with_generated_arguments(mcp_http, call):
    resp = mcp_http.post("/mcp", json=call, headers=MCP_HEADERS)
    assert resp.status_code == 200, resp.text[:500]
    body = resp.json()
    if "error" in body:  # a protocol error: invalid params or unknown method
        assert isinstance(body["error"]["code"], int) and body["error"]["message"]
    else:  # a tool result, perhaps a tool error; either way with content
        assert isinstance(body["result"]["content"], list)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=envelopes | json_values)
def test_mcp_generated_envelopes(mcp_http, message):
    resp = mcp_http.post("/mcp", json=message, headers=MCP_HEADERS)
    assert resp.status_code < 500, resp.text[:500]


def test_mcp_still_answers_after_fuzzing(fuzz_server):
    from test_mcp import sdk_session

    base, log_path = fuzz_server

    async def call(client):
        return await client.call_tool("search_knowledge_base", {"query": "value iteration", "k": 2})

    result = sdk_session(base, call)
    assert not result.is_error and len(result.structured_content["result"]) == 2
    statuses = [json.loads(x)["status"] for x in log_path.read_text().splitlines() if x.startswith("{")]
    assert statuses and max(statuses) < 500
