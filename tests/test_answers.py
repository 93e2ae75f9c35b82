"""Specs 04 and 05 over real HTTP: grounded answers, refusals, selected text, determinism, the LLM path.

The LLM path talks to a local server that speaks the chat-completions protocol: a test double
of the remote API, not of our code.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import httpx
import pytest

from conftest import HTTP, start_server

TIMINGS = {"retrieval_time_ms", "generation_time_ms", "total_time_ms"}
AGENT_RESPONSE = {"answer", "citations", "query", "retrieval_time_ms", "generation_time_ms", "total_time_ms",
                  "confidence", "error"}
GENERATION_CONTRACT = {"status", "content", "citations", "refusal_reason", "deterministic", "input_hash",
                       "output_hash"}


def ask(client, **body):
    return client.post("/ask", json=body)


def test_answer_the_book_gives(client):
    body = ask(client, query="What does the newsvendor critical fractile say about how much to order?").json()
    assert AGENT_RESPONSE <= set(body) and GENERATION_CONTRACT <= set(body)
    assert body["status"] == "success" and body["confidence"] == "high"
    assert body["content"] == body["answer"] and "[1]" in body["content"] and "Sources:" in body["content"]
    assert body["citations"] and all(isinstance(c["page"], int) for c in body["citations"])
    assert CITATION <= set(body["citations"][0])
    assert any(c["chapter"] == "6" for c in body["citations"])


# spec 04's Citation (page_title, page_url, module_name) beside spec 05's (source_url, module, chapter)
CITATION = {"page_title", "page_url", "module_name", "source_url", "module", "chapter", "title", "page"}


def test_citations_carry_spec04_and_spec05_fields(client):
    body = ask(client, query="How does a particle filter update its belief?").json()
    assert body["status"] == "success" and body["citations"]
    for c in body["citations"]:
        assert CITATION <= set(c)
        assert all(isinstance(c[k], str) for k in ("page_title", "module_name", "source_url", "module", "chapter"))
        assert c["page_title"] and c["module_name"] == c["module"] and c["page_title"] == c["title"]
        assert c["source_url"].startswith("book.pdf#page=") and c["page_url"] == c["source_url"]
    # module_name is what module_filter takes (spec 04): filtering by it keeps the answer in that module
    module = body["citations"][0]["module_name"]
    again = ask(client, query="How does a particle filter update its belief?", module_filter=module).json()
    assert again["status"] == "success" and {c["module_name"] for c in again["citations"]} == {module}


@pytest.mark.parametrize("top_k", [1, 5, 100])
def test_top_k_spans_spec04_range(client, top_k):
    resp = ask(client, query="What is conditional value at risk?", top_k=top_k)
    assert resp.status_code == 200 and resp.json()["status"] == "success"


@pytest.mark.parametrize("top_k", [0, -1, 101, 1000, "5", 2.5, True, None, [5]])
def test_top_k_outside_spec04_range_is_a_400(client, top_k):
    resp = ask(client, query="What is conditional value at risk?", top_k=top_k)
    assert resp.status_code == 400
    err = resp.json()
    assert err["error_type"] == "invalid_query" and "top_k must be an integer between 1 and 100" in err["message"]


def test_openapi_documents_ask(client):
    doc = client.get("/schema/openapi.json").json()
    op = doc["paths"]["/ask"]["post"]
    schemas = doc["components"]["schemas"]

    def resolve(node):
        return schemas[node["$ref"].rsplit("/", 1)[1]] if "$ref" in node else node

    request = resolve(op["requestBody"]["content"]["application/json"]["schema"])
    top_k = request["properties"]["top_k"]
    assert top_k["minimum"] == 1 and top_k["maximum"] == 100
    response = resolve(op["responses"]["200"]["content"]["application/json"]["schema"])
    citation = resolve(response["properties"]["citations"]["items"])
    assert {"page_title", "module_name", "source_url", "module", "chapter"} <= set(citation["required"])
    assert all(citation["properties"][k]["type"] == "string" for k in ("page_title", "module_name"))


@pytest.fixture(scope="module")
def key_facts(kb):
    """The sample book's 100 questions answered by rag_answers.answer (behind /ask and answer_question)
    on the real model and knowledge file, scored by tests/eval/evaluate_answers.py: does the answer
    hold the question's key fact (its answer_keywords, written from the book's LaTeX source)?"""
    from pathlib import Path

    from evaluate_answers import key_fact_rate

    return key_fact_rate(kb, Path(__file__).parent / "eval" / "questions.json")


def test_answers_hold_the_key_fact_more_often_than_before(key_facts):
    """Measured 0.36 before issue 18's sentence scoring, 0.64 after it, 0.72 now: no regression below 0.60."""
    assert key_facts["n"] == 100
    assert key_facts["rate"] >= 0.60, f"key fact in {key_facts['rate']:.2f} of answers; missed {key_facts['misses']}"


def test_answers_hold_the_key_fact_at_the_target_rate(key_facts):
    """Issue 18 point 5: the key fact in 0.70 of the sample book's answers (0.73 measured, docs/answers.md),
    less the two questions whose answers turn on the CPU: onnxruntime's int8 kernels differ by
    instruction set (docs/knowledge-file.md: up to 0.053 in a component), so a knowledge file whose
    vectors an AVX-512 VNNI CPU computed answers 0.70 and the same file built on an AVX2 CPU 0.68
    (appA-07 and ch07-02 rank their chunks and pick their sentences otherwise; its content hash is the
    same).  A test must hold on either."""
    assert key_facts["rate"] >= 0.68, f"key fact in {key_facts['rate']:.2f} of answers; missed {key_facts['misses']}"


def test_a_display_found_alone_is_read_in_the_passage_that_prints_it(kb):
    """A formula entity holds only its display; the answer reads the passage printing it, whose
    sentence leading into the display says what it is for."""
    from rag_answers import printing_passages, prints_display, retrieve, sentences

    context = retrieve(kb, "What is equation 2.12 used for?", 5)
    formulas = [(i, c) for i, c in enumerate(context.chunks) if c.metadata.get("entity") == "formula 2.12"]
    assert formulas, "the reference pins the formula entity"
    found = dict(printing_passages(kb, context.chunks))
    index, _ = formulas[0]
    assert index in found
    passage = found[index] or next(c for c in context.chunks if prints_display(c.text, "(2.12)"))
    assert passage.metadata.get("entity") is None and prints_display(passage.text, "(2.12)")
    lead_in = next(s for s in sentences(passage.text) if "(2.12)" in s)
    words = lead_in.replace("(2.12)", " ").split()
    assert sum(w.isalpha() and len(w) > 3 for w in words) >= 6, lead_in  # prose, not the bare display


@pytest.mark.parametrize("sentence, cut", [
    ("The weight on the count is the Kalman gain σ ̄ 2", True),
    ("Either way, a discount factor below one keeps the return finite: if every reward satisfies |rt| ≤ rmax, "
     "then ∑ ∞ k", True),
    ("The cost is governed by the largest factor created.", False),
    ("Which tolerance should it pass?", False),
    ("rearranging gives δk = ∥Uk+1 − Uk∥∞. (5.11)", False),
])
def test_a_sentence_cut_at_a_chunk_end_is_recognised(sentence, cut):
    from rag_answers import unfinished

    assert unfinished(sentence) is cut


def test_a_sentence_cut_at_a_chunk_end_goes_on_in_the_next_chunk(kb):
    """A text chunk ending inside a sentence (cut by a display or a page) goes on with the first
    sentence of the next text chunk of its section, in reading order."""
    from rag_answers import continuation, sentences, unfinished

    rows = kb.db.execute("SELECT id, content, chapter, section, subsection, subsubsection, ord FROM chunks "
                         "WHERE kind = 'text' ORDER BY ord").fetchall()
    checked = 0
    for i, (cid, content, *place, _ord) in enumerate(rows):
        units = sentences(content)
        if not units or not unfinished(units[-1]):
            continue
        after = next((r for r in rows[i + 1:] if list(r[2:6]) == place), None)
        expected = sentences(after[1])[0] if after and sentences(after[1]) else ""
        assert continuation(kb, cid) == expected
        checked += 1
    assert checked >= 5  # the sample book has such cuts (a display between two chunks)


def test_the_critical_ratio_question_states_the_ratio(client):
    """Issue 18: "What is the newsvendor critical ratio?" must give the critical fractile display (6.4)."""
    body = ask(client, query="What is the newsvendor critical ratio?").json()
    text = body["content"].split("\n\nSources:")[0]
    assert body["status"] == "success" and "(6.4)" in text and "critical fractile" in text.lower()


@pytest.mark.parametrize("query", ["What is the capital of France?", "Who won the 2018 football World Cup?",
                                   "How do I bake sourdough bread?"])
def test_refuses_what_the_book_does_not_say(client, query):
    body = ask(client, query=query).json()
    assert body["status"] == "refused" and body["refusal_reason"] == "answer not found in book"
    assert body["citations"] == []


def test_selected_text_only_answers_from_the_selection(client):
    selection = ("Our warehouse is unusual. Here the reorder point is 999 units, because deliveries from the "
                 "single supplier take about a month. The order-up-to level is 1500 units.\n\n"
                 "Staff count the shelves every Friday afternoon.")
    body = ask(client, query="What is the reorder point here?", mode="selected_text_only",
               selected_text=selection).json()
    assert body["status"] == "success"
    assert "999" in body["content"]
    assert all(c["module"] == "selected_text" for c in body["citations"])
    tool = client.post("/tools/retrieve_content", json={"query": "reorder point", "selected_text_only": True,
                                                         "selected_text_content": selection}).json()
    assert tool["chunks"] and all(c["metadata"]["source_url"] == "selected_text" for c in tool["chunks"])


def test_deterministic(client):
    query = "How does a particle filter update its belief?"
    first, second = ask(client, query=query).json(), ask(client, query=query).json()
    assert first["deterministic"] is True
    assert first["input_hash"] == second["input_hash"] and first["output_hash"] == second["output_hash"]
    strip = lambda b: {k: v for k, v in b.items() if k not in TIMINGS}  # noqa: E731
    assert json.dumps(strip(first), sort_keys=True) == json.dumps(strip(second), sort_keys=True)
    other = ask(client, query="What is CVaR?").json()
    assert other["input_hash"] != first["input_hash"]


def test_confidence_levels(client):
    assert ask(client, query="value iteration Bellman backup").json()["confidence"] == "high"
    assert ask(client, query="What is the capital of France?").json()["confidence"] == "low"


@pytest.mark.parametrize("body, message", [
    ({"query": ""}, "query must be a non-empty string"), ({"query": "   "}, "query must be a non-empty string"),
    ({}, "query must be a non-empty string"), ({"query": "x", "mode": "fast"}, "mode must be"),
    ({"query": "x", "mode": "selected_text_only"}, "selected_text is required"),
    ({"query": "x", "top_k": 0}, "top_k must be"), ({"query": "x", "top_k": 101}, "between 1 and 100"),
    ({"query": "x", "module_filter": "ros2"}, "module_filter"),
])
def test_invalid_query_error_contract(client, body, message):
    resp = ask(client, **body)
    assert resp.status_code == 400
    err = resp.json()
    assert err["status"] == "error" and err["error_type"] == "invalid_query"
    assert err["fallback_action"] == "refuse_answer" and message in err["message"]


def test_module_filter_restricts_citations(client):
    body = ask(client, query="How does a particle filter update its belief?", module_filter="V").json()
    assert body["status"] == "success" and {c["module"] for c in body["citations"]} == {"V"}


def test_retrieve_content_tool(client):
    body = client.post("/tools/retrieve_content", json={"query": "CVaR tail risk", "top_k": 3}).json()
    assert set(body) == {"chunks", "empty_retrieval", "conflicting_info"}
    assert len(body["chunks"]) == 3 and body["empty_retrieval"] is False
    for chunk in body["chunks"]:
        assert {"source_url", "module", "chapter", "chunk_index"} <= set(chunk["metadata"])
        assert 0 <= chunk["score"] <= 1
    assert client.post("/tools/retrieve_content", json={"query": "x", "top_k": 11}).status_code == 400


def test_conflicting_info_rule(client):
    selection = ("Warehouse A: the reorder point is 40 units.\n\nWarehouse A, revised note: the reorder point is "
                 "55 units.\n\nDeliveries take a week.")
    body = client.post("/tools/retrieve_content", json={"query": "what is the reorder point", "top_k": 3,
                                                         "selected_text_only": True,
                                                         "selected_text_content": selection}).json()
    assert body["conflicting_info"] is True
    same = selection.replace("55", "40")
    body = client.post("/tools/retrieve_content", json={"query": "what is the reorder point", "top_k": 3,
                                                         "selected_text_only": True,
                                                         "selected_text_content": same}).json()
    assert body["conflicting_info"] is False


def test_tools_lists_openai_function_schemas(client):
    # the first /tools request starts the MCP servers (rag_mcp.LazyMCP): a second or so alone, longer
    # while the rest of the suite holds both cores; this test reads the schemas, not the cold start
    tools = client.get("/tools", timeout=60).json()
    names = [t["function"]["name"] for t in tools]
    assert names[0] == "retrieve_content"
    assert {"search_knowledge_base", "get_entity_by_number", "answer_question"} <= set(names)
    spec = tools[0]["function"]
    assert spec["description"] == ("Search the book content for information relevant to the user's query and "
                                   "return the most relevant chunks with their metadata.")
    assert spec["parameters"]["required"] == ["query"]
    assert spec["parameters"]["properties"]["top_k"] == {"type": "integer", "description": "Number of results to "
                                                         "return (default: 5)", "minimum": 1, "maximum": 10,
                                                         "default": 5}
    assert all(t["type"] == "function" and t["function"]["parameters"]["type"] == "object" for t in tools)


class ChatCompletions(BaseHTTPRequestHandler):
    """A local server speaking the chat-completions protocol; records what it was sent."""

    requests: list = []

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        ChatCompletions.requests.append({"path": self.path, "auth": self.headers.get("authorization"), "body": body})
        reply = {"choices": [{"message": {"role": "assistant",
                                          "content": "From the book: order up to the critical fractile [1]."}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def llm_server():
    server = HTTPServer(("127.0.0.1", 0), ChatCompletions)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_llm_path_grounded_and_cached(llm_server):
    proc, base = start_server(env={"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": llm_server,
                                   "RAG_LLM_MODEL": "test-model"})
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            query = "How much should a newsvendor order?"
            first = ask(c, query=query).json()
            second = ask(c, query=query).json()
    finally:
        proc.terminate()
        proc.wait()
    assert first["status"] == "success" and first["content"].startswith("From the book: order up to")
    assert first["citations"] and first["output_hash"] == second["output_hash"]
    assert len(ChatCompletions.requests) == 1  # the second answer came from the cache
    sent = ChatCompletions.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer test-key"
    assert sent["body"]["model"] == "test-model" and sent["body"]["temperature"] == 0.1
    system = sent["body"]["messages"][0]["content"]
    assert "Answer only using information from the retrieved book content" in system
    assert "CONTEXT:" in sent["body"]["messages"][1]["content"]


def test_llm_failure_falls_back_to_the_extractive_answer():
    proc, base = start_server(env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                                   "RAG_LLM_TIMEOUT": "2"})
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            body = ask(c, query="How much should a newsvendor order?").json()
    finally:
        proc.terminate()
        proc.wait()
    assert body["status"] == "success" and body["citations"]
    assert body["error_type"] == "connection_error" and body["fallback_action"] == "use_default_response"
    assert "LLM unavailable" in body["error"]


def test_mcp_answer_question(server):
    import asyncio

    from fastmcp.client import Client, StreamableHttpTransport

    async def go():
        async with Client(StreamableHttpTransport(server + "/mcp/all")) as c:
            ok = await c.call_tool("answer_question", {"query": "What is conditional value at risk?", "top_k": 100})
            bad = await c.call_tool("answer_question", {"query": " "}, raise_on_error=False)
            too_many = await c.call_tool("answer_question", {"query": "What is CVaR?", "top_k": 101},
                                         raise_on_error=False)
            return ok, bad, too_many

    ok, bad, too_many = asyncio.run(go())
    assert ok.structured_content["status"] == "success" and ok.structured_content["citations"]
    assert CITATION <= set(ok.structured_content["citations"][0])
    assert bad.is_error and "query" in bad.content[0].text
    assert too_many.is_error and "between 1 and 100" in too_many.content[0].text


def test_empty_results_error_type(client):
    """A selection with no words in it gives nothing to retrieve: refused, empty_results."""
    body = ask(client, query="What is the reorder point?", mode="selected_text_only",
               selected_text="--- 12 34 ---\n\n* * *").json()
    assert body["status"] == "refused" and body["confidence"] == "none"
    assert body["error_type"] == "empty_results" and body["fallback_action"] == "refuse_answer"
    tool = client.post("/tools/retrieve_content", json={"query": "x", "selected_text_only": True,
                                                         "selected_text_content": "--- 12 ---"}).json()
    assert tool == {"chunks": [], "empty_retrieval": True, "conflicting_info": False}


def test_service_unavailable_when_the_knowledge_file_is_damaged(tmp_path):
    """The file is truncated under a running server: /ask answers 503 service_unavailable, not a trace."""
    import shutil

    from conftest import KNOWLEDGE

    db = tmp_path / "k.sqlite"
    shutil.copy(KNOWLEDGE, db)
    proc, base = start_server("--db", str(db))
    try:
        with open(db, "r+b") as f:
            f.truncate(8192)
        resp = HTTP.post(base + "/ask", json={"query": "How much should a newsvendor order?"}, timeout=30)
        assert resp.status_code == 503
        body = resp.json()
        assert body["error_type"] == "service_unavailable" and body["fallback_action"] == "retry"
        assert "Traceback" not in resp.text
    finally:
        proc.terminate()
        proc.wait()
