"""build_layout.py: a book's page furniture and text block, read from all its pages at once.

Running heads and feet (dropped from the text), the printed page numbers (folios, checked as a
sequence, and the PDF's page labels), the main column's edges and the margin column, the body
type, and contents pages.  build_pdf.py calls these before it reads any page's lines.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

from build_glyphs import Line, Page, group_lines
from build_heads import equation_number, lone_chapter_label
from build_math import LIST_MARK_RE, is_math_word


# --------------------------------------------------------------------------- running heads and feet
"""Running heads and feet: lines every page repeats at its top or foot, and the folios they carry."""

HEAD_BAND = 0.10         # of the page's height: running heads stand in its top tenth
FOOT_BAND = 0.91         # ... and running feet below this height
FURNITURE_SIZE = 1.05    # of the body size: a head or foot is set no larger than the body text
HEAD_FOLIO_BAND = 0.15   # of the page's height: a head or foot seen once carries a folio above this height
FOOT_FOLIO_BAND = 0.85   # ... or below this one
FURNITURE_WORDS = 12     # a running head or foot is a short line
FOLIO_GAP = 0.8          # em: a folio beside a head's or foot's words stands further off than a word space (a \quad, less its ink's side bearings)
REPEATS = 3              # a head or foot's shape (digits aside) recurs on this many pages (2 in a short document)
SAME_PLACE = 1.0         # em: ... at the same height, give or take this
TEXT_SIZE_SHARE = 0.25   # a larger size holding this share of the commonest size's words is the text's (code is set smaller) ...
CODE_STEP = 1.25         # ... when within two steps of it (\footnotesize code under 10 pt text)


def _shape(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlc]+\b", "#", text.lower()).strip()


def _in_band(line: Line, page: Page, body: float = 0.0) -> bool:
    """Where running heads and feet stand: the page's top or bottom tenth, or its first or last line
    when set no larger than the body text (a chapter's title opening a page is not a running head)."""
    if line.top < page.height * HEAD_BAND or line.top > page.height * FOOT_BAND:
        return True
    if line is page.lines[-1] and (_lone_number(line, body) or
                                   len(line.words) <= FURNITURE_WORDS and folio_candidates(line)
                                   and not any(is_math_word(w) for w in line.words)):
        # (a number alone closing the page, or a short line closing it on a number, stands where a folio
        # stands, whatever its size: a manual whose code, set smaller, outnumbers its prose's words makes
        # the code's size the body's, and a foot may be set larger than the text, "chicken 12" in 10.9 pt
        # under 10 pt, though never a line of maths, "b/a = √2"; the sequence of folios judges the
        # number, its recurring at one height the line)
        return True
    return (line is page.lines[0] or line is page.lines[-1]) and line.size <= body * FURNITURE_SIZE


_LONE_NUMBER_RE = re.compile(r"\d{1,4}|[ivxlcdm]{1,8}|[IVXLCDM]{1,8}")


def _lone_number(line: Line, body: float) -> bool:
    """A line that is a number alone, arabic or roman, dashes round it aside; a capital numeral only in
    the text's face and about its size (a capital alone in a maths font, or set in a script's size,
    is a variable: the "D" over a sum's sigma at a page's head)."""
    text = line.text.strip().strip("-–— ")
    if not _LONE_NUMBER_RE.fullmatch(text):
        return False
    return not text.isupper() or not any(is_math_word(w) for w in line.words) and line.size >= body * SCRIPT_SIZE


# a roman numeral in one case, as \roman or \Roman print one ("xii", "XII"; not "Xii")
_ROMAN_RE = re.compile(r"^(?:[ivxlcdm]+|[IVXLCDM]+)$")
SCRIPT_SIZE = 0.85       # of a word's size: a run set smaller than this is a script or a mark
_PUNCTUATION = ".,:;()[]" # a run of these beside a word's script digits ends a clause or closes a bracket ("hk1)" at
                          # a display row's end, its 1 a subscript), it is no part of a number
# digits glued to a word ("REWARD234"), never to a relation or operator sign ("i=1" at a page's foot
# is a sum's lower limit) nor to a point or comma: "1.5b" and "2.12" are an equation's or a section's
# number, not a folio
_GLUED_FOLIO_RE = re.compile(r"^(\d{1,4})(?=[^\d=<>+−.,])|(?<=[^\d=<>+−.,])(\d{1,4})$")


def _script_digits(word) -> bool:
    """A word that starts or ends with digits set smaller than the rest of it (a mark, an exponent),
    punctuation or brackets after or before them aside: "y1," at a display's edge ends on a subscript and its
    comma, not on a folio, which is set in its line's own size."""
    spans = list(word.spans)
    while len(spans) > 1 and not spans[-1].text.strip(_PUNCTUATION):
        spans.pop()
    while len(spans) > 1 and not spans[0].text.strip(_PUNCTUATION):
        spans.pop(0)
    if len(spans) < 2:
        return False
    size = max(sp.size for sp in spans)
    return any(sp.text.strip().isdigit() and sp.size < size * SCRIPT_SIZE for sp in (spans[0], spans[-1]))


def _variable(line: Line) -> bool:
    """A line that is one italic letter (a maths italic font's, or a maths alphanumeric): a variable, a
    limit under an operator at the foot of a page (`\\sum_m`), not the roman folio "m" or "i"."""
    if len(line.words) != 1:
        return False
    word = line.words[0]
    text = (word.raw or word.text).strip()
    return len(text) == 1 and (word.italic or 0x1D400 <= ord(text) <= 0x1D7FF)


def folio_candidates(line: Line) -> list[str]:
    """Numbers a head or foot line could carry as its page number: a number standing at either end
    of the line, or digits glued to the first or last word ("REWARD234", "12CHAPTER")."""
    out = []
    # (dashes or rules round a folio are ornament: "— 12 —" is three words, the number between them)
    words = [w for w in line.words if w.text.strip("-–—·•|~ ")] or line.words
    for w in (words[0], words[-1]) if len(words) > 1 else words[:1]:
        if _script_digits(w):
            continue   # a footnote's mark glued to its first word, or a superscript: no folio
        if len(words) > 1 and w.text.startswith("(") and w.text.rstrip(".,;").endswith(")"):
            continue   # "(7)" closing a line of other words: an equation's number (a display's first row)
        token = w.text.strip(".,:;|·–—-[]()")
        if token.isdigit() and len(token) <= 4:
            out.append(token)
        elif (m := _CHAPTER_FOLIO_RE.fullmatch(token)) and m.group(2) != ".":
            out.append(token)   # "2-5": a chapter's page 5, the chapter's own digits no folio of their own
        elif _ROMAN_RE.match(token) and len(token) <= 8 and not (token.isupper() and is_math_word(w)):
            out.append(token)   # (a capital in a maths font is a variable: "D" over a sum's sigma)
        else:
            m = _GLUED_FOLIO_RE.search(token)
            if m:
                out.append(m.group(1) or m.group(2))
    out += _page_of_total(line)
    return list(dict.fromkeys(out))


# a folio counting within its chapter, as DocBook's print styles and many manuals print it: the
# chapter's number or an appendix's capital, a hyphen or an en dash, the page within it ("2-5", "A-4");
# some publishers' books print a point there ("12.3"), which only a running line's end is read for
# (point_folios)
_CHAPTER_FOLIO_RE = re.compile(r"([A-Z]|\d{1,2})([-–.])(\d{1,3})")


def point_folios(line: Line) -> list[str]:
    """Folios "12.3" (a chapter, a point, the page within it) at either end of a running head or foot.
    A section's number looks the same ("2.3 Methods"), so these are read only on a line already known
    to run from page to page at one place (the caller's), never on a head seen once, and the sequence
    then asks of them what it asks of any chapter's folios: one more on every page of the chapter.  A
    section's number in a running head stays while its section runs on and jumps when a short one
    ends; an equation's number is in brackets ("(2.3)"), a version's or a date's has more points."""
    words = [w for w in line.words if w.text.strip("-–—·•|~ ")] or line.words
    out = []
    for w in (words[0], words[-1]) if len(words) > 1 else words[:1]:
        token = w.text.strip(".,:;|·–—-[]")
        m = _CHAPTER_FOLIO_RE.fullmatch(token)
        if m and m.group(2) == "." and not _script_digits(w):
            out.append(token)
    return list(dict.fromkeys(out))


def _page_of_total(line: Line) -> list[str]:
    """The page of a "page N of M" count, wherever it stands in the line: a number followed by a
    short word or a slash and a number no smaller ("3 of 18", "3 von 18", "3 / 18", "3/18"), the total
    the same on every page, so that only the first can run on as a folio."""
    texts = [w.text.strip(".,:;|()[]") for w in line.words]
    out = []
    for k, text in enumerate(texts):
        m = _PAGE_OF_TOTAL_RE.fullmatch(text)
        if m and int(m.group(1)) <= int(m.group(2)):
            out.append(m.group(1))
        elif text.isdigit() and len(text) <= 4 and k + 2 < len(texts) and texts[k + 2].isdigit() and \
                (texts[k + 1] == "/" or texts[k + 1].isalpha() and len(texts[k + 1]) <= PAGE_OF_WORD) and \
                int(text) <= int(texts[k + 2]):
            out.append(text)
    return out


_PAGE_OF_TOTAL_RE = re.compile(r"(\d{1,4})/(\d{1,4})")
PAGE_OF_WORD = 4     # letters: "of", "von", "sur", "de", "van" between a page and the total


def _division_label(line: Line, page: Page, body: float) -> bool:
    """A division's label alone on its line over its title in larger type: a chapter's or a section's
    opening, which recurs at one height on every opening page, no running head.  The label is known by
    its word ("CHAPTER 2", "Appendix A") or by its size: a running head is set in the text's size or
    smaller, and a short line set larger, over a title set larger too, is the opening's label whatever
    its word ("SECTION 1" in 20 pt over the section's title at the top of latexindent's openings)."""
    if lone_chapter_label(line.text) is None and \
            (len(line.words) > LABEL_WORDS or line.size <= body * CHAPTER_TITLE_SIZE):
        return False
    below = [l for l in page.lines if l.top > line.bottom]
    return bool(below) and min(below, key=lambda l: l.top).size > body * CHAPTER_TITLE_SIZE


CHAPTER_TITLE_SIZE = 1.15   # of the body: a chapter's title is set larger than the text
LABEL_WORDS = 3             # a division's label is a word and its number ("SECTION 1", "Lecture 3", "Teil II")


def _above_text(page: Page, body: float, text_top: float) -> bool:
    """Whether a page's first line stands where the output routine sets a running head: within a
    folio's head band (the top 15 %: on A4 paper the standard classes set the head about 11 % down,
    below the top tenth), above the text block's top and set off from the next line by more than a
    line's space."""
    if len(page.lines) < 2 or not page.lines[0].words:
        return False
    first, second = page.lines[0], page.lines[1]
    return first.top < page.height * HEAD_FOLIO_BAND and second.top - first.bottom >= body * HEAD_SEPARATION \
        and first.top <= text_top - body * HEAD_SEPARATION


def _head_slot(page: Page, body: float, text_top: float) -> tuple | None:
    """A page's first line as a running head's place: (face, size, height), when it is short and stands
    above the text (`_above_text`); None otherwise."""
    if not _above_text(page, body, text_top) or len(page.lines[0].words) > FURNITURE_WORDS:
        return None
    first = page.lines[0]
    return first.words[0].font, round(first.size, 1), first.top


HEAD_SEPARATION = 1.0    # em: a running head stands clear of the text under it by more than a line's space
SLOT_SLACK = 1.0         # pt: running heads of one style stand at one height, give or take this
TEXT_TOP_SHARE = 10      # the text block's top: the first line of body text on all but a tenth of pages stands no higher


def drop_running_lines(pages: list[Page]) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Remove running heads and feet in place; return each page's folio candidates {pdf page: [text]},
    and those of the lines removed."""
    candidates: dict[int, list[str]] = {}
    removed: dict[int, list[str]] = {}
    sizes: Counter = Counter(w.size for page in pages for line in page.lines for w in line.words)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    # A head or foot is set no larger than the text.  A manual whose code, set smaller than its prose
    # (in \small or \footnotesize), outnumbers the prose's words makes the code's size the commonest;
    # the prose's, a step or two larger and common too, is then the size a running head is measured by
    # ("Version 2.00, 2004/06/28 2" in the prose's 10 pt over 9 pt listings stood in no band, and no
    # folio was read).
    text_size = max((size for size, count in sizes.items()
                     if count >= sizes[body] * TEXT_SIZE_SHARE and body < size <= body * CODE_STEP), default=body)
    # where each shape stands in the bands, once per page: rows of one display broken over a page's
    # foot share a shape ("# · # = #"), and a running line stands at one height on every page it is
    # repeated on (equation numbers, "(1.6)" at one page's foot and "(3.4)" at another's head, do not)
    tops: dict[str, list[float]] = {}
    for page in pages:
        placed = {(_shape(line.text), round(line.top)) for line in page.lines if _in_band(line, page, text_size)}
        for shape, top in placed:
            tops.setdefault(shape, []).append(top)
    for found in tops.values():
        found.sort()

    def repeats(line: Line) -> int:
        found = tops.get(_shape(line.text), [])
        return bisect.bisect_right(found, line.top + body * SAME_PLACE) - bisect.bisect_left(found, line.top - body * SAME_PLACE)

    threshold = REPEATS if len(pages) >= 6 else REPEATS - 1
    # where a running head stands, whatever it says: the first line of a page, short, set well apart
    # from the text under it, in one face and size at one height on many pages (a short chapter's
    # title as its running head recurs on too few pages to be known by its words)
    # (above the text block: a page that goes on with running text sets its first line at the text
    # block's top, and one that opens with a heading sets the heading there, never a line's space
    # above it; the highest first lines of body text, a few pages' stray ones aside, mark that top)
    # (a line of running text, not a head in the body's size: KOMA-Script's running heads are, and when
    # they carry no folio their words change from section to section, so only their place tells them;
    # running text is a long line or one the next line follows within a line's space)
    def runs_on(page: Page, k: int) -> bool:
        line = page.lines[k]
        return len(line.words) > FURNITURE_WORDS or k + 1 < len(page.lines) and \
            page.lines[k + 1].top - line.bottom < body * HEAD_SEPARATION
    text_tops = sorted(t for page in pages
                       if (t := next((l.top for k, l in enumerate(page.lines)
                                      if abs(l.size - body) <= body * 0.05 and runs_on(page, k)), None)) is not None)
    text_top = text_tops[len(text_tops) // TEXT_TOP_SHARE] if text_tops else 0.0
    page_slots = {page.number: _head_slot(page, body, text_top) for page in pages}
    slots: dict[tuple, list[float]] = {}
    for slot in page_slots.values():
        if slot:
            slots.setdefault(slot[:2], []).append(slot[2])
    for found in slots.values():
        found.sort()

    def slotted(page: Page) -> bool:
        slot = page_slots[page.number]
        found = slots.get(slot[:2], []) if slot else []
        return bool(slot) and bisect.bisect_right(found, slot[2] + SLOT_SLACK) - \
            bisect.bisect_left(found, slot[2] - SLOT_SLACK) >= threshold
    # a running head whatever its length and size: a page's first line above the text whose words recur,
    # digits aside, at one height on many pages, with a number that changes from page to page
    # ("Errata for The LaTeX Companion, Second Edition (between 2004/04/22 and 2022-01-03) 2": fourteen
    # words in 10 pt over 9-pt entries, just below the top tenth of an A4 sheet, stood in no band and no
    # folio was read); a long table's column heads repeated on every page, or a section's title repeated
    # over its pages, carry no such number and stay in the text
    high_tops: dict[str, list[float]] = {}
    high_numbers: dict[str, set] = {}
    for page in pages:
        if _above_text(page, body, text_top):
            shape = _shape(page.lines[0].text)
            high_tops.setdefault(shape, []).append(page.lines[0].top)
            high_numbers.setdefault(shape, set()).add(tuple(folio_candidates(page.lines[0])))
    for found in high_tops.values():
        found.sort()

    def recurring_head(page: Page) -> bool:
        if not _above_text(page, body, text_top) or not folio_candidates(page.lines[0]):
            return False
        first = page.lines[0]
        shape = _shape(first.text)
        found = high_tops.get(shape, [])
        return len(high_numbers[shape]) > 1 and bisect.bisect_right(found, first.top + body * SAME_PLACE) - \
            bisect.bisect_left(found, first.top - body * SAME_PLACE) >= threshold
    for page in pages:
        kept = []
        for line in page.lines:
            if _in_band(line, page, text_size) or line is page.lines[0] and recurring_head(page):
                found = folio_candidates(line)
                # a number alone, arabic or roman (digits and letters mixed, "2l" = a denominator's 2ℓ, are no folio)
                alone = _lone_number(line, body) and not _variable(line)
                if (alone or (line is page.lines[0] and (slotted(page) or recurring_head(page))
                              or repeats(line) >= threshold
                              and not _under_head_at_text_top(line, page, text_top))
                        and not _in_text_flow(line, page, body) and not _division_label(line, page, body)
                        and not opens_with_mark(line)) and not _within_other_line(line, page) \
                        and not _opens_frame(line, page):
                    # (a number alone on its line comes first: where no other page can judge, a one-page
                    # note's foot "1" is its folio, not the "1995" or "CTAN06" its head or first line ends on)
                    found = found + point_folios(line)
                    found_before = candidates.setdefault(page.number, [])
                    at = 0 if alone else len(found_before)
                    found_before[at:at] = found
                    removed.setdefault(page.number, []).extend(found)
                    continue
                if found and len(line.words) <= FURNITURE_WORDS and (line is page.lines[0] or line is page.lines[-1]):
                    candidates.setdefault(page.number, []).extend(found)   # a head seen once, on its page's edge
            kept.append(line)
        page.lines = kept
    return candidates, removed


def _opens_frame(line: Line, page: Page) -> bool:
    """Whether a line is the first of a drawn frame that goes on under it: a framed statement's title
    bar at the top of a page ("Example 1.3" on the bar of a tcolorbox that opens three pages of an A5
    book, one face and height on each, its number changing like a folio's).  The output routine sets a
    running head outside the text block, and a band drawn behind it holds that line alone; a frame
    that opens at the line (its top no more than the line's own height above it: not a page's
    background or a border drawn round the page) and also holds the next line, and not every line of
    the page, holds text that goes on under its first line."""
    following = [other for other in page.lines if other.top > line.bottom]
    if not following:
        return False
    below = min(following, key=lambda other: other.top)

    def holds(frame, other) -> bool:
        x0, top, x1, bottom = frame
        return x0 - SLOT_SLACK <= other.x0 and other.x1 <= x1 + SLOT_SLACK and \
            top - SLOT_SLACK <= other.top and other.bottom <= bottom + SLOT_SLACK
    return any(holds(frame, line) and line.top - frame[1] <= line.bottom - line.top and holds(frame, below)
               and not all(holds(frame, other) for other in following)
               for frame in (*page.graphics, *page.boxes))


def _under_head_at_text_top(line: Line, page: Page, text_top: float) -> bool:
    """Whether a line under the page's first one stands at the text block's top or lower, in the
    page's upper half: the block's first line, however often its words recur there (pages that open
    with the same kind of framed pair, "LISTING 7: a.tex  LISTING 8: a.yaml").  The output routine
    sets a running head above the block, \\headsep clear of it; nothing it sets stands lower."""
    return text_top > 0 and line is not page.lines[0] and text_top - SLOT_SLACK <= line.top < page.height / 2


def _in_text_flow(line: Line, page: Page, body: float) -> bool:
    """Whether a line in a band is set in the body's size one leading from a body line outside the band,
    on the text block's side: the block's first or last line, however often its words recur (a running
    head or foot stands clear of the block, by \\headsep or \\footskip)."""
    if abs(line.size - body) > body * 0.05:
        return False
    head = line.top < page.height / 2
    for other in page.lines:
        if other is line or abs(other.size - body) > body * 0.05 or _in_band(other, page, body):
            continue
        step = other.baseline - line.baseline if head else line.baseline - other.baseline
        if 0 < step <= body * FLOW_STEP:
            return True
    return False


FLOW_STEP = 1.5   # em: a body line's baseline step to the next (its leading) is at most this


# a note's mark, alone or glued to its first word (or to the quote or bracket that opens it, "4“This …")
FOOTNOTE_MARK_RE = re.compile(r"^(?:\d{1,3}|[*†‡§¶‖]+)(?=[^\W\d_]|[“‘«\"'(\[]|$)")


def opens_with_mark(line: Line) -> bool:
    """Whether a line opens with a footnote's mark: set smaller than the note's words, alone or as the
    first run of its word.  No running foot does: the same note at the foot of several pages is text."""
    if not line.words:
        return False
    first = line.words[0]
    smaller = (len(line.words) > 1 and first.size < line.words[1].size * SCRIPT_SIZE) or (
        len(first.spans) > 1 and first.spans[0].size < max(sp.size for sp in first.spans) * SCRIPT_SIZE)
    # (a mark glued to a bracket, "24[123, § 3.2]", is the first run of its word, in digits)
    return smaller and (bool(FOOTNOTE_MARK_RE.match(first.text)) or
                        len(first.spans) > 1 and first.spans[0].text.strip().isdigit())


def _within_other_line(line: Line, page: Page) -> bool:
    """Whether a line's box overlaps that of a line on another baseline: a display's limit or script
    at the text block's edge (the 0 under an integral on a page's last line), never a folio, which
    stands clear of the text block."""
    return any(other is not line and other.top < line.bottom and line.top < other.bottom
               and abs(other.baseline - line.baseline) > BASELINE_APART for other in page.lines)


BASELINE_APART = 1.5   # pt: two lines stand on different baselines


def drop_folio_lines(pages: list[Page], printed: "PrintedPages", removed: dict[int, list[str]]) -> None:
    """A head or foot that no other page repeats (a short chapter's only even page) still carries
    the page's own number: once the sequence has confirmed that number, the line goes too.  A page
    prints its folio once: where a running line already removed carried it (`removed`, from
    drop_running_lines), a last line ending in that number is the page's text (a fraction's
    denominator "2" at the foot of page 2)."""
    for page in pages:
        label = printed.labels.get(page.number)
        if not label or not page.lines or label in removed.get(page.number, ()):
            continue
        for line in {id(l): l for l in (page.lines[0], page.lines[-1])}.values():
            if len(line.words) <= FURNITURE_WORDS and label in folio_candidates(line) and _stands_apart(line, label) \
                    and (line.top < page.height * HEAD_FOLIO_BAND or line.top > page.height * FOOT_FOLIO_BAND):
                page.lines.remove(line)


def _stands_apart(line: Line, label: str) -> bool:
    """A folio stands alone, glued to a head's word ("REWARD234"), or set off from the words beside
    it by more than a word space (a footnote's "… in section 1." ends on a number at a word space)."""
    words = line.words
    if len(words) == 1:
        return True
    for word, beside in ((words[0], words[1]), (words[-1], words[-2])):
        token = word.text.strip(".,:;|·–—-[]()")
        gap = beside.x0 - word.x1 if word is words[0] else word.x0 - beside.x1
        if token == label and gap > word.size * FOLIO_GAP:
            return True
        if token != label and label in token and not _script_digits(word):
            return True
    return False


# --------------------------------------------------------------------------- printed pages
"""Printed pages: the number a reader cites for every PDF page, from folios or the PDF's labels."""

FOLIO_REACH = 10     # pages: a folio's run is checked against the pages this far either side
FOLIO_SUPPORT = 2    # other pages of a long book must agree with a folio's offset (a short one: 1)
SHORT_BOOK = 20      # pages: a document this short numbers too few pages for more support
LABELS_AGREE = 0.8   # the PDF's page labels are used when they match this share of the folios read


def roman_value(text: str) -> int | None:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    if not text or not _ROMAN_RE.match(text):
        return None
    text = text.lower()
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
    rejected: int = 0               # pages whose head or foot numbers were no folio (no run agreed)

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
                opts.append(("roman" if text.islower() else "Roman", number - roman_value(text)))
            elif m := _CHAPTER_FOLIO_RE.fullmatch(text):
                # a run of its own per chapter: its prefix ("2-") is its kind, its page its value
                opts.append((m.group(1) + m.group(2), number - int(m.group(3))))
        if opts:
            options[number] = list(dict.fromkeys(opts))
    chosen = {}
    small = len(pages) <= 3
    # A folio rises by one per page: a number that stays (a year, an ISBN), jumps or restarts (a
    # chapter's own counter, a figure's number) changes its offset from page to page and finds no
    # other page to agree with it.  In a long book one chance agreement is not a run.
    needed = FOLIO_SUPPORT if len(pages) > SHORT_BOOK else 1
    short_runs, lone_roman = {}, {}
    for number, opts in options.items():
        best, support = None, 0
        for opt in opts:
            n = sum(1 for other in range(number - FOLIO_REACH, number + FOLIO_REACH + 1)
                    if other != number and opt in options.get(other, ()))
            if n > support:
                best, support = opt, n
        if best is not None and (support >= needed or small):
            chosen[number] = best
        elif small and opts:
            chosen[number] = opts[0]
        elif best is not None:
            short_runs[number] = best
        else:
            lone_roman[number] = [opt for opt in opts if opt[0] in ("roman", "Roman")]
    # Front matter numbered in roman before the text's arabic run may be two pages long (a contents
    # page and its overleaf, "i", "ii"): a roman run of two pages that ends before the first arabic
    # folio is front matter (a list's "(iii)", "(iv)" on two pages of the text stands after it)
    first_arabic = min((n for n, (kind, _) in chosen.items() if kind == "arabic"), default=0)
    for number, best in short_runs.items():
        if best[0] != "arabic" and number < first_arabic:
            chosen[number] = best
    # A roman folio alone (a contents page whose title page is counted "i" but prints nothing) has no
    # page to agree with it; it counts when it numbers its page from the document's first sheet, as
    # \pagenumbering{roman} at the start does, or from the sheet after it (a title page left out of the
    # count, as word processors and Pandoc's, Quarto's and Typst's templates leave it, the contents
    # page printing "i"), and stands before the arabic run's page 1 (a title page's "Volume I" stands
    # where the text's own count begins).  A contents page set after the text, as groff's ms macros
    # set it, starts a roman run of its own: an "i" alone after the arabic run's last page.
    text_opens = chosen[first_arabic][1] + 1 if first_arabic else 0
    last_arabic = max((n for n, (kind, _) in chosen.items() if kind == "arabic"), default=0)
    for number, romans in lone_roman.items():
        # (a numeral the pages around print too is the design's, no folio: a logo's letters "O T I"
        # ending a slide's head)
        romans = [opt for opt in romans if not _printed_around(number, _folio_text(opt[0], number - opt[1]), candidates)]
        front = [opt for opt in romans if opt[1] in (0, 1)]
        if front and number < text_opens:
            chosen[number] = front[0]
        elif last_arabic and number > last_arabic and (back := [opt for opt in romans if number - opt[1] == 1]):
            chosen[number] = back[0]
    _short_chapters(chosen, {n: opts for n, opts in options.items() if n not in chosen})
    return chosen


def _runs_of_frames(pages: list[Page], candidates: dict[int, list[str]],
                    running: dict[int, list[str]]) -> dict[int, tuple[str, int]] | None:
    """Folios of a slide deck whose frames span several sheets, read as runs over its frames.

    A presentation builds a slide up over several sheets (beamer's overlays), each a copy of the one
    before with more shown and the same head and foot: the frame number its foot prints ("12" or
    "12/20") stays over the frame's sheets and rises by one from frame to frame.  Against the sheets'
    index every overlay moves the offset, so the runs broke at each built-up frame and the pages after
    it took a chance run.  Consecutive sheets whose running heads and feet (`running`: the candidates of
    the lines dropped as such) offer the same numbers, some at least, are one frame (a list's "2." that
    an overlay uncovers at the top of the body changes the sheet's other candidates, not its foot); the
    runs are read over the frames, each frame offering its first sheet's candidates and judged as a page
    is (the support needed still set by the sheets' count, so a stamp every page prints, one frame,
    finds none), and every sheet takes its frame's folio.  None where no sheet repeats the one before."""
    frame_of: dict[int, int] = {}
    offered: dict[int, list[str]] = {}
    previous: list[str] = []
    for page in sorted(pages, key=lambda p: p.number):
        furniture = running.get(page.number) or []
        if not (furniture and furniture == previous):
            offered[len(offered) + 1] = candidates.get(page.number) or []
        frame_of[page.number] = len(offered)
        previous = furniture
    if len(offered) == len(frame_of):
        return None
    by_frame = _runs_of_offsets(pages, {frame: texts for frame, texts in offered.items() if texts})
    # (a sheet's own offset: its frame's folio counted from the sheet's index)
    return {number: (by_frame[frame][0], number - (frame - by_frame[frame][1]))
            for number, frame in frame_of.items() if frame in by_frame}


def _printed_around(number: int, text: str, candidates: dict[int, list[str]]) -> bool:
    """Whether a page within FOLIO_REACH of `number` offers the same folio text as a candidate."""
    return any(text in candidates.get(other, ()) for other in range(number - FOLIO_REACH, number + FOLIO_REACH + 1)
               if other != number)


def _chapter_family(kind: str) -> str | None:
    """What a run's kind says of a book's numbering by chapters: "arabic" for a counter that restarts
    with no prefix, the separator for a prefixed one ("-", "–" or "."); None for roman numerals."""
    if kind == "arabic":
        return kind
    return None if kind in ("roman", "Roman") else kind[-1]


def _short_chapters(chosen: dict[int, tuple[str, int]], left: dict[int, list[tuple[str, int]]]) -> None:
    """Folios of a chapter too short to make a run of its own, read along the book's sequence.

    Where folios count within chapters ("3-1", "3-2", or a counter that restarts with no prefix), a
    chapter of two pages or fewer has one other page or none to agree with each folio, too few in a
    long book, and its pages took the run of the chapter before or after it ("2-6" for "3-1").  The
    sequence along the book checks it instead: the chapter's pages count from its page 1, which stands
    after the last page of the run before it, and the run after it starts again after its last page,
    both numbered the same way (a folio that only chance puts in a continuous book's foot finds the
    next run counting from a page before it, and is left)."""
    known = sorted(chosen)
    runs: dict[tuple[str, int], list[int]] = {}
    for number in sorted(left):
        for opt in left[number]:
            runs.setdefault(opt, []).append(number)
    for (kind, offset), numbers in runs.items():
        family, start = _chapter_family(kind), offset + 1
        at = bisect.bisect_left(known, start)
        if family is None or at == 0 or at == len(known):
            continue
        before, after = chosen[known[at - 1]], known[at]
        # (the chapter's pages: those of the run between its page 1 and the next page read)
        own = [n for n in numbers[bisect.bisect_left(numbers, start):bisect.bisect_left(numbers, after)]
               if n not in chosen]
        if own and _chapter_family(before[0]) == family == _chapter_family(chosen[after][0]) and \
                before != (kind, offset) and chosen[after][1] + 1 > own[-1]:
            for n in own:
                chosen[n] = (kind, offset)


def _folio_text(kind: str, value: int) -> str:
    """A folio as its run prints it: "12", "xii", "XII" or, within a chapter, "2-5"."""
    if kind == "arabic":
        return str(value)
    if kind in ("roman", "Roman"):
        return to_roman(value) if kind == "roman" else to_roman(value).upper()
    return kind + str(value)


def printed_pages(pages: list[Page], candidates: dict[int, list[str]], labels: dict[int, str] | None,
                  running: dict[int, list[str]] | None = None) -> PrintedPages:
    """The printed page of every PDF page.

    Folios read on the pages are the evidence: the running heads and feet carry the numbers a
    reader cites.  Pages without one (chapter openers, full-page figures) take the number their
    neighbours imply.  The PDF's own page labels are used when it defines them and they agree with
    the folios (they then also number pages that print none); labels that disagree are reported
    and set aside (a book re-saved with stale labels, or labels counted from the wrong page).
    `running` holds the candidates of the lines dropped as running heads and feet (drop_running_lines'
    second result): a slide deck's frames are told by them (`_runs_of_frames`).
    """
    chosen = _runs_of_offsets(pages, candidates)
    framed = _runs_of_frames(pages, candidates, running) if running else None
    if framed and len(framed) > len(chosen):
        chosen = framed
    rejected = sum(1 for n, texts in candidates.items() if texts and n not in chosen)
    numbers = [p.number for p in pages]
    folio: dict[int, str | None] = {}
    for n in numbers:
        if n in chosen:
            kind, offset = chosen[n]
            folio[n] = _folio_text(kind, n - offset)
    read = len(folio)
    inferred = 0
    # Pages between or beside read folios take the nearest run's offset.  A page between front
    # matter's roman run and the text's arabic one where the arabic run still counts from 1 or more is
    # the text's: its first page, a chapter's opening, often prints no folio, and the last page of the
    # front matter (a blank overleaf) would stand at 0.
    known = sorted(chosen)
    for n in numbers:
        if n in folio or not known:
            continue
        at = bisect.bisect_left(known, n)
        before = known[at - 1] if at > 0 else None
        after = known[at] if at < len(known) else None
        run = None
        if before is not None and after is not None and chosen[before] == chosen[after]:
            run = chosen[before]
        elif before is not None and after is not None and chosen[before][0] != "arabic" and \
                chosen[after][0] == "arabic" and n - chosen[after][1] >= 1:
            run = chosen[after]
        elif before is not None and (after is None or n - before <= after - n):
            run = chosen[before]
        elif after is not None:
            run = chosen[after]
        if run:
            value = n - run[1]
            if value >= 1:
                folio[n] = _folio_text(run[0], value)
                inferred += 1
    if labels:
        judged = [n for n in chosen]
        agree = sum(1 for n in judged if labels.get(n) == folio.get(n))
        if not judged or agree >= LABELS_AGREE * len(judged):
            return PrintedPages({n: labels.get(n) or folio.get(n) for n in numbers}, "page labels",
                                read=sum(1 for n in numbers if labels.get(n)), inferred=0)
        note = (f"the PDF's page labels disagree with the printed page numbers on {len(judged) - agree} of "
                f"{len(judged)} pages (e.g. PDF page {next(n for n in judged if labels.get(n) != folio.get(n))}: "
                "label {!r}, printed {!r}); the printed numbers are used")
        bad = next(n for n in judged if labels.get(n) != folio.get(n))
        return PrintedPages(folio, "folios", read, inferred, note.format(labels.get(bad), folio.get(bad)), rejected)
    if not folio:
        return PrintedPages({n: None for n in numbers}, "none", 0, 0, "no page numbers found: PDF page indexes are cited",
                            rejected)
    return PrintedPages({n: folio.get(n) for n in numbers}, "folios", read, inferred, rejected=rejected)


# --------------------------------------------------------------------------- text block
"""Text block: the main column's edges, the margin column, the body type and its leading."""

FULL_LINE_WORDS = 6      # a line of six words or more is running text, set across the column
TEXT_WORDS = 0.5         # ... when at least this share of its words are text (a matrix's row is six words of maths)
MARGIN_GAP = 6           # pt: margin-column text starts right of the main column's edge by at least this
SAME_SIZE = 0.3          # pt: one type size (sizes are read to a tenth of a point)
LEADING_RANGE = (0.9, 2.6)   # of the body size: the baseline-to-baseline step of running text lies within
LEADING_INDENT = 2.5         # em: ... between lines that start within a paragraph indent of each other
LABEL_GAP = 1.5          # em: an equation number stands this far from its formula
LABEL_COLUMN_REACH = 6   # em: equation numbers end this close to the text block's edge, or the edge is theirs
LABEL_COLUMN_MIN = 3     # equation numbers end at one x on at least this many lines to make a column of their own
BESIDE_GAP = 1.0         # em: a gap this wide inside a line, only smaller type after it, parts a side note from the line
SMALLER_TYPE = 0.9       # ... smaller: below this share of the largest size before the gap
RAGGED_SHARE = 0.25      # the most common end (within a point) of fewer running lines than this: ragged right
RAGGED_SPAN = 3.0        # em: ... whose lines end within this much short of its edge (TeX's ragged right)
BLOCK_INDENT = 4.0       # em: the text block's lines start at most this far right of its left edge
EDGE_LINES = 5           # lines of prose: enough to place the block's edge left of a list's indent ...
EDGE_SHARE = 0.25        # ... and at least this share of the lines that start at the list's indent


@dataclass
class Layout:
    """The text block of one page parity: the main column's edges, the margin column, the body type."""

    left: float          # left edge of the main column
    right: float         # right edge of the main column
    margin_x: float      # words starting right of this are margin-column text
    body_size: float
    body_font: str = ""  # the font most of the running text is set in
    label_right: float = 0.0   # where equation numbers end, when the book sets them off the text block's edge
    leading: float = 0.0       # the usual distance from one line of running text to the next
    faceless: bool = False     # the text layer names one font for all its text (a scan's OCR layer): no face sets a head apart
    margin_left: float = 0.0   # words ending left of this are an outer margin's text (a two-sided book's
                               # even pages with their notes on the left); 0 when the pages have none
    turned: frozenset = frozenset()   # the pages of the other sheet parity that stand on this block
                                      # (`_turned`: a chapter restarting its count on an even sheet)


def detect_layout(pages: list[Page]) -> dict[tuple[int, int], Layout]:
    """Main column edges and margin column per page parity (two-sided books shift the text block)
    and per column (pages set in two columns are read as frames, build_layout.read_columns).

    The left edge is where most long lines start; the right edge is the most common end of
    long lines (justified text ends there); words starting right of it are margin text.
    Returns {(parity, column): layout}: parity 0 for even pages, 1 for odd; column 0 for the whole
    text block, 1 and 2 for the left and right column where the book sets two.
    """
    body, body_font, faceless = body_type(pages)
    layouts = {}
    for column in sorted({p.column for p in pages}):
        framed = [p for p in pages if p.column == column]
        found = _parity_layouts(framed, body, sheet_parity)
        turned = {p.number for p in framed if _turned(p, found[p.number % 2], found[1 - p.number % 2], body)}
        if turned:
            # pages set on the other parity's block (a chapter restarting its count on an even sheet):
            # each parity's block read again from the pages that stand on it, and each page read
            # against the block it stands on (`layout_of`), as judged here, once
            found = _parity_layouts(framed, body, lambda p: (p.number + (p.number in turned)) % 2)
            for parity, layout in found.items():
                layout.turned = frozenset(n for n in turned if n % 2 != parity)
        for parity, layout in found.items():
            layouts[(parity, column)] = layout
    for parity in (0, 1):
        left, right = layouts.get((parity, 1)), layouts.get((parity, 2))
        if left and right:   # a page in two columns: what runs across both spans the two
            layouts[(parity, 0)] = replace(left, right=right.right, margin_x=right.margin_x,
                                           label_right=right.label_right, turned=left.turned & right.turned)
    for layout in layouts.values():
        layout.body_font, layout.faceless = body_font, faceless
    return layouts


def body_type(pages: list[Page]) -> tuple[float, str, bool]:
    """The size and font most of the book's text is set in (counted by characters), and whether its
    text layer names one font only (faceless: a scan's OCR layer)."""
    sizes: Counter = Counter()
    fonts: Counter = Counter()
    for page in pages:
        for line in page.lines:
            for w in line.words:
                sizes[w.size] += len(w.text)
                fonts[(w.font, w.size)] += len(w.text)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    body_font = max(((n, f) for (f, size), n in fonts.items() if size == body), default=(0, ""))[1]
    return body, body_font, len({font for font, _ in fonts}) == 1


def sheet_parity(page: Page) -> int:
    """A page's parity by its sheet: 0 for an even PDF page, 1 for an odd one."""
    return page.number % 2


def _parity_layouts(pages: list[Page], body: float, side: Callable[[Page], int]) -> dict[int, Layout]:
    """The text block of even and of odd pages ({0: even, 1: odd}), read from their long lines; `side`
    says which parity's block a page stands on (its sheet's, or the other's for a turned page)."""
    layouts = {parity: _column_edges([p for p in pages if side(p) == parity and not p.rotated], body)
               for parity in (0, 1)}
    every = _column_edges([p for p in pages if not p.rotated], body)
    read = dict(layouts)
    for parity, found in layouts.items():
        # A parity with too few pages to tell (a short document) takes the whole document's edges,
        # shifted to where its own few lines stand when they agree with that width: a two-sided
        # layout moves the text block from page to page but never changes its width.
        if found is None:
            own = _column_edges([p for p in pages if side(p) == parity and not p.rotated], body, FEW_LINES)
            if every and own and abs((own.right - own.left) - (every.right - every.left)) <= SAME_WIDTH:
                found = own
        if found is None and read[1 - parity] is not None:
            found = _shifted_by_numbers(pages, side, parity, read[1 - parity])
        if found is None and read[1 - parity] is not None:
            found = _shifted_by_sentences(pages, side, parity, read[1 - parity], body)
        if found is None and read[1 - parity] is not None:
            found = _shifted_by_edges(pages, side, parity, read[1 - parity], body)
        if found is None:   # a copy each: the fields set below are the parity's own
            found = replace(every) if every else _sparse_layout([p for p in pages if not p.rotated] or pages, body)
        layouts[parity] = found
        layouts[parity].margin_left = _left_margin([p for p in pages if side(p) == parity], found)
        layouts[parity].label_right = _label_column([p for p in pages if side(p) == parity], layouts[parity])
        layouts[parity].leading = _leading(pages, body)
    return layouts


NUMBER_EDGE_LINES = 3    # equation numbers ending at one x on a parity's pages: enough to show its edge
NUMBER_EDGE_SHARE = 0.8  # ... of those the parity's pages set


def _number_edge(pages: list[Page]) -> float | None:
    """Where the equation numbers of these pages end, when most of them end at one x (to a point):
    amsmath sets each flush with the display's right edge, on its row or, where the row is too wide, on
    a line of its own under it."""
    ends = Counter(round(line.x1) for page in pages for line in page.lines if line.words and _ends_in_number(line))
    if not ends:
        return None
    x, _ = ends.most_common(1)[0]
    near = sum(n for e, n in ends.items() if abs(e - x) <= 1)
    return float(x) if near >= NUMBER_EDGE_LINES and near >= NUMBER_EDGE_SHARE * sum(ends.values()) else None


def _moved(block: Layout, shift: float) -> Layout:
    """A text block moved sideways by `shift` points: a two-sided layout moves it, never its width."""
    return replace(block, left=block.left + shift, right=block.right + shift, margin_x=block.margin_x + shift)


def _shifted_by_numbers(pages: list[Page], side: Callable[[Page], int], parity: int, other: Layout) -> Layout | None:
    """The text block of a parity whose pages show too few lines of running text to place it (a short
    document's displays with a sentence between them), from the other parity's: a two-sided layout
    shifts the block from page to page, never changing its width, and the equation numbers, set at a
    fixed place in it, shift with it.  Where the numbers of both parities each end at one x, the block
    moves by as much as they do.  (The whole document's edges, taken before, are the other parity's:
    this parity's sentences, starting an inch right of that left edge, read as set in, the rows of an
    aligned display.)  None where the numbers do not show it."""
    here = _number_edge([p for p in pages if side(p) == parity and not p.rotated])
    there = _number_edge([p for p in pages if side(p) != parity and not p.rotated])
    if here is None or there is None:
        return None
    shift = here - there
    return _moved(other, shift)


SENTENCE_LINES = 3     # short sentences starting at one x (to a point) on a parity's pages: enough to show its edge


def _shifted_by_sentences(pages: list[Page], side: Callable[[Page], int], parity: int, other: Layout,
                          body: float) -> Layout | None:
    """The text block of a parity whose pages show no running text and no column of equation numbers
    (a short document's unnumbered displays with a short sentence between each two), from the other
    parity's: a two-sided layout shifts the block, never its width, and TeX sets a sentence after a
    display flush with the block's left edge (a paragraph's first line stands an indent in, a
    display's rows are centred).  The edge is the leftmost x where three or more such lines in the
    body's type start, within a point, with no line of words in that type starting left of it, and
    the moved block must hold every one of them and stay on the page (a move of a few points is none:
    the sentences stand where the other parity's block does).  The whole document's edges,
    the fallback, are the other parity's: on the user's class, whose even pages' block stands 2 pc left
    of the odd pages', every sentence of an even page then started outside the block.  None where the
    sentences do not show it."""
    own = [p for p in pages if side(p) == parity and not p.rotated]
    sentences = [line for page in own for line in page.lines
                 if len(line.words) >= 2 and PROSE_WORD_RE.fullmatch(line.words[0].text)
                 and min(w.size for w in line.words) >= SMALLER_TYPE * body]
    starts = Counter(round(line.x0) for line in sentences)
    edge = min((x for x in starts if starts[x - 1] + starts[x] + starts[x + 1] >= SENTENCE_LINES), default=None)
    if edge is None or any(x < edge - 1 for x in starts):
        return None
    shift = edge - other.left
    if abs(shift) <= SAME_WIDTH or any(line.x1 > other.right + shift + 1 for line in sentences) or \
            any(other.right + shift > page.width for page in own):
        return None
    return _moved(other, shift)


EDGE_PAIR = 2   # lines starting (or ending) at one x, to a point: enough to show an edge both sides confirm


def _shifted_by_edges(pages: list[Page], side: Callable[[Page], int], parity: int, other: Layout,
                      body: float) -> Layout | None:
    """The text block of a parity whose pages hold too little to place it by any one kind of line (the
    only even page of a short two-sided document: a section's head, two short sentences, two numbered
    displays), from the other parity's: a two-sided layout shifts the block, never its width.  Where
    the lines in the body's type start no further left than one x that two or more of them start at
    (a head, a sentence after a display) and end no further right than one x that two or more end at
    (equation numbers, a paragraph's full lines), and those two edges lie the other block's width apart,
    they are the block's edges: both sides confirm the shift.  (Read against the other parity's block,
    the page's equation numbers stood an inch outside its edge and were read as a margin's notes.)
    None where the edges do not show it."""
    lines = [line for page in pages if side(page) == parity and not page.rotated for line in page.lines
             if line.words and min(w.size for w in line.words) >= SMALLER_TYPE * body]
    if not lines:
        return None
    left, right = min(line.x0 for line in lines), max(line.x1 for line in lines)
    if sum(1 for line in lines if line.x0 - left <= 1) < EDGE_PAIR or \
            sum(1 for line in lines if right - line.x1 <= 1) < EDGE_PAIR:
        return None
    shift = left - other.left
    if abs(shift) <= SAME_WIDTH or abs((right - left) - (other.right - other.left)) > SAME_WIDTH:
        return None
    return _moved(other, shift)


def _sparse_layout(pages: list[Page], body: float) -> Layout:
    """The text block of a document too short to show it by its full lines (a page or two of prose
    and displays, every paragraph a line or two): from where its longest lines start to where its
    furthest line ends.  What reaches furthest right is a justified line's end or an equation
    number, and both end at the block's edge; a guess from the page's width put that edge where
    neither stands, and the numbers were read as no numbers."""
    lines = [line for p in pages for line in p.lines if line.words and line.x1 < p.width * 0.95]
    if not lines:
        width = pages[0].width if pages else 612.0
        return Layout(left=72, right=width * 0.8, margin_x=width * 0.8 + MARGIN_GAP, body_size=body)
    long = [line for line in lines if len(line.words) >= FULL_LINE_WORDS] or lines
    left = Counter(round(line.x0) for line in long).most_common(1)[0][0]
    right = max(line.x1 for line in lines)
    return Layout(left=left, right=right, margin_x=right + MARGIN_GAP, body_size=body)


LEFT_NOTE_LINES = 3     # lines of words set wholly left of the text block: a margin column there, not a stray label
NOTE_WORD = re.compile(r"[A-Za-z]{2,}[,.;:]?")


def _left_margin(pages: list[Page], layout: Layout) -> float:
    """Where an outer margin column on the left ends (0.0 for none): a two-sided book with wide margins
    sets its side notes outside, left of the text block on even pages.  Lines of words (two or more
    of letters) standing wholly left of the block's edge by the margin's gap are that column's; a
    hanging section number, a list's mark or a line number is no such run of words."""
    edge = layout.left - MARGIN_GAP
    found = 0
    for page in pages:
        for line in page.lines:
            outside = [w for w in line.words if w.x1 <= edge]
            if sum(1 for w in outside if NOTE_WORD.fullmatch(w.text)) >= 2:
                found += 1
    return edge if found >= LEFT_NOTE_LINES else 0.0


def layout_of(layouts: dict[tuple[int, int], Layout], page: Page) -> Layout:
    """The text block a page (or one column of it) is read against: its sheet parity's, or the other
    parity's where detect_layout found the page's lines standing on that block (`_turned`)."""
    parity = page.number % 2
    own, other = layouts.get((parity, page.column)), layouts.get((1 - parity, page.column))
    if own and other and page.number in other.turned:
        return other
    return own or layouts[(parity, 0)]


TURNED_LINES = 3   # running lines reaching the other parity's outer edge: enough to show a page stands on its block


def _turned(page: Page, own: Layout, other: Layout, body: float) -> bool:
    """Whether a page stands on the other parity's text block.  A two-sided layout sets the block by
    the page counter's parity, not the sheet's: a chapter that restarts the count at 1 on an even sheet
    (or a blank sheet left out, a cover put in) has its pages' blocks on the other side, and read
    against the sheet's block a page's lines ran into the margin, a chapter's title joined its first
    section's head and later heads were lost.  The two blocks are one width, shifted; each has an edge
    outside the other (the far edge).  A page is turned when three or more of its running lines reach
    the other block's far edge (to a point), none reaches its own block's far edge, and every one lies
    within the other block: TeX sets no running line outside its block."""
    shift = other.left - own.left
    if page.rotated or abs(shift) <= SAME_WIDTH or abs((other.right - other.left) - (own.right - own.left)) > SAME_WIDTH:
        return False
    reaching_other = reaching_own = 0
    for line in map(_without_side_note, page.lines):
        if not running_line(line) or max(w.size for w in line.words) < SMALLER_TYPE * body:
            continue
        if line.x0 < other.left - 1 or line.x1 > other.right + 1:
            return False
        if shift > 0:       # the other block stands right of this one: its far edge is its right one
            reaching_other += abs(line.x1 - other.right) <= 1
            reaching_own += abs(line.x0 - own.left) <= 1
        else:
            reaching_other += abs(line.x0 - other.left) <= 1
            reaching_own += abs(line.x1 - own.right) <= 1
    return reaching_other >= TURNED_LINES and not reaching_own


def _leading(pages: list[Page], body: float) -> float:
    """Baseline to baseline between consecutive lines of body text: the most common such distance (the
    half point it falls in, then the median of the steps there: exact, as \\baselineskip is)."""
    steps: Counter = Counter()
    exact: dict[float, list[float]] = {}
    for page in pages[:400]:
        # lines next to each other on the page (a pair across a display between them is no step)
        full = [abs(l.size - body) < SAME_SIZE and len(l.words) >= FULL_LINE_WORDS and not
                (equation_number(l.words[0].text) or equation_number(l.words[-1].text)) for l in page.lines]
        for k in range(len(page.lines) - 1):
            if not (full[k] and full[k + 1]):
                continue
            a, b = page.lines[k], page.lines[k + 1]
            if abs(a.x0 - b.x0) > body * LEADING_INDENT:
                continue        # a paragraph's lines start together (its first by an indent); a display's do not
            step = b.baseline - a.baseline
            if body * LEADING_RANGE[0] < step < body * LEADING_RANGE[1]:
                steps[round(step * 2) / 2] += 1
                exact.setdefault(round(step * 2) / 2, []).append(step)
    if not steps:
        return body * 1.2
    found = sorted(exact[steps.most_common(1)[0][0]])
    return round(found[len(found) // 2], 2)


def _label_column(pages: list[Page], layout: Layout) -> float:
    """The right edge the book sets its equation numbers to: the x where most "(5.3)" tokens that end
    a line after a wide gap stop.  Equation numbers are right-aligned to one edge; that edge is
    usually the text block's, but not always (a narrower display column, a wide margin)."""
    ends: Counter = Counter()
    for page in pages:
        for line in page.lines:
            words = line.words
            if len(words) >= 2 and equation_number(words[-1].text) and \
                    words[-1].x0 - words[-2].x1 > layout.body_size * LABEL_GAP:
                ends[round(words[-1].x1)] += 1
    if not ends:
        return layout.right
    x, n = ends.most_common(1)[0]
    near = sum(c for e, c in ends.items() if abs(e - x) <= 2)
    return float(x) if near >= LABEL_COLUMN_MIN and abs(x - layout.right) < layout.body_size * LABEL_COLUMN_REACH \
        else layout.right


FEW_LINES = 5      # full lines: enough to place a text block whose width the rest of the book gives
SAME_WIDTH = 3     # pt: two text blocks this close in width are one block, shifted


def _ends_in_number(line: Line) -> bool:
    """Whether a line ends in an equation number ("(2.4)", or "(2.4" and ")" apart)."""
    words = line.words
    return equation_number(words[-1].text) is not None or \
        len(words) > 1 and equation_number(words[-2].text + words[-1].text) is not None


def running_line(line: Line) -> bool:
    """A line that shows the text block's edges: six words or more, at least half of them text, or a
    display's row that ends in its equation number (set at the block's edge).  A display's other rows
    of as many words are maths (a matrix's cells and its delimiters' pieces, each a word, glyphs in
    maths fonts or no letters at all), centred on the measure and narrower than it: where a book's
    few prose lines are outnumbered by one tall matrix's rows (a short document, its prose a sentence
    a display), those rows' common ends were taken for the block's edges, and the numbers standing at
    the true edge were read as a margin's notes."""
    words = line.words
    if len(words) < FULL_LINE_WORDS:
        return False
    maths = sum(1 for w in words if is_math_word(w) or not any(c.isalpha() for c in w.text))
    return len(words) - maths >= len(words) * TEXT_WORDS or _ends_in_number(line)


def _without_side_note(line: Line) -> Line:
    """The line without a side note set level with it.  A wide-margin class sets a note's first line on
    the baseline of the line that carries its mark, so both are one line of words: the column's words,
    a gutter, the note's.  Where the words after a gap of an em or more are all in a smaller type than
    the largest before it (a note's size beside the body's), the line the text block shows ends at the
    gap: counted whole, a page crowded with notes made the note column's edge the text block's, and
    every note beside a statement was read into its lines.  One pass each way, so linear."""
    words = line.words
    smaller_after = [0.0] * (len(words) + 1)        # the largest size from each word on
    for i in range(len(words) - 1, -1, -1):
        smaller_after[i] = max(smaller_after[i + 1], words[i].size)
    reach, big = words[0].x1, words[0].size
    for i in range(1, len(words)):
        if words[i].x0 - reach >= BESIDE_GAP * big and smaller_after[i] < SMALLER_TYPE * big:
            return Line(words[:i], line.page)
        reach, big = max(reach, words[i].x1), max(big, words[i].size)
    return line


def _column_edges(pages: list[Page], body: float, least: int = 20) -> Layout | None:
    starts, prose_starts, running = Counter(), Counter(), []
    for page in pages:
        for line in map(_without_side_note, page.lines):
            # a line all in a smaller type than the body's (a side note's, a footnote's) is not the
            # text block's: a wide-margin book's justified notes end together at the note column's edge
            if running_line(line) and max(w.size for w in line.words) >= SMALLER_TYPE * body:
                starts[round(line.x0)] += 1
                running.append(line)
                if line.words[0].text[:1].isalpha() and not LIST_MARK_RE.fullmatch(line.words[0].text):
                    prose_starts[round(line.x0)] += 1
    if len(running) < least:
        return None
    width = pages[0].width
    left = starts.most_common(1)[0][0]
    # where lists fill the column (a page of exercises' parts, each wrapped to the indent its text starts
    # at), their lines outnumber the paragraphs': the block's edge is the leftmost start, within a list's
    # indent left of the most common one, where lines of prose start often enough (not a list's labels
    # hung into the margin, which open with the label); TeX starts no running line left of the block
    left = min((x for x, n in prose_starts.items() if left - BLOCK_INDENT * body <= x < left - 1
                and n >= max(EDGE_LINES, starts[left] * EDGE_SHARE)), default=left)
    # the block's edge is where its own lines end, those that start at its left edge or a paragraph's or
    # a list's indent in, and a display's rows that end in their number at the edge: a margin column of
    # notes in the body's size (kaobook's side notes, justified to the margin's edge) starts far right
    # and, on a page full of notes, ended more lines than the block
    ends = Counter(round(line.x1) for line in running
                   if line.x0 <= left + BLOCK_INDENT * body or _ends_in_number(line))
    if not ends:
        return None
    inside = sorted(x for x, n in ends.items() if x < width * 0.95 for _ in range(n))
    right = max((n, x) for x, n in ends.items() if x < width * 0.95)[1]
    if sum(1 for x in inside if abs(x - right) <= 1) < RAGGED_SHARE * len(inside):
        right = _ragged_edge(inside, RAGGED_SPAN * body)
    return Layout(left=left, right=right, margin_x=right + MARGIN_GAP, body_size=body)


def _ragged_edge(ends: list[int], span: float) -> int:
    """The right edge of a ragged-right column (tufte-book's default) from its running lines' ends,
    sorted: no end is shared there, and the most common one was a chance of a few short lines, an em
    or more inside the column, so the column's last words were read as a margin's.  TeX breaks a
    ragged line within a few ems short of the edge: the edge is the furthest end of the span of that
    width that holds the most ends (lines set across the margin too end further out, and fewer).  Two
    pointers over the sorted ends, so linear."""
    best, edge, lo = 0, ends[-1], 0
    for hi, x in enumerate(ends):
        while x - ends[lo] > span:
            lo += 1
        if hi - lo + 1 >= best:
            best, edge = hi - lo + 1, x
    return edge


# --------------------------------------------------------------------------- columns
"""Columns: a page set in two columns read as frames, one after the other: what runs across both
columns (a title, an abstract, a wide figure), then the left column, then the right."""

GUTTER_MIN = 0.8      # em: two columns stand at least this far apart (a word space is a third of an em)
COLUMN_WORDS = 4      # words: a line this long is running text, in a column or across the page
COLUMN_LINES = 6      # lines of running text on each side of a page's gutter, at the least
CROSSING = 0.25       # of a page's lines of text: at most these run across its gutter (a title, a wide float)
COLUMN_PAGES = 0.3    # of the pages of a parity with text on them: this share at least shows one gutter
GUTTER_BIN = 6        # pt: the gutters of pages are compared to this step
CROSS_SLACK = 0.3     # em: a word reaching this far into the gutter runs across it (an overfull line, less)
WORD_SPACE_AT_MOST = 0.5   # em (of a line's type): a word space, stretched, is narrower than this
HANGS_UNDER = 1.5          # em: a display's denominator or dropped number stands this close under its row
HANGING_WORDS = 3          # ... and is a few words at the most
PROSE_WORD_RE = re.compile(r"[A-Za-z][a-z]{2,}[,.;:]?")   # a plain word of running text
BLOCK_STEP = 1.8           # em: both columns stepping down together further than this end one multicols block (a line's step is 1.2)
LEVEL = 0.5                # pt: two columns' lines this close in baseline stand level
BETWEEN_BLOCKS = 3         # lines: a heading between two multicols blocks, set in the left half
BODY_TYPE = 0.9       # of the body size: the columns' running text is set this large at least (a margin's notes are smaller)
COLUMN_RATIO = 0.6    # the narrower column is at least this share of the wider one's width (a margin column is narrower)


def page_gutter(page: Page, body: float) -> tuple[float, float] | None:
    """The gutter of a page set in two columns: the widest strip in the middle half of the page
    that few lines of text run across (a title, a wide float), with running text ending left of it
    and starting right of it on several lines each.  A line covers the x its words cover and the
    word spaces between them (a gap under GUTTER_MIN em).  None for a page in one column."""
    width = int(page.width) + 2
    cover = [0] * (width + 1)        # lines covering each x (a difference array, summed below)
    ends, starts = [0] * (width + 1), [0] * (width + 1)
    reach = GUTTER_MIN * body / 2
    text_lines = 0
    left_edge, right_edge = float(width), 0.0
    for line in page.lines:
        if len(line.words) < COLUMN_WORDS:
            continue
        text_lines += 1
        if line.size >= body * BODY_TYPE:
            ends[min(width, max(0, int(line.x1) + 1))] += 1
            starts[min(width, max(0, int(line.x0)))] += 1
            left_edge, right_edge = min(left_edge, line.x0), max(right_edge, line.x1)
        runs: list[list[float]] = []
        for w in line.words:   # a line's words are in x order
            if runs and w.x0 - reach <= runs[-1][1]:
                runs[-1][1] = max(runs[-1][1], w.x1 + reach)
            else:
                runs.append([w.x0 - reach, w.x1 + reach])
        for x0, x1 in runs:
            cover[min(width, max(0, int(x0) + 1))] += 1
            cover[min(width, max(0, int(x1)))] -= 1
    if text_lines < 2 * COLUMN_LINES:
        return None
    for x in range(1, width + 1):
        cover[x] += cover[x - 1]
        ends[x] += ends[x - 1]                      # lines ending at or left of x
    for x in range(width - 1, -1, -1):
        starts[x] += starts[x + 1]                  # lines starting at or right of x
    best: tuple[int, int, int] | None = None        # (crossing lines, -width of the strip, its left x)
    x = width // 4
    while x < width * 3 // 4:
        if cover[x] <= CROSSING * text_lines and ends[x] >= COLUMN_LINES and starts[x] >= COLUMN_LINES:
            run = x
            while run + 1 < width * 3 // 4 and cover[run + 1] == cover[x]:
                run += 1
            if best is None or (cover[x], x - run) < best[:2]:
                best = (cover[x], x - run, x)
            x = run + 1
        else:
            x += 1
    if best is None:
        return None
    lo, hi = best[2] - reach + 1, best[2] - best[1] + reach
    narrow, wide = sorted((lo - left_edge, right_edge - hi))
    return (lo, hi) if narrow >= COLUMN_RATIO * wide else None


def find_gutters(pages: list[Page], body: float) -> dict[int, tuple[float, float]]:
    """Where a book set in two columns has its gutter, per page parity: (the x its left column's
    lines end at, the x its right column's lines start at), when enough of its pages show one at
    the same x (page_gutter).  {} for a book in one column."""
    gutters = {}
    for parity in (0, 1):
        seen = [page_gutter(p, body) for p in pages if p.number % 2 == parity and not p.rotated and p.lines]
        found = [g for g in seen if g]
        if not found:
            continue
        common = Counter(round((a + b) / 2 / GUTTER_BIN) for a, b in found).most_common(1)[0][0]
        agree = [g for g in found if abs((g[0] + g[1]) / 2 / GUTTER_BIN - common) <= 1]
        if len(agree) >= COLUMN_PAGES * len(seen):
            gutters[parity] = (sorted(a for a, _ in agree)[len(agree) // 2], sorted(b for _, b in agree)[len(agree) // 2])
    return gutters


def read_columns(pages: list[Page]) -> list[Page]:
    """Every page of a book set in two columns as its frames in reading order (see column_frames);
    a book in one column as it is."""
    body = body_type(pages)[0]
    gutters = find_gutters(pages, body)
    if not gutters:
        return pages
    frames: list[Page] = []
    for page in pages:
        gutter = gutters.get(page.number % 2) or next(iter(gutters.values()))
        frames.extend(column_frames(page, gutter, body) if not page.rotated else [page])
    return frames


def column_frames(page: Page, gutter: tuple[float, float], body: float) -> list[Page]:
    """A page cut into frames at its gutter: bands of lines that run across the gutter (a title, a
    wide float) and bands set in the two columns, each cut into its left and right column; the
    drawings, boxes and links go with the frame their middle lies in.  A page whose lines mostly run
    across the gutter (one set in a single column) stays whole."""
    left_end, right_start = gutter
    middle = (left_end + right_start) / 2
    slack = CROSS_SLACK * body

    def across(line: Line) -> bool:
        # a word over the gutter's middle, or one that starts inside the gutter; not a left column's
        # line set overfull into the gutter (a two-column class's footnotes, a number pushed out)
        if any(w.x0 < middle - slack and w.x1 > middle + slack or left_end + slack < w.x0 < right_start - slack
               for w in line.words):
            return True
        # or a line of large type whose word space happens to fall on the gutter's middle (a title
        # across both columns): words on both sides, no further apart than its own word space, where
        # the two columns' lines stand a whole gutter apart
        before = [w.x1 for w in line.words if w.x0 + w.x1 < 2 * middle]
        after = [w.x0 for w in line.words if w.x0 + w.x1 >= 2 * middle]
        size = max((w.size for w in line.words), default=body)
        return bool(before and after) and min(after) - max(before) < min(right_start - left_end, size * WORD_SPACE_AT_MOST)

    lines = sorted(page.lines, key=lambda l: (l.top, l.x0))
    wide = [across(l) for l in lines]
    if sum(wide) * 2 >= len(lines):
        return [page]
    # a display across both columns keeps what hangs under its row: a fraction's denominator, its
    # number dropped below it (no words of prose, a line's space from it at the most)
    for k in range(1, len(lines)):
        if not wide[k] and wide[k - 1] and lines[k].top - lines[k - 1].bottom < body * HANGS_UNDER and \
                len(lines[k].words) <= HANGING_WORDS and not any(PROSE_WORD_RE.fullmatch(w.text) for w in lines[k].words):
            wide[k] = True
    runs: list[tuple[bool, list[Line]]] = []
    for line, runs_across in zip(lines, wide):
        if runs and runs[-1][0] == runs_across:
            runs[-1][1].append(line)
        else:
            runs.append((runs_across, [line]))
    # a band across the gutter is one frame; a band in two columns is its left and right column's lines,
    # and two bands where both columns end level and start again level further down (one multicols
    # block set right under another)
    bands: list[list[list[Line]]] = []
    for runs_across, run in runs:
        if runs_across:
            bands.append([run])
            continue
        columns = []
        for x0, x1 in ((0.0, middle), (middle, page.width)):
            own = []
            for line in run:
                words = [w for w in line.words if x0 <= (w.x0 + w.x1) / 2 < x1]
                if words:
                    own.append(Line(words, line.page))
            if _pieces_astray(own):
                own = group_lines([w for line in own for w in line.words], page.number)
            columns.append(own)
        bands.extend(_blocks(*columns, body))
    # each band reaches halfway to its neighbours, the first from the page's top, the last to its foot
    extents = [(min(l.top for part in band for l in part), max(l.bottom for part in band for l in part))
               for band in bands]
    edges = [0.0] + [(a[1] + b[0]) / 2 for a, b in zip(extents, extents[1:])] + [page.height]
    frames: list[Page] = []
    for band, top, bottom in zip(bands, edges, edges[1:]):
        if len(band) == 1:
            frames.append(_frame(page, band[0], (0.0, top, page.width, bottom), 0))
            continue
        for column, (x0, x1), own in zip((1, 2), ((0.0, middle), (middle, page.width)), band):
            frames.append(_frame(page, own, (x0, top, x1, bottom), column))
    return frames


def _blocks(left: list[Line], right: list[Line], body: float) -> list[list[list[Line]]]:
    """A band of two columns as the blocks it stacks, each its left and right column's lines (and, between
    two, a one-column line standing in the left half: a heading).  multicols balances a block's columns,
    so both end on one baseline, and the next block starts both its columns on one baseline too, further
    down than a line's step (\\multicolsep, and a heading between them if any): where both columns step
    down together from one baseline by more than BLOCK_STEP, and start again level (the right column's
    next line level with the left's first line after at most BETWEEN_BLOCKS lines the left half alone
    holds inside the right's gap), one block ends and the next begins; its left column is read after the
    first block's right.  The columns of one block step so far together, level before and after, only
    by chance, and the four lines at the cut hold running words (two displays' last rows may stand
    level in running columns, the text under each a display's skip down)."""
    left, right = sorted(left, key=lambda l: l.top), sorted(right, key=lambda l: l.top)
    if not left or not right:
        return [[left, right]]
    right_at = {round(l.baseline): k for k, l in enumerate(right)}
    blocks: list[list[list[Line]]] = []
    start_left = start_right = 0
    i = 0
    while i < len(left) - 1:
        j = _level_line(right_at, right, left[i].baseline)
        if j is None or j < start_right or j + 1 >= len(right) or \
                min(left[i + 1].baseline - left[i].baseline, right[j + 1].baseline - right[j].baseline) <= body * BLOCK_STEP or \
                min(left[i + 1].top, right[j + 1].top) <= max(left[i].bottom, right[j].bottom):
            i += 1
            continue
        # the left column's lines inside the right column's gap, then the line level with the right's next
        k = i + 1
        while k < min(len(left), i + 1 + BETWEEN_BLOCKS) and left[k].bottom < right[j + 1].top:
            k += 1
        if k == len(left) or abs(left[k].baseline - right[j + 1].baseline) >= LEVEL or \
                not all(_running(line) for line in (left[i], right[j], left[k], right[j + 1])):
            i += 1
            continue
        blocks.append([left[start_left:i + 1], right[start_right:j + 1]])
        if k > i + 1:
            blocks.append([left[i + 1:k]])
        start_left, start_right = k, j + 1
        i = k
    blocks.append([left[start_left:], right[start_right:]])
    return blocks


def _running(line: Line) -> bool:
    """A line holding a word of running text (two columns' displays may end level by chance: a sum's
    limits in each, the text under them a like skip down)."""
    return any(PROSE_WORD_RE.fullmatch(w.text) for w in line.words)


def _level_line(right_at: dict, right: list[Line], baseline: float) -> int | None:
    """The index of the right column's line on this baseline (within LEVEL), or None."""
    for key in (round(baseline) - 1, round(baseline), round(baseline) + 1):
        k = right_at.get(key)
        if k is not None and abs(right[k].baseline - baseline) < LEVEL:
            return k
    return None


def _pieces_astray(lines: list[Line]) -> bool:
    """A column's lines, cut from the page's, hold pieces of an inline formula kept apart from the
    prose line they stand in: a line of no running word whose height overlaps a line of running words.
    The page's lines were found across both columns, and an inline fraction's numerator raised (or its
    denominator hung) to the height of the other column's baseline joined that column's line; cut at the
    gutter, it stands as a line of its own inside its own line's body.  TeX never sets two lines of one
    column within each other's height, so the column's words are grouped into lines anew."""
    prose = [line for line in lines if any(PROSE_WORD_RE.fullmatch(w.text) for w in line.words)]
    if len(prose) == len(lines):
        return False
    spans = sorted((line.top, line.bottom, line.size) for line in prose)
    tops = [top for top, _, _ in spans]
    for line in lines:
        if any(PROSE_WORD_RE.fullmatch(w.text) for w in line.words):
            continue
        # the prose lines starting above this piece's foot; the nearest of them is the one it can reach
        # into, and the piece is set in a script's size there (an inline fraction's parts are)
        k = bisect.bisect_left(tops, line.bottom)
        if any(bottom > line.top and all(w.size < size * SCRIPT_SIZE for w in line.words)
               for _, bottom, size in spans[max(0, k - 2):k]):
            return True
    return False


def _frame(page: Page, lines: list[Line], rect: tuple[float, float, float, float], column: int) -> Page:
    """The part of a page within rect: its lines, and the drawings, boxes, rules and links whose
    middle lies inside (every thin stroke stays: a fraction bar is found by the maths it divides)."""
    x0, top, x1, bottom = rect

    def inside(shapes):
        return [s for s in shapes if x0 <= (s[0] + s[2]) / 2 < x1 and top <= (s[1] + s[3]) / 2 < bottom]

    return replace(page, lines=lines, boxes=inside(page.boxes), rules=inside(page.rules),
                   graphics=inside(page.graphics), links=inside(page.links), strokes=inside(page.strokes),
                   column=column)


# --------------------------------------------------------------------------- contents pages
"""Contents pages: a table of contents or a list of figures lists captions; it defines nothing."""


ONE_PAGE_ENTRIES = 6     # entries: this many, all naming one page, list no book's contents


def is_contents_page(page: Page) -> bool:
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
    # a contents list's entries lead on through the book: a page of them all naming one page is a
    # sample index or glossary of a one-page document, shown as a figure
    if len(numbers) >= ONE_PAGE_ENTRIES and len(set(numbers)) == 1:
        return False
    return len(numbers) < 2 or rising >= 0.8 * (len(numbers) - 1)
