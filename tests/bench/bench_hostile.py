"""What a hostile page costs the page reader as it holds 10, 100, 1000 times more of one thing.

    python tests/bench/bench_hostile.py                    # this checkout
    python tests/bench/bench_hostile.py --baseline ae74e6b # and a git ref's reader beside it

Each page is written here with raw PDF operators (no TeX needed): a line of words in Helvetica and
one of these drawings:

  grid      n thin rules each way crossing in a 300 pt square (a dense ruled grid)
  overdrawn one frame of four rules drawn n times over itself, round the words
  glyphs    n letters scaled to 400 pt, side by side over the words

Each page is read by `build_glyphs.read_pages` in a process of its own; the script prints its wall
seconds and the process's peak resident memory.  Reading should grow about as the page's shapes do
(ten times the rules, about ten times the seconds once the fixed start-up cost is passed).  No figure
here is a test: the machine is shared and noisy, compare figures from one run side by side.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"grid": (10, 100, 1000, 10000), "overdrawn": (10, 100, 1000), "glyphs": (10, 100, 1000)}


# --- the pages ---------------------------------------------------------------------------------

def drawing(kind: str, n: int) -> str:
    """The content stream's drawing of `kind` with `n` of its things, under the words at the top."""
    if kind == "grid":
        step = 300 / n
        rules = [f"100 {200 + i * step:.3f} m 400 {200 + i * step:.3f} l S" for i in range(n + 1)]
        rules += [f"{100 + i * step:.3f} 200 m {100 + i * step:.3f} 500 l S" for i in range(n + 1)]
        return "q 0.01 w " + "\n".join(rules) + " Q"
    if kind == "overdrawn":
        frame = "100 560 m 400 560 l S 100 560 m 100 620 l S 400 560 m 400 620 l S 100 620 m 400 620 l S"
        return "q 0.4 w " + "\n".join([frame] * n) + " Q"
    if kind == "glyphs":
        return "\n".join(f"BT /F1 400 Tf {100 + i * 300 / n:.3f} 150 Td (A) Tj ET" for i in range(n))
    raise ValueError(kind)


def page_pdf(kind: str, n: int) -> bytes:
    """A one-page PDF: two lines of words and the drawing."""
    words = ("BT /F1 10 Tf 110 585 Td (Words inside the frame are read as well.) Tj ET\n"
             "BT /F1 10 Tf 72 700 Td (A page that holds many of one thing, and its words.) Tj ET\n")
    content = (words + drawing(kind, n)).encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for k, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % k + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for at in offsets:
        out.write(b"%010d 00000 n \n" % at)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


# --- reading them ------------------------------------------------------------------------------

READ_ONE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import build_glyphs
start = time.perf_counter()
pages = build_glyphs.read_pages(sys.argv[2], [0], False)
seconds = time.perf_counter() - start
words = sum(len(line.words) for line in pages[0].lines)
# (the process's own high-water mark: ru_maxrss would keep the parent's from before the exec)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "words": words}))
"""


def read_in_child(tree: Path, pdf: Path, timeout: float) -> dict | None:
    try:
        proc = subprocess.run([sys.executable, "-c", READ_ONE, str(tree), str(pdf)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def baseline_tree(ref: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="a git ref whose page reader is timed beside this checkout's")
    parser.add_argument("--kinds", default=",".join(SIZES), help="which pages (comma-separated)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one reading may take")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("this", ROOT)]
        if args.baseline:
            trees.append((args.baseline, baseline_tree(args.baseline, Path(tmp) / "baseline")))
        print("| page | n | " + " | ".join(f"{name}: s, MB" for name, _ in trees) + " |")
        print("|---|---|" + "---|" * len(trees))
        for kind in args.kinds.split(","):
            for n in SIZES[kind]:
                pdf = Path(tmp) / f"{kind}-{n}.pdf"
                pdf.write_bytes(page_pdf(kind, n))
                cells = []
                for _, tree in trees:
                    got = read_in_child(tree, pdf, args.timeout)
                    cells.append(f"> {args.timeout:.0f} s" if got is None else
                                 f"{got['seconds']:.2f}, {got['peak_mb']:.0f} ({got['words']} words)")
                print(f"| {kind} | {n} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
