"""Typeset contextbook/book.tex (and its chapter files) to contextbook.pdf with ConTeXt, not LaTeX.

    apt-get install context          # Debian's ConTeXt MkIV on LuaTeX (mtxrun --generate once if asked)
    cd tests/layouts && python3 contextbook_build.py && python3 contextbook_key.py

`context --batchmode` in a fresh copy of the sources, so every build starts with no .tuc and makes
the same passes: ConTeXt runs LuaTeX until its two-pass data (book.tuc) stops changing, then writes
the PDF.  Debian bookworm's ConTeXt (2021.03.05) does not keep the clock out with `--nodates` or
SOURCE_DATE_EPOCH: it writes the time into the document information on the first page before the
option takes effect, and random uuids into the XMP packet.  So book.tex leaves them out itself (a
few lines of Lua at its top: no creation or modification date, no /ID, `\\disabledirectives
[backend.xmp]`); with SOURCE_DATE_EPOCH, TZ and the locale fixed as well, two builds give the same
bytes (the script checks it).  The build keeps the
.tuc as contextbook/book.tuc: contextbook_key.py writes the key from it.
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
SOURCE = HERE / "contextbook"
PDF = HERE / "contextbook.pdf"
TUC = SOURCE / "book.tuc"
EPOCH = "1709251200"  # 2024-03-01
COMMAND = ["context", "--batchmode", "--nosynctex", "book.tex"]


def build_once() -> tuple[bytes, str]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, TZ="UTC", LC_ALL="C")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for path in SOURCE.glob("*.tex"):
            shutil.copy(path, work / path.name)
        proc = subprocess.run(COMMAND, cwd=work, env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not (work / "book.pdf").exists():
            log = (work / "book.log").read_text(errors="replace") if (work / "book.log").exists() else ""
            raise SystemExit("context failed:\n" + proc.stdout[-3000:] + log[-3000:])
        return (work / "book.pdf").read_bytes(), (work / "book.tuc").read_text(encoding="utf-8")


def main() -> int:
    (first, tuc), (second, _) = build_once(), build_once()
    if first != second:
        print("two builds differ: the PDF is not reproducible", file=sys.stderr)
        return 1
    PDF.write_bytes(first)
    TUC.write_text(tuc, encoding="utf-8")
    print(f"{PDF.name}: {len(first)} bytes, sha256 {hashlib.sha256(first).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
