"""Compile typstbook/main.typ (and its chapter files) to typstbook.pdf with Typst.

    python3 -m venv /tmp/typst-venv && /tmp/typst-venv/bin/pip install typst
    cd tests/layouts && /tmp/typst-venv/bin/python typstbook_build.py && \
        /tmp/typst-venv/bin/python typstbook_key.py

Typst is not TeX: its own CID fonts (Libertinus Serif and New Computer Modern Math, embedded in the
compiler; system fonts are ignored so the build does not depend on the machine), its own line breaking,
figure, equation and heading numbering, outline and page labels.  The document's date is fixed in
main.typ and the timestamp here, so two builds give the same bytes (the script checks it).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import typst

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "typstbook" / "main.typ"
PDF = HERE / "typstbook.pdf"
TIMESTAMP = 1709251200  # 2024-03-01


def compile_once() -> bytes:
    return typst.compile(str(SOURCE), root=str(HERE / "typstbook"), ignore_system_fonts=True,
                         timestamp=TIMESTAMP)


def main() -> int:
    first, second = compile_once(), compile_once()
    if first != second:
        print("two builds differ: the PDF is not reproducible", file=sys.stderr)
        return 1
    PDF.write_bytes(first)
    print(f"{PDF.name}: {len(first)} bytes, sha256 {hashlib.sha256(first).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
