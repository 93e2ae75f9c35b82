"""Write groffbook-labels.txt, the answer key of groffbook.pdf, from groff's own evidence, and check it.

    cd tests/layouts && python3 groffbook_build.py && python3 groffbook_key.py

groff writes no .aux.  The macros of groffbook/macros.ms print, at every numbered thing, a line
`key|kind|number|page|` on stderr with `.tm`: the kind, the number the document prints and the page
register `\\n%` at that point (after the break that opens a statement's paragraph, after the keep
that holds a figure or a table, after an equation's display), which groffbook_build.py keeps in
groffbook/keylog.txt.  The body's pages are numbered from 1 after the unnumbered cover (.RP), so the
PDF page is the page register plus one; ms prints the contents (.TC) last, on a page "i".  The key
is one line per record, `kind|number as printed|printed page|pdf page|`.

Then every line is checked against `pdftotext -layout`, page by page, and the script fails loudly if
a page does not print the folio it should (none on the cover and on page 1, "-2-" centred in the head
in chapter 1, the number alone at the foot's outer edge in chapters 2 and 3, "i" on the contents
page), or if a head is not on the page the key says ("Theorem 2.5 (" or "Example 2.1" opening a
line, "2.1." opening an exercise's line, "Figure 2.1." or "Table 2.1." opening a caption, "(2.1)"
ending a line) or stands as a head on some other page too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from keycheck import head_problems, page_count, pdf_pages, write_labels

HERE = Path(__file__).resolve().parent
PDF = HERE / "groffbook.pdf"
LOG = HERE / "groffbook" / "keylog.txt"
COVER = 1          # PDF pages before page 1


def records() -> list[dict]:
    items = []
    for line in LOG.read_text().splitlines():
        _, kind, number, page, _ = line.split("|")
        items.append({"kind": kind.lower(), "number": number, "printed": page, "page": int(page) + COVER})
    return items


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"\({n}\)\s*$", re.M)
    if kind == "exercise":
        return re.compile(rf"^\s*{n}\.\s", re.M)
    if kind in ("figure", "table"):
        return re.compile(rf"^\s*{kind.capitalize()} {n}\. [A-Z]", re.M)
    if kind == "example":
        return re.compile(rf"^\s*Example {n}\s+[A-Z]", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n}(\.| \()", re.M)


def folio(index: int, lines: list[str], chapter_one_pages: int) -> tuple[str, str | None]:
    """What the page prints as its number, and what it should print (None: nothing)."""
    first, last = (lines[0], lines[-1]) if lines else ("", "")
    if index == 1:
        return (last if re.fullmatch(r"[0-9ivx]+", last) else ""), None
    if index == 2:
        return (first if re.fullmatch(r"-?\d+-?", first) else ""), None
    if index <= 1 + chapter_one_pages:
        return first, f"-{index - COVER}-"
    return last, str(index - COVER)


def main() -> int:
    items = records()
    pages = pdf_pages(PDF)
    problems = []
    count = page_count(PDF)
    if len(pages) != count:
        problems.append(f"pdftotext gives {len(pages)} pages, pdfinfo {count}")
    chapter_one = max(int(i["printed"]) for i in items if i["number"].startswith("1."))
    for index, text in enumerate(pages, start=1):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if index == len(pages):
            if not lines or lines[0] != "Table of Contents" or lines[-1] != "i":
                problems.append(f"PDF page {index} is not the contents page 'i'")
            continue
        got, want = folio(index, lines, chapter_one)
        if (want or "") != got:
            problems.append(f"PDF page {index} prints {got!r} as its folio, not {want!r}")
    def also_set(kind: str, number: str, elsewhere: list[int]) -> list[int]:
        if kind != "exercise":
            return elsewhere
        # "2.1" also opens section 2.1's head; exercises are numbered "2.1."
        pdf = next(i["page"] for i in items if i["kind"] == kind and i["number"] == number)
        return [i for i in elsewhere if re.search(rf"^\s*{re.escape(number)}\.\s+\S", pages[i - 1], re.M) and i > pdf]
    problems += head_problems(items, pages, head_pattern, also_set)
    return write_labels(HERE / "groffbook-labels.txt", items, problems)


if __name__ == "__main__":
    sys.exit(main())
