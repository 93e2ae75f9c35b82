"""Numbered things read from the page text alone, checked against PDFs' own link targets.

hyperref writes a named destination for every numbered thing it can link to: 'equation.2.3',
'figure.4', 'table.1.2', 'lstlisting.5', 'theorem.2.1' (the counter's name, then its value).  The
builder reads them too (build_pdf._second_look looks again where a destination points at a number its
first reading missed), so this sweep measures the reading without them, on PDFs nobody here wrote,
TeX Live's package manuals (/usr/share/doc/texlive-doc):

- a PDF whose destinations name a numbered counter is copied with its destinations and its outline
  deleted (`mutool run`, a short script; hyperref's bookmarks point at the same names, so a PDF made
  without hyperref has neither), and the copy is read by build_pdf.read_book, as build_db reads it;
- each destination of a numbered counter is the truth for one thing, when its page prints its
  number: an equation's "(2.3)", or a word and the number ("Table 2", "Abbildung 4") in the lines
  nearest the destination; the word, as the builder names kinds (build_heads.entity_kind), is
  the kind expected.  A counter whose value the page does not print (a caption's internal counter,
  an item) says nothing.

    python tests/eval/entity_sweep.py [--limit N] [--max-pages P] [--out DIR] [--jobs 2] [--verbose]

prints the PDFs read (the list of the sample), recall per kind, the entities the destinations do not
know (each with its line), and the failures sorted by cause.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from manual_sweep import MANUALS, manual_name, mutool_copy, read_within, sweep  # noqa: E402
STRIP_DESTINATIONS_JS = """var doc = new PDFDocument(scriptArgs[0]);
var root = doc.getTrailer().get("Root");
root.delete("Dests");
root.delete("Outlines");
var names = root.get("Names");
if (names.isDictionary()) names.delete("Dests");
doc.save(scriptArgs[1], "incremental=no");
"""
# hyperref's counters that number no thing the builder serves: pages, sectioning, list items,
# footnotes, citations, a listing's line numbers, the document's start
NOT_ENTITY_COUNTERS = {"page", "Doc-Start", "part", "chapter", "section", "subsection", "subsubsection", "paragraph",
                       "subparagraph", "appendix", "Item", "Hfootnote", "footnote", "Hmpfootnote", "mpfootnote",
                       "cite", "lstnumber", "HD", "codeline", "title", "toc", "contents", "index", "AMS",
                       "Hendnote", "endnote"}
COUNTER_RE = re.compile(r"([A-Za-z]{3,24})\.((?:[A-Z]|\d{1,4})(?:\.\d{1,4}){0,3})")   # 'equation.2.3', 'table.A.1'
NEAR_LINES = 3          # lines either side of the destination's height where its number is looked for


def numbered_destinations(anchors) -> list:
    """The destinations that name a counter of a numbered thing, with the counter and its value."""
    out = []
    for anchor in anchors:
        m = COUNTER_RE.fullmatch(anchor.name)
        if m and m.group(1) not in NOT_ENTITY_COUNTERS:
            out.append((anchor, m.group(1), m.group(2)))
    return out


def printed_kinds(lines: list[tuple[float, str]], top: float | None, counter: str, number: str) -> list[str]:
    """The kinds a destination's page prints its number under, near the destination, nearest first:
    "formula" for an equation's "(2.3)", else the kind the word just before the number names
    ("Table 2:" -> table); none when the page does not print it there."""
    from build_heads import entity_kind

    if top is None:
        near = lines
    else:
        nearest = sorted(range(len(lines)), key=lambda i: abs(lines[i][0] - top))[:1]
        i = nearest[0] if nearest else 0
        near = sorted(lines[max(0, i - NEAR_LINES):i + NEAR_LINES + 1], key=lambda line: abs(line[0] - top))
    escaped = re.escape(number)
    tag = re.compile(r"\(\s?" + escaped + r"\s?\)")
    headed = re.compile(r"([^\W\d_]{2,24})\.?[ \u00a0~]" + escaped + r"(?![\w.]\w)")
    kinds = []
    for _top, text in near:
        if counter == "equation" and tag.search(text):
            kinds.append("formula")
        kinds.extend(kind for m in headed.finditer(text) if (kind := entity_kind(m.group(1))))
    return kinds


def read_entities(copy: Path, original_anchors) -> dict:
    """The builder's entities in `copy` (read without destinations), and the destinations' truth."""
    from build_glyphs import read_document
    from build_pdf import structure
    from rag_core import DEFAULT_MODEL_DIR, Embedder, normalize_number

    document = read_document(copy, workers=1)
    lines = {p.number: [(line.top, line.text) for line in p.lines] for p in document.pages}
    printed = [(anchor, counter, number, printed_kinds(lines.get(anchor.page, []), anchor.top, counter, number))
               for anchor, counter, number in numbered_destinations(original_anchors)]
    # a counter's things share one word: the word most of its destinations print nearest is its
    # kind, and "June 1" beside "Figure 1" is not (a theorem counter lemmas share counts its commonest)
    words: dict[str, Counter] = defaultdict(Counter)
    for _anchor, counter, _number, kinds in printed:
        if kinds:
            words[counter][kinds[0]] += 1
    truth = []
    for anchor, counter, number, kinds in printed:
        kind = next((k for k in kinds if words[counter][k] * 2 > sum(words[counter].values())), None)
        if kind:
            truth.append({"counter": counter, "kind": kind, "number": normalize_number(number) or number,
                          "page": anchor.page})
    reading = structure(document, Embedder(DEFAULT_MODEL_DIR, session=False).count_tokens, copy.name)
    found = [{"kind": c.kind, "number": c.number, "page": c.pdf_page, "line": c.content.split("\n")[0][:90]}
             for c in reading.chunks if c.kind != "text" and c.number]
    anchored = sorted({(normalize_number(number) or number, anchor.page)
                       for anchor, _counter, number in numbered_destinations(original_anchors)})
    return {"pages": len(document.pages), "truth": truth, "found": found, "anchored": anchored}


SECONDS_PER_PDF = 400   # a PDF the reader takes longer on is reported, not read


def read_one(path: Path) -> dict:
    """One manual's entities, read from a copy without its destinations, against them."""
    import pypdfium2 as pdfium

    from build_glyphs import read_anchors

    doc = pdfium.PdfDocument(str(path))
    try:
        anchors = read_anchors(doc)
    finally:
        doc.close()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "undestined.pdf"
        mutool_copy(STRIP_DESTINATIONS_JS, path, copy)
        return read_entities(copy, anchors)


def sweep_one(args) -> dict:
    path, out_dir = args
    return read_within(Path(path), Path(out_dir), SECONDS_PER_PDF, read_one)


def choose(limit: int, max_pages: int) -> list[str]:
    """The manuals whose destinations name a numbered counter, at most `max_pages` long, spread evenly
    over the sorted list when more than `limit` qualify."""
    import pypdfium2 as pdfium

    from build_glyphs import read_anchors

    qualified = []
    for path in sorted(MANUALS.rglob("*.pdf")):
        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception:
            continue
        try:
            if (not max_pages or len(doc) <= max_pages) and numbered_destinations(read_anchors(doc)):
                qualified.append(str(path))
        except Exception:
            pass
        finally:
            doc.close()
    if limit and len(qualified) > limit:
        step = len(qualified) / limit
        qualified = [qualified[int(k * step)] for k in range(limit)]
    return qualified


def cause(t: dict, found: list[dict]) -> str:
    """Why a destination's thing was not found where it is."""
    same = [f for f in found if f["number"] == t["number"]]
    if any(f["kind"] == t["kind"] for f in same):
        return "found on another page"
    if any(f["page"] == t["page"] for f in same):
        return "found as another kind"
    if any(f["kind"] == t["kind"] for f in found):
        return "missed, others of its kind found"
    return "its kind never found in the PDF"


def unknown(f: dict, anchored: set) -> str:
    """What an entity the counted destinations do not know is."""
    if (f["number"], f["page"]) in anchored:
        return "a destination of the number on its page, its number not printed under a kind word near it"
    return "no destination of its number on its page"


def report(results: list[dict], verbose: bool) -> None:
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    causes: Counter = Counter()
    strangers: Counter = Counter()
    found_total = known_total = 0
    print("| PDF | pages | destinations counted | found right | entities found | unknown to them |")
    print("|---|---|---|---|---|---|")
    for r in results:
        name = manual_name(r["path"])
        if "error" in r:
            print(f"| {name} | error | {r['error']} | | | |")
            continue
        found_keys = {(f["kind"], f["number"], f["page"]) for f in r["found"]}
        truth_keys = {(t["kind"], t["number"], t["page"]) for t in r["truth"]}
        anchored = {tuple(a) for a in r["anchored"]}
        right = [t for t in r["truth"] if (t["kind"], t["number"], t["page"]) in found_keys]
        others = [f for f in r["found"] if (f["kind"], f["number"], f["page"]) not in truth_keys]
        print(f"| {name} | {r['pages']} | {len(r['truth'])} | {len(right)} | {len(r['found'])} | {len(others)} |")
        for t in r["truth"]:
            per_kind[t["kind"]][0] += 1
            if (t["kind"], t["number"], t["page"]) in found_keys:
                per_kind[t["kind"]][1] += 1
            else:
                causes[cause(t, r["found"])] += 1
                if verbose:
                    print(f"    missed {t['kind']} {t['number']} p{t['page']} ({t['counter']}) -- {cause(t, r['found'])}")
        found_total += len(r["found"])
        known_total += len(r["found"]) - len(others)
        for f in others:
            strangers[unknown(f, anchored)] += 1
            if verbose:
                print(f"    unknown {f['kind']} {f['number']} p{f['page']}: {f['line']!r} -- {unknown(f, anchored)}")
    print()
    print("| kind | destinations counted | found on their page | recall |")
    print("|---|---|---|---|")
    for kind, (n, k) in sorted(per_kind.items(), key=lambda kv: -kv[1][0]):
        print(f"| {kind} | {n} | {k} | {k / n:.1%} |")
    n = sum(v[0] for v in per_kind.values())
    k = sum(v[1] for v in per_kind.values())
    errors = sum(1 for r in results if "error" in r)
    print(f"all: {len(results)} PDFs ({errors} unreadable), {n} destinations counted, {k} found on their page "
          f"({k / max(n, 1):.1%}); {found_total} entities found, {known_total} of them known to the destinations")
    print("missed, by cause:")
    for name, count in causes.most_common():
        print(f"  {count:5d}  {name}")
    print("entities the destinations do not know:")
    for name, count in strangers.most_common():
        print(f"  {count:5d}  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=100, help="read at most N PDFs, spread over the sorted list")
    ap.add_argument("--max-pages", type=int, default=120, help="skip PDFs longer than this")
    ap.add_argument("--out", default="/tmp/entity-sweep", help="a directory for per-PDF results (reused when present)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    chosen = choose(opts.limit, opts.max_pages)
    report(sweep(sweep_one, chosen, opts.out, opts.jobs), opts.verbose)


if __name__ == "__main__":
    main()
