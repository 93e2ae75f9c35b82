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
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from build_common import TARGET_CHUNK_TOKENS, BuildError, Chunk, Section, split_to_budget
from rag_core import entity_id, normalize_kind, normalize_number


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
