"""Write contextbook-labels.txt, the answer key of contextbook.pdf, from ConTeXt's own evidence, and check it.

    cd tests/layouts && python3 contextbook_build.py && python3 contextbook_key.py

ConTeXt writes no .aux but a .tuc ("two pass data", a Lua table) beside the PDF; the build keeps it as
contextbook/book.tuc.  Its `structures.lists.collected` holds, in the order of the document, every
chapter and section, every construction (the enumerations Definition, Theorem, Lemma, Example,
Remark, Exercise), every float (figure, table) and every formula that carries a reference (the book
gives each numbered formula and each numbered row of an alignment one), each with its number
(`numberdata`, packed into `job.packed.index`), its chapter prefix and the real page it was shipped
on (`references.realpage`, the PDF page).  `structures.pages.collected` gives, for each real page,
the user page number and its section block, whose conversion set book.tex defines (roman in the
front matter, arabic from chapter 1): the printed page.  A formula that only groups sub-numbered ones (`\\startsubformulas[eq:loss]`) prints no
number of its own and is left out.  The key is one line per numbered thing, `kind|number as
printed|printed page|pdf page|`.

Then every line is checked against `pdftotext -layout`, page by page, and the script fails loudly if
a page does not print the folio it should (none on the title page; the folio at the outer edge of the
running head, or alone in the foot on a chapter's or a front-matter title's opening page, or alone
in the head on an empty verso), or if a head is not on the page the key says ("Theorem 2.2 (" or
"Exercise 2.1" opening a line, "Example 2.1" alone on its line, "Figure 2.1 " or "Table 2.1 "
opening a caption, "(2.1)" or "(2.4.a)" ending a line) or stands as a head on some other page too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from keycheck import head_problems, page_count, pdf_pages, write_labels

HERE = Path(__file__).resolve().parent
PDF = HERE / "contextbook.pdf"
TUC = HERE / "contextbook" / "book.tuc"
KINDS = {"definition", "theorem", "lemma", "example", "remark", "exercise", "figure", "table", "formula"}
# book.tex: \definestructureconversionset[frontpart:pagenumber][][romannumerals] and [bodypart:...][numbers]
CONVERSIONS = {"frontpart": "romannumerals", "bodypart": "numbers"}
ROMAN = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]

_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(-?0x[0-9a-fA-F]*\.?[0-9a-fA-F]*(?:p[-+]?\d+)?|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)|(true|false|nil)|(\[=*\[)|([A-Za-z_][\w.]*)|(\S))')


class _Lua:
    """A reader of the Lua table literals the .tuc holds (strings, numbers, booleans, tables)."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def token(self) -> tuple[int, str]:
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            raise ValueError(f"cannot read the .tuc at {self.pos}")
        self.pos = m.end()
        group = m.lastindex
        if group == 4:                      # a long string [=[ ... ]=]
            close = "]" + m.group(4)[1:-1] + "]"
            end = self.text.index(close, self.pos)
            value, self.pos = self.text[self.pos:end], end + len(close)
            return 1, '"' + value.replace('"', '\\"') + '"'
        return group, m.group(group)

    def peek(self) -> str:
        save = self.pos
        _, value = self.token()
        self.pos = save
        return value

    def value(self):
        kind, tok = self.token()
        if kind == 1:
            return bytes(tok[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
        if kind == 2:
            if "x" in tok:
                return float.fromhex(tok)
            return float(tok) if "." in tok or "e" in tok else int(tok)
        if kind == 3:
            return {"true": True, "false": False, "nil": None}[tok]
        if tok != "{":
            raise ValueError(f"unexpected {tok!r} at {self.pos}")
        items, fields = [], {}
        while self.peek() != "}":
            if self.peek() == "[":
                self.token()
                key = self.value()
                assert self.token()[1] == "]" and self.token()[1] == "="
                fields[key] = self.value()
            else:
                items.append(self.value())
            if self.peek() == ",":
                self.token()
        self.token()
        return fields if fields else items


def read_tuc(path: Path) -> dict:
    """Every top-level assignment `utilitydata.a.b={...}` of the .tuc, by its dotted name."""
    text = path.read_text(encoding="utf-8")
    data = {}
    for m in re.finditer(r"^utilitydata\.([\w.]+)=", text, re.M):
        reader = _Lua(text)
        reader.pos = m.end()
        data[m.group(1)] = reader.value()
    return data


def roman(n: int) -> str:
    out = ""
    for value, letters in ROMAN:
        while n >= value:
            out, n = out + letters, n - value
    return out


def records() -> tuple[list[dict], dict[int, str], set[int]]:
    tuc = read_tuc(TUC)
    index = tuc["job.packed"]["index"]

    def unpack(value):
        return index[value - 1] if isinstance(value, int) else value

    printed = {}
    for real, page in enumerate(tuc["structures.pages.collected"], start=1):
        n = page["number"]
        printed[real] = roman(n) if CONVERSIONS[page["block"]] == "romannumerals" else str(n)
    items, chapter, openings = [], None, set()
    for entry in tuc["structures.lists.collected"]:
        meta = unpack(entry["metadata"])
        numberdata = unpack(entry.get("numberdata", {}))
        numbers = unpack(numberdata.get("numbers", []))
        refs = entry.get("references", {})
        name = meta.get("name")
        if name in ("chapter", "title", "content"):
            openings.add(refs["realpage"])
        if name == "chapter":
            chapter = numbers[1]
            continue
        if name not in KINDS or (name == "formula" and refs.get("reference") == "eq:loss"):
            continue
        if name == "formula":
            parts = [n for n in numbers if n] if isinstance(numbers, list) else []
            # formula numbers: the chapter's counter, then the sub-number (a letter)
            number = f"{chapter}.{parts[-1] if len(parts) == 1 else parts[-2]}"
            if len(parts) > 1:
                number += "." + "abcdefghij"[parts[-1] - 1]
        else:
            number = f"{chapter}.{numbers[-1]}"
        kind = "equation" if name == "formula" else name
        if name == "theorem" and refs.get("reference", "").startswith("lem:"):
            kind = "lemma"      # a child enumeration on the theorem's counter: listed as "theorem"
        real = refs["realpage"]
        items.append({"kind": kind, "number": number, "printed": printed[real], "page": real,
                      "reference": refs.get("reference", "")})
    return items, printed, openings


def head_pattern(kind: str, number: str) -> re.Pattern:
    n = re.escape(number)
    if kind == "equation":
        return re.compile(rf"(^|\s\s)\({n}\)\s*$", re.M)   # not "(2.1) and (2.2)" ending a line of text
    if kind in ("figure", "table"):
        return re.compile(rf"^\s*{kind.capitalize()} {n} [A-Z]", re.M)
    if kind == "example":
        return re.compile(rf"^\s*Example {n}\s*$", re.M)
    if kind in ("remark", "exercise"):
        return re.compile(rf"^\s*{kind.capitalize()} {n} [A-Z]", re.M)
    return re.compile(rf"^\s*{kind.capitalize()} {n} \(", re.M)


def main() -> int:
    items, printed, openings = records()
    pages = pdf_pages(PDF)
    problems = []
    count = page_count(PDF)
    if len(pages) != count or len(printed) != count:
        problems.append(f"pdftotext gives {len(pages)} pages, pdfinfo {count}, the .tuc {len(printed)}")
    for index, text in enumerate(pages, start=1):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        want = printed.get(index)
        if index == 1:      # the title page prints no folio
            if lines and re.fullmatch(r"[0-9ivx]+", lines[-1]):
                problems.append("PDF page 1 (the title page) prints a folio")
            continue
        if index in openings:
            ok = lines and lines[-1] == want
        else:
            first = lines[0].split() if lines else []
            ok = bool(first) and (first[0] == want or first[-1] == want) and len(lines) >= 1
        if not ok:
            problems.append(f"PDF page {index} does not print its folio {want!r}")
    problems += head_problems(items, pages, head_pattern)
    return write_labels(HERE / "contextbook-labels.txt", items, problems)


if __name__ == "__main__":
    sys.exit(main())
