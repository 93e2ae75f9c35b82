"""Write memoirtext-labels.txt from memoirtext.aux (run after the final LuaLaTeX run, in tests/layouts/).

Each numbered statement, figure, table and equation carries a \\label whose prefix names its kind
(def:, thm:, lem:, prop:, cor:, rem:, ex:, exer:, fig:, tab:, eq:); equations set with \\tag{$\\ast$}
carry none and are not keyed.  memoir writes a label as {{\\M@TitleReference {NUMBER}{TITLE}}{PAGE}},
PAGE being the printed (arabic, main matter) page.  The PDF page is the printed page moved by the
front matter's pages: the document writes \\mtmainstart{N}, N the PDF page on which page 1 stands.

    python3 memoirtext_key.py [memoirtext.aux] [memoirtext-labels.txt]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

KINDS = {"def": "definition", "thm": "theorem", "lem": "lemma", "prop": "proposition", "cor": "corollary",
         "rem": "remark", "ex": "example", "exer": "exercise", "fig": "figure", "tab": "table", "eq": "equation"}
LABEL = re.compile(r"^\\newlabel\{(\w+):[^}]*\}\{\{(?:\\M@TitleReference \{([^}]*)\}\{.*\}|([^{}]*))\}\{([^{}]*)\}")


def key_lines(aux: str) -> list[str]:
    start = re.search(r"\\mtmainstart\{(\d+)\}", aux)
    assert start, "no \\mtmainstart in the .aux: run LuaLaTeX again"
    offset = int(start.group(1)) - 1
    lines = []
    for line in aux.splitlines():
        m = LABEL.match(line)
        if not m or m.group(1) not in KINDS:
            continue
        number = m.group(2) if m.group(2) is not None else m.group(3)
        page = m.group(4)
        assert page.isdigit(), line   # nothing numbered stands in the front matter
        lines.append(f"{KINDS[m.group(1)]}|{number}|{page}|{int(page) + offset}|")
    return lines


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    aux = Path(argv[0]) if argv else here / "memoirtext.aux"
    out = Path(argv[1]) if len(argv) > 1 else here / "memoirtext-labels.txt"
    lines = key_lines(aux.read_text())
    out.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} lines to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
