"""Write typstbook-labels.txt, the answer key of typstbook.pdf, from Typst's own evidence, and check it.

    cd tests/layouts && /tmp/typst-venv/bin/python typstbook_build.py && \
        /tmp/typst-venv/bin/python typstbook_key.py

Typst writes no .aux.  Every numbered thing in typstbook/ (statement, example, exercise, figure,
table, numbered equation) places a `metadata` record labelled <key> inside its own `context`: the
kind, the number the document prints, `here().page()` (the PDF page) and `counter(page).display()`
(the page number as printed there).  `typst.query` reads them back from the compiled document, in
document order; the key is one line per record, `kind|number as printed|printed page|pdf page|`.

Then every line is checked against `pdftotext -layout`, page by page, and the script fails loudly if
the PDF has another number of pages than the document, if a page's folio (its last line) is not the
printed page the records give, or if a head is not on the page the key says ("Theorem 2.4 (" or
"Exercise 2.1." opening a line, "Figure 2.1:" or "Table 2.1:" opening a caption, "(2.1)" ending a
line) or stands as a head on some other page too.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from keycheck import head_problems, page_count, pdf_pages, write_labels

import typst

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "typstbook" / "main.typ"
PDF = HERE / "typstbook.pdf"
FRONT = {1: None, 2: "i"}   # the title page prints no number, the contents page "i"


def records() -> list[dict]:
    out = typst.query(str(SOURCE), "<key>", field="value", root=str(HERE / "typstbook"), ignore_system_fonts=True)
    return json.loads(out)


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"\({n}\)\s*$", re.M)
    if kind in ("figure", "table"):
        return re.compile(rf"^\s*{kind.capitalize()} {n}:", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n}(\.| \()", re.M)


def main() -> int:
    items = records()
    pages = pdf_pages(PDF)
    problems = []
    count = page_count(PDF)
    if len(pages) != count:
        problems.append(f"pdftotext gives {len(pages)} pages, pdfinfo {count}")
    printed_of = {}
    for item in items:
        if printed_of.setdefault(item["page"], item["printed"]) != item["printed"]:
            problems.append(f"PDF page {item['page']} has two printed pages in the records")
    for index, text in enumerate(pages, start=1):
        body = [ln.strip() for ln in text.splitlines() if ln.strip()]
        last = body[-1] if body else ""
        want = FRONT[index] if index in FRONT else str(index - len(FRONT))
        if want is None:
            if re.fullmatch(r"[0-9ivx]+", last):
                problems.append(f"PDF page 1 (title page) prints a folio {last!r}")
        elif last != want:
            problems.append(f"PDF page {index} ends with {last!r}, not its folio {want!r}")
        if index in printed_of and printed_of[index] != want:
            problems.append(f"PDF page {index}: the records say page {printed_of[index]!r}, the foot {want!r}")
    problems += head_problems(items, pages, head_pattern)
    return write_labels(HERE / "typstbook-labels.txt", items, problems)


if __name__ == "__main__":
    sys.exit(main())
