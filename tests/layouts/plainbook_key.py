"""Write plainbook-labels.txt, the answer key of plainbook.pdf, from TeX's own evidence, and check it.

    cd tests/layouts && python3 plainbook_build.py && python3 plainbook_key.py

plain TeX writes no .aux, so the book's macros (plainbook/macros.tex) write their own: at every
numbered thing a `\\write` to book.key of "kind|number|\\folio|sheet|", where the number is expanded at
once and the folio (`\\folio`, roman while \\pageno is negative) and the sheet (a counter the output
routine advances before it ships each page, i.e. the PDF page) when the page is shipped.  Each
\\write sits in the paragraph, the display or the insertion it numbers, so it ships with that page.
The running head also writes "page|foot or head or blank|\\folio|sheet|" for every page: where the
folio is printed (centred in the foot on an opening and in the front matter, at the outer edge of the
running head elsewhere, nowhere on the title page).  The build keeps the file as plainbook/book.key.

Then every line is checked against `pdftotext -layout`, page by page, and the script fails loudly if
a page does not print its folio where it should, or if a head is not on the page the key says
("Theorem 1.4 (" or "Lemma 1.3." opening a line, "Example 1.2." or "Figure 1." or "Table 1."
opening a line, an exercise's "1.1." opening a line, "(1.1)" ending a line) or stands as a head on
some other page too.  The key is one line per numbered thing, `kind|number as printed|printed
page|pdf page|`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from keycheck import head_problems, page_count, pdf_pages, write_labels

HERE = Path(__file__).resolve().parent
PDF = HERE / "plainbook.pdf"
KEYLOG = HERE / "plainbook" / "book.key"


def records() -> tuple[list[dict], dict[int, tuple[str, str]]]:
    items, pages = [], {}
    for line in KEYLOG.read_text(encoding="utf-8").splitlines():
        kind, number, folio, sheet = line.split("|")[:4]
        if kind == "page":
            pages[int(sheet)] = (number, folio)
        else:
            items.append({"kind": kind, "number": number, "printed": folio, "page": int(sheet)})
    return items, pages


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"\({n}\)\s*$", re.M)
    if kind == "exercise":
        return re.compile(rf"^\s*{n}\.\s+\S", re.M)
    if kind in ("figure", "table", "example"):
        return re.compile(rf"^\s*{kind.capitalize()} {n}\.\s", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n}(\. | \()", re.M | re.I)


def main() -> int:
    items, folios = records()
    pages = pdf_pages(PDF)
    problems = []
    count = page_count(PDF)
    if len(pages) != count or sorted(folios) != list(range(1, count + 1)):
        problems.append(f"pdftotext gives {len(pages)} pages, pdfinfo {count}, book.key {len(folios)}")
    for index, text in enumerate(pages, start=1):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        where, want = folios.get(index, ("?", "?"))
        if where == "blank":
            ok = not (lines and re.fullmatch(r"[0-9ivxl]+", lines[-1]))
        elif where == "foot":
            ok = bool(lines) and lines[-1] == want
        else:
            first = lines[0].split() if lines else []
            ok = bool(first) and (first[0] == want or first[-1] == want)
        if not ok:
            problems.append(f"PDF page {index} does not print its folio {want!r} ({where})")
    problems += head_problems(items, pages, head_pattern)
    return write_labels(HERE / "plainbook-labels.txt", items, problems)


if __name__ == "__main__":
    sys.exit(main())
