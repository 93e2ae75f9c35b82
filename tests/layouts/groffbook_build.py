"""Typeset groffbook/book.ms (and its chapter files) to groffbook.pdf with groff, not TeX.

    apt-get install groff            # gropdf, eqn, tbl, pic (groff-base has troff alone)
    cd tests/layouts && python3 groffbook_build.py && python3 groffbook_key.py

`groff -s -ms -e -t -p -Tpdf`: soelim for the chapter files, the ms macros, eqn for the maths, tbl
for the tables, pic for the drawings, gropdf for the PDF (the standard Times and Symbol Type 1
fonts, not embedded), A5 paper.  SOURCE_DATE_EPOCH fixes the date gropdf writes and the one the
cover prints, so two builds give the same bytes (the script checks it).  The macros print a line
`key|kind|number|page|` on stderr (`.tm` with the page register `\\n%`) at every numbered thing;
the build keeps them in groffbook/keylog.txt for groffbook_key.py.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "groffbook"
PDF = HERE / "groffbook.pdf"
LOG = SOURCE / "keylog.txt"
EPOCH = "1709251200"  # 2024-03-01
COMMAND = ["groff", "-s", "-ms", "-e", "-t", "-p", "-Tpdf", "-dpaper=a5", "-P-pa5", "book.ms"]


def build_once() -> tuple[bytes, str]:
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, TZ="UTC", LC_ALL="C")
    proc = subprocess.run(COMMAND, cwd=SOURCE, env=env, capture_output=True, check=True)
    return proc.stdout, proc.stderr.decode()


def main() -> int:
    (first, log), (second, _) = build_once(), build_once()
    if first != second:
        print("two builds differ: the PDF is not reproducible", file=sys.stderr)
        return 1
    other = [line for line in log.splitlines() if line and not line.startswith("key|")]
    if other:
        print("groff said:\n" + "\n".join(other), file=sys.stderr)
        return 1
    PDF.write_bytes(first)
    LOG.write_text("".join(line + "\n" for line in log.splitlines() if line.startswith("key|")))
    print(f"{PDF.name}: {len(first)} bytes, sha256 {hashlib.sha256(first).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
