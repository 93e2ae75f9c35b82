"""build_page.py: one page into items in reading order: floats with their captions, framed
statements, margin notes, and the lines of running text.

page_items splits a page into its main and margin columns, finds every caption (in the margin or
the main column) and takes the float it belongs to (a drawing's text, a table's rows, an
algorithm's ruled body, code), and leaves the other main-column lines to the builder, which reads
each one's role (build_roles.py).  A float broken at a page's foot goes on overleaf
(continued_float).  Equations displayed inside floats are found here; those in the running text
are found by the builder, whose displays display_lines gathers.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, field, replace
from typing import Iterable

from build_common import Chunk
from build_glyphs import Line, Page, RuledFrame, Word
from build_heads import (CAPTION_DASHES, FLOAT_KINDS, HEAD_RE, PHRASE_NUMBER_RE, Head, equation_number, is_head_like,
                         match_head, reached_by_its_kind)
from build_layout import FOOTNOTE_MARK_RE, FULL_LINE_WORDS, Layout, opens_with_mark
from build_math import (goes_on_with, left_open, open_brackets, algorithm_text, display_latex, is_math_word, list_item_opening, math_share,
                        numbered_display, plain_reading, prose_with_math, table_markdown)
from build_roles import (LABEL_AT_EDGE, LEFT_LABEL_GAP, LEFT_LABEL_MATHS_GAP, PROSE_LINE_WORDS, PROSE_WORD_RE, ends_with_equation_number, equation_label,
                         OVERFULL_PARTS, RELATIONS, framed_lines, inside, left_tag_before_maths, prose_pair)


# --------------------------------------------------------------------------- items
"""Items: what a page holds, in reading order, and the text of a run of lines."""


@dataclass
class FoundEntity:
    """A numbered thing read whole: a float with its caption, a framed or run-in statement, an equation."""

    kind: str
    number: str | None
    title: str | None
    content: str
    context: str | None = None     # for a formula: the float it sits in, or the sentence before it
    continues: str | None = None   # "box" or "ruled": it runs past the page's foot and goes on overleaf;
                                   # "head": a table at the foot, which may go on under its head row repeated
    extra: dict | None = None
    printed: str | None = None     # its number as printed, where the book's separator is not a period ("2-5")
    beside: bool = False           # a figure drawn in the margin column beside the text (a margin figure)


@dataclass
class Item:
    """One thing on a page in reading order: a line of text, a finished entity, or a margin note."""

    top: float
    kind: str                 # "line", "entity", "note", "drawn" (the text inside an uncaptioned drawing)
    line: Line | None = None
    entity: FoundEntity | None = None
    text: str = ""
    bottom: float = 0.0       # a drawing's: where it ends (its top is the item's)
    plain: str = ""           # a note's plain reading, where its text holds maths as LaTeX


# Items that share a height: a float before the line beside it, margin notes after both.
ITEM_ORDER = {"entity": 0, "line": 1, "note": 2, "drawn": 3}


def _is_prose(line: Line) -> bool:
    """A line holding several plain words of running text (never a drawing's label or a tick)."""
    return sum(1 for w in line.words if PROSE_WORD_RE.fullmatch(w.text)) >= PROSE_LINE_WORDS


# a word broken at a line's end: the hyphen-minus TeX sets, the Unicode hyphen (U+2010) HTML engines set,
# or a soft hyphen (U+00AD) shown where the break fell
LINE_END_HYPHENS = ("-", "\u2010", "\u00ad")


def join_lines(lines: Iterable[Line], maths: bool = False, bars: dict | None = None, goes_on: bool = False,
               opened: int = 0) -> str:
    """Text of consecutive lines with end-of-line hyphenation undone; with maths, runs of maths as $…$
    (bars: each page's thin rules, for roots and fractions in a line; goes_on: the text before the
    first line ended inside a formula, on its sign, with `opened` brackets of it open)."""
    out = ""
    compound = False     # the line before ended on a hyphen set in another face than the glyph before it
    for line in lines:
        # (a formula broken after its relation sign at the line's end goes on at the next line's start)
        goes_on = maths and (goes_on if not out else left_open(out))
        opened = opened if not out else open_brackets(out)
        text = (prose_with_math(line.words, (bars or {}).get(line.page, ()), goes_on, opened) if maths
                else line.text).strip()
        if not text:
            continue
        if goes_on and out and text.startswith("$"):
            out = goes_on_with(out, text)
        elif out.endswith(LINE_END_HYPHENS) and text[:1].islower() and not out[:-1].endswith(" "):
            # TeX breaks a word that holds a hyphen only at that hyphen ("order-" / "up-to level"): the one
            # at the line's end is the word's own then, and stays
            keep = out.endswith("-") and "-" in text.split(" ", 1)[0].rstrip("-")
            # ... and so is one set in another face than the glyph before it, a formula's ("$K$-" / "convex"):
            # TeX hyphenates a word of one font, with that font's hyphen
            keep = keep or compound or (maths and out[:-1].endswith("$"))
            out = (out if keep else out[:-1]) + text
        else:
            out = f"{out} {text}" if out else text
        compound = bool(line.words) and _hyphen_of_another_face(line.words[-1])
    return out


def _hyphen_of_another_face(word: Word) -> bool:
    """Whether a word ends on a hyphen set in another face than the glyph before it (a compound's after a
    formula or an emphasised word, "$K$-convex"): no hyphen TeX's hyphenation puts in, which is the
    broken word's own font's (only the hyphen-minus TeX sets: an HTML engine may take its U+2010 from a
    fallback font for any word it breaks)."""
    spans = word.spans or []
    return len(spans) >= 2 and spans[-1].text == "-" and spans[-1].font.name != spans[-2].font.name


def code_text(lines: list[Line], left: float) -> str:
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


# --------------------------------------------------------------------------- page items
"""Page items: the main and margin columns, the captions in each, and the floats they name.

Distances are in points (pt) or in multiples of a line's type size (em); the 1 or 2 pt left inline
absorb the rounding of glyph boxes and rules."""

MARGIN_BLOCK_GAP = 1.2        # em: a margin note or caption ends where a wider gap follows its last line
CAPTION_ABOVE_BOX = 40        # pt: a margin caption stands beside its box, from this far above its top
BOX_AT_FOOT = 0.82            # of the page's height: a box reaching below this runs on overleaf
TABLE_RULE_ABOVE = 30         # pt: a margin table's first rule stands from this far above its caption's top
TABLE_RULE_BELOW = 80         # pt: ... to this far below it
RULE_SAME_WIDTH = 3           # pt: the rules of one tabular start and end together, within this
TABLE_MAX_HEIGHT = 400        # pt: a tabular beside a margin caption is shorter than this
TABLE_RULE_GAP = 120          # pt: rules further apart than this belong to different tabulars


@dataclass
class MarginCaption:
    """A caption set in the margin column, waiting for the float (or box) it belongs to."""

    kind: str
    number: str
    title: str
    top: float
    bottom: float
    lines: list[Line]
    used: bool = False
    printed: str = ""
    drawn: list[Line] = field(default_factory=list)   # text drawn in the margin figure it captions


def page_items(page: Page, layout: Layout, wanted: dict | None = None, taken=frozenset()) -> list[Item]:
    """A page's items in reading order: main-column lines, entities, margin notes.

    wanted: on a second look, {(kind, number): pages} of captions the numbering says were missed;
    those are accepted in the body face without a caption's other signs.  taken: the (kind, number)
    pairs of the entities met on the pages before (a caption's number continues its kind's)."""
    page = replace(page, rules=joined_rules(page.rules))
    main, margin = _columns(page, layout)
    main, footnotes = _footnotes(main, page, layout)
    main = _captions_side_by_side(_split_side_by_side(_notes_off_captions(main, layout), page, layout), layout)
    captions, notes = _margin_blocks(margin, page, layout)
    notes.extend(footnotes)
    items: list[Item] = []
    used: set[int] = set()     # ids of the main column's lines a float has taken
    items.extend(_framed_by_margin_captions(page, main, captions, used, layout))
    items.extend(_margin_tables(page, main, captions, used, layout))
    items.extend(_margin_floats(page, main, captions, used, layout, notes))
    items.extend(_captioned_floats(page, main, used, layout, wanted or {}, taken))
    items.extend(_uncaptioned_drawings(page, main, used, layout))
    # Everything else in the main column flows as lines.
    for line in main:
        if id(line) not in used:
            items.append(Item(line.top, "line", line=line))
    items.extend(notes)
    items.sort(key=lambda it: (round(it.top), ITEM_ORDER[it.kind]))
    return items


RULE_JOIN_GAP = 0.5           # pt: collinear rules this close end to end (or overlapping) are one rule
RULE_JOIN_HEIGHT = 0.2        # pt: ... when they stand at one height, as thick as each other


def joined_rules(rules: list[tuple]) -> list[tuple]:
    """A table's rules drawn cell by cell as one rule each: collinear horizontal rules that touch or
    overlap end to end, at one height and of one thickness, joined (an XSL-FO processor, like an HTML
    engine, strokes each cell's border on its own, so a table's rule is as many segments as it has
    columns; a rule drawn whole, or two floats' rules a gutter apart, stay as they are)."""
    out: list[tuple] = []
    for r in sorted(rules, key=lambda r: (round(r[1], 1), round(r[3], 1), r[0])):
        last = out[-1] if out else None
        if last is not None and abs(last[1] - r[1]) <= RULE_JOIN_HEIGHT and abs(last[3] - r[3]) <= RULE_JOIN_HEIGHT \
                and last[0] <= r[0] <= last[2] + RULE_JOIN_GAP:
            out[-1] = (last[0], min(last[1], r[1]), max(last[2], r[2]), max(last[3], r[3]))
        else:
            out.append(tuple(r))
    return out


def _word_space(words: list[Word], layout: Layout) -> float:
    """The widest gap that is still a word space on a line: FULL_WIDTH_SPACE, or more where the
    line's own middle gap is wider (letter-spacing widens it)."""
    spaces = sorted(b.x0 - a.x1 for a, b in zip(words, words[1:]))
    return max(layout.body_size * FULL_WIDTH_SPACE, spaces[len(spaces) // 2] * FULL_WIDTH_SPREAD if spaces else 0.0)


def _columns(page: Page, layout: Layout) -> tuple[list[Line], list[Line]]:
    """Each line's words cut at the margin column's edge: (main-column lines, margin lines)."""
    main: list[Line] = []
    margin: list[Line] = []
    margin_x = page.width + 1 if page.rotated else layout.margin_x
    # Lines of maths in the main column that run into the margin (a display wider than the column): what
    # stands after them on their line (the equation number), and maths in the margin within their
    # height (symbols and single letters: the rows of the same display), are the display's, not a
    # margin note's.
    wide = [line for line in page.lines if any(w.x0 < margin_x < w.x1 for w in line.words)
            and math_share(line.words) >= MOSTLY_MATHS]
    # a fraction's bar that crosses the edge: its numerator and denominator are the display's, wherever
    # they stand
    bars = [g for g in page.graphics if g[0] < margin_x < g[2] and g[3] - g[1] <= FRACTION_RULE_THICKNESS]
    bars = [g for g in bars if _typeset_rule(g, page.lines, radicals=True)]
    decided: list[tuple[Line, list[Word], list[Word]]] = []
    for line in page.lines:
        left = [w for w in line.words if w.x0 < margin_x]
        right = [w for w in line.words if w.x0 >= margin_x]
        # words that go on across the edge with a word space between (no wider than the line's usual
        # one, which letter-spacing widens), in the same size, are one line set across the full width (the
        # class's fullwidth text): a margin note stands clear of the text block by the margin's gap
        # (on one baseline, as a line's words are: a display's row of upper limits, far apart, is no
        # line of text, and the last line of a note beside it may stand within a point of their height)
        if left and right and right[0].x0 - max(w.x1 for w in left) < _word_space(left, layout) \
                and abs(right[0].size - left[-1].size) < 0.5 and abs(right[0].baseline - left[-1].baseline) <= SAME_BASELINE:
            left, right = line.words, []
        if right and (line in wide or all(sum(c.isalpha() for c in w.text) <= 1 for w in right) and any(
                other.top - layout.body_size <= line.top <= other.bottom + layout.body_size for other in wide)):
            left, right = line.words, []
        # a display row cut by the edge between two of its glyphs (overfull as its author left it, or a
        # full-width display overhanging the margin): the glyphs past the edge go on along the row's
        # baseline, in maths fonts, no further from the last glyph before the edge than a word space,
        # and no margin note (prose of the text face on lines of its own) stands beside the row
        if right and left and _row_goes_on(line, left, right, layout, page) and \
                not _margin_prose_beside(line, page, margin_x, layout):
            left, right = line.words, []
        # maths cut by the edge where it cannot stop: a line of maths does not end on an operation or a
        # relation sign (`0.64 \times \frac{9}{1.5^2} = 7.36`, a display overfull into the margin, its
        # fraction's parts on lines of their own; a margin note's display may well open with a relation,
        # its left-hand side a fraction)
        if right and left and math_share(left) >= MOSTLY_MATHS and left[-1].text[-1:] in OPEN_ENDED and \
                all(sum(c.isalpha() for c in w.text) <= 1 for w in right) and _gap_filled(line, left, right, page):
            left, right = line.words, []
        if len(right) == 1 and left and equation_number(right[0].text) and math_share(left) >= MOSTLY_MATHS \
                and right[0].size >= layout.body_size * NUMBER_SIZE:
            # a full-width display's number, at the full width's edge (set in the body's size: a side
            # note's number beside a limit of the main column's display is the note's)
            left, right = line.words, []
        if right and _on_bars(line, right, bars):
            left, right = line.words, []
        decided.append((line, left, right))
    # a fraction wholly past the edge on a row that goes on across it (its bar inside the row's ink, under
    # the row's words past the edge): its numerator and denominator, on lines of their own, go on with it
    # (a numeral is no maths word by its font, so such a part was left to the margin alone)
    on_rows = [g for g in page.graphics if g[0] >= margin_x and g[3] - g[1] <= FRACTION_RULE_THICKNESS and any(
        not right and any(w.x0 >= margin_x for w in left) and line.top < g[1] and g[3] < line.bottom and
        min(w.x0 for w in left if w.x0 >= margin_x) <= g[0] and g[2] <= max(w.x1 for w in left)
        for line, left, right in decided)]
    on_rows = [g for g in on_rows if _typeset_rule(g, page.lines, radicals=True)]
    # (and so for the scripts of such a row past the edge, on a line of their own, as for a row that
    # crosses the edge with a glyph: symbols and single letters within the row's height)
    going = [line for line, left, right in decided if not right and any(w.x0 >= margin_x for w in left)
             and math_share(left) >= MOSTLY_MATHS]
    for k, (line, left, right) in enumerate(decided):
        if right and (left and on_rows and _on_bars(line, right, on_rows) or going and all(
                sum(c.isalpha() for c in w.text) <= 1 for w in right) and any(
                other.top - layout.body_size <= line.top <= other.bottom + layout.body_size and
                right[0].x0 <= other.x1 for other in going if other is not line)):
            left, right = line.words, []
        outer = _outer_margin_words(left, layout, page.boxes) if not page.rotated else []
        if outer:
            left = [w for w in left if not any(w is o for o in outer)]
            margin.append(Line(outer, page.number))
        if left:
            main.append(Line(left, page.number))
        if right:
            margin.append(Line(right, page.number))
    return main, margin


def _on_bars(line: Line, right: list[Word], bars: list) -> bool:
    """Whether words of a line stand right on or hang right from one of the bars: a fraction's part."""
    return any(w.x0 < g[2] and w.x1 > g[0] and (g[1] - FRACTION_RULE_REACH <= line.bottom <= g[3] + 1
                                                or g[1] - 1 <= line.top <= g[3] + FRACTION_RULE_REACH)
               for g in bars for w in right)


def _row_goes_on(line: Line, left: list[Word], right: list[Word], layout: Layout, page: Page) -> bool:
    """Whether the words past the margin's edge go on with the display row before it: both sides
    mostly maths, the first word past the edge a maths font's on the row's own baseline (not a
    script's: a side note's first line may stand level with a limit), within a word space of the
    row's last glyph before the edge, or with the gap between them filled by the parts of what
    stands there on lines of their own (a fraction after `\\sum\\sum`, its numerator and denominator
    above and below the row's line: `… \\sum_{k} \\frac{…}{…} + c HSA`, the terms after it past the edge)."""
    first = right[0]
    return math_share(left) >= MOSTLY_MATHS and math_share(right) >= MOSTLY_MATHS and is_math_word(first) and \
        abs(first.baseline - line.baseline) <= SAME_BASELINE and \
        (first.x0 - max(w.x1 for w in left) < _word_space(left, layout)
         or _gap_filled(line, left, right, page))


def _margin_prose_beside(line: Line, page: Page, margin_x: float, layout: Layout) -> bool:
    """Whether a margin note stands beside the line: words past the margin's edge, within a line's
    pitch above or below it, that are prose (a note is set in the text face on lines of its own)."""
    reach = layout.body_size
    for other in page.lines:
        if other is line or not (line.top - reach <= other.baseline <= line.bottom + reach):
            continue
        past = [w for w in other.words if w.x0 >= margin_x]
        if past and math_share(past) < MOSTLY_MATHS:
            return True
    return False


def _gap_filled(line: Line, left: list[Word], right: list[Word], page: Page) -> bool:
    """Whether the gap between a line's words either side of the margin's edge is filled by glyphs
    just above or below it (a fraction's numerator or denominator, on lines of their own): one
    display running across the edge, not a display and a margin note side by side."""
    middle = (max(w.x1 for w in left) + right[0].x0) / 2
    reach = line.size * OVERFULL_PARTS
    return any(w.x0 <= middle <= w.x1 for other in page.lines if other is not line
               and abs(other.baseline - line.baseline) <= reach for w in other.words)


def _outer_margin_words(words: list[Word], layout: Layout, boxes: list = ()) -> list[Word]:
    """The words of a line that stand in an outer margin on the left (layout.margin_left): none when
    the line goes on across the text block's edge with a word space (full-width text), when it is
    a list of figures' entry (lists_a_page: its number's box, wider than a word space, may reach
    past the edge of a text block set narrower on other pages), or a float's caption overhanging
    the margin as its float does (_runs_across_margin)."""
    if not layout.margin_left or lists_a_page(Line(words)):
        return []
    outer = [w for w in words if w.x1 <= layout.margin_left]
    inner = [w for w in words if w.x1 > layout.margin_left]
    if not outer:
        return []
    if inner and min(w.x0 for w in inner) - max(w.x1 for w in outer) < _word_space(outer, layout) \
            and abs(inner[0].size - outer[-1].size) < 0.5:
        return []
    if inner and _runs_across_margin(Line(words), outer, inner, layout, boxes):
        return []
    return outer


def _runs_across_margin(line: Line, outer: list[Word], inner: list[Word], layout: Layout, boxes: list) -> bool:
    """Whether a line runs on across the outer margin's edge as one, wider than the text block (a
    float's caption overhanging the margin with its float): its words go on after a colon or a full
    stop with the wider space TeX sets there (its space factor, up to twice the word space: "Listing
    4:" and the title after it), and either the next word starts inside the margin itself, left of
    its edge, or a box (the float's frame) crosses the edge right above or below the line; or the
    line stands inside such a box (the float's code).  A margin note is no such line: it stands clear
    of the text block by the margin's gap, and no frame crosses from the margin into the block
    beside it."""
    if any(b[0] <= outer[0].x0 and b[2] > layout.left and b[1] <= line.top and line.bottom <= b[3] for b in boxes):
        return True     # inside a frame that crosses the edge: the float's own line (its code)
    if outer[-1].text[-1:] not in SENTENCE_ENDS or \
            inner[0].x0 - outer[-1].x1 >= _word_space(outer, layout) * SPACE_FACTOR_WIDEST:
        return False
    return inner[0].x0 < layout.margin_left or any(
        b[0] <= outer[0].x1 and b[2] > layout.left and
        (0 <= b[1] - line.bottom < CAPTION_TO_DRAWING or 0 <= line.top - b[3] < CAPTION_TO_DRAWING) for b in boxes)


SENTENCE_ENDS = ".:;!?"       # punctuation TeX sets a wider space after (\sfcode above 1000)
SPACE_FACTOR_WIDEST = 2.0     # the widest such space, in word spaces (space factor 3000 stretches it)


NUMBER_SIZE = 0.9             # of the body size: an equation number of the text block is set no smaller
OPEN_ENDED = RELATIONS + "+−×·÷±∓"   # signs that never end a line of maths: what they act on follows
FULL_WIDTH_SPACE = 0.5        # ems: words across the margin's edge this close are one line of full-width text
SAME_BASELINE = 0.25          # pt: ... on one baseline (a born-digital PDF sets a line's words at one height)
FULL_WIDTH_SPREAD = 1.2       # ... or no further apart than this times the line's middle word space left of the edge
FOOTNOTE_RULE_EDGE = 3        # pt: a footnote rule starts at the column's left edge
FOOTNOTE_RULE_WIDTH = (0.1, 0.6)   # of the column's width: it is a short rule, neither a dash nor a table's
FOOTNOTE_SIZE = 0.95          # of the body size: footnotes are set smaller than the text
SCRIPT_SIZE = 0.85            # of a word's size: a raised mark is set smaller than this


def _footnotes(main: list[Line], page: Page, layout: Layout) -> tuple[list[Line], list[Item]]:
    """The footnotes at a page's foot, taken out of the main column as notes of their own: the
    lines below a short rule at the column's left edge, every one set smaller than the body text.
    A note starts at a line that opens with its mark (a number or a symbol glued to its first word)."""
    width = layout.right - layout.left
    rules = [r for r in page.rules if abs(r[0] - layout.left) <= FOOTNOTE_RULE_EDGE
             and FOOTNOTE_RULE_WIDTH[0] * width <= r[2] - r[0] <= FOOTNOTE_RULE_WIDTH[1] * width
             and r[1] > page.height / 2]
    if not rules:
        return main, []
    rule = max(rules, key=lambda r: r[1])
    below = [l for l in main if l.top >= rule[3] - 1]
    if not below or any(l.size >= layout.body_size * FOOTNOTE_SIZE for l in below):
        return main, []
    blocks: list[list[Line]] = []
    left = min(l.x0 for l in below)
    for k, line in enumerate(below):
        after = below[k + 1] if k + 1 < len(below) else None
        if not blocks or opens_with_mark(line) or _opens_with_superior(line) or _opens_with_raised_mark(line) or \
                _raised_mark_alone(line, after, left):
            blocks.append([line])
        else:
            blocks[-1].append(line)
    taken = {id(l) for l in below}
    kept = [l for l in main if id(l) not in taken]
    notes = []
    for block in blocks:
        mark = FOOTNOTE_MARK_RE.match(block[0].words[0].text)
        # the note stands right after the line that prints its mark (a raised, smaller run at a
        # word's end), so it joins the statement or passage it annotates; else at the page's foot
        marked_at = next((l.top for l in kept if mark and any(_prints_mark(w, l, mark.group(0)) for w in l.words)),
                         block[0].top)
        notes.extend(read_note(block, layout, page, marked_at, f"Footnote {mark.group(0) if mark else ''}".strip(),
                               mark.group(0) if mark else "", prefix="[Footnote] "))
    return kept, notes


def _opens_with_superior(line: Line) -> bool:
    """A line that opens with a note's mark in superior figures glued to its first word ("²This"):
    a text font's superiors are drawn at the note's own size, so only their ink, small and high, tells
    them from a figure of the text (opens_with_mark looks for a smaller size)."""
    spans = line.words[0].spans if line.words else []
    return len(spans) > 1 and spans[0].text.strip().isdigit() and bool(FOOTNOTE_MARK_RE.match(line.words[0].text)) \
        and _superior(spans[0])


def _opens_with_raised_mark(line: Line) -> bool:
    """A line that opens with a note's mark of figures set a little smaller than its words and raised
    above their baseline, alone or glued to the first word ("2Some"): amsart sets its marks a size
    under the note's (8 pt beside 9), too close in size for opens_with_mark, and its notes close, one
    under the other, so the raise is what tells a new note from the line before it."""
    if not line.words:
        return False
    first = line.words[0]
    if len(first.spans) > 1:
        mark, rest = first.spans[0], first.spans[1]
    elif len(line.words) > 1:
        mark, rest = first, line.words[1]
    else:
        return False
    return mark.text.strip().isdigit() and bool(FOOTNOTE_MARK_RE.match(first.text if len(first.spans) > 1 else
                                                                         f"{mark.text}{rest.text}")) \
        and mark.size < rest.size * RAISED_MARK_SIZE and mark.baseline < rest.baseline - rest.size * MARK_RISE


def _raised_mark_alone(line: Line, after: Line | None, left: float) -> bool:
    """A note's mark raised so high above a note's first line that it reads as a line of its own ("3"
    over "In text, …"): figures alone, smaller than the line after it, which it overlaps and which
    goes on at its right, and at a paragraph's indent from the notes' left edge (a script of a display
    in a note stands further in)."""
    return after is not None and len(line.words) == 1 and line.words[0].text.isdigit() \
        and after.top < line.bottom and line.size < after.size * RAISED_MARK_SIZE \
        and line.x1 <= after.x0 + 1 and line.x0 <= left + after.size * MARK_INDENT


RAISED_MARK_SIZE = 0.95   # of the note's size: a mark is set smaller than the note's words ...
MARK_RISE = 0.2           # em: ... and raised above their baseline by this much at least
MARK_INDENT = 2.5         # ems: a mark stands at most a paragraph's indent in from the notes' left edge


def read_note(block: list[Line], layout: Layout, page: Page, top: float, context: str, mark: str,
              prefix: str = "") -> list[Item]:
    """A footnote or side note: the note itself, its maths as LaTeX (note_text) and its text layer's
    words as its plain reading, then each display numbered in it, a formula like any other (amsmath
    numbers it in the book's sequence).  A note whose mark was read into a run of maths ("$7B^{-T}$")
    keeps its plain words."""
    displays: list = []
    # a note is set in a smaller size on a leading of its own: its displays' arrays stand that apart
    leading = note_leading(block)
    column = replace(layout, leading=leading) if leading else layout
    formulas = equations_in(block, column, context=context, bars=page.bars, shown=displays)
    plain = join_lines(block)
    text = note_text(block, displays, page)
    if mark and not text.startswith(mark):
        text = plain
    return [Item(top, "note", text=prefix + text, plain=prefix + plain), *formulas]


def note_leading(block: list[Line]) -> float:
    """The distance between a note's lines of prose, 0 where no two stand one after the other: the
    least between two successive lines of words at one size (a line of tall maths only pushes its
    neighbours apart)."""
    pitches = [b.baseline - a.baseline for a, b in zip(block, block[1:])
               if _is_prose(a) and _is_prose(b) and abs(a.size - b.size) < NOTE_SIZE_SLACK]
    return min((p for p in pitches if p > 0), default=0.0)


NOTE_SIZE_SLACK = 0.5   # pt: two lines of one note's prose are set at one size


def note_text(block: list[Line], displays: list, page: Page) -> str:
    """A note's text with its maths as LaTeX: its prose lines with their runs of maths as $…$, each
    display read in it (equations_in's `shown`) as the running text shows one, in its place, and each
    unnumbered display of several rows (a fraction's numerator, row and denominator) as one $$…$$."""
    parts: list[str] = []
    for shown, lines in shown_in_place(block, displays):
        parts.extend([shown] if shown is not None else _note_prose(lines, block, page))
    return " ".join(p for p in parts if p)


def shown_in_place(lines: list[Line], displays: list):
    """A block's lines in order as (display, None) for each display read in it (equations_in's `shown`:
    its lines' ids and how the text shows it), given once in the place of its first line, and
    (None, lines) for each run of the other lines."""
    done: set[int] = set()
    run: list[Line] = []
    for line in lines:
        k = next((k for k, (ids, _) in enumerate(displays) if id(line) in ids), None)
        if k is None:
            run.append(line)
            continue
        if run:
            yield None, run
            run = []
        if k not in done:
            done.add(k)
            yield displays[k][1], None
    if run:
        yield None, run


def display_row(line: Line, left: float) -> bool:
    """A line of a display: set in from the edge at `left` and mostly maths (the cheap test first);
    not a list item's first line, its mark and then a word ("• Monotonicity: if L ≤ L′ …")."""
    return line.x0 > left + DISPLAY_INDENT_PT and math_share(line.words) >= MOSTLY_MATHS and not list_item_opening(line)


def _note_prose(lines: list[Line], block: list[Line], page: Page) -> list[str]:
    """A note's lines outside its numbered displays: runs of two or more lines of maths set in from the
    note's edge, each close under the last, are an unnumbered display read whole; the rest is prose."""
    left = min(l.x0 for l in block)
    bars = {page.number: page.bars}

    def maths_row(line: Line) -> bool:
        return display_row(line, left)

    out: list[str] = []
    k = 0
    while k < len(lines):
        end = k
        while end < len(lines) and maths_row(lines[end]) and (end == k or (
                lines[end].top - lines[end - 1].bottom < lines[end].size * DISPLAY_LINE_GAP)):
            end += 1
        if end - k >= 2:
            latex = display_latex([w for l in lines[k:end] for w in l.words], page.bars)
            if latex:
                out.append(f"$${latex}$$")
                k = end
                continue
        # (a lone line of maths, or prose: as running text reads it, up to the next run of maths rows)
        stop = next((j for j in range(max(end, k + 1), len(lines)) if maths_row(lines[j])), len(lines))
        out.append(join_lines(lines[k:stop], maths=True, bars=bars))
        k = stop
    return out


def _prints_mark(word: Word, line: Line, mark: str) -> bool:
    """Whether a word prints a footnote's mark: as its last run, raised above the word's baseline and
    smaller; or on its own (a gap after a sentence's full stop parts it from the word it follows),
    smaller than its line's text and raised above the line's baseline."""
    spans = word.spans
    # (a mark set before the sentence's punctuation, "fails³.", is the last run but the punctuation's)
    while len(spans) > 2 and spans[-1].text in MARK_PUNCTUATION:
        spans = spans[:-1]
    if len(spans) >= 2:
        last = spans[-1]
        return last.text == mark and (last.size < spans[0].size * SCRIPT_SIZE and last.baseline < word.baseline - 1
                                      or _superior(last))
    return word.text == mark and word.size < line.size * SCRIPT_SIZE and word.baseline < line.baseline - 1 \
        and not _over_denominator(word, line)


def _over_denominator(word: Word, line: Line) -> bool:
    """Whether a small raised word stands over another small word set below the line's baseline, across
    the same stretch of the line: a fraction's numerator over its denominator (a text-style "1/n" in a
    formula), which is no note's mark, though as small and as high as one."""
    return any(w is not word and w.size < line.size * SCRIPT_SIZE and w.baseline > line.baseline + 1
               and min(w.x1, word.x1) - max(w.x0, word.x0) > 0 for w in line.words)


MARK_PUNCTUATION = {".", ",", ";", ":", ".)", ")"}   # what may follow a footnote's mark in its word


SUPERIOR_RISE = 0.2     # em: a superior figure's ink stands clear of the baseline by this much ...
SUPERIOR_HEIGHT = 0.6   # em: ... and is no taller than this


def _superior(span) -> bool:
    """A run of superior figures: glyphs a text font draws small and high at the body's own size and
    baseline (newtx's footnote marks, from its superiors font), its ink well above the baseline."""
    b = span.boxes
    if b is None or len(b) < 6:
        return False
    tops, bottoms = b[2::6], b[3::6]
    return all(bottom < span.baseline - span.size * SUPERIOR_RISE and bottom - top < span.size * SUPERIOR_HEIGHT
               for top, bottom in zip(tops, bottoms))


def _margin_caption(line: Line, layout: Layout) -> Head | None:
    """A margin line or block that opens with a caption's head (in a face of its own, or "Figure 3:");
    not a list of figures' entry (its second column read as the margin, lists_a_page)."""
    head = match_head(line, layout.body_font)
    return head if head and (head.distinct or head.sep) and not lists_a_page(line) else None


def _margin_blocks(margin: list[Line], page: Page, layout: Layout) -> tuple[list[MarginCaption], list[Item]]:
    """The margin column in blocks of lines (a caption or a note's mark starts a new one): the
    captions, and the other blocks as notes."""
    blocks: list[list[Line]] = []
    # a note's mark starts its first line, at the margin column's left edge; a small digit further in
    # is a script of a display in the note (σ², its exponent set on the numerator's line)
    left = min((l.x0 for l in margin), default=0.0)
    for k, line in enumerate(margin):
        starts_note = bool(re.match(r"^\d+\s", line.text)) and line.words[0].size < line.size \
            and line.words[0].x0 <= left + line.size
        # a mark raised so high that it reads as a line of its own, the note's first line level with it
        # (a tiny superior figure before a side note's text): it starts the note all the same
        after = margin[k + 1] if k + 1 < len(margin) else None
        starts_note = starts_note or (re.fullmatch(r"\d+", line.text) is not None and after is not None
                                      and after.top < line.bottom and line.size < after.size
                                      and line.words[0].x0 <= left + after.size)
        if not blocks or (_margin_caption(line, layout) and not _caption_runs_on(blocks[-1], line)) or starts_note or \
                line.top - blocks[-1][-1].bottom > line.size * MARGIN_BLOCK_GAP:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    captions, notes, drawn = [], [], []
    # drawings in the margin column; a fraction's bar in a note's display is typeset, not drawn
    shapes = [g for g in page.graphics if g[2] > layout.margin_x and not _typeset_rule(g, margin, radicals=True,
                                                                                   by_words=True)]
    for block in blocks:
        text = join_lines(block)
        head = _margin_caption(Line([w for l in block for w in l.words], page.number), layout)
        if head:
            title = _caption_title(text, head)
            captions.append(MarginCaption(head.kind, head.number, title, block[0].top, block[-1].bottom, block,
                                          printed=head.printed))
            # a numbered display in the caption (amsmath numbers it in the book's sequence), read within
            # the margin column as a note's is
            column = replace(layout, left=min(l.x0 for l in block), right=max(l.x1 for l in block))
            notes.extend(equations_in(block, column, context="Caption", bars=page.bars))
        else:
            on = _drawn_lines(block, shapes, layout.body_size)
            if on:
                drawn.append(on)
                taken = {id(l) for l in on}
                block = [l for l in block if id(l) not in taken]
            if block:
                # a note's display is read within the margin column, whose edges its number stands at
                column = replace(layout, left=min(l.x0 for l in block), right=max(l.x1 for l in block))
                mark = re.match(r"\d+", block[0].text)
                notes.extend(read_note(block, column, page, block[0].top, "Side note", mark.group(0) if mark else ""))
    # text drawn in a margin figure (its ticks and axis labels) is the figure's, never a side note:
    # it goes to the nearest figure caption of the margin; with none on the page it stays a note,
    # still searchable
    figures = [c for c in captions if c.kind == "figure"]
    for block in drawn:
        cap = min(figures, key=lambda c: min(abs(c.top - block[-1].bottom), abs(block[0].top - c.bottom)), default=None)
        if cap is not None:
            cap.drawn.extend(block)
        else:
            notes.append(Item(block[0].top, "note", text=join_lines(block)))
    return captions, notes


LINE_PITCH_SAME = 0.5         # pt: the lines of one paragraph stand this evenly apart, baseline to baseline


def _caption_runs_on(block: list[Line], line: Line) -> bool:
    """Whether a margin line that opens like a caption's head ("Algorithm 2.2.") is the running text of
    the block above it, a reference TeX carried over to a new line: its first word in the face and size
    of the last word above, at the block's own baseline pitch, after a line not ended on a sentence's mark
    that stopped short because that first word did not fit in the column (the widest line of the
    block and this one).  A caption of its own would stand in a face of its own, or after a last line
    ended, or start where the line above left room for its first word."""
    last, first = block[-1], line.words[0]
    end = last.words[-1]
    if len(block) < 2 or first.font != end.font or abs(first.size - end.size) > 0.1 or \
            last.text.rstrip()[-1:] in SENTENCE_ENDS:
        return False
    pitch = block[-1].baseline - block[-2].baseline
    if abs(line.baseline - last.baseline - pitch) > LINE_PITCH_SAME:
        return False
    right = max(l.x1 for l in block + [line])
    space = min((b.x0 - a.x1 for a, b in zip(last.words, last.words[1:])), default=0.0)
    return end.x1 + space + (first.x1 - first.x0) > right


def _drawn_lines(block: list[Line], shapes: list[tuple], pad: float) -> list[Line]:
    """The lines of a margin block that stand on or right beside drawn shapes and are not prose (a
    plot's tick labels and axis titles); a side note's lines are prose, whatever stands near them."""
    short = [l for l in block if not _is_prose(l)]
    if not shapes or not short:
        return []
    # only shapes level with the block can be beside its lines (a page of many drawn paths)
    top, bottom = min(l.top for l in short) - pad, max(l.bottom for l in short) + pad
    reach = [g for g in shapes if g[1] <= bottom and g[3] >= top]

    def near(l: Line) -> bool:
        return any(g[0] - pad <= l.x1 and l.x0 <= g[2] + pad and g[1] - pad <= l.bottom and l.top <= g[3] + pad
                   for g in reach)
    on: set[int] = set()
    # an axis's title stands beyond its tick labels: the labels found widen the drawing's reach
    for _ in range(DRAWING_TEXT_ROUNDS):
        more = [l for l in short if id(l) not in on and near(l)]
        if not more:
            break
        on.update(id(l) for l in more)
        reach += [(l.x0, l.top, l.x1, l.bottom) for l in more]
    return [l for l in block if id(l) in on]


def _framed_by_margin_captions(page: Page, main: list[Line], captions: list[MarginCaption], used: set[int],
                               layout: Layout) -> list[Item]:
    """Light boxes holding a float or a run-in block whose caption stands in the margin beside them."""
    items: list[Item] = []
    for box in sorted(page.boxes, key=lambda b: b[1]):
        # a line belongs to one box: a frame drawn twice (its fill, then its stroke) frames nothing new
        framed = framed_lines([l for l in main if id(l) not in used], box)
        if not framed:
            continue
        cap = min((c for c in captions if not c.used and c.kind != "table"
                   and box[1] - CAPTION_ABOVE_BOX <= c.top <= box[3]), key=lambda c: abs(c.top - box[1]), default=None)
        if cap is None:
            continue  # an uncaptioned box stays ordinary text
        cap.used = True
        used.update(id(l) for l in framed)
        displays: list = []
        formulas = equations_in(framed, layout, context=f"{cap.kind.capitalize()} {cap.number}. {cap.title}",
                                bars=page.bars, shown=displays)
        items.extend(formulas)
        extra = None
        if cap.kind in ("algorithm", "listing") and all(w.mono for l in framed for w in l.words):
            content = code_text(framed, min(l.x0 for l in framed))
        else:
            content, plain = framed_text(framed, layout, page.bars, formulas, displays)
            extra = {"text": plain} if plain != content else None
        # A box that runs to the page's foot goes on at the head of the next page (a breakable box).
        items.append(Item(box[1], "entity", entity=FoundEntity(
            cap.kind, cap.number, cap.title, content, continues="box" if box[3] > page.height * BOX_AT_FOOT else None,
            printed=cap.printed or None, extra=extra)))
    return items


def framed_text(lines: list[Line], layout: Layout, bars, formulas: list[Item] = (),
                shown: list = ()) -> tuple[str, str]:
    """A framed statement's lines as (LaTeX, plain reading): its maths as `$…$` in the text, as in
    running text, and each numbered display inside the frame as `$$…$$ (N)`, read once.  `shown`
    (equations_in's) gives each display's lines: all of them (a fraction's numerator and denominator
    rows, a matrix's rows) give way to the display, in the place of its first."""
    read = {it.entity.number: it.entity.content for it in formulas if it.entity is not None}
    latex, plain = [], []
    for text, run in shown_in_place(lines, shown):
        if text is not None:
            latex.append(text)
            # (the display's maths between its "$$" pairs, each read plainly; its numbers as printed)
            plain.append(" ".join(plain_reading(part) if k % 2 else part.strip()
                                  for k, part in enumerate(text.split("$$")) if part.strip()))
            continue
        for line in run:
            number = equation_label(line, layout) if ends_with_equation_number(line, layout) else None
            if number is None and len(line.words) > 1:
                number = equation_number(line.words[-1].text) if equation_number(line.words[-1].text) in read else None
            if number is not None and read.get(number):
                latex.append(f"$${read[number]}$$ ({number})")
                plain.append(f"{plain_reading(read[number])} ({number})")
                continue
            # a line of text, or a display not read here (a frame's part overleaf): as the line reads; a
            # formula the line above broke after its sign goes on here, served whole on the line above's
            prev = latex[-1] if latex else ""
            goes_on = left_open(prev)
            text = join_lines([line], maths=True, bars={line.page: bars}, goes_on=goes_on, opened=open_brackets(prev))
            if goes_on and text.startswith("$"):
                latex[-1] = goes_on_with(prev, text)
                plain[-1] = f"{plain[-1]} {join_lines([line])}"
            else:
                latex.append(text)
                plain.append(join_lines([line]))
    return "\n".join(latex), "\n".join(plain)


def _margin_tables(page: Page, main: list[Line], captions: list[MarginCaption], used: set[int],
                   layout: Layout) -> list[Item]:
    """Margin captions of tables: the rule-bounded tabular beside or below them."""
    items: list[Item] = []
    for cap in captions:
        if cap.used or cap.kind != "table":
            continue
        # the rule nearest the caption's top first (the class aligns the caption with its tabular;
        # the table above may end within reach)
        rules = sorted((r for r in page.rules if r[0] < layout.margin_x
                        and cap.top - TABLE_RULE_ABOVE <= r[1] <= cap.top + TABLE_RULE_BELOW),
                       key=lambda r: abs(r[1] - cap.top))
        content_lines = []
        if rules:
            top = rules[0][1]
            # The rules of one tabular share its width; a drawing's strokes do not.
            group = [r for r in page.rules if abs(r[0] - rules[0][0]) < RULE_SAME_WIDTH
                     and abs(r[2] - rules[0][2]) < RULE_SAME_WIDTH and top <= r[1] <= top + TABLE_MAX_HEIGHT]
            bottom = top
            for r in sorted(group, key=lambda r: r[1]):
                if r[1] - bottom > TABLE_RULE_GAP:
                    break
                bottom = r[1]
            content_lines = [l for l in main if top - 1 <= (l.top + l.bottom) / 2 <= bottom + 1 and id(l) not in used]
            used.update(id(l) for l in content_lines)
        cap.used = True
        rows = table_markdown(content_lines, page.bars)
        items.extend(equations_in(content_lines, layout, context=f"Table {cap.number}. {cap.title}", bars=page.bars,
                                  cells=True))
        items.append(Item(cap.top, "entity", entity=FoundEntity(
            cap.kind, cap.number, cap.title, "\n\n".join(x for x in (cap.title, rows) if x), printed=cap.printed or None)))
    return items


def _margin_floats(page: Page, main: list[Line], captions: list[MarginCaption], used: set[int], layout: Layout,
                   notes: list[Item]) -> list[Item]:
    """Other margin captions: figures and listings whose body stands beside them, or a float of the
    main column whose caption the class sets in the margin.  A margin "Example 2.5." without a box
    is kept as a note (appended to notes)."""
    items: list[Item] = []
    for cap in captions:
        if cap.used:
            continue
        if cap.kind in FLOAT_KINDS:
            cap.used = True
            near = _drawing_text(page, main, cap.lines, used, layout) if cap.kind == "figure" else []
            used.update(id(l) for l in near)
            # (a figure drawn in the margin itself, no text of its drawing in the main column, stands beside
            # the text as a side note does: the text goes on past it)
            beside = cap.kind == "figure" and not near and (bool(cap.drawn) or _drawn_above(page, cap, layout))
            near = sorted(near + cap.drawn, key=lambda l: (l.top, l.x0))
            content = cap.title + ("\n" + " / ".join(l.text for l in near) if near else "")
            items.append(Item(cap.top, "entity", entity=FoundEntity(cap.kind, cap.number, cap.title, content,
                                                                    printed=cap.printed or None, beside=beside)))
        else:
            notes.append(Item(cap.top, "note", text=join_lines(cap.lines)))
    return items


def _drawn_above(page: Page, cap: MarginCaption, layout: Layout) -> bool:
    """Whether shapes are drawn in the margin column right above a margin caption (a margin figure's
    drawing, its caption set under it)."""
    return any(g[0] >= layout.margin_x and g[3] <= cap.top + 1 and cap.top - g[3] <= layout.body_size * MARGIN_FIGURE_GAP
               for g in page.graphics)


MARGIN_FIGURE_GAP = 3   # em: a margin figure's caption stands this close under its drawing


def _captioned_floats(page: Page, main: list[Line], used: set[int], layout: Layout, wanted: dict,
                      taken=frozenset()) -> list[Item]:
    """Captions in the main column: "Algorithm 3 Title" (bold), "Figure 2.1." (bold), "Figure 2.1:",
    "Fig. 1. …" centred under a drawing — with the algorithm's body, the table's rows, the code,
    or the text inside the drawing.  A number no caption of its kind before leads up to, a year's or
    a code's ("ISBN 978-3-…" centred on a title's back, an author-year label), captions nothing."""
    items: list[Item] = []
    here: set[tuple[str, str]] = set()    # (kind, number) of the captions before on this page
    for i, line in enumerate(main):
        if id(line) in used:
            continue
        head = match_head(line, layout.body_font)
        if head is not None and (lists_a_page(line) or not (reached_by_its_kind(head.kind, head.number, taken) or
                                                             reached_by_its_kind(head.kind, head.number, here))):
            continue
        if head is not None and head.kind not in FLOAT_KINDS and head.sep in (":", "–", "."):
            # (a point after the number, "Таблица 1. …", as Russian typography sets a caption, is told
            # by the caption's place alone, centred in the column: a point also ends a date's or a
            # sentence's "May 2000." or "Der 1." at a line's start beside a frame's rules; a frame's
            # title takes a colon or a dash)
            framed = _framed_by_caption(page, main, i, head, used, layout) if head.sep != "." else []
            items.extend(framed)
            if framed or not _captioned_by_place(main, i, head, page, layout) or \
                    head.sep == "." and not _is_centred(line, layout):
                continue
        elif head is None or head.kind not in FLOAT_KINDS:
            continue
        missed = page.number in wanted.get((head.kind, head.number), ())
        if not head.distinct and not missed:
            # In the body face, a caption still shows itself: "Figure 2.2:" with a colon, or
            # "Fig. 1." centred or next to its drawing; never a line that reads on from the one above.
            # (A text layer with one font, a scan's, shows no faces and no drawings: its separator
            # must do, on a line that does not read on from the one above.)
            if not (head.sep == ":" or (head.sep and (layout.faceless or caption_context(line, page, layout)))
                    or _label_alone(line, head, layout)):
                continue
            if i > 0 and not isinstance(line, PairedCaption) and _continues_paragraph(main[i - 1], line, layout):
                continue  # "… as Figure 2.1: shows" inside running text is a reference, not a caption
        cap_lines = _caption_lines(main, i, used, page.rules, layout.body_font)
        used.update(id(l) for l in cap_lines)
        title = _caption_title(join_lines(cap_lines), head)
        found = _float_of(head.kind, head.number, title, line, cap_lines, page, main, used, layout)
        for item in found:
            if item.entity.kind == head.kind and item.entity.number == head.number:
                item.entity.printed = head.printed or None
        here.add((head.kind, head.number))
        items.extend(found)
    return items


def _label_alone(line: Line, head: Head, layout: Layout) -> bool:
    """A caption's label on a line of its own, centred, its title on the lines below ("TABLE 1",
    then "DUMMY RESULTS", as journals in economics set them, and endfloat's gathered floats): the
    word of a float and its number are the whole line, which no sentence is."""
    return head.kind in FLOAT_KINDS and not head.rest.strip() and not head.title and _is_centred(line, layout)


LEADER_DOTS = 3             # dots: a run of this many, then a page number, is a leader (a long entry leaves three)
LEADER_MARKS = ".·…"        # what a leader's dots are set with
PAGE_NUMBER_RE = re.compile(r"\d{1,4}|[ivxlc]{1,6}")


def lists_a_page(line: Line) -> bool:
    """A list of figures', tables' or listings' entry: the caption's words, leaders, then the page
    it stands on ("Listing 90: sba7.yaml · · · · · 39"), and in a list set in two columns the other
    column's entry after it on the same baseline.  A caption never holds leaders; such a line lists
    one, on whatever page the list is set (a second look, wanting a number, would read it too)."""
    dots = 0
    for word in line.words:
        text = word.text
        lead = len(text) - len(text.lstrip(LEADER_MARKS))
        if lead == len(text):
            dots += lead
            continue
        if dots + lead >= LEADER_DOTS and PAGE_NUMBER_RE.fullmatch(text[lead:]):
            return True
        dots = len(text) - len(text.rstrip(LEADER_MARKS))   # (the first dot may be set against the title)
    return False


def _captioned_by_place(main: list[Line], at: int, head: Head, page: Page, layout: Layout) -> bool:
    """A caption whose word is none of FLOAT_KINDS ("Tabel 1.1: Documentklassen.", "Abbildung 3:" in a
    book in another language): a float's caption is told by its place, not its word.  In the body face
    a word, a number and a colon, centred or right beside a drawing or ruled rows, on a line that does
    not read on from the one above, is set as \\caption sets one; the float is read as a figure's (the
    text drawn inside it), its kind the word the book prints.  A head in a face of its own with a
    colon is left to the statements ("Theorem 1: …" in bold opens one), unless it stands beside the
    next one on its baseline (PairedCaption): a statement opens a paragraph of the column, and two
    never stand side by side as two minipages' captions do, whatever their face."""
    line = main[at]
    if head.distinct and not isinstance(line, PairedCaption) or not (isinstance(line, PairedCaption) or caption_context(line, page, layout)):
        return False
    return at == 0 or isinstance(line, PairedCaption) or not _continues_paragraph(main[at - 1], line, layout)


def ruled_frames(page: Page) -> list[tuple[float, float, float, float]]:
    """Frames drawn as four thin rules (a boxed float's, \\fbox's): a horizontal rule over another of
    the same length, and an upright rule at each of their ends, joining them."""
    thin = [g for g in page.graphics if min(g[2] - g[0], g[3] - g[1]) < FRAME_RULE]
    flat = [g for g in thin if g[2] - g[0] > FRAME_MIN]
    upright = [g for g in thin if g[3] - g[1] > FRAME_MIN]
    frames = []
    for top in flat:
        for bottom in flat:
            if bottom[1] <= top[1] + FRAME_MIN or abs(bottom[0] - top[0]) > FRAME_SLACK or \
                    abs(bottom[2] - top[2]) > FRAME_SLACK:
                continue
            sides = [u for u in upright if u[1] <= top[3] + FRAME_SLACK and u[3] >= bottom[1] - FRAME_SLACK]
            if any(abs(u[0] - top[0]) <= FRAME_SLACK for u in sides) and \
                    any(abs(u[2] - top[2]) <= FRAME_SLACK for u in sides):
                frames.append((top[0], top[1], top[2], bottom[3]))
                break
    return frames


FRAME_RULE = 1.6      # pt: a frame's rules are thinner than this
FRAME_MIN = 20        # pt: ... and longer (upright ones taller) than this
FRAME_SLACK = 1.5     # pt: the rules of one frame meet within this
FRAME_CAPTION_GAP = 1.5   # ems: a caption under its frame stands within this of the frame's foot


def _side_of(rule: tuple, frame: tuple) -> bool:
    """Whether a thin rule is one of the frame's four sides."""
    x0, top, x1, bottom = frame
    upright = rule[3] - rule[1] > rule[2] - rule[0]
    if upright:
        return min(abs(rule[0] - x0), abs(rule[2] - x1)) <= FRAME_SLACK and rule[1] <= top + FRAME_SLACK \
            and rule[3] >= bottom - FRAME_SLACK
    return abs(rule[0] - x0) <= FRAME_SLACK and abs(rule[2] - x1) <= FRAME_SLACK and \
        min(abs(rule[1] - top), abs(rule[3] - bottom)) <= FRAME_SLACK


def _framed_by_caption(page: Page, main: list[Line], at: int, head: Head, used: set[int],
                       layout: Layout) -> list[Item]:
    """A statement float whose caption ("Example 1.1: Title.", with a colon, as a float's caption
    is set) stands right under a ruled frame (the float package's boxed style): the statement is
    the text inside the frame."""
    line = main[at]
    frame = next((f for f in ruled_frames(page) if f[0] - FRAME_SLACK <= line.x0 and line.x1 <= f[2] + FRAME_SLACK
                  and line.baseline > f[3] and line.top - f[3] <= layout.body_size * FRAME_CAPTION_GAP), None)
    if frame is None:
        return []
    framed = framed_lines([l for l in main if id(l) not in used], frame)
    if not framed:
        return []
    cap_lines = _caption_lines(main, at, used, page.rules, layout.body_font)
    used.update(id(l) for l in cap_lines + framed)
    title = _caption_title(join_lines(cap_lines), head)
    # the frame's own rules are no array's: its sides run through every line it holds
    bars = [b for b in page.bars if not _side_of(b, frame)]
    displays: list = []
    formulas = equations_in(framed, layout, context=f"{head.kind.capitalize()} {head.number}. {title}",
                            bars=bars, shown=displays)
    content, plain = framed_text(framed, layout, bars, formulas, displays)
    return formulas + [Item(frame[1], "entity", entity=FoundEntity(
        head.kind, head.number, title or None, content, printed=head.printed or None,
        extra={"text": plain} if plain != content else None))]


def _float_of(kind: str, number: str, title: str, line: Line, cap_lines: list[Line], page: Page, main: list[Line],
              used: set[int], layout: Layout) -> list[Item]:
    """The float a main-column caption names, as items: an algorithm or listing (with the equations
    numbered inside it), a table's rows, or a figure with the text drawn inside it."""
    items: list[Item] = []
    if kind in ("algorithm", "listing"):
        # a listing set beside another takes its code from its own column
        column = _on_side_of(main, line, side_gutters(page)) if kind == "listing" else main
        body = _ruled_body(page, column, cap_lines, used, layout, below_only=kind == "algorithm")
        if kind == "listing" and body and max(l.bottom for l in body) <= cap_lines[0].top + 1:
            # rules above the caption are another float's (a table's, a box's) when code stands
            # right under the caption: a listing captioned above its code is that code
            below = _code_near(column, cap_lines, used, page.boxes, below_only=True)
            body = below or body
        if kind == "listing" and not body:
            body = _code_near(column, cap_lines, used, page.boxes)
        used.update(id(l) for l in body)
        items.extend(equations_in(body, layout, context=f"{kind.capitalize()} {number}. {title}", bars=page.bars))
        if body and all(w.mono for l in body for w in l.words):
            content = code_text(body, min(l.x0 for l in body))
        else:
            content = algorithm_text([l for l in body if not ends_with_equation_number(l, layout)], page.bars)
        items.append(Item(min([line.top] + [l.top for l in body]), "entity", entity=FoundEntity(
            kind, number, title, content or title, continues="ruled" if getattr(body, "open_ended", False) else None)))
    elif kind == "table":
        body = _ruled_body(page, main, cap_lines, used, layout, below_only=False)
        used.update(id(l) for l in body)
        rows = table_markdown(body, page.bars)
        items.extend(equations_in(body, layout, context=f"Table {number}. {title}", bars=page.bars, cells=True))
        # a table whose rows reach the page's foot may go on overleaf under its repeated head row,
        # even when a rule closes it here (continued_float)
        at_foot = bool(body) and max(l.bottom for l in body) > page.height * RULED_AT_FOOT
        items.append(Item(line.top, "entity", entity=FoundEntity(kind, number, title, f"{title}\n\n{rows}".strip(),
                                                               continues="head" if at_foot else None)))
    else:
        drawn = _drawing_text(page, main, cap_lines, used, layout)
        used.update(id(l) for l in drawn)
        content = title + ("\n" + " / ".join(l.text for l in drawn) if drawn else "")
        items.append(Item(min([line.top] + [l.top for l in drawn]), "entity", entity=FoundEntity(
            kind, number, title, content)))
    return items


# --------------------------------------------------------------------------- floats
"""Floats: a caption's lines, and the body it names: ruled rows, code, the text inside a drawing."""

CENTRED_SLACK = 12            # pt: a centred line's middle lies this close to the column's
CENTRED_INSET = 5             # pt: ... and it stops short of both edges by more than this
NEAR_DRAWING = 20             # pt: a caption overlaps its drawing's width, give or take this
CAPTION_TO_DRAWING = 40       # pt: a caption stands closer than this above or below its drawing
RULE_EDGE_SLACK = 4           # pt: rules of one float start and end together, within this
GUTTER = 6                    # pt: floats side by side leave at least this between their rules (and a float
                              # narrower than the column takes lines this far beyond them)
FRAMES_APART = 2              # pt: framed boxes side by side stand clear of each other by more than this
                              # (more than FRAME_SLACK: closer, they are one frame's parts drawn as pieces)
SIDE_FLOAT_WIDTH = 60         # pt: a float set beside another is wider than this
BOXES_TOUCH = 4               # pt: a float's boxes (a title bar, its frame) stand this close above each other
SIDE_FLOAT_REACH = 30         # pt: the lines cut at a gutter start this far above the floats' rules
CODE_LINE_STEP = 2.2          # em: lines of one code listing follow each other closer than this
FULL_LINE_EDGE = 4            # pt: a justified line ends this close to the column's right edge
SOLID_LINE_GAP = 0.5          # em: a line reads on from the one above when closer than this
CAPTION_WRAP_GAP = 0.6        # em: a caption's wrapped lines are set closer than this
CAPTION_SAME_SIZE = 0.5       # pt: a caption's lines share one type size
CAPTION_MAX_LINES = 6         # a caption is at most this many lines
RULE_BELOW_CAPTION = 60       # pt: a ruled float's first rule lies this close below its caption
FULL_WIDTH = 0.8              # of the column: a float this wide is not set beside another
RULED_AT_FOOT = 0.75          # of the page's height: an unclosed ruled float runs past this to the foot
RULES_ABOVE_CAPTION = 400     # pt: a table captioned below its rows has its rules within this above
FLOAT_BODY_GAP = 1.6          # em: an unruled float's lines follow each other closer than this ...
FLOAT_BODY_GAP_MIN = 14       # pt: ... or than this
HEADING_SIZE = 1.15           # of the body size: a larger line is a heading, not a float's body
FLOAT_MAX_LINES = 40          # an unruled float's body is at most this many lines
BODY_LINE_START = 20          # pt: a line of running text starts this close to the column's left edge
DRAWING_JOIN = 20             # pt: a drawn shape this close to the drawing is part of it
DRAWING_SIDE = 30             # pt: text drawn inside a figure lies within this of its shapes, across ...
DRAWING_ABOVE_BELOW = 12      # pt: ... and within this above and below them
SAME_LEFT = 2                 # pt: two lines start at one left edge
DRAWING_TEXT_ROUNDS = 3       # rounds: text found in a drawing widens its reach this many times at most


def _is_centred(line: Line, layout: Layout) -> bool:
    """Centred in the column and shorter than it (a justified line is centred too, but full)."""
    centre = (layout.left + layout.right) / 2
    return abs((line.x0 + line.x1) / 2 - centre) < CENTRED_SLACK and line.x0 > layout.left + CENTRED_INSET \
        and line.x1 < layout.right - CENTRED_INSET


def caption_context(line: Line, page: Page, layout: Layout) -> bool:
    """True where a line in the body face can still be a caption: it is centred in the column, or a
    drawing, an image or ruled rows lie right above or below it, or a framed picture right beside it."""
    if _is_centred(line, layout):
        return True
    near = [g for g in page.graphics + page.rules
            if g[0] < line.x1 + NEAR_DRAWING and g[2] > line.x0 - NEAR_DRAWING
            and (0 <= line.top - g[3] < CAPTION_TO_DRAWING or 0 <= g[1] - line.bottom < CAPTION_TO_DRAWING)]
    # a caption set beside its framed picture (KOMA-Script's captionbeside, a sidecap float): the
    # frame spans the line's height, just left or right of it (a line inside a frame is no such line)
    beside = [b for b in page.boxes if b[1] <= line.top and line.bottom <= b[3]
              and (0 <= b[0] - line.x1 < NEAR_DRAWING or 0 <= line.x0 - b[2] < NEAR_DRAWING)]
    return bool(near or beside)


def side_gutters(page: Page) -> list[tuple[float, float, float]]:
    """Where floats stand side by side (two algorithms, two tables, two framed listings): the page's
    rules and boxes form groups that stand next to each other, not above each other; each pair gives
    its gutter's x and the heights it spans (from a caption's reach above their rules to their foot)."""
    groups: list[list[tuple]] = []
    for r in sorted(page.rules + page.boxes, key=lambda r: (round(r[0]), round(r[2]))):
        for g in groups:
            if abs(g[0][0] - r[0]) < RULE_EDGE_SLACK and abs(g[0][2] - r[2]) < RULE_EDGE_SLACK \
                    and not _box_apart(g, r, page):
                g.append(r)
                break
        else:
            groups.append([r])
    cuts = []
    for a in groups:
        for b in groups:
            left, right = a[0], b[0]
            if left[2] + GUTTER < right[0] and left[2] - left[0] > SIDE_FLOAT_WIDTH \
                    and right[2] - right[0] > SIDE_FLOAT_WIDTH:
                top = max(min(r[1] for r in a), min(r[1] for r in b))
                bottom = min(max(r[3] for r in a), max(r[3] for r in b))
                if bottom > top:   # the two groups share height: side by side
                    cut = ((left[2] + right[0]) / 2, min(r[1] for r in a + b) - SIDE_FLOAT_REACH,
                           max(r[3] for r in a + b) + RULE_EDGE_SLACK)
                    if not _crosses_a_float(cut[0], (top, bottom), left, right, page):
                        cuts.append(cut)
    # Two framed boxes (tcolorbox, mdframed in minipages) may stand closer than a gutter of rules,
    # a few points apart; each pair that shares height is cut over its own height only, so the text
    # set across the column above or below the pair is left whole.
    frames = [b for b in page.boxes if b[2] - b[0] > SIDE_FLOAT_WIDTH]
    for left in frames:
        for right in frames:
            if left[2] + FRAMES_APART < right[0] and left[2] + GUTTER >= right[0] \
                    and min(left[3], right[3]) > max(left[1], right[1]):
                cuts.append(((left[2] + right[0]) / 2, min(left[1], right[1]) - SIDE_FLOAT_REACH,
                             max(left[3], right[3])))
    cuts.extend(_frames_beside_text(page, frames))
    return cuts


BESIDE_LINES = 2      # lines of words outside a frame, within its height: a column of text beside it
WORD_RE = re.compile(r"[^\W\d_]{2,}")   # two letters or more: a word, not a listing's line number


def _frames_beside_text(page: Page, frames: list[tuple]) -> list[tuple[float, float, float]]:
    """Cuts at the edges of frames set beside a column of text: a package manual shows an example's
    input on the left and what it typesets on the right in a frame, both top-aligned, so that their
    lines share baselines and the glyphs make one line of the two ("\\begin{law} Law 1. Don't hide
    …").  A frame holding two lines or more, with two or more lines of words outside it on one side,
    within its height, none of them reaching into it, is cut at that edge over its height.  (A light
    box behind a phrase holds one line; a listing's line numbers outside its frame are no words; text
    set across a frame's edge is not beside it.)"""
    cuts = []
    for box in frames:
        rows = [line for line in page.lines if box[1] <= (line.top + line.bottom) / 2 <= box[3]]
        held = sum(1 for line in rows if any(box[0] <= w.x0 and w.x1 <= box[2] for w in line.words))
        if held < BESIDE_LINES:
            continue
        for edge, outside in ((box[0], lambda w: w.x1 <= box[0]), (box[2], lambda w: w.x0 >= box[2])):
            if any(w.x0 < edge < w.x1 for line in rows for w in line.words):
                continue
            beside = sum(1 for line in rows
                         if any(outside(w) and WORD_RE.search(w.text) and not _in_another(w, box, page.boxes)
                                for w in line.words))
            if beside >= BESIDE_LINES:
                cuts.append((edge, box[1], box[3]))
    return cuts


def _in_another(word: Word, box: tuple, boxes: list[tuple]) -> bool:
    """Whether a word stands in a box other than `box` (a second frame beside the first: that pair is
    cut by the frames' own rule)."""
    return any(b is not box and b[0] <= word.x0 and word.x1 <= b[2] and b[1] <= word.top <= b[3] for b in boxes)


def _box_apart(group: list[tuple], box: tuple, page: Page) -> bool:
    """Whether a box (a filled or framed area) stands clear above or below a group's boxes of its
    width: a box is its float's whole extent (a listing's frame, its title bar touching it), so two
    boxes of one width a gap apart are two floats, one above the other, each with its own neighbours
    side by side; rules of one table stand apart by its rows and stay one group."""
    boxes = [r for r in group if r in page.boxes]
    return box in page.boxes and bool(boxes) and \
        all(box[1] - r[3] > BOXES_TOUCH or r[1] - box[3] > BOXES_TOUCH for r in boxes)


def _crosses_a_float(x: float, shared: tuple[float, float], left: tuple, right: tuple, page: Page) -> bool:
    """Whether a gutter at `x` between the floats `left` and `right` runs through a third float set
    between them at the heights they share: three framed listings in a row, the first and the last
    sharing height, and the gutter between those two is the middle one's body."""
    y0, y1 = shared
    return any(left[2] - RULE_EDGE_SLACK <= r[0] and r[2] <= right[0] + RULE_EDGE_SLACK and r[0] < x < r[2]
               and r[3] > y0 and r[1] < y1 for r in page.rules + page.boxes)


def _on_side_of(lines: list[Line], line: Line, cuts: list[tuple[float, float, float]]) -> list[Line]:
    """The lines on `line`'s side of every gutter whose heights hold it: a float set beside another
    takes its body from its own column, not the lines its neighbour sets at the same heights."""
    middle = (line.x0 + line.x1) / 2
    for x, y0, y1 in cuts:
        if y0 <= line.top <= y1:
            lines = [l for l in lines if not y0 <= l.top <= y1 or ((l.x0 + l.x1) / 2 < x) == (middle < x)]
    return lines


def _split_side_by_side(main: list[Line], page: Page, layout: Layout) -> list[Line]:
    """Floats set side by side: the lines beside them are cut at the gutter (side_gutters), so each
    float reads its own column."""
    cuts = side_gutters(page)
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


NOTE_SIZE = 0.8          # of a caption's size: a margin note on its baseline is set this small or smaller
NOTE_GAP = 1.0           # em: ... and stands this far or further left of the caption's first word
NUMBER_APART = 3.0       # em: a paragraph's number stands this far or further left of a centred caption


def _notes_off_captions(main: list[Line], layout: Layout) -> list[Line]:
    """Words set apart on a caption's baseline, left of it: the glyphs share a baseline and were read
    as one line, those words first, which no caption opens with, and the caption was not seen.  Two
    kinds stand there, each made a line of its own:

    - a margin note, in the margin left of the text block (a version mark "v3.06" beside "Table
      15.2.: Options …", as KOMA-Script's manuals set a feature's version beside the first line that
      names it): words that end left of the block, set smaller than the caption's, an em or more
      before it;
    - a paragraph's number, where a document numbers every paragraph at the block's edge and a
      float's caption, a paragraph too, gets one ("1.21" then "Table 1: Virtual Indexes" under the
      table): a lone number, then a caption standing several ems clear of it and of the block's
      right edge (centred on the room the number leaves), which a sentence running on from the
      number, a table's row reaching across or a contents entry ending at its page number is not."""
    out: list[Line] = []
    for line in main:
        words = line.words
        k = next((k for k, w in enumerate(words) if w.x1 > layout.left), len(words))
        rest = words[k:]
        noted = 0 < k and len(rest) >= 2 and rest[0].x0 - words[k - 1].x1 >= layout.body_size * NOTE_GAP and \
            all(w.size <= rest[0].size * NOTE_SIZE for w in words[:k])
        apart = layout.body_size * NUMBER_APART
        if not noted and len(words) >= 3 and PHRASE_NUMBER_RE.fullmatch(words[0].text) and \
                words[1].x0 - words[0].x1 >= apart and words[-1].x1 <= layout.right - apart:
            k, rest, noted = 1, words[1:], True
        if noted:
            head = match_head(Line(rest, line.page), layout.body_font)
            if head is not None and (head.sep or head.kind in FLOAT_KINDS):
                out.extend([Line(words[:k], line.page), Line(rest, line.page)])
                continue
        out.append(line)
    return out


CAPTION_PAIR_GAP = 1.0   # em: two captions side by side stand at least this far apart on their baseline
CAPTION_PAIR_BASELINE = 0.5   # pt: ... on one baseline (rounded)


def _captions_side_by_side(main: list[Line], layout: Layout) -> list[Line]:
    """Floats set side by side in minipages, each with its caption ("Figure 3.7.: With …" and "Figure
    3.8.: With …" on one baseline, their wrapped lines beside each other): the caption lines are cut
    where the second caption starts, the left caption's lines first, so each caption reads its own."""
    out: list[Line] = []
    i = 0
    while i < len(main):
        x = _second_caption_at(main[i], layout)
        if x is None and i + 1 < len(main):
            x = _caption_beside(main[i], main[i + 1], layout)
        if x is None:
            out.append(main[i])
            i += 1
            continue
        block = [main[i]]
        for line in main[i + 1:i + CAPTION_MAX_LINES]:
            if line.top - block[-1].bottom > line.size * CAPTION_WRAP_GAP or \
                    any(w.x0 < x < w.x1 for w in line.words):
                break
            block.append(line)
        for side in ([[w for w in l.words if w.x1 <= x] for l in block], [[w for w in l.words if w.x0 >= x] for l in block]):
            lines = [words for words in side if words]
            out.extend([PairedCaption(lines[0], block[0].page)] + [Line(words, block[0].page) for words in lines[1:]])
        i += len(block)
    return out


def _second_caption_at(line: Line, layout: Layout) -> float | None:
    """Where a second caption starts on a caption's line: the same word, a number and a separator
    after a gap of an em or more (the middle of that gap); None when the line holds one."""
    words = line.words
    head = match_head(line, layout.body_font) if len(words) > 3 else None
    if head is None or not (head.sep or head.kind in FLOAT_KINDS):
        return None
    for k in range(2, len(words) - 1):
        if words[k].text != words[0].text or words[k].x0 - words[k - 1].x1 < layout.body_size * CAPTION_PAIR_GAP:
            continue
        other = match_head(Line(words[k:], line.page), layout.body_font)
        if other is not None and other.kind == head.kind and other.sep == head.sep and _next_number(head, other):
            return (words[k - 1].x1 + words[k].x0) / 2
    return None


def _next_number(head: Head, other: Head) -> bool:
    """Whether `other` numbers the thing right after `head`'s ('3.8' after '3.7', '2' after '1')."""
    before, _, last = head.number.rpartition(".")
    after, _, this = other.number.rpartition(".")
    return before == after and last.isdigit() and this.isdigit() and int(this) == int(last) + 1


class PairedCaption(Line):
    """A caption's line cut from its neighbour's: two floats side by side, each captioned in its
    minipage (its place is its pair's, not the column's middle)."""


def _caption_beside(line: Line, after: Line, layout: Layout) -> float | None:
    """Where a second caption starts beside a caption's line already cut from it (at a gutter between
    ruled tables, side_gutters): the next line on its baseline, an em or more to its right, with the
    same word and separator (the middle of the gap between them); else None."""
    if abs(after.baseline - line.baseline) > CAPTION_PAIR_BASELINE or \
            after.x0 - line.x1 < layout.body_size * CAPTION_PAIR_GAP or after.words[0].text != line.words[0].text:
        return None
    head = match_head(line, layout.body_font)
    other = match_head(after, layout.body_font) if head is not None else None
    if other is None or other.kind != head.kind or other.sep != head.sep or not (head.sep or head.kind in FLOAT_KINDS) \
            or not _next_number(head, other):
        return None
    return (line.x1 + after.x0) / 2


def _caption_title(text: str, head: Head) -> str:
    """A caption's text after its "Figure 3.2:" head (or "Table 1 –", the dash its separator)."""
    m = HEAD_RE.match(text)
    if not m:
        return head.rest
    rest = m.group("rest").strip()
    return rest.lstrip("".join(CAPTION_DASHES)).lstrip() if head.sep == "–" else rest


def _code_near(main: list[Line], cap: list[Line], used: set[int], boxes: list = (),
               below_only: bool = False) -> list[Line]:
    """Monospaced lines right below (else right above) a listing's caption.  Lines set on one
    shaded box are one listing whatever blank lines part them."""
    below = [l for l in main if l.top >= cap[-1].bottom - 1 and id(l) not in used]
    above = [] if below_only else [l for l in reversed(main) if l.bottom <= cap[0].top + 1 and id(l) not in used]
    for run in (below, above):
        body, last = [], None
        for l in run:
            if not all(w.mono for w in l.words) or (last is not None and abs(l.top - last.top) > l.size * CODE_LINE_STEP
                                                    and not _on_one_box(last, l, boxes)):
                break
            body.append(l)
            last = l
        if body:
            return sorted(body, key=lambda l: l.top)
    return []


def _on_one_box(a: Line, b: Line, boxes: list) -> bool:
    """Both lines lie inside one filled box."""
    return any(x0 - 1 <= min(a.x0, b.x0) and max(a.x1, b.x1) <= x1 + 1 and y0 - 1 <= min(a.top, b.top)
               and max(a.bottom, b.bottom) <= y1 + 1 for x0, y0, x1, y1 in boxes)


def _running_text(line: Line, layout: Layout) -> bool:
    """A line of a justified paragraph, no row of a table: six words or more from the column's edge (or a
    paragraph's indent) to its other edge, no gap between them as wide as the one between a table's
    cells (CELL_GAP, below).  A float set at a page's top is followed by the text within a line's space
    or two (the float's separation, shrunk, and a tall formula's ink in the line under it), so only the
    line itself says where the float's rows end."""
    words = line.words
    return len(words) >= FULL_LINE_WORDS and line.x1 >= layout.right - FULL_LINE_EDGE and \
        line.x0 <= layout.left + BODY_LINE_START and \
        all(b.x0 - a.x1 < max(a.size, b.size) * CELL_GAP for a, b in zip(words, words[1:]))


def _continues_paragraph(above: Line, line: Line, layout: Layout) -> bool:
    """True when line reads on from a justified line right above it at ordinary line spacing."""
    return above.x1 >= layout.right - FULL_LINE_EDGE and line.top - above.bottom < line.size * SOLID_LINE_GAP and \
        abs(line.x0 - layout.left) < FULL_LINE_EDGE and len(above.words) >= FULL_LINE_WORDS


def _caption_lines(main: list[Line], i: int, used: set[int], rules: list = (), body_font: str = "") -> list[Line]:
    """A caption line and the lines its text wraps onto (same type size, tight spacing, no rule between)."""
    lines = [main[i]]
    for nxt in main[i + 1:]:
        gap = nxt.top - lines[-1].bottom
        ruled = any(lines[-1].bottom - 1 <= r[1] <= nxt.top + 1 for r in rules)
        if id(nxt) in used or gap > nxt.size * CAPTION_WRAP_GAP or abs(nxt.size - lines[0].size) > CAPTION_SAME_SIZE \
                or is_head_like(nxt) or ruled:
            break
        lines.append(nxt)
        if len(lines) >= CAPTION_MAX_LINES:
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
    below = [r for r in rules if r[1] - cap_bottom < RULE_BELOW_CAPTION]
    if below:
        first = below[0]
        same = [r for r in rules if abs(r[0] - first[0]) < RULE_EDGE_SLACK and abs(r[2] - first[2]) < RULE_EDGE_SLACK
                and r[1] > first[1] + RULE_EDGE_SLACK]
        # The float ends at the next rule of the same width, or (tables: top, mid and bottom
        # rules) at the last one before another caption starts.
        end = first[1]
        for r in same:
            between = [l for l in main if end < l.top < r[1] and is_head_like(l)
                       and (l.bold or ":" in l.text.split()[1][-1:])]
            if between:
                break
            end = r[1]
            if below_only:
                break
        # A float narrower than the column (side by side with another) takes the lines within its rules' width.
        within = (lambda l: True) if first[2] - first[0] > (layout.right - layout.left) * FULL_WIDTH else \
            (lambda l: first[0] - GUTTER <= (l.x0 + l.x1) / 2 <= first[2] + GUTTER)
        if end > first[1]:
            return [l for l in main if id(l) not in used and first[1] - 2 <= (l.top + l.bottom) / 2 <= end + 2
                    and within(l)]
        if below_only and not same:
            # An opening rule and no closing one: the float breaks at the page's foot and goes on overleaf.
            body = _OpenEnded(l for l in main if id(l) not in used and l.top > first[1] - 2)
            if body and body[-1].bottom > page.height * RULED_AT_FOOT:
                return body
    if not below_only:
        above = [r for r in page.rules if r[0] < layout.margin_x and r[3] <= cap_top + 2
                 and cap_top - r[3] < RULES_ABOVE_CAPTION]
        # the table's own rules: those as wide as the one right above the caption (its rules start and
        # end together, as below a caption), not a drawing's or another float's higher up the page
        last = max(above, key=lambda r: r[3], default=None)
        own = [r for r in above if abs(r[0] - last[0]) < RULE_EDGE_SLACK and abs(r[2] - last[2]) < RULE_EDGE_SLACK]
        if len(own) >= 2:
            above = own
        if len(above) >= 2:
            top = min(r[1] for r in above)
            return [l for l in main if id(l) not in used and top - 2 <= (l.top + l.bottom) / 2 <= cap_top]
    # No rules: the lines that follow, up to a wide gap (none between lines on one shaded box: code's
    # blank lines), a heading-sized line, another caption or a line of running text.
    body, last = [], cap_bottom
    for l in main:
        if l.top < cap_bottom or id(l) in used:
            continue
        if l.top - last > max(l.size * FLOAT_BODY_GAP, FLOAT_BODY_GAP_MIN) and not (body and _on_one_box(
                body[-1], l, page.boxes)) or is_head_like(l) \
                or l.size > layout.body_size * HEADING_SIZE or len(body) >= FLOAT_MAX_LINES or _running_text(l, layout):
            break
        body.append(l)
        last = l.bottom
    return body


def _typeset_rule(g: tuple, lines: list[Line], radicals: bool = False, by_words: bool = False) -> bool:
    """A fraction's bar typeset in the text, not a stroke of a drawing: a thin rule with glyphs just
    above it and just below it, within its ends, the wider of the two as wide as the rule (TeX sets
    the bar to its numerator's or denominator's width; a drawing's line with labels is longer); with
    `radicals`, also a radical's, which starts at the sign's top right, over glyphs; with `by_words`,
    also an overline within the ends of the word under it.  (A figure's drawing keeps its labels'
    radical bars: its drawn text is what lies within the reach of its shapes, a label's bar among them.)"""
    if g[3] - g[1] > FRACTION_RULE_THICKNESS:
        return False
    near = [l for l in lines if _touches(l, g)]
    above = [l for l in near if g[1] - FRACTION_RULE_REACH <= l.bottom <= g[3] + 1]
    below = [l for l in near if g[1] - 1 <= l.top <= g[3] + FRACTION_RULE_REACH]
    # a numerator's superscript (a denominator's subscript) may be read as a line of its own, standing
    # within the height of the line it is set on
    seen = {id(l) for l in above + below}
    above += [l for l in lines if id(l) not in seen and l.bottom <= g[1]
              and any(l.top < a.bottom and a.top < l.bottom for a in above)]
    below += [l for l in lines if id(l) not in seen and l.top >= g[3]
              and any(l.top < b.bottom and b.top < l.bottom for b in below)]
    over = [w for l in above for w in l.words if w.x0 < g[2] and w.x1 > g[0]]
    under = [w for l in below for w in l.words if w.x0 < g[2] and w.x1 > g[0]]
    # a radical's bar: it starts at the top of the sign's right end (in the upper half of the sign's box,
    # which a text-size sign's font makes taller than its ink), over the radicand
    band = [w for l in lines if l.top - FRACTION_RULE_REACH <= g[1] <= l.bottom for w in l.words] if radicals else []
    # (a sign taller than TeX's largest is built of pieces: a foot ⎷ and straight pieces ⏐ up to the bar)
    if band and any(w.text.endswith(("\u221a", "\u23d0", "\u23b7")) and abs(w.x1 - g[0]) <= FRACTION_RULE_REACH
                    and w.top - FRACTION_RULE_REACH <= g[1] <= (w.top + w.bottom) / 2 for w in band) and \
            any(w.x0 < g[2] and w.x1 > g[0] and g[1] - 1 <= w.top <= g[3] + w.size for w in band + under):
        return True
    if _parts_fit(g, over, under):
        return True
    if by_words:
        # a small fraction's parts may come in one line of the text layer with what stands beside the
        # fraction (ε(1−γ) over r_max inside a tall ceiling, a part's last script on the line beside
        # it): its words, by their own boxes (in a side note's display; a figure's drawing keeps its
        # labels' bars)
        words = [w for l in near for w in l.words if w.x0 < g[2] and w.x1 > g[0]]
        over = [w for w in words if g[1] - FRACTION_RULE_REACH <= w.bottom <= g[3] + 1]
        under = [w for w in words if g[1] - 1 <= w.top <= g[3] + FRACTION_RULE_REACH]
        if _parts_fit(g, over, under):
            return True
        # an overline (\overline{X}_{n}): a rule no longer than the word just under it, within its ends
        return any(w.x0 - 1 <= g[0] and g[2] <= w.x1 + 1 for w in under)
    return False


def _parts_fit(g: tuple, over: list[Word], under: list[Word]) -> bool:
    """Whether words over and under a rule are a fraction's parts: both there, within its ends, the
    wider of the two as wide as the rule."""
    if not over or not under:
        return False
    spans = [(min(w.x0 for w in ws), max(w.x1 for w in ws)) for ws in (over, under)]
    within = all(g[0] - FRACTION_RULE_REACH <= a and b <= g[2] + FRACTION_RULE_REACH for a, b in spans)
    return within and max(b - a for a, b in spans) >= (g[2] - g[0]) - FRACTION_RULE_REACH


def _touches(l: Line, g: tuple) -> bool:
    return l.top - FRACTION_RULE_REACH <= g[3] and l.bottom + FRACTION_RULE_REACH >= g[1] and \
        any(w.x0 < g[2] and w.x1 > g[0] for w in l.words)


FRACTION_RULE_THICKNESS = 1.6   # pt: a fraction's bar is a rule this thin or thinner
FRACTION_RULE_REACH = 4         # pt: its numerator ends, and its denominator starts, this close to it


def _drawing_text(page: Page, main: list[Line], cap: list[Line], used: set[int], layout: Layout) -> list[Line]:
    """Text inside the drawing next to a figure caption (above or below it), never body text.

    The drawing is the cluster of drawn shapes nearest the caption on its side: shapes join it
    while they lie within a line's height of it, so formulas further on (fraction bars, radicals)
    are not taken for part of the figure."""
    def is_body(l: Line) -> bool:
        return id(l) in used or is_head_like(l) or equation_label(l, layout) is not None or (
            l.x1 >= layout.right - FULL_LINE_EDGE and l.x0 <= layout.left + BODY_LINE_START
            and len(l.words) >= FULL_LINE_WORDS)
    top, bottom = cap[0].top, cap[-1].bottom
    # a ruled frame is the figure itself when no other drawn shape stands between it and the caption
    # (a recipe in an \fbox over its caption); else it bounds the drawing, as a filled box does
    filled = [b for b in page.boxes if not isinstance(b, RuledFrame) or any(
        b[3] < g[1] and g[3] <= top + 2 or bottom - 2 <= g[1] and g[3] < b[1] for g in page.graphics)]
    floor = max([l.bottom for l in main if is_body(l) and l.bottom <= top]
                + [b[3] for b in filled if b[3] <= top] + [0.0])
    ceiling = min([l.top for l in main if is_body(l) and l.top >= bottom]
                  + [b[1] for b in filled if b[1] >= bottom] + [page.height])
    typeset = [g for g in page.graphics if _typeset_rule(g, main)]
    shapes = [g for g in page.graphics if g not in typeset]
    above = [g for g in shapes if floor < g[1] and g[3] <= top + 2 and g[0] < layout.margin_x]
    below = [g for g in shapes if g[1] >= bottom - 2 and g[3] < ceiling and g[0] < layout.margin_x]
    # A rule alone (a statement's closing rule, a table's) is no drawing: a drawing has height.
    if below and max(g[3] for g in below) - min(g[1] for g in below) < layout.body_size:
        below = []
    if above and max(g[3] for g in above) - min(g[1] for g in above) < layout.body_size:
        above = []
    gap_above = top - max((g[3] for g in above), default=-1e9)
    gap_below = min((g[1] for g in below), default=1e9) - bottom
    # Drawings stacked between captions: a drawing with another caption on its far side is shared,
    # and the caption takes the one that is not (the page's captions all stand below, or all above).
    caption_above = any(is_head_like(l) and l.bottom == floor for l in main)
    caption_below = any(is_head_like(l) and l.top == ceiling for l in main)
    if above and below and caption_below != caption_above:
        gap_above, gap_below = (0, 1) if caption_below else (1, 0)
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
            if g[1] <= y1 + DRAWING_JOIN and g[3] >= y0 - DRAWING_JOIN:
                cluster.append(g)
                rest.remove(g)
                y0, y1 = min(y0, g[1]), max(y1, g[3])
                grew = True
    region = (min(g[0] for g in cluster) - DRAWING_SIDE, y0 - DRAWING_ABOVE_BELOW,
              max(g[2] for g in cluster) + DRAWING_SIDE, y1 + DRAWING_ABOVE_BELOW)
    line_above = {id(b): a for a, b in zip(main, main[1:])}

    def ends_paragraph(l: Line) -> bool:
        # set solid under a full line of running text, at its left edge: the paragraph's last line,
        # however close to the drawing below it
        a = line_above.get(id(l))
        return a is not None and is_body(a) and abs(l.x0 - a.x0) <= SAME_LEFT and \
            0 <= l.top - a.bottom < layout.body_size

    def drawn(l: Line) -> bool:
        # inside the drawing's reach; or a short line that reaches into it from beside it (an axis's
        # tick labels, set flush against the axis however wide they are)
        return not ends_paragraph(l) and (inside(l, region, pad=2) or (
            not _is_prose(l)
            and l.x1 > region[0] and l.x0 < region[2]
            and l.top < region[3] and l.bottom > region[1]))
    # a line beside a fraction's bar or under a radical is a display's row, never a drawing's label
    candidates = [l for l in main if id(l) not in used and lo < l.top and l.bottom < hi + 1
                  and not any(_touches(l, r) for r in typeset)]
    taken: list[Line] = []
    for _ in range(DRAWING_TEXT_ROUNDS):
        # an axis's title stands beyond its tick labels: the text found widens the drawing's reach
        seen = {id(l) for l in taken}
        more = [l for l in candidates if id(l) not in seen and drawn(l)]
        if not more:
            break
        taken += more
        region = (min([region[0]] + [l.x0 - DRAWING_SIDE for l in more]),
                  min([region[1]] + [l.top - DRAWING_ABOVE_BELOW for l in more]),
                  max([region[2]] + [l.x1 + DRAWING_SIDE for l in more]),
                  max([region[3]] + [l.bottom + DRAWING_ABOVE_BELOW for l in more]))
    return sorted(taken, key=lambda l: (l.top, l.x0))


def _uncaptioned_drawings(page: Page, main: list[Line], used: set[int], layout: Layout) -> list[Item]:
    """Text drawn inside a drawing no caption names (a circuit in an example, a plot set inline): the
    labels standing among its strokes, as one "drawn" item per drawing, never lines of prose.

    A drawing is a cluster of the main column's drawn shapes with at least two paths that curve or
    slant (a circle, an arrowhead, a resistor's zigzag, a plotted curve): a table's rules and shaded
    cells, an augmented matrix's bar, are rectangles; a fraction's bar is typeset with its text; and
    a shape holding a line of text (a frame, a title bar, a shaded cell) is where text is set."""
    free = [l for l in main if id(l) not in used]
    if not free or sum(1 for g in page.strokes if g[0] < layout.margin_x) < DRAWING_MIN_STROKES:
        return []
    width = layout.right - layout.left
    worded = [l for l in main if _is_prose(l) or is_head_like(l)]

    def holds_text(g: tuple) -> bool:
        # a frame or a bar across the column, a shaded paragraph, a cell's shading one line tall; and
        # a shape across a line of prose (a path's bounds take in its curves' control points, so an
        # arc's reach can cover text it never touches)
        return g[2] - g[0] >= width * FULL_WIDTH or any(
            l.x0 < g[2] and g[0] < l.x1 and l.top < g[3] and g[1] < l.bottom for l in worded) or any(
            inside(l, g, pad=1) and g[3] - g[1] < (l.bottom - l.top) * TEXT_BACKING for l in main)
    shapes = [g for g in page.graphics if g[0] < layout.margin_x and not _typeset_rule(g, main)
              and not holds_text(g)]
    strokes = set(page.strokes)
    items: list[Item] = []
    for cluster in _shape_clusters(shapes):
        solid = [g for g in cluster if g in strokes]
        x0, y0 = min(g[0] for g in cluster), min(g[1] for g in cluster)
        x1, y1 = max(g[2] for g in cluster), max(g[3] for g in cluster)
        if len(solid) < DRAWING_MIN_STROKES or min(x1 - x0, y1 - y0) < layout.body_size * DRAWING_MIN_EM:
            continue
        pad = layout.body_size
        region = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        # a label stands among the strokes or within an em of them, beside ("18 volts" left of its
        # battery), above or below: most of its height inside that reach (a display's row above, its
        # tall delimiters' boxes reaching down towards the drawing, stays the display's)
        labels = [l for l in free if id(l) not in used
                  and min(l.bottom, region[3]) - max(l.top, region[1]) > (l.bottom - l.top) / 2
                  and l.x1 > region[0] and l.x0 < region[2] and not _is_prose(l) and not _is_sentence(l)
                  and equation_label(l, layout) is None and not is_head_like(l)]
        if not labels:
            continue
        used.update(id(l) for l in labels)
        labels.sort(key=lambda l: (round(l.top), l.x0))
        items.append(Item(min(y0, labels[0].top), "drawn", text=" / ".join(l.text for l in labels),
                          bottom=max([y1] + [l.bottom for l in labels])))
    return items


def _shape_clusters(shapes: list[tuple]) -> list[list[tuple]]:
    """Drawn shapes grouped by nearness: each shape widened by half of DRAWING_JOIN is entered in the
    cells of a grid of that pitch it covers, and shapes sharing a cell join (union-find), so a page
    of thousands of strokes costs the cells they cover, not every pair."""
    parent = list(range(len(shapes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    first_in: dict[tuple[int, int], int] = {}
    half = DRAWING_JOIN / 2
    for i, g in enumerate(shapes):
        for cx in range(int((g[0] - half) // DRAWING_JOIN), int((g[2] + half) // DRAWING_JOIN) + 1):
            for cy in range(int((g[1] - half) // DRAWING_JOIN), int((g[3] + half) // DRAWING_JOIN) + 1):
                j = first_in.setdefault((cx, cy), i)
                a, b = root(i), root(j)
                if a != b:
                    parent[a] = b
    clusters: dict[int, list[tuple]] = {}
    for i, g in enumerate(shapes):
        clusters.setdefault(root(i), []).append(g)
    return list(clusters.values())


def _is_sentence(line: Line) -> bool:
    """A line of words closed as a sentence ("Draw the sum."), which no drawing's label is."""
    return line.text.rstrip()[-1:] in ".:?" and any(PROSE_WORD_RE.fullmatch(w.text) for w in line.words)


TEXT_BACKING = 2.5            # lines: a shape holding a line and less tall than this is the line's backing
DRAWING_MIN_STROKES = 2       # paths that curve or slant: fewer, and the shapes are no drawing
DRAWING_MIN_EM = 2            # em: a drawing is at least this tall and this wide


# --------------------------------------------------------------------------- floats across pages
"""Floats across pages: a boxed or ruled float broken at a page's foot goes on overleaf."""

BOX_GOES_ON = 0.25      # of the page's height: the box that continues a float starts above this
RULE_CLOSES = 0.6       # of the page's height: the rule that closes a continued float lies above this


@dataclass
class FloatCarry:
    """A float broken at the foot of a page: its chunk, how it is bounded ("box" or "ruled"), its page."""

    chunk: Chunk
    how: str
    page: int


def continued_float(carry: FloatCarry | None, page: Page, items: list[Item], layout: Layout) -> list[Item]:
    """A boxed or ruled float broken at the foot of the previous page: the lines at the head of this
    page that continue it (inside an uncaptioned box at the top, or down to the closing rule) are
    appended to it and leave the text flow."""
    if carry is None or carry.page != page.number - 1:
        return items
    lines = [it for it in items if it.kind == "line"]
    if not lines:
        return items
    if carry.how == "box":
        box = next((b for b in sorted(page.boxes, key=lambda b: b[1]) if b[1] < page.height * BOX_GOES_ON), None)
        taken = [it for it in lines if box is not None and inside(it.line, box)]
    else:
        top = min(it.line.top for it in lines)
        closing = min((r[1] for r in page.rules if r[1] > top and r[0] < layout.margin_x), default=None)
        if carry.how == "head":
            # a table closed at the page's foot goes on here only under its head row repeated (XSL-FO's
            # table-header, LaTeX's longtable \endhead, a word processor's repeated header row), the
            # page's first line; the first rule is the head row's own, and the rows under it run down
            # to the grid's foot, or to the next rule (a table ruled only across)
            first = min(lines, key=lambda it: it.line.top).line
            head = _table_head(carry.chunk.content)
            if closing is None or not head or _letters(first.text) != head:
                return items
            foot = _grid_foot(closing, page, layout)
            closing = foot if foot > closing else min(
                (r[1] for r in page.rules if r[1] > closing + GRID_SLACK and r[0] < layout.margin_x), default=closing)
            taken = [it for it in lines if it.line.bottom <= closing + 2]
        else:
            taken = [it for it in lines if closing is not None and it.line.bottom <= closing + 2] \
                if closing is not None and closing < page.height * RULE_CLOSES else []
    if not taken:
        return items
    chunk = carry.chunk
    body = [it.line for it in taken]
    if carry.how == "head":
        # the rows under the repeated head row, read with it (its columns) and added under the first
        # page's rows; the head row itself is not added again
        rows = table_markdown(body, page.bars).split("\n")[2:]
        if rows:
            chunk.content = f"{chunk.content}\n" + "\n".join(rows)
            chunk.extra["continued_on_pdf_page"] = page.number
        ids = {id(it) for it in taken}
        return [it for it in items if id(it) not in ids]
    if body and all(w.mono for l in body for w in l.words):
        more = code_text(body, min(l.x0 for l in body))
    else:
        more, plain = framed_text(body, layout, page.bars)
        if "text" in chunk.extra or plain != more:
            chunk.extra["text"] = f"{chunk.extra.get('text') or chunk.content}\n{plain}".strip()
    chunk.content = f"{chunk.content}\n{more}".strip()
    chunk.extra["continued_on_pdf_page"] = page.number
    ids = {id(it) for it in taken}
    return [it for it in items if id(it) not in ids]


GRID_SLACK = 1.5   # pt: a grid's upright rule starts and ends this close to the rules it joins


def _grid_foot(closing: float, page: Page, layout: Layout) -> float:
    """The rule that closes a float's rows on the page, from the first rule under its first line: a
    table ruled as a grid (every row ruled off, each cell's sides drawn upright) goes on past that
    rule while an upright rule runs from it down to the next, so its foot is the last rule so
    reached; a table ruled only across (booktabs) has no such upright rule and keeps the first."""
    uprights = [b for b in page.bars if b[3] - b[1] > b[2] - b[0] and b[0] < layout.margin_x]
    while True:
        down = [b[3] for b in uprights if abs(b[1] - closing) <= GRID_SLACK and b[3] > closing + GRID_SLACK]
        below = [r[1] for r in page.rules if r[0] < layout.margin_x and r[1] > closing + GRID_SLACK and
                 any(abs(r[1] - end) <= GRID_SLACK for end in down)]
        if not below:
            return closing
        closing = min(below)


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _table_head(content: str) -> str:
    """A table chunk's head row (its first row in Markdown), as its letters and digits; "" if none."""
    row = next((l for l in content.split("\n") if l.startswith("|")), "")
    return _letters(row)


# --------------------------------------------------------------------------- equations
"""Equations: numbered displays inside floats, and the lines of a display in the running text."""


LABEL_ROWS = 3          # lines: a number standing alone is centred on a display of at most this many rows each way
LABEL_ROW_REACH = 24    # pt: ... whose rows stand this close to it


CELL_GAP = 1.0          # em: a table's cells stand at least this far apart across a column's gap
DROPPED_CELL_GAP = 0.5  # em: a display's lines (a fraction's parts, its number dropped below) stand closer
                        # than this; a table's rows, \addlinespace or an \arraystretch apart, further


def _own_cell(lines: list[Line], labelled: Line, body: float, bars=()) -> tuple[list[Line], Line]:
    """A table's lines without the cells of columns left of the numbered display's own (a row's head,
    "by age", set level with the display's numerator or accent): the words that end a column's gap
    or more before the labelled row's first maths (equation numbers stay: they may stand on the left);
    and without the rows beyond the table's rules above and below it (a rule that reaches left of the
    cell is the table's, not a fraction's bar).  The labelled line comes back as cut too."""
    maths = [w for w in labelled.words if is_math_word(w) and equation_number(w.text) is None]
    # the display's lines: the run of lines around the labelled one, each closer to the next than a
    # table's rows stand (the row's head cell among them, cut below)
    dropped = not maths and len(labelled.words) == 1
    run = _line_run(lines, labelled, body, down=not dropped)
    if dropped:
        # the number dropped below its display (a row that leaves it no room): the display is the run
        # right above it, and the table's other rows are not in it; or raised above it (leqno), when
        # no maths stands above: the run right below
        maths = [w for l in run for w in l.words if is_math_word(w) and equation_number(w.text) is None]
        nearest = max((l for l in run if any(is_math_word(w) for w in l.words)), key=lambda l: l.bottom, default=None)
        below = [l for l in _line_run(lines, labelled, body, up=False) if any(is_math_word(w) for w in l.words)]
        if below and all(l.x0 > labelled.x0 for l in below) and \
                (nearest is None or labelled.x1 < nearest.x1 - TAG_BELOW_ALIGN):
            # (a number dropped below ends where its row ends, or further right; one short of the
            # maths above it, left of all the maths right below it, was raised over that row)
            run = _line_run(lines, labelled, body, up=False)
            maths = [w for l in run for w in l.words if is_math_word(w) and equation_number(w.text) is None]
        lines = [l for l in lines if l is labelled or any(l is r for r in run)]
    if not maths:
        return lines, labelled
    start = min(w.x0 for w in maths) - body * CELL_GAP
    # beyond the run, a line with a cell in another column (a row's head) and no number of its own is the
    # table's other row (a numbered row beside it is a display's, whose limits may reach between them)
    lines = [l for l in lines if l is labelled or any(l is r for r in run) or not any(w.x1 < start for w in l.words)
             or any(equation_number(w.text) for w in l.words)]
    across = [b for b in bars if b[0] < start - body and b[2] >= max(w.x1 for w in maths)]
    above = max((b[3] for b in across if b[3] <= labelled.top), default=-math.inf)
    below = min((b[1] for b in across if b[1] >= labelled.bottom), default=math.inf)
    lines = [l for l in lines if l is labelled or above < (l.top + l.bottom) / 2 < below]
    out, cut = [], labelled
    for line in lines:
        keep = [w for w in line.words if w.x1 > start or equation_number(w.text)]
        if line is not labelled and keep and not any(is_math_word(w) for w in keep) and \
                (line.bottom <= labelled.top or line.top >= labelled.bottom) and not (dropped and any(line is r for r in run)):
            continue     # a row of words above or below it in its column (the table's other rows)
        elif keep:
            out.append(Line(keep, line.page))
            cut = out[-1] if line is labelled else cut
    return out, cut


def _line_run(lines: list[Line], labelled: Line, body: float, down: bool = True, up: bool = True) -> list[Line]:
    """The lines next to `labelled` (above it when `up`, below it when `down`), each within
    DROPPED_CELL_GAP of the run so far: a display's lines in a table's cell."""
    run: list[Line] = []
    top, bottom = labelled.top, labelled.bottom
    for line in sorted((l for l in lines if up and l is not labelled and l.top < labelled.top), key=lambda l: -l.bottom):
        if top - line.bottom > body * DROPPED_CELL_GAP:
            break
        run.append(line)
        top = min(top, line.top)
    if down:
        for line in sorted((l for l in lines if l is not labelled and l.top >= labelled.top), key=lambda l: l.top):
            if line.top - bottom > body * DROPPED_CELL_GAP:
                break
            run.append(line)
            bottom = max(bottom, line.bottom)
    return run


LIMIT_OVERHANG = 0.5   # em: how far a limit's row may start before (or end after) the row it stands under


def equations_in(lines: list[Line], layout: Layout, context: str, bars=(), cells: bool = False,
                 shown: list | None = None) -> list[Item]:
    """Numbered equations displayed inside a box or float (pseudocode, a table's cell), as formula
    entities: their LaTeX read from the display's glyphs, or their text where it cannot be read.
    In a table (`cells`), a display is read from its own cell's column only.  `shown` receives each
    display read as (its lines' ids, the display as the text shows it: "$$…$$ (5.3)")."""
    out = []
    read: dict[str, str] = {}
    # A float's or box's numbers end at its own right edge (the frame's padding, a cell's width), not
    # the column's: the rightmost end of its lines stands for it, where a number follows maths.
    inner = replace(layout, right=max((l.x1 for l in lines), default=layout.right), label_right=0.0)

    def ruled_row(line: Line) -> bool:
        """A row of an array whose column rule runs through it, among its words (a table of figures set
        as a display: its cells need be no maths).  Not in a table's cells, whose rules are the table's."""
        words = line.words[:-1]
        return not cells and len(words) > 1 and any(
            b[2] - b[0] < layout.body_size * 0.2 and b[1] <= line.top + 1 and b[3] >= line.bottom - 1
            and words[0].x1 < b[0] < words[-1].x0 for b in bars)

    def shared_edge(line: Line) -> bool:
        """Whether a row with a relation, short of the block's rightmost end, ends within an equation
        number's slack where two other lines of the block end too."""
        if cells or line.x1 >= inner.right - LABEL_AT_EDGE or \
                not any(c in RELATIONS for w in line.words[:-1] for c in w.text):
            return False      # (a table's columns of figures end together too: only an equation's row)
        return sum(1 for l in lines if l is not line and abs(l.x1 - line.x1) <= MEASURE_EDGE_SLACK) >= 2

    def label(line: Line) -> str | None:
        number = equation_label(line, layout)
        if number is None and (len(line.words) == 1 or any(is_math_word(w) for w in line.words[:-1]) or (
                any(c in RELATIONS for w in line.words[:-1] for c in w.text) and not prose_pair(line.words[:-1]))
                or ruled_row(line)):
            # after maths, or alone on its line (centred on a display of several rows, split's), or
            # after a row of relations and no prose (stacked fractions' middle row, "= 2 = .", whose
            # signs a text face's roman may print)
            number = equation_label(line, inner)
        if number is None and shared_edge(line):
            # an overfull row (its own number dropped below it) runs past the measure: a number ends
            # where the measure's other lines end together (a side note's justified prose)
            number = equation_label(line, replace(inner, right=line.x1))
        if number is None and len(line.words) > 1:
            # on the left, a float's numbers stand at its own indent (a pseudocode step's), apart from
            # the maths they number
            first = min(line.words, key=lambda w: w.x0)
            rest = [w for w in line.words if w is not first]
            gap = min(w.x0 for w in rest) - first.x1
            if gap > layout.body_size * LEFT_LABEL_GAP and any(is_math_word(w) for w in rest) or \
                    gap > layout.body_size * LEFT_LABEL_MATHS_GAP and math_share(rest) >= FLOAT_LABEL_MATHS \
                    and any(ch in RELATIONS for w in rest for ch in w.text) or \
                    left_tag_before_maths(first, sorted(rest, key=lambda w: w.x0), layout.body_size):
                # (or closer, before an equation mostly of maths: a cell's narrow column sets its
                # display less than two ems after the number; a row of numbers "(00000) (10000)" is
                # no equation)
                number = equation_number(first.text)
        if number is None and cells and len(line.words) > 1:
            number = _cell_tag(line, layout.body_size)
        if number is None and len(line.words) == 1 and equation_number(line.words[0].text):
            # alone on the line under an equation too wide for its box's measure (a narrow cell's
            # minipage): amsmath moves a tag that does not fit below, flush right at the measure's
            # right edge, and centres the equation in the measure, or sets it flush left where it is
            # wider still.  The measure's left edge is where a column of the float starts.
            # (a line's pitch below the row, or a body size where the book's leading is not known)
            reach = max(layout.body_size, layout.leading or 0.0)
            above = [l for l in lines if l.bottom <= line.top + 1 and line.top - l.bottom < reach
                     and any(is_math_word(w) for w in l.words)]
            if not above and cells and any(l.top >= line.bottom - 1 and l.top - line.bottom < reach and l.x0 > line.x0
                                           and any(is_math_word(w) for w in l.words) for l in lines) and any(
                    l.top >= line.bottom - 1 and l.top - line.bottom < reach * 2 and l.x0 > line.x0
                    and any(c in RELATIONS for w in l.words for c in w.text) for l in lines):
                # in a cell, raised over its display (leqno sets a number the row leaves no room for
                # on a line of its own above it), where the rows below it start further right, one
                # with a relation
                return equation_number(line.words[0].text)
            if above:
                eq = max(above, key=lambda l: l.bottom)
                # (the display's widest row, when what stands right over the number is a limit's row:
                # \sum_{a \in \mathcal{A}} under the row the measure centres)
                rows = [l for l in lines if l.bottom <= line.top + 1 and line.top - l.bottom < layout.body_size * 3
                        and any(is_math_word(w) for w in l.words)]
                widest = max(rows, key=lambda l: l.x1 - l.x0)
                # (a limit wider than its operator sticks out past the row's first glyph)
                slack = layout.body_size * LIMIT_OVERHANG
                if widest is not eq and widest.x0 <= eq.x0 + slack and widest.x1 >= eq.x1 - slack and \
                        eq.bottom - widest.bottom < layout.body_size * 1.5:
                    eq = widest
                start, right = min(w.x0 for w in eq.words if is_math_word(w)), line.x1
                edges = [w.x0 for l in lines if l is not line and l is not eq for w in l.words
                         if w.x0 <= start + TAG_BELOW_ALIGN]
                # (flush left where wider than the measure: its first word, maths or an operator's
                # name in the text face, at the measure's left edge)
                # (or running on past where the number ends: wider than the measure, flush left at its
                # edge, which no other line of the box shows where its paragraphs all open indented;
                # its widest row may start after the parts of a fraction that opens it, which stand
                # further left on lines of their own, and run on into the margin past the box)
                if abs(right - eq.x1) <= TAG_BELOW_ALIGN or max(eq.x1, widest.x1) > right + TAG_BELOW_ALIGN or any(
                        abs((start - left) - (right - eq.x1)) <= TAG_BELOW_ALIGN or
                        min(abs(start - left), abs(eq.x0 - left)) <= TAG_BELOW_ALIGN and eq.x1 > right
                        for left in edges):
                    number = equation_number(line.words[0].text)
        return number

    # (a box's own left edge is where its prose starts, a float's pseudocode steps at their indent a
    # little further in: `\State Compute` over a display, set inside an algorithm's frame; a table's
    # cells have none of their own)
    edge = layout.left if cells or not lines else max(layout.left, min(l.x0 for l in lines))
    for i, l in enumerate(lines):
        number = label(l)
        if number is not None:
            if number not in read:
                own, at = _own_cell(lines, l, layout.body_size, bars) if cells else (lines, l)
                block: list[Line] = []
                text: list[str] = []
                read.update(numbered_display(own, own.index(at), (edge, layout.right), layout.body_size,
                                             label, bars, block_out=block, leading=layout.leading, shown_out=text))
                if shown is not None and text:
                    shown.append(({id(b) for b in block}, text[0]))
            if read.get(number):
                out.append(Item(l.top, "entity", entity=FoundEntity(
                    "formula", number, None, read[number], context=context,
                    extra={"text": plain_reading(read[number])})))
                continue
            content = " ".join(w.text for w in l.words[:-1])
            if not content:  # the number stands alone, centred on a display of several lines
                near = [n for n in lines[max(0, i - LABEL_ROWS):i + LABEL_ROWS + 1] if n is not l
                        and abs(n.top - l.top) < LABEL_ROW_REACH
                        and not ends_with_equation_number(n, layout)]
                content = "\n".join(n.text for n in near)
            # (not read as a display: its text, which is its plain reading too)
            out.append(Item(l.top, "entity", entity=FoundEntity("formula", number, None, content or f"({number})",
                                                              context=context, extra={"text": content or f"({number})"})))
    return out


def _cell_tag(line: Line, body: float) -> str | None:
    """A number ending a table's line a tag's separation after a display of maths set in the same cell
    (a minipage's equation: its number stands at the minipage's edge, not the table's), with a
    relation in it; a number after words is a reference's.  Or one opening the line so before such
    maths (numbered on the left, leqno: the tag at the minipage's left edge)."""
    words = line.words

    def gap(a: Word, b: Word) -> float:       # between two words, whichever stands left
        return b.x0 - a.x1 if a.x0 <= b.x0 else a.x0 - b.x1

    for number_word, rest in ((words[-1], words[-2::-1]), (words[0], words[1:])):
        number = equation_number(number_word.text)
        if number is None or gap(number_word, rest[0]) < body * CELL_TAG_GAP:
            continue
        cell = [rest[0]]       # the cell's words, from the number outwards
        for w in rest[1:]:
            if gap(cell[-1], w) >= body * CELL_GAP:
                break
            cell.append(w)
        if math_share(cell) >= NEARLY_ALL_MATHS_CELL and any(c in RELATIONS for w in cell for c in w.text):
            return number
    return None


CELL_TAG_GAP = 0.45       # em: amsmath keeps a tag at least \mintagsep (half an em) from its equation
NEARLY_ALL_MATHS_CELL = 0.75   # of a cell's words before a tag: maths, a \text word or two aside


MEASURE_EDGE_SLACK = 1.5  # pt: lines of justified prose end at the measure's edge this closely (a hyphen, a kern)
TAG_BELOW_ALIGN = 2.0    # pt: a tag set below its equation and its measure's edges line up this closely
FLOAT_LABEL_MATHS = 0.75  # share of maths words after a float's left number set closer than two ems
DISPLAY_LINE_GAP = 1.6   # em: a display's lines stand closer than this; a wider gap ends it
DISPLAY_MAX_LINES = 12   # lines: a display (an align, a system) is shorter than this
DISPLAY_INDENT_PT = 12   # pt: a display line starts further into the column than a paragraph's indent
MATHS_SHARE = 0.4        # a line of a display: at least this share of its words is maths
MOSTLY_MATHS = 0.6       # ... and a line as wide as the column: at least this share


def display_lines(items: list[Item], idx: int, layout: Layout) -> list[Line]:
    """The lines of the display whose number stands on items[idx]: the display lines right above
    and below it (indented, mostly maths, closely set, not labelled themselves)."""
    line = items[idx].line
    display = [line]
    body = layout.body_size
    alone = len(line.words) == 1   # the number dropped below a display as wide as the column

    def is_display_line(l: Line) -> bool:
        share = math_share(l.words)
        # a display as wide as the column: mostly maths, and no two words of prose in a row
        return (l.x0 > layout.left + DISPLAY_INDENT_PT or alone and share >= MOSTLY_MATHS and (
            not prose_pair(l.words) or any(c in RELATIONS for w in l.words for c in w.text))) \
            and share >= MATHS_SHARE \
            and equation_label(l, layout) is None
    j = idx - 1
    while j >= 0 and items[j].kind == "line" and is_display_line(items[j].line) \
            and display[0].top - items[j].line.bottom < body * DISPLAY_LINE_GAP and len(display) < DISPLAY_MAX_LINES:
        display.insert(0, items[j].line)
        j -= 1
    j = idx + 1
    while j < len(items) and items[j].kind == "line" and is_display_line(items[j].line) \
            and items[j].line.top - display[-1].bottom < body * DISPLAY_LINE_GAP and len(display) < DISPLAY_MAX_LINES:
        display.append(items[j].line)
        j += 1
    return display


def display_text(display: list[Line], labelled: Line, number: str) -> tuple[str, list[Word]]:
    """A display's text, one line per row, and its glyphs, without the equation number on its
    labelled line (at the right edge, or the left for books numbered on the left)."""
    parts = []
    glyphs: list[Word] = []
    for l in display:
        words = l.words
        if l is labelled:
            words = words[1:] if equation_number(words[0].text) == number and len(words) > 1 else \
                [w for w in words if equation_number(w.text) != number and not w.text.startswith("(")] \
                if equation_number(words[-1].text) is None else words[:-1]
        parts.append(" ".join(w.text for w in words))
        glyphs.extend(words)
    return "\n".join(p for p in parts if p), glyphs
