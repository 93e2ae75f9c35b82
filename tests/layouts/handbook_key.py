"""Write handbook-labels.txt, the answer key of handbook.pdf, from handbook.aux (after the last xelatex run).

    cd tests/layouts && python3 handbook_key.py        # after xelatex handbook.tex (three times)

One line per numbered statement, figure, table and equation, in the order LaTeX wrote them:
`kind|number as printed|printed page|pdf page|`.  The kind is the label's prefix (def:, thm:, lem:,
prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); every numbered thing in handbook-body.tex carries one.
The document's own numbering: the title page is the only page before page 1 (report's titlepage
resets the counter), so the PDF page is the printed page plus FRONT_PAGES.  Each line is then checked
against the PDF's text (pdftotext): the head ("THEOREM 2.3", "Lemma 1.4", "Figure 3.2", "(3.4)")
stands on that PDF page, and the page's last line is its folio "— p —".
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FRONT_PAGES = 1   # the title page
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "rem": "remark", "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{(?P<number>[^}]*)\}\{(?P<page>[^}]*)\}")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    out = []
    for raw in aux.splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split(":")[0]
        if prefix not in KINDS:
            raise SystemExit(f"label {m['name']!r} has no known kind")
        out.append((KINDS[prefix], m["number"], m["page"], int(m["page"]) + FRONT_PAGES))
    return out


def check(lines, pdf: Path) -> list[str]:
    problems, pages = [], {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), str(pdf), "-"],
                                             capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        head = {"equation": f"({number})", "theorem": f"THEOREM {number}",
                "proposition": f"PROPOSITION {number}"}.get(kind, f"{kind.capitalize()} {number}")
        if head not in text:
            problems.append(f"{kind} {number}: {head!r} not on PDF page {pdf_page}")
        folio = [ln.strip() for ln in text.splitlines() if ln.strip()][-1].replace(" ", "")
        if folio != f"—{page}—":
            problems.append(f"{kind} {number}: PDF page {pdf_page} ends with {folio!r}, not the folio — {page} —")
    return problems


def main() -> int:
    lines = key_lines((HERE / "handbook.aux").read_text())
    (HERE / "handbook-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "handbook.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
