"""The CLI answers from the file with no server, and fails with one clear line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import HTTP, ROOT


def rag(*args, **kw):
    return subprocess.run([sys.executable, str(ROOT / "rag.py"), *args], capture_output=True, text=True,
                          timeout=60, **kw)


def test_search_prints_results():
    proc = rag("search", "expected utility", "-k", "3")
    assert proc.returncode == 0, proc.stderr
    lines = [l for l in proc.stdout.splitlines() if l.strip()]
    assert len(lines) == 3 and all(" p." in l for l in lines)


def test_search_json():
    proc = rag("search", "expected utility", "-k", "2", "--json")
    body = json.loads(proc.stdout)
    assert body["total_count"] == 2


def test_entity_and_expand(kb):
    number = kb.db.execute("SELECT number FROM chunks WHERE kind='algorithm' ORDER BY ord").fetchone()[0]
    body = json.loads(rag("entity", "algorithm", number).stdout)
    assert body["number"] == number
    body = json.loads(rag("expand", body["id"]).stdout)
    assert "expanded_documents" in body


def test_installed_bookrag_command_builds_then_answers(tmp_path):
    """`pip install` gives a `bookrag` command: build a docs tree with it, then query the file it wrote."""
    from pathlib import Path

    command = Path(sys.executable).parent / "bookrag"
    assert command.is_file(), "the project is installed with `pip install -e .`, which makes the bookrag command"

    def bookrag(*args):
        return subprocess.run([str(command), *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)

    usage = bookrag("build", "--help")
    assert usage.returncode == 0 and usage.stdout.startswith("usage: bookrag build") and "--tags" in usage.stdout
    out = tmp_path / "site.sqlite"
    built = bookrag("build", str(ROOT / "tests" / "fixtures" / "docs-book"), "-o", str(out), "--quiet")
    assert built.returncode == 0 and out.is_file(), built.stderr
    info = json.loads(bookrag("--db", str(out), "info").stdout)
    assert info["counts"]["text"] > 0 and info["source"] == "docs-book"
    found = json.loads(bookrag("search", "moving average forecast", "-k", "2", "--json", "--db", str(out)).stdout)
    assert found["total_count"] == 2
    for args in (["serve", "--help"], ["search", "--help"], ["entity", "--help"], ["expand", "--help"]):
        helped = bookrag(*args)
        assert helped.returncode == 0 and helped.stdout.startswith(f"usage: bookrag {args[0]}"), helped.stderr


def test_missing_knowledge_file(tmp_path):
    proc = rag("--db", str(tmp_path / "missing.sqlite"), "search", "anything")
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("bookrag: error: knowledge file not found")
    assert "Traceback" not in proc.stderr


def test_not_a_knowledge_file(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    proc = rag("--db", str(bad), "serve", "--port", "1")
    assert proc.returncode == 2 and "not a readable knowledge file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_missing_model(tmp_path):
    proc = rag("--models", str(tmp_path), "search", "anything")
    assert proc.returncode == 2 and "model file missing" in proc.stderr


def one_line_error(proc, *fragments):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bookrag: error:"), proc.stderr
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_truncated_knowledge_file(tmp_path):
    from conftest import KNOWLEDGE

    bad = tmp_path / "k.sqlite"
    bad.write_bytes(KNOWLEDGE.read_bytes()[:4096])
    one_line_error(rag("--db", str(bad), "serve", "--port", "1"), "not a readable knowledge file")


def test_wrong_schema_version(tmp_path):
    import shutil

    import apsw

    from conftest import KNOWLEDGE

    other = tmp_path / "k.sqlite"
    shutil.copy(KNOWLEDGE, other)
    db = apsw.Connection(str(other))
    db.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    db.close()
    one_line_error(rag("--db", str(other), "search", "x"), "schema version '0'", "rebuild it")


def model_copy(tmp_path):
    import shutil

    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models)
    return models


def test_corrupt_model_file(tmp_path):
    models = model_copy(tmp_path)
    (models / "model.onnx").write_bytes(b"not an onnx graph" * 1000)
    one_line_error(rag("--models", str(models), "search", "x"), "model.onnx cannot be loaded")


def test_model_and_knowledge_file_disagree(tmp_path):
    models = model_copy(tmp_path)
    info = json.loads((models / "model.json").read_text())
    info["dim"], info["onnx_sha256"] = 768, "0" * 64
    (models / "model.json").write_text(json.dumps(info))
    one_line_error(rag("--models", str(models), "serve", "--port", "1"), "was embedded with model",
                   "rebuild the knowledge file or restore the model")


def test_a_writer_holding_a_lock_does_not_stop_the_reader(tmp_path):
    """The service opens the file read-only and immutable: another process's lock cannot block it."""
    import shutil

    import apsw

    from conftest import KNOWLEDGE

    path = tmp_path / "k.sqlite"
    shutil.copy(KNOWLEDGE, path)
    writer = apsw.Connection(str(path))
    writer.execute("BEGIN EXCLUSIVE")
    try:
        proc = rag("--db", str(path), "search", "value iteration", "-k", "2")
        assert proc.returncode == 0 and len(proc.stdout.strip().splitlines()) == 2
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_options_before_or_after_the_command(tmp_path):
    missing = str(tmp_path / "nope.sqlite")
    for argv in (["--db", missing, "search", "x"], ["search", "x", "--db", missing],
                 ["serve", "--db", missing, "--port", "1"]):
        proc = rag(*argv)
        assert proc.returncode == 2 and "knowledge file not found" in proc.stderr, argv
    assert json.loads(rag("entity", "formula", "4.10", "--json").stdout)["id"] == "formula_4_10"


def test_serves_from_a_read_only_filesystem(read_only_dir):
    """Cloud Run and Lambda give a read-only root: the service needs no write anywhere near its files."""
    import shutil

    import httpx

    from conftest import KNOWLEDGE, start_server

    shutil.copy(KNOWLEDGE, read_only_dir.source / "knowledge.sqlite")
    shutil.copytree(ROOT / "models", read_only_dir.source / "models")
    folder = read_only_dir.seal()
    with pytest.raises(OSError):
        (folder / "probe").write_text("x")
    proc, base = start_server("--db", str(folder / "knowledge.sqlite"), "--models", str(folder / "models"))
    try:
        assert HTTP.post(base + "/search/semantic", json={"query": "value iteration", "k": 2}).json()["total_count"] == 2
        mcp = HTTP.post(base + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                         headers={"accept": "application/json, text/event-stream"})
        assert mcp.status_code == 200 and mcp.json()["result"]["tools"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert sorted(p.name for p in folder.iterdir()) == ["knowledge.sqlite", "models"]


@pytest.mark.parametrize("name, value, fragment", [
    ("RAG_SEARCH_THREADS", "many", "RAG_SEARCH_THREADS must be a whole number"),
    ("RAG_SEARCH_THREADS", "0", "RAG_SEARCH_THREADS must be a whole number"),
    ("RAG_RATE_LIMIT", "lots", "RAG_RATE_LIMIT must look like '60/minute'"),
    ("RAG_REQUEST_BUDGET", "soon", "RAG_REQUEST_BUDGET must be a number of seconds"),
    ("RAG_REQUEST_BUDGET", "0", "RAG_REQUEST_BUDGET must be a number of seconds"),
    ("RAG_REQUEST_BUDGET", "nan", "RAG_REQUEST_BUDGET must be a number of seconds"),
])
def test_bad_settings_stop_the_start(name, value, fragment):
    import os

    for workers in ("1", "2"):
        proc = rag("serve", "--port", "1", "--workers", workers, env={**os.environ, name: value})
        one_line_error(proc, fragment)
