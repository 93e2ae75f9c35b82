"""Write marginpar-labels.txt from marginpar.aux (run after the last pdflatex run of marginpar.tex).

    cd tests/layouts && python3 marginpar_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); section labels (sec:) and
the two algorithms' labels (alg:, no kind the key lists) are skipped.  The PDF page comes from the
printed page through the document's own numbering: the title page prints no number and is PDF page
1, the contents are page ii (PDF page 2), and the main matter's page p is PDF page p + the number of
front PDF pages, which marginpar.tex writes to the .aux itself (\\marginparfrontpages).  Each line is
then checked against the PDF's text (pdftotext -layout): the head ("Theorem 2.3" at the start of a
line, "Figure 3:" in the margin, "Table 2:", "(2.4)") stands on that PDF page, and the foot's last
word (the folio at the right of the foot) is the printed page.
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
SKIPPED = ("sec", "alg")
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = front_pages(aux, "marginpar")
    return aux_key_lines(aux, KINDS, SKIPPED, lambda page: ROMAN[page] if page in ROMAN else int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    if kind in ("figure", "table"):
        return re.compile(re.escape(f"{kind.capitalize()} {number}:"))
    return re.compile(r"(?m)^\s*" + re.escape(f"{kind.capitalize()} {number}") + r"(\s|\.|$)")


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
    lines = key_lines((HERE / "marginpar.aux").read_text())
    return write_key_lines(HERE / "marginpar-labels.txt", lines, check(lines, HERE / "marginpar.pdf"))


if __name__ == "__main__":
    sys.exit(main())
