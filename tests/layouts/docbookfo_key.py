"""Write docbookfo-labels.txt, the answer key of docbookfo.pdf, from the toolchain's own evidence, and check it.

    cd tests/layouts && python3 docbookfo_build.py && python3 docbookfo_key.py

docbookfo_build.py keeps two records of the toolchain: docbookfo/book.ids, "id|kind|number|" for every
figure, table, example, equation and titled procedure as DocBook XSL numbers it (its `label.markup` mode under the house
style), and docbookfo/book.pages, one line per page of FOP's area tree, "sheet|formatted-nr|page
master|blank|ids|", the ids being those of the formal objects with an area on that page.  A formal
object's PDF page is the first page its areas stand on (the last for a figure, whose title is set
under it: a figure is kept on one page, so it is the same page), and its printed page is that page's
formatted-nr, the folio FOP prints.

Then every line is checked against `pdftotext -layout`, page by page: each page prints its folio at
the outer edge of the foot (last line, first word on a verso, last word on a recto), except the title
pages and the blank pages DocBook inserts before a chapter, which print none; each head stands on
its page ("Figure 1.2. ", "Table 1.2. ", "Example 1.2. ", "Procedure 3.1. " or "Equation 1.2. " opening a line, or an
untitled equation's "(1.2)" ending one) and on no other page.  The key is one line per numbered thing,
`kind|number as printed|printed page|pdf page|`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from keycheck import head_problems, page_count, pdf_pages, write_labels

HERE = Path(__file__).resolve().parent
PDF = HERE / "docbookfo.pdf"
IDS = HERE / "docbookfo" / "book.ids"
PAGES = HERE / "docbookfo" / "book.pages"


def records() -> tuple[list[dict], list[dict]]:
    pages = []
    for line in PAGES.read_text(encoding="utf-8").splitlines():
        sheet, folio, master, blank, ids = line.split("|")[:5]
        pages.append({"sheet": int(sheet), "folio": folio, "master": master, "blank": bool(blank),
                      "ids": ids.split()})
    items = []
    for line in IDS.read_text(encoding="utf-8").splitlines():
        ident, kind, number = line.split("|")[:3]
        on = [p for p in pages if ident in p["ids"]]
        if not on:
            raise SystemExit(f"{ident}: on no page of the area tree")
        page = on[-1] if kind == "figure" else on[0]
        items.append({"kind": kind, "number": number, "printed": page["folio"], "page": page["sheet"]})
    return items, pages


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"^\s*Equation {n}\.\s|\({n}\)\s*$", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n}\.\s", re.M)


def main() -> int:
    items, sheets = records()
    pages = pdf_pages(PDF)
    problems = []
    count = page_count(PDF)
    if len(pages) != count or [p["sheet"] for p in sheets] != list(range(1, count + 1)):
        problems.append(f"pdftotext gives {len(pages)} pages, pdfinfo {count}, the area tree {len(sheets)}")
    for sheet, text in zip(sheets, pages):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        last = lines[-1].split() if lines else []
        if sheet["blank"] or sheet["master"].startswith("titlepage"):
            ok = not (last and re.fullmatch(r"[0-9ivxl]+", last[-1]))
        elif sheet["sheet"] % 2 == 0:
            ok = bool(last) and last[0] == sheet["folio"]
        else:
            ok = bool(last) and last[-1] == sheet["folio"]
        if not ok:
            problems.append(f"PDF page {sheet['sheet']} does not print its folio {sheet['folio']!r} as it should")
    problems += head_problems(items, pages, head_pattern)
    return write_labels(HERE / "docbookfo-labels.txt", items, problems)


if __name__ == "__main__":
    sys.exit(main())
