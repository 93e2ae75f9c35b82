"""Cold start: from process start to the first search answered over HTTP, with the import-time split.

    python tests/bench/bench_coldstart.py [--db knowledge.sqlite] [--rounds 7]

Each round starts `rag.py serve` as a fresh process on a free loopback port and polls
POST /search/semantic {"query": "value iteration", "k": 3} every few milliseconds until it answers
200; the wall time from Popen to that 200 is the cold start (the moment the port first accepts a
connection is reported too).  Then, each in a fresh subprocess, the phases of the same path are
timed one by one: interpreter start, `import rag`, `KnowledgeBase(...)` (open the file and load the
model, which is where numpy, onnxruntime and tokenizers are imported), `create_app(kb)`,
`import uvicorn`, and the first `kb.search`.  Last, `python -X importtime` lists the slowest
imports (cumulative) of `import rag` alone and of the whole start-up path.

"Cold" means a new process; the OS page cache is warm (nothing here drops it).  Prints medians and
the spread; no assertions.  This machine has 2 cores and is noisy: rerun before trusting a figure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUERY = {"query": "value iteration", "k": 3}
TARGET_S = 0.7

# Runs in a fresh interpreter; the parent passes time.time() just before Popen as argv[1].
PHASES = r"""
import json, sys, time
t_enter = time.time()
t = time.perf_counter()
import rag
t_import = time.perf_counter()
kb = rag.KnowledgeBase(sys.argv[2])
t_kb = time.perf_counter()
app = rag.create_app(kb)
t_app = time.perf_counter()
import uvicorn
t_uv = time.perf_counter()
kb.search("value iteration", k=3)
t_search = time.perf_counter()
print(json.dumps({
    "interpreter start": t_enter - float(sys.argv[1]),
    "import rag": t_import - t,
    "KnowledgeBase() (open + model)": t_kb - t_import,
    "create_app(kb)": t_app - t_kb,
    "import uvicorn": t_uv - t_app,
    "first kb.search": t_search - t_uv,
}))
"""

FULL_PATH = "import rag, uvicorn; kb = rag.KnowledgeBase(%r); rag.create_app(kb); kb.search('value iteration', k=3)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def try_search(port: int, body: bytes) -> int | None:
    """Status of one POST /search/semantic, or None when nothing listens yet."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("POST", "/search/semantic", body=body, headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except (ConnectionRefusedError, ConnectionResetError, http.client.RemoteDisconnected):
        return None
    finally:
        conn.close()


def one_cold_start(db: str, timeout: float, log_dir: Path) -> tuple[float, float]:
    """(seconds to the port accepting, seconds to the first 200) for one fresh server process."""
    port = free_port()
    body = json.dumps(QUERY).encode()
    env = {**os.environ, "RAG_RATE_LIMIT": "1000000/minute"}
    cmd = [sys.executable, str(ROOT / "rag.py"), "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)]
    log = open(log_dir / f"server-{port}.log", "w+")
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=log, stderr=log, env=env, cwd=ROOT)
    listening = None
    try:
        while True:
            elapsed = time.perf_counter() - t0
            if elapsed > timeout:
                raise RuntimeError(f"no 200 from /search/semantic within {timeout:.0f} s")
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"server exited with {proc.returncode}: {log.read()[-2000:]}")
            status = try_search(port, body)
            if status is None:
                time.sleep(0.005)
                continue
            if listening is None:
                listening = time.perf_counter() - t0
            if status == 200:
                return listening, time.perf_counter() - t0
            time.sleep(0.005)
    finally:
        proc.kill()
        proc.wait()
        log.close()


def phases(db: str) -> dict[str, float]:
    before = time.time()
    out = subprocess.run([sys.executable, "-c", PHASES, repr(before), db], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bare_interpreter() -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t


def importtime(code: str, runs: int) -> dict[str, tuple[float, float, int]]:
    """{module: (median self µs, median cumulative µs, nesting depth)} from `python -X importtime -c code`."""
    samples: dict[str, list[tuple[int, int]]] = {}
    depth: dict[str, int] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True,
                             text=True, cwd=ROOT, check=True)
        run: dict[str, tuple[int, int, int]] = {}
        for line in out.stderr.splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            self_us, cumulative, raw = line.split(":", 1)[1].split("|")
            name, level = raw.strip(), (len(raw) - len(raw.lstrip()) - 1) // 2
            if name in run:  # a circular import lists a module twice: keep the outer line, add the self times
                own, _, _ = run[name]
                if level < run[name][2]:
                    run[name] = (own + int(self_us), int(cumulative), level)
                else:
                    run[name] = (own + int(self_us), run[name][1], run[name][2])
            else:
                run[name] = (int(self_us), int(cumulative), level)
        for name, (own, cumulative, level) in run.items():
            depth[name] = level
            samples.setdefault(name, []).append((own, cumulative))
    return {name: (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values), depth[name])
            for name, values in samples.items()}


def slowest(table, n: int, skip=(), top_level_only: bool = False):
    """The n modules with the largest cumulative import time: [(name, self µs, cumulative µs)]."""
    rows = [(name, own, cumulative) for name, (own, cumulative, depth) in table.items()
            if name not in skip and (depth == 0 or not top_level_only)]
    return sorted(rows, key=lambda row: -row[2])[:n]


def print_imports(title: str, rows) -> None:
    print(title)
    print(f"  {'module':44} {'cumulative':>10} {'self':>9}")
    for name, own, cumulative in rows:
        print(f"  {name:44} {cumulative / 1000:7.1f} ms {own / 1000:6.1f} ms")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.0f} ms"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "knowledge.sqlite"))
    parser.add_argument("--rounds", type=int, default=7, help="server starts and phase runs (default 7)")
    parser.add_argument("--importtime-runs", type=int, default=3, help="-X importtime runs, medians per module")
    parser.add_argument("--top", type=int, default=8, help="how many of the slowest imports to list")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one server")
    args = parser.parse_args(argv)
    db = str(Path(args.db).resolve())

    with tempfile.TemporaryDirectory(prefix="bookrag-coldstart-") as tmp:
        bare = [bare_interpreter() for _ in range(args.rounds)]
        starts = [one_cold_start(db, args.timeout, Path(tmp)) for _ in range(args.rounds)]
    phase_runs = [phases(db) for _ in range(args.rounds)]
    rag_only = importtime("import rag", args.importtime_runs)
    full_path = importtime(FULL_PATH % db, args.importtime_runs)

    listen = [s[0] for s in starts]
    answered = [s[1] for s in starts]
    load = os.getloadavg()
    print(f"cold start of `rag.py serve` on {os.cpu_count()} cores, {args.rounds} rounds "
          f"(load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}); python {sys.version.split()[0]}")
    print(f"  {'':44} {'median':>10} {'min':>10} {'max':>10}")
    for name, values in (("Popen -> port accepts a connection", listen),
                         ("Popen -> first 200 from POST /search/semantic", answered),
                         ("(bare `python -c pass`, for scale)", bare)):
        print(f"  {name:44} {ms(statistics.median(values)):>10} {ms(min(values)):>10} {ms(max(values)):>10}")
    median = statistics.median(answered)
    verdict = "meets" if median <= TARGET_S else "misses"
    print(f"  target <= {TARGET_S:.1f} s: median {median:.2f} s {verdict} it "
          f"(all rounds: {', '.join(f'{v:.2f}' for v in answered)} s)")

    print(f"phases, each round a fresh `python -c` ({args.rounds} rounds, medians):")
    total = 0.0
    for name in phase_runs[0]:
        values = [run[name] for run in phase_runs]
        total += statistics.median(values)
        print(f"  {name:44} {ms(statistics.median(values)):>10}   (min {ms(min(values)).strip()}, "
              f"max {ms(max(values)).strip()})")
    print(f"  {'sum of medians':44} {ms(total):>10}")

    startup = set(importtime("pass", 1))  # imported by the interpreter itself (site, .pth files)
    whole_rag = rag_only.get("rag", (0.0, 0.0, 0))[1]
    print_imports(f"slowest imports under `import rag`, cumulative (-X importtime, median of {args.importtime_runs}; "
                  f"`rag` itself {whole_rag / 1000:.0f} ms; interpreter start-up modules left out):",
                  slowest(rag_only, args.top, skip=startup | {"rag"}))
    whole = sum(c for _, (_, c, d) in full_path.items() if d == 0 and _ not in startup)
    print_imports(f"slowest imports of the whole start-up path, cumulative (import rag + KnowledgeBase + "
                  f"create_app + uvicorn + first search; numpy, onnxruntime, apsw and the app's libraries "
                  f"are imported lazily there; {whole / 1000:.0f} ms of imports in all):",
                  slowest(full_path, args.top, skip=startup))
    print_imports("the same path, top-level imports only (these add up to the total):",
                  slowest(full_path, args.top, skip=startup, top_level_only=True))

if __name__ == "__main__":
    main()
