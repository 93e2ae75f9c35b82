"""The README's example commands, run as written against a served process, so that they never drift.

Every `curl` line of the README's shell blocks goes to a service started on a free port (the
README's `localhost:8001` rewritten to it); every `.venv/bin/bookrag` line that reads the file
(search, entity, expand, info) runs with this venv's command.  The set-up lines (venv, pip) and
the build of a PDF named only as an example are checked for shape, not run.  The docs pages'
links are checked too: every relative link names a file that exists.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

README = ROOT / "README.md"
SHELL_BLOCK_RE = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
QUERY_COMMANDS = ("search", "entity", "expand", "info")


def shell_lines() -> list[str]:
    """The README's shell commands, one per line, comments dropped."""
    lines = []
    for block in SHELL_BLOCK_RE.findall(README.read_text()):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(line)
    return lines


def curl_lines() -> list[str]:
    return [line for line in shell_lines() if line.startswith("curl ")]


def bookrag_query_lines() -> list[list[str]]:
    out = []
    for line in shell_lines():
        words = shlex.split(line, comments=True)
        if words[0] == ".venv/bin/bookrag" and words[1] in QUERY_COMMANDS:
            out.append(words[1:])
    return out


def test_the_readme_has_the_two_set_up_commands_and_examples():
    lines = shell_lines()
    assert any(l.startswith("python3 -m venv .venv") and l.endswith(".venv/bin/bookrag serve") for l in lines)
    assert any(l.endswith(".venv/bin/python -m pytest -q") and "'.[build,test]'" in l for l in lines)
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install --quiet -e '.[build,test]'" in ci and ".venv/bin/python -m pytest -q" in ci
    assert len(curl_lines()) >= 4 and len(bookrag_query_lines()) >= 4


@pytest.mark.parametrize("line", curl_lines())
def test_readme_curl_example_answers(server, line):
    """Run with curl itself (its defaults, such as the form content type of -d, are part of the example)."""
    assert "localhost:8001" in line, line
    port = server.rsplit(":", 1)[1]
    words = shlex.split(line.replace("localhost:8001", f"127.0.0.1:{port}"))
    proc = subprocess.run([*words, "-w", "\n%{http_code}"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    body, status = proc.stdout.rsplit("\n", 1)
    assert status == "200", (line, status, body[:500])
    answer = json.loads(body)
    assert answer and answer.get("status", "ok") in ("ok", "success"), body[:500]  # /health, /ask


@pytest.mark.parametrize("args", bookrag_query_lines(), ids=lambda a: " ".join(a))
def test_readme_bookrag_example_answers(args):
    command = Path(sys.executable).parent / "bookrag"
    proc = subprocess.run([str(command), *args], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    assert out, args
    if args[0] == "search":
        assert len(out.splitlines()) == int(args[args.index("-k") + 1])
    else:
        assert json.loads(out)


def test_readme_and_docs_links_lead_somewhere():
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) >= 10, "the README's details live in docs/"
    for page in pages:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), f"{page.name}: link to {target}"
            if anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(), re.M)
                slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
                assert anchor in slugs, f"{page.name}: no heading for #{anchor} in {file.name}"
