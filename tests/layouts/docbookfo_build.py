"""Print docbookfo/book.xml (DocBook 4.5) to docbookfo.pdf through XSL-FO: xsltproc with the DocBook XSL
stylesheets for print, customised by docbookfo/custom.xsl, then Apache FOP.

    cd tests/layouts && python3 docbookfo_build.py && python3 docbookfo_key.py

Debian bookworm's docbook-xsl 1.79.2, xsltproc (libxslt) and fop 2.8 (`apt-get install docbook-xsl
xsltproc fop`), run in a fresh copy of the sources with --nonet (the DTD comes from the XML catalog).
FOP reads SOURCE_DATE_EPOCH for the creation date it writes in the info dictionary and the XMP
packet, and derives the /ID from the document, so two builds give the same bytes (the script checks
it).  The fonts are the PDF's base 14 (Times, Helvetica, Courier, Symbol), not embedded; the figures
are SVG drawings FOP draws with Batik.

Beside the PDF the script keeps the toolchain's own evidence for the key, read by docbookfo_key.py:
docbookfo/book.ids, the number DocBook XSL gives each formal object (labels.xsl applies the
stylesheets' own `label.markup` mode under the house style's parameters), and docbookfo/book.pages,
one line per page of FOP's area tree (`fop -at application/pdf`, the same layout the PDF renderer
ships): "sheet|formatted-nr|page master|blank|ids of the formal objects with an area on the page|".
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "docbookfo"
PDF = HERE / "docbookfo.pdf"
EPOCH = "1709251200"  # 2024-03-01
FORMAL = re.compile(r'prod-id="((?:fig|tab|ex|eq|proc)-[^"]*)"')


def run(command: list[str], cwd: Path, env: dict) -> str:
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{command[0]} failed:\n{proc.stdout[-2000:]}{proc.stderr[-3000:]}")
    return proc.stdout


def page_lines(area_tree: str) -> str:
    """One line per page viewport of FOP's area tree, in the order FOP ships them (the PDF's pages)."""
    out = []
    for sheet, page in enumerate(re.split(r"(?=<pageViewport )", area_tree)[1:], start=1):
        head = page[:page.index(">")]
        folio = re.search(r'formatted-nr="([^"]*)"', head).group(1)
        master = re.search(r'simple-page-master-name="([^"]*)"', head).group(1)
        blank = "blank" if 'blank="true"' in head else ""
        ids = list(dict.fromkeys(FORMAL.findall(page)))
        out.append(f"{sheet}|{folio}|{master}|{blank}|{' '.join(ids)}|\n")
    return "".join(out)


def build_once() -> tuple[bytes, str, str]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, TZ="UTC", LC_ALL="C")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for path in SOURCE.iterdir():
            if path.suffix in (".xml", ".xsl", ".svg"):
                shutil.copy(path, work / path.name)
        run(["xsltproc", "--nonet", "-o", "book.fo", "custom.xsl", "book.xml"], work, env)
        ids = run(["xsltproc", "--nonet", "labels.xsl", "book.xml"], work, env)
        run(["fop", "-q", "-fo", "book.fo", "-pdf", "book.pdf"], work, env)
        run(["fop", "-q", "-fo", "book.fo", "-at", "application/pdf", "book.at"], work, env)
        pages = page_lines((work / "book.at").read_text(encoding="utf-8"))
        return (work / "book.pdf").read_bytes(), ids, pages


def main() -> int:
    (first, ids, pages), (second, _, _) = build_once(), build_once()
    if first != second:
        print("two builds differ: the PDF is not reproducible", file=sys.stderr)
        return 1
    PDF.write_bytes(first)
    (SOURCE / "book.ids").write_text(ids, encoding="utf-8")
    (SOURCE / "book.pages").write_text(pages, encoding="utf-8")
    print(f"{PDF.name}: {len(first)} bytes, sha256 {hashlib.sha256(first).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
