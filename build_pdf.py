"""build_pdf.py: read a textbook PDF into the chunks and sections that build_db.py writes.

Stages, each a function below: read (PDF pages with layout) -> structure (running heads
dropped, margin column, headings) -> entities and chunks.  build_db.py calls read_pdf and
structure.  The PDF libraries (the [build] extra) are imported only inside read_pdf; the id
rules come from rag.py and the rows from build_common.py.  Never imports build_db.py.
"""

from __future__ import annotations

import hashlib
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from build_common import TARGET_CHUNK_TOKENS, Chunk, Section, numbering_gaps, split_to_budget
from build_glyphs import Document, Line, Page, Word, read_document
from build_math import algorithm_text, display_latex, is_math_font, math_share, prose_with_math, table_markdown
from rag_core import entity_id, normalize_number


# --------------------------------------------------------------------------- read
"""Read: the PDF's pages as lines of words with fonts and positions, drawings, links (build_glyphs.py)."""


def read_pdf(path: Path, workers: int | None = None) -> Document:
    """Every page as positioned lines, with the outline and named destinations; BuildError if unreadable."""
    return read_document(path, workers)


# --------------------------------------------------------------------------- structure
"""Structure: running heads dropped, printed pages, the margin column, headings."""


@dataclass
class Layout:
    left: float          # left edge of the main column
    right: float         # right edge of the main column
    margin_x: float      # words starting right of this are margin-column text
    body_size: float
    body_font: str = ""  # the font most of the running text is set in
    label_right: float = 0.0   # where equation numbers end, when the book sets them off the text block's edge
    leading: float = 0.0       # the usual distance from one line of running text to the next


def _shape(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlc]+\b", "#", text.lower()).strip()


def _in_band(line: Line, page: Page, body: float = 0.0) -> bool:
    """Where running heads and feet stand: the page's top or bottom tenth, or its first or last line
    when set no larger than the body text (a chapter's title opening a page is not a running head)."""
    if line.top < page.height * 0.10 or line.top > page.height * 0.91:
        return True
    return (line is page.lines[0] or line is page.lines[-1]) and line.size <= body * 1.05


_ROMAN_RE = re.compile(r"^[ivxlcdm]+$")
_GLUED_FOLIO_RE = re.compile(r"^(\d{1,4})(?=\D)|(?<=\D)(\d{1,4})$")


def _folio_candidates(line: Line) -> list[str]:
    """Numbers a head or foot line could carry as its page number: a number standing at either end
    of the line, or digits glued to the first or last word ("REWARD234", "12CHAPTER")."""
    words = [w.text for w in line.words]
    out = []
    for word in (words[0], words[-1]) if len(words) > 1 else words[:1]:
        token = word.strip(".,:;|·–—-[]()")
        if token.isdigit() and len(token) <= 4:
            out.append(token)
        elif _ROMAN_RE.match(token) and len(token) <= 8:
            out.append(token)
        else:
            m = _GLUED_FOLIO_RE.search(token)
            if m:
                out.append(m.group(1) or m.group(2))
    return list(dict.fromkeys(out))


def drop_running_lines(pages: list[Page]) -> dict[int, list[str]]:
    """Remove running heads and feet in place; return each page's folio candidates {pdf page: [text]}."""
    candidates: dict[int, list[str]] = {}
    band_counts: Counter = Counter()
    sizes: Counter = Counter(w.size for page in pages for line in page.lines for w in line.words)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    for page in pages:
        for line in page.lines:
            if _in_band(line, page, body):
                band_counts[_shape(line.text)] += 1
    threshold = 3 if len(pages) >= 6 else 2
    for page in pages:
        kept = []
        for line in page.lines:
            if _in_band(line, page, body):
                found = _folio_candidates(line)
                alone = re.fullmatch(r"[\divxlcdm]{1,8}", line.text.strip().strip("-–— "))
                if alone or (band_counts[_shape(line.text)] >= threshold):
                    candidates.setdefault(page.number, []).extend(found)
                    continue
                if found and len(line.words) <= 12 and (line is page.lines[0] or line is page.lines[-1]):
                    candidates.setdefault(page.number, []).extend(found)   # a head seen once, on its page's edge
            kept.append(line)
        page.lines = kept
    return candidates


def drop_folio_lines(pages: list[Page], printed: "PrintedPages") -> None:
    """A head or foot that no other page repeats (a short chapter's only even page) still carries
    the page's own number: once the sequence has confirmed that number, the line goes too."""
    for page in pages:
        label = printed.labels.get(page.number)
        if not label or not page.lines:
            continue
        for line in {id(l): l for l in (page.lines[0], page.lines[-1])}.values():
            if len(line.words) <= 12 and label in _folio_candidates(line) and (
                    line.top < page.height * 0.15 or line.top > page.height * 0.85):
                page.lines.remove(line)


def roman_value(text: str) -> int | None:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    if not text or not _ROMAN_RE.match(text):
        return None
    total = 0
    for a, b in zip(text, text[1:] + " "):
        total += -values[a] if b != " " and values[b] > values[a] else values[a]
    return total if total > 0 else None


def to_roman(number: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                           (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while number >= value:
            out += letters
            number -= value
    return out


@dataclass
class PrintedPages:
    """The number printed on every PDF page, and where it came from."""

    labels: dict[int, str | None]   # as printed ("17", "xii"), None where the page number is unknown
    source: str                     # "page labels", "folios" or "none"
    read: int = 0                   # pages whose folio was read on the page (or labelled)
    inferred: int = 0               # pages between or beside read ones (chapter openers, figures)
    note: str = ""

    def number(self, pdf_page: int) -> int | None:
        label = self.labels.get(pdf_page)
        return int(label) if label and label.isdigit() else None


def _runs_of_offsets(pages: list[Page], candidates: dict[int, list[str]]) -> dict[int, tuple[str, int]]:
    """Per page, the folio whose offset from the PDF index its neighbours share: {pdf page: (kind, offset)}.

    A folio is a sequence: page n+1 prints one more than page n.  Each candidate is judged by how
    many pages within ten either side carry a candidate of the same kind (arabic or roman) and the
    same offset; the best-supported one wins when at least one other page agrees."""
    options: dict[int, list[tuple[str, int]]] = {}
    for number, texts in candidates.items():
        opts = []
        for text in texts:
            if text.isdigit():
                opts.append(("arabic", number - int(text)))
            elif roman_value(text):
                opts.append(("roman", number - roman_value(text)))
        if opts:
            options[number] = list(dict.fromkeys(opts))
    chosen = {}
    small = len(pages) <= 3
    for number, opts in options.items():
        best, support = None, 0
        for opt in opts:
            n = sum(1 for other in range(number - 10, number + 11) if other != number and opt in options.get(other, ()))
            if n > support:
                best, support = opt, n
        if best is not None and (support >= 1 or small):
            chosen[number] = best
        elif small and opts:
            chosen[number] = opts[0]
    return chosen


def printed_pages(pages: list[Page], candidates: dict[int, list[str]], labels: dict[int, str] | None) -> PrintedPages:
    """The printed page of every PDF page.

    Folios read on the pages are the evidence: the running heads and feet carry the numbers a
    reader cites.  Pages without one (chapter openers, full-page figures) take the number their
    neighbours imply.  The PDF's own page labels are used when it defines them and they agree with
    the folios (they then also number pages that print none); labels that disagree are reported
    and set aside (a book re-saved with stale labels, or labels counted from the wrong page).
    """
    chosen = _runs_of_offsets(pages, candidates)
    numbers = [p.number for p in pages]
    folio: dict[int, str | None] = {}
    for n in numbers:
        if n in chosen:
            kind, offset = chosen[n]
            folio[n] = str(n - offset) if kind == "arabic" else to_roman(n - offset)
    read = len(folio)
    inferred = 0
    # Pages between or beside read folios take the nearest run's offset (arabic before roman).
    known = sorted(chosen)
    for n in numbers:
        if n in folio or not known:
            continue
        before = max((k for k in known if k < n), default=None)
        after = min((k for k in known if k > n), default=None)
        run = None
        if before is not None and after is not None and chosen[before] == chosen[after]:
            run = chosen[before]
        elif before is not None and (after is None or n - before <= after - n):
            run = chosen[before]
        elif after is not None:
            run = chosen[after]
        if run:
            value = n - run[1]
            if value >= 1:
                folio[n] = str(value) if run[0] == "arabic" else to_roman(value)
                inferred += 1
    if labels:
        judged = [n for n in chosen]
        agree = sum(1 for n in judged if labels.get(n) == folio.get(n))
        if not judged or agree >= 0.8 * len(judged):
            return PrintedPages({n: labels.get(n) or folio.get(n) for n in numbers}, "page labels",
                                read=sum(1 for n in numbers if labels.get(n)), inferred=0)
        note = (f"the PDF's page labels disagree with the printed page numbers on {len(judged) - agree} of "
                f"{len(judged)} pages (e.g. PDF page {next(n for n in judged if labels.get(n) != folio.get(n))}: "
                "label {!r}, printed {!r}); the printed numbers are used")
        bad = next(n for n in judged if labels.get(n) != folio.get(n))
        return PrintedPages(folio, "folios", read, inferred, note.format(labels.get(bad), folio.get(bad)))
    if not folio:
        return PrintedPages({n: None for n in numbers}, "none", 0, 0, "no page numbers found: PDF page indexes are cited")
    return PrintedPages({n: folio.get(n) for n in numbers}, "folios", read, inferred)


def detect_layout(pages: list[Page]) -> dict[int, Layout]:
    """Main column edges and margin column per page parity (two-sided books shift the text block).

    The left edge is where most long lines start; the right edge is the most common end of
    long lines (justified text ends there); words starting right of it are margin text.
    Returns {0: layout of even pages, 1: layout of odd pages}.
    """
    sizes: Counter = Counter()
    fonts: Counter = Counter()
    for page in pages:
        for line in page.lines:
            for w in line.words:
                sizes[w.size] += len(w.text)
                fonts[(w.font, w.size)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    body_font = max(((n, f) for (f, size), n in fonts.items() if size == body), default=(0, ""))[1]
    layouts = {parity: _column_edges([p for p in pages if p.number % 2 == parity and not p.rotated], body)
               for parity in (0, 1)}
    every = _column_edges([p for p in pages if not p.rotated], body)
    for parity, found in layouts.items():
        # A parity with too few pages to tell (a short document) takes the whole document's edges.
        if found is None:
            layouts[parity] = every or Layout(left=72, right=pages[0].width * 0.8,
                                              margin_x=pages[0].width * 0.8 + 6, body_size=body)
        layouts[parity].body_font = body_font
        layouts[parity].label_right = _label_column([p for p in pages if p.number % 2 == parity], layouts[parity])
        layouts[parity].leading = _leading(pages, body)
    return layouts


def _leading(pages: list[Page], body: float) -> float:
    """Baseline to baseline between consecutive lines of body text: the most common such distance."""
    steps: Counter = Counter()
    for page in pages[:400]:
        lines = [l for l in page.lines if abs(l.size - body) < 0.3 and len(l.words) >= 6]
        for a, b in zip(lines, lines[1:]):
            step = b.baseline - a.baseline
            if body * 0.9 < step < body * 1.8:
                steps[round(step * 2) / 2] += 1
    return steps.most_common(1)[0][0] if steps else body * 1.2


def _label_column(pages: list[Page], layout: Layout) -> float:
    """The right edge the book sets its equation numbers to: the x where most "(5.3)" tokens that end
    a line after a wide gap stop.  Equation numbers are right-aligned to one edge; that edge is
    usually the text block's, but not always (a narrower display column, a wide margin)."""
    ends: Counter = Counter()
    for page in pages:
        for line in page.lines:
            words = line.words
            if len(words) >= 2 and equation_number(words[-1].text) and \
                    words[-1].x0 - words[-2].x1 > layout.body_size * 1.5:
                ends[round(words[-1].x1)] += 1
    if not ends:
        return layout.right
    x, n = ends.most_common(1)[0]
    near = sum(c for e, c in ends.items() if abs(e - x) <= 2)
    return float(x) if near >= 3 and abs(x - layout.right) < layout.body_size * 6 else layout.right


def _column_edges(pages: list[Page], body: float) -> Layout | None:
    starts, ends = Counter(), Counter()
    for page in pages:
        for line in page.lines:
            if len(line.words) >= 6:
                starts[round(line.x0)] += 1
                ends[round(line.x1)] += 1
    if sum(ends.values()) < 20:
        return None
    width = pages[0].width
    left = starts.most_common(1)[0][0]
    right = max((n, x) for x, n in ends.items() if x < width * 0.95)[1]
    return Layout(left=left, right=right, margin_x=right + 6, body_size=body)


# --------------------------------------------------------------------------- entities and chunks
"""Entities and chunks: captions, boxes, equations, exercises, and bounded text chunks."""

EQ_NUMBER_RE = re.compile(r"^\(\s*((?:[A-Z]|\d+)(?:\s*[.:·\-–]\s*\d+)*[a-z]?)\s*\)$")
HEADING_RE = re.compile(r"^((?:[A-Z]|\d+)(?:\.\d+){1,3})\.?\s+(\S.*)$")
CHAPTER_RE = re.compile(r"^(?:Chapter|CHAPTER|Appendix|APPENDIX)\s+([A-Z]|\d+)\s*[.:]?\s*(.*)$")
PART_RE = re.compile(r"^(?:Part|PART)\s+([IVX]+)\b\s*[.:]?\s*(.*)$")


def equation_number(text: str) -> str | None:
    """'(5.3)', '(1:1)', '( 2.4a )', '(12)' -> the number with periods ('5.3', '1.1', '2.4a', '12')."""
    m = EQ_NUMBER_RE.match(text.strip())
    if not m:
        return None
    return normalize_number(re.sub(r"\s*[.:·\-–]\s*", ".", m.group(1)))


# --------------------------------------------------------------------------- entity heads
"""Entity heads: "Theorem 5.1 (Name).", "Figure 3.2:", "Example 2.12" — any numbered thing, found by typography."""

# A word, a number, and what follows.  The word is any capitalised word: the kind of thing a book
# numbers is whatever it prints ("Assumption 2.1", "Problem 3.4"), not a list of ours.
HEAD_RE = re.compile(r"^(?P<word>[A-Z][A-Za-z]{1,24})(?P<dot>\.)?\s+"
                     r"(?P<num>[A-Z](?:[.:\-–]\d+)+|\d+(?:[.:\-–]\d+)*[a-z]?)"
                     r"(?P<sep>[.:])?(?=\s|$|\()\s*(?P<rest>.*)$")
# The abbreviations books print for a kind.
KIND_ABBREVIATIONS = {"fig": "figure", "figs": "figure", "tab": "table", "eq": "formula", "eqn": "formula",
                      "equation": "formula", "alg": "algorithm", "algo": "algorithm", "thm": "theorem",
                      "lem": "lemma", "prop": "proposition", "cor": "corollary", "def": "definition",
                      "defn": "definition", "rem": "remark", "exer": "exercise", "prob": "problem",
                      "conj": "conjecture", "lst": "listing", "prog": "program"}
# Words that number the book's own parts, or steps inside a text, never a thing the book defines.
NOT_ENTITY_WORDS = {"chapter", "section", "subsection", "part", "appendix", "page", "pages", "lecture", "unit",
                    "module", "lesson", "step", "steps", "case", "cases", "item", "stage", "phase", "level", "line",
                    "lines", "version", "release", "volume", "vol", "no", "number", "week", "day", "session",
                    "round", "class", "grade", "year", "rule", "the", "and", "for", "see", "in", "of", "on",
                    "at", "by", "to", "with", "from", "as", "or", "is", "are", "if", "let", "then", "we"}
# Kinds printed as captioned floats: their body is a drawing, a table's rows or code, not running text.
FLOAT_KINDS = ("figure", "table", "algorithm", "listing")


def entity_kind(word: str) -> str | None:
    """The kind a printed head word names: 'Fig.' -> figure, 'Theorem' -> theorem; None for structure words."""
    w = word.strip().rstrip(".").lower()
    w = KIND_ABBREVIATIONS.get(w, w)
    if not w.isalpha() or len(w) < 3 or w in NOT_ENTITY_WORDS:
        return None
    return w


@dataclass
class Head:
    """A numbered head at the start of a line."""

    kind: str
    number: str           # as printed, separators made periods
    title: str            # "(Cauchy-Schwarz)" or a bold name after the number, else ""
    rest: str             # the line's text after the head and title
    head_words: int       # how many of the line's words the head and title take
    distinct: bool        # set in a face of its own: bold, or italic or capitals against upright body text
    sep: str              # "." or ":" right after the number, or ""


_CAPS_FONT = re.compile(r"Caps|SC\d|CSC|-SC|SmallCap", re.I)


def match_head(line: Line, body_font: str) -> Head | None:
    """The numbered head a line starts with, if any: "Theorem 2.9 Division Algorithm. Let …"."""
    words = line.words
    if len(words) < 2:
        return None
    m = HEAD_RE.match(f"{words[0].text} {words[1].text}")
    if not m:
        return None
    kind = entity_kind(m.group("word"))
    number = normalize_number(re.sub(r"[:\-–]", ".", m.group("num")))
    if kind is None or number is None:
        return None
    first = words[0]
    after = words[2:]
    bold = first.bold and words[1].bold
    caps = bool(_CAPS_FONT.search(first.font)) or (first.text.isupper() and len(first.text) > 3)
    slanted = first.italic and first.font != body_font and not all(w.italic for w in after[:4])
    distinct = bold or ((caps or slanted) and first.font != body_font)
    # A title: "(Name)" right after the number, or words in the head's own bold face ending in ".".
    title, used = "", 2
    if after and after[0].text.startswith("("):
        for k, w in enumerate(after):
            if w.text.rstrip(".:").endswith(")"):
                title = " ".join(x.text for x in after[:k + 1]).rstrip(".:").strip()[1:-1]
                used = 2 + k + 1
                break
    elif bold and after and after[0].bold:
        for k, w in enumerate(after[:12]):
            if not w.bold:
                break
            if w.text.endswith("."):
                title = " ".join(x.text for x in after[:k + 1]).rstrip(".")
                used = 2 + k + 1
                break
    rest = " ".join(w.text for w in words[used:])
    return Head(kind, number, title, rest, used, distinct, m.group("sep") or "")


def _is_centred(line: Line, layout: Layout) -> bool:
    """Centred in the column and shorter than it (a justified line is centred too, but full)."""
    centre = (layout.left + layout.right) / 2
    return abs((line.x0 + line.x1) / 2 - centre) < 12 and line.x0 > layout.left + 5 and line.x1 < layout.right - 5


def caption_context(line: Line, page: Page, layout: Layout) -> bool:
    """True where a line in the body face can still be a caption: it is centred in the column, or a
    drawing, an image or ruled rows lie right above or below it."""
    if _is_centred(line, layout):
        return True
    near = [g for g in page.graphics + page.rules
            if g[0] < line.x1 + 20 and g[2] > line.x0 - 20 and (0 <= line.top - g[3] < 40 or 0 <= g[1] - line.bottom < 40)]
    return bool(near)


@dataclass
class Item:
    """One thing on a page in reading order: a line of text or a finished entity."""

    top: float
    kind: str                 # "line", "entity", "note"
    line: Line | None = None
    entity: dict | None = None
    text: str = ""


def _join_lines(lines: Iterable[Line], maths: bool = False, bars: dict | None = None) -> str:
    """Text of consecutive lines with end-of-line hyphenation undone; with maths, runs of maths as $…$
    (bars: each page's thin rules, for roots and fractions in a line)."""
    out = ""
    for line in lines:
        text = (prose_with_math(line.words, (bars or {}).get(line.page, ())) if maths else line.text).strip()
        if not text:
            continue
        if out.endswith("-") and text[:1].islower() and not out.endswith(" -"):
            out = out[:-1] + text
        else:
            out = f"{out} {text}" if out else text
    return out


def _code_text(lines: list[Line], left: float) -> str:
    """Monospaced lines back to code, indentation rebuilt from x positions."""
    widths = [(w.x1 - w.x0) / len(w.text) for line in lines for w in line.words if w.mono and len(w.text) > 2]
    char = statistics.median(widths) if widths else 4.2
    out = []
    for line in lines:
        indent = max(0, round((line.x0 - left) / char))
        text = ""
        cursor = line.x0
        for w in line.words:
            gap = max(1, round((w.x0 - cursor) / char)) if text else 0
            text += " " * gap + w.text
            cursor = w.x1
        out.append(" " * indent + text)
    return "\n".join(out)


def _prose_pair(words: list[Word]) -> bool:
    """Two words of running text one after the other (not maths, not an operator's name)."""
    def prose(w: Word) -> bool:
        return len(w.text) >= 3 and w.text.isalpha() and w.text.isascii() and not is_math_font(w.font) \
            and w.text not in ("max", "min", "log", "exp", "arg", "sup", "inf", "lim", "det")
    return any(prose(a) and prose(b) for a, b in zip(words, words[1:]))


def _inside(line: Line, box: tuple[float, float, float, float], pad: float = 1.0) -> bool:
    mid = (line.top + line.bottom) / 2
    return box[1] - pad <= mid <= box[3] + pad and line.x0 >= box[0] - pad and line.x1 <= box[2] + pad


def page_items(page: Page, layout: Layout, wanted: dict | None = None) -> list[Item]:
    """A page's items in reading order: main-column lines, entities, margin notes.

    wanted: on a second look, {(kind, number): pages} of captions the numbering says were missed;
    those are accepted in the body face without a caption's other signs."""
    main: list[Line] = []
    margin: list[Line] = []
    margin_x = page.width + 1 if page.rotated else layout.margin_x
    for line in page.lines:
        left = [w for w in line.words if w.x0 < margin_x]
        right = [w for w in line.words if w.x0 >= margin_x]
        if left:
            main.append(Line(left, page.number))
        if right:
            margin.append(Line(right, page.number))

    main = _split_side_by_side(main, page, layout)

    # Margin column: blocks of lines; a caption starts a new block.
    def margin_caption(line: Line) -> Head | None:
        head = match_head(line, layout.body_font)
        return head if head and (head.distinct or head.sep) else None

    blocks: list[list[Line]] = []
    for line in margin:
        starts_note = bool(re.match(r"^\d+\s", line.text)) and line.words[0].size < line.size
        if not blocks or margin_caption(line) or starts_note or line.top - blocks[-1][-1].bottom > line.size * 1.2:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    captions, notes = [], []
    for block in blocks:
        text = _join_lines(block)
        head = margin_caption(Line([w for l in block for w in l.words], page.number))
        if head:
            title = _caption_title(text, head)
            captions.append({"kind": head.kind, "number": head.number, "title": title, "top": block[0].top,
                             "bottom": block[-1].bottom, "used": False, "lines": block})
        else:
            notes.append(Item(block[0].top, "note", text=text))

    items: list[Item] = []
    used: set[int] = set()
    # Light boxes holding a float or a run-in block whose caption stands in the margin beside them.
    for box in sorted(page.boxes, key=lambda b: b[1]):
        inside = [l for l in main if _inside(l, box)]
        if not inside:
            continue
        cap = min((c for c in captions if not c["used"] and c["kind"] != "table"
                   and box[1] - 40 <= c["top"] <= box[3]), key=lambda c: abs(c["top"] - box[1]), default=None)
        if cap is None:
            continue  # an uncaptioned box stays ordinary text
        cap["used"] = True
        used.update(id(l) for l in inside)
        items.extend(_equations_in(inside, layout, context=f"{cap['kind'].capitalize()} {cap['number']}. {cap['title']}"))
        if cap["kind"] in ("algorithm", "listing") and all(w.mono for l in inside for w in l.words):
            content = _code_text(inside, min(l.x0 for l in inside))
        else:
            content = "\n".join(_join_lines([l]) for l in inside if not _ends_with_equation_number(l, layout))
        # A box that runs to the page's foot goes on at the head of the next page (a breakable box).
        items.append(Item(box[1], "entity", entity={**cap, "content": content,
                                                     "continues": "box" if box[3] > page.height * 0.82 else None}))
    # Margin captions of tables: the rule-bounded tabular beside or below them.
    for cap in captions:
        if cap["used"] or cap["kind"] != "table":
            continue
        rules = sorted(r for r in page.rules if r[0] < layout.margin_x and cap["top"] - 30 <= r[1] <= cap["top"] + 80)
        content_lines = []
        if rules:
            top = rules[0][1]
            # The rules of one tabular share its width; a drawing's strokes do not.
            group = [r for r in page.rules if abs(r[0] - rules[0][0]) < 3 and abs(r[2] - rules[0][2]) < 3
                     and top <= r[1] <= top + 400]
            bottom = top
            for r in sorted(group, key=lambda r: r[1]):
                if r[1] - bottom > 120:
                    break
                bottom = r[1]
            content_lines = [l for l in main if top - 1 <= (l.top + l.bottom) / 2 <= bottom + 1 and id(l) not in used]
            used.update(id(l) for l in content_lines)
        cap["used"] = True
        rows = table_markdown(content_lines, page.bars)
        items.append(Item(cap["top"], "entity", entity={**cap, "content": "\n\n".join(x for x in (cap["title"], rows) if x)}))
    # Other margin captions: figures and listings whose body stands beside them, or a float of the main
    # column whose caption the class sets in the margin.
    for cap in captions:
        if cap["used"]:
            continue
        if cap["kind"] in FLOAT_KINDS:
            cap["used"] = True
            near = _drawing_text(page, main, cap["lines"], used, layout) if cap["kind"] == "figure" else []
            used.update(id(l) for l in near)
            content = cap["title"] + ("\n" + " / ".join(l.text for l in near) if near else "")
            items.append(Item(cap["top"], "entity", entity={**cap, "content": content}))
        else:   # a margin "Example 2.5." without a box: kept as a note
            notes.append(Item(cap["top"], "note", text=_join_lines(cap["lines"])))
    # Captions in the main column: "Algorithm 3 Title" (bold), "Figure 2.1." (bold), "Figure 2.1:",
    # "Fig. 1. …" centred under a drawing — with the algorithm's body, the table's rows, the code,
    # or the text inside the drawing.
    for i, line in enumerate(main):
        if id(line) in used:
            continue
        head = match_head(line, layout.body_font)
        if head is None or head.kind not in FLOAT_KINDS:
            continue
        missed = page.number in (wanted or {}).get((head.kind, head.number), ())
        if not head.distinct and not missed:
            # In the body face, a caption still shows itself: "Figure 2.2:" with a colon, or
            # "Fig. 1." centred or next to its drawing; never a line that reads on from the one above.
            if not (head.sep == ":" or (head.sep and caption_context(line, page, layout))):
                continue
            if i > 0 and _continues_paragraph(main[i - 1], line, layout):
                continue  # "… as Figure 2.1: shows" inside running text is a reference, not a caption
        kind, number = head.kind, head.number
        cap_lines = _caption_lines(main, i, used, page.rules, layout.body_font)
        used.update(id(l) for l in cap_lines)
        title = _caption_title(_join_lines(cap_lines), head)
        if kind in ("algorithm", "listing"):
            body = _ruled_body(page, main, cap_lines, used, layout, below_only=kind == "algorithm")
            if kind == "listing" and not body:
                body = _code_near(main, cap_lines, used)
            used.update(id(l) for l in body)
            items.extend(_equations_in(body, layout, context=f"{kind.capitalize()} {number}. {title}"))
            if body and all(w.mono for l in body for w in l.words):
                content = _code_text(body, min(l.x0 for l in body))
            else:
                content = algorithm_text([l for l in body if not _ends_with_equation_number(l, layout)], page.bars)
            items.append(Item(min([line.top] + [l.top for l in body]), "entity", entity={
                "kind": kind, "number": number, "title": title, "content": content or title,
                "continues": "ruled" if getattr(body, "open_ended", False) else None}))
        elif kind == "table":
            body = _ruled_body(page, main, cap_lines, used, layout, below_only=False)
            used.update(id(l) for l in body)
            rows = table_markdown(body, page.bars)
            items.append(Item(line.top, "entity", entity={"kind": kind, "number": number, "title": title,
                                                           "content": f"{title}\n\n{rows}".strip()}))
        else:
            inside = _drawing_text(page, main, cap_lines, used, layout)
            used.update(id(l) for l in inside)
            content = title + ("\n" + " / ".join(l.text for l in inside) if inside else "")
            items.append(Item(min([line.top] + [l.top for l in inside]), "entity", entity={
                "kind": kind, "number": number, "title": title, "content": content}))
    # Everything else in the main column flows as lines.
    for line in main:
        if id(line) not in used:
            items.append(Item(line.top, "line", line=line))
    items.extend(notes)
    order = {"entity": 0, "line": 1, "note": 2}
    items.sort(key=lambda it: (round(it.top), order[it.kind]))
    return items


def _split_side_by_side(main: list[Line], page: Page, layout: Layout) -> list[Line]:
    """Floats set side by side (two algorithms, two tables): where the page's rules form groups that
    stand next to each other, not above each other, the lines beside them are cut at the gutter, so
    each float reads its own column."""
    groups: list[list[tuple]] = []
    for r in sorted(page.rules + page.boxes, key=lambda r: (round(r[0]), round(r[2]))):
        for g in groups:
            if abs(g[0][0] - r[0]) < 4 and abs(g[0][2] - r[2]) < 4:
                g.append(r)
                break
        else:
            groups.append([r])
    cuts = []
    for a in groups:
        for b in groups:
            left, right = a[0], b[0]
            if left[2] + 6 < right[0] and left[2] - left[0] > 60 and right[2] - right[0] > 60:
                top = max(min(r[1] for r in a), min(r[1] for r in b))
                bottom = min(max(r[3] for r in a), max(r[3] for r in b))
                if bottom > top:   # the two groups share height: side by side
                    cuts.append(((left[2] + right[0]) / 2, min(r[1] for r in a + b) - 30, max(r[3] for r in a + b) + 4))
    if not cuts:
        return main
    out = []
    for line in main:
        pieces = [line.words]
        for x, y0, y1 in cuts:
            if y0 <= line.top <= y1:
                pieces = [part for words in pieces for part in ([w for w in words if (w.x0 + w.x1) / 2 < x],
                                                                [w for w in words if (w.x0 + w.x1) / 2 >= x]) if part]
        out.extend(Line(words, line.page) for words in pieces)
    return out


def _caption_title(text: str, head: Head) -> str:
    """A caption's text after its "Figure 3.2:" head."""
    m = HEAD_RE.match(text)
    return m.group("rest").strip() if m else head.rest


def _code_near(main: list[Line], cap: list[Line], used: set[int]) -> list[Line]:
    """Monospaced lines right below (else right above) a listing's caption."""
    below = [l for l in main if l.top >= cap[-1].bottom - 1 and id(l) not in used]
    above = [l for l in reversed(main) if l.bottom <= cap[0].top + 1 and id(l) not in used]
    for run in (below, above):
        body, last = [], None
        for l in run:
            if not all(w.mono for w in l.words) or (last is not None and abs(l.top - last) > l.size * 2.2):
                break
            body.append(l)
            last = l.top
        if body:
            return sorted(body, key=lambda l: l.top)
    return []


def _continues_paragraph(above: Line, line: Line, layout: Layout) -> bool:
    """True when line reads on from a justified line right above it at ordinary line spacing."""
    return above.x1 >= layout.right - 4 and line.top - above.bottom < line.size * 0.5 and \
        abs(line.x0 - layout.left) < 4 and len(above.words) >= 6


def _is_head_like(line: Line) -> bool:
    """True when a line starts like an entity head ("Table 4.2 …"), whatever its face."""
    m = HEAD_RE.match(line.text)
    return bool(m) and entity_kind(m.group("word")) is not None


def _caption_lines(main: list[Line], i: int, used: set[int], rules: list = (), body_font: str = "") -> list[Line]:
    """A caption line and the lines its text wraps onto (same type size, tight spacing, no rule between)."""
    lines = [main[i]]
    for nxt in main[i + 1:]:
        gap = nxt.top - lines[-1].bottom
        ruled = any(lines[-1].bottom - 1 <= r[1] <= nxt.top + 1 for r in rules)
        if id(nxt) in used or gap > nxt.size * 0.6 or abs(nxt.size - lines[0].size) > 0.5 \
                or _is_head_like(nxt) or ruled:
            break
        lines.append(nxt)
        if len(lines) >= 6:
            break
    return lines


class _OpenEnded(list):
    """The lines of a float that runs past the page's foot (its rest is at the top of the next page)."""

    open_ended = True


def _ruled_body(page: Page, main: list[Line], cap: list[Line], used: set[int], layout: Layout,
                below_only: bool) -> list[Line]:
    """The lines of a float bounded by horizontal rules next to its caption (algorithm, table)."""
    cap_top, cap_bottom = cap[0].top, cap[-1].bottom
    cap_x0, cap_x1 = min(l.x0 for l in cap), max(l.x1 for l in cap)
    # The float's rules: below the caption, and under it (not a neighbouring float's, side by side).
    rules = sorted((r for r in page.rules if r[0] < layout.margin_x and r[1] >= cap_bottom - 2
                    and r[0] < cap_x1 and r[2] > cap_x0), key=lambda r: (r[1], r[0]))
    below = [r for r in rules if r[1] - cap_bottom < 60]
    if below:
        first = below[0]
        same = [r for r in rules if abs(r[0] - first[0]) < 4 and abs(r[2] - first[2]) < 4 and r[1] > first[1] + 4]
        # The float ends at the next rule of the same width, or (tables: top, mid and bottom
        # rules) at the last one before another caption starts.
        end = first[1]
        for r in same:
            between = [l for l in main if end < l.top < r[1] and _is_head_like(l)
                       and (l.bold or ":" in l.text.split()[1][-1:])]
            if between:
                break
            end = r[1]
            if below_only:
                break
        # A float narrower than the column (side by side with another) takes the lines within its rules' width.
        inside = (lambda l: True) if first[2] - first[0] > (layout.right - layout.left) * 0.8 else \
            (lambda l: first[0] - 6 <= (l.x0 + l.x1) / 2 <= first[2] + 6)
        if end > first[1]:
            return [l for l in main if id(l) not in used and first[1] - 2 <= (l.top + l.bottom) / 2 <= end + 2
                    and inside(l)]
        if below_only and not same:
            # An opening rule and no closing one: the float breaks at the page's foot and goes on overleaf.
            body = _OpenEnded(l for l in main if id(l) not in used and l.top > first[1] - 2)
            if body and body[-1].bottom > page.height * 0.75:
                return body
    if not below_only:
        above = [r for r in page.rules if r[0] < layout.margin_x and r[3] <= cap_top + 2 and cap_top - r[3] < 400]
        if len(above) >= 2:
            top = min(r[1] for r in above)
            return [l for l in main if id(l) not in used and top - 2 <= (l.top + l.bottom) / 2 <= cap_top]
    # No rules: the lines that follow, up to a wide gap, a heading-sized line or another caption.
    body, last = [], cap_bottom
    for l in main:
        if l.top < cap_bottom or id(l) in used:
            continue
        if l.top - last > max(l.size * 1.6, 14) or _is_head_like(l) or l.size > layout.body_size * 1.15 \
                or len(body) >= 40:
            break
        body.append(l)
        last = l.bottom
    return body


def _drawing_text(page: Page, main: list[Line], cap: list[Line], used: set[int], layout: Layout) -> list[Line]:
    """Text inside the drawing next to a figure caption (above or below it), never body text.

    The drawing is the cluster of drawn shapes nearest the caption on its side: shapes join it
    while they lie within a line's height of it, so formulas further on (fraction bars, radicals)
    are not taken for part of the figure."""
    def is_body(l: Line) -> bool:
        return id(l) in used or _is_head_like(l) or _equation_label(l, layout) is not None or (
            l.x1 >= layout.right - 4 and l.x0 <= layout.left + 20 and len(l.words) >= 6)
    top, bottom = cap[0].top, cap[-1].bottom
    floor = max([l.bottom for l in main if is_body(l) and l.bottom <= top]
                + [b[3] for b in page.boxes if b[3] <= top] + [0.0])
    ceiling = min([l.top for l in main if is_body(l) and l.top >= bottom]
                  + [b[1] for b in page.boxes if b[1] >= bottom] + [page.height])
    above = [g for g in page.graphics if floor < g[1] and g[3] <= top + 2 and g[0] < layout.margin_x]
    below = [g for g in page.graphics if g[1] >= bottom - 2 and g[3] < ceiling and g[0] < layout.margin_x]
    gap_above = top - max((g[3] for g in above), default=-1e9)
    gap_below = min((g[1] for g in below), default=1e9) - bottom
    art, lo, hi = (above, floor, top) if gap_above <= gap_below else (below, bottom, ceiling)
    if not art:
        return []
    # Grow the drawing from the shape nearest the caption.
    art.sort(key=lambda g: (bottom - g[3]) if g[3] <= top + 2 else (g[1] - bottom))
    y0, y1 = art[0][1], art[0][3]
    grew = True
    cluster = [art[0]]
    rest = art[1:]
    while grew:
        grew = False
        for g in list(rest):
            if g[1] <= y1 + 20 and g[3] >= y0 - 20:
                cluster.append(g)
                rest.remove(g)
                y0, y1 = min(y0, g[1]), max(y1, g[3])
                grew = True
    region = (min(g[0] for g in cluster) - 30, y0 - 12, max(g[2] for g in cluster) + 30, y1 + 12)
    return [l for l in main if id(l) not in used and lo < l.top and l.bottom < hi + 1 and _inside(l, region, pad=2)]


def _ends_with_equation_number(line: Line, layout: Layout) -> bool:
    """A line whose last word is a displayed equation's number (at the right edge)."""
    label = _equation_label(line, layout)
    return label is not None and (len(line.words) == 1 or equation_number(line.words[0].text) != label)


_REFERENCE_LEADS = {"equation", "equations", "eq", "eq.", "eqs", "eqs.", "eqn", "eqn.", "and", "or", "see", "by",
                    "to", "from", "in", "of", "with", "using", "per", "cf.", "also"}


def _is_prose_reference(line: Line, layout: Layout) -> bool:
    """True when a "(12.4)" ending a line is a reference in running text, not an equation number.

    An equation number stands apart: a wide gap before it, or a display line that is indented or
    centred.  A reference sits at an ordinary word gap in a line of words that starts at the
    margin, or follows a word such as "equation" or "see".
    """
    if len(line.words) == 1:
        return False
    number, before = line.words[-1], line.words[-2]
    gap = number.x0 - before.x1
    if before.text.lower() in _REFERENCE_LEADS and gap < 12:
        return True
    words = sum(1 for w in line.words[:-1] if re.fullmatch(r"[A-Za-z][a-z]+[,.;:]?", w.text))
    return gap < 7.0 and line.x0 <= layout.left + 25 and words >= 3


def _equations_in(lines: list[Line], layout: Layout, context: str) -> list[Item]:
    """Numbered equations displayed inside a box or float, as formula entities."""
    out = []
    for i, l in enumerate(lines):
        if _ends_with_equation_number(l, layout):
            number = equation_number(l.words[-1].text)
            content = " ".join(w.text for w in l.words[:-1])
            if not content:  # the number stands alone, centred on a display of several lines
                near = [n for n in lines[max(0, i - 3):i + 4] if n is not l and abs(n.top - l.top) < 24
                        and not _ends_with_equation_number(n, layout)]
                content = "\n".join(n.text for n in near)
            out.append(Item(l.top, "entity", entity={"kind": "formula", "number": number, "title": None,
                                                      "content": content or f"({number})", "context": context}))
    return out


@dataclass
class OutlineHeading:
    """A heading the PDF's bookmarks point at, found on its page."""

    level: int              # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection
    number: str | None      # as printed ("3", "3.1", "A", "II"); None for unnumbered ones (Preface, Index)
    title: str
    page: int
    baseline: float         # the heading line's baseline on its page
    outline_level: int = 0


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


_LEADING_NUMBER = re.compile(r"^(?:(?P<word>chapter|part|appendix|lecture)\s+)?(?P<num>(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+))"
                             r"(?:\.|:)?(?:\s+|$)", re.IGNORECASE)


def _heading_number(line: Line, above: list[Line]) -> tuple[str | None, str | None]:
    """(number, 'part' | 'appendix' | None) printed on a heading line or on a label line right above it
    ("3.1 Title", "Chapter 3" / "3" above the title, "Appendix A", "Part II")."""
    for candidate in [line] + above:
        m = _LEADING_NUMBER.match(candidate.text)
        if not m:
            continue
        word, num = (m.group("word") or "").lower(), m.group("num")
        rest = candidate.text[m.end():].strip()
        if word == "part" or (re.fullmatch(r"[IVXLC]+", num) and word != "chapter" and (not rest or candidate is not line)):
            if word == "part" or candidate is not line:
                return num.upper(), "part"
            continue
        if num.isalpha() and not word and not (candidate is not line and not rest):
            continue  # "A Short Note on Proofs": a word, not an appendix letter
        if candidate is not line and rest and word not in ("chapter", "appendix", "lecture"):
            continue  # a line above that says more than a label is not the heading's number
        return (num.upper() if num.isalpha() else num), ("appendix" if word == "appendix" else None)
    return None, None


def _words_of(text: str) -> list[Word]:
    """Plain words (no positions) for reading a number off a bookmark's title with _heading_number."""
    return [Word(t, 0, 0, 0, 0, 0, False, False) for t in text.split()]


def outline_headings(document: Document) -> dict[int, list[OutlineHeading]]:
    """The bookmarks' headings, placed on their lines: {pdf page: [headings]}.

    Each bookmark's title is looked for on its page, near the height it points at; its number is
    read from that line or from a label right above it ("Chapter 3", a big "3").  An unnumbered
    bookmark whose children are numbered "3.1", "3.2" is chapter 3."""
    found: list[OutlineHeading | None] = []
    for entry in document.outline:
        if not 1 <= entry.page <= len(document.pages):
            found.append(None)
            continue
        page = document.pages[entry.page - 1]
        # Bookmarks often carry the number: "I Probabilistic Reasoning", "2.1 Sets"; the page sets it apart.
        prefix = _LEADING_NUMBER.match(entry.title.strip())
        core = entry.title.strip()[prefix.end():] if prefix and len(entry.title.strip()[prefix.end():]) >= 3 else ""
        title = _norm(core or entry.title)
        if len(title) < 3:
            found.append(None)
            continue
        best, best_key = None, None
        for i, line in enumerate(page.lines):
            text = _norm(line.text)
            if not text or len(text) > len(title) + 16 or re.search(r"(\.\s?){3,}\S*$", line.text):
                continue  # too long for this title, or a contents line ("1.1 Title . . . 3")
            if title[:24] not in text and not (len(text) >= 6 and title.startswith(text[-min(len(text), 24):])):
                continue
            # The heading is the largest such line; among equals, the one nearest where the bookmark points.
            key = (-round(line.size), abs(line.top - entry.top) if entry.top is not None else 0, i)
            if best_key is None or key < best_key:
                best, best_key = i, key
        if best is None:
            found.append(None)
            continue
        line = page.lines[best]
        above = [l for l in page.lines[max(0, best - 2):best] if line.top - l.bottom < line.size * 4]
        number, what = _heading_number(line, list(reversed(above)))
        if number is None and core:
            number, what = _heading_number(Line(_words_of(entry.title.strip()), entry.page), [])
        level = 0 if what == "part" else (number.count(".") + 1 if number else -1)
        found.append(OutlineHeading(min(level, 4), number, (core or entry.title).strip(), entry.page, line.baseline,
                                    entry.level))
    # Unnumbered bookmarks over numbered children: chapter N when the children are N.1, N.2, …
    entries = document.outline
    for i, h in enumerate(found):
        if h is None or h.number:
            continue
        children = []
        for j in range(i + 1, len(entries)):
            if entries[j].level <= entries[i].level:
                break
            if found[j] and found[j].number and entries[j].level == entries[i].level + 1:
                children.append(found[j].number)
        prefixes = {c.rsplit(".", 1)[0] for c in children if "." in c}
        if len(prefixes) == 1:
            h.number = prefixes.pop()
            h.level = h.number.count(".") + 1
    # The outline depth of chapters: unnumbered bookmarks at that depth are unnumbered chapters.
    chapter_depths = Counter(h.outline_level for h in found if h and h.level == 1)
    base = chapter_depths.most_common(1)[0][0] if chapter_depths else 0
    part_depths = {h.outline_level for h in found if h and h.level == 0}
    out: dict[int, list[OutlineHeading]] = defaultdict(list)
    for h in found:
        if h is None:
            continue
        if h.level < 0 and h.outline_level in part_depths and h.outline_level < base:
            # An unnumbered bookmark beside the parts: the appendices' divider is the part "Appendices".
            h.level = 0
            if re.fullmatch(r"(?i)appendi(x|ces)", h.title.strip()):
                h.number = "Appendices"
        elif h.level < 0:
            h.level = max(1, min(4, 1 + h.outline_level - base))
        out[h.page].append(h)
    return dict(out)


EXERCISE_SECTION_RE = re.compile(r"(?i)\b(?:[a-z]+\s+)?(exercises|problems)\b")   # sections whose "1.", "2." items are exercises
END_MARK_RE = re.compile(r"(□|■|∎|◀|◁|⊓⊔|♦|▮|\bQED|\bq\.e\.d\.)\s*$")      # end of a proof or an example


def _is_display(line: Line, layout: Layout) -> bool:
    """A displayed formula or a line set apart: indented well into the column, not a run of prose."""
    if line.x0 < layout.left + layout.body_size * 2:
        return False
    prose = sum(1 for w in line.words if re.fullmatch(r"[A-Za-z][a-z]{2,}[,.;:]?", w.text) and not w.italic)
    return prose < 4 or line.x1 < layout.right - layout.body_size * 4


def _unnumbered_head(line: Line, layout: Layout) -> bool:
    """A run-in head with no number in a face of its own at the column's edge: "Proof.", "Solution."."""
    first = line.words[0]
    if line.x0 > layout.left + layout.body_size * 3 or not re.fullmatch(r"[A-Z][A-Za-z]{2,}\.?", first.text):
        return False
    distinct = first.bold or (first.font != layout.body_font and (first.italic or bool(_CAPS_FONT.search(first.font))))
    if not distinct:
        return False
    words = line.words
    for k in range(min(4, len(words))):
        if words[k].text.endswith((".", ":")):
            return True
        if not (words[k].bold == first.bold and words[k].font == first.font):
            return False
    return False


def _equation_label(line: Line, layout: Layout) -> str | None:
    """The number of a displayed equation on this line: "(5.3)" at the column's right edge (or
    its left edge, for books that number on the left), standing apart from the formula."""
    words = line.words
    last = words[-1]
    number = equation_number(last.text)
    if number is None and len(words) >= 2 and words[-2].text.startswith("("):
        number = equation_number(words[-2].text + words[-1].text)
        last = words[-1] if number is None else Word(words[-2].text + last.text, words[-2].x0, last.x1,
                                                       last.top, last.bottom, last.size, last.bold, last.mono)
    at_edge = last.x1 >= layout.right - 6 or abs(last.x1 - (layout.label_right or layout.right)) <= 3
    if number is not None and at_edge and not _is_prose_reference(line, layout):
        if "." in number or len(words) == 1 or last.x0 - words[-2].x1 > layout.body_size * 1.5:
            return number
        return None
    first = words[0]
    number = equation_number(first.text)
    if number is not None and len(words) >= 2 and first.x0 <= layout.left + 6 \
            and words[1].x0 - first.x1 > layout.body_size * 2 and _is_display(Line(words[1:], line.page), layout):
        return number
    return None


class ChunkBuilder:
    """Walks the items of every page once and emits sections, entity chunks and text chunks."""

    def __init__(self, layout: Layout, printed: PrintedPages, count_tokens, source: str):
        self.layout = layout
        self.printed = printed
        self.count_tokens = count_tokens
        self.source = source
        self.chunks: list[Chunk] = []
        self.sections: list[Section] = []
        self.where: dict[str, tuple[str, str] | None] = {k: None for k in
                                                         ("part", "chapter", "section", "subsection", "subsubsection")}
        self.paragraphs: list[list[Line]] = []    # open text: paragraphs of lines
        self.notes: list[str] = []
        self.block: dict | None = None           # an open run-in entity (theorem, example, exercise …)
        self.exercise_list: dict | None = None   # numbering of an exercise section's "1.", "2.", …
        self.open_tokens = 0                     # model tokens of the open text, counted line by line
        self.recent_text: list[str] = []         # for the context sentence of an equation
        self.pending_chapter: dict | None = None
        self.last_heading: dict | None = None    # the heading just opened, for titles that wrap
        self.seen_entities: set[tuple[str, str]] = set()
        self.duplicates: list[tuple[str, str, int]] = []
        self.wanted: dict[tuple[str, str], set[int]] = {}   # a second look: numbers a gap says were missed
        self.carry: dict | None = None           # a float broken at the page's foot, to go on overleaf
        self.outline: dict[int, list[OutlineHeading]] = {}   # the bookmarks' headings, by PDF page
        self.section_ordinal: Counter = Counter()
        self.page: Page | None = None
        self.bars: dict[int, list] = {}   # each page's thin rules (fraction bars), for displays in the text
        self.displays: dict[frozenset, str] = {}

    # ---- hierarchy
    def _section_id(self, level: int, number: str) -> str:
        prefix = {0: "part", 1: "chapter"}.get(level, "section")
        return f"{prefix}_{number.replace('.', '_')}"

    def open_section(self, level: int, number: str, title: str, line: Line) -> None:
        names = ["part", "chapter", "section", "subsection", "subsubsection"]
        sid = self._section_id(level, number)
        if any(s.id == sid for s in self.sections):
            if self.where[names[level]] and self.where[names[level]][0] == number:
                # The same heading seen twice (its label line, then its bookmark's title line).
                known = next(s for s in self.sections if s.id == sid)
                if title and not known.title:
                    known.title = title
                    self.where[names[level]] = (number, title)
                return
        self.flush_text()
        self.close_block()
        self.exercise_list = {"next": 1} if EXERCISE_SECTION_RE.search(title) else None
        for name in names[level:]:
            self.where[name] = None
        self.where[names[level]] = (number, title)
        parent = None
        for lvl in range(level - 1, -1, -1):
            if self.where[names[lvl]] and self.where[names[lvl]][0]:
                parent = self._section_id(lvl, self.where[names[lvl]][0])
                break
        if any(s.id == sid for s in self.sections):
            return
        page = self.printed.number(line.page)
        self.sections.append(Section(sid, level, number, title, parent, page, line.page, ord=len(self.sections)))

    def open_unnumbered(self, level: int, title: str) -> None:
        """An unnumbered heading (Preface, Bibliography, Index): the text after it belongs to no numbered part."""
        self.flush_text()
        self.close_block()
        self.exercise_list = {"next": 1} if EXERCISE_SECTION_RE.search(title) else None
        names = ["part", "chapter", "section", "subsection", "subsubsection"]
        for name in names[level:]:
            self.where[name] = None
        self.where[names[level]] = (None, title)

    def _location(self) -> dict:
        loc = {}
        for name in ("part", "chapter", "section", "subsection", "subsubsection"):
            value = self.where[name]
            loc[name] = value[0] if value else None
            loc[f"{name}_title"] = value[1] if value else None
        return loc

    # ---- text
    def add_line(self, line: Line) -> None:
        text = line.text
        if self.block is not None:
            if self._block_goes_on(line):
                self.block["lines"].append(line)
                if END_MARK_RE.search(text):
                    self.close_block()
                return
            self.close_block()
        new_para = (not self.paragraphs or line.x0 > self.layout.left + 4
                    or line.top - self.paragraphs[-1][-1].bottom > line.size * 1.1
                    or line.page != self.paragraphs[-1][-1].page and line.x0 > self.layout.left + 4)
        if new_para:
            self.paragraphs.append([line])
        else:
            self.paragraphs[-1].append(line)
        self.open_tokens += self.count_tokens(text) - 2
        self.recent_text.append(text)
        self.recent_text = self.recent_text[-3:]
        if self.open_tokens >= TARGET_CHUNK_TOKENS and len(self.paragraphs) > 1:
            # The new paragraph opens the next chunk, and takes along the lead-ins just before it (a
            # parameter's head "double tol_bnd (default: 1e-7)", a list's "Pricing technique:"), so
            # a unit and what introduces it stay in one chunk.
            carried = [self.paragraphs.pop()]
            while len(self.paragraphs) > 1 and len(carried) <= LEAD_IN_PARAGRAPHS and _is_lead_in(self.paragraphs[-1]):
                carried.insert(0, self.paragraphs.pop())
            self.flush_text()
            self.paragraphs = carried
            self.open_tokens = sum(self.count_tokens(l.text) - 2 for p in carried for l in p)

    def add_note(self, text: str) -> None:
        if self.block is not None:
            self.block["notes"].append(text)
        else:
            self.notes.append(text)
            self.open_tokens += self.count_tokens(text) - 2

    def flush_text(self) -> None:
        if not self.paragraphs:
            if self.notes and self.chunks and self.chunks[-1].kind == "text":
                last = self.chunks[-1]
                last.content += "\n\n" + "\n".join(self.notes)
                if "text" in last.extra:
                    last.extra["text"] += "\n\n" + "\n".join(self.notes)
            self.notes = []
            return
        first = self.paragraphs[0][0]
        plain = "\n\n".join(p for p in (_join_lines(p) for p in self.paragraphs) if p)
        text = "\n\n".join(p for p in self._with_maths(self.paragraphs) if p)
        if self.notes:
            notes = "\n\n" + "\n".join(f"[Side note] {n}" for n in self.notes)
            text, plain = text + notes, plain + notes
        lead_only = all(_is_lead_in(p) for p in self.paragraphs)
        self.paragraphs, self.notes = [], []
        self.open_tokens = 0
        last = self.chunks[-1] if self.chunks else None
        if lead_only and last is not None and last.kind == "text" and \
                all(getattr(last, k) == v for k, v in self._location().items()):
            # Lead-ins whose unit never came (a display or an entity took the next lines): they end
            # the text before them, as they did before they were carried over, not a chunk alone.
            if text != plain or "text" in last.extra:
                last.extra["text"] = (last.extra.get("text") or last.content) + "\n\n" + plain
            last.content += "\n\n" + text
            return
        # pieces within the model's window, cut by the plain text (what is embedded); the LaTeX goes with
        # them when it cuts into as many pieces, else the passage keeps the text layer
        pieces = split_to_budget(plain, self.count_tokens)
        latex = split_to_budget(text, self.count_tokens) if len(pieces) > 1 else [text]
        if len(latex) != len(pieces):
            latex = pieces
        for piece, words in zip(latex, pieces):
            self._emit("text", piece, first.page, extra={"text": words.strip()} if piece != words else None)

    def _display(self, words: list[Word], page: int) -> str:
        """A display's LaTeX, read once: the formula entity and the running text share it."""
        key = frozenset(id(w) for w in words)
        if key not in self.displays:
            self.displays[key] = display_latex(words, self.bars.get(page, []))
        return self.displays[key]

    def _with_maths(self, paragraphs: list[list[Line]]) -> list[str]:
        """Paragraphs with their maths as LaTeX: runs of maths in a line as $…$, a displayed formula
        (consecutive indented lines of maths, one paragraph each) as one $$…$$ with its number after it."""
        def display(p: list[Line]) -> bool:
            return all(l.x0 > self.layout.left + 12 and math_share(l.words) >= 0.6 for l in p)

        groups: list[tuple[bool, list[Line]]] = []

        def goes_on(line: Line) -> bool:   # the next line of the display just above
            last = groups[-1] if groups else None
            return bool(last and last[0] and line.page == last[1][-1].page
                        and line.top - last[1][-1].bottom < self.layout.body_size * 1.6)

        for p in paragraphs:
            if display(p):
                if goes_on(p[0]):
                    groups[-1][1].extend(p)
                else:
                    groups.append((True, list(p)))
                continue
            p = list(p)
            while p and display(p[:1]) and goes_on(p[0]):   # a display's last line (limits) opens the paragraph
                groups[-1][1].append(p.pop(0))
            if p:
                groups.append((False, p))
        out = []
        for shown, lines in groups:
            if not shown:
                out.append(_join_lines(lines, maths=True, bars=self.bars))
                continue
            words, numbers = [], []
            for l in lines:
                for w in l.words:
                    (numbers if equation_number(w.text) and w.text.startswith("(") else words).append(w)
            latex = self._display(words, lines[0].page)
            out.append((f"$${latex}$$" if latex else _join_lines(lines)) + "".join(f" {w.text}" for w in numbers))
        return out

    def _emit(self, kind: str, content: str, pdf_page: int, number: str | None = None,
              title: str | None = None, context: str | None = None, extra: dict | None = None) -> Chunk:
        loc = self._location()
        if kind == "text":
            where = loc["subsubsection"] or loc["subsection"] or loc["section"] or loc["chapter"] or "front"
            self.section_ordinal[where] += 1
            digest = hashlib.sha256(f"{where}|{self.section_ordinal[where]}|{content}".encode()).hexdigest()[:10]
            cid = f"chunk_{where.replace('.', '_')}_{digest}"
        else:
            cid = entity_id(kind, number)
        chunk = Chunk(id=cid, kind=kind, content=content.strip(), page=self.printed.number(pdf_page),
                      page_label=self.printed.labels.get(pdf_page), pdf_page=pdf_page,
                      number=number, title=title, context=context, source=self.source, extra=extra or {}, **loc)
        chunk.ord = len(self.chunks)
        self.chunks.append(chunk)
        return chunk

    # ---- entities
    def add_entity(self, ent: dict, pdf_page: int) -> Chunk | None:
        key = (ent["kind"], ent["number"])
        if not ent["number"]:
            return
        if key in self.seen_entities:
            self.duplicates.append((ent["kind"], ent["number"], pdf_page))
            return  # a repeated caption (continued table) keeps the first
        self.seen_entities.add(key)
        return self._emit(ent["kind"], ent["content"] or ent.get("title") or "", pdf_page, number=ent["number"],
                          title=ent.get("title") or None, context=ent.get("context"), extra=ent.get("extra"))

    def open_block(self, kind: str, number: str, title: str, line: Line, first_words: list, printed: str | None = None,
                   box=None) -> None:
        """Start a run-in entity at its head; the lines that follow belong to it until it ends."""
        self.flush_text()
        self.close_block()
        rest = Line(first_words, line.page) if first_words else None
        italic = bool(first_words) and sum(w.italic for w in first_words) > len(first_words) * 0.6
        self.block = {"kind": kind, "number": number, "title": title, "lines": [rest] if rest else [], "notes": [],
                      "page": line.page, "printed": printed, "italic": italic, "box": box, "head_top": line.top}
        if rest is not None and END_MARK_RE.search(rest.text):
            self.close_block()

    def _block_goes_on(self, line: Line) -> bool:
        """Whether a line continues the open run-in entity.

        It ends at a box's edge (a shaded theorem), where a statement set in italic returns to the
        upright body face, after a wide gap, or at its length limit; heads, headings and end marks
        (checked by the caller) end it too."""
        block = self.block
        lines = [l for l in block["lines"] if l is not None]
        if block["box"] is not None and line.page == block["page"] and not _inside(line, block["box"], pad=3):
            return False
        if block["italic"]:
            prose = [w for w in line.words if w.text.isalpha() and len(w.text) > 2]
            if prose and sum(w.italic for w in prose) < len(prose) * 0.5 and not _is_display(line, self.layout):
                return False
        if lines and line.page == lines[-1].page and line.top - lines[-1].bottom > self.layout.body_size * 3.2 \
                and not _is_display(line, self.layout):
            return False
        if lines and block["box"] is None and _is_display(line, self.layout) and re.search(r"[.!?]$", lines[-1].text) \
                and (len(lines) == 1 or not _is_display(lines[-1], self.layout)):
            return False   # a formula displayed after the statement's last sentence is the text's, not the statement's
        if lines and not block["italic"] and block["box"] is None:
            last = lines[-1]
            leading = self.layout.leading or self.layout.body_size * 1.2
            if line.page == last.page:
                # An environment is set off by extra space after it; displays inside it are too, so a gap
                # next to a display does not end it.
                if line.baseline - last.baseline > leading * 1.45 and not _is_display(line, self.layout) \
                        and not _is_display(last, self.layout):
                    return False
            elif re.search(r"[.!?]$", last.text) and self.layout.left + 4 < line.x0 < self.layout.left + \
                    self.layout.body_size * 3 and len(line.words) >= 4:
                return False   # it ended with its page; an indented new paragraph begins overleaf
        return len(lines) < 120

    def close_block(self) -> None:
        block = self.block
        if block is None:
            return
        self.block = None
        lines = [l for l in block["lines"] if l is not None]
        text = _join_lines(lines)
        if block["kind"] in ("exercise", "problem"):
            text = re.sub(r"\s*\b(Solution:|Answer:|Hint:)", r"\n\1", text)
        if block["notes"]:
            text += "\n" + "\n".join(block["notes"])
        extra = {"printed_number": block["printed"]} if block.get("printed") else None
        self.add_entity({"kind": block["kind"], "number": block["number"], "title": block["title"] or None,
                         "content": text, "extra": extra}, block["page"])

    # ---- the walk
    def feed_page(self, page: Page, items: list[Item]) -> None:
        self.page = page
        self.bars[page.number] = page.bars
        items = self._continued_float(page, items)
        for idx, item in enumerate(items):
            if item.kind == "entity":
                if item.entity["kind"] != "formula":  # a formula sits inside the running text
                    self.flush_text()
                    self.close_block()
                chunk = self.add_entity(item.entity, page.number)
                if chunk is not None and item.entity.get("continues"):
                    self.carry = {"chunk": chunk, "how": item.entity["continues"], "page": page.number}
            elif item.kind == "note":
                self.add_note(item.text)
            else:
                self.feed_line(item.line, items, idx)

    def _continued_float(self, page: Page, items: list[Item]) -> list[Item]:
        """A boxed or ruled float broken at the foot of the previous page: the lines at the head of this
        page that continue it (inside an uncaptioned box at the top, or down to the closing rule) are
        appended to it and leave the text flow."""
        carry, self.carry = self.carry, None
        if carry is None or carry["page"] != page.number - 1:
            return items
        lines = [it for it in items if it.kind == "line"]
        if not lines:
            return items
        if carry["how"] == "box":
            box = next((b for b in sorted(page.boxes, key=lambda b: b[1]) if b[1] < page.height * 0.25), None)
            taken = [it for it in lines if box is not None and _inside(it.line, box)]
        else:
            top = min(it.line.top for it in lines)
            closing = min((r[1] for r in page.rules if r[1] > top and r[0] < self.layout.margin_x), default=None)
            taken = [it for it in lines if closing is not None and it.line.bottom <= closing + 2] \
                if closing is not None and closing < page.height * 0.6 else []
        if not taken:
            return items
        chunk = carry["chunk"]
        body = [it.line for it in taken]
        if body and all(w.mono for l in body for w in l.words):
            more = _code_text(body, min(l.x0 for l in body))
        else:
            more = "\n".join(_join_lines([l]) for l in body)
        chunk.content = f"{chunk.content}\n{more}".strip()
        chunk.extra["continued_on_pdf_page"] = page.number
        ids = {id(it) for it in taken}
        return [it for it in items if id(it) not in ids]

    def feed_line(self, line: Line, items: list[Item], idx: int) -> None:
        text = line.text.strip()
        size = line.size
        body = self.layout.body_size
        # A heading the PDF's bookmarks point at.
        for h in self.outline.get(line.page, ()):
            if abs(h.baseline - line.baseline) < 1.5 and line.size >= body * 0.95:
                self._commit_pending()
                if h.number:
                    self.open_section(h.level, h.number, h.title, line)
                else:
                    self.open_unnumbered(h.level, h.title)
                return
        # Parts and chapters: large type.
        if size >= body * 1.6:
            # A part or chapter opens with its label ("Part II", "Chapter 5", "Appendix A"); the
            # title follows in the same large type, possibly over several lines.
            m = PART_RE.match(text)
            if m:
                self._commit_pending()
                self.pending_chapter = {"level": 0, "number": m.group(1), "title": m.group(2).strip(), "line": line}
                return
            if re.fullmatch(r"(?i)appendi(x|ces)", text):
                self._commit_pending()
                self.open_section(0, "Appendices", "Appendices", line)
                return
            m = CHAPTER_RE.match(text)
            if m:
                self._commit_pending()
                self.pending_chapter = {"level": 1, "number": m.group(1), "title": m.group(2).strip(), "line": line}
                return
            if self.pending_chapter:
                self.pending_chapter["title"] = f"{self.pending_chapter['title']} {text}".strip()
                return
        elif self.pending_chapter:
            self._commit_pending()
        # A heading that wraps: the next line in the same bold type, aligned with the title.
        last = self.last_heading
        if last and line.bold and abs(size - last["size"]) < 0.3 and abs(line.x0 - last["title_x"]) < 3 \
                and line.page == last["page"] and line.top - last["bottom"] < size * 0.8:
            last["section"].title += " " + text
            self.where[last["key"]] = (last["section"].number, last["section"].title)
            last["bottom"] = line.bottom
            return
        self.last_heading = None
        # An unnumbered "Exercises" or "Problems" heading: the "1.", "2." items under it are exercises.
        if (line.bold or size > body * 1.1) and EXERCISE_SECTION_RE.fullmatch(re.sub(r"^[\d.]+\s*", "", text)):
            self.exercise_list = {"next": 1}
        # A top-level heading numbered without a dot ("2 Markov chains"), set large and bold.
        m = re.match(r"^(\d{1,2}|[A-Z])\.?\s+([A-Z]\S*(?:\s+\S+){0,12})$", text)
        if m and line.bold and size > body * 1.15 and not self.outline:
            chapter = self.where["chapter"][0] if self.where["chapter"] else None
            if chapter is None or m.group(1) != chapter:
                self.open_section(1, m.group(1), m.group(2).strip(), line)
                return
        # Numbered headings: bold or larger type, number inside the current chapter.
        m = HEADING_RE.match(text)
        if m and (line.bold or size > body * 1.1) and len(text) < 120:
            number = normalize_number(m.group(1))
            chapter = self.where["chapter"][0] if self.where["chapter"] else None
            if number and (chapter is None or number.split(".")[0] == chapter):
                level = min(4, number.count(".") + 1)
                self.open_section(level, number, m.group(2).strip(), line)
                if self.sections and self.sections[-1].number == number and len(line.words) > 1:
                    self.last_heading = {"section": self.sections[-1], "size": size, "title_x": line.words[1].x0,
                                         "page": line.page, "bottom": line.bottom,
                                         "key": ["part", "chapter", "section", "subsection", "subsubsection"][level]}
                return
        # A numbered run-in head: "Theorem 2.9 Division Algorithm.", "Example 5.2.", "Exercise 3.1."
        head = match_head(line, self.layout.body_font)
        if head and head.kind not in FLOAT_KINDS and (self._starts_block(line, head) or (
                self._missed(head.kind, head.number, line) and line.x0 <= self.layout.left + self.layout.body_size * 3)):
            box = next((b for b in self.page.boxes if _inside(line, b, pad=3)), None)
            self.open_block(head.kind, head.number, head.title, line, line.words[head.head_words:], box=box)
            return
        # An exercise section's list: "1.", "2.", … at the column's left edge, numbered in sequence.
        item = self._exercise_item(line)
        if item:
            number, words = item
            # Stored as chapter.n, the way the book cites them; a chapter's second list restarting at 1
            # (programming exercises after exercises) is told apart by its section's number.
            places = [p for p in (self.where["chapter"], self.where["subsection"] or self.where["section"]) if p and p[0]]
            qualified = [f"{p[0]}.{number}" for p in places] + [str(number)]
            stored = next((q for q in qualified if ("exercise", q) not in self.seen_entities), qualified[0])
            self.open_block("exercise", stored, "", line, words, printed=str(number))
            return
        # An unnumbered run-in head in a face of its own ("Proof.", "Solution.") ends a statement.
        if self.block is not None and self.block["kind"] not in ("exercise", "problem") and _unnumbered_head(line, self.layout):
            self.close_block()
        # Numbered display equations: "(X.Y)" at the right edge of the main column, or at the left edge.
        label = _equation_label(line, self.layout)
        if label is None and self.wanted:
            # A second look for a number the sequence misses: its label a little off the edge.
            last = equation_number(line.words[-1].text)
            if last and self._missed("formula", last, line) and line.words[-1].x1 >= self.layout.right - 30 \
                    and (len(line.words) == 1 or line.words[-2].text.lower().rstrip(".") not in _REFERENCE_LEADS):
                label = last
        if label:
            self.add_equation(line, label, items, idx)
        self.add_line(line)

    def _missed(self, kind: str, number: str, line: Line) -> bool:
        """True on a second look, for a number the first walk missed, on a page where it may stand."""
        return line.page in self.wanted.get((kind, number), ())

    def _starts_block(self, line: Line, head: Head) -> bool:
        """A head in a face of its own opens an entity; a bold one anywhere at a line start, an
        italic or capitals one only where a new paragraph can begin."""
        if not head.distinct or line.x0 > self.layout.left + self.layout.body_size * 3:
            return False
        if line.bold:
            return True
        prev = self.paragraphs[-1][-1] if self.paragraphs else None
        if prev is None or prev.page != line.page:
            return True
        return bool(re.search(r"[.!?:;)]$", prev.text)) or line.top - prev.bottom > line.size * 0.8

    def _exercise_item(self, line: Line):
        """(number, the words after it) when the line starts the next item of an exercise list."""
        state = self.exercise_list
        if state is None or line.x0 > self.layout.left + self.layout.body_size * 2.5:
            return None
        m = re.match(r"^(\d{1,3})[.)]$", line.words[0].text)
        if not m or len(line.words) < 2:
            return None
        number = int(m.group(1))
        if number == state["next"] or (number == 1 and state["next"] > 1 and line.words[0].bold):
            state["next"] = number + 1
            return number, line.words[1:]
        return None

    def _commit_pending(self) -> None:
        pc, self.pending_chapter = self.pending_chapter, None
        if pc:
            self.open_section(pc["level"], pc["number"], pc["title"].strip(), pc["line"])

    def add_equation(self, line: Line, number: str, items: list[Item], idx: int) -> None:
        """A formula entity: the display's lines (number removed) and the sentence before it."""
        display = [line]
        body = self.layout.body_size
        alone = len(line.words) == 1   # the number dropped below a display as wide as the column

        def is_display(l: Line) -> bool:
            share = math_share(l.words)
            # a display as wide as the column: mostly maths, and no two words of prose in a row
            return (l.x0 > self.layout.left + 12 or alone and share >= 0.6 and (
                not _prose_pair(l.words) or any(c in "=≤≥<>∝∼≈≡" for w in l.words for c in w.text))) \
                and share >= 0.4 \
                and _equation_label(l, self.layout) is None
        j = idx - 1
        while j >= 0 and items[j].kind == "line" and is_display(items[j].line) \
                and display[0].top - items[j].line.bottom < body * 1.6 and len(display) < 12:
            display.insert(0, items[j].line)
            j -= 1
        j = idx + 1
        while j < len(items) and items[j].kind == "line" and is_display(items[j].line) \
                and items[j].line.top - display[-1].bottom < body * 1.6 and len(display) < 12:
            display.append(items[j].line)
            j += 1
        parts = []
        glyphs: list[Word] = []
        for l in display:
            words = l.words
            if l is line:   # the number itself, at the right edge (or the left, for books numbered on the left)
                words = words[1:] if equation_number(words[0].text) == number and len(words) > 1 else \
                    [w for w in words if equation_number(w.text) != number and not w.text.startswith("(")] \
                    if equation_number(words[-1].text) is None else words[:-1]
            parts.append(" ".join(w.text for w in words))
            glyphs.extend(words)
        equation = "\n".join(p for p in parts if p)
        before = " ".join(_join_lines(p) for p in self.paragraphs[-1:]) if self.paragraphs else ""
        sentences = re.split(r"(?<=[.!?])\s+", before.strip())
        context = sentences[-1] if sentences and sentences[-1] else None
        key = ("formula", number)
        if key in self.seen_entities:
            return
        self.seen_entities.add(key)
        latex = self._display(glyphs, line.page)
        chunk = self._emit("formula", latex or equation, line.page, number=number, title=None, context=context,
                           extra={"text": equation} if latex else None)
        # A formula chunk sits inside the flow of text: keep it after the open text in reading order.
        chunk.extra["in_text"] = True

    def finish(self) -> None:
        self._commit_pending()
        self.flush_text()
        self.close_block()


@dataclass
class Reading:
    """What the reader made of a PDF: chunks in reading order, sections, and what it checked."""

    chunks: list[Chunk]
    sections: list[Section]
    printed: PrintedPages
    duplicates: list[tuple[str, str, int]]      # (kind, number, pdf page) of repeated heads (the first is kept)
    recovered: list[tuple[str, str, int]]       # entities found on the second look, where the sequence had a gap
    layout: Layout
    pages: int = 0
    seconds: dict = field(default_factory=dict)  # {"read": s, "structure": s}


def read_book(path: Path, count_tokens, workers: int | None = None) -> Reading:
    """A PDF read and structured: read_pdf then structure, timed."""
    import time

    started = time.perf_counter()
    document = read_pdf(path, workers)
    read = time.perf_counter()
    reading = structure(document, count_tokens, path.name)
    reading.pages = len(document.pages)
    reading.seconds = {"read": round(read - started, 3), "structure": round(time.perf_counter() - read, 3)}
    return reading


def structure(document: Document, count_tokens, source: str) -> Reading:
    """All pages -> chunks in reading order and sections, then a second look where numbering has gaps.

    Numbering is a sequence: after the first walk, each kind's gaps name the numbers the reader
    missed, and the pages between their neighbours (and the named destinations that point at
    them) say where to look.  The walk runs again accepting, for those numbers on those pages
    only, a head in the body face or an equation number a little off the column's edge."""
    pages = document.pages
    folios = drop_running_lines(pages)
    printed = printed_pages(pages, folios, {p.number: p.label for p in pages if p.label} if document.labelled else None)
    drop_folio_lines(pages, printed)
    layouts = detect_layout(pages)
    contents = {p.number for p in pages if _is_contents_page(p)}
    outline = outline_headings(document)
    builder = _walk(pages, layouts, printed, count_tokens, source, contents, {}, outline)
    wanted = _second_look(builder.chunks, document)
    recovered: list[tuple[str, str, int]] = []
    if wanted:
        again = _walk(pages, layouts, printed, count_tokens, source, contents, wanted, outline)
        before = {(c.kind, c.number) for c in builder.chunks if c.kind != "text"}
        recovered = [(c.kind, c.number, c.pdf_page) for c in again.chunks
                     if c.kind != "text" and (c.kind, c.number) not in before]
        if recovered:
            builder = again
    chunks = builder.chunks
    # Formulas were emitted before the text they sit in; reading order is by page then emission.
    for i, c in enumerate(chunks):
        c.ord = i
    # Section page ends and short contents.
    by_section = defaultdict(list)
    for c in chunks:
        for key in ("part", "chapter", "section", "subsection", "subsubsection"):
            value = getattr(c, key)
            if value:
                by_section[(key, value)].append(c)
    level_key = {0: "part", 1: "chapter", 2: "section", 3: "subsection", 4: "subsubsection"}
    for s in builder.sections:
        members = by_section.get((level_key[s.level], s.number), [])
        s.page_end = max([c.page for c in members if c.page is not None], default=s.page_start)
        first_text = next((c.content for c in members if c.kind == "text"), "")
        s.content = f"{s.number} {s.title}\n\n{first_text[:600]}".strip()
    return Reading(chunks, builder.sections, printed, builder.duplicates, recovered, layouts[1])


def _walk(pages: list[Page], layouts: dict[int, Layout], printed: PrintedPages, count_tokens, source: str,
          skip: set[int], wanted: dict, outline: dict) -> "ChunkBuilder":
    builder = ChunkBuilder(layouts[1], printed, count_tokens, source)
    builder.wanted = wanted
    builder.outline = outline
    for page in pages:
        if page.number in skip:
            continue
        builder.layout = layouts[page.number % 2]
        builder.feed_page(page, page_items(page, builder.layout, wanted))
    builder.finish()
    return builder


LEAD_IN_PARAGRAPHS = 2   # at most this many lead-in paragraphs move with the paragraph they introduce


def _is_lead_in(paragraph: list) -> bool:
    """A short paragraph that introduces what follows: it ends with a colon, or it is one or two
    lines with no closing punctuation at all (a parameter's head, a term being defined)."""
    text = " ".join(l.text for l in paragraph).strip()
    if not text or len(paragraph) > 2 or len(text) > 160:
        return False
    words = re.findall(r"[^\W\d_]{3,}", text)
    if not words or sum(map(len, words)) < len(text.replace(" ", "")) / 2:
        return False   # a line of a display (symbols, numbers), not words that introduce
    return text.endswith(":") or text[-1] not in ".;,!?"


def _second_look(chunks: list[Chunk], document: Document) -> dict[tuple[str, str], set[int]]:
    """{(kind, number): PDF pages to look at again} for every number missing from a kind's sequence."""
    numbers: dict[str, dict[str, int]] = defaultdict(dict)
    for c in chunks:
        if c.kind != "text" and c.number and not c.extra.get("printed_number"):
            numbers[c.kind].setdefault(c.number, c.pdf_page)
    gaps = numbering_gaps({kind: set(found) for kind, found in numbers.items()})
    anchors: dict[tuple[str, str], set[int]] = defaultdict(set)
    for anchor in document.anchors:
        word, _, rest = anchor.name.partition(".")
        kind = entity_kind(word)
        number = normalize_number(rest) if kind and rest else None
        if number:
            anchors[(kind, number)].add(anchor.page)
    wanted: dict[tuple[str, str], set[int]] = {}
    for kind, missing in gaps.items():
        found = sorted(((_number_key(n), p) for n, p in numbers[kind].items()))
        for number in missing[:500]:
            key = _number_key(number)
            before = max((p for k, p in found if k < key), default=1)
            after = min((p for k, p in found if k > key), default=before)
            pages = set(range(min(before, after), max(before, after) + 1)) if after - before <= 40 else set()
            wanted[(kind, number)] = pages | anchors.get((kind, number), set())
    return {k: v for k, v in wanted.items() if v}


def _number_key(number: str):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|[A-Za-z]+", number)]


def _is_contents_page(page: Page) -> bool:
    """A table of contents or a list of figures: most lines are words ending in a page number,
    the numbers rising down the page (often after leader dots); its "Figure 3.2 …" lines list
    captions, they define nothing."""
    lines = [l for l in page.lines if len(l.words) >= 2]
    if len(lines) < 6:
        return False
    entries = [l for l in lines if re.fullmatch(r"\d{1,4}|[ivxlc]{1,6}", l.words[-1].text)
               and any(re.fullmatch(r"[A-Za-z][a-z]{2,}\W?", w.text) for w in l.words[:-1])]
    if len(entries) < len(lines) * 0.6:
        return False
    numbers = [int(l.words[-1].text) for l in entries if l.words[-1].text.isdigit()]
    rising = sum(1 for a, b in zip(numbers, numbers[1:]) if b >= a)
    return len(numbers) < 2 or rising >= 0.8 * (len(numbers) - 1)
