"""build_db.py on PDFs nobody here wrote: every numbered thing they define, on its page.

The corpus beside the checkout (../shared/corpora) holds real textbooks by other authors with
answer keys written by reading the pages (keys/NAME.json), and two keyless books whose ground
truth we wrote the same way (tests/corpora/*.json).  Each book is built once per session by the
real builder; every key is scored by tests/corpora/score.py and its table printed (run with -s to
see them).  Without the corpus folder these tests skip with the reason (a user's clone); in CI
(CI=true) they fail instead.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HTTP, CORPORA, ROOT, require_corpora

from evaluate import niced  # tests/eval/evaluate.py (pytest's pythonpath)
from score import passes, score, table  # tests/corpora/score.py (pytest's pythonpath)

# Books with a key beside them in the corpus, and the two we keyed ourselves.
KEYED = sorted(p.stem for p in (CORPORA / "keys").glob("*.json")) if (CORPORA / "keys").is_dir() else []
OURS = {"stopt": "stopt-manual.pdf", "derivations": "derivations.pdf"}

pytestmark = pytest.mark.corpus_books   # built in the background, run last (conftest)


def key_of(name: str):
    return ROOT / "tests" / "corpora" / f"{name}.json" if name in OURS else CORPORA / "keys" / f"{name}.json"


def pdf_of(name: str):
    if name in OURS:
        return CORPORA / OURS[name]
    return CORPORA / json.loads(key_of(name).read_text())["file"]


def build(pdf, out, workers: int | None = None, nice: int = 0, vector_cache: bool = True):
    """build_db.py's JSON report of a PDF built into `out` (with `workers` processes, at `nice`; without
    the session's vector cache when `vector_cache` is false: every text through the model)."""
    env = {**os.environ, **({"BUILD_DB_WORKERS": str(workers)} if workers else {})}
    if not vector_cache:
        env.pop("BOOKRAG_VECTOR_CACHE", None)
    command = [sys.executable, str(ROOT / "build_db.py"), str(pdf), "-o", str(out), "--quiet", "--json"]
    command = niced(command, nice)       # (not preexec_fn: builds are started from several threads)
    # A session of its own: stopping a build stops the processes it reads and embeds with, which
    # hold its output pipe open.
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    _RUNNING.add(proc)
    try:
        stdout, stderr = proc.communicate(timeout=1800 if nice else 900)
    finally:
        if proc.returncode is None:     # (timed out or interrupted)
            _stop(proc)
        _RUNNING.discard(proc)
    assert proc.returncode == 0, stderr[-2000:]
    return json.loads(stdout)


def _stop(proc) -> None:
    """Kill a build that is still running and every process it started (its session's process group)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL) if hasattr(os, "killpg") else proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


_BUILT: dict = {}      # name -> (name, knowledge file, build report)
_PENDING: dict = {}    # name -> (knowledge file, Future of its report): built in the background
_AGAIN: dict = {}      # a second build of a book, made beside the first ones
_RUNNING: set = set()  # build processes not finished
REBUILT = "kaobook_doc"  # built twice to show a build is deterministic: side notes, margin floats, 42 pages
BACKGROUND_NICE = 19   # the background builds yield the CPUs to every other test


def built(name: str, tmp_path_factory):
    """Each corpus book is built once per test session and shared by the tests below (its background
    build awaited when it has started, else built now)."""
    if name not in _BUILT:
        out, report = _PENDING.pop(name, (None, None))
        if report is not None and not report.cancel():
            _BUILT[name] = (name, out, report.result())
        else:
            out = tmp_path_factory.mktemp(name) / "knowledge.sqlite"
            _BUILT[name] = (name, out, build(pdf_of(name), out))
    return _BUILT[name]


def start_builds(tmp_path_factory):
    """Every corpus book built in the background, while the rest of the suite runs (conftest starts
    this when the session holds these tests, which need every book; tests marked `corpus_books` run
    last).  Two builds side by side, each one process (a build's reading and embedding spread over
    the CPUs leave them idle between its steps; two single-process builds keep both busy), the
    largest first, at the lowest priority: the other tests, some of them timed, take the CPUs first
    and the builds the time they leave.  Returns a function that stops what is still running."""
    from concurrent.futures import ThreadPoolExecutor

    names = sorted((n for n in KEYED + sorted(OURS) if n not in _BUILT and n not in _PENDING),
                   key=lambda n: pdf_of(n).stat().st_size, reverse=True)
    pool = ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1), thread_name_prefix="corpus-build")
    for n in names:
        out = tmp_path_factory.mktemp(n) / "knowledge.sqlite"
        _PENDING[n] = (out, pool.submit(build, pdf_of(n), out, 1, BACKGROUND_NICE))
    if REBUILT in names:   # test_rebuild_is_deterministic's second build, with the default workers
        # and no vector cache: the one build of the session whose embedding is spread over processes
        again = tmp_path_factory.mktemp(REBUILT + "-again") / "knowledge.sqlite"
        _AGAIN[REBUILT] = (again, pool.submit(build, pdf_of(REBUILT), again, None, BACKGROUND_NICE, False))

    def stop():
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(_RUNNING):
            _stop(proc)
    return stop


@pytest.fixture(scope="session", params=KEYED + sorted(OURS))
def corpus_build(request, tmp_path_factory):
    require_corpora()
    return built(request.param, tmp_path_factory)


def test_every_book_meets_the_bars(corpus_build):
    """Entities on the right PDF page >= 97% (>= 90% for each kind of 5 or more), printed page right
    on >= 99% of those, nothing the key does not list beyond 1%; our own keys at 100%."""
    name, path, _ = corpus_build
    result = score(key_of(name), path)
    print("\n" + table(name, result))
    assert not passes(result), f"{name}: {passes(result)}"
    if name in OURS:
        total = result["_all"]
        assert total["found"] == total["expected"] and total["extra"] == 0, table(name, result)


def test_build_report_speaks_for_the_book(corpus_build):
    """The report lists every kind found, with its gaps and duplicates; it is in the file's meta too."""
    import apsw

    name, path, report = corpus_build
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    stored = json.loads(dict(db.execute("SELECT key, value FROM meta").fetchall())["build_report"])
    assert stored["kinds"] == report["checks"]["kinds"]
    for kind, n in report["counts"].items():
        if kind != "text":
            assert stored["kinds"][kind]["found"] == n
    assert stored["pages"]["source"] in ("page labels", "folios", "none")
    # equation numbers are a sequence the second look closes: a number set a little off the edge (a
    # narrower display column, a label centred beside a two-row system) is found between its neighbours
    assert not stored["kinds"].get("formula", {}).get("gaps"), stored["kinds"]["formula"]


# Content keys we wrote from corpus books' public sources: third-party text, so kept outside the repository,
# in ../shared/corpora/content or the folder BOOKRAG_CONTENT_KEYS names (NAME.json, content_score.py's format).
CONTENT_KEYS = Path(os.environ.get("BOOKRAG_CONTENT_KEYS") or CORPORA / "content")
CONTENT = sorted(p.stem for p in CONTENT_KEYS.glob("*.json")) if CONTENT_KEYS.is_dir() else []
# Bars below issue 26's 0.90 where the key or the builder is known short, with the reason (none now:
# the Lyryx key, written from a later revision of the book's source whose wording drifted, scores
# 0.933 / 0.913 since the labels of its circuit drawings left its examples).
CONTENT_SHORT: dict[str, tuple[float, float, str]] = {}


@pytest.mark.parametrize("name", CONTENT or [pytest.param(None, marks=pytest.mark.skip(
    reason=f"no content keys in {CONTENT_KEYS} (third-party text, never committed; BOOKRAG_CONTENT_KEYS names another folder)"))])
def test_statement_text_against_the_books_source(name, tmp_path_factory):
    """Statement text recall and precision >= 0.90 (content_score.py, run as it is, against the book
    built here and served on loopback), every keyed statement found."""
    from conftest import served_content_score

    _, path, _ = built(name, tmp_path_factory)
    summary, output = served_content_score(path, CONTENT_KEYS / f"{name}.json")
    print(f"\n{name}:\n{output[-900:]}")
    assert summary["found"] == summary["total"], summary
    recall, precision, _ = CONTENT_SHORT.get(name, (0.90, 0.90, ""))
    assert float(summary["statement_recall"]) >= recall and float(summary["statement_precision"]) >= precision, summary
    if json.loads((CONTENT_KEYS / f"{name}.json").read_text()).get("formulas"):
        # numbered displays in frames (their numbers at the frame's inner edge) read whole, no prose in them
        assert float(summary["formula_similarity"]) >= 0.95, summary


def test_chapters_found(tmp_path_factory):
    import apsw

    require_corpora()
    for name in sorted(OURS):
        _, path, _ = built(name, tmp_path_factory)
        truth = json.loads(key_of(name).read_text())
        db = apsw.Connection(str(path))
        chapters = {n: p for n, p in db.execute("SELECT number, pdf_page_start FROM sections WHERE level = 1")}
        for chapter in truth["chapters"]:
            assert chapters.get(chapter["number"]) == chapter["pdf_page"], (name, chapter)


def test_rebuild_is_deterministic(tmp_path_factory, tmp_path):
    """A second build of the same PDF gives the same ids and content (the content hash); in a session
    that builds every book in the background, the first is built by one process and the second by the
    default number."""
    require_corpora()
    _, _, first = built(REBUILT, tmp_path_factory)
    if REBUILT in _AGAIN:
        again = _AGAIN.pop(REBUILT)[1].result()
    else:
        again = build(pdf_of(REBUILT), tmp_path / "again.sqlite", vector_cache=False)
    assert again["content_hash"] == first["content_hash"]


def test_kinds_beyond_spec_01_are_served(tmp_path_factory):
    """A theorem of a real book: on /entity, in MCP's enum and get_entity_by_number, in /health's counts,
    and reached from the text that cites it ("… Theorem 2.10 allows us …")."""
    import asyncio

    import httpx

    from conftest import start_server

    require_corpora()
    _, path, report = built("aata_2022", tmp_path_factory)
    assert report["counts"].get("theorem", 0) >= 12 and report["counts"].get("principle", 0) >= 3
    proc, base = start_server("--db", str(path))
    try:
        body = HTTP.get(f"{base}/entity/theorem/2.10").json()
        assert body["type"] == "theorem" and body["page_number"] == 20 and body["pdf_page"] == 32
        assert body["cited_by"], body
        assert HTTP.get(f"{base}/entity/principle/2.1").json()["title"]
        health = HTTP.get(f"{base}/health").json()
        assert health["counts"]["theorem"] == report["counts"]["theorem"]
        assert health["build_report"]["kinds"]["theorem"]["found"] == report["counts"]["theorem"]

        from mcp import Client

        async def mcp_calls():
            async with Client(base + "/mcp") as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                enum = tools["get_entity_by_number"].input_schema["properties"]["entity_type"]
                enum = enum.get("enum") or next(a["enum"] for a in enum.get("anyOf", []) if "enum" in a)
                result = await client.call_tool("get_entity_by_number", {"entity_type": "lemma", "number": "2.13"})
                return enum, result.structured_content

        enum, doc = asyncio.run(mcp_calls())
        assert {"theorem", "lemma", "principle", "formula", "image"} <= set(enum)
        assert doc["result"]["metadata"]["chunk_type"] == "lemma" and doc["result"]["metadata"]["page"] == 22
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_text_is_read_as_printed(tmp_path_factory):
    """Ligatures and glyphs without a Unicode mapping come back as the letters printed (glpk's layer
    drops "fi": "specied", "single le"); equation labels printed "(1:1)" are numbers 1.1."""
    import apsw

    require_corpora()
    _, path, _ = built("glpk_manual", tmp_path_factory)
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    text = " ".join(c for (c,) in db.execute("SELECT content FROM chunks"))
    assert text.count("specified") > 50 and "specied" not in text and " single le " not in text
    assert db.execute("SELECT pdf_page FROM chunks WHERE kind = 'formula' AND number = '1.1'").fetchone() == (9,)


def test_a_display_above_a_figure_stays_out_of_its_drawn_text(tmp_path_factory):
    """Abstract Algebra's Example 4.26 displays four rows of fractions just above Figure 4.27: the
    fractions' bars are typeset maths, not strokes of the drawing, so all four rows stay in the
    example (as LaTeX) and the figure keeps only the labels drawn in it."""
    import apsw

    require_corpora()
    _, path, _ = built("aata_2022", tmp_path_factory)
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    example = db.execute("SELECT content FROM chunks WHERE kind = 'example' AND number = '4.26'").fetchone()[0]
    figure = db.execute("SELECT content FROM chunks WHERE kind = 'figure' AND number = '4.27'").fetchone()[0]
    assert all(f"\\omega^{{{k}}} & =" in example for k in (3, 5, 7)), example
    assert "√" not in figure and "ω 5 ω 7" in figure, figure


def test_a_display_broken_over_a_page_keeps_its_rows_and_columns(tmp_path_factory):
    """Abstract Algebra's Example 4.15 displays 15 products in five rows of three, broken after its
    first row: rows at a page's foot and head that share a shape ("# · # = #") are no running head
    (one display, two pages), and its columns stay apart (\\quad), never glued into "92".  In Example
    4.16 the bar over z in its last row is a conjugate's, not a fraction over the |z| above it."""
    import apsw

    require_corpora()
    _, path, _ = built("aata_2022", tmp_path_factory)
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    products = db.execute("SELECT content FROM chunks WHERE kind = 'example' AND number = '4.15'").fetchone()[0]
    rows = products.replace("& ", "")   # the rows overleaf are aligned at their first "="
    assert all(f"{k}\\cdot9 = " in rows for k in range(1, 16)), products
    assert "9\\quad2\\cdot9" in products and "92\\cdot9" not in products and "1011" not in products, products
    conjugate = db.execute("SELECT content FROM chunks WHERE kind = 'example' AND number = '4.16'").fetchone()[0]
    assert "\\overline{z} & = 2-3i" in conjugate and "|z| & = \\sqrt{13}" in conjugate, conjugate


def test_a_lone_italic_word_is_no_variable_where_the_book_sets_variables_in_a_maths_font(tmp_path_factory):
    """Abstract Algebra sets its variables in a maths italic (CMMI) and its theorems in the text
    italic: the article "a" of an italic theorem is a word, not the variable $a$ ("Every subgroup of
    a cyclic group is cyclic"), while its G stays maths."""
    import apsw

    require_corpora()
    _, path, _ = built("aata_2022", tmp_path_factory)
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    theorem = db.execute("SELECT content FROM chunks WHERE kind = 'theorem' AND number = '4.10'").fetchone()[0]
    proposition = db.execute("SELECT content FROM chunks WHERE kind = 'proposition' AND number = '4.12'").fetchone()[0]
    assert theorem.startswith("Every subgroup of a cyclic group is cyclic"), theorem
    assert proposition.startswith("Let $G$ be a cyclic group of order $n$"), proposition
