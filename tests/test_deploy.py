"""Deployment paths: the Lambda handler with real API Gateway v2 events, and the container's commands."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import venv
from pathlib import Path

import httpx
import pytest

from conftest import HTTP, ROOT, free_port, started_work


def v2_event(method: str, path: str, body: dict | None = None, query: str = "", headers: dict | None = None) -> dict:
    """An API Gateway HTTP API (payload format 2.0) / Lambda function URL event."""
    return {
        "version": "2.0", "routeKey": "$default", "rawPath": path, "rawQueryString": query,
        "headers": {"host": "abc123.lambda-url.eu-west-1.on.aws", "content-type": "application/json",
                    "accept": "application/json, text/event-stream", **(headers or {})},
        "requestContext": {"http": {"method": method, "path": path, "protocol": "HTTP/1.1",
                                    "sourceIp": "203.0.113.7", "userAgent": "test"},
                           "requestId": "req-1", "stage": "$default"},
        "body": json.dumps(body) if body is not None else None, "isBase64Encoded": False,
    }


def test_lambda_handler_cold_then_warm(monkeypatch):
    monkeypatch.setenv("RAG_MCP_ALLOWED_HOSTS", "abc123.lambda-url.eu-west-1.on.aws")
    import rag

    monkeypatch.setattr(rag, "_lambda_adapter", None)  # a fresh container
    t = time.perf_counter()
    cold = rag.handler(v2_event("GET", "/health"))
    cold_s = time.perf_counter() - t
    assert cold["statusCode"] == 200 and json.loads(cold["body"])["status"] == "ok"
    t = time.perf_counter()
    warm = rag.handler(v2_event("GET", "/health"))
    assert warm["statusCode"] == 200 and time.perf_counter() - t < cold_s

    search = rag.handler(v2_event("POST", "/search/semantic", {"query": "POMDP belief update", "k": 3}))
    assert search["statusCode"] == 200 and len(json.loads(search["body"])["results"]) == 3
    assert search["headers"]["x-request-id"]

    entity = rag.handler(v2_event("GET", "/entity/algorithm/5.3"))
    assert entity["statusCode"] == 200 and json.loads(entity["body"])["id"] == "algorithm_5_3"
    missing = rag.handler(v2_event("GET", "/entity/algorithm/99.9"))
    assert missing["statusCode"] == 404 and json.loads(missing["body"])["error_code"] == "NOT_FOUND"

    # MCP over the same handler, twice: the session manager started once and keeps serving.
    for attempt in range(2):
        call = rag.handler(v2_event("POST", "/mcp", {
            "jsonrpc": "2.0", "id": attempt + 1, "method": "tools/call",
            "params": {"name": "get_entity_by_number", "arguments": {"entity_type": "formula", "number": "4.10"}}},
            headers={"mcp-protocol-version": "2025-11-25"}))
        assert call["statusCode"] == 200, call
        result = json.loads(call["body"])["result"]
        assert result["structuredContent"]["result"]["id"] == "formula_4_10"
    assert rag.handler(v2_event("GET", "/mcp"))["statusCode"] == 405


def dockerfile():
    text = (ROOT / "Dockerfile").read_text()
    env = dict(re.findall(r"(\w+)=(\S+)", " ".join(re.findall(r"^ENV\s+(.*?)(?<!\\)$", text.replace("\\\n", " "),
                                                                       re.MULTILINE))))
    copies = [line.split()[1:-1] for line in text.splitlines() if line.startswith("COPY ")]
    run = next(line[4:] for line in text.splitlines() if line.startswith("RUN "))
    cmd = json.loads(next(line[4:] for line in text.splitlines() if line.startswith("CMD ")))
    return env, [src for group in copies for src in group], run, cmd


@pytest.mark.skipif(shutil.which("useradd") is None, reason="the image's RUN line needs useradd")
def runtime_install(folder: Path) -> dict:
    """The image's install command replayed in `folder`: the Dockerfile's files copied, a fresh venv,
    `pip install .` (runtime dependencies only).  Started with the session (conftest): a long pip run
    that needs nothing the other tests make."""
    env, sources, run, cmd = dockerfile()
    app = folder / "app"
    app.mkdir()
    for src in sources:
        target = app / src.rstrip("/")
        (shutil.copytree if (ROOT / src).is_dir() else shutil.copy2)(ROOT / src, target)
    # A link to this interpreter, not a copy: a copy is open for writing while the session's other
    # threads fork their subprocesses, and a child holding it until its exec made running the new
    # interpreter fail with "Text file busy" (ETXTBSY), seen once in CI
    venv.create(folder / "venv", with_pip=True, symlinks=True)
    py = str(folder / "venv" / "bin" / "python")
    install = run.split("&&")[0].strip().split()  # "pip install ."; the useradd part needs root in an image
    proc = subprocess.run([py, "-m", *install, "--quiet", "--disable-pip-version-check"], cwd=app,
                          capture_output=True, text=True, timeout=900) if install == ["pip", "install", "."] else None
    installed = subprocess.run([py, "-m", "pip", "list", "--format=json"], capture_output=True, text=True).stdout
    return {"env": env, "cmd": cmd, "install": install, "app": app, "py": py, "venv": folder / "venv",
            "returncode": proc.returncode if proc else None, "stderr": proc.stderr[-2000:] if proc else "",
            "names": {p["name"].lower() for p in json.loads(installed)}}


def test_container_commands_in_a_fresh_runtime_venv(tmp_path):
    """The image's install and start commands, replayed: runtime only, read-only app, /health and search."""
    made = started_work("runtime_venv", lambda: runtime_install(tmp_path))
    env, cmd, app, py, names = made["env"], made["cmd"], made["app"], made["py"], made["names"]
    assert made["install"] == ["pip", "install", "."]
    assert made["returncode"] == 0, made["stderr"]
    assert not names & {"pypdfium2", "pdfplumber", "pypdf", "pdfminer.six", "torch", "pytest", "fastmcp", "chromadb"}
    # One web framework at run time (Litestar; the MCP SDK brings Starlette for its own server): the
    # API docs' files come from a package that ships only them.
    assert not names & {"fastapi", "fastapi-offline", "flask", "django"}, names
    assert "openapi-ui-bundles" in names
    size_mb = sum(f.stat().st_size for f in made["venv"].rglob("*") if f.is_file()) / 1e6
    print(f"\nruntime environment: {len(names)} packages, {size_mb:.0f} MB installed")
    for path in [app, *app.rglob("*")]:  # a read-only root filesystem, as far as the app can tell
        path.chmod(path.stat().st_mode & ~0o222)
    port = free_port()
    run_env = {**os.environ, **env, "PORT": str(port), "RAG_DB": str(app / "knowledge.sqlite"),
               "RAG_MODEL_DIR": str(app / "models"), "HOST": "127.0.0.1"}
    server = subprocess.Popen([py, *cmd[1:]], cwd=app, env=run_env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if HTTP.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail(f"the container command did not serve /health: {server.stderr.read()[-2000:]}")
        resp = HTTP.post(f"http://127.0.0.1:{port}/search/semantic", json={"query": "CVaR tail risk"})
        assert resp.status_code == 200 and resp.json()["total_count"] == 5
    finally:
        server.terminate()
        server.wait(timeout=10)
        for path in [app, *app.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
    # The runtime never imports the builder or a PDF library, even after serving every route.
    probe = ("import sys, rag\nkb = rag.KnowledgeBase()\napp = rag.create_app(kb)\nkb.search('value iteration')\n"
             "import rag_answers; rag_answers.answer(kb, 'What is CVaR?')\n"
             "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
             "('build_db', 'build_glyphs', 'build_pdf', 'build_layout', 'build_heads', 'build_page', 'build_roles', 'build_markdown', "
             "'build_common', 'build_math', 'build_formula', 'pdfplumber', 'pypdf', 'pdfminer', 'torch', "
             "'pypdfium2'))\nprint(bad)\n")
    out = subprocess.run([py, "-c", probe], cwd=app, env={**run_env}, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
