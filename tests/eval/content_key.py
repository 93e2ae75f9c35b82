"""Write the sample book's content key from its LaTeX source, for ../shared/tools/content_score.py.

    python tests/eval/content_key.py > /tmp/sample-content.json
    python ../shared/tools/content_score.py http://127.0.0.1:8001 /tmp/sample-content.json

The key holds every example and exercise of book/chapters/*.tex as the scorer reads it: type,
number and PDF page from book/labels.txt (which LaTeX wrote while typesetting the PDF), the title,
and the body as Markdown with `$…$` maths — references replaced by the numbers LaTeX printed, font
and spacing commands dropped, an exercise's solution kept (the book prints it under the exercise).
It reads our own source, so the key is independent of the builder.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

BOOK = Path(__file__).resolve().parents[2] / "book"

# \begin{example}{label}{title} body \end{example};  \begin{exercise}{label} body \end{exercise}
ENVIRONMENT_RE = re.compile(r"\\begin\{(example|exercise)\}\{([^}]*)\}")
REFERENCE_RE = re.compile(r"\\(?:eq)?ref\{([^}]*)\}")
WRAPPER_RE = re.compile(r"\\(?:emph|textbf|textit|texttt|textsc|mbox)\{([^{}]*)\}")
DROPPED_RE = re.compile(r"\\(?:label|index)\{[^}]*\}|\\(?:medskip|smallskip|bigskip|noindent|par)\b")
DISPLAY_RE = re.compile(r"\\begin\{(equation\*?|align\*?)\}(.*?)\\end\{\1\}", re.S)


def labels() -> dict[str, tuple[str, str, int]]:
    """label -> (kind, number, PDF page), and the numbers of equations by label where LaTeX wrote one."""
    out = {}
    for line in (BOOK / "labels.txt").read_text().splitlines():
        kind, number, _, pdf_page, label = line.split("|")
        if label:
            out[label] = (kind, number, int(pdf_page))
    return out


EQUATION_RE = re.compile(r"\\begin\{equation\}(.*?)\\end\{equation\}", re.S)
LABEL_RE = re.compile(r"\\label\{([^}]*)\}")


def equation_labels(known: dict) -> None:
    """Equations carry no label in labels.txt: the k-th numbered equation of a chapter's source is
    the k-th equation LaTeX numbered in that chapter (ch03.tex is chapter 3, appA.tex appendix A)."""
    numbers: dict[str, list[str]] = {}
    for line in (BOOK / "labels.txt").read_text().splitlines():
        kind, number, _, pdf_page, _ = line.split("|")
        if kind == "equation":
            numbers.setdefault(number.split(".")[0], []).append((number, int(pdf_page)))
    for path in (BOOK / "chapters").glob("*.tex"):
        chapter = path.stem[2:].lstrip("0") if path.stem.startswith("ch") else path.stem[3:]
        found = [LABEL_RE.search(m.group(1)) for m in EQUATION_RE.finditer(path.read_text())]
        if not found or len(found) != len(numbers.get(chapter, [])):
            continue   # not one to one: leave this chapter's references out rather than guess
        for label, (number, pdf_page) in zip(found, numbers[chapter]):
            if label:
                known[label.group(1)] = ("equation", number, pdf_page)


def body_end(text: str, start: int, kind: str) -> int:
    return text.index(r"\end{" + kind + "}", start)


def balanced(text: str, start: int) -> tuple[str, int]:
    """The argument in braces opening at text[start] and the index after it (nested braces allowed)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    raise ValueError("unbalanced braces")


def markdown(tex: str, known: dict) -> str:
    """A statement's LaTeX as the Markdown a reader sees: maths kept, references as printed numbers."""
    def reference(m: re.Match) -> str:
        target = known.get(m.group(1))
        if target is None:
            return ""
        return f"({target[1]})" if target[0] == "equation" and m.group(0).startswith(r"\eqref") else target[1]

    text = REFERENCE_RE.sub(reference, tex)
    text = DISPLAY_RE.sub(lambda m: "\n$$" + m.group(2).strip() + "$$\n", text)
    text = DROPPED_RE.sub(" ", text)
    for _ in range(3):   # nested wrappers, innermost first
        text = WRAPPER_RE.sub(r"\1", text)
    text = text.replace(r"\solution", "\nSolution:").replace("~", " ").replace("---", "—").replace("--", "–")
    text = text.replace(r"\_", "_").replace(r"\%", "%").replace(r"\&", "&")
    return re.sub(r"[ \t]+", " ", text).strip()


def content_key() -> dict:
    known = labels()
    equation_labels(known)
    statements = []
    for path in sorted((BOOK / "chapters").glob("*.tex")):
        text = path.read_text()
        for m in ENVIRONMENT_RE.finditer(text):
            kind, label = m.group(1), m.group(2)
            at = m.end()
            title = ""
            if kind == "example":
                title, at = balanced(text, at)
            body = text[at:body_end(text, at, kind)]
            _, number, pdf_page = known[label]
            statements.append({"type": kind, "number": number, "title": markdown(title, known),
                               "text": markdown(body, known), "pdf_page": pdf_page})
    return {"formulas": [], "statements": statements}


if __name__ == "__main__":
    json.dump(content_key(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
