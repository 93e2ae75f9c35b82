"""keycheck.py: what the key scripts of our held-out layouts share.  For the layouts not set by LaTeX
(groffbook_key.py, typstbook_key.py, contextbook_key.py, plainbook_key.py): the PDF's pages as
`pdftotext -layout` lays them out, their count checked against `pdfinfo`, the check that each keyed
head stands on its PDF page and on no other, and writing NAME-labels.txt (`kind|number as printed|
printed page|pdf page|`) only when every check holds.  For the LaTeX layouts that number their front
pages in the .aux (userclass, marginpar, breakheads, numberfirst, amsbooklike, monobook): the lines
read from the .aux's \\newlabel entries, and writing them.  Each script keeps what is its own: where
its records come from, how its heads and folios look."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Callable


def pdf_pages(pdf: Path) -> list[str]:
    """The PDF's pages as pdftotext lays them out (the text after the last form feed is no page)."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def page_count(pdf: Path) -> int:
    """The PDF's page count, as pdfinfo reports it."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def head_problems(items: list[dict], pages: list[str], head_pattern: Callable[[str, str], re.Pattern],
                  also_set: Callable[[str, str, list[int]], list[int]] | None = None) -> list[str]:
    """What is wrong with the keyed heads: one not on its PDF page, one set as a head on another page too
    (`also_set` may keep only the pages that count: a number that also opens a section's head), one keyed
    twice."""
    problems, seen = [], set()
    for item in items:
        kind, number, pdf = item["kind"], item["number"], item["page"]
        pattern = head_pattern(kind, number)
        if pdf > len(pages) or not pattern.search(pages[pdf - 1]):
            problems.append(f"{kind} {number}: not on PDF page {pdf}")
        elsewhere = [i + 1 for i, t in enumerate(pages) if i + 1 != pdf and pattern.search(t)]
        if also_set is not None:
            elsewhere = also_set(kind, number, elsewhere)
        if elsewhere:
            problems.append(f"{kind} {number}: also set as a head on PDF pages {elsewhere}")
        if (kind, number) in seen:
            problems.append(f"{kind} {number} twice")
        seen.add((kind, number))
    return problems


def write_labels(labels: Path, items: list[dict], problems: list[str]) -> int:
    """Print the problems and write nothing (exit status 1), or write the key and say what it holds (0)."""
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    labels.write_text("".join(f"{i['kind']}|{i['number']}|{i['printed']}|{i['page']}|\n" for i in items))
    kinds = sorted({i["kind"] for i in items})
    counts = ", ".join(f"{k} {sum(i['kind'] == k for i in items)}" for k in kinds)
    print(f"{labels.name}: {len(items)} lines ({counts}), each checked on its PDF page")
    return 0


# --------------------------------------------------------------------------- LaTeX layouts' .aux
# \newlabel{NAME}{{NUMBER}{PAGE}...} (a number may be braced twice); cleveref's twins (NAME@cref) are left out
AUX_LABEL = re.compile(r"\\newlabel\{([^}@]*)\}\{\{\{?([^{}]*)\}?\}\{([^{}]*)\}")


def front_pages(aux: str, name: str) -> int:
    """The number of front PDF pages a layout writes to its own .aux (\\gdef\\NAMEfrontpages{N})."""
    return int(re.search(r"\\gdef\s*\\" + name + r"frontpages\{(\d+)\}", aux).group(1))


def aux_key_lines(aux: str, kinds: dict[str, str], skipped: tuple[str, ...],
                  pdf_page: Callable[[str], int]) -> list[tuple[str, str, str, int]]:
    """One line per \\newlabel: (kind, number as printed, printed page, PDF page).  The kind is the
    label's prefix (`thm:` -> kinds["thm"]); prefixes in `skipped` (chapters, sections) are passed
    over, and any other unknown one stops the script."""
    out = []
    for name, number, page in AUX_LABEL.findall(aux):
        prefix = name.split(":")[0]
        if prefix in skipped:
            continue
        if prefix not in kinds:
            raise SystemExit(f"label {name!r} has no known kind")
        out.append((kinds[prefix], number, page, pdf_page(page)))
    return out


def write_key_lines(labels: Path, lines: list[tuple[str, str, str, int]], problems: list[str]) -> int:
    """Write NAME-labels.txt, print the problems the checks found and a count; exit status 1 if any."""
    labels.write_text("".join(f"{k}|{n}|{p}|{q}|\n" for k, n, p, q in lines))
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(lines)} lines written, {len(problems)} problems")
    return 1 if problems else 0
