"""Embedder speed and agreement, side by side in one run: the shipped model vs other ONNX exports.

    python tests/bench/bench_embed.py [MODEL_DIR ...] [--rounds 5] [--passages 20]

Each MODEL_DIR holds model.onnx, tokenizer.json and model.json, as models/ does (the shipped
models/ is always measured first, unless --no-shipped).  Every model is loaded through
rag_core.Embedder with one intra-op thread, as the service runs, and embeds one text per call:
the 100 questions of tests/eval/questions.json (short queries) and --passages passages of
exactly 256 tokens (questions strung together, then truncated as the model does).  Rounds are
interleaved model by model (the order rotates each round), so machine noise hits every model
alike.  Prints, per model: model.onnx size, load time (median of --load-rounds fresh
Embedder()s), query p50/p95, passage p50/p95, and the cosine of its vectors to the first
model's (min / mean over the queries and passages).  This machine is noisy: compare ratios
within one run.

MLAS picks its kernels from the CPU it runs on (AVX-512/VNNI here; AVX2 on older CPUs).
Valgrind has no AVX-512, so under it MLAS takes its AVX2 path; there wall time means nothing,
but instruction counts do.  --instructions counts the instructions of each embed() call with
callgrind (collection is switched on only around the calls, through valgrind's client
requests; the dumps go to the current folder):

    valgrind --tool=callgrind --collect-atstart=no \\
        python tests/bench/bench_embed.py --instructions [MODEL_DIR ...]

That mode prints instructions per query and per 256-token passage (callgrind is
deterministic: one round is enough, and it takes minutes, not seconds).
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import json
import mmap
import os
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from rag_core import Embedder  # noqa: E402

PASSAGE_TOKENS = 256


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def cpu_summary() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            flags = next(line for line in f if line.startswith("flags")).split()
    except (OSError, StopIteration):
        return "unknown CPU"
    isa = [f for f in ("avx512f", "avx512_vnni", "avx_vnni", "avx2", "fma") if f in flags]
    return "CPU flags: " + (" ".join(isa) or "none of avx2/avx512")


def passages(embedder: Embedder, questions: list[str], n: int) -> list[str]:
    """n texts of at least 256 tokens (so exactly 256 after truncation), from the questions."""
    out = []
    for i in range(n):
        parts, j = [], i
        while embedder.count_tokens(" ".join(parts)) < PASSAGE_TOKENS + 2:
            parts.append(questions[j % len(questions)])
            j += 1
        out.append(" ".join(parts))
    return out


class Model:
    def __init__(self, path: Path, load_rounds: int, threads: int):
        self.path = path
        self.name = path.name if path.resolve() != (ROOT / "models").resolve() else "models (shipped)"
        self.size_mb = (path / "model.onnx").stat().st_size / 1e6
        self.load_ms = []
        for _ in range(max(1, load_rounds)):
            t = time.perf_counter()
            self.embedder = Embedder(path, threads=threads)
            self.load_ms.append((time.perf_counter() - t) * 1000)
        self.quant = self.embedder.info.get("quantization", "?")
        self.query_ms: list[float] = []
        self.passage_ms: list[float] = []
        self.vectors = None

    def embed_one(self, text: str):
        return self.embedder.embed([text])[0]

    def timed(self, texts: list[str], sink: list[float]) -> None:
        for text in texts:
            t = time.perf_counter()
            self.embedder.embed([text])
            sink.append((time.perf_counter() - t) * 1000)


# ---- valgrind client requests, without a compiler: a 30-byte x86-64 stub that does what
# valgrind.h's VALGRIND_DO_CLIENT_REQUEST does (natively it is a no-op that returns 0).
_STUB = bytes.fromhex(
    "4889f8"                            # mov rax, rdi        (rax -> request block)
    "31d2"                              # xor edx, edx        (default result 0)
    "48c1c703" "48c1c70d" "48c1c73d" "48c1c733"  # rol rdi, 3/13/61/51: valgrind's magic preamble
    "4887db"                            # xchg rbx, rbx       (the request; result in rdx)
    "4889d0"                            # mov rax, rdx
    "c3"                                # ret
)
RUNNING_ON_VALGRIND = 0x1001
CG_BASE = (ord("C") << 24) | (ord("T") << 16)
CG_ZERO_STATS, CG_TOGGLE_COLLECT, CG_DUMP_STATS_AT = CG_BASE + 1, CG_BASE + 2, CG_BASE + 3


class Valgrind:
    def __init__(self):
        if os.uname().machine != "x86_64":
            raise SystemExit("--instructions needs x86-64")
        self._page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        self._page.write(_STUB)
        address = ctypes.addressof(ctypes.c_char.from_buffer(self._page))
        self._call = ctypes.CFUNCTYPE(ctypes.c_ulong, ctypes.c_void_p)(address)
        self._keep = []

    def request(self, code: int, arg: int = 0) -> int:
        block = (ctypes.c_ulong * 6)(code, arg, 0, 0, 0, 0)
        return self._call(ctypes.addressof(block))

    def dump(self, label: str) -> None:
        buf = ctypes.create_string_buffer(label.encode())
        self._keep.append(buf)
        self.request(CG_DUMP_STATS_AT, ctypes.addressof(buf))


def count_instructions(models: list[Model], queries: list[str], long_texts: list[str]) -> None:
    vg = Valgrind()
    if not vg.request(RUNNING_ON_VALGRIND):
        raise SystemExit("--instructions: run this under valgrind --tool=callgrind --collect-atstart=no")
    pattern = f"callgrind.out.{os.getpid()}*"
    seen = set(glob.glob(pattern))

    def measured(model: Model, texts: list[str], label: str) -> int:
        nonlocal seen
        model.embed_one(texts[0])  # warm-up outside the count
        vg.request(CG_ZERO_STATS)
        vg.request(CG_TOGGLE_COLLECT)
        for text in texts:
            model.embed_one(text)
        vg.request(CG_TOGGLE_COLLECT)
        vg.dump(label)
        new = sorted(set(glob.glob(pattern)) - seen, key=os.path.getmtime)
        seen |= set(new)
        if not new:
            raise SystemExit(f"no callgrind dump {pattern} in {os.getcwd()} (keep the default --callgrind-out-file)")
        total = None
        for line in Path(new[-1]).read_text(errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
        return total or 0

    print(f"callgrind instructions per embed() call, one text per call, {len(queries)} queries, "
          f"{len(long_texts)} passages of {PASSAGE_TOKENS} tokens (valgrind: MLAS on its AVX2 path)")
    print(f"{'model':22} {'quantization':36} {'Minstr/query':>13} {'Minstr/passage':>15}")
    base = None
    for m in models:
        q = measured(m, queries, f"{m.name} queries") / len(queries)
        p = measured(m, long_texts, f"{m.name} passages") / len(long_texts)
        base = base or (q, p)
        print(f"{m.name:22} {m.quant[:36]:36} {q / 1e6:9.2f} ({q / base[0]:.2f}x) {p / 1e6:9.1f} ({p / base[1]:.2f}x)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, help="more model folders (model.onnx, tokenizer.json, model.json)")
    parser.add_argument("--no-shipped", action="store_true", help="do not measure models/ first")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the questions (default 5)")
    parser.add_argument("--passages", type=int, default=20, help="256-token passages per round (default 20)")
    parser.add_argument("--load-rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="intra-op threads (the service uses 1)")
    parser.add_argument("--questions", default=str(ROOT / "tests" / "eval" / "questions.json"))
    parser.add_argument("--limit", type=int, default=None, help="use only the first N questions")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with callgrind instead of timing (see the module docstring)")
    args = parser.parse_args(argv)

    dirs = []
    for d in ([] if args.no_shipped else [ROOT / "models"]) + list(args.models):
        if d.resolve() not in [x.resolve() for x in dirs]:  # models/ named again: measure it once
            dirs.append(d)
    if not dirs:
        parser.error("no model folder to measure")
    queries = [q["question"] for q in json.loads(Path(args.questions).read_text())][: args.limit]
    models = [Model(d, 1 if args.instructions else args.load_rounds, args.threads) for d in dirs]
    first = models[0].embedder
    long_texts = passages(first, queries, min(args.passages, 4) if args.instructions else args.passages)
    tokens = [first.count_tokens(q) for q in queries]

    if args.instructions:
        count_instructions(models, queries, long_texts)
        return

    for m in models:  # warm-up, and the vectors for the cosine column (each text alone)
        m.vectors = [m.embed_one(t) for t in queries + long_texts]
    for r in range(args.rounds):
        order = models[r % len(models):] + models[:r % len(models)]
        for m in order:
            m.timed(queries, m.query_ms)
            m.timed(long_texts, m.passage_ms)

    print(f"{cpu_summary()}; {args.threads} intra-op thread(s); {len(queries)} queries "
          f"({statistics.median(tokens):.0f} tokens median, {max(tokens)} max) x {args.rounds} rounds; "
          f"{len(long_texts)} passages of {PASSAGE_TOKENS} tokens x {args.rounds} rounds")
    print(f"{'model':22} {'quantization':36} {'MB':>6} {'load ms':>8} {'query p50':>10} {'p95':>6} "
          f"{'passage p50':>12} {'p95':>6}  {'cos to first min / mean':>23}")
    ref = models[0].vectors
    for m in models:
        cos = [float((a * b).sum()) for a, b in zip(m.vectors, ref)]
        print(f"{m.name:22} {m.quant[:36]:36} {m.size_mb:6.1f} {statistics.median(m.load_ms):8.0f} "
              f"{statistics.median(m.query_ms):10.2f} {pct(m.query_ms, 0.95):6.2f} "
              f"{statistics.median(m.passage_ms):12.2f} {pct(m.passage_ms, 0.95):6.2f}  "
              f"{min(cos):11.4f} / {statistics.mean(cos):.4f}")
    if len(models) < 2:
        return
    base = statistics.median(models[0].query_ms), statistics.median(models[0].passage_ms)
    print("relative to the first model (p50): " + ", ".join(
        f"{m.name} query {statistics.median(m.query_ms) / base[0]:.2f}x passage "
        f"{statistics.median(m.passage_ms) / base[1]:.2f}x" for m in models[1:]))


if __name__ == "__main__":
    main()
