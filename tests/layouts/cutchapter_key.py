"""Write cutchapter-labels.txt, the answer key of cutchapter.pdf, from build/cutchapter.aux.

    cd tests/layouts && python3 cutchapter_key.py     # after the last pdflatex -output-directory=build run

One line per numbered statement, figure, table and equation, in the order LaTeX wrote them:
`kind|number as printed|printed page|pdf page|`.  The kind is told by the label's prefix (every
numbered thing in cutchapter.tex carries one); the chapter's, the sections' and the algorithm's labels
are skipped (the algorithm is no kind the key lists).  The problems are an enumerate whose labels are
the numbers 5.1, 5.2, ... (enumitem writes them braced: {{5.1}}), keyed as exercises.  The chapter
is cut from a book: its first page prints 137 and is the PDF's first, so the PDF page is the printed
page minus 136.  When pdftotext is at hand the script checks each line against the re-saved PDF: the
PDF page prints the folio as the first or last word of its first or last line, and the thing's head
("Lemma 5.3.", "Figure 5.1:", "(5.3)", "5.1 " at a problem's start) stands on that page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
SKIPPED = {"chap", "sec", "alg"}
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{\{?(?P<number>[^{}]*)\}?\}\{(?P<page>[^{}]*)\}")
FIRST_PAGE = 137   # \setcounter{page}{137} on the PDF's first page


def pdf_page_of(printed: str) -> int:
    return int(printed) - FIRST_PAGE + 1


def head_pattern(kind: str, number: str) -> str:
    n = re.escape(number)
    if kind == "equation":
        return rf"^\s*\({n}\)"
    if kind == "exercise":
        return rf"^\s*{n}\s"
    if kind in ("figure", "table"):
        return rf"{kind.capitalize()} {n}:"
    return rf"{kind.capitalize()} {n}\."


def check_pdf(pdf: Path, entries: list[tuple[str, str, str, int]]) -> None:
    if not shutil.which("pdftotext"):
        return
    texts: dict[int, str] = {}
    for kind, number, printed, page in entries:
        if page not in texts:
            texts[page] = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                                         capture_output=True, text=True, check=True).stdout
            lines = [ln.split() for ln in texts[page].splitlines() if ln.strip()]
            ends = {lines[0][0], lines[0][-1], lines[-1][0], lines[-1][-1]}
            assert printed in ends, f"PDF page {page} does not print the folio {printed}"
        assert re.search(head_pattern(kind, number), texts[page], re.M), f"{kind} {number} not on PDF page {page}"


def main() -> int:
    entries = []
    for raw in (HERE / "build" / "cutchapter.aux").read_text().splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split(":")[0]
        if prefix not in KINDS:
            assert prefix in SKIPPED, m["name"]
            continue
        entries.append((KINDS[prefix], m["number"], m["page"], pdf_page_of(m["page"])))
    check_pdf(HERE / "cutchapter.pdf", entries)
    lines = [f"{kind}|{number}|{printed}|{page}|" for kind, number, printed, page in entries]
    (HERE / "cutchapter-labels.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} entries written to cutchapter-labels.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
