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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from evaluate import knowledge_file, niced  # noqa: E402

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
    """score() for each (name, PDF, source), as many at once as there are CPUs, each built by one
    process: a set-up's PDF is a few pages, whose build is mostly start-up and one thread's work."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        futures = {name: pool.submit(score, pdf, tex, cache, 1, nice) for name, pdf, tex in jobs}
        return {name: future.result() for name, future in futures.items()}


def score_knowledge(db: Path, main_tex: Path, nice: int = 0) -> dict:
    """formula_score.py's verdict on a knowledge file, served, against the LaTeX source it was built
    from (the server and the judge run at priority `nice`)."""
    if not FORMULA_SCORE.is_file():
        raise FileNotFoundError(f"{FORMULA_SCORE} not found (the shared tools folder beside the checkout)")
    proc, base = _serve(db, nice=nice)
    try:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            run = subprocess.run(niced([sys.executable, str(FORMULA_SCORE), base, str(main_tex), "--json", out.name], nice),
                                 capture_output=True, text=True, timeout=600)
            if run.returncode != 0:
                raise RuntimeError(f"formula_score.py failed: {run.stderr[-2000:]}")
            rows = json.loads(Path(out.name).read_text())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    last = run.stdout.strip().splitlines()[-1]
    figures = dict(re.findall(r"(\w+)=([\d.]+)", last))
    return {"equations": int(figures["n"]), "exact": float(figures["exact"]),
            "similarity": float(figures["formula_similarity"]), "missing": int(figures["missing"]),
            "empty": sum(1 for r in rows if not r["missing"] and not r["service"].strip()),
            "rows": rows, "db": str(db)}


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
    sys.exit(main())
