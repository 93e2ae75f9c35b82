"""Write twocoltext-labels.txt from twocoltext.aux (run after the last pdflatex run of twocoltext.tex).

    cd tests/layouts && python3 twocoltext_key.py

One line per \\newlabel of a numbered thing: kind|number as printed|printed page|pdf page|.  The kind
is the label's prefix (def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); section
labels (sec:) are not keyed.  The PDF page comes from the printed page through the document's own
numbering: the title page and contents are roman pages i-ii (PDF pages 1-2), and main-matter page p is
PDF page p + the number of front-matter pages, which twocoltext.tex writes to the .aux itself
(\\twocolfrontpages).  Each line is then checked against the PDF's text (pdftotext -layout): the head
("Theorem 1.4", "Example 2.3", "Figure 2.1", "Table 2.1", "(2.4)") stands on that PDF page, and the
folio is printed there: the running head's first word on even pages, its last on odd ones, or, on a
chapter opening (no running head), the lone number centred in the foot.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "rem": "remark", "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
LABEL = re.compile(r"\\newlabel\{([^}]*)\}\{\{([^{}]*)\}\{([^{}]*)\}")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = int(re.search(r"\\gdef\s*\\twocolfrontpages\{(\d+)\}", aux).group(1))
    out = []
    for name, number, page in LABEL.findall(aux):
        prefix = name.split(":")[0]
        if prefix == "sec":
            continue
        if prefix not in KINDS:
            raise SystemExit(f"label {name!r} has no known kind")
        pdf_page = ROMAN[page] if page in ROMAN else int(page) + front
        out.append((KINDS[prefix], number, page, pdf_page))
    return out


def head_of(kind: str, number: str) -> re.Pattern:
    if kind == "equation":
        return re.compile(re.escape(f"({number})"))
    return re.compile(re.escape(f"{kind.capitalize()} {number}") + r"[\s.:]")


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
        words = [ln.split() for ln in text.splitlines() if ln.strip()]
        if words[0][0] == "Chapter":
            folio = words[-1][0] if len(words[-1]) == 1 else None   # the opening's foot
        else:
            folio = words[0][0] if pdf_page % 2 == 0 else words[0][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} prints the folio {folio!r}, not {page}")
    return problems


def main() -> int:
    lines = key_lines((HERE / "twocoltext.aux").read_text())
    (HERE / "twocoltext-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "twocoltext.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
