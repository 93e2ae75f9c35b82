"""spec 03 lesson-scoped search over real HTTP, on a Markdown docs tree and on the PDF book."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from conftest import ROOT, start_server

DOCS = ROOT / "tests" / "fixtures" / "docs-book"
QUESTIONS = json.loads((ROOT / "tests" / "fixtures" / "docs-book-questions.json").read_text())
METADATA_KEYS = {"chapter", "chapter_number", "chapter_title", "lesson", "lesson_number", "lesson_title",
                 "file_path", "chunk_index", "content_type", "heading", "topics", "difficulty"}


@pytest.fixture(scope="module")
def site_db(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site.sqlite"
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(DOCS), "-o", str(out), "--quiet",
                           "--base-url", "https://docs.example.org/guide"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def site(site_db):
    proc, base = start_server("--db", str(site_db), env={"RAG_RATE_LIMIT": "10000/minute"})
    with httpx.Client(base_url=base, timeout=10) as client:
        yield client
    proc.terminate()
    proc.wait()


def search(client, **body):
    return client.post("/api/rag/search", json=body)


def test_docs_tree_structure(site_db):
    import apsw

    db = apsw.Connection(str(site_db))
    modules = {r[0] for r in db.execute("SELECT number FROM sections WHERE level = 0")}
    chapters = db.execute("SELECT count(*) FROM sections WHERE level = 1").fetchone()[0]
    lessons = db.execute("SELECT count(*) FROM sections WHERE level = 2").fetchone()[0]
    assert modules == {"intro", "forecasting", "planning"}
    assert chapters >= 6 and lessons >= 15
    kinds = {json.loads(e)["content_type"] for (e,) in db.execute("SELECT extra FROM chunks")}
    assert {"text", "code"} <= kinds
    # Bold captions make numbered entities, and "see Equation 5.1" elsewhere references them.
    entities = {i for (i,) in db.execute("SELECT id FROM chunks WHERE kind != 'text'")}
    assert {"formula_3_1", "formula_5_1", "algorithm_5_1", "algorithm_5_2", "algorithm_7_1"} <= entities
    referrers = db.execute("SELECT count(*) FROM edges WHERE dst = 'formula_5_1' AND rel = 'REFERENCES'").fetchone()[0]
    assert referrers >= 2
    assert "$$" in db.execute("SELECT content FROM chunks WHERE id = 'formula_5_1'").fetchone()[0]  # LaTeX kept


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["lesson"] for q in QUESTIONS])
def test_lesson_scope_stays_in_the_lesson(site, q):
    body = search(site, query=q["question"], scope="current_lesson", current_chapter=q["chapter"],
                  current_lesson=q["lesson"], n_results=5).json()
    assert body["scope"] == "current_lesson" and body["results"]
    for r in body["results"]:
        assert r["metadata"]["chapter"] == q["chapter"] and r["metadata"]["lesson"] == q["lesson"]
        assert METADATA_KEYS <= set(r["metadata"])
        assert 0.0 <= r["score"] <= 1.0
    assert body["total_results"] == len(body["results"])
    assert isinstance(body["search_time_ms"], int)


def test_chapter_scope(site):
    q = QUESTIONS[0]
    body = search(site, query=q["question"], scope="current_chapter", current_chapter=q["chapter"],
                  n_results=10).json()
    assert body["results"] and {r["metadata"]["chapter"] for r in body["results"]} == {q["chapter"]}


def test_entire_book_finds_the_lesson(site):
    hits = 0
    for q in QUESTIONS:
        body = search(site, query=q["question"], scope="entire_book", n_results=5).json()
        files = [r["metadata"]["file_path"] for r in body["results"]]
        hits += any(f.endswith(q["file"]) for f in files)
    assert hits >= len(QUESTIONS) - 2, f"{hits}/{len(QUESTIONS)} questions found their lesson in the top 5"


def test_auto_scope_lesson_then_chapter_then_book(site):
    q = QUESTIONS[0]
    body = search(site, query=q["question"], scope="auto", current_chapter=q["chapter"],
                  current_lesson=q["lesson"], n_results=10).json()
    levels = [r["metadata"]["scope_level"] for r in body["results"]]
    assert levels[0] == "current_lesson"
    assert levels == sorted(levels, key=["current_lesson", "current_chapter", "entire_book"].index)
    assert len({r["chunk_id"] for r in body["results"]}) == len(levels)


def test_page_urls_and_metadata(site):
    r = search(site, query="safety stock", scope="entire_book", n_results=1).json()["results"][0]
    meta = r["metadata"]
    assert meta["page_url"].startswith("https://docs.example.org/guide/")
    assert meta["module"] in {"intro", "forecasting", "planning"}
    assert meta["difficulty"] in {"beginner", "intermediate", "advanced"}
    assert isinstance(meta["topics"], list) and meta["topics"]


def test_no_results_for_an_unknown_lesson(site):
    body = search(site, query="anything", scope="current_lesson", current_chapter="99-nope",
                  current_lesson="01-nothing").json()
    assert body["results"] == [] and body["total_results"] == 0


def envelope(resp, status, code, field=None):
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) >= {"error", "details", "timestamp", "request_id"}
    assert any(d["code"] == code and (field is None or d.get("field") == field) for d in body["details"]), body
    return body


def test_invalid_scope(site):
    envelope(search(site, query="x", scope="everything"), 400, "INVALID_SCOPE", "scope")


def test_missing_context(site):
    body = envelope(search(site, query="x", scope="current_lesson", current_lesson="01-a"), 400,
                    "MISSING_REQUIRED_FIELD", "current_chapter")
    assert body["details"][0]["message"] == "current_chapter is required when scope is 'current_lesson'"
    envelope(search(site, query="x", scope="current_lesson", current_chapter="01-a"), 400,
             "MISSING_REQUIRED_FIELD", "current_lesson")
    envelope(search(site, query="x", scope="current_chapter"), 400, "MISSING_REQUIRED_FIELD", "current_chapter")
    envelope(search(site, query="x"), 400, "MISSING_REQUIRED_FIELD", "current_chapter")  # default scope is lesson


def test_long_and_empty_query(site):
    envelope(search(site, query="x" * 501, scope="entire_book"), 422, "INVALID_QUERY_LENGTH", "query")
    envelope(search(site, query="", scope="entire_book"), 422, "INVALID_QUERY_LENGTH", "query")
    envelope(search(site, query="   ", scope="entire_book"), 422, "INVALID_QUERY_LENGTH", "query")
    envelope(search(site, scope="entire_book"), 400, "MISSING_REQUIRED_FIELD", "query")


@pytest.mark.parametrize("n", [0, 21, "5", 2.5, True])
def test_n_results_range(site, n):
    envelope(search(site, query="x", scope="entire_book", n_results=n), 400, "INVALID_N_RESULTS", "n_results")


def test_malformed_json_and_request_id(site):
    resp = site.post("/api/rag/search", content=b"{nope", headers={"content-type": "application/json",
                                                                   "X-Request-ID": "req_abc123"})
    body = envelope(resp, 400, "INVALID_JSON")
    assert body["request_id"] == "req_abc123" and resp.headers["x-request-id"] == "req_abc123"


def test_pdf_book_lessons_are_sections(client):
    body = client.post("/api/rag/search", json={"query": "value iteration stopping rule", "scope": "current_lesson",
                                                 "current_chapter": "5", "current_lesson": "5.4"},
                       headers={"X-Session-ID": "pdf-book-test"}).json()
    assert body["results"]
    for r in body["results"]:
        assert r["metadata"]["chapter"] == "5" and r["metadata"]["lesson"] == "5.4"
        assert r["metadata"]["chapter_number"] == 5 and r["metadata"]["lesson_number"] == 4
        assert isinstance(r["metadata"]["page"], int)


def test_rate_limit_per_session(site_db):
    proc, base = start_server("--db", str(site_db), env={"RAG_RATE_LIMIT": "5/minute"})
    try:
        with httpx.Client(base_url=base) as c:
            body = {"query": "reorder point", "scope": "entire_book"}
            codes = [c.post("/api/rag/search", json=body, headers={"X-Session-ID": "a"}).status_code
                     for _ in range(6)]
            assert codes == [200] * 5 + [429]
            limited = c.post("/api/rag/search", json=body, headers={"X-Session-ID": "a"})
            b = envelope(limited, 429, "RATE_LIMIT_EXCEEDED")
            assert 0 < b["retry_after"] <= 60 and limited.headers["retry-after"] == str(b["retry_after"])
            assert c.post("/api/rag/search", json=body, headers={"X-Session-ID": "b"}).status_code == 200
            assert c.post("/search/semantic", json={"query": "reorder point"},
                          headers={"X-Session-ID": "a"}).status_code == 200  # only spec 03's route is limited
    finally:
        proc.terminate()
        proc.wait()
