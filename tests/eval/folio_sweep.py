"""Printed page numbers read from the page text alone, checked against PDFs' own page labels.

The builder prefers a PDF's /PageLabels and otherwise reads the folios its pages print
(build_layout.drop_running_lines, printed_pages).  This sweep measures that text-only path on PDFs
nobody here wrote, TeX Live's package manuals (/usr/share/doc/texlive-doc):

- a PDF that defines /PageLabels is copied with them deleted (`mutool run`, a three-line script),
  and the copy is read; its labels are the truth;
- a PDF without them shows its page index in every viewer, and hyperref leaves the labels out
  exactly when they are 1, 2, 3, ...: the index is the truth.

Only pages whose head or foot prints the truth count: its text stands as a token at an end of the
page's first or last line (a label scheme the pages do not print says nothing of folios).
The copy is read by the builder's own functions, in build_pdf's order, up to printed_pages.

    python tests/eval/folio_sweep.py [--limit N] [--every K] [--out DIR] [--jobs 2] [--verbose]

prints the PDFs read, pages compared, the share right, and the failures sorted by cause.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from manual_sweep import MANUALS, manual_name, mutool_copy, read_within, sweep  # noqa: E402
STRIP_LABELS_JS = """var doc = new PDFDocument(scriptArgs[0]);
doc.getTrailer().get("Root").delete("PageLabels");
doc.save(scriptArgs[1], "incremental=no");
"""
EDGE_LINES = 2          # lines kept from either edge of a page (a folio is judged on the first and the last)


def pdf_labels(path: Path) -> tuple[int, list[str] | None]:
    """The page count and the PDF's page labels (None when it defines none)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        total = len(doc)
        labels = [doc.get_page_label(i) for i in range(total)]
    finally:
        doc.close()
    return total, labels if any(labels) else None


def edge_lines(page) -> list[str]:
    """The texts of a page's first and last lines, where heads and feet stand."""
    lines = page.lines if len(page.lines) <= 2 * EDGE_LINES else page.lines[:EDGE_LINES] + page.lines[-EDGE_LINES:]
    return [line.text for line in lines]


def prints(edges: list[str], label: str) -> bool:
    """Whether a page's first or last line prints `label` where a folio stands: as the line's first or
    last word (dashes and brackets round it aside; "REWARD234" and "12CHAPTER" glued to a word), or
    anywhere in a line of a few words ("Page 12 of 30").  A number inside a running text line, or a
    section's "2.8.4", is not the label printed."""
    label = label.lower()
    for text in edges[:1] + edges[-1:]:
        words = text.lower().split()
        if not words:
            continue
        ends = words if len(words) <= SHORT_LINE else [words[0], words[-1]]
        for word in ends:
            token = word.strip(".,:;|·–—-[]()")
            if token == label or (label.isdigit() and (m := GLUED_RE.fullmatch(token)) and label in m.groups()):
                return True
    return False


PRINTED_SHARE = 0.5     # a PDF is compared when at least this share of its pages print their label
SHORT_LINE = 4          # words: a line this short ("Page 12 of 30", "— 12 —") is a head or foot's number alone
GLUED_RE = re.compile(r"(\d{1,4})[^\W\d_]+|[^\W\d_]+(\d{1,4})")


def read_folios(path: Path, truth: list[str]) -> dict:
    """The builder's text-only reading of `path`'s printed pages, page by page against `truth`."""
    import build_pdf as bp
    from build_formula import in_iso_style, in_text_face
    from build_glyphs import read_document
    from build_layout import drop_running_lines, printed_pages
    from build_math import in_maths_signs_apart, iso_style, maths_signs_apart

    document = read_document(path, workers=1)
    pages = document.pages
    # (build_pdf._structure's steps before the folios are read, in its order)
    bp.split_at_spaces(pages)
    bp.drop_icon_glyphs(pages)
    face = bp.text_face(pages)
    bp.mark_maths_italics(pages, face)
    bp.mark_prose_letters(pages)
    bp.mark_bold_symbols(pages)
    bp.mark_formal_script(pages)
    bp.mark_slanted_relations(pages)
    bp.mark_sans_body(pages)
    bp.join_touching_words(pages)
    edges = {p.number: edge_lines(p) for p in pages}
    with in_text_face(face), in_iso_style(iso_style(pages)), in_maths_signs_apart(maths_signs_apart(pages, face)):
        candidates, removed = drop_running_lines(pages)
        printed = printed_pages(pages, candidates, None, removed)
    rows = []
    for p in pages:
        want = truth[p.number - 1]
        got = printed.labels.get(p.number)
        rows.append({"page": p.number, "truth": want, "got": got, "edges": edges[p.number],
                     "candidates": candidates.get(p.number, [])})
    return {"source": printed.source, "read": printed.read, "inferred": printed.inferred, "rejected": printed.rejected,
            "pages": rows}


SECONDS_PER_PDF = 300   # a PDF the reader takes longer on is reported (and left for the reader's own tests)


def read_one(path: Path) -> dict:
    """One manual's folios: a copy without its labels read against them, or the PDF read against its
    page index when it has none."""
    total, labels = pdf_labels(path)
    if not labels:
        return dict(read_folios(path, [str(i + 1) for i in range(total)]), labelled=False)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "unlabelled.pdf"
        mutool_copy(STRIP_LABELS_JS, path, copy)
        return dict(read_folios(copy, labels), labelled=True)


def sweep_one(args) -> dict:
    path, out_dir = args
    return read_within(Path(path), Path(out_dir), SECONDS_PER_PDF, read_one)


def cause(row: dict, result: dict) -> str:
    """Why a compared page came out wrong."""
    if result["source"] == "none":
        return "no folio read in the whole PDF"
    if row["got"] is None:
        return "page left without a number"
    if row["truth"] in row["candidates"]:
        return "folio seen on the page, another number chosen"
    if row["candidates"]:
        return "wrong number chosen, the folio not among the page's candidates"
    return "folio not seen on the page, neighbours' run wrong here"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=1, help="read every K-th PDF of the sorted list (plus all labelled ones)")
    ap.add_argument("--limit", type=int, default=0, help="read at most N PDFs")
    ap.add_argument("--max-pages", type=int, default=0, help="skip unlabelled PDFs longer than this")
    ap.add_argument("--out", default="/tmp/folio-sweep", help="a directory for per-PDF results (reused when present)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    import pypdfium2 as pdfium

    chosen = []
    for k, path in enumerate(sorted(MANUALS.rglob("*.pdf"))):
        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception:
            continue
        total = len(doc)
        labelled = any(doc.get_page_label(i) for i in range(min(total, 400)))
        doc.close()
        if labelled or (k % opts.every == 0 and (not opts.max_pages or total <= opts.max_pages)):
            chosen.append(str(path))
    if opts.limit:
        chosen = chosen[:opts.limit]
    report(sweep(sweep_one, chosen, opts.out, opts.jobs), opts.verbose)


def judge(results: list[dict]) -> None:
    """Mark each page compared ("printed") or not."""
    for r in results:
        for row in r.get("pages", ()):
            row["printed"] = bool(row["truth"]) and prints(row["edges"], row["truth"])
        # (a PDF whose pages mostly do not print their label numbers them otherwise, or not at all: a
        # journal's article printing 86-99 on PDF pages 1-14, a file whose stale labels run two pages
        # off; the few pages where the label's text stands at a line's end by chance say nothing)
        if "pages" in r and sum(row["printed"] for row in r["pages"]) < PRINTED_SHARE * len(r["pages"]):
            for row in r["pages"]:
                row["printed"] = False


def report(results: list[dict], verbose: bool) -> None:
    groups = {True: "PDFs with /PageLabels (deleted in the copy read)", False: "PDFs without (the index is the truth)"}
    causes: Counter = Counter()
    total_pages = total_right = 0
    judge(results)
    print("| PDF | labels | pages | compared | right | source |")
    print("|---|---|---|---|---|---|")
    for r in results:
        if "error" in r:
            print(f"| {manual_name(r['path'])} | error | {r['error']} | | | |")
            continue
        compared = [row for row in r["pages"] if row["printed"]]
        if not compared:
            continue
        right = sum(1 for row in compared if (row["got"] or "").lower() == row["truth"].lower())
        print(f"| {manual_name(r['path'])} | {'yes' if r['labelled'] else 'no'} | {len(r['pages'])} | "
              f"{len(compared)} | {right} | {r['source']} |")
        if verbose:
            for row in compared:
                if (row["got"] or "").lower() != row["truth"].lower():
                    print(f"    p{row['page']}: printed {row['truth']!r}, read {row['got']!r}, "
                          f"candidates {row['candidates']} -- {cause(row, r)}")
    print()
    for labelled, name in groups.items():
        group = [r for r in results if "error" not in r and r["labelled"] == labelled]
        compared = [row for r in group for row in r["pages"] if row["printed"]]
        right = sum(1 for row in compared if (row["got"] or "").lower() == row["truth"].lower())
        share = right / len(compared) if compared else 0.0
        judged = sum(1 for r in group if any(row["printed"] for row in r["pages"]))
        print(f"{name}: {len(group)} PDFs read, {sum(len(r['pages']) for r in group)} pages; {judged} PDFs print their "
              f"labels, {len(compared)} pages compared, "
              f"{right} right ({share:.1%})")
        total_pages += len(compared)
        total_right += right
        for r in group:
            for row in r["pages"]:
                if row["printed"] and (row["got"] or "").lower() != row["truth"].lower():
                    causes[cause(row, r)] += 1
    errors = sum(1 for r in results if "error" in r)
    print(f"all: {len(results)} PDFs ({errors} unreadable), {total_pages} pages compared, {total_right} right "
          f"({total_right / max(total_pages, 1):.1%})")
    print("failures by cause:")
    for name, count in causes.most_common():
        print(f"  {count:5d}  {name}")


if __name__ == "__main__":
    main()
