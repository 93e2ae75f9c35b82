"""The CLI answers from the file with no server, and fails with one clear line."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT


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
