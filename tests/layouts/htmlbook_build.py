"""Render htmlbook.html (a textbook printed from HTML and CSS) to htmlbook.pdf and write its key.

Rebuild (WeasyPrint lives in a venv of its own, not in the project's):
    python3 -m venv /tmp/wp-venv && /tmp/wp-venv/bin/pip install weasyprint
    /tmp/wp-venv/bin/python tests/layouts/htmlbook_build.py

The key htmlbook-labels.txt comes from WeasyPrint's own layout, not from the PDF's text: the document
is rendered once with HTML(...).render(); each numbered thing's element id ("definition-2-1",
"figure-1-1", "equation-2-4", ...) is looked up in each page's `anchors`, which gives its PDF page
(1-based), and the printed page is the text WeasyPrint laid out in that page's @bottom-left or
@bottom-right margin box (the folio counter(page), roman in the front matter, none on the title
page).  One line per numbered thing: kind|number as printed|printed page|pdf page|.  As a check,
pdftotext (when present) must show each head ("Definition 2.1", "Figure 1.1:", "(2.4)") on its page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from weasyprint import HTML

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "htmlbook.html"
PDF = HERE / "htmlbook.pdf"
KEY = HERE / "htmlbook-labels.txt"
KINDS = ("definition", "theorem", "lemma", "proposition", "corollary", "example", "remark", "exercise",
         "figure", "table", "equation")
ID_RE = re.compile(r'id="((' + "|".join(KINDS) + r')-(\d+)-(\d+))"')


def printed_head(kind: str, number: str) -> str:
    if kind == "equation":
        return f"({number})"
    if kind in ("figure", "table"):
        return f"{kind.capitalize()} {number}:"
    return f"{kind.capitalize()} {number}"


def numbered_things(html: str) -> list[tuple[str, str, str]]:
    """(element id, kind, number) in document order; each head checked in the source right after its id."""
    out = []
    for m in ID_RE.finditer(html):
        ident, kind, chapter, n = m.groups()
        number = f"{chapter}.{n}"
        end = html.index("</figure>", m.end()) if kind == "figure" else m.end() + 400
        after = re.sub(r"<[^>]+>", "", html[m.end():end])
        assert printed_head(kind, number) in after, (ident, after[:120])
        out.append((ident, kind, number))
    assert len({i for i, _, _ in out}) == len(out), "an id is used twice"
    return out


def box_text(box) -> str:
    text = getattr(box, "text", None) or ""
    return text + "".join(box_text(child) for child in (getattr(box, "children", None) or []))


def folio(page) -> str:
    """What the page's bottom outer margin box prints (the @page counter), '' where nothing."""
    for child in page._page_box.children:
        if getattr(child, "at_keyword", None) in ("@bottom-left", "@bottom-right"):
            text = box_text(child).strip()
            if text:
                return text
    return ""


def main() -> int:
    html = SOURCE.read_text(encoding="utf-8")
    things = numbered_things(html)
    document = HTML(filename=str(SOURCE)).render()
    document.write_pdf(str(PDF))
    where: dict[str, int] = {}
    folios: dict[int, str] = {}
    for index, page in enumerate(document.pages, 1):
        folios[index] = folio(page)
        for anchor in page.anchors:
            where.setdefault(anchor, index)
    lines = []
    for ident, kind, number in things:
        pdf_page = where[ident]
        lines.append(f"{kind}|{number}|{folios[pdf_page]}|{pdf_page}|")
    KEY.write_text("\n".join(lines) + "\n")
    print(f"{len(document.pages)} pages; folios: " + " ".join(f"{i}:{f or '-'}" for i, f in folios.items()))
    print(f"{len(lines)} keyed: " + ", ".join(f"{k} {sum(1 for _, kk, _ in things if kk == k)}" for k in KINDS))
    assert 14 <= len(document.pages) <= 20, len(document.pages)
    if shutil.which("pdftotext"):   # a check on the engine's word: each head and folio in the PDF's text
        for ident, kind, number in things:
            p = where[ident]
            text = subprocess.run(["pdftotext", "-layout", "-f", str(p), "-l", str(p), str(PDF), "-"],
                                  capture_output=True, text=True, check=True).stdout
            assert printed_head(kind, number) in text, (ident, p)
            assert not folios[p] or re.search(rf"(^|\s){re.escape(folios[p])}\s*\f?$", text.rstrip() + "\n"), (ident, p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
