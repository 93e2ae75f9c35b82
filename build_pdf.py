"""build_pdf.py: read a textbook PDF into the chunks and sections that build_db.py writes.

Stages: read the pages as positioned lines (build_glyphs.py) -> the book's page furniture and text
block: running heads dropped, printed pages, column edges (build_layout.py) -> each page's items
in reading order: floats with their captions, margin notes, lines (build_page.py) -> what each
line is, by an ordered list of rules (build_roles.py) -> what the builder does with it
(ChunkBuilder, here): sections, statements, equations and text chunks within the model's window
-> a second look where numbering has gaps (structure).  build_db.py calls read_book.  The PDF
libraries (the [build] extra) are imported only inside build_glyphs.read_document; the id rules
come from rag_core.py and the rows from build_common.py.  Never imports build_db.py.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from build_common import MAX_CHUNK_TOKENS, TARGET_CHUNK_TOKENS, Chunk, Section, number_key, numbering_gaps, split_to_budget
from build_formula import in_iso_style, in_text_face, remembered_readings
from build_glyphs import Document, Line, Page, Span, Word, read_document
from build_glyphs import _word_from_spans as word_from_spans
from build_heads import (END_MARK_RE, FLOAT_KINDS, OutlineHeading, entity_kind, equation_number, equation_printed, head_number,
                         in_division_words, outline_headings)
from build_layout import (PROSE_WORD_RE, Layout, PrintedPages, detect_layout, drop_folio_lines, drop_running_lines,
                          is_contents_page, layout_of, printed_pages, read_columns)
from build_math import (BROKEN_WORD_RE, ELLIPSIS_GAP, LIST_MARK_RE, display_latex, in_maths_signs_apart, is_math_font, is_math_word, iso_style,
                        mark_bold_symbols, mark_formal_script, mark_greek_letters, mark_upright_variables, maths_signs_apart, in_prose_faces, prose_faces,
                        mark_maths_italics, mark_prose_letters, mark_sans_body, mark_slanted_relations, math_share,
                        text_face,
                        numbered_display, plain_reading, word_tag)
from build_page import (DISPLAY_LINE_GAP, MOSTLY_MATHS, FloatCarry, FoundEntity, Item,
                        _prints_mark, continued_float, display_lines, display_row, display_text, join_lines, page_items)
from build_roles import (DISPLAY_TYPE, EXERCISE_SECTION_RE, FRAME_PAD, LABEL_AT_EDGE, LIST_LABEL_INDENT, OPERATOR_NAMES,
                         AppendicesDivider, BookmarkedHeading, ChapterHeading, DivisionLabel, DivisionTitle, EndsStatement, EquationLabel, ExerciseItem,
                         ExerciseListHeading, HeadingContinues, HeadingWrap, LineContext, NumberedHeading, Prose, Role,
                         RunInHead, division_words, framed_equation_label, inside, is_display, label_tab, read_line,
                         unnumbered_head, words_numbered_backwards)
from rag_core import entity_id, normalize_number


# --------------------------------------------------------------------------- read
"""Read: the PDF's pages as lines of words with fonts and positions, drawings, links (build_glyphs.py)."""


def read_pdf(path: Path, workers: int | None = None) -> Document:
    """Every page as positioned lines, with the outline and named destinations; BuildError if unreadable."""
    return read_document(path, workers)


def split_at_spaces(pages: list[Page]) -> None:
    """Words that hold a space glyph between two runs of text are split there (in place).  An HTML
    engine or a word processor prints an en space or a tab's space as a glyph (U+2002 after
    "Exercise 1.4"), which the glyph reader keeps inside the word ("1.4 Repeat"); TeX prints none."""
    for page in pages:
        for line in page.lines:
            if any(" " in w.text.strip() for w in line.words):
                line.words = [piece for w in line.words for piece in _spaced_apart(w)]


TOUCHING = 0.05      # em: two words of one line this close, end to start, on one baseline at one size, touch


def join_touching_words(pages: list[Page]) -> None:
    """Two words of a line that touch, end to start, on one baseline at one size, both in an upright bold
    text face (a head's, no maths), are one word (in place).  PDFium gives glyphs in the content stream's order, and TeX
    may write a line's glyphs in two pieces with other text between them: tufte-book wrote a side
    note's last line, level with a head, into the middle of the head's number ("Exercise 1", the
    note's words, ".11."), and the glyph reader started a new word where the head resumed, though no
    space stands there; the head was no head.  A word space is a good tenth of an em or more; touching
    pieces of one bold run are no two words.  Only bold ones: the pieces of a formula set in a text face
    (mathastext, a digit and a bracket) touch as well, and the formula reader wants them apart.  One pass
    over each line's words, so linear."""
    for page in pages:
        for line in page.lines:
            words = line.words
            if len(words) < 2:
                continue
            out = [words[0]]
            for w in words[1:]:
                prev, em = out[-1], max(out[-1].size, w.size)
                if abs(w.x0 - prev.x1) <= em * TOUCHING and abs(w.baseline - prev.baseline) <= em * TOUCHING \
                        and abs(w.size - prev.size) <= em * TOUCHING and w.bold and prev.bold \
                        and not (w.italic or prev.italic) and not (is_math_word(w) or is_math_word(prev)):
                    # one word of text, read as text (its runs' boxes are a formula's business)
                    out[-1] = replace(prev, text=prev.text + w.text, x1=w.x1, top=min(prev.top, w.top),
                                      bottom=max(prev.bottom, w.bottom), spans=[], boxes=None, raw=None)
                else:
                    out.append(w)
            if len(out) < len(words):
                line.words = out


ICON_SIZE_SLACK = 0.15        # of the next word's size: a pictogram is set in the size of the words after it
ICON_BASELINE_SLACK = 0.2     # em: ... and on their baseline


def drop_icon_glyphs(pages: list[Page]) -> int:
    """Pictograms set before a line's words are dropped from it (in place; how many).  A manual's
    admonition titles and callouts print an icon from a pictogram font before the title ("(i) Note",
    "(!) Definition 2.1 (Reorder point)"), and the font's text map calls it some letter ("ò").  A font
    is a pictogram font here when every word it sets in the whole document is one glyph that opens
    its line, before words in another face, in their size and on their baseline (a footnote's raised
    mark, an ornament in the margin two lines high are no such icon), none of them a digit or a list's
    mark ("•", "–"), each before a word of prose (a display's sans-serif letter, `\\mathsf{B} \\triangleq`, is
    followed by maths), and it is no maths font: the glyph is no text, and the head after it opens the line."""
    lone: dict[str, bool] = {}
    for page in pages:
        for line in page.lines:
            for k, w in enumerate(line.words):
                nxt = line.words[1] if len(line.words) > 1 else None
                first = k == 0 and len(w.text) == 1 and nxt is not None and nxt.font != w.font \
                    and abs(w.size - nxt.size) <= ICON_SIZE_SLACK * nxt.size \
                    and abs(w.baseline - nxt.baseline) <= ICON_BASELINE_SLACK * nxt.size \
                    and not w.text.isdigit() and not LIST_MARK_RE.fullmatch(w.text) \
                    and sum(c.isalpha() for c in nxt.text) >= 2 and not is_math_word(nxt)
                lone[w.font] = lone.get(w.font, True) and first
    icons = {f for f, only in lone.items() if only and f and not is_math_font(f)}
    dropped = 0
    if icons:
        for page in pages:
            for line in page.lines:
                if len(line.words) > 1 and line.words[0].font in icons:
                    line.words = line.words[1:]
                    dropped += 1
    return dropped


# space glyphs that part words (not the no-break spaces, U+00A0 and U+202F, that tie them)
_TIES = "\u00a0\u202f"


def _space_runs(text: str, raw: str | None) -> list[tuple[int, int]] | None:
    """The runs of characters (start, end) between the space glyphs the PDF printed in a text, or
    None when it printed none (a space NFKC wrote for an accent, " \u0303", is none)."""
    source = raw if raw is not None else text
    if len(source) != len(text) or not any(unicodedata.category(c) == "Zs" and c not in _TIES for c in source):
        return None
    runs, start = [], None
    for i, ch in enumerate(source):
        if unicodedata.category(ch) == "Zs" and ch not in _TIES:
            if start is not None:
                runs.append((start, i))
            start = None
        elif start is None:
            start = i
    if start is not None:
        runs.append((start, len(source)))
    return runs


def _span_pieces(span: Span) -> tuple[list[tuple[Span, bool]], bool]:
    """A span cut at its space glyphs: each piece with whether a space stood before it, and whether
    one ends the span."""
    runs = _space_runs(span.text, span.raw) if span.boxes is not None else None
    if runs is None:
        return [(span, False)], False
    b = span.boxes
    return [(replace(span, text=span.text[i:j], x0=b[6 * i], x1=b[6 * (j - 1) + 1], boxes=b[6 * i:6 * j],
                     raw=span.raw[i:j] if span.raw is not None else None), i > 0) for i, j in runs], \
        not runs or runs[-1][1] < len(span.text)


def _spaced_apart(word: Word) -> list[Word]:
    """A word split at the space glyphs inside it (itself when it holds none between its letters)."""
    if " " not in word.text.strip():
        return [word]
    if not word.spans:
        runs = _space_runs(word.text, word.raw) if word.boxes is not None else None
        if runs is None or len(runs) < 2:
            return [word]
        b = word.boxes
        return [replace(word, text=word.text[i:j], x0=b[6 * i], x1=b[6 * (j - 1) + 1], boxes=b[6 * i:6 * j],
                        raw=word.raw[i:j] if word.raw is not None else None) for i, j in runs]
    groups: list[list[Span]] = []
    after_space = True
    for span in word.spans:
        pieces, trailing = _span_pieces(span)
        for piece, spaced in pieces:
            if spaced or after_space:
                groups.append([piece])
            else:
                groups[-1].append(piece)
            after_space = False
        after_space = after_space or trailing
    return [word_from_spans(g) for g in groups] if len(groups) > 1 else [word]


# --------------------------------------------------------------------------- structure
"""Structure: the whole book read page by page, twice where its numbering has gaps."""


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
    anchors_unread: int = 0     # named destinations the reader left unread (build_glyphs.read_anchors)


def read_book(path: Path, count_tokens, workers: int | None = None) -> Reading:
    """A PDF read and structured: read_pdf then structure, timed."""
    import time

    started = time.perf_counter()
    document = read_pdf(path, workers)
    read = time.perf_counter()
    reading = structure(document, count_tokens, path.name)
    reading.pages = len(document.pages)
    reading.anchors_unread = document.anchors_unread
    reading.seconds = {"read": round(read - started, 3), "structure": round(time.perf_counter() - read, 3)}
    return reading


def structure(document: Document, count_tokens, source: str) -> Reading:
    """All pages -> chunks in reading order and sections, then a second look where numbering has gaps.

    Numbering is a sequence: after the first walk, each kind's gaps name the numbers the reader
    missed, and the pages between their neighbours (and the named destinations that point at
    them) say where to look.  The walk runs again accepting, for those numbers on those pages
    only, a head in the body face or an equation number a little off the column's edge."""
    # The second walk meets the first one's lines and formulas again: each is counted and read once.
    count_tokens = lru_cache(maxsize=1 << 16)(count_tokens)
    with remembered_readings():
        return _structure(document, count_tokens, source)


def _structure(document: Document, count_tokens, source: str) -> Reading:
    pages = document.pages
    split_at_spaces(pages)
    drop_icon_glyphs(pages)
    face = text_face(pages)     # (the marks below change no glyph's font or text: it holds for them all)
    mark_maths_italics(pages, face)
    mark_prose_letters(pages)
    mark_greek_letters(pages)
    mark_upright_variables(pages)
    mark_bold_symbols(pages)
    mark_formal_script(pages)
    mark_slanted_relations(pages)
    mark_sans_body(pages)
    join_touching_words(pages)
    with in_text_face(face), in_iso_style(iso_style(pages)), in_maths_signs_apart(maths_signs_apart(pages, face)), \
            in_prose_faces(prose_faces(pages)):
        return _read_structure(document, pages, count_tokens, source)


def _read_structure(document: Document, pages: list[Page], count_tokens, source: str) -> Reading:
    folios, removed = drop_running_lines(pages)
    printed = printed_pages(pages, folios, {p.number: p.label for p in pages if p.label} if document.labelled else None,
                            removed)
    drop_folio_lines(pages, printed, removed)
    pages = read_columns(pages)
    layouts = detect_layout(pages)
    contents = {p.number for p in pages if is_contents_page(p)}
    outline = outline_headings(document)
    with in_division_words(division_words(pages, layouts) | words_numbered_backwards(pages, layouts)):
        return _read_walks(document, pages, layouts, printed, count_tokens, source, contents, outline)


def _read_walks(document: Document, pages: list[Page], layouts: dict[tuple[int, int], Layout], printed: PrintedPages,
                count_tokens, source: str, contents: set[int], outline: dict) -> Reading:
    builder = _walk(pages, layouts, printed, count_tokens, source, contents, {}, outline)
    marked = builder.kinds_ending_in_marks()
    upright = builder.kinds_set_upright()
    if marked or upright:
        # statements of a kind the book ends with its own mark, one of them closed before it: read again,
        # each of them to its mark (the space between its paragraphs may be the space after it); and
        # statements of a kind the book sets upright, one of them opening in emphasis and cut where the
        # upright came back: read again, each of them upright
        builder = _walk(pages, layouts, printed, count_tokens, source, contents, {}, outline, marked, upright)
    wanted = _second_look(builder.out.chunks, document)
    recovered: list[tuple[str, str, int]] = []
    if wanted:
        again = _walk(pages, layouts, printed, count_tokens, source, contents, wanted, outline, marked, upright)
        before = {(c.kind, c.number) for c in builder.out.chunks if c.kind != "text"}
        recovered = [(c.kind, c.number, c.pdf_page) for c in again.out.chunks
                     if c.kind != "text" and (c.kind, c.number) not in before]
        if recovered:
            builder = again
    chunks = builder.out.chunks
    # Formulas were emitted before the text they sit in; reading order is by page then emission.
    for i, c in enumerate(chunks):
        c.ord = i
    # Section page ends and short contents.
    by_section = defaultdict(list)
    for c in chunks:
        for key in LEVELS:
            value = getattr(c, key)
            if value:
                by_section[(key, value)].append(c)
    for s in builder.cursor.sections:
        members = by_section.get((LEVELS[s.level], s.number), [])
        s.page_end = max([c.page for c in members if c.page is not None], default=s.page_start)
        first_text = next((c.content for c in members if c.kind == "text"), "")
        s.content = f"{s.number} {s.title}\n\n{first_text[:600]}".strip()
    return Reading(chunks, builder.cursor.sections, printed, builder.out.duplicates, recovered, layouts[(1, 0)])


def _walk(pages: list[Page], layouts: dict[tuple[int, int], Layout], printed: PrintedPages, count_tokens, source: str,
          skip: set[int], wanted: dict, outline: dict, marked: frozenset = frozenset(),
          upright: frozenset = frozenset()) -> "ChunkBuilder":
    builder = ChunkBuilder(layouts[(1, 0)], printed, count_tokens, source, outline, wanted, marked, upright)
    for page in pages:
        if page.number in skip:
            continue
        builder.layout = layout_of(layouts, page)
        builder.feed_page(page, page_items(page, builder.layout, wanted, builder.out.taken))
    builder.finish()
    return builder


SECOND_LOOK_SPAN = 40     # pages: a missing number is looked for between neighbours at most this far apart
SECOND_LOOK_MAX = 500     # missing numbers looked for per kind (a kind with more gaps is not a sequence)


def _second_look(chunks: list[Chunk], document: Document) -> dict[tuple[str, str], set[int]]:
    """{(kind, number): PDF pages to look at again} for every number missing from a kind's sequence."""
    numbers: dict[str, dict[str, int]] = defaultdict(dict)
    for c in chunks:
        printed = c.extra.get("printed_number")
        if c.kind != "text" and c.number and (not printed or head_number(printed) == c.number):
            # (a number stored qualified, exercise "3" as "2.3", is not in the printed sequence)
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
        found = sorted(((number_key(n), p) for n, p in numbers[kind].items()))
        for number in missing[:SECOND_LOOK_MAX]:
            key = number_key(number)
            # between its neighbours in the sequence: the pages of the numbers just before and after it
            before = next((p for k, p in reversed(found) if k < key), None)
            after = next((p for k, p in found if k > key), None)
            if before is not None and after is not None and before > after:
                before = max(1, after - SECOND_LOOK_SPAN)   # out of order (a number used again in an appendix)
            before = 1 if before is None else before          # the first of its kind: from the start
            after = before if after is None else after        # the last: on its predecessor's page
            near = after - before <= SECOND_LOOK_SPAN
            pages = set(range(before, after + 1)) if near else set()
            wanted[(kind, number)] = pages | anchors.get((kind, number), set())
    return {k: v for k, v in wanted.items() if v}


# --------------------------------------------------------------------------- builder state
"""Builder state: where the reading stands, and what is open (text, a statement, an exercise list)."""

LEVELS = ("part", "chapter", "section", "subsection", "subsubsection")   # a section's level is its index
SPECIAL_TOKENS = 2   # the model's start and end tokens, which count_tokens adds to every piece it counts


def section_id(level: int, number: str) -> str:
    prefix = {0: "part", 1: "chapter"}.get(level, "section")
    return f"{prefix}_{number.replace('.', '_')}"


@dataclass
class PendingLabel:
    """A part's or chapter's label ("Chapter 5") read, its title still coming in display type."""

    level: int
    number: str
    title: str
    line: Line


class SectionCursor:
    """Where the reading stands: the open part, chapter, section, … (number and title each), the
    sections opened so far, a label waiting for its title, and a heading whose title may wrap."""

    def __init__(self, printed: PrintedPages):
        self.printed = printed
        self.sections: list[Section] = []
        self.current: dict[str, tuple[str | None, str] | None] = dict.fromkeys(LEVELS)
        self.pending: PendingLabel | None = None
        self.wrap: HeadingWrap | None = None
        self._by_id: dict[str, Section] = {}

    def number(self, name: str) -> str | None:
        """The open part's, chapter's, … number ("chapter" -> "5"), None where none is open."""
        value = self.current[name]
        return value[0] if value else None

    def location(self) -> dict:
        """The chunk fields that say where a chunk stands: part, part_title, chapter, …"""
        loc = {}
        for name in LEVELS:
            value = self.current[name]
            loc[name] = value[0] if value else None
            loc[f"{name}_title"] = value[1] if value else None
        return loc

    def retitle(self, level: int, number: str, title: str) -> bool:
        """True when this heading is the one already open (its label line, then its bookmark's
        title line); its title is filled in if it was missing."""
        name = LEVELS[level]
        known = self._by_id.get(section_id(level, number))
        if known is None or not (self.current[name] and self.current[name][0] == number):
            return False
        if title and not known.title:
            known.title = title
            self.current[name] = (number, title)
        return True

    def enter(self, level: int, number: str, title: str, pdf_page: int) -> None:
        """Open a numbered section: deeper levels close; a section seen before is not listed twice."""
        for name in LEVELS[level:]:
            self.current[name] = None
        self.current[LEVELS[level]] = (number, title)
        parent = None
        for lvl in range(level - 1, -1, -1):
            if self.current[LEVELS[lvl]] and self.current[LEVELS[lvl]][0]:
                parent = section_id(lvl, self.current[LEVELS[lvl]][0])
                break
        sid = section_id(level, number)
        if sid in self._by_id:
            return
        section = Section(sid, level, number, title, parent, self.printed.number(pdf_page), pdf_page,
                          ord=len(self.sections))
        self.sections.append(section)
        self._by_id[sid] = section

    def enter_unnumbered(self, level: int, title: str) -> None:
        """An unnumbered heading (Preface, Bibliography, Index): the text after it belongs to no numbered part."""
        for name in LEVELS[level:]:
            self.current[name] = None
        self.current[LEVELS[level]] = (None, title)

    def continue_title(self, text: str, line: Line) -> None:
        """The open heading's title wraps onto this line."""
        wrap = self.wrap
        wrap.section.title += " " + text
        self.current[wrap.level_name] = (wrap.section.number, wrap.section.title)
        wrap.bottom = line.bottom


# Thresholds for where a statement (a run-in entity) ends.
ITALIC_STATEMENT = 0.6      # a statement is set in italic when more than this share of its first words are
UPRIGHT_RETURN = 0.5        # ... and it ends at a line where fewer than this share of the words are
ITALIC_EVIDENCE = 4         # words of prose: fewer on the head's line let the line under it say the face
STATEMENT_BREAK = 3.2       # em: a gap this wide ends a statement (a display inside it is set closer)
ENVIRONMENT_SKIP = 1.45     # leadings: an environment is set off by extra space after it
DEFAULT_LEADING = 1.2       # em: the leading when the book's could not be measured
NEW_PARAGRAPH_INDENT = 3    # em: a paragraph's first line is indented by less than this
STATEMENT_MAX_LINES = 120   # lines: a statement longer than this is running text after all
PARAGRAPH_WORDS = 4         # words: an indented line this long opens a paragraph (a display's row is shorter)
SENTENCE_ENDS_RE = re.compile(r"(?<!\bi\.e)(?<!\be\.g)[.!?][)\]’”'\"]*$")   # (a full stop before closing brackets and quotes: "(… stuck.)";
                                                                 # not "i.e." nor "e.g.", whose sentence goes on)
END_MARK_SLACK = 2          # pt: a drawn end mark stands within the line's height, give or take this
END_MARK_REACH = 40         # em: ... after its last word, on the same line, up to the column's edge
END_MARK_MIN = 0.3          # em: ... and is a square from this size up to the type's size
END_MARK_OVERHANG = 1.0     # em: ... ending no further than this past its column's edge
ANSWER_HEAD_RE = re.compile(r"\s*\b(Solution:|Answer:|Hint:)")   # inside an exercise, each starts a line


@dataclass
class OpenBlock:
    """A run-in statement being read (theorem, example, exercise …): its head, and the lines and
    margin notes it has taken so far."""

    kind: str
    number: str
    title: str
    page: int                 # the PDF page of its head
    printed: str | None       # the number as printed, when it is stored qualified (item "3" as exercise "2.3")
    italic: bool              # its statement is set in italic: upright text ends it
    box: tuple | None         # the frame it is set in
    lines: list[Line] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)   # the text inside drawings it holds, kept apart
    drawing: tuple | None = None                      # (page, bottom) of the last drawing it holds
    skip_above: float | None = None   # the baseline step from the line before its head to the head
    skip_here: bool = False           # ... measured on its head's page (else the last measured in the book)
    skip_after_text: bool = False     # ... from a line of running text (a display's own skip may be wider)
    spaced_alike: bool = False        # a statement of its kind met before ended at a step as wide as its head's
    ended_spaced_alike: bool = False  # it ended so itself
    italic_words: int = 0             # the words of prose its italic was told by
    head_mixed: bool = False          # ... some of them upright (an emphasised term, in either face)
    head_x0: float | None = None      # where its head line starts (a box's inset, where its lines start)
    inset: float = 0.0                # how far in from the column's edge its head line starts
    inset_lines: int | None = 0       # its lines of text so far that start there too (None: one did not)
    item: bool = False                # an item of an exercise list ("1.", "2." …), not a run-in head
    to_mark: bool = False             # the book ends every statement of its kind with a mark: it runs to its own
    lead_rows: list = field(default_factory=list)   # rows of a display its lead-in introduced (at the edge, too)
    marked: bool = False              # it ended at its own end mark
    cut_upright: bool = False         # read as italic, it ended where upright text came back

    @property
    def block_inset(self) -> float:
        """How far in from the column's edge the statement is set as a block (its head and two lines of
        text or more at one inset, deeper than a paragraph's indent), else 0."""
        return self.inset if self.inset_lines is not None and self.inset_lines >= 2 and \
            self.inset > PARAGRAPH_INDENT else 0.0

    def takes(self, line: Line, layout: Layout, boxes=()) -> bool:
        """Whether a line continues the statement (and, when it does, where its text stands)."""
        taken = self._takes(line, layout, boxes)
        if taken:
            self.ended_spaced_alike = False   # (told only by the line that ends it)
        # the rows of a display under a lead-in, and the rows of maths right under them, are set apart
        # wherever they start: the space after them is the display's
        if taken and self.lines and (_display_after_lead_in(self.lines[-1], line, layout) or any(
                self.lines[-1] is r for r in self.lead_rows) and line.page == self.lines[-1].page and _maths_only(line)):
            self.lead_rows.append(line)
        if taken and self.inset_lines is not None and not self._set_apart(line, layout, boxes):
            # (a line at the head's inset under one that stops short of the column's edge opens a paragraph:
            # the inset is a paragraph's indent, as amsbook indents its heads, not a block's; a frame's
            # lines stop short of the column's edge, all of them)
            last = self.lines[-1] if self.lines else None
            ended = last is not None and last.page == line.page and self.box is None and \
                last.x1 < layout.right - layout.body_size * PARAGRAPH_END_SHORT
            if abs(line.x0 - layout.left - self.inset) <= INDENT_MATCH and not ended:
                self.inset_lines += 1
            else:
                self.inset_lines = None
        return taken

    @staticmethod
    def _set_apart(l: Line, layout: Layout, boxes) -> bool:
        """A displayed formula, or a block of code (verbatim); never a list's item of running words."""
        if _list_item(l, layout):
            return False   # (in from the edge and, in an italic statement, of few upright words: still text)
        # (a display as wide as a narrow column starts near its edge: its number at the edge says it is one)
        # (a display wider than the column starts at its edge and runs past the other: TeX lets a display
        # overrun the measure, never a line of a paragraph by as much)
        overrun = l.x1 > layout.right + layout.body_size * OVERRUN and math_share(l.words) >= MOSTLY_MATHS
        return is_display(l, layout) or all(w.mono for w in l.words) or overrun or \
            framed_equation_label(l, layout, boxes) is not None

    def _takes(self, line: Line, layout: Layout, boxes=()) -> bool:
        """Whether a line continues the statement.

        It ends at a box's edge (a shaded theorem), where a statement set in italic returns to the
        upright body face, after a wide gap, or at its length limit; heads, headings and end marks
        (checked by the caller) end it too."""
        lines = self.lines

        def set_apart(l: Line) -> bool:
            return self._set_apart(l, layout, boxes) or any(l is r for r in self.lead_rows)
        if self.box is not None and line.page == self.page and not inside(line, self.box, pad=FRAME_PAD):
            return False
        # a statement set as a block in from the column's edge, head and text alike (an indented
        # enumeration, a troff .RS block), ends where text comes back to the edge
        if self.block_inset and line.x0 - layout.left < self.block_inset - PARAGRAPH_INDENT and \
                len(line.words) >= PARAGRAPH_WORDS and not set_apart(line):
            return False
        if lines and line.size > layout.body_size * DISPLAY_TYPE and not layout.faceless:
            return False      # a line in the display type chapters open in is a heading's ("Two" overleaf; a
                              # scan's OCR layer sizes its words by their ink, a display's rows large)
        if self.box is not None and line.page != self.page and not any(inside(line, b, pad=FRAME_PAD) for b in boxes):
            return False      # a framed statement goes on overleaf only in the frame's continuation
        # (in a frame the frame's end is the statement's: an upright line there says nothing, as when an
        # example's first sentence is all emphasis, "Claim: *The sequence … is convergent and*" / "Proof: …")
        # (nor is a head with no number, "Solution" alone on its line in bold, the body face's return: it ends
        # a statement as a proof's head does, build_roles.ends_statement, and an exercise keeps it)
        if self.italic and self.box is None and not unnumbered_head(line, layout):
            # (an operator's name, "sup B = sup A", is upright in maths set inside the italic: no prose)
            prose = [w for w in line.words if w.text.isalpha() and len(w.text) > 2 and w.text not in OPERATOR_NAMES
                     and not is_math_font(w.font)]
            if prose and sum(w.italic for w in prose) < len(prose) * UPRIGHT_RETURN and not set_apart(line):
                if len(lines) != 1 or self.italic_words >= ITALIC_EVIDENCE and not self.head_mixed or \
                        SENTENCE_ENDS_RE.search(lines[0].text):
                    # (an upright term the line above breaks off mid-sentence runs on here: its words, up
                    # to the statement's italic again, are the term's, not the body face's return)
                    lead = next((i for i, w in enumerate(line.words) if w.italic), len(line.words)) \
                        if lines and _emphasis_runs_on(lines[-1]) else 0
                    rest = [w for w in line.words[lead:] if w.text.isalpha() and len(w.text) > 2]
                    if not lead or rest and sum(w.italic for w in rest) < len(rest) * UPRIGHT_RETURN:
                        self.cut_upright = True
                        return False
                else:
                    # told by a few words on the head's line, or by words in both faces there (the term an
                    # upright definition emphasises, "In the *economic order quantity model* demand"), its
                    # sentence going on: the line under it, upright, says the statement is (an italic one
                    # that ends on its head's line ends before upright text, and with a sentence)
                    self.italic = False
        # The next item of a list the statement holds ("(ii)" after "(i)"), or a line after one that a colon
        # leaves open, goes on with it, whatever the space above: a page TeX stretched to its foot (a box
        # that would not break went overleaf) spreads the items of a list as far apart as its paragraphs.
        # So does a list's item under a line whose sentence runs on into it ("… experiments where" / "1. …"): a
        # list inside the statement, wherever \parskip makes its items as far apart as the text after it.
        if lines and (_next_list_item(lines if not self.item else lines[1:], line, layout) or _leaves_open(lines[-1])
                      or _list_label(line, layout) and _runs_on(lines[-1]) and not _display_line(lines[-1], layout, boxes)
                      # (and the first item of a list right under the statement's text, whatever ends the line above,
                      # "… joint density π(x, y)." / "1. The marginal …": text after a statement opens with prose)
                      or _first_list_item(lines, line, layout) and not self.item and line.page == lines[-1].page
                      and not _display_line(lines[-1], layout, boxes)
                      # (and a paragraph opening with a phrase in bold, as one the statement holds does)
                      or _bold_lead_follows(lines, line)
                      # (and the line after an item that ends on a semicolon or comma, "… almost zero;" / "then X is …",
                      # or on a comma after maths with the sentence going on in lower case, "…, 1.66)," / "and they …")
                      or (_clause_open(lines[-1]) or _sentence_runs_on(lines[-1], line)) and line.page == lines[-1].page and
                      line.top - lines[-1].bottom <= layout.body_size * STATEMENT_BREAK
                      # (and a display's first row under a lead-in that TeX broke short, "… we can write")
                      or _display_after_lead_in(lines[-1], line, layout)) and \
                (line.page == lines[-1].page or not self.box):
            return len(lines) < STATEMENT_MAX_LINES
        # below a drawing the statement holds, the gap is measured from the drawing, as after a display
        drawn = self.drawing is not None and self.drawing[0] == line.page and bool(lines) and \
            lines[-1].page == line.page and self.drawing[1] > lines[-1].bottom
        above = self.drawing[1] if drawn else lines[-1].bottom if lines else 0.0
        # A statement of a kind the book ends with its own mark (ntheorem's \theoremsymbol, amsthm's \qed
        # in an example: TeX sets one after every statement of the kind) goes on to that mark, whatever the
        # space between its paragraphs (\parskip sets them as far apart as the text after it); heads,
        # headings and a frame's end still end it.
        if self.to_mark:
            return len(lines) < STATEMENT_MAX_LINES
        if lines and line.page == lines[-1].page and line.top - above > layout.body_size * STATEMENT_BREAK \
                and not set_apart(line):
            return False
        # (a number alone on its line is the display's just above, which TeX set too wide to hold it)
        lone_number = len(line.words) == 1 and framed_equation_label(line, layout, boxes) is not None
        # (a piece that reaches up into the line above is none: TeX sets a display below that line's depth,
        # and what it holds there is that line's, an inline fraction's denominator hung under it)
        if lines and self.box is None and is_display(line, layout) and not _list_item(line, layout) and _ends_sentence(lines[-1]) \
                and (len(lines) == 1 or not set_apart(lines[-1])) and not lone_number and not _at_item_text(lines, line) \
                and not (line.page == lines[-1].page and line.top < lines[-1].bottom):
            return False   # a formula displayed after the statement's last sentence is the text's, not the statement's
        if lines and not self.italic and self.box is None:
            last = lines[-1]
            leading = layout.leading or layout.body_size * DEFAULT_LEADING
            # (the head's own line is never a display; a display here is a formula, not a block of code)
            after_display = len(lines) > 1 and _display_line(last, layout, boxes)
            # an indented line of words opens a paragraph; not a list's next item, nor a line at an indent
            # the statement has set text at already (the hanging indent of its list's items)
            indented = layout.left + PARAGRAPH_INDENT < line.x0 < layout.left + \
                layout.body_size * NEW_PARAGRAPH_INDENT and len(line.words) >= PARAGRAPH_WORDS and \
                not LIST_MARK_RE.fullmatch(line.words[0].text)
            opens_paragraph = indented and not _indent_used(lines, line)
            # (the words after the head on its line are never set apart, however short and far in they
            # start: a one-line statement's text after a long head ends well short of the column's edge;
            # nor is a list item's next line under a full one, at the indent the item's text starts at,
            # however few its words: "n than 4 exists. Thus |3| = 4 in G." is the item's sentence going on;
            # nor a line that finishes a formula the line above broke after an operator, "… since x +")
            last_set_apart = set_apart(last) and not (len(lines) > 1 and (
                _hangs_under(last, lines[-2], layout) or _formula_runs_on(lines[-2], last, layout)))
            last_apart = len(lines) > 1 and last_set_apart
            # (reading up the page again: the statement's last column ended, and the next one begins)
            if line.page == last.page and line.baseline > last.top:
                # An environment is set off by extra space after it; displays inside it are too, so a gap
                # next to a display does not end it.  (Lines whose contents would touch at the leading, an
                # inline fraction on either, TeX sets \lineskip apart: that part of the step is no glue; but a
                # step that is the very space measured above the head on this page is that glue, whatever the
                # lines hold, the more so as a radical's or a delimiter's box stands higher than its ink.)
                step = line.baseline - last.baseline
                excess = _lineskip_excess(last, line, leading)
                if not (self.skip_here and self.skip_above is not None and abs(step - self.skip_above) <= SKIP_MATCH):
                    step -= excess
                # TeX sets at least the space it set above the head after the environment (\addvspace takes the
                # larger of a display's skip and the environment's): where the book's statements of this kind
                # were seen to end at a step as wide as their head's, a step after a display narrower than the
                # one above the head on this page (from a line of text) is the display's own skip, and the
                # indented paragraph under it is the statement's (amsart's short skip under a display).  Only
                # under a display of one row: the step is measured from its baseline, and a fraction's
                # denominator or a lower row stands below the baseline TeX's skip is set from.
                if after_display and opens_paragraph and self.spaced_alike and self.skip_here and \
                        len(_trailing_display(lines, layout, boxes)) == 1 and \
                        self.skip_after_text and line.page == self.page and self.skip_above is not None and \
                        step < self.skip_above - SKIP_MATCH and not set_apart(line):
                    return len(lines) < STATEMENT_MAX_LINES
                # (a statement of running text ended by a paragraph one step as wide as its head's on this page)
                self.ended_spaced_alike = not after_display and indented and self.skip_here and \
                    line.page == self.page and self.skip_above is not None and \
                    self.skip_above - leading > leading * SKIP_EXTRA and abs(step - self.skip_above) <= SKIP_MATCH
                if step > leading * ENVIRONMENT_SKIP and not set_apart(line) and not last_set_apart and not drawn \
                        and not _list_space_after(lines, line, layout):
                    return False
                # The space TeX sets after an environment is the space it set before its head (a theorem's
                # \topsep): a step as much wider than the leading as the one above the head, to an indented
                # paragraph, ends it, on a page set tight too (a list inside it has a \topsep of its own).
                # One measured on another page matches more loosely: TeX shrinks or stretches each page's glue.
                match = SKIP_MATCH if self.skip_here else layout.body_size * SKIP_MATCH_ELSEWHERE
                as_above = self.skip_above is not None and self.skip_above - leading > leading * SKIP_EXTRA and \
                    abs(step - self.skip_above) <= match
                # (or less, after a sentence: the space above the head may be the larger one of the
                # environment before it, and a remark's style sets half a theorem's space round it)
                # (lines spread wider than TeX's own leading, double spacing, leave \topsep as it was: a third
                # of an em of extra space tells then, though less than a quarter of that leading)
                # (the step less its \lineskip part: matching the step above a head is no evidence where that
                # step itself is too small to be an environment's, a remark's half space above a head's line
                # holding a tall fraction, widened by \lineskip as much as the line under it)
                glue = line.baseline - last.baseline - excess
                after_sentence = glue - leading > min(leading * SKIP_EXTRA, layout.body_size * SKIP_EXTRA_EM) and \
                    _ends_sentence(last)
                if (as_above or after_sentence) and indented and not set_apart(line) \
                        and not last_apart and not drawn and \
                        not _list_open(lines, layout):
                    return False
                # A paragraph set flush (\noindent, or a book that indents none) tells its start only by the
                # space above it: where the statement's last paragraph ended (a sentence, short of the
                # column's edge) and the step to a line at the edge is the very step above the head on its
                # page, it is the same glue after the environment as before it (TeX stretches both alike);
                # a paragraph's own skip inside the statement is other glue and differs by more.
                exact = self.skip_here and line.page == self.page and self.skip_above is not None and \
                    self.skip_above - leading > leading * SKIP_EXTRA and abs(step - self.skip_above) <= SKIP_EXACT
                if exact and abs(line.x0 - layout.left) <= INDENT_MATCH and len(line.words) >= PARAGRAPH_WORDS \
                        and _ends_sentence(last) and last.x1 < layout.right - layout.body_size * PARAGRAPH_END_SHORT \
                        and not set_apart(line) and not last_apart and not drawn and \
                        not _list_open(lines, layout):
                    return False
                # After a display no extra space tells (TeX takes the larger of the display's skip and
                # the environment's), but a display that closes a sentence and an indented paragraph
                # after it do: text inside the statement goes on at the column's edge.
                # (not an exercise list's item, which its next item ends, paragraphs and all; a run-in "Problem
                # 2.2." stated as a theorem is, as a run-in "Exercise 1.4." is)
                if after_display and not set_apart(line) and opens_paragraph and not self.item \
                        and _display_ends_sentence(_trailing_display(lines, layout, boxes)):
                    return False
            elif opens_paragraph and (_display_ends_sentence(_trailing_display(lines, layout, boxes)) if after_display
                                      else _ends_sentence(last)):
                return False   # it ended with its page or column; an indented new paragraph begins in the next
        return len(lines) < STATEMENT_MAX_LINES


INDENT_MATCH = 1.0     # pt: two lines start at one indent
LINESKIP = 1.0         # pt: TeX's \lineskip, the space it sets between lines whose contents would touch


def _lineskip_excess(above: Line, below: Line, leading: float) -> float:
    """How much farther apart TeX set two lines of a paragraph than the leading because their contents
    (an inline fraction, a tall sum) would touch at it: the depth of the one above and the height of the
    one below, \lineskip between them.  0 for lines of ordinary height.  A radical sign's box is its
    font's, far higher than its ink and than the radicand under it: left out, its radicand stands for it."""
    depth = max((w.bottom - above.baseline for w in above.words if w.text not in RADICALS), default=0.0)
    height = max((below.baseline - w.top for w in below.words if w.text not in RADICALS), default=0.0)
    return max(0.0, depth + height + LINESKIP - leading)


RADICALS = frozenset("√∛∜⎷")

OVERRUN = 1.0          # em: a line that runs this far past the column's edge, mostly maths, is a display
SKIP_EXTRA = 0.25      # leadings: the extra space above a head that sets its environment off
SKIP_EXTRA_EM = 0.3    # em: ... or this, where the lines are spread (a quarter of a 1.2 em leading)
SKIP_MATCH = 1.0       # pt: the step after the environment equals the one before its head within this
SKIP_MATCH_ELSEWHERE = 0.25   # em: ... or the one last measured before a head on another page, within this
SKIP_EXACT = 0.2       # pt: ... to a flush paragraph, within this (one glue set twice on a page, rounded)
PARAGRAPH_END_SHORT = 1.0     # em: a paragraph's last line ends at least this short of the column's edge


def _list_item(line: Line, layout: Layout) -> bool:
    """A list's item: a label ("(1)", "b)", "•") at a list's indent from the column's edge (not a centred
    heading's number, "6. Field extensions") opening a line of running words (two or more, in a text face)."""
    return bool(line.words) and LIST_MARK_RE.fullmatch(line.words[0].text) is not None and \
        line.x0 < layout.left + layout.body_size * LIST_LABEL_INDENT and \
        sum(1 for w in line.words[1:] if _TEXT_WORD_RE.fullmatch(w.text) and not is_math_font(w.font)) >= 2


_TEXT_WORD_RE = re.compile(r"[^\W\d_]{3,}[,.;:]?")   # a word of running text, its punctuation after it


_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv")
_LABEL_RE = re.compile(r"(\(?)(\d{1,2}|[a-z]|[ivx]{1,4})([.)])")


def _label_follows(before: str, after: str) -> bool:
    """Whether list label `after` is the one after `before` in their sequence: 1 -> 2, a -> b, ii -> iii
    ("(i)" may be a letter or a numeral), in the same brackets and punctuation."""
    a, b = _LABEL_RE.fullmatch(before), _LABEL_RE.fullmatch(after)
    if a is None or b is None or a.group(1) != b.group(1) or a.group(3) != b.group(3):
        return False
    x, y = a.group(2), b.group(2)
    if x.isdigit():
        return y.isdigit() and int(y) == int(x) + 1
    letter = len(x) == 1 and len(y) == 1 and ord(y) == ord(x) + 1
    roman = x in _ROMAN and _ROMAN.index(x) + 1 < len(_ROMAN) and _ROMAN[_ROMAN.index(x) + 1] == y
    return letter or roman


def _next_list_item(lines: list[Line], line: Line, layout: Layout) -> bool:
    """Whether a line opens the next item of the last list item the statement holds (an exercise item's
    own line aside, by the caller): the numbering goes on, so the list, and the statement round it, does.  The sequence
    says it whatever the item holds (maths alone, "2. ∀A ∈ B  A^C ∈ B;"); a bullet, the same bullet at
    the same indent."""
    if not _list_label(line, layout):
        return False
    for l in reversed(lines):   # (a head's line opens with a word, a break-style head's first line may with a label)
        if l.words and LIST_MARK_RE.fullmatch(l.words[0].text):
            before, after = l.words[0].text, line.words[0].text
            bullet = before == after and not before[0].isalnum() and before[0] != "(" and abs(l.x0 - line.x0) <= INDENT_MATCH
            return bullet or _label_follows(before, after)
    return False


BOLD_LEAD_WORDS = 2     # words: a paragraph's lead-in phrase in bold is at least this long


def _bold_lead(line: Line) -> bool:
    """Whether a line opens with a phrase in bold (two words or more, of letters, in one bold face) and
    goes on in another face: "**Prior distribution** π(θ). We now …"."""
    words = line.words
    if len(words) <= BOLD_LEAD_WORDS or not words[0].bold:
        return False
    lead = words[:BOLD_LEAD_WORDS]
    return all(w.bold and w.font == words[0].font and w.text.strip(".:,").isalpha() for w in lead) and \
        any(not w.bold for w in words[BOLD_LEAD_WORDS:])


def _bold_lead_follows(lines: list[Line], line: Line) -> bool:
    """Whether a line opens a paragraph with a phrase in bold at the indent of one the statement holds
    already (its head's line aside): paragraphs led so, "Likelihood …", "Prior …", "Posterior …", are a
    sequence, as a list's items are, and the statement goes on through them."""
    if not _bold_lead(line):
        return False
    return any(_bold_lead(l) and l.words[0].font == line.words[0].font and abs(l.x0 - line.x0) <= INDENT_MATCH
               for l in lines[1:])


def _holds_list(lines: list[Line]) -> bool:
    """Whether a statement's lines (its head's line aside) hold a list: a line opening with a list's mark."""
    return any(l.words and LIST_MARK_RE.fullmatch(l.words[0].text) for l in lines[1:])


def _list_space_after(lines: list[Line], line: Line, layout: Layout) -> bool:
    """Whether the step from a statement's last line, in a list it holds that no sentence has closed, to a
    line after it is the list's own space: TeX sets a list's \\topsep above its first item and again after its
    last, so the step equals the one to that first item (both on one page).  A statement that ends with its
    list ends with its last item's sentence, or with a wider step (the environment's own space after it);
    the list's own space after an item of words that its sentence leaves open says the text goes on ("…
    choices" / "1. …" / "3. Record the sum of the two numbers" / "In the first case …"); items of maths
    alone ("(d) C \\ A") say nothing."""
    first = next((i for i in range(len(lines) - 1, 0, -1) if _list_label(lines[i], layout)
                  and not _list_label(lines[i - 1], layout) and lines[i - 1].x0 < lines[i].x0 - INDENT_MATCH), None)
    if first is None or lines[first - 1].page != lines[first].page or lines[-1].page != line.page or \
            lines[-1].x0 < lines[first].x0 - INDENT_MATCH or not _runs_on(lines[-1]) or \
            sum(1 for w in lines[-1].words if _TEXT_WORD_RE.fullmatch(w.text) and not is_math_font(w.font)) < LIST_PROSE_WORDS:
        return False
    above_list = lines[first].baseline - lines[first - 1].baseline
    return abs(line.baseline - lines[-1].baseline - above_list) <= SKIP_MATCH


LIST_PROSE_WORDS = 3    # running words on an item's line at least, for it to be read as prose left open


def _list_open(lines: list[Line], layout: Layout) -> bool:
    """Whether a statement's lines hold a list its text has not yet left: no line after the last item's label
    is back at the column's edge (an item's lines hang at its text's indent; the statement's paragraph after
    the list runs to the edge)."""
    last = next((i for i in range(len(lines) - 1, 0, -1) if lines[i].words and
                 LIST_MARK_RE.fullmatch(lines[i].words[0].text)), None)
    return last is not None and not any(l.x0 <= layout.left + INDENT_MATCH for l in lines[last + 1:])


def _first_list_item(lines: list[Line], line: Line, layout: Layout) -> bool:
    """Whether a line opens a list's first item ("1.", "(a)", "i)", a bullet) at a list's indent, running
    words after its label (or, in a list set in columns, whatever it holds), where the statement's lines
    so far hold no list (its head's aside)."""
    if not _list_item(line, layout) and not _columned_items(line, layout):
        return False
    label = _LABEL_RE.fullmatch(line.words[0].text)
    if label is not None and label.group(2) not in ("1", "a", "i"):
        return False
    return not _holds_list(lines)


COLUMN_GAP = 3   # em: a list set in columns starts its next column at least this far right of its first


def _columned_items(line: Line, layout: Layout) -> bool:
    """Whether a line holds the items of a list set in columns (multicols, or a table of items): it opens
    with a list's label at a list's indent and holds another label of the same form (brackets and
    punctuation) further right, where the next column starts, "(a) A ∩ C   (f) C \\ B".  The items may be
    maths alone; text after a statement never sets two labels side by side."""
    if not _list_label(line, layout):
        return False
    first = _LABEL_RE.fullmatch(line.words[0].text)
    if first is None:
        return False
    for w in line.words[2:]:
        other = _LABEL_RE.fullmatch(w.text)
        if other is not None and other.group(1) == first.group(1) and other.group(3) == first.group(3) and \
                w.x0 - line.x0 >= layout.body_size * COLUMN_GAP and not is_math_font(w.font):
            return True
    return False


def _list_label(line: Line, layout: Layout) -> bool:
    """A line that opens with a list's label ("1.", "(a)", "•") at a list's indent from the column's edge,
    something after it."""
    return len(line.words) >= 2 and LIST_MARK_RE.fullmatch(line.words[0].text) is not None and \
        line.x0 < layout.left + layout.body_size * LIST_LABEL_INDENT


_OPEN_END_RE = re.compile(r"[A-Za-z]{2,}")    # a last word of prose with no stop after it: its sentence goes on


def _runs_on(last: Line) -> bool:
    """Whether a line of text ends on a word of prose with no punctuation after it ("… experiments where")."""
    return _ends_in_text(last, _OPEN_END_RE)


def _ends_in_text(last: Line, pattern: re.Pattern) -> bool:
    """Whether a line's last word, set in a text font (not maths), is all of `pattern`."""
    return bool(last.words) and pattern.fullmatch(last.words[-1].text) is not None and \
        not is_math_font(last.words[-1].font)


_CLAUSE_END_RE = re.compile(r"[^\W\d_]{2,}[;,]")   # a word of prose and the semicolon or comma after it


def _sentence_runs_on(last: Line, line: Line) -> bool:
    """Whether a line goes on with the sentence of the line above it across the end of a list: the line
    above ends on a comma after whatever it holds (an item of maths, "3. U₃ ≈ (0.11, 1.66),") and this
    one opens with a word of prose in lower case ("and they approach …").  Text after a statement opens a
    sentence of its own, with a capital; a lower-case word after a comma is the same sentence."""
    if not last.words or not line.words or not last.words[-1].text.endswith(","):
        return False
    first = line.words[0]
    return first.text.isalpha() and first.text[:1].islower() and len(first.text) > 1 and not first.italic \
        and not is_math_word(first)


def _display_after_lead_in(last: Line, line: Line, layout: Layout) -> bool:
    """Whether a line is the first row of a display that a lead-in introduces: the line above ends on a
    word of prose with no stop ("… we can write") well short of the column's edge, where TeX breaks a
    paragraph's line only before a display (the sentence runs on into it), and this line, on the same
    page within a statement's gap, is mostly maths with no word of prose.  A row of an aligned display as
    wide as the column starts nearer the edge than a centred formula, a display's usual indent, or at the
    edge itself ("m₁ = inf {…} = 1,   M₁ = sup {…} = 1,"), but what the line above leaves open says it is
    one: a justified line ends at the column's edge, and one that ends short with its sentence open is
    broken there for a display (a title in bold, "Equation 3.6. Marginal value of a reorder point", is no
    sentence)."""
    return line.page == last.page and _runs_on(last) and not last.words[-1].bold and \
        last.x1 < layout.right - layout.body_size * LEAD_IN_SHORT and \
        line.x0 > layout.left - INDENT_MATCH and _maths_only(line) and \
        0 < line.top - last.bottom <= layout.body_size * STATEMENT_BREAK


def _maths_only(line: Line) -> bool:
    """Mostly maths, and no word of prose (an operator's name, "inf", "sup", is the formula's, and so is a
    connective set off by quads); not a list's item of maths ("3. U₃ ≈ (0.11, 1.66),"), which its label tells."""
    words = line.words
    return not LIST_MARK_RE.fullmatch(words[0].text) and math_share(words) >= MOSTLY_MATHS and \
        not any(PROSE_WORD_RE.fullmatch(w.text) and not is_math_word(w) and w.text not in OPERATOR_NAMES
                and not _set_off_by_quads(words, i) for i, w in enumerate(words))


def _set_off_by_quads(words: list, i: int) -> bool:
    """Whether a word of prose between two formulas stands a quad or more from each ("… = |1−x|  and  ½ > …",
    `\\qquad\\text{and}\\qquad`): a display's connective.  A justified line of prose spaces its words
    alike, a third of an em or so, and the quads stand out against the line's narrowest space."""
    if not 0 < i < len(words) - 1:
        return False
    before, after = words[i].x0 - words[i - 1].x1, words[i + 1].x0 - words[i].x1
    narrowest = min(b.x0 - a.x1 for a, b in zip(words, words[1:]))
    quad = words[i].size * CONNECTIVE_QUAD
    return min(before, after) >= quad and min(before, after) >= narrowest * CONNECTIVE_SPACES


LEAD_IN_SHORT = 2   # em: a lead-in's last line ends at least this short of the column's edge
CONNECTIVE_QUAD = 1        # em: a display's connective stands at least this far from the formulas either side ...
CONNECTIVE_SPACES = 3      # ... and this many times as far as the row's narrowest space


def _clause_open(last: Line) -> bool:
    """Whether a line of text ends a clause of its sentence, not the sentence ("… almost zero;"): a word of
    prose with a semicolon or comma after it."""
    return _ends_in_text(last, _CLAUSE_END_RE)


def _leaves_open(last: Line) -> bool:
    """Whether a line ends on a colon, the note mark set after it aside ("… the following:⁴", a superscript
    figure smaller than the word before it, or the same word's raised run)."""
    words = last.words
    if not words:
        return False
    end = words[-1]
    if _note_mark_after(words):
        end = words[-2]
    elif len(end.spans) > 1 and end.text.rstrip("0123456789").endswith(":") and end.text[-1].isdigit():
        return True
    return end.text.endswith(":")


def _note_mark_after(words: list[Word]) -> bool:
    """Whether the last of a line's words is a note's mark set after the word before it: a figure or two,
    or a symbol, smaller than that word."""
    end = words[-1]
    return _is_note_mark(end.text) and len(words) > 1 and end.size < words[-2].size * NOTE_MARK_SIZE


def _is_note_mark(text: str) -> bool:
    """A note's mark as books print it: a figure or two, or a symbol of the footnote symbols' sequence
    once, twice or thrice (LaTeX's \\fnsymbol: ∗ † ‡ § ¶ ‖ ∗∗ †† ‡‡, \\thanks on a title; an asterisk
    of the text face)."""
    return NOTE_MARK_RE.fullmatch(text) is not None


NOTE_MARK_RE = re.compile(r"\d{1,2}|[*∗†‡§¶‖⋆]{1,3}")


def _ends_sentence(line: Line) -> bool:
    """Whether a line's text ends a sentence, a note's mark set after its full stop aside: "… is
    monotone.⁴" ends its sentence as "… is monotone." does (the mark is the note's, not the sentence's),
    whether the mark stands apart or is the last word's raised run."""
    words = line.words
    if not words:
        return False
    text = line.text
    if _note_mark_after(words):
        text = words[-2].text
    elif len(words[-1].spans) > 1:
        spans = words[-1].spans
        mark, before = spans[-1], spans[-2]
        if _is_note_mark(mark.text) and mark.size < before.size * NOTE_MARK_SIZE and \
                mark.baseline < before.baseline:
            text = "".join(s.text for s in spans[:-1])
    return SENTENCE_ENDS_RE.search(text) is not None


NOTE_MARK_SIZE = 0.85   # a note's mark is set at most this size of the text round it


def _emphasis_runs_on(last: Line) -> bool:
    """Whether a line of an italic statement ends mid-sentence on an upright word of prose, not the
    head's bold (an emphasised term, "the *eco-*" / "*nomic order quantity*", going on under it)."""
    word = last.words[-1] if last.words else None
    return word is not None and not word.italic and not word.bold and not word.mono and \
        word.text.rstrip("-").isalpha() and not SENTENCE_ENDS_RE.search(last.text)


def _indent_used(lines: list[Line], line: Line) -> bool:
    """Whether a statement already set a line of text at this line's indent (its head's line aside)."""
    return any(l.page == line.page and abs(l.x0 - line.x0) < INDENT_MATCH for l in lines[1:])


def _trailing_display(lines: list[Line], layout: Layout, boxes=()) -> list[Line]:
    """The rows of the display a statement's lines end with, on its last page (never its head's line)."""
    rows = []
    for line in reversed(lines[1:]):
        if line.page != lines[-1].page or not _display_line(line, layout, boxes):
            break
        rows.append(line)
    return rows


def _display_ends_sentence(rows: list[Line]) -> bool:
    """Whether a display closes a sentence: one of its rows ends with a full stop before its number
    (not a row of dots, nor the dots of an ellipsis)."""
    for row in rows:
        words = list(row.words)
        while words and equation_number(words[-1].text) is not None:
            words.pop()
        dots = [set(w.text) <= {"."} for w in words]
        ellipsis = len(words) > 1 and dots[-2] and words[-1].x0 - words[-2].x1 < row.size * ELLIPSIS_GAP
        if words and words[-1].text.endswith(".") and not all(dots) and not ellipsis:
            return True
    return False


STATEMENT_WORDS = 12   # words (3+ letters): a statement's prose says this much when it is embedded alone


def says_words(line: Line) -> bool:
    """A line of words, not of code (monospaced throughout) or data (numbers, no letter at all)."""
    return not all(w.mono for w in line.words) and any(c.isalpha() for w in line.words for c in w.text)


def statement_opening(lines: list[Line]) -> str | None:
    """What a statement that holds code or data says before its first block of them (and on, in
    words, until it says enough), or None when it holds none.  The model embeds this: the opening
    says what an example is about, and the walk-through after each listing would only blur it;
    the whole content stays searchable in full text."""
    if all(says_words(l) for l in lines):
        return None
    taken: list[Line] = []
    for k, line in enumerate(lines):
        if says_words(line):
            taken.append(line)
        elif taken and len(re.findall(r"[^\W\d_]{3,}", join_lines(taken))) >= STATEMENT_WORDS:
            break
    text = join_lines(taken)
    return text if len(re.findall(r"[^\W\d_]{3,}", text)) >= STATEMENT_WORDS else None


@dataclass
class ExerciseList:
    """An exercise section's list: the number its next item must carry."""

    next: int = 1
    in_chapter: bool | None = None   # its items numbered in their chapter ("5.3"), once one is read


PARAGRAPH_INDENT = 4   # pt: a line that starts further in than the column's edge begins a paragraph
PARAGRAPH_SKIP = 1.1   # em: a line after more than ordinary line spacing begins a paragraph


@dataclass
class OpenText:
    """Running text not yet emitted: paragraphs of lines, margin notes, and their model tokens."""

    paragraphs: list[list[Line]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tokens: int = 0

    def last_line(self) -> Line | None:
        return self.paragraphs[-1][-1] if self.paragraphs else None

    def add(self, line: Line, layout: Layout, prose: Line | None = None, head_x0: float | None = None,
            right: float | None = None) -> None:
        """A line joins the last paragraph, or opens a new one after an indent or extra space, or
        where the text takes up again at the column's edge after a display (not after `prose`, a
        head's own line: its words start where the head ends, set in like a display's).  `head_x0`:
        where the head's line starts, `right` where the box it is set in ends: the line under a head
        line that ran to the box's edge, starting where the head did (a shaded or framed statement's
        inset), goes on with its sentence."""
        last = self.last_line()
        under_head = last is not None and last is prose and head_x0 is not None and right is not None and \
            line.page == last.page and abs(line.x0 - head_x0) <= HANG_SLACK and \
            last.x1 >= right - layout.body_size * FULL_LINE_SLACK
        if last is None or line.top - last.bottom > line.size * PARAGRAPH_SKIP or (
                line.x0 > layout.left + PARAGRAPH_INDENT and not _hangs_under(line, last, layout)
                and not under_head) or \
                (last is not prose and _after_display(line, last, layout)) or \
                _next_item(line, self.paragraphs[-1], layout):
            self.paragraphs.append([line])
        else:
            self.paragraphs[-1].append(line)

    def split_off_last(self) -> list[list[Line]]:
        """The last paragraph and the lead-ins just before it (a parameter's head "double tol_bnd
        (default: 1e-7)", a list's "Pricing technique:"), taken out to open the next chunk."""
        carried = [self.paragraphs.pop()]
        while len(self.paragraphs) > 1 and len(carried) <= LEAD_IN_PARAGRAPHS and _is_lead_in(self.paragraphs[-1]):
            carried.insert(0, self.paragraphs.pop())
        return carried


def _display_line(line: Line, layout: Layout, boxes=None) -> bool:
    """A line of a display: set in from the column's edge and mostly maths.  Given the page's frames,
    also a line whose equation number says it is one (at the column's edge from the left, with leqno;
    or as wide as a narrow column)."""
    return display_row(line, layout.left) or boxes is not None and framed_equation_label(line, layout, boxes) is not None


def _after_display(line: Line, last: Line, layout: Layout) -> bool:
    """Text at the column's edge right after a display's line (its last row, or the limits under
    it): a paragraph of its own, so that a chunk may open there and not on the display's limits."""
    return line.x0 <= layout.left + PARAGRAPH_INDENT and _display_line(last, layout) and \
        math_share(line.words) < MOSTLY_MATHS


def _display_goes_on(above: Line, below: Line, layout: Layout) -> bool:
    """Two lines of one display, the lower just under the upper (a row's limits, a fraction's
    denominator, the next row)."""
    return above.page == below.page and below.top - above.bottom < layout.body_size * DISPLAY_LINE_GAP and \
        _display_line(above, layout) and _display_line(below, layout)


def _hangs_under(line: Line, last: Line, layout: Layout) -> bool:
    """A list item's next line: it starts where the item's text started on the line above (a hanging
    indent), and that line ran to the column's right edge, so the item's sentence goes on."""
    if line.page != last.page or last.x1 < layout.right - layout.body_size * FULL_LINE_SLACK:
        return False
    words = last.words
    if len(words) > 1 and LIST_MARK_RE.fullmatch(words[0].text):
        starts = [words[1].x0]
    else:
        starts = [words[0].x0]
    return any(abs(line.x0 - x) <= HANG_SLACK for x in starts) and math_share(line.words) < MOSTLY_MATHS


ITEM_TEXT_WORDS = 2    # words of prose: a line at an item's text indent holding this many is the item's text


def _at_item_text(lines: list[Line], line: Line) -> bool:
    """Whether a line starts where the text of the list item the statement is in started (the hanging
    indent, after the label) and holds words of prose: the item's own line, however short (lines broken
    by \\\\ inside an item, "He must either win or lose this case."), never a display, which TeX centres
    or indents from that margin."""
    item = next((l for l in reversed(lines[1:]) if len(l.words) > 1 and LIST_MARK_RE.fullmatch(l.words[0].text)), None)
    if item is None or item.page != line.page or abs(line.x0 - item.words[1].x0) > HANG_SLACK:
        return False
    return sum(1 for w in line.words if PROSE_WORD_RE.fullmatch(w.text) and not is_math_word(w)) >= ITEM_TEXT_WORDS


_BREAK_OPERATORS = frozenset("+−-=<>≤≥×·∗∈∉⊂⊆⊃⊇∪∩→↦≠≡≈∼⊕⊗∧∨")   # TeX breaks an inline formula after these


def _formula_runs_on(above: Line, line: Line, layout: Layout) -> bool:
    """Whether a line goes on with an inline formula the full line above broke after a binary operator
    or a relation ("… since x +" / "(−x) = (−x) + x = 0."): TeX breaks a formula in running text only
    there, and a display is never the second half of the text's formula, however much maths the line
    holds.  It starts where the text of the line above started (at the edge, or at an item's indent)."""
    if line.page != above.page or not above.words or above.x1 < layout.right - layout.body_size * FULL_LINE_SLACK:
        return False
    end = above.words[-1]
    if end.text[-1:] not in _BREAK_OPERATORS or not (is_math_word(end) or is_math_font(end.font) or len(end.text) == 1):
        return False
    return abs(line.x0 - _item_text_x(above, layout)) <= HANG_SLACK or abs(line.x0 - above.x0) <= HANG_SLACK


def _item_text_x(line: Line, layout: Layout) -> float:
    """Where a line's text starts: after a list's mark ("1.", "•") or a label set apart by a tab, the
    hanging indent a list item's further lines take; else at its first word."""
    words = line.words
    k = 1 if len(words) > 1 and LIST_MARK_RE.fullmatch(words[0].text) else label_tab(words, layout.body_size) or 0
    return words[k].x0


def _next_item(line: Line, paragraph: list[Line], layout: Layout) -> bool:
    """A list's next label back at the column's edge, below an item set with a hanging indent (its
    label at the edge, a tab, its text and further lines at one indent further in: a word processor's
    list, a description list, a bibliography): the label opens a paragraph of its own, not the run-on
    of the item's last line."""
    first, last = paragraph[0], paragraph[-1]
    if line.x0 > layout.left + PARAGRAPH_INDENT or first.x0 > layout.left + PARAGRAPH_INDENT or \
            last.page != line.page or label_tab(first.words, layout.body_size) is None:
        return False
    # (after the item's last line at its hanging indent; one-line items, or an index read across its
    # two columns, whose lines look alike, stay as they were)
    return len(paragraph) > 1 and abs(last.x0 - _item_text_x(first, layout)) <= HANG_SLACK and \
        abs(line.x0 - first.x0) <= HANG_SLACK     # (back where the item's label stood)


FULL_LINE_SLACK = 1.5   # em: a line that ends this close to the column's right edge is full
HANG_SLACK = 1.5        # pt: a continuation line starts this close under the item's text


def _stands_as_display(line: Line) -> bool:
    """A line of maths that is a formula of its own: a few glyphs at least, some set in a maths font
    (an index entry or a table row of numbers is not), the first of them maths."""
    first = line.words[0]
    return len("".join(w.text for w in line.words)) >= 6 and any(is_math_word(w) for w in line.words) \
        and (is_math_word(first) or not re.fullmatch(r"[A-Za-z]+[,.;:]?", first.text))


def _numbered_rows_apart(paragraphs: list[list[Line]], block_of) -> list[list[Line]]:
    """Paragraphs with the lines read into a numbered display split off those they were set with (a
    denominator below the numbered row followed by the prose after the display): a line read into a
    display is never prose too."""
    out: list[list[Line]] = []
    for p in paragraphs:
        run: list[Line] = []
        for line in p:
            if run and (block_of(line) is None) != (block_of(run[-1]) is None):
                out.append(run)
                run = []
            run.append(line)
        if run:
            out.append(run)
    return out


class DisplayMaths:
    """Each page's thin rules (fraction bars, radicals) and the displays read so far: a display is
    read once (build_formula.remembered_readings, which structure() opens), and its formula entity
    and the running text share it."""

    def __init__(self):
        self.bars: dict[int, list] = {}
        self.layouts: dict[int, Layout] = {}            # each page's text block (a two-sided book's alternate)
        self.numbers: dict[tuple[int, str], str] = {}   # (page, equation number) -> its display's LaTeX
        # a line read into a numbered display -> that display (its first line); lines have no equality
        # of their own, so by identity, the line kept alive beside its id so the id is never reused
        self._blocks: dict[int, tuple[Line, int]] = {}
        self._shown: dict[int, str] = {}     # a display (its first line's id) -> how the text shows it, every
                                             # row in its place (build_math.numbered_display)

    def latex(self, words: list[Word], page: int, leading: float = 0.0) -> str:
        return display_latex(words, self.bars.get(page, []), leading)

    def numbered(self, items: list[Item], idx: int, number: str, layout: Layout, boxes=()) -> str:
        """The LaTeX of the display numbered `number` whose label stands on items[idx]: the display
        block around it is read once, and each number in it takes its rows (build_math).  `boxes`:
        the page's frames, where a display is numbered at the frame's inner edge."""
        page = items[idx].line.page
        if (page, number) not in self.numbers:
            lines = [it.line for it in items if it.kind == "line"]
            at = next(k for k, l in enumerate(lines) if l is items[idx].line)
            block: list[Line] = []
            shown: list[str] = []
            anchor = items[idx].line

            def label_of(line: Line) -> str | None:    # the anchor's number may be one a second look found
                return number if line is anchor else framed_equation_label(line, layout, boxes)
            found = numbered_display(lines, at, (layout.left, layout.right), layout.body_size,
                                     label_of, self.bars.get(page, []), block, layout.leading, shown)
            if found:
                self._blocks.update((id(line), (line, id(block[0]))) for line in block)
                if shown:
                    self._shown[id(block[0])] = shown[0]
            self.numbers.update({(page, n): tex for n, tex in found.items()})
            self.numbers.setdefault((page, number), "")
        return self.numbers[(page, number)]

    def layout_at(self, page: int, default: Layout) -> Layout:
        """The text block of the page a line was set on: a passage read at a later page (a statement
        or paragraph across a page break) judges each line by its own page's edges."""
        return self.layouts.get(page, default)

    def block_of(self, line: Line) -> int | None:
        """The numbered display the line was read into, if any."""
        entry = self._blocks.get(id(line))
        return entry[1] if entry is not None and entry[0] is line else None

    def paragraphs(self, paragraphs: list[list[Line]], layout: Layout, prose: Line | None = None,
                   inset: float = 0.0) -> list[str]:
        """Paragraphs with their maths as LaTeX: runs of maths in a line as $…$, a displayed formula
        (consecutive indented lines of maths, one paragraph each) as one $$…$$ with its number after it.
        `prose`: a line that is text whatever its indent (a statement's first line, after its head);
        `inset`: how far in from the column's edge the passage's text starts (a statement set as a block)."""
        return [tex for tex, _ in self.paragraph_groups(paragraphs, layout, prose, inset)]

    def paragraph_groups(self, paragraphs: list[list[Line]], layout: Layout,
                         prose: Line | None = None, inset: float = 0.0) -> list[tuple[str, list[Line]]]:
        """As `paragraphs`, each with the lines it was read from (its plain reading is theirs)."""
        def edge(page: int) -> Layout:   # where the passage's lines of text start on the page
            own = self.layout_at(page, layout)
            return replace(own, left=own.left + inset) if inset else own

        # the line before each (across paragraphs): a line that finishes a word the text line above broke
        # with a hyphen ("when-" / "ever v < c < p.") is that paragraph's, however much maths it holds
        flat = [l for p in paragraphs for l in p]
        before = {id(b): a for a, b in zip(flat, flat[1:])}

        def finishes_word(l: Line) -> bool:
            a = before.get(id(l))
            return a is not None and a.page == l.page and bool(a.words) and bool(l.words) and \
                bool(BROKEN_WORD_RE.search(a.words[-1].text)) and l.words[0].text[:1].isalpha() and \
                l.words[0].text[:1].islower() and not _display_line(a, edge(a.page)) and self.block_of(l) is None

        # a line of a code listing (every word monospaced, not the text's own face, as the line next
        # to it) is code, whatever share of it reads as maths ("orders += 1"): a display's signs are
        # never all in a fixed pitch
        after = {id(a): b for a, b in zip(flat, flat[1:])}

        def listed(l: Line) -> bool:
            return bool(l.words) and all(w.mono and w.font != layout.body_font for w in l.words)

        def code(l: Line) -> bool:
            return listed(l) and any(o is not None and o.page == l.page and listed(o)
                                     for o in (before.get(id(l)), after.get(id(l))))

        def display(p: list[Line]) -> bool:
            return all(l is not prose and not finishes_word(l) and not code(l) and
                       (self.block_of(l) is not None or _display_line(l, edge(l.page))) for l in p)

        groups: list[tuple[bool, list[Line]]] = []

        def goes_on(line: Line) -> bool:   # the next line of the display just above
            last = groups[-1] if groups else None
            if not (last and last[0] and line.page == last[1][-1].page):
                return False
            block = self.block_of(line)
            if block is not None and any(self.block_of(l) == block for l in last[1]):
                return True     # a row of the numbered display just read (a fraction's denominator)
            return line.top - last[1][-1].bottom < layout.body_size * DISPLAY_LINE_GAP

        def within(line: Line) -> bool:   # inside the box of a line of the display just above
            last = groups[-1] if groups else None
            return bool(last and last[0]) and any(
                l.page == line.page and l.top - 1 <= line.top and line.bottom <= l.bottom + 1
                and l.x0 - 1 <= line.x0 and line.x1 <= l.x1 + 1 for l in last[1])

        for p in _numbered_rows_apart(paragraphs, self.block_of):
            if display(p):
                if goes_on(p[0]):
                    groups[-1][1].extend(p)
                else:
                    groups.append((True, list(p)))
                continue
            p = list(p)
            # a line set inside a display row's box (a radical's numerator above the row's baseline,
            # "ln N(h)" under \sqrt) is that display's, whatever share of it is maths
            while p and within(p[0]):
                groups[-1][1].append(p.pop(0))
            while p and display(p[:1]) and goes_on(p[0]):   # a display's last line (limits) opens the paragraph
                groups[-1][1].append(p.pop(0))
            lead = []
            # a display the paragraph's text runs on from ("…, where each p is"): a formula of some
            # length that starts with maths, not a stray script or a word carried over a hyphen
            while p and display(p[:1]) and _stands_as_display(p[0]):
                lead.append(p.pop(0))
            if lead:
                groups.append((True, lead))
            if p and not lead and groups and not groups[-1][0] and finishes_word(p[0]):
                groups[-1][1].extend(p)     # the rest of the paragraph whose last word broke at its line's end
            elif p:
                groups.append((False, p))
        out: list[tuple[str, list[Line]]] = []
        for shown, lines in groups:
            if not shown:
                out.append((join_lines(lines, maths=True, bars=self.bars), lines))
                continue
            words, numbers, tags = [], [], []
            for l in lines:
                own = self.layout_at(l.page, layout)
                edge_x = own.label_right or own.right
                # a tag in words at the column's edge ("(NE)", \tag{NE}) is no part of the maths: it
                # stands after the display as a number would
                tag = word_tag(l, l.words[-1].x1, None, layout.body_size) \
                    if abs(l.words[-1].x1 - edge_x) <= LABEL_AT_EDGE and not equation_number(l.words[-1].text) else []
                for w in l.words:
                    # a number stands at the row's end (or its start): "(S)" inside a row is maths, and
                    # so is one on a line of scripts of its own, where no number the walk read stands and
                    # away from the column's edges (a superscript "(C)" over a row of `cases`)
                    edge = w is l.words[-1] or w is l.words[0]
                    if any(w is t for t in tag):
                        tags.append(w)
                        continue
                    number = equation_number(w.text) if edge and w.text.startswith("(") else None
                    if number is not None and (l.page, number) not in self.numbers and \
                            abs(w.x1 - edge_x) > LABEL_AT_EDGE and w.x0 > own.left + LABEL_AT_EDGE:
                        number = None
                    (numbers if number else words).append(w)
            if not numbers and all(self.block_of(l) is not None for l in lines):
                continue     # rows of a numbered display shown with its number (a denominator on the next chunk)
            read = [self.numbers.get((lines[0].page, equation_number(w.text))) for w in numbers]
            if numbers and all(read):
                # numbered displays were read whole as formula entities already: the text shows each
                # block as read, its rows that carry no number of their own too (one block, or several
                # set one after another: an align with \notag rows before a single equation)
                parts, seen = [], set()
                for tex, w in zip(read, numbers):
                    own = next((self.block_of(l) for l in lines if w in l.words), None)
                    if own in self._shown:
                        parts.append(self._shown.pop(own))
                        seen.add(own)
                    elif own not in seen:
                        parts.append(f"$${tex}$$ {w.text}")
                out.append((" ".join(parts), lines))
                continue
            latex = self.latex(words, lines[0].page, layout.leading)
            out.append(((f"$${latex}$$" if latex else join_lines(lines)) + "".join(f" {w.text}" for w in numbers + tags),
                        lines))
        return out


class EmittedChunks:
    """The chunks emitted so far in reading order, with their ids, and the entity numbers taken."""

    def __init__(self, printed: PrintedPages, source: str, cursor: SectionCursor):
        self.printed = printed
        self.source = source
        self.cursor = cursor
        self.chunks: list[Chunk] = []
        self.taken: set[tuple[str, str]] = set()
        self.duplicates: list[tuple[str, str, int]] = []   # (kind, number, pdf page) of repeated heads
        self._per_section: Counter = Counter()   # text chunks so far in each section (part of their ids)

    def claim(self, kind: str, number: str) -> bool:
        """True the first time a kind's number is met (the first of repeated heads is kept)."""
        if (kind, number) in self.taken:
            return False
        self.taken.add((kind, number))
        return True

    def emit(self, kind: str, content: str, pdf_page: int, number: str | None = None,
             title: str | None = None, context: str | None = None, extra: dict | None = None) -> Chunk:
        loc = self.cursor.location()
        if kind == "text":
            where = loc["subsubsection"] or loc["subsection"] or loc["section"] or loc["chapter"] or "front"
            self._per_section[where] += 1
            digest = hashlib.sha256(f"{where}|{self._per_section[where]}|{content}".encode()).hexdigest()[:10]
            cid = f"chunk_{where.replace('.', '_')}_{digest}"
        else:
            cid = entity_id(kind, number)
        chunk = Chunk(id=cid, kind=kind, content=content.strip(), page=self.printed.number(pdf_page),
                      page_label=self.printed.labels.get(pdf_page), pdf_page=pdf_page,
                      number=number, title=title, context=context, source=self.source, extra=extra or {}, **loc)
        chunk.ord = len(self.chunks)
        self.chunks.append(chunk)
        return chunk


# --------------------------------------------------------------------------- the builder
"""The builder: what it does with each role a line has, and with each entity and note of a page."""

# A heading's own lines: they leave its title open to wrap onto the next line; any other line closes it.
HEADING_LINES = (BookmarkedHeading, DivisionLabel, AppendicesDivider, DivisionTitle, HeadingContinues)


SET_END_MARKS = frozenset("⋄◊⧫♢△▲▽▼")   # \diamond, \lozenge, \blacklozenge, \diamondsuit, triangles
SET_MARK_EDGE = 0.25    # em: such a mark ends within this of the column's right edge ...
SET_MARK_GAP = 1.0      # em: ... alone on its line or at least this far after the word before it
MARK_AFTER_SENTENCE_RE = re.compile(r"[A-Za-z][.!?][)\]’”]?[⋄◊⧫♢△▲▽▼]$")   # ... or right after a word's full stop


def set_end_mark(line: Line, layout: Layout) -> bool:
    """Whether a line ends with a statement's own end mark, a shape that is also a symbol of maths (an
    example's ⋄ or ◊, set by amsthm's \\qed with \\qedsymbol changed, or ntheorem's \\theoremsymbol): TeX
    pushes it flush to the column's right edge with \\hfill, alone on its line after a list or a display
    or an em and more after the last word; "a ⋄" broken after the operator ends a line a math space after
    its word."""
    if not line.words:
        return False
    mark = line.words[-1]
    if abs(mark.x1 - layout.right) > layout.body_size * SET_MARK_EDGE:
        return False
    # (a line filled to the edge leaves \hfill no room: the mark touches the sentence's last word, "forty.♢")
    if MARK_AFTER_SENTENCE_RE.search(mark.text):
        return True
    if mark.text not in SET_END_MARKS:
        return False
    return len(line.words) == 1 or mark.x0 - line.words[-2].x1 >= line.size * SET_MARK_GAP


def drawn_end_mark(page: Page | None, line: Line, right: float | None = None) -> bool:
    """An end-of-proof box drawn with rules (amsthm's \\qed) right after the line's last word: a
    small square of strokes within the line's height, at its end, in the line's own column (`right`,
    its edge): a drawing in the margin beside the line (a margin figure's dot and ticks at a display's
    height) is no mark of the line's."""
    if page is None or page.number != line.page:
        return False
    edge = right + line.size * END_MARK_OVERHANG if right is not None else float("inf")
    strokes = [g for g in page.graphics if g[0] >= line.x1 - 1 and g[1] >= line.top - END_MARK_SLACK
               and g[3] <= line.bottom + END_MARK_SLACK and g[0] - line.x1 < line.size * END_MARK_REACH
               and g[2] <= edge]
    if not strokes:
        return False
    width = max(g[2] for g in strokes) - min(g[0] for g in strokes)
    height = max(g[3] for g in strokes) - min(g[1] for g in strokes)
    return line.size * END_MARK_MIN <= width <= line.size and line.size * END_MARK_MIN <= height <= line.size


DRAWING_MARK = "[Drawing]"     # opens the text drawn inside an uncaptioned drawing, in running text
MARKED_KIND_MIN = 2            # statements: a kind is found ending in its marks from this many on ...
MARKED_KIND_SHARE = 0.9        # ... when at least this share of them carry one
UPRIGHT_KIND_MIN = 2           # statements: a kind is found set upright from this many opened upright ...
UPRIGHT_KIND_SHARE = 0.75      # ... when at least this share of those that told a face did
UPRIGHT_EVIDENCE = 3           # words of prose on a head's line, none italic, say its statement opened upright


class ChunkBuilder:
    """Walks the items of every page once and emits sections, entity chunks and text chunks.

    What a line is comes from build_roles.read_line; what the builder does with it is _act."""

    def __init__(self, layout: Layout, printed: PrintedPages, count_tokens, source: str,
                 outline: dict[int, list[OutlineHeading]] | None = None, wanted: dict | None = None,
                 marked: frozenset = frozenset(), upright: frozenset = frozenset()):
        self.layout = layout                    # the text block of the page being read (it alternates)
        self.count_tokens = count_tokens
        self.outline = outline or {}            # the bookmarks' headings, by PDF page
        self.wanted = wanted or {}              # a second look: {(kind, number): pages} a gap says were missed
        self.cursor = SectionCursor(printed)
        self.out = EmittedChunks(printed, source, self.cursor)
        self.text = OpenText()
        self.block: OpenBlock | None = None     # an open run-in entity (theorem, example, exercise …)
        self.closed_statement: tuple | None = None  # the statement closed last: (its chunk, its lines)
        # the end marks statements of each kind carry: how many were opened, how many a mark of their own
        # ended (or followed, before any other head, heading or proof), how many closed before it
        self.marked = marked or frozenset()     # the kinds a first reading found ending with their marks
        self.kind_heads: Counter = Counter()
        self.kind_marks: Counter = Counter()
        self.cut_before_mark: Counter = Counter()
        self.mark_owner: str | None = None      # the kind of the statement whose mark is still to come
        # the face each kind's statements open in: how many opened upright, told by words of prose on the
        # head's line, how many opened in italic, and how many of those the upright's return ended
        self.upright = upright or frozenset()   # the kinds a first reading found set upright
        self.kind_upright: Counter = Counter()
        self.kind_italic: Counter = Counter()
        self.cut_upright: Counter = Counter()
        # the kinds whose statements were seen to end at a step as wide as the one above their head (the
        # space after the environment is the space before it, as amsthm's styles set it)
        self.spaced_alike: set[str] = set()
        self.exercises: ExerciseList | None = None
        self.carry: FloatCarry | None = None    # a float broken at the page's foot, to go on overleaf
        self.maths = DisplayMaths()
        self.page: Page | None = None
        self.proof_of: str | None = None        # the statement whose proof (or solution) the open text is
        self.proof_frame: tuple | None = None   # (frame, page) of that statement, when it is set in one
        self.last_formula: str | None = None    # the last equation number met (a misread label's is the next)
        self.line_before: Line | None = None    # the line read last, whatever its role (the step above a head)
        self.head_skip: float | None = None     # the last step above a head wider than the leading
        self.last_statement: str | None = None  # the number of the run-in statement opened last

    # ---- the walk
    def feed_page(self, page: Page, items: list[Item]) -> None:
        self.page = page
        self.maths.bars[page.number] = page.bars
        self.maths.layouts[page.number] = self.layout
        carry, self.carry = self.carry, None
        items = continued_float(carry, page, items, self.layout)
        first_line = next((k for k, item in enumerate(items) if item.kind == "line"), None)
        # the line read after each item on the page (one pass from the foot up)
        below: list[Line | None] = [None] * len(items)
        for k in range(len(items) - 2, -1, -1):
            after = items[k + 1]
            below[k] = after.line if after.kind == "line" else below[k + 1]
        for idx, item in enumerate(items):
            if item.kind == "entity":
                self.add_found(item.entity, page.number)
            elif item.kind == "note":
                self.add_note(Note(item.text, item.plain or item.text))
            elif item.kind == "drawn":
                self.add_drawn(item.text, item.top, item.bottom, page.number)
            else:
                self.feed_line(item.line, items, idx, opens=idx == first_line, below=below[idx])

    def feed_line(self, line: Line, items: list[Item], idx: int, opens: bool = False, below: Line | None = None) -> None:
        """Read what the line is (its roles), then act on each role in turn.  `opens`: the line is the
        first of its page's lines; `below`: the line read after it on the page."""
        roles = read_line(line, self._context(line, opens, below))
        misread = next((r for r in roles if isinstance(r, EquationLabel) and r.misread), None)
        if misread is not None:
            # a label OCR misread is read as the number the sequence says it is, from here on
            word = replace(line.words[-1], text=f"({misread.number})")
            line = Line(line.words[:-1] + [word], line.page)
            items[idx] = replace(items[idx], line=line)
        if self.cursor.pending is not None and not isinstance(roles[-1], DivisionTitle):
            # The label's title has ended: its part or chapter opens, and the line is read inside it.
            self._commit_pending()
            roles = read_line(line, self._context(line, opens, below))
        if not isinstance(roles[-1], HEADING_LINES):
            self.cursor.wrap = None    # only the line right after a heading can carry more of its title
        for role in roles:
            self._act(role, line, items, idx)
        # (a heading's own space after it is no environment's)
        self.line_before = None if isinstance(roles[-1], HEADING_LINES) else line

    def _context(self, line: Line, opens_page: bool = False, below: Line | None = None) -> LineContext:
        block, exercises, cursor = self.block, self.exercises, self.cursor
        # (a part's or chapter's title is set on its label's page: display type overleaf opens what follows)
        pending = cursor.pending is not None and cursor.pending.line.page == line.page
        return LineContext(self.layout, line.text.strip(), line.size, self.outline.get(line.page, ()),
                           bool(self.outline), cursor.number("chapter"), pending, cursor.wrap,
                           exercises.next if exercises else None, self.text.last_line(),
                           block.kind if block else None, block.lines[-1] if block and block.lines else None,
                           self.page.boxes, self.wanted, self.last_formula,
                           exercises.in_chapter if exercises else None, opens_page, cursor.number("section"),
                           self.last_statement, self.out.taken, cursor.number("subsection"), below)

    def _act(self, role: Role, line: Line, items: list[Item], idx: int) -> None:
        """What the builder does with one role of a line (a new role needs its case here)."""
        match role:
            case Prose():
                self.add_line(line)
            case BookmarkedHeading(heading=h) if h.number:
                self.open_section(h.level, h.number, h.title, line)
            case BookmarkedHeading(heading=h):
                self.open_unnumbered(h.level, h.title)
            case DivisionLabel(level=level, number=number, title=title):
                self.cursor.pending = PendingLabel(level, number, title, line)
            case AppendicesDivider():
                self.open_section(0, "Appendices", "Appendices", line)
            case DivisionTitle(text=text):
                self.cursor.pending.title = f"{self.cursor.pending.title} {text}".strip()
            case HeadingContinues(text=text):
                self.cursor.continue_title(text, line)
            case ExerciseListHeading():
                self.exercises = ExerciseList()
            case ChapterHeading(number=number, title=title):
                self.open_section(1, number, title, line)
            case NumberedHeading():
                self._open_numbered(role, line)
            case RunInHead(head=head, box=box):
                self.open_block(head.kind, head.number, head.title, line, line.words[head.head_words:],
                                printed=head.printed or None, box=box)
            case ExerciseItem():
                self._open_exercise(role, line)
            case EndsStatement():
                box, page = (self.block.box, self.block.page) if self.block else (None, 0)
                self.open_proof(self.close_block(), box, page)
            case EquationLabel(number=number):
                self.add_equation(line, number, items, idx)
            case _:
                raise TypeError(f"no action for the role {role!r}")

    def finish(self) -> None:
        self._commit_pending()
        self.flush_text()
        self.close_block()

    def kinds_ending_in_marks(self) -> frozenset:
        """The kinds of statement the book ends with a mark of their own (ntheorem's \\theoremsymbol, amsthm's
        \\qed in an example: TeX sets it after every statement of the kind), where this reading closed one
        before its mark: each of their statements is read again to its mark.  Two of the kind at least, and
        nearly all of them marked (a mark the reading missed leaves its statement to run to the next head)."""
        return frozenset(k for k, n in self.kind_heads.items() if n >= MARKED_KIND_MIN and self.cut_before_mark[k]
                         and self.kind_marks[k] >= n * MARKED_KIND_SHARE)

    def kinds_set_upright(self) -> frozenset:
        """The kinds of statement the book sets upright (amsthm's definition style, elsarticle's
        \\newdefinition: TeX sets every one of the kind in the same face), where this reading took one
        for italic and ended it at upright text: its first words were emphasis ("Claim: *The sequence …
        is convergent and*", then "Proof: …" upright).  Two of the kind at least opened upright, told by
        their first words, and most of those whose first words told a face."""
        return frozenset(k for k, n in self.kind_upright.items() if self.cut_upright[k] and n >= UPRIGHT_KIND_MIN
                         and n >= (n + self.kind_italic[k]) * UPRIGHT_KIND_SHARE)

    # ---- sections
    def open_section(self, level: int, number: str, title: str, line: Line) -> None:
        if self.cursor.retitle(level, number, title):
            return
        self.flush_text()
        self.close_block()
        self.mark_owner = None
        self.exercises = ExerciseList() if EXERCISE_SECTION_RE.search(title) else None
        self.cursor.enter(level, number, title, line.page)

    def open_unnumbered(self, level: int, title: str) -> None:
        self.flush_text()
        self.close_block()
        self.mark_owner = None
        self.exercises = ExerciseList() if EXERCISE_SECTION_RE.search(title) else None
        self.cursor.enter_unnumbered(level, title)

    def _commit_pending(self) -> None:
        pending, self.cursor.pending = self.cursor.pending, None
        if pending:
            self.open_section(pending.level, pending.number, pending.title.strip(), pending.line)

    def _open_numbered(self, heading: NumberedHeading, line: Line) -> None:
        self.open_section(heading.level, heading.number, heading.title, line)
        sections = self.cursor.sections
        if sections and sections[-1].number == heading.number and len(line.words) > 1:
            self.cursor.wrap = HeadingWrap(sections[-1], LEVELS[heading.level], line.size, line.words[1].x0,
                                           line.page, line.bottom)

    # ---- statements and entities
    def open_block(self, kind: str, number: str, title: str, line: Line, first_words: list, printed: str | None = None,
                   box=None) -> None:
        """Start a run-in entity at its head; the lines that follow belong to it until it ends."""
        self.flush_text()
        self.close_block()
        self.last_statement = number
        rest = Line(first_words, line.page) if first_words else None
        self.block = OpenBlock(kind, number, title, line.page, printed, False, box, [rest] if rest else [],
                               head_x0=line.x0, inset=line.x0 - self.layout.left,
                               inset_lines=1 if rest is not None else 0, to_mark=kind in self.marked,
                               spaced_alike=kind in self.spaced_alike)
        # (a head alone on its line, its body under it, leaves the face to the first line it takes)
        if first_words:
            self._tell_face(self.block, first_words)
        self.kind_heads[kind] += 1
        self.mark_owner = kind
        # the step from the line before the head; where none is on the page (a head opening the page, or
        # set after a heading), the step last measured above a head in the book
        before = self.line_before
        leading = self.layout.leading or self.layout.body_size * DEFAULT_LEADING
        if before is not None and before.page == line.page and before.baseline < line.baseline:
            step = line.baseline - before.baseline
            if step - leading > leading * SKIP_EXTRA:
                self.head_skip = step
            self.block.skip_above, self.block.skip_here = step, True
            self.block.skip_after_text = not is_display(before, self.layout)
        else:
            self.block.skip_above = self.head_skip
        if rest is not None and END_MARK_RE.search(rest.text):
            self.block.marked = True
            self.close_block()

    def _tell_face(self, block: OpenBlock, words: list, under_head: bool = False) -> None:
        """The face a statement is set in, told by its first words: italic (upright text ends it) or
        upright, and counted for its kind.  `under_head`: the words are the line under a head alone on
        its line, whose text in both faces tells nothing (an upright definition's first line may be
        mostly the term it emphasises, "The *standard normal loss function* is"): italic only when
        every word of prose is."""
        # (its words of prose decide, not its maths nor a term it defines in bold: a definition's upright
        # line may be mostly italic variables, "Given targets u_1, …, u_m at the states s_1, …, s_m,")
        prose = [w for w in words if w.text.isalpha() and len(w.text) > 2 and not is_math_word(w)
                 and not w.bold]
        if under_head and not prose:
            return      # (a display's rows in maths italic say nothing of the text's face: read upright)
        prose = prose or words
        italic = bool(prose) and sum(w.italic for w in prose) > len(prose) * ITALIC_STATEMENT and \
            block.kind not in self.upright and not (under_head and not all(w.italic for w in prose))
        if not italic and len(prose) >= UPRIGHT_EVIDENCE and not any(w.italic for w in prose):
            self.kind_upright[block.kind] += 1
        elif italic:
            self.kind_italic[block.kind] += 1
        # (a line under the head is the statement's first, perhaps a title set alone in italic, "Two measures
        # on one shelf", and the text upright under it: as with a few words on a head's line, unless it ends
        # a sentence the line under it says the face)
        block.italic, block.italic_words = italic, 0 if under_head else len(prose)
        block.head_mixed = len({w.italic for w in prose}) > 1

    def _open_exercise(self, item: ExerciseItem, line: Line) -> None:
        self.exercises.next = item.number + 1
        self.exercises.in_chapter = "." in item.printed
        # Stored as chapter.n, the way the book cites them; a chapter's second list restarting at 1
        # (programming exercises after exercises) is told apart by its section's number.
        current = self.cursor.current
        places = [p for p in (current["chapter"], current["subsection"] or current["section"]) if p and p[0]]
        qualified = [f"{p[0]}.{item.number}" for p in places] + [str(item.number)]
        stored = next((q for q in qualified if ("exercise", q) not in self.out.taken), qualified[0])
        self.open_block("exercise", stored, "", line, list(item.words), printed=item.printed or str(item.number))
        if self.block is not None:
            self.block.item = True

    def close_block(self) -> Chunk | None:
        block, self.block = self.block, None
        if block is None:
            return None
        if block.marked:
            self.kind_marks[block.kind] += 1
            self.mark_owner = None
        else:
            self.cut_before_mark[block.kind] += 1
        if block.cut_upright:
            self.cut_upright[block.kind] += 1
        if block.ended_spaced_alike:
            self.spaced_alike.add(block.kind)
        plain = join_lines(block.lines)
        # its maths as LaTeX, as in running text: inline $…$, displays $$…$$ on their own
        paragraphs = OpenText()
        head_line = block.lines[0] if block.lines else None
        for line in block.lines:
            paragraphs.add(line, self.maths.layout_at(line.page, self.layout), prose=head_line, head_x0=block.head_x0,
                           right=block.box[2] if block.box is not None else None)
        # (a statement set as a block in from the column's edge: its short last line at that edge is no display)
        text = "\n\n".join(p for p in self.maths.paragraphs(paragraphs.paragraphs, self.layout, prose=head_line,
                                                            inset=block.block_inset) if p)
        if block.kind in ("exercise", "problem"):
            text = ANSWER_HEAD_RE.sub(r"\n\1", text)
        # its footnotes follow its last paragraph (LaTeX sets them at the page's foot, but they are the
        # statement's own words); the notes in the margin beside it are not, and follow it as a chunk
        footnotes = [n for n in block.notes if n.startswith("[Footnote]")]
        margin = [n for n in block.notes if not n.startswith("[Footnote]")]
        if footnotes:
            text += "\n" + "\n".join(footnotes)
        extra = {"printed_number": block.printed} if block.printed else {}
        if text != plain:
            extra["text"] = plain       # the plain reading, for the embedding model
        if block.drawn:
            extra["drawn"] = "\n".join(block.drawn)    # searchable, never read as the statement's words
        opening = statement_opening(block.lines)
        if opening is not None:
            extra["words"] = opening
        entity = self.add_entity(FoundEntity(block.kind, block.number, block.title or None, text, extra=extra or None),
                                 block.page)
        kept = entity
        if entity is None and text.strip():
            # a head whose number was met before (a claim numbered afresh in each proof) is no entity of
            # its own, but its statement is still the book's text: kept as a text chunk, never dropped
            kept = self.out.emit("text", text, block.page, extra={"text": plain} if text != plain else None)
        self.closed_statement = (kept, block.lines) if kept is not None else None
        if margin:
            # the margin notes beside a statement are not its words: a chunk of their own right after it,
            # linked to it (as a passage's follow the passage)
            notes = _marked_notes(margin)
            plain_notes = _marked_notes([plain_of(n) for n in margin])
            note_extra = {"note_of": kept.id} if kept is not None else {}
            if plain_notes != notes:
                note_extra["text"] = plain_notes
            self.out.emit("text", notes, block.page, extra=note_extra or None)
        return entity

    def open_proof(self, statement: Chunk | None, box: tuple | None = None, page: int = 0) -> None:
        """ "Proof." after a statement: the proof is a text chunk of its own (or several), linked to
        the statement; it ends at its end mark, at the end of the frame the statement is set in, or
        where the next head or heading begins."""
        self.flush_text()
        self.mark_owner = None       # a mark from here on is the proof's
        self.proof_of = statement.id if statement is not None else None
        self.proof_frame = (box, page) if box is not None else None

    def add_found(self, found: FoundEntity, pdf_page: int) -> None:
        """An entity found whole on the page; a float or a statement ends the open text (a formula sits in it)."""
        block = self.block
        # a float set at the top of the next page interrupts a statement without ending it: TeX moves
        # floats to a page's top and the statement's text goes on below
        overleaf = block is not None and found.kind in FLOAT_KINDS and \
            pdf_page > (block.lines[-1].page if block.lines else block.page) and \
            not any(l.page == pdf_page for l in block.lines)
        # (and a figure drawn in the margin beside a statement's lines, the user's class's margin figure,
        # stands apart from them as a side note does: the statement's text goes on past it)
        if found.kind != "formula" and not overleaf and not (found.beside and block is not None):
            self.flush_text()
            self.close_block()
        chunk = self.add_entity(found, pdf_page)
        if chunk is not None and found.continues:
            self.carry = FloatCarry(chunk, found.continues, pdf_page)

    def add_entity(self, found: FoundEntity, pdf_page: int) -> Chunk | None:
        if not found.number:
            return None
        if not self.out.claim(found.kind, found.number):
            self.out.duplicates.append((found.kind, found.number, pdf_page))
            return None  # a repeated caption (continued table) keeps the first
        extra = dict(found.extra or {}, printed_number=found.printed) if found.printed else found.extra
        return self.out.emit(found.kind, found.content or found.title or "", pdf_page, number=found.number,
                             title=found.title or None, context=found.context, extra=extra)

    def add_equation(self, line: Line, number: str, items: list[Item], idx: int) -> None:
        """A formula entity: the display's lines (number removed) and the sentence before it."""
        self.last_formula = number
        if not self.out.claim("formula", number):
            return
        equation, glyphs = display_text(display_lines(items, idx, self.layout), line, number)
        latex = self.maths.numbered(items, idx, number, self.layout, self.page.boxes)
        if not latex and glyphs:
            # the display block was not told apart from the text round it (a display too wide for its
            # number, which TeX drops to a line of its own): its own lines are read as LaTeX all the
            # same, so that a formula's content is always LaTeX with a plain reading
            latex = display_latex(glyphs, self.maths.bars.get(line.page, []), self.layout.leading)
        # the sentence before the display: the display's own rows above its number (a numerator) are not it
        before = next((join_lines(kept) for p in reversed(self.text.paragraphs)
                       if (kept := [l for l in p if self.maths.block_of(l) is None])), "")
        sentences = re.split(r"(?<=[.!?])\s+", before.strip())
        context = sentences[-1] if sentences and sentences[-1] else None
        extra = {"text": plain_reading(latex)} if latex else {}
        # a number stored in another form than it is printed ("(2.4.a)" as 2.4a) keeps its printed form
        printed = next((p for w in line.words if equation_number(w.text) == number
                        and (p := equation_printed(w.text))), None)
        if printed:
            extra["printed_number"] = printed
        chunk = self.out.emit("formula", latex or equation, line.page, number=number, title=None, context=context,
                              extra=extra or None)
        # A formula chunk sits inside the flow of text: keep it after the open text in reading order.
        chunk.extra["in_text"] = True

    # ---- text
    def add_line(self, line: Line) -> None:
        text = line.text
        if self.block is not None:
            if self.block.takes(line, self.layout, self.page.boxes):
                if not self.block.lines and not self.block.item:
                    self._tell_face(self.block, line.words, under_head=True)   # the line under a head alone on its line
                self.block.lines.append(line)
                if END_MARK_RE.search(text) or drawn_end_mark(self.page, line, self.layout.right) or \
                        set_end_mark(line, self.layout):
                    self.block.marked = True
                    self.close_block()
                return
            self.close_block()
        if self.proof_of is not None and self.proof_frame is not None:
            frame, page = self.proof_frame
            if line.page == page and not inside(line, frame, pad=FRAME_PAD):
                self.flush_text()   # a solution set in the statement's frame ends with it
        self.text.add(line, self.layout)
        self.text.tokens += self.count_tokens(text) - SPECIAL_TOKENS
        if unnumbered_head(line, self.layout):
            self.mark_owner = None    # "Solution." after an exercise: a mark from here on is the solution's
        elif self.proof_of is None and self.mark_owner is not None and (
                END_MARK_RE.search(text) or drawn_end_mark(self.page, line, self.layout.right) or set_end_mark(line, self.layout)):
            self.kind_marks[self.mark_owner] += 1    # the mark of a statement closed before it: its kind ends so
            self.mark_owner = None
        if self.proof_of is not None and (END_MARK_RE.search(text) or drawn_end_mark(self.page, line, self.layout.right)
                                          or set_end_mark(line, self.layout)):
            self.flush_text()   # the proof ends at its mark; the text after it is the book's again
            return
        paragraphs = self.text.paragraphs
        if self.text.tokens >= TARGET_CHUNK_TOKENS and len(paragraphs) > 1 and (
                not _display_goes_on(paragraphs[-2][-1], paragraphs[-1][0], self.layout)
                or self.text.tokens >= MAX_CHUNK_TOKENS - BUDGET_SLACK):
            # The new paragraph opens the next chunk, and takes along the lead-ins just before it, so
            # a unit and what introduces it stay in one chunk.  Not a line that goes on from a display
            # just above it, while the chunk has room: the limits under a sum, on a line of their own,
            # open no chunk without their row (the next paragraph does).
            carried = self.text.split_off_last()
            proof_of, frame = self.proof_of, self.proof_frame
            self.flush_text()
            self.proof_of, self.proof_frame = proof_of, frame   # a long proof goes on, linked all the same
            self.text.paragraphs = carried
            self.text.tokens = sum(self.count_tokens(l.text) - SPECIAL_TOKENS for p in carried for l in p)

    def add_note(self, text: str) -> None:
        if self._note_of_last_statement(text):
            return
        if self.block is not None:
            self.block.notes.append(text)
        else:
            self.text.notes.append(text)
            self.text.tokens += self.count_tokens(text) - SPECIAL_TOKENS

    def _note_of_last_statement(self, text: str) -> bool:
        """A side note pushed below its statement goes with the statement that prints its mark (emitted
        at once, linked to it), not with what it stands beside.  Where notes crowd, the class (or
        marginfix) sets a note lower than its mark, beside the next statement or the proof after its own;
        its number names the line that carries the mark.  Only when the open statement or passage prints
        no such mark and the statement closed last does."""
        mark = NOTE_NUMBER_RE.match(plain_of(text))
        if mark is None or self.closed_statement is None or text.startswith(("[Footnote]", DRAWING_MARK)):
            return False
        chunk, before = self.closed_statement
        now = self.block.lines if self.block is not None else [l for p in self.text.paragraphs for l in p]
        if _holds_mark(now, mark.group(1)) or not _holds_mark(before, mark.group(1)):
            return False
        extra = {"note_of": chunk.id}
        if plain_of(text) != text:
            extra["text"] = _marked_notes([plain_of(text)])
        self.out.emit("text", _marked_notes([text]), self.page.number if self.page else 1, extra=extra)
        return True

    def add_drawn(self, text: str, top: float, bottom: float, page: int) -> None:
        """The labels inside a drawing no caption names: a statement the drawing is set in (it starts
        within a statement's break of its last line, or inside its frame) keeps them apart from its
        words and goes on below it; in running text they follow the passage like a margin note,
        marked as a drawing's."""
        block = self.block
        if block is not None:
            last = block.lines[-1] if block.lines else None
            if block.box is not None or last is None or last.page != page or \
                    top - last.bottom <= self.layout.body_size * STATEMENT_BREAK:
                block.drawn.append(text)
                block.drawing = (page, bottom)
                return
            self.close_block()
        self.add_note(f"{DRAWING_MARK} {text}")

    def flush_text(self) -> None:
        paragraphs = self.text.paragraphs
        # footnotes are chunks of their own, right after the passage whose line prints their mark
        footnotes = [n for n in self.text.notes if n.startswith("[Footnote]")]
        notes = [n for n in self.text.notes if not n.startswith("[Footnote]")]
        self._flush_passage(paragraphs, notes)
        for note in footnotes:
            extra = {"footnote": True} | ({"text": plain_of(note)} if plain_of(note) != note else {})
            self.out.emit("text", str(note), self.page.number if self.page else 1, extra=extra)

    def _flush_passage(self, paragraphs: list, notes: list[str]) -> None:
        chunks = self.out.chunks
        if not paragraphs:
            if notes and chunks and chunks[-1].kind == "text":
                last = chunks[-1]
                plain = (last.extra.get("text") or last.content) + "\n\n" + "\n".join(plain_of(n) for n in notes)
                last.content += "\n\n" + "\n".join(notes)
                if "text" in last.extra or plain != last.content:
                    last.extra["text"] = plain
            elif notes and chunks:
                # margin notes beside an entity (a shaded example captioned in the margin, a float) with
                # no passage after them before a head: a chunk of their own linked to it, never dropped
                # (not a display's formula entity, read from inside that example: the example itself)
                owner = next((c for c in reversed(chunks) if c.kind != "formula"), chunks[-1])
                marked, plain = _marked_notes(notes), _marked_notes([plain_of(n) for n in notes])
                extra = {"note_of": owner.id} | ({"text": plain} if plain != marked else {})
                self.out.emit("text", marked, self.page.number if self.page else chunks[-1].pdf_page, extra=extra)
            self.text.notes = []
            return
        first = paragraphs[0][0]
        plain = "\n\n".join(p for p in (join_lines(p) for p in paragraphs) if p)
        text = "\n\n".join(p for p in self.maths.paragraphs(paragraphs, self.layout) if p)
        if notes:
            text = text + "\n\n" + _marked_notes(notes)
            plain = plain + "\n\n" + _marked_notes([plain_of(n) for n in notes])
        lead_only = all(_is_lead_in(p) for p in paragraphs)
        self.text = OpenText()
        last = chunks[-1] if chunks else None
        proof_of, self.proof_of = self.proof_of, None
        self.proof_frame = None
        if lead_only and proof_of is None and last is not None and last.kind == "text" and \
                all(getattr(last, k) == v for k, v in self.cursor.location().items()):
            # Lead-ins whose unit never came (a display or an entity took the next lines): they end
            # the text before them, as they did before they were carried over, not a chunk alone.
            if text != plain or "text" in last.extra:
                last.extra["text"] = (last.extra.get("text") or last.content) + "\n\n" + plain
            last.content += "\n\n" + text
            return
        # pieces within the model's window, cut by the plain text (what is embedded), each with its LaTeX
        pieces = split_to_budget(plain, self.count_tokens)
        latex = [text]
        if len(pieces) > 1:
            latex, pieces = self._cut_with_maths(paragraphs, notes)
        for piece, words in zip(latex, pieces):
            extra = {"text": words.strip()} if piece != words else {}
            if proof_of:
                extra["proof_of"] = proof_of
            self.out.emit("text", piece, first.page, extra=extra or None)



    def _cut_with_maths(self, paragraphs: list, notes: list[str]) -> tuple[list[str], list[str]]:
        """A passage too long for one chunk, cut between its paragraphs and displays (the groups its
        LaTeX is read in) so that each piece's LaTeX and plain text hold the same lines; a group too
        long alone is cut by its plain text, and keeps its LaTeX only where that cuts alike."""
        groups: list[tuple[str, str]] = []
        budget = MAX_CHUNK_TOKENS - BUDGET_SLACK
        for tex, lines in self.maths.paragraph_groups(paragraphs, self.layout):
            words = join_lines(lines)
            if tex and self.count_tokens(words) > budget and tex == join_lines(lines, maths=True, bars=self.maths.bars):
                # a paragraph of text too long alone: its runs of whole lines, each read as the whole was
                run: list[tuple[Line, int]] = []
                held = SPECIAL_TOKENS       # tokens counted line by line: linear in the paragraph's length
                ends = 0                    # the run's lines up to the last that ends a sentence
                for line in lines:
                    more = self.count_tokens(line.text) - SPECIAL_TOKENS
                    if run and held + more > budget:
                        # cut after the run's last sentence when it has one; its rest opens the next run
                        cut = ends or len(run)
                        done, run = [l for l, _ in run[:cut]], run[cut:]
                        groups.append((join_lines(done, maths=True, bars=self.maths.bars), join_lines(done)))
                        held, ends = SPECIAL_TOKENS + sum(n for _, n in run), 0
                    run.append((line, more))
                    held += more
                    if SENTENCE_ENDS_RE.search(line.text):
                        ends = len(run)
                run = [l for l, _ in run]
                if run:
                    groups.append((join_lines(run, maths=True, bars=self.maths.bars), join_lines(run)))
            elif tex:
                groups.append((tex, words))
        if notes:
            groups.append((_marked_notes(notes), _marked_notes([plain_of(n) for n in notes])))
        latex, plain = [], []
        current: list[tuple[str, str]] = []

        def close() -> None:
            if current:
                latex.append("\n\n".join(t for t, _ in current))
                plain.append("\n\n".join(p for _, p in current))
                current.clear()
        held = SPECIAL_TOKENS
        for tex, words in groups:
            size = self.count_tokens(words) - SPECIAL_TOKENS
            if size + SPECIAL_TOKENS > budget:
                close()
                held = SPECIAL_TOKENS
                cut_plain = split_to_budget(words, self.count_tokens)
                cut_tex = split_to_budget(tex, self.count_tokens)
                latex.extend(cut_tex if len(cut_tex) == len(cut_plain) else cut_plain)
                plain.extend(cut_plain)
                continue
            if current and held + size > budget:
                close()
                held = SPECIAL_TOKENS
            current.append((tex, words))
            held += size
        close()
        return latex, plain


NOTE_NUMBER_RE = re.compile(r"(\d{1,3})\s")   # a numbered side note opens with its number


def _holds_mark(lines: list, mark: str) -> bool:
    """Whether one of the lines prints a note's mark (a small raised figure, as `_prints_mark` reads it)."""
    return any(_prints_mark(w, l, mark) for l in lines for w in l.words)


class Note(str):
    """A margin note or footnote as the text shows it (its maths as LaTeX), carrying its plain
    reading (the text layer's words, for the embedding model)."""
    plain: str

    def __new__(cls, text: str, plain: str | None = None):
        note = super().__new__(cls, text)
        note.plain = text if plain is None else plain
        return note


def plain_of(note: str) -> str:
    """A note's plain reading (a Note's own; any other text is its own reading)."""
    return getattr(note, "plain", note)


def _marked_notes(notes: list[str]) -> str:
    """A passage's margin notes as they follow it: each "[Side note] …", a drawing's text as it came."""
    return "\n".join(n if n.startswith(DRAWING_MARK) else f"[Side note] {n}" for n in notes)


BUDGET_SLACK = 16     # tokens: a piece stops this short of the model's window (as split_to_budget does)


# --------------------------------------------------------------------------- lead-ins
"""Lead-ins: short paragraphs that introduce what follows, kept with it across a chunk's end."""

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
