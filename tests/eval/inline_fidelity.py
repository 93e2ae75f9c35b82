"""How exactly the builder serves inline maths, per set-up of our formula corpus (tests/formulas/).

    python tests/eval/inline_fidelity.py --cache /tmp/fcache/formulas            # every set-up built there
    python tests/eval/inline_fidelity.py --cache DIR --setup cm --verbose         # one set-up, its worst formulas
    python tests/eval/inline_fidelity.py --build DIR --setup cm                   # build missing knowledge files

What is scored.  From the body a set-up inputs (`setup-NAME.tex` -> `\\input{body-X}`), in order, every
inline formula `$...$` and `\\(...\\)` of running text: prose, list items, theorem-like statements,
proofs and examples.  Left out: displays (`$$...$$`, `\\[...\\]`, equation/align/gather/multline/
alignat/eqnarray/flalign/displaymath/empheq), algorithm floats and algorithmic, tables and tabulars,
figures, verbatim, headings (`\\chapter`, `\\section`, ...), captions, and side notes, margin notes and
footnotes (served apart from their paragraph, so they are not in the text's order).  Macros: `\\vect`
(the class's, one bold token each) and the simple `\\newcommand`/`\\providecommand`/
`\\DeclareMathOperator`/`\\DeclarePairedDelimiter` of the set-up, the body and the local .sty files are
expanded; a formula that still holds a macro defined in those files but not expandable here is
counted apart ("macro") and not scored.

From the knowledge file built from `NAME.pdf` (read directly, no server): the `$...$` spans (not the
`$$...$$` displays) of every chunk but formulas, tables, algorithms and figures -- text chunks and
statement/example entities -- in reading order (`ord`).

Both sequences are reduced to canonical token strings (`math_score.tokens`) and aligned with difflib.
A source formula is exact when it is aligned to an equal served span.  Otherwise its similarity is the
best among the served spans of its unaligned stretch (one span, or two neighbours joined: a formula
served split); "merged with a neighbour" when a served span of that stretch holds it whole with more
(`$x$, $y$` served as `$x, y$`, or words drawn in); "plain words" when, with no equal span, its letters, digits and Greek stand
as words in the served prose of that stretch (outside any `$`); "unmapped glyphs nearby" when that
prose holds a private-use or replacement character (a glyph the PDF gives no Unicode for).  Per set-up: inline formulas scored,
exact share, mean similarity, plain words, macro-skipped; then with --verbose the worst formulas and
what their differing tokens are about (the classes of formula_fidelity.py).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from math_score import similarity, tokens  # noqa: E402

FORMULAS = ROOT / "tests" / "formulas"

# environments whose maths is not inline running text
_SKIP_ENVS = ("equation", "align", "gather", "multline", "alignat", "eqnarray", "flalign", "displaymath", "empheq",
              "subequations", "algorithm", "algorithmic", "table", "tabular", "figure", "marginfigure", "tikzpicture",
              "verbatim", "lstlisting", "juliaverbatim", "widedisplay", "minipage", "fullwidth")
_SKIP_ENV_RE = re.compile(r"\\begin\{(" + "|".join(_SKIP_ENVS) + r")(\*?)\}")
_NOTE_RE = re.compile(r"\\(footnote|sidenote|marginnote|caption|chapter|section|subsection|subsubsection|paragraph"
                      r"|title|author)\*?(?=[\s\[{])")
_DEF_RE = re.compile(r"\\(newcommand|renewcommand|providecommand|DeclareMathOperator|DeclarePairedDelimiter)\*?\s*")
_ONE = {"ε": "[εϵ]", "ϵ": "[εϵ]", "ϕ": "[ϕφ]", "φ": "[ϕφ]", "θ": "[θϑ]"}
_PUA = re.compile("[\ue000-\uf8ff\ufffd]")
_SERVED_SKIP = ("formula", "table", "algorithm", "figure")
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
          "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
          "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ",
          "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
          "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω"}


# --------------------------------------------------------------------------- the source
def _group(s: str, i: int) -> int:
    """The index after the balanced {...} group opening at s[i] (or after the one token there)."""
    while i < len(s) and s[i].isspace():
        i += 1
    if i >= len(s):
        return i
    if s[i] == "\\":
        m = re.compile(r"\\(?:[A-Za-z]+|.)").match(s, i)
        return m.end()
    if s[i] != "{":
        return i + 1
    depth = 0
    for j in range(i, len(s)):
        c = s[j]
        if c == "\\":
            continue
        if c == "{" and (j == 0 or s[j - 1] != "\\"):
            depth += 1
        elif c == "}" and (j == 0 or s[j - 1] != "\\"):
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%[^\n]*", "", text)


def _inner(s: str, i: int) -> tuple[str, int]:
    """The content of the group at s[i] without its braces, and the index after it."""
    end = _group(s, i)
    g = s[i:end].strip()
    if g.startswith("{") and g.endswith("}"):
        g = g[1:-1]
    return g, end


def macros_of(texts: list[str]) -> dict[str, tuple[int, str]]:
    """Simple macro definitions: name -> (number of arguments, body)."""
    out: dict[str, tuple[int, str]] = {}
    for text in texts:
        text = _strip_comments(text)
        for m in _DEF_RE.finditer(text):
            kind = m.group(1)
            i = m.end()
            name, i = _inner(text, i)
            name = name.strip()
            if not re.fullmatch(r"\\[A-Za-z]+", name):
                continue
            if kind == "DeclarePairedDelimiter":
                left, i = _inner(text, i)
                right, i = _inner(text, i)
                out.setdefault(name, (1, f"{left} #1 {right}"))
                continue
            nargs = 0
            am = re.compile(r"\s*\[(\d)\]").match(text, i)
            if am:
                nargs, i = int(am.group(1)), am.end()
                if re.compile(r"\s*\[").match(text, i):      # an optional argument's default: not simple
                    out[name] = (-1, "")
                    continue
            body, i = _inner(text, i)
            if kind == "DeclareMathOperator":
                body = r"\operatorname{" + body + "}"
            if kind == "providecommand" and name in out:
                continue
            out[name] = (nargs, body)
    return out


def _vect(arg: str) -> str:
    toks = re.findall(r"\\[A-Za-z]+|\S", arg)
    return " ".join(r"\mathbf{" + t + "}" for t in toks)


def expand(latex: str, macros: dict[str, tuple[int, str]], depth: int = 0) -> str | None:
    """The formula with \\vect and the simple macros expanded; None when a local macro cannot be."""
    out, i = [], 0
    for m in re.finditer(r"\\[A-Za-z]+\*?", latex):
        if m.start() < i:
            continue
        name = m.group(0).rstrip("*")
        if name == r"\vect" and name not in macros:
            arg, end = _inner(latex, m.end())
            out.append(latex[i:m.start()] + _vect(arg))
            i = end
            continue
        if name not in macros:
            continue
        nargs, body = macros[name]
        if nargs < 0 or depth > 5:
            return None
        j = m.end()
        if m.group(0).endswith("*"):
            pass
        args = []
        for _ in range(nargs):
            a, j = _inner(latex, j)
            args.append(a)
        for k, a in enumerate(args, 1):
            body = body.replace(f"#{k}", a)
        out.append(latex[i:m.start()] + " " + body + " ")
        i = j
    text = "".join(out) + latex[i:]
    if depth < 5 and any(re.search(re.escape(n) + r"(?![A-Za-z])", text) for n in [*macros, r"\vect"]):
        return expand(text, macros, depth + 1)
    if any(re.search(re.escape(n) + r"(?![A-Za-z])", text) for n in macros):
        return None
    return text


def _drop_skipped(text: str) -> str:
    """The body without displays, floats, verbatim, headings, captions and notes."""
    out, i = [], 0
    while True:
        m = _SKIP_ENV_RE.search(text, i)
        if m is None:
            break
        out.append(text[i:m.start()])
        end = text.find(f"\\end{{{m.group(1)}{m.group(2)}}}", m.end())
        i = len(text) if end < 0 else end + len(f"\\end{{{m.group(1)}{m.group(2)}}}")
    text = "".join(out) + text[i:]
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"\\\[.*?\\\]", " ", text, flags=re.S)
    out, i = [], 0
    while True:
        m = _NOTE_RE.search(text, i)
        if m is None:
            break
        out.append(text[i:m.start()])
        j = m.end()
        om = re.compile(r"\s*\[[^\]]*\]").match(text, j)
        if om:
            j = om.end()
        i = _group(text, j)
    return "".join(out) + text[i:]


_INLINE_RE = re.compile(r"(?<!\\)\$([^$]+)(?<!\\)\$|\\\((.+?)\\\)", re.S)


def source_inline(main_tex: Path) -> tuple[list[str], int]:
    """A LaTeX source's inline formulas in order, expanded, and how many were left out for a macro.
    main_tex: a set-up (`setup-NAME.tex`) or any main file; the files it `\\input`s from its folder are
    read in their place (one level) and the local .sty files it loads give macros."""
    folder = main_tex.parent
    main = _strip_comments(main_tex.read_text(errors="replace"))

    def inputted(m: re.Match) -> str:
        f = folder / (m.group(1) if m.group(1).endswith(".tex") else m.group(1) + ".tex")
        return _strip_comments(f.read_text(errors="replace")) if f.is_file() else ""

    text = re.sub(r"\\input\s*\{?([A-Za-z0-9_.-]+)\}?", inputted, main)
    sty = [p.read_text(errors="replace") for p in sorted(folder.glob("*.sty"))
           if re.search(r"\\usepackage(\[[^\]]*\])?\{[^}]*\b" + re.escape(p.stem) + r"\b", text)]
    macros = macros_of(sty + [text])
    for n in (r"\chapter", r"\marginnote", r"\sidenote", r"\bm", r"\bmmax", r"\hmmax"):
        macros.pop(n, None)
    at = text.find("\\begin{document}")
    text = _drop_skipped(text[at if at >= 0 else 0:])
    out, skipped = [], 0
    for fm in _INLINE_RE.finditer(text):
        latex = fm.group(1) if fm.group(1) is not None else fm.group(2)
        expanded = expand(latex, macros)
        if expanded is None:
            skipped += 1
            continue
        out.append(expanded)
    return out, skipped


# --------------------------------------------------------------------------- the knowledge file
def served_inline(db: Path) -> tuple[list[str], str, list[tuple[int, int]]]:
    """The served inline spans in reading order, the served prose they stand in and their places there."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute("SELECT content FROM chunks WHERE kind NOT IN (%s) ORDER BY ord"
                       % ",".join("?" * len(_SERVED_SKIP)), _SERVED_SKIP).fetchall()
    con.close()
    prose = "\n\n".join(re.sub(r"\$\$.*?\$\$", " ", c or "", flags=re.S) for (c,) in rows)
    spans, places = [], []
    for m in re.finditer(r"(?<!\\)\$([^$]+)(?<!\\)\$", prose):
        spans.append(m.group(1))
        places.append((m.start(), m.end()))
    return spans, prose, places


# --------------------------------------------------------------------------- scoring
def _as_words(toks: list[str]) -> str:
    """What a formula's tokens read as when set as words: its letters, digits and Greek."""
    out = []
    for t in toks:
        if re.fullmatch(r"[A-Za-z0-9]", t):
            out.append(t)
        elif t.startswith("\\") and t[1:] in _GREEK:
            out.append(_GREEK[t[1:]])
    return "".join(out)


def _in_words(word: str, prose: str) -> bool:
    if not word or word in ("a", "A", "I"):
        return False
    pattern = r"(?<![\w$\\])" + r"[^\w$]{0,3}".join(_ONE.get(c, re.escape(c)) for c in word) + r"(?![\w$])"
    return re.search(pattern, prose) is not None


def score(setup: str, db: Path, main_tex: Path | None = None) -> dict:
    """One set-up (or any source main_tex) against its knowledge file db."""
    src, skipped = source_inline(main_tex or FORMULAS / f"setup-{setup}.tex")
    got, prose, places = served_inline(db)
    src_t = [tokens(s) for s in src]
    got_t = [tokens(s) for s in got]
    a = [" ".join(t) for t in src_t]
    b = [" ".join(t) for t in got_t]
    rows = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    opcodes = matcher.get_opcodes()
    # served spans not aligned: a float (an example) served away from its place in the source still counts
    loose = Counter(b[j] for op, _, _, b0, b1 in opcodes if op != "equal" for j in range(b0, b1))
    for op, a0, a1, b0, b1 in opcodes:
        if op == "equal":
            rows += [{"src": src[i], "src_t": src_t[i], "got_t": src_t[i], "sim": 1.0, "plain": False}
                     for i in range(a0, a1)]
            continue
        if op == "insert":
            continue
        cands = [got_t[j] for j in range(b0, b1)] + [got_t[j] + got_t[j + 1] for j in range(b0, b1 - 1)]
        lo = places[b0 - 1][1] if b0 > 0 else 0
        hi = places[b1][0] if b1 < len(places) else len(prose)
        region = re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " $ ", prose[lo:hi])
        for i in range(a0, a1):
            if loose[a[i]] > 0:
                loose[a[i]] -= 1
                rows.append({"src": src[i], "src_t": src_t[i], "got_t": src_t[i], "sim": 1.0, "plain": False})
                continue
            best, best_t = 0.0, []
            for c in cands:
                s = similarity(src_t[i], c)
                if s > best:
                    best, best_t = s, c
            plain = best < 1 and _in_words(_as_words(src_t[i]), region)
            key = f" {a[i]} "
            inside = any(key in f" {b[j]} " and a[i] != b[j] for j in range(b0, b1))
            rows.append({"src": src[i], "src_t": src_t[i], "got_t": best_t, "sim": best, "plain": plain,
                         "inside": inside, "unmapped": _PUA.search(region) is not None})
    n = len(rows)
    exact = sum(r["sim"] == 1.0 for r in rows)
    return {"setup": setup, "n": n, "exact": exact, "similarity": sum(r["sim"] for r in rows) / n if n else 1.0,
            "plain": sum(r["plain"] for r in rows), "skipped": skipped, "served": len(got), "rows": rows}


def error_class(row: dict) -> str:
    """One class for an inexact formula: plain words, missing, split or merged, or what its tokens are about."""
    from formula_fidelity import error_classes
    if row["plain"]:
        return "plain words"
    if row.get("inside"):
        return "merged with a neighbour"
    if row.get("unmapped") and row["sim"] < 0.5:
        return "unmapped glyphs nearby"
    if not row["got_t"] or row["sim"] < 0.34:
        return "missing"
    src, got = row["src_t"], row["got_t"]
    if len(got) > len(src) and " ".join(src) in " ".join(got):
        return "merged with a neighbour"
    if len(got) > len(src) and difflib.SequenceMatcher(None, src, got, autojunk=False).find_longest_match(
            0, len(src), 0, len(got)).size == len(src):
        return "merged with more"
    if len(got) < len(src) and difflib.SequenceMatcher(None, src, got, autojunk=False).find_longest_match(
            0, len(src), 0, len(got)).size == len(got):
        return "cut short"
    return sorted(error_classes(src, got))[0]


def setups() -> list[str]:
    names = sorted(p.stem[len("setup-"):] for p in FORMULAS.glob("setup-*.tex"))
    return [n for n in names if (FORMULAS / f"{n}.pdf").is_file()]


def _line(r: dict) -> str:
    return (f"| {r['setup']} | {r['n']} | {r['exact'] / r['n'] * 100 if r['n'] else 100:.1f}% ({r['exact']}) | "
            f"{r['similarity']:.3f} | {r['plain']} | {r['skipped']} | {r['served']} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", help="a folder of NAME.sqlite built from the set-ups' PDFs")
    parser.add_argument("--build", help="build missing NAME.sqlite into this folder (build_db.py --quiet)")
    parser.add_argument("--setup", action="append", help="a set-up (default: all with a PDF)")
    parser.add_argument("--verbose", action="store_true", help="per set-up its worst formulas")
    args = parser.parse_args(argv)
    folder = Path(args.build or args.cache or ".")
    print("| set-up | inline | exact | mean similarity | plain words | macro (not scored) | served spans |")
    print("|---|---|---|---|---|---|---|")
    results, classes = [], Counter()
    for name in args.setup or setups():
        db = folder / f"{name}.sqlite"
        if not db.is_file() and args.build:
            folder.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(FORMULAS / f"{name}.pdf"), "-o", str(db),
                            "--quiet"], check=True, stdout=subprocess.DEVNULL)
        if not db.is_file():
            print(f"| {name} | no knowledge file | | | | | |")
            continue
        r = score(name, db)
        results.append(r)
        print(_line(r), flush=True)
        r["classes"] = Counter(error_class(x) for x in r["rows"] if x["sim"] < 1)
        classes.update(r["classes"])
    total = {"setup": "total", "n": sum(r["n"] for r in results), "exact": sum(r["exact"] for r in results),
             "plain": sum(r["plain"] for r in results), "skipped": sum(r["skipped"] for r in results),
             "served": sum(r["served"] for r in results)}
    total["similarity"] = (sum(r["similarity"] * r["n"] for r in results) / total["n"]) if total["n"] else 1.0
    print(_line(total))
    print("\nerror classes of inexact formulas: " + (", ".join(f"{k} {v}" for k, v in classes.most_common()) or "none"))
    if args.verbose:
        for r in results:
            bad = sorted((x for x in r["rows"] if x["sim"] < 1), key=lambda x: x["sim"])
            if not bad:
                continue
            print(f"\n{r['setup']}: {len(bad)} inexact: " + ", ".join(f"{k} {v}" for k, v in r["classes"].most_common()))
            for x in bad[:8]:
                print(f"  {x['sim']:.3f} [{error_class(x)}]")
                print(f"         src: {' '.join(x['src_t'])[:200]}")
                print(f"         got: {' '.join(x['got_t'])[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
