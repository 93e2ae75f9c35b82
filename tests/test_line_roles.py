"""What a line is: each rule of build_roles on a line built by hand, and the builder acting on the roles.

Every line here is made of words with the positions, sizes and faces a PDF gives them, on a page
whose text block runs from x=72 to x=432 in 10 pt type.  The corpus books (test_corpora.py) run
the same rules over whole real books; here each rule is pinned down on the smallest line that
shows it, and so is the order they are tried in.
"""

from __future__ import annotations

from build_glyphs import Line, Page, Word
from build_heads import OutlineHeading
from build_layout import Layout, PrintedPages
from build_page import Item
from build_pdf import ChunkBuilder
from build_roles import (AppendicesDivider, BookmarkedHeading, ChapterHeading, DivisionLabel, DivisionTitle,
                         EndsStatement, EquationLabel, ExerciseItem, ExerciseListHeading, HeadingContinues,
                         HeadingWrap, NumberedHeading, Prose, RunInHead, line_context, numbered_heading, read_line)

LAYOUT = Layout(left=72, right=432, margin_x=438, body_size=10, body_font="Body", leading=12)
CHAR = 5.0     # the width of one character in these lines
SPACE = 3.0    # an ordinary word space


def words(text: str, x0: float = 72, top: float = 100, size: float = 10, bold: bool = False, italic: bool = False,
          font: str = "Body") -> list[Word]:
    """The words of text set left to right from x0 at one height, in one face."""
    out = []
    for token in text.split():
        out.append(Word(token, x0, x0 + CHAR * len(token), top, top + size, size, bold, False, italic,
                        font if not bold else "Body-Bold", top + size * 0.8))
        x0 += CHAR * len(token) + SPACE
    return out


def line(*parts: list[Word], page: int = 1) -> Line:
    return Line([w for part in parts for w in part], page)


def roles(l: Line, **state) -> tuple:
    return read_line(l, line_context(l, LAYOUT, **state))


def at_right_edge(text: str, top: float = 100) -> list[Word]:
    """A word set flush with the column's right edge (an equation number)."""
    return words(text, x0=LAYOUT.right - CHAR * len(text), top=top)


# --------------------------------------------------------------------------- headings

def test_a_bookmarked_line_is_a_heading_whatever_it_reads():
    """The outline's evidence comes first: a bookmark's line that reads like a theorem's head is a heading."""
    l = line(words("Theorem 2.1 A Section Named Like A Head", bold=True))
    heading = OutlineHeading(2, "2.1", "A Section Named Like A Head", 1, l.baseline)
    assert roles(l, headings=(heading,)) == (BookmarkedHeading(heading),)
    # A bookmark pointing at another height does not make this line a heading.
    elsewhere = OutlineHeading(2, "2.1", "A Section", 1, l.baseline + 40)
    assert isinstance(roles(l, headings=(elsewhere,))[-1], RunInHead)


def test_part_and_chapter_labels_in_display_type():
    big = 20
    assert roles(line(words("Chapter 5 Inventory Control", size=big))) == (DivisionLabel(1, "5", "Inventory Control"),)
    assert roles(line(words("Part II", size=big))) == (DivisionLabel(0, "II", ""),)
    assert roles(line(words("Appendix B", size=big))) == (DivisionLabel(1, "B", ""),)
    assert roles(line(words("Appendices", size=big))) == (AppendicesDivider(),)
    # The same words in the body's size are running text ("Chapter 5 shows …").
    assert roles(line(words("Chapter 5 shows how the policy is found"))) == (Prose(),)


def test_display_type_after_a_label_is_its_title():
    title = line(words("Markov Decision Processes", size=20))
    assert roles(title, pending_label=True) == (DivisionTitle("Markov Decision Processes"),)
    assert roles(title, pending_label=False) == (Prose(),)


def test_numbered_heading_inside_its_chapter():
    heading = line(words("3.2 Value Iteration", bold=True))
    assert roles(heading, chapter="3") == (NumberedHeading(2, "3.2", "Value Iteration"),)
    assert roles(line(words("3.2.1 Convergence", size=12)), chapter="3") == (NumberedHeading(3, "3.2.1", "Convergence"),)
    # Numbered outside the open chapter (a reference list, a table's row): not a heading.
    assert roles(heading, chapter="4") == (Prose(),)
    # In the body face and size: a line of text that starts with a number.
    assert roles(line(words("3.2 percent of the orders arrive late")), chapter="3") == (Prose(),)
    # Each rule is a function of the line and its context, callable alone.
    assert numbered_heading(heading, line_context(heading, LAYOUT, chapter="3")) == NumberedHeading(2, "3.2", "Value Iteration")


def test_a_centred_bold_heading_numbered_as_the_next_section():
    """amsbook's "6. Field extensions": one number and a dot, bold, centred in the text block, the open
    section's number plus one; stored with its chapter's number."""
    width = CHAR * len("6.Fieldextensions") + 2 * SPACE
    centred = line(words("6. Field extensions", x0=(LAYOUT.left + LAYOUT.right - width) / 2, bold=True))
    assert roles(centred, chapter="1", section="1.5") == (NumberedHeading(2, "1.6", "Field extensions"),)
    # Out of sequence (a centred display's label, a list), or at the column's edge: not a heading.
    assert roles(centred, chapter="1", section="1.3") == (Prose(),)
    assert roles(line(words("6. Field extensions", bold=True)), chapter="1", section="1.5") == (Prose(),)


def test_a_head_named_by_a_phrase_continues_the_numbering():
    """ "Abuse of Notation 1.2.6." in the head's bold is a head where 1.2.6 follows the statement opened
    last and no entity has it; "Proof of Theorem 2.1." names a number already met."""
    abuse = line(words("Abuse of Notation 1.2.6.", bold=True), words("In the above, we use one symbol", x0=200))
    (role,) = roles(abuse, last_statement="1.2.5")
    assert isinstance(role, RunInHead) and (role.head.kind, role.head.number, role.head.head_words) == \
        ("abuse", "1.2.6", 4)
    assert roles(abuse, last_statement="1.2.3") == (Prose(),)
    proof = line(words("Proof of Theorem 2.1.", bold=True), words("By the lemma above, we have", x0=200))
    assert roles(proof, last_statement="2.1", taken={("theorem", "2.1")}) == (Prose(),)
    assert roles(proof, last_statement="2.0", taken={("theorem", "2.1")}) == (Prose(),)


def test_chapter_heading_numbered_without_a_dot():
    """ "2 Markov chains", bold and large, opens chapter 2 in a PDF without bookmarks."""
    heading = line(words("2 Markov chains", size=14, bold=True))
    assert roles(heading) == (ChapterHeading("2", "Markov chains"),)
    assert roles(heading, chapter="2") != (ChapterHeading("2", "Markov chains"),)
    assert roles(heading, has_outline=True) == (Prose(),)


def test_chapter_heading_in_the_body_size_opens_its_page_as_the_next_chapter():
    """troff's ms sets `.NH 1` bold in the body's size: "2 Reorder points" is a chapter's head when it
    opens its page and is numbered as the next chapter; mid-page, with a dot, or out of turn, it is not."""
    heading = line(words("2 Reorder points", bold=True))
    assert roles(heading, chapter="1", opens_page=True) == (ChapterHeading("2", "Reorder points"),)
    assert roles(line(words("1 Stock", bold=True)), opens_page=True) == (ChapterHeading("1", "Stock"),)
    assert not isinstance(roles(heading, chapter="1")[-1], ChapterHeading)
    assert not isinstance(roles(heading, chapter="2", opens_page=True)[-1], ChapterHeading)
    assert not isinstance(roles(heading, opens_page=True)[-1], ChapterHeading)
    assert not isinstance(roles(line(words("2. Exercises", bold=True)), chapter="1", opens_page=True)[-1],
                          ChapterHeading)
    assert roles(heading, chapter="1", opens_page=True, has_outline=True) == (Prose(),)


def test_a_heading_title_wraps_onto_the_next_aligned_bold_line():
    first = line(words("3.2 A Heading Whose Title Is Long", bold=True, top=100))
    wrap = HeadingWrap(section=None, level_name="section", size=first.size, title_x=first.words[1].x0, page=1,
                       bottom=first.bottom)
    second = line(words("Enough To Wrap", x0=first.words[1].x0, bold=True, top=112))
    assert roles(second, wrap=wrap) == (HeadingContinues("Enough To Wrap"),)
    assert roles(line(words("Enough To Wrap", x0=72, bold=True, top=112)), wrap=wrap) == (Prose(),)   # not aligned
    assert roles(line(words("Enough To Wrap", x0=first.words[1].x0, bold=True, top=140)), wrap=wrap) == (Prose(),)


# --------------------------------------------------------------------------- statements and exercises

def test_run_in_head_with_its_title():
    l = line(words("Theorem 2.9 Division Algorithm.", bold=True), words("Let a and b be integers.", x0=250))
    (role,) = roles(l)
    assert isinstance(role, RunInHead) and role.box is None
    assert (role.head.kind, role.head.number, role.head.title, role.head.head_words) == ("theorem", "2.9",
                                                                                         "Division Algorithm", 4)


def test_run_in_head_takes_its_frame():
    l = line(words("Example 1.24: Basic and Free Variables", bold=True, top=100))
    frame = (60.0, 90.0, 440.0, 200.0)
    (role,) = roles(l, boxes=(frame,))
    assert isinstance(role, RunInHead) and role.box == frame
    # a title in a small box astride the frame's top edge (tcolorbox's "attach boxed title")
    astride = (60.0, 109.0, 440.0, 200.0)      # its edge through the line, a point above its foot
    (role,) = roles(l, boxes=(astride,))
    assert isinstance(role, RunInHead) and role.box == astride


def test_italic_head_opens_a_statement_only_where_a_paragraph_can_begin():
    head = line(words("Example 5.2.", italic=True, font="Body-Italic", top=112), words("We order ten units.", x0=140, top=112))
    finished = line(words("The policy is optimal.", top=100))
    unfinished = line(words("as we show in the", top=100))
    assert isinstance(roles(head, previous_line=finished)[-1], RunInHead)
    assert roles(head, previous_line=unfinished) == (Prose(),)


def test_a_float_caption_is_not_a_run_in_head():
    assert roles(line(words("Figure 3.2: The inventory over time", bold=True))) == (Prose(),)


def test_exercise_list_items_follow_their_sequence():
    item = line(words("3."), words("Show that the policy converges.", x0=90))
    (role,) = roles(item, exercise_next=3)
    assert role == ExerciseItem(3, tuple(item.words[1:]))
    assert roles(item, exercise_next=4) == (Prose(),)       # out of sequence: a numbered line of text
    assert roles(item) == (Prose(),)                        # no exercise list is open


def test_a_problem_numbered_in_its_chapter_is_the_lists_next_item_not_a_section():
    item = line(words("5.3", bold=True), words("Show that the policy converges.", x0=90, bold=True))
    (role,) = roles(item, chapter="5", exercise_next=3)
    assert role == ExerciseItem(3, tuple(item.words[1:]), "5.3")
    # a list numbered "1.", "2." ends at a section numbered in the chapter: "5.3" is its heading
    (heading,) = roles(item, chapter="5", exercise_next=3, exercise_in_chapter=False)
    assert type(heading).__name__ == "NumberedHeading"


def test_exercises_heading_is_a_mark_the_line_is_still_read():
    """ "Exercises" opens a list and stays a line; "5.6 Exercises" also opens section 5.6."""
    assert roles(line(words("Exercises", bold=True))) == (ExerciseListHeading(), Prose())
    assert roles(line(words("5.6 Exercises", bold=True)), chapter="5") == (ExerciseListHeading(),
                                                                           NumberedHeading(2, "5.6", "Exercises"))


def test_proof_ends_a_statement_but_not_an_exercise():
    proof = line(words("Proof.", bold=True), words("By induction on n.", x0=110))
    assert roles(proof, block_kind="theorem") == (EndsStatement(), Prose())
    assert roles(proof, block_kind="exercise") == (Prose(),)
    assert roles(proof) == (Prose(),)


def test_a_bold_head_with_no_stop_set_off_by_a_fixed_space_ends_a_statement():
    """ "**Solution**  Of the thirty-six pairs …": a trivlist's label in bold with no stop, parted from its text by
    the list's \\labelsep, wider than the line's word spaces (TeX stretches those alike on a justified line, and
    a sentence's end takes more).  The same word at an ordinary word space is a term in bold opening a
    sentence, as is one whose line gives too few word spaces to compare, and a description list's item,
    whose next lines hang under its text."""
    label = words("Solution", bold=True)
    rest = "Of the thirty-six pairs of marbles, fifteen have numbers more than three apart"
    solution = line(label, words(rest, x0=label[-1].x1 + 2 * SPACE))
    assert roles(solution, block_kind="example") == (EndsStatement(), Prose())
    term = line(label, words(rest, x0=label[-1].x1 + SPACE))
    assert roles(term, block_kind="example") == (Prose(),)
    short = line(label, words("Of the pairs", x0=label[-1].x1 + 2 * SPACE))
    assert roles(short, block_kind="example") == (Prose(),)
    # the solution's next line runs back to the column's edge; a description list's item hangs its lines
    back = line(words("so the chance is fifteen in thirty-six.", top=112))
    assert roles(solution, block_kind="example", next_line=back) == (EndsStatement(), Prose())
    hanging = line(words("so the chance is fifteen in thirty-six.", x0=97, top=112))
    assert roles(solution, block_kind="example", next_line=hanging) == (Prose(),)


# --------------------------------------------------------------------------- equation labels

def test_equation_number_at_the_right_edge():
    display = line(words("x = y + z", x0=200), at_right_edge("(5.3)"))
    assert roles(display) == (EquationLabel("5.3"), Prose())


def flush_right(text: str, top: float = 100) -> list[Word]:
    """Words at ordinary spacing whose last one ends at the column's right edge."""
    width = sum(CHAR * len(t) for t in text.split()) + SPACE * (len(text.split()) - 1)
    return words(text, x0=LAYOUT.right - width, top=top)


def justified(text: str) -> Line:
    """A line of running text set from the column's left edge to its right edge."""
    tokens = text.split()
    space = (LAYOUT.right - LAYOUT.left - sum(CHAR * len(t) for t in tokens)) / (len(tokens) - 1)
    assert 2 < space < 7, "not an ordinary word space: choose another text"
    out, x0 = [], LAYOUT.left
    for t in tokens:
        out.append(words(t, x0=x0)[0])
        x0 += CHAR * len(t) + space
    return Line(out, 1)


def test_a_reference_ending_a_line_of_prose_is_not_a_label():
    """ "… from equation (5.3)" at the edge: a reference after its lead word at a word space."""
    assert roles(line(flush_right("the cost follows from equation (5.3)"))) == (Prose(),)
    assert roles(justified("the holding cost of each unit in stock over the whole horizon follows (5.3)")) == (Prose(),)
    assert roles(line(words("the cost follows", x0=150), at_right_edge("(5.3)"))) == (EquationLabel("5.3"), Prose())


def test_equation_number_on_the_left():
    display = line(words("(2.1)"), words("f ( x ) = 0", x0=150))
    assert roles(display) == (EquationLabel("2.1"), Prose())


def test_second_look_accepts_a_missed_number_short_of_the_edge():
    """A number the sequence misses, a little short of the edge, is read only where the gap says it stands."""
    display = line(words("x = y", x0=200), words("(5.4)", x0=LAYOUT.right - 17 - CHAR * 5))
    assert roles(display) == (Prose(),)
    assert roles(display, wanted={("formula", "5.4"): {1}}) == (EquationLabel("5.4"), Prose())
    assert roles(display, wanted={("formula", "5.4"): {9}}) == (Prose(),)


# --------------------------------------------------------------------------- the builder acting on roles

def test_builder_acts_on_each_role():
    """A chapter's label and title, a section, a theorem with its proof, a display with its number:
    the sections, the entity chunks and the text chunks they make."""
    rows = [
        line(words("Chapter 4", size=20, top=80)),
        line(words("Inventory Control", size=20, top=110)),
        line(words("4.1 Reorder Points", bold=True, top=150)),
        line(words("Orders arrive after a lead time of several days.", top=170)),
        line(words("Theorem 4.1.", bold=True, top=190), words("A base-stock policy is optimal.", x0=140, top=190)),
        line(words("Proof.", bold=True, top=210), words("By induction on the horizon.", x0=110, top=210)),
        line(words("s = d + k", x0=200, top=230), at_right_edge("(4.1)", top=230)),
    ]
    page = Page(1, None, 500, 700, rows, [], [], [])
    builder = ChunkBuilder(LAYOUT, PrintedPages({1: "17"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
    builder.page = page
    items = [Item(l.top, "line", line=l) for l in rows]
    builder.feed_page(page, items)
    builder.finish()
    sections = [(s.level, s.number, s.title, s.parent_id, s.page_start) for s in builder.cursor.sections]
    assert sections == [(1, "4", "Inventory Control", None, 17), (2, "4.1", "Reorder Points", "chapter_4", 17)]
    chunks = {(c.kind, c.number): c for c in builder.out.chunks}
    theorem = chunks[("theorem", "4.1")]
    assert theorem.content == "A base-stock policy is optimal." and theorem.section == "4.1"
    assert chunks[("formula", "4.1")].extra["text"] == "s = d + k"
    text = [c.content for c in builder.out.chunks if c.kind == "text"]
    assert any("Proof. By induction on the horizon." in t for t in text)


def test_a_statement_keeps_its_list_on_a_stretched_page():
    """On a page TeX stretched, a statement's list items stand as far apart as paragraphs: the line after
    its lead-in's colon and the next label in the list's sequence go on with it; the indented paragraph
    after the last item, a wide space above it, does not (and "(… stuck.)" ends a sentence)."""
    rows = [
        line(words("Definition 2.1.", bold=True, top=100), words("A map T is linear when:", x0=160, top=100)),
        line(words("(i) it keeps sums of vectors.", x0=82, top=146)),
        line(words("(ii) it keeps scalar multiples (both hold in each case.)", x0=82, top=192)),
        line(words("The maps we meet below are all linear ones.", x0=82, top=238)),
    ]
    page = Page(1, None, 500, 700, rows, [], [], [])
    builder = ChunkBuilder(LAYOUT, PrintedPages({1: "3"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
    builder.page = page
    builder.feed_page(page, [Item(l.top, "line", line=l) for l in rows])
    builder.finish()
    content = {(c.kind, c.number): c.content for c in builder.out.chunks}[("definition", "2.1")]
    assert "(ii) it keeps scalar multiples" in content and "The maps we meet" not in content


def test_a_flush_paragraph_after_the_heads_own_space_ends_the_statement():
    """Paragraphs set flush (\\noindent): the step to a line at the column's edge equal to the step above
    the head on its page, after a sentence ending short of the edge, is the space after the environment;
    a paragraph's smaller skip inside the statement is not."""
    def read(step: float) -> str:
        rows = [
            line(words("Some words of the running text before the example.", top=100)),
            line(words("Example 7.2.", bold=True, top=117), words("The field C is a plane over the reals with", x0=150, top=117)),
            line(words("basis 1, i. Thus it has degree two.", top=129)),
            line(words("Let us now consider the degree in the next examples.", top=129 + step)),
        ]
        page = Page(1, None, 500, 700, rows, [], [], [])
        builder = ChunkBuilder(LAYOUT, PrintedPages({1: "5"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
        builder.page = page
        builder.feed_page(page, [Item(l.top, "line", line=l) for l in rows])
        builder.finish()
        return {(c.kind, c.number): c.content for c in builder.out.chunks}[("example", "7.2")]
    assert "Let us now" not in read(17)
    assert "Let us now" in read(16)


def test_a_note_mark_after_the_last_full_stop_at_a_pages_foot_ends_the_statement():
    """A definition whose last line closes the page, "… the sequence is monotone.⁴", its note's mark a
    small raised figure set apart after the full stop: the indented paragraph that opens the next page is
    the text's, as after "… is monotone." (the mark is the note's, not the sentence's); a line that runs
    on mid-sentence at the next page's top is the statement's."""
    def read(last: str, mark: bool | str) -> str:
        tail = words(last, top=640)
        if mark:
            sign = "4" if mark is True else mark
            tail.append(Word(sign, tail[-1].x1 + 0.5, tail[-1].x1 + 4, 636, 642, 7, False, False, False, "Body", 640))
        first = [
            line(words("Some words of the running text before the definition.", top=604)),
            line(words("Definition 1.9.", bold=True, top=622), words("A sequence is monotone when it only", x0=160, top=622)),
            line(tail),
        ]
        second = [line(words("For example, the sequence of the natural numbers is monotone.", x0=87, top=100), page=2),
                  line(words("and the sequence of their squares is another one.", top=112), page=2)]
        builder = ChunkBuilder(LAYOUT, PrintedPages({1: "2", 2: "3"}, "page labels"),
                               lambda text: len(text.split()) + 2, "t.pdf")
        for number, rows in ((1, first), (2, second)):
            page = Page(number, None, 500, 700, rows, [], [], [])
            builder.page = page
            builder.feed_page(page, [Item(l.top, "line", line=l) for l in rows])
        builder.finish()
        return {(c.kind, c.number): c.content for c in builder.out.chunks}[("definition", "1.9")]
    assert "For example" not in read("rises or only falls: the sequence is monotone.", mark=True)
    assert "For example" not in read("rises or only falls: the sequence is monotone.", mark=False)
    for sign in ("∗", "†", "‡‡", "*"):     # a note's mark of \\fnsymbol's symbols, or an asterisk
        assert "For example" not in read("rises or only falls: the sequence is monotone.", mark=sign), sign
    assert "For example" in read("rises or only falls, as the sequence of their", mark=False)


def _statement(rows: list[Line], kind: str, number: str) -> str:
    page = Page(1, None, 500, 700, rows, [], [], [])
    builder = ChunkBuilder(LAYOUT, PrintedPages({1: "8"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
    builder.page = page
    builder.feed_page(page, [Item(l.top, "line", line=l) for l in rows])
    builder.finish()
    return {(c.kind, c.number): c.content for c in builder.out.chunks}[(kind, number)]


def test_parskip_statement_keeps_a_list_under_its_lead_in_and_its_bold_led_paragraphs():
    """\\parskip sets every paragraph, item and environment a skip apart: a list's first item right under
    the statement's text (its lead-in ending on a full stop) goes on with it, and so do paragraphs led by
    a phrase in bold as one it holds already is; a paragraph of plain text after them does not."""
    content = _statement([
        line(words("Definition 1.7.", bold=True, top=100), words("For two random variables X and Y with a density.", x0=160, top=100)),
        line(words("1. The marginal density function for X is its integral.", x0=84, top=118)),
        line(words("2. The conditional density of Y given X is a quotient.", x0=84, top=136)),
        line(words("This definition is used throughout the chapter below.", top=154)),
    ], "definition", "1.7")
    assert "2. The conditional" in content and "This definition" not in content
    content = _statement([
        line(words("Example 3.1.", bold=True, top=100), words("A company wants to count its bots by sampling.", x0=160, top=100)),
        line(words("Likelihood function", bold=True, top=118), words("is the binomial one for the sample.", x0=180, top=118)),
        line(words("Prior distribution", bold=True, top=136), words("is uniform on the unit interval here.", x0=180, top=136)),
        line(words("Plain words of the running text follow the example now.", top=154)),
    ], "example", "3.1")
    assert "Prior distribution" in content and "Plain words" not in content


def test_a_bold_phrase_whose_stop_is_a_formulas_is_no_unnumbered_head():
    """"Prior distribution π(θ). We …": the stop after the phrase in bold belongs to maths, no head's."""
    maths = [Word("π(θ).", 170, 195, 100, 110, 10, False, False, True, "CMMI10", 108)]
    l = line(words("Prior distribution", bold=True), maths, words("We now need a prior.", x0=200))
    assert roles(l, block_kind="example") == (Prose(),)


def test_a_heading_whose_number_hangs_in_the_margin():
    """"2.2.2 Geometric Distribution" in italic a little larger than the body, its number hung left of the
    column's edge (titlesec's \\llap): a subsection of the open chapter; the same words at the edge in the
    body's upright face are a numbered paragraph of text."""
    hung = line(words("2.2.2", x0=44, size=10.9, italic=True), words("Geometric Distribution", x0=82.9, size=10.9, italic=True))
    assert roles(hung, chapter="2") == (NumberedHeading(3, "2.2.2", "Geometric Distribution"),)
    assert roles(hung, chapter="3") == (Prose(),)
    flush = line(words("2.2.2", x0=72), words("Geometric distributions count failures.", x0=100))
    assert roles(flush, chapter="2") == (Prose(),)


def test_an_italic_subsection_heading_numbered_as_the_next_in_its_section():
    """"2.2.1 Kolmogorov Differential Equations" in the body's size, number and title in italic (tufte-book's
    \\subsection): a subsection where its number is the next in the open section; out of sequence, upright,
    or a sentence with its stop, it is text."""
    heading = line(words("2.2.1 Kolmogorov Differential Equations", italic=True, font="Body-Italic"))
    assert roles(heading, chapter="2", section="2.2") == (NumberedHeading(3, "2.2.1", "Kolmogorov Differential Equations"),)
    assert roles(heading, chapter="2", section="2.2", subsection="2.2.1") == (Prose(),)
    second = line(words("2.2.2 Forward Equations", italic=True, font="Body-Italic"))
    assert roles(second, chapter="2", section="2.2", subsection="2.2.1") == (NumberedHeading(3, "2.2.2", "Forward Equations"),)
    assert roles(line(words("2.2.1 Kolmogorov Differential Equations")), chapter="2", section="2.2") == (Prose(),)
    sentence = line(words("2.2.1 Kolmogorov equations hold here.", italic=True, font="Body-Italic"))
    assert roles(sentence, chapter="2", section="2.2") == (Prose(),)


def _maths(text: str, x0: float, top: float) -> list[Word]:
    """Words of a formula in a maths font, set left to right from x0."""
    return words(text, x0=x0, top=top, font="CMMI10")


def test_a_wide_aligned_display_under_a_lead_in_stays_with_its_statement():
    """An aligned display as wide as the column starts less than a centred formula's indent in; under a
    lead-in that TeX broke short with its sentence open ("… we can write") it is the statement's display,
    however wide the space above it; a paragraph of text after the display's closing stop is not."""
    content = _statement([
        line(words("Theorem 1.", bold=True, top=100), words("Let the events A and B form a partition of the space.", x0=140, top=100)),
        line(words("Then for any event C we can write", top=112)),
        line(_maths("P(C) = P(A*C) + P(B*C)", x0=90, top=137)),
        line(_maths("= P(A)P(C|A) + P(B)P(C|B).", x0=120, top=151)),
        line(words("Some running words of the text after the theorem here.", x0=87, top=185)),
    ], "theorem", "1")
    assert "P(C|B)" in content and "Some running words" not in content


def test_display_rows_at_the_column_edge_under_a_lead_in_and_the_text_after_them():
    """An aligned display of two pairs of formulas fills the column and starts at its very edge
    ("m₁ = inf {…} = 1,   M₁ = sup {…} = 1,"); under a line TeX broke short with its sentence open ("… Then")
    it is the statement's display, its operator names no words of prose, and the space after its last row
    is the display's: the statement goes on at the edge after it, and ends at the indented paragraph after
    its closing sentence."""
    def row(top: float, name: str) -> list[Word]:
        return _maths("m1 =", x0=72, top=top) + words(name, x0=96, top=top) + \
            _maths("{f(x)} = 1, M1 = sup {f(x)} = 1,", x0=120, top=top)
    content = _statement([
        line(words("Example 1.", bold=True, top=100), words("Let the step function be given by its values.", x0=130, top=100)),
        line(words("We use the notation of the sums. Then", top=112)),
        line(row(132, "inf")),
        line(row(146, "inf")),
        line(words("Furthermore, the widths of the pieces are equal.", top=166)),
        line(words("Some running words of the text after the example here.", x0=87, top=190)),
    ], "example", "1")
    assert "Furthermore" in content and "M1" in content and "Some running words" not in content, content

def test_a_fraction_denominator_hung_under_a_closing_line_is_no_display_after_the_statement():
    """In two columns an inline fraction's denominator can be read apart from its line ("… bounded below as
    1 > 0 for all n." and "√n" under it, first taken into the other column's line at that height): a piece
    centred-ish under a line that closes a sentence looked like a formula displayed after the statement's
    last sentence, and the example ended there.  It reaches up into the line above, which no display does
    (TeX sets one below that line's depth): the example goes on."""
    content = _statement([
        line(words("Example 1.", bold=True, top=100), words("Take the sequence of the inverse roots of n here.", x0=135, top=100)),
        line(words("The sequence is bounded below as 1 > 0 for all numbers n.", x0=87, top=112)),
        line(_maths("√n", x0=240, top=116)),
        line(words("Let us show that it is monotone decreasing from the start.", top=125)),
        line(words("Some running words of the text after the example here.", x0=87, top=149)),
    ], "example", "1")
    assert "monotone decreasing" in content and "Some running words" not in content, content


def _statement_on(page: Page, kind: str, number: str) -> str:
    """The content of one statement, the page's items read by page_items as the builder reads them."""
    from build_page import page_items
    builder = ChunkBuilder(LAYOUT, PrintedPages({1: "8"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
    builder.page = page
    builder.feed_page(page, page_items(page, LAYOUT))
    builder.finish()
    return {(c.kind, c.number): c.content for c in builder.out.chunks}[(kind, number)]


def test_a_drawing_in_the_margin_beside_a_line_is_no_end_mark_of_it():
    """amsthm's \\qed drawn as a small square ends the line's statement; a small square drawn in the margin
    column at the line's height (a margin figure's dot or tick) is no mark of the line's."""
    rows = [
        line(words("Example 2.1.", bold=True, top=100), words("Two particles of masses one and three stand on a line.", x0=150, top=100)),
        line(words("Their center of mass is at three quarters of the way.", top=112)),
        line(words("This is the mean of the random variable we chose here.", top=124)),
    ]
    in_margin = Page(1, None, 600, 700, rows, [], [], [(470, 114, 476, 120)])
    assert "This is the mean" in _statement_on(in_margin, "example", "2.1")
    at_its_end = Page(1, None, 600, 700, rows, [], [], [(424, 114, 430, 120)])
    assert "This is the mean" not in _statement_on(at_its_end, "example", "2.1")


def test_a_figure_drawn_in_the_margin_beside_a_statement_does_not_end_it():
    """A margin figure (its drawing and caption in the margin column, as the user's class sets one beside
    the text) stands apart from the statement's lines as a side note does: the statement goes on past
    it; a figure whose drawing stands in the main column (only its caption in the margin) ends it."""
    caption = line(words("Figure 1.1.", x0=440, top=118, size=8, bold=True), words("The center of mass.", x0=490, top=118, size=8))
    rows = [
        line(words("Example 1.3.", bold=True, top=100), words("Two particles of masses one and three stand on a line.", x0=150, top=100)),
        line(words("Their center of mass is at three quarters of the way.", top=112)),
        line(words("From mechanics we know the center is their weighted mean.", top=124)),
        caption,
    ]
    margin_figure = Page(1, None, 600, 700, rows, [], [], [(445, 90, 560, 114)])
    assert "From mechanics" in _statement_on(margin_figure, "example", "1.3")
    main_figure = Page(1, None, 600, 700, rows, [], [], [(100, 90, 400, 114)])
    assert "From mechanics" not in _statement_on(main_figure, "example", "1.3")


def test_a_sentence_going_on_after_a_list_of_formulas_stays_with_its_statement():
    """"The first iterates are" / "1. …," / "2. …," / "3. U₃ ≈ (0.11, 1.66)," / "and they approach …": the
    last item ends on a comma after maths, so no word of prose closes a clause there, and the line under
    it, as far below as the items are apart, opens in lower case: the same sentence, the statement's.  A
    line opening with a capital after such an item is the text's."""
    def rows(after: str):
        return [
            line(words("Example 1.24.", bold=True, top=100), words("Start from zero. The first iterates are", x0=160, top=100)),
            line(words("1.", top=122), _maths("U1 = (0, 1),", x0=90, top=122)),
            line(words("2.", top=144), _maths("U2 = (0.05, 1.45),", x0=90, top=144)),
            line(words("3.", top=166), _maths("U3 = (0.11, 1.66),", x0=90, top=166)),
            line(words(after, top=188)),
        ]
    assert "they approach" in _statement(rows("and they approach the values found before."), "example", "1.24")
    assert "They approach" not in _statement(rows("They approach the values found before."), "example", "1.24")


def test_a_side_note_pushed_below_its_statement_goes_with_the_statement_that_prints_its_mark():
    """Where side notes crowd, marginfix (kaobook) sets a note lower than its mark, beside the next
    statement: "4 The sum is finite." stands beside Lemma 1.5 but Definition 1.4 prints the mark 4.  The
    note is linked to the statement that prints its mark; one beside its own statement stays there."""
    mark = Word("4", 250, 253, 101, 105, 5, False, False, False, "Body", 104.0)
    rows = [
        line(words("Definition 1.4.", bold=True, top=100), words("The expected utility is the sum.", x0=160, top=100), [mark]),
        line(words("Lemma 1.5.", bold=True, top=130), words("An affine map keeps the order of utilities.", x0=140, top=130)),
    ]
    page = Page(1, None, 500, 700, rows, [], [], [])
    builder = ChunkBuilder(LAYOUT, PrintedPages({1: "8"}, "page labels"), lambda text: len(text.split()) + 2, "t.pdf")
    builder.page = page
    items = [Item(rows[0].top, "line", line=rows[0]), Item(rows[1].top, "line", line=rows[1]),
             Item(rows[1].top, "note", text="4 The sum is finite.")]
    builder.feed_page(page, items)
    builder.finish()
    notes = [c for c in builder.out.chunks if c.content.startswith("[Side note] 4")]
    assert len(notes) == 1 and notes[0].extra["note_of"] == "definition_1_4"


def test_an_examples_own_end_mark_at_the_edge_ends_it_under_parskip():
    """An example whose environment ends with its own mark (amsthm's \\qed with \\qedsymbol made ⋄ or ◊):
    under parskip the paragraph after it is set the same skip below as its own items, so nothing but the
    mark tells where it ends.  The mark stands flush at the column's right edge, alone on its line after
    a list, or an em and more after the last word; a "⋄" a math space after its word is an operator."""
    from build_pdf import set_end_mark

    def read(last: list[Word], after: float) -> str:
        rows = [
            line(words("Example 2.5.", bold=True, top=100), words("Consider the group of four elements below.", x0=150, top=100)),
            line(words("•", x0=80, top=118), words("The element one has order four in the group.", x0=90, top=118)),
            line(words("•", x0=80, top=136), words("The element two has order two in the group.", x0=90, top=136)),
            line(last),
            line(words("We note a few things about the order of elements in a group.", top=154 + after)),
        ]
        return _statement(rows, "example", "2.5")
    # the skip after the example is the skip between its items: without a mark the text after it is taken
    assert "We note" in read(words("•", x0=80, top=154) + words("The element three has order four.", x0=90, top=154), 16)
    assert "We note" not in read(words("•", x0=80, top=154) + words("The element three has order four.", x0=90, top=154)
                                 + at_right_edge("◊", top=154), 16)
    assert "We note" not in read(at_right_edge("⋄", top=154), 16)
    operator = words("Thus the operation written a", top=154)
    operator.append(Word("⋄", operator[-1].x1 + 2.0, operator[-1].x1 + 7.0, 154, 164, 10, False, False, False, "Body", 162))
    assert not set_end_mark(line(operator), LAYOUT)
    assert not set_end_mark(line(words("Thus the element three has order four. ⋄", top=154)), LAYOUT)
    assert set_end_mark(line(words("Thus the element three has order four.", top=154), at_right_edge("⋄", top=154)), LAYOUT)


def test_an_items_short_next_line_is_no_display_and_the_skip_after_it_ends_the_statement():
    """A list item's next line under a full one, at the indent the item's text starts at, short and of
    few words ("n than 4 exists. Thus |3| = 4 in G."): in from the edge and with three words of prose it
    passed for a display, and a statement's last line set apart lets no skip after it end the statement,
    so the paragraph after the example, a wide skip below, was read into it."""
    full = LAYOUT.right
    def read(step: float) -> str:
        first = words("•", x0=84, top=124) + words("The element three has order four since the sum of", x0=100, top=124)
        first[-1].x1 = full     # the item's first line runs to the column's edge
        rows = [
            line(words("Example 2.6.", bold=True, top=100), words("Consider the group of four elements below.", x0=150, top=100)),
            line(first),
            line(words("n", x0=100, top=136, italic=True), words("than four exists. Thus it is four.", x0=110, top=136)),
            line(words("We note a few things about the order of elements in a group.", top=136 + step)),
        ]
        return _statement(rows, "example", "2.6")
    assert "We note" not in read(18)
    assert "We note" in read(13)


def test_an_inline_formula_broken_after_an_operator_goes_on_as_text_and_the_skip_after_it_ends():
    """An item's formula broken after its "+" ("… since x +" / "(−x) = (−x) + x = 0."): the second line,
    all maths at the item's indent, passed for a display, so the paragraph after the example, a wide skip
    below, was read into it.  TeX breaks an inline formula only after an operator or a relation; a line
    that finishes one is the text's line going on, not a display."""
    def read(step: float) -> str:
        first = words("4.", x0=84, top=124) + words("Inverse: the inverse of x is its negative, since x", x0=100, top=124)
        first.append(Word("+", LAYOUT.right - 7.0, LAYOUT.right, 124, 134, 10, False, False, False, "CMSY10", 132))
        rows = [
            line(words("Example 2.7.", bold=True, top=100), words("The integers form a group under addition.", x0=150, top=100)),
            line(first),
            line(words("(−x) = (−x) + x = 0.", x0=100, top=136, font="CMMI10")),
            line(words("An important thing to note about addition is that it is commutative.", top=136 + step)),
        ]
        return _statement(rows, "example", "2.7")
    assert "An important" not in read(18)
    assert "An important" in read(13)


def test_short_lines_broken_inside_an_item_at_its_text_indent_are_the_items_text():
    """A problem's part whose lines are broken by hand (\\\\), an argument set line by line: "He argued:" /
    "If Euathlus loses this case, then he must pay." / "He must either win or lose this case." Each short
    line starts at the item's text indent, far enough in and short enough to pass for a display, and a
    display after a sentence is the text's, so the problem ended in the middle of its last part.  A line
    of prose at the text indent of the item the statement is in is that item's line."""
    long_line = words("If Euathlus wins this case, then he must pay by the terms of the contract.", x0=100, top=152)
    long_line[-1].x1 = LAYOUT.right - 20.0     # short of the edge by less than a display's 4 em
    rows = [
        line(words("Problem 4.31.", bold=True, top=100), words("Explain why each of the following is a paradox.", x0=170, top=100)),
        line(words("(a)", x0=80, top=116), words("Euathlus and Protagoras. Protagoras sued for his fee. He argued:", x0=100, top=116)),
        line(words("If Euathlus loses this case, then he must pay.", x0=100, top=140)),
        line(long_line),
        line(words("He must either win or lose this case.", x0=100, top=164)),
        line(words("Therefore Euathlus must pay me.", x0=100, top=176)),
    ]
    content = _statement(rows, "problem", "4.31")
    assert "He must either win" in content and "Therefore Euathlus must pay me." in content, content


def test_a_head_in_small_capitals_with_its_point_after_its_title():
    """thmtools and amsthm set a head's point after its title, "Theorem 1.10 (Monotone limits).", the
    number in the text's face with no point of its own: the name in small capitals (or italic, a
    remark's) and the closing bracket's point tell the head.  With no title the number's own point is
    asked for, and the same words in the text's face are prose."""
    name = words("Theorem", font="Body-SC")
    number = words("1.10", x0=name[-1].x1 + SPACE)
    title = words("(Monotone limits). A monotone sequence is bounded", x0=number[-1].x1 + SPACE)
    head = roles(line(name, number, title))[-1]
    assert isinstance(head, RunInHead) and head.head.number == "1.10" and head.head.title == "Monotone limits", head
    remark = words("Remark", italic=True, font="Body-Italic")
    number = words("2.3", x0=remark[-1].x1 + SPACE)
    titled = words("(On limits). The limit is unique", x0=number[-1].x1 + SPACE)
    assert isinstance(roles(line(remark, number, titled))[-1], RunInHead)
    # no point after the title: a title cited in running words
    cited = words("(Monotone limits) says that a bounded sequence", x0=number[-1].x1 + SPACE)
    assert not isinstance(roles(line(name, words("1.10", x0=name[-1].x1 + SPACE), cited))[-1], RunInHead)
    assert not isinstance(roles(line(words("Theorem 1.10 (Monotone limits). A monotone sequence")))[-1], RunInHead)
