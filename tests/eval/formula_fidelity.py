"""How exactly the builder reads formulas, per typesetting set-up of our formula corpus and per book.

    python tests/eval/formula_fidelity.py                         # every set-up in tests/formulas/
    python tests/eval/formula_fidelity.py --setup cm --setup tufte --verbose
    python tests/eval/formula_fidelity.py --book PDF=MAIN.tex     # any book whose LaTeX source you have
    python tests/eval/formula_fidelity.py --sample                # the sample book (book/)

Each PDF is built by build_db.py (into a cache folder, rebuilt when the PDF or the builder changed),
served by `rag.py serve` on loopback, and judged by `../shared/tools/formula_score.py`, which is run,
not copied: it numbers the source's displayed equations as LaTeX does and compares each with
`GET /entity/formula/N` token by token.  Per set-up it prints the numbered equations, the share read
exactly, the mean similarity, how many are missing (404) and how many have empty content, then the
classes of the remaining errors (what the differing tokens are about) with counts.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# this checkout's builder and app, as `python ROOT/build_db.py` and `rag.py serve` run them, and not
# those of another checkout that the venv's editable install points to (a worker imports them itself)
if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))

from evaluate import cached_build, knowledge_file, niced  # noqa: E402

FORMULAS = ROOT / "tests" / "formulas"
TOOLS = Path(os.environ.get("BOOKRAG_SHARED") or ROOT.parent / "shared") / "tools"
FORMULA_SCORE = TOOLS / "formula_score.py"
DEFAULT_CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "bookrag-eval" / "formulas"


# --------------------------------------------------------------------------- what is scored
def setups() -> list[str]:
    """The corpus set-ups whose PDF is present (setup-NAME.tex typeset into NAME.pdf)."""
    names = sorted(p.stem[len("setup-"):] for p in FORMULAS.glob("setup-*.tex"))
    return [n for n in names if (FORMULAS / f"{n}.pdf").is_file()]


# --------------------------------------------------------------------------- serving and scoring
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serves(base: str, db: Path) -> bool:
    """Whether the server at `base` serves `db`: an entity's ETag starts with the file's build hash.
    Another set-up's server may have taken the port ours was to bind, and answer /health before ours
    gives up (set-ups are scored side by side)."""
    import sqlite3
    import urllib.parse

    with sqlite3.connect(db) as con:
        build = con.execute("SELECT value FROM meta WHERE key = 'build_hash'").fetchone()
        entity = con.execute("SELECT kind, number FROM chunks WHERE number IS NOT NULL AND number != '' LIMIT 1").fetchone()
    if build is None or entity is None:
        return True           # nothing to tell it by: a file with no numbered entity
    url = f"{base}/entity/{entity[0]}/{urllib.parse.quote(entity[1])}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.headers.get("ETag", "").startswith(f'W/"{build[0][:16]}')
    except OSError:
        return False


def _serve(db: Path, attempts: int = 3, nice: int = 0):
    """`rag.py serve` on a free loopback port; (process, base url) once it answers for `db`.  Another
    process may take the port between our look and the server's bind (set-ups are scored side by
    side): a server that exits, or a port another server answers on, is tried again on another port."""
    for attempt in range(attempts):
        port = _free_port()
        log = tempfile.TemporaryFile("w+")
        proc = subprocess.Popen(niced([sys.executable, str(ROOT / "rag.py"), "--db", str(db), "serve", "--port", str(port)],
                                       nice), stdout=log, stderr=log, text=True)
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                log.seek(0)
                if attempt + 1 < attempts:
                    break
                raise RuntimeError(f"server exited: {log.read()[-2000:]}")
            try:
                with urllib.request.urlopen(base + "/health", timeout=1) as r:
                    healthy = r.status == 200
            except OSError:
                time.sleep(0.2)
                continue
            if healthy and _serves(base, db):
                return proc, base
            if healthy:       # another server's port: ours cannot bind it
                proc.kill()
                proc.wait()
                break
        else:
            proc.kill()
            raise RuntimeError("server did not answer /health within 60 s")
    raise RuntimeError("server did not start")


def score(pdf: Path, main_tex: Path, cache: Path = DEFAULT_CACHE, workers: int | None = None, nice: int = 0) -> dict:
    """formula_score.py's verdict on a PDF's served formulas against its LaTeX source, with per-formula
    rows (the PDF built with `workers` processes, at priority `nice`)."""
    return score_knowledge(knowledge_file(pdf, cache / pdf.parent.name, quiet=True, workers=workers, nice=nice),
                           main_tex, nice)


def score_all(jobs: list[tuple[str, Path, Path]], cache: Path = DEFAULT_CACHE, nice: int = 0) -> dict[str, dict]:
    """score() for each (name, PDF, source), as many at once as there are CPUs.

    A set-up's PDF is a few pages: a fresh interpreter for its build and another for its server spent
    more time starting (importing the builder, the app, numpy and onnxruntime) than working, 4.4 s of
    CPU a set-up in all.  So each CPU gets one worker process (`--worker`) that imports them once and
    forks a child per set-up; the child builds the file with build_db.main (when the cache's is
    stale), serves it with the app on a loopback socket of its own and runs the judge against it.
    The worker builds its first set-up itself, so that every child starts with what a build compiles
    and caches on first use, and gives its children one tokenizer and no ONNX session to serve with."""
    from concurrent.futures import ThreadPoolExecutor
    from queue import Empty, SimpleQueue

    todo: SimpleQueue = SimpleQueue()
    for job in jobs:
        todo.put(job)
    results: dict[str, dict] = {}

    def work() -> None:
        with tempfile.TemporaryFile("w+") as log:
            env = {**os.environ, "BUILD_DB_WORKERS": "1"}
            proc = subprocess.Popen(niced([sys.executable, str(Path(__file__).resolve()), "--worker"], nice),
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
            try:
                while True:
                    try:
                        name, pdf, tex = todo.get_nowait()
                    except Empty:
                        break
                    out, fresh, stamp = cached_build(pdf, cache / pdf.parent.name)
                    proc.stdin.write(json.dumps({"pdf": str(pdf), "tex": str(tex), "db": str(out),
                                                 "build": not fresh}) + "\n")
                    proc.stdin.flush()
                    line = proc.stdout.readline()
                    if not line:
                        log.seek(0)
                        raise RuntimeError(f"the scoring worker ended at {name}: {log.read()[-2000:]}")
                    answer = json.loads(line)
                    if "error" in answer:
                        raise RuntimeError(f"{name}: {answer['error']}")
                    if not fresh:
                        stamp()
                    results[name] = answer["result"]
            finally:
                proc.stdin.close()
                proc.wait(timeout=60)

    workers = max(1, min(os.cpu_count() or 1, len(jobs)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(work) for _ in range(workers)]:
            future.result()
    return {name: results[name] for name, _, _ in jobs}


_PRELOADED = ("build_db", "rag", "rag_rest", "rag_mcp", "rag_answers", "apsw", "numpy", "onnxruntime", "tokenizers",
              "litestar", "litestar.openapi", "starlette", "anyio", "yaml", "multipart", "h11", "uvicorn",
              "uvicorn.lifespan.on", "uvicorn.protocols.http.h11_impl", "uvicorn.protocols.http.httptools_impl",
              "uvicorn.protocols.websockets.websockets_impl", "uvicorn.loops.uvloop", "uvloop")


def _worker() -> int:
    """`--worker`: score the set-ups named one a line on stdin ({"pdf", "tex", "db", "build"}), each in a
    child forked from this process, which has imported the builder and the app; one JSON line of
    result (or error) on stdout for each."""
    import importlib

    # what a child's build, app and server import, imported once here (optional ones where present)
    sys.path.insert(0, str(TOOLS))      # formula_score.py's own module, as it imports it
    for module in (*_PRELOADED, "latex_tokens"):
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    # One tokenizer for every child's server, and no ONNX session: the judge only reads entities, so
    # nothing a child serves embeds a query (a session loaded per set-up was 0.2 s of CPU each).
    global _SERVING_EMBEDDER
    from rag import Embedder
    _SERVING_EMBEDDER = Embedder(session=False)
    _judge_code()      # the judge compiled here, not in every child
    # the answers go out on a copy of stdout; what a build or the judge prints goes nowhere
    answers = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    warm = False
    for line in sys.stdin:
        job = json.loads(line)
        if job["build"] and not warm:
            # The first set-up is built here, before any fork: what a build compiles and caches on first
            # use (regular expressions, fonts' tables) is then every child's from the start (0.25 s of
            # CPU a set-up).  The child only serves and judges it.
            warm = True
            try:
                _build(job)
            except BaseException as exc:  # noqa: BLE001 - reported to the caller, whatever it is
                answers.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
                answers.flush()
                continue
            job = {**job, "build": False}
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:                      # the child: its answer goes out on the pipe
            os.close(read)
            try:
                answer = {"result": _score_here(job)}
            except BaseException as exc:  # noqa: BLE001 - reported to the caller, whatever it is
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            with os.fdopen(write, "w") as out:
                out.write(json.dumps(answer))
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as inp:
            text = inp.read()
        _, status = os.waitpid(pid, 0)
        answers.write((text or json.dumps({"error": f"the child ended with status {status}"})) + "\n")
        answers.flush()
    return 0


def _build(job: dict) -> None:
    """build_db.py's main, in this process, on the job's PDF into its knowledge file."""
    import build_db

    code = build_db.main([job["pdf"], "-o", job["db"], "--quiet"])
    if code:
        raise RuntimeError(f"build_db.py exited {code} on {job['pdf']}")


_SERVING_EMBEDDER = None     # the worker's Embedder, shared by the children it forks (_worker)


def _score_here(job: dict) -> dict:
    """One set-up in this process: built (when asked), served, judged."""
    db = Path(job["db"])
    if job["build"]:
        _build(job)
    with _served_here(db) as base:
        return judge(base, db, Path(job["tex"]), here=True)


@contextmanager
def _served_here(db: Path):
    """The app on `db`, served by uvicorn in a thread of this process on a loopback socket bound here
    (no port to race for); its base URL while the block runs."""
    import threading

    import uvicorn
    from rag import KnowledgeBase, create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    knowledge = KnowledgeBase(db, embedder=_SERVING_EMBEDDER)
    server = uvicorn.Server(uvicorn.Config(create_app(knowledge, bind_host="127.0.0.1"),
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not server.started:
        if not thread.is_alive() or time.time() > deadline:
            raise RuntimeError(f"the app did not start on {db}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def score_knowledge(db: Path, main_tex: Path, nice: int = 0) -> dict:
    """formula_score.py's verdict on a knowledge file, served by `rag.py serve`, against the LaTeX
    source it was built from (the server and the judge run at priority `nice`)."""
    proc, base = _serve(db, nice=nice)
    try:
        return judge(base, db, main_tex, nice)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def judge(base: str, db: Path, main_tex: Path, nice: int = 0, here: bool = False) -> dict:
    """formula_score.py run against the service at `base`, which serves `db`: its figures and rows
    (here: run as the main module of this process, a forked child that has no other use for it)."""
    if not FORMULA_SCORE.is_file():
        raise FileNotFoundError(f"{FORMULA_SCORE} not found (the shared tools folder beside the checkout)")
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        if here:
            printed = _run_judge_here([base, str(main_tex), "--json", out.name])
        else:
            run = subprocess.run(niced([sys.executable, str(FORMULA_SCORE), base, str(main_tex), "--json", out.name], nice),
                                 capture_output=True, text=True, timeout=600)
            if run.returncode != 0:
                raise RuntimeError(f"formula_score.py failed: {run.stderr[-2000:]}")
            printed = run.stdout
        rows = json.loads(Path(out.name).read_text())
    last = printed.strip().splitlines()[-1]
    figures = dict(re.findall(r"(\w+)=([\d.]+)", last))
    return {"equations": int(figures["n"]), "exact": float(figures["exact"]),
            "similarity": float(figures["formula_similarity"]), "missing": int(figures["missing"]),
            "empty": sum(1 for r in rows if not r["missing"] and not r["service"].strip()),
            "rows": rows, "db": str(db)}


def _run_judge_here(args: list[str]) -> str:
    """formula_score.py run as this process's main module with `args`: what it printed."""
    import contextlib
    import io

    printed = io.StringIO()
    sys.argv = [str(FORMULA_SCORE), *args]
    with contextlib.redirect_stdout(printed):
        try:
            exec(_judge_code(), {"__name__": "__main__", "__file__": str(FORMULA_SCORE), "__builtins__": __builtins__})
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise RuntimeError(f"formula_score.py failed: {exc.code}") from None
    return printed.getvalue()


_JUDGE_CODE = None   # formula_score.py compiled: once in a scoring worker, before it forks (23 ms a set-up)


def _judge_code():
    """formula_score.py's code object, compiled on first use."""
    global _JUDGE_CODE
    if _JUDGE_CODE is None:
        _JUDGE_CODE = compile(FORMULA_SCORE.read_text(encoding="utf-8"), str(FORMULA_SCORE), "exec")
    return _JUDGE_CODE


# --------------------------------------------------------------------------- error classes
_CLASSES = [
    ("fraction", re.compile(r"\\[dt]?frac$|\\over$")),
    ("root", re.compile(r"\\sqrt$")),
    ("script", re.compile(r"[_^]$")),
    ("prime", re.compile(r"'$|\\prime$")),
    ("alphabet", re.compile(r"\\(mathbf|bm|boldsymbol|mathbb|mathcal|mathfrak|mathit|mathsf|mathtt|symbf\w*)$")),
    ("accent", re.compile(r"\\(hat|widehat|bar|overline|tilde|widetilde|vec|dot|ddot|check|breve|acute|grave)$")),
    ("big operator", re.compile(r"\\(sum|prod|int|oint|bigcup|bigcap|coprod|bigoplus|bigotimes)$")),
    ("operator name", re.compile(r"\\(max|min|arg|lim|sup|inf|log|exp|ln|det|sin|cos|tan|Pr)$")),
    ("delimiter", re.compile(r"[()\[\]|]$|\\[{}|]$|\\(langle|rangle|lfloor|rfloor|lceil|rceil)$")),
    ("dots", re.compile(r"\\[vdc]?dots$|\\ddots$")),
    ("environment", re.compile(r"\\(begin|end)")),
]


def error_classes(source: list[str], served: list[str]) -> set[str]:
    """What a formula's differing tokens are about (a formula can be wrong in several ways at once)."""
    if not served:
        return {"empty or missing"}
    out = set()
    if len(served) < 0.6 * len(source):
        out.add("truncated (under 60% of the tokens)")
    matcher = difflib.SequenceMatcher(None, source, served, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        tokens = source[a0:a1] + served[b0:b1]
        found = False
        for name, pattern in _CLASSES:
            if any(pattern.search(t) for t in tokens):
                out.add(name)
                found = True
                break
        if not found:
            letters = [t for t in tokens if re.fullmatch(r"[A-Za-z]", t)]
            out.add("letters or words" if letters else "symbols")
    return out


def classify(rows: list[dict]) -> Counter:
    counts: Counter = Counter()
    for r in rows:
        if r["source_tokens"] != r["service_tokens"]:
            counts.update(error_classes(r["source_tokens"], r["service_tokens"]))
    return counts


# --------------------------------------------------------------------------- report
def _line(name: str, result: dict) -> str:
    exact = round(result["exact"] * result["equations"])
    return (f"| {name} | {result['equations']} | {result['exact'] * 100:.1f}% ({exact}) | "
            f"{result['similarity']:.3f} | {result['missing']} | {result['empty']} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setup", action="append", help="a corpus set-up (tests/formulas/setup-NAME.tex); "
                        "default: all of them")
    parser.add_argument("--book", action="append", default=[], help="PDF=MAIN.tex: another book and its source")
    parser.add_argument("--sample", action="store_true", help="also the sample book (book/book.pdf)")
    parser.add_argument("--cache", default=str(DEFAULT_CACHE))
    parser.add_argument("--verbose", action="store_true", help="print each inexact formula")
    args = parser.parse_args()
    jobs = []
    if args.setup or not args.book:
        for name in args.setup or setups():
            jobs.append((name, FORMULAS / f"{name}.pdf", FORMULAS / f"setup-{name}.tex"))
    if args.sample:
        jobs.append(("sample book", ROOT / "book" / "book.pdf", ROOT / "book" / "book.tex"))
    for spec in args.book:
        pdf, _, tex = spec.partition("=")
        jobs.append((Path(pdf).stem, Path(pdf), Path(tex)))
    print("| set-up or book | equations | exact | mean similarity | missing | empty |")
    print("|---|---|---|---|---|---|")
    details = score_all(jobs, Path(args.cache))
    for name, result in details.items():
        print(_line(name, result), flush=True)
    for name, result in details.items():
        classes = classify(result["rows"])
        print(f"\n{name}: error classes among {sum(1 for r in result['rows'] if r['source_tokens'] != r['service_tokens'])} "
              "inexact formulas: " + (", ".join(f"{k} {v}" for k, v in classes.most_common()) or "none"))
        if args.verbose:
            for r in result["rows"]:
                if r["source_tokens"] != r["service_tokens"]:
                    print(f"  {r['number']:>6} {r['similarity']:.3f} "
                          f"[{', '.join(sorted(error_classes(r['source_tokens'], r['service_tokens'])))}]")
                    print(f"         src: {' '.join(r['source_tokens'])[:300]}")
                    print(f"         got: {' '.join(r['service_tokens'])[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(_worker() if sys.argv[1:] == ["--worker"] else main())
