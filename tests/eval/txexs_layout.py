"""Print the code table of newtx's extension font txexs above code 127, as build_glyphs.py keeps it.

Below 128 txexs keeps TeX's extension layout (cmex's); above it, newtx's further glyphs (upright and
display integrals, the alternative sums and products …).  A PDF re-written so that the font's glyph names
are lost but its codes kept (Poppler's Cairo back end: the glyphs land at their codes in a WinAnsi-encoded
half of the font, renamed after those slots) is read through this table.  It is printed from TeX Live's
txexs.pfb, the names of its own (built-in) encoding read as build_glyphs.glyph_name_char reads a glyph
name:

    python tests/eval/txexs_layout.py

A string of 128 characters, codes 128-255, a space where the name stands for nothing the reader knows.
"""
from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from build_glyphs import glyph_name_char  # noqa: E402

_ENTRY = re.compile(rb"dup (\d{1,3}) ?/([A-Za-z0-9._]{1,40}) put")


def main() -> None:
    path = subprocess.run(["kpsewhich", "txexs.pfb"], capture_output=True, text=True, check=True).stdout.strip()
    data = Path(path).read_bytes()
    head = data[:data.find(b"eexec")]
    names = {int(code): name.decode() for code, name in _ENTRY.findall(head) if 128 <= int(code) < 256}
    # (an alternate's suffix, "uni222B.dsp", read off as glyph_name_char does for other names)
    chars = [(glyph_name_char(re.sub(r"\.\w{1,10}$", "", names[code])) or " ")[:1] if code in names else " "
             for code in range(128, 256)]
    print("_TXEXS_HIGH = (")
    for row in range(0, 128, 32):
        text = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c).startswith("M") else
                       "\\\\" if c == "\\" else c for c in chars[row:row + 32])
        print(f'    "{text}"')
    print(")")


if __name__ == "__main__":
    main()
