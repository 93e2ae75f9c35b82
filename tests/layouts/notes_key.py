"""Write notes-labels.txt, the answer key of notes.pdf, from the notes.aux of its last LaTeX run.

    cd tests/layouts && python3 notes_key.py        # after pdflatex notes.tex (three times)

One line per numbered statement, figure, table and equation, in the order LaTeX wrote them:
`kind|number as printed|printed page|pdf page|`.  The kind is told by the label's prefix (every
numbered thing in notes-body.tex carries one); section labels and the LastPage label are skipped.
The notes have no front matter and number their pages 1, 2, ... from the first, so the PDF page is
the printed page; the script checks that against the PDF itself (pdftotext: the foot of PDF page n
prints "Page n of N") when pdftotext is at hand.
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
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{(?P<number>[^}]*)\}\{(?P<page>[^}]*)\}")


def pdf_page_of(printed: str) -> int:
    """The document's own numbering: arabic from 1 on the first PDF page, nothing before it."""
    return int(printed)


def check_folios(pdf: Path, pages: set[int]) -> None:
    if not shutil.which("pdftotext"):
        return
    for n in sorted(pages):
        text = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(pdf), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert re.search(rf"\bPage {n} of \d+\b", text), f"PDF page {n} does not print 'Page {n} of'"


def main() -> int:
    lines, pages = [], set()
    for raw in (HERE / "notes.aux").read_text().splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split(":")[0]
        if prefix not in KINDS:
            assert prefix in ("sec", "LastPage"), m["name"]
            continue
        pdf_page = pdf_page_of(m["page"])
        pages.add(pdf_page)
        lines.append(f"{KINDS[prefix]}|{m['number']}|{m['page']}|{pdf_page}|")
    check_folios(HERE / "notes.pdf", pages)
    (HERE / "notes-labels.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} entries written to notes-labels.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
