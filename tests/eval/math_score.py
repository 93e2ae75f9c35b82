"""How well the builder reconstructs formulas (LaTeX) and tables (Markdown), against a LaTeX source.

Formulas: every numbered `equation` of the source, numbered as LaTeX numbers them (per chapter, letters
after \\appendix), is matched by number to the knowledge file's formula entity.  Both sides are
normalised to a canonical token sequence (spacing, \\left/\\right and \\big sizes, braces around a single
token, environment wrappers of aligned rows and alignment marks dropped; equivalent spellings such as
\\le/\\leq, \\text/\\mathrm, \\dfrac/\\frac, x'/x^{\\prime} made one) and compared: exact match rate and
mean normalised edit similarity (1 - token edit distance / longer length).  Plain-TeX displays numbered by
hand (`$$ ... \\eqno(2.1)$$`, `\\leqno`, or `\\[ ... \\tag{2.1}\\]`) are read too, under the number they print
(a tag without a digit, such as a named condition "(KKT)", is not a number and is left out); their
`array` alignments count as aligned rows, and `\\left\\{` + `array` + `\\right.` as `cases`.

Tables: every `tabular` inside a float labelled in the source is split into cells (\\multicolumn cells
repeated over the columns they span) and compared cell by cell with the Markdown table of the entity
of that label; a cell counts when its canonical form (text characters and maths tokens) is equal.

    python tests/eval/math_score.py                      # the sample book, from knowledge.sqlite
    python tests/eval/math_score.py --pdf book/book.pdf  # read the PDF directly (no embedding)
    python tests/eval/math_score.py --tex DIR --kb FILE  # another book with its source
    python tests/eval/math_score.py --tex DIR --main main.tex --kb FILE --labels none   # e.g. a plain-TeX manual
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- normalising
_DROP = {r"\left", r"\right", r"\middle", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl",
         r"\Bigr", r"\biggl", r"\biggr", r"\Biggl", r"\Biggr", r"\bigm", r"\Bigm", r"\,", r"\;", r"\:", r"\!",
         r"\quad", r"\qquad", r"\ ", "~", r"\enspace", r"\thinspace", r"\displaystyle", r"\textstyle",
         r"\nonumber", r"\notag", r"\limits", r"\nolimits", "&", r"\hfill", r"\scriptstyle", r"\medspace",
         r"\thickspace", r"\negthinspace", r"\allowbreak", r"\relax"}
_SAME = {r"\le": r"\leq", r"\ge": r"\geq", r"\ne": r"\neq", r"\rightarrow": r"\to", r"\gets": r"\leftarrow",
         r"\lvert": "|", r"\rvert": "|", r"\vert": "|", r"\mid": "|", r"\lVert": r"\|", r"\rVert": r"\|",
         r"\Vert": r"\|", r"\parallel": r"\|", r"\text": r"\mathrm", r"\textrm": r"\mathrm", r"\rm": r"\mathrm",
         r"\operatorname": r"\mathrm", r"\textnormal": r"\mathrm", r"\mathup": r"\mathrm", r"\textup": r"\mathrm",
         r"\dfrac": r"\frac", r"\tfrac": r"\frac", r"\ldots": r"\dots", r"\cdots": r"\dots", r"\dotsc": r"\dots",
         r"\dotsb": r"\dots", r"\bm": r"\mathbf", r"\boldsymbol": r"\mathbf", r"\colon": ":", r"\lbrace": r"\{",
         r"\rbrace": r"\}", r"\land": r"\wedge", r"\lor": r"\vee", r"\lnot": r"\neg", r"\ast": "*",
         r"\textit": r"\mathit", r"\emph": r"\mathit", r"\textbf": r"\mathbf", r"\leqslant": r"\leq",
         r"\geqslant": r"\geq", r"\intercal": r"\top", r"\operatorname*": r"\mathrm", r"\varnothing": r"\emptyset",
         r"\mbox": r"\mathrm", r"\hbox": r"\mathrm"}
_WRAPPERS = {"aligned", "align", "align*", "split", "gathered", "gather", "gather*", "multline", "equation",
             "equation*", "alignedat", "array"}
_MATRIX_BRACKETS = {"pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "vmatrix": ("|", "|"), "Vmatrix": (r"\|", r"\|"),
                    "Bmatrix": (r"\{", r"\}"), "matrix": ("", "")}
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[A-Za-z]|\d|\S")


def tokens(latex: str) -> list[str]:
    """A LaTeX formula as its canonical token sequence."""
    s = re.sub(r"(?<!\\)%.*", "", latex)
    s = re.sub(r"\\(label|tag|hypertarget)\{[^{}]*\}", "", s)
    # plain TeX: a brace opening stacked rows is `cases`; an array's column spec and \multicolumn's span carry
    # nothing (the rows are compared as aligned rows)
    s = _drop_array_specs(s)
    s = re.sub(r"\\left\s*\\\{\s*\\begin\{array\}(.*?)\\end\{array\}\s*\\right\s*\.",
               r"\\begin{cases}\1\\end{cases}", s, flags=re.S)
    s = re.sub(r"\\\\\s*(?=\\end\{)", "", s)   # a row break closing the last row
    s = re.sub(r"\\multicolumn\s*\{[^{}]*\}\s*\{[^{}]*\}", "", s)
    # a matrix environment prints its brackets: the same as the brackets around an array
    s = re.sub(r"\\(begin|end)\{([pbvBV]?matrix)\}", lambda m: " " + _MATRIX_BRACKETS.get(m.group(2), ("", ""))[
        m.group(1) == "end"] + " ", s)
    s = re.sub(r"\\(begin|end)\{([a-z*]+)\}", lambda m: "" if m.group(2) in _WRAPPERS else f"\\{m.group(1)}{m.group(2)} ", s)
    s = re.sub(r"\\(hspace|vspace|hskip|mspace)\*?\{[^{}]*\}", "", s)
    raw = _TOKEN.findall(s)
    out: list[str] = []
    for t in raw:
        t = _SAME.get(t, t)
        if t in _DROP:
            continue
        if t == "'":
            out += ["^", r"\prime"]
            continue
        out.append(t)
    # ". . ." is \dots as printed
    text = " ".join(out)
    text = re.sub(r"(?:\. ){2}\.", r"\\dots", text)
    text = re.sub(r"(?:\\cdot ){2}\\cdot", r"\\dots", text)
    text = re.sub(r"\\dots(?: (?:\\dots|\.))+(?= |$)", r"\\dots", text)
    out = text.split()
    # braces around one token carry nothing: x_{t} == x_t
    changed = True
    while changed:
        changed = False
        for i in range(len(out) - 2):
            if out[i] == "{" and out[i + 2] == "}" and out[i + 1] not in "{}":
                if i > 0 and out[i - 1] in (r"\begin", r"\end"):
                    continue
                del out[i + 2], out[i]
                changed = True
                break
    # a sub- and a superscript on one base in either order: subscript first
    out = _scripts_in_order(out)
    # empty groups and a trailing row break
    text = " ".join(out)
    text = re.sub(r"(^| )\{ \}(?= |$)", " ", text)
    out = text.split()
    while out and out[-1] == r"\\":
        out.pop()
    return out


def _drop_array_specs(s: str) -> str:
    """`\\begin{array}{r@{\\:}c}` without its column spec (a balanced group)."""
    out, i = [], 0
    for m in re.finditer(r"\\begin\{array\}\s*(?=\{)", s):
        if m.start() < i:
            continue
        out.append(s[i:m.end()])
        i = _balanced(s, m.end())[1]
    return "".join(out) + s[i:]


def _argument(toks: list[str], i: int) -> int:
    """The index after the script argument starting at toks[i]: one token or a balanced group."""
    if i >= len(toks):
        return i
    if toks[i] != "{":
        return i + 1
    depth = 0
    for j in range(i, len(toks)):
        depth += toks[j] == "{"
        depth -= toks[j] == "}"
        if depth == 0:
            return j + 1
    return len(toks)


def _scripts_in_order(toks: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(toks):
        if toks[i] == "^":
            a_end = _argument(toks, i + 1)
            if a_end < len(toks) and toks[a_end] == "_":
                b_end = _argument(toks, a_end + 1)
                out += toks[a_end:b_end] + toks[i:a_end]
                i = b_end
                continue
        out.append(toks[i])
        i += 1
    return out


def similarity(a: list[str], b: list[str]) -> float:
    """1 - token edit distance / the longer length."""
    if not a and not b:
        return 1.0
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return 1 - prev[-1] / max(len(a), len(b))


# --------------------------------------------------------------------------- the source
def _balanced(text: str, start: int) -> tuple[str, int]:
    """The content of the brace group opening at text[start] == '{', and the index after it."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "\\":
            continue
        if text[i] == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    return text[start + 1:], len(text)


def source_files(tex_dir: Path, main: str = "book.tex") -> list[tuple[Path, bool]]:
    """The chapter files in the order the main file inputs them, each with whether it is an appendix."""
    book = (tex_dir / main).read_text()
    out, appendix = [], False
    for m in re.finditer(r"\\appendix|\\(?:input|include)\{([^}]+)\}", book):
        if m.group(0) == r"\appendix":
            appendix = True
            continue
        path = tex_dir / m.group(1)
        path = path if path.suffix == ".tex" else path.with_suffix(".tex")
        if path.exists():
            out.append((path, appendix))
    return out


def source_equations(tex_dir: Path, main: str = "book.tex") -> dict[str, str]:
    """{number: LaTeX} of the numbered equations, numbered per chapter as LaTeX does."""
    out: dict[str, str] = {}
    chapter, letter = 0, 0
    for path, appendix in source_files(tex_dir, main):
        text = re.sub(r"(?<!\\)%.*", "", path.read_text())
        for m in re.finditer(r"\\chapter\*?\{|\\begin\{equation\}(.*?)\\end\{equation\}", text, re.S):
            if m.group(0).startswith(r"\chapter"):
                if m.group(0).startswith(r"\chapter*"):
                    continue
                if appendix:
                    letter += 1
                else:
                    chapter += 1
                count = 0
                continue
            count += 1
            prefix = chr(ord("A") + letter - 1) if appendix else str(chapter)
            out[f"{prefix}.{count}"] = m.group(1).strip()
        out.update(numbered_displays(text))
    return out


_DISPLAY = re.compile(r"(?<!\\)\$\$(.*?)(?<!\\)\$\$|\\\[(.*?)\\\]", re.S)
_NUMBER = re.compile(r"\\(?:l?eqno|tag\*?)\s*(.*)$", re.S)


def numbered_displays(text: str) -> dict[str, str]:
    """{number: LaTeX} of the displays numbered by hand, as plain TeX does (`$$ z=c^Tx \\eqno(2.7)$$`, or
    `\\leqno`, or `\\[ ... \\tag{2.7}\\]`): the number as printed, without its parentheses.  A tag with no digit
    (a named condition such as "(KKT)") is not a number."""
    out = {}
    for m in _DISPLAY.finditer(text):
        body = m.group(1) if m.group(1) is not None else m.group(2)
        tag = _NUMBER.search(body)
        if not tag:
            continue
        number = re.sub(r"\\(rm|mathrm|text|hbox|mbox)\b|[{}()\s]", "", tag.group(1))
        if re.search(r"\d", number):
            out[number] = body[:tag.start()].strip()
    return out


def source_tables(tex_dir: Path, main: str = "book.tex") -> dict[str, list[list[str]]]:
    """{label: rows of cells} of the tabulars inside labelled floats."""
    out = {}
    for path, _ in source_files(tex_dir, main):
        text = re.sub(r"(?<!\\)%.*", "", path.read_text())
        # a float (table, or a class's own table environment) with its label, and the tabular inside it
        for f in re.finditer(r"\\begin\{(table\*?|\w*table)\}(.*?)\\end\{\1\}", text, re.S):
            inner = f.group(2)
            labels = re.findall(r"^\s*\{(tab:[^{}]+)\}|\\label\{([^{}]+)\}", inner)
            m = re.search(r"\\begin\{tabular\}", inner)
            if not labels or not m:
                continue
            label = [a or b for a, b in labels][0]
            spec_end = _balanced(inner, m.end())[1]
            body_end = inner.find(r"\end{tabular}", spec_end)
            out[label] = _cells(inner[spec_end:body_end])
    return out


def _cells(body: str) -> list[list[str]]:
    body = re.sub(r"\\(toprule|midrule|bottomrule|hline)(\[[^\]]*\])?", "", body)
    body = re.sub(r"\\cmidrule(\([^)]*\))?\{[^{}]*\}", "", body)
    rows = []
    for raw in re.split(r"\\\\(?:\[[^\]]*\])?", body):
        if not raw.strip():
            continue
        cells = []
        for cell in re.split(r"(?<!\\)&", raw):
            cell = cell.strip()
            m = re.match(r"\\multicolumn\{(\d+)\}\{[^{}]*\}\{(.*)\}$", cell, re.S)
            if m:
                cells += [m.group(2).strip()] * int(m.group(1))
            else:
                cells.append(cell)
        rows.append(cells)
    return rows


def cell_key(cell: str) -> str:
    """A cell's canonical form: maths as canonical tokens, text as its characters without spaces or markup
    (where a cell switches between text and maths is not judged: "$P(W = \\text{bad})$" and
    "$P(W =$ bad)" are the same cell)."""
    out = []
    for k, part in enumerate(re.split(r"(?<!\\)\$", cell)):
        if k % 2:
            out.append("".join(t for t in tokens(part) if t not in ("{", "}", r"\mathrm")))
        else:
            part = re.sub(r"\\(textbf|emph|textit|texttt|mathrm|text)\{([^{}]*)\}", r"\2", part)
            part = part.replace("’", "'").replace("‘", "`").replace("--", "–").replace("\\%", "%").replace("\\&", "&").replace("~", " ")
            part = re.sub(r"[*_`{}]", "", part)
            out.append(re.sub(r"\s+", "", part))
    return "".join(out)


def markdown_cells(content: str) -> list[list[str]]:
    """The rows of the Markdown table in an entity's content (the separator row left out)."""
    rows = []
    for line in content.splitlines():
        line = line.strip()
        if not (line.startswith("|") and line.endswith("|")):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line[1:-1])]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue
        rows.append([c.replace("\\|", "|") for c in cells])
    return rows


# --------------------------------------------------------------------------- scoring
def built_entities(kb: Path | None, pdf: Path | None) -> dict[tuple[str, str], dict]:
    if pdf is not None:
        import build_pdf

        reading = build_pdf.read_book(pdf, lambda text: len(text.split()))
        return {(c.kind, c.number): {"content": c.content, "extra": c.extra} for c in reading.chunks if c.kind != "text"}
    db = sqlite3.connect(str(kb))
    rows = db.execute("SELECT kind, number, content, extra FROM chunks WHERE kind != 'text'").fetchall()
    return {(k, n): {"content": c, "extra": json.loads(e) if e else {}} for k, n, c, e in rows}


def score(tex_dir: Path, kb: Path | None = None, pdf: Path | None = None, labels: Path | None = None,
          main: str = "book.tex", entities: dict | None = None) -> dict:
    entities = entities if entities is not None else built_entities(kb, pdf)
    source = source_equations(tex_dir, main)
    results = []
    for number, latex in source.items():
        got = entities.get(("formula", number))
        want = tokens(latex)
        have = tokens(got["content"]) if got else []
        results.append({"number": number, "similarity": similarity(want, have), "exact": want == have,
                        "source": latex, "built": got["content"] if got else None})
    n = len(results) or 1
    report = {"formulas": len(results), "found": sum(r["built"] is not None for r in results),
              "exact": round(sum(r["exact"] for r in results) / n, 4),
              "similarity": round(sum(r["similarity"] for r in results) / n, 4), "details": results}
    # tables, by label
    numbers = {}
    if labels is not None and labels.exists():
        for line in labels.read_text().splitlines():
            kind, number, _, _, label = (line.split("|") + [""] * 5)[:5]
            if label:
                numbers[label] = (kind, number)
    cells = right = 0
    tables = []
    for label, rows in source_tables(tex_dir, main).items():
        key = numbers.get(label)
        got = entities.get(key) if key else None
        built = markdown_cells(got["content"]) if got else []
        ok = total = 0
        for i, row in enumerate(rows):
            for j, cell in enumerate(row):
                total += 1
                if i < len(built) and j < len(built[i]) and cell_key(cell) == cell_key(built[i][j]):
                    ok += 1
        tables.append({"label": label, "cells": total, "right": ok})
        cells += total
        right += ok
    report["table_cells"] = cells
    report["table_cell_accuracy"] = round(right / cells, 4) if cells else None
    report["tables"] = tables
    return report


def pdflatex_rate(formulas: list[str]) -> tuple[float, list[int]]:
    """The share of formulas TeX Live's pdflatex (amsmath, amssymb) typesets without an error, each in a
    display of its own in one document; and the indexes of those that fail.  Needs pdflatex on PATH."""
    import subprocess
    import tempfile

    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, latex in enumerate(formulas):
            doc = ("\\documentclass{article}\\usepackage{amsmath,amssymb}\\begin{document}\n"
                   f"\\[{latex}\\]\n\\end{{document}}\n")
            Path(tmp, "f.tex").write_text(doc)
            proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "f.tex"], cwd=tmp,
                                  capture_output=True, text=True, timeout=60)
            if proc.returncode != 0:
                failed.append(i)
    return 1 - len(failed) / max(len(formulas), 1), failed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tex", type=Path, default=ROOT / "book", help="the LaTeX source directory")
    ap.add_argument("--main", default="book.tex", help="the main file in it")
    ap.add_argument("--kb", type=Path, default=ROOT / "knowledge.sqlite")
    ap.add_argument("--pdf", type=Path, help="read this PDF directly instead of a knowledge file")
    ap.add_argument("--labels", type=Path, default=ROOT / "book" / "labels.txt")
    ap.add_argument("--show", type=int, default=0, help="print the N worst formulas")
    ap.add_argument("--pdflatex", action="store_true", help="also typeset every formula with pdflatex")
    args = ap.parse_args()
    report = score(args.tex, args.kb, args.pdf, args.labels, args.main)
    if args.pdflatex:
        built = [r["built"] for r in report["details"] if r["built"]]
        rate, failed = pdflatex_rate(built)
        report["pdflatex_rate"] = round(rate, 4)
        report["pdflatex_failed"] = [built[i] for i in failed]
    worst = sorted(report["details"], key=lambda r: r["similarity"])[:args.show]
    for r in worst:
        print(f"--- ({r['number']}) similarity {r['similarity']:.2f}\n  source: {r['source']}\n  built:  {r['built']}")
    print(json.dumps({k: v for k, v in report.items() if k != "details"}, indent=1))


if __name__ == "__main__":
    main()
