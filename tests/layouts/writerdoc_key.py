"""Write writerdoc-labels.txt, the answer key of writerdoc.pdf, and check it against the PDF's text.

    cd tests/layouts && python3 writerdoc_build.py && \
        soffice --headless --convert-to pdf --outdir . writerdoc.fodt && python3 writerdoc_key.py

Writer writes no .aux, so the key comes from the document's own structure (writerdoc_build.PAGES, the
book page by page, each page opened by a hard page break): one line per numbered statement, exercise,
figure, table and equation, `kind|number as printed|printed page|pdf page|`.  The title page prints
no number and the contents page prints "i", so page 1 is PDF page 3.

Then every line is checked against `pdftotext -layout`, page by page, and the script fails loudly if
the PDF has another number of pages, if a page's footer is not the printed page the key gives, or if a
head is not on the page the key says ("Definition 2.1." or "Exercise 2.1." opening a line, "Figure 3:"
or "Table 2:" opening a caption, "(2.1)" ending a line), or stands on some other page as a head too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import writerdoc_build as book  # noqa: E402


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"\({n}\)\s*$", re.M)
    if kind in ("figure", "table"):
        return re.compile(rf"^\s*{kind.capitalize()} {n}:", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n}\.(\s|$)", re.M)


def pdf_pages(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def main() -> int:
    items = book.numbered_items()
    lines = [(kind, number, printed, pdf) for kind, number, printed, pdf, _ in items]
    pages = pdf_pages(HERE / "writerdoc.pdf")
    problems = []
    if len(pages) != book.FRONT_PDF_PAGES + len(book.PAGES):
        problems.append(f"the PDF has {len(pages)} pages, the document {book.FRONT_PDF_PAGES + len(book.PAGES)}: "
                        "some page ran over")
    for index, text in enumerate(pages):
        body = [ln.strip() for ln in text.splitlines() if ln.strip()]
        want = {0: None, 1: "i"}.get(index, str(index + 1 - book.FRONT_PDF_PAGES))
        last = body[-1] if body else ""
        if want is None:
            if re.fullmatch(r"[0-9ivx]+", last):
                problems.append(f"PDF page 1 (title page) prints a folio {last!r}")
        elif last != want:
            problems.append(f"PDF page {index + 1} ends with {last!r}, not its folio {want!r}")
    for kind, number, printed, pdf in lines:
        pattern = head_pattern(kind, number)
        if pdf > len(pages) or not pattern.search(pages[pdf - 1]):
            problems.append(f"{kind} {number}: not on PDF page {pdf}")
        elsewhere = [i + 1 for i, t in enumerate(pages) if i + 1 != pdf and pattern.search(t)]
        if elsewhere:
            problems.append(f"{kind} {number}: also set as a head on PDF pages {elsewhere}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    (HERE / "writerdoc-labels.txt").write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    print(f"writerdoc-labels.txt: {len(lines)} lines, each checked on its PDF page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
