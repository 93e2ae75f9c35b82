"""build_db.py: turn a textbook PDF into knowledge.sqlite, the file rag.py serves.

    python build_db.py book.pdf --output knowledge.sqlite

Stages, each a function below: read (PDF pages with layout) -> structure (running heads
dropped, margin column, headings) -> entities and chunks -> references (the edge graph) ->
embed (batched) -> write a temporary file -> verify -> atomic rename.  An interrupted or
failed build never touches the existing output file.  Imports the one embedder, the schema
version and the id rules from rag.py; the PDF library is only needed here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from rag import (
    DEFAULT_MODEL_DIR, SCHEMA_VERSION, ConfigError, Embedder, entity_id, load_spellfix,
    normalize_kind, normalize_number,
)

BUILDER_VERSION = "0.1.0"
MAX_CHUNK_TOKENS = 256      # the model truncates beyond this, so no chunk is longer
TARGET_CHUNK_TOKENS = 180   # text chunks aim here and close at the next paragraph end
EMBED_BATCH = 1             # one text per run: int8 activation scales depend on the batch, and queries run alone
RELATED_PER_ENTITY = 3


class BuildError(Exception):
    """A build that cannot go on; the message is one actionable line."""


# --------------------------------------------------------------------------- read
"""Read: PDF pages as lines of words with positions, fonts, gray boxes and rules."""


@dataclass
class Word:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    mono: bool


@dataclass
class Line:
    words: list[Word]
    page: int = 0          # 1-based PDF page

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def size(self) -> float:
        sizes = [w.size for w in self.words if len(w.text) > 1] or [w.size for w in self.words]
        return statistics.median(sizes)

    @property
    def bold(self) -> bool:
        return self.words[0].bold


@dataclass
class Page:
    number: int            # 1-based PDF page
    label: str | None      # printed page label, when the PDF has labels
    width: float
    height: float
    lines: list[Line]
    boxes: list[tuple[float, float, float, float]]   # gray filled boxes (x0, top, x1, bottom)
    rules: list[tuple[float, float, float, float]]   # thin horizontal rules (tables)
    graphics: list[tuple[float, float, float, float]]  # drawn paths and images
    rotated: bool = False  # printed sideways; read in its own frame, no margin column


# Glyphs of TeX's math extension font that extract as letters.
_MATH_EXTENSION = {"X": "∑", "P": "∑", "Y": "∏", "Q": "∏", "Z": "∫", "R": "∫"}


def read_pdf(path: Path) -> list[Page]:
    """Every page as positioned lines; raises BuildError for unreadable or encrypted files."""
    try:
        import pdfplumber
        from pypdf import PdfReader
    except ImportError:
        raise BuildError("the PDF libraries are missing: pip install -e '.[build]'") from None
    import logging

    # The PDF libraries log every repair they make; our one-line error says what matters.
    for name in ("pypdf", "pdfminer", "pdfplumber"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            raise BuildError(f"{path} is encrypted; decrypt it first (e.g. qpdf --decrypt)")
        labels = list(reader.page_labels)
    except BuildError:
        raise
    except Exception as exc:
        raise BuildError(f"{path} is not a readable PDF ({type(exc).__name__}: {str(exc)[:120]})") from None
    pages = []
    try:
        pdf = pdfplumber.open(str(path))
    except Exception as exc:
        raise BuildError(f"{path} is not a readable PDF ({type(exc).__name__})") from None
    with pdf:
        for index, page in enumerate(pdf.pages, start=1):
            words = []
            turn = _page_rotation(page)
            if turn:
                # A page printed sideways: read it in its own frame (words, rules and drawings turned).
                # Turned glyphs report sizes that differ by rounding, so words are grouped without them.
                size = statistics.median(c["size"] for c in page.chars if not c.get("upright", True))
                raw = page.extract_words(x_tolerance=1.5, y_tolerance=2,
                                         char_dir_rotated="btt" if turn == 90 else "ttb",
                                         line_dir_rotated="ltr" if turn == 90 else "rtl")
                raw = [{**w, **_turn_box(w, turn, page), "size": size, "fontname": ""}
                       for w in raw if not w.get("upright", True)]
            else:
                raw = page.extract_words(x_tolerance=1.5, y_tolerance=2, extra_attrs=["size", "fontname"])
            for w in raw:
                font = w["fontname"]
                # NFKC undoes ligatures; "(cid:N)" marks a glyph with no Unicode mapping.
                text = re.sub(r"\(cid:\d+\)", "", unicodedata.normalize("NFKC", w["text"]))
                if not text:
                    continue
                if "Extension" in font or "CMEX" in font.upper():
                    text = "".join(_MATH_EXTENSION.get(ch, ch) for ch in text)
                words.append(Word(text, w["x0"], w["x1"], w["top"], w["bottom"], round(w["size"], 1),
                                  bool(re.search(r"Bold|-Bd|BX|Semibold|Heavy|Black", font, re.I)),
                                  bool(re.search(r"Mono|Courier|TT|Typewriter|Code", font))))
            boxes, rules, graphics = [], [], []
            for r in page.rects:
                box = (r["x0"], r["top"], r["x1"], r["bottom"])
                color = r.get("non_stroking_color")
                gray = color[0] if isinstance(color, (list, tuple)) and len(color) == 1 else color
                if r["bottom"] - r["top"] < 1.6 and r["x1"] - r["x0"] > 20:
                    rules.append(box)
                elif r.get("fill") and isinstance(gray, (int, float)) and 0.75 < gray < 0.99 \
                        and r["x1"] - r["x0"] > 100 and box not in boxes:
                    boxes.append(box)
                else:
                    graphics.append(box)
            for obj in page.lines:
                box = (obj["x0"], obj["top"], obj["x1"], obj["bottom"])
                # Horizontal strokes may be table rules (booktabs) or parts of a drawing: keep both views.
                if obj["bottom"] - obj["top"] < 1.6 and obj["x1"] - obj["x0"] > 20:
                    rules.append(box)
                graphics.append(box)
            for obj in list(page.curves) + list(page.images):
                graphics.append((obj["x0"], obj["top"], obj["x1"], obj["bottom"]))
            if turn:
                def turned(box):
                    t = _turn_box({"x0": box[0], "top": box[1], "x1": box[2], "bottom": box[3]}, turn, page)
                    return (t["x0"], t["top"], t["x1"], t["bottom"])
                graphics = [turned(b) for b in graphics + boxes + rules]
                rules = [b for b in graphics if b[3] - b[1] < 1.6 and b[2] - b[0] > 20]
                boxes = []
            label = labels[index - 1] if index - 1 < len(labels) else None
            width, height = (page.height, page.width) if turn else (page.width, page.height)
            pages.append(Page(index, label, float(width), float(height), group_lines(words, index), boxes,
                              rules, graphics, rotated=bool(turn)))
    if not pages:
        raise BuildError(f"{path} has no pages")
    return pages


def _page_rotation(page) -> int:
    """90 or 270 when most of a page's text runs vertically (a table printed sideways), else 0."""
    chars = page.chars
    sideways = [c for c in chars if not c.get("upright", True)]
    if not chars or len(sideways) * 2 < len(chars):
        return 0
    up = sum(1 for c in sideways if (c.get("matrix") or (0, 1))[1] > 0)
    return 90 if up * 2 >= len(sideways) else 270


def _turn_box(obj: dict, turn: int, page) -> dict:
    """A box in page coordinates -> the same box in the reading frame of a sideways page."""
    if turn == 90:   # text runs bottom to top; lines advance left to right
        return {"x0": page.height - obj["bottom"], "x1": page.height - obj["top"],
                "top": obj["x0"], "bottom": obj["x1"]}
    return {"x0": obj["top"], "x1": obj["bottom"],   # text runs top to bottom; lines advance right to left
            "top": page.width - obj["x1"], "bottom": page.width - obj["x0"]}


def group_lines(words: list[Word], page: int) -> list[Line]:
    """Words into visual lines: a word joins the line whose baseline band it overlaps."""
    lines: list[Line] = []
    bases: list[float] = []   # baseline (bottom of full-size words) of each line
    # Full-size words first, so that sub- and superscripts find the line they belong to.
    ordered = sorted(words, key=lambda w: (-w.size, round(w.bottom), w.x0))
    for w in ordered:
        mid = (w.top + w.bottom) / 2
        for i in range(len(lines) - 1, -1, -1):
            line = lines[i]
            near = line.words[0].x0 - 12 <= w.x0 <= max(x.x1 for x in line.words) + 12
            if abs(bases[i] - w.bottom) < 2.5 or (w.size < line.words[0].size * 0.85 and near
                                                   and line.top - 3 <= mid <= bases[i] + 3):
                line.words.append(w)
                break
        else:
            lines.append(Line([w], page))
            bases.append(w.bottom)
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    lines.sort(key=lambda l: (round(l.bottom), l.x0))
    return lines


# --------------------------------------------------------------------------- structure
"""Structure: running heads dropped, printed pages, the margin column, headings."""


@dataclass
class Layout:
    left: float          # left edge of the main column
    right: float         # right edge of the main column
    margin_x: float      # words starting right of this are margin-column text
    body_size: float


def _shape(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlc]+\b", "#", text.lower()).strip()


def drop_running_lines(pages: list[Page]) -> dict[int, int]:
    """Remove running headers/footers in place; return detected folios {pdf page: printed}."""
    folios: dict[int, int] = {}
    band_counts: Counter = Counter()
    for page in pages:
        for line in page.lines:
            if line.top < page.height * 0.10 or line.top > page.height * 0.92:
                band_counts[_shape(line.text)] += 1
    threshold = 3 if len(pages) >= 6 else 2
    for page in pages:
        kept = []
        for line in page.lines:
            in_band = line.top < page.height * 0.10 or line.top > page.height * 0.92
            if in_band:
                digits = [w.text for w in line.words if w.text.isdigit()]
                if re.fullmatch(r"\d{1,4}", line.text.strip()):
                    folios[page.number] = int(line.text.strip())
                    continue
                if band_counts[_shape(line.text)] >= threshold:
                    edge = [w for w in (line.words[0], line.words[-1]) if w.text.isdigit()]
                    if edge:
                        folios[page.number] = int(edge[0].text)
                    elif digits and len(digits) == 1:
                        folios[page.number] = int(digits[0])
                    continue
            kept.append(line)
        page.lines = kept
    return folios


def printed_pages(pages: list[Page], folios: dict[int, int]) -> dict[int, int]:
    """Printed page per PDF page: arabic page labels, else detected folios, else the index."""
    out = {}
    labelled = sum(1 for p in pages if p.label and p.label.isdigit())
    offsets = Counter(p.number - n for p_num, n in folios.items() for p in pages if p.number == p_num)
    offset = offsets.most_common(1)[0][0] if offsets else 0
    for page in pages:
        if labelled >= len(pages) // 2 and page.label and page.label.isdigit():
            out[page.number] = int(page.label)
        elif labelled >= len(pages) // 2:
            out[page.number] = page.number  # front matter (roman labels): the PDF index
        elif folios:
            out[page.number] = page.number - offset
        else:
            out[page.number] = page.number
    return out


def detect_layout(pages: list[Page]) -> dict[int, Layout]:
    """Main column edges and margin column per page parity (two-sided books shift the text block).

    The left edge is where most long lines start; the right edge is the most common end of
    long lines (justified text ends there); words starting right of it are margin text.
    Returns {0: layout of even pages, 1: layout of odd pages}.
    """
    sizes: Counter = Counter()
    for page in pages:
        for line in page.lines:
            for w in line.words:
                sizes[w.size] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    layouts = {parity: _column_edges([p for p in pages if p.number % 2 == parity and not p.rotated], body)
               for parity in (0, 1)}
    every = _column_edges([p for p in pages if not p.rotated], body)
    for parity, found in layouts.items():
        # A parity with too few pages to tell (a short document) takes the whole document's edges.
        if found is None:
            layouts[parity] = every or Layout(left=72, right=pages[0].width * 0.8,
                                              margin_x=pages[0].width * 0.8 + 6, body_size=body)
    return layouts


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

CAPTION_RE = re.compile(
    r"^(Algorithm|Example|Table|Figure|Fig\.|Exercise)\s+((?:[A-Z]|\d+)(?:\.\d+)*)([.:])?(?:\s+|$)(.*)$")
EQ_NUMBER_RE = re.compile(r"^\(((?:[A-Z]|\d+)\.\d+[a-z]?)\)$")
HEADING_RE = re.compile(r"^((?:[A-Z]|\d+)(?:\.\d+){1,3})\.?\s+(\S.*)$")
CHAPTER_RE = re.compile(r"^(?:Chapter|CHAPTER|Appendix|APPENDIX)\s+([A-Z]|\d+)\s*[.:]?\s*(.*)$")
PART_RE = re.compile(r"^(?:Part|PART)\s+([IVX]+)\b\s*[.:]?\s*(.*)$")


@dataclass
class Chunk:
    """A chunk as the builder makes it; written to the chunks table."""

    id: str
    kind: str
    content: str
    page: int
    pdf_page: int
    number: str | None = None
    title: str | None = None
    context: str | None = None
    part: str | None = None
    part_title: str | None = None
    chapter: str | None = None
    chapter_title: str | None = None
    section: str | None = None
    section_title: str | None = None
    subsection: str | None = None
    subsection_title: str | None = None
    subsubsection: str | None = None
    subsubsection_title: str | None = None
    source: str | None = None
    extra: dict = field(default_factory=dict)
    ord: int = 0


@dataclass
class Section:
    id: str
    level: int               # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection
    number: str
    title: str
    parent_id: str | None
    page_start: int
    pdf_page_start: int
    page_end: int = 0
    content: str = ""
    ord: int = 0


@dataclass
class Item:
    """One thing on a page in reading order: a line of text or a finished entity."""

    top: float
    kind: str                 # "line", "entity", "note"
    line: Line | None = None
    entity: dict | None = None
    text: str = ""


def _join_lines(lines: Iterable[Line]) -> str:
    """Text of consecutive lines with end-of-line hyphenation undone."""
    out = ""
    for line in lines:
        text = line.text.strip()
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


def _inside(line: Line, box: tuple[float, float, float, float], pad: float = 1.0) -> bool:
    mid = (line.top + line.bottom) / 2
    return box[1] - pad <= mid <= box[3] + pad and line.x0 >= box[0] - pad and line.x1 <= box[2] + pad


def page_items(page: Page, layout: Layout) -> list[Item]:
    """A page's items in reading order: main-column lines, entities, margin notes."""
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

    # Margin column: blocks of lines; a caption starts a new block.
    blocks: list[list[Line]] = []
    for line in margin:
        starts_caption = bool(CAPTION_RE.match(line.text)) and line.bold
        starts_note = bool(re.match(r"^\d+\s", line.text)) and line.words[0].size < line.size
        if not blocks or starts_caption or starts_note or line.top - blocks[-1][-1].bottom > line.size * 1.2:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    captions, notes = [], []
    for block in blocks:
        text = _join_lines(block)
        m = CAPTION_RE.match(text)
        if m and block[0].bold:
            captions.append({"kind": normalize_kind(m.group(1)), "number": normalize_number(m.group(2)),
                             "title": m.group(4).strip(), "top": block[0].top, "bottom": block[-1].bottom,
                             "used": False})
        else:
            notes.append(Item(block[0].top, "note", text=text))

    items: list[Item] = []
    used: set[int] = set()
    # Gray boxes: algorithms and examples (caption in the margin beside them).
    for box in sorted(page.boxes, key=lambda b: b[1]):
        inside = [l for l in main if _inside(l, box)]
        if not inside:
            continue
        cap = min((c for c in captions if not c["used"] and c["kind"] in ("algorithm", "example")
                   and box[1] - 40 <= c["top"] <= box[3]), key=lambda c: abs(c["top"] - box[1]), default=None)
        if cap is None:
            continue  # an uncaptioned box stays ordinary text
        cap["used"] = True
        used.update(id(l) for l in inside)
        items.extend(_equations_in(inside, layout, context=f"{cap['kind'].capitalize()} {cap['number']}. {cap['title']}"))
        if cap["kind"] == "algorithm" and all(w.mono for l in inside for w in l.words):
            content = _code_text(inside, min(l.x0 for l in inside))
        else:
            content = "\n".join(_join_lines([l]) for l in inside if not _ends_with_equation_number(l, layout))
        items.append(Item(box[1], "entity", entity={**cap, "content": content}))
    # Tables: margin caption with the rule-bounded tabular beside or below it.
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
        rows = "\n".join(" | ".join(w.text for w in l.words) for l in content_lines)
        items.append(Item(cap["top"], "entity", entity={**cap, "content": rows}))
    # Captions still unused (e.g. a margin "Example" without a box) are kept as notes.
    for cap in captions:
        if not cap["used"]:
            label = f"{cap['kind'].capitalize()} {cap['number']}. {cap['title']}"
            notes.append(Item(cap["top"], "note", text=label))
    # Captions in the main column: "Algorithm 3 Title" (bold), "Figure 2.1." (bold), "Figure 2.1:",
    # "Table 4.2:" — with the algorithm's body, the table's rows, or the text inside the drawing.
    for i, line in enumerate(main):
        if id(line) in used:
            continue
        m = CAPTION_RE.match(line.text)
        kind = normalize_kind(m.group(1)) if m else None
        if kind not in ("algorithm", "figure", "table") or not (line.bold or m.group(3) == ":"):
            continue
        if kind in ("figure", "table") and "." not in m.group(2) and not line.bold:
            continue
        if not line.bold and i > 0 and _continues_paragraph(main[i - 1], line, layout):
            continue  # "… as Figure 2.1: shows" inside running text is a reference, not a caption
        cap_lines = _caption_lines(main, i, used, page.rules)
        used.update(id(l) for l in cap_lines)
        title = CAPTION_RE.match(_join_lines(cap_lines)).group(4).strip()
        number = normalize_number(m.group(2))
        if kind == "algorithm":
            body = _ruled_body(page, main, cap_lines, used, layout, below_only=True)
            used.update(id(l) for l in body)
            items.extend(_equations_in(body, layout, context=f"Algorithm {number}. {title}"))
            content = "\n".join(l.text for l in body if not _ends_with_equation_number(l, layout))
            items.append(Item(line.top, "entity", entity={"kind": kind, "number": number, "title": title,
                                                           "content": content or title}))
        elif kind == "table":
            body = _ruled_body(page, main, cap_lines, used, layout, below_only=False)
            used.update(id(l) for l in body)
            rows = "\n".join(" | ".join(w.text for w in l.words) for l in body)
            items.append(Item(line.top, "entity", entity={"kind": kind, "number": number, "title": title,
                                                           "content": f"{title}\n{rows}".strip()}))
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


def _continues_paragraph(above: Line, line: Line, layout: Layout) -> bool:
    """True when line reads on from a justified line right above it at ordinary line spacing."""
    return above.x1 >= layout.right - 4 and line.top - above.bottom < line.size * 0.5 and \
        abs(line.x0 - layout.left) < 4 and len(above.words) >= 6


def _caption_lines(main: list[Line], i: int, used: set[int], rules: list = ()) -> list[Line]:
    """A caption line and the lines its text wraps onto (same type size, tight spacing, no rule between)."""
    lines = [main[i]]
    for nxt in main[i + 1:]:
        gap = nxt.top - lines[-1].bottom
        ruled = any(lines[-1].bottom - 1 <= r[1] <= nxt.top + 1 for r in rules)
        if id(nxt) in used or gap > nxt.size * 0.6 or abs(nxt.size - lines[0].size) > 0.5 \
                or CAPTION_RE.match(nxt.text) or ruled:
            break
        lines.append(nxt)
        if len(lines) >= 6:
            break
    return lines


def _ruled_body(page: Page, main: list[Line], cap: list[Line], used: set[int], layout: Layout,
                below_only: bool) -> list[Line]:
    """The lines of a float bounded by horizontal rules next to its caption (algorithm, table)."""
    cap_top, cap_bottom = cap[0].top, cap[-1].bottom
    rules = sorted(r for r in page.rules if r[0] < layout.margin_x and r[1] >= cap_bottom - 2)
    below = [r for r in rules if r[1] - cap_bottom < 60]
    if below:
        first = below[0]
        same = [r for r in rules if abs(r[0] - first[0]) < 4 and abs(r[2] - first[2]) < 4 and r[1] > first[1] + 4]
        # The float ends at the next rule of the same width, or (tables: top, mid and bottom
        # rules) at the last one before another caption starts.
        end = first[1]
        for r in same:
            between = [l for l in main if end < l.top < r[1] and CAPTION_RE.match(l.text)
                       and (l.bold or ":" in l.text.split()[1][-1:])]
            if between:
                break
            end = r[1]
            if below_only:
                break
        if end > first[1]:
            return [l for l in main if id(l) not in used and first[1] - 2 <= (l.top + l.bottom) / 2 <= end + 2]
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
        if l.top - last > max(l.size * 1.6, 14) or CAPTION_RE.match(l.text) or l.size > layout.body_size * 1.15 \
                or len(body) >= 40:
            break
        body.append(l)
        last = l.bottom
    return body


def _drawing_text(page: Page, main: list[Line], cap: list[Line], used: set[int], layout: Layout) -> list[Line]:
    """Text inside the drawing next to a figure caption (above or below it), never body text."""
    def is_body(l: Line) -> bool:
        return id(l) in used or bool(CAPTION_RE.match(l.text)) or (
            l.x1 >= layout.right - 4 and l.x0 <= layout.left + 20 and (
                len(l.words) >= 6 or bool(EQ_NUMBER_RE.match(l.words[-1].text))))
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
    region = (min(g[0] for g in art) - 30, min(g[1] for g in art) - 12, max(g[2] for g in art) + 30,
              max(g[3] for g in art) + 12)
    return [l for l in main if id(l) not in used and lo < l.top and l.bottom < hi + 1 and _inside(l, region, pad=2)]


def _ends_with_equation_number(line: Line, layout: Layout) -> bool:
    return (bool(EQ_NUMBER_RE.match(line.words[-1].text)) and line.words[-1].x1 >= layout.right - 6
            and not _is_prose_reference(line, layout))


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
            number = normalize_number(EQ_NUMBER_RE.match(l.words[-1].text).group(1))
            content = " ".join(w.text for w in l.words[:-1])
            if not content:  # the number stands alone, centred on a display of several lines
                near = [n for n in lines[max(0, i - 3):i + 4] if n is not l and abs(n.top - l.top) < 24
                        and not _ends_with_equation_number(n, layout)]
                content = "\n".join(n.text for n in near)
            out.append(Item(l.top, "entity", entity={"kind": "formula", "number": number, "title": None,
                                                      "content": content or f"({number})", "context": context}))
    return out


class ChunkBuilder:
    """Walks the items of every page once and emits sections, entity chunks and text chunks."""

    def __init__(self, layout: Layout, printed: dict[int, int], count_tokens, source: str):
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
        self.exercise: dict | None = None
        self.recent_text: list[str] = []         # for the context sentence of an equation
        self.pending_chapter: dict | None = None
        self.last_heading: dict | None = None    # the heading just opened, for titles that wrap
        self.seen_entities: set[tuple[str, str]] = set()
        self.section_ordinal: Counter = Counter()

    # ---- hierarchy
    def _section_id(self, level: int, number: str) -> str:
        prefix = {0: "part", 1: "chapter"}.get(level, "section")
        return f"{prefix}_{number.replace('.', '_')}"

    def open_section(self, level: int, number: str, title: str, line: Line) -> None:
        self.flush_text()
        self.close_exercise()
        names = ["part", "chapter", "section", "subsection", "subsubsection"]
        for name in names[level:]:
            self.where[name] = None
        self.where[names[level]] = (number, title)
        parent = None
        for lvl in range(level - 1, -1, -1):
            if self.where[names[lvl]]:
                parent = self._section_id(lvl, self.where[names[lvl]][0])
                break
        sid = self._section_id(level, number)
        if any(s.id == sid for s in self.sections):
            return
        page = self.printed[line.page]
        self.sections.append(Section(sid, level, number, title, parent, page, line.page, ord=len(self.sections)))

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
        if self.exercise is not None:
            self.exercise["lines"].append(line)
            return
        new_para = (not self.paragraphs or line.x0 > self.layout.left + 4
                    or line.top - self.paragraphs[-1][-1].bottom > line.size * 1.1
                    or line.page != self.paragraphs[-1][-1].page and line.x0 > self.layout.left + 4)
        if new_para:
            self.paragraphs.append([line])
        else:
            self.paragraphs[-1].append(line)
        self.recent_text.append(text)
        self.recent_text = self.recent_text[-3:]
        if self._open_tokens() >= TARGET_CHUNK_TOKENS and len(self.paragraphs) > 1:
            last = self.paragraphs.pop()
            self.flush_text()
            self.paragraphs = [last]

    def _open_tokens(self) -> int:
        return self.count_tokens(" ".join(_join_lines(p) for p in self.paragraphs) + " ".join(self.notes))

    def add_note(self, text: str) -> None:
        if self.exercise is not None:
            self.exercise["notes"].append(text)
        else:
            self.notes.append(text)

    def flush_text(self) -> None:
        if not self.paragraphs:
            if self.notes and self.chunks and self.chunks[-1].kind == "text":
                self.chunks[-1].content += "\n\n" + "\n".join(self.notes)
            self.notes = []
            return
        first = self.paragraphs[0][0]
        paras = [_join_lines(p) for p in self.paragraphs]
        text = "\n\n".join(p for p in paras if p)
        if self.notes:
            text += "\n\n" + "\n".join(f"[Side note] {n}" for n in self.notes)
        self.paragraphs, self.notes = [], []
        for piece in split_to_budget(text, self.count_tokens):
            self._emit("text", piece, first.page)

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
        chunk = Chunk(id=cid, kind=kind, content=content.strip(), page=self.printed[pdf_page], pdf_page=pdf_page,
                      number=number, title=title, context=context, source=self.source, extra=extra or {}, **loc)
        chunk.ord = len(self.chunks)
        self.chunks.append(chunk)
        return chunk

    # ---- entities
    def add_entity(self, ent: dict, pdf_page: int) -> None:
        key = (ent["kind"], ent["number"])
        if not ent["number"] or key in self.seen_entities:
            return  # a repeated caption (continued table) keeps the first
        self.seen_entities.add(key)
        self._emit(ent["kind"], ent["content"] or ent.get("title") or "", pdf_page, number=ent["number"],
                   title=ent.get("title") or None, context=ent.get("context"))

    def close_exercise(self) -> None:
        ex = self.exercise
        if ex is None:
            return
        self.exercise = None
        text = re.sub(r"\s*\b(Solution:)", r"\n\1", _join_lines(ex["lines"]))
        if ex["notes"]:
            text += "\n" + "\n".join(ex["notes"])
        self.add_entity({"kind": "exercise", "number": ex["number"], "title": ex["title"], "content": text},
                        ex["page"])

    # ---- the walk
    def feed_page(self, page: Page, items: list[Item]) -> None:
        for idx, item in enumerate(items):
            if item.kind == "entity":
                if item.entity["kind"] != "formula":  # a formula sits inside the running text
                    self.flush_text()
                self.add_entity(item.entity, page.number)
            elif item.kind == "note":
                self.add_note(item.text)
            else:
                self.feed_line(item.line, items, idx)

    def feed_line(self, line: Line, items: list[Item], idx: int) -> None:
        text = line.text.strip()
        size = line.size
        body = self.layout.body_size
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
        # Exercises: "Exercise X.Y." in bold starts an item that runs to the next one.
        m = CAPTION_RE.match(text)
        if m and line.bold and normalize_kind(m.group(1)) == "exercise":
            self.flush_text()
            self.close_exercise()
            rest = m.group(4).strip()
            self.exercise = {"number": normalize_number(m.group(2)), "title": None, "lines": [], "notes": [],
                             "page": line.page}
            if rest:
                self.exercise["lines"].append(Line([w for w in line.words if w.x0 >= line.words[min(1, len(line.words) - 1)].x1], line.page))
            return
        # Numbered display equations: "(X.Y)" at the right edge of the main column.
        last = line.words[-1].text
        eq = EQ_NUMBER_RE.match(last)
        if eq and line.words[-1].x1 >= self.layout.right - 6 and not _is_prose_reference(line, self.layout):
            self.add_equation(line, normalize_number(eq.group(1)), items, idx)
        self.add_line(line)

    def _commit_pending(self) -> None:
        pc, self.pending_chapter = self.pending_chapter, None
        if pc:
            self.open_section(pc["level"], pc["number"], pc["title"].strip(), pc["line"])

    def add_equation(self, line: Line, number: str, items: list[Item], idx: int) -> None:
        """A formula entity: the display's lines (number removed) and the sentence before it."""
        display = [line]
        body = self.layout.body_size
        def is_display(l: Line) -> bool:
            return l.x0 > self.layout.left + 12 and not EQ_NUMBER_RE.match(l.words[-1].text)
        j = idx - 1
        while j >= 0 and items[j].kind == "line" and is_display(items[j].line) \
                and display[0].top - items[j].line.bottom < body * 1.6 and len(display) < 6:
            display.insert(0, items[j].line)
            j -= 1
        j = idx + 1
        while j < len(items) and items[j].kind == "line" and is_display(items[j].line) \
                and items[j].line.top - display[-1].bottom < body * 1.6 and len(display) < 6 \
                and not EQ_NUMBER_RE.match(items[j].line.words[-1].text):
            display.append(items[j].line)
            j += 1
        parts = []
        for l in display:
            words = l.words[:-1] if l is line else l.words
            parts.append(" ".join(w.text for w in words))
        equation = "\n".join(p for p in parts if p)
        before = " ".join(_join_lines(p) for p in self.paragraphs[-1:]) if self.paragraphs else ""
        sentences = re.split(r"(?<=[.!?])\s+", before.strip())
        context = sentences[-1] if sentences and sentences[-1] else None
        key = ("formula", number)
        if key in self.seen_entities:
            return
        self.seen_entities.add(key)
        chunk = self._emit("formula", equation, line.page, number=number, title=None, context=context)
        # A formula chunk sits inside the flow of text: keep it after the open text in reading order.
        chunk.extra["in_text"] = True

    def finish(self) -> None:
        self._commit_pending()
        self.flush_text()
        self.close_exercise()


def structure(pages: list[Page], count_tokens, source: str) -> tuple[list[Chunk], list[Section], Layout]:
    """All pages -> (chunks in reading order, sections, layout)."""
    folios = drop_running_lines(pages)
    printed = printed_pages(pages, folios)
    layouts = detect_layout(pages)
    layout = layouts[1]
    builder = ChunkBuilder(layout, printed, count_tokens, source)
    for page in pages:
        if _is_contents_page(page):
            continue
        builder.layout = layouts[page.number % 2]
        builder.feed_page(page, page_items(page, builder.layout))
    builder.finish()
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
        s.page_end = max([c.page for c in members], default=s.page_start)
        first_text = next((c.content for c in members if c.kind == "text"), "")
        s.content = f"{s.number} {s.title}\n\n{first_text[:600]}".strip()
    return chunks, builder.sections, layout


def _is_contents_page(page: Page) -> bool:
    head = " ".join(l.text for l in page.lines[:3]).lower()
    return bool(re.search(r"\b(table of )?contents\b", head)) and sum(
        1 for l in page.lines if re.search(r"\d+$", l.text)) > len(page.lines) * 0.5


# --------------------------------------------------------------------------- markdown trees
"""Markdown trees: a docs site (module/chapter/lesson/readme.md) as sections and chunks."""

FRONT_MATTER_RE = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
MD_CAPTION_RE = re.compile(
    r"^\*\*(Algorithm|Equation|Formula|Table|Figure|Example|Exercise)\s+((?:[A-Z]|\d+)(?:\.\d+)*)\.?\*\*\.?\s*(.*)$")
NUMBERED_SLUG_RE = re.compile(r"^(\d+)[-_](.+)$")


def parse_front_matter(text: str) -> tuple[dict, str]:
    """A small YAML subset (key: value, key: [a, b], and "- item" lists); returns (fields, body)."""
    m = FRONT_MATTER_RE.match(text)
    if not m:
        return {}, text
    fields: dict = {}
    key = None
    for raw in m.group(1).splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s*-\s+(.*)$", line)
        if item and key:
            fields.setdefault(key, [])
            if isinstance(fields[key], list):
                fields[key].append(item.group(1).strip().strip("'\""))
            continue
        kv = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
        if kv:
            key, value = kv.group(1), kv.group(2).strip()
            if value.startswith("[") and value.endswith("]"):
                fields[key] = [v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip()]
            elif value:
                fields[key] = value.strip("'\"")
            else:
                fields[key] = []
    return fields, text[m.end():]


def _slug_parts(name: str) -> tuple[int | None, str]:
    m = NUMBERED_SLUG_RE.match(name)
    return (int(m.group(1)), m.group(2)) if m else (None, name)


def _title_from_slug(slug: str) -> str:
    return re.sub(r"[-_]+", " ", _slug_parts(slug)[1]).strip().capitalize()


@dataclass
class Lesson:
    """One Markdown file of a docs tree with its place in the tree."""

    path: Path
    rel: str
    module: str | None
    chapter: str
    chapter_number: int | None
    chapter_title: str
    lesson: str
    lesson_number: int | None
    title: str
    topics: list[str]
    difficulty: str | None
    body: str


def read_markdown_tree(root: Path) -> list[Lesson]:
    """Every .md/.mdx file under root as a lesson: module/chapter/lesson/readme.md or chapter/lesson.md.

    The top-level folder is the module unless the tree starts with numbered chapter folders.
    Chapter titles come from _category_.json, else the first lesson's front matter, else the slug.
    """
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".md", ".mdx") and p.is_file())
    files = [p for p in files if p.relative_to(root).parts[0] not in ("node_modules",) and len(p.relative_to(root).parts) >= 2]
    if not files:
        raise BuildError(f"{root} holds no Markdown lessons (.md or .mdx files inside chapter folders)")
    has_modules = not NUMBERED_SLUG_RE.match(files[0].relative_to(root).parts[0])
    lessons = []
    for path in files:
        parts = path.relative_to(root).parts
        module = parts[0] if has_modules else None
        inner = parts[1:] if has_modules else parts
        if len(inner) < 2:
            continue  # a file beside the chapters (a module's index page) is not a lesson
        chapter = inner[0]
        lesson = inner[1] if len(inner) > 2 else Path(inner[1]).stem
        text = path.read_text(encoding="utf-8", errors="replace")
        front, body = parse_front_matter(text)
        chapter_dir = path.parents[len(inner) - 2] if len(inner) > 2 else path.parent
        category = chapter_dir / "_category_.json"
        chapter_title = None
        if category.is_file():
            try:
                chapter_title = json.loads(category.read_text()).get("label")
            except ValueError:
                chapter_title = None
        heading = re.search(r"^#\s+(.+)$", body, re.MULTILINE)
        title = front.get("title") or (heading.group(1).strip() if heading else _title_from_slug(lesson))
        topics = front.get("topics") or front.get("tags") or []
        lessons.append(Lesson(
            path=path, rel=str(path.relative_to(root.parent)), module=module, chapter=chapter,
            chapter_number=_slug_parts(chapter)[0], chapter_title=chapter_title or "",
            lesson=lesson, lesson_number=_slug_parts(lesson)[0], title=str(title),
            topics=[str(t) for t in topics] if isinstance(topics, list) else [str(topics)],
            difficulty=front.get("difficulty"), body=body))
    for chapter in {l.chapter for l in lessons}:
        members = [l for l in lessons if l.chapter == chapter]
        if not members[0].chapter_title:
            for l in members:
                l.chapter_title = _title_from_slug(chapter)
    return lessons


def _markdown_blocks(body: str) -> list[tuple[str, str, str]]:
    """(kind, heading, text) blocks: 'heading', 'code' (fenced), 'math' ($$ display), 'text' paragraphs."""
    blocks, heading, para = [], "", []
    lines = body.splitlines()
    i = 0

    def flush():
        if para and "".join(para).strip():
            blocks.append(("text", heading, "\n".join(para).strip()))
        para.clear()

    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            flush()
            mark, code = fence.group(1), [line]
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(mark):
                code.append(lines[i])
                i += 1
            code.append(lines[i] if i < len(lines) else mark)
            blocks.append(("code", heading, "\n".join(code)))
        elif line.strip().startswith("$$"):
            flush()
            math = [line]
            if line.strip() == "$$" or not line.strip().endswith("$$") or line.strip() == "$$$$":
                i += 1
                while i < len(lines) and "$$" not in lines[i]:
                    math.append(lines[i])
                    i += 1
                if i < len(lines):
                    math.append(lines[i])
            blocks.append(("math", heading, "\n".join(math)))
        elif re.match(r"^#{1,6}\s+", line):
            flush()
            heading = re.sub(r"^#{1,6}\s+", "", line).strip()
            blocks.append(("heading", heading, heading))
        elif not line.strip():
            flush()
        else:
            para.append(line)
        i += 1
    flush()
    return blocks


def markdown_structure(root: Path, count_tokens, base_url: str | None = None) -> tuple[list[Chunk], list[Section]]:
    """A docs tree -> chunks (text, code, numbered entities) and sections (module, chapter, lesson)."""
    lessons = read_markdown_tree(root)
    chunks: list[Chunk] = []
    sections: list[Section] = []
    seen_sections: set[str] = set()
    seen_entities: set[tuple[str, str]] = set()

    def add_section(sid, level, number, title, parent):
        if sid not in seen_sections:
            seen_sections.add(sid)
            sections.append(Section(sid, level, number, title, parent, 0, 0, content=title, ord=len(sections)))

    for lesson in lessons:
        module_id = f"module_{lesson.module}" if lesson.module else None
        if module_id:
            add_section(module_id, 0, lesson.module, lesson.module, None)
        chapter_id = f"chapter_{lesson.chapter}"
        add_section(chapter_id, 1, lesson.chapter, lesson.chapter_title, module_id)
        lesson_id = f"lesson_{lesson.chapter}_{lesson.lesson}"
        add_section(lesson_id, 2, f"{lesson.chapter}/{lesson.lesson}", lesson.title, chapter_id)
        url = None
        if base_url:
            page = lesson.rel.split("/", 1)[1] if "/" in lesson.rel else lesson.rel
            page = re.sub(r"(/readme|/index)?\.mdx?$", "", page, flags=re.IGNORECASE)
            url = base_url.rstrip("/") + "/" + page
        index = 0
        pending_caption = None
        open_text: list[str] = []
        open_heading = ""

        def emit(kind, content, heading, number=None, title=None, content_type="text"):
            nonlocal index
            if kind == "text":
                ch = f"{lesson.chapter_number:02d}" if lesson.chapter_number is not None else lesson.chapter
                le = f"{lesson.lesson_number:02d}" if lesson.lesson_number is not None else lesson.lesson
                cid = f"chunk_ch{ch}_l{le}_{index:03d}"
            else:
                cid = entity_id(kind, number)
            chunks.append(Chunk(
                id=cid, kind=kind, content=content.strip(), page=None, pdf_page=None, number=number, title=title,
                part=lesson.module, part_title=lesson.module, chapter=lesson.chapter,
                chapter_title=lesson.chapter_title, section=lesson.lesson, section_title=lesson.title,
                source=lesson.rel, ord=len(chunks),
                extra={"chunk_index": index, "content_type": content_type, "heading": heading or lesson.title,
                       "file_path": lesson.rel, "topics": lesson.topics, "difficulty": lesson.difficulty,
                       "chapter_number": lesson.chapter_number, "lesson_number": lesson.lesson_number,
                       "module": lesson.module, "source_url": url}))
            index += 1

        def flush_text():
            nonlocal open_text
            if open_text:
                text = "\n\n".join(open_text)
                for piece in split_to_budget(text, count_tokens):
                    emit("text", piece, open_heading)
            open_text = []

        for kind, heading, text in _markdown_blocks(lesson.body):
            if kind == "heading":
                flush_text()
                open_heading = heading
                continue
            cap = MD_CAPTION_RE.match(text) if kind == "text" else None
            if cap:
                flush_text()
                pending_caption = (normalize_kind(cap.group(1)), normalize_number(cap.group(2)), cap.group(3).strip())
                continue
            if pending_caption and kind in ("code", "math", "text"):
                ekind, number, title = pending_caption
                pending_caption = None
                if ekind and number and (ekind, number) not in seen_entities:
                    seen_entities.add((ekind, number))
                    emit(ekind, text, heading, number=number, title=title or None,
                         content_type="code" if kind == "code" else ekind)
                    continue
            if kind == "code":
                flush_text()
                for piece in split_to_budget(text, count_tokens, code=True):
                    emit("text", piece, heading, content_type="code")
                continue
            if open_heading != heading:
                flush_text()
                open_heading = heading
            open_text.append(text)
            if count_tokens("\n\n".join(open_text)) >= TARGET_CHUNK_TOKENS:
                flush_text()
        flush_text()
    return chunks, sections


def split_to_budget(text: str, count_tokens, code: bool = False) -> list[str]:
    """Split text into pieces within the model's window: prose at sentence ends, code at line ends;
    a single unit still too long is cut by words."""
    if count_tokens(text) <= MAX_CHUNK_TOKENS:
        return [text]
    units = text.splitlines() if code else re.split(r"(?<=[.!?:])\s+", text)
    joiner = "\n" if code else " "
    pieces, current = [], ""
    for unit in units:
        candidate = f"{current}{joiner}{unit}" if current else unit.strip() if not code else unit
        if current and count_tokens(candidate) > MAX_CHUNK_TOKENS - 16:
            pieces.append(current)
            current = unit
        else:
            current = candidate
    if current:
        pieces.append(current)
    out = []
    for piece in pieces:
        while count_tokens(piece) > MAX_CHUNK_TOKENS:
            words = piece.split(" ") if code else piece.split()
            half = max(1, len(words) * 3 // 4)
            out.append(" ".join(words[:half]))
            piece = " ".join(words[half:])
        out.append(piece)
    return [p for p in out if p.strip()]


# --------------------------------------------------------------------------- references
"""References: the edge graph (REFERENCES/REFERENCED_BY, USES_IN, CITES, PART_OF, FOLLOWS, RELATED_TO)."""

_ENTITY_WORDS = (r"(?P<word>algorithms?|algos?|equations?|eqs?\.?|eqn\.?|formulas?|figures?|figs?\.?|"
                 r"tables?|examples?|exercises?)")
_NUM = r"\(?(?:[A-Z](?![A-Za-z])|\d+)(?:\.\d+[a-z]?)?\)?(?![\w.]\d)"
MENTION_RE = re.compile(_ENTITY_WORDS + r"\s*(?P<nums>" + _NUM + r"(?:\s*(?:,|and|or|to|–|-)\s*" + _NUM + r")*)",
                        re.IGNORECASE)
SECTION_MENTION_RE = re.compile(r"(?:\b[Ss]ections?|§)\s*((?:[A-Z]|\d+)(?:\.\d+){1,3})")
CHAPTER_MENTION_RE = re.compile(r"\b[Cc]hapters?\s+(\d+|[A-Z])\b")
APPENDIX_MENTION_RE = re.compile(r"\bAppendix\s+([A-Z])\b")
PART_MENTION_RE = re.compile(r"\bPart\s+([IVX]+)\b")
BARE_EQ_RE = re.compile(r"(?<![\w.])\(((?:[A-Z]|\d+)\.\d+[a-z]?)\)")
DEF_RE = re.compile(r"^\s*(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)
CALL_RE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")


def find_edges(chunks: list[Chunk], sections: list[Section]) -> tuple[set[tuple[str, str, str]], list[dict]]:
    """Edges (src, dst, rel) and the references that point at nothing in the book."""
    edges: set[tuple[str, str, str]] = set()
    unresolved: list[dict] = []
    entity_ids = {(c.kind, c.number): c.id for c in chunks if c.kind != "text"}
    # Kinds the book numbers through the whole book ("Algorithm 9"): an undotted mention of
    # such a kind that matches nothing is worth reporting; for other kinds it is just a word.
    undotted = {c.kind for c in chunks if c.kind != "text" and c.number and "." not in c.number}
    section_ids = {(s.level, s.number): s.id for s in sections}
    section_numbers = {s.number: s.id for s in sections if s.level >= 2}

    def ref(src: Chunk, dst: str, rel: str = "REFERENCES") -> None:
        if dst != src.id:
            edges.add((src.id, dst, rel))
            if rel == "REFERENCES":
                edges.add((dst, src.id, "REFERENCED_BY"))

    for c in chunks:
        text = f"{c.title or ''} {c.content} {c.context or ''}"
        for m in MENTION_RE.finditer(text):
            kind = normalize_kind(m.group("word").rstrip("."))
            if kind is None:
                continue
            for raw in re.findall(_NUM, m.group("nums")):
                number = normalize_number(raw)
                target = entity_ids.get((kind, number))
                if target:
                    ref(c, target)
                elif number and (kind, number) != (c.kind, c.number) and ("." in number or kind in undotted):
                    unresolved.append({"src": c.id, "kind": kind, "number": number, "text": m.group(0)[:80]})
        for number in BARE_EQ_RE.findall(text):
            target = entity_ids.get(("formula", normalize_number(number)))
            if target:
                ref(c, target)
        for number in SECTION_MENTION_RE.findall(text):
            target = section_numbers.get(number)
            if target:
                ref(c, target, "CITES")
            else:
                unresolved.append({"src": c.id, "kind": "section", "number": number, "text": f"Section {number}"})
        for number in CHAPTER_MENTION_RE.findall(text) + APPENDIX_MENTION_RE.findall(text):
            target = section_ids.get((1, number))
            if target:
                ref(c, target, "CITES")
        for number in PART_MENTION_RE.findall(text):
            target = section_ids.get((0, number))
            if target:
                ref(c, target, "CITES")

    # USES_IN: formulas an algorithm mentions, and functions an algorithm calls that another defines.
    defined: dict[str, str] = {}
    for c in chunks:
        if c.kind == "algorithm":
            for name in DEF_RE.findall(c.content):
                defined.setdefault(name, c.id)
    for c in chunks:
        if c.kind in ("algorithm", "example"):
            own = set(DEF_RE.findall(c.content))
            for name in set(CALL_RE.findall(c.content)) - own:
                source = defined.get(name)
                if source and source != c.id:
                    edges.add((source, c.id, "USES_IN"))
    for src, dst, rel in list(edges):
        if rel == "REFERENCES" and src.startswith("algorithm_") and dst.startswith("formula_"):
            edges.add((dst, src, "USES_IN"))

    # PART_OF: chunk -> deepest section; section -> parent.
    for c in chunks:
        if c.page is None and (2, f"{c.chapter}/{c.section}") in section_ids:   # a docs-tree lesson
            edges.add((c.id, section_ids[(2, f"{c.chapter}/{c.section}")], "PART_OF"))
            continue
        for level, key in ((4, "subsubsection"), (3, "subsection"), (2, "section"), (1, "chapter"), (0, "part")):
            number = getattr(c, key)
            if number and (level, number) in section_ids:
                edges.add((c.id, section_ids[(level, number)], "PART_OF"))
                break
    for s in sections:
        if s.parent_id:
            edges.add((s.id, s.parent_id, "PART_OF"))

    # FOLLOWS: reading order.
    for prev, cur in zip(chunks, chunks[1:]):
        edges.add((cur.id, prev.id, "FOLLOWS"))
    return edges, unresolved


def related_edges(chunks: list[Chunk], vectors) -> set[tuple[str, str, str]]:
    """RELATED_TO: each entity's nearest other entities by embedding (both directions)."""
    import numpy as np

    idx = [i for i, c in enumerate(chunks) if c.kind != "text"]
    if len(idx) < 2:
        return set()
    mat = vectors[idx]
    sims = mat @ mat.T
    np.fill_diagonal(sims, -1.0)
    edges = set()
    for row, i in enumerate(idx):
        for col in np.argsort(-sims[row], kind="stable")[:RELATED_PER_ENTITY]:
            if sims[row, col] >= 0.5:
                a, b = chunks[i].id, chunks[idx[col]].id
                edges.add((a, b, "RELATED_TO"))
                edges.add((b, a, "RELATED_TO"))
    return edges


# --------------------------------------------------------------------------- embed
"""Embed: every chunk as the text a reader would search for, in fixed batches."""


def embedding_text(c: Chunk) -> str:
    if c.kind == "text":
        heading = c.subsubsection_title or c.subsection_title or c.section_title or c.chapter_title or ""
        sub = c.extra.get("heading")
        if sub and sub != heading:
            heading = f"{heading}. {sub}" if heading else sub
        return f"{heading}. {c.content}" if heading else c.content
    label = f"{c.kind.capitalize()} {c.number}"
    if c.kind == "formula":
        return f"{label}. {c.context or ''} {c.content}".strip()
    return f"{label}. {c.title or ''} {c.content}".strip()


def embed_chunks(chunks: list[Chunk], embedder: Embedder, progress: bool = True):
    import numpy as np

    texts = [embedding_text(c) for c in chunks]
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    total = len(texts)
    start = time.perf_counter()
    for i in range(0, total, EMBED_BATCH):
        out[i:i + EMBED_BATCH] = embedder.embed(texts[i:i + EMBED_BATCH])
        done = min(total, i + EMBED_BATCH)
        if progress and (sys.stderr.isatty() or done == total or done % max(1, total // 10) < EMBED_BATCH):
            bar = "#" * int(30 * done / total)
            rate = done / max(time.perf_counter() - start, 1e-9)
            end = "" if sys.stderr.isatty() and done < total else "\n"
            print(f"\r  embedding [{bar:<30}] {done}/{total} chunks ({rate:.0f}/s)", end=end, file=sys.stderr)
    return out


# --------------------------------------------------------------------------- write
"""Write: the schema, a temporary file, verification, atomic rename."""

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sections (
    id TEXT PRIMARY KEY, level INTEGER NOT NULL, number TEXT NOT NULL, title TEXT NOT NULL,
    parent_id TEXT, page_start INTEGER, page_end INTEGER, pdf_page_start INTEGER,
    content TEXT NOT NULL, ord INTEGER NOT NULL);
CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, number TEXT,
    title TEXT, content TEXT NOT NULL, context TEXT,
    part TEXT, part_title TEXT, chapter TEXT, chapter_title TEXT, section TEXT, section_title TEXT,
    subsection TEXT, subsection_title TEXT, subsubsection TEXT, subsubsection_title TEXT,
    page INTEGER, pdf_page INTEGER, ord INTEGER NOT NULL, source TEXT, extra TEXT);
CREATE UNIQUE INDEX chunks_kind_number ON chunks(kind, number) WHERE number IS NOT NULL;
CREATE INDEX chunks_ord ON chunks(ord);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, content, content='chunks', content_rowid='rowid', tokenize='porter unicode61');
CREATE TABLE edges (src TEXT NOT NULL, dst TEXT NOT NULL, rel TEXT NOT NULL,
    PRIMARY KEY (src, dst, rel)) WITHOUT ROWID;
CREATE INDEX edges_dst ON edges(dst, rel);
CREATE TABLE unresolved_refs (src TEXT NOT NULL, kind TEXT NOT NULL, number TEXT NOT NULL, text TEXT);
CREATE TABLE vocab (term TEXT PRIMARY KEY, freq INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIEW entities AS
    SELECT id, kind, number, title, page, pdf_page, chapter, section, content FROM chunks WHERE kind != 'text';
CREATE VIEW "references" AS
    SELECT e.src, s.kind AS src_kind, e.dst, d.kind AS dst_kind, d.number AS dst_number
    FROM edges e LEFT JOIN chunks s ON s.id = e.src LEFT JOIN chunks d ON d.id = e.dst
    WHERE e.rel = 'REFERENCES';
"""

CHUNK_FIELDS = ("id", "kind", "number", "title", "content", "context", "part", "part_title", "chapter",
                "chapter_title", "section", "section_title", "subsection", "subsection_title", "subsubsection",
                "subsubsection_title", "page", "pdf_page", "ord", "source")


def logical_hash(chunks: list[Chunk], sections: list[Section], edges: Iterable[tuple[str, str, str]]) -> str:
    """A hash of the tables' logical content (not the vectors): equal builds print equal hashes."""
    h = hashlib.sha256()
    for c in chunks:
        h.update(json.dumps([getattr(c, f) for f in CHUNK_FIELDS], ensure_ascii=False).encode())
    for s in sections:
        h.update(json.dumps([s.id, s.level, s.number, s.title, s.parent_id, s.page_start, s.page_end]).encode())
    for e in sorted(edges):
        h.update("|".join(e).encode())
    return h.hexdigest()


def write_db(path: Path, chunks: list[Chunk], sections: list[Section], edges: set, unresolved: list[dict],
             vectors, meta: dict) -> None:
    import apsw
    import sqlite_vec

    db = apsw.Connection(str(path))
    db.enable_load_extension(True)
    db.load_extension(sqlite_vec.loadable_path())
    dim = vectors.shape[1]
    with db:
        db.execute(SCHEMA)
        db.execute(
            f"CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[{dim}] distance_metric=cosine, "
            "kind text, part text, chapter text, section text, subsection text, subsubsection text, page integer)")
        for rowid, c in enumerate(chunks, start=1):
            db.execute(f"INSERT INTO chunks(rowid, {', '.join(CHUNK_FIELDS)}, extra) VALUES "
                       f"(?, {', '.join('?' * len(CHUNK_FIELDS))}, ?)",
                       (rowid, *[getattr(c, f) for f in CHUNK_FIELDS], json.dumps(c.extra) if c.extra else None))
            db.execute("INSERT INTO chunks_fts(rowid, title, content) VALUES (?, ?, ?)",
                       (rowid, f"{c.kind} {c.number or ''} {c.title or ''}".strip(), f"{c.content}\n{c.context or ''}"))
            db.execute("INSERT INTO chunks_vec(rowid, embedding, kind, part, chapter, section, subsection, "
                       "subsubsection, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       # vec0 metadata columns take no NULL: '' stands for "none" (never a filter value)
                       (rowid, vectors[rowid - 1].tobytes(), c.kind, c.part or "", c.chapter or "",
                        c.section or "", c.subsection or "", c.subsubsection or "",
                        c.page if c.page is not None else -1))
        for s in sections:
            db.execute("INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (s.id, s.level, s.number, s.title, s.parent_id, s.page_start, s.page_end,
                        s.pdf_page_start, s.content, s.ord))
        db.executemany("INSERT INTO edges VALUES (?, ?, ?)", sorted(edges))
        db.executemany("INSERT INTO unresolved_refs VALUES (?, ?, ?, ?)",
                       [(u["src"], u["kind"], u["number"], u["text"]) for u in unresolved])
        vocab = book_vocabulary(chunks)
        db.executemany("INSERT INTO vocab VALUES (?, ?)", sorted(vocab.items()))
        if load_spellfix(db):
            # spellfix1 index over the same words: typo suggestions at query time ("POMP" -> "POMDP").
            db.execute("CREATE VIRTUAL TABLE vocab_fix USING spellfix1")
            db.executemany("INSERT INTO vocab_fix(word, rank) VALUES (?, ?)", sorted(vocab.items()))
        db.executemany("INSERT INTO meta VALUES (?, ?)", sorted((k, str(v)) for k, v in meta.items()))
        db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
    db.execute("VACUUM")
    db.close()


def book_vocabulary(chunks: list[Chunk]) -> dict[str, int]:
    """Lower-cased words of the book (letters only, 3+ characters) with their frequencies."""
    counts: Counter = Counter()
    for c in chunks:
        counts.update(w.lower() for w in VOCAB_WORD_RE.findall(f"{c.title or ''} {c.content}"))
    return dict(counts)


VOCAB_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def verify(path: Path, expected_chunks: int) -> None:
    """Open the new file as the service will and check it answers; raise BuildError if not."""
    import apsw
    import sqlite_vec

    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    db.enable_load_extension(True)
    db.load_extension(sqlite_vec.loadable_path())
    try:
        if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BuildError("the new knowledge file failed its integrity check")
        n = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        nv = db.execute("SELECT count(*) FROM chunks_vec").fetchone()[0]
        if n != expected_chunks or nv != expected_chunks:
            raise BuildError(f"the new knowledge file holds {n} chunks and {nv} vectors, expected {expected_chunks}")
        vec = db.execute("SELECT embedding FROM chunks_vec WHERE rowid = 1").fetchone()[0]
        hit = db.execute("SELECT rowid FROM chunks_vec WHERE embedding MATCH ? AND k = 1", (vec,)).fetchone()
        if not hit:
            raise BuildError("the new knowledge file does not answer a nearest-neighbour query")
    finally:
        db.close()


# --------------------------------------------------------------------------- build
"""Build: the stages in order, with a report."""


def check_writable(output: Path) -> None:
    """Fail before any work when the output's folder cannot take the new file (read-only, missing)."""
    folder = output.resolve().parent
    if not folder.is_dir():
        raise BuildError(f"output folder does not exist: {folder}")
    probe = folder / f".{output.name}.tmp-{os.getpid()}"
    try:
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise BuildError(f"cannot write the new knowledge file in {folder}: {exc.strerror} "
                         "(choose a writable --output)") from None


def remove_stale_temp_files(output: Path) -> None:
    """Delete temporary files that killed builds of this output left behind (their process is gone)."""
    for tmp in output.parent.glob(f".{output.name}.tmp-*"):
        pid = tmp.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _process_alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_tree(root: Path) -> str:
    """A hash over a docs tree's Markdown files and chapter metadata (paths and bytes)."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".md", ".mdx", ".json")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def source_title(source: Path) -> str:
    """The book's title: PDF metadata, or a docs tree's README heading, else the name."""
    if source.is_dir():
        for name in ("README.md", "readme.md", "index.md"):
            readme = source / name
            if readme.is_file():
                m = re.search(r"^#\s+(.+)$", parse_front_matter(readme.read_text(errors="replace"))[1], re.MULTILINE)
                if m:
                    return m.group(1).strip()
        return source.name
    return pdf_title(source)


def pdf_title(path: Path) -> str:
    from pypdf import PdfReader

    try:
        title = (PdfReader(str(path)).metadata or {}).get("/Title")
    except Exception:
        title = None
    return str(title).strip() if title else path.stem


def build(sources: list[Path], output: Path, model_dir: Path = DEFAULT_MODEL_DIR, progress: bool = True,
          stage_hook=None, base_url: str | None = None) -> dict:
    """Build the knowledge file from sources; returns the build report.  Output replaced atomically."""
    times: dict[str, float] = {}

    pause_at = os.environ.get("BUILD_DB_PAUSE_AT")

    def stage(name: str):
        if stage_hook:
            stage_hook(name)
        if progress:
            print(f"  stage {name}", file=sys.stderr, flush=True)
        if pause_at == name:
            # Fault-injection hook for tests: stop here long enough to be killed mid-build.
            print(f"  paused at stage {name} (BUILD_DB_PAUSE_AT)", file=sys.stderr, flush=True)
            time.sleep(60)
        times[name] = time.perf_counter()

    if len(sources) != 1:
        raise BuildError("give exactly one source: a PDF, or a folder of Markdown lessons")
    source = sources[0]
    if not source.exists():
        raise BuildError(f"source not found: {source}")
    check_writable(output)
    try:
        embedder = Embedder(model_dir, threads=max(1, os.cpu_count() or 1))
    except ConfigError as exc:
        raise BuildError(str(exc)) from None

    t0 = time.perf_counter()
    stage("read")
    if source.is_dir():
        pages = None
        stage("structure")
        chunks, sections = markdown_structure(source, embedder.count_tokens, base_url)
    else:
        pages = read_pdf(source)
        stage("structure")
        chunks, sections, _ = structure(pages, embedder.count_tokens, source.name)
    if not chunks:
        raise BuildError(f"{source} has no extractable text (a scanned PDF needs OCR first)")
    stage("references")
    edges, unresolved = find_edges(chunks, sections)
    stage("embed")
    vectors = embed_chunks(chunks, embedder, progress)
    stage("related")
    edges |= related_edges(chunks, vectors)
    stage("write")
    counts = Counter(c.kind for c in chunks)
    digest = logical_hash(chunks, sections, edges)
    printed = Counter(c.pdf_page - c.page for c in chunks if c.page is not None)
    meta = {
        "schema_version": SCHEMA_VERSION, "title": source_title(source), "source": source.name,
        "source_kind": "markdown" if source.is_dir() else "pdf",
        "source_sha256": sha256_tree(source) if source.is_dir() else sha256_file(source),
        "model_name": embedder.name, "model_sha256": embedder.sha256,
        "dim": embedder.dim, "builder_version": BUILDER_VERSION,
        "page_offset": printed.most_common(1)[0][0] if printed else 0,
        "counts": json.dumps(dict(sorted(counts.items()))), "build_hash": digest,
        "pages": len(pages) if pages is not None else 0,
        "max_chunk_tokens": MAX_CHUNK_TOKENS,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(output)
    tmp = output.with_name(f".{output.name}.tmp-{os.getpid()}")
    try:
        write_db(tmp, chunks, sections, edges, unresolved, vectors, meta)
        stage("verify")
        verify(tmp, len(chunks))
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        stage("rename")
        os.replace(tmp, output)
    finally:
        if tmp.exists():
            tmp.unlink()
    end = time.perf_counter()
    names = list(times)
    seconds = {n: round((times[names[i + 1]] if i + 1 < len(names) else end) - times[n], 3)
               for i, n in enumerate(names)}
    return {
        "output": str(output), "source": source.name, "pages": len(pages) if pages is not None else 0,
        "lessons": len({c.source for c in chunks}) if pages is None else 0, "chunks": len(chunks),
        "counts": dict(sorted(counts.items())), "sections": len(sections), "edges": len(edges),
        "unresolved": len(unresolved), "unresolved_examples": unresolved[:10], "build_hash": digest,
        "seconds": seconds, "total_seconds": round(end - t0, 2),
        "pages_per_second": round(len(pages or []) / max(end - t0, 1e-9), 2),
    }


def print_report(report: dict) -> None:
    size = f"{report['pages']} pages" if report["pages"] else f"{report['lessons']} lessons"
    print(f"built {report['output']} from {report['source']}: {size}, {report['chunks']} chunks")
    print("  entities: " + ", ".join(f"{k} {v}" for k, v in report["counts"].items()))
    print(f"  sections {report['sections']}, edges {report['edges']}, unresolved references {report['unresolved']}")
    for u in report["unresolved_examples"]:
        print(f"    unresolved: {u['text']!r} in {u['src']}")
    print("  seconds: " + ", ".join(f"{k} {v}" for k, v in report["seconds"].items())
          + f"; total {report['total_seconds']} ({report['pages_per_second']} pages/s)")
    print(f"  build hash {report['build_hash']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_db.py", description="Build a bookrag knowledge file from a PDF.")
    parser.add_argument("sources", nargs="+", type=Path, help="the book's PDF, or a folder of Markdown lessons")
    parser.add_argument("-o", "--output", type=Path, default=Path("knowledge.sqlite"))
    parser.add_argument("--models", type=Path, default=DEFAULT_MODEL_DIR, help="model directory")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--base-url", help="docs trees: base URL that turns file paths into page URLs")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    args = parser.parse_args(argv)
    try:
        report = build(args.sources, args.output, args.models, progress=not args.quiet, base_url=args.base_url)
    except BuildError as exc:
        print(f"build_db: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("build_db: interrupted; the previous output file is untouched", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: say so in one line; --debug shows the traceback
        if args.debug:
            raise
        print(f"build_db: internal error: {type(exc).__name__}: {exc} (the previous output file is "
              "untouched; run with --debug for the traceback and please report it)", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
