"""Write userclass-labels.txt from userclass.aux (run after the last lualatex run of userclass.tex).

    cd tests/layouts && ../../.venv/bin/python userclass_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, ex:, exer:, fig:, tab:, eq:); chapter and section labels (chap:,
sec:) and the algorithm's (alg:, no kind the key lists) are skipped, and so are cleveref's twins
(NAME@cref).  The PDF page comes from the printed page: the title page and the contents are roman
front pages, and the main matter's page p is PDF page p + the number of front PDF pages, which
userclass.tex writes to the .aux itself (\\userclassfrontpages).  Each line is then checked against
the PDF's text (pypdfium2, as no poppler is needed): the head ("Theorem 1.2" at the start of a
line, "Example 1.2." or "Figure 1.1:" in the margin, "(1.4)") stands on that PDF page, and the
page's running head begins or ends with the printed page (the class prints the folio at the outer
edge of the head; a chapter's opening page prints none and is not checked).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pypdfium2 as pdfium

from keycheck import aux_key_lines, front_pages, write_key_lines

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "ex": "example",
         "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
SKIPPED = ("chap", "sec", "alg")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = front_pages(aux, "userclass")
    return aux_key_lines(aux, KINDS, SKIPPED, lambda page: int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    if kind in ("figure", "table"):
        return re.compile(re.escape(f"{kind.capitalize()} {number}:"))
    if kind == "example":   # captioned in the margin, beside the box's first line
        return re.compile(re.escape(f"Example {number}."))
    return re.compile(r"(?m)^\s*" + re.escape(f"{kind.capitalize()} {number}") + r"(\s|\.|$)")


def check(lines, pdf: Path) -> list[str]:
    problems = []
    doc = pdfium.PdfDocument(str(pdf))
    pages = {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = doc[pdf_page - 1].get_textpage().get_text_range()
        text = pages[pdf_page]
        if not head_of(kind, number).search(text):
            problems.append(f"{kind} {number}: its head is not on PDF page {pdf_page}")
        first = next(ln for ln in text.splitlines() if ln.strip()).split()
        if re.fullmatch(r"\d+", first[0]) and first[1:2] != ["chapter"] and first[-1] != page:
            continue   # a chapter's opening page ("1 Stock Under ..."): no folio
        if page not in (first[0], first[-1]):
            problems.append(f"{kind} {number}: PDF page {pdf_page}'s head {' '.join(first)!r} has not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "userclass.aux").read_text())
    return write_key_lines(HERE / "userclass-labels.txt", lines, check(lines, HERE / "userclass.pdf"))


if __name__ == "__main__":
    sys.exit(main())
