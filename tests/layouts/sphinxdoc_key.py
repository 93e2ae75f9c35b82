"""Write sphinxdoc-labels.txt, the answer key of sphinxdoc.pdf, from LaTeX's .aux, and check it against the PDF.

    /tmp/sphinx-venv/bin/python sphinxdoc_build.py && python3 sphinxdoc_key.py

sphinxdoc_build.py keeps the LaTeX run's .aux as sphinxdoc/inventory.aux.txt.  Every numbered thing
in the sources carries a label (`.. _fig-safety:`), and the .aux gives each label's page as printed
(`\\newlabel{reorder:fig-safety}{{2.1}{8}...}`) -- for a statement, the page of the anchor put
before it, which is the page before the statement's when a page break falls between them (a boxed
admonition moved to the next page, a paragraph after a float): the script then takes the next page,
where the head stands -- and for figures, tables, listings (code blocks with a
caption) and equations (`equation:reorder:eq-rop`) also its number, which LaTeX counted.  Statements
and exercises are numbered by hand in the sources (Sphinx numbers none), so their kind and number
are read from the line the label stands over: an admonition's title ("Definition 2.1 (Reorder
point)"), a rubric ("Theorem 1.3 ...") or a bold run-in paragraph ("**Example 2.4.**").

The PDF page is the printed page plus the front matter (the title page and its blank verso, the
contents "i" and its blank verso "ii"); sphinxmanual prints roman numbers there and arabic from 1 in the main matter.
Then every line is checked against `pdftotext -layout` page by page, and the script fails loudly
if a page's folio (the foot's first or last word) is not the printed page the key maps it to, or a
head is not on its page ("Definition 2.1" opening a line, "Fig. 2.1:", "Table 2.1:", "Listing 2.1:"
opening a caption, "(2.1)" ending a line), or stands on another page as a head too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "sphinxdoc"
AUX = SRC / "inventory.aux.txt"
PDF = HERE / "sphinxdoc.pdf"
KEY = HERE / "sphinxdoc-labels.txt"
FRONT = 4                    # PDF pages before printed page 1: title, its blank verso, contents "i", "ii"
CHAPTERS = ["stock", "reorder", "newsvendor", "periodic"]
FLOATS = {"fig": "figure", "tab": "table", "lst": "listing"}
STATEMENT_RE = re.compile(r"(Definition|Theorem|Proposition|Lemma|Corollary|Remark|Example|Exercise)"
                          r" (\d+\.\d+)")
CAPTION = {"figure": "Fig.", "table": "Table", "listing": "Listing"}


def aux_labels() -> dict[str, tuple[str, str]]:
    """label -> (number, printed page) from the .aux's \\newlabel lines."""
    out = {}
    for m in re.finditer(r"\\newlabel\{([^}]*)\}\{\{([^}]*)\}\{([^}]*)\}", AUX.read_text()):
        out[m.group(1)] = (m.group(2), m.group(3))
    return out


def source_items() -> list[tuple[str, str, str]]:
    """(kind, number or None, aux label) in the order of the sources."""
    items = []
    for doc in CHAPTERS:
        lines = (SRC / f"{doc}.rst").read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"\.\. _([a-z]+)-([a-z0-9-]+):$", line)
            if m:
                prefix = m.group(1)
                label = f"{doc}:{prefix}-{m.group(2)}"
                if prefix in FLOATS:
                    items.append((FLOATS[prefix], None, label))
                    continue
                after = next(ln for ln in lines[i + 1:] if ln.strip())
                h = STATEMENT_RE.search(after)
                if not h:
                    raise SystemExit(f"{label}: no numbered head in {after!r}")
                items.append((h.group(1).lower(), h.group(2), label))
            m = re.match(r"\s+:label: ([a-z0-9-]+)$", line)
            if m:
                items.append(("equation", None, f"equation:{doc}:{m.group(1)}"))
            m = re.match(r"\s+:name: (lst-[a-z0-9-]+)$", line)
            if m:
                items.append(("listing", None, f"{doc}:{m.group(1)}"))
    return items


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"\({n}\)\s*$", re.M)
    if kind in CAPTION:
        return re.compile(rf"^\s*{re.escape(CAPTION[kind])} {n}:", re.M)
    # an admonition's title (after its icon) or a rubric, alone or with a name; a run-in head "N.N. Text"
    return re.compile(rf"^\s*(?:\S\s+)?{kind.capitalize()} {n}(?: \(|\.[ \t]+\S|[ \t]*$)", re.M)


def pdf_pages() -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(PDF), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")[:-1]


def roman(n: int) -> str:
    return ["", "i", "ii", "iii", "iv", "v"][n]


def main() -> int:
    labels = aux_labels()
    pages = pdf_pages()
    problems = []
    for index, text in enumerate(pages):
        body = [ln.split() for ln in text.splitlines() if ln.strip()]
        want = None if index < 2 else roman(index - 1) if index < FRONT else str(index + 1 - FRONT)
        foot = body[-1] if body else []
        folio = {foot[0], foot[-1]} if foot else set()
        if want is None:
            if len(foot) == 1 and re.fullmatch(r"[0-9ivx]+", foot[0]):
                problems.append(f"PDF page {index + 1} (title page or its verso) prints a folio {foot}")
        elif want not in folio:
            problems.append(f"PDF page {index + 1}: foot {foot}, not its folio {want!r}")
    lines = []
    for kind, number, label in source_items():
        if label not in labels:
            problems.append(f"{label} not in the .aux")
            continue
        aux_number, printed = labels[label]
        number = number or aux_number
        pdf = int(printed) + FRONT
        pattern = head_pattern(kind, number)
        if not pattern.search(pages[pdf - 1]) and kind not in ("equation", *CAPTION) \
                and pdf < len(pages) and pattern.search(pages[pdf]):
            # the label's anchor stands at the foot of the page before the box or paragraph it names
            # (a page break fell between them): the head's page is the next one, and so its folio
            pdf, printed = pdf + 1, str(int(printed) + 1)
        if not pattern.search(pages[pdf - 1]):
            problems.append(f"{kind} {number}: not on PDF page {pdf} (printed {printed})")
        others = [i + 1 for i, t in enumerate(pages) if i + 1 != pdf and pattern.search(t)]
        if others:
            problems.append(f"{kind} {number}: a head on PDF pages {others} too")
        lines.append(f"{kind}|{number}|{printed}|{pdf}|")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    KEY.write_text("\n".join(lines) + "\n")
    kinds: dict[str, int] = {}
    for ln in lines:
        kinds[ln.split("|")[0]] = kinds.get(ln.split("|")[0], 0) + 1
    print(f"{len(lines)} keyed, {len(pages)} pages:", ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
