"""Write monobook-labels.txt from monobook.aux (run after the last pdflatex run of monobook.tex).

    cd tests/layouts && python monobook_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); the problems at each
chapter's end (enumitem items, written to the .aux as {{{2.1}}{8}}) are kind "exercise".  The PDF
page comes from the printed page through the document's own numbering: roman pages i-vi are PDF pages
1-6, and the main matter's page p is PDF page p + the number of front-matter pages, which monobook.tex
writes to the .aux itself (\\monobookfrontpages).  Each line is then checked against the PDF's text
(pdftotext): the head ("Theorem 7", "Example 2.3", "Fig. 2.1", "Table 2.1", "(2.4)", a problem's
"2.1" at the start of a line) stands on that PDF page, and the running head's outer word is the
folio (its first word on even pages, its last on odd ones), except on chapter openings, which print
none.
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
    front = front_pages(aux, "monobook")
    return aux_key_lines(aux, KINDS, (), lambda page: ROMAN[page] if page in ROMAN else int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        text = re.escape(f"({number})")
    elif kind == "exercise":
        text = r"(?m)^\s*" + re.escape(number) + r"\s"
    elif kind == "figure":
        text = re.escape(f"Fig. {number}") + r"\s"
    else:
        text = re.escape(f"{kind.capitalize()} {number}") + r"\s"
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
        first = [ln.split() for ln in text.splitlines() if ln.strip()][0]
        if first[0] == "Chapter":
            continue   # a chapter opening prints no folio
        folio = first[0] if pdf_page % 2 == 0 else first[-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page}'s running head has {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "monobook.aux").read_text())
    return write_key_lines(HERE / "monobook-labels.txt", lines, check(lines, HERE / "monobook.pdf"))


if __name__ == "__main__":
    sys.exit(main())
