"""build_db.py on PDFs nobody here wrote: every entity they define is found, on its printed page.

The ground truth in tests/corpora/*.json was written by reading the PDFs (poppler, pdfplumber)
independently of the builder; it records numbers and pages only.  The PDFs themselves live in
../shared/corpora and are never committed: without that folder these tests skip with a reason
(a user's clone), and in CI (CI=true) they fail instead.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, require_corpora

sys.path.insert(0, str(ROOT / "tests" / "corpora"))
from score import score  # noqa: E402

CASES = {"stopt": "stopt-manual.pdf", "derivations": "derivations.pdf"}


def build(pdf, out):
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(pdf), "-o", str(out), "--quiet",
                           "--json"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


_BUILT: dict = {}


def built(name: str, tmp_path_factory):
    """Each corpus is built once per test session and shared by the tests below."""
    if name not in _BUILT:
        out = tmp_path_factory.mktemp(name) / "knowledge.sqlite"
        _BUILT[name] = (name, out, build(require_corpora() / CASES[name], out))
    return _BUILT[name]


@pytest.fixture(scope="session", params=sorted(CASES))
def corpus_build(request, tmp_path_factory):
    require_corpora()
    return built(request.param, tmp_path_factory)


def test_every_defined_entity_found_on_its_page(corpus_build):
    name, path, _ = corpus_build
    result = score(str(ROOT / "tests" / "corpora" / f"{name}.json"), str(path))
    for kind in ("algorithm", "formula", "figure", "table"):
        r = result[kind]
        assert not r["missing"], f"{name}: {kind} missing {r['missing'][:10]}"
        assert not r["wrong_page"], f"{name}: {kind} on the wrong page {r['wrong_page'][:10]}"
        assert not r["extra"], f"{name}: {kind} not defined by the book {r['extra'][:10]}"
        assert r["found"] == r["expected"]
    assert not result["printed_page_mismatches"]


def test_counts_match_the_ground_truth(corpus_build):
    name, _, report = corpus_build
    truth = json.loads((ROOT / "tests" / "corpora" / f"{name}.json").read_text())
    counts = report["counts"]
    assert counts.get("algorithm", 0) == len(truth.get("algorithms", []))
    assert counts.get("formula", 0) == len(truth.get("equations", []))
    assert counts.get("figure", 0) == len(truth.get("figures", []))
    assert counts.get("table", 0) == len(truth.get("tables", []))
    assert report["pages"] == truth["pages"]


def test_chapters_found(corpus_build):
    import apsw

    name, path, _ = corpus_build
    truth = json.loads((ROOT / "tests" / "corpora" / f"{name}.json").read_text())
    db = apsw.Connection(str(path))
    chapters = {n: p for n, p in db.execute("SELECT number, pdf_page_start FROM sections WHERE level = 1")}
    for chapter in truth["chapters"]:
        assert chapters.get(chapter["number"]) == chapter["pdf_page"], (name, chapter)


def test_rebuild_is_deterministic(tmp_path_factory, tmp_path):
    """A second build of the same PDF gives the same ids and content (the content hash)."""
    _, _, first = built("stopt", tmp_path_factory)
    again = build(require_corpora() / CASES["stopt"], tmp_path / "again.sqlite")
    assert again["content_hash"] == first["content_hash"]
