"""build_glyphs.py: the builder's first layer, a PDF as the evidence it carries, read with PDFium.

Sections, top-down: glyphs (characters with font, size and position, their text repaired),
words and lines (glyph runs joined, lines by baseline with their sub- and superscripts),
drawings (filled boxes, rules, paths and images), and the document's own structure (page
labels, outline, named destinations, internal links).  build_pdf.py reads every page through
read_document() and never touches the PDF library itself.

PDFium (pypdfium2, Apache-2.0/BSD) reads a page's text about twenty times faster than
pdfminer and maps more glyphs: ligatures, TeX fonts without a ToUnicode map (from glyph names),
math italic letters.  What it leaves unmapped (control characters where a TeX font's glyph has
no name) is mapped here from the TeX font encodings.  No rule here knows which book it reads.
"""

from __future__ import annotations

import bisect
import ctypes
import math
import mmap
import os
import re
import unicodedata
from array import array
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from build_common import OPERATOR_NAMES, BuildError
from build_objects import named_destinations
from rag_core import usable_cpus


# --------------------------------------------------------------------------- glyphs
"""Glyphs: PDFium's characters, their fonts, and text repaired from the TeX font encodings."""

# TeX's math and text fonts, by encoding: the characters of their first 32 codes, which PDFium
# reports as control characters when a font carries neither a ToUnicode map nor glyph names.
_OT1_LOW = "ΓΔΘΛΞΠΣΥΦΨΩ\ufb00\ufb01\ufb02\ufb03\ufb04ıȷ`´ˇ˘¯˚¸ßæœøÆŒØ"
_OML_LOW = "ΓΔΘΛΞΠΣΥΦΨΩαβγδϵζηθικλμνξπρστυϕχ"
# The maths italic font's two hooks (codes 0x2C, 0x2D: "arrowhookleft", "arrowhookright"), which an
# arrow joins into \hookrightarrow or \hookleftarrow; Unicode has no character of their own.
HOOKS = ("\u2e26", "\u2e27")
# The codes of TeX's math italic (OML) and symbol (OMS) fonts that coincide with ASCII
# punctuation: a layer that maps them as ASCII maps them wrongly (these fonts have no colon).
_OML_ASCII = {":": ".", ";": ",", "=": "/", "?": "⋆", "@": "∂", "[": "♭", "\\": "♮", "]": "♯", "`": "ℓ",
              "{": "ı", "|": "ȷ", "}": "℘", "~": "\u20d7", '"': "ε", "#": "ϑ", "$": "ϖ", "%": "ϱ", "&": "ς",
              "'": "φ", "(": "↼", ")": "↽", "*": "⇀", "+": "⇁", "^": "⌣", "_": "⌢"}
# The symbol (OMS) and extension (OMX) fonts' 128 codes: a layer that reports ASCII for their
# glyphs (no ToUnicode, glyph names PDFium does not know) is mapped back through these.
_OMS = ("−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘∙≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"
        "←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝′∞∈∋△▽/↦∀∃¬∅ℜℑ⊤⊥"
        "ℵABCDEFGHIJKLMNOPQRSTUVWXYZ∪∩⊎∧∨"
        "⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠")
_OMX = ("()[]⌊⌋⌈⌉{}⟨⟩|‖/\\" "()()[]⌊⌋⌈⌉{}⟨⟩/\\" "()[]⌊⌋⌈⌉{}⟨⟩/\\/\\" "⎛⎞⎡⎤⎣⎦⎢⎥⎧⎫⎩⎭⎨⎬⎪⏐"
        "⎝⎠⎜⎟⟨⟩⨆⨆∮∮⨀⨀⨁⨁⨂⨂" "∑∏∫⋃⋂⨄⋀⋁∑∏∫⋃⋂⨄⋀⋁" "∐∐^^^~~~[]⌊⌋⌈⌉{}" "√√√√⎷⏐⏐║  ⏞⏞⏟⏟⇑⇓")
# (codes 0x7A-0x7D are the tips of a horizontal brace, hooked down or up: pieces of \overbrace and
# \underbrace, whose middles are the other pair and whose runs between are rules)
# ASCII that a symbol font's glyph never stands for (it has no digits, lower-case letters or these
# marks): seen from an OMS font, they are its codes read as ASCII.  Braces, bars, "*", "-", "/"
# and capitals can be right (a ToUnicode map gives them), so they are left alone.
_OMS_NOT_ITSELF = set("0123456789abcdefghijklmnopqrstuvwxyz!\"#$%&'()+,.<>=:;?@[]^_`~")
# Big delimiters and brace pieces in the Private Use Area (Adobe Symbol), as Unicode pieces.
_PUA_PIECES = dict(zip(range(0xF8EB, 0xF8FF), "⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪⎮⎞⎟⎠⎤⎥⎦⎫⎬⎭"))
# The Adobe Glyph List gives a dotless j (before Unicode had one) a private-use code; a ToUnicode map
# written from that list maps \jmath there
_AGL_PRIVATE = {0xF6BE: "ȷ"}
# ... and its names "lparen" and "rparen" to the parenthesised letters ⒧ and ⒭, where a maths font
# that names its parentheses' larger sizes so means "(" and ")" (Euler Math under XeLaTeX)
_AGL_PARENS = {0x24A7: "(", 0x24AD: ")"}


# --------------------------------------------------------------------------- private-use glyphs
# An OpenType maths font's size variants and extensible pieces have no Unicode value of their own, and
# a ToUnicode map may send them to the Private Use Area (XeLaTeX's and LuaLaTeX's with Asana, Euler,
# KpMath).  A size variant is its base glyph drawn larger: where the font's subset also holds a glyph
# the map gives one of these characters (those OpenType maths fonts make variants of: big operators,
# delimiters, the radical, horizontal braces and wide accents), the variant's outline, normalised to its
# box, covers much the same cells as that glyph's.  A variant in the supplementary planes (Asana's
# U+10FFxx), whose outline PDFium cannot look up, is compared as drawn (_Raw.drawn_cells); a base the
# subset lacks stands in as its mirror image, where the subset holds that (MIRRORED_BASES).
VARIANT_BASES = ("∑∏∐∫∬∭∮∯∰⋃⋂⨀⨁⨂⨄⨆⋀⋁()[]{}⟨⟩|‖∣∥⌊⌋⌈⌉⟦⟧⟮⟯√⏞⏟⏜⏝⎴⎵\u0302\u0303\u0304\u030c"
                 + "".join(map(chr, _AGL_PARENS)))   # (⒧, ⒭: a maths font's "(" and ")" named "lparen", "rparen")
OUTLINE_GRID = 24          # cells across and down a normalised outline
OUTLINE_EDGE = 0.002       # of its height: how far in from its box's top and bottom an outline is sampled too
# VARIANT_BASES that are another's mirror image, left to right (True) or top to bottom (False), both ways
MIRRORED_BASES = tuple((a, b, across) for pair, across in (
    ("()", True), ("[]", True), ("{}", True), ("⟨⟩", True), ("⌊⌋", True), ("⌈⌉", True), ("⟦⟧", True), ("⟮⟯", True),
    ("⌊⌈", False), ("⌋⌉", False)) for a, b in (pair, pair[::-1]))
DRAWN_PIXELS = 96          # pixels to the em a glyph without a looked-up outline is drawn at (drawn_cells)
DRAWN_INK = 128            # the opacity from which a drawn pixel is ink
_INK_BYTES = bytes(1 if alpha >= 128 else 0 for alpha in range(256))   # an opacity -> ink (DRAWN_INK) or not
_INK_RUN = re.compile(rb"\x01+")
STROKE_PIXELS = 96         # pixels to the em a run is drawn at to see its strokes (strokes_of)
STROKE_MAX_PIXELS = 400_000  # ... a larger drawing is not looked at
SLANTS = (-0.1, 0.0, 0.1, 0.2, 0.3, 0.4)   # the shears tried (an italic leans 0.2 to 0.3, up to 0.4)
ITALIC_SLANT = 0.15        # a nameless font whose run leans this much or more is an italic
NAMELESS_BLOCK = 16        # pages measured at a time for their nameless fonts' faces (read_pages)
# cells two outlines share over the cells either covers: a variant's strokes thicken less than its box
# grows (a display ∑ drawn 1.4 times larger keeps 0.84 of the text ∑'s cells in KpMath-Sans; a "["
# 1.6 to 2.6 times taller, 0.72 to 0.84; a "{" 2.1 times taller, 0.67), while glyphs of other shapes
# share at most 0.44 (∫ against "{", ‖ against "(")
VARIANT_OVERLAP = 0.6
VARIANT_MARGIN = 0.03      # by which the best base must lead the next (a "{" and a "}" mirror each other)
VARIANT_SHRINK = 0.95      # a variant is no smaller than its base along the axis it grows on ...
VARIANT_STRETCH = 2.5      # ... and within this factor of it across (a rule is not a tall bar's variant)
# ems a variant grown upwards is tall at least: TeX's smallest \big delimiter is 1.2 em, a display
# operator taller; the short bars an extensible bar or radical is built of (Euler's "sqrt.ex", a
# radical's upright) are pieces, not variants, and no outline tells them apart
VARIANT_TALL = 1.1
INTEGRAL_WIDTH = 0.6       # an integral's box is at most this wide to its height (drawn_integral) ...
INTEGRAL_HOOK = 0.2        # ... and its hooks reach this share of its width past its stroke's course


def outline_cells(contours: list[list[tuple[float, float]]]) -> frozenset[tuple[int, int]] | None:
    """The cells of an OUTLINE_GRID square an outline covers (even-odd, its curves by their control
    polygons), normalised to its box; None for no outline.  A row is sampled at its middle, and the
    top and bottom rows at the box's edges too (OUTLINE_EDGE in): a tall variant keeps its strokes'
    thickness in ems while its box grows, and the arms of a 3 em bracket, a thirtieth of its height,
    stand between the middles of the rows (Euler Math's \\Biggl[ read as a bare stem)."""
    points = [p for c in contours for p in c]
    if not points:
        return None
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    width, height = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
    edges = [(c[k], c[(k + 1) % len(c)]) for c in contours for k in range(len(c))]
    cells = set()
    samples = [(row, y0 + (row + 0.5) / OUTLINE_GRID * height) for row in range(OUTLINE_GRID)]
    samples += [(0, y0 + OUTLINE_EDGE * height), (OUTLINE_GRID - 1, y1 - OUTLINE_EDGE * height)]
    for row, y in samples:
        xs = sorted(ax + (y - ay) * (bx - ax) / (by - ay) for (ax, ay), (bx, by) in edges if (ay <= y) != (by <= y))
        for a, b in zip(xs[0::2], xs[1::2]):
            first = max(0, math.ceil((a - x0) / width * OUTLINE_GRID - 0.5))
            last = min(OUTLINE_GRID - 1, math.floor((b - x0) / width * OUTLINE_GRID - 0.5))
            cells.update((row, col) for col in range(first, last + 1))
    return frozenset(cells)


def _extent(contours: list[list[tuple[float, float]]]) -> tuple[float, float]:
    """An outline's width and height."""
    xs = [p[0] for c in contours for p in c]
    ys = [p[1] for c in contours for p in c]
    return (max(xs) - min(xs), max(ys) - min(ys)) if xs else (0.0, 0.0)


def variant_base(cells: frozenset, size: tuple[float, float],
                 bases: dict[str, tuple[frozenset, tuple[float, float]]]) -> str | None:
    """The base glyph a private-use glyph is a size variant of, among `bases` (character -> its cells
    and its outline's width and height): the one whose cells it shares most, VARIANT_OVERLAP of
    them at least and VARIANT_MARGIN more than any other's, no smaller than it along one axis and
    within VARIANT_STRETCH of it along the other; None when none is."""
    scores: dict[str, float] = {}
    for ch, (other, (width, height)) in bases.items():
        grows = size[1] >= max(VARIANT_SHRINK * height, VARIANT_TALL) and 1 / VARIANT_STRETCH <= size[0] / max(width, 1e-6) <= VARIANT_STRETCH \
            or size[0] >= max(VARIANT_SHRINK * width, size[1]) and 1 / VARIANT_STRETCH <= size[1] / max(height, 1e-6) <= VARIANT_STRETCH
        if grows:
            # (bases that print alike, "(" and the "⒧" a map names so, "|" and "∣", count once)
            meant = _AGL_PARENS.get(ord(ch), _ALIKE.get(ch, ch))
            scores[meant] = max(scores.get(meant, 0.0), len(cells & other) / max(1, len(cells | other)))
    ranked = sorted(((score, ch) for ch, score in scores.items()), reverse=True)
    if not ranked or ranked[0][0] < VARIANT_OVERLAP or len(ranked) > 1 and ranked[0][0] - ranked[1][0] < VARIANT_MARGIN:
        return None
    return ranked[0][1]


_ALIKE = {"∣": "|", "∥": "‖"}


def _runs(cells: frozenset, row: int) -> list[tuple[int, int]]:
    """A row's filled cells as runs (first, last column)."""
    runs: list[tuple[int, int]] = []
    for col in range(OUTLINE_GRID):
        if (row, col) in cells:
            if runs and runs[-1][1] == col - 1:
                runs[-1] = (runs[-1][0], col)
            else:
                runs.append((col, col))
    return runs


def drawn_operator(cells: frozenset, size: tuple[float, float]) -> str | None:
    """A private-use glyph read as a display "∑" or "∏" by its outline alone, where the subset holds no
    text-size one to compare it with (variant_base): a display operator, VARIANT_TALL at least and about
    as wide as tall, drawn as TeX's fonts draw them.  A sum's bottom row is filled, its top one mostly,
    and between them (past a sixth of its height from either, where its arms end) each row is one stroke
    (and an arm's serif at the right edge) whose middle moves right down to the point and back left below
    it; a product's top row is
    filled and each row below is two strokes, stems at its sides, whose feet leave its middle open (an
    upside-down product, ∐, fills its bottom row).  A display "∫" is narrower (a fifth to a half as wide
    as tall), one stroke in every row whose middle never moves right going down, from a top row at the
    right edge to a bottom row at the left one, and its ends are terminals at least twice the stroke's
    width (a slash's rows are all as wide as its stroke)."""
    n = OUTLINE_GRID
    if size[1] >= VARIANT_TALL and 0.2 <= size[0] / size[1] < 0.5:
        return "∫" if _one_stroke_integral(cells) else None
    if size[1] < VARIANT_TALL or not 0.5 <= size[0] / size[1] <= 1.5:
        return None
    rows = [_runs(cells, row) for row in range(n // 6, n - n // 6)]     # bottom row first
    bottom, top = _runs(cells, 0), _runs(cells, n - 1)
    # (an arm's serif may reach further down or up at the right: a second run, at the right edge)
    if bottom == [(0, n - 1)] and len(top) == 1 and top[0][1] - top[0][0] >= n * 0.6 \
            and all(len(runs) == 1 or len(runs) == 2 and runs[1][1] >= n - 2 for runs in rows):
        middles = [(runs[0][0] + runs[0][1]) / 2 for runs in rows]
        point = max(range(len(middles)), key=lambda k: middles[k])
        rising, falling = middles[:point + 1], middles[point:]
        if 0 < point < len(middles) - 1 and middles[point] >= n * 0.3 \
                and all(x <= y for x, y in zip(rising, rising[1:])) and all(x >= y for x, y in zip(falling, falling[1:])):
            return "∑"
    if top == [(0, n - 1)] and all(len(runs) == 2 and runs[0][0] <= n // 4 and runs[1][1] >= n - 1 - n // 4
                                   for runs in rows) \
            and len(bottom) >= 2:
        return "∏"
    return None


def drawn_integral(cells: frozenset, size: tuple[float, float]) -> str | None:
    """A private-use glyph read as a display "∫" by its outline alone, where the subset holds no
    text-size integral to compare it with (variant_base): one stroke, upright or leaning, tall and
    narrow (no wider than INTEGRAL_WIDTH of its height, VARIANT_TALL at least), whose top ends in a hook
    or terminal out to the right of the stroke and whose bottom ends in one out to its left.  Between a
    sixth of its height from either end each row is one run, at most a third of the box wide; the
    stroke's course through those rows, carried on straight to the top and bottom rows, misses the
    hooks by INTEGRAL_HOOK of the box's width at least (a tall slash, a straight stroke, has no hooks;
    a parenthesis or a brace turns both ends to one side; a bracket's arms fill its top and bottom
    rows on the side of its stem, an integral's top never reaches past its stroke on the left)."""
    n = OUTLINE_GRID
    if size[1] < VARIANT_TALL or size[0] > INTEGRAL_WIDTH * size[1]:
        return None
    middle = range(n // 6, n - n // 6)
    runs = [_runs(cells, row) for row in middle]
    if not all(len(row) == 1 and row[0][1] - row[0][0] < n // 3 for row in runs):
        return None
    # the stroke's course: its centre in the lower and in the upper half of those rows, carried on
    half = len(runs) // 2
    low, high = runs[:half], runs[half:]
    low_row, high_row = n // 6 + (half - 1) / 2, n // 6 + half + (len(high) - 1) / 2
    low_col = sum(a + b for (a, b), in low) / (2 * len(low))
    high_col = sum(a + b for (a, b), in high) / (2 * len(high))
    rise = (high_col - low_col) / (high_row - low_row)     # columns per row
    reach = max(b - a for (a, b), in runs) / 2 + INTEGRAL_HOOK * n
    band = max(1, n // 8)
    top = [col for row in range(n - band, n) for a, b in _runs(cells, row) for col in (a, b)]
    bottom = [col for row in range(band) for a, b in _runs(cells, row) for col in (a, b)]
    if not top or not bottom:
        return None
    at_top, at_bottom = high_col + rise * (n - 1 - high_row), low_col - rise * low_row
    hooked = max(top) >= at_top + reach and min(bottom) <= at_bottom - reach
    return "∫" if hooked and min(top) > at_top - reach and max(bottom) < at_bottom + reach else None


def _one_stroke_integral(cells: frozenset) -> bool:
    """The rows of a display integral's outline (drawn_operator): one stroke each, the bottom row's at the
    left edge and the top row's at the right, their middles never moving left going up, and the two end
    rows (its terminals) at least twice as wide as the stroke most rows are."""
    n = OUTLINE_GRID
    rows = [_runs(cells, row) for row in range(n)]      # bottom row first
    if any(len(runs) != 1 for runs in rows):
        return False
    runs = [row[0] for row in rows]
    middles = [(first + last) / 2 for first, last in runs]
    widths = sorted(last - first + 1 for first, last in runs)
    stroke = widths[n // 2]
    return runs[0][0] == 0 and runs[-1][1] == n - 1 and all(a <= b for a, b in zip(middles, middles[1:])) \
        and all(last - first + 1 >= 2 * stroke for first, last in (runs[0], runs[-1]))


def square_bracket(cells: frozenset, size: tuple[float, float]) -> str | None:
    """A private-use glyph read as a size variant of "[" or "]" by its outline alone, where the subset
    holds neither bracket to compare it with (variant_base): a square bracket is drawn of straight
    strokes, a stem its full height and an arm at its top and at its bottom, so its cells fill the top
    and bottom rows and, between, one run from the stem's side (at the box's edge, or just in from it
    where the arms overhang the stem) to short of the middle.  No piece of an
    extensible bracket has both arms (⎡ and ⎣ have one, ⎢ none); a variant is VARIANT_TALL at least."""
    n = OUTLINE_GRID
    if size[1] < VARIANT_TALL or size[0] * 2 > size[1] \
            or any((0, col) not in cells or (n - 1, col) not in cells for col in range(n)):
        return None
    rows = [[col for col in range(n) if (row, col) in cells] for row in range(n // 6, n - n // 6)]
    if not all(row and len(row) == row[-1] - row[0] + 1 and len(row) <= n // 2 for row in rows):
        return None
    # (the stem stands at the box's edge, or a cell or so in where the arms overhang it: Asana Math's)
    starts, ends = {row[0] for row in rows}, {row[-1] for row in rows}
    return "[" if len(starts) == 1 and min(starts) <= n // 8 else \
        "]" if len(ends) == 1 and max(ends) >= n - 1 - n // 8 else None


def curly_brace(cells: frozenset, size: tuple[float, float]) -> str | None:
    """A private-use glyph read as a size variant of "{" or "}" by its outline alone, where comparing it
    with the subset's brace (variant_base) falls short: a tall variant keeps its strokes' thickness in
    ems while its box grows, so normalised to its box its stems are thinner than the base's and its nose,
    thinner than a cell, may fall between the rows sampled (XCharter Math's 2.8 em brace shares 0.59 of
    the cells of its 0.84 em one).  A brace is one stroke in every row: two stems in one column (most of
    its rows), a nose off that column on one side in its middle third, and hooks at its top and bottom
    rows off it on the other side ("{" noses left).  A parenthesis has no column most rows keep to, an
    extensible brace's piece has not both hooks and a nose; a variant is VARIANT_TALL at least and at
    least twice as tall as wide."""
    n = OUTLINE_GRID
    if size[1] < VARIANT_TALL or size[0] * 2 > size[1]:
        return None
    rows = [_runs(cells, row) for row in range(n)]      # bottom row first
    if any(len(runs) != 1 for runs in rows):
        return None
    centres = [(runs[0][0] + runs[0][1]) / 2 for runs in rows]
    stems = sorted(centres)[n // 2]
    off = [centre - stems for centre in centres]
    if sum(abs(o) > n / 8 for o in off) > n / 3:       # most rows keep to the stems' column
        return None
    for side, brace in ((-1, "{"), (1, "}")):
        nose = max(range(n), key=lambda k: side * off[k])
        if n // 3 <= nose < n - n // 3 and side * off[nose] >= n / 6 \
                and -side * off[0] >= n / 8 and -side * off[-1] >= n / 8:
            return brace
    return None


@lru_cache(maxsize=256)
def _named_layout(name: str) -> str | None:
    """'extension' or 'symbols' when a font's name says it is a maths extension or symbol font (asked
    once per font, not once per glyph)."""
    return "extension" if _EXTENSION_NAME.search(name) else "symbols" if _SYMBOLS_NAME.search(name) else None


# Type 1 fonts made for dvips move codes 0-32 and 127, which PostScript's show cannot reach in a
# string as easily, to 161-170, 173-195 and 196
_DVIPS_LOW = {**{161 + k: k for k in range(10)}, **{173 + k: 10 + k for k in range(23)}, 196: 127}
STIX_SCRIPT_CAPITALS = 0xE22D   # where the STIX fonts put their calligraphic A-Z (a code of their own)


def font_encoding(font: str) -> str | None:
    """The TeX encoding a font's name implies: 'OML' (math italic), 'OMS' (symbols), 'OMX'
    (extension), 'OT1' (Computer Modern text), else None."""
    # Latin Modern's maths fonts keep TeX's layouts under names of their own, and so do the families
    # made from them, behind a prefix of their own (MLModern's "MLMMathExtension10")
    name = re.sub(r"^[A-Z]{1,3}(?=LMMATH(ITALIC|SYMBOLS|EXTENSION)\d)", "", font.upper())
    if re.match(r"(CMMI|CMMIB|LMMATHITALIC|EUFM|MSBM)", name):
        return "OML" if name.startswith(("CMMI", "LMMATHITALIC")) else None
    if re.match(r"(CMSY|CMBSY|LMMATHSYMBOLS)", name):
        return "OMS"
    if re.match(r"(CMEX|LMMATHEXTENSION)", name):
        return "OMX"
    if re.match(r"(CMR|CMBX|CMTI|CMSL|CMSS|CMCSC|CMBXTI|CMDUNH|CMFIB|CMU)\d", name):
        return "OT1"
    return None


# Glyph names TeX's fonts use that the Adobe list does not know, and the pieces of extensible
# delimiters by their name's stem and position suffix.  (TeX's maths italics, Computer Modern's,
# Euler's and PazoMath's, name their lunate epsilon, \epsilon, "epsilon1", and the round one,
# \varepsilon, "epsilon" as the Adobe list does.)
_TEX_GLYPH_NAMES = {
    "epsilon1": "ϵ", "theta1": "ϑ", "phi1": "φ", "rho1": "ϱ", "sigma1": "ς", "omega1": "ϖ", "lscript": "ℓ",
    # (PazoMath names \varpi "pi1"; other fonts name the variants as TeX's commands do)
    "pi1": "ϖ", "varpi": "ϖ", "varrho": "ϱ", "varsigma": "ς", "vartheta": "ϑ", "varphi": "φ", "varepsilon": "ε",
    "weierstrass": "℘", "vector": "\u20d7", "latticetop": "⊤", "intercal": "⊺", "star": "⋆", "dotlessj": "ȷ",
    "dotlessi": "ı", "partialdiff": "∂", "negationslash": "\u0338", "mapstochar": "↦", "prime": "′",
    "element": "∈", "owner": "∋", "nelement": "∉", "minus": "−", "periodcentered": "·", "multiply": "×", "asteriskmath": "∗",
    "plusminus": "±", "minusplus": "∓", "approxequal": "≈", "similar": "∼", "lessequal": "≤", "greaterequal": "≥",
    "propersubset": "⊂", "reflexsubset": "⊆", "propersuperset": "⊃", "reflexsuperset": "⊇", "equivasymptotic": "≍",
    "equivalence": "≡", "arrowleft": "←", "arrowright": "→", "arrowdblright": "⇒", "arrowdblleft": "⇐",
    "arrowboth": "↔", "arrowdblboth": "⇔", "infinity": "∞", "nabla": "∇", "radical": "√", "bar": "|",
    "bardbl": "‖", "angbracketleft": "⟨", "angbracketright": "⟩", "floorleft": "⌊", "floorright": "⌋",
    "ceilingleft": "⌈", "ceilingright": "⌉", "braceleft": "{", "braceright": "}", "parenleft": "(",
    "parenright": ")", "bracketleft": "[", "bracketright": "]", "slash": "/", "backslash": "\\",
    "summation": "∑", "product": "∏", "coproduct": "∐", "integral": "∫", "contintegral": "∮", "union": "⋃",
    "intersection": "⋂", "unionmulti": "⨄", "logicaland": "⋀", "logicalor": "⋁", "circledot": "⨀",
    "circleplus": "⨁", "circlemultiply": "⨂", "unionsq": "⨆", "hat": "^", "tilde": "~", "check": "ˇ",
    "vextendsingle": "⏐", "vextenddouble": "‖", "braceex": "⎪", "bracelefttp": "⎧", "braceleftmid": "⎨",
    "braceleftbt": "⎩", "bracehtipdownleft": "⏞", "bracehtipdownright": "⏞", "bracehtipupleft": "⏟",
    "bracehtipupright": "⏟", "bracerighttp": "⎫", "bracerightmid": "⎬", "bracerightbt": "⎭", "parenlefttp": "⎛",
    "parenleftex": "⎜", "parenleftbt": "⎝", "parenrighttp": "⎞", "parenrightex": "⎟", "parenrightbt": "⎠",
    "bracketlefttp": "⎡", "bracketleftex": "⎢", "bracketleftbt": "⎣", "bracketrighttp": "⎤",
    "bracketrightex": "⎥", "bracketrightbt": "⎦", "radicalbt": "⎷", "radicalvertex": "⏐", "radicaltp": "⏐",
    "arrowvertex": "⏐", "arrowdblvertex": "‖", "emptyset": "∅", "universal": "∀", "existential": "∃",
    "logicalnot": "¬", "perpendicular": "⊥", "turnstileleft": "⊢", "angle": "∠", "triangle": "△",
    "barex": "⏐", "bardblex": "‖", "dotacc": "˙", "ddotacc": "¨", "vec": "\u20d7", "dotaccent": "˙", "dieresis": "¨",
    "colonequal": "≔", "defines": "≜", "arrowhookleft": HOOKS[0], "arrowhookright": HOOKS[1],
    "dblarrowheadright": "↠", "dblarrowheadleft": "↞", "arrowlefttophalf": "↼", "arrowleftbothalf": "↽",
    "arrowrighttophalf": "⇀", "arrowrightbothalf": "⇁", "harpoonleftright": "⇌", "harpoonrightleft": "⇋",
    "lessorequalslant": "⩽", "greaterorequalslant": "⩾", "therefore": "∴",
    "because": "∵", "precedesequal": "⪯", "followsequal": "⪰", "precedes": "≺", "follows": "≻",
    "lessorsimilar": "≲", "greaterorsimilar": "≳",
    "square": "□", "circumflex": "ˆ", "macron": "¯", "breve": "˘", "caron": "ˇ", "acute": "´", "grave": "`", "ring": "˚",
    # txfonts' and pxfonts' names (their symbol fonts A, B, C and extension font A)
    "nequal": "≠", "doteq": "≐", "iinteg": "∬", "iiinteg": "∭", "dblcontinteg": "∯", "parallel": "∥",
    "nparallel": "∦", "notparallel": "∦", "notbar": "∤", "notsubseteql": "⊈", "notsuperseteql": "⊉",
    "subsetnoteql": "⊊", "supersetnoteql": "⊋", "nequivalence": "≢", "notsimilar": "≁", "nsimilar": "≁",
    "lessmuch": "≪", "greatermuch": "≫", "proportional": "∝", "mapsto": "↦", "similarequal": "≃",
    "notlessequal": "≰", "notgreaterequal": "≱", "notless": "≮", "notgreater": "≯", "notprecedes": "⊀",
    "notfollows": "⊁", "notturnstile": "⊬", "notforces": "⊮", "notsatisfies": "⊭", "notarrowleft": "↚",
    "notarrowright": "↛", "notdblarrowleft": "⇍", "notdblarrowright": "⇏", "precedesorequal": "≼",
    "followsorequal": "≽", "lessdblequal": "≦", "greaterdblequal": "≧", "lessorgreater": "≶", "greaterorless": "≷",
    "circleequal": "⊜", "multimap": "⊸", "between": "≬", "forces": "⊩", "satisfies": "⊨", "squareplus": "⊞",
    "squareminus": "⊟", "squaremultiply": "⊠", "squaredot": "⊡", "squareimage": "⊏", "squareoriginal": "⊐",
    "trianglerightequal": "⊵", "triangleleftequal": "⊴", "intersectionsq": "⊓", "subsetsqequal": "⊑",
    "supersetsqequal": "⊒", "wreathproduct": "≀", "aleph": "ℵ", "circleminus": "⊖", "circledivide": "⊘",
    "arrowup": "↑", "arrowdown": "↓", "arrowdblup": "⇑", "arrowdbldown": "⇓", "triangleinv": "▽",
}
# The two forms of phi, as the glyph names of Adobe's Symbol font and of TeX's maths italics give them:
# "phi" is the stroked ϕ (\phi), "phi1" the open φ (\varphi).  The Adobe Glyph List reads the names by
# the reference glyphs Unicode showed before its version 3.0, the other way round (phi U+03C6, phi1
# U+03D5), and so does PDFium for a Type 1 font without a ToUnicode map (pdfTeX's glyphtounicode map
# does too, but a map is the PDF's own word and is read as written).  PDFium's character -> the one the
# glyph prints.
_AGL_PHI_READ = {"\u03c6": "\u03d5", "\u03d5": "\u03c6"}
_SIZE_SUFFIX = re.compile(r"(?:big|Big|bigg|Bigg|text|display|wide|wider|widest|low)\d{0,2}$")   # mathdesign: big1..big5


def glyph_name_char(name: str) -> str:
    """The character a glyph name stands for: uniXXXX names, TeX's names (their size variants too),
    Greek letters by name, single letters; "" when unknown."""
    if re.fullmatch(r"uni[0-9A-F]{4}", name) or re.fullmatch(r"u[0-9A-F]{4,6}", name):
        try:
            return chr(int(name[3:] if name.startswith("uni") else name[1:], 16))
        except ValueError:
            return ""
    name = name.split(".")[0]                      # alternates: summationdisplay.1
    if name in _TEX_GLYPH_NAMES:
        return _TEX_GLYPH_NAMES[name]
    if re.fullmatch(r"[a-z]+[A-Z]", name):          # a font's variant letter: parenlefttpA
        name = name[:-1]
    stem = _SIZE_SUFFIX.sub("", name)
    if stem in _TEX_GLYPH_NAMES:
        return _TEX_GLYPH_NAMES[stem]
    if len(name) == 1 and name.isalnum():
        return name
    if name in _ASCII_GLYPH_NAMES:                 # zero, period, equal: a text face's glyphs
        return _ASCII_GLYPH_NAMES[name]
    if re.fullmatch(r"[A-Za-z](?:cal|bbb|frak|scr)", name):   # a letter named with its alphabet (mathdesign)
        return name[0]
    for case in ("SMALL", "CAPITAL"):
        try:
            if (case == "SMALL") == name[:1].islower():
                # (Unicode spells the letter the glyph lists call "lambda" LAMDA)
                return unicodedata.lookup(f"GREEK {case} LETTER {name.upper().replace('LAMBDA', 'LAMDA')}")
        except KeyError:
            pass
    return ""


def builtin_names(data: bytes) -> dict[int, str]:
    """A Type 1 font program's own encoding (\"dup 101 /epsilon1 put\"): code -> glyph name.  Fonts a
    PDF embeds without an /Encoding of its own print through it, and PDFium reports their codes.  A
    compact (CFF) program, as Ghostscript writes every Type 1 font it embeds, keeps its encoding in
    binary tables (cff_builtin_names)."""
    if data[:1] == b"\x01" and len(data) > 4 and data[2] == 4:
        return cff_builtin_names(data)
    head = data[:60000]
    return {int(code): name.decode("latin-1") for code, name in
            re.findall(rb"dup (\d{1,3}) ?/([A-Za-z0-9._]{1,40}) put", head) if int(code) < 256}


# The first 96 of CFF's standard strings (string ids): the printable ASCII glyphs, in code order from
# the space (id 1 is code 32)
_CFF_ASCII_NAMES = (".notdef space exclam quotedbl numbersign dollar percent ampersand quoteright parenleft "
                    "parenright asterisk plus comma hyphen period slash zero one two three four five six seven "
                    "eight nine colon semicolon less equal greater question at " + " ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                    + " bracketleft backslash bracketright asciicircum underscore quoteleft "
                    + " ".join("abcdefghijklmnopqrstuvwxyz") + " braceleft bar braceright asciitilde").split()
# (from "exclam" on: a glyph named "space" is no glyph a formula prints)
_ASCII_GLYPH_NAMES = {name: chr(31 + k) for k, name in enumerate(_CFF_ASCII_NAMES) if k >= 2}
_CFF_STANDARD_STRINGS = 391      # ids below this are the format's own strings; the font's follow


def cff_builtin_names(data: bytes) -> dict[int, str]:
    """A CFF font program's own encoding: code -> glyph name ({} for a CID-keyed font, a predefined
    encoding, or a table that does not parse).  The tables (Adobe's Technical Note 5176): the top
    dictionary's charset (glyph -> string id) and Encoding (code -> glyph) offsets, and the string
    index holding the font's own glyph names (standard ones beyond printable ASCII stay unnamed)."""
    try:
        def index(at: int) -> tuple[list[bytes], int]:
            count = int.from_bytes(data[at:at + 2], "big")
            if count == 0:
                return [], at + 2
            size = data[at + 2]
            offsets = [int.from_bytes(data[at + 3 + k * size:at + 3 + (k + 1) * size], "big") for k in range(count + 1)]
            base = at + 3 + (count + 1) * size - 1
            return [data[base + offsets[k]:base + offsets[k + 1]] for k in range(count)], base + offsets[-1]

        _, at = index(data[2])                 # the font names
        tops, at = index(at)
        strings, _ = index(at)
        top = _cff_dict(tops[0]) if tops else {}
        if (12, 30) in top or 15 not in top or 16 not in top or 17 not in top:
            return {}                          # CID-keyed, or a predefined charset or encoding
        glyphs = int.from_bytes(data[top[17][0]:top[17][0] + 2], "big")
        sids = _cff_charset(data, top[15][0], glyphs)
        codes = _cff_encoding(data, top[16][0], sids)
    except (IndexError, KeyError, ValueError):
        return {}

    def name(sid: int) -> str | None:
        if sid < len(_CFF_ASCII_NAMES):
            return _CFF_ASCII_NAMES[sid]
        if sid >= _CFF_STANDARD_STRINGS and sid - _CFF_STANDARD_STRINGS < len(strings):
            return strings[sid - _CFF_STANDARD_STRINGS].decode("latin-1")
        return None
    out = {}
    for code, sid in codes.items():
        glyph = name(sid)
        if glyph and code < 256:
            out[code] = glyph
    return out


def _cff_dict(raw: bytes) -> dict:
    """A CFF dictionary: operator (an int, or (12, n) for the two-byte ones) -> its operands."""
    out, operands, k = {}, [], 0
    while k < len(raw):
        b = raw[k]
        if b <= 21:
            op = (12, raw[k + 1]) if b == 12 else b
            k += 2 if b == 12 else 1
            out[op], operands = operands, []
        elif b == 28:
            operands.append(int.from_bytes(raw[k + 1:k + 3], "big", signed=True))
            k += 3
        elif b == 29:
            operands.append(int.from_bytes(raw[k + 1:k + 5], "big", signed=True))
            k += 5
        elif b == 30:                          # a real number: nibbles up to the 0xf that ends it
            k += 1
            while k < len(raw) and raw[k] & 0x0F != 0x0F and raw[k] >> 4 != 0x0F:
                k += 1
            operands.append(0)
            k += 1
        elif b <= 246:
            operands.append(b - 139)
            k += 1
        elif b <= 250:
            operands.append((b - 247) * 256 + raw[k + 1] + 108)
            k += 2
        elif b <= 254:
            operands.append(-(b - 251) * 256 - raw[k + 1] - 108)
            k += 2
        else:
            raise ValueError("reserved byte in a CFF dictionary")
    return out


def _cff_charset(data: bytes, at: int, glyphs: int) -> list[int]:
    """Each glyph's string id (glyph 0 is .notdef)."""
    if at <= 2:
        raise ValueError("a predefined charset")
    kind, at, sids = data[at], at + 1, [0]
    while len(sids) < glyphs:
        if kind == 0:
            sids.append(int.from_bytes(data[at:at + 2], "big"))
            at += 2
            continue
        first = int.from_bytes(data[at:at + 2], "big")
        left = data[at + 2] if kind == 1 else int.from_bytes(data[at + 2:at + 4], "big")
        at += 3 if kind == 1 else 4
        sids.extend(range(first, first + left + 1))
    return sids[:glyphs]


def _cff_encoding(data: bytes, at: int, sids: list[int]) -> dict[int, int]:
    """Code -> string id, by the font's own encoding table and its supplements."""
    if at <= 1:
        raise ValueError("a predefined encoding")
    kind, at, codes, glyph = data[at], at + 1, {}, 1
    if kind & 0x7F == 0:
        for k in range(data[at]):
            if glyph + k < len(sids):
                codes[data[at + 1 + k]] = sids[glyph + k]
        at += 1 + data[at]
    else:
        ranges, at = data[at], at + 1
        for _ in range(ranges):
            first, left = data[at], data[at + 1]
            for code in range(first, first + left + 1):
                if glyph < len(sids):
                    codes[code] = sids[glyph]
                glyph += 1
            at += 2
    if kind & 0x80:
        for k in range(data[at]):
            code, sid = data[at + 1 + 3 * k], int.from_bytes(data[at + 2 + 3 * k:at + 4 + 3 * k], "big")
            codes[code] = sid
    return codes


def code_char(code: int, encoding: str) -> str:
    """The glyph a TeX maths font prints at a code, for a glyph the PDF gives no Unicode for (PDFium
    then reports the code itself): the encoding's table, whatever ASCII character the code looks like."""
    if encoding == "OMX":
        return _OMX[code] if code < 128 and _OMX[code] != " " else ""
    if encoding == "OMS":
        return _OMS[code] if code < 128 else ""
    if encoding == "OML":
        if code < 0x20:
            return _OML_LOW[code] if code < len(_OML_LOW) else ""
        if code in (0x2C, 0x2D):
            return HOOKS[code - 0x2C]       # the hooks of \hookrightarrow and \hookleftarrow
        return _OML_ASCII.get(chr(code), chr(code)) if code < 128 else ""
    return chr(code)


def repair_char(ch: str, encoding: str | None) -> str:
    """One glyph's text as printed: unmapped TeX codes, ASCII look-alikes in math fonts, PUA pieces."""
    code = ord(ch)
    if (encoding == "OMS" and (code < 0x20 or ch in _OMS_NOT_ITSELF)) or \
            (encoding == "OMX" and (code < 0x20 or ch.isalnum() and ch.isascii())):
        mapped = (_OMS if encoding == "OMS" else _OMX)[code]
        return "" if mapped == " " else mapped
    if code < 0x20 and encoding:
        table = {"OT1": _OT1_LOW, "OML": _OML_LOW}.get(encoding)
        if table and code < len(table):
            return table[code]
        return ""
    if encoding == "OML" and ch in _OML_ASCII:
        return _OML_ASCII[ch]
    if 0xF8EB <= code <= 0xF8FE:
        return _PUA_PIECES.get(code, "")
    if code in (0xFFFE, 0xFFFF):   # PDFium's mark for a hyphen it judged soft: printed as a hyphen
        return "-"
    if code == 0xFFFD or (code < 0x20 and ch not in "\t\n\r"):
        return ""
    return ch


def _joined_pairs(text: str) -> str:
    """Surrogate pairs (PDFium counts each half as a glyph) joined into the characters they stand for."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def plain_text(text: str) -> str:
    """Text for reading and search: surrogate pairs joined (PDFium counts each half as a glyph),
    ligatures and math alphanumerics folded (NFKC)."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").replace("\ufffd", "")
    return unicodedata.normalize("NFKC", text)


@dataclass(slots=True)
class Font:
    name: str          # base name without the subset prefix ("CMBX10")
    bold: bool
    italic: bool
    mono: bool
    encoding: str | None
    plain: bool = True  # an ordinary text face (not a maths, symbol or extension font)


_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
# the codes of "i", "m", "W" and "." (ASCII in every text encoding): a font whose four advance alike
# is monospaced
MONO_PROBE = (0x69, 0x6D, 0x57, 0x2E)
# TeX's extension fonts and their successors: their glyphs hang from the origin, centred on the axis.
_EXTENSION_NAME = re.compile(r"CMEX|MathExtension|^txex|^pxex|Extension|^esint", re.I)
# ... and their symbol fonts (cmsy's layout: calligraphic capitals, no small letters)
_SYMBOLS_NAME = re.compile(r"Math-?Symbols|MathSy", re.I)
# txfonts' and pxfonts' symbol and extension fonts, which print through their own (built-in) encoding:
# where pdfTeX's text map knows no Unicode for a glyph's name it gives the glyph's code back
_TX_SYMBOLS = re.compile(r"[tp]x(?:sy[abc]?|exa?)$", re.I)
_REGULAR_STYLE = re.compile(r"Regular|Roman|Roma|Regu|Book|Light|Thin|Italic|Ital|ReguItal|Oblique|It", re.I)
_BOLD_NAME = re.compile(r"Bold|-Bd|-bol\b|BX|(?:SF|EC)SX\d|Semibold|SemiBold|Demi|Heavy|Black|Medium", re.I)
_ITALIC_NAME = re.compile(r"Ital|Oblique|-It\b|TI\d|Slant|CMSL|CMMI", re.I)
# URW's Courier is "NimbusMonL" (TeX's courier package, Ghostscript's base-14 substitute)
_MONO_NAME = re.compile(r"Mono|MonL|Courier|CMTT|TT\d|Typewriter|Code|Consol|Menlo", re.I)


# A Type 1 maths font whose name says nothing of its role (a family's own naming, "Kp--M-Ex-Regular")
# says it through its glyph names: an extension font names the sizes of its operators and the pieces
# of its delimiters (summationdisplay, parenleftBig, bracelefttp); a symbol font names relations and
# arrows and has no small letters (its capitals are the calligraphic ones).
_SIZED_GLYPH = re.compile(r"(?:big|Big|bigg|Bigg|display|tp|bt|ex|mid)$")
_SYMBOL_GLYPHS = frozenset({"arrowleft", "arrowright", "arrowdblright", "arrowdblleft", "element", "lessequal",
                            "greaterequal", "infinity", "similar", "approxequal", "propersubset", "reflexsubset",
                            "universal", "existential", "angbracketleft", "angbracketright", "floorleft",
                            "ceilingleft", "equivalence", "asteriskmath", "periodcentered", "multiply",
                            "plusminus", "nabla", "emptyset", "logicalnot", "perpendicular", "bardbl"})
# the role's name appended to the font's, in the words the name-based rules already read
MATHS_ROLE_SUFFIX = {"extension": " (MathExtension)", "symbols": " (MathSymbols)", "blackboard": " (Blackboard)"}


def maths_role(glyph_names, lettered: bool = False) -> str | None:
    """'extension', 'blackboard' or 'symbols' when a font's own glyph names say it is one, else None.
    `lettered`: only what its letters' names say (capitals named "Ebbb" or "Acal"), for a font whose
    name already says it is a maths font."""
    names = set(glyph_names)
    if any(re.fullmatch(r"[A-Z]bbb", n) for n in names):
        return "blackboard"      # letters named with their alphabet: "Ebbb" (its symbols read as before)
    if lettered:
        return "symbols" if any(re.fullmatch(r"[A-Z]cal", n) for n in names) else None
    sized = sum(1 for n in names if _SIZED_GLYPH.search(n) and n[:1].islower() and glyph_name_char(n))
    if sized >= 2:
        return "extension"
    if any(len(n) == 1 and n.islower() for n in names):
        return None
    # relations and arrows (a font of a few glyphs, "colonequal", may hold nothing else)
    symbols = sum(1 for n in names if n in _SYMBOL_GLYPHS or not glyph_name_char(n).isascii()
                  and not glyph_name_char(n).isalpha())
    if names and symbols >= min(3, len(names)):
        return "symbols"
    return None


def describe_font(name: str, flags: int, weight: int) -> Font:
    base = _SUBSET_PREFIX.sub("", name)
    family = base.split(",")[0]
    bold = bool(_BOLD_NAME.search(family)) or weight >= 600
    if re.search(r"Medium", family, re.I) and weight < 600:
        bold = False  # "Medium" is a book weight in most families
    style = family.rsplit("-", 1)[-1] if "-" in family else ""
    if bold and not _BOLD_NAME.search(family) and _REGULAR_STYLE.fullmatch(style):
        # a PostScript name's style says the weight outright ("CenturySchL-Roma", "…-Regular",
        # "…-Italic"); a weight Ghostscript reckons from the stem width says 625 and 744 for them
        bold = False
    italic = bool(_ITALIC_NAME.search(family)) or bool(flags & (1 << 6))
    mono = bool(_MONO_NAME.search(family)) or bool(flags & 1)
    maths = re.search(r"MATH|^CM(MI|SY|EX|BSY|MIB)|^MS[AB]M|^EU[FS]|^RSFS|SYM|^TX(SY|EX|MIA|BMIA)|^PX(SY|EX|MIA|"
                          r"BMIA)|^NEWTXB?MI|^NEWPXB?MI|^ZPLM|^ZTMCM|EXTENSION|^ESINT|^STMARY|^WASY|DINGBAT|^BBM|"
                          r"BLACKBOARD", base.upper())
    return Font(base, bold, italic, mono, font_encoding(base), not maths)


# A font's own dictionary in the PDF may re-encode it with a /Differences array of glyph names, which
# PDFium reads only to find Unicode: where a name means nothing to it (TeX's "summationdisplay",
# "parenleftBig") it gives the code back.  One Type 1 program may be embedded once and printed through
# several such dictionaries under one name (a family whose maths fonts are drawn in its text font's
# program: Iwona's "Iwona-Regular" prints text, maths digits and the big operators).  PDFium shows no
# dictionary, so the arrays are read here from the file: its objects, plain or packed in object streams.
_OBJECT_HEAD = re.compile(rb"(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+obj\b")
_FONT_DICT = re.compile(rb"/Type[ \t\r\n]*/Font\b")
_BASE_FONT = re.compile(rb"/BaseFont[ \t\r\n]*/([^ \t\r\n/\[\]<>()]{1,127})")
_ENCODING_REF = re.compile(rb"/Encoding[ \t\r\n]+(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+R")
_DIFFERENCES = re.compile(rb"/Differences[ \t\r\n]*\[([^\]]{0,60000})\]")
_DIFFERENCE_ITEM = re.compile(rb"(\d{1,3})|/([^ \t\r\n/\[\]<>()]{1,127})")
_STREAM_START = re.compile(rb"stream\r?\n")
_TYPE3 = re.compile(rb"/Subtype[ \t\r\n]*/Type3\b")
_TYPE1 = re.compile(rb"/Subtype[ \t\r\n]*/Type1\b")
OBJECT_SCAN_LIMIT = 200_000_000   # bytes: a file larger than this is not scanned for font dictionaries


def pdf_font_encodings(path: str) -> dict[str, tuple[dict[int, str], ...]]:
    """Every font dictionary's /Differences in a PDF, by its /BaseFont name (without a subset's prefix):
    code -> glyph name, one map per dictionary.  {} for an encrypted file, or one that cannot be read.
    Read once per process for a file as it is now (its size and modification time)."""
    return _font_tables(path)[0]


def pdf_font_widths(path: str) -> dict[str, tuple[dict[int, float], ...]]:
    """The /Widths (code -> thousandths of an em) of the dictionaries pdf_font_encodings(path) lists,
    name by name in the same order."""
    return _font_tables(path)[3]


def pdf_unicode_repairs(path: str) -> dict[str, dict[int, tuple[tuple[float, int, int], ...]]]:
    """Per font (its /BaseFont name without a subset's prefix, as PDFium names it): the characters its
    ToUnicode map gives that its own glyph names contradict, each -> the characters the names stand for.

    A glyph named for what it prints ("u1D434", "uni0393", "lessequal") outranks a ToUnicode entry
    that maps it to a character of another kind: a Latin letter, an ASCII sign or a control code for a
    Greek letter, a maths letter or a maths sign.  A PDF re-written by Ghostscript's pdfwrite carries
    such maps (𝐴 as "ý", Γ as code 0x93, ≤ as "f"); a map to a sign of the same kind ("∥" for a glyph
    named "bardbl", ‖) is the writer's choice and is kept, and so is a character any code of the
    font maps to truly.  The text layer gives characters, not codes: where the map gives one
    character for several codes (Ghostscript's 𝐹, 𝛼 and 𝜎 all "Ă"), each candidate comes with its
    advance (the dictionary's /Widths, thousandths of an em) and its code, and the glyph's own boxes
    tell them apart (repaired_code)."""
    return _font_tables(path)[1]


@dataclass(frozen=True, slots=True)
class NamelessFont:
    """What a nameless (Type 3) font dictionary says of itself besides its glyph names."""

    widths: dict[int, float]    # /Widths by code, in glyph space units (a Type 3 font's own)
    unicode: dict[int, str]     # its ToUnicode map's entries, code -> text ({} without one)
    name: str                   # its FontDescriptor's /FontName, without a subset's prefix ("" without)
    scale: float = 0.0          # its /FontMatrix's horizontal scale: a width times it is an advance in ems


def pdf_nameless_fonts(path: str) -> tuple[NamelessFont, ...]:
    """What each nameless (Type 3) font dictionary says besides its glyph names, in the order of
    pdf_font_encodings(path)[""]."""
    return _font_tables(path)[2]


def pdf_fonts_read_by_names(path: str) -> frozenset[str]:
    """The Type 1 fonts (their /BaseFont names without a subset's prefix) that no dictionary of their
    name gives a ToUnicode map: PDFium reads their glyphs by their names alone (as LuaTeX writes its
    Type 1 fonts)."""
    return _font_tables(path)[4]


def repaired_code(candidates: tuple[tuple[float, int, int], ...], width: float, ink: float,
                  outlined: tuple[float, bool] | None = None) -> int | None:
    """The character a glyph stands for among pdf_unicode_repairs' candidates (advance, character,
    code), by the widths of its box and of its ink in thousandths of an em: the one candidate; else,
    when `outlined` gives the advance of the one code PDFium looks the character up as and whether
    the glyph's ink is that code's outline, that candidate or the others; then the one whose advance
    is the box's width, else among those whose advance fits in the box (a box spans its glyph's
    advance and its ink) the one whose advance is clearly nearest the ink's width; None when that
    does not decide."""
    if len(candidates) > 1 and outlined is not None:
        # (candidates as wide as one another, which may share an outline's box as ⌊ and ⌈ do, are
        # not told apart so)
        looked_up = [c for c in candidates if abs(c[0] - outlined[0]) <= ADVANCE_MATCH / 2]
        if len(looked_up) == 1:
            if outlined[1]:
                return looked_up[0][1]
            candidates = tuple(c for c in candidates if c is not looked_up[0])
    if len(candidates) == 1:
        return candidates[0][1]
    same = [char for advance, char, _ in candidates if abs(advance - width) <= ADVANCE_MATCH]
    if len(same) == 1:
        return same[0]
    fits = sorted((abs(advance - ink), char) for advance, char, _ in candidates if advance <= width + ADVANCE_MATCH)
    if len(fits) == 1 or len(fits) > 1 and fits[1][0] - fits[0][0] >= INK_ADVANCE_MARGIN:
        return fits[0][1]
    return None


ADVANCE_MATCH = 1.5     # thousandths of an em: a box's width and a /Widths entry agree within rounding
MATCHED_WIDTHS = 3      # glyphs whose widths tie a font to its dictionary, at least (_Raw._takes_widths)
# thousandths of an em by which one candidate's advance must be nearer the ink's width than the next's
# (a letter's ink is about as wide as its advance: side bearings and an italic's overhang are small)
INK_ADVANCE_MARGIN = 15
OUTLINE_MATCH = 0.005   # ems: a glyph's ink box is its outline's box, within rounding
OUTLINE_SEGMENTS = 4000  # path segments beyond which a glyph's outline is not measured


def _font_tables(path: str) -> tuple[dict[str, tuple[dict[int, str], ...]], dict[str, dict[int, tuple]],
                                     tuple["NamelessFont", ...], dict[str, tuple[dict[int, float], ...]], frozenset[str]]:
    try:
        stat = os.stat(path)
    except OSError:
        return {}, {}, (), {}, frozenset()
    return _scan_font_dictionaries(path, stat.st_size, stat.st_mtime_ns)


_TO_UNICODE_REF = re.compile(rb"/ToUnicode[ \t\r\n]+(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+R")
_CMAP_TOKEN = re.compile(rb"<([0-9A-Fa-f]{0,64})>|(beginbfchar|beginbfrange|endbfchar|endbfrange)|\[|\]")


def _cmap_entries(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap's one-byte codes -> their text, from its bfchar entries and bfrange runs (a
    range mapped to an array of strings is skipped), read token by token."""
    out: dict[int, str] = {}
    section = b""
    values: list[bytes] = []
    skipping = False
    for token in _CMAP_TOKEN.finditer(cmap):
        hexa, word = token.group(1), token.group(2)
        if word is not None:
            section = word[5:] if word.startswith(b"begin") else b""
            values, skipping = [], False
            continue
        if not section:
            continue
        if hexa is None:                  # an array of strings: the range's entry is skipped
            skipping = token.group(0) == b"["
            if not skipping:
                values = []
            continue
        if skipping:
            continue
        values.append(hexa)
        if len(values) < (2 if section == b"bfchar" else 3):
            continue
        first, last, target = values[0], values[-2], values[-1]
        values = []
        if len(first) > 2 or len(last) > 2 or len(target) % 4:
            continue
        try:
            text = bytes.fromhex(target.decode()).decode("utf-16-be")
        except (ValueError, UnicodeDecodeError):
            continue
        low, high = int(first or b"0", 16), int(last or b"0", 16)
        for code in range(low, min(high, 255) + 1):
            out[code] = text[:-1] + chr(ord(text[-1]) + code - low) if text and code > low else text
    return out


def _other_kind(mapped: str, named: str) -> bool:
    """Whether a ToUnicode map's single character is of another kind than the one the glyph's name
    stands for: Latin (ASCII, Latin-1, Latin Extended) or a control code, where the name says a
    character beyond them (Greek, a maths letter, a maths sign)."""
    return len(mapped) == 1 and len(named) == 1 and ord(mapped) < 0x250 and not mapped.isspace() \
        and ord(named) >= 0x370


@lru_cache(maxsize=2)
def _scan_font_dictionaries(path: str, size: int, mtime: int
                            ) -> tuple[dict[str, tuple[dict[int, str], ...]], dict[str, dict[int, tuple]],
                                       tuple[NamelessFont, ...], dict[str, tuple[dict[int, float], ...]], frozenset[str]]:
    import zlib

    try:
        data = Path(path).read_bytes() if size <= OBJECT_SCAN_LIMIT else b""
    except OSError:
        return {}, {}, (), {}, frozenset()
    if not data or b"/Encrypt" in data[-4096:] or b"/Differences" not in data and b"/ObjStm" not in data \
            and not _CODED_NAME.search(data) and not (b"/WinAnsiEncoding" in data and b"/ToUnicode" in data):
        return {}, {}, (), {}, frozenset()
    objects: dict[int, bytes] = {}
    streams: dict[int, tuple[int, int]] = {}   # object number -> where its stream's bytes lie in the file
    heads = list(_OBJECT_HEAD.finditer(data))
    for k, m in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(data)
        body = data[m.end():end]
        stream = _STREAM_START.search(body)
        head = body[:stream.start()] if stream else body
        objects[int(m.group(1))] = head
        if stream:
            streams[int(m.group(1))] = (m.end() + stream.end(), end)   # (sliced only when read: a ToUnicode map)
        if stream and b"/ObjStm" in head and b"/FlateDecode" in head:
            try:
                packed = zlib.decompressobj().decompress(body[stream.end():], 50_000_000)
            except zlib.error:
                continue
            first = re.search(rb"/First[ \t\r\n]+(\d{1,10})", head)
            if not first:
                continue
            numbers = packed[:int(first.group(1))].split()
            pairs = [(int(numbers[i]), int(numbers[i + 1])) for i in range(0, len(numbers) - 1, 2)
                     if numbers[i].isdigit() and numbers[i + 1].isdigit()]
            start = int(first.group(1))
            for i, (number, offset) in enumerate(pairs):
                stop = start + pairs[i + 1][1] if i + 1 < len(pairs) else len(packed)
                objects.setdefault(number, packed[start + offset:stop])
    out: dict[str, list[dict[int, str]]] = {}
    out_widths: dict[str, list[dict[int, float]]] = {}   # each map's dictionary's /Widths, in the same order
    repairs: dict[str, dict[int, tuple]] = {}
    untouched: set[str] = set()
    nameless_fonts: list[NamelessFont] = []
    mapped_fonts: set[str] = set()      # Type 1 fonts a dictionary of whose name gives a ToUnicode map
    named_fonts: set[str] = set()       # and those one of whose dictionaries gives none
    for text in objects.values():
        if not _FONT_DICT.search(text):
            continue
        base = _BASE_FONT.search(text)
        # (PDFium names a font without its subset's prefix; a Type 3 font, with no /BaseFont, "")
        key = _SUBSET_PREFIX.sub("", base.group(1).decode("latin-1")) if base else ""
        layout = _coded_layout(key) if base else None
        to_unicode = _TO_UNICODE_REF.search(text)
        if base and _TYPE1.search(text):
            (mapped_fonts if to_unicode else named_fonts).add(key)
        if layout is None and base and _EXTENSION_NAME.search(key) and _WIN_ANSI.search(text):
            # an extension font declared WinAnsi-encoded: a re-write (Poppler's Cairo back end) has put the
            # glyphs whose names it did not know at their own codes, renamed after those slots ("Otilde"
            # for txexs's display sum at 0xD5), and its map follows the new names: its codes read in TeX's
            # extension layout (and newtx's txexs's above it)
            layout = _TXEXS_LAYOUT if _TXEXS_NAME.match(key) else _OMX_LAYOUT
        elif base and to_unicode and int(to_unicode.group(1)) in streams and not _ENCODING_ANY.search(text):
            # a font printed through its program's own encoding, whose map gives control codes or U+FFFD
            # (the other half of such a re-written font, numbered from 0: "parenleftbig" mapped to U+FFFD,
            # "braceleftbig" to U+0008): its glyphs' own names say what they print
            start, stop = streams[int(to_unicode.group(1))]
            entries = _stream_entries(objects.get(int(to_unicode.group(1)), b""), data[start:stop])
            if any(len(t) == 1 and (t < " " or t == "\ufffd") for t in entries.values()):
                names = _program_names(text, objects, streams, data)
                pooled = repairs.setdefault(key, {})
                advances = _advances(text, objects)
                for code, mapped in entries.items():
                    name = names.get(code, "")
                    if len(mapped) == 1 and (mapped < " " or mapped == "\ufffd") and _tex_maths_name(name):
                        candidate = ((advances.get(code, -1.0), ord(glyph_name_char(name.split(".")[0])), code),)
                        pooled[ord(mapped)] = tuple(dict.fromkeys(pooled.get(ord(mapped), ()) + candidate))
                continue
        if layout is not None and to_unicode and int(to_unicode.group(1)) in streams:
            # a font whose glyph names say nothing (yhmath's extension font names its delimiters as
            # Latin letters, and its ToUnicode map follows the names): its codes read in its layout
            start, stop = streams[int(to_unicode.group(1))]
            pooled = repairs.setdefault(key, {})
            for mapped, candidates in _layout_repairs(layout, _advances(text, objects),
                                                      objects.get(int(to_unicode.group(1)), b""), data[start:stop],
                                                      exact=layout is _YHMATH_EXTENSION).items():
                pooled[mapped] = tuple(dict.fromkeys(pooled.get(mapped, ()) + candidates))
            continue
        ref = _ENCODING_REF.search(text)
        found = _DIFFERENCES.search(objects.get(int(ref.group(1)), b"") if ref else text)
        if not found or not base and not _TYPE3.search(text):
            continue
        names: dict[int, str] = {}
        code = 0
        for item in _DIFFERENCE_ITEM.finditer(found.group(1)):
            if item.group(1) is not None:
                code = int(item.group(1))
            else:
                if code < 256:
                    names[code] = item.group(2).decode("latin-1")
                code += 1
        # (a Type 3 font has no /BaseFont: its maps are those of the name "", PDFium's name for it)
        out.setdefault(key, []).append(names)
        out_widths.setdefault(key, []).append(_advances(text, objects))
        if not key:
            # (Skia, as Chrome prints a page, embeds a web font as a Type 3 font with no /BaseFont, its
            # glyphs named by their ids, a ToUnicode map and the font's name in its descriptor)
            descriptor = _FONT_DESCRIPTOR_REF.search(text)
            font_name = _DESCRIPTOR_NAME.search(objects.get(int(descriptor.group(1)), b"")) if descriptor else None
            entries = {}
            if to_unicode and int(to_unicode.group(1)) in streams:
                start, stop = streams[int(to_unicode.group(1))]
                entries = _stream_entries(objects.get(int(to_unicode.group(1)), b""), data[start:stop])
            matrix = _FONT_MATRIX.search(text)
            nameless_fonts.append(NamelessFont(
                _advances(text, objects), entries,
                _SUBSET_PREFIX.sub("", font_name.group(1).decode("latin-1")) if font_name else "",
                abs(float(matrix.group(1))) if matrix else 0.0))
        if base and to_unicode and int(to_unicode.group(1)) in streams:
            start, stop = streams[int(to_unicode.group(1))]
            repair = _name_repairs(names, _advances(text, objects), objects.get(int(to_unicode.group(1)), b""),
                                   data[start:stop])
            # (PDFium names a font without its subset's prefix: the dictionaries of one name pool their
            # candidates)
            pooled = repairs.setdefault(key, {})
            for mapped, candidates in repair.items():
                pooled[mapped] = tuple(dict.fromkeys(pooled.get(mapped, ()) + candidates))
        elif base and to_unicode:
            # a dictionary of the same name whose map is not read may map any character truly
            untouched.add(key)
    for key in untouched:
        repairs.pop(key, None)
    for key, pooled in repairs.items():
        repairs[key] = {mapped: candidates for mapped, candidates in pooled.items()
                        if any(meant != mapped for _, meant, _ in candidates)}
    return {name: tuple(maps) for name, maps in out.items()}, {k: v for k, v in repairs.items() if v}, \
        tuple(nameless_fonts), {name: tuple(widths) for name, widths in out_widths.items()}, \
        frozenset(named_fonts - mapped_fonts)


_FIRST_CHAR = re.compile(rb"/FirstChar[ \t\r\n]+(\d{1,3})\b")
_WIDTHS = re.compile(rb"/Widths[ \t\r\n]*\[([^\]]{0,20000})\]")
_BARE_ARRAY = re.compile(rb"[ \t\r\n]*\[([^\]]{0,20000})\]")
_WIDTHS_REF = re.compile(rb"/Widths[ \t\r\n]+(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+R")
_NUMBER = re.compile(rb"-?\d{1,7}(?:\.\d{0,6})?|-?\.\d{1,6}")


def _advances(font: bytes, objects: dict[int, bytes]) -> dict[int, float]:
    """A font dictionary's /Widths by code (thousandths of an em), the array inline or referred to."""
    first = _FIRST_CHAR.search(font)
    ref = _WIDTHS_REF.search(font)
    # (an array referred to is an object of its own, the bare array: pdfTeX writes /Widths so)
    widths = _BARE_ARRAY.match(objects.get(int(ref.group(1)), b"")) if ref else _WIDTHS.search(font)
    if not first or not widths:
        return {}
    start = int(first.group(1))
    return {start + k: float(n) for k, n in enumerate(_NUMBER.findall(widths.group(1)))}


_WIN_ANSI = re.compile(rb"/Encoding[ \t\r\n]*/WinAnsiEncoding\b")
_ENCODING_ANY = re.compile(rb"/Encoding\b")
_FONT_DESCRIPTOR_REF = re.compile(rb"/FontDescriptor[ \t\r\n]+(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+R")
_FONT_FILE_REF = re.compile(rb"/FontFile3?[ \t\r\n]+(\d{1,10})[ \t\r\n]+\d{1,5}[ \t\r\n]+R")
_FONT_MATRIX = re.compile(rb"/FontMatrix[ \t\r\n]*\[[ \t\r\n]*(-?\d{0,7}\.?\d{1,12})[ \t\r\n]")
_DESCRIPTOR_NAME = re.compile(rb"/FontName[ \t\r\n]*/([^ \t\r\n/\[\]<>()]{1,127})")


def _program_names(font: bytes, objects: dict[int, bytes], streams: dict[int, tuple[int, int]], data: bytes
                   ) -> dict[int, str]:
    """The built-in encoding of the font program a font dictionary embeds (its FontDescriptor's
    FontFile or FontFile3), code -> glyph name; {} when it cannot be read."""
    descriptor = _FONT_DESCRIPTOR_REF.search(font)
    program = _FONT_FILE_REF.search(objects.get(int(descriptor.group(1)), b"")) if descriptor else None
    if not program or int(program.group(1)) not in streams:
        return {}
    start, stop = streams[int(program.group(1))]
    raw = _inflated(objects.get(int(program.group(1)), b""), data[start:stop], 4_000_000)
    return builtin_names(raw) if raw is not None else {}


# newtx's extension font txexs: TeX's extension layout below 128, its own glyphs above (printed from
# TeX Live's txexs.pfb by tests/eval/txexs_layout.py: 128 characters from code 128, a space for none)
_TXEXS_NAME = re.compile(r"txexs$", re.I)
_TXEXS_HIGH = (
    "()[]⌊⌋⌈⌉{}⟨⟩|‖                  "
    "         ⎛⎞⎝⎠⎜⎟∫∬∭∮∯∫∬∭∮∯∫∬∭∮∯∫∬"
    "∭∮∯⨆⨆  ⨀⨀⨁⨁⨂⨂∑∏ ⋃⋂⨄⋀⋁∑∏ ⋃⋂⨄⋀⋁∐∐ "
    "                                "
)
_TXEXS_LAYOUT = {**{code: code_char(code, "OMX") for code in range(128)},
                 **{128 + k: ch for k, ch in enumerate("".join(_TXEXS_HIGH)) if ch != " "}}


# Names the Adobe Glyph List gives binary operators, which glyph_name_char reads as TeX's big
# operators (a sized name's stem: "circlemultiplydisplay"): a symbol font's "circlemultiply" is ⊗.
_AGL_BINARY = {"union": "∪", "intersection": "∩", "logicaland": "∧", "logicalor": "∨", "circledot": "⊙",
               "circleplus": "⊕", "circlemultiply": "⊗"}


def _name_repairs(names: dict[int, str], advances: dict[int, float], head: bytes, stream: bytes
                  ) -> dict[int, tuple[tuple[float, int, int], ...]]:
    """pdf_unicode_repairs for one font dictionary (its /Differences, /Widths and ToUnicode stream):
    each single character the map gives -> every code it gives it for, with the character that
    code's name stands for (the mapped one itself where the name agrees or says nothing of another
    kind: Ghostscript maps ← to "±" beside the true ±)."""
    sources: dict[str, list[int]] = {}
    for code, text in _stream_entries(head, stream).items():
        if len(text) == 1:
            sources.setdefault(text, []).append(code)
    repair: dict[int, tuple[tuple[float, int, int], ...]] = {}
    for text, codes in sources.items():
        named = [_AGL_BINARY.get(names.get(code, "")) or glyph_name_char(names.get(code, "")) for code in codes]
        meant = [n if n and _other_kind(text, n) else text for n in named]
        repair[ord(text)] = tuple((advances.get(code, -1.0), ord(m), code) for code, m in zip(codes, meant))
    return repair


def _inflated(head: bytes, stream: bytes, limit: int) -> bytes | None:
    """A stream's bytes, inflated when its dictionary (`head`) says Flate, at most `limit` of them;
    None when they cannot be."""
    import zlib

    try:
        return zlib.decompressobj().decompress(stream, limit) if b"/FlateDecode" in head else stream
    except zlib.error:
        return None


def _stream_entries(head: bytes, stream: bytes) -> dict[int, str]:
    """A ToUnicode stream's entries, code -> text ({} when it cannot be inflated)."""
    cmap = _inflated(head, stream, 2_000_000)
    return _cmap_entries(cmap) if cmap is not None else {}


def _layout_repairs(layout: dict[int, str], advances: dict[int, float], head: bytes, stream: bytes,
                    exact: bool = True) -> dict[int, tuple[tuple[float, int, int], ...]]:
    """pdf_unicode_repairs for a font read through a known layout of its codes: each character the
    ToUnicode map gives a code of the layout that prints something else -> that code's character
    (several characters the map gives one code, a ligature's letters, are keyed by their text).
    Unless the font's name is `exact`ly one whose layout is known, only when the map shows it is
    wrong: a Latin letter, an ASCII sign or a control code where the layout has a Greek letter or a
    maths sign (a maths italic font whose map gives α as the cedilla; not another family's maths
    italic that merely shares the naming, whose map is true)."""
    entries = _stream_entries(head, stream)
    if not exact and not any(code in layout and _other_kind(text, layout[code]) and
                             unicodedata.normalize("NFKC", text) != layout[code] for code, text in entries.items()):
        return {}      # the map agrees with the layout's kinds of character: the font is not one so named
    repair: dict[int | str, tuple[tuple[float, int, int], ...]] = {}
    for code, text in entries.items():
        meant = layout.get(code)
        if meant and len(text) == 1 and text != meant:
            repair[ord(text)] = repair.get(ord(text), ()) + ((advances.get(code, -1.0), ord(meant), code),)
        elif meant and len(text) > 1 and len(meant) == 1:
            # a glyph named for a text layout's ligature ("ffi" at OML's ϕ, "ff" at σ): the map spells
            # it out, and PDFium reports each letter with the glyph's box (_spelled_glyph): keyed by
            # the whole text
            repair[text] = repair.get(text, ()) + ((advances.get(code, -1.0), ord(meant), code),)
    return repair


def _sized(*runs: tuple[int, int, str]) -> dict[int, str]:
    """A layout of codes from runs (first code, how many, the character each prints)."""
    return {first + k: ch for first, count, ch in runs for k in range(count)}


def _coded_layout(name: str) -> dict[int, str] | None:
    """The layout of codes a font's name implies where its glyph names (and so its ToUnicode map) say
    nothing true: yhmath's extension font; mathabx's fonts; Type 1 conversions of TeX's maths fonts
    named for their role ("ComputerModernSans-MathitalicRegular10pt", sansmathfonts'), whose glyphs
    carry the text layout's names (α at code 11 named "cedilla", the display ∑ named "X")."""
    if name == "Yhcmex":
        return _YHMATH_EXTENSION
    abx = _MATHABX_NAME.match(name)
    if abx:
        return _MATHABX_LAYOUTS[abx.group(1).lower()]
    if _MATH_ITALIC_NAME.search(name):
        return _OML_LAYOUT
    if _MATH_EXTENSION_NAME.search(name):
        return _OMX_LAYOUT
    return None


# TeX's maths italic and extension layouts, code -> character (ψ and ω stand at the codes of the space
# and "!", which code_char, reading a code PDFium reports, leaves to the text)
_OML_LAYOUT = {**{code: code_char(code, "OML") for code in range(128)}, 0x20: "ψ", 0x21: "ω"}
_OMX_LAYOUT = {code: code_char(code, "OMX") for code in range(128)}
_MATH_ITALIC_NAME = re.compile(r"-Mathitalic", re.I)
_MATH_EXTENSION_NAME = re.compile(r"-Mathextension", re.I)
_CODED_NAME = re.compile(rb"/(?:[A-Z]{6}\+)?(?:Yhcmex\b|[A-Za-z]{1,40}-Math(?:italic|extension)|(?:TeX-)?math[abx]\d)",
                         re.I)
# mathabx's Type 1 fonts (TeX Live's "TeX-matha10", "TeX-mathx10"; "MATHA10" elsewhere): their glyphs
# carry a T1 text font's names by slot ("quotedblleft" for "=", "rcaron" for the text ∑), and so does
# the ToUnicode map pdfTeX writes from them.  What each slot prints, from mathabx's own sources
# (mathabx.dcl's declarations; mathx10.tfm's larger sizes and extensible pieces), as
# tests/eval/mathabx_layout.py prints it: 256 characters per font, a space where nothing is declared.
_MATHABX_NAME = re.compile(r"(?:TeX-)?math([abx])(?:5|6|7|8|9|10|12)$", re.I)
_MATHABX_A = (
    "+−×÷·∘∗ ±∓⋉⋊⋄∙⋆✶=≡∼≈≃≅≍∣≠≢≁≉≄≇≭∤"
    "¬≪≫#⊢⊣⊬ ⊨⫤⊭ ⊩⫣⊮ °′″‴⁗♭♮♯∞∝†‡  ⨿√"
    "∀∁∂ ∃∄Ⅎ⅁∅⌀⊤⊥  ⋏⋎∈∋∉∌    ∩∪⊎⊓⊔ ∧∨"
    "⊕⊖⊗⨸⊙⊚⊛    ⦺ ⊘  ()[]{}⟦⟧⟨⟩∖/|‖⦀\u0338"
    "⊂⊃⊄⊅⊆⊇⊈⊉⊊⊋⊊⊋⫅⫆  ⫋⫌⫋⫌⋐⋑  ◁▷⋪⋫⊴⊵⋬⋭"
    "<>≮≯≤≥≰≱    ⪇⪈≦≧  ≨≩  ⪕⪖  ≶≷⋚⋛⪋⪌"
    "≲≳≴≵⋦⋧⪅⪆  ⪉⪊⋖⋗⋘⋙←→↑↓↖↗↙↘↔↕↚↛↮−↦↤"
    "↼⇀↽⇁↿⇃↾⇂⇋⇌      ⇐⇒⇑⇓⇔⇕⇍⇏⇎=⤇⤆    "
)
_MATHABX_B = (
    "∔ ⨰  □∗    ⋇ ▪★    ≓≒≔≕   ≗≖≜   "
    "≬⌣⌢#⋋⋌⋔⋈⊫⫥⊯ ⊪         ∴∵˚˙¨\u20db\u20dc∠∡∢"
    "☉         ♁☾☽○●         ⊼⊻⩞⩣⋒⋓  "
    "⊞⊟⊠ ⊡       □   ⟮⟯⌈⌉⌊⌋⌜⌝⌜⌝⌞⌟  ┃\u0338"
    "⊏⊐  ⊑⊒⋢⋣⋤⋥                ◃▹ ▾◀▶"
    "≺≻⊀⊁≼≽⋠⋡⪯⪰  ⪱⪲        ⋞⋟        "
    "≾≿  ⋨⋩⪷⪸  ⪹⪺    ⇇⇉⇈⇊⇆⇄⇅⇵        "
    "        ↰↱  ↫↬  ↶↷    ↺↻⇜⇝↭     "
)
_MATHABX_X = (
    "((((⎛⎝⎜|))))⎞⎠⎟‖[[[[⎡⎣⎢⦀]]]]⎤⎦⎥┃"
    "{{{{⎧⎩⎨⎪}}}}⎫⎭⎬⎪⟦⟦⟦⟦⟦   ⟧⟧⟧⟧⟧   "
    "⟨⟨⟨⟨⟩⟩⟩⟩\\\\\\\\////⌈⌈⌈⌈⌉⌉⌉⌉⌊⌊⌊⌊⌋⌋⌋⌋"
    "√√√√√⎷⏐⏐        ^ˇ~¯→⌒⟮⟯^^^^ˇˇˇˇ"
    "~~~~¯¯¯¯→→→→⌒⌒⌒⌒ ⨉ ⋂⋃⨄⨅⨆ ⋀⋁  ↑↓↕"
    " ⨉ ⋂⋃⨄⨅⨆ ⋀⋁  ⇑⇓⇕∑∏∐∫∬∭∮∯∑∏∐∫∬∭∮∯"
    "⨁ ⨂ ⨀                           "
    "⨁ ⨂ ⨀                           "
)
_MATHABX_LAYOUTS = {font: {code: ch for code, ch in enumerate("".join(table)) if ch != " "}
                    for font, table in (("a", _MATHABX_A), ("b", _MATHABX_B), ("x", _MATHABX_X))}

# yhmath's extension font (yrcmex10, embedded as "Yhcmex"): its codes 128-255 hold further sizes of
# TeX's delimiters, radicals and wide accents (its codes below 128 print from cmex10 itself)
_YHMATH_EXTENSION = _sized((0x80, 10, "("), (0x8A, 10, ")"), (0x94, 3, "["), (0x97, 3, "]"),
                                    (0x9A, 3, "⌊"), (0x9D, 3, "⌋"), (0xA0, 3, "⌈"), (0xA3, 3, "⌉"),
                                    (0xA6, 3, "{"), (0xA9, 3, "}"), (0xAC, 10, "⟨"), (0xB6, 10, "⟩"),
                                    (0xC0, 4, "/"), (0xC4, 4, "\\"), (0xC8, 10, "√"), (0xD2, 10, "^"),
                                    (0xDC, 10, "~"))


def _tex_maths_name(name: str) -> bool:
    """Whether a glyph name is one of TeX's maths glyphs that PDFium cannot map (a sized operator or
    delimiter, a piece of one), not a letter's or a sign's that it can."""
    stem = name.split(".")[0]
    return bool(_SIZE_SUFFIX.search(stem)) and bool(glyph_name_char(stem)) or \
        stem in _TEX_GLYPH_NAMES and not glyph_name_char(stem).isascii()


# --------------------------------------------------------------------------- words and lines
"""Words and lines: glyph runs (one font, size and baseline) joined into words, words into lines."""


@dataclass(slots=True)
class Span:
    """A run of glyphs in one font and size on one baseline, with no space inside."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    font: Font
    # Per glyph, for reading formulas: six numbers each (the advance box's x0, x1; the ink box's top,
    # bottom, x0, x1), one glyph per character of `raw` (the text as the PDF maps it, before NFKC
    # folds maths alphanumerics and ligatures; None when it equals `text`).
    boxes: array | None = None
    raw: str | None = None
    overprinted: bool = False    # printed two or three times a hair apart: a poor man's bold


@dataclass(slots=True)
class Word:
    """Glyph runs with no space between them (a word, or a piece of a formula)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    mono: bool
    italic: bool = False
    font: str = ""
    baseline: float = 0.0
    spans: list = field(default_factory=list)   # the runs, when there are several (sub/superscripts, fonts)
    boxes: array | None = None                  # a single run's per-glyph boxes and raw text (see Span)
    raw: str | None = None
    overprinted: bool = False
    prose_letter: bool = False    # a lone italic letter the book's own evidence says is a word (build_math)
    maths_word: bool = False      # maths by the book's own evidence: a lone bold letter among regular words,
                                  # or set in a text family's italic that serves as the maths italic (build_math)
    stacked: bool = False         # a part of an inline display-style formula set above or below its line's
                                  # baseline between tall delimiters (a `\dfrac`'s numerator): not on the baseline


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
        return max(w.x1 for w in self.words)

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def baseline(self) -> float:
        """The baseline of the line's full-size words."""
        on_base = [w for w in self.words if not w.stacked] or self.words
        big = max(w.size for w in on_base)
        return max(w.baseline for w in on_base if w.size >= big * 0.9)

    @property
    def size(self) -> float:
        sizes = sorted(w.size for w in self.words if len(w.text) > 1) or sorted(w.size for w in self.words)
        return sizes[len(sizes) // 2]

    @property
    def bold(self) -> bool:
        return self.words[0].bold


def _word_from_spans(spans: list[Span]) -> Word:
    if len(spans) == 1:
        s = spans[0]
        f = s.font
        return Word(s.text, s.x0, s.x1, s.top, s.bottom, round(s.size, 1), f.bold, f.mono, f.italic, f.name,
                    s.baseline, boxes=s.boxes, raw=s.raw, overprinted=s.overprinted)
    # the word's baseline and size are its body's, not a script's (a subscript is smaller: "Z" "16")
    # nor an accent's (set on a baseline of its own above its letter)
    body = [s for s in spans if not is_accent(s.text)] or spans
    largest = max(s.size for s in body)
    main = max((s for s in body if s.size >= largest * 0.85), key=lambda s: (len(s.text) * s.size, s.size))
    first = spans[0].font
    return Word("".join(s.text for s in spans), min(s.x0 for s in spans), max(s.x1 for s in spans),
                min(s.top for s in spans), max(s.bottom for s in spans), round(main.size, 1), first.bold,
                first.mono, first.italic, first.name, main.baseline, spans)


ACCENT_MARKS = set("ˆ˜¯˙¨ˇ˘´`^~˚\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030c\u20d7")


def is_accent(text: str) -> bool:
    """A word that is nothing but accent marks (TeX prints a maths accent as a glyph of its own).  NFKC
    writes a spacing accent as a space and the combining mark ("˜" as " \u0303"): the space is none."""
    marks = text.replace(" ", "")
    return bool(marks) and len(marks) <= 3 and all(c in ACCENT_MARKS for c in marks)


_TEXT_STYLE_OPERATORS = set("∑∏∐∫∬∭∮⋃⋂⋁⋀⨁⨂⨀⨄⨆")


def _is_raisable_operator(w: Word) -> bool:
    """A big operator in its small (text-style) form: TeX takes it from the extension font at full size
    even inside an exponent (`\\lambda^{\\sum_i x_i}`), so its size says nothing about being a script and
    its baseline may be none of a line's."""
    return len(w.text) == 1 and w.text in _TEXT_STYLE_OPERATORS and w.bottom - w.top <= 1.25 * w.size


PRIMES = "′″‴'"      # TeX sets these as superscripts only


def group_lines(words: list[Word], page: int) -> list[Line]:
    """Words into visual lines: a word joins the line whose baseline it shares, or, when it is
    smaller (a sub- or superscript), the line whose body it overlaps.  Lines are found through a
    table of baselines rounded to the point, so a page costs one pass over its words."""
    lines: list[Line] = []
    by_base: dict[int, list[int]] = {}
    bases: list[float] = []
    scripts: set[int] = set()     # ids of the words that joined a line as its sub- or superscripts
    # accents TeX sets apart above their letter (its own baseline, raised) go last, onto the line below;
    # small big operators just before them, once the lines they may be raised inside exist
    ordered = sorted(words, key=lambda w: (is_accent(w.text), _is_raisable_operator(w), -w.size,
                                           round(w.baseline), w.x0))
    for w in ordered:
        target = None
        if is_accent(w.text) and lines:
            # the accent's letter stands under it: on the accent's own baseline (TeX may set the accent
            # box on its letter's baseline) or on the nearest line below; a line merely spanning it (a
            # matrix's bracket row, an equation number dropped below) is only the fallback
            first_below = None
            for k in range(round(w.baseline) - 2, round(max(w.bottom, w.baseline) + w.size * 1.2) + 1):
                for i in by_base.get(k, ()):
                    if bases[i] < w.baseline - max(1.5, 0.2 * w.size) or \
                            not lines[i].x0_min - 2 <= w.x0 <= lines[i].x1_max + 2:
                        continue
                    if any(o.x0 - 1 < w.x1 and w.x0 < o.x1 + 1 for o in lines[i].words):
                        target = i
                        break
                    if first_below is None and bases[i] >= w.bottom - 0.5:
                        first_below = i
                if target is not None:
                    break
            target = first_below if target is None else target
            if target is not None:
                lines[target].words.append(w)
                continue
        tolerance = max(1.5, 0.2 * w.size)
        key = round(w.baseline)
        for k in range(key - 2, key + 3):
            for i in by_base.get(k, ()):
                if abs(bases[i] - w.baseline) < tolerance:
                    target = i
                    founder = lines[i].words[0].size
                    if w.size < founder * 0.85 and abs(bases[i] - w.baseline) >= founder * 0.1:
                        scripts.add(id(w))   # a subscript lowered less than the tolerance (`\hat U_0`)
                    break
            if target is not None:
                break
        if target is None and lines and _is_raisable_operator(w):
            target = _line_raising(lines, by_base, bases, w)
        if target is not None and w.size < ordered[0].size * 0.95 and w.font != lines[target].words[0].font and \
                max(lines[target].x0_min - w.x1, w.x0 - lines[target].x1_max) > w.size * FAR_ON_BASELINE:
            # a small glyph far along a baseline it shares (a margin caption's), in another face, that is
            # a script of a line it stands within: the main column's prime or exponent a hair off the
            # caption's baseline (a scan's text layer names one font: its words stay where they are)
            nearer = _script_line(lines, by_base, bases, scripts, w, close=w.size * SCRIPT_BESIDE)
            target = target if nearer is None else nearer
        if target is None and lines and w.size < ordered[0].size * 0.95:
            target = _script_line(lines, by_base, bases, scripts, w)
        if target is None:
            lines.append(Line([w], page))
            lines[-1].x0_min, lines[-1].x1_max = w.x0, w.x1
            bases.append(w.baseline)
            by_base.setdefault(key, []).append(len(lines) - 1)
        else:
            line = lines[target]
            line.words.append(w)
            line.x0_min, line.x1_max = min(line.x0_min, w.x0), max(line.x1_max, w.x1)
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
        line.words = join_letter_spaced(line.words)
        del line.x0_min, line.x1_max
    lines = _take_in_stacked(lines)
    lines = _take_in_small_fractions(lines)
    lines = _take_in_display_fractions(lines)
    lines = _take_in_hanging_signs(lines)
    lines = _take_in_limits(lines)
    for line in lines:
        _mark_stacked_pairs(line)
    lines.sort(key=lambda l: (round(l.baseline), l.x0))
    return lines


def _stack_into(host: Line, parts: list[Line], taken: set[int]) -> None:
    """Join lines set above or below a line of prose (limits, a hanging sign, a fraction's parts) to it:
    their words marked stacked, the host's words kept in x order, the parts noted as taken."""
    for part in parts:
        for w in part.words:
            w.stacked = True
        taken.add(id(part))
    host.words = sorted(host.words + [w for part in parts for w in part.words], key=lambda w: w.x0)


def _take_in_hanging_signs(lines: list[Line]) -> list[Line]:
    """A radical sign or a big operator of an inline formula that founded a line of its own, alone or with
    the glyphs glued to it and the scripts standing under them, joins the prose line it stands in, its
    words marked stacked (off that line's baseline).  Some fonts hang these signs from an origin off the
    baseline they stand on: MathDesign's text-style radical some 0.7 em above it (`$1/\\sqrt{n}$`),
    Kurier's summation sign from its extension font 0.25 em (`$\\sum_{k=s}^{t-1} h_{k}$`), and a radicand
    with a subscript sets the sign lower (`$z\\sigma_{j}\\sqrt{\\tau_{j}}$`).  The host's baseline crosses
    the sign's ink in its lower part (the sign reaches below it by a script's depth at most), one of its
    words stands against the sign (the radicand or the operand after it, or the formula's word before
    it), and it holds words of prose (a display's line is left as it is).  Linear in the lines, times the
    few lone signs."""
    lone = [l for l in lines if l.words[0].text[:1] in HANGING_SIGNS and
            all(l.words[0].x0 <= w.x0 <= l.words[0].x1 for w in l.words[1:]) and
            not any(_prose_word(w) for w in l.words)]
    if not lone:
        return lines
    taken: set[int] = set()
    for line in lone:
        sign = line.words[0]
        for host in lines:
            if host is line or id(host) in taken or not sign.top < host.baseline <= sign.bottom or \
                    sign.bottom - host.baseline >= sign.size * SIGN_DEPTH or \
                    sum(1 for w in host.words if _prose_word(w)) < PROSE_BESIDE:
                continue
            if any(abs(w.x0 - sign.x1) < sign.size * SIGN_GAP or abs(sign.x0 - w.x1) < sign.size * SIGN_GAP
                   for w in host.words):
                _stack_into(host, [line], taken)
                break
    return [line for line in lines if id(line) not in taken] if taken else lines


HANGING_SIGNS = frozenset("\u221a") | _TEXT_STYLE_OPERATORS
SIGN_DEPTH = 0.5   # em: a text-style radical sign or big operator reaches no further below its line's baseline
SIGN_GAP = 0.3     # em: the radicand or the operand starts this close to the sign's right edge (the word
                   # before it, to its left)


def _take_in_limits(lines: list[Line]) -> list[Line]:
    """The limits of a big operator of an inline formula set above and below it (`$\\sum\\limits_{i=1}^{m}
    w^{(i)} = 1$` in running text, or a display-style sum inside a line) found lines of their own: a
    line of a script's size and no prose, centred on a lone big operator of a prose line (within
    LIMIT_CENTRED), standing just over the operator's ink or just under it (its middle beyond the
    operator's edge, within LIMIT_REACH of it), is that operator's limit and joins its line, its words
    marked stacked.  So are the scripts TeX sets beside a text-style operator where they founded lines of
    their own (an operator opening its line: `$\\sum_{j=1}^{n} q_{j}$`): starting at its right edge, their
    middle within its height and LIMIT_REACH more.  A display's line is left as it is.  Linear in the lines, times the few operators."""
    operators = [(line, w) for line in lines for w in line.words if len(w.text) == 1 and w.text in _TEXT_STYLE_OPERATORS]
    if not any(_prose_line(host) for host, _ in operators):
        return lines
    taken: set[int] = set()
    for line in lines:
        if len(line.words) > LIMIT_WORDS or any(_prose_word(w) for w in line.words):
            continue
        # (a line under one operator and over another, the rows of an aligned display, is left alone)
        near = [(host, op) for host, op in operators if host is not line and _limit_of(line, op)]
        if len(near) != 1 or id(near[0][0]) in taken or not _prose_line(near[0][0]):
            continue
        host = near[0][0]
        _stack_into(host, [line], taken)
    return [line for line in lines if id(line) not in taken] if taken else lines


def _prose_line(line: Line) -> bool:
    return sum(1 for w in line.words if _prose_word(w)) >= PROSE_BESIDE


def _limit_of(line: Line, op: Word) -> bool:
    """Whether a line stands where a limit or a script of a big operator stands (_take_in_limits)."""
    if line.size >= op.size * SCRIPT_SIZE:
        return False
    height = (line.top + line.bottom) / 2
    if abs(line.x0 - op.x1) < op.size * LIMIT_BESIDE:
        return op.top - op.size * LIMIT_REACH < height < op.bottom + op.size * LIMIT_REACH
    return abs((line.x0 + line.x1) / 2 - (op.x0 + op.x1) / 2) <= op.size * LIMIT_CENTRED and (
        op.top - op.size * LIMIT_REACH < height < op.top or op.bottom < height < op.bottom + op.size * LIMIT_REACH)


LIMIT_WORDS = 3       # a limit is a few words at most ("i = 1", "k ≥ 0")
LIMIT_CENTRED = 0.3   # em (of the operator): a limit is centred on its operator within this
LIMIT_REACH = 0.8     # em: ... and its middle stands this close over or under the operator's ink
LIMIT_BESIDE = 0.3    # em: a script set beside the operator (text style) starts this close to its right edge


def _mark_stacked_pairs(line: Line) -> None:
    """Two words of a prose line set a script's size, one over the other (their spans overlapping
    across), one raised above the line's baseline and the other lowered below it, are an inline
    formula's parts: a text-style fraction's numerator and denominator (`$\\frac{dP(t)}{dt}$`), or
    the limits TeX sets beside a sum in text style.  Prose sets nothing so.  Where the maths italic is
    the text's own italic (pdfLaTeX with mathpazo) nothing in their fonts says they are maths, and
    they were read as two words of the sentence; they are marked stacked (maths, off the baseline)."""
    words = line.words
    if len(words) < PROSE_BESIDE + 2:
        return
    big = max(w.size for w in words)
    if sum(1 for w in words if w.size >= big * 0.9 and _prose_word(w)) < PROSE_BESIDE:
        return
    small = [w for w in words if w.size < big * SCRIPT_SIZE and not w.stacked and any(c.isalnum() for c in w.text)]
    if len(small) < 2:
        return
    base = max(w.baseline for w in words if w.size >= big * 0.9)
    for a, b in zip(small, small[1:]):
        overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
        if overlap < min(a.x1 - a.x0, b.x1 - b.x0) * STACK_OVERLAP:
            continue
        high, low = (a, b) if a.baseline < b.baseline else (b, a)
        if high.baseline < base - big * STACK_RAISE and low.baseline > base + big * STACK_LOWER:
            high.stacked = low.stacked = True


def _take_in_small_fractions(lines: list[Line]) -> list[Line]:
    """A text-style fraction at the start of a prose line (`$\\frac{dP(t)}{dt} = QP(t)$ in the text`)
    has no word before it that its numerator could be a script of, so its numerator and its
    denominator found lines of their own: two lines of script-size words alone and no prose, centred
    one over the other, the upper's foot just above a prose line's baseline and the lower's head at
    or above it (astride the line's maths axis, where the bar rides), close beside that line's
    words, are that line's, stacked (a side note's lines, left-aligned, a leading apart, are none).  Hosts are found by baseline (bisect): linear
    in the lines, times the few lines between a pair's baselines."""
    if len(lines) < 3:
        return lines
    sizes = sorted(l.size for l in lines)
    body = sizes[len(sizes) // 2]
    # (a part's size is its largest glyph's: a numerator may carry its own scripts, `(n - 1) q^{C}`)
    small = [l for l in lines if max(w.size for w in l.words) < body * SCRIPT_SIZE]
    if len(small) < 2:
        return lines
    by_base = sorted(lines, key=lambda l: l.baseline)
    bases = [l.baseline for l in by_base]
    small.sort(key=lambda l: l.top)
    taken: set[int] = set()
    for upper, lower in zip(small, small[1:]):
        size = max(w.size for w in upper.words)
        if id(upper) in taken or max(w.size for w in lower.words) != size or lower.top - upper.bottom > size or \
                abs(upper.x0 + upper.x1 - lower.x0 - lower.x1) / 2 > size * FRACTION_CENTRED or \
                any(_prose_word(w) for w in upper.words + lower.words):
            continue
        for host in by_base[bisect.bisect_right(bases, upper.baseline):bisect.bisect_left(bases, lower.baseline)]:
            big = max(w.size for w in host.words)
            if host is upper or host is lower or id(host) in taken or size >= big * SCRIPT_SIZE or \
                    upper.baseline > host.baseline - big * STACK_RAISE or lower.baseline < host.baseline + big * STACK_LOWER or \
                    upper.bottom < host.baseline - big * FRACTION_REACH or lower.top > host.baseline or \
                    max(host.x0 - max(upper.x1, lower.x1), min(upper.x0, lower.x0) - host.x1) > big * STACK_BESIDE or \
                    not any(w.size >= big * 0.9 and _prose_word(w) for w in host.words):
                continue
            _stack_into(host, [upper, lower], taken)
            break
    return [line for line in lines if id(line) not in taken] if taken else lines


def _take_in_display_fractions(lines: list[Line]) -> list[Line]:
    """A display-style fraction inside a line of prose (`$\\dfrac{W_{h} S_{h}}{\\sum_{g} W_{g} S_{g}}$`, or a
    sum's `\\dfrac{1}{n}` set so by a book's choice of style) sets its numerator and denominator at the text's
    size a full line's height apart, so each found a line of its own: two lines of a few words and no
    prose, centred one over the other, close above one another, astride a prose line's baseline and
    both standing in one gap between two of its words (a word space could not hold them), are that
    line's, their words marked stacked.  A display's parts stand in no line's gap.  Hosts are found by
    baseline (bisect): linear in the lines, times the few lines between a pair's baselines."""
    if len(lines) < 3:
        return lines
    parts = sorted((l for l in lines if len(l.words) <= FRACTION_PART_WORDS and not any(_plain_prose_word(w) for w in l.words)),
                   key=lambda l: l.top)
    if len(parts) < 2:
        return lines
    by_base = sorted(lines, key=lambda l: l.baseline)
    bases = [l.baseline for l in by_base]
    taken: set[int] = set()
    for upper, lower in zip(parts, parts[1:]):
        size = max(w.size for w in upper.words + lower.words)
        left, right = min(upper.x0, lower.x0), max(upper.x1, lower.x1)
        if id(upper) in taken or lower.top - upper.bottom > size or \
                abs(upper.x0 + upper.x1 - lower.x0 - lower.x1) / 2 > size * FRACTION_CENTRED:
            continue
        for host in by_base[bisect.bisect_right(bases, upper.baseline):bisect.bisect_left(bases, lower.baseline)]:
            if host is upper or host is lower or id(host) in taken or \
                    sum(1 for w in host.words if _prose_word(w)) < PROSE_BESIDE:
                continue
            before = [w for w in host.words if w.x1 <= left + STACKED_MARGIN]
            after = [w for w in host.words if w.x0 >= right - STACKED_MARGIN]
            if not before or not after or len(before) + len(after) != len(host.words):
                continue
            _stack_into(host, [upper, lower], taken)
            break
    return [line for line in lines if id(line) not in taken] if taken else lines


def _plain_prose_word(w: Word) -> bool:
    """A word of running text (_prose_word) in the text's faces: no maths letter of Unicode's (𝑊ℎ𝑆ℎ),
    no glyph of a maths font."""
    return _prose_word(w) and not _maths_letter(w) and all(sp.font.plain for sp in w.spans)


FRACTION_PART_WORDS = 4   # words: a numerator or a denominator inside a line of prose is a few words at most


STACK_BESIDE = 1.0     # em: a fraction's parts stand this close beside their line's words
FRACTION_CENTRED = 0.3  # em (of the parts): numerator and denominator are centred on each other within this
FRACTION_REACH = 0.6    # em: the numerator's foot stands within this above the line's baseline (the bar rides on
                        # the maths axis), and the denominator's head no lower than the baseline

_PROSE_WORD = re.compile(r"[^\W\d_]{4}")


def _prose_word(w: Word) -> bool:
    """A word of running text: four letters in a row, no operator's name ("arg max", "for all")."""
    return _PROSE_WORD.search(w.text) is not None and w.text not in OPERATOR_NAMES
SCRIPT_SIZE = 0.85     # a script's type is at most this share of the line's (TeX's 7 of 10 pt, 7.6 of 10)
STACK_OVERLAP = 0.5    # one over the other: their spans overlap by half the narrower's width
STACK_RAISE = 0.1      # em: a numerator's (a superscript's) baseline stands at least this above the line's ...
STACK_LOWER = 0.05     # em: ... a denominator's (a subscript's) at least this below it


TALL_OPENERS = "{([⟨⌈⌊|‖"
TALL_CLOSERS = "})]⟩⌉⌋|‖"
TALL_DELIMITER = 1.6     # em (of the glyph): a `\left`/`\right` delimiter grown round something taller than a
                         # letter (a plain one's box is about 1 em)
STACKED_MARGIN = 1.0     # pt: glyph boxes round off; a script on the closer reaches about to its ink's end
CLOSER_SCRIPT = 0.3      # em (of the closer): a script of the closing delimiter starts this close after it
PROSE_BESIDE = 2         # words of four letters or more outside the delimiters, no operator's name ("arg max",
                         # "for all" beside a displayed formula's parentheses): the line is running text


def _tall_delimiter(w: Word) -> bool:
    return len(w.text) == 1 and w.text in TALL_OPENERS + TALL_CLOSERS and w.bottom - w.top > w.size * TALL_DELIMITER


def _take_in_stacked(lines: list[Line]) -> list[Line]:
    """A display-style formula inside a line of prose (`$\\left\\{ \\dfrac{n}{n+1} \\right\\}_{n=1}^\\infty$`)
    sets its numerator and denominator a full size off the baseline, so they found lines of their own: a
    line whose every word stands inside the height of a pair of tall delimiters of a prose line, between
    them (or as the closer's scripts), is part of that line's formula and joins it, its words marked
    stacked (off the line's baseline).  Linear in the lines, times the few tall delimiters."""
    regions = []      # (host line, opener, closer)
    for line in lines:
        tall = [w for w in line.words if _tall_delimiter(w)]
        for a, b in zip(tall, tall[1:]):
            if a.text in TALL_OPENERS and b.text in TALL_CLOSERS and \
                    sum(1 for w in line.words if (w.x1 <= a.x0 or w.x0 >= b.x1) and
                        _prose_word(w)) >= PROSE_BESIDE:
                regions.append((line, a, b))
    if not regions:
        return lines
    taken: set[int] = set()
    for host, a, b in regions:
        top, bottom = min(a.top, b.top) - STACKED_MARGIN, max(a.bottom, b.bottom) + STACKED_MARGIN
        for line in lines:
            if line is host or id(line) in taken or line.bottom < top or line.top > bottom or \
                    any(_tall_delimiter(w) for w in line.words):
                continue
            if all(top <= (w.top + w.bottom) / 2 <= bottom and w.x0 >= a.x0 - STACKED_MARGIN and
                   (w.x1 <= b.x0 + STACKED_MARGIN or w.x0 <= b.x1 + b.size * CLOSER_SCRIPT) for w in line.words):
                _stack_into(host, [line], taken)
    return [line for line in lines if id(line) not in taken]


LETTER_SPACED_LETTERS = 3   # letters: a run of lone characters with at least this many is a word set letter-spaced
LETTER_SPACED_LINE = 6      # lone letters: a line with this many ...
SPACED_OUT = 0.7            # ... making this share of its words is spaced out throughout
LETTER_GAP_MAX = 0.5        # em: letter-spacing opens gaps narrower than this (a matrix's columns stand further apart)
LETTER_GAP_SPREAD = 1.5     # a run's gaps stay within this multiple of its narrowest (a word space is wider) ...
LETTER_GAP_SLACK = 0.05     # em: ... give or take this (ink boxes, in a scan's text layer, vary with the letter)
_LETTER_SPACED_CHARS = re.compile(r"[^\W_]|[.,:;\-]")


def join_letter_spaced(words: list[Word]) -> list[Word]:
    """A line's words (in x order) with words set letter-spaced joined again.  A line spaced out
    throughout (nearly all its words lone characters, an epigraph in spaced capitals): its letter gap is
    the middle one of the gaps beside a lone character, and every gap no wider (kerned pairs such as
    "AT" stand closer) is inside a word.  Otherwise runs of lone upright characters of one font and
    size, each a like gap from the next, with LETTER_SPACED_LETTERS letters among them ("F i g ."):
    the wider gap of a word space ends a run, and a short run after it, its gap no wider, is
    letter-spaced too ("2 .")."""
    def lone(w: Word) -> bool:
        # (a spacing accent, "ˆ" a modifier letter to Unicode, is set over a letter, never spaced out
        # as one: a matrix row of hatted letters is no spaced-out line)
        return len(w.text) == 1 and not w.italic and bool(_LETTER_SPACED_CHARS.fullmatch(w.text)) \
            and w.text not in ACCENT_MARKS and not _maths_letter(w)

    alone = [w for w in words if lone(w)]
    # (a line holding a Unicode maths letter, 𝑇 or 𝜋, is a formula's: a matrix row of lone entries, or
    # a row of \hdotsfor's dots on a display's main line, is not spaced out)
    if len(alone) >= SPACED_OUT * len(words) and sum(1 for w in alone if w.text.isalpha()) >= LETTER_SPACED_LINE \
            and not any(_maths_letter(w) for w in words):
        size = alone[0].size
        gaps = sorted(b.x0 - a.x1 for a, b in zip(words, words[1:]) if lone(a) or lone(b))
        letter_gap = gaps[len(gaps) // 2]
        if 0 < letter_gap < LETTER_GAP_MAX * size:
            limit = letter_gap * LETTER_GAP_SPREAD + LETTER_GAP_SLACK * size
            groups = [[words[0]]]
            for a, b in zip(words, words[1:]):
                if b.x0 - a.x1 <= limit and not a.italic and not b.italic:
                    groups[-1].append(b)
                else:
                    groups.append([b])
            return [_joined(g) for g in groups]
    out: list[Word] = []
    spaced_gap = None        # the gap of a letter-spaced run already found on this line
    i = 0
    while i < len(words):
        j = i + 1
        narrowest = None
        while j < len(words) and lone(words[i]) and lone(words[j]) and words[j].font == words[i].font \
                and words[j].size == words[i].size:
            gap = words[j].x0 - words[j - 1].x1
            size = words[i].size
            if not 0 < gap < LETTER_GAP_MAX * size:
                break
            low = min(gap, narrowest if narrowest is not None else gap)
            if gap > low * LETTER_GAP_SPREAD + LETTER_GAP_SLACK * size or \
                    (narrowest is not None and narrowest > gap * LETTER_GAP_SPREAD + LETTER_GAP_SLACK * size):
                break
            narrowest = low
            j += 1
        run = words[i:j]
        letters = sum(1 for w in run if w.text.isalpha())
        again = spaced_gap is not None and narrowest is not None and \
            narrowest <= spaced_gap * LETTER_GAP_SPREAD + LETTER_GAP_SLACK * run[0].size
        if len(run) >= 2 and (letters >= LETTER_SPACED_LETTERS or again):
            out.append(_joined(run))
            spaced_gap = narrowest if spaced_gap is None else spaced_gap
            i = j
        else:
            out.append(words[i])
            i += 1
    return out


def _maths_letter(w: Word) -> bool:
    """Whether the text layer gave a word a Unicode maths alphanumeric (an OpenType maths font's
    letters, 𝑇 𝜋 𝐀): maths, as a maths italic is (join_letter_spaced leaves both alone)."""
    return w.raw is not None and any("\U0001d400" <= ch <= "\U0001d7ff" for ch in w.raw)


def _joined(run: list[Word]) -> Word:
    """Words that are pieces of one word, as one (a text face's: no glyph boxes are kept)."""
    if len(run) == 1:
        return run[0]
    first = run[0]
    return Word("".join(w.text for w in run), first.x0, max(w.x1 for w in run), min(w.top for w in run),
                max(w.bottom for w in run), first.size, first.bold, first.mono, first.italic, first.font,
                first.baseline)


FAR_ON_BASELINE = 3   # em (of the word): further than this from a line along its baseline, a script nearer wins
SCRIPT_BESIDE = 0.5   # em (of the word): ... one that stands this close beside the glyphs of its line
SCRIPT_AWAY = 1.0     # em (of the word): a word past a line's end and further than this from it is no script of it


def _script_line(lines: list[Line], by_base: dict, bases: list[float], scripts: set[int], w: Word,
                 close: float | None = None) -> int | None:
    """The line a smaller word is a sub- or superscript of: one whose body it overlaps, within its
    extent (the word's id is added to `scripts` when found); with `close`, only one whose glyphs
    stand at most that far beside it (a script touches its base)."""
    mid = (w.top + w.bottom) / 2
    prime = bool(w.text) and all(ch in PRIMES for ch in w.text)

    def takes(i: int) -> bool:
        line = lines[i]
        first = line.words[0]
        # smaller than the words on the line's baseline beside it: a script, not a line of text
        # set beside a larger label ("NOTE" in 20 pt beside a two-line note in 10 pt); the line's
        # own scripts are not its body.  Beside it, because a margin note in a smaller size may
        # share the baseline (a side note's mark on the body text is no script of the note's 8 pt
        # words)
        on_base = [x for x in line.words if abs(x.baseline - bases[i]) < 1.5 and id(x) not in scripts]
        if not on_base:
            return False
        near = min(max(x.x0 - w.x1, w.x0 - x.x1) for x in on_base)
        if close is not None and near > close:
            return False
        # (the line's extent is that of its words larger than this one: a side note's first line, set on
        # the baseline of the line that carries its mark, stretches the line into the margin, and the
        # note's next lines, a hair off that baseline, would join as scripts, their words shuffled with
        # the first's), and what stands close beside them (a fraction's numerator that joined first)
        full = [x for x in line.words if x.size > w.size * 1.1] or on_base
        lo, hi, reach = min(x.x0 for x in full), max(x.x1 for x in full), w.size * SCRIPT_AWAY
        for x in line.words:
            if x.x0 <= hi + reach and x.x1 >= lo - reach:
                lo, hi = min(lo, x.x0), max(hi, x.x1)
        word = w.text.rstrip(".,;:")
        if (w.x0 > hi + reach or w.x1 < lo - reach) and word.isalpha() and len(word) > 1:
            return False  # past the line's end a word is a script only near its base or a script of
                          # it: a side note's word a gutter from the main column's last word, a hair
                          # off its baseline, is none (a limit under a big operator, "i=2", read
                          # before the operator itself, and a text-style fraction's part still join)
        body = min(x.size for x in on_base if max(x.x0 - w.x1, w.x0 - x.x1) <= near + w.size)
        # a prime is only ever raised: below a line's baseline it is no script of that line
        low = bases[i] if prime else bases[i] + first.size * 0.45
        return w.size < body * 0.85 and bases[i] - first.size * 0.9 <= mid <= low \
            and line.x0_min - 12 <= w.x0 <= line.x1_max + 12

    found = [i for k in range(round(mid - w.size), round(mid + w.size * 2) + 1) for i in by_base.get(k, ())]
    for n, i in enumerate(found):
        if takes(i):
            # a word that the line above would take as a subscript dropped further than it stands
            # raised above a line below, set right before one of that line's words, is that line's
            # superscript: a footnote's mark before its first word, which a line of the other column
            # (its numerators reaching down) put within the reach of the note's line above
            below = next((j for j in found[n + 1:] if bases[j] > bases[i] + 1.5 and
                          bases[j] - w.baseline < w.baseline - bases[i] and _raised_before(w, lines[j], bases[j])
                          and takes(j)), None)
            scripts.add(id(w))
            return i if below is None else below
    return None


def _raised_before(w: Word, line: Line, base: float) -> bool:
    """Whether a smaller word stands raised right before a word on a line's baseline (within half its
    own size of it, clear of it across): a superscript glued to the front of that word."""
    return w.baseline < base - 0.5 and any(abs(x.baseline - base) < 1.5 and 0 <= x.x0 - w.x1 <= w.size * SCRIPT_BESIDE
                                           for x in line.words)


def _line_raising(lines: list[Line], by_base: dict, bases: list[float], w: Word) -> int | None:
    """The line a text-style big operator off every baseline is raised inside: its ink lies above that
    line's baseline, within a body height of it, and it stands beside one of the line's words."""
    for k in range(round(w.bottom), round(w.bottom + w.size) + 1):
        for i in by_base.get(k, ()):
            if bases[i] - w.size <= w.bottom <= bases[i] + 0.5 and \
                    any(abs(o.x0 - w.x1) < w.size or abs(w.x0 - o.x1) < w.size for o in lines[i].words):
                return i
    return None


# --------------------------------------------------------------------------- pages
"""Pages: every page's lines, drawings and link anchors, read in worker processes."""


@dataclass
class Page:
    number: int            # 1-based PDF page
    label: str | None      # the PDF's own page label, only when the PDF defines labels
    width: float
    height: float
    lines: list[Line]
    boxes: list[tuple[float, float, float, float]]     # light filled boxes and ruled frames (x0, top, x1, bottom)
    rules: list[tuple[float, float, float, float]]     # thin horizontal rules and fraction bars
    graphics: list[tuple[float, float, float, float]]  # drawn paths and images
    rotated: bool = False  # printed sideways; read in its own frame
    links: list = field(default_factory=list)          # (x0, top, x1, bottom, target page, target top)
    bars: list = field(default_factory=list)           # every thin horizontal stroke (fraction bars included),
                                                       # and the thin upright ones (an array's column rules)
    strokes: list = field(default_factory=list)        # paths with a curve or a slanted segment (no rectangles)
    column: int = 0        # 0: the whole text block; 1, 2: the left or right column of a page set in two


class _Raw:
    """PDFium's C functions for the per-glyph loop, typed with plain pointers (pypdfium2's typed
    wrappers cost a pointer cast per call, a third of the reading time), and reusable out-parameters."""

    def __init__(self):
        import pypdfium2.raw as c
        from pypdfium2_raw.bindings import _libs

        self.c = c
        lib = _libs["pdfium"]
        P, I = ctypes.c_void_p, ctypes.c_int

        def fn(name, restype, *argtypes):
            f = lib[name]      # a fresh function object: typing it does not touch pypdfium2's own
            f.restype, f.argtypes = restype, list(argtypes)
            return f

        self.count_chars = fn("FPDFText_CountChars", I, P)
        self.get_text = fn("FPDFText_GetText", I, P, I, I, P)
        self.get_unicode = fn("FPDFText_GetUnicode", ctypes.c_uint, P, I)
        self.text_object = fn("FPDFText_GetTextObject", P, P, I)
        self.loose_box = fn("FPDFText_GetLooseCharBox", I, P, I, ctypes.POINTER(c.FS_RECTF))
        D = ctypes.POINTER(ctypes.c_double)
        self.ink_box = fn("FPDFText_GetCharBox", I, P, I, D, D, D, D)
        self.map_error = fn("FPDFText_HasUnicodeMapError", I, P, I)
        self.generated = fn("FPDFText_IsGenerated", I, P, I)     # a space PDFium put between words
        self.ink = [ctypes.c_double() for _ in range(4)]      # left, right, bottom, top
        self.ink_refs = [ctypes.byref(v) for v in self.ink]
        self.origin = fn("FPDFText_GetCharOrigin", I, P, I, ctypes.POINTER(ctypes.c_double),
                         ctypes.POINTER(ctypes.c_double))
        self.font_size = fn("FPDFText_GetFontSize", ctypes.c_double, P, I)
        self.char_matrix = fn("FPDFText_GetMatrix", I, P, I, ctypes.POINTER(c.FS_MATRIX))
        self.matrix = c.FS_MATRIX()
        self.matrix_ref = ctypes.byref(self.matrix)
        self.em_factors: dict[int, float] = {}   # font handle -> its em over the size it is set at (glyph_size)
        self.char_angle = fn("FPDFText_GetCharAngle", ctypes.c_float, P, I)
        self.object_font = fn("FPDFTextObj_GetFont", P, P)
        self.font_name = fn("FPDFFont_GetBaseFontName", ctypes.c_size_t, P, ctypes.c_char_p, ctypes.c_size_t)
        self.font_flags = fn("FPDFFont_GetFlags", I, P)
        self.font_weight = fn("FPDFFont_GetWeight", I, P)
        F = ctypes.POINTER(ctypes.c_float)
        self.object_bounds = fn("FPDFPageObj_GetBounds", I, P, F, F, F, F)
        self.rect = c.FS_RECTF()
        self.rect_ref = ctypes.byref(self.rect)
        self.dx, self.dy = ctypes.c_double(), ctypes.c_double()
        self.buf = ctypes.create_string_buffer(512)
        self.fonts: dict[int, Font] = {}
        self.path = ""                                  # the PDF being read (its font dictionaries: pdf_font_encodings)
        self.weights: dict[str, int] = {}               # a text face's name -> its weight (a heavier cut is bold)
        self.dictionaries: dict[int, dict[int, str] | None] = {}   # font handle -> its dictionary's /Differences
        self.names: dict[int, dict[int, str]] = {}     # font handle -> its built-in encoding's glyph names
        self.named_signs: dict[int, set[str]] = {}    # font handle -> the characters its glyph names stand for
        self.nameless: dict[int, str] = {}   # code -> what the nameless fonts' glyph names say (nameless_code_char)
        self.layout_votes: dict[int, dict[str, int]] = {}   # nameless font handle -> TeX text layout -> words (vote_text_layouts)
        self.nameless_letters: dict[int, list] = {}   # nameless font handle -> [its size, small letters set]
        self.nameless_strokes: dict[int, tuple[float, float] | None] = {}   # nameless font handle -> strokes_of
        self.nameless_printed: dict[int, dict] = {}   # nameless font handle -> what it prints (gather_nameless_glyphs)
        self.drawn_runs: dict[tuple, tuple[float, float] | None] = {}   # (size, codes, advances) -> strokes_of
        self.repairs: dict[int, dict] = {}   # font handle -> its ToUnicode map's contradicted characters
        self.coded: set[str] = set()   # extension fonts whose text map gives their codes back (_page_spans)
        self.font_data = fn("FPDFFont_GetFontData", I, P, P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t))
        self.r, self.g, self.b, self.a = (ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint())
        self.fl, self.fb, self.fr, self.ft = (ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float())
        self.sw = ctypes.c_float()
        self.glyph_path = fn("FPDFFont_GetGlyphPath", P, P, ctypes.c_uint, ctypes.c_float)
        self.path_segments = fn("FPDFGlyphPath_CountGlyphSegments", I, P)
        self.path_segment = fn("FPDFGlyphPath_GetGlyphPathSegment", P, P, I)
        self.segment_point = fn("FPDFPathSegment_GetPoint", I, P, ctypes.POINTER(ctypes.c_float),
                                ctypes.POINTER(ctypes.c_float))
        self.glyph_width = fn("FPDFFont_GetGlyphWidth", I, P, ctypes.c_uint, ctypes.c_float,
                              ctypes.POINTER(ctypes.c_float))
        self.outline_boxes: dict[tuple[int, int], tuple[float, tuple[float, float, float, float]] | None] = {}
        self.segment_type = fn("FPDFPathSegment_GetType", I, P)
        self.variant_bases: dict[int, tuple] = {}   # font handle -> (no glyph's outline, its VARIANT_BASES' cells)
        self.variants: dict[tuple[int, int], str] = {}   # (font handle, private-use code) -> its base ("" none)
        self.unmapped: dict[tuple, str] = {}   # (font handle, drawn cells, ink width, height) -> its base ("" none)
        self.document = self.page = None             # the PDF and the page being read (drawn_cells)
        self.render_object = fn("FPDFTextObj_GetRenderedBitmap", P, P, P, P, ctypes.c_float)
        self.bitmap_buffer = fn("FPDFBitmap_GetBuffer", P, P)
        self.bitmap_width = fn("FPDFBitmap_GetWidth", I, P)
        self.bitmap_height = fn("FPDFBitmap_GetHeight", I, P)
        self.bitmap_stride = fn("FPDFBitmap_GetStride", I, P)
        self.bitmap_format = fn("FPDFBitmap_GetFormat", I, P)
        self.bitmap_destroy = fn("FPDFBitmap_Destroy", None, P)

    def font(self, textobj: int) -> Font:
        """The font a text object sets its glyphs in."""
        return self.font_of(self.object_font(textobj))

    def font_of(self, handle: int | None) -> Font:
        """A font, by PDFium's handle of it (described once)."""
        found = self.fonts.get(handle or 0)
        if found is None:
            n = self.font_name(handle, self.buf, 512)
            name = self.buf.raw[:max(0, n - 1)].decode("latin-1", "replace") if n else ""
            weight = self.font_weight(handle)
            found = describe_font(name, self.font_flags(handle), weight if weight > 0 else 400)
            if found.plain and weight > 0:
                # a family's heavier cut named by a letter of its own (Libertine's "TZ", its semibold, beside
                # the regular "T"): markedly heavier than a lighter cut of its family read before, it is bold
                if not found.bold and any(found.name.startswith(other) and 0 < len(found.name) - len(other) <= 2
                                          and weight - lighter >= HEAVIER_CUT for other, lighter in self.weights.items()):
                    # (named so, as a bold cut's name says it: formulas take a letter's weight from the name)
                    found = Font(found.name + " (Bold)", True, found.italic, found.mono, found.encoding, found.plain)
                self.weights.setdefault(found.name, weight)
            if found.plain and not found.mono and handle and self._same_advances(handle):
                found = Font(found.name, found.bold, found.italic, True, found.encoding, found.plain)
            if not found.encoding:
                # a maths font's name may say nothing of its role, or a role other than its letters'
                # (mathdesign's "…-Symbol-10" holds "Acal", "…SymbolA-10" holds "Ebbb")
                role = maths_role(self.glyph_names(handle).values(), lettered=not found.plain)
                abx = _MATHABX_NAME.match(found.name)
                if abx and abx.group(1).lower() == "x":
                    role = "extension"    # mathabx's mathx (its glyphs' names are a text font's)
                if role:
                    found = describe_font(name + MATHS_ROLE_SUFFIX[role], self.font_flags(handle), 400)
                elif found.plain and handle and (shared := self._maths_dictionary(handle, found.name)):
                    # a maths font printed through a text face's program under the face's own name (a
                    # symbol font drawn in Kurier's or Iwona's italic, its calligraphic capitals named
                    # "N.kali"): its dictionary, told from the face's own by the widths its glyphs take
                    role, self.dictionaries[handle] = shared
                    found = describe_font(name + MATHS_ROLE_SUFFIX[role], self.font_flags(handle), 400)
            self.fonts[handle or 0] = found
        return found

    def _maths_dictionary(self, handle: int, name: str) -> tuple[str, dict[int, str]] | None:
        """For a font named as a text face whose name several dictionaries of the file share, one of them
        a maths font's by its glyph names (maths_role): the role and the /Differences of the one
        dictionary whose /Widths are the advances this handle's glyphs take (_takes_widths); None when
        no dictionary, or more than one, fits.  The text layer maps such a font's glyphs through its
        ToUnicode map (a calligraphic capital to its plain letter), so only the widths tie the handle to
        its dictionary: a face's own letters and a maths font's glyphs at the same codes differ in width."""
        maps = pdf_font_encodings(self.path).get(name, ()) if self.path else ()
        if len(maps) < 2 or not any(maths_role(m.values()) for m in maps):
            return None
        widths = pdf_font_widths(self.path).get(name, ())
        if len(widths) != len(maps):
            return None
        fitting = [m for m, w in zip(maps, widths) if self._takes_widths(handle, m, w)]
        role = maths_role(fitting[0].values()) if len(fitting) == 1 else None
        return (role, fitting[0]) if role else None

    def _takes_widths(self, handle: int, names: dict[int, str], widths: dict[int, float]) -> bool:
        """Whether the glyphs a dictionary names advance in the font of `handle` by the dictionary's
        widths for their codes: MATCHED_WIDTHS of them at least, and four times as many as advance
        otherwise.  A glyph is looked up by the character its name stands for, which the handle's own
        map may give another glyph ("union" names ⋃ where the map says ∪) or none (a width of 0: a
        glyph the font's subset does not hold under that character, which says nothing)."""
        matched = mismatched = 0
        for code, glyph in names.items():
            ch = glyph_name_char(glyph)
            if len(ch) != 1 or widths.get(code, 0) <= 0 or \
                    not self.glyph_width(handle, ord(ch), 1.0, ctypes.byref(self.sw)) or self.sw.value <= 0:
                continue
            if abs(self.sw.value * 1000 - widths[code]) <= ADVANCE_MATCH:
                matched += 1
            else:
                mismatched += 1
        return matched >= MATCHED_WIDTHS and mismatched * 4 <= matched

    def _same_advances(self, handle: int) -> bool:
        """A typewriter face that neither its name nor its flags call one (TX fonts' "t1xtt"): its
        narrowest and widest letters and its full stop ("i", "m", "W", ".") advance alike, those of
        them its subset holds, "i" and "m" at least (a glyph held has an outline: a CID font's default
        width, given to every code its subset dropped, says nothing)."""
        widths = []
        for code in MONO_PROBE:
            path = self.glyph_path(handle, code, 1.0)
            held = bool(path) and self.path_segments(path) > 0 \
                and self.glyph_width(handle, code, 1.0, ctypes.byref(self.sw)) and self.sw.value > 0
            if not held and code in MONO_PROBE[:2]:
                return False
            if held:
                widths.append(round(self.sw.value * 1000))
        return len(set(widths)) == 1

    def glyph_names(self, handle: int) -> dict[int, str]:
        """The embedded font program's own encoding, code -> glyph name ({} when it has none)."""
        names = self.names.get(handle or 0)
        if names is None:
            names = {}
            size = ctypes.c_size_t()
            if handle and self.font_data(handle, None, 0, ctypes.byref(size)) and 0 < size.value < 4_000_000:
                data = (ctypes.c_ubyte * size.value)()
                if self.font_data(handle, data, size.value, ctypes.byref(size)):
                    names = builtin_names(bytes(data))
            self.names[handle or 0] = names
        return names

    def code_given_back(self, textobj: int, u: int) -> str | None:
        """For an ASCII sign the text map reports for a font printed through its built-in encoding
        (_TX_SYMBOLS): the maths sign its code's glyph name stands for, when the font has no glyph
        named for the ASCII sign (the map gave the code back: pxfonts' "nequal" read as ",", its
        "iintegdisplay" as a quote mark); else None."""
        handle = self.object_font(textobj)
        names = self.glyph_names(handle)
        named = glyph_name_char(names[u]) if u in names else ""
        if not named or named.isascii() or named.isalnum():
            # (a font the PDF re-encodes names other glyphs at those codes, letters and signs alike:
            # only a maths sign's name, where the map says ASCII, tells a code given back)
            return None
        signs = self.named_signs.get(handle or 0)
        if signs is None:
            signs = self.named_signs[handle or 0] = {glyph_name_char(n) for n in names.values()}
        return None if chr(u) in signs else named

    def dictionary_names(self, textobj: int, code: int) -> dict[int, str] | None:
        """For a text face's glyph PDFium cannot map (it gave the code back): the /Differences of the
        font dictionary it prints through, found among those of its name as the one that names a TeX
        maths glyph at that code; remembered for the font's handle.  None when none or several do."""
        handle = self.object_font(textobj) or 0
        if handle in self.dictionaries:
            return self.dictionaries[handle]
        n = self.font_name(handle, self.buf, 512)
        name = self.buf.raw[:max(0, n - 1)].decode("latin-1", "replace") if n else ""
        maps = [m for m in pdf_font_encodings(self.path).get(_SUBSET_PREFIX.sub("", name), ()) if code in m and _tex_maths_name(m[code])] \
            if self.path and name else []
        found = maps[0] if len(maps) == 1 or maps and all(m == maps[0] for m in maps) else None
        self.dictionaries[handle] = found
        if found is not None:
            role = maths_role(found.values())
            if role:
                self.fonts[handle] = describe_font(name + MATHS_ROLE_SUFFIX[role], self.font_flags(handle), 400)
        return found

    def code_name_char(self, textobj: int, code: int) -> str | None:
        """For a glyph PDFium gives no Unicode for: the character its code names in the embedded font
        program's own encoding (None when the font carries no such encoding)."""
        handle = self.object_font(textobj) or 0
        own = self.dictionaries.get(handle)
        name = own.get(code) if own is not None else self.glyph_names(handle).get(code)
        return glyph_name_char(name) if name else None

    def unicode_repairs(self, textobj: int) -> dict[int, tuple[tuple[float, int, int], ...]]:
        """The characters the ToUnicode map of textobj's font gives that its glyph names contradict
        (pdf_unicode_repairs), each with its candidates; {} for most fonts."""
        handle = self.object_font(textobj) or 0
        found = self.repairs.get(handle)
        if found is None:
            n = self.font_name(handle, self.buf, 512) if handle else 0
            name = self.buf.raw[:max(0, n - 1)].decode("latin-1", "replace") if n else ""
            found = self.repairs[handle] = pdf_unicode_repairs(self.path).get(name, {}) if self.path and name else {}
        return found

    def outline_box(self, textobj: int, u: int) -> tuple[float, tuple[float, float, float, float]] | None:
        """For character u in textobj's font, as PDFium looks it up (one code, where the text map gives
        u for several): that code's advance in thousandths of an em, and its outline's box (left,
        right, bottom, top in ems from the origin).  None when it has no outline."""
        handle = self.object_font(textobj) or 0
        key = (handle, u)
        if key not in self.outline_boxes:
            box = None
            path = self.glyph_path(handle, u, 1.0) if handle and u <= 0xFFFF else None
            count = self.path_segments(path) if path else 0
            if 0 < count <= OUTLINE_SEGMENTS and self.glyph_width(handle, u, 1.0, ctypes.byref(self.sw)):
                x, y = ctypes.c_float(), ctypes.c_float()
                xs, ys = [], []
                for k in range(count):
                    if self.segment_point(self.path_segment(path, k), ctypes.byref(x), ctypes.byref(y)):
                        xs.append(x.value)
                        ys.append(y.value)
                box = (self.sw.value * 1000, (min(xs), max(xs), min(ys), max(ys))) if xs else None
            self.outline_boxes[key] = box
        return self.outline_boxes[key]

    def _contours(self, handle: int, u: int) -> list[list[tuple[float, float]]]:
        """The outline PDFium looks character u up as in a font (its code from the ToUnicode map, read
        backwards), as contours of points in ems; [] for none or one too long to measure."""
        path = self.glyph_path(handle, u, 1.0) if u <= 0xFFFF else None
        count = self.path_segments(path) if path else 0
        if not 0 < count <= OUTLINE_SEGMENTS:
            return []
        x, y = ctypes.c_float(), ctypes.c_float()
        contours: list[list[tuple[float, float]]] = []
        for k in range(count):
            segment = self.path_segment(path, k)
            if not self.segment_point(segment, ctypes.byref(x), ctypes.byref(y)):
                continue
            if self.segment_type(segment) == 2 or not contours:      # FPDF_SEGMENT_MOVETO: a contour starts
                contours.append([])
            contours[-1].append((x.value, y.value))
        return contours

    def private_use_char(self, textobj: int, u: int) -> str:
        """For a private-use character the ToUnicode map of textobj's font gives: the character of which
        its glyph is a size variant, by outline (variant_base, among the VARIANT_BASES the font's subset
        holds; else square_bracket, curly_brace or drawn_operator); "" when none is told."""
        handle = self.object_font(textobj) or 0
        key = (handle, u)
        if key not in self.variants and handle:
            absent, bases = self._variant_bases(handle)
            contours = self._contours(handle, u)
            cells = outline_cells(contours) if contours != absent else None
            size = _extent(contours)
            self.variants[key] = (variant_base(cells, size, bases) or square_bracket(cells, size)
                                  or curly_brace(cells, size) or drawn_operator(cells, size)
                                  or drawn_integral(cells, size) or "") if cells else ""
        return self.variants.get(key, "")

    def _variant_bases(self, handle: int) -> tuple:
        """A font's outline for characters its map does not give, and the cells and extents of the
        VARIANT_BASES its subset holds."""
        if handle not in self.variant_bases:
            # (a character the map does not give looks up another glyph, the same for every such one)
            absent = self._contours(handle, 0x0378)
            bases: dict[str, tuple[frozenset, tuple[float, float]]] = {}
            for ch in VARIANT_BASES:
                contours = self._contours(handle, ord(ch))
                cells = outline_cells(contours) if contours != absent else None
                if cells and all(cells != other for other, _ in bases.values()):
                    bases[ch] = (cells, _extent(contours))
            for ch, mirror, across in MIRRORED_BASES:
                # a base the subset lacks whose mirror image it holds (a "⌊" for a "⌈"): that image
                # turned, lest the variant be read as the one of the two the subset holds
                if ch not in bases and mirror in bases:
                    cells, size = bases[mirror]
                    bases[ch] = (frozenset((row, OUTLINE_GRID - 1 - col) if across else (OUTLINE_GRID - 1 - row, col)
                                           for row, col in cells), size)
            self.variant_bases[handle] = (absent, bases)
        return self.variant_bases[handle]

    def supplementary_private_char(self, textobj: int, textpage: int, j: int, u: int, em: float) -> str:
        """private_use_char for glyph j, a character of the supplementary private-use planes (XeLaTeX's
        map gives Asana Math's size variants U+10FFxx).  PDFium keeps such a character as two UTF-16
        halves and finds no code for it to look its outline up by (FPDFFont_GetGlyphPath), so the glyph
        is drawn instead (drawn_cells); "" when none is told.  Decided once per font and character."""
        handle = self.object_font(textobj) or 0
        key = (handle, u)
        if key not in self.variants and handle and em > 0:
            _, bases = self._variant_bases(handle)
            drawn = self.drawn_cells(textobj, textpage, j, em)
            self.variants[key] = (variant_base(drawn[0], drawn[1], bases) or square_bracket(*drawn)
                                  or curly_brace(*drawn) or drawn_operator(*drawn) or drawn_integral(*drawn)
                                  or "") if drawn else ""
        return self.variants.get(key, "")

    def unmapped_maths_char(self, textobj: int, textpage: int, j: int, em: float) -> str:
        """supplementary_private_char for glyph j of an OpenType maths font whose ToUnicode map leaves it
        out (PDFium gives U+FFFD): LuaLaTeX's map with Asana Math's OpenType (CFF) file has no entry for
        the display-size variants of its big operators.  Every such glyph shares that one character, so
        each is drawn and read by its drawing (decided once per font and drawing); "" when none is told."""
        handle = self.object_font(textobj) or 0
        if not handle or em <= 0:
            return ""
        drawn = self.drawn_cells(textobj, textpage, j, em)
        if not drawn:
            return ""
        key = (handle, drawn[0], round(drawn[1][0], 2), round(drawn[1][1], 2))
        if key not in self.unmapped:
            _, bases = self._variant_bases(handle)
            self.unmapped[key] = (variant_base(drawn[0], drawn[1], bases) or square_bracket(*drawn)
                                  or curly_brace(*drawn) or drawn_operator(*drawn) or drawn_integral(*drawn) or "")
        return self.unmapped[key]

    def _drawn_object(self, textobj: int, scale: float) -> tuple[bytes, int, int, int] | None:
        """A text object drawn by PDFium at `scale` pixels to the point: its BGRA pixels, width, height and
        row stride, its bounds left in self.fl, fb, fr, ft (the bitmap's top left corner is the bounds'
        top left); None when it cannot be drawn."""
        fl, fb, fr, ft = self.fl, self.fb, self.fr, self.ft
        if not self.document or not self.page or \
                not self.object_bounds(textobj, ctypes.byref(fl), ctypes.byref(fb), ctypes.byref(fr), ctypes.byref(ft)):
            return None
        bitmap = self.render_object(self.document, self.page, textobj, scale)
        if not bitmap:
            return None
        try:
            width, height, stride = self.bitmap_width(bitmap), self.bitmap_height(bitmap), self.bitmap_stride(bitmap)
            if self.bitmap_format(bitmap) != 4 or width <= 0 or height <= 0:    # FPDFBitmap_BGRA
                return None
            return ctypes.string_at(self.bitmap_buffer(bitmap), stride * height), width, height, stride
        finally:
            self.bitmap_destroy(bitmap)

    def drawn_cells(self, textobj: int, textpage: int, j: int, em: float
                    ) -> tuple[frozenset, tuple[float, float]] | None:
        """Glyph j as outline_cells gives an outline (cells of an OUTLINE_GRID square over its ink, sampled
        at their centres, the bottom row first) and its ink's width and height in ems: its text object
        drawn at DRAWN_PIXELS to the em, within the glyph's ink box (the object's other glyphs stand
        beside it); None when it cannot be drawn or shows no ink."""
        if not self.ink_box(textpage, j, *self.ink_refs):
            return None
        scale = DRAWN_PIXELS / em
        il, ir, ib, it = (v.value for v in self.ink)
        drawn = self._drawn_object(textobj, scale)
        if drawn is None:
            return None
        pixels, width, height, stride = drawn
        fl, ft = self.fl, self.ft
        # (the bitmap's top left corner is the object's bounds' top left: x right, y down, in pixels)
        x0, x1 = max(0, math.floor((il - fl.value) * scale)), min(width, math.ceil((ir - fl.value) * scale))
        y0, y1 = max(0, math.floor((ft.value - it) * scale)), min(height, math.ceil((ft.value - ib) * scale))
        alpha = [pixels[row * stride + 4 * x0 + 3:row * stride + 4 * x1:4] for row in range(y0, y1)]
        inked = [k for k, row in enumerate(alpha) if row and max(row) >= DRAWN_INK]
        if not inked:
            return None
        top, bottom = inked[0], inked[-1] + 1
        left = min(next(k for k, v in enumerate(alpha[row]) if v >= DRAWN_INK) for row in inked)
        right = max(len(alpha[row]) - next(k for k, v in enumerate(reversed(alpha[row])) if v >= DRAWN_INK)
                    for row in inked)
        w, h = right - left, bottom - top
        cells = frozenset((r, c) for r in range(OUTLINE_GRID) for c in range(OUTLINE_GRID)
                          if alpha[bottom - 1 - int((r + 0.5) * h / OUTLINE_GRID)][left + int((c + 0.5) * w / OUTLINE_GRID)]
                          >= DRAWN_INK)
        return (cells, (w / DRAWN_PIXELS, h / DRAWN_PIXELS)) if cells else None

    def strokes_of(self, textobj: int, textpage: int, j: int, em: float) -> tuple[float, float] | None:
        """How a run's glyphs j to j + 3 are drawn: their text object drawn at STROKE_PIXELS to the em and
        cut to those glyphs' advances.  (1) Its slant: the shear (run across per unit up, from SLANTS)
        under which its inked columns stack most sharply (the sum of the squares of their counts:
        upright stems stack at no shear, an italic's at its slope).  (2) Its stroke: the median length,
        in ems, of the runs of ink along its rows (mostly the stems' widths: a bold cut's are half as
        wide again as its regular's).  None when it cannot be drawn."""
        if em <= 0:
            return None
        scale = STROKE_PIXELS / em
        self.loose_box(textpage, j, self.rect_ref)
        left = self.rect.left
        self.loose_box(textpage, j + 3, self.rect_ref)
        right = self.rect.right
        drawn = self._drawn_object(textobj, scale)
        if drawn is None:
            return None
        pixels, width, height, stride = drawn
        # (the bitmap's top left corner is the object's bounds' top left: x right, y down, in pixels)
        x0, x1 = max(0, math.floor((left - self.fl.value) * scale)), min(width, math.ceil((right - self.fl.value) * scale))
        if x1 - x0 < STROKE_PIXELS or (x1 - x0) * height > STROKE_MAX_PIXELS:
            return None
        spans = []     # (a run of ink's first and last column + 1, its height above the drawing's foot)
        for y in range(height):
            row = pixels[y * stride + 4 * x0 + 3:y * stride + 4 * x1:4].translate(_INK_BYTES)
            spans.extend((m.start(), m.end(), height - 1 - y) for m in _INK_RUN.finditer(row))
        if sum(b - a for a, b, _ in spans) < STROKE_PIXELS:
            return None
        best, best_score = 0.0, -1
        for slant in SLANTS:
            columns: dict[int, int] = {}
            for a, b, up in spans:
                shift = slant * up
                for x in range(a, b):
                    column = int(x - shift)
                    columns[column] = columns.get(column, 0) + 1
            score = sum(n * n for n in columns.values())
            if score > best_score:
                best, best_score = slant, score
        runs = sorted(b - a for a, b, _ in spans)
        return best, runs[len(runs) // 2] / STROKE_PIXELS

    def glyph_size(self, textpage: int, j: int, count: int, obj: int) -> float:
        """Glyph `j`'s em in points.  PDFium reports the size its text object sets (Tf) alone, but
        the text and graphics matrices scale it too ("1 Tf" under "12 0 0 12 … Tm" prints at 12 pt):
        the scale across the baseline is the glyph's.  A font whose glyph units are no fraction of an
        em (a Type 3 font of bitmaps, drawn in pixels: its letters stand six "ems" tall) has the em
        its letters' and digits' ink implies (_ink_em_factor)."""
        size = self.font_size(textpage, j)
        if self.char_matrix(textpage, j, self.matrix_ref):
            m = self.matrix
            along = math.hypot(m.a, m.b)
            across = abs(m.a * m.d - m.b * m.c) / along if along > 1e-9 else 0.0
            if across > 1e-6:
                size *= across
        handle = self.object_font(obj) or 0
        factor = self.em_factors.get(handle)
        if factor is None:
            factor = self.em_factors[handle] = _ink_em_factor(self, textpage, j, count, handle, size)
        return size * factor

    def nameless_code_char(self, code: int) -> str:
        """For a glyph of a font without a name (a Type 3 font, whose dictionary has no /BaseFont)
        that PDFium cannot map: the character the /Differences of such fonts name at its code, when
        all that name one agree ("" otherwise).  dvips' bitmap fonts name their glyphs so, in TeX's
        text layouts: code 12 is "fi", 95 a dot accent, 123 an en dash."""
        found = self.nameless.get(code)
        if found is None:
            names = {m[code] for m in pdf_font_encodings(self.path).get("", ()) if code in m} if self.path else set()
            name = names.pop() if len(names) == 1 else ""
            found = self.nameless[code] = _TEXT_GLYPH_NAMES.get(name) or glyph_name_char(name) if name else ""
        return found

    def text_layout_char(self, textobj: int, code: int) -> str:
        """For a glyph of a nameless font with no map and no telling glyph name: the character its code
        prints in the TeX text layout the font's words show it is set in ("" when they show none)."""
        votes = self.layout_votes.get(self.object_font(textobj) or 0)
        if not votes:
            return ""
        t1, ot1 = votes.get("T1", 0), votes.get("OT1", 0)
        layout = "T1" if t1 > 2 * ot1 else "OT1" if ot1 > 2 * t1 else ""
        return _TEX_TEXT_LAYOUTS[layout].get(code, "") if layout else ""

    def double_struck(self, textobj: int, code: int) -> str:
        """The double-struck letter a font's own glyph name says its glyph at `code` is ("bbE": 𝔼),
        where the text layer read the code as a Latin-1 letter; "" for any other name."""
        name = self.glyph_names(self.object_font(textobj)).get(code, "")
        if len(name) == 3 and name.startswith("bb") and name[2].isascii() and name[2].isalpha():
            letter = f"DOUBLE-STRUCK {'CAPITAL' if name[2].isupper() else 'SMALL'} {name[2].upper()}"
            try:
                return unicodedata.lookup("MATHEMATICAL " + letter)
            except KeyError:
                return unicodedata.lookup(letter)     # ℂ, ℍ, ℕ, ℙ, ℚ, ℝ, ℤ: the letterlike block's
        return ""

    def page_text(self, textpage: int, count: int) -> list[int]:
        """Every glyph's Unicode code point at once (one call), per glyph where a pair of UTF-16 units
        stands for one character."""
        units = (ctypes.c_uint16 * (count + 1))()
        written = self.get_text(textpage, 0, count, units)
        codes = list(units[:count])
        if written - 1 != count:
            codes = [self.get_unicode(textpage, j) for j in range(count)]
        return codes


# What TeX's two text layouts print at the codes a nameless bitmap font (Metafont's fonts as pdfTeX
# embeds them: Type 3, glyphs named after their codes, no ToUnicode map) gives back: OT1 (Computer
# Modern's own) sets its ligatures at 11-15 and its dashes and double quotes in ASCII's places; T1 (the
# EC fonts of `fontenc`'s T1) sets its ligatures at 27-31, its quotes at 16-18 and its dashes at 21-22.
# In OT1, 27-31 are œ, ø, Æ, Œ, Ø; in T1, 11-15 are accents and single guillemets.
_TEX_TEXT_LAYOUTS = {
    "OT1": {11: "\ufb00", 12: "\ufb01", 13: "\ufb02", 14: "\ufb03", 15: "\ufb04", 25: "ß", 26: "æ", 27: "œ",
            28: "ø", 29: "Æ", 30: "Œ", 31: "Ø", 34: "”", 92: "“", 123: "–", 124: "—"},
    "T1": {16: "“", 17: "”", 18: "„", 19: "«", 20: "»", 21: "–", 22: "—", 27: "\ufb00", 28: "\ufb01",
           29: "\ufb02", 30: "\ufb03", 31: "\ufb04"},
}
_LAYOUT_LIGATURES = {**dict.fromkeys(range(11, 16), "OT1"), **dict.fromkeys(range(27, 32), "T1")}
_ASCII_LETTERS = frozenset(range(0x41, 0x5B)) | frozenset(range(0x61, 0x7B))


def vote_text_layouts(raw: _Raw, textpage: int, codes: list[int], count: int) -> None:
    """Which TeX text layout each nameless font of the page is set in, told by its words: a code where
    one layout sets a ligature, standing in a word of the same run (two letters or more beside it,
    "de?nition", "?rst"), is a vote for that layout.  A maths font's letters stand apart, so its low
    codes (Greek) seldom meet such a word."""
    text_object = raw.text_object
    for j in range(count):
        layout = _LAYOUT_LIGATURES.get(codes[j])
        if layout is None:
            continue
        obj = text_object(textpage, j)
        # the letters beside it, and those beyond them (a letter two away counts only through the one
        # beside it)
        near = [k for k in (j - 1, j + 1) if 0 <= k < count and codes[k] in _ASCII_LETTERS
                and text_object(textpage, k) == obj]
        far = [k + (k - j) for k in near if 0 <= k + (k - j) < count and codes[k + (k - j)] in _ASCII_LETTERS
               and text_object(textpage, k + (k - j)) == obj]
        if len(near) + len(far) < 2 or raw.font(obj).name or raw.map_error(textpage, j) <= 0:
            continue
        votes = raw.layout_votes.setdefault(raw.object_font(obj) or 0, {})
        votes[layout] = votes.get(layout, 0) + 1


NAMELESS_BOLD_STROKE = 1.25  # a nameless font whose strokes are this many times as wide as the text's is bold


def measure_nameless_fonts(raw: _Raw, textpage: int, codes: list[int], count: int) -> None:
    """Gather what tells the faces of the page's nameless fonts apart (a Type 3 font of bitmaps has no
    name, no flags and no weight): each one's size, how many small letters it sets, and how its first
    run of four of them is drawn (strokes_of)."""
    text_object, letters = raw.text_object, raw.nameless_letters
    last_obj, seen = None, None
    for j in range(count):
        if not 0x61 <= codes[j] <= 0x7A:
            continue
        obj = text_object(textpage, j)
        if obj != last_obj:
            last_obj, seen = obj, None
            handle = raw.object_font(obj) if obj else None
            if handle and raw.font_name(handle, raw.buf, 512) <= 1:
                seen = letters.get(handle)
                if seen is None:
                    seen = letters[handle] = [raw.glyph_size(textpage, j, count, obj), 0]
        if seen is None or seen[0] <= 0:
            continue
        if handle not in raw.nameless_strokes and j + 3 < count and all(0x61 <= codes[k] <= 0x7A for k in range(j, j + 4)) \
                and text_object(textpage, j + 3) == obj:
            # (a PDF may give each page a font object of its own for one font: the same letters at the
            # same size and advances are drawn the same, and drawn once)
            advances = []
            for k in range(j, j + 4):
                raw.loose_box(textpage, k, raw.rect_ref)
                advances.append(round(raw.rect.right - raw.rect.left, 2))
            key = (round(seen[0], 2), tuple(codes[j:j + 4]), tuple(advances))
            if key not in raw.drawn_runs:
                raw.drawn_runs[key] = raw.strokes_of(obj, textpage, j, seen[0])
            raw.nameless_strokes[handle] = raw.drawn_runs[key]
        seen[1] += 1


def weigh_nameless_fonts(raw: _Raw) -> None:
    """The faces of the nameless fonts measure_nameless_fonts measured.  One whose strokes lean
    (ITALIC_SLANT) is italic.  The text is the upright nameless font that sets the most small letters,
    and one set at its size or larger whose strokes are NAMELESS_BOLD_STROKE times as wide as the
    text's is bold (a head is never set smaller than the text; a family of another design is drawn
    with strokes much like the text's, a bold cut's are half as wide again)."""
    letters, strokes = raw.nameless_letters, raw.nameless_strokes
    for handle, drawn in strokes.items():
        if drawn is not None and drawn[0] >= ITALIC_SLANT:
            raw.font_of(handle).italic = True
    upright = [(n, size, strokes[h][1]) for h, (size, n) in letters.items()
               if strokes.get(h) is not None and not raw.font_of(h).italic]
    if not upright:
        return
    _, body_size, body_stroke = max(upright)
    for handle, (size, _) in letters.items():
        font, drawn = raw.font_of(handle), strokes.get(handle)
        if not font.name:
            font.bold = drawn is not None and size >= body_size * 0.95 and body_stroke > 0 and \
                drawn[1] >= body_stroke * NAMELESS_BOLD_STROKE


# A nameless font whose /Differences names TeX's maths italic's glyphs: its layout (OML) sets the full
# stop and the comma at 58 and 59, where every text layout sets the colon and the semicolon, and names
# Greek small letters where no text layout of the Latin alphabet does.
_MATHS_ITALIC_PLACES = {58: "period", 59: "comma"}
NAMELESS_WIDTH_FIT = 0.01   # a glyph's advance as its dictionary's width gives it: within rounding
_TEXT_LIGATURE_NAMES = frozenset({"ff", "fi", "fl", "ffi", "ffl"})


def _named_italic(names: dict[int, str]) -> bool:
    """Whether a font's glyph names are those of a maths italic (TeX's OML layout)."""
    if any(names.get(code) == name for code, name in _MATHS_ITALIC_PLACES.items()):
        return True
    if _TEXT_LIGATURE_NAMES & set(names.values()):
        return False
    return any(len(n) > 1 and n[:1].islower() and "\u03b1" <= glyph_name_char(n) <= "\u03c9" for n in names.values())


def gather_nameless_glyphs(raw: _Raw, textpage: int, codes: list[int], count: int) -> None:
    """What each nameless font of the page prints, as the text layer reports it (a character its glyph
    name gave, or the code where the name meant nothing to PDFium), each with the advances it was seen
    to take, in ems of the size its text object sets (for nameless_dictionaries).  An advance is the
    step from a glyph's origin to the next one's in the same text object: PDFium's boxes of a Type 3
    glyph are its drawing's, no advance (an "l" of a bitmap font stands half as wide again)."""
    text_object, printed, origin = raw.text_object, raw.nameless_printed, raw.origin
    dx, dy = raw.dx, raw.dy
    last_obj, seen, here = None, None, None
    for j in range(count):
        obj = text_object(textpage, j)
        if not obj or raw.generated(textpage, j) or codes[j] >= 0xD800:
            last_obj, seen, here = None, None, None
            continue
        if obj != last_obj:
            last_obj, seen, here = obj, None, None
            handle = raw.object_font(obj)
            if handle and raw.font_name(handle, raw.buf, 512) <= 1:
                seen = printed.setdefault(handle, {})
        if seen is None:
            continue
        origin(textpage, j, dx, dy)
        at = (dx.value, dy.value)
        if here is not None:
            # (the previous glyph's advance: from its origin to this one's, in ems of its size)
            key, size, x, y = here
            seen[key].append(round(math.hypot(at[0] - x, at[1] - y) / size, 4))
        # (PDFium gives a control code back as it is, without calling it unmapped)
        key = (codes[j] < 0x20 or raw.map_error(textpage, j) > 0, codes[j])
        size = raw.font_size(textpage, j)
        if raw.char_matrix(textpage, j, raw.matrix_ref):
            size *= math.hypot(raw.matrix.a, raw.matrix.b)
        if key not in seen and size > 1e-9:
            # (a glyph alone in its text object, as Skia sets each glyph of a web page's maths, shows
            # no step: its box stands for its advance, which a drawing of outlines fills)
            raw.loose_box(textpage, j, raw.rect_ref)
            seen[key] = [-round((raw.rect.right - raw.rect.left) / size, 4)]
        here = (key, size, at[0], at[1]) if size > 1e-9 and key in seen else None


def _widths_fit(info: NamelessFont, codes: list[int | None], advances: list[float]) -> bool:
    """Whether a dictionary's widths fit the advances its glyphs were seen to take (0 where none was
    seen): most of them as its /FontMatrix makes them ems, or without a matrix in one proportion."""
    scales = [seen / (info.widths[code] * (info.scale or 1.0)) for code, seen in zip(codes, advances)
              if code is not None and info.widths.get(code, 0) > 0 and seen > 0]
    usual = 1.0 if info.scale else _usual_advance([round(x, 3) for x in scales])
    return not scales or sum(1 for x in scales if abs(x - usual) <= usual * NAMELESS_WIDTH_FIT) * 3 >= len(scales) * 2


def _usual_advance(steps: list[float]) -> float:
    """A glyph's advance among the steps seen after it: the most common (a kern or a space between
    two glyphs of one text object makes a step longer or shorter now and then); its box's width
    (kept negated, first) where no step was seen."""
    stepped = [x for x in steps if x >= 0]
    if stepped:
        return Counter(stepped).most_common(1)[0][0]
    return -steps[0] if steps else 0.0


def nameless_dictionaries(raw: _Raw) -> None:
    """Each nameless font's own dictionary, found among the file's nameless (Type 3) font dictionaries as
    the ones that map or name everything it prints, at advances in the proportions their /Widths give
    (a Type 3 font has no /BaseFont, so PDFium's name cannot tell its dictionary from the others'; what
    it prints can: a maths italic and the text's roman print the same letters, at other widths).  Where
    those agree, the font reads its glyphs by their names, and takes the name their descriptors give
    (Skia names a web font so: "MathJax_Math-Italic"), else a role its glyph names say (maths_role,
    _named_italic: a DVI route's bitmap fonts keep TeX's names, "summationdisplay", "element",
    "alpha"): calligraphic capitals in a symbol font, variables in a maths italic."""
    maps = pdf_font_encodings(raw.path).get("", ()) if raw.path else ()
    if not maps:
        return
    infos = pdf_nameless_fonts(raw.path)
    infos = infos if len(infos) == len(maps) else (NamelessFont({}, {}, ""),) * len(maps)
    codes_of = [{} for _ in maps]          # per dictionary: a character it prints -> its code
    for m, info, found in zip(maps, infos, codes_of):
        if info.unicode:
            for code, text in info.unicode.items():
                found.setdefault(text, code)
        else:
            for code, name in m.items():
                found.setdefault(glyph_name_char(name) or name, code)
    # (a character PDFium read from a glyph name that none of the names here spell, "braceleft" read
    # by the Adobe list, is left out of the count rather than held against one dictionary)
    spelled = set().union(*codes_of)
    for handle, printed in raw.nameless_printed.items():
        if handle in raw.dictionaries or not printed:
            continue
        stepped = [_usual_advance(steps) if any(x >= 0 for x in steps) else 0.0 for steps in printed.values()]
        boxed = [-steps[0] if steps and steps[0] < 0 else 0.0 for steps in printed.values()]
        holding, fitting, narrowed = [], [], []
        for m, info, found in zip(maps, infos, codes_of):
            codes = [code if unnamed else found.get(chr(code), -1) if chr(code) in spelled else None
                     for unnamed, code in printed]
            if any(code is not None and code not in m and code not in info.unicode for code in codes):
                continue
            holding.append((m, info))
            if _widths_fit(info, codes, stepped):
                fitting.append((m, info))
            if not any(stepped) and _widths_fit(info, codes, boxed):
                narrowed.append((m, info))
        # (the steps between glyphs are their advances; a glyph alone in its text object, as Skia sets
        # a web page's maths, shows none, and its box, which is a bitmap's extent in a bitmap font and
        # no advance, may only narrow the choice)
        fitting = fitting if any(stepped) else narrowed or holding
        if not fitting:
            continue
        first = fitting[0][0]
        raw.dictionaries[handle] = {code: name for code, name in first.items()
                                    if all(m.get(code) == name for m, _ in fitting[1:])}
        names = {info.name for _, info in fitting}
        roles = {("italic" if _named_italic(m) else maths_role(m.values())) for m, _ in fitting}
        if len(names) == 1 and (name := names.pop()):
            raw.fonts[handle] = describe_font(name, raw.font_flags(handle), 400)
        elif len(roles) == 1 and (role := roles.pop()):
            raw.fonts[handle] = describe_font(" (MathItalic)" if role == "italic" else MATHS_ROLE_SUFFIX[role],
                                              0, 400)


# A glyph's ink height as a share of its font's em, for the letters whose height varies least from
# face to face (Computer Modern, Times, Palatino, Helvetica, Concrete: within a twentieth of these):
# the digits (lining), the flat-topped and flat-footed capitals, the ascending small letters.
_EM_SHARES = {**dict.fromkeys("0123456789", 0.67), **dict.fromkeys("BDEFHIKLMNPRTUZ", 0.69),
              **dict.fromkeys("bdhkl", 0.70)}
INK_EM_OFF = 1.6      # a font whose letters' ink says an em this many times larger or smaller than the
                      # size it is set at is measured in other units than ems (no face's letters are)
INK_EM_SAMPLES = 200  # glyphs of the font looked at, at most
TEX_SIZES = tuple(pt * 72 / 72.27 for pt in (5, 6, 7, 8, 9, 10, 10.95, 12, 14.4, 17.28, 20.74, 24.88))
TEX_SIZE_NEAR = 0.04  # of the estimate: how far off an ink estimate is (faces' heights differ that much)


def _ink_em_factor(raw: _Raw, textpage: int, j: int, count: int, handle: int, size: float) -> float:
    """For the font of glyph `j` (set at `size` points), when it is a Type 3 font (no name: its
    dictionary has no /BaseFont): its em over `size` by its letters' ink on this page from `j` on
    (the median of each height over its share of an em, _EM_SHARES), where the two disagree past
    INK_EM_OFF; else 1.  A Type 3 font draws its glyphs itself, in units its /FontMatrix sets: a
    pixel of the resolution dvips' bitmaps were made at, or a thousandth of an em (matplotlib's); a
    named font's units are its em's, and its ink boxes are not always its outlines' (so left alone)."""
    if size <= 0 or raw.font_name(handle, raw.buf, 512) > 1:
        return 1.0      # (a font PDFium names; a nameless one keeps this measure once the names of its
                        # dictionary have given it a name of ours, nameless_dictionaries)
    il, ir, ib, it = raw.ink
    estimates = []
    looked = 0
    own = raw.dictionaries.get(handle) or {}
    for k in range(j, count):
        obj = raw.text_object(textpage, k)
        if obj is None or (raw.object_font(obj) or 0) != handle:
            continue
        u = raw.get_unicode(textpage, k)
        share = _EM_SHARES.get(chr(u))
        if share is None or glyph_name_char(own.get(u, "")) not in ("", chr(u)):
            continue      # (a code its font's own names give another glyph: an extension font's "X", its sum)
        raw.ink_box(textpage, k, *raw.ink_refs)
        if it.value - ib.value > 0 and abs(raw.char_angle(textpage, k)) < 0.01:
            estimates.append((it.value - ib.value) / share)
        looked += 1
        if looked >= INK_EM_SAMPLES:
            break
    if not estimates:
        return 1.0
    em = sorted(estimates)[len(estimates) // 2]
    if size / INK_EM_OFF <= em <= size * INK_EM_OFF:
        return 1.0
    # bitmap fonts are TeX's (Metafont's, through dvips): a size of its scale within the estimate's
    # error is the size (the text's and the maths' fonts then agree, as they do in the book)
    near = min(TEX_SIZES, key=lambda t: abs(t - em))
    return (near if abs(near - em) <= em * TEX_SIZE_NEAR else em) / size


# A text font's glyph names that glyph_name_char leaves (ligatures, letters and punctuation of TeX's
# text layouts)
_TEXT_GLYPH_NAMES = {"ff": "\ufb00", "fi": "\ufb01", "fl": "\ufb02", "ffi": "\ufb03", "ffl": "\ufb04",
                     "germandbls": "ß", "ae": "æ", "oe": "œ", "oslash": "ø", "AE": "Æ", "OE": "Œ", "Oslash": "Ø",
                     "dotlessj": "ȷ", "quoteleft": "‘", "quotedblleft": "“", "quotedblright": "”",
                     "endash": "–", "emdash": "—", "exclamdown": "¡", "questiondown": "¿"}

HEAVIER_CUT = 125      # a text face this much heavier (PDF weight) than a cut of its family is its bold

TALL_LOOSE_BOX = 1.75    # em: a glyph's box from its font's ascent and descent is taller than this only
                         # where the font's metrics are outsized (no text face's reach that far; Asana
                         # Math's are 1.87 em, Cambria Math's and GFS Neohellenic Math's 3.5)


def _stands_on(font, u: int, top: float, bottom: float, baseline: float, size: float) -> float:
    """The baseline a run's first glyph belongs to: its own, except for glyphs TeX hangs from their origin."""
    # TeX hangs an extension-font glyph (big operator, tall delimiter) from its origin and centres
    # it on the math axis, a quarter em above the baseline of the formula it belongs to
    if font.encoding == "OMX" or _EXTENSION_NAME.search(font.name):
        return (top + bottom) / 2 + size * 0.25
    # A radical sign of the symbol font hangs from its origin too; it reaches a little below the
    # baseline of what it covers.
    if u == 0x221A and font.encoding == "OMS" and bottom - top > size * 1.2:
        return bottom - size * 0.2
    # so does an OpenType maths font's (its glyphs hang from an origin by the rule): a radical
    # reaching more than half an em below its origin stands on the baseline near its foot
    if u == 0x221A and bottom - baseline > size * 0.5:
        return bottom - size * 0.2
    return baseline


def _page_spans(raw: _Raw, textpage: int, height: float, overprinted: frozenset = frozenset()
                ) -> tuple[list[list[Span]], float]:
    """The page's glyph runs grouped into words; and the share of runs that go sideways (rotation)."""
    count = raw.count_chars(textpage)
    if count <= 0:
        return [], 0.0
    codes = raw.page_text(textpage, count)
    vote_text_layouts(raw, textpage, codes, count)
    rect, rect_ref = raw.rect, raw.rect_ref
    text_object, loose_box, ink_box = raw.text_object, raw.loose_box, raw.ink_box
    il, ir, ib, it = raw.ink
    rl, rr, rb, rt = raw.ink_refs
    words: list[list[Span]] = []
    current: list[Span] = []
    span_chars: list[str] = []
    span_boxes: list[float] = []
    span = None
    font = None
    last_obj = repairs_obj = None
    repairs: dict = {}
    sideways = runs = 0
    turned = upside = False
    baseline = size = 0.0
    pending_break = False
    line_end = False         # a line end PDFium put in stands before this glyph (told by geometry)
    low_half_read = False     # a surrogate pair's first half was read as the whole character
    spelled = 0               # characters left of a glyph whose map spells several (_spelled_glyph)
    spelled_of, spelled_firsts = None, set()
    for j in range(count):
        u = codes[j]
        if low_half_read:
            low_half_read = False
            continue
        if spelled:
            spelled -= 1
            continue
        omx_space = False
        forced = None
        if u in (0x20, 0xA0, 0x0D, 0x0A, 0x09):
            # a space (printed or inserted by PDFium) or a line end: the word ends; but codes 9, 10, 13
            # and 32 of TeX's maths fonts are glyphs (a tall "}", "(" …) that a layer without their
            # names reports as white space
            # and codes 9, 10, 13 and 32 of another maths font that has no Unicode for them (the big "(" of
            # newtx's and newpx's extension font, kpfonts' "‖") are its glyphs, read by their names
            obj = text_object(textpage, j)
            generated = obj is not None and raw.generated(textpage, j) == 1
            if generated and u == 0x20 and raw.font(obj).encoding == "OMX":
                # PDFium may drop an extension font's code 32 (TeX's tallest "(") as white space and put a
                # space of its own at the glyph's origin: the glyph's box is what its text object covers there
                forced = _dropped_glyph_box(raw, textpage, j, count, obj, height)
                if forced is not None:
                    omx_space = True
            if obj is None or (generated and forced is None):
                if u in (0x0D, 0x0A) and raw.generated(textpage, j) == 1:
                    # a line end PDFium put in: it ends the word unless the next glyph goes on along
                    # the same baseline, touching (PDFium ends a "line" where text objects interleave:
                    # an equation number's "1" from a small-caps font between "(" and ".56)" of roman)
                    line_end = True
                else:
                    pending_break = True
                continue
            maths = raw.font(obj)
            if not maths.name and u in (0x0D, 0x0A, 0x09) and raw.map_error(textpage, j) > 0 \
                    and raw.text_layout_char(obj, u):
                pass     # a nameless font's low code (OT1's "fl" is 13): a glyph, read with the others below
            else:
                if u == 0xA0 and maths.plain:
                    glyph = False        # a no-break space of a text face (a maths font's code 160 may be ⌈)
                elif maths.encoding in ("OMX", "OMS", "OML"):
                    glyph = u == 0x20 and maths.encoding == "OMX" or raw.map_error(textpage, j) > 0
                else:
                    # (or whose own encoding names a glyph there: mathdesign's ⌈ is its code 160)
                    # (or whose map gives white space for a glyph its name tells: pdf_unicode_repairs)
                    glyph = not maths.plain and (raw.map_error(textpage, j) > 0 or bool(raw.code_name_char(obj, u))
                                                 or u in raw.unicode_repairs(obj))
                if not glyph:
                    pending_break = True
                    continue
                omx_space = True
        obj = obj if omx_space else text_object(textpage, j)
        if obj is None:
            pending_break = True
            continue
        hyphen = u == 0x02         # PDFium's code for a hyphen that ends a line: printed "-", then the line ends
        if hyphen:
            u = 0x2D
        loose_box(textpage, j, rect_ref)
        x0, x1, top, bottom = forced or (rect.left, rect.right, height - rect.top, height - rect.bottom)
        if bottom - top > height:
            # a glyph stretched by its matrix past the page's own height (a browser scales a delimiter's
            # extender hundreds of times across and clips it): PDFium cannot place what it draws, and its
            # box would swallow the glyphs beside it
            pending_break = True
            continue
        glyph_size = size if obj == last_obj else raw.glyph_size(textpage, j, count, obj)   # one size per text object
        if line_end:
            line_end = False
            raw.origin(textpage, j, raw.dx, raw.dy)
            if not _goes_on(span, x0, height - raw.dy.value, glyph_size, raw.font(obj)):
                pending_break = True
        if obj != repairs_obj:
            repairs_obj, repairs = obj, raw.unicode_repairs(obj)
            if repairs is not spelled_of:      # (one dict per font: its spelled texts' first letters)
                spelled_of, spelled_firsts = repairs, {ord(k[0]) for k in repairs if type(k) is str}
        repaired = False
        if hyphen and 0x02 in repairs and not raw.font(obj).plain:
            hyphen, u = False, 0x02    # (a maths font's map gives U+0002 for a glyph its name tells)
        if u in spelled_firsts and (whole := _spelled_glyph(raw, textpage, j, codes, repairs)) is not None:
            # one glyph whose map spells a ligature's letters where its layout has one character
            ink_box(textpage, j, rl, rr, rb, rt)
            meant = repaired_code(repairs[whole], (x1 - x0) / glyph_size * 1000 if glyph_size > 0 else 0.0,
                                  (ir.value - il.value) / glyph_size * 1000 if glyph_size > 0 else 0.0)
            if meant is not None:
                repaired, u, spelled = True, meant, len(whole) - 1
        elif repairs and u in repairs and glyph_size > 0:
            # a ToUnicode map that contradicts the glyph's own name (a re-written PDF's): the name's
            ink_box(textpage, j, rl, rr, rb, rt)
            outlined = None
            if len(repairs[u]) > 1 and (outline := raw.outline_box(obj, u)) is not None:
                raw.origin(textpage, j, raw.dx, raw.dy)
                ink = ((il.value - raw.dx.value) / glyph_size, (ir.value - raw.dx.value) / glyph_size,
                       (ib.value - raw.dy.value) / glyph_size, (it.value - raw.dy.value) / glyph_size)
                outlined = (outline[0], all(abs(a - b) <= OUTLINE_MATCH for a, b in zip(ink, outline[1])))
            meant = repaired_code(repairs[u], (x1 - x0) / glyph_size * 1000, (ir.value - il.value) / glyph_size * 1000,
                                  outlined)
            repaired, u = meant is not None, meant or u
        if bottom - top > TALL_LOOSE_BOX * glyph_size:
            # a font with an outsized ascent (GFS Neohellenic Math's 3.5 em, Cambria Math's, Asana Math's) gives
            # every glyph a box that tall: where it exceeds the ink by more than an em, the ink is the
            # glyph's box (a line stands where its letters do)
            ink_box(textpage, j, rl, rr, rb, rt)
            ink_top, ink_bottom = height - it.value, height - ib.value
            if ink_bottom - ink_top > 0.01 and (bottom - top) - (ink_bottom - ink_top) > glyph_size:
                top, bottom = ink_top, ink_bottom
        # one text object may jump back a long way (a DVI route writes a left equation number after
        # its formula): that starts a run of its own, as another object would
        # (a run turned upside down advances leftwards: its glyphs step back by design)
        back = span is not None and obj == last_obj and x0 < span.x1 - size * BACK_JUMP and not upside \
            and not 0xDC00 <= u <= 0xDFFF
        if obj != last_obj or span is None or pending_break or back:
            if span is not None:
                span.text = "".join(span_chars)
                span.boxes = array("f", span_boxes)
            if obj != last_obj or back:
                font = raw.font(obj)
                if font.plain and not font.encoding and u < 0x100 and raw.map_error(textpage, j) > 0 \
                        and raw.dictionary_names(obj, u) is not None:
                    font = raw.font(obj)       # (a maths font's dictionary under a text face's name)
                raw.origin(textpage, j, raw.dx, raw.dy)
                baseline = height - raw.dy.value
                size = glyph_size
                angle = raw.char_angle(textpage, j)
                turned = 0.3 < (angle % math.pi) < math.pi - 0.3
                upside = abs(angle - math.pi) < 0.3
                runs += 1
                if turned:
                    sideways += 1
            if pending_break or not current or ((obj != last_obj or back)
                                                and _starts_new_word(current[-1], x0, baseline, size)):
                if current:
                    words.append(current)
                current = []
            extension = font.encoding == "OMX" or bool(_EXTENSION_NAME.search(font.name))
            if extension:
                # a DVI route's text layer gives an extension glyph the font's whole bounding box (3 to 4
                # em, whatever the glyph): where the box exceeds the ink by more than an em, the ink is
                # the glyph's box (a wide accent sits on its own baseline, not in the middle of that box)
                ink_box(textpage, j, rl, rr, rb, rt)
                ink_top, ink_bottom = height - it.value, height - ib.value
                if ink_bottom - ink_top > 0.01 and (bottom - top) - (ink_bottom - ink_top) > size:
                    top, bottom = ink_top, ink_bottom
            stands = _stands_on(font, u, top, bottom, baseline, size)
            if stands != baseline and extension and font.encoding != "OMX" and \
                    not 0x2300 <= u <= 0x23FF and chr(u) not in "()[]{}|‖⟨⟩/\\":
                # an ordinary symbol an extension font holds (Euler's ∞; its delimiters' and braces'
                # pieces aside): its ink on its own baseline, where a hung one's reaches far below
                ink_box(textpage, j, rl, rr, rb, rt)
                ink_top, ink_bottom = height - it.value, height - ib.value
                if ink_bottom - ink_top > 0.01 and ink_bottom <= baseline + size * 0.3:
                    stands, top, bottom = baseline, ink_top, ink_bottom
            span = Span("", x0, x1, top, bottom, stands, size, font)
            if obj in overprinted:
                span.overprinted = True
            span_chars = []
            span_boxes = []
            current.append(span)
            last_obj = obj
            pending_break = False
        else:
            if x1 > span.x1:
                span.x1 = x1
            if top < span.top:
                span.top = top
            if bottom > span.bottom:
                span.bottom = bottom
        if hyphen and (font.encoding == "OMX" or not font.plain):
            hyphen, u = False, 0x02   # code 2 of a maths font is a glyph (TeX's big "["), not a line-end hyphen
        if omx_space:
            ch = code_char(u, font.encoding) if font.encoding else chr(u) if repaired else raw.code_name_char(obj, u)
        elif not font.encoding and _named_layout(font.name) == "extension" and (0x20 < u < 0x7F or u in _DVIPS_LOW) and (
                font.name in raw.coded or chr(u).isalnum() or u in _DVIPS_LOW) and not raw.code_name_char(obj, u):
            # an extension font without glyph names whose map gives its codes back (a DVI route's fonts
            # re-encoded by Ghostscript: "P", "X" for the sums, 161… for codes under 32; no extension
            # font prints a letter): from then on its codes, read in TeX's extension layout
            raw.coded.add(font.name)
            ch = code_char(_DVIPS_LOW.get(u, u), "OMX")
        elif not font.encoding and _named_layout(font.name) == "symbols" and chr(u).isascii() and chr(u).islower() \
                and not raw.code_name_char(obj, u):
            # a maths symbol font whose map gives its codes back: TeX's symbol layout has no small
            # letters (its "k" is ‖, its "j" |)
            ch = code_char(u, "OMS")
        elif u < 0x100 and (font.encoding or not font.plain) and (u < 0x20 or raw.map_error(textpage, j) > 0):
            # no Unicode for it: PDFium reports the code.  A TeX maths font's code reads through the
            # encoding its name implies (the PDF re-encodes it so); another font's through the glyph
            # names of its embedded program's own encoding (which such fonts print with)
            if font.encoding in ("OML", "OMS", "OMX"):
                ch = code_char(u, font.encoding)
            else:
                named = raw.code_name_char(obj, u)
                ch = named if named else repair_char(chr(u), font.encoding) if u >= 0x20 else ""
        elif u < 0x20 and raw.map_error(textpage, j) > 0 and (named := raw.code_name_char(obj, u) or "").isalpha():
            # a letter at a low code of a face read as text (Euler's bold upright ϵ, EURB10's code 15:
            # TeX's maths letters' layout), by its glyph name
            ch = named
        elif not font.name and u < 0x100 and raw.map_error(textpage, j) > 0 and (
                raw.code_name_char(obj, u) or raw.nameless_code_char(u) or u < 0x20 or raw.text_layout_char(obj, u)):
            # a Type 3 font's glyph, by its name in its own dictionary where that is known
            # (nameless_dictionaries), else where every nameless font's names agree (dvips' bitmap fonts),
            # else by the text layout its words show (pdfTeX's bitmap fonts name their glyphs after codes)
            ch = raw.code_name_char(obj, u) or raw.nameless_code_char(u) or raw.text_layout_char(obj, u)
        elif 0xC0 <= u < 0x100 and (named := raw.double_struck(obj, u)):
            ch = named       # newtx's blackboard letters, named "bbE", read as Latin-1's Å by their code
        elif STIX_SCRIPT_CAPITALS <= u < STIX_SCRIPT_CAPITALS + 26 and "STIX" in font.name.upper():
            ch = chr(ord("A") + u - STIX_SCRIPT_CAPITALS)   # a STIX font's calligraphic capitals, in its own codes
        elif 0xDB80 <= u <= 0xDBFF and j + 1 < count and 0xDC00 <= codes[j + 1] <= 0xDFFF and not font.encoding \
                and not font.plain and (variant := raw.supplementary_private_char(
                    obj, textpage, j, 0x10000 + ((u - 0xD800) << 10) + codes[j + 1] - 0xDC00, glyph_size)):
            # the first half of a character of the supplementary private-use planes (high halves from
            # 0xDB80): an OpenType maths font's size variant, read by its drawn glyph; its second half
            # is skipped
            ch, low_half_read = variant, True
        elif u > 0xFFFF:
            # (a character the text layer would give as a surrogate pair, as PDFium does: one box)
            ch = chr(0xD800 + ((u - 0x10000) >> 10)) + chr(0xDC00 + ((u - 0x10000) & 0x3FF))
        elif 0xE000 <= u < 0xF8EB and u not in _AGL_PRIVATE and not font.encoding and not font.plain \
                and (variant := raw.private_use_char(obj, u)):
            ch = variant     # an OpenType maths font's size variant, read by its outline (private_use_char)
        elif u == 0xFFFD and not font.encoding and not font.plain and \
                (variant := raw.unmapped_maths_char(obj, textpage, j, glyph_size)):
            ch = variant     # a size variant the font's map leaves out, read by its drawing (unmapped_maths_char)
        elif 0x20 <= u < 0xF8EB and font.encoding not in ("OML", "OMS", "OMX"):
            ch = _AGL_PRIVATE.get(u) or (_AGL_PARENS.get(u) if not font.plain else None) or chr(u)
            if u < 0x80 and not ch.isalnum() and not ch.isspace() and _TX_SYMBOLS.match(font.name):
                ch = raw.code_given_back(obj, u) or ch
        else:
            ch = repair_char(chr(u), font.encoding)
        if ch in _AGL_PHI_READ and ch == chr(u) and raw.path and \
                _SUBSET_PREFIX.sub("", font.name) in pdf_fonts_read_by_names(raw.path):
            ch = _AGL_PHI_READ[ch]   # a phi PDFium read by its glyph name alone (_AGL_PHI_READ)
        if ch and "\ufe00" <= ch <= "\ufe0f":
            ch = ""                # a variation selector a ToUnicode map appends: no glyph of its own
        if ch:
            span_chars.append(ch)
            if not 0xDC00 <= u <= 0xDFFF:   # the second half of a surrogate pair shares the first's box
                ink_box(textpage, j, rl, rr, rb, rt)
                span_boxes += (x0, x1, top, bottom, x0, x1) if forced else \
                    (x0, x1, height - it.value, height - ib.value, il.value, ir.value)
                if omx_space and not forced:
                    for k in range(_collapsed_repeats(raw, textpage, j, count, obj, x1 - x0)):
                        # the same glyph again, one advance further each time
                        step = (k + 1) * (x1 - x0)
                        span_chars.append(ch)
                        span_boxes += (x0 + step, x1 + step, height - it.value, height - ib.value,
                                       il.value + step, ir.value + step)
                        span.x1 = max(span.x1, x1 + step)
        if hyphen:
            pending_break = True
    if span is not None:
        span.text = "".join(span_chars)
        span.boxes = array("f", span_boxes)
    if current:
        words.append(current)
    return words, sideways / max(runs, 1)


def _spelled_glyph(raw: _Raw, textpage: int, j: int, codes: list[int], repairs: dict) -> str | None:
    """The text keyed in a font's repairs (_layout_repairs) that glyph `j` and the characters after
    it spell, all at the glyph's one origin (PDFium gives each character of a code's several the
    glyph's box; a ligature set as letters steps on), or None.  The longest first: "ffi" spells
    one glyph where "ff" would leave its "i"."""
    for text in sorted((k for k in repairs if type(k) is str), key=len, reverse=True):
        if ord(text[0]) == codes[j] and j + len(text) <= len(codes) and \
                all(ord(ch) == codes[j + k] for k, ch in enumerate(text)):
            raw.origin(textpage, j, raw.dx, raw.dy)
            x, y = raw.dx.value, raw.dy.value
            if all(raw.origin(textpage, j + k, raw.dx, raw.dy) and abs(raw.dx.value - x) < 0.01
                   and abs(raw.dy.value - y) < 0.01 for k in range(1, len(text))):
                return text
    return None


def _dropped_glyph_box(raw: _Raw, textpage: int, j: int, count: int, obj: int, height: float):
    """The box of an extension font's glyph at the space's code that PDFium left out, a space of its
    own standing at the glyph's origin (x0, x1, top, bottom), or None: from the origin to the next
    glyph of its text object (or the object's right edge, when ink of the object lies there that no
    glyph before it covers), as tall as the object."""
    raw.origin(textpage, j, raw.dx, raw.dy)
    origin = raw.dx.value
    if not raw.object_bounds(obj, ctypes.byref(raw.fl), ctypes.byref(raw.fb), ctypes.byref(raw.fr), ctypes.byref(raw.ft)):
        return None
    left, right, top, bottom = raw.fl.value, raw.fr.value, height - raw.ft.value, height - raw.fb.value
    size = raw.glyph_size(textpage, j, count, obj)
    following = next((k for k in range(j + 1, min(count, j + 4)) if raw.text_object(textpage, k) == obj
                      and raw.generated(textpage, k) != 1), None)
    if following is not None:
        raw.origin(textpage, following, raw.dx, raw.dy)
        end = raw.dx.value
    else:
        end = right
        if j > 0 and raw.text_object(textpage, j - 1) == obj:
            raw.ink_box(textpage, j - 1, *raw.ink_refs)
            if right - raw.ink[1].value < size * 0.2:
                return None      # the object's ink ends with the glyph before: nothing was left out
    if not left - 1 <= origin < end - size * 0.2:
        return None
    return origin, end, top, bottom


def _collapsed_repeats(raw: _Raw, textpage: int, j: int, count: int, obj: int, advance: float) -> int:
    """How many more copies of glyph `j`, a maths font's glyph at the space's code (TeX's largest
    "(" is code 32 of its extension font), end its text object unseen: PDFium's text layer keeps one
    of a run of spaces, so `\\left(\\begin{pmatrix}` showed one "(".  The object's own bounds say
    how far its ink reaches past the glyph's."""
    k = j + 1
    while k < count and raw.generated(textpage, k) == 1:
        k += 1
    if k < count and raw.text_object(textpage, k) == obj or advance <= 0:
        return 0
    il, ir, ib, it = raw.ink
    if not raw.object_bounds(obj, raw.fl, raw.fb, raw.fr, raw.ft):
        return 0
    # (an object inside a form reports its bounds in the form's space: then they do not start at the glyph)
    if abs(raw.fl.value - il.value) > 0.5 or raw.fb.value > ib.value + 0.5 or raw.ft.value < it.value - 0.5:
        return 0
    return max(0, round((raw.fr.value - ir.value) / advance))


BACK_JUMP = 1.0   # em: a glyph this far left of its text object's run so far starts a new run (kerns and
                  # accents step back less)


WORD_GAP = 0.12     # em: a gap between glyph runs wider than this is a word space


def _starts_new_word(previous: Span, x0: float, baseline: float, size: float) -> bool:
    """A new glyph run starts a new word when a gap precedes it, when it goes back to the left, or
    when its baseline is a line away; a sub- or superscript touching the run before it does not."""
    gap = x0 - previous.x1
    if gap > min(size, previous.size) * WORD_GAP or gap < -max(size, previous.size) * 0.3:
        return True
    return abs(baseline - previous.baseline) > max(size, previous.size) * 0.8


GOES_ON = 0.05      # em: a glyph goes on along a run when its baseline and size are the run's within this


def _goes_on(previous: Span | None, x0: float, baseline: float, size: float, font: Font) -> bool:
    """Whether a glyph continues the run before it across a line end PDFium put in: both upright text
    faces, on one baseline, at one size, touching (a raised or smaller glyph after it, a side note's
    mark, is not; nor is maths, whose glyphs of other fonts PDFium sets apart so: a radical and its
    radicand, a brace and a letter, each read as a glyph of its own)."""
    if previous is None or not (previous.font.plain and font.plain) or previous.font.italic or font.italic:
        return False
    em = previous.size
    return abs(baseline - previous.baseline) <= em * GOES_ON and abs(size - em) <= em * GOES_ON \
        and -em * GOES_ON <= x0 - previous.x1 <= em * WORD_GAP


def _words(spans_by_word: list[list[Span]]) -> list[Word]:
    out = []
    for spans in spans_by_word:
        kept = []
        for s in spans:
            text = s.text if s.text.isascii() else plain_text(s.text)
            if text.strip():
                if text != s.text:
                    s.raw = _joined_pairs(s.text)
                elif s.font.plain and len(text) > 1 and (len(text) > 3 or text.isalpha()) and "..." not in text:
                    # a word of a text face: formulas need no glyph boxes for it (but an ellipsis glyph,
                    # which the text layer gives as three periods, is told by the box they share)
                    s.boxes = None
                s.text = text
                kept.append(s)
        if kept:
            out.append(_word_from_spans(kept))
    return out


def _overprinted(raw: _Raw, page_handle) -> frozenset:
    """Text objects printed again in the same font a fraction of a point away: TeX's poor man's bold
    (\\pmb, and \\bm for a font with no bold), which PDFium's text layer folds into one glyph."""
    c = raw.c
    l, b, r, t = raw.fl, raw.fb, raw.fr, raw.ft
    # Objects of one font and box size, filed by the cell of an OVERPRINT-sized grid their corner falls
    # in: a copy within OVERPRINT of an object lies in its cell or one of the eight around it, so each
    # object is compared with the few its neighbourhood holds, not with every object of its size on the
    # page (a page of single-glyph objects made that quadratic)
    cells: dict[tuple, list] = {}
    out = set()
    for k in range(c.FPDFPage_CountObjects(page_handle)):
        obj = c.FPDFPage_GetObject(page_handle, k)
        if c.FPDFPageObj_GetType(obj) != c.FPDF_PAGEOBJ_TEXT or not c.FPDFPageObj_GetBounds(obj, l, b, r, t):
            continue
        handle = ctypes.cast(obj, ctypes.c_void_p).value
        x, y = l.value, b.value
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        key = (raw.object_font(handle) or 0, round(r.value - x, 1), round(t.value - y, 1))
        col, row = math.floor(x / OVERPRINT), math.floor(y / OVERPRINT)
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                for other, ox, oy in cells.get((key, col + dc, row + dr), ()):
                    if 0 < abs(x - ox) + abs(y - oy) < OVERPRINT:
                        out.update((handle, other))
        here = cells.setdefault((key, col, row), [])
        if len(here) < OVERPRINT_CELL:
            here.append((handle, x, y))
        else:
            # more objects of one size in one cell than any bold by overprinting makes: they are
            # printed over one another (and the cell's list stays short, the pass linear)
            out.add(handle)
    return frozenset(out)


OVERPRINT = 0.6       # pt: a copy this close to an object of its font and size overprints it
OVERPRINT_CELL = 16   # objects of one font and size within one OVERPRINT square: more are overprinted


PAGE_IMAGE = 0.8    # of a page's area: an image this large is the page itself (a scan, a background), no drawing on it


def _drawings(raw: _Raw, page_handle, width: float, height: float, words: list = ()):
    """Light filled boxes and ruled frames round text (`words`), thin horizontal rules, the bounds of
    every other drawing or image, and of the paths among them that curve or slant (what a drawing is
    made of, never a table's rules)."""
    c = raw.c
    boxes, rules, graphics, bars, strokes = [], [], [], [], []
    fills: list = []           # large filled shapes drawn so far, and their colours
    pieces: list = []          # thin straight rules, either way, and stroked rectangles: what ruled frames are drawn of
    l, b, r, t = raw.fl, raw.fb, raw.fr, raw.ft

    def visit(obj, depth: int, place) -> None:
        kind = c.FPDFPageObj_GetType(obj)
        if kind == c.FPDF_PAGEOBJ_FORM and depth < 4:
            # a form's objects report their bounds in the form's own space: carry its matrix down
            m = c.FS_MATRIX()
            c.FPDFPageObj_GetMatrix(obj, m)
            inner = _compose((m.a, m.b, m.c, m.d, m.e, m.f), place)
            for k in range(c.FPDFFormObj_CountObjects(obj)):
                visit(c.FPDFFormObj_GetObject(obj, k), depth + 1, inner)
            return
        if kind not in (c.FPDF_PAGEOBJ_PATH, c.FPDF_PAGEOBJ_IMAGE, c.FPDF_PAGEOBJ_SHADING):
            return
        if not c.FPDFPageObj_GetBounds(obj, l, b, r, t):
            return
        x0, y0, x1, y1 = _placed((l.value, b.value, r.value, t.value), place) if place else \
            (l.value, b.value, r.value, t.value)
        box = _within_reach((x0, height - y1, x1, height - y0), width, height)
        if box is None:
            return
        w, h = box[2] - box[0], box[3] - box[1]
        if kind == c.FPDF_PAGEOBJ_IMAGE and w * h >= PAGE_IMAGE * width * height:
            return
        if kind == c.FPDF_PAGEOBJ_IMAGE and _one_pixel(c, obj):
            # a rule painted as one pixel stretched to its box (Ghostscript's ps2pdf sets each of a DVI's
            # rules, a fraction's bar among them, as a 1 x 1 image mask): a filled rectangle, as a path is
            if h < BAR_THICKNESS and w > 2 or w < 1.6 and h > VERTICAL_BAR:
                bars.append(box)
            if h < 1.6 and w > 20:
                rules.append(box)
            if h <= FRAME_RULE and w > 20 or w <= FRAME_RULE and h > 8:
                pieces.append(box)
        if kind == c.FPDF_PAGEOBJ_PATH:
            fillmode, stroke = ctypes.c_int(), ctypes.c_int()
            c.FPDFPath_GetDrawMode(obj, fillmode, stroke)
            thick, thin = h, w
            if stroke.value and not fillmode.value and c.FPDFPageObj_GetStrokeWidth(obj, raw.sw):
                # a stroked line's bounds reach a whole stroke width past its ink on each side (xdvipdfmx
                # strokes TeX's rules: booktabs' 0.8 pt top rule has bounds 1.7 pt tall)
                thick, thin = h - raw.sw.value, w - raw.sw.value
            if thick < BAR_THICKNESS and w > 2 or thin < 1.6 and h > VERTICAL_BAR:
                bars.append(box)       # fraction bars, radicals' tops, over- and underlines (and rules);
                                       # upright: an array's column rules
            if thick < 1.6 and w > 20:
                rules.append(box)      # a table's or an algorithm's rule, or a long stroke of a drawing
            if (thick <= FRAME_RULE and w > 20 or thin <= FRAME_RULE and h > 8 or
                    stroke.value and w > 20 and h > 8 and _rectangle(c, obj)) and not _curves_or_slants(c, obj):
                pieces.append(box)
            elif stroke.value and w >= FRAME_MIN_WIDTH and h > 8 and _rounded_rectangle(c, obj):
                pieces.append(box)     # a frame with round corners stroked as one outline (tcolorbox's
                                       # borderline, mdframed's roundcorner): read as a stroked rectangle is
            if fillmode.value and w > 100 and h > 8 and c.FPDFPageObj_GetFillColor(obj, raw.r, raw.g, raw.b, raw.a):
                gray = (raw.r.value + raw.g.value + raw.b.value) / 765
                colour = (raw.r.value, raw.g.value, raw.b.value)
                if 0.75 < gray < 0.995 and raw.a.value > 0 or raw.a.value > 0 and _inset_fill(box, colour, fills):
                    boxes.append(box)
                    return
                fills.append((box, colour))
            if min(w, h) > 1.6 and _curves_or_slants(c, obj):
                strokes.append(box)
        graphics.append(box)

    for k in range(c.FPDFPage_CountObjects(page_handle)):
        visit(c.FPDFPage_GetObject(page_handle, k), 0, None)
    boxes += _ruled_frames(pieces, strokes, boxes, words)
    boxes += _bar_frames(pieces, strokes, boxes, words)
    return boxes, rules, graphics, bars, strokes


def _within_reach(box: tuple, width: float, height: float):
    """A drawn object's box (page space, top-down) cut to the page grown by its own width and height on
    every side, or None when nothing of it lies there.  Nothing drawn so far off the page is ever seen,
    and the readers of drawings file each box by the cells of a grid it covers: a rule drawn forty
    million points long and clipped to the page (a grid drawn past the page's edges, as placeat's
    manual draws its own) would fill that many cells and take gigabytes.  Cut so, a box covers at most
    nine pages' area, and nothing on the page or bleeding off its edges changes."""
    x0, y0 = max(box[0], -width), max(box[1], -height)
    x1, y1 = min(box[2], 2 * width), min(box[3], 2 * height)
    if x0 > x1 or y0 > y1:
        return None
    return (x0, y0, x1, y1)


DRAWN_RADICAL_POINTS = 400     # path points looked at for a drawn radical sign (a surd is a few dozen)
SURD_BAND = 0.25               # of its height: below this much under its top, a drawn radical is its sign


def _filled_outlines(raw: _Raw, page_handle, height: float, fits):
    """The page's filled paths of a few dozen to a few hundred points (a glyph's outline size) that slant
    or curve and whose box (cut to its clip, where it has one) `fits` (x0, x1, top, bottom): each as that
    box and its points, in page space (top-down).  What a browser prints of inline SVG in maths is drawn
    so.  (The box is tried before the points are read: a page of a map's polygons reads no point.)"""
    c = raw.c
    l, b, r, t = raw.fl, raw.fb, raw.fr, raw.ft
    x, y = ctypes.c_float(), ctypes.c_float()
    m = c.FS_MATRIX()
    for k in range(c.FPDFPage_CountObjects(page_handle)):
        obj = c.FPDFPage_GetObject(page_handle, k)
        if c.FPDFPageObj_GetType(obj) != c.FPDF_PAGEOBJ_PATH:
            continue
        fillmode, stroke = ctypes.c_int(), ctypes.c_int()
        c.FPDFPath_GetDrawMode(obj, fillmode, stroke)
        segments = c.FPDFPath_CountSegments(obj)
        if not fillmode.value or not 8 <= segments <= DRAWN_RADICAL_POINTS or not c.FPDFPageObj_GetBounds(obj, l, b, r, t) \
                or not c.FPDFPageObj_GetMatrix(obj, m):
            continue
        x0, x1, top, bottom = l.value, r.value, height - t.value, height - b.value
        clip = c.FPDFPageObj_GetClipPath(obj)
        if clip and c.FPDFClipPath_CountPaths(clip) > 0:
            edges = []
            for n in range(c.FPDFClipPath_CountPathSegments(clip, 0)):
                if c.FPDFPathSegment_GetPoint(c.FPDFClipPath_GetPathSegment(clip, 0, n), x, y):
                    edges.append((x.value, height - y.value))
            if edges:
                x0, x1 = max(x0, min(e[0] for e in edges)), min(x1, max(e[0] for e in edges))
                top, bottom = max(top, min(e[1] for e in edges)), min(bottom, max(e[1] for e in edges))
        if not fits(x0, x1, top, bottom) or not _curves_or_slants(c, obj):
            continue
        points = []
        for n in range(segments):
            if c.FPDFPathSegment_GetPoint(c.FPDFPath_GetPathSegment(obj, n), x, y):
                points.append((m.a * x.value + m.c * y.value + m.e, height - (m.b * x.value + m.d * y.value + m.f)))
        yield (x0, x1, top, bottom), points


def _drawn_radicals(raw: _Raw, page_handle, height: float, words: list) -> tuple[list, list]:
    """Radical signs drawn as paths: a browser prints KaTeX's `\\sqrt`, an inline SVG of the sign and its
    rule in one filled outline, the rule drawn far to the right and clipped at the body's end.  A filled
    outline that slants or curves, whose ink below the top quarter of its height (the sign) is a few
    ems wide at most and whose top runs on to the right past it (the rule), over words of maths that
    stand under that rule and within its height, is a radical: a "√" of its sign's box, standing on the
    body's baseline, and a bar from the sign's end to where the clip ends it.  (Words, bars.)"""
    signs, bars = [], []
    maths = [w for w in words if not _is_text_face(w)]

    def fits(x0: float, x1: float, top: float, bottom: float) -> bool:
        # (at least as wide as tall, over a word of maths)
        return bottom - top >= 4 and x1 - x0 >= bottom - top and any(
            x0 <= w.x0 < x1 and top < (w.top + w.bottom) / 2 < bottom for w in maths)

    for (x0, x1, top, bottom), points in _filled_outlines(raw, page_handle, height, fits):
        tall = bottom - top
        sign = [p for p in points if p[1] > top + tall * SURD_BAND]
        if not sign:
            continue
        left, right = min(p[0] for p in sign), max(p[0] for p in sign)
        if not 0.3 * tall <= right - left <= 1.5 * tall or x1 - right < 0.3 * tall or left > x0 + tall * 0.2:
            continue
        body = [w for w in words if right - 1 <= w.x0 < x1 and top < (w.top + w.bottom) / 2 < bottom]
        if not body or not any(not _is_text_face(w) for w in body):
            continue
        base = max(w.baseline for w in body)
        size = max(w.size for w in body)
        signs.append(Word("√", left, right, top, bottom, size, False, False, font=" (MathSymbols)", baseline=base,
                          boxes=array("f", (left, right, top, bottom, left, right))))
        bars.append((right, top, x1, top + min(BAR_THICKNESS * 0.5, tall * 0.06)))
    return signs, bars


DRAWN_DELIMITER_WIDTH = 0.35   # of its height: a tall delimiter drawn as a path is at most this wide
EDGE_INK = 0.5                 # pt: points of an outline this near its box's side lie on that side
DELIMITER_END = 0.15           # of its height: a bracket's or parenthesis's ends (its hooks' tips, a bracket's stubs)


def _drawn_delimiters(raw: _Raw, page_handle, height: float, words: list) -> list:
    """Tall parentheses and brackets drawn as paths (KaTeX's delimiters taller than its largest font's,
    inline SVG a browser prints as filled outlines), beside words of maths within their height: a
    filled outline that curves, at most DRAWN_DELIMITER_WIDTH of its height wide, read by which side
    holds its ink where: a "(" touches its left side only between its ends, a "[" all along and its
    right side only at its ends (and the mirror images).  As Words of their box, centred on the axis."""
    out = []
    maths = [w for w in words if not _is_text_face(w)]

    def fits(x0: float, x1: float, top: float, bottom: float) -> bool:
        # (tall and narrow, beside a word of maths within its height)
        tall = bottom - top
        return tall >= 12 and 1 <= x1 - x0 <= tall * DRAWN_DELIMITER_WIDTH and any(
            top < (w.top + w.bottom) / 2 < bottom and (0 <= w.x0 - x1 < tall or 0 <= x0 - w.x1 < tall) for w in maths)

    for (x0, x1, top, bottom), points in _filled_outlines(raw, page_handle, height, fits):
        tall = bottom - top
        ends = (top + tall * DELIMITER_END, bottom - tall * DELIMITER_END)

        def side(at: float) -> tuple[bool, bool]:
            """Whether the outline touches that side between its ends, and at its ends."""
            ys = [p[1] for p in points if abs(p[0] - at) <= EDGE_INK]
            return any(ends[0] < v < ends[1] for v in ys), any(not ends[0] < v < ends[1] for v in ys)

        (left_mid, left_end), (right_mid, right_end) = side(x0), side(x1)
        kind = "(" if left_mid and not left_end and right_end and not right_mid else \
            ")" if right_mid and not right_end and left_end and not left_mid else \
            "[" if left_mid and left_end and right_end and not right_mid else \
            "]" if right_mid and right_end and left_end and not left_mid else None
        if kind is None:
            continue
        opens = kind in "(["
        near = [w for w in words if top < (w.top + w.bottom) / 2 < bottom and not _is_text_face(w)
                and (0 <= w.x0 - x1 < tall if opens else 0 <= x0 - w.x1 < tall)]
        if not near:
            continue
        size = max(w.size for w in near)
        out.append(Word(kind, x0, x1, top, bottom, size, False, False, font=" (MathSymbols)",
                        baseline=(top + bottom) / 2 + size * 0.25, boxes=array("f", (x0, x1, top, bottom, x0, x1))))
    return out


def _is_text_face(word) -> bool:
    """A word of a plain text face: one describe_font reads as no maths font by its name, not italic."""
    return describe_font(word.font, 0, 400).plain and not word.italic


def _one_pixel(c, obj) -> bool:
    """An image of a single pixel: whatever its box, it paints one colour all over it, a filled
    rectangle (no picture is one pixel)."""
    w, h = ctypes.c_uint(), ctypes.c_uint()
    return bool(c.FPDFImageObj_GetImagePixelSize(obj, w, h)) and w.value == 1 and h.value == 1


VERTICAL_BAR = 6                # pt: a thin upright stroke this tall is a rule (an array's |), no glyph's part


def _inset_fill(box: tuple, colour: tuple, fills: list) -> bool:
    """Whether a filled shape is a frame's inside: drawn over a larger fill of another colour that
    shows round it only as a rule (tcolorbox and mdframed draw a frame so: the rule's colour filled
    first, the inside's over it, a title bar's band above it of the rule's colour or another)."""
    return any(colour != other and outer[0] <= box[0] <= outer[0] + FRAME_RULE and
               outer[2] - FRAME_RULE <= box[2] <= outer[2] and outer[1] <= box[1] + 0.1 and
               box[3] - 0.1 <= outer[3] <= box[3] + FRAME_RULE for outer, other in fills)


FRAME_RULE = 3                  # pt: the widest rule a frame drawn as two fills shows round its inside


class RuledFrame(tuple):
    """A frame's bounds (x0, top, x1, bottom) drawn with rules, no fill: the rules stay among the
    page's drawings, so a framed figure (a recipe in an \\fbox over its caption) is still drawn."""


def _rectangle(c, obj) -> bool:
    """A path that is one closed rectangle: a few segments, all on two x's and two y's of its own."""
    n = c.FPDFPath_CountSegments(obj)
    if not 4 <= n <= 6:
        return False
    x, y = ctypes.c_float(), ctypes.c_float()
    xs, ys, points, closed = set(), set(), [], False
    for k in range(n):
        seg = c.FPDFPath_GetPathSegment(obj, k)
        closed = closed or bool(c.FPDFPathSegment_GetClose(seg))
        if c.FPDFPathSegment_GetPoint(seg, x, y):
            xs.add(round(x.value * 2))
            ys.add(round(y.value * 2))
            points.append((round(x.value * 2), round(y.value * 2)))
    return len(xs) == 2 and len(ys) == 2 and len(set(points)) == 4 and (closed or points[0] == points[-1])


def _rounded_rectangle(c, obj) -> bool:
    """A path that is one rectangle with round corners: every point it is drawn through, the corners'
    Bézier control points too, lies on one of the four lines of its bounds, and each side runs straight
    for all of its length but a corner's arc at either end (an ellipse's points lie on those lines as
    well, but its sides are single points).  Read in the path's own space, so no matrix is needed."""
    n = c.FPDFPath_CountSegments(obj)
    if not 5 <= n <= ROUNDED_SEGMENTS:
        return False
    x, y = ctypes.c_float(), ctypes.c_float()
    points = []
    for k in range(n):
        if c.FPDFPathSegment_GetPoint(c.FPDFPath_GetPathSegment(obj, k), x, y):
            points.append((x.value, y.value))
    if len(points) < 5:
        return False
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    tol = SLANT
    sides = ([p[1] for p in points if abs(p[0] - x0) <= tol], [p[1] for p in points if abs(p[0] - x1) <= tol],
             [p[0] for p in points if abs(p[1] - y0) <= tol], [p[0] for p in points if abs(p[1] - y1) <= tol])
    if any(not (abs(px - x0) <= tol or abs(px - x1) <= tol or abs(py - y0) <= tol or abs(py - y1) <= tol)
           for px, py in points):
        return False
    return all(side and max(side) - min(side) >= length - 2 * CORNER_ARC
               for side, length in zip(sides, (y1 - y0, y1 - y0, x1 - x0, x1 - x0)))


ROUNDED_SEGMENTS = 24   # a rounded rectangle's outline: four sides and four corners of three Bézier points each
CORNER_ARC = 12         # pt: the widest round corner of a frame (tcolorbox's arc is 1 mm by default)


def _ruled_frames(pieces: list, strokes: list, filled: list, words) -> list:
    """Frames drawn with rules, no fill (mdframed's four rules, \\fbox, a stroked rectangle): a
    rectangle stroked whole, or a rule along its top whose ends meet the tops of two upright rules
    whose feet meet a rule along its bottom.  A frame is one when no other rule or curve touches its
    edges (a table's rules meet and cross one another; a drawing's shapes join), no word straddles
    them, and it holds words (a figure's empty shapes are none), and no filled box is there already.

    Rules are filed by their ends in squares of two rules' widths, at most CORNER_ENDS of them in one:
    a frame's corner is the ends of two rules, and a page that ends more there (one frame drawn over
    itself a thousand times) would otherwise pair every top with every side, a million candidates.
    The rules past that many are still seen touching a frame's edges, which then is none."""
    tol = FRAME_RULE
    def key(v: float) -> int:
        return int(v // (2 * tol))
    def file(index: dict, p, y: float, x: float) -> None:
        filed = index.setdefault((key(y), key(x)), [])
        if len(filed) < CORNER_ENDS:
            filed.append(p)
    def near(index: dict, y: float, x: float):
        # the rules filed by two ends within a cell of these: every one within tol of both
        ky, kx = key(y), key(x)
        return (p for i in (ky - 1, ky, ky + 1) for j in (kx - 1, kx, kx + 1) for p in index.get((i, j), ()))
    lefts: dict = {}
    rights: dict = {}
    feet: dict = {}
    for p in pieces:
        if p[2] - p[0] <= 2 * tol:         # upright (a stroke's bounds are a stroke width wider)
            file(lefts, p, p[1], p[0])
            file(rights, p, p[1], p[2])
        if p[3] - p[1] <= 2 * tol:         # along
            file(feet, p, p[3], p[0])
    found: list = [(p, (p,)) for p in pieces if p[2] - p[0] > 3 * tol and p[3] - p[1] > 3 * tol]
    for top in (p for p in pieces if p[3] - p[1] <= 2 * tol):
        for left in near(lefts, top[1], top[0]):
            if abs(left[0] - top[0]) > tol or abs(left[1] - top[1]) > tol:
                continue
            right = next((r for r in near(rights, top[1], top[2]) if r is not left and abs(r[2] - top[2]) <= tol
                          and abs(r[1] - top[1]) <= tol and abs(r[3] - left[3]) <= tol), None)
            foot = next((b for b in near(feet, left[3], top[0]) if b is not top and abs(b[3] - left[3]) <= tol
                         and abs(b[0] - top[0]) <= tol and abs(b[2] - top[2]) <= tol), None) if right else None
            if foot is not None:
                parts = (top, left, right, foot)
                found.append(((min(p[0] for p in parts), min(p[1] for p in parts),
                               max(p[2] for p in parts), max(p[3] for p in parts)), parts))
    found = [(f, parts) for f, parts in found if f[2] - f[0] >= FRAME_MIN_WIDTH]
    if not found:
        return []
    # the drawn shapes by the square cells of the page they cover, so a frame looks only at its edges'
    cells: dict = {}
    def spread(g):
        return ((i, j) for i in range(int(g[0] // FRAME_CELL), int(g[2] // FRAME_CELL) + 1)
                for j in range(int(g[1] // FRAME_CELL), int(g[3] // FRAME_CELL) + 1))
    for g in pieces + strokes:
        for cell in spread((g[0] - tol, g[1] - tol, g[2] + tol, g[3] + tol)):
            cells.setdefault(cell, []).append(g)
    words = sorted(words, key=lambda w: w.top + w.bottom)
    mids = [(w.top + w.bottom) / 2 for w in words]
    # the filled boxes by their top left corners, in squares as wide as the play allowed either way
    fills: dict = {}
    for b in filled:
        fills.setdefault((int(b[0] // (4 * tol)), int(b[1] // (4 * tol))), []).append(b)
    frames: list = []
    for frame, parts in found:
        x0, y0, x1, y1 = frame
        kx, ky = int(x0 // (4 * tol)), int(y0 // (4 * tol))
        if any(abs(b[0] - x0) <= 2 * tol and abs(b[2] - x1) <= 2 * tol and
               abs(b[1] - y0) <= 2 * tol and abs(b[3] - y1) <= 2 * tol
               for i in (kx - 1, kx, kx + 1) for j in (ky - 1, ky, ky + 1) for b in fills.get((i, j), ())):
            continue

        def touches(g) -> bool:
            # meets the frame's edges: overlaps it, grown by a rule's width, and reaches past its inside
            return g[0] <= x1 + tol and g[2] >= x0 - tol and g[1] <= y1 + tol and g[3] >= y0 - tol and not (
                g[0] >= x0 + tol and g[2] <= x1 - tol and g[1] >= y0 + tol and g[3] <= y1 - tol)
        edges = {cell for side in ((x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1))
                 for cell in spread(side)}
        if any(touches(g) and not any(g is p for p in parts) for cell in edges for g in cells.get(cell, ())):
            continue
        held = False
        for w in words[bisect.bisect_left(mids, y0):bisect.bisect_right(mids, y1)]:
            if w.x1 < x0 or w.x0 > x1:
                continue
            if w.x0 < x0 or w.x1 > x1:
                break           # a word across a side: no frame round text
            held = True
        else:
            if held:
                frames.append(RuledFrame(frame))
    return frames


def _bar_frames(pieces: list, strokes: list, boxes: list, words) -> list:
    """Frames drawn as one upright rule at their left and nothing else (tcolorbox's borderline west with
    no fill, a left-barred theorem): a thin rule at least two lines tall that no other rule or curve
    touches, no frame holds already, no word crosses, with words starting just right of it.  The frame
    runs from the rule to the right end of the words beside it.

    Each rule looks at what lies in the cells it covers and stops at the first shape that rules it out,
    so an upright of a grid (met by every level rule of the grid) costs what it meets before the first
    crossing, not all it crosses: a page of a thousand rules each way reads in linear time."""
    tol = FRAME_RULE
    uprights = [p for p in pieces if p[2] - p[0] <= 2 * tol and p[3] - p[1] >= BAR_CORNERED_HEIGHT]
    if not uprights:
        return []
    words = sorted(words, key=lambda w: w.top + w.bottom)
    mids = [(w.top + w.bottom) / 2 for w in words]
    # the drawn shapes and boxes by the square cells of the page they cover (grown by a rule's width),
    # so each rule looks only at what lies near it
    cells: dict = {}
    def spread(g):
        return ((i, j) for i in range(int((g[0] - tol) // FRAME_CELL), int((g[2] + tol) // FRAME_CELL) + 1)
                for j in range(int((g[1] - tol) // FRAME_CELL), int((g[3] + tol) // FRAME_CELL) + 1))
    for g in pieces + strokes + boxes:
        for cell in spread(g):
            cells.setdefault(cell, []).append(g)
    drawn = {id(g) for g in pieces + strokes}      # what a corner's rule may meet (boxes aside)
    curves = set(strokes)

    def around(g):
        """The shapes filed in the cells `g` covers, each once (the first seen of one box)."""
        seen: set = set()
        for cell in spread(g):
            for other in cells.get(cell, ()):
                if id(other) not in seen:
                    seen.add(id(other))
                    yield other

    def meets(bar: tuple) -> list | None:
        """The shapes that touch `bar`, all a frame's corners; None at the first that is not, or at a
        shape holding it (a side of a frame already read, or a rule inside a shaded box)."""
        x0, y0, x1, y1 = bar
        touching = []
        for g in around(bar):
            if g is bar:
                continue
            if g[0] - tol <= x0 and x1 <= g[2] + tol and g[1] - tol <= y0 and y1 <= g[3] + tol:
                return None
            if g[0] <= x1 + tol and g[2] >= x0 - tol and g[1] <= y1 + tol and g[3] >= y0 - tol:
                if not _corner(bar, g, (o for o in around(g) if id(o) in drawn), curves):
                    return None     # meets another rule or shape: a table's, a drawing's, an algorithm's block line
                touching.append(g)
        return touching

    frames: list = []
    for bar in uprights:
        x0, y0, x1, y1 = bar
        touching = meets(bar)
        if touching is None:
            continue
        if not touching and y1 - y0 < BAR_FRAME_HEIGHT:
            continue        # one line's bar with no corner: a change bar
        beside = []
        for w in words[bisect.bisect_left(mids, y0):bisect.bisect_right(mids, y1)]:
            if w.x0 < x1 <= w.x1 or w.x0 < x0 <= w.x1:
                beside = []
                break       # a word across the rule: no frame's side
            if w.x0 >= x1:
                beside.append(w)
        if not beside or min(w.x0 for w in beside) - x1 > BAR_FRAME_GAP:
            continue
        right = max(w.x1 for w in beside)
        if right - x0 >= FRAME_MIN_WIDTH:
            # (a head's rule the upright hangs from may start left of it: the frame is as wide as it, so
            # the head set on that rule is the frame's, as a head on a title bar over its frame is)
            frames.append(RuledFrame((min([x0] + [g[0] for g in touching]), y0, right, y1)))
    return frames


def _corner(bar: tuple, g: tuple, near, curves: set) -> bool:
    """Whether a rule `g` that meets an upright rule is a frame's corner, open at its top or foot
    (thmbox's statements: the head's rule, from the text block's edge to past the head, with the
    upright hung from it, and a rule along the foot from the upright to the right): a level rule at one
    of the upright's ends, running on right of it (no further left than the head's margin), and met by
    no other upright rule or curve but at its own ends (`near`: the rules and curves about it, `curves`
    those that curve).  A table's rules meet at junctions along one another (its column rules hang
    from its top rule between that rule's ends)."""
    tol = FRAME_RULE
    x0, y0, x1, y1 = bar
    level = g[3] - g[1] <= 2 * tol and g[2] - g[0] >= FRAME_CORNER_REACH
    at_end = abs(g[1] - y0) <= tol or abs(g[3] - y1) <= tol
    if not (level and at_end and g[2] >= x1 + FRAME_CORNER_REACH and g[0] >= x0 - FRAME_CORNER_OVERHANG):
        return False
    for other in near:
        if other is bar or other is g or other[0] > g[2] + tol or other[2] < g[0] - tol \
                or other[1] > g[3] + tol or other[3] < g[1] - tol:
            continue
        if other in curves or other[2] - other[0] > 2 * tol:
            return False       # a curve, or another level rule, on the corner's rule
        if g[0] + tol < other[0] and other[2] < g[2] - tol:
            return False       # an upright met along the rule, not at its end: a junction
    return True


CORNER_ENDS = 8                 # rules ending within one square of two rules' widths, filed as a frame's corner at most
FRAME_CORNER_REACH = 20         # pt: a frame's corner rule runs on this far right of its upright at least
FRAME_CORNER_OVERHANG = 24      # pt: ... and starts at most this far left of it (a head set out in the margin)
BAR_FRAME_HEIGHT = 18           # pt: a rule at a frame's left is two lines tall at least (a change bar may be one) ...
BAR_CORNERED_HEIGHT = 8         # pt: ... or one line's, with a frame's corner at an end (its last line overleaf)
BAR_FRAME_GAP = 20              # pt: the frame's text starts this close to the rule at its left, at most
FRAME_MIN_WIDTH = 100           # pt: a ruled frame round statements is this wide at least (a filled box's too)
FRAME_CELL = 36                 # pt: the side of the cells a page's rules are filed by, looking for frames
BAR_THICKNESS = 2.0             # pt: a fraction's bar is thinner (a heavy maths font's, Fira Math's, is 1.65)
PATH_SEGMENTS_LOOKED_AT = 64    # a path that has not curved or slanted by then is taken for rectangles


def _curves_or_slants(c, obj) -> bool:
    """A path with a Bézier segment or a line that is neither horizontal nor vertical."""
    x, y = ctypes.c_float(), ctypes.c_float()
    last = None
    for k in range(min(c.FPDFPath_CountSegments(obj), PATH_SEGMENTS_LOOKED_AT)):
        seg = c.FPDFPath_GetPathSegment(obj, k)
        kind = c.FPDFPathSegment_GetType(seg)
        if kind == c.FPDF_SEGMENT_BEZIERTO:
            return True
        if not c.FPDFPathSegment_GetPoint(seg, x, y):
            continue
        if kind == c.FPDF_SEGMENT_LINETO and last is not None and \
                abs(x.value - last[0]) > SLANT and abs(y.value - last[1]) > SLANT:
            return True
        last = (x.value, y.value)
    return False


SLANT = 0.5    # pt: a segment moving this much both across and down is slanted


def _compose(inner: tuple, outer: tuple | None) -> tuple:
    """The affine matrix (a, b, c, d, e, f) of `inner` applied first, then `outer` (PDF's row-vector order)."""
    if outer is None:
        return inner
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _placed(bounds: tuple, m: tuple) -> tuple:
    """A box (x0, y0, x1, y1) in a form's space, as the box of its four corners on the page."""
    x0, y0, x1, y1 = bounds
    xs, ys = [], []
    for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
        xs.append(m[0] * x + m[2] * y + m[4])
        ys.append(m[1] * x + m[3] * y + m[5])
    return min(xs), min(ys), max(xs), max(ys)


def _turn(box, turn: int, width: float, height: float):
    """A box in page coordinates -> the same box in the reading frame of a page printed sideways."""
    x0, top, x1, bottom = box
    if turn == 90:   # text runs bottom to top; lines advance left to right
        return (height - bottom, x0, height - top, x1)
    return (top, width - x1, bottom, width - x0)


def _turn_word(w: Word, turn: int, width: float, height: float) -> Word:
    x0, top, x1, bottom = _turn((w.x0, w.top, w.x1, w.bottom), turn, width, height)
    w.x0, w.top, w.x1, w.bottom = x0, top, x1, bottom
    w.baseline = bottom - (w.bottom - w.top) * 0.2
    w.spans, w.boxes = [], None
    return w


def _links(raw: _Raw, doc, page_handle, height: float, page_height) -> list:
    """Internal links on a page: (x0, top, x1, bottom, target pdf page (1-based), target top or None)."""
    c = raw.c
    out = []
    pos = ctypes.c_int(0)
    link = c.FPDF_LINK()
    rect = c.FS_RECTF()
    while c.FPDFLink_Enumerate(page_handle, pos, link):
        dest = c.FPDFLink_GetDest(doc, link)
        if not dest:
            action = c.FPDFLink_GetAction(link)
            if action and c.FPDFAction_GetType(action) == 1:   # PDFACTION_GOTO
                dest = c.FPDFAction_GetDest(doc, action)
        if not dest or not c.FPDFLink_GetAnnotRect(link, rect):
            continue
        target = c.FPDFDest_GetDestPageIndex(doc, dest)
        if target < 0:
            continue
        out.append((rect.left, height - rect.top, rect.right, height - rect.bottom, target + 1,
                    _dest_top(c, dest, page_height(target))))
    return out


def page_height(c, doc, index: int) -> float:
    """A page's height without loading the page."""
    width, height = ctypes.c_double(), ctypes.c_double()
    c.FPDF_GetPageSizeByIndex(doc, index, width, height)
    return height.value


def _dest_top(c, dest, height: float | None) -> float | None:
    has_x, has_y, has_zoom = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    x, y, zoom = ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    if height and c.FPDFDest_GetLocationInPage(dest, has_x, has_y, has_zoom, x, y, zoom) and has_y.value:
        return height - y.value
    return None


def read_pages(path: str, indexes: list[int], labelled: bool) -> list[Page]:
    """The given pages (0-based indexes) of one PDF, each with its lines, drawings and links."""
    import pypdfium2 as pdfium

    raw = _Raw()
    raw.path = str(path)
    doc = pdfium.PdfDocument(path)
    heights: dict[int, float] = {}

    def target_height(index: int) -> float:
        if index not in heights:
            heights[index] = page_height(raw.c, doc.raw, index)
        return heights[index]

    try:
        nameless = bool(raw.path) and "" in pdf_font_encodings(raw.path)
        out = []
        held: dict[int, tuple] = {}
        for at, index in enumerate(indexes):
            if nameless and at % NAMELESS_BLOCK == 0:
                # some font of the PDF is nameless (a Type 3 font of bitmaps): its face is read from how it
                # sets the next pages, before they are read (weigh_nameless_fonts); the pages stay open
                # meanwhile, so that PDFium keeps the fonts their measures are filed under
                # (what each prints and its dictionary first: a measure of its size or face reads its codes
                # through that dictionary's names)
                texts = []
                for ahead in indexes[at:at + NAMELESS_BLOCK]:
                    page = doc[ahead]
                    textpage = page.get_textpage()
                    held[ahead] = (page, textpage)
                    tp = ctypes.cast(textpage.raw, ctypes.c_void_p).value
                    count = raw.count_chars(tp)
                    if count > 0:
                        codes = raw.page_text(tp, count)
                        gather_nameless_glyphs(raw, tp, codes, count)
                        texts.append((page, tp, codes, count))
                nameless_dictionaries(raw)
                for page, tp, codes, count in texts:
                    raw.document, raw.page = ctypes.cast(doc.raw, ctypes.c_void_p).value, ctypes.cast(page.raw, ctypes.c_void_p).value
                    measure_nameless_fonts(raw, tp, codes, count)
                weigh_nameless_fonts(raw)
            page, textpage = held.pop(index) if index in held else (doc[index], None)
            textpage = textpage or page.get_textpage()
            width, height = page.get_size()
            raw.document, raw.page = ctypes.cast(doc.raw, ctypes.c_void_p).value, ctypes.cast(page.raw, ctypes.c_void_p).value
            spans, sideways = _page_spans(raw, ctypes.cast(textpage.raw, ctypes.c_void_p).value, height,
                                          _overprinted(raw, page.raw))
            words = _words(spans)
            boxes, rules, graphics, bars, strokes = _drawings(raw, page.raw, width, height, words)
            signs, drawn_bars = _drawn_radicals(raw, page.raw, height, words)
            words += signs + _drawn_delimiters(raw, page.raw, height, words)
            bars += drawn_bars
            links = _links(raw, doc.raw, page.raw, height, target_height)
            turn = 0
            if words and sideways > 0.5:
                turn = _sideways_turn(raw, textpage.raw)
            if turn:
                words = [_turn_word(w, turn, width, height) for w in words]
                strokes = [_turn(b, turn, width, height) for b in strokes]
                graphics = [_turn(b, turn, width, height) for b in graphics + boxes + rules]
                rules = [g for g in graphics if g[3] - g[1] < 1.6 and g[2] - g[0] > 20]
                bars = [g for g in graphics if g[3] - g[1] < BAR_THICKNESS]
                boxes, links = [], []
                width, height = height, width
            label = doc.get_page_label(index) if labelled else None
            out.append(Page(index + 1, label or None, float(width), float(height), group_lines(words, index + 1),
                            boxes, rules, graphics, rotated=bool(turn), links=links, bars=bars, strokes=strokes))
            textpage.close()
            page.close()
        return out
    finally:
        doc.close()


def _sideways_turn(raw: _Raw, textpage) -> int:
    """90 when the page's text runs bottom to top, 270 when top to bottom (the frames of _turn)."""
    c = raw.c
    up = down = 0
    for j in range(0, c.FPDFText_CountChars(textpage), 7):
        angle = c.FPDFText_GetCharAngle(textpage, j) % (2 * math.pi)
        if 0.3 < angle < math.pi - 0.3:
            up += 1
        elif math.pi + 0.3 < angle < 2 * math.pi - 0.3:
            down += 1
    # PDFium measures the angle clockwise: a page turned so that its text reads upwards reports 3π/2.
    return 270 if up >= down else 90


def has_page_labels(doc) -> bool:
    """True only when the PDF defines /PageLabels (PDFium answers '' for every page otherwise)."""
    return any(doc.get_page_label(i) for i in range(min(len(doc), 400)))


# --------------------------------------------------------------------------- document
"""Document: pages read in parallel, and the structure the PDF itself declares."""


@dataclass
class OutlineEntry:
    title: str
    level: int             # 0 for top-level bookmarks
    page: int              # 1-based PDF page
    top: float | None      # where on the page, when the bookmark says


@dataclass
class Anchor:
    """A named destination: hyperref's 'equation.5.3', 'theorem.2.1', 'figure.caption.7' …"""

    name: str
    page: int
    top: float | None


@dataclass
class Document:
    path: str
    pages: list[Page]
    outline: list[OutlineEntry]
    anchors: list[Anchor]
    labelled: bool         # the PDF defines page labels
    anchors_unread: int = 0    # named destinations left unread (read_anchors' bounded fallback)


def _open(path: Path):
    try:
        import pypdfium2 as pdfium
    except ImportError:
        raise BuildError("the PDF library is missing: pip install -e '.[build]'") from None
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        text = str(exc).lower()
        if "password" in text or "security" in text:
            raise BuildError(f"{path} is encrypted; decrypt it first (e.g. qpdf --decrypt)") from None
        raise BuildError(f"{path} is not a readable PDF ({str(exc)[:120]})") from None
    except Exception as exc:
        raise BuildError(f"{path} is not a readable PDF ({type(exc).__name__})") from None


def read_outline(doc) -> list[OutlineEntry]:
    """The bookmarks: title, depth, page and height on the page (when the bookmark says)."""
    import pypdfium2.raw as c

    out = []
    heights: dict[int, float] = {}
    try:
        for item in doc.get_toc(max_depth=8):
            dest = item.get_dest()
            index = dest.get_index() if dest else None
            if index is None:
                continue
            top = None
            view = dest.get_view()
            if view and len(view) > 1 and view[1]:
                values = [v for v in view[1] if v is not None]
                mode = view[0]
                if values and mode in (1, 3):            # XYZ (left, top, zoom) / FitH (top)
                    y = values[1] if mode == 1 and len(values) > 1 else values[0]
                    if index not in heights:
                        heights[index] = page_height(c, doc.raw, index)
                    top = heights[index] - y if y else None
            out.append(OutlineEntry(item.get_title().strip(), item.level, index + 1, top))
    except Exception:
        return out
    return out


# Named destinations: the cap on how many are read, and how many PDFium is asked for one index at a
# time where the file's own reading is unsure.  PDFium walks its name tree from the start for every
# index, so that reading costs time quadratic in the count: 5,000 take some 1.5 s of CPU (a TeX
# manual's tree), 49,345 took nine minutes.
MAX_ANCHORS = 200_000
ANCHORS_BY_INDEX = 5_000


def read_anchors(doc, path: str) -> tuple[list[Anchor], int]:
    """Named destinations with their page and height (hyperref writes one per numbered thing), in
    PDFium's order; and how many were left unread (0 but where the fallback below stops short).

    The name tree is read from the file itself (build_objects), in one pass; the page heights come
    from PDFium.  Where that reading is unsure of reading as PDFium does (an encrypted file, a broken
    cross-reference, a filter it does not know), PDFium lists the destinations itself, at most
    ANCHORS_BY_INDEX of them, since its reading is quadratic."""
    import pypdfium2.raw as c

    try:
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            found, pages = named_destinations(data, MAX_ANCHORS)
        if pages != len(doc):
            raise ValueError("the page tree holds another number of pages than PDFium counts")
    except Exception:
        # build_objects.Unsure, and whatever a damaged file makes the reader stumble on: PDFium,
        # which repairs what it can, reads them instead
        return _anchors_by_index(doc, ANCHORS_BY_INDEX)
    heights: dict[int, float] = {}
    out = []
    for dest in found:
        if dest.page < 0:
            continue
        if dest.page not in heights:
            heights[dest.page] = page_height(c, doc.raw, dest.page)
        height = heights[dest.page]
        # as _dest_top computes it from PDFium's /XYZ reading
        out.append(Anchor(dest.name, dest.page + 1, height - dest.y if height and dest.y is not None else None))
    return out, 0


def _anchors_by_index(doc, limit: int) -> tuple[list[Anchor], int]:
    """PDFium's own listing of the named destinations, index by index, of the first `limit`; and how
    many of its count that leaves unread."""
    import pypdfium2.raw as c

    count = c.FPDF_CountNamedDests(doc.raw)
    if count <= 0:
        return [], 0
    heights: dict[int, float] = {}
    found = (anchor_by_index(doc, i, heights) for i in range(min(count, limit)))
    return [anchor for anchor in found if anchor], max(0, count - limit)


def anchor_by_index(doc, index: int, heights: dict[int, float]) -> Anchor | None:
    """PDFium's named destination at one index (None when it has no page); `heights` keeps the page
    heights already asked.  PDFium walks its name tree from the start to find an index."""
    import pypdfium2.raw as c

    size = ctypes.c_long(0)
    c.FPDF_GetNamedDest(doc.raw, index, None, size)
    if size.value <= 0:
        return None
    buf = ctypes.create_string_buffer(size.value)
    dest = c.FPDF_GetNamedDest(doc.raw, index, buf, size)
    if not dest:
        return None
    page = c.FPDFDest_GetDestPageIndex(doc.raw, dest)
    if page < 0:
        return None
    if page not in heights:
        heights[page] = page_height(c, doc.raw, page)
    name = buf.raw[:size.value].decode("utf-16-le", "replace").rstrip("\x00")
    return Anchor(name, page + 1, _dest_top(c, dest, heights[page]))


def _read_chunk(args) -> list[Page]:
    return read_pages(*args)


def read_document(path: Path, workers: int | None = None) -> Document:
    """Every page, read in parallel by a few processes; the outline and named destinations."""
    doc = _open(path)
    try:
        total = len(doc)
        if total == 0:
            raise BuildError(f"{path} has no pages")
        # the anchors first: asking the heights of their pages has PDFium walk its page tree once, in
        # order, noting each page's object number; the outline's lookups of a page by its object then
        # find it noted, where each new page would walk the tree anew (pages squared: 0.4 s of a
        # 1,600-page manual's outline)
        anchors, anchors_unread = read_anchors(doc, str(path))
        outline = read_outline(doc)
        labelled = has_page_labels(doc)
    finally:
        doc.close()
    workers = workers or min(usable_cpus(), 8)
    indexes = list(range(total))
    if workers <= 1 or total < 24:
        pages = read_pages(str(path), indexes, labelled)
    else:
        import multiprocessing

        # Interleaved slices of a few pages keep the workers equally busy.  This process reads every
        # `workers`-th slice itself while workers - 1 others read the rest, rather than wait for them:
        # a forked process's resident pages count for it as well as for this one, so one process
        # fewer is some 45 MB less of the build's peak memory, at the same speed.
        step = 8
        jobs = [(str(path), indexes[i:i + step], labelled) for i in range(0, total, step)]
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with context.Pool(workers - 1) as pool:
            read_there = pool.imap(_read_chunk, [job for k, job in enumerate(jobs) if k % workers])
            read_here = [read_pages(*job) for job in jobs[::workers]]
            slices = [read_here[k // workers] if k % workers == 0 else next(read_there) for k in range(len(jobs))]
        pages = [p for chunk in slices for p in chunk]
    return Document(str(path), pages, outline, anchors, labelled, anchors_unread)
