"""The PDF reader's general rules, each on the smallest input that shows it, and the build's self-check.

These rules are about typesetting, not about any one book: a folio glued to a running head, page
labels that disagree with the printed numbers, a numbered head in a face of its own, an equation
number with an odd separator, a sequence with a gap.  The books in ../shared/corpora exercise
them whole (test_corpora.py); here each rule is pinned down on its own.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import BOOK_PDF, ROOT

from build_common import number_ranges, numbering_gaps
from build_glyphs import Line, Page, Word, repair_char
from build_heads import equation_number, match_head
from build_layout import folio_candidates, point_folios, printed_pages, roman_value


def word(text, x0=0.0, bold=False, italic=False, font="Body", size=10.0):
    return Word(text, x0, x0 + 6 * len(text), 0, 10, size, bold, False, italic, font, 8.0)


def line(*words, page=1):
    return Line(list(words), page)


def page(number, *lines):
    return Page(number, None, 500, 700, list(lines), [], [], [])


# --------------------------------------------------------------------------- folios and printed pages

@pytest.mark.parametrize("texts, expected", [
    (["EXPECTEDDISCOUNTEDREWARD234"], ["234"]),          # a folio glued to the running head
    (["234", "CHAPTER", "5"], ["234", "5"]),
    (["12CHAPTER", "TWO"], ["12"]),
    (["xii"], ["xii"]),
    (["Preface"], []),
])
def test_folio_candidates(texts, expected):
    assert folio_candidates(line(*[word(t) for t in texts])) == expected


def test_printed_pages_from_folios_with_openers_inferred():
    """Folios read on most pages; a chapter opener without one takes its neighbours' run."""
    pages = [page(n) for n in range(1, 11)]
    candidates = {n: [str(n + 20)] for n in range(1, 11) if n != 5}
    printed = printed_pages(pages, candidates, labels=None)
    assert printed.source == "folios" and printed.labels[5] == "25" and printed.number(7) == 27
    assert printed.read == 9 and printed.inferred == 1


def test_page_labels_that_disagree_with_the_folios_are_set_aside():
    pages = [page(n) for n in range(1, 11)]
    candidates = {n: [str(n - 4)] for n in range(5, 11)}
    labels = {n: str(n) for n in range(1, 11)}                 # stale labels, counted from the cover
    printed = printed_pages(pages, candidates, labels)
    assert printed.source == "folios" and printed.labels[8] == "4" and "disagree" in printed.note
    agreeing = printed_pages(pages, {n: [str(n)] for n in range(5, 11)}, labels)
    assert agreeing.source == "page labels" and agreeing.labels[2] == "2"   # labels number pages without folios


def test_roman_front_matter():
    pages = [page(n) for n in range(1, 9)]
    candidates = {1: ["i"], 2: ["ii"], 3: ["iii"], 5: ["1"], 6: ["2"], 7: ["3"], 8: ["4"]}
    printed = printed_pages(pages, candidates, None)
    assert [printed.labels[n] for n in (1, 3, 5, 8)] == ["i", "iii", "1", "4"]
    assert printed.number(2) is None and roman_value("xiv") == 14


def test_a_short_chapter_read_along_the_books_sequence():
    """Counters that restart with every chapter, no prefix, in a book over 20 pages: a chapter of two
    pages counts from its own page 1 between the runs before and after it; in a continuous book two
    pages whose feet print "1" and "2" by chance keep the book's run."""
    chapters = [6, 2, 7, 1, 8]
    pages = [page(n) for n in range(1, sum(chapters) + 1)]
    printed = [str(k) for length in chapters for k in range(1, length + 1)]
    candidates = {n: [text] for n, text in enumerate(printed, 1)}
    assert [printed_pages(pages, candidates, None).labels[n] for n in range(1, len(pages) + 1)] == printed
    stray = {n: [str(n)] for n in range(1, 25)} | {7: ["1"], 8: ["2"]}
    assert [printed_pages(pages, stray, None).labels[n] for n in (7, 8)] == ["7", "8"]


def test_a_slide_decks_frames_numbered_over_its_sheets():
    """Slides built up over several sheets repeat their foot ("3 / 9") on every sheet of a frame.  Read
    against the sheets' index the runs broke at each frame and beamer's own labels (the frame numbers)
    were set aside as disagreeing; read over the frames, every sheet takes its frame's number and the
    labels agree.  A stamp every sheet's foot prints ("2024") is one frame for the whole deck: no run."""
    sheets = [1, 1, 4, 3, 1, 3, 1, 3, 2, 1, 4, 1]
    frames = [str(frame) for frame, n in enumerate(sheets, 1) for _ in range(n)]
    pages = [page(n) for n in range(1, len(frames) + 1)]
    feet = {n: [text, "12"] for n, text in enumerate(frames, 1)}
    printed = printed_pages(pages, feet, None, feet)
    assert [printed.labels[n] for n in range(1, len(pages) + 1)] == frames and printed.read == len(pages)
    labelled = printed_pages(pages, feet, dict(enumerate(frames, 1)), feet)
    assert labelled.source == "page labels", labelled.note
    stamp = {n: ["2024"] for n in range(1, len(pages) + 1)}
    assert printed_pages(pages, stamp, None, stamp).source == "none"


def test_point_folios_only_on_running_lines():
    """A "12.3" at a line's end is no folio candidate by itself (a section's number looks the same)."""
    assert folio_candidates(line(word("2.3"), word("Methods"))) == []
    assert point_folios(line(word("2.3"), word("Methods"))) == ["2.3"]
    assert point_folios(line(word("(2.3)"))) == [] and point_folios(line(word("1.2.3"))) == []


# --------------------------------------------------------------------------- text and numbers

def test_tex_fonts_unmapped_glyphs():
    assert repair_char("\x0f", "OML") == "ϵ" and repair_char(":", "OML") == "."      # math italic codes
    assert repair_char("2", "OMS") == "∈" and repair_char("{", "OMS") == "{"         # symbols; braces are braces
    assert repair_char("X", "OMX") == "∑" and repair_char("\x0c", "OT1") == "ﬁ"


@pytest.mark.parametrize("text, number", [("(5.3)", "5.3"), ("(1:1)", "1.1"), ("( 2.4a )", "2.4a"), ("(12)", "12"),
                                          ("(A.3)", "A.3"), ("(x)", None), ("5.3", None)])
def test_equation_numbers(text, number):
    assert equation_number(text) == number


def test_numbered_heads_by_their_face():
    bold = match_head(line(word("Theorem", bold=True), word("2.9", bold=True), word("Division", bold=True),
                           word("Algorithm.", bold=True), word("Let"), word("a")), "Body")
    assert (bold.kind, bold.number, bold.title, bold.distinct) == ("theorem", "2.9", "Division Algorithm", True)
    named = match_head(line(word("Lemma", bold=True), word("1.1", bold=True), word("(Cauchy-Schwarz)."),
                            word("For")), "Body")
    assert (named.kind, named.title) == ("lemma", "Cauchy-Schwarz")
    new_kind = match_head(line(word("Assumption", italic=True, font="Italic"), word("3.1.", italic=True,
                                                                                   font="Italic"), word("The")), "Body")
    assert new_kind.kind == "assumption" and new_kind.distinct
    reference = match_head(line(word("Definition"), word("7.1.1"), word("is"), word("important")), "Body")
    assert reference is not None and not reference.distinct      # the body face: a reference, not a head
    assert match_head(line(word("Section", bold=True), word("3.2", bold=True)), "Body") is None


def test_numbering_gaps_and_shared_counters():
    gaps = numbering_gaps({"formula": {"5.1", "5.2", "5.4", "5.11"}, "example": {"2.1", "2.3"},
                           "theorem": {"2.2"}, "figure": {"1", "2", "4"}})
    assert gaps == {"formula": ["5.3", "5.5", "5.6", "5.7", "5.8", "5.9", "5.10"], "figure": ["3"]}
    assert number_ranges(gaps["formula"]) == ["5.3", "5.5–5.10"]


# --------------------------------------------------------------------------- the build checks itself

@pytest.fixture(scope="module")
def gapped_pdf(tmp_path_factory):
    """PDF pages 30-40 of the sample book without pages 33 and 34: formulas 3.5-3.7 go missing."""
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(str(BOOK_PDF)), PdfWriter()
    for index in [*range(29, 32), *range(34, 40)]:
        writer.add_page(reader.pages[index])
    path = tmp_path_factory.mktemp("gapped") / "gapped.pdf"
    with open(path, "wb") as f:
        writer.write(f)
    return path


def build(*args, cwd=None):
    return subprocess.run([sys.executable, str(ROOT / "build_db.py"), *map(str, args)], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


def test_report_names_the_gaps_and_strict_refuses_them(gapped_pdf, tmp_path):
    out = tmp_path / "gapped.sqlite"
    proc = build(gapped_pdf, "-o", out, "--quiet", "--json")
    assert proc.returncode == 0, proc.stderr
    checks = json.loads(proc.stdout)["checks"]
    assert checks["kinds"]["formula"]["gaps"] == ["3.5–3.7"], checks
    assert checks["pages"]["source"] in ("page labels", "folios")
    text = build(gapped_pdf, "-o", tmp_path / "again.sqlite", "--quiet").stdout
    assert "formula" in text and "gaps:" in text
    before = out.read_bytes()
    strict = build(gapped_pdf, "-o", out, "--quiet", "--strict")
    assert strict.returncode == 3 and "numbering gaps" in strict.stderr and "formula" in strict.stderr
    assert out.read_bytes() == before


def test_rag_info_shows_the_report(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "rag.py"), "info"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["build_report"]["kinds"]["formula"]["gaps"] == []
    assert info["counts"]["formula"] == info["build_report"]["kinds"]["formula"]["found"]
    assert "theorem" in info["kinds"]       # kinds answered for, whether or not this book has them


# --------------------------------------------------------------------------- frames drawn without a fill

def _text_lines(x0: float, tops: tuple, width: float = 220.0) -> list:
    return [Word("word " * 8, x0, x0 + width, top, top + 10, 10, False, False, False, "Body", top + 8) for top in tops]


def test_a_rule_alone_at_the_left_of_text_frames_it():
    """tcolorbox's borderline west with no fill: one thin upright rule, text starting just right of it."""
    from build_glyphs import RuledFrame, _bar_frames
    text = _text_lines(80.0, (100.0, 112.0, 124.0))
    bar = (70.0, 96.0, 71.5, 138.0)
    assert _bar_frames([bar], [], [], text) == [RuledFrame((70.0, 96.0, 300.0, 138.0))]
    # a word across the rule, rules meeting it as a table's do (a rule along its foot that a column rule
    # meets between its ends; a rule crossing it from far left), a rule one line tall, text far from it: none
    across = [Word("x", 65.0, 75.0, 112.0, 122.0, 10, False, False, False, "Body", 120.0)]
    assert _bar_frames([bar], [], [], text + across) == []
    foot = (70.0, 137.5, 300.0, 138.5)
    assert _bar_frames([bar, foot, (180.0, 96.0, 181.5, 138.0)], [], [], text) == []
    assert _bar_frames([bar, (20.0, 137.5, 300.0, 138.5)], [], [], text) == []
    assert _bar_frames([(70.0, 98.0, 71.5, 110.0)], [], [], text) == []
    assert _bar_frames([bar], [], [], _text_lines(110.0, (100.0, 112.0, 124.0))) == []
    # a side of a frame already read
    assert _bar_frames([bar], [], [(70.0, 96.0, 300.0, 138.0)], text) == []
    # corners only (thmbox): hung from a head's rule that starts left of it, a rule along its foot; the
    # frame is as wide as the head's rule
    head_rule = (58.0, 95.5, 150.0, 96.5)
    assert _bar_frames([bar, head_rule, foot], [], [], text) == [RuledFrame((58.0, 96.0, 300.0, 138.0))]


def _path(segments: list):
    """A path object made with PDFium's own calls: ("M"|"L", x, y) or ("C", x1, y1, x2, y2, x, y)."""
    import pypdfium2.raw as pdfium_c
    (_, x, y), rest = segments[0], segments[1:]
    obj = pdfium_c.FPDFPageObj_CreateNewPath(x, y)
    for kind, *xy in rest:
        if kind == "L":
            pdfium_c.FPDFPath_LineTo(obj, *xy)
        else:
            pdfium_c.FPDFPath_BezierTo(obj, *xy)
    pdfium_c.FPDFPath_Close(obj)
    return pdfium_c, obj


def test_a_frame_with_round_corners_is_a_rectangle_and_an_ellipse_is_not():
    from build_glyphs import _rounded_rectangle
    r, k = 4.0, 1.8       # a corner's radius and its Bézier handles' length
    rounded = [("M", 0, r), ("L", 0, 40 - r), ("C", 0, 40 - r + k, r - k, 40, r, 40), ("L", 200 - r, 40),
               ("C", 200 - r + k, 40, 200, 40 - r + k, 200, 40 - r), ("L", 200, r),
               ("C", 200, r - k, 200 - r + k, 0, 200 - r, 0), ("L", r, 0), ("C", r - k, 0, 0, r - k, 0, r)]
    assert _rounded_rectangle(*_path(rounded))
    ellipse = [("M", 0, 20), ("C", 0, 31, 45, 40, 100, 40), ("C", 155, 40, 200, 31, 200, 20),
               ("C", 200, 9, 155, 0, 100, 0), ("C", 45, 0, 0, 9, 0, 20)]
    assert not _rounded_rectangle(*_path(ellipse))


def test_a_display_fraction_between_tall_braces_in_prose_stays_on_its_line():
    """`$\\left\\{ \\dfrac{n}{n+1} \\right\\}_{n=1}^\\infty$` in a sentence (Lebl's exercise 2.1.5, newpx): the
    numerator and denominator stand a full size off the baseline and founded lines of their own, which no
    paragraph took; inside the braces' height they are the line's, and its baseline stays the prose's."""
    from build_glyphs import group_lines

    def w(text, x0, x1, top, bottom, base, size=10.9):
        return Word(text, x0, x1, top, bottom, size, False, False, False, "Body", base)
    prose = [w("Is", 144.4, 152.3, 267.0, 277.9, 274.9), w("sequence", 170.8, 209.2, 267.0, 277.9, 274.9),
             w("convergent?", 269.5, 322.7, 267.0, 277.9, 274.9), w("If", 326.6, 334.8, 267.0, 277.9, 274.9)]
    braces = [w("{", 212.5, 217.3, 261.7, 282.4, 274.9, 11.5), w("}", 244.6, 249.3, 261.7, 282.4, 274.9, 11.5)]
    stacked = [w("n", 227.4, 233.5, 262.5, 268.0, 267.4), w("n", 218.9, 225.0, 276.5, 282.4, 282.4),
               w("+", 228.0, 235.3, 274.2, 282.4, 282.4), w("1", 237.7, 243.2, 274.4, 285.4, 282.4),
               w("∞", 249.9, 257.1, 258.8, 264.8, 264.8, 8.0), w("n=1", 250.1, 264.2, 277.1, 285.1, 282.9, 8.0)]
    below = [w("the", 144.4, 160.0, 290.0, 301.0, 298.0), w("limit.", 162.0, 190.0, 290.0, 301.0, 298.0)]
    lines = group_lines(prose + braces + stacked + below, 9)
    assert [l.text for l in lines] == ["Is sequence { n n + 1 } ∞ n=1 convergent? If", "the limit."]
    assert lines[0].baseline == 274.9 and sum(x.stacked for x in lines[0].words) == 6


# --------------------------------------------------------------------------- side notes level with the text

def _sized(text, x0, x1, base, size):
    return Word(text, x0, x1, base - 0.7 * size, base + 0.2 * size, size, False, False, False, "Body", base)


def _prose_line(base, right, words=8, size=10.0, left=60.0, page_no=1):
    step = (right - left) / words
    return Line([_sized("word", left + k * step, left + (k + 1) * step - 3.0 if k < words - 1 else right, base, size)
                 for k in range(words)], page_no)


def test_a_side_note_level_with_a_line_does_not_move_the_text_blocks_edge():
    """A wide-margin class sets a side note's first line on the baseline of the line that holds its mark,
    so the text layer gives one line: the column's words, a gutter of about an em, the note's smaller
    words.  On a page crowded with notes those lines and the notes' own justified lines ended together at
    the note column's edge more often than the column's lines did at theirs, and the note column's edge
    was taken for the text block's: every note was read into the statement beside it.  The text block is
    measured from the column's words (those before such a gap) and from lines in the body's type only."""
    from build_layout import detect_layout
    lines, base = [], 60.0
    for k in range(30):
        if k % 2:    # a body line and the first line of a note beside it, one line in the text layer
            merged = _prose_line(base, 409.0).words + _prose_line(base, 540.0, words=6, size=8.0, left=421.0).words
            lines.append(Line(merged, 1))
            lines.append(_prose_line(base + 7.0, 540.0, words=6, size=8.0, left=421.0))   # the note goes on
        else:
            lines.append(_prose_line(base, 409.0 if k % 4 == 0 else 300.0 + k))
        base += 14.0
    layout = detect_layout([Page(1, None, 576.0, 900.0, lines, [], [], [])])[(1, 0)]
    assert abs(layout.right - 409.0) < 1 and layout.margin_x < 421.0


def test_a_ragged_right_column_takes_its_edge_from_where_its_long_lines_reach():
    """tufte-book sets its text ragged right: no end is shared, and the most common one was a chance of
    three short lines, 60 pt inside the column, so the column's last words were taken for a margin's.
    Where no end is shared by a quarter of the running lines, the edge is where nine in ten of them end
    at or before."""
    from build_layout import detect_layout
    ends = [300.0, 300.0, 300.0] + [360.0 + k for k in range(24)]
    lines = [_prose_line(100.0 + 14 * k, right) for k, right in enumerate(ends)]
    layout = detect_layout([Page(1, None, 576.0, 800.0, lines, [], [], [])])[(1, 0)]
    assert 378.0 <= layout.right <= 384.0


def test_a_justified_column_keeps_its_shared_edge():
    from build_layout import detect_layout
    ends = [409.0] * 20 + [250.0 + 5 * k for k in range(10)]
    lines = [_prose_line(100.0 + 14 * k, right) for k, right in enumerate(ends)]
    layout = detect_layout([Page(1, None, 576.0, 800.0, lines, [], [], [])])[(1, 0)]
    assert abs(layout.right - 409.0) < 1


def test_touching_pieces_of_a_word_the_text_layer_parted_are_one_word():
    """TeX wrote a head's number in two pieces with a side note's last line between them in the content
    stream ("Exercise 1", the note, ".11."): the glyph reader started a new word where the head went on,
    though the two pieces touch.  Touching bold pieces on one baseline at one size are one word; a word
    space, a smaller raised mark, an italic letter and a regular word before a bold stop stay apart."""
    from build_pdf import join_touching_words
    stop = _sized(".", 190.0, 192.5, 200.0, 10.0)
    stop.bold = True       # a bold stop after a title's ")" in the body face
    head = [_sized("Exercise", 60.0, 97.0, 200.0, 10.0), _sized("1", 100.0, 105.0, 200.0, 10.0),
            _sized(".11.", 105.0, 120.0, 200.0, 10.0), _sized("Find", 126.0, 146.0, 200.0, 10.0),
            _sized("7", 146.0, 149.0, 196.0, 5.0)]
    for piece in head[:3]:
        piece.bold = True
    mark = _sized("x", 149.0, 154.0, 200.0, 10.0)
    mark.italic = True
    head += [mark, _sized("(Greedy", 160.0, 175.0, 200.0, 10.0), _sized("choice)", 178.0, 190.0, 200.0, 10.0), stop]
    p = Page(1, None, 576.0, 800.0, [Line(head, 1)], [], [], [])
    join_touching_words([p])
    assert [w.text for w in p.lines[0].words] == ["Exercise", "1.11.", "Find", "7", "x", "(Greedy", "choice)", "."]


def test_a_column_filled_with_lists_keeps_the_edge_its_paragraphs_start_at():
    """A chapter of exercises set in two columns: the parts' wrapped lines, at the indent their text
    starts at (21 pt in), outnumbered the paragraphs' lines three to one, and that indent was taken for
    the column's left edge, so the footnote rule at the real edge was no footnote rule and a definition's
    note was read into the exercise above it.  The edge is the leftmost start, within a list's indent of
    the most common one, where lines of prose start often enough; a list's labels hung left of the text
    (lines that open with "(a)") move nothing."""
    from build_layout import detect_layout
    items = [_prose_line(60.0 + 12 * k, 300.0, left=79.0) for k in range(36)]
    prose = [_prose_line(500.0 + 12 * k, 300.0, left=58.0) for k in range(12)]
    layout = detect_layout([Page(1, None, 595.0, 842.0, items + prose, [], [], [])])[(1, 0)]
    assert abs(layout.left - 58.0) < 1 and abs(layout.right - 300.0) < 1
    hung = []
    for k in range(12):     # labels hung left of the edge, their lines otherwise the column's
        row = _prose_line(500.0 + 12 * k, 300.0, left=79.0)
        row.words.insert(0, _sized(f"({chr(97 + k)})", 58.0, 70.0, 500.0 + 12 * k, 10.0))
        hung.append(row)
    layout = detect_layout([Page(1, None, 595.0, 842.0, items + hung, [], [], [])])[(1, 0)]
    assert abs(layout.left - 79.0) < 1


def test_a_margin_column_of_notes_in_the_body_size_is_not_the_text_block():
    """kaobook's way (the sidenotes package in a wide outer margin): the notes are set in the body's size,
    justified to the margin's edge, and on a page full of them more lines end there than at the text
    block's edge.  The block's edge is where its own lines end, those starting at its left edge or an
    indent in; the notes' lines start far right of it (and the block's own lines, more of them, say
    where its left edge is)."""
    from build_layout import detect_layout
    # the block's lines: a third of them full (ending at 360), the rest a paragraph's or an item's last
    body = [_prose_line(60.0 + 12 * k, 360.0 if k % 3 == 0 else 250.0 + 3 * k, left=57.0) for k in range(36)]
    notes = [_prose_line(66.0 + 12 * k, 536.0, words=7, left=380.0) for k in range(20)]
    layout = detect_layout([Page(1, None, 595.0, 842.0, body + notes, [], [], [])])[(1, 0)]
    assert abs(layout.left - 57.0) < 1 and abs(layout.right - 360.0) < 1 and layout.margin_x < 380.0


# --------------------------------------------------------------------------- a note's mark beside the other column

def test_a_notes_mark_before_its_first_word_stays_on_that_line_beside_the_other_columns_maths():
    """Two columns whose notes stand at the left column's foot (elsarticle's): a note's mark is a 6 pt
    superscript glued to the front of the note's first word, raised above that line's baseline.  The
    other column's display reaches down beside it (numerators "a" over a row on a baseline within a
    point of the mark's), so the mark also lies within the reach of the note line above, as a script
    dropped a whole line under it; it is a superscript of the line it stands at the front of, and so
    that line opens a note of its own."""
    from build_glyphs import group_lines

    def w(text, x0, x1, base, size=8.0):
        return Word(text, x0, x1, base - 0.75 * size, base + 0.2 * size, size, False, False, False, "Body", base)
    above = [w("stands", 38.0, 60.0, 751.2), w("here.", 63.0, 80.0, 751.2), w("Then", 83.0, 100.0, 751.2)]
    other = [w("a", 412.0, 417.0, 752.0, 10.0), w("a", 432.0, 436.0, 752.0, 10.0),
             w("<", 400.0, 408.0, 758.8, 10.0), w("=", 440.0, 448.0, 758.8, 10.0),
             w("2", 412.0, 417.0, 765.7, 10.0), w("2", 432.0, 437.0, 765.7, 10.0)]
    mark = [Word("3", 48.7, 52.4, 753.7, 759.0, 6.0, False, False, False, "Small", 757.9)]
    below = [w("Here", 52.9, 70.0, 760.7), w("a", 73.0, 78.0, 760.7), w("note.", 81.0, 100.0, 760.7)]
    lines = group_lines(above + other + mark + below, 1)
    texts = [l.text for l in lines]
    assert "3 Here a note." in texts and not any("3" in t and "stands" in t for t in texts)
