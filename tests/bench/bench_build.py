"""Build speed and memory, side by side with another version of the builder.

    python tests/bench/bench_build.py                      # this checkout vs the builder before PDFium
    python tests/bench/bench_build.py --baseline HEAD~3    # any git ref as the baseline
    python tests/bench/bench_build.py --no-baseline --pdf derivations.pdf
    python tests/bench/bench_build.py --baseline 37b3d0c --pdf derivations.pdf --runs 3   # medians of 3
    python tests/bench/bench_build.py --scaling            # seconds per stage: lyryx, derivations, a
                                                           # synthetic book of one part 1, 2, 4, 8 times

Each PDF is built by both builders, alternately (`--runs N` times each, then the medians), each build
in its own process tree; the script prints wall seconds, seconds per stage, and peak resident
memory of the whole build (the builder and any reader processes it starts, sampled every 50 ms:
the sum of their resident sizes, the target's measure, and of their proportional sizes, which
count the pages forks share once), in all and per stage, then the ratios.  The baseline's code is
taken from git (`git archive`) into a temporary folder; it needs the libraries it imported (the
builder before PDFium read with pdfplumber and pypdf: `pip install pdfplumber pypdf`).

Targets (issue 15): derivations.pdf, 796 pages, end to end <= 60 s on 2 cores with peak memory
<= 400 MB.  Issue 23 (--scaling): every stage close to linear in the book's size (seconds per page
flat as the synthetic book doubles), lyryx_linear_algebra_2017.pdf (608 pages) and derivations.pdf
each <= 60 s.  This machine is noisy: compare figures from one run, side by side.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("BOOKRAG_SHARED") or ROOT.parent / "shared") / "corpora"
# The last commit whose builder read PDFs with pdfplumber (before the PDFium glyph layer).
DEFAULT_BASELINE = "02010fd"


def tree_memory_kb(pid: int) -> tuple[int, int]:
    """Resident memory of a process and all its descendants, in kB (Linux /proc): the sum of their
    resident sizes, and the sum of their proportional sizes (a page shared by forks, or by a process
    and the libraries it shares with others, counted once in all: what the build costs the machine)."""
    rss = pss = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
                        break
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return rss, pss


def build(code: Path, pdf: Path) -> dict:
    """One build by the builder in `code`: its report, wall seconds, and peak memory of its process
    tree, in all and per stage (the stage its progress lines last named)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "k.sqlite"
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, str(code / "build_db.py"), str(pdf), "-o", str(out),
                                 "--json", "--models", str(ROOT / "models")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp)
        stage = ["start"]
        errors: list[str] = []

        def follow() -> None:
            for text in proc.stderr:
                errors.append(text)
                if text.startswith("  stage "):
                    stage[0] = text.split()[-1]

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        peak = peak_pss = 0
        stages: dict[str, int] = {}
        while proc.poll() is None:
            rss, pss = tree_memory_kb(proc.pid)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            stages[stage[0]] = max(stages.get(stage[0], 0), rss)
            time.sleep(0.05)
        stdout = proc.stdout.read()
        reader.join()
        if proc.returncode != 0:
            raise SystemExit(f"{code.name} failed on {pdf.name}: {''.join(errors).strip()[-500:]}")
        report = json.loads(stdout)
        report["wall_seconds"] = round(time.perf_counter() - started, 1)
        report["peak_mb"] = round(peak / 1024)
        report["peak_pss_mb"] = round(peak_pss / 1024)
        report["stage_peak_mb"] = {name: round(kb / 1024) for name, kb in stages.items()}
        report["size_mb"] = round(out.stat().st_size / 1e6, 1)
        return report


def checkout(ref: str, into: Path) -> Path:
    """The repository's files at a git ref, in a folder (models/ is taken from this checkout)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref], capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def repeated_part(times: int, into: Path) -> Path:
    """A synthetic book: the sample book's longest top-level outline entry (a part of several
    chapters), its pages repeated `times` times, so that cost per page can be read as size grows."""
    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(str(ROOT / "book" / "book.pdf"))
    starts = sorted({b.get_dest().get_index() for b in source.get_toc(max_depth=16)
                     if b.level == 0 and b.get_dest() is not None} | {len(source)})
    first, end = max(zip(starts, starts[1:]), key=lambda span: span[1] - span[0])
    book = pdfium.PdfDocument.new()
    for _ in range(times):
        book.import_pages(source, list(range(first, end)))
    path = into / f"part_x{times}.pdf"
    book.save(str(path))
    return path


def stage_table(results: dict[str, dict]) -> str:
    """Seconds per stage, one column per book, then seconds per page (the figure that must stay flat)."""
    stages = list(dict.fromkeys(k for r in results.values() for k in r["seconds"]))
    width = max(12, *(len(n) + 2 for n in results))
    rows = ["stage".ljust(14) + "".join(n.rjust(width) for n in results)]
    rows.append("pages".ljust(14) + "".join(str(r["pages"]).rjust(width) for r in results.values()))
    for stage in stages:
        rows.append(stage.ljust(14) + "".join(f"{r['seconds'].get(stage, 0.0):.2f}".rjust(width)
                                              for r in results.values()))
    rows.append("wall".ljust(14) + "".join(f"{r['wall_seconds']:.1f}".rjust(width) for r in results.values()))
    rows.append("ms per page".ljust(14) + "".join(f"{1000 * r['wall_seconds'] / max(1, r['pages']):.0f}".rjust(width)
                                                  for r in results.values()))
    for stage in stages:
        rows.append(f"  {stage} ms/pg".ljust(14) + "".join(
            f"{1000 * r['seconds'].get(stage, 0.0) / max(1, r['pages']):.1f}".rjust(width) for r in results.values()))
    return "\n".join(rows)


def scaling() -> int:
    """Issue 23's table: lyryx, derivations and the synthetic book at 1, 2, 4 and 8 times one part."""
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        books = [(f"part x{n}", repeated_part(n, Path(tmp))) for n in (1, 2, 4, 8)]
        for name in ("lyryx_linear_algebra_2017.pdf", "derivations.pdf"):
            if (CORPORA / name).exists():
                books.append((name.split("_")[0].removesuffix(".pdf"), CORPORA / name))
            else:
                print(f"{CORPORA / name} not found: left out")
        for name, pdf in books:
            results[name] = build(ROOT, pdf)
            print(f"{name}: {results[name]['pages']} pages, {results[name]['wall_seconds']} s", file=sys.stderr)
    print(stage_table(results))
    return 0


def line(name: str, r: dict) -> str:
    stages = ", ".join(f"{k} {v:.1f}" for k, v in r["seconds"].items() if v >= 0.05)
    peaks = ", ".join(f"{k} {v}" for k, v in r["stage_peak_mb"].items() if k in r["seconds"])
    return (f"  {name:9} {r['wall_seconds']:7.1f} s wall, peak {r['peak_mb']:5} MB (proportional {r['peak_pss_mb']} MB), "
            f"{r['chunks']} chunks, file {r['size_mb']} MB\n  {'':9} stages (s): {stages}\n"
            f"  {'':9} peak per stage (MB): {peaks}")


def median_of(runs: list[dict]) -> dict:
    """The median run's figures, figure by figure (wall, peaks, each stage's seconds and peak)."""
    def mid(values):
        return round(statistics.median(values), 1)

    first = runs[0]
    return {**first, "wall_seconds": mid([r["wall_seconds"] for r in runs]),
            "peak_mb": mid([r["peak_mb"] for r in runs]), "peak_pss_mb": mid([r["peak_pss_mb"] for r in runs]),
            "seconds": {k: mid([r["seconds"].get(k, 0.0) for r in runs]) for k in first["seconds"]},
            "stage_peak_mb": {k: mid([r["stage_peak_mb"][k] for r in runs if k in r["stage_peak_mb"]])
                              for k in dict.fromkeys(k for r in runs for k in r["stage_peak_mb"])}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git ref of the builder to compare with "
                                                                     f"(default {DEFAULT_BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    parser.add_argument("--scaling", action="store_true", help="seconds per stage and per page: lyryx, "
                                                                "derivations, one part repeated 1, 2, 4, 8 times")
    parser.add_argument("--pdf", action="append", help="a PDF (path, or a name in ../shared/corpora); "
                                                       "default: the sample book, glpk, StOpt, derivations")
    parser.add_argument("--runs", type=int, default=1, help="builds of each PDF by each builder, taking turns; "
                                                            "with more than one, the medians are printed too")
    args = parser.parse_args(argv)
    if args.scaling:
        return scaling()
    if args.pdf:
        pdfs = [Path(p).resolve() if Path(p).exists() else CORPORA / p for p in args.pdf]
    else:
        pdfs = [ROOT / "book" / "book.pdf"]
        if CORPORA.is_dir():
            pdfs += [CORPORA / n for n in ("glpk_manual.pdf", "stopt-manual.pdf", "derivations.pdf")]
        else:
            print(f"{CORPORA} not found: only the sample book is measured")
    with tempfile.TemporaryDirectory() as tmp:
        builders = {"this": ROOT}
        if not args.no_baseline:
            builders = {"baseline": checkout(args.baseline, Path(tmp)), "this": ROOT}
        for pdf in pdfs:
            runs: dict[str, list[dict]] = {name: [] for name in builders}
            for turn in range(max(1, args.runs)):
                for name, code in builders.items():
                    runs[name].append(build(code, pdf))
                print(f"{pdf.name}: {runs['this'][-1]['pages']} pages" + (f", run {turn + 1}" if args.runs > 1 else ""))
                for name in builders:
                    print(line(name, runs[name][-1]))
                sys.stdout.flush()
            results = {name: median_of(r) for name, r in runs.items()}
            if args.runs > 1:
                print(f"{pdf.name}: medians of {args.runs} runs")
                for name, r in results.items():
                    print(line(name, r))
            if "baseline" in results:
                b, t = results["baseline"], results["this"]
                print(f"  this / baseline: wall {t['wall_seconds'] / b['wall_seconds']:.2f}, "
                      f"peak memory {t['peak_mb'] / max(b['peak_mb'], 1):.2f}, "
                      f"proportional {t['peak_pss_mb'] / max(b['peak_pss_mb'], 1):.2f}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
