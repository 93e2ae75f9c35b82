"""Shared fixtures: the committed knowledge file, a fresh build of the sample book, a served app.

Everything is real: the ONNX model in models/, knowledge files made by build_db.py, and the
service started as its own process on a loopback port.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]

from evaluate import listens_on  # noqa: E402  (tests/eval, pytest's pythonpath)
from rag import KnowledgeBase  # noqa: E402

BOOK_PDF = ROOT / "book" / "book.pdf"
LABELS = ROOT / "book" / "labels.txt"
KNOWLEDGE = ROOT / "knowledge.sqlite"
# the shared folder beside the checkout (BOOKRAG_SHARED names another, e.g. for a worktree elsewhere)
SHARED = Path(os.environ.get("BOOKRAG_SHARED") or ROOT.parent / "shared")
CORPORA = SHARED / "corpora"

# The tests' plain HTTP requests go through this one client.  httpx.get() and httpx.post() build a
# client for each call, and with it an SSL context that loads the CA bundle: 54 ms of CPU a call
# (measured), for URLs that are all plain HTTP on loopback; start_server's polling of /health every
# 0.1 s spent a third of the test process's CPU on it.  No connection is kept alive (as with
# httpx.get): every request opens its own, so no test meets a server another test stopped.
HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- corpus books in the background
def pytest_collection_modifyitems(session, config, items):
    """Tests on work done in the background run after the others, which that work runs beside: those
    on the formula corpus (scored at a higher priority, done sooner), then those on the corpus books.
    Run in file order, the tests reached the formula corpus's a third of the way through and waited
    there, both CPUs busy, and the rest ran on one CPU while the other stood idle (measured: a
    quarter of the session at 1.1 CPUs busy)."""
    def late(item) -> int:
        return 2 if item.get_closest_marker("corpus_books") else 1 if item.get_closest_marker("formula_corpus") else 0
    items.sort(key=late)     # (a stable sort: each group keeps its order)


@pytest.fixture(scope="session", autouse=True)
def corpus_books_building(request, tmp_path_factory):
    """Work the session's tests will wait for, started with the session so that it runs while other
    tests leave a CPU idle.  When the session holds test_corpora.py's tests, which need every corpus
    book, the books are built in the background at the lowest priority (test_corpora.start_builds); a
    session of other tests builds only the books it asks for, when it asks.  The sample book's two
    builds (fresh_build, tagged_db) and the formula corpus's set-ups (test_formula_corpus.py) start at
    once too, the latter at a priority below the tests' and above the corpus books'; so do the
    schemathesis run (test_fuzz.py) and the container's runtime install (test_deploy.py), subprocesses
    that ran alone on one core near the session's end."""
    # pytest makes the session's base temporary folder on first use, and a thread may make another
    # meanwhile (a mktemp then finds the base moved under it): make it here, before any work starts
    # in the background
    tmp_path_factory.getbasetemp()
    # One vector cache for every build (build_db.VectorCache): a text embedded once is not embedded again
    # by the next build that holds it (the sample book's second build, the formula corpus's set-ups of
    # one body), nor by the next session on this machine (the corpus books' texts change rarely: a CI
    # run on a machine that ran one before embeds only what changed).  An entry's key holds the model,
    # onnxruntime's version and the CPU's vector instruction sets, so an entry is exactly what the model
    # gives here; the determinism test's second build keeps none.  A developer's own
    # BOOKRAG_VECTOR_CACHE is used when set; a user cache folder that cannot be written, a session's.
    os.environ.setdefault("BOOKRAG_VECTOR_CACHE", str(_test_vector_cache(tmp_path_factory)))
    modules = {getattr(item.module, "__name__", "") for item in request.session.items}
    fixtures = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    stop = None
    if CORPORA.is_dir() and "test_corpora" in modules:
        from test_corpora import start_builds

        stop = start_builds(tmp_path_factory)
    for name in ("fresh_build", "tagged_db"):
        if name in fixtures:
            # the second build after the first: its texts are then in the vector cache
            first = _STARTED.get("fresh_build")
            _STARTED[name] = _BACKGROUND.submit(_after(first, _sample_build(name, tmp_path_factory)))
    if "test_formula_corpus" in modules and (SHARED / "tools" / "formula_score.py").exists():
        _STARTED["formula_corpus"] = _BACKGROUND.submit(score_formula_corpus, request.getfixturevalue("formula_cache"))
    # two long runs of subprocesses that would otherwise leave a core idle near the session's end
    names = {item.name for item in request.session.items}
    if "test_schemathesis_finds_nothing" in names:
        from test_fuzz import schemathesis_run

        _STARTED["schemathesis"] = _BACKGROUND.submit(schemathesis_run, tmp_path_factory.mktemp("schemathesis"))
    if "test_container_commands_in_a_fresh_runtime_venv" in names:
        from test_deploy import runtime_install

        _STARTED["runtime_venv"] = _BACKGROUND.submit(runtime_install, tmp_path_factory.mktemp("runtime"))
    yield
    for future in _STARTED.values():
        future.cancel()
    if stop:
        stop()


def _test_vector_cache(tmp_path_factory) -> Path:
    """The tests' vector cache folder: bookrag/test-vectors in the user's cache folder (XDG_CACHE_HOME,
    else ~/.cache), kept between sessions, else a folder of this session."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bookrag" / "test-vectors"
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = base / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return base
    except OSError:
        return tmp_path_factory.mktemp("vector-cache")


# Work started with the session (corpus_books_building), by name; a fixture takes its result, or does
# the work itself when nothing started it (a session of a few tests).
_BACKGROUND = ThreadPoolExecutor(max_workers=5, thread_name_prefix="session-start")
_STARTED: dict[str, Future] = {}
# Work needed early runs beside the tests as an equal (the sample book's builds: the fourth test module
# waits for one; at nice 5 it waited a minute, measured), work needed later yields to them: the formula
# corpus's set-ups at nice 10, the corpus books at nice 19 (test_corpora.BACKGROUND_NICE)
FORMULA_CORPUS_NICE = 10


def started_work(name: str, work):
    """The result of the work started for `name` with the session, else of `work()` now."""
    future = _STARTED.pop(name, None)
    if future is not None and not future.cancel():
        return future.result()
    return work()


def _after(first: Future | None, work):
    """work, run once `first` has ended (whatever its outcome)."""
    def run():
        if first is not None:
            try:
                first.result()
            except BaseException:   # noqa: BLE001 - the first's failure is its own test's to report
                pass
        return work()
    return run


def _sample_build(name: str, tmp_path_factory):
    """The work behind the fixture `name`: build_db.py on the sample book, plain (fresh_build: the file
    and its JSON report) or with our tags file and table list (tagged_db: the file)."""
    folder, file, options = {"fresh_build": ("build", "knowledge.sqlite", ("--json",)),
                             "tagged_db": ("tagged", "tagged.sqlite", ("--tags", str(TAGS_FILE), "--tables", str(TABLES_FILE)))}[name]

    def build():
        out = tmp_path_factory.mktemp(folder) / file
        # one process each: the session keeps both CPUs busy, where a second reading process only adds
        # its start-up and hand-over (a third more CPU time, measured on a formula set-up's build)
        env = {**os.environ, "BUILD_DB_WORKERS": "1"}
        proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(BOOK_PDF), "-o", str(out), "--quiet",
                               *options], capture_output=True, text=True, timeout=900, env=env)
        assert proc.returncode == 0, proc.stderr
        return (out, json.loads(proc.stdout)) if "--json" in options else out
    return build


def score_formula_corpus(cache: Path) -> dict:
    """Every set-up of the formula corpus built, served and scored (tests/eval/formula_fidelity.py)."""
    import formula_fidelity   # tests/eval (pytest's pythonpath)

    formulas = ROOT / "tests" / "formulas"
    return formula_fidelity.score_all([(name, formulas / f"{name}.pdf", formulas / f"setup-{name}.tex")
                                       for name in formula_fidelity.setups()], cache, nice=FORMULA_CORPUS_NICE)


def require_corpora() -> Path:
    """The third-party PDFs live outside the repo; skip (or fail in CI) when they are absent."""
    if not CORPORA.is_dir():
        message = (f"third-party corpora not found at {CORPORA}: real textbook PDFs by other authors, with answer "
                   "keys, kept beside the checkout (never committed); CI has them; docs/development.md 'Tests on third-party "
                   "PDFs' says how to fetch them")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CORPORA


def require_shared(relative: str) -> Path:
    """A file of the shared folder beside the checkout (../shared: the tools that judge the builder);
    skip (or fail in CI) when it is absent."""
    path = SHARED / relative
    if not path.exists():
        message = f"{path} not found: the shared tools beside the checkout (never committed); CI has them"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return KnowledgeBase(KNOWLEDGE)


@pytest.fixture(scope="session")
def labels() -> list[dict]:
    rows = []
    for line in LABELS.read_text().splitlines():
        kind, number, page, pdf_page, label = line.split("|")
        rows.append({"kind": "formula" if kind == "equation" else kind, "number": number,
                     "page": int(page), "pdf_page": int(pdf_page), "label": label})
    return rows


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory):
    """The sample book built by build_db.py in this session (a real build, compared to the committed
    file): (its path, its JSON report)."""
    return started_work("fresh_build", _sample_build("fresh_build", tmp_path_factory))


@pytest.fixture(scope="session")
def formula_cache(tmp_path_factory) -> Path:
    """Where this session builds the formula corpus's set-ups (tests/eval/formula_fidelity.py's cache):
    one folder, so that a set-up two test modules score is built once."""
    return tmp_path_factory.mktemp("formula-corpus")


TAGS_FILE = ROOT / "tests" / "fixtures" / "search_tags.json"      # BeliefCraft's concept_tags.json format
TABLES_FILE = ROOT / "tests" / "fixtures" / "search_tables.txt"   # one table name a line


@pytest.fixture(scope="session")
def tagged_db(tmp_path_factory) -> Path:
    """The sample book built by build_db.py with our tags file (their format) and a table list."""
    return started_work("tagged_db", _sample_build("tagged_db", tmp_path_factory))


def served_content_score(db: Path, key: Path, verbose: bool = False) -> tuple[dict, str]:
    """../shared/tools/content_score.py, run as it is, against a knowledge file served on loopback: its
    summary line as a dict ("found", "statement_recall" …), and its whole output."""
    scorer = require_shared("tools/content_score.py")
    proc, base = start_server("--db", str(db))
    try:
        run = subprocess.run([sys.executable, str(scorer), base, str(key)] + (["--verbose"] if verbose else []),
                             capture_output=True, text=True, timeout=300)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert run.returncode == 0, run.stderr[-2000:]
    return dict(x.split("=") for x in run.stdout.strip().splitlines()[-1].split()), run.stdout


def start_server(*args: str, env: dict | None = None, port: int | None = None, serve_args: tuple = (),
                 root: Path = ROOT, host: str = "127.0.0.1"):
    """Start `rag.py serve` as its own process; return (process, base url) once /health answers.

    args go before `serve` (--db, --models), serve_args after it (--workers); root: the checkout
    whose rag.py runs (a benchmark may start another version beside this one); host is the address
    it binds (0.0.0.0: every interface, reached here on 127.0.0.1)."""
    port = port or free_port()
    cmd = [sys.executable, str(Path(root) / "rag.py"), *args, "serve", *serve_args, "--host", host,
           "--port", str(port)]
    # The server logs a line per request: send it to a file, never to a pipe nobody reads.
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"bookrag-server-{port}.log", "w+")
    proc = subprocess.Popen(cmd, stdout=log, stderr=log, text=True, env={**os.environ, **(env or {})})
    proc.log = log
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"server exited: {log.read()}")
        try:
            if HTTP.get(base + "/health", timeout=1).status_code == 200 and listens_on(proc.pid, port):
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not answer /health on a port of its own within 30 s")


@pytest.fixture(scope="session")
def server():
    proc, base = start_server()
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def client(server):
    with httpx.Client(base_url=server, timeout=10) as c:
        yield c


@pytest.fixture
def read_only_dir(tmp_path):
    """A folder on a read-only filesystem: files put in `.source` appear read-only at the yielded path.

    As root (where permission bits do not stop writes) it is a read-only bind mount; otherwise the
    folder and its files lose their write bits.  Call `.seal()` after filling `.source`.
    """
    import shutil

    class ReadOnly:
        source = tmp_path / "ro-source"
        path = tmp_path / "ro"
        mounted = False

        def seal(self):
            if os.geteuid() == 0:
                self.path.mkdir()
                mount = subprocess.run(["mount", "--bind", str(self.source), str(self.path)], capture_output=True)
                remount = mount.returncode == 0 and subprocess.run(
                    ["mount", "-o", "remount,ro,bind", str(self.path)], capture_output=True).returncode == 0
                if mount.returncode == 0:
                    self.mounted = True
                if not remount:
                    pytest.skip("running as root without permission to mount: cannot make a read-only filesystem")
            else:
                shutil.copytree(self.source, self.path)
                for path in [*self.path.rglob("*"), self.path]:
                    path.chmod(path.stat().st_mode & ~0o222)
            return self.path

    folder = ReadOnly()
    folder.source.mkdir()
    yield folder
    if folder.mounted:
        subprocess.run(["umount", str(folder.path)], check=True)
    elif folder.path.exists():
        for path in [folder.path, *folder.path.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
