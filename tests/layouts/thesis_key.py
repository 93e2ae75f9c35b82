"""Write thesis-labels.txt from thesis.aux (run after the last pdflatex run of thesis.tex).

    cd tests/layouts && python3 thesis_key.py

One line per \\newlabel of a numbered thing: kind|number as printed|printed page|pdf page|.  The kind
is the label's prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); chapter and
appendix labels (chap:, app:) are not keyed.  The PDF page comes from the printed page through the
document's own numbering: the front matter (title page, abstract, acknowledgements, contents, list of
figures, list of tables) is on roman pages i-vi, PDF pages 1-6, and main-matter page p is PDF page
p + the number of front-matter pages, which thesis.tex writes to the .aux itself (\\thesisfrontpages).
Each line is then checked against the PDF's text (pdftotext -layout): the head ("Theorem 2.3",
"Lemma A.1", "Figure 3.2:", "Table 2.1:", "(A.2)") stands on that PDF page, and the page's last line,
the folio centred in the foot, is the printed page.
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
LABEL = re.compile(r"\\newlabel\{([^}]*)\}\{\{([^{}]*)\}\{([^{}]*)\}")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = int(re.search(r"\\gdef\s*\\thesisfrontpages\{(\d+)\}", aux).group(1))
    out = []
    for name, number, page in LABEL.findall(aux):
        prefix = name.split(":")[0]
        if prefix in ("chap", "app"):
            continue
        if prefix not in KINDS:
            raise SystemExit(f"label {name!r} has no known kind")
        pdf_page = ROMAN[page] if page in ROMAN else int(page) + front
        out.append((KINDS[prefix], number, page, pdf_page))
    return out


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    if kind in ("figure", "table"):
        return re.compile(re.escape(f"{kind.capitalize()} {number}:"))
    return re.compile(re.escape(f"{kind.capitalize()} {number}") + r"[.\s]")


def check(lines, pdf: Path) -> list[str]:
    problems = []
    pages: dict[int, str] = {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), "-layout",
                                              str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        if not head_of(kind, number).search(text):
            problems.append(f"{kind} {number}: its head is not on PDF page {pdf_page}")
        last = [ln.split() for ln in text.splitlines() if ln.strip()][-1]
        folio = last[0] if len(last) == 1 else None
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} prints the folio {folio!r}, not {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "thesis.aux").read_text())
    (HERE / "thesis-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "thesis.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
