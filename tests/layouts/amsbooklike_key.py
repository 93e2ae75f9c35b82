"""Write amsbooklike-labels.txt from amsbooklike.aux (run after the last pdflatex run of amsbooklike.tex).

    cd tests/layouts && python amsbooklike_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); the exercises closing each
chapter (enumitem items labelled "1.", "2.", whose reference is "2.1", the way the text cites them)
are kind "exercise" numbered "2.1"; the letters of the subequations block are keyed one by one
("2.5a").  The PDF page comes from the printed page through the document's own numbering: roman
front-matter pages i, ii, ... are PDF pages 1, 2, ..., and the main matter's page p is PDF page p +
the number of front-matter pages, which amsbooklike.tex writes to the .aux itself
(\\amsbooklikefrontpages).  Each line is then checked against the PDF's text (pdftotext): the head
("Theorem 1.4.", "Figure 2.1.", "Table 2.1.", "(2.5a)", an exercise's "3." at the start of a line)
stands on that PDF page, and the folio is printed there: at the outer edge of the running head (its
first word on even pages, its last on odd ones), or centred in the foot (the page's last line) on a
chapter opening ("CHAPTER 2" at its top).
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
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = front_pages(aux, "amsbooklike")
    return aux_key_lines(aux, KINDS, (), lambda page: ROMAN[page] if page in ROMAN else int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        text = re.escape(f"({number})")
    elif kind == "exercise":
        text = r"(?m)^\s*" + re.escape(number.split(".")[-1]) + r"\.\s"
    else:
        text = re.escape(f"{kind.capitalize()} {number}.") + r"\s"
    return re.compile(text)


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
        rows = [ln.split() for ln in text.splitlines() if ln.strip()]
        if rows[0][0] == "CHAPTER":
            folio = rows[-1][0]   # a chapter opening prints its folio centred in the foot
        else:
            folio = rows[0][0] if int(page) % 2 == 0 else rows[0][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} prints {folio!r} where its folio stands, not {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "amsbooklike.aux").read_text())
    return write_key_lines(HERE / "amsbooklike-labels.txt", lines, check(lines, HERE / "amsbooklike.pdf"))


if __name__ == "__main__":
    sys.exit(main())
