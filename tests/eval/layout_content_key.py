"""Write the content key of one of our layout books (tests/layouts) from its LaTeX source, for
../shared/tools/content_score.py.

    python tests/eval/layout_content_key.py monograph > /tmp/monograph-content.json
    python ../shared/tools/content_score.py http://127.0.0.1:8001 /tmp/monograph-content.json

The key holds every numbered statement of the book: every environment its preamble declares with
\\newtheorem, thmtools' \\declaretheorem or tcolorbox's \\newtcbtheorem (definitions, theorems, lemmas,
examples; amsthm's proof is none), with its type, its number, its title (the optional argument, or a
framed theorem's title) and its PDF page, and its body as Markdown with `$…$` maths, the way
tests/eval/content_key.py writes the sample book's.  An environment of the book's own that opens one
of them (\\newenvironment{example}[2]{\\begin{examplebody}…}) is replaced by its code, its arguments
substituted, and names the statement's type; one whose code branches (\\ifx … \\fi) is left as it is
(the script does not evaluate TeX's conditionals).  A statement whose kind and number were printed
before (a claim numbered afresh in each proof, its counter reset by \\AddToHook{env/proof/begin}) is left
out: the first one is the statement of that name.  The body is what LaTeX prints of it:

  * numbers are counted as LaTeX counts them (sections, chapters, theorem counters shared or reset by
    \\newtheorem's arguments, equations, footnotes) and, where the book has a NAME-labels.txt (which
    LaTeX wrote from the .aux), checked against it in order, the PDF page taken from it; a book without
    one gets each statement's page from the PDF's text layer, the first page printing its head;
  * a numbered display is `$$…$$ (N)` with the number LaTeX printed, an unnumbered one `$$…$$`; each
    row of an align or gather is a display of its own, numbered unless \\nonumber or \\notag drops its
    number, lettered (2.5a, 2.5b) inside subequations;
  * a footnote's mark stays where LaTeX prints it (`$^{N}$`) and its text follows the statement's last
    paragraph as `N text` (LaTeX sets it at the foot of the page, apart from the statement's lines);
  * a list item opens a line `1.`; a drawing (tikzpicture) is no text of the statement and is left out,
    and so is a margin note (\\marginpar, \\marginnote, tufte's \\sidenote), set in the margin beside the
    statement's lines;
  * the book's own macros are expanded: \\newcommand bodies with their arguments, and a \\loop … \\repeat
    counted up to an argument (the \\filler of our layouts) as its text printed that many times.

It reads our own source, so the key is independent of the builder.  handout.tex holds no numbered
statement (its key is empty).  An \\input of a file not among the book's sources is TeX's own
(\\input{glyphtounicode}) and prints nothing.  article-scan.pdf is article.tex printed, scanned and
read by OCR: its key is article's.

plainbook, in plain TeX with macros of its own (tests/layouts/plainbook), is keyed by plain_key: its
\\theorem … \\endproclaim statements, \\example … \\endexample and \\exercise items counted as its
macros count them and checked against plainbook-labels.txt, `{a\\over b}` written as `{\\frac{a}{b}}`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

LAYOUTS = Path(__file__).resolve().parents[2] / "tests" / "layouts"
# book -> (main source, labels file or None); the PDF is tests/layouts/BOOK.pdf
BOOKS = {
    "monograph": ("monograph.tex", "monograph-labels.txt"),
    "chapter": ("chapter.tex", "chapter-labels.txt"),
    "article": ("article.tex", "article-labels.txt"),
    "article-scan": ("article.tex", "article-labels.txt"),
    "multicol": ("multicol.tex", "multicol-labels.txt"),
    "frame": ("frame.tex", None),
    "drawing": ("drawing.tex", None),
    "handout": ("handout.tex", None),
    "marginpar": ("marginpar.tex", "marginpar-labels.txt"),
    "userclass": ("userclass.tex", "userclass-labels.txt"),
    "handbook": ("handbook.tex", "handbook-labels.txt"),
    "monobook": ("monobook.tex", "monobook-labels.txt"),
    "quartolike": ("quartolike.tex", "quartolike-labels.txt"),
    "twocoltext": ("twocoltext.tex", "twocoltext-labels.txt"),
    "breakheads": ("breakheads.tex", "breakheads-labels.txt"),
    "cutchapter": ("cutchapter.tex", "cutchapter-labels.txt"),
    "memoirtext": ("memoirtext.tex", "memoirtext-labels.txt"),
    "numberfirst": ("numberfirst.tex", "numberfirst-labels.txt"),
    "thesis": ("thesis.tex", "thesis-labels.txt"),
    "workbook": ("workbook.tex", "workbook-labels.txt"),
    "amsbooklike": ("amsbooklike.tex", "amsbooklike-labels.txt"),
    "kinds": ("kinds.tex", "kinds-labels.txt"),
    "kompendium": ("kompendium.tex", "kompendium-labels.txt"),
    "notes": ("notes.tex", "notes-labels.txt"),
}

COMMENT_RE = re.compile(r"(?<!\\)%.*")
INPUT_RE = re.compile(r"\\(?:input|include)\{([^}]*)\}")
# \newtheorem{env}[shared counter]{Name}[reset by]
NEWTHEOREM_RE = re.compile(r"\\newtheorem\{(\w+)\}(?:\[(\w+)\])?\{([^}]*)\}(?:\[(\w+)\])?")
# \newtcbtheorem[number within=section]{env}{Name}{options}{label prefix}
NEWTCB_RE = re.compile(r"\\newtcbtheorem(?:\[([^\]]*)\])?\{(\w+)\}\{([^}]*)\}")
# thmtools: \declaretheorem[key=value, …]{env}
DECLARETHEOREM_RE = re.compile(r"\\declaretheorem(?:\[([^\]]*)\])?\{(\w+)\}")
# a hook run at an environment's start that sets a counter: \AddToHook{env/proof/begin}{\setcounter{claim}{0}}
HOOK_RE = re.compile(r"\\AddToHook\{env/(\w+)/begin\}\{\\setcounter\{(\w+)\}\{(\d+)\}\}")
# \newenvironment{name}[arguments]: its begin and end code follow in braces
NEWENVIRONMENT_RE = re.compile(r"\\newenvironment\{(\w+)\}(?:\[(\d)\])?")
NEWCOMMAND_RE = re.compile(r"\\(?:re)?newcommand\{?(\\[A-Za-z]+)\}?(?:\[(\d)\])?")
NUMBERWITHIN_RE = re.compile(r"\\numberwithin\{equation\}\{(\w+)\}")
LOOP_RE = re.compile(r"\\loop\\ifnum\\(\w+)<#1.*?\\advance\\\1 by 1(.*?)\\repeat", re.S)
REFERENCE_RE = re.compile(r"\\(eq)?ref\{([^}]*)\}")
LABEL_RE = re.compile(r"\\label\{([^}]*)\}")
WRAPPER_RE = re.compile(r"\\(?:emph|textbf|textit|texttt|textsc|textup|textrm|textsl|textnormal|mbox)\{([^{}]*)\}")
DROPPED_RE = re.compile(r"\\(?:index)\{[^}]*\}|\\(?:medskip|smallskip|bigskip|noindent|par|centering|leavevmode|ignorespaces)\b"
                        r"|\\(?:begin|end)\{(?:center|flushleft|flushright|subequations)\}")
DISPLAY_RE = re.compile(r"\\begin\{(equation\*?|align\*?|gather\*?|multline\*)\}(.*?)\\end\{\1\}|\\\[(.*?)\\\]", re.S)
DRAWING_RE = re.compile(r"\\begin\{tikzpicture\}.*?\\end\{tikzpicture\}", re.S)
# the events that move LaTeX's counters, in document order
EVENT_RE = re.compile(r"\\(chapter|section)(\*?)(?:\[[^\]]*\])?\{|\\setcounter\{(\w+)\}\{(\d+)\}|\\begin\{(\w+\*?)\}"
                      r"|\\footnote\{|\\(appendix)\b|\\refstepcounter\{(\w+)\}|\\end\{(subequations)\}")
SETCOUNTER_RE = re.compile(r"\\setcounter\{(\w+)\}\{(\d+)\}")
# the classes whose sections are numbered within chapters
CHAPTER_CLASS_RE = re.compile(r"\\documentclass(?:\[[^\]]*\])?\{(?:book|report|memoir|scrbook|scrreprt|amsbook|tufte-book|tufte_algorithms_book)\}")
MULTI_ROW = ("align", "gather", "multline", "eqnarray", "flalign", "alignat")


# --------------------------------------------------------------------------- the source
def source(main: str) -> str:
    """The document as LaTeX reads it: comments dropped, \\input files in place."""
    def read(name: str) -> str:
        path = LAYOUTS / (name if name.endswith(".tex") else name + ".tex")
        if not path.exists():   # a file of TeX's own tree (\\input{glyphtounicode}): no text of the book
            return ""
        text = "\n".join(COMMENT_RE.sub("", line) for line in path.read_text().splitlines())
        return INPUT_RE.sub(lambda m: read(m.group(1)), text)
    return read(main)


def balanced(text: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int]:
    """The argument in braces (or brackets) opening at text[start] and the index after it."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    raise ValueError("unbalanced braces")


def skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\n":
        at += 1
    return at


# --------------------------------------------------------------------------- the preamble
def theorems(preamble: str) -> dict[str, dict]:
    """env -> {name, counter (whose number it takes: its own or the one it shares), within (the counter
    that resets its own), tcb (a tcolorbox theorem: title and label as arguments)}."""
    out = {}
    for m in NEWTHEOREM_RE.finditer(preamble):
        env, shared, name, within = m.groups()
        out[env] = {"name": name, "counter": shared or env, "within": within, "tcb": False}
    for m in DECLARETHEOREM_RE.finditer(preamble):
        options, env = m.groups()
        keys = dict(re.findall(r"\b(\w+) *= *([^,]*)", options or ""))
        if keys.get("numbered", "").strip() == "no":
            continue
        shared = (keys.get("sibling") or keys.get("sharenumber") or "").strip()
        out[env] = {"name": keys.get("name", env.capitalize()).strip(), "counter": shared or env,
                    "within": (keys.get("numberwithin") or keys.get("parent") or "").strip() or None,
                    "tcb": False}
    for m in NEWTCB_RE.finditer(preamble):
        options, env, name = m.groups()
        within = re.search(r"number within=(\w+)", options or "")
        # "use counter*=theorem" / "use counter from=theorem": the number is that counter's
        shared = re.search(r"use counter(?:\*| from)=(\w+)", options or "")
        _, at = balanced(preamble, skip_space(preamble, m.end()))      # the box's options
        prefix = balanced(preamble, skip_space(preamble, at))[0] if preamble[skip_space(preamble, at):][:1] == "{" else ""
        out[env] = {"name": name, "counter": shared.group(1) if shared else env,
                    "within": within and within.group(1), "tcb": True, "prefix": prefix}
    return out


def wrappers(preamble: str, envs: dict[str, dict]) -> dict[str, tuple[int, str, str]]:
    """env -> (number of arguments, begin code, end code) of each \\newenvironment that opens a statement
    environment with no condition (\\if…\\fi: the key does not evaluate TeX's conditionals)."""
    out = {}
    for m in NEWENVIRONMENT_RE.finditer(preamble):
        begin, at = balanced(preamble, skip_space(preamble, m.end()))
        end, _ = balanced(preamble, skip_space(preamble, at))
        opened = re.search(r"\\begin\{(\w+)\}", begin)
        if opened and opened.group(1) in envs and r"\if" not in begin:
            out[m.group(1)] = (int(m.group(2) or 0), begin, end)
            envs[opened.group(1)]["kind"] = m.group(1)
    return out


def unwrap(text: str, defs: dict[str, tuple[int, str, str]]) -> str:
    """The wrapping environments replaced by their code, their arguments substituted."""
    for name, (nargs, begin, end) in defs.items():
        opening = "\\begin{" + name + "}"
        while (at := text.find(opening)) >= 0:
            after, args = at + len(opening), []
            for _ in range(nargs):
                arg, after = balanced(text, skip_space(text, after))
                args.append(arg)
            code = begin
            for i, arg in enumerate(args, 1):
                code = code.replace(f"#{i}", arg)
            text = text[:at] + code + text[after:]
        text = text.replace("\\end{" + name + "}", end)
    return text


def macros(preamble: str) -> dict[str, tuple[int, str]]:
    """\\name -> (number of arguments, body) of the preamble's \\newcommand's (and \\renewcommand's)."""
    out = {}
    for m in NEWCOMMAND_RE.finditer(preamble):
        body, _ = balanced(preamble, skip_space(preamble, m.end()))
        out[m.group(1)] = (int(m.group(2) or 0), body)
    return out


def expand(text: str, defs: dict[str, tuple[int, str]]) -> str:
    """The book's macros expanded: arguments substituted; a \\loop counted to #1 printed #1 times."""
    for name, (nargs, body) in defs.items():
        pattern = re.compile(re.escape(name) + r"(?![A-Za-z])")
        while (m := pattern.search(text)) is not None:
            at, args = m.end(), []
            for _ in range(nargs):
                arg, at = balanced(text, skip_space(text, at))
                args.append(arg)
            loop = LOOP_RE.search(body)
            if loop and args:
                printed = " ".join([loop.group(2).strip()] * int(args[0])) + "\n\n"
            else:
                printed = body
                for i, arg in enumerate(args, 1):
                    printed = printed.replace(f"#{i}", arg)
            text = text[:m.start()] + printed + text[at:]
    return text


# --------------------------------------------------------------------------- counting as LaTeX does
class Counters:
    """LaTeX's counters for the events the layouts use, each printed with the counters above it."""

    def __init__(self, book_class: bool, theorem_envs: dict[str, dict], equation_within: str | None):
        self.values: dict[str, int] = {}
        self.top = "chapter" if book_class else "section"
        self.lettered = False    # after \appendix the top unit is numbered A, B, …
        self.parent = {"section": "chapter" if book_class else None, "chapter": None,
                       "equation": equation_within or ("chapter" if book_class else None),
                       "footnote": "chapter" if book_class else None}
        for env, t in theorem_envs.items():
            if t["counter"] == env:
                self.parent[env] = t["within"]

    def step(self, name: str) -> None:
        self.values[name] = self.values.get(name, 0) + 1
        for child, parent in self.parent.items():
            if parent == name:
                self.values[child] = 0

    def number(self, name: str) -> str:
        parent = self.parent.get(name) if name != "footnote" else None   # \thefootnote: its own count
        value = self.values.get(name, 0)
        own = chr(ord("A") + value - 1) if name == self.top and self.lettered and value > 0 else str(value)
        return f"{self.number(parent)}.{own}" if parent else own


def rows(body: str) -> list[str]:
    """The rows of a multi-row display: its text split at each \\\\ outside braces."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(body):
        if body[i] == "{":
            depth += 1
        elif body[i] == "}":
            depth -= 1
        elif body.startswith("\\\\", i) and depth == 0:
            out.append(body[start:i])
            start = i = i + 2
            continue
        elif body[i] == "\\":
            i += 1     # a command's backslash: the character after it is the command's
        i += 1
    out.append(body[start:])
    return [row for row in out if row.strip()] or [""]


def row_numbered(row: str) -> bool:
    return r"\nonumber" not in row and r"\notag" not in row


def walk(document: str, envs: dict[str, dict], book_class: bool, equation_within: str | None,
         initial: dict[str, int] | None = None, hooks: dict[str, list[tuple[str, int]]] | None = None):
    """The numbered things in document order: (kind, number, start of the thing in `document`), where
    kind is a statement environment, "equation" or "footnote"; and label -> (kind, number).  `initial`:
    counters the preamble set (a chapter cut from a book starts at its own number)."""
    counters = Counters(book_class, envs, equation_within)
    counters.values.update(initial or {})
    things, labels, last = [], {}, None
    sub = None     # inside subequations: [the parent number, rows numbered so far]
    for m in EVENT_RE.finditer(document):
        unit, starred, setname, setvalue, env, appendix, stepped, subend = m.groups()
        if subend:
            sub = None
            continue
        for counter, value in (hooks or {}).get(env or "", []):    # \AddToHook{env/ENV/begin}
            counters.values[counter] = value
        if env == "subequations":
            counters.step("equation")
            sub = [counters.number("equation"), 0]
            continue
        if stepped:     # a number set by hand on a statement's counter (a numbered paragraph)
            counters.step(stepped)
            continue
        if appendix:
            counters.values[counters.top] = 0
            counters.lettered = True
            continue
        if unit and starred:
            continue
        if unit:
            counters.step(unit)
            last = (unit, counters.number(unit))
        elif setname:
            counters.values[setname] = int(setvalue)
        elif env in envs:
            counters.step(envs[env]["counter"])
            last = (env, counters.number(envs[env]["counter"]))
            things.append((env, last[1], m.start()))
            if envs[env]["tcb"]:    # \begin{env}{title}{label}: the label is the theorem's prefix, a colon, it
                _, at = balanced(document, skip_space(document, m.end()))
                name, _ = balanced(document, skip_space(document, at))
                if name and envs[env].get("prefix"):
                    labels[f"{envs[env]['prefix']}:{name}"] = last
        elif env == "equation" and sub is not None:
            raise NotImplementedError("an equation inside subequations is not written yet")
        elif env == "equation":
            body = document[m.end():document.index(r"\end{equation}", m.end())]
            if r"\nonumber" in body or r"\notag" in body:
                continue
            counters.step("equation")
            last = ("equation", counters.number("equation"))
            things.append((*last, m.start()))
        elif env and env.rstrip("*") in MULTI_ROW and not env.endswith("*"):
            if env in ("multline", "eqnarray", "alignat", "flalign"):   # one number or alignat's argument
                raise NotImplementedError(f"numbering rows of {env} is not written yet")
            body_end = document.index("\\end{" + env + "}", m.end())
            at = m.end()
            for row in rows(document[m.end():body_end]):
                at = document.index(row, at) if row else at
                if not row_numbered(row):
                    continue
                if sub is not None:
                    sub[1] += 1
                    number = sub[0] + chr(ord("a") + sub[1] - 1)
                else:
                    counters.step("equation")
                    number = counters.number("equation")
                things.append(("equation", number, at))
                label = LABEL_RE.search(row)
                if label:
                    labels[label.group(1)] = ("equation", number)
            continue
        elif m.group(0) == r"\footnote{":
            counters.step("footnote")
            things.append(("footnote", counters.number("footnote"), m.start()))
            continue
        else:
            continue
        # a \label right after the thing (before the next event) names it
        following = EVENT_RE.search(document, m.end())
        label = LABEL_RE.search(document, m.end(), following.start() if following else len(document))
        if label and last:
            labels[label.group(1)] = last
    return things, labels


def read_labels(name: str) -> list[tuple[str, str, int]]:
    """NAME-labels.txt: (kind, number, PDF page) of each numbered label, in LaTeX's order."""
    out = []
    for line in (LAYOUTS / name).read_text().splitlines():
        kind, number, _, pdf_page, _ = line.split("|")
        out.append((kind, number, int(pdf_page)))
    return out


def pdf_pages(pdf: Path) -> list[str]:
    """Each page's text as PDFium reads it (pypdfium2, which the builder needs anyway: no poppler on a
    fresh machine); only a head's words in order matter here, not the layout."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def page_of(head: str, pages: list[str]) -> int:
    """The first PDF page that prints the head (words joined across any run of spaces)."""
    pattern = re.compile(r"\s+".join(re.escape(w) for w in head.split()) + r"(?![\d.]*\d)")
    for i, page in enumerate(pages, 1):
        if pattern.search(page):
            return i
    raise LookupError(f"{head!r} is printed on no page")


# --------------------------------------------------------------------------- Markdown
def markdown(tex: str, labels: dict, equations: list[str], footnotes: list[str]) -> str:
    """A statement's LaTeX as the Markdown a reader sees: maths kept, references as printed numbers,
    numbered displays followed by their numbers, footnote marks in place and the notes at the end."""
    def reference(m: re.Match) -> str:
        target = labels.get(m.group(2))
        if target is None:
            return ""
        return f"({target[1]})" if m.group(1) else target[1]

    numbers = iter(equations)

    def display(m: re.Match) -> str:
        if m.group(1) == "equation":
            return "\n$$" + LABEL_RE.sub("", m.group(2)).strip() + f"$$ ({next(numbers)})\n"
        if m.group(1) in ("align", "gather"):     # a number on each row that has none suppressed
            return "".join("\n$$" + re.sub(r"\\\\(?:nonumber|notag)\\b", "", LABEL_RE.sub("", row)).strip() + (f"$$ ({next(numbers)})" if row_numbered(row) else "$$")
                           for row in rows(m.group(2))) + "\n"
        return "\n$$" + (m.group(2) if m.group(1) else m.group(3)).strip() + "$$\n"

    text = DRAWING_RE.sub(" ", tex)
    # a margin note is set in the margin, apart from the statement's lines: none of its words (nor a
    # tufte side note's, set there too; its mark, a superior figure in the line, is left out as well)
    for command in (r"\marginpar", r"\marginnote", r"\sidenote", r"\boxsidenote"):
        while (at := text.find(command + "{")) >= 0:
            _, end = balanced(text, at + len(command))
            text = text[:at] + " " + text[end:]
    notes = []
    while (at := text.find(r"\footnote{")) >= 0:
        note, end = balanced(text, at + len(r"\footnote"))
        mark = footnotes[len(notes)]
        notes.append(f"{mark} {note.strip()}")
        text = text[:at] + f"$^{{{mark}}}$" + text[end:]
    text = "\n\n".join([text] + notes)
    text = REFERENCE_RE.sub(reference, text)
    text = DISPLAY_RE.sub(display, text)
    text = LABEL_RE.sub(" ", text)
    text = lists(text)
    text = DROPPED_RE.sub(" ", text)
    for _ in range(3):   # nested wrappers, innermost first
        text = WRAPPER_RE.sub(r"\1", text)
    text = text.replace("~", " ").replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    text = text.replace(r"\_", "_").replace(r"\%", "%").replace(r"\&", "&")
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r"\n\s*\n\s*", "\n\n", text).strip()


def lists(text: str) -> str:
    """enumerate items as "1." lines, itemize items as "-" lines (one level, as the layouts nest them)."""
    def items(m: re.Match) -> str:
        parts = re.split(r"\\item\b", m.group(2))[1:]
        marks = [f"{i}." for i in range(1, len(parts) + 1)] if m.group(1) == "enumerate" else ["-"] * len(parts)
        return "\n" + "\n".join(f"{mark} {part.strip()}" for mark, part in zip(marks, parts)) + "\n"
    return re.sub(r"\\begin\{(enumerate|itemize)\}(.*?)\\end\{\1\}", items, text, flags=re.S)


# --------------------------------------------------------------------------- the key
def statement(document: str, start: int, env: str, tcb: bool) -> tuple[str, str]:
    """(title, body) of the environment opening at document[start]."""
    at = start + len(r"\begin{" + env + "}")
    title = ""
    if tcb:   # \begin{theorem}{Title}{label}
        title, at = balanced(document, skip_space(document, at))
        _, at = balanced(document, skip_space(document, at))
    elif document[skip_space(document, at)] == "[":
        title, at = balanced(document, skip_space(document, at), "[", "]")
    end = document.index(r"\end{" + env + "}", at)
    return title, document[at:end]


def content_key(name: str) -> dict:
    """The content key of layout book `name` (a key of BOOKS or PLAIN_BOOKS), in content_score.py's format."""
    if name in PLAIN_BOOKS:
        return plain_key(name)
    main, labels_file = BOOKS[name]
    text = source(main)
    preamble, _, document = text.partition(r"\begin{document}")
    envs = theorems(preamble)
    document = unwrap(expand(document, macros(preamble)), wrappers(preamble, envs))
    hooks: dict[str, list[tuple[str, int]]] = {}
    for m in HOOK_RE.finditer(preamble):
        hooks.setdefault(m.group(1), []).append((m.group(2), int(m.group(3))))
    within = NUMBERWITHIN_RE.search(preamble)
    book_class = CHAPTER_CLASS_RE.search(preamble) is not None
    initial = {m.group(1): int(m.group(2)) for m in SETCOUNTER_RE.finditer(preamble)}
    things, labels = walk(document, envs, book_class, within and within.group(1), initial, hooks)
    kind_of = {env: t.get("kind", env) for env, t in envs.items()}     # a wrapped statement: the wrapper's name
    numbered = [(kind_of.get(kind, kind), number) for kind, number, _ in things if kind != "footnote"]
    if labels_file:
        # the labels file lists what carries a \label: our layouts label every numbered equation and
        # statement, so LaTeX's list and our count must agree one to one (else no key rather than a guess)
        written = [(kind, number, page) for kind, number, page in read_labels(labels_file)
                   if kind in kind_of.values() or kind == "equation"]
        if [(k, n) for k, n, _ in written] != numbered:
            raise ValueError(f"{name}: our count {numbered} is not LaTeX's {written}")
        pages = iter(page for _, _, page in written)
        page_at = {(k, n, s): next(pages) for k, n, s in things if k != "footnote"}
    else:
        printed = pdf_pages(LAYOUTS / f"{name}.pdf")
        page_at = {(k, n, s): page_of(f"{envs[k]['name']} {n}", printed) for k, n, s in things if k in envs}
    statements, named = [], set()
    for kind, number, start in things:
        if kind not in envs:
            continue
        # a number printed again (claims numbered afresh in each proof) names no statement of its own: a
        # reader, and the service, find the first statement by that name (the later ones stay unkeyed)
        if (kind_of[kind], number) in named:
            continue
        named.add((kind_of[kind], number))
        title, body = statement(document, start, kind, envs[kind]["tcb"])
        end = document.index(r"\end{" + kind + "}", start)
        inside = [(k, n) for k, n, s in things if start < s < end]
        equations = [n for k, n in inside if k == "equation"]
        footnotes = [n for k, n in inside if k == "footnote"]
        statements.append({"type": kind_of[kind], "number": number, "title": markdown(title, labels, [], []),
                           "text": markdown(body, labels, equations, footnotes),
                           "pdf_page": page_at[(kind, number, start)]})
    return {"formulas": [], "statements": statements}


# --------------------------------------------------------------------------- plain TeX (plainbook)
# plainbook's own macros (tests/layouts/plainbook/macros.tex): \theorem[Name] … \endproclaim and its kin
# on one counter per chapter, \example … \endexample and \exercise items (a paragraph each) on counters of
# their own, displays numbered by \numbered (\eqno) or, row by row, by \eqn in \eqalignno
PLAIN_BOOKS = {"plainbook": ("plainbook/book.tex", "plainbook-labels.txt")}
PLAIN_PROCLAIMS = ("theorem", "lemma", "proposition", "corollary", "definition", "remark")
PLAIN_INPUT_RE = re.compile(r"\\input\s+(\w+)(?![\w.])")
PLAIN_EVENT_RE = re.compile(r"\\(chapter)\{|\\(" + "|".join(PLAIN_PROCLAIMS) + r"|example|exercise)\b|\\(numbered|eqn)\b"
                            r"|\\(footnote)\{")
PLAIN_END_RE = re.compile(r"\\endproclaim\b|\\endexample\b|\n[ \t]*\n|\\exercise\b|\\chapter\{|\\section\{|\\vfill")
PLAIN_GROUP_RE = re.compile(r"\{\\(?:it|bf|sl|rm|sc|tt)(?![A-Za-z]) ?([^{}]*)\}")
PLAIN_DISPLAY_RE = re.compile(r"\$\$(.*?)\$\$", re.S)


def plain_source(main: str) -> str:
    """The book as plain TeX reads it: comments dropped, `\\input name` files in place (the macros'
    file none of the text's)."""
    folder = (LAYOUTS / main).parent

    def read(path: Path) -> str:
        text = "\n".join(COMMENT_RE.sub("", line) for line in path.read_text().splitlines())
        return PLAIN_INPUT_RE.sub(lambda m: read(folder / f"{m.group(1)}.tex")
                                  if (folder / f"{m.group(1)}.tex").exists() and m.group(1) != "macros" else "", text)
    return read(LAYOUTS / main)


def plain_markdown(tex: str, numbers: list[str]) -> str:
    """A plain TeX statement as Markdown: font groups as their text, displays with their numbers."""
    marks = iter(numbers)

    def display(m: re.Match) -> str:
        body = m.group(1)
        if r"\eqalignno" in body:
            inner, _ = balanced(body, body.index("{", body.index(r"\eqalignno")))
            out = ""
            for row in inner.split(r"\cr"):
                if not row.strip():
                    continue
                numbered = r"\eqn" in row
                row = re.sub(r"&\s*\\eqn\b", "", row).strip()
                out += "\n$$" + row + (f"$$ ({next(marks)})" if numbered else "$$")
            return out + "\n"
        if r"\numbered" in body:
            return "\n$$" + body.replace(r"\numbered", "").strip() + f"$$ ({next(marks)})\n"
        return "\n$$" + body.strip() + "$$\n"

    notes = []
    while (at := tex.find(r"\footnote{")) >= 0:
        mark, end = balanced(tex, at + len(r"\footnote"))
        note, end = balanced(tex, skip_space(tex, end))
        notes.append(f"{mark} {note.strip()}")
        tex = tex[:at] + mark + tex[end:]
    text = PLAIN_DISPLAY_RE.sub(display, plain_fractions("\n\n".join([tex] + notes)))
    for _ in range(2):
        text = PLAIN_GROUP_RE.sub(r"\1", text)
    text = re.sub(r"\\(?:ignorespaces|enspace|quad)\b", " ", text).replace("~", " ")
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r"\n\s*\n\s*", "\n\n", text).strip()


def plain_fractions(text: str) -> str:
    """Plain TeX's `{a\\over b}` as the LaTeX it prints, `{\\frac{a}{b}}` (the group \\over stands in)."""
    while (m := re.search(r"\\over(?![A-Za-z])", text)) is not None:
        depth, start = 0, m.start() - 1
        while start >= 0 and not (text[start] == "{" and depth == 0):
            depth += {"}": 1, "{": -1}.get(text[start], 0)
            start -= 1
        if start < 0:
            break
        group, end = balanced(text, start)
        above, below = group.split(r"\over", 1)
        text = text[:start] + r"{\frac{" + above.strip() + "}{" + below.strip() + "}}" + text[end:]
    return text


def plain_key(name: str) -> dict:
    """The content key of a layout book in plain TeX (a key of PLAIN_BOOKS), counted as its macros count."""
    main, labels_file = PLAIN_BOOKS[name]
    document = plain_source(main)
    chapter = proclaim = example = exercise = equation = 0
    things = []      # (kind, number, start of the body, end of the body)
    for m in PLAIN_EVENT_RE.finditer(document):
        unit, kind, display, footnote = m.groups()
        if unit:
            chapter += 1
            proclaim = example = exercise = equation = 0
        elif display:
            equation += 1
            things.append(("equation", f"{chapter}.{equation}", m.start(), m.start()))
        elif kind:
            if kind in PLAIN_PROCLAIMS:
                proclaim += 1
                number = f"{chapter}.{proclaim}"
            elif kind == "example":
                example += 1
                number = f"{chapter}.{example}"
            else:
                exercise += 1
                number = f"{chapter}.{exercise}"
            end = PLAIN_END_RE.search(document, m.end() + 1 if kind == "exercise" else m.end())
            things.append((kind, number, m.end(), end.start() if end else len(document)))
    written = [(k, n, page) for k, n, page in read_labels(labels_file)
               if k in PLAIN_PROCLAIMS + ("example", "exercise", "equation")]
    if [(k, n) for k, n, *_ in things] != [(k, n) for k, n, _ in written]:
        raise ValueError(f"{name}: our count {[(k, n) for k, n, *_ in things]} is not the book's {written}")
    statements = []
    for (kind, number, start, end), (_, _, page) in zip(things, written):
        if kind == "equation":
            continue
        title = ""
        body = document[start:end]
        if body.lstrip().startswith("["):
            title, after = balanced(body, body.index("["), "[", "]")
            body = body[after:]
        numbers = [n for k, n, s, _ in things if k == "equation" and start <= s < end]
        statements.append({"type": kind, "number": number, "title": title,
                           "text": plain_markdown(body, numbers), "pdf_page": page})
    return {"formulas": [], "statements": statements}


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in {**BOOKS, **PLAIN_BOOKS}:
        sys.exit(f"usage: layout_content_key.py {{{','.join({**BOOKS, **PLAIN_BOOKS})}}}")
    json.dump(content_key(sys.argv[1]), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
