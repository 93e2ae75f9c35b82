"""Write kompendium-labels.txt from kompendium.aux (run after the last pdflatex run of kompendium.tex).

    cd tests/layouts && python kompendium_key.py

One line per \\newlabel: kind|number as printed|printed page|pdf page|.  The kind is the label's
prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:).  The PDF page comes from
the printed page through the document's own numbering: roman pages i-vi are PDF pages 1-6, and the
main matter's page p is PDF page p + the number of front-matter pages, which kompendium.tex writes
to the .aux itself (\\kompendiumfrontpages).  Each line is then checked against the PDF's text
(pdftotext): the head ("Definition 1.1.1", "Example 2.1", "Figure 3.1", "(3.4)") stands on that PDF
page, and the page's last line is its folio.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "rem": "remark", "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = int(re.search(r"\\gdef\\kompendiumfrontpages\{(\d+)\}", aux).group(1))
    out = []
    for name, number, page in re.findall(r"\\newlabel\{([^}]*)\}\{\{([^}]*)\}\{([^}]*)\}", aux):
        prefix = name.split(":")[0]
        if prefix not in KINDS:
            raise SystemExit(f"label {name!r} has no known kind")
        pdf_page = ROMAN[page] if page in ROMAN else int(page) + front
        out.append((KINDS[prefix], number, page, pdf_page))
    return out


def check(lines, pdf: Path) -> list[str]:
    problems = []
    pages = {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), "-layout",
                                              str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        head = f"({number})" if kind == "equation" else f"{kind.capitalize()} {number}"
        if head not in text:
            problems.append(f"{kind} {number}: {head!r} not on PDF page {pdf_page}")
        folio = [ln.strip() for ln in text.splitlines() if ln.strip()][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} ends with {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "kompendium.aux").read_text())
    (HERE / "kompendium-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "kompendium.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
