"""spec 02 over real MCP clients against the served app: fastmcp and the official mcp SDK."""

from __future__ import annotations

import asyncio
import json

import pytest

from conftest import HTTP

# /mcp lists BeliefCraft's five tools; /mcp/all adds answer_question.
TOOLS = {"search_knowledge_base", "expand_graph_by_ids", "get_entity_by_number", "get_related_code_definitions",
         "get_search_tags_catalog"}
METADATA_TYPES = {"text", "numbered_formula", "numbered_table", "algorithm", "captioned_image", "example", "exercise"}


def run(coro):
    return asyncio.run(coro)


def fastmcp_session(base, fn):
    from fastmcp.client import Client, StreamableHttpTransport

    async def go():
        async with Client(StreamableHttpTransport(base + "/mcp")) as client:
            return await fn(client)

    return run(go())


def sdk_session(base, fn, mode="auto"):
    from mcp import Client

    async def go():
        async with Client(base + "/mcp", mode=mode) as client:
            return await fn(client)

    return run(go())


def check_document(doc: dict):
    assert set(doc) <= {"id", "content", "cosine_similarity", "metadata"} and {"id", "content", "metadata"} <= set(doc)
    meta = doc["metadata"]
    assert meta["chunk_type"] in METADATA_TYPES
    assert isinstance(meta["page"], int) and not isinstance(meta["page"], bool)
    assert None not in meta.values() and [] not in meta.values()
    if meta["chunk_type"] != "text":
        assert meta["entity_id"]
    for key, value in meta.items():
        if key.startswith("referenced_"):
            assert key in {"referenced_formulas", "referenced_tables", "referenced_algorithms",
                           "referenced_figures", "referenced_examples", "referenced_exercises"}
            assert value and all(isinstance(v, str) for v in value)


def test_fastmcp_lists_tools_with_descriptions_and_schemas(server):
    tools = fastmcp_session(server, lambda c: c.list_tools())
    assert {t.name for t in tools} == TOOLS
    for tool in tools:
        assert tool.description and len(tool.description) > 40
        assert tool.input_schema["type"] == "object"
    search = next(t for t in tools if t.name == "search_knowledge_base")
    props = search.input_schema["properties"]
    assert set(props) == {"query", "k", "traverse_types", "filters", "search_tags"}
    assert search.input_schema["required"] == ["query"]


def test_fastmcp_search_result_wrapper_and_documents(server):
    async def call(client):
        return await client.call_tool("search_knowledge_base", {"query": "expected utility of an action", "k": 3})

    result = fastmcp_session(server, call)
    assert not result.is_error
    docs = result.structured_content["result"]
    assert len(docs) == 3
    assert json.loads(result.content[0].text) == {"result": docs}
    for doc in docs:
        check_document(doc)
        assert 0 <= doc["cosine_similarity"] <= 1


def test_fastmcp_entity_found_and_missing(server, kb):
    number = kb.db.execute("SELECT number FROM chunks WHERE kind='formula' ORDER BY ord").fetchone()[0]

    async def calls(client):
        found = await client.call_tool("get_entity_by_number", {"entity_type": "formula", "number": number})
        missing = await client.call_tool("get_entity_by_number", {"entity_type": "algorithm", "number": "99.9"})
        figure = await client.call_tool("get_entity_by_number", {"entity_type": "figure", "number": number})
        return found, missing, figure

    found, missing, figure = fastmcp_session(server, calls)
    doc = found.structured_content["result"]
    check_document(doc)
    assert doc["metadata"]["chunk_type"] == "numbered_formula" and doc["metadata"]["entity_id"] == number
    assert missing.structured_content == {"result": None}
    assert not figure.is_error


def test_fastmcp_bad_arguments_are_tool_errors_and_session_survives(server):
    async def calls(client):
        out = []
        for name, args in [
            ("search_knowledge_base", {"query": "value", "k": 99}),
            ("search_knowledge_base", {"query": " \t"}),
            ("search_knowledge_base", {"query": "value", "limit": 3}),
            ("search_knowledge_base", {"query": "value", "filters": {"chapter": "2"}}),
            ("search_knowledge_base", {"query": "value iteration", "filters": {"part": "IX"}}),
            ("search_knowledge_base", {"query": "value iteration", "traverse_types": ["widget"]}),
            ("get_entity_by_number", {"entity_type": "widget", "number": "3.2"}),
            ("get_entity_by_number", {"entity_type": "formula", "number": "three"}),
            ("expand_graph_by_ids", {"document_ids": [], "traverse_types": ["formula"]}),
        ]:
            out.append((args, await client.call_tool(name, args, raise_on_error=False)))
        ok = await client.call_tool("search_knowledge_base", {"query": "value iteration", "k": 1})
        return out, ok

    out, ok = fastmcp_session(server, calls)
    for args, result in out:
        assert result.is_error, args
        assert result.content[0].text
    messages = [r.content[0].text for _, r in out]
    assert "k must be between 1 and 20" in messages[0]
    assert "query must not be empty" in messages[1]
    assert "limit" in messages[2] and "chapter" in messages[3]
    assert "I, II, III, IV, V, Appendices" in messages[4]
    assert "formula" in messages[6] and "image" in messages[6]
    assert len(ok.structured_content["result"]) == 1


def test_fastmcp_filters(server, kb):
    chapter = kb.db.execute("SELECT chapter FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]

    async def call(client):
        return await client.call_tool("search_knowledge_base", {"query": "algorithm", "k": 4,
                                                                "filters": {"section": chapter}})

    docs = fastmcp_session(server, call).structured_content["result"]
    assert docs and all(d["metadata"]["section_number"] == chapter for d in docs)


def test_fastmcp_null_filters_mean_no_filter(server, kb):
    chapter = kb.db.execute("SELECT chapter FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]

    async def call(client):
        nulls = {"part": None, "subsection": None, "subsubsection": None, "page_number": None}
        scoped = await client.call_tool("search_knowledge_base", {"query": "algorithm", "k": 4,
                                                                  "filters": {"section": chapter, **nulls}})
        everything = await client.call_tool("search_knowledge_base", {"query": "algorithm", "k": 4,
                                                                      "filters": {**nulls, "section": None}})
        unfiltered = await client.call_tool("search_knowledge_base", {"query": "algorithm", "k": 4})
        return scoped, everything, unfiltered

    scoped, everything, unfiltered = fastmcp_session(server, call)
    assert all(d["metadata"]["section_number"] == chapter for d in scoped.structured_content["result"])
    assert everything.structured_content == unfiltered.structured_content


def test_one_and_two_character_queries(server):
    async def calls(client):
        return [await client.call_tool("search_knowledge_base", {"query": q, "k": 2}) for q in ("MC", "Q", "γ")] + [
            await client.call_tool("search_knowledge_base", {"query": "MC", "k": None, "traverse_types": None,
                                                             "filters": None, "search_tags": None})]

    *short, nulls = fastmcp_session(server, calls)
    for result in short:
        assert not result.is_error and len(result.structured_content["result"]) == 2
    assert not nulls.is_error and len(nulls.structured_content["result"]) == 5  # null k is the default


def test_mcp_all_adds_answer_question(server):
    from fastmcp.client import Client, StreamableHttpTransport

    async def go():
        async with Client(StreamableHttpTransport(server + "/mcp/all")) as client:
            return await client.list_tools()

    # and the navigation tools of issue 27 (tests/test_navigate.py)
    assert {t.name for t in run(go())} == TOOLS | {"answer_question", "get_book_outline", "read_book", "check_quote",
                                                   "search_formulas", "lookup_notation"}


def test_sdk_client_both_protocol_eras(server, kb):
    algo = kb.db.execute("SELECT id FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]

    async def calls(client):
        tools = await client.list_tools()
        search = await client.call_tool("search_knowledge_base", {"query": "belief update", "k": 2})
        expand = await client.call_tool("expand_graph_by_ids", {"document_ids": [algo],
                                                                 "traverse_types": ["formula", "algorithm", "example"]})
        return tools, search, expand

    for mode in ("legacy", "auto"):
        tools, search, expand = sdk_session(server, calls, mode=mode)
        assert {t.name for t in tools.tools} == TOOLS
        assert len(search.structured_content["result"]) == 2
        assert not expand.is_error
        for doc in expand.structured_content["result"]:
            check_document(doc)


def test_get_and_delete_are_405(server):
    assert HTTP.get(server + "/mcp").status_code == 405
    assert HTTP.delete(server + "/mcp").status_code == 405


def test_initialized_notification_is_accepted(server):
    resp = HTTP.post(server + "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                      headers={"accept": "application/json, text/event-stream"})
    assert resp.status_code == 202


HOSTILE = [b'{"jsonrpc": "2.0", "id": 1, "method": ', b"[]", b'{"id": 1}',
           b'{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"\xff\xfe"}',
           b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_knowledge_base","arguments":'
           b'{"query":' + b"[" * 5000 + b"]" * 5000 + b"}}}",
           b'{"jsonrpc":"2.0","id":1,"method":"tools/list","pad":"' + b"a" * 1_200_000 + b'"}']


@pytest.mark.parametrize("payload", HOSTILE, ids=["truncated", "array", "no method", "bad utf-8", "deep", "1.2 MB"])
def test_malformed_jsonrpc_never_crashes(server, payload):
    resp = HTTP.post(server + "/mcp", content=payload, headers={"content-type": "application/json",
                                                                 "accept": "application/json, text/event-stream"})
    assert 400 <= resp.status_code < 500
    assert HTTP.post(server + "/search/semantic", json={"query": "still alive"}).status_code == 200


def test_related_code_definitions_callees_first(server, kb):
    """Algorithm 6.5 builds an inventory MDP and solves it: it needs the MDP class and value iteration."""
    async def call(client):
        return await client.call_tool("get_related_code_definitions", {"document_ids": ["algorithm_6_5"]})

    doc = fastmcp_session(server, call).structured_content  # one Document, as BeliefCraft's tool returns
    code = doc["content"]
    assert "def value_iteration" in code and "class MDP" in code
    assert code.index("def lookahead") < code.index("def value_iteration")  # callees first
    assert "algorithm_5_1" in doc["metadata"]["source_ids"]
    compile(code, "related", "exec")  # the definitions parse as one program


def test_server_instructions_hold_the_table_of_contents(server):
    from mcp import Client

    async def go():
        async with Client(server + "/mcp", mode="legacy") as client:
            return client.instructions

    instructions = run(go())
    assert "Markov Decision Processes" in instructions and "(p. 53)" in instructions


def test_request_log_names_the_mcp_route(server):
    """Each /mcp call is logged as route /mcp (the mounted app rewrites its own path to /)."""
    import os
    from pathlib import Path

    fastmcp_session(server, lambda c: c.call_tool("get_entity_by_number", {"entity_type": "formula", "number": "4.10"}))
    port = server.rsplit(":", 1)[1]
    log = (Path(os.environ.get("TMPDIR", "/tmp")) / f"bookrag-server-{port}.log").read_text()
    routes = [json.loads(line)["route"] for line in log.splitlines() if line.startswith("{")]
    assert "/mcp" in routes and "/" not in routes


def test_answer_tool_opt_in_on_mcp():
    """RAG_MCP_ANSWER_TOOL=1 puts answer_question on /mcp's own list too."""
    from conftest import start_server

    proc, base = start_server(env={"RAG_MCP_ANSWER_TOOL": "1"})
    try:
        tools = fastmcp_session(base, lambda c: c.list_tools())
        assert {t.name for t in tools} == TOOLS | {"answer_question"}
        assert HTTP.get(base + "/mcp/all").status_code == 405
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_mcp_search_shows_a_short_hits_continuation(server):
    """As on REST: a short hit (a bare formula) carries the text that follows it in metadata.continued."""
    res = fastmcp_session(server, lambda c: c.call_tool(
        "search_knowledge_base", {"query": "belief update equation", "k": 10}))
    docs = res.structured_content["result"]
    continued = [d for d in docs if "continued" in d["metadata"]]
    assert continued, docs
    assert all(len(d["content"]) < 200 and d["metadata"]["continued"] for d in continued)
