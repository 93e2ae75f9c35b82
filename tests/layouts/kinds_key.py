"""Write kinds-labels.txt, the answer key of kinds.pdf, from kinds.aux (after the last lualatex run).

    cd tests/layouts && python3 kinds_key.py        # after lualatex kinds.tex (three times)

One line per numbered statement, claim, algorithm, listing, figure, table and equation, in the order
LaTeX wrote them: `kind|number as printed|printed page|pdf page|`.  The kind is the label's prefix
(nota:, def:, asm:, hyp:, lem:, thm:, cor:, rem:, prob:, prop:, conj:, ex:, exer:, claim:, alg:,
lst:, fig:, tab:, eq:); every numbered thing in kinds.tex carries one.  Claims are numbered through
each proof and restart in the next ("Claim 1" stands in three proofs), so they are keyed only if no
two claims with the same number stand on the same PDF page (the scorer tells them apart by page);
otherwise they are left out and the script says so.  The document's own numbering: the title page,
the preface and the contents on roman pages i-iv (page r is PDF page r), then the main matter from
page 1, whose page p is PDF page p + the number of pages before it, which kinds.tex writes to the .aux
itself (\\kindsfrontpages).  Each line is then checked against the PDF's text (pdftotext): the head
("Assumption 1.3", "Claim 2", "Algorithm 3.", "Listing 2.1:", "Figure 2.1:", "Table 2.1:", "(2.4)")
stands on that PDF page, and the page's last line (pdftotext -layout) is its folio, centred in the foot.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = {"nota": "notation", "def": "definition", "asm": "assumption", "hyp": "hypothesis", "lem": "lemma",
         "thm": "theorem", "cor": "corollary", "rem": "remark", "prob": "problem", "prop": "proposition",
         "conj": "conjecture", "ex": "example", "exer": "exercise", "claim": "claim", "alg": "algorithm",
         "lst": "listing", "fig": "figure", "tab": "table", "eq": "equation"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6}
NEWLABEL = re.compile(r"^\\newlabel\{(?P<name>[^}]*)\}\{\{(?P<number>[^}]*)\}\{(?P<page>[^}]*)\}")


def key_lines(aux: str) -> list[tuple[str, str, str, int]]:
    front = int(re.search(r"\\gdef\\kindsfrontpages\{(\d+)\}", aux).group(1))
    out = []
    for raw in aux.splitlines():
        m = NEWLABEL.match(raw)
        if not m:
            continue
        prefix = m["name"].split(":")[0]
        if prefix not in KINDS:
            raise SystemExit(f"label {m['name']!r} has no known kind")
        page = m["page"]
        pdf_page = ROMAN[page] if page in ROMAN else int(page) + front
        out.append((KINDS[prefix], m["number"], page, pdf_page))
    return out


def drop_claims_if_ambiguous(lines):
    same = [k for k, n in Counter((n, q) for kind, n, _, q in lines if kind == "claim").items() if n > 1]
    if same:
        print(f"claims left out of the key: the same number twice on one PDF page {same}")
        return [line for line in lines if line[0] != "claim"]
    return lines


def check(lines, pdf: Path) -> list[str]:
    problems, pages, layout = [], {}, {}
    for kind, number, page, pdf_page in lines:
        if pdf_page not in pages:
            pages[pdf_page] = subprocess.run(["pdftotext", "-f", str(pdf_page), "-l", str(pdf_page), str(pdf), "-"],
                                             capture_output=True, text=True, check=True).stdout
            layout[pdf_page] = subprocess.run(["pdftotext", "-layout", "-f", str(pdf_page), "-l", str(pdf_page),
                                               str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        text = pages[pdf_page]
        head = {"equation": f"({number})", "figure": f"Figure {number}:", "table": f"Table {number}:",
                "listing": f"Listing {number}:", "algorithm": f"Algorithm {number}."
                }.get(kind, f"{kind.capitalize()} {number}")
        if head not in text:
            problems.append(f"{kind} {number}: {head!r} not on PDF page {pdf_page}")
        folio = [ln.strip() for ln in layout[pdf_page].splitlines() if ln.strip()][-1]
        if folio != page:
            problems.append(f"{kind} {number}: PDF page {pdf_page} ends with {folio!r}, not the folio {page}")
    return problems


def main() -> int:
    lines = drop_claims_if_ambiguous(key_lines((HERE / "kinds.aux").read_text()))
    (HERE / "kinds-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    problems = check(lines, HERE / "kinds.pdf")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
