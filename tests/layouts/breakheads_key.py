"""Write breakheads-labels.txt from breakheads.aux (run after the last pdflatex run of breakheads.tex).

    cd tests/layouts && python breakheads_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); chapter and section labels
(ch:, sec:) are skipped.  The PDF page comes from the printed page through the document's own numbering: the title
page prints no number and is PDF page 1, the roman pages i, ii follow it (PDF pages 2, 3), and the
main matter's page p is PDF page p + the number of front PDF pages, which breakheads.tex writes to
the .aux itself (\\breakheadsfrontpages).  Each line is then checked against the PDF's text
(pdftotext): the head ("Theorem 1.4", "Exercise 2.1", "Figure A.1:", "Table 3.1:", "(A.3)") stands
on that PDF page, and the foot's last word (the folio at the outer edge, under the foot rule) is
the printed page.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from keycheck import aux_key_lines, front_pages, write_key_lines

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "rem": "remark", "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6}


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = front_pages(aux, "breakheads")
    return aux_key_lines(aux, KINDS, ("ch", "sec"),
                         lambda page: ROMAN[page] + 1 if page in ROMAN else int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    if kind in ("figure", "table"):
        return re.compile(re.escape(f"{kind.capitalize()} {number}:"))
    return re.compile(r"(?m)^\s*" + re.escape(f"{kind.capitalize()} {number}") + r"(\s|$)")


def check(lines, pdf: Path) -> list[str]:
    problems = []
    pages = {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), "-layout",
                                              str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        if not head_of(kind, number).search(text):
            problems.append(f"{kind} {number}: its head is not on PDF page {pdf_page}")
        folio = [ln.split() for ln in text.splitlines() if ln.strip()][-1][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page}'s foot ends in {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "breakheads.aux").read_text())
    return write_key_lines(HERE / "breakheads-labels.txt", lines, check(lines, HERE / "breakheads.pdf"))


if __name__ == "__main__":
    sys.exit(main())
