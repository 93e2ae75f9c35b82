"""Write numberfirst-labels.txt from numberfirst.aux (run after the last pdflatex run of numberfirst.tex).

    cd tests/layouts && python numberfirst_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); chapter labels (ch:) are
skipped, and the plain numbered paragraphs ("2.5 Theorem 2.4 says ...", a number and no word) carry
no label, so they are not keyed.  The PDF page comes from the printed page through the document's
own numbering: the title page is page i (it prints no folio), so roman page r is PDF page r, and
the main matter's page p is PDF page p + the number of front PDF pages, which numberfirst.tex
writes to the .aux itself (\\numberfirstfrontpages).  Each line is then checked against the PDF's
text (pdftotext): the head, number first ("2.4 Theorem", "2.6 Example" at the start of a line,
"Figure 2.1.", "Table 3.1.", "(2.3)"), stands on that PDF page, and the folio is the running head's
outer word (its first on even pages, its last on odd ones) or, on a chapter opening, the one word
of the foot.
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
    front = front_pages(aux, "numberfirst")
    return aux_key_lines(aux, KINDS, ("ch",), lambda page: ROMAN[page] if page in ROMAN else int(page) + front)


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    if kind in ("figure", "table"):
        return re.compile(re.escape(f"{kind.capitalize()} {number}."))
    return re.compile(r"(?m)^\s*" + re.escape(f"{number} {kind.capitalize()}") + r"[ .]")


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
        if rows[0][0] == "Chapter":
            folio = rows[-1][0] if len(rows[-1]) == 1 else None   # the opening's foot
        else:
            folio = rows[0][0] if pdf_page % 2 == 0 else rows[0][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} prints {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "numberfirst.aux").read_text())
    return write_key_lines(HERE / "numberfirst-labels.txt", lines, check(lines, HERE / "numberfirst.pdf"))


if __name__ == "__main__":
    sys.exit(main())
