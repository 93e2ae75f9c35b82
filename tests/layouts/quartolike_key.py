"""Write quartolike-labels.txt, the answer key of quartolike.pdf, from quartolike.aux (after the last xelatex run).

    cd tests/layouts && python3 quartolike_key.py        # after xelatex quartolike.tex (three times)

One line per numbered statement, figure, table and equation, in the order LaTeX wrote them:
`kind|number as printed|printed page|pdf page|`.  The kind is the label's Quarto-style prefix (def-,
thm-, lem-, prp-, cor-, exm-, exr-, fig-, tbl-, eq-); every numbered thing in quartolike-body.tex
carries one.  The chapters' labels (sec-) and the numbered callouts' (nte-, "Note 2.1") are no keyed
kind and are skipped.  The document's own numbering: a title page (no folio), then the roman pages
of the contents (page r is PDF page r + 1), then the main matter from page 1, whose page p is PDF
page p + the number of pages before it, which quartolike.tex writes to the .aux itself
(\\quartofrontpages).  Each line is then checked against the PDF's text (pdftotext): the head
("Theorem 2.1", "Figure 2.1:", "Table 2.1:", "(2.4)") stands on that PDF page, and the page's last
line (pdftotext -layout) is its folio, centred in the foot.  Each statement's \\label stands after a
\\leavevmode in the source: amsthm sets a run-in head only when the paragraph starts, and a \\label
written before it can stay on the page before the head when a page break falls between them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prp": "proposition", "cor": "corollary",
         "exm": "example", "exr": "exercise", "fig": "figure", "tbl": "table", "eq": "equation"}
SKIPPED = {"sec", "nte"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6}
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{(?P<number>[^}]*)\}\{(?P<page>[^}]*)\}")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = int(re.search(r"\\gdef\\quartofrontpages\{(\d+)\}", aux).group(1))
    out = []
    for raw in aux.splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split("-")[0]
        if prefix in SKIPPED:
            continue
        if prefix not in KINDS:
            raise SystemExit(f"label {m['name']!r} has no known kind")
        page = m["page"]
        pdf_page = ROMAN[page] + 1 if page in ROMAN else int(page) + front
        out.append((KINDS[prefix], m["number"], page, pdf_page))
    return out


def check(lines, pdf: Path) -> list[str]:
    problems, pages, layout = [], {}, {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), str(pdf), "-"],
                                             capture_output=True, text=True, check=True).stdout
            layout[pdf_page] = subprocess.run(["pdftotext", "-layout", "-f", str(pdf_page), "-l", str(pdf_page),
                                               str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        head = {"equation": f"({number})", "figure": f"Figure {number}:",
                "table": f"Table {number}:"}.get(kind, f"{kind.capitalize()} {number}")
        if head not in text:
            problems.append(f"{kind} {number}: {head!r} not on PDF page {pdf_page}")
        folio = [ln.strip() for ln in layout[pdf_page].splitlines() if ln.strip()][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} ends with {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "quartolike.aux").read_text())
    (HERE / "quartolike-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "quartolike.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
