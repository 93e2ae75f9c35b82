"""Write workbook-labels.txt, the answer key of workbook.pdf, from build/workbook.aux.

    cd tests/layouts && python3 workbook_key.py     # after the last pdflatex -output-directory=build run

One line per numbered statement, exercise, solution, figure, table and equation, in the order LaTeX
wrote them: `kind|number as printed|printed page|pdf page|`.  The kind is told by the label's prefix
(every numbered thing in workbook-body.tex carries one); the chapters' labels are skipped.  A solution's
label is "sol:" + the label of the exercise it answers, its number that exercise's ("Solution 2.3").
A starred exercise prints "Exercise 2.5*": its number is 2.5, the star a mark of difficulty.
Front matter: the title page (no number, PDF page 1) and the contents on roman page i (PDF page 2), so
the main matter's page p is PDF page p + 2.  When pdftotext is at hand each line is checked against
the PDF: the page prints its folio as the first or last word of its first line (the running head's
outer corner), and the thing's head ("Theorem 2.4", "Exercise 2.5", "Solution 2.3", "Figure 2.1:",
"Table 2.1:", "(2.3)") stands on that page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "ex": "example", "exer": "exercise", "sol": "solution", "fig": "figure", "tab": "table",
         "eq": "equation"}
SKIPPED = {"chap"}
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{(?P<number>[^{}]*)\}\{(?P<page>[^{}]*)\}")
ROMAN = {"i": 2}          # the contents; the title page prints nothing
FRONT = 2                 # title page and contents before page 1


def pdf_page_of(printed: str) -> int:
    return ROMAN[printed] if printed in ROMAN else int(printed) + FRONT


def head_pattern(kind: str, number: str) -> str:
    n = re.escape(number)
    if kind == "equation":
        return rf"\({n}\)\s*$"
    if kind in ("figure", "table"):
        return rf"{kind.capitalize()} {n}:"
    return rf"{kind.capitalize()} {n}\b"


def check_pdf(pdf: Path, entries: list[tuple[str, str, str, int]]) -> None:
    if not shutil.which("pdftotext"):
        return
    texts: dict[int, str] = {}
    for kind, number, printed, page in entries:
        if page not in texts:
            texts[page] = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                                         capture_output=True, text=True, check=True).stdout
            first = next(ln.split() for ln in texts[page].splitlines() if ln.strip())
            assert printed in (first[0], first[-1]), f"PDF page {page} does not print the folio {printed}: {first}"
        assert re.search(head_pattern(kind, number), texts[page], re.M), f"{kind} {number} not on PDF page {page}"


def main() -> int:
    entries = []
    for raw in (HERE / "build" / "workbook.aux").read_text().splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split(":")[0]
        if prefix not in KINDS:
            assert prefix in SKIPPED, m["name"]
            continue
        entries.append((KINDS[prefix], m["number"], m["page"], pdf_page_of(m["page"])))
    check_pdf(HERE / "workbook.pdf", entries)
    lines = [f"{kind}|{number}|{printed}|{page}|" for kind, number, printed, page in entries]
    (HERE / "workbook-labels.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} entries written to workbook-labels.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
