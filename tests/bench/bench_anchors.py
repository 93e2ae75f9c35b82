"""Named destinations read two ways, compared: the file's own reading (build_objects, one pass over
the name tree) against PDFium's index by index (quadratic in their number), on a list of PDFs.

    python tests/bench/bench_anchors.py                          # the corpus, the sample book, our test PDFs
    python tests/bench/bench_anchors.py /usr/share/doc/texlive-doc --by-index-limit 20000
    python tests/bench/bench_anchors.py some.pdf other.pdf --verbose

Folders are searched for *.pdf.  Per PDF: how many destinations PDFium counts, how many anchors each
reading gives, whether they are equal (name, page and height, in order), and the CPU seconds each
took (this process's: steadier than the wall clock on a busy machine); "unsure" when the file's
reading declined (and why: build_glyphs.read_anchors then falls back to PDFium, bounded).  PDFium's
reading is listed in full only up to --by-index-limit destinations (its time grows with their square);
above, PDFium is asked at --samples indexes spread over the count, and each anchor it gives must come
in the file's reading in the same order ("sampled").  A last line sums it up.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CORPORA = Path(os.environ.get("BOOKRAG_SHARED") or ROOT.parent / "shared") / "corpora"

from build_glyphs import MAX_ANCHORS, _anchors_by_index, _open, read_anchors  # noqa: E402
from build_objects import Unsure, named_destinations  # noqa: E402


def default_pdfs() -> list[Path]:
    return sorted(CORPORA.glob("*.pdf")) + [ROOT / "book" / "book.pdf"] + sorted((ROOT / "tests" / "formulas").glob("*.pdf")) \
        + sorted((ROOT / "tests" / "layouts").rglob("*.pdf"))


def pdfs_in(paths: list[str]) -> list[Path]:
    out = []
    for given in paths:
        path = Path(given)
        out += sorted(path.rglob("*.pdf")) if path.is_dir() else [path]
    return out


class TimeOut(Exception):
    pass


def _alarm(signum, frame):
    raise TimeOut


def _sampled_by_index(doc, count: int, samples: int) -> list:
    """PDFium's anchors at `samples` indexes spread evenly over 0 .. count - 1 (and the first and last)."""
    from build_glyphs import anchor_by_index

    heights: dict[int, float] = {}
    found = (anchor_by_index(doc, i, heights) for i in sorted({0, count - 1} | {k * count // samples for k in range(samples)}))
    return [anchor for anchor in found if anchor]


def compare(path: Path, by_index_limit: int, seconds: int, verbose: bool, samples: int) -> str:
    """One PDF's line: 'equal', 'UNEQUAL', 'unsure', 'sampled' (too many for PDFium to list: compared at
    some indexes), 'skipped' (PDFium's reading over its time) or 'unreadable'."""
    import pypdfium2.raw as c

    try:
        doc = _open(path)
    except Exception as exc:
        print(f"unreadable  {path}: {str(exc)[:80]}")
        return "unreadable"
    try:
        count = c.FPDF_CountNamedDests(doc.raw)
        reason = ""
        try:
            named_destinations(path.read_bytes(), MAX_ANCHORS)
        except Unsure as exc:
            reason = str(exc)
        start = time.process_time()
        mine, _ = read_anchors(doc, str(path))
        mine_seconds = time.process_time() - start
        if count > by_index_limit:
            # PDFium at a spread of indexes only (each costs time in proportion to its index): each
            # anchor it gives must come in the file's reading, in the same order
            start = time.process_time()
            sampled = _sampled_by_index(doc, count, samples)
            their_seconds = time.process_time() - start
            rows = iter([(a.name, a.page, a.top) for a in mine])
            kept = all(any(row == (a.name, a.page, a.top) for row in rows) for a in sampled)
            verdict = "unsure" if reason else "sampled" if kept else "UNEQUAL"
            print(f"{verdict:11} {path}: {count} destinations, {len(mine)} anchors in {mine_seconds:.2f} s; "
                  f"PDFium at {len(sampled)} indexes in {their_seconds:.2f} s" + (f" ({reason})" if reason else ""))
            return verdict
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(seconds)
        start = time.process_time()
        try:
            theirs, _ = _anchors_by_index(doc, MAX_ANCHORS)
        except TimeOut:
            print(f"skipped     {path}: {count} destinations, PDFium's reading over {seconds} s; "
                  f"{len(mine)} anchors in {mine_seconds:.2f} s")
            return "skipped"
        finally:
            signal.alarm(0)
        their_seconds = time.process_time() - start
        mine_rows = [(a.name, a.page, a.top) for a in mine]
        their_rows = [(a.name, a.page, a.top) for a in theirs]
        verdict = "unsure" if reason else "equal" if mine_rows == their_rows else "UNEQUAL"
        print(f"{verdict:11} {path}: {count} destinations, {len(mine)} / {len(theirs)} anchors, "
              f"{mine_seconds:.3f} s / {their_seconds:.3f} s" + (f" ({reason})" if reason else ""))
        if verdict == "UNEQUAL" or (verbose and reason):
            shown = 0
            for k in range(max(len(mine_rows), len(their_rows))):
                a = mine_rows[k] if k < len(mine_rows) else None
                b = their_rows[k] if k < len(their_rows) else None
                if a != b and shown < 5:
                    print(f"    at {k}: file {a} / PDFium {b}")
                    shown += 1
        return verdict
    finally:
        doc.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="PDFs or folders (default: the corpus, the sample book, our test PDFs)")
    parser.add_argument("--by-index-limit", type=int, default=20_000,
                        help="skip PDFium's reading above this many destinations (default 20000)")
    parser.add_argument("--seconds", type=int, default=120, help="time limit of PDFium's reading per PDF")
    parser.add_argument("--samples", type=int, default=500,
                        help="above --by-index-limit, the indexes PDFium is asked for (default 500)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    paths = pdfs_in(args.paths) if args.paths else default_pdfs()
    verdicts: dict[str, int] = {}
    for path in paths:
        verdict = compare(path, args.by_index_limit, args.seconds, args.verbose, args.samples)
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    print(f"{len(paths)} PDFs: " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
