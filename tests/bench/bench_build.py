"""Build speed: the sample book and derivations.pdf (796 pages, the 700-page-book proxy).

    python tests/bench/bench_build.py [--skip-corpora]

Prints pages per second and seconds per stage from each build's report.  The target for
derivations.pdf is at most 5 minutes on the 2-core reference machine, embeddings included.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"


def build(pdf: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(pdf), "-o", f"{tmp}/k.sqlite",
                               "--quiet", "--json"], capture_output=True, text=True, check=True)
        report = json.loads(proc.stdout)
        report["wall_seconds"] = round(time.perf_counter() - t, 1)
        report["size_mb"] = round(Path(f"{tmp}/k.sqlite").stat().st_size / 1e6, 1)
        return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-corpora", action="store_true")
    args = parser.parse_args(argv)
    pdfs = [ROOT / "book" / "book.pdf"]
    if not args.skip_corpora:
        if not CORPORA.is_dir():
            print(f"{CORPORA} not found: only the sample book is measured")
        else:
            pdfs += [CORPORA / "stopt-manual.pdf", CORPORA / "derivations.pdf"]
    for pdf in pdfs:
        r = build(pdf)
        stages = ", ".join(f"{k} {v:.1f}" for k, v in r["seconds"].items() if v >= 0.05)
        print(f"{pdf.name}: {r['pages']} pages, {r['chunks']} chunks, {r['wall_seconds']} s wall "
              f"({r['pages'] / r['wall_seconds']:.1f} pages/s), file {r['size_mb']} MB")
        print(f"  stages (s): {stages}")


if __name__ == "__main__":
    main()
