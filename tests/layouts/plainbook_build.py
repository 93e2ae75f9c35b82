"""Typeset plainbook/book.tex (and its chapter files) to plainbook.pdf with pdftex in plain TeX, not LaTeX.

    cd tests/layouts && python3 plainbook_build.py && python3 plainbook_key.py

`pdftex` with the plain format (TeX Live's `pdftex` is plain TeX with PDF output) in a fresh copy of
the sources, run twice: the contents page reads the previous run's book.toc.  No hyperref and no
LaTeX: no bookmarks, no links, no page labels; the house style is macros.tex, written for this book.
SOURCE_DATE_EPOCH with FORCE_SOURCE_DATE=1 fixes the dates pdfTeX writes, and book.tex sets
`\\pdftrailerid{}` so the /ID is left out; two builds give the same bytes (the script checks it).
The build keeps book.key, the lines "kind|number|folio|sheet|" the macros \\write at every numbered
thing, as plainbook/book.key: plainbook_key.py writes the key from it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "plainbook"
PDF = HERE / "plainbook.pdf"
KEY = SOURCE / "book.key"
EPOCH = "1709251200"  # 2024-03-01
COMMAND = ["pdftex", "-interaction=batchmode", "-halt-on-error", "book.tex"]


def build_once() -> tuple[bytes, str]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, FORCE_SOURCE_DATE="1", TZ="UTC", LC_ALL="C")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for path in SOURCE.glob("*.tex"):
            shutil.copy(path, work / path.name)
        for _ in range(2):
            proc = subprocess.run(COMMAND, cwd=work, env=env, capture_output=True, text=True)
            if proc.returncode != 0 or not (work / "book.pdf").exists():
                log = (work / "book.log").read_text(errors="replace") if (work / "book.log").exists() else ""
                raise SystemExit("pdftex failed:\n" + proc.stdout[-2000:] + log[-3000:])
        log = (work / "book.log").read_text(errors="replace")
        if "Overfull" in log or "undefined" in log.lower():
            print("warning: see book.log:\n" + "\n".join(l for l in log.splitlines()
                                                       if "Overfull" in l or "ndefined" in l), file=sys.stderr)
        return (work / "book.pdf").read_bytes(), (work / "book.key").read_text(encoding="utf-8")


def main() -> int:
    (first, key), (second, _) = build_once(), build_once()
    if first != second:
        print("two builds differ: the PDF is not reproducible", file=sys.stderr)
        return 1
    PDF.write_bytes(first)
    KEY.write_text(key, encoding="utf-8")
    print(f"{PDF.name}: {len(first)} bytes, sha256 {hashlib.sha256(first).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
