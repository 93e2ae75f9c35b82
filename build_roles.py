"""build_roles.py: what a line of running text is, decided by an ordered list of named rules.

A line in the main column is a bookmarked heading, a part's or chapter's label, a numbered
heading, a run-in head ("Theorem 2.9 …"), an exercise item, an equation's label, or prose.  Each
rule below looks at one line and a LineContext (the line's page and what the builder has open)
and returns a role, a frozen dataclass, or None; read_line runs LINE_RULES in order and the first
role that is not a mark decides.  A mark is a fact that leaves the line to the rules after it
(an "Exercises" heading opens a list and may still be a numbered heading).  What the builder does
with each role is ChunkBuilder._act in build_pdf.py.

To recognise a new kind of line: write a rule and its role here, put the rule in LINE_RULES where
it must be tried, and give the role its branch in ChunkBuilder._act.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Callable, ClassVar, NamedTuple

from build_common import Section, number_key
from build_glyphs import Line, Page, Word
from build_heads import (CAPS_FONT_RE, CHAPTER_RE, END_MARK_RE, FLOAT_KINDS, HEADING_RE, NUMBER_FIRST_RE, PART_RE, Head,
                         OutlineHeading, equation_number, head_alone, lone_chapter_label, match_head, number_alone_head,
                         phrase_head,
                         reached_by_its_kind, sequence_reaches)
from build_layout import LABEL_GAP, PROSE_WORD_RE, SAME_SIZE, Layout, layout_of
from build_math import TAG_SEPARATION, is_math_font, is_math_word, math_share
from rag_core import normalize_number


# --------------------------------------------------------------------------- thresholds
"""Thresholds: each a typographic fact, in points (pt) or in multiples of the body type's size (em)."""

BOOKMARK_BASELINE_SLACK = 1.5   # pt: a bookmark's heading is the line on the baseline it points at (rounded)
HEADING_MIN_SIZE = 0.95         # em: a heading is never set smaller than the body text (sizes are rounded)
DISPLAY_TYPE = 1.6              # em: parts and chapters open in display type, well over the body size
HEADING_TYPE = 1.1              # em: a heading not set in bold is set a step above the body size
HEADING_STEP = 1.05              # em: a heading's type a step above the body (\large over 11pt: 12pt, 1.09)
HEAD_WORD_GAP = 3               # em: a head's word and number stand a word space apart, a contents line's a fill
CHAPTER_TYPE = 1.15             # em: a chapter heading numbered without a dot ("2 Markov chains") is bold and larger
HEADING_MAX_CHARS = 120         # characters: a heading is shorter than a line and a half of text
SAME_EDGE = 3                   # pt: two lines aligned on one left edge
TITLE_WRAP_GAP = 0.8            # em: a heading's title wraps onto a line set solid below it
RUN_IN_INDENT = 3               # em: a run-in head starts at the column's edge or at a paragraph's indent
FRAME_PAD = 3                   # pt: a line stands inside the frame it is set in, give or take a rule's width
TITLE_BAR_GAP = 1.5             # em: a head on a title bar ends this close above the frame below it
LABEL_TAB = 1.0                 # em: a list label's tab gap before the item's text is a quad or more
LABEL_WORDS = 4                 # words: ... and the label ("Exercise 2.1.", "[12]") at most this many
LABEL_TAB_WIDER = 2.0           # ... and this many times the widest space between the line's other words
SPACE_ABOVE_HEAD = 0.8          # em: a head that follows an unfinished sentence stands after extra space
LIST_INDENT = 2.5               # em: an exercise list's numbers stand at the column's edge or a list indent
FRAME_LABEL_INSET = 2.5        # em: in a frame, an equation number ends within this of the frame's rule (its padding)
MISSED_LABEL_REACH = 30         # pt: on a second look, an equation number may stop this short of the right edge
SIDE_LABEL_GAP = 1.0            # em: ... or anywhere, a quad or more after the maths it numbers (a minipage's display)
MISREAD_LABEL_GAP = 1           # em: ... or a label OCR misread ("©)" for "(6)") stands this far from its display
DISPLAY_INDENT = 2              # em: a displayed line is indented into the column by more than a paragraph indent
DISPLAY_SHORT = 4               # em: ... and ends this far short of the right edge, unless it holds little prose
DISPLAY_PROSE_WORDS = 4         # words: a display holds fewer plain words than this
UNNUMBERED_HEAD_WORDS = 4       # words: an unnumbered run-in head ("Proof.", "Proof of Lemma 2:") ends within these
LABEL_AT_EDGE = 6               # pt: an equation number ends at the column's edge (starts at it, when on the left)
LABEL_COLUMN_SLACK = 3          # pt: ... or where the book's equation numbers end, when that is not the edge
NARROW_LABEL_GAP = 0.6          # em: ... less after a display of maths (a bold letter of the text face aside)
                                # that fills its column (a narrow one)
LEFT_LABEL_GAP = 2              # em: a label on the left stands this far before its display
NEARLY_ALL_MATHS = 0.9          # of a line's words: maths but for an accent or a bold letter of the text face
LIST_LABEL_INDENT = 4           # em: a list indents its lines (and a left label inside it) at most this far
LEFT_LABEL_MATHS_GAP = 0.8      # em: ... or this far before a line of maths only (far wider than a word space)
LEFT_FLUSH_MATHS = 0.75         # of a line's words after a left number at the least tag separation: maths
RELATIONS = "=≤≥<>∝∼≈≡"          # a relation makes a full-width line of words a display
LEFT_FLUSH_RELATIONS = RELATIONS + "←→"   # ... and an update's arrow a row numbered on the left
LEFT_FLUSH_OPENING = 4          # words: ... or whose relation comes this soon, every word up to it maths
REFERENCE_LEAD_GAP = 12         # pt: "see (5.3)": a reference follows its lead word at a word space, not a gap
WORD_SPACE = 7.0                # pt: at most an ordinary (stretched) word space
MATHS_ROW_SHARE = 0.6           # of a line's words in maths fonts: a display's row, not prose
PROSE_START = 25                # pt: a line of prose starts at the column's edge or a paragraph indent
PROSE_LINE_WORDS = 3            # words: a line holding this many plain words is prose
CENTRED_SLACK = 2               # pt: a centred line's middle stands this close to the text block's middle
CENTRED_INSET = 2               # em: ... and it stops this far short of either edge (no full line)


# --------------------------------------------------------------------------- line facts
"""Line facts: what one line's words and positions show, whatever the builder has open."""

EXERCISE_SECTION_RE = re.compile(r"(?i)\b(?:[a-z]+\s+)?(exercises|problems)\b")   # sections whose "1.", "2." items are exercises
APPENDICES_RE = re.compile(r"(?i)appendi(x|ces)")          # the appendices' divider page
BARE_CHAPTER_RE = re.compile(r"^(\d{1,2}|[A-Z])\.?\s+([A-Z]\S*(?:\s+\S+){0,12})$")   # "2 Markov chains"
LIST_NUMBER_RE = re.compile(r"^(\d{1,3})[.)]$")              # an exercise list's "1." or "1)"
SINGLE_NUMBER_HEAD_RE = re.compile(r"^(\d{1,3})\.\s+(\S.*)$")   # amsbook's and amsart's "6. Field extensions"
CHAPTER_LIST_NUMBER_RE = re.compile(r"^(\d{1,2})\.(\d{1,3})\.?$")   # ... or "5.3", numbered in its chapter
UNNUMBERED_HEAD_RE = re.compile(r"[^\W\d_]{3,}\.?")          # "Proof.", "Solution", "Démonstration." (a capital first)
REFERENCE_WORD_RE = re.compile(r"[A-Za-z][a-z]+[,.;:]?")     # a word before a reference in running text
SENTENCE_END_RE = re.compile(r"[.!?:;)]$")                   # a line that ends a sentence or a clause
# A label OCR misread: two or three characters with a bracket at one end ("©)", "(a"), not a number.
MISREAD_LABEL_RE = re.compile(r"[(\[]\S{1,2}|\S{1,2}[)\]]")
STRAY_ACCENT_RE = re.compile(" ?[ˆ˜¯˙¨ˇ˘´`^~˚\u0300-\u036f\u20d7]{1,3}")   # a word that is an accent alone

# Words a reference in running text follows: "equation (5.3)", "see (5.3)", "by (5.3)".
REFERENCE_LEADS = {"equation", "equations", "eq", "eq.", "eqs", "eqs.", "eqn", "eqn.", "and", "or", "see", "by",
                   "to", "from", "in", "of", "with", "using", "per", "cf.", "also"}
# Operators' names set upright in a formula: words, but not prose.
OPERATOR_NAMES = ("max", "min", "log", "exp", "arg", "sup", "inf", "lim", "det")


def inside(line: Line, box: tuple[float, float, float, float], pad: float = 1.0) -> bool:
    """True when a line stands inside a box (x0, top, x1, bottom): its middle height and both ends."""
    mid = (line.top + line.bottom) / 2
    return box[1] - pad <= mid <= box[3] + pad and line.x0 >= box[0] - pad and line.x1 <= box[2] + pad


def in_frame(line: Line, box: tuple[float, float, float, float], pad: float = 1.0, others: list[Line] = ()) -> bool:
    """True when a line is set in a box: inside it, or a display set overfull, starting in the box
    and running on past its right side with its own spacing (TeX lets a display too wide for the
    frame's measure stick out, its number dropped to the line below), not a line of text beyond it.
    A wide gap on the line is the display's own where glyphs of `others` (the page's other lines)
    fill it from just above or below: a big operator's limits and a fraction's parts stand on lines
    of their own (Leibniz's rule, `+ \\int_{p(x)}^{q(x)} \\frac{\\partial}{\\partial x} f(x,t) dt`, leaves
    three ems between its integral sign and its f on the main line)."""
    if inside(line, box, pad):
        return True
    mid = (line.top + line.bottom) / 2
    if not (box[1] - pad <= mid <= box[3] + pad and box[0] - pad <= line.x0 < box[2] - pad):
        return False
    words = sorted(line.words, key=lambda w: w.x0)
    return not any(b.x1 > box[2] + pad and b.x0 - a.x1 > max(a.size, b.size) * OVERFULL_WORD_GAP
                   and not _gap_filled_by(line, a.x1, b.x0, others)
                   for a, b in zip(words, words[1:]))


def _gap_filled_by(line: Line, x0: float, x1: float, others: list[Line]) -> bool:
    """Whether glyphs of other lines within OVERFULL_PARTS of the line's baseline cover at least half
    of the gap from x0 to x1 (the limits and the fraction after an integral sign leave gaps of their
    own between them)."""
    reach = line.size * OVERFULL_PARTS
    spans = sorted((max(w.x0, x0), min(w.x1, x1)) for other in others if other is not line
                   and abs(other.baseline - line.baseline) <= reach for w in other.words if w.x0 < x1 and w.x1 > x0)
    covered, end = 0.0, x0
    for a, b in spans:
        if b > end:
            covered += b - max(a, end)
            end = b
    return covered >= (x1 - x0) * GAP_COVERED


GAP_COVERED = 0.5   # of a wide gap on a display's line: covered this much by its parts above and below, it is the display's


OVERFULL_WORD_GAP = 2.5   # em: a display's own spaces (a \qquad) are narrower than a gap between columns


def framed_lines(lines: list[Line], box: tuple[float, float, float, float], pad: float = 1.0) -> list[Line]:
    """The lines set in a box (in_frame), with the upper and lower lines of an overfull display in it:
    a fraction's numerators and denominators, a root's index, stand as sparse lines above and below
    the display's main line, wide gaps between their words; they belong to the box where every word
    of theirs past its right side lies under or over the main line's own overhang, near it."""
    held = [l for l in lines if in_frame(l, box, pad, lines)]
    over = [l for l in held if l.x1 > box[2] + pad]
    if not over:
        return held
    taken = {id(l) for l in held}
    for l in lines:
        mid = (l.top + l.bottom) / 2
        if id(l) in taken or not (box[1] - pad <= mid <= box[3] + pad and box[0] - pad <= l.x0 < box[2] - pad):
            continue
        past = [w for w in l.words if w.x1 > box[2] + pad]
        if past and all(any(o.x0 <= w.x0 and w.x1 <= o.x1 + pad and abs((o.top + o.bottom) / 2 - mid)
                            <= max(o.size, w.size) * OVERFULL_PARTS for o in over) for w in past):
            taken.add(id(l))
    return [l for l in lines if id(l) in taken]


OVERFULL_PARTS = 1.5   # em: a display's numerators and denominators stand this near its main line


def is_display(line: Line, layout: Layout) -> bool:
    """A displayed formula or a line set apart: indented well into the column, not a run of prose."""
    if line.x0 < layout.left + layout.body_size * DISPLAY_INDENT:
        return False
    prose = sum(1 for w in line.words if PROSE_WORD_RE.fullmatch(w.text) and not w.italic)
    return prose < DISPLAY_PROSE_WORDS or line.x1 < layout.right - layout.body_size * DISPLAY_SHORT


def prose_pair(words: list[Word]) -> bool:
    """Two words of running text one after the other (not maths, not an operator's name)."""
    def prose(w: Word) -> bool:
        return len(w.text) >= 3 and w.text.isalpha() and w.text.isascii() and not is_math_font(w.font) \
            and w.text not in OPERATOR_NAMES
    return any(prose(a) and prose(b) for a, b in zip(words, words[1:]))


def unnumbered_head(line: Line, layout: Layout, below: Line | None = None) -> bool:
    """A run-in head with no number in a face of its own at the column's edge: "Proof.", "Solution.".
    `below`: the line under it on its page, where known (a description list's item hangs its lines)."""
    first = line.words[0]
    if line.x0 > layout.left + layout.body_size * RUN_IN_INDENT or not UNNUMBERED_HEAD_RE.fullmatch(first.text) \
            or not first.text[0].isupper():
        return False
    # (a font with no name is told from the text's by its face alone: build_heads.match_head)
    distinct = first.bold or layout.faceless or ((first.font != layout.body_font or not first.font)
                                                 and (first.italic or bool(CAPS_FONT_RE.search(first.font))))
    if not distinct:
        return False
    words = line.words
    for k in range(min(UNNUMBERED_HEAD_WORDS, len(words))):
        # (maths never closes a head: "**Prior distribution** π(θ). We …" is a paragraph of running text
        # that opens with a term in bold, its stop the formula's, in the body's maths)
        if words[k].text.endswith((".", ":")) and not is_math_word(words[k]):
            return True
        if not (words[k].bold == first.bold and words[k].font == first.font):
            return False
        # (or a label of one word in bold, "Solution", parted from its text by more than a word space: a
        # trivlist's, whose lines under it run back to the column's edge, not a description list's item,
        # whose lines hang under its text)
        if k == 0 and first.bold and len(words) > 1 and not words[1].bold and _set_off_by_a_fixed_space(words, 0) \
                and (below is None or below.page != line.page or below.x0 <= line.x0 + layout.body_size * LABEL_HANG):
            return True
    # (or a head alone on its line, its text under it: ntheorem's break style sets "Proof" so, in bold and
    # with no stop; every word of the line is the head's, and there are no more than a head's words)
    return first.bold and len(words) <= UNNUMBERED_HEAD_WORDS


def _set_off_by_a_fixed_space(words: list, k: int) -> bool:
    """Whether the space after words[k] is wider than the line's word spaces by more than their stretch: a
    list's label ("**Solution**  The sample …", a trivlist's \\labelsep) or a head's own space.  TeX stretches
    every word space of a justified line alike, so the gaps between the line's words that no stop or comma
    ends (a sentence's end takes more) and no maths touches are its word space."""
    spaces = sorted(b.x0 - a.x1 for a, b in zip(words[k + 1:], words[k + 2:])
                    if a.text[-1:].isalnum() and not is_math_word(a) and not is_math_word(b))
    if len(spaces) < FIXED_SPACE_EVIDENCE:
        return False
    return words[k + 1].x0 - words[k].x1 >= spaces[len(spaces) // 2] * FIXED_SPACE_WIDER


FIXED_SPACE_EVIDENCE = 4    # word spaces on the line at least, to tell its word space by
LABEL_HANG = 1.0            # em: a description item's lines hang at least this far in from its label
FIXED_SPACE_WIDER = 1.35    # times the line's word space: a head's fixed space stands out of the line's


def is_prose_reference(line: Line, layout: Layout) -> bool:
    """True when a "(12.4)" ending a line is a reference in running text, not an equation number.

    An equation number stands apart: a wide gap before it, or a display line that is indented or
    centred.  A reference sits at an ordinary word gap in a line of words that starts at the
    margin, or follows a word such as "equation" or "see".
    """
    if len(line.words) == 1:
        return False
    number, before = line.words[-1], line.words[-2]
    gap = number.x0 - before.x1
    if before.text.lower() in REFERENCE_LEADS and gap < REFERENCE_LEAD_GAP:
        return True
    words = sum(1 for w in line.words[:-1] if REFERENCE_WORD_RE.fullmatch(w.text))
    # (a line mostly of maths is a display's row, its number at amsmath's least separation, half an em,
    # after a \text{} of words that reaches the column's edge)
    return gap < WORD_SPACE and line.x0 <= layout.left + PROSE_START and words >= PROSE_LINE_WORDS \
        and math_share(line.words[:-1]) < MATHS_ROW_SHARE


def _where_labels_end(x1: float, layout: Layout) -> bool:
    """A word ending at the column's edge, or where the book's equation numbers end."""
    return x1 >= layout.right - LABEL_AT_EDGE or abs(x1 - (layout.label_right or layout.right)) <= LABEL_COLUMN_SLACK


def equation_label(line: Line, layout: Layout) -> str | None:
    """The number of a displayed equation on this line: "(5.3)" at the column's right edge (or
    its left edge, for books that number on the left), standing apart from the formula."""
    words = line.words
    if len(words) > 1 and STRAY_ACCENT_RE.fullmatch(words[-1].text):
        while len(words) > 1 and STRAY_ACCENT_RE.fullmatch(words[-1].text):
            words = words[:-1]   # an accent of the display's top row, set at the label's height
        line = Line(words, line.page)
    last = words[-1]
    number = equation_number(last.text)
    if number is None and len(words) >= 2 and words[-2].text.startswith("("):
        number = equation_number(words[-2].text + words[-1].text)
        last = words[-1] if number is None else Word(words[-2].text + last.text, words[-2].x0, last.x1,
                                                       last.top, last.bottom, last.size, last.bold, last.mono)
    at_edge = _where_labels_end(last.x1, layout)
    # a display wider than the column (into the margin, or the full width) pushes its number out with
    # it: the formula itself runs past the column's edge, and the number stands apart from it
    overhang = number is not None and len(words) >= 2 and words[-2].x1 > layout.right and \
        last.x0 - words[-2].x1 > layout.body_size * LABEL_GAP and any(is_math_font(w.font) for w in words[:-1])
    # a full-width display (set across the text block and the margin) within the column, its number
    # at the full width's edge, out in the margin: alone there, far from its maths
    beyond = number is not None and len(words) >= 2 and last.x0 > layout.right and words[-2].x1 <= layout.right \
        and last.x0 - words[-2].x1 > layout.body_size * LABEL_GAP and math_share(words[:-1]) >= 0.5
    if number is not None and (at_edge or overhang or beyond) and not is_prose_reference(line, layout):
        gap = last.x0 - words[-2].x1 if len(words) > 1 else 0.0
        if "." in number or len(words) == 1 or gap > layout.body_size * LABEL_GAP or \
                (gap > layout.body_size * NARROW_LABEL_GAP and math_share(words[:-1]) >= NEARLY_ALL_MATHS):
            return number
        return None
    # on the left: the leftmost word (a DVI route may write the number after the formula it precedes)
    first = min(words, key=lambda w: w.x0)
    rest = sorted((w for w in words if w is not first), key=lambda w: w.x0)
    number = equation_number(first.text)
    # (inside a list, leqno sets the number at the list's indent, the left edge of its lines: then it
    # stands well apart before a display, as at the column's edge)
    if number is not None and rest and layout.left + LABEL_AT_EDGE < first.x0 <= layout.left + \
            layout.body_size * LIST_LABEL_INDENT and (
                rest[0].x0 - first.x1 > layout.body_size * LEFT_LABEL_GAP and is_display(Line(rest, line.page), layout)
                or left_tag_before_maths(first, rest, layout.body_size)):
        # (or, with fleqn too, at the least tag separation before maths: the display starts at its indent)
        return number
    if number is not None and first.x0 <= layout.left + LABEL_AT_EDGE and (not rest or (
            rest[0].x0 - first.x1 > layout.body_size * LEFT_LABEL_GAP and is_display(Line(rest, line.page), layout))
            or (rest[0].x0 - first.x1 > layout.body_size * LEFT_LABEL_MATHS_GAP and
                (math_share(rest) >= NEARLY_ALL_MATHS or (is_math_word(rest[0]) and math_share(rest) >= 0.5)))
            or (rest[0].x0 - first.x1 > layout.body_size * TAG_SEPARATION and math_share(rest) >= 1.0
                and rest[-1].x1 >= layout.right - LABEL_AT_EDGE)
            or left_tag_before_maths(first, rest, layout.body_size)):
        # beside its display, alone on its line (centred on a display of several rows), or closer
        # before a line of maths only (multline's first row starts a \multlinegap after it), or of
        # maths first and mostly (a display too wide to centre, with a \text{} of words in it), or
        # at the least tag separation before maths only that runs to the column's far edge, or before
        # maths with a relation, opening with maths (leqno with fleqn: the display starts at its indent,
        # which a wide number nearly fills)
        return number
    return None


def left_tag_before_maths(number: Word, rest: list[Word], body: float) -> bool:
    """A number on the left at least amsmath's least tag separation before maths that opens with a
    relation among its first words, or is maths mostly (leqno with fleqn: the display starts at its
    indent, which a wide number nearly fills; a \\text{} clause may follow the formula)."""
    if not rest or rest[0].x0 - number.x1 <= body * TAG_SEPARATION or not (is_math_word(rest[0]) or accented(rest)):
        return False
    relation = next((k for k, w in enumerate(rest) if any(c in LEFT_FLUSH_RELATIONS for c in w.text)), None)
    if relation is None:
        return False
    return math_share(rest) >= LEFT_FLUSH_MATHS or \
        relation < LEFT_FLUSH_OPENING and all(is_math_word(w) for w in rest[:relation + 1])


def accented(words: list[Word]) -> bool:
    """Whether the first word carries a maths accent set over it (\\widehat{\\mathrm{CSL}}): a word of a
    text face so marked is maths, as no prose word is."""
    return len(words) >= 2 and is_math_word(words[1]) and all(unicodedata.combining(c) for c in words[1].text) \
        and words[0].x0 - 1 <= words[1].x0 and words[1].x1 <= words[0].x1 + 1


def ends_with_equation_number(line: Line, layout: Layout) -> bool:
    """A line whose last word is a displayed equation's number (at the right edge)."""
    label = equation_label(line, layout)
    return label is not None and (len(line.words) == 1 or equation_number(line.words[0].text) != label)


# --------------------------------------------------------------------------- roles
"""Roles: what a line is, one frozen dataclass each; `mark` roles leave the line to later rules."""


@dataclass(frozen=True)
class Role:
    mark: ClassVar[bool] = False   # a fact about the line that does not decide what it is

    def seen_by_later_rules(self, ctx: LineContext) -> LineContext:
        """The context the rules after a mark read (a mark may open what they look at)."""
        return ctx


@dataclass(frozen=True)
class BookmarkedHeading(Role):
    """The line a bookmark of the PDF's outline points at: a heading, numbered or not."""

    heading: OutlineHeading


@dataclass(frozen=True)
class DivisionLabel(Role):
    """A part's or chapter's label in display type: "Part II", "Chapter 5 Title", "Appendix A"."""

    level: int      # 0 part, 1 chapter (appendices are chapters)
    number: str
    title: str      # the rest of the line; more title lines may follow (DivisionTitle)


@dataclass(frozen=True)
class AppendicesDivider(Role):
    """A page that opens the appendices: "Appendices" in display type."""


@dataclass(frozen=True)
class DivisionTitle(Role):
    """A line of display type after a part's or chapter's label: more of its title."""

    text: str


@dataclass(frozen=True)
class HeadingContinues(Role):
    """The line a numbered heading's title wraps onto."""

    text: str


@dataclass(frozen=True)
class ExerciseListHeading(Role):
    """An "Exercises" or "Problems" heading: the "1.", "2." items under it are exercises (a mark)."""

    mark: ClassVar[bool] = True

    def seen_by_later_rules(self, ctx: LineContext) -> LineContext:
        return ctx._replace(exercise_next=1)


@dataclass(frozen=True)
class ChapterHeading(Role):
    """A chapter heading numbered without a dot, bold and large: "2 Markov chains"."""

    number: str
    title: str


@dataclass(frozen=True)
class NumberedHeading(Role):
    """A numbered section heading inside the current chapter: "3.2 Title" (level from its dots)."""

    level: int
    number: str
    title: str


@dataclass(frozen=True)
class RunInHead(Role):
    """A numbered head that opens a statement: "Theorem 2.9 Division Algorithm. Let …"."""

    head: Head
    box: tuple | None      # the frame the statement is set in, if any


@dataclass(frozen=True)
class ExerciseItem(Role):
    """The next item of an exercise list: "3." at the column's edge."""

    number: int
    words: tuple[Word, ...]   # the item's words after its number
    printed: str = ""         # its number as printed ("5.3"), when the list numbers in its chapter


@dataclass(frozen=True)
class EndsStatement(Role):
    """An unnumbered run-in head ("Proof.", "Solution.") that ends the open statement (a mark)."""

    mark: ClassVar[bool] = True

    def seen_by_later_rules(self, ctx: LineContext) -> LineContext:
        return ctx._replace(block_kind=None)


@dataclass(frozen=True)
class EquationLabel(Role):
    """A displayed equation's number on the line (a mark: the display stays in the running text).
    `misread`: the label's word is not the number as printed but a misreading of it (OCR's)."""

    mark: ClassVar[bool] = True
    number: str
    misread: bool = False


@dataclass(frozen=True)
class Prose(Role):
    """Running text: what a line is when no rule says otherwise."""


PROSE = Prose()


# --------------------------------------------------------------------------- context
"""Context: what a rule may read besides the line: its page, and what the builder has open."""


@dataclass
class HeadingWrap:
    """A numbered heading just opened, whose title may wrap onto the next line."""

    section: Section
    level_name: str      # "chapter", "section", …: the cursor's key for it
    size: float
    title_x: float       # where the title starts (its wrapped lines align there)
    page: int
    bottom: float


class LineContext(NamedTuple):
    """What the rules read besides the line (immutable; a tuple, as one is made for every line)."""

    layout: Layout
    text: str                                   # the line's text, stripped (read once for every rule)
    size: float                                 # the line's type size (read once)
    headings: tuple = ()                        # the bookmarks' headings on the line's page
    has_outline: bool = False                   # the PDF has bookmarks at all
    chapter: str | None = None                  # the open chapter's number
    pending_label: bool = False                 # a part's or chapter's label waits for its title
    wrap: HeadingWrap | None = None             # a heading whose title may wrap onto this line
    exercise_next: int | None = None            # the next number of an open exercise list
    previous_line: Line | None = None           # the last line of the open text
    block_kind: str | None = None               # the kind of the open statement ("theorem", …)
    block_last: Line | None = None              # the open statement's last line
    boxes: tuple = ()                           # the frames drawn on the page
    wanted: dict = {}                           # a second look: {(kind, number): pages} missed (never written)
    last_formula: str | None = None             # on a second look, the last equation number the walk has met
    exercise_in_chapter: bool | None = None     # the open exercise list numbers its items in their chapter ("5.3")
    opens_page: bool = False                    # the line is the first the builder reads on its page
    section: str | None = None                  # the open section's number ("1.5")
    last_statement: str | None = None           # the number of the statement opened last ("1.2.5")
    taken: frozenset | set = frozenset()        # the (kind, number) pairs of the entities met so far
    subsection: str | None = None               # the open subsection's number ("1.5.2")
    next_line: Line | None = None               # the line read after this one on its page, if any


def line_context(line: Line, layout: Layout, **state) -> LineContext:
    """The context of a line: its own text and size, and the builder's state (keyword fields)."""
    return LineContext(layout, line.text.strip(), line.size, **state)


def _missed(ctx: LineContext, kind: str, number: str, line: Line) -> bool:
    """True on a second look, for a number the first walk missed, on a page where it may stand."""
    return line.page in ctx.wanted.get((kind, number), ())


# --------------------------------------------------------------------------- rules
"""Rules: one per kind of line, tried in the order of LINE_RULES."""


def bookmarked_heading(line: Line, ctx: LineContext) -> Role | None:
    """The line on the baseline a bookmark points at, set no smaller than the body, or in capitals
    no smaller than small capitals are (classicthesis's letter-spaced "1.1 POISSON ARRIVALS", its
    capitals a step under the body's size where the font has no small capitals of its own)."""
    for h in ctx.headings:
        if abs(h.baseline - line.baseline) < BOOKMARK_BASELINE_SLACK and (
                line.size >= ctx.layout.body_size * HEADING_MIN_SIZE or
                line.size >= ctx.layout.body_size * SMALL_CAPS_TYPE and set_in_capitals(line)):
            return BookmarkedHeading(h)
    return None


SMALL_CAPS_TYPE = 0.7   # em: small capitals stand at least this high (about the x-height and a little more)


def set_in_capitals(line: Line) -> bool:
    """Every letter of the line a capital, and a few of them: a heading's face, not a sentence's."""
    letters = [c for c in line.text if c.isalpha()]
    return len(letters) >= CAPITALS_MIN_LETTERS and all(c.isupper() for c in letters)


CAPITALS_MIN_LETTERS = 3    # letters: "1.2 LAW" is a heading in capitals, "1.2 A" may be a label


def part_label(line: Line, ctx: LineContext) -> Role | None:
    """ "Part II" (and its title) in display type."""
    m = PART_RE.match(ctx.text) if ctx.size >= ctx.layout.body_size * DISPLAY_TYPE else None
    return DivisionLabel(0, m.group(1), m.group(2).strip()) if m else None


def appendices_divider(line: Line, ctx: LineContext) -> Role | None:
    """ "Appendices" alone in display type."""
    if ctx.size >= ctx.layout.body_size * DISPLAY_TYPE and APPENDICES_RE.fullmatch(ctx.text):
        return AppendicesDivider()
    return None


def chapter_label(line: Line, ctx: LineContext) -> Role | None:
    """ "Chapter 5", "Appendix A" (and the title after it) in display type."""
    m = CHAPTER_RE.match(ctx.text)
    # (in display type, or alone on its line in capitals in any size, its title to come in larger type:
    # amsbook's "CHAPTER 2" in the body's capitals over a title set large; not a drawing's "Chapter 8")
    if m and (ctx.size >= ctx.layout.body_size * DISPLAY_TYPE or lone_chapter_label(ctx.text) and (
            ctx.text.split()[0].isupper() or _over_its_bookmark(line, ctx, m.group(1)))):
        return DivisionLabel(1, m.group(1), m.group(2).strip())
    # a word and a number alone on a line in display type: a chapter's label whatever the language's
    # word ("Chapitre 1", "Hoofdstuk 3", "Глава 2"); no numbered thing is set that large
    words = ctx.text.split()
    if ctx.size >= ctx.layout.body_size * DISPLAY_TYPE and len(words) == 2 and words[0][:1].isupper() \
            and words[0].isalpha() and LABEL_NUMBER_RE.fullmatch(words[1]):
        return DivisionLabel(1, words[1], "")
    # the chapter's number alone on its line in display type, right above the line its bookmark points
    # at (ConTeXt's \setuphead[chapter][alternative=middle], a number over the title): its label too
    if ctx.text.isdigit() and ctx.size >= ctx.layout.body_size * DISPLAY_TYPE and _over_its_bookmark(line, ctx, ctx.text):
        return DivisionLabel(1, ctx.text, "")
    return None


LABEL_NUMBER_RE = re.compile(r"\d{1,3}|[A-Z]")     # a chapter's number or an appendix's letter
DIVISION_LABEL_TYPE = 1.2   # em: a division's label alone on its line is set at least this large (\large)


def division_words(pages: list[Page], layouts: dict) -> set[str]:
    """The words a book labels its divisions with: a capitalised word and a number alone on a line in
    type larger than the body's, first on its page wherever it is so set ("Bölüm 1", "Peatükk 2" over a
    chapter's title: a numbered thing's head is set in the body's size or a caption's smaller one, and
    a chapter opens a page, while a problem set's large "Problem 2" stands under problem 1's text).
    The same word heading a list's item at the body's size ("Bölüm 1 anlatır …" in a preface) is that
    division named, not a thing."""
    opening: dict[str, bool] = {}
    for page in pages:
        if not page.lines:
            continue
        layout = layout_of(layouts, page)
        top = min(line.baseline for line in page.lines)
        for line in page.lines:
            parts = line.text.split()
            if len(parts) == 2 and line.size >= layout.body_size * DIVISION_LABEL_TYPE and parts[0][:1].isupper() \
                    and parts[0].isalpha() and LABEL_NUMBER_RE.fullmatch(parts[1]):
                word = parts[0].lower()
                opening[word] = opening.get(word, True) and line.baseline == top
    return {word for word, always in opening.items() if always}


BACKWARD_RUN = 3    # heads: a word heading this many, each numbered below the one before, counts nothing


def words_numbered_backwards(pages: list[Page], layouts: dict) -> set[str]:
    """The words whose heads run backwards: every head of the word in a face of its own numbered
    below the one before it, three or more ("Version 1.18", "1.16", "1.15" over a change history,
    the newest first).  Numbering is a sequence that runs forward in reading order, whatever a
    chapter restarts; a list that counts down is dated, not numbered, and its word names no kind."""
    numbers: dict[str, list] = {}
    for page in pages:
        layout = layout_of(layouts, page)
        for line in page.lines:
            head = match_head(line, layout.body_font)
            if head is not None and head.distinct:
                numbers.setdefault(head.kind, []).append(number_key(head.number))
    return {kind for kind, keys in numbers.items()
            if len(keys) >= BACKWARD_RUN and all(b < a for a, b in zip(keys, keys[1:]))}


LABEL_OVER_TITLE = 4    # em of the label: a chapter's title stands this close under its label line


def _over_its_bookmark(line: Line, ctx: LineContext, number: str) -> bool:
    """A chapter's label alone on its line ("Chapter 2", in any face and size) right above the line a
    bookmark of that chapter points at (its title): the chapter's opening, not a line of text."""
    return any(h.number == number and h.level <= 1 and 0 < h.baseline - line.baseline < line.size * LABEL_OVER_TITLE
               for h in ctx.headings)


def division_title(line: Line, ctx: LineContext) -> Role | None:
    """Display type after a part's or chapter's label: its title, over as many lines as it takes."""
    if ctx.pending_label and ctx.size > ctx.layout.body_size * CHAPTER_TYPE and not HEADING_RE.match(ctx.text):
        return DivisionTitle(ctx.text)      # (a numbered section's heading under it opens the section)
    return None


def heading_continues(line: Line, ctx: LineContext) -> Role | None:
    """A bold line in the heading's size, aligned with its title, set solid below it."""
    wrap, size = ctx.wrap, ctx.size
    if wrap and line.bold and abs(size - wrap.size) < SAME_SIZE and abs(line.x0 - wrap.title_x) < SAME_EDGE \
            and line.page == wrap.page and line.top - wrap.bottom < size * TITLE_WRAP_GAP:
        return HeadingContinues(ctx.text)
    return None


def exercise_list_heading(line: Line, ctx: LineContext) -> Role | None:
    """ "Exercises", "5.6 Problems", "Review Exercises" in bold or larger type."""
    if (line.bold or ctx.size > ctx.layout.body_size * HEADING_TYPE) and \
            EXERCISE_SECTION_RE.fullmatch(re.sub(r"^[\d.]+\s*", "", ctx.text)):
        return ExerciseListHeading()
    return None


def chapter_heading(line: Line, ctx: LineContext) -> Role | None:
    """A top-level heading numbered without a dot ("2 Markov chains"), large and bold (or bold in the
    body's size opening its page as the next chapter), in a PDF without bookmarks (they would have
    named it), whose number is not the open chapter's."""
    m = BARE_CHAPTER_RE.match(ctx.text)
    if m and line.bold and not ctx.has_outline and (
            ctx.size > ctx.layout.body_size * CHAPTER_TYPE or _opens_next_chapter(line, ctx, m.group(1))):
        if m.group(1).isalpha() and not (ctx.chapter or "").isdigit():
            return None   # a lettered one is an appendix, after numbered chapters ("A Compendium of …" is a title)
        if ctx.chapter is None or m.group(1) != ctx.chapter:
            return ChapterHeading(m.group(1), m.group(2).strip())
    return None


def _opens_next_chapter(line: Line, ctx: LineContext, number: str) -> bool:
    """A head numbered without a dot in the body's size (troff's ms sets `.NH 1` so) is a chapter's
    when it opens its page, every word bold and short, numbered as the next chapter (the first when
    none is open): chapters start on a new page, a section numbered so mid-page stays what it was,
    and "3. Exercises" (amsbook's section, numbered with a dot in its chapter) is no chapter."""
    if not (ctx.opens_page and number.isdigit() and ctx.text[len(number)] != "."
            and all(w.bold for w in line.words) and len(ctx.text) < HEADING_MAX_CHARS):
        return False
    if ctx.chapter is None:
        return number == "1"
    return ctx.chapter.isdigit() and int(number) == int(ctx.chapter) + 1


def head_on_its_line(line: Line, ctx: LineContext) -> Role | None:
    """ "1.1 Definition" alone on its line, in bold of the body's size, the statement's body on the lines
    under it (ntheorem's `marginbreak`): the same words make a section's heading ("2.1 Introduction"),
    and the step to the next line tells them apart.  Every LaTeX sectioning command that sets its
    heading on a line of its own adds its after-skip under it; a statement's head ends its line with a
    line break inside the paragraph, and the body follows at the leading."""
    head = head_alone(line)
    layout = ctx.layout
    below = ctx.next_line
    if head is None or below is None or below.page != line.page or below.baseline <= line.baseline or \
            not reached_by_its_kind(head.kind, head.number, ctx.taken):
        return None
    if abs(ctx.size - layout.body_size) > SAME_SIZE or abs(below.size - layout.body_size) > SAME_SIZE or \
            line.x0 > layout.left + layout.body_size * RUN_IN_INDENT:
        return None
    leading = layout.leading or layout.body_size * LEADING_FALLBACK
    if below.baseline - line.baseline > leading * LONE_HEAD_STEP:
        return None
    # (the head's line break leaves the body at the column's edge; a paragraph indented under the line
    # is a heading's, set with little or no after-skip: "4.12.2.1 Album" over an indented sentence)
    if below.x0 > max(line.x0, layout.left) + SAME_EDGE:
        return None
    return RunInHead(head, _frame_of_head(line, ctx))


LEADING_FALLBACK = 1.2   # em: the leading when the book's could not be measured
LONE_HEAD_STEP = 1.1     # leadings: the body under a head alone on its line follows within this


def numbered_heading(line: Line, ctx: LineContext) -> Role | None:
    """ "3.2 Title": bold or larger type, short, numbered inside the open chapter."""
    m = HEADING_RE.match(ctx.text)
    larger = ctx.size > ctx.layout.body_size * HEADING_TYPE
    if m and (line.bold or larger) and len(ctx.text) < HEADING_MAX_CHARS:
        if ctx.exercise_next is not None and exercise_item(line, ctx) is not None:
            return None     # "5.3 Show that …" in a Problems list numbered in its chapter: the next problem
        if not larger and len(line.words) > 1 and not line.words[1].bold:
            return None     # a bold number before plain words: a numbered paragraph ("2.5 Theorem 2.4 says …")
        if _statement_numbered_first(line, ctx.layout):
            return None     # a statement's head numbered first: "2.14 Theorem." (run_in_head reads it)
        number = normalize_number(m.group(1))
        if number and (ctx.chapter is None or number.split(".")[0] == ctx.chapter):
            return NumberedHeading(min(4, number.count(".") + 1), number, m.group(2).strip())
    return None


def _statement_numbered_first(line: Line, layout: Layout) -> bool:
    """Whether a numbered line is a statement's head with its number first ("2.14 Theorem.", "1.6
    Proposition A …"), in a face of its own, not a float's caption: no section heading."""
    head = match_head(line, layout.body_font)
    return head is not None and head.distinct and head.kind not in FLOAT_KINDS and \
        not _section_set_as_head(line, head, layout)


def _section_set_as_head(line: Line, head: Head, layout: Layout) -> bool:
    """Whether a line read as a numbered head is a sectioning line: a theorem's or a remark's head is
    set in the body's size, a heading a step above it, so in larger type "6.1 Using soul with …"
    (a title whose second word is in another face) and "5.2.7 Ovals. Commands …" are a section's, and
    "Norm 10.1 References" (a bibliography's heading, its title run on with no separator) is no
    numbered thing; "Problem 2" alone on its line (a problem set's \section*) or with a colon stays
    one.  A contents line sets its entry and page apart by leaders or a fill: "Bibliography …… 613"
    is no head, whose word and number stand a word space apart."""
    words = line.words
    numbered_first = bool(NUMBER_FIRST_RE.fullmatch(words[0].text))
    if not numbered_first and words[1].x0 - words[0].x1 > layout.body_size * HEAD_WORD_GAP:
        return True
    larger = words[0].size > layout.body_size * HEADING_STEP and words[1].size > layout.body_size * HEADING_STEP
    if not larger:
        return False
    return numbered_first or (not head.sep and not head.title and bool(head.rest))


def hung_number_heading(line: Line, ctx: LineContext) -> Role | None:
    """ "2.2.2 Geometric Distribution" with its number hung in the margin (\\llap: the number ends at the
    column's edge, the title starts at it or after), the title in a face of its own (italic, bold, or
    larger type) though no larger than a step: no line of text starts left of the column, so the place
    tells what the size does not.  Numbered inside the open chapter."""
    m = HEADING_RE.match(ctx.text)
    layout = ctx.layout
    if not m or len(line.words) < 2 or len(ctx.text) >= HEADING_MAX_CHARS:
        return None
    number_word, title = line.words[0], line.words[1:]
    if number_word.x1 > layout.left or title[0].x0 < layout.left - HUNG_SLACK:
        return None
    if not all(w.italic or w.bold or w.size > layout.body_size for w in title) or \
            any(is_math_word(w) for w in title):
        return None
    if _statement_numbered_first(line, layout):
        return None     # a statement's head hung in the margin, its italic text run in: "1.6 Proposition A …"
    number = normalize_number(m.group(1))
    if number and ctx.chapter is not None and number.split(".")[0] == ctx.chapter:
        return NumberedHeading(min(4, number.count(".") + 1), number, m.group(2).strip())
    return None


HUNG_SLACK = 0.5   # pt: a title starts at the column's edge within this


def italic_subsection_heading(line: Line, ctx: LineContext) -> Role | None:
    """ "2.2.1 Kolmogorov Differential Equations" in the body's size, number and title alike in italic and
    nothing else on the line (tufte-book's \\subsection): its face is all that sets it apart from the text,
    so the sequence tells, as for a centred section's heading: numbered as the next subsection of the open
    section (its first when none is open there), at the column's edge, with no maths and no stop at its
    end (an italic statement's line is a sentence)."""
    m = HEADING_RE.match(ctx.text)
    layout = ctx.layout
    if not m or ctx.section is None or len(line.words) < 2 or len(ctx.text) >= HEADING_MAX_CHARS:
        return None
    if abs(line.x0 - layout.left) > layout.body_size * SUBSECTION_SLACK or ctx.text.endswith((".", ":", ";", ",")):
        return None
    if not all(w.italic and not w.bold for w in line.words) or any(is_math_word(w) for w in line.words[1:]) or \
            not m.group(2)[:1].isupper():
        return None
    opened = ctx.subsection if ctx.subsection and ctx.subsection.rsplit(".", 1)[0] == ctx.section else None
    last = opened.rsplit(".", 1)[1] if opened else "0"
    if not last.isdigit() or normalize_number(m.group(1)) != f"{ctx.section}.{int(last) + 1}":
        return None
    number = f"{ctx.section}.{int(last) + 1}"
    return NumberedHeading(min(4, number.count(".") + 1), number, m.group(2).strip())


SUBSECTION_SLACK = 0.2   # em: a subsection's heading starts at the column's edge within this


def centred_section_heading(line: Line, ctx: LineContext) -> Role | None:
    """A section's heading numbered with one number and a dot ("6. Field extensions", amsbook's and
    amsart's \\section), set apart only by its face and its place: bold or small capitals, at least the
    body's size, centred in the text block and short of both its edges, and numbered as the next
    section (1 when the chapter has none open yet). Sections numbered so are counted within their
    chapter, so the chapter's number goes before it ("1.6")."""
    m = SINGLE_NUMBER_HEAD_RE.match(ctx.text)
    layout = ctx.layout
    if not m or len(ctx.text) >= HEADING_MAX_CHARS or ctx.size < layout.body_size * HEADING_MIN_SIZE:
        return None
    if not (line.bold or all(CAPS_FONT_RE.search(w.font) for w in line.words)):
        return None
    inset = layout.body_size * CENTRED_INSET
    if abs((line.x0 + line.x1) / 2 - (layout.left + layout.right) / 2) > CENTRED_SLACK or \
            line.x0 < layout.left + inset or line.x1 > layout.right - inset:
        return None
    # the sequence is the evidence a centred bold line is no display or label: the open section's
    # last number plus one (a section numbered "3.1" open: the next is 2 only with its chapter's "3.2")
    opened = (ctx.section or "").split(".")[-1]
    expected = int(opened) + 1 if opened.isdigit() else 1
    if int(m.group(1)) != expected:
        return None
    number = f"{ctx.chapter}.{expected}" if ctx.chapter else str(expected)
    return NumberedHeading(2, number, m.group(2).strip())


def starts_statement(line: Line, head: Head, ctx: LineContext) -> bool:
    """A head in a face of its own opens an entity; a bold one anywhere at a line start, an
    italic or capitals one only where a new paragraph can begin."""
    layout = ctx.layout
    # a text layer with one font (a scan's) shows no faces: a head there need only open a paragraph;
    # a list's label set apart by a tab needs no face of its own either
    if not (head.distinct or layout.faceless or label_hangs(line, head, layout)):
        return False
    frame = frame_edge_of(line, ctx)
    if frame is None and line.x0 > layout.left + layout.body_size * RUN_IN_INDENT:
        return False
    if line.bold or frame is not None and line.top - frame[1] <= layout.body_size * FRAME_FIRST_LINE:
        return True
    prev = ctx.previous_line
    if prev is None or prev.page != line.page:
        return True
    # a display ends with its lowest line, a fraction's denominators under a row that ended the
    # sentence: a line of maths alone, set in from the edge, is no sentence the head could go on
    if is_display(prev, layout) and math_share(prev.words) >= NEARLY_ALL_MATHS and \
            not any(PROSE_WORD_RE.fullmatch(w.text) for w in prev.words):
        return True
    # (an end-of-proof mark ends its paragraph, whatever its last sentence ends with)
    return bool(SENTENCE_END_RE.search(prev.text) or END_MARK_RE.search(prev.text)) or \
        line.top - prev.bottom > line.size * SPACE_ABOVE_HEAD


FRAME_FIRST_LINE = 2.5   # em: a frame's first line stands this close under its top rule (its padding)


def frame_edge_of(line: Line, ctx: LineContext) -> tuple | None:
    """The frame a line is set in, when it starts at the frame's left edge: a frame's own edges are
    the column its lines are set in.  A package manual shows an example's typeset result in a frame
    beside its input ("Law 1. Don't hide …" right of the code that makes it), and a head there stands
    far right of the text block's edge; at the frame's edge it opens a statement as a head at the
    block's edge does (bold, or the frame's first line, or after a sentence's end)."""
    body = ctx.layout.body_size
    return next((b for b in ctx.boxes if inside(line, b, pad=FRAME_PAD) and line.x0 - b[0] <= body * RUN_IN_INDENT),
                None)


def label_tab(words: list[Word], body: float) -> int | None:
    """Where a list item's text starts after a label set apart by a tab ("Exercise 2.1.", "[12]", a
    description's term at the column's edge): the index of the word after the line's widest space,
    when that space ends the first few words (no maths), is a quad or more and far wider than any
    other."""
    spaces = [b.x0 - a.x1 for a, b in zip(words, words[1:])]
    if not spaces:
        return None
    k = max(range(min(len(spaces), LABEL_WORDS)), key=spaces.__getitem__)
    others = max(spaces[:k] + spaces[k + 1:], default=0.0)
    if spaces[k] < body * LABEL_TAB or spaces[k] <= others * LABEL_TAB_WIDER:
        return None
    # (a label is words or a number, no maths, no glyph set back over its neighbour: an accent's
    # overprint makes wide gaps of its own)
    if any(is_math_word(w) for w in words[:k + 1]) or min(spaces[:k], default=0.0) < 0:
        return None
    return k + 1


def label_hangs(line: Line, head: Head, layout: Layout) -> bool:
    """A head set apart by where it stands, not by its face: a list item's label ("Exercise 2.1." in
    the body face) with a tab's gap after it before the item's text at the hanging indent, as a word
    processor's numbered list or a description list sets it.  A bibliography's author-year label
    ("Knuth 1984", the tab, then "Knuth, Donald E. (1984). …") is made of its entry's own first words:
    an item whose text opens with the label's word is a reference, not a numbered thing."""
    at = label_tab(line.words, layout.body_size)
    if at != head.head_words:
        return False
    return at >= len(line.words) or line.words[at].text.rstrip(",.;:") != line.words[0].text.rstrip(",.;:")


def run_in_head(line: Line, ctx: LineContext) -> Role | None:
    """ "Theorem 2.9 …", "Example 5.2.": a numbered head (not a float's caption) that starts a
    statement, or one the numbering says was missed here (second look).  A number no earlier one of
    its kind leads up to, a year's or a code's, heads nothing ("Knuth 1984 ibid.", reached_by_its_kind)."""
    layout = ctx.layout
    head = match_head(line, layout.body_font)
    if head is not None and not head.distinct and _pointed_after_title(line, head, layout):
        head = replace(head, distinct=True)
    if head and head.kind not in FLOAT_KINDS and not _section_set_as_head(line, head, layout) and \
            reached_by_its_kind(head.kind, head.number, ctx.taken) and (
            starts_statement(line, head, ctx) or (
            _missed(ctx, head.kind, head.number, line) and line.x0 <= layout.left + layout.body_size * RUN_IN_INDENT)):
        return RunInHead(head, _frame_of_head(line, ctx))
    return None


def _pointed_after_title(line: Line, head: Head, layout: Layout) -> bool:
    """A head in small capitals or italic whose number is in the text's face and whose point follows its
    title in parentheses, "Theorem 1.1.10 (Monotone convergence theorem). A monotone …": amsthm and
    thmtools set the head's punctuation after the note, so the number has none of its own, and the
    point closing the title parts the head from the text as a point after the number does (a title
    cited in prose closes no sentence with its bracket)."""
    first = line.words[0]
    if not head.title or head.head_words < 3 or head.head_words > len(line.words) or \
            first.font == layout.body_font or not first.font:
        return False
    caps = bool(CAPS_FONT_RE.search(first.font)) or (first.text.isupper() and len(first.text) > 3)
    return (caps or first.italic) and line.words[head.head_words - 1].text.endswith(").")


def phrase_run_in_head(line: Line, ctx: LineContext) -> Role | None:
    """A head whose kind is a phrase in the head's face ("Abuse of Notation 1.2.6."), read where its
    number is the next of the statement opened last on a shared counter (1.2.6 after 1.2.5) and no
    entity has that number yet: "Proof of Theorem 2.1", set the same way, names a number already met."""
    head = phrase_head(line)
    if head is None or ctx.last_statement is None or not starts_statement(line, head, ctx):
        return None
    before, _, last = ctx.last_statement.rpartition(".")
    after, _, this = head.number.rpartition(".")
    if not (last.isdigit() and this.isdigit() and before == after and int(this) == int(last) + 1):
        return None
    if any(number == head.number for _, number in ctx.taken):
        return None
    return RunInHead(head, _frame_of_head(line, ctx))


def nameless_head(line: Line, ctx: LineContext) -> Role | None:
    """A head that prints its number alone ("1.1.3. When λ ≠ δ, …", build_heads.number_alone_head),
    read as a statement's where the page shows one: the number continues the open chapter's, section's
    or subsection's sequence, its first or the next after one met (1.1.1, 1.1.2, …; "2.3." in section
    2.2 where the book numbers them by chapter), at the column's edge
    or a paragraph's indent, and the text after it is set in a face other than the running text's (a
    theorem's slanted or italic body).  A numbered paragraph in upright running text stays prose."""
    head = number_alone_head(line)
    layout = ctx.layout
    if head is None or line.x0 > layout.left + layout.body_size * RUN_IN_INDENT:
        return None
    within, _, last = head.number.rpartition(".")
    # (equations keep a counter of their own: "(1.1.1)" is no statement's number; the statement still
    # open is not yet among those taken)
    statements = {number for kind, number in ctx.taken if kind != "formula"} | {ctx.last_statement}
    if within not in (ctx.chapter, ctx.section, ctx.subsection) or not last.isdigit() or \
            head.number in statements:
        return None
    if int(last) != 1 and f"{within}.{int(last) - 1}" not in statements:
        return None
    prose = [w for w in line.words[1:1 + NAMELESS_FACE_WORDS] if w.text.isalpha() and len(w.text) > 2
             and not is_math_word(w)]
    if not prose or sum(w.italic and w.font != layout.body_font for w in prose) * 2 <= len(prose):
        return None
    return RunInHead(head, _frame_of_head(line, ctx))


NAMELESS_FACE_WORDS = 8     # words: the face of a nameless head's text is read off its first words


def _frame_of_head(line: Line, ctx: LineContext) -> tuple | None:
    """The frame a statement's head opens: the one it is set in, or the one just below it when the
    head stands on a title bar above the frame (the bar itself is no frame of the text), or the one
    whose top edge runs through the head's line (a title in a small box astride the frame's edge,
    tcolorbox's "attach boxed title")."""
    inner = next((b for b in ctx.boxes if inside(line, b, pad=FRAME_PAD)), None)
    if inner is not None:
        return inner
    return next((b for b in ctx.boxes if b[0] - FRAME_PAD <= line.x0 and line.x1 <= b[2] + FRAME_PAD
                 and line.top <= b[1] <= line.bottom + ctx.layout.body_size * TITLE_BAR_GAP), None)


def exercise_item(line: Line, ctx: LineContext) -> Role | None:
    """In an exercise list, "n." at the column's edge where n is the next number (or a bold "1."
    that restarts the list)."""
    following = ctx.exercise_next
    if following is None or line.x0 > ctx.layout.left + ctx.layout.body_size * LIST_INDENT:
        return None
    number, printed = _list_number(line.words[0].text, ctx.chapter)
    if number is None or len(line.words) < 2 or "." in printed and ctx.exercise_in_chapter is False:
        return None     # (a list numbered "1.", "2." ends before a section "5.3" that follows it)
    if number == following or (number == 1 and following > 1 and line.words[0].bold):
        return ExerciseItem(number, tuple(line.words[1:]), printed)
    return None


def _list_number(text: str, chapter: str | None) -> tuple[int | None, str]:
    """An exercise list's item number and its printed form where the list numbers in its chapter:
    (3, "") for "3." or "3)", (3, "5.3") for "5.3" in chapter 5; (None, "") for anything else."""
    m = LIST_NUMBER_RE.match(text)
    if m:
        return int(m.group(1)), ""
    m = CHAPTER_LIST_NUMBER_RE.match(text)
    if m and chapter is not None and m.group(1) == chapter:
        return int(m.group(2)), f"{m.group(1)}.{m.group(2)}"
    return None, ""


def ends_statement(line: Line, ctx: LineContext) -> Role | None:
    """ "Proof.", "Solution." in a face of its own while a statement (not an exercise) is open."""
    last = ctx.block_last
    if last is not None and last.page == line.page and last.text.rstrip().endswith("-"):
        return None     # the line goes on with a word broken at the end of the last ("Well-" "Ordering.")
    if ctx.block_kind is not None and ctx.block_kind not in ("exercise", "problem") and \
            unnumbered_head(line, ctx.layout, ctx.next_line):
        return EndsStatement()
    return None


def framed_equation_label(line: Line, layout: Layout, boxes=()) -> str | None:
    """equation_label, or for a line inside one of the page's frames (`boxes`) a number at the
    frame's inner edge: a display in a frame is numbered a padding short of its rule."""
    label = equation_label(line, layout)
    frame = None if label is not None else next((b for b in boxes if inside(line, b, pad=FRAME_PAD)), None)
    if frame is not None:
        inner = replace(layout, right=frame[2] - layout.body_size * FRAME_LABEL_INSET, label_right=0.0)
        label = equation_label(line, inner)
    return label


def equation_label_rule(line: Line, ctx: LineContext) -> Role | None:
    """ "(X.Y)" at the right edge of the main column or at its left edge, or of a frame; on a second
    look, a number the sequence misses a little short of the right edge (not after "see", "equation"),
    or at the left edge a tag's separation before a row that is no prose."""
    label = framed_equation_label(line, ctx.layout, ctx.boxes)
    if label is None and ctx.wanted:
        words = line.words
        last = equation_number(words[-1].text)
        if last and _missed(ctx, "formula", last, line) and words[-1].x1 >= ctx.layout.right - MISSED_LABEL_REACH \
                and (len(words) == 1 or words[-2].text.lower().rstrip(".") not in REFERENCE_LEADS):
            label = last
        elif last and _missed(ctx, "formula", last, line) and len(words) > 1 and \
                words[-1].x0 - words[-2].x1 >= ctx.layout.body_size * SIDE_LABEL_GAP and \
                words[-2].text.lower().rstrip(".") not in REFERENCE_LEADS and not prose_pair(words[:-1]):
            label = last       # short of the right edge, a quad after maths: a display set in a minipage
        elif (first := equation_number(words[0].text)) and len(words) > 1 and \
                _missed(ctx, "formula", first, line) and words[0].x0 <= ctx.layout.left + LABEL_AT_EDGE and \
                words[1].x0 - words[0].x1 > ctx.layout.body_size * TAG_SEPARATION and not prose_pair(words[1:]):
            label = first      # on the left, a tag's separation before a row that is no prose
        elif last is None and (number := _misread_label(line, ctx)) is not None:
            return EquationLabel(number, misread=True)
    # (a date in brackets at the text block's edge is set as a label is; no sequence leads up to it)
    return EquationLabel(label) if label and sequence_reaches(label, ctx.last_formula) else None


def _misread_label(line: Line, ctx: LineContext) -> str | None:
    """On a second look, the number a label OCR misread must be: a bracketed scrap of two or three
    characters ("©)" for "(6)") standing where labels stand (at the column's edge, far from its
    display), when the sequence misses a number on this page right after the last one the walk met.
    What the scrap says is not evidence; where it stands and the gap in the numbering are."""
    words = line.words
    last = words[-1]
    if len(words) < 2 or not MISREAD_LABEL_RE.fullmatch(last.text) or \
            last.x0 - words[-2].x1 < ctx.layout.body_size * MISREAD_LABEL_GAP or prose_pair(words[:-1]):
        return None   # (a display's line: no two words of prose in a row)
    layout = ctx.layout
    if not _where_labels_end(last.x1, layout):
        return None
    after = number_key(ctx.last_formula) if ctx.last_formula else []
    missed = sorted((number_key(n), n) for (kind, n), pages in ctx.wanted.items()
                    if kind == "formula" and line.page in pages and number_key(n) > after)
    return missed[0][1] if missed else None


Rule = Callable[[Line, LineContext], "Role | None"]

# The order is part of the rules: a bookmark's line is a heading whatever it says; display type is
# a part's or chapter's label before anything else; a heading's wrapped title is not read again.
LINE_RULES: tuple[Rule, ...] = (
    bookmarked_heading,
    part_label,
    appendices_divider,
    chapter_label,
    division_title,
    heading_continues,
    exercise_list_heading,   # mark
    chapter_heading,
    head_on_its_line,
    numbered_heading,
    hung_number_heading,
    centred_section_heading,
    italic_subsection_heading,
    run_in_head,
    phrase_run_in_head,
    exercise_item,
    nameless_head,
    ends_statement,          # mark
    equation_label_rule,     # mark
)


def read_line(line: Line, ctx: LineContext) -> tuple[Role, ...]:
    """The roles the rules give a line, in rule order: any marks, then the role that decides
    (Prose when no rule does)."""
    marks: tuple[Role, ...] = ()
    for rule in LINE_RULES:
        role = rule(line, ctx)
        if role is None:
            continue
        if not role.mark:
            return marks + (role,)
        marks += (role,)
        ctx = role.seen_by_later_rules(ctx)
    return marks + (PROSE,)
