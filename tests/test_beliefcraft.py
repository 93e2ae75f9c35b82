"""BeliefCraft's agent as a client: fastmcp 3.1.0 on mcp 1.26.0 against a served rag.py.

Their agent connects once to RAG_API_URL/mcp, lists the tools and hands each to its LLM.  Our
server needs mcp 2, so their pinned client runs in a virtual environment of its own, created once
and cached (BOOKRAG_CACHE, default ~/.cache/bookrag).  It runs tests/mcp_pinned_client.py against
two real services: one bound to 127.0.0.1, and one bound to 0.0.0.0 as in their compose file,
called with `Host: rag-service:8001`.  The knowledge file is built here by build_db.py with a tags
file in their concept_tags.json format (tests/fixtures/search_tags.json, our own vocabulary) and
a table list (tests/fixtures/search_tables.txt).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import venv
from pathlib import Path

import pytest

from conftest import HTTP, ROOT, TABLES_FILE as TABLES, TAGS_FILE as TAGS, start_server

PINS = ("fastmcp==3.1.0", "mcp==1.26.0")
FIVE = {"search_knowledge_base", "expand_graph_by_ids", "get_entity_by_number", "get_related_code_definitions",
        "get_search_tags_catalog"}
CLIENT = ROOT / "tests" / "mcp_pinned_client.py"


def _unavailable(message: str):
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def pinned_python() -> str:
    """The python of a cached venv holding exactly BeliefCraft's client pins (made on first use)."""
    cache = Path(os.environ.get("BOOKRAG_CACHE", Path.home() / ".cache" / "bookrag"))
    env_dir = cache / "bc-client-fastmcp3.1.0-mcp1.26.0"
    python = env_dir / "bin" / "python"
    check = "from importlib.metadata import version; print(version('fastmcp'), version('mcp'))"
    if python.exists():
        probe = subprocess.run([str(python), "-c", check], capture_output=True, text=True)
        if probe.returncode == 0 and probe.stdout.split() == ["3.1.0", "1.26.0"]:
            return str(python)
    try:
        # linked, not copied: see test_deploy.runtime_install (a copied interpreter can be "busy")
        venv.create(env_dir, with_pip=True, clear=True, symlinks=True)
    except Exception as exc:  # noqa: BLE001 - any failure to make a venv means the test cannot run
        _unavailable(f"cannot create a virtual environment for the pinned MCP client: {exc}")
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], capture_output=True, text=True,
                             timeout=900)
    if install.returncode != 0:
        _unavailable(f"cannot install {' '.join(PINS)} (no network?): {install.stderr.strip()[-500:]}")
    return str(python)


@pytest.fixture(scope="session")
def loopback_service(tagged_db):
    proc, base = start_server("--db", str(tagged_db))
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def container_service(tagged_db):
    """Bound to every interface, as in a container; RAG_MCP_ALLOWED_HOSTS unset."""
    env = {k: v for k, v in os.environ.items() if k != "RAG_MCP_ALLOWED_HOSTS"}
    proc, base = start_server("--db", str(tagged_db), host="0.0.0.0", env=env)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def pinned_client(python: str, url: str, calls=(), headers: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    proc = subprocess.run([python, str(CLIENT), url, json.dumps({"calls": list(calls), "headers": headers})],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def tags_of(db: Path, ids) -> dict[str, set[str]]:
    with sqlite3.connect(db) as conn:
        return {i: {t for (t,) in conn.execute("SELECT tag FROM chunk_tags WHERE chunk_id = ?", (i,))} for i in ids}


@pytest.fixture(scope="session")
def session_result(pinned_python, loopback_service):
    calls = [
        ("search_knowledge_base", {"query": "belief update", "k": 3,
                                   "filters": {"section": "8", "subsection": None, "part": None, "page_number": None}}),
        ("search_knowledge_base", {"query": "MC", "k": 3}),
        ("search_knowledge_base", {"query": "Q"}),
        ("get_search_tags_catalog", {"tag_type": "concepts"}),
        ("get_search_tags_catalog", {"tag_type": "concepts", "category": "LEARNING_BY_TRIAL"}),
        ("get_search_tags_catalog", {"tag_type": "tables", "category": None}),
        ("search_knowledge_base", {"query": "updating beliefs from observations", "k": 5}),
        ("search_knowledge_base", {"query": "updating beliefs from observations", "k": 5,
                                   "search_tags": {"bc_concepts": ["PARTICLE_FILTER"], "bc_db_tables": None}}),
        ("get_related_code_definitions", {"document_ids": ["algorithm_5_3"]}),
        ("search_knowledge_base", {"query": "value iteration", "top_k": 3}),
        ("get_search_tags_catalog", {"tag_type": "concepts", "category": "NO_SUCH_CATEGORY"}),
        ("search_knowledge_base", {"query": "value iteration", "search_tags": {"bc_concepts": ["NO_SUCH_TAG"]}}),
        ("search_knowledge_base", {"query": "   "}),
    ]
    out = pinned_client(pinned_python, loopback_service + "/mcp", calls)
    assert out["versions"] == {"fastmcp": "3.1.0", "mcp": "1.26.0"}
    return out


def test_pinned_client_sees_exactly_the_five_tools(session_result):
    tools = {t["name"]: t for t in session_result["tools"]}
    assert set(tools) == FIVE
    for tool in tools.values():
        assert tool["description"] and len(tool["description"].strip()) > 40
        assert tool["input_schema"]["type"] == "object"
        assert tool["input_schema"]["additionalProperties"] is False
    search = tools["search_knowledge_base"]["input_schema"]
    assert set(search["properties"]) == {"query", "k", "traverse_types", "filters", "search_tags"}
    filters = search["$defs"]["SearchFilters"]["properties"]
    for field in ("part", "section", "subsection", "subsubsection", "page_number"):
        assert {"type": "null"} in filters[field]["anyOf"], field
    assert set(search["$defs"]["SearchTags"]["properties"]) == {"bc_concepts", "bc_db_tables"}
    category = tools["get_search_tags_catalog"]["input_schema"]["properties"]["category"]
    enum = next(branch["enum"] for branch in category["anyOf"] if "enum" in branch)
    assert enum == list(json.loads(TAGS.read_text())["tags"])


def test_null_filters_and_short_queries(session_result):
    nulls, two, one = session_result["calls"][:3]
    assert not nulls["is_error"], nulls["text"]
    docs = nulls["structured"]["result"]
    assert docs and all(d["metadata"]["section_number"] == "8" for d in docs)
    for call in (two, one):
        assert not call["is_error"], call["text"]
        assert call["structured"]["result"]


def test_catalog_of_concepts_and_tables(session_result):
    every, one_category, tables = session_result["calls"][3:6]
    vocabulary = json.loads(TAGS.read_text())["tags"]
    names = [t if isinstance(t, str) else t["name"] for tags in vocabulary.values() for t in tags]
    for call in (every, one_category, tables):
        assert not call["is_error"], call["text"]
    assert every["structured"]["content"] == "Available search_tags concepts"
    assert every["structured"]["metadata"]["items"] == names
    assert every["structured"]["metadata"]["selected_category"] is None
    assert one_category["structured"]["metadata"] == {
        "tag_type": "concepts", "selected_category": "LEARNING_BY_TRIAL", "items": vocabulary["LEARNING_BY_TRIAL"]}
    assert tables["structured"]["content"] == "Available search_tags tables"
    listed = [line.strip() for line in TABLES.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert tables["structured"]["metadata"]["items"] == listed


def test_search_tags_boost_results_that_carry_them(session_result, tagged_db):
    plain, boosted = session_result["calls"][6:8]
    assert not plain["is_error"] and not boosted["is_error"], boosted["text"]
    before = [d["id"] for d in plain["structured"]["result"]]
    after = [d["id"] for d in boosted["structured"]["result"]]
    tags = tags_of(tagged_db, before + after)
    carrying = lambda ids: [i for i in ids if "PARTICLE_FILTER" in tags[i]]  # noqa: E731
    assert len(carrying(after)) > len(carrying(before))
    # +0.1 per shared tag: every result that carries the tag and was already shown stays ahead of
    # every result that does not carry it and was below it before.
    for tagged in carrying(after):
        for other in after:
            if other not in carrying(after) and tagged in before and other in before \
                    and before.index(tagged) < before.index(other):
                assert after.index(tagged) < after.index(other)
    assert set(before) != set(after)


def test_code_definitions_are_one_document(session_result):
    call = session_result["calls"][8]
    assert not call["is_error"], call["text"]
    doc = call["structured"]
    assert set(doc) >= {"id", "content", "metadata"}
    assert "def lookahead" in doc["content"]
    assert doc["metadata"]["source_ids"] == ["algorithm_5_1"]


def test_bad_arguments_are_tool_errors_that_say_why(session_result):
    unknown_arg, bad_category, bad_tag, blank = session_result["calls"][9:13]
    for call in (unknown_arg, bad_category, bad_tag, blank):
        assert call["is_error"]
    assert "top_k" in unknown_arg["text"]
    assert "category" in bad_category["text"]
    assert "NO_SUCH_TAG" in bad_tag["text"]
    assert "query" in blank["text"]


def test_compose_hostname_reaches_a_service_bound_to_every_interface(pinned_python, container_service):
    port = container_service.rsplit(":", 1)[1]
    out = pinned_client(pinned_python, container_service + "/mcp",
                        [("search_knowledge_base", {"query": "safety stock", "k": 1})],
                        headers={"Host": f"rag-service:{port}"})
    assert {t["name"] for t in out["tools"]} == FIVE
    assert not out["calls"][0]["is_error"]


def test_loopback_service_refuses_foreign_hosts(loopback_service):
    import httpx

    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    foreign = HTTP.post(loopback_service + "/mcp", json=body, headers={**headers, "Host": "rag-service:8001"},
                         timeout=60)
    assert foreign.status_code == 421
    local = HTTP.post(loopback_service + "/mcp", json=body, headers=headers, timeout=60)
    assert local.status_code == 200


def test_answer_question_is_on_its_own_path(pinned_python, loopback_service):
    out = pinned_client(pinned_python, loopback_service + "/mcp/all")
    # /mcp/all also has the navigation tools of issue 27 (tests/test_navigate.py)
    assert {t["name"] for t in out["tools"]} == FIVE | {"answer_question", "get_book_outline", "read_book",
                                                        "check_quote", "search_formulas", "lookup_notation"}
