"""build_math.py: the builder's reading of typeset maths around the formula reader.

build_formula.py reads a formula's glyphs into LaTeX; this module decides where formulas are and
what goes with them: which words of a line are maths (by their fonts), the lines a displayed
formula spans (its block, with every numbered row in it), prose with its maths as `$…$`, tables
as Markdown with maths in their cells, and pseudocode line by line.  Sections: maths or text,
tables, inline maths in prose, typeset algorithms, display blocks.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import NamedTuple

from build_formula import (BODY_FACE, CENTRED_NUMBER, FORMAL_SCRIPT, LIMIT_NAMES, OPERATOR_NAMES, TEXT_FACE, display_latex, face_family, font_alphabet,
                           column_gaps, inline_latex, is_maths_font, is_script_capital, is_text_face, numbered_rows,
                           plain_reading, same_columns, upright)
from build_glyphs import ACCENT_MARKS, Line, Word, is_accent
from build_heads import END_MARK_RE, equation_number

__all__ = ["LIST_MARK_RE", "display_latex", "inline_latex", "is_math_font", "is_math_word", "mark_bold_symbols", "mark_formal_script", "mark_greek_letters", "mark_upright_variables", "mark_maths_italics", "mark_sans_body", "mark_slanted_relations", "iso_style", "text_face",
           "maths_signs_apart", "in_maths_signs_apart", "prose_faces", "in_prose_faces", "mark_prose_letters", "math_share",
           "table_markdown",
           "prose_with_math", "algorithm_text", "display_block", "is_prose_line", "numbered_display",
           "plain_reading"]


# --------------------------------------------------------------------------- maths or text
"""Maths or text: which words of a line are (part of) a formula, by their fonts."""


def is_math_font(font: str) -> bool:
    """A font only formulas use (TeX's maths italic, symbol, extension and AMS fonts, their Type 1
    and OpenType successors), told by its name."""
    return is_maths_font(font)


# Characters TeX's OT1 text encoding lacks and takes from the math symbol font: `\{`, `\}`,
# `\textbackslash`, `\textbar`, `\textless`/`\textgreater`.  Around letters of a text face they are
# text (`\SetKwInput{Kw}{input}` in a typewriter face), not maths.
_TEXT_FROM_SYMBOL_FONT = set("\\{}|<>")
# `\textlangle` and `\textrangle` come from there too: around a text face's word (a manual's
# `⟨font commands⟩`, an argument's placeholder) they are text; around lone letters, an inner product
_TEXT_ANGLES = set("⟨⟩")
_TEXT_WORD = re.compile(r"[^\W\d_]{2,}")
# A lone letter (with digits or primes) set in an italic face: a variable in running text, whatever
# font the book's maths italic is (a text family's italic serves as maths italic in many set-ups).
_LONE_LETTER = re.compile(r"[A-Za-z][0-9′']*")


def _maths_letters(raw: str | None) -> bool:
    return bool(raw) and any("\U0001d400" <= ch <= "\U0001d7ff" for ch in raw)


_WORD_RUN = re.compile(r"[^\W\d_]{4,}")


def _spells_prose(text: str) -> bool:
    """Whether a run spells a word of prose: four letters or more in a row, one of them lower-case.  Capitals
    alone are a name the maths may set in a face of its own as well (`$\\mathsf{PSPACE}$` in Computer
    Modern's sans); prose sets its lower-case letters too."""
    return any(not m.group().isupper() for m in _WORD_RUN.finditer(text))


def mark_maths_italics(pages, face: str | None = None) -> int:
    """A text family's italic that the book uses as its maths italic (mathpazo's Palatino italic
    beside a Pagella text face), or a maths italic whose name says nothing (Kp-Fonts'): its glyphs
    never spell a word of four letters or more, and they share words with glyphs of maths fonts
    (`hF(q)`, `n/2|Σ|`) or set Greek letters (a maths italic's, which a Latin text's italic never
    sets; a Greek text's italic spells words).  A text italic spells words.  Marks the words set
    partly in such a font and returns how many it marked.  `face`: the running text's (text_face),
    found here when a font qualifies if the caller has not found it."""
    spans: dict[str, list] = {}
    for page in pages:
        for line in page.lines:
            for w in line.words:
                runs = [(s.font.name, s.font.italic, s.text) for s in w.spans] if w.spans else [(w.font, w.italic, w.text)]
                with_maths = any(is_math_font(f) for f, _, _ in runs)
                for font, italic, text in runs:
                    if italic and not is_math_font(font):
                        spans.setdefault(font, []).append((w, bool(_WORD_RUN.search(text)), with_maths,
                                                           any("\u03b1" <= c <= "\u03c9" for c in text), line))
    marked = 0
    for font, seen in spans.items():
        n = len(seen)
        if n < MATHS_ITALIC_EVIDENCE or sum(1 for _, spelt, _, _, _ in seen if spelt) > n * MATHS_ITALIC_WORDS or \
                (sum(1 for _, _, m, _, _ in seen if m) < n * MATHS_ITALIC_WITH_MATHS and
                 sum(1 for _, _, _, greek, _ in seen if greek) < n * MATHS_ITALIC_WITH_MATHS):
            continue
        # (where it is the text face's own italic, the few words it spells are a theorem's, an emphasis's
        # or a proof's head: such a word, and on a line where it spells words its other words of letters,
        # "The", "is", "one,", are prose; its lone letters stay maths.  The italic of another family
        # sets no prose: the words it spells are the maths' names, `\mathit{spill}`)
        if face is None:
            face = text_face(pages)
        own = face_family(font).split("-", 1)[0] == face_family(face).split("-", 1)[0] if face else False
        spelling = Counter(id(line) for _, spelt, _, _, line in seen if spelt)
        for w, _, _, _, line in seen:
            if own and _ITALIC_PROSE_WORD.fullmatch(w.text) and all(sp.font.name == font for sp in w.spans) and \
                    (_spells_prose(w.text) or spelling[id(line)] >= ITALIC_PROSE_ON_LINE):
                continue
            if not w.maths_word and not w.prose_letter:
                w.maths_word = True
                marked += 1
    return marked


MATHS_ITALIC_EVIDENCE = 20      # glyph runs in the font: fewer say nothing
MATHS_ITALIC_WORDS = 0.03       # ... at most this share of them spell a word (four letters or more)
MATHS_ITALIC_WITH_MATHS = 0.05  # ... and at least this share stand in a word with a maths font's glyphs
                                # (or set a Greek letter)
ITALIC_PROSE_ON_LINE = 2        # words it spells on one line: that line's words of its letters are prose
_ITALIC_PROSE_WORD = re.compile(r"[A-Za-z][a-z]+(?:[-’'][a-z]+)*[.,;:!?]?")   # a word of letters, two at least


def mark_prose_letters(pages) -> int:
    """A book that sets its variables in a maths font does not set them in its text italic: there a
    lone letter of the text italic is a word ("Let $G$ be a group" in an italic theorem), not maths.
    The evidence is the book's own: lone letters in maths fonts outnumber those in its text italic
    (a book whose maths italic is its text italic, mathptmx's Times, has few of the former).  Marks
    those words and returns how many it marked."""
    maths, text = 0, []
    for page in pages:
        for line in page.lines:
            for w in line.words:
                if not _LONE_LETTER.fullmatch(w.text.rstrip(".,;:")):
                    continue
                fonts = [s.font.name for s in w.spans] if w.spans else [w.font]
                if w.maths_word or all(is_math_font(f) for f in fonts):
                    maths += 1
                elif not any(is_math_font(f) for f in fonts) and not _maths_letters(w.raw) and \
                        (w.italic if not w.spans else all(s.font.italic for s in w.spans)):
                    text.append(w)
    if maths < PROSE_LETTER_EVIDENCE or maths < len(text) * PROSE_LETTER_RATIO:
        return 0
    for w in text:
        w.prose_letter = True
    return len(text)


def mark_greek_letters(pages) -> int:
    """A book whose prose is Latin sets a Greek letter only in its maths: where its words spell Greek
    (three Greek letters in a row, outside the maths fonts) rarely against the words its Greek letters
    stand in, a word of a text face holding a Greek letter and no word of prose ("λ", "I(λ)", "1/λ.",
    "Δt") is a formula's, wherever the book takes its maths Greek from (GFS Didot's, EB Garamond's
    and Arev's maths print the text face's own Greek).  Marks those words and returns how many it marked."""
    spelt, lone = 0, []
    for page in pages:
        for line in page.lines:
            for w in line.words:
                if not _GREEK_LETTER.search(w.text):
                    continue
                fonts = [s.font.name for s in w.spans] if w.spans else [w.font]
                texts = [s.text for s in w.spans if not is_math_font(s.font.name)] if w.spans else \
                    ([] if is_math_font(w.font) else [w.text])
                if any(_GREEK_WORD.search(t) for t in texts):
                    spelt += 1
                elif not w.maths_word and not w.prose_letter and not all(is_math_font(f) for f in fonts) and \
                        not _WORD_OF_LETTERS.search(w.text):
                    lone.append(w)
    if not lone or spelt * GREEK_PROSE_RATIO >= len(lone):
        return 0
    for w in lone:
        w.maths_word = True
    return len(lone)


# (and the increment and ohm signs: Adobe's glyph list gives a text face's "Delta" and "Omega" those codes too)
_GREEK_LETTER = re.compile("[\u2206\u2126\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03d6\u03f0\u03f1\u03f5]")
_GREEK_WORD = re.compile("[\u0370-\u03ff\u1f00-\u1fff]{3,}")
_WORD_OF_LETTERS = re.compile(r"[^\W\d_]{3,}")   # a word of prose glued to the letter ("α-helix") keeps it prose
GREEK_PROSE_RATIO = 10   # words spelling Greek: a tenth of the words holding a lone Greek letter make the prose Greek


def mark_upright_variables(pages) -> int:
    """unicode-math codes a maths italic letter at the Mathematical Italic codes (U+1D434 …), and its
    other alphabets at theirs (bold U+1D400 …); under `math-style=upright` (Euler's maths, Knuth's
    Concrete Mathematics) it leaves the variables upright at the ASCII codes of the OpenType maths
    font.  A font that prints maths alphanumerics at their own codes, never an italic Latin letter
    there, and Latin letters at ASCII codes, sets its variables upright: its runs are marked italic,
    so that formulas read its letters as variables, not as `\mathrm`.  Returns how many runs it marked."""
    seen: dict[str, list[int]] = {}
    runs: dict[str, list] = {}
    for page in pages:
        for line in page.lines:
            for w in line.words:
                for run in (w.spans or [w]):
                    font = run.font.name if w.spans else run.font
                    if not is_math_font(font):
                        continue
                    counts = seen.setdefault(font, [0, 0, 0])   # ASCII letters, maths alphanumerics, italic ones
                    for ch, raw in zip(run.text, run.raw or run.text):
                        if "\U0001d400" <= raw <= "\U0001d7ff":
                            counts[1] += 1
                            counts[2] += "\U0001d434" <= raw <= "\U0001d467"
                        elif raw == "\u210e":
                            counts[2] += 1      # (the italic h, Planck's constant's code)
                        elif ch.isascii() and ch.isalpha():
                            counts[0] += 1
                    runs.setdefault(font, []).append((w, run))
    marked = 0
    for font, (letters, alphanumerics, italics) in seen.items():
        if letters < UPRIGHT_VARIABLES_EVIDENCE or not alphanumerics or italics:
            continue
        for w, run in runs[font]:
            if w.spans and not run.font.italic:
                run.font = replace(run.font, italic=True)
                marked += 1
            elif not w.spans and not w.italic:
                w.italic = True
                marked += 1
    return marked


UPRIGHT_VARIABLES_EVIDENCE = 20   # Latin letters at ASCII codes in the maths font: fewer say nothing


_BOLD_LETTER = re.compile(r"[A-Za-z][0-9]*[.,;:]?")


def mark_bold_symbols(pages) -> int:
    """A lone bold letter in a sentence, between words of the regular weight, is a bold maths symbol
    (a vector `$\\mathbf{x}$`, a matrix), whatever font the book's \\mathbf takes: heads and bold
    terms are bold words beside bold words, labels stand apart from their text.  Marks those words
    and returns how many it marked."""
    marked = 0
    for page in pages:
        for line in page.lines:
            words = line.words
            for i, w in enumerate(words):
                if not w.bold or w.italic or not _BOLD_LETTER.fullmatch(w.text) or is_math_word(w):
                    continue
                left = words[i - 1] if i else None
                right = words[i + 1] if i + 1 < len(words) else None
                if right is not None and is_math_word(right) and not right.bold and right.x0 - w.x1 < w.size * 0.1 \
                        and right.size < w.size * 0.85 and right.bottom > w.top:
                    # a script of maths glued to it (its prime, `\mathbf{b}'` after a step's number)
                    w.maths_word = True
                    marked += 1
                    continue
                # in a sentence: a word space from the words beside it (a label stands a column's gap
                # from its text, an index's letter head a column's gap from the entries beside it)
                if (left is None and right is None) or (left is not None and w.x0 - left.x1 > w.size) or \
                        (right is not None and right.x0 - w.x1 > w.size) or (left is None and w.text[-1] in ".,;:"):
                    continue
                # a neighbour of the text face is of the regular weight and size; maths beside it
                # (its exponent, `\\mathbf{R}^{\\pi}`) says nothing against it
                if any(o is not None and not is_math_word(o) and (o.bold or abs(o.size - w.size) > w.size * 0.1)
                       for o in (left, right)):
                    continue
                w.maths_word = True
                marked += 1
    return marked


def mark_formal_script(pages) -> int:
    """Ralph Smith's formal script (RSFS) is a book's \\mathscr beside its own calligraphic capitals
    (mathrsfs; \\mathcal then prints the symbol font's), or else is the book's \\mathcal itself (mathptmx
    and calrsfs print it so).  Where the book prints calligraphic capitals of another font too, its
    RSFS runs are renamed so that formulas read them as \\mathscr; returns how many were."""
    formal: list = []
    other = False
    for page in pages:
        for line in page.lines:
            for w in line.words:
                for run in (w.spans or [w]):
                    font = run.font.name if w.spans else run.font
                    if re.match(r"RSFS", font, re.I):
                        formal.append((w, run))
                    elif not other and any(ch.isupper() for ch in run.text) and (
                            font_alphabet(font, False) == "cal" and any(ch.isascii() for ch in run.text)
                            or any(is_script_capital(ch) for ch in (run.raw or run.text))):
                        other = True
    if not other:
        return 0
    for w, run in formal:
        if w.spans:
            run.font = replace(run.font, name=run.font.name + " " + FORMAL_SCRIPT)
        else:
            w.font = w.font + " " + FORMAL_SCRIPT
    return len(formal)


def _runs_with_fonts(pages):
    """Every run of the book's words with the name of the font it is set in."""
    for page in pages:
        for line in page.lines:
            for w in line.words:
                for run in (w.spans or [w]):
                    yield w, run, run.font.name if w.spans else run.font


def iso_style(pages) -> bool:
    """Whether the book's maths follows ISO 80000-2: its capital Greek letters set in a maths font
    as italic (MATHEMATICAL ITALIC CAPITAL GAMMA, U+1D6E4, as unicode-math's math-style=ISO prints
    \\Gamma) more often than upright, at least ISO_EVIDENCE times."""
    italic = upright = 0
    for _, run, font in _runs_with_fonts(pages):
        if not is_math_font(font):
            continue
        for ch in run.raw or run.text:      # (the PDF's own characters, before NFKC folds them)
            if 0x1D6E2 <= ord(ch) <= 0x1D6FA and unicodedata.normalize("NFKC", ch) in GREEK_CAPITALS:
                italic += 1
            elif ch in GREEK_CAPITALS:
                upright += 1
    return italic >= ISO_EVIDENCE and italic > upright


ISO_EVIDENCE = 3   # italic capital Greek letters: one or two may be a \mathit{\Gamma} or a \varGamma
# (capitals unlike any Latin letter: a font may map its italic A, shared with Alpha, to ITALIC CAPITAL ALPHA)
GREEK_CAPITALS = set("ΓΔΘΛΞΠΣΦΨΩ")


def text_face(pages) -> str:
    """The font that prints most of the book's characters, of those that are no maths font's: its
    running text's.  (A maths font sets no running text, but in a short document of displays with a
    sentence between them its glyphs outnumber the prose's: Libertinus Math's did, and the words of a
    display's `\\text{subject to}`, in the text face, read as a name set in another face.)"""
    counts: dict[str, int] = {}
    for _, run, font in _runs_with_fonts(pages):
        counts[font] = counts.get(font, 0) + len(run.text)
    text = {font: n for font, n in counts.items() if not is_math_font(font)}
    return max(text or counts, key=(text or counts).get) if counts else ""


SIGNS_EVIDENCE = 3   # equals signs set apart from the text face before the book is taken to set its maths so


def maths_signs_apart(pages, face: str) -> bool:
    """Whether the book's maths takes its equals signs (and with them its brackets and figures: TeX's
    operators font) from a face other than its running text's (`face`): mathpazo's or Computer Modern's
    roman under a Palatino or Garamond text, a maths font of its own.  Then a bracket of the text face
    around a formula is the sentence's; where the text face is the maths roman too (Computer Modern
    throughout), no glyph tells `($F$)` from `$(F)$`."""
    family = face_family(face) if face else ""
    text = other = 0
    for _, run, font in _runs_with_fonts(pages):
        n = run.text.count("=")
        if n:
            if face_family(font) == family:
                text += n
            else:
                other += n
    return other >= SIGNS_EVIDENCE and other > text


PROSE_FACE_WORDS = 0.05   # of a face's runs: a face that spells a word (four letters) in this share sets prose


def prose_faces(pages) -> frozenset:
    """The faces that set the book's prose, besides its text face: those whose runs spell a word of four
    letters or more (no operator's name) in one run of twenty at least, a side note's own roman, a
    small-caps face whose oldstyle figures number the text's lines and sections.  A maths roman sets a
    figure, a bracket, a sign, now and then a `\\mathrm` word (one run of a hundred), and is none."""
    words: dict[str, int] = {}
    runs: dict[str, int] = {}
    for w, run, font in _runs_with_fonts(pages):
        face = face_family(font)
        runs[face] = runs.get(face, 0) + 1
        if _spells_prose(run.text) and w.text.strip(".,;:()[]") not in OPERATOR_NAMES:
            words[face] = words.get(face, 0) + 1
    return frozenset(face for face, n in words.items() if n >= runs[face] * PROSE_FACE_WORDS)


# The faces that set the book's prose (prose_faces; build_pdf sets it while a book is read)
BOOK_PROSE_FACES: ContextVar[frozenset] = ContextVar("BOOK_PROSE_FACES", default=frozenset())


@contextmanager
def _bound(setting: ContextVar, value):
    """Within it, a setting of the book being read holds the value given."""
    token = setting.set(value)
    try:
        yield
    finally:
        setting.reset(token)


def in_prose_faces(faces: frozenset):
    """Within it, inline formulas are read knowing the faces that set the book's prose."""
    return _bound(BOOK_PROSE_FACES, faces)


# Whether the book being read sets its maths' signs apart from its text face (maths_signs_apart;
# build_pdf sets it while a book is read)
MATHS_SIGNS_APART: ContextVar[bool] = ContextVar("MATHS_SIGNS_APART", default=False)


def in_maths_signs_apart(apart: bool):
    """Within it, inline formulas are read knowing whether the maths' signs are the text face's."""
    return _bound(MATHS_SIGNS_APART, apart)


def mark_sans_body(pages) -> int:
    """A book set in a sans-serif face (Fira Sans, Helvetica) writes its \\mathrm, \\mathbf and
    operator names in that face: its runs are the book's roman, not \\mathsf.  The face that prints
    most of the book's characters is its body; where that is a sans face, its runs and those of every
    other sans face are renamed so that formulas read them as roman; returns how many were."""
    counts: dict[str, int] = {}
    runs: list = []
    for w, run, font in _runs_with_fonts(pages):
        family = re.split(r"[-,]", font)[0]
        counts[family] = counts.get(family, 0) + len(run.text)
        runs.append((w, run, family))
    if not counts:
        return 0
    body = max(counts, key=counts.get)
    if font_alphabet(body, False) not in ("sf", "bfsf"):
        return 0
    # (every sans face of such a book prints its roman: sansmathfonts sets the operator names in a
    # sans family of its own beside the text's, where \mathsf and \mathrm look alike)
    sans = {family for family in counts if family == body or font_alphabet(family, False) in ("sf", "bfsf")}
    marked = 0
    for w, run, family in runs:
        if family in sans:
            if w.spans:
                run.font = replace(run.font, name=run.font.name + " " + BODY_FACE)
            else:
                w.font = w.font + " " + BODY_FACE
            marked += 1
    return marked


_SLANTED = str.maketrans("⩽⩾", "≤≥")


def mark_slanted_relations(pages) -> int:
    """A book that never prints the upright ≤ or ≥ sets its \\leq and \\geq slanted (eulervm does, and
    `\\let\\leq\\leqslant`): there its ⩽ and ⩾ are read as ≤ and ≥; beside upright ones they are
    \\leqslant and \\geqslant.  Returns how many words were rewritten."""
    slanted: list = []
    for page in pages:
        for line in page.lines:
            for w in line.words:
                text = w.raw or w.text
                if "≤" in text or "≥" in text:
                    return 0
                if "⩽" in text or "⩾" in text:
                    slanted.append(w)
    for w in slanted:
        w.text = w.text.translate(_SLANTED)
        if w.raw:
            w.raw = w.raw.translate(_SLANTED)
        for span in w.spans:
            span.text = span.text.translate(_SLANTED)
            if span.raw:
                span.raw = span.raw.translate(_SLANTED)
    return len(slanted)


# the capital Greek letters that no Latin capital is drawn as (a Greek word's capital A, B, E … looks Latin)
_GREEK_CAPITAL = re.compile(r"[(\[|]?[ΓΔΘΛΞΠΣΦΨΩ][)\]|]?[.,;:]?")
PROSE_LETTER_EVIDENCE = 50   # lone letters in maths fonts: fewer say nothing about the book's maths
PROSE_LETTER_RATIO = 3       # ... and they outnumber the text italic's lone letters this many times


def is_math_word(w) -> bool:
    """Whether a word is (part of) a formula: some glyph of it is set in a maths font (other than
    the few a text face borrows from the symbol font between its own letters), it carries Unicode
    maths alphanumerics, or it is a lone italic letter (unless the book sets its variables in a
    maths font: mark_prose_letters)."""
    if w.prose_letter:
        return False
    if w.maths_word or w.stacked:     # stacked: off its line's baseline between an inline formula's tall delimiters
        return True
    if _GREEK_CAPITAL.fullmatch(w.text):
        return True     # an upright capital Greek letter alone (\Gamma, set in a roman a text may share)
    if not w.spans:
        return is_math_font(w.font) or _maths_letters(w.raw) or (w.italic and bool(_LONE_LETTER.fullmatch(w.text)))
    if any(s.raw and _maths_letters(s.raw) for s in w.spans):
        return True
    math = [s for s in w.spans if is_math_font(s.font.name)]
    if not math:
        first = w.spans[0]
        # an italic letter carrying a smaller script ($d_{1:m}$ where the maths italic is a text
        # family's italic), or a bold one ($\mathbf{W}_{h}$, $\mathbf{m}^{(k)}$ where \mathbf is the text's
        # bold): prose sets no subscripts
        if (first.font.italic or first.font.bold) and _LONE_LETTER.fullmatch(first.text) and \
                any(s.size < first.size * 0.85 and abs(s.baseline - first.baseline) > first.size * 0.1
                    for s in w.spans[1:]):
            return True
        if _applied_letter(w):
            return True
        # ... or a number carrying an italic one ($2^m$): an ordinal's raised letters are upright
        if first.text.isdigit() and any(s.font.italic and s.size < first.size * 0.85 and
                                        abs(s.baseline - first.baseline) > first.size * 0.1 for s in w.spans[1:]):
            return True
        return any(s.font.italic and _LONE_LETTER.fullmatch(s.text) for s in w.spans) and \
            _LONE_LETTER.fullmatch(w.text.rstrip(".,;:")) is not None
    text = [s for s in w.spans if not is_math_font(s.font.name)]
    if all(set(s.text) <= _TEXT_FROM_SYMBOL_FONT for s in math):
        return not any(any(c.isalpha() for c in s.text) for s in text) or _applied_letter(w)
    if all(set(s.text) <= _TEXT_FROM_SYMBOL_FONT | _TEXT_ANGLES for s in math):
        return not any(_TEXT_WORD.search(s.text) for s in text)
    return True


def _applied_letter(w: Word) -> bool:
    """A letter of the text's italic or bold applied to an argument in brackets of an upright face ("F(t)",
    "p(z)", "C(j,", "v({1})" with the symbol font's braces): the maths italic a text family's, its
    brackets the roman's.  Prose emphasises whole words, and a letter of the text's italic glued to an
    upright bracket is a function's name."""
    first = w.spans[0]
    return (first.font.italic or first.font.bold) and len(first.text) == 1 and first.text.isalpha() and \
        len(w.spans) >= 3 and w.spans[1].text == "(" and not (w.spans[1].font.italic or w.spans[1].font.bold) and \
        _APPLIED.fullmatch(w.text) is not None


# a letter and its argument, perhaps in braces: "F(t)", "C(j,", "v({1})"
_APPLIED = re.compile(r"[A-Za-z]\(\{?[A-Za-z0-9]{1,3}(?:,|\}?\)[.,;:]?)?")


def math_share(words: list[Word]) -> float:
    """The share of a line's words that are maths: set in a math font, or a lone symbol or digit."""
    if not words:
        return 0.0
    count = 0
    for w in words:
        if is_math_word(w) or not any(c.isascii() and c.isalpha() for c in w.text):
            count += 1
    return count / len(words)


# --------------------------------------------------------------------------- tables
def _cell_text(words: list[Word], bars=()) -> str:
    """A cell's words: text as printed, runs of maths as $…$."""
    out: list[str] = []
    run: list[Word] = []

    def is_math(w: Word) -> bool:
        return is_math_word(w) or bool(w.spans and len({round(s.baseline, 1) for s in w.spans}) > 1)

    def flush() -> None:
        if run:
            latex = inline_latex(run, bars)
            if latex:
                out.append(f"${latex}$")
            run.clear()

    for w in words:
        if is_math(w) or (run and not any(c.isascii() and c.isalpha() for c in w.text)):
            run.append(w)
        else:
            flush()
            out.append(w.text)
    flush()
    return " ".join(out).replace("|", r"\|")


def _continues(above: list[str], row: list[str]) -> bool:
    """Whether a row with an empty first cell is the wrapped continuation of the row above: each of its
    cells goes on from the cell above it (that cell ends in a hyphen or an open parenthesis, or the
    new line starts in lower case, as a sentence goes on)."""
    pairs = [(a, b) for a, b in zip(above, row) if b]
    if not pairs:
        return False
    return all(a and (a.endswith("-") or a.count("(") > a.count(")") or b[:1].islower()) for a, b in pairs)


def _join_wrapped(a: str, b: str) -> str:
    if not b:
        return a
    if a.endswith("-") and b[:1].islower():
        return a[:-1] + b          # a word hyphenated at the line's end
    return f"{a} {b}".strip()


def table_markdown(lines: list, bars=()) -> str:
    """The rows of a tabular (build_glyphs Lines) as a Markdown table.  Cells are runs of words with
    column space between them; columns come from the rows with the most cells; a cell that spans
    several columns (a merged cell) is repeated in each."""
    # a line holding only an operator or delimiter of the extension font, or glyphs smaller than the
    # text beside it, inside another line's height, belongs to that line (a sum's sign, its limits)
    # lines with the most words (a table's rows) are hosts first; pieces join them
    lines = sorted([l for l in lines if l.words], key=lambda l: (-len(l.words), l.top))
    bars = [b for b in bars if not upright(b)]     # a fraction's bars, not the table's column rules

    def fraction_bars(line) -> list:
        """Bars just above or below the line's words, each word within one: the line holds numerators
        or denominators."""
        near = [b for b in bars if b[0] < line.x1 and b[2] > line.x0
                and line.top - line.size * 0.6 <= b[1] <= line.bottom + line.size * 0.6]
        covered = all(any(b[0] - 1 <= (w.x0 + w.x1) / 2 <= b[2] + 1 for b in near) for w in line.words)
        return near if covered else []

    pieces = [l for l in lines if math_share(l.words) == 1.0 and fraction_bars(l)]
    kept: list = []
    for line in lines:
        if line in pieces:
            continue
        host = next((k for k in kept if k.top - 1 <= (line.top + line.bottom) / 2 <= k.bottom + 1), None)
        minor = host is not None and all(font_alphabet(w.font, w.italic) == "ext" or w.size < host.size * 0.9
                                              for w in line.words)
        if minor:
            host.words = host.words + line.words
        else:
            kept.append(type(line)(list(line.words), line.page))
    for line in pieces:
        # the row whose height the fraction's bar crosses
        host = next((k for k in kept for b in fraction_bars(line) if k.top + 1 < b[1] < k.bottom - 1), None)
        if host is not None:
            host.words = host.words + line.words
        else:
            kept.append(type(line)(list(line.words), line.page))
    rows = []
    for line in sorted(kept, key=lambda l: l.top):
        words = sorted(line.words, key=lambda w: w.x0)
        if not words:
            continue
        cells = [[words[0]]]
        for w in words[1:]:
            if w.x0 - cells[-1][-1].x1 > max(w.size, cells[-1][-1].size) * 0.75:
                cells.append([w])
            else:
                cells[-1].append(w)
        rows.append(cells)
    if not rows:
        return ""
    # Columns: the x ranges the rows' cells cover; a gap no cell covers (or only one row's, a merged
    # cell, when there are enough rows to tell) separates two columns.
    cells_x = sorted(((c[0].x0, c[-1].x1) for r in rows for c in r))
    allowed = 1 if len(rows) >= 4 else 0
    edges = sorted({x for c in cells_x for x in c})
    bounds: list[float] = []
    start = None          # the left end of the current stretch of uncovered space
    for a, b in zip(edges, edges[1:]):
        mid = (a + b) / 2
        free = sum(1 for x0, x1 in cells_x if x0 < mid < x1) <= allowed
        if free and start is None:
            start = a
        if not free and start is not None:
            if a - start >= 2 and any(x1 <= start + 0.01 for _, x1 in cells_x):
                bounds.append((start + a) / 2)
            start = None
    widest = len(bounds) + 1

    def columns(cell) -> list[int]:
        x0, x1 = cell[0].x0, cell[-1].x1
        first = sum(1 for b in bounds if b < x0 + 1)
        last = sum(1 for b in bounds if b < x1 - 1)
        if last < first:
            last = first
        if last > first and not (x0 < bounds[first] - 2 and x1 > bounds[last - 1] + 2):
            last = first
        return list(range(first, last + 1))

    table = []
    for r in rows:
        out = [""] * widest
        spans_of = [columns(cell) for cell in r]
        for k, cell in enumerate(r):
            cols = spans_of[k]
            if k + 1 < len(r):   # a cell reaching into the next cell's column is not a merged cell
                cols = [c for c in cols if c < spans_of[k + 1][0]] or cols[:1]
            text = _cell_text(cell, bars)
            for c in cols:
                out[c] = f"{out[c]} {text}".strip() if out[c] else text
        if table and not out[0] and _continues(table[-1], out):
            # a cell wrapped onto a second line (a paragraph column): its line continues the row above
            table[-1] = [_join_wrapped(a, b) for a, b in zip(table[-1], out)]
            continue
        table.append(out)
    md = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * widest]
    md += ["| " + " | ".join(r) + " |" for r in table[1:]]
    return "\n".join(md)


# --------------------------------------------------------------------------- inline maths in prose


def _bridges(w: Word) -> bool:
    """A word in the text face that goes on a formula when it stands next to one: a relation or operator
    sign, a number, a bracket, an operator's name ("γ = 0.9", "x + 1", "arg max")."""
    if w.text in OPERATOR_NAMES:
        return True
    # ... or glued to its argument's bracket or its figures ("max{30,", "log2", "exp(")
    name = _OPERATOR_HEAD.match(w.text)
    if name and name.group(1) in OPERATOR_NAMES and not any(c.isalpha() for c in w.text[name.end(1):]):
        return True
    return not any(c.isalpha() for c in w.text) and not re.fullmatch(r"[.,;:!?]+", w.text) \
        and not re.fullmatch(r"\(\d+(\.\d+)*[a-z]?\)[.,;:]?", w.text)   # an equation's number in brackets


_OPERATOR_HEAD = re.compile(r"([a-z]{2,6})[({\[\d]")
ELLIPSIS_GAP = 0.5    # em: the dots of an ellipsis set as three periods stand closer than this


def _dot_group(words: list[Word], s: int) -> bool:
    """words[s:s+3] are three lone periods set close together: an ellipsis."""
    return 0 <= s and s + 3 <= len(words) and all(words[i].text == "." for i in range(s, s + 3)) and \
        all(words[i + 1].x0 - words[i].x1 < words[i].size * ELLIPSIS_GAP for i in range(s, s + 2))


def _in_ellipsis(words: list[Word], k: int) -> bool:
    """words[k] is a dot of an ellipsis between a formula's terms, or the comma after one, with maths
    after it ("$u_1, \\ldots, u_m$" whose dots a font sets as periods of the text's shape)."""
    n = len(words)
    if words[k].text == ",":
        return _dot_group(words, k - 3) and k + 1 < n and _term_after_dots(words[k + 1])
    if words[k].text != ".":
        return False
    for s in (k - 2, k - 1, k):
        if _dot_group(words, s):
            after = s + 3
            return after < n and (is_math_word(words[after]) or _bridges(words[after]) or (
                words[after].text == "," and after + 1 < n and _term_after_dots(words[after + 1])))
    return False


def _term_after_dots(w: Word) -> bool:
    """A word that may be an ellipsis's last term: maths, or a term closing on a maths font's brace
    ("n}," of `$N = \\{1, \\dots, n\\}$`, whose n is the text's italic and the brace the symbol font's)."""
    return is_math_word(w) or _brace_depth(w) < 0


def _closing_ellipsis(words: list[Word], start: int, end: int) -> bool:
    """words[end] is a dot of an ellipsis closing a list of terms that the run words[start:end] began,
    where the comma before the dots ends the run so far: `$x_1, x_2, \\dots$` and `$k = 0, 1, 2,
    \\dots$` with the sentence going on after the dots, set where the comma and the dots are the text
    face's.  A list: the run already holds a comma before that one (a sentence's comma after one
    formula, then an ellipsis, is not taken).  The last dot may carry the sentence's mark (". . .:")."""
    if not _DOT_MARK.fullmatch(words[end].text):
        return False
    for s in (end - 2, end - 1, end):
        if s - 1 >= start and _closing_dots(words, s) and words[s - 1].text.endswith(","):
            return sum(w.text.count(",") for w in words[start:s]) >= 2
    return False


_DOT_MARK = re.compile(r"\.[.,;:?]?")


def _closing_dots(words: list[Word], s: int) -> bool:
    """words[s:s+3] are an ellipsis whose last period may carry a sentence's mark glued to it."""
    return 0 <= s and s + 3 <= len(words) and words[s].text == words[s + 1].text == "." and \
        _DOT_MARK.fullmatch(words[s + 2].text) is not None and \
        all(words[i + 1].x0 - words[i].x1 < words[i].size * ELLIPSIS_GAP for i in range(s, s + 2))


TOUCH_GAP = 0.1    # em: a word this close to the one before is set against it, with no space between


def _touching_bracket(words: list[Word], end: int) -> bool:
    """words[end] opens a bracket set against the formula before it, with no word space (a function's
    argument in the text face: `$z^{*}(\\mathbf{b})$` where the bold and the brackets are the text's),
    and is no prose."""
    w = words[end]
    return w.text[:1] in "([" and w.x0 - words[end - 1].x1 < w.size * TOUCH_GAP and \
        _PROSE_RUN.search(w.text) is None


def _accents(w: Word, other: Word | None) -> bool:
    """A maths accent TeX takes from the text face (`\\hat\\lambda`: a circumflex above the letter),
    standing over the maths word beside it in reading order: part of that formula."""
    if other is None or w.text.lstrip()[:1] not in ACCENT_MARKS:
        return False
    # (the sentence's full stop may be glued to it: "Û.", or the letter's script and a list's comma
    # where the text face gives the accent and the figures: `$\bar{x}_{1}, \bar{x}_{2}, \dots$`)
    rest = w.text[len(w.spans[0].text):] if len(w.spans) > 1 else ""
    acc = w.spans[0] if rest and (re.fullmatch(r"[.,;:]+", rest) or (
        is_accent(w.spans[0].text) and not any(c.isalpha() for c in rest))) else w
    # TeX sets the accent on the letter's own baseline when the letter is no taller than the x-height
    # (its ink high in its box), raised when it is taller: never below the letter's baseline
    # (over a script, on the script's baseline: `$T_{\\tilde{\\mu}}$`, the tilde read after the word)
    under = [sp for sp in (other.spans or [other]) if acc.x0 < sp.x1 and sp.x0 < acc.x1]
    # (a Greek letter under it is maths whatever its word: "Var[μ" of `\\operatorname{Var}[\\hat{\\mu}_{n}]`)
    return is_accent(acc.text) and (is_math_word(other) or any(_GREEK_LETTER.fullmatch(sp.text) for sp in under)) and \
        bool(under) and any(acc.bottom <= sp.baseline or acc.baseline <= sp.baseline + 0.5 for sp in under)



def _note_mark(w: Word, before: Word) -> bool:
    """A small raised number just after a formula's closing punctuation: a note's mark (`$\\lambda$:`
    then the side note's 1), not an exponent."""
    return before.text[-1:] in ".,;:" and w.text.isdigit() and w.size < before.size * 0.85 and \
        w.baseline < before.baseline - before.size * 0.2


def _right_side(words: list[Word], end: int) -> bool:
    """An italic word right after a formula's relation sign, or after a big operator and the limits
    stacked beside it, is that relation's right side or that operator's operand (`$\\frac{dP(t)}{dt} =
    QP(t)$`, `$\\sum_{k=1}^{n} N(k)$`, where the maths italic is the text's own italic and says nothing):
    a formula never ends on "=" or on a sum with the sentence going on.  Not a word of prose (three
    lower-case letters in a row).  After a relation or a binary sign, also bold letters of the text face
    (`$\\mathbf{w} = \\mathbf{D}\\mathbf{c}$`, `$\\mathbf{y} - \\mathbf{Q}\\mathbf{s}$` where `\\mathbf` is
    the text's bold) and a bracket opening on a figure (`$s = (1, 3)$`)."""
    if words[end - 1].text in _RELATIONS or words[end - 1].text in _BINARY:
        w = words[end]
        if _text_operand(w):
            return True
    if not italic_operand(words[end]):
        return False
    if words[end - 1].text in _RELATIONS:
        return True
    k = end - 1
    while k >= 0 and words[k].stacked:
        k -= 1
    return k < end - 1 and k >= 0 and words[k].text[:1] in _BIG_OPERATORS


def _closing_glued(words: list[Word], end: int) -> bool:
    """words[end] opens on a closing bracket touching the formula's last glyph (TeX's maths sets no space
    before a closing bracket), no word of prose in it."""
    w = words[end]
    return w.text[:1] in ")]" and w.x0 - words[end - 1].x1 < w.size * TOUCH_GAP and _PROSE_RUN.search(w.text) is None

def _operand_after(words: list[Word], i: int) -> bool:
    """words[i] goes on the formula a sign or a name before it leaves open, inside the brackets the
    formula opened: an argument in the text's bold or italic ("n)."), or a sign or a number (the
    exponent's figure after "log2" in `$n^{\\log_{2} 7}$`)."""
    return i < len(words) and (_bracketed_operand(words[i]) or _bridges(words[i]))


def _sentence_comma(before: Word, after: Word, word_gap: float = 0.0) -> bool:
    """A comma or semicolon ending a word in the book's text face (or a face of its prose, _sentence_face,
    its other glyphs in other faces), or a colon glued to figures (_FIGURES_COLON), a word space before
    the next word: the sentence's, between two
    formulas (`$b_{1} = 1$, $b_{2} = z$`, `$K$, $D$` in a theorem's italic).  TeX takes a formula's own comma from a
    maths font and sets a thin space after it; a text face that is the maths roman's too (Computer Modern)
    says nothing, and the comma is not looked at, unless it is glued to the formula's last figures (one
    run of the text face, "1,"), which a formula's comma, from the maths italic, never is."""
    if not before.spans:
        # (a word of figures and a comma in one face, the text's: "stage 1," before `$T_1 = 6$`)
        if not (is_text_face(before.font) and
                (_FIGURES_COMMA.fullmatch(before.text) or _FIGURES_COLON.fullmatch(before.text)
                 or _BRACKET_COMMA.search(before.text))):
            return False
    elif not _sentence_face(before.spans[-1].font.name):
        return False
    elif not (_FIGURES_COLON.fullmatch(before.text) and len(before.spans) > 1) and \
            not (before.spans[-1].text in (",", ";") and len(before.spans) > 1
            # (a script of the text's family after a maths font's letter is the formula's, `$\mu_{0}$,`:
            # prose lowers no figure, and the maths italic's formula takes its comma from that font)
            and not any(face_family(sp.font.name) == face_family(before.spans[-1].font.name)
                        and (sp.size >= before.spans[-1].size * SCRIPT_SIZE
                             or not any(is_math_font(o.font.name) for o in before.spans[:-1]))
                        for sp in before.spans[:-1])) \
            and not (_FIGURES_COMMA.fullmatch(before.text) and all(is_text_face(sp.font.name) for sp in before.spans)) \
            and not _comma_after_maths_point(before) and not _comma_after_bracket(before):
        return False
    # the space after it: a word space (a quarter of an em or so), or in a line set tight, wider than a
    # formula's thin space (a sixth of an em, whatever the line's stretch) and no narrower than the line's
    # word spaces (TeX sets every one of a line by one glue ratio, a little wider after a comma)
    gap = after.x0 - before.x1
    if word_gap > 0 and gap >= word_gap * LINE_SPACE_SHARE and MATHS_SIGNS_APART.get() and before.spans and \
            _FIGURES_COMMA.fullmatch(before.text) and not any(_prose_face(sp.font.name) for sp in before.spans[:-1]):
        # (where the maths sets its own signs and figures, a comma of the sentence's face after figures of
        # the maths' own face is no formula's: a word space of the line after it is enough, however tight
        # the line is set, "are $0.1$, $0.3$ and".  Letters say less: fouriernc's maths sets the text face's
        # comma after its italic letters)
        return True
    return gap > before.size * WORD_SPACE or (
        word_gap > 0 and gap > before.size * THIN_SPACE_MAX and gap >= word_gap * LINE_SPACE_SHARE)


def _comma_after_bracket(w: Word) -> bool:
    """A word ending on a closing bracket (of any face) and a comma or semicolon of a face of prose
    (_sentence_face): TeX's maths takes its comma from the maths italic (Computer Modern's, whose roman
    sets the brackets and the text alike), so the comma after `$(0, 0)$` is the sentence's; where a book's
    maths takes the text's comma, the thin space after it still tells (_sentence_comma's gap)."""
    spans = w.spans
    return len(spans) >= 2 and _BRACKET_COMMA.search(w.text) is not None and \
        _sentence_face(spans[-1].font.name) and not is_math_font(spans[-1].font.name)


_BRACKET_COMMA = re.compile(r"[)\]][,;]$")


def _comma_after_maths_point(w: Word) -> bool:
    """A number whose decimal point is a maths font's, ending on a comma of a face of prose ("0.1," with
    the period from the maths italic): TeX takes a formula's period and comma from one font (the maths
    italic's slots 58 and 59, where newtx and Libertine's maths keep them too), so a comma of another
    face after that period is the sentence's, `$0.1$, $0.8$`.  (Not a semicolon: plain TeX's maths takes
    it from the roman, the text face's in Computer Modern.)"""
    return bool(w.spans) and _FIGURES_COMMA.fullmatch(w.text) is not None and \
        _FIGURES_MARK.fullmatch(w.spans[-1].text) is not None and _sentence_face(w.spans[-1].font.name) and \
        any(sp.text == "." and not _sentence_face(sp.font.name) for sp in w.spans[:-1])


_FIGURES_MARK = re.compile(r"\d*,")


def _formulas_apart(words: list[Word], end: int, word_gap: float) -> bool:
    """Two words of maths, words[end - 1] ending on a letter, a figure or a closing bracket and words[end]
    opening on a letter, a word space apart (and nothing of the words before reaching into it, an
    accent's comma): two formulas.  TeX's maths sets no space between two ordinary atoms (`$GK$` prints
    its letters touching), a thin one after an operator's name, a medium or thick one beside a sign; a
    word space between them is the sentence's ("With $G$ $K$-convex"), on a line of prose (word_gap: its
    word spaces), wider than a thin space and narrower than a quad."""
    # (the glyph before the gap: the word reaching furthest right, an accent's word may end after its letter)
    before = max(words[max(0, end - 3):end], key=lambda w: w.x1)
    after = words[end]
    last, first = before.text[-1:], after.text[:1]
    if not (last.isalnum() or last in ")]") or not first.isalpha():
        return False
    if word_gap <= 0 or any(c in _BIG_OPERATORS for c in before.text) or _OPERATOR_HEAD.match(before.text) or \
            _OPERATOR_HEAD.match(after.text) or before.text.lstrip("([") in OPERATOR_NAMES or \
            after.text.rstrip(".,;:") in OPERATOR_NAMES or not is_math_word(before) or not is_math_word(after):
        return False
    # (both glyphs full size on one baseline: a script ends in TeX's \scriptspace, and a big operator's or
    # a name's limits stand apart from what follows by a thin space and more)
    left = before.spans[-1] if before.spans else before
    right = after.spans[0] if after.spans else after
    if left.size < right.size * SCRIPT_SIZE or right.size < left.size * SCRIPT_SIZE or \
            abs(left.baseline - right.baseline) > right.size * SCRIPT_SHIFT:
        return False
    gap = after.x0 - before.x1
    return before.size * APART_SPACE < gap < before.size * QUAD_GAP and gap >= word_gap * LINE_SPACE_SHARE


def _figures_apart_before(before: Word, first: Word) -> bool:
    """A number of the text face standing a space wider than a thin one before a formula's first word that
    opens on a letter or an opening bracket: the sentence's ("stage 2 ($T_{2} = 2$, …)").  TeX's maths
    sets no space between a figure and an ordinary atom or an opening bracket (`$2(T + 1)$`, `$2x$`), and
    `\\,` at most."""
    glyph = first.spans[0] if first.spans else first
    if _FIGURES.fullmatch(before.text) is None or any(is_math_font(sp.font.name) for sp in before.spans) or \
            not (glyph.text[:1].isalpha() or glyph.text[:1] in "(["):
        return False
    return before.size * APART_SPACE < first.x0 - before.x1 < before.size * QUAD_GAP   # (a word space, no column's)

APART_SPACE = 0.25   # em: wider than the thin spaces `\,` the corpus sets (0.23 em at most, elegantbook's)


def _sentence_face(font: str) -> bool:
    """A face the sentence's marks are set in: the text face, or a face that sets the book's prose
    (prose_faces: the text's italic, in which a theorem's statement is set), no maths font."""
    return is_text_face(font) or (face_family(font) in BOOK_PROSE_FACES.get() and not is_math_font(font))


WORD_SPACE = 0.2    # em: wider than a thin space (a sixth of an em), narrower than a word space (a quarter or more)
THIN_SPACE_MAX = 0.175   # em: a maths thin space (3 mu, a sixth of an em) is no wider than this
LINE_SPACE_SHARE = 0.9   # of the line's word space: a space after a sentence's comma is no narrower than that
_FIGURES_COMMA = re.compile(r"\d+(?:\.\d+)?[,;]")
# (a colon glued to figures: TeX's maths sets its colon as a relation, a thick space either side, and
# amsmath's \colon after a name, `f\colon X \to Y`)
_FIGURES_COLON = re.compile(r"\d+(?:\.\d+)?:")


def line_word_gap(words: list[Word]) -> float:
    """The line's word space: the middle one of the gaps between its words of prose (three lower-case
    letters in a row either side), 0 where it has fewer than three of them."""
    gaps = sorted(b.x0 - a.x1 for a, b in zip(words, words[1:])
                  if _PROSE_RUN.search(a.text) and _PROSE_RUN.search(b.text) and b.x0 > a.x1)
    return gaps[len(gaps) // 2] if len(gaps) >= 3 else 0.0


def _script_base(words: list[Word], start: int) -> bool:
    """A letter alone in the text face with the formula's first word set small and raised against it,
    no word space between: that superscript's base (`$\\mathrm{e}^{-\\rho T}$`, whose upright e is the
    text's roman)."""
    w, script = words[start - 1], words[start]
    size, baseline, _ = _script_part(script)
    return len(w.text) == 1 and w.text.isalpha() and script.x0 - w.x1 < w.size * TOUCH_GAP and \
        size < w.size * 0.85 and w.baseline - baseline > w.size * 0.15


def _script_part(w: Word) -> tuple[float, float, str]:
    """A word's size, baseline and text without the sentence's mark glued after it in a face of prose,
    set at the text's size on the line's baseline: a script's own, "$\mathbf{y}^{\mathrm{goal}}$,"."""
    spans = w.spans or []
    if len(spans) >= 2 and _SENTENCE_MARK.fullmatch(spans[-1].text) and _prose_face(spans[-1].font.name):
        return max(sp.size for sp in spans[:-1]), spans[0].baseline, w.text[:-len(spans[-1].text)]
    return w.size, w.baseline, w.text


def _upright_subscript(w: Word) -> bool:
    """A few upright letters carrying a smaller script set below their baseline, in one word: a formula
    (`$\\mathsf{H}_0$`, `$\\mathrm{EBO}_0$` where the sans or roman is a text face's): prose lowers no
    glyph.  Not a word of prose (three lower-case letters in a row)."""
    if len(w.spans or ()) < 2:
        return False
    first = w.spans[0]
    return _SCRIPT_BASE.fullmatch(first.text) is not None and _PROSE_RUN.search(first.text) is None and \
        any(sp.size < first.size * SCRIPT_SIZE and sp.baseline - first.baseline > first.size * SCRIPT_SHIFT
            for sp in w.spans[1:])


def _glued_script(words: list[Word], i: int) -> bool:
    """words[i] is set small against the word before it, no space between, off its baseline: a script
    of that word, which is a formula's base, a few letters (`$\\mathbf{x}^{(1)}$`, `$\\mathbf{R}^2$` where
    \\mathbf is the text's bold).  Lowered, it is a subscript, which prose never sets; raised, a note's
    mark may stand there, a figure or a symbol of its own series after a word: taken only when it opens
    on a bracket, when the base is a lone bold letter (a vector or a set, no word of prose), or when
    the script is a few letters of the maths' own roman (_maths_roman) over a lone letter or a formula's
    word (`$q^{\\mathrm{S}}$`, `$s^{\\mathrm{in}}$` in mathpazo's roman under a Pagella text): a note's
    mark is set in the text face, and prose sets no glyph of that roman."""
    if not 1 <= i < len(words):
        return False
    w, base = words[i], words[i - 1]
    # (a script stacked over the base's other script, both starting at one place: `$u_{i}^{\\text{open}}$`,
    # whose subscript the text layer reads first; a note's mark never stands over a subscript)
    over_script = i >= 2 and abs(w.x0 - base.x0) < base.size * TOUCH_GAP and base.size < words[i - 2].size * SCRIPT_SIZE \
        and base.baseline - words[i - 2].baseline > words[i - 2].size * SCRIPT_SHIFT
    if over_script:
        base = words[i - 2]
    size, baseline, text = _script_part(w)    # (the sentence's mark glued after it left out)
    if not (w.x0 - base.x1 < base.size * TOUCH_GAP and size < base.size * SCRIPT_SIZE):
        return False
    if _SCRIPT_BASE.fullmatch(base.text) is None or _PROSE_RUN.search(base.text) is not None:
        return False
    shift = baseline - base.baseline
    if shift > base.size * SCRIPT_SHIFT:
        return True
    return shift < -base.size * SCRIPT_SHIFT and (text[:1] in "([" or over_script or (
        len(base.text) == 1 and (base.bold or any(sp.font.bold for sp in base.spans))) or (
        (len(base.text) == 1 or is_math_word(base)) and _SCRIPT_BASE.fullmatch(text) is not None and _maths_roman(w)) or (
        # (upright capitals over a lone letter of the maths: `$V^{\\mathrm{PI}}$`, `$q^{\\mathrm{S}}$` in the text's
        # roman; a note's mark is a figure, a symbol or a lower-case letter)
        len(base.text) == 1 and is_math_word(base) and _CAPITALS.fullmatch(text) is not None))


def _operator_script(words: list[Word], i: int) -> bool:
    """words[i] is a script of a big operator before it (`$\\sum_{k=1}^{\\infty}$` in text style, whose
    "k=1" the text layer gives as a word of the text's italic where the maths italic is the text's): set
    small against the operator's right edge, no space between, off its baseline.  Prose sets no glyph
    against a summation sign."""
    if not 1 <= i < len(words):
        return False
    w = words[i]
    for before in words[max(0, i - 2):i]:
        for op in (before.spans or [before]):
            if op.text not in _BIG_OPERATORS:
                continue
            if abs(w.x0 - op.x1) < op.size * TOUCH_GAP and w.size < op.size * SCRIPT_SIZE and \
                    abs(w.baseline - op.baseline) > op.size * SCRIPT_SHIFT:
                return True
    return False


def _name_over_limit(words: list[Word], i: int) -> bool:
    """words[i] is an operator's name that takes limits (`\\lim`, `\\max`, `\\sup`, …) with a script set
    under it, a word beside it in reading order (`$\\lim\\limits_{n \\to \\infty} \\operatorname{Var}[\\hat{\\mu}_{n}]
    = 0$` in running text, the name in the text's roman): the formula's operator.  Prose sets no glyph
    under a word."""
    if not 0 <= i < len(words) or words[i].text not in LIMIT_NAMES:
        return False
    w = words[i]
    return any(o is not w and o.size < w.size * SCRIPT_SIZE and o.x0 < w.x1 and w.x0 < o.x1 and
               o.baseline - w.baseline > w.size * SCRIPT_SHIFT for o in words[max(0, i - 2):i + 3])


SCRIPT_SIZE = 0.85    # of its base's size: a script is set smaller than this (TeX's 7 on 10 pt)
SCRIPT_SHIFT = 0.1    # em: ... and off its base's baseline by more than this
_SCRIPT_BASE = re.compile(r"[A-Za-z]{1,4}")
_CAPITALS = re.compile(r"[A-Z]{1,4}")


def _maths_bracket(w: Word) -> bool:
    """A word opening on a bracket set in an upright face that sets no prose (_prose_face), then a few
    letters or a number (no prose), where the book's maths takes its signs and brackets from a face of its own
    (MATHS_SIGNS_APART): the bracket is the maths', and the word opens a formula (`$(\\mathbf{A},
    \\mathbf{B})$` with mathpazo's roman brackets and bold letters under a Pagella text, which no glyph of
    a maths font marks).  The text's italic and bold brackets (a theorem's statement) are no evidence."""
    if not MATHS_SIGNS_APART.get() or len(w.spans or ()) < 2:
        return False
    bracket, inner = w.spans[0], w.spans[1]
    if bracket.text not in ("(", "[", "{") or not _maths_delimiter(bracket):
        return False
    if len(w.spans) == 3 and w.spans[2].text == "," and _maths_sign_face(w.spans[2]) and inner.text.isalpha():
        return True     # a name of letters between the maths' bracket and its comma, `$(\mathrm{low}, …$`, `$\{\mathrm{empty}, …$`
    return bracket.text != "{" and _PROSE_RUN.search(inner.text) is None and \
        (_SCRIPT_BASE.fullmatch(inner.text.rstrip(",")) is not None or _FIGURES.fullmatch(inner.text) is not None)


def _maths_sign_face(sp) -> bool:
    """A run set in an upright face that sets no prose (_prose_face): where the book's maths takes its
    signs and brackets from a face of its own, that face's."""
    font = sp.font
    return not (font.italic or font.bold or font.mono) and not _prose_face(font.name)


def _maths_delimiter(sp) -> bool:
    """A bracket of the maths' own face (_maths_sign_face), or a brace of a maths font: TeX takes `\{`
    and `\}` from its symbol font, whose italic slant says nothing of prose."""
    return _maths_sign_face(sp) or sp.text in "{}" and is_math_font(sp.font.name)


def _maths_closing(w: Word) -> bool:
    """A word of letters closing on a bracket of the maths' own face (_maths_sign_face) where the book
    sets its maths signs apart: a name closing the formula's bracket, `…, \mathrm{low})$`, `…,
    \mathrm{full}\}$`; the sentence's mark in a face of prose may follow it, glued ("high),")."""
    spans = w.spans or []
    if len(spans) == 3 and _SENTENCE_MARK.fullmatch(spans[2].text) and _prose_face(spans[2].font.name):
        spans = spans[:2]
    return MATHS_SIGNS_APART.get() and len(spans) == 2 and spans[0].text.isalpha() and \
        spans[1].text in (")", "]", "}") and _maths_delimiter(spans[1])


def _name_after_maths_comma(words: list[Word], end: int) -> bool:
    """words[end] is a word of letters closing on a round or square bracket (the sentence's mark may
    follow), set a thin space or less after a comma of a maths font that ends words[end - 1]: TeX's
    maths sets a thin space after its comma (3 mu, a sixth of an em), where the sentence's comma is
    followed by a word space; the name closes the formula's bracket (`$(\mathrm{small},
    \mathrm{large})$` in Computer Modern, whose brackets and roman are the text's, the comma the maths
    italic's)."""
    before, w = words[end - 1], words[end]
    last = before.spans[-1] if before.spans else before
    font = last.font.name if before.spans else before.font
    return last.text.endswith(",") and is_math_font(font) and \
        w.x0 - before.x1 <= before.size * THIN_SPACE_MAX and _CLOSING_NAME.fullmatch(w.text) is not None


_CLOSING_NAME = re.compile(r"[^\W\d_]{2,}[)\]][.,;:]?")


def _maths_figures(w: Word) -> bool:
    """A number (`_FIGURES`, perhaps signed) whose figures are set in a face that sets no prose (_prose_face; in a roman,
    or in a bold or italic of another family than the text's), where the book's maths takes its signs and figures from a face of
    its own (MATHS_SIGNS_APART): a formula's number (`$0$` in mathpazo's roman, `$\\mathbf{0}$` in its
    bold, under a Pagella text), not the sentence's."""
    signed = w.text[:1] in _BINARY
    if not MATHS_SIGNS_APART.get() or _FIGURES.fullmatch(w.text[1:] if signed else w.text) is None:
        return False
    if not w.spans:
        return _maths_face(w.font, w.bold, w.italic, w.mono)
    # (and a sign glued before them in such a face, "+1" with Computer Modern's plus: `$+1$`)
    figures = [sp for sp in w.spans if any(c.isdigit() for c in sp.text) or signed and sp is w.spans[0]]
    return bool(figures) and all(_maths_face(sp.font.name, sp.font.bold, sp.font.italic, sp.font.mono)
                                 for sp in figures)


def _italic_mark_after_figure(w: Word) -> bool:
    """A word of figures (no word of prose) with a comma or a slash of an italic face glued after an
    upright figure at its size: "(4," and "[3/2," where the maths italic is the text's (Iwona, Kurier).
    TeX's maths takes its comma and slash from the maths italic, prose sets the comma after a figure in
    the figure's face; the word is a formula's."""
    spans = w.spans or []
    if _PROSE_RUN.search(w.text) is not None:
        return False
    return any(mark.text[:1] in (",", "/") and mark.font.italic and not figure.font.italic and figure.text[-1:].isdigit()
               and mark.size >= figure.size * SCRIPT_SIZE and mark.x0 - figure.x1 < figure.size * TOUCH_GAP
               for figure, mark in zip(spans, spans[1:]))

def _sentence_opening(w: Word) -> bool:
    """A word opening on a round or square bracket of a face of prose (_prose_face), more glyphs after it,
    where the book's maths takes its brackets from a face of its own (MATHS_SIGNS_APART): the sentence's
    bracket, glued to the formula it opens on."""
    return MATHS_SIGNS_APART.get() and len(w.spans or ()) >= 2 and w.spans[0].text in ("(", "[") and \
        _prose_face(w.spans[0].font.name)


def _opened_figures(w: Word) -> bool:
    """A number of the maths' own face (_maths_figures) after the sentence's opening bracket
    (_sentence_opening), glued: a formula's figures, "($1.96$ for $\alpha = 0.05$)", "($4$),"."""
    if not _sentence_opening(w):
        return False
    figures = _word_of_spans(w, w.spans[1:])
    # (the sentence's closing bracket may follow, glued: "($4$),")
    return figures is not None and (_maths_figures(figures) or _closing_figures(figures))


def _figures_closing(words: list[Word], end: int) -> bool:
    """words[end] is a number glued to a closing bracket of a face of prose, the sentence's mark perhaps
    after it, its figures the maths' own (_maths_figures) or after a relation sign: the formula's last
    figures, and the bracket the sentence's ("$h_{2} = 10$),")."""
    w = words[end]
    spans = w.spans or []
    if not spans:
        # (the figures and the bracket one run of the text face, "$\\alpha = 0.05$):" in mathpple)
        figures = _figures_before_bracket(w)
        return figures is not None and is_text_face(w.font) and words[end - 1].text in _RELATIONS
    if len(spans) < 2 or _SENTENCE_CLOSE.fullmatch(spans[-1].text) is None or not _prose_face(spans[-1].font.name):
        return False
    return _closing_figures(w) or _FIGURES.fullmatch(w.text[:-len(spans[-1].text)]) is not None and \
        words[end - 1].text in _RELATIONS


def _figures_before_bracket(w: Word) -> str | None:
    """A word's number where the word is a number and then closing brackets (and the sentence's mark),
    "0.05):"; None where it is not."""
    close = _SENTENCE_CLOSE.search(w.text)
    if close is None or close.start() == 0 or _FIGURES.fullmatch(w.text[:close.start()]) is None:
        return None
    return w.text[:close.start()]


def _closing_figures(w: Word) -> bool:
    """A number of the maths' own face (_maths_figures) glued to a closing bracket of a face of prose, the
    sentence's mark perhaps after it: a formula's figures before the sentence's bracket, "(node $1$),"."""
    spans = w.spans or []
    if len(spans) < 2 or _SENTENCE_CLOSE.fullmatch(spans[-1].text) is None or not _prose_face(spans[-1].font.name):
        return False
    figures = _word_of_spans(w, spans[:-1])
    return figures is not None and _maths_figures(figures)


def _maths_figures_apart(words: list[Word]) -> bool:
    """Whether a line's formulas set a figure in a face of their own (_maths_face), where the book's maths
    sets its signs apart (MATHS_SIGNS_APART): mathpazo's figures under a Pagella text, not newpx's, which
    are the text's."""
    return MATHS_SIGNS_APART.get() and any(
        sp.text[:1].isdigit() and _maths_face(sp.font.name, sp.font.bold, sp.font.italic, sp.font.mono)
        for w in words for sp in (w.spans or ()))


def _prose_figures(w: Word) -> bool:
    """A number whose figures are set in a face of prose (_prose_face), on a line whose formulas set
    theirs in a face of their own (_maths_figures_apart): the sentence's ("at stage 2 ($T_{2} = 2$, …)"
    with Pagella's 2 and mathpazo's), never a formula's, however close to one it stands."""
    if not MATHS_SIGNS_APART.get() or _FIGURES.fullmatch(w.text) is None:
        return False
    return all(_prose_face(sp.font.name) for sp in w.spans) if w.spans else _prose_face(w.font)


def _prose_face(font: str) -> bool:
    """Whether a font sets prose: the book's text face, a face that sets the book's prose (prose_faces)
    or the line's words of prose, or a font with no name, which says nothing."""
    face = face_family(font)
    return not font or is_text_face(font) or face in LINE_PROSE_FACES.get() or face in BOOK_PROSE_FACES.get()


# the faces the words of prose of the line being read are set in (prose_with_math sets it)
LINE_PROSE_FACES: ContextVar[frozenset] = ContextVar("LINE_PROSE_FACES", default=frozenset())


def _line_prose_faces(words: list[Word]) -> frozenset:
    """The faces a line's words of prose (four letters in a row, no operator's name: "log" and "diag"
    are the maths roman's) are set in."""
    faces = set()
    for i, w in enumerate(words):
        if w.text.strip(".,;:()[]") in OPERATOR_NAMES:
            continue
        # (nor a word set against a maths font's glyph, no space between: a name the maths applies to its
        # bracket, "diag" before a big bracket of the extension font; prose's words stand a space apart)
        after = words[i + 1] if i + 1 < len(words) else None
        if after is not None and after.x0 - w.x1 < w.size * TOUCH_GAP and \
                is_math_font(after.spans[0].font.name if after.spans else after.font):
            continue
        if not w.spans:
            if _spells_prose(w.text):
                faces.add(face_family(w.font))
            continue
        # (a word glued to a glyph of another face, a bracket or a script, is a name the maths applies,
        # "Beta(2,", "bias(": prose's words stand in one face, but for the sentence's marks)
        marked = {face_family(sp.font.name) for sp in w.spans if not _SENTENCE_MARK.fullmatch(sp.text)}
        if len(marked) == 1:
            faces.update(face_family(sp.font.name) for sp in w.spans if _spells_prose(sp.text))
    return frozenset(faces)


def _in_text_family(font: str) -> bool:
    """Whether a font is of the text face's family, in any weight or shape (its bold, its italic): its
    name before the style ("TeXGyrePagella" of "TeXGyrePagella-Bold")."""
    face = TEXT_FACE.get()
    return bool(face) and face_family(font).split("-", 1)[0] == face.split("-", 1)[0]


def _raised_sign(words: list[Word], end: int) -> bool:
    """words[end] opens on a sign set small and raised against the formula's last glyph, with no word
    space: the formula's superscript in the text face's figures (`$(q-D)^{+}$,` where the plus is the
    roman's; the comma after it is the sentence's).  Signs only: a note's mark is a figure or a symbol
    of its own series, never a plus or a minus."""
    w, before = words[end], words[end - 1]
    first = w.spans[0] if w.spans else w
    return first.text[:1] in _RAISED_SIGNS and w.x0 - before.x1 < before.size * TOUCH_GAP and \
        first.size < before.size * 0.85 and before.baseline - first.baseline > before.size * 0.15


_RAISED_SIGNS = frozenset("+−-⊤")


def _bracketed_operand(w: Word) -> bool:
    """A word of the text's bold or italic letters closing or inside a bracket: an argument (`\\mathbf{p}`)
    of the formula whose brackets are open, where \\mathbf is the text face's bold."""
    return _letter_operand(w, w.text.rstrip(")],.;:"))


def _letter_operand(w: Word, core: str) -> bool:
    """A few letters (`_LEFT_OPERAND`, `core` of the word's text) in the text's bold or italic, no prose."""
    return bool(core) and _LEFT_OPERAND.fullmatch(core) is not None and _PROSE_RUN.search(core) is None and \
        (w.bold or any(sp.font.bold for sp in w.spans[:1]) or italic_operand(w) or _maths_roman(w))


def _maths_roman(w: Word) -> bool:
    """A word set wholly in upright faces that set no prose (_prose_face), where the book's maths takes its
    signs from a face of its own (MATHS_SIGNS_APART): the maths roman's letters, figures and brackets
    (`$\\mathrm{FR}(2) = p(0)$` in mathpazo's roman under a Pagella text)."""
    if not MATHS_SIGNS_APART.get():
        return False
    if not w.spans:
        return not (w.italic or w.bold or w.mono) and not _prose_face(w.font)
    return all(not (sp.font.italic or sp.font.bold or sp.font.mono) and not _prose_face(sp.font.name)
               for sp in w.spans)


def _maths_name(w: Word) -> bool:
    """A word of letters set in the maths' own faces (_maths_face: no face of prose, upright or a bold or
    italic of another family than the text's), its scripts (glyphs set smaller than its first) in any face
    and perhaps the sentence's mark after it in the text face, where the book's maths sets its signs apart
    (MATHS_SIGNS_APART): a formula alone (`$\\operatorname{AIC}$`, `$\\mathbf{x}$` in mathpazo's bold) and a name
    the maths sets in its own roman beside a formula (`$\\operatorname{tr} \\nabla^{2} C$`,
    `$\\operatorname{bias}(\\hat\\theta)$`, `$\\min_{\\mathbf{x}}$`, `$t \\equiv 0 \\pmod R$`, `$\\mathsf{B}
    \\to \\mathsf{A}$` in Computer Modern's sans), the formula's."""
    if not MATHS_SIGNS_APART.get() or not any(c.isalpha() for c in w.text):
        return False
    spans = list(w.spans or ())
    if not spans:
        return _maths_face(w.font, w.bold, w.italic, w.mono)
    if len(spans) > 1 and is_text_face(spans[-1].font.name) and _SENTENCE_MARK.fullmatch(spans[-1].text):
        spans.pop()
    # (and a word of prose hyphenated to it, "$\\mathsf{PSPACE}$-complete": prose_with_math leaves it outside)
    glued = _glued_word(spans)
    if glued is not None and all(_prose_face(sp.font.name) for sp in spans[glued:]):
        spans = spans[:glued]
    first = spans[0]
    return any(c.isalpha() for sp in spans for c in sp.text) and all(
        sp.size < first.size * SCRIPT_SIZE or _maths_face(sp.font.name, sp.font.bold, sp.font.italic, sp.font.mono)
        for sp in spans)


def _maths_face(font: str, bold: bool, italic: bool, mono: bool) -> bool:
    """A face that sets no prose (_prose_face), upright or a bold or italic of another family than the
    text's (mathpazo's bold for `\\mathbf` under a Pagella text), no typewriter: the maths' own."""
    return not mono and not _prose_face(font) and not ((bold or italic) and _in_text_family(font))


_SENTENCE_MARK = re.compile(r"[.,;:]")


def _left_side(words: list[Word], start: int) -> bool:
    """A word of the text's bold or italic letters right before the relation sign a formula opens on:
    that relation's left side (`$\\mathbf{A}\\mathbf{x} \\leq \\mathbf{b}$`, `$\\mathit{VSS} = 3$`, where
    \\mathbf and \\mathit are the text face's), as `_right_side` takes its right: a formula never opens on
    a relation with the sentence before it.  Not a word of prose (three lower-case letters in a row), nor
    one that ends a clause.  Before a binary sign, such letters after an opening bracket: the sign's left
    operand inside the bracket ("(n" of `$(n - 1)/n$`; a sentence's bracket stands a space from its word)."""
    before = words[start - 1]
    if words[start].text in _BINARY and before.text[:1] in "([" and _OPEN_OPERAND.fullmatch(before.text):
        # (a binary sign's left operand in the bracket it opens: "$(n - 1)/n$", the text's bracket and italic)
        return _letter_operand(_word_of_spans(before, before.spans[1:]) if before.spans else before, before.text[1:])
    if words[start].text not in _RELATIONS:
        return False
    return _letter_operand(before, before.text) or _scripted_letter(before)


_OPEN_OPERAND = re.compile(r"[(\[][A-Za-z]")


def _scripted_letter(w: Word) -> bool:
    """A letter with its superscript glued to it, set smaller and raised, in one word, no word of prose:
    `$\\mathrm{e}^{0.6}$` in the text's roman, before the relation a formula opens on."""
    spans = w.spans or []
    if len(spans) < 2 or len(spans[0].text) != 1 or not spans[0].text.isalpha():
        return False
    base = spans[0]
    return _PROSE_RUN.search(w.text) is None and all(
        sp.size < base.size * SCRIPT_SIZE and base.baseline - sp.baseline > base.size * SCRIPT_SHIFT for sp in spans[1:])


# a few letters and figures, perhaps with an argument in brackets, or between bars: "Ax", "VSS", "P(0)",
# "Q(5,2)", "|z|"
_LEFT_OPERAND = re.compile(r"[A-Za-z][A-Za-z0-9]{0,5}(?:\([A-Za-z0-9,.]{1,8}\))?|([|‖])[A-Za-z][A-Za-z0-9]{0,5}\1")


def _text_operand(w: Word) -> bool:
    """A figure, a bracket opening on one, or a word of bold letters (no prose) in the text face: an
    operand where the maths takes its figures and \\mathbf from the text's roman and bold."""
    return _OPEN_FIGURES.fullmatch(w.text) is not None or _FIGURES.fullmatch(w.text) is not None or (
        _FIGURES.fullmatch(_SENTENCE_CLOSE.sub("", w.text)) is not None and _sentence_close(w)) or (
        (w.bold or any(sp.font.bold for sp in w.spans)) and _PROSE_RUN.search(w.text) is None and
        w.text.rstrip(".,;:").isalpha())


def _maths_punctuation(words: list[Word], end: int) -> bool:
    """words[end] is a comma, colon, semicolon or period standing alone in an upright face other than the
    text's, where the book's maths takes its signs from a face of its own (MATHS_SIGNS_APART), and maths
    comes after it (past more such marks: the dots of `\\dots`): the formula's punctuation (`$s_1^2,
    s_2^2$`, `$\\mathsf{H}_0 : \\theta = \\theta_0$`, `$x^{(1)}, \\dots, x^{(n)}$`), where the sentence's is
    the text face's; so is a comma before the maths' ellipsis closing the formula (`$x^{(1)}, \\dots$`)."""
    j = end
    while j < len(words) and j - end < MATHS_PUNCTUATION_RUN and words[j].text in _PUNCTUATION_MARKS and \
            _maths_roman(words[j]):
        j += 1
    # (a comma and then an ellipsis, all of them the maths' own: the list the formula closes on, `$x^{(1)},
    # x^{(2)}, \dots$`, though prose comes after; the sentence's comma and ellipsis are the text face's)
    if words[end].text == "," and j - end >= 4 and _dot_group(words, end + 1):
        return True
    # (a colon ending the line: TeX's maths sets it as a relation, and breaks a formula after a relation
    # only, so the formula goes on overleaf, `$H^{A} = \inf\{n \geq 0 :$` / `$X_{n} \in A\}$`; a comma,
    # punctuation to TeX, is no place to break)
    if j == len(words) and j - end == 1 and words[end].text == ":":
        return True
    if j == end or j >= len(words) or words[j].text in _PUNCTUATION_MARKS:
        return False
    after = words[j]
    return is_math_word(after) or _maths_bracket(after) or _maths_figures(after) or _glued_script(words, j + 1) or \
        _upright_subscript(after) or _bridges(after)


MATHS_PUNCTUATION_RUN = 5     # marks: a comma, the three dots of \dots and a comma


def _relation_colon(words: list[Word], end: int) -> bool:
    """words[end] is a colon standing alone, a space after the formula's last glyph (a relation's thick
    space, 5 mu, or amsmath's `\colon`, 2 mu before it and 6 after), and maths after it (or the line's
    end, where TeX may break after a relation): the formula's (`$\{i : (i, j) \in \mathcal{A}\}$`,
    `$f \colon \mathbb{R} \to \mathbb{R}$`), in whatever face the maths takes it from.  The sentence's
    colon stands against the word before it."""
    w = words[end]
    if w.text != ":" or w.x0 - words[end - 1].x1 < w.size * TOUCH_GAP:
        return False
    if end + 1 == len(words):
        return _maths_roman(w) or is_math_font(w.font)
    after = words[end + 1]
    return is_math_word(after) or _maths_bracket(after) or _maths_figures(after) or _upright_subscript(after)
_PUNCTUATION_MARKS = frozenset((",", ":", ";", "."))


def _maths_dots(words: list[Word], end: int) -> bool:
    """words[end] is a period of an ellipsis (three lone periods set close, `_dot_group`) whose periods
    are all the maths' own roman (_maths_roman), where the book's maths takes its signs from a face of
    its own: the formula's `\\dots` closing it (`$t_{(1)} < t_{(2)} < \\dots$`, `$h = a_1 o_1 a_2 o_2
    \\dots$`), though prose comes after; the sentence's ellipsis is the text face's."""
    return any(_dot_group(words, s) and all(_maths_roman(words[i]) for i in range(s, s + 3))
               for s in (end - 2, end - 1, end))


def _sentence_close(w: Word) -> bool:
    """A word ending on closing brackets of the text face (and the sentence's mark), its other glyphs
    in other faces: the figures of a formula the sentence's bracket closes around (`($h_1 = 4$)`, where
    the maths sets its figures apart from the text)."""
    spans = w.spans or ()
    return len(spans) > 1 and _SENTENCE_CLOSE.fullmatch(spans[-1].text) is not None and \
        is_text_face(spans[-1].font.name) and not any(is_text_face(sp.font.name) for sp in spans[:-1])


def _closes_sentence_bracket(w: Word) -> bool:
    """A formula's last word ending on closing brackets of the text face (and the sentence's mark) that
    may close the sentence's bracket: its other glyphs in other faces (_sentence_close), or its bracket a
    run of its own after glyphs of the text face, "$h_{1} = 4$)" where the maths' figures are the text's
    (newpx); the caller asks that the formula opened no bracket for it to close."""
    spans = w.spans or ()
    return _sentence_close(w) or len(spans) > 1 and _SENTENCE_CLOSE.fullmatch(spans[-1].text) is not None and \
        is_text_face(spans[-1].font.name) and not any(c in "([])" for sp in spans[:-1] for c in sp.text)

# closing brackets and perhaps the sentence's mark after them: "):", ")."
_SENTENCE_CLOSE = re.compile(r"[)\]]+[.,;:?!]?$")


def italic_operand(w: Word) -> bool:
    """A word that may be a formula's operand where the maths italic is the text's own: italic, and no
    word of prose (three lower-case letters in a row)."""
    return (w.italic or any(sp.font.italic for sp in w.spans)) and _PROSE_RUN.search(w.text) is None


_RELATIONS = frozenset("=<>≤≥≠≈≡∼≃∝∈∉⊂⊆⊃⊇→←↦⇒⇔⪯⪰≺≻≪≫")
_BINARY = frozenset("−+×·")
_OPEN_FIGURES = re.compile(r"[(\[]\d[\d.]*,?")
_FIGURES = re.compile(r"\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?[.,;:]?")     # "5/2", "0.101", "42.0."
_BIG_OPERATORS = frozenset("∑∏∐∫∮⋃⋂⨁⨂")
_PROSE_RUN = re.compile(r"[a-z]{3}")


def _brace_depth(w: Word) -> int:
    """How many braces of a maths font (TeX's `\{`, `\}`) a word opens and leaves open (negative: closes)."""
    return sum(sp.text.count("{") - sp.text.count("}") for sp in w.spans if is_math_font(sp.font.name)) if w.spans \
        else (w.text.count("{") - w.text.count("}") if is_math_font(w.font) else 0)


def _bracket_depth(text: str) -> int:
    """How many round or square brackets a word opens and leaves open (negative: closes)."""
    return text.count("(") + text.count("[") - text.count(")") - text.count("]")


OPEN_RELATION_TAIL = 24   # characters: the end of a text looked at, so each line costs the same
# a formula's relation or binary sign and its closing dollar at the end of a line's text ("… $\\frac{a}{b} =$",
# "… $0.3U(2)+$"): TeX breaks an inline formula only after one of those, and the formula goes on overleaf
OPEN_RELATION_RE = re.compile(r"(?:[=<>+\-:]|\\(?:leq|geq|neq|le|ge|ne|in|approx|equiv|sim|simeq|propto|subset|"
                              r"subseteq|supset|supseteq|to|mapsto|Rightarrow|Leftrightarrow|leftarrow|gets|"
                              r"cdot|times|pm|mp|cup|cap|setminus|oplus|otimes|mid|notin|preceq|succeq))\s*\$$")


def left_open(text: str) -> bool:
    """Whether a text ends inside a formula left open on its relation or binary sign ("… $a =$"),
    which the next run of maths goes on (not a display's "$$")."""
    if text.endswith("$$"):
        return False
    if OPEN_RELATION_RE.search(text[-OPEN_RELATION_TAIL:]) is not None:
        return True
    # ... or on a bar that pairs with none before it in the formula: the relation `\mid`, read as "|"
    # ("… $p(d|$"), not the closing bar of `$|x|$`
    if not text.endswith("|$") or text.endswith("\\|$"):
        return False
    start = text.rfind("$", 0, len(text) - 1)
    return start >= 0 and text.count("|", start, len(text)) % 2 == 1


def open_brackets(text: str) -> int:
    """How many brackets the formula a text ends inside (left_open) opened and left open, to be closed
    on the next line ("… $\\mathcal{N}(d \\mid mt +$" leaves one)."""
    if not left_open(text):
        return 0
    start = text.rfind("$", 0, len(text) - 1)
    return max(0, _bracket_depth(text[start + 1:-1])) if start >= 0 else 0


def goes_on_with(text: str, after: str) -> str:
    """A text ending on an open formula and the text that goes on with it ("$…" first) as one: "$a =$"
    and "$b$ and" are "$a = b$ and"."""
    return f"{text[:-1]} {after[1:]}"


def prose_with_math(words: list[Word], bars=(), goes_on: bool = False, opened: int = 0) -> str:
    """A line of prose with its runs of maths as $…$: a run starts at a word set in a math font and takes
    in the signs and numbers beside it; punctuation of the text face at its end stays outside.
    goes_on: the line above ended inside a formula, on its relation sign, so an italic operand
    opening this line is that formula's right side, and so is a figure or a bold letter of the text face
    (TeX breaks an inline formula only after a relation or a binary sign: what opens the next line is
    the formula's); opened: the brackets that formula left open, which a bracket of the text face
    closes on this line (`$\\mathcal{N}(d \\mid mt + c, \\sigma^{2})$` broken after the plus)."""
    token = LINE_PROSE_FACES.set(_line_prose_faces(words))
    try:
        return _prose_with_math(_prose_words_apart(words), bars, goes_on, opened)
    finally:
        LINE_PROSE_FACES.reset(token)


def _end_mark(words: list[Word], k: int) -> bool:
    """words[k] is the mark ending a proof or an example (END_MARK_RE), the line's last word, a quad or more
    after the word before: amsthm sets `\\qed` after `\\hfill\\quad`, where a formula's symbol
    (`$\\Box \\phi$`) stands a space from its neighbours at most; the sentence's, not the formula's it
    follows."""
    return k == len(words) - 1 and k > 0 and END_MARK_RE.fullmatch(words[k].text) is not None and \
        words[k].x0 - words[k - 1].x1 >= words[k].size * END_MARK_QUAD


END_MARK_QUAD = 0.9   # em: the \quad amsthm sets before the end mark at least (its side bearings apart)

def _prose_words_apart(words: list[Word]) -> list[Word]:
    """The line's words, each word of prose the text layer glued to the formula after it given its own
    (_prose_word_glued)."""
    out = []
    for w in words:
        at = _prose_word_glued(w)
        out += [w] if at is None else [_word_of_spans(w, w.spans[:at]), _word_of_spans(w, w.spans[at:])]
    return out


def _prose_word_glued(w: Word) -> int | None:
    """Where a word of prose ends among a word's runs, the text layer having glued it to the formula's
    first letter after it across a space ("first" and the maths italic's d of "the first $d$ terms",
    0.1 em apart where the line's word spaces are 0.17 em): two letters or more of a face of prose
    (_prose_face, no operator's name) and then, on their baseline and at their size, a space after them,
    a letter of a maths font or a lone letter of the text's italic after upright letters ("in place of
    $c$" where the maths italic is the text's).  TeX's maths sets a name of the text's roman against its
    argument either with no space (`\\mathrm{d}x`) or a thin one, which the text layer keeps apart.  None:
    no such place."""
    spans = w.spans or []
    if len(spans) < 2:
        return None
    word, after = spans[0], spans[1]
    if _PROSE_LETTERS.fullmatch(word.text) is None or word.text in OPERATOR_NAMES or is_math_font(word.font.name) \
            or not _prose_face(word.font.name) or not after.text[:1].isalpha():
        return None
    if abs(after.size - word.size) > word.size * (1 - SCRIPT_SIZE) or \
            abs(after.baseline - word.baseline) > word.size * SCRIPT_SHIFT or \
            after.x0 - word.x1 < word.size * GLUED_WORD_SPACE:
        return None
    letter = is_math_font(after.font.name) or (
        after.font.italic and not word.font.italic and len(after.text) == 1 and _in_text_family(after.font.name))
    return 1 if letter else None


_PROSE_LETTERS = re.compile(r"[^\W\d_]{2,}")
GLUED_WORD_SPACE = 0.01   # em: a space the text layer glued across; a name set against its argument stands at 0

def _prose_with_math(words: list[Word], bars, goes_on: bool, opened: int) -> str:
    """prose_with_math's reading, with the line's faces of prose known (LINE_PROSE_FACES)."""
    out: list[str] = []
    k = 0
    n = len(words)
    word_gap = line_word_gap(words)
    figures_apart = _maths_figures_apart(words)
    prose_open = 0     # brackets the line's prose opened and left open so far ("(stage 1, … $h_1 = 4$)")
    while k < n:
        w = words[k]
        if _end_mark(words, k):
            out.append(w.text)
            k += 1
            continue
        if not is_math_word(w) and not (_accents(w, words[k + 1] if k + 1 < n else None)) and \
                not (k == 0 and goes_on and (italic_operand(w) or _text_operand(w))) and \
                not _upright_subscript(w) and not _glued_script(words, k + 1) and not _maths_bracket(w) and \
                not _maths_figures(w) and not _maths_name(w) and not _opened_figures(w) and \
                not _italic_mark_after_figure(w) and \
                not (prose_open > 0 and _closing_figures(w)):
            out.append(w.text)
            prose_open = max(0, prose_open + _bracket_depth(w.text))
            k += 1
            continue
        start = k
        # signs and numbers just before the maths ("1 − p" where only p is italic)
        # (not a numbered step's label opening the line: "5:" before "N(s, a) ← 0")
        # (and the left side of a relation the run opens on, in the text's bold or italic: "$\\mathbf{E}\\mathbf{z}
        # = \\mathbf{e}$" where \\mathbf is the text face's bold)
        while start > 0 and len(out) > 0 and ((_bridges(words[start - 1])
                                               and not _sentence_comma(words[start - 1], words[start], word_gap)
                                               and not (figures_apart and _prose_figures(words[start - 1]))
                                               and not _figures_apart_before(words[start - 1], words[start]))
                                              or _left_side(words, start)
                                              # (an ellipsis between the formula's terms, the first of them before
                                              # it: "$1, \\dots, j$" whose figure, comma and dots are the text's)
                                              or _in_ellipsis(words, start - 1)
                                              or _script_base(words, start)
                                              or _maths_name(words[start - 1])) \
                and out[-1] == words[start - 1].text and not (start == 1 and re.fullmatch(r"\d+:", words[0].text)):
            start -= 1
            out.pop()
        # a word of prose hyphenated before the formula ("Level-$k$") stays outside it
        lead = _prose_lead(words[start])
        lead_text = "".join(sp.text for sp in words[start].spans[:lead]) if lead else ""
        end = k + 1
        # brackets the run opened and has not closed: a closing bracket after it is the formula's
        # (`$\mathcal{N}(\mu, \sigma^2)$`, whose ")" is set in the text face)
        depth = sum(_bracket_depth(x.text) for x in words[start:end]) + (opened if start == 0 and goes_on else 0)
        braces = sum(_brace_depth(x) for x in words[start:end])     # ... and the maths' braces it left open
        # (the sentence's bracket the run opens on, where the maths sets its brackets and figures in a face
        # of its own: its commas are the sentence's then, "($T_{2} = 2$, $h_{2} = 10$)")
        sentence_open = 1 if figures_apart and not lead and _sentence_opening(words[start]) else 0
        # (... and where its figures are the text's, a bracket of a face of prose the run opens on is the
        # sentence's once the sentence's comma stands inside it: "($T_{2} = 2$, $h_{2} = 10$)" in newpx)
        bracket_open = not sentence_open and not lead and _sentence_opening(words[start])
        # (a word of the text glued to the formula's last glyphs ends it: "$K$-convex $g$")
        # (and so does a word space between two ordinary glyphs, which TeX's maths never sets: "$G$ $K$-convex")
        while end < n and not _note_mark(words[end], words[end - 1]) and not _end_mark(words, end) and _glued_word(words[end - 1].spans or []) is None and \
                not _formulas_apart(words, end, word_gap) and \
                not (depth + braces - sentence_open - bracket_open <= 0
                     and _sentence_comma(words[end - 1], words[end], word_gap)
                     # (a list of numbers in one face, the text's, goes on past its commas: `$k = 0, 1, 2,
                     # \dots$`; where the figures are the maths' and the comma the text's, "$3$, $4$")
                     and not _closing_dots(words, end)
                     and (bool(words[end - 1].spans) or _FIGURES.fullmatch(words[end].text) is None)) and (is_math_word(words[end]) or _accents(words[end], words[end - 1]) or (_bridges(words[end]) and (
                end + 1 < n and is_math_word(words[end + 1]) or re.fullmatch(r"/?[\d.,]+[.,;:]?|[=<>+−×·]", words[end].text)))
                or (depth > 0 and _bridges(words[end]) and _bracket_depth(words[end].text) < 0)
                # (... or a word opening on the bracket that closes them, set against the formula's last
                # glyph: "$(TV')(\\mathbf{s})$." whose brackets are the text's roman and s its bold)
                or (depth > 0 and _closing_glued(words, end))
                # (an operator's name inside them, an operand or its scripts after it: "$\\Theta(n \\log n)$",
                # whose log is the text face's roman and n the text's italic)
                or (depth > 0 and _bridges(words[end]) and _operand_after(words, end + 1))
                # (an argument in the text's bold or italic inside the brackets the run opened: "(x, p)")
                or (depth > 0 and _bracketed_operand(words[end]))
                # (the maths' figures closing the sentence's bracket its prose opened: "$h_{2} = 10$),")
                or (depth - sentence_open <= 0 < prose_open + sentence_open and _figures_closing(words, end))
                # (a name closing them on the maths' own bracket: "(low, low)")
                or ((depth > 0 or braces > 0) and _maths_closing(words[end]))
                # (... and a term closing the maths' own brace, TeX's `\}` from its symbol font: "n},")
                or (braces > 0 and _brace_depth(words[end]) < 0)
                # (... or one a thin space after the maths' comma, whatever face its bracket: "(small, large)")
                or (depth > 0 and _name_after_maths_comma(words, end))
                # (a comma standing alone inside the brackets the run opened, between its arguments: "(s′ , r)")
                or (depth > 0 and words[end].text == "," and end + 1 < n
                    and (is_math_word(words[end + 1]) or _bridges(words[end + 1]) or _bracketed_operand(words[end + 1])))
                or _in_ellipsis(words, end)
                or (words[end].text == "," and end + 1 < n and _in_ellipsis(words, end + 1))    # (the comma before it)
                or _closing_ellipsis(words, start, end)
                or _touching_bracket(words, end)
                or _right_side(words, end)
                or _raised_sign(words, end)
                or _glued_script(words, end)
                or _operator_script(words, end)
                or _name_over_limit(words, end)
                # (... and the operand after it, no word of prose: "Var[μ" of `\\operatorname{Var}[\\hat{\\mu}_{n}]`)
                or (_name_over_limit(words, end - 1) and _PROSE_RUN.search(words[end].text) is None)
                or _maths_punctuation(words, end)
                or _relation_colon(words, end)
                or _maths_dots(words, end)
                or _maths_name(words[end])
                or _italic_mark_after_figure(words[end])):
            depth += _bracket_depth(words[end].text)
            braces += _brace_depth(words[end])
            end += 1
        if bracket_open and depth + braces == 1 and end < n and _sentence_comma(words[end - 1], words[end], word_gap):
            sentence_open = 1
        run = words[start:end]
        if lead:
            run = [_word_of_spans(run[0], run[0].spans[lead:])] + run[1:]
        tail = ""
        last = run[-1]
        spans = last.spans or []
        # (a run closing on an ellipsis: its last period is no full stop)
        on_dots = _closing_dots(run, len(run) - 3)
        # a word of the text face hyphenated to the formula ("$n$-tuples", "$K$-convex") is prose, and so are
        # its possessive ("$i$'s": the text face's apostrophe, where TeX's maths sets a prime from its
        # symbol font), a closing quotation mark and an ordinal's letters ("$i$th")
        glued = _glued_word(spans)
        bridge = _hyphenated_between(spans)
        if on_dots and len(last.text) == 2:
            # (the sentence's mark glued to the ellipsis's last period)
            tail = last.text[1]
            if not spans:
                run = run[:-1] + [_word_like(last, ".")]
            elif len(spans[-1].text) == 1:
                run = run[:-1] + [_word_of_spans(last, spans[:-1])]
            else:
                run = run[:-1] + [_word_of_spans(last, spans[:-1] + [_span_without_last(spans[-1])])]
        elif glued is not None:
            tail = "".join(sp.text for sp in spans[glued:])
            run = run[:-1] + [_word_of_spans(last, spans[:glued])]
        elif bridge is not None:
            # (... and one joining two formulas, "$k$-out-of-$n$": the second is served after it)
            second = inline_latex([_word_of_spans(last, spans[bridge + 1:])], bars)
            tail = spans[bridge].text + (f"${second}$" if second else "")
            run = run[:-1] + [_word_of_spans(last, spans[:bridge])]
        elif end == n and _hyphen_ending_line(spans):
            # (... and so is the hyphen of such a word where TeX broke the line after it: "$K$-" / "convex")
            tail = spans[-1].text
            run = run[:-1] + [_without_last_span(last)]
        # the text face's closing bracket that closes no bracket of the formula, where the line's prose
        # opened one, is the sentence's (and so is the mark after it): "($\\alpha = 0.05$):" where the figures are the maths' and the bracket the text's
        elif spans and not on_dots and prose_open > 0 and _closes_sentence_bracket(last) and \
                sum(_bracket_depth(x.text) for x in run[:-1]) + _bracket_depth(last.text[:-len(spans[-1].text)]) + \
                (opened if start == 0 and goes_on else 0) == 0:
            tail = spans[-1].text
            run = run[:-1] + [_without_last_span(last)]
            prose_open -= 1
        # the text face's full stop or comma after a formula belongs to the sentence (not the maths' own
        # roman's "!" glued to it: a factorial, `$n!$`)
        elif spans and not on_dots and not is_math_font(spans[-1].font.name) and re.fullmatch(r"[.,;:?!]+", spans[-1].text) \
                and not _factorial(spans[-1]):
            tail = spans[-1].text
            run = run[:-1] + [_without_last_span(last)]
        elif not spans and not on_dots and prose_open > 0 and _figures_before_bracket(last) is not None and \
                sum(_bracket_depth(x.text) for x in run[:-1]) + (opened if start == 0 and goes_on else 0) == 0:
            # (... one run of the text face with the figures before it: "($\\alpha = 0.05$):")
            figures = _figures_before_bracket(last)
            tail = last.text[len(figures):]
            run = run[:-1] + [_word_like(last, figures)]
            prose_open -= 1
        elif not spans and not on_dots and re.search(r"[.,;:]$", last.text) and not is_math_word(last) and \
                not (end == n and last.text == ":" and _maths_roman(last)):     # (the maths' colon, broken after)
            tail = last.text[-1]
            run = run[:-1] + [_word_like(last, last.text[:-1])]
        # ... also glued to the text face's closing bracket or figure that ends the formula
        # (`$\bm{\lambda}(t)$,` whose last run is "),", `$\gamma = 0.9$:`)
        elif spans and not on_dots and _closing_punctuation(spans[-1]):
            tail = spans[-1].text[-1]
            run = run[:-1] + [_word_of_spans(last, spans[:-1] + [_span_without_last(spans[-1])])]
        # (an accent read after the letter it stands over, the sentence's mark glued to that letter: "$\\hat{d}$,")
        if not tail and len(run) >= 2 and run[-1] is not None and run[-2] is not None and \
                _accents(run[-1], run[-2]) and len(run[-2].spans or ()) > 1 and \
                not is_math_font(run[-2].spans[-1].font.name) and re.fullmatch(r"[.,;:?!]+", run[-2].spans[-1].text):
            tail = run[-2].spans[-1].text
            run = run[:-2] + [_without_last_span(run[-2]), run[-1]]
        # (the sentence's mark glued to a word read before the run's last, where a glyph read after it
        # stands above or below that word: a wide accent's "^," before the letter under it, a subscript's
        # "ij," before the superscript over it; right of every other glyph of the formula, it is the
        # sentence's: "$\widehat{\mathbf{F}}$,", "$c_{ij}^{\ell}$,")
        past = None if tail else _mark_past_the_run(run)
        if past is not None:
            tail = run[past].spans[-1].text
            run = run[:past] + [_without_last_span(run[past])] + run[past + 1:]
        elif not tail and _word_past_the_accent(run, word_gap):
            # (the sentence's next word, glued by the text layer to a wide accent reaching over it)
            tail = " " + run[-1].spans[-1].text
            run = run[:-1] + [_without_last_span(run[-1])]
        run, opening, closing = _sentence_brackets([r for r in run if r is not None and r.text])
        if sentence_open and not opening and run and run[0].spans and _sentence_opening(run[0]) and \
                sum(_bracket_depth(r.text) for r in run) > 0:
            # (the sentence's bracket, left open for a later formula or the prose to close)
            opening = run[0].spans[0].text
            run = [_word_of_spans(run[0], run[0].spans[1:])] + run[1:]
            prose_open += 1
        latex = inline_latex(run, bars)
        # a sentence's mark standing apart after an ellipsis that closes the formula (amsmath's `\\dots`
        # before a comma or colon ends in a thin space): the sentence's, glued to the formula
        if on_dots and not tail and end < n and _DOT_MARK.fullmatch("." + words[end].text) and \
                words[end].text != "." and words[end].x0 - words[end - 1].x1 < words[end].size * ELLIPSIS_GAP:
            tail = words[end].text
            end += 1
        if latex and out and left_open(out[-1]) and not opening and not lead_text:
            out[-1] = goes_on_with(out[-1], f"${latex}${tail}")     # the run before ended on its sign
        else:
            out.append(f"{lead_text}{opening}${latex}${closing}{tail}" if latex else
                       lead_text + opening + "".join(r.text for r in run if r is not None) + closing + tail)
        k = end
    return " ".join(out)


_CLOSER = {"(": ")", "[": "]"}


def _mark_past_the_run(run: list) -> int | None:
    """Which word of a run, not its last, ends on a mark of a face of prose (a full stop, a comma, a
    semicolon or a colon, not a maths font's) standing right of every other glyph of the run: the
    sentence's mark after the formula, glued to a word the text layer reads before a glyph stacked
    over or under it.  None: no such word."""
    words = [w for w in run if w is not None]
    for i, w in enumerate(words[:-1]):
        if len(w.spans or ()) < 2:
            continue
        mark = w.spans[-1]
        if is_math_font(mark.font.name) or not _SENTENCE_MARK.fullmatch(mark.text):
            continue
        right = max([o.x1 for o in words if o is not w] + [sp.x1 for sp in w.spans[:-1]])
        if mark.x0 >= right - mark.size * MARK_OVERLAP:
            return run.index(w)
    return None


MARK_OVERLAP = 0.05   # em: a mark's box may reach this far back over the glyph it follows (side bearings)


def _word_past_the_accent(run: list, word_gap: float) -> bool:
    """Whether a run's last word is accents of a maths font (no letter nor figure) and then a word of
    letters of a face of prose, a word space right of every other glyph of the run: a wide accent over
    the formula's last letter reaches past it, and the text layer glued the sentence's next word to it
    ("a candidate $\widehat{S}$ is from the best", read "S", "^is")."""
    words = [w for w in run if w is not None]
    spans = words[-1].spans or [] if words else []
    if len(words) < 2 or len(spans) < 2:
        return False
    word, under = spans[-1], words[-2]
    if is_math_font(word.font.name) or not _prose_face(word.font.name) or _PROSE_WORD_AFTER.fullmatch(word.text) is None:
        return False
    # (an accent: a maths font's glyph, no letter nor figure, raised off the baseline over the word before,
    # reaching back over it; a minus after a relation stands on the axis, after its space)
    if not all(is_math_font(sp.font.name) and not any(c.isalnum() for c in sp.text) and sp.x0 < under.x1 and
               sp.baseline < word.baseline - word.size * SCRIPT_SHIFT for sp in spans[:-1]):
        return False
    gap = word.x0 - max(o.x1 for o in words[:-1])
    return gap > word.size * WORD_SPACE or (word_gap > 0 and gap >= word_gap * LINE_SPACE_SHARE)


_PROSE_WORD_AFTER = re.compile(r"[^\W\d_]{2,}[.,;:]?")


def _prose_lead(w: Word) -> int:
    """How many of a formula's first word's runs are a word of prose hyphenated to it: letters of a face
    that sets prose (_prose_face) ending on a hyphen or a dash ("Level-$k$", "Bexley–$D_1$": TeX's minus
    is the maths symbol font's, never a prose face's hyphen).  0: none.  (A bracket of the text face
    after prose letters says nothing: fouriernc and unicode-math set `\\operatorname{Beta}(` so.)"""
    spans = w.spans or []
    i = 0
    while i < len(spans) and _prose_face(spans[i].font.name) and spans[i].font.name and \
            not is_math_font(spans[i].font.name) and _LEAD_LETTERS.fullmatch(spans[i].text):
        i += 1
    if i == 0 or i == len(spans):
        return 0
    lead = "".join(sp.text for sp in spans[:i])
    # (or on a slash, where the maths takes its signs from a face of its own, its slash among them:
    # "M/M/$c$", a queue's name in the text face before the maths italic's c)
    return i if _HYPHENATED_LEAD.fullmatch(lead) or MATHS_SIGNS_APART.get() and _SLASHED_LEAD.fullmatch(lead) else 0


_LEAD_LETTERS = re.compile(r"[^\W\d_]+[-–]?|(?:[^\W\d_]+/)+")
_HYPHENATED_LEAD = re.compile(r"[^\W\d_]+[-–]")
_SLASHED_LEAD = re.compile(r"(?:[^\W\d_]+/)+")


def _factorial(sp) -> bool:
    """An exclamation mark set in an upright face that sets no prose (_prose_face), where the book's
    maths takes its signs from a face of its own (MATHS_SIGNS_APART): TeX's factorial, `$n!$`, taken from
    the maths roman; the sentence's "!" is the text face's."""
    font = sp.font
    return sp.text == "!" and MATHS_SIGNS_APART.get() and not (font.italic or font.bold or font.mono) and \
        not _prose_face(font.name)


def _sentence_brackets(run: list[Word]) -> tuple[list[Word], str, str]:
    """A run of maths opening on a bracket of the text face and closing on its match, with no other
    glyph of the text face between: the sentence's brackets around a formula ("few ($F$) or many ($M$)"),
    where the book's maths takes its own brackets from another face (MATHS_SIGNS_APART), or round a
    single letter with its scripts wherever the maths takes them (_lone_atom).  The run without them,
    and the two brackets (or the run as it was and no brackets)."""
    if not run:
        return run, "", ""
    # (a bracket is a run of its word's, or a word of its own where a space parts it from the letter)
    first, last = (run[0].spans or [run[0]])[0], (run[-1].spans or [run[-1]])[-1]
    if first.text not in _CLOSER or last.text != _CLOSER[first.text] or first is last or \
            not is_text_face(_font_name(first)) or not is_text_face(_font_name(last)):
        return run, "", ""
    inside = [sp for w in run for sp in (w.spans or [w]) if sp is not first and sp is not last]
    texts = [sp for sp in inside if is_text_face(_font_name(sp))]
    lone = _lone_atom(inside)
    # (a lone letter's script may be the text face's figure at the script size, `$s_1$` in Computer
    # Modern: any other glyph of the text face between the brackets is the sentence's, and so are they)
    if texts and (not lone or texts[0] is inside[0]) or not (MATHS_SIGNS_APART.get() or lone):
        return run, "", ""
    pieces = [sp.text for sp in inside]
    depth = 0
    for ch in "".join(pieces):          # the brackets inside stay balanced: the two are a pair
        depth += (ch in "([") - (ch in ")]")
        if depth < 0:
            return run, "", ""
    if depth:
        return run, "", ""
    inner = [_word_of_spans(w, [sp for sp in w.spans if sp is not first and sp is not last]) if w.spans else
             None if w is first or w is last else w for w in run]
    return [w for w in inner if w is not None], first.text, last.text


def _font_name(piece) -> str:
    """The font of a word's run, or of a word the text layer kept no runs for."""
    return piece.font if isinstance(piece, Word) else piece.font.name


def _lone_atom(spans: list) -> bool:
    """Runs of maths glyphs that make one letter and its scripts: a letter (Latin or Greek) at the
    size of the line, then only glyphs set smaller or raised (its subscript, its superscript, a prime).
    TeX's maths sets no bracket round a lone variable (`$(f)$` prints as "(f)" and says nothing a reader
    needs): brackets of the text face round one are the sentence's ("a calm line ($c$)"), whichever
    face the maths takes its own brackets from."""
    if not spans or len(spans[0].text) != 1 or not spans[0].text.isalpha():
        return False
    nucleus = spans[0]
    return all(len(sp.text) <= 3 and (sp.size <= nucleus.size * SCRIPT_SIZE or sp.text in _PRIMES)
               and not any(ch in _ATOM_BREAKS for ch in sp.text) for sp in spans[1:])


_PRIMES = frozenset(("′", "'", "″", "′′"))
_ATOM_BREAKS = frozenset("()[],;=+−-<>")   # a sign, a comma or a bracket: more than one atom


def _glued_word(spans: list) -> int | None:
    """Where a word of the text glued to the formula's last glyphs starts among a word's runs ("$n$-tuples",
    "$i$'s", "$i$th"), or None."""
    return next((i for i in range(1, len(spans)) if (spans[i].text.startswith(("-", "’", "'", "”")) or
                                                     _ORDINAL.fullmatch(spans[i].text) and
                                                     spans[i].baseline <= spans[i - 1].baseline + spans[i].size * 0.1)
                 and not any(is_math_font(sp.font.name) for sp in spans[i:])
                 and _GLUED_WORD.fullmatch("".join(sp.text for sp in spans[i:]))), None)


def _hyphenated_between(spans: list) -> int | None:
    """Which of a word's runs is a compound's words of prose between two formulas, glued to both by its
    hyphens ("$k$-out-of-$n$", "$n$-by-$n$"): letters of a face of prose opening and closing on a hyphen,
    after a maths font's glyph and before a last run of a maths font's letter.  TeX's minus is the maths
    symbol font's, never a face of prose's hyphen.  None: no such run."""
    if len(spans) < 3:
        return None
    i = len(spans) - 2
    middle, first, last = spans[i], spans[i - 1], spans[-1]
    if _HYPHENATED_WORDS.fullmatch(middle.text) is None or is_math_font(middle.font.name) or \
            not _prose_face(middle.font.name) or not is_math_font(first.font.name) or \
            not is_math_font(last.font.name) or not last.text[:1].isalpha():
        return None
    return i


_HYPHENATED_WORDS = re.compile(r"-(?:[^\W\d_]+-)+")

LINE_END_HYPHEN_TOUCH = 0.1   # em: the text's hyphen after a formula touches its last glyph, closer than this


def _hyphen_ending_line(spans: list) -> bool:
    """Whether a word's last run, at the line's end, is the text face's hyphen touching the formula's last
    glyph: a compound's hyphen after a formula ("$K$-convex") broken after it, not the maths' minus, which
    TeX sets from a maths font (U+2212) a medium space (4/18 em) after the glyph before it, a binary sign."""
    if len(spans) < 2 or spans[-1].text not in ("-", "\u2010") or is_math_font(spans[-1].font.name):
        return False
    return spans[-1].x0 - spans[-2].x1 < spans[-1].size * LINE_END_HYPHEN_TOUCH


_GLUED_WORD = re.compile(r"(?:[-’'][^\W\d_]+)+[.,;:]?|[’”]+[.,;:]?|(?:th|st|nd|rd)[.,;:]?")
_ORDINAL = re.compile(r"(?:th|st|nd|rd)[.,;:]?")


def _closing_punctuation(sp) -> bool:
    """A run of the text face ending a formula on a closing bracket or a figure and then a sentence's
    punctuation ("),", "0.9:"): that last mark is the sentence's."""
    text = sp.text
    return len(text) > 1 and text[-1] in ".,;:?" and (text[-2] in ")]" or text[-2].isdigit()) and \
        not is_math_font(sp.font.name) and (sp.raw or text)[-1] == text[-1]


def _span_without_last(sp):
    """A span without its last glyph."""
    from dataclasses import replace

    boxes = sp.boxes[:-6] if sp.boxes is not None and len(sp.boxes) >= 12 else None
    x1 = boxes[-5] if boxes is not None else sp.x1 - (sp.x1 - sp.x0) / len(sp.text)
    return replace(sp, text=sp.text[:-1], x1=x1, boxes=boxes, raw=sp.raw[:-1] if sp.raw else None)


def _without_last_span(w: Word) -> Word | None:
    return _word_of_spans(w, w.spans[:-1])


def _word_of_spans(w: Word, spans: list) -> Word | None:
    if not spans:
        return None
    return Word("".join(s.text for s in spans), spans[0].x0, spans[-1].x1, min(s.top for s in spans),
                max(s.bottom for s in spans), w.size, w.bold, w.mono, w.italic, w.font, w.baseline, spans)


def _word_like(w: Word, text: str) -> Word:
    return Word(text, w.x0, w.x1, w.top, w.bottom, w.size, w.bold, w.mono, w.italic, w.font, w.baseline, [])


# --------------------------------------------------------------------------- typeset algorithms
def algorithm_text(lines: list, bars=()) -> str:
    """Pseudocode set in text and math faces, line by line: each line indented by its distance from the
    body's left edge (a space per half em), its keywords and comments as printed, its maths as $…$."""
    lines = [l for l in lines if l.words]
    if not lines:
        return ""
    left = min(l.x0 for l in lines)
    sizes = sorted(l.size for l in lines)
    em = sizes[len(sizes) // 2] or 10.0
    out = []
    for line in lines:
        indent = " " * max(0, round((line.x0 - left) / (em * 0.5)))
        out.append(indent + prose_with_math(sorted(line.words, key=lambda w: w.x0), bars))
    return "\n".join(out)



# --------------------------------------------------------------------------- display blocks
SENTENCE_OPENING = 3    # words of text opening a line that ends as a sentence make it one
ITEM_WORD_RE = re.compile(r"[A-Za-z][a-z]+(?:-[a-z]+)*[,.;:]?")   # a word of text, hyphenated or not


CELL_GAP = 1.0   # em: words this far apart are an array's cells (a header row), not a phrase's words


def _cells_apart(line, body: float) -> bool:
    """Words set a column gap apart (an em or more, twice a word space at the least): cells of a row."""
    words = line.words
    return any(b.x0 - a.x1 >= body * CELL_GAP for a, b in zip(words, words[1:]))


QUAD_GAP = 0.8   # em: a \quad (an em) stands between a display row's words; prose's spaces are a third of that


def worded_row(line, body: float) -> bool:
    """A line mostly of maths whose opening word stands a quad from what follows: a display's row
    that opens with a word ("minimize  ∑ U(s)", "subject to  U(s) ≥ …"), or a table's."""
    return math_share(line.words) >= 0.5 and \
        any(b.x0 - a.x1 >= body * QUAD_GAP for a, b in zip(line.words[:3], line.words[1:4]))


APPLIED_GAP = 0.1   # em: less than any word space: a name and the bracket of its argument


def _brace_piece(word) -> bool:
    """Whether a word holds a horizontal brace's pieces (over- or underbrace)."""
    return any(c in word.text for c in "⏟⏞")


def _brace_note(note: list, brace: list[float], ink_top: float, ink_bottom: float, body: float) -> bool:
    """Whether words (a run of one line, whose ink spans `ink_top`..`ink_bottom`) are a horizontal
    brace's note (the brace's x0, x1, top, bottom): within its reach or centred on it, just under it
    or just over it."""
    x0, x1 = note[0].x0, note[-1].x1
    left, right, top, bottom = brace
    # (a brace's glyph box may reach a little into its note: a font's box is not its ink)
    # (TeX centres the note on the brace; a note of words may be the wider of the two)
    centred = abs((x0 + x1) - (left + right)) / 2 <= body
    return (left - body <= x0 and x1 <= right + body or centred) and \
        (-body * 0.25 <= ink_top - bottom < body * 1.2 or -body * 0.25 <= top - ink_bottom < body * 1.2)


SCATTERED_GAP = 2.0   # em: words of running text never all stand this far apart
NOTE_WORD_SPACE = 0.6  # em of its words: a note's words are set no further apart (a word space is a third)
BRACE_LINES_ABOVE = 2  # lines: a brace's pieces over its note, another note's line between (notes set side by side)


def is_prose_line(line, column: tuple[float, float], body: float) -> bool:
    """A line of running text, not a display row: it starts at the column's left edge (or runs to
    its right edge) and holds several words of letters in a text face."""
    words = [w for w in line.words if re.fullmatch(r"[A-Za-z][a-z]+[,.;:]?|[a-z]", w.text)
             and not is_math_word(w) and w.text.rstrip(",.;:") not in OPERATOR_NAMES]
    left, right = column
    starts_left = line.x0 <= left + body * 1.5
    full = starts_left and line.x1 >= right - body * 2
    if re.fullmatch(r"\d+:", line.words[0].text):
        return True       # a numbered line of pseudocode (at the column's edge, or a box's inside it)
    if any(display_operator(w, body) for w in line.words):
        return False      # a big operator in its display form, which running text never sets (a multline's
                          # first row opening with "minimize", set in by \multlinegap as a paragraph is)
    if len(line.words) >= 2 and all(b.x0 - a.x1 >= body * SCATTERED_GAP for a, b in zip(line.words, line.words[1:])):
        return False      # pieces far apart, each under its own fraction or bar: a display's denominators
                          # (an italic "dp" from a maths italic that is the text's own, mathpazo's)
    first = line.words[0]
    # (a name set against the bracket after it, no word space between, is an operator's applied to its
    # argument: "Var[D] = …" opens a display set flush left, not a sentence)
    applied = len(line.words) > 1 and line.words[1].x0 - first.x1 < body * APPLIED_GAP and \
        line.words[1].text[:1] in "([{"
    if line.x0 <= left + body * 2 and re.fullmatch(r"[A-Za-z][a-z]+[,.;:]?", first.text) and not is_math_word(first) \
            and first.text.rstrip(",.;:") not in OPERATOR_NAMES and not applied \
            and not (line.x0 > left + body * 1.5 and worded_row(line, body)):
        # text starts at the column's edge (or a paragraph's indent): prose goes on; not a line set in,
        # mostly maths, whose opening word stands a quad from what follows: a display's row that opens
        # with a word ("minimize  ∑ U(s)", "subject to  U(s) ≥ …")
        return True
    worded = [w for w in line.words if re.fullmatch(r"[(\[]?[A-Za-z][a-z]+[)\],.;:]*", w.text)
              and w.text.strip("()[],.;:") not in OPERATOR_NAMES]
    if len(worded) >= 2 and not any(is_math_word(w) for w in line.words) and not _cells_apart(line, body):
        return True       # words and no maths at all: a lead-in set apart ("subject to linear constraints")
    if line.x0 <= left + body and any(len(w.text.rstrip(",.;:")) > 1 and w.size >= body * 0.9 for w in words) \
            and math_share(line.words) < 0.5:
        return True       # flush with the column and worded: text, a list item (a word of the text's size,
                          # not a letter alone nor a script's \text: a multline's first row, set in by its
                          # 10 pt gap, its letters the text face's, mathastext's or a bold \mathbf{a}'s)
    ending = line.words[-2:]
    if starts_left and len(line.words) > 2 and ending[-1].text[-1:] in ",.;:" and \
            all(w in worded and not is_math_word(w) for w in ending):
        return True       # flush with the column, ending in words of the text face and a stop: a sentence's
                          # end ("(Q_k, r_k)^T barely moves," over the display it leads to)
    opening = line.words[:SENTENCE_OPENING]
    if len(line.words) > SENTENCE_OPENING and all(w in worded and not is_math_word(w) for w in opening) and \
            line.text.rstrip()[-1:] in ".:":
        return True       # a sentence, however indented ("for any scalar k, provided k ≠ 0." under a display)
    if list_item_opening(line, SENTENCE_OPENING):
        return True       # a list item's first line: its mark (a bullet the maths font may set), then words
    # (words of two letters or more: a row of bold vectors set in the text face, "r⊤x" and "c⊤π", gives
    # letters alone)
    spelled = any(len(w.text.rstrip(",.;:")) > 1 for w in words)
    return (len(words) >= 3 and spelled and (starts_left or full)) or (len(words) >= 6 and len(words) >= len(line.words) * 0.7)


def display_operator(word, body: float) -> bool:
    """Whether a word is a big operator alone in its display form: its ink taller than running text
    sets any (a sum's text form stands about an em, its display form a quarter more; an integral's
    text form a little over an em, its display form twice that)."""
    if len(word.text) != 1 or word.text not in DISPLAY_OPERATOR_HEIGHT:
        return False
    top, bottom = ink_extent(Line([word], 0))
    return bottom - top >= body * DISPLAY_OPERATOR_HEIGHT[word.text]


DISPLAY_OPERATOR_HEIGHT = {**dict.fromkeys("∑∏∐⋃⋂⨁⨂⨀⨄⨆⋁⋀", 1.2), **dict.fromkeys("∫∬∭∮", 1.5)}   # × the body size


def list_item_opening(line, words: int = 1) -> bool:
    """A line that opens with a list's mark and, after it, `words` words of the text face."""
    ws = line.words
    return len(ws) > max(words, 2) and bool(LIST_MARK_RE.fullmatch(ws[0].text)) and all(
        ITEM_WORD_RE.fullmatch(w.text) and not is_math_word(w) for w in ws[1:1 + words])


def ink_extent(line) -> tuple[float, float]:
    """The top and bottom of a line's ink (its glyphs' exact boxes where the glyph layer kept them;
    a word's box otherwise)."""
    top, bottom = float("inf"), float("-inf")
    for w in line.words:
        ink = word_ink(w)
        if ink is not None:
            top, bottom = min(top, ink[0]), max(bottom, ink[1])
    if top > bottom:
        return line.top, line.bottom
    return top, bottom


def word_ink(w) -> tuple[float, float] | None:
    """The top and bottom of a word's ink (as ink_extent reads a line's), None when it has none."""
    top, bottom = float("inf"), float("-inf")
    for r in w.spans or [w]:
        boxes = r.boxes
        if boxes is not None and len(boxes) >= 6:
            for k in range(0, len(boxes), 6):
                if boxes[k + 3] - boxes[k + 2] > 0.01:
                    top = min(top, boxes[k + 2])
                    bottom = max(bottom, boxes[k + 3])
        else:
            top, bottom = min(top, r.top), max(bottom, r.bottom)
    return (top, bottom) if top <= bottom else None


BROKEN_WORD_RE = re.compile(r"[^\W\d_]{2}-$")   # a word broken at the line's end ("pe-")
LIST_MARK_RE = re.compile(r"(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]|\((?:\d{1,2}|[a-z]|[ivx]{1,4})\)|[•◦▪–]")


_TEXT_END_WORD = re.compile(r"[A-Za-z][a-z]+[,;:]?")
SENTENCE_WORDS = 6   # words: a line of this many words of text ending in a full stop is a sentence, no block's row
NARROW_COLUMN = 30   # em: a journal's column (20-27 em), narrower than a book's measure (30-36 em)


TALL_GLYPH = 1.6   # × the body size: taller than any letter, a big operator or a one-line delimiter
DISPLAY_REACH = 12  # lines: a display block's lines lie within this many lines of its numbered one


def tall_glyphs(line, body: float) -> list[tuple[float, float]]:
    """The tops and bottoms of a line's glyphs taller than any line of text: delimiters grown around
    several rows, integrals."""
    out = []
    for w in line.words:
        for r in w.spans or [w]:
            boxes = r.boxes
            if boxes is None:
                continue
            for k in range(0, len(boxes) - 5, 6):
                if boxes[k + 3] - boxes[k + 2] >= body * TALL_GLYPH:
                    out.append((boxes[k + 2], boxes[k + 3]))
    return out


EXTENSIBLE_PIECES = "⎛⎜⎝⎞⎟⎠⎡⎢⎣⎤⎥⎦⎧⎨⎩⎪⎫⎬⎭⎮⌠⌡"   # the parts TeX stacks into a delimiter of any height
PIECE_JOIN = 0.5        # em: a stacked delimiter's parts follow one another closer than this


def stacked_delimiters(lines: list, body: float) -> dict[int, list[tuple[float, float]]]:
    """Delimiters TeX built from parts (a brace's hooks, middle and bar pieces), which the text
    layer may put on lines of their own: per line holding a part, the (top, bottom) of every whole
    delimiter it is part of.  Parts at one x that meet from above to below make one delimiter."""
    pieces: list[_Piece] = []
    for k, line in enumerate(lines):
        for w in line.words:
            for r in w.spans or [w]:
                raw, boxes = r.raw or r.text, r.boxes
                if boxes is None or len(boxes) < 6 * len(raw):
                    continue
                for i, ch in enumerate(raw):
                    if ch in EXTENSIBLE_PIECES and boxes[6 * i + 3] - boxes[6 * i + 2] > 0.01:
                        # TeX sets a delimiter's parts at one x, each as wide as the next: their advance
                        # boxes line up where their ink does not (a brace's hooks curl right, its middle
                        # points left)
                        x0, x1 = boxes[6 * i], boxes[6 * i + 1]
                        if x1 - x0 <= 0.01:
                            x0, x1 = boxes[6 * i + 4], boxes[6 * i + 5]
                        pieces.append(_Piece(x0, x1, boxes[6 * i + 2], boxes[6 * i + 3], k, line.page))
    pieces.sort(key=lambda p: (p.page, p.top))
    chains: list[list[_Piece]] = []
    open_chains: list[list[_Piece]] = []     # chains a later piece may still extend (pieces go by their tops)
    for piece in pieces:
        open_chains = [c for c in open_chains if c[-1].page == piece.page and piece.top <= c[-1].bottom + body * PIECE_JOIN]
        # the piece that ends just above it and shares its x (a brace's middle may be the wider one)
        chain = next((c for c in open_chains if min(c[-1].x1, piece.x1) - max(c[-1].x0, piece.x0)
                      > 0.5 * min(c[-1].x1 - c[-1].x0, piece.x1 - piece.x0)), None)
        if chain is not None:
            chain.append(piece)
        else:
            chains.append([piece])
            open_chains.append(chains[-1])
    out: dict[int, list[tuple[float, float]]] = {}
    for chain in chains:
        if len(chain) >= 2:
            # (the first and last rows' ascenders and descenders may reach a little past the hooks)
            span = (chain[0].top - body * PIECE_JOIN / 2, max(p.bottom for p in chain) + body * PIECE_JOIN / 2)
            for p in chain:
                out.setdefault(p.line, []).append(span)
    return out


class _Piece(NamedTuple):
    """One part of a stacked delimiter: its advance box's ends (its ink's where the text layer gives no
    advance), its ink's top and bottom, and the line (index) and page it stands on."""

    x0: float
    x1: float
    top: float
    bottom: float
    line: int
    page: int


def column_rules(bars, body: float) -> list[tuple[float, float, float]]:
    """An array's vertical rules, (x, top, bottom): upright bars at one x whose ends meet, joined (TeX
    draws a rule of `c|cc` row by row)."""
    standing = sorted((b for b in bars if b[2] - b[0] <= RULE_WIDTH and b[3] - b[1] >= body * 0.3),
                     key=lambda b: ((b[0] + b[2]) / 2, b[1]))
    rules: list[list[float]] = []
    for b in standing:
        x = (b[0] + b[2]) / 2
        last = rules[-1] if rules else None
        if last is not None and abs(last[0] - x) <= 0.5 and b[1] <= last[2] + 1.0:
            last[2] = max(last[2], b[3])
        else:
            rules.append([x, b[1], b[3]])
    return [tuple(r) for r in rules]


RULE_WIDTH = 1.5   # pt: a drawn rule no wider than this is a line, not a filled box


# (a relation's thick space, a word space and a few thin spaces typed after the words: `\text{Proof: \,\,\,\,} &`)
RELATION_CELL_GAP = 1.5   # em between a left cell's words and the relation column it is set against
ALIGNED_COLUMN = 0.25  # em: a row's words start at the column the block's rows start on (glyphs' side bearings apart)


NORMAL_LEADING = 1.2   # of the body size: TeX's usual line pitch (10pt type on 12pt)
STRETCHED_LEADING = 1.5  # of the body size: a pitch this wide or wider is spacing stretched on purpose


PARAGRAPH_EDGE = 0.3    # ems: a paragraph's lines start at the column's left edge and fill it to the right
PARAGRAPH_PITCH = 0.15  # ems: ... and stand one leading apart
LINESKIP_GAP = 0.3      # ems: a taller line's ink stands this near the line above's at most (TeX's \lineskip)
PARAGRAPH_PIECES = 3    # lines: the pieces of a paragraph's line of inline maths (numerator, words, denominator)
PIECE_GAP = 0.5         # ems: each piece starts within a word space of where those before it end


def display_block(lines: list, at: int, column: tuple[float, float], body: float, label_of=None,
                  bars=(), leading: float = 0.0) -> list[int]:
    """The lines that make up the display around lines[at] (a line holding an equation number):
    the lines above and below it that are not prose, overlap the text column and follow one
    another without the space TeX leaves around a display; other numbered rows of the block are
    in it too (the caller assigns rows to numbers), and a line carrying a number (`label_of`) is a
    display row whatever its words (an align row's `\\text{}` set apart from its maths).  Indexes
    into `lines`, top to bottom."""
    anchor = lines[at]
    block = [at]
    # rows stand a line's pitch apart: under a stretched leading (one and a half or double spacing, as
    # theses are set) further too
    gap = body * 0.9 * (leading / (body * NORMAL_LEADING) if leading >= body * STRETCHED_LEADING else 1.0)
    left, right = column
    narrow = right - left < body * NARROW_COLUMN     # a journal's column, which its displays fill

    prose_of: dict[int, bool] = {}

    def prose(k: int) -> bool:
        if k not in prose_of:
            prose_of[k] = is_prose_line(lines[k], column, body)
        return prose_of[k]

    def fits(k: int) -> bool:
        line = lines[k]
        if label_of is not None and label_of(line) is not None:
            return line.page == anchor.page
        if continues_word(k):
            return False      # the rest of a word the prose line above broke with a hyphen ("pe-" "riod:")
        if fraction_part(k):
            return True       # the words over or under a fraction's bar on a row's axis: no step, no prose
        if relation_cell(k):
            return True       # words set flush right against the block's relation column: a row's left cell
        if lead_in(k):
            return False      # a step of pseudocode that leads to the display ("Compute", "Set")
        if len(line.words) == 1 and END_MARK_RE.fullmatch(line.words[0].text.strip()):
            return False      # a proof's end mark on a line of its own under its last display (amsthm's \qed)
        if continues_paragraph(k):
            return False      # a paragraph's last line, all inline maths ("the visit count $n_t(s, a)$:")
        if line.page == anchor.page and any(_brace_piece(w) for w in line.words):
            return True       # a horizontal brace's pieces, its notes beside them on their line: no prose has them
        if enclosed(k) or level_with_row(k) or braced_note(k) or ruled(k) or aligned_words(k) or narrow_row(k) \
                or block_row(k) or continued_row(k) or script_note(k) or barred(k):
            return True
        if len(line.words) == 1 and LIST_MARK_RE.fullmatch(line.words[0].text) and line.x0 < x0 - body:
            return False      # a list item's mark alone on its line, left of the display it introduces
        # (past the column's right edge where a row of the block runs on past it: its scripts there)
        return line.page == anchor.page and line.x1 > left and line.x0 < max(right, x1) and \
            not prose(k) and not in_prose(k)

    spans: list[tuple[float, float]] = []   # the block's tall glyphs (top, bottom)

    def lead_in(k: int) -> bool:
        """Words of the text face alone on a line that ends a quad or more before the numbered row's own
        maths starts: a step of pseudocode that leads to a display in an algorithm (`\\State Compute`
        over it, at the step's indent), which inside the float's box no column edge shows as prose.  No
        row of a display stands wholly left of the rest of it (a right-aligned "subject to" reaches the
        maths it opens, a brace's note stands under its body)."""
        line = lines[k]
        start = across(anchor)     # (a number alone on its line, between rows, shows no maths of its own)
        return start is not None and line.page == anchor.page and bool(line.words) and \
            line.x1 < start[0] - body * QUAD_GAP and all(
                _STEP_WORD.fullmatch(w.text) and not is_math_word(w) and w.text.rstrip(",.;:") not in OPERATOR_NAMES
                for w in line.words)

    def continues_word(k: int) -> bool:
        if k == 0 or not lines[k].words or not lines[k - 1].words or lines[k - 1].page != lines[k].page:
            return False
        last, first = lines[k - 1].words[-1].text, lines[k].words[0].text
        return bool(BROKEN_WORD_RE.search(last)) and first[:1].islower() and first[:1].isalpha() and prose(k - 1)

    def continues_paragraph(k: int) -> bool:
        """A line one leading below a prose line that runs to the column's right edge, starting at its
        left edge: the paragraph goes on, however mathematical its words.  TeX sets a display at least
        \\abovedisplayskip further down than that (the short skip only after a line that stops short);
        a paragraph's line made taller by inline maths (a fraction, its numerator a line of its own
        here) it sets further down too, but only \\lineskip clear of the line above.  And so for the
        rest of such a line: the pieces hanging on from it, each overlapping the one before."""
        for j in range(k, max(0, k - PARAGRAPH_PIECES) - 1, -1):
            # (a prose line itself starts no chain: a display after a short last line, set with the short
            # skip, may touch it; each piece overlaps those before it and goes on along their line: a
            # display set further right after a short line is no piece of it)
            if paragraph_line(j) and (j == k or not prose(j)):
                return all(lines[m + 1].page == lines[j].page and
                           ink_extent(lines[m + 1])[0] < max(ink_extent(lines[i])[1] for i in range(j, m + 1))
                           and lines[m + 1].x0 <= max(lines[i].x1 for i in range(j, m + 1)) + body * PIECE_GAP
                           for m in range(j, k))
        return False

    def paragraph_line(k: int) -> bool:
        if k == 0 or not lines[k].words or not lines[k - 1].words or lines[k - 1].page != lines[k].page:
            return False
        above, line = lines[k - 1], lines[k]
        pitch = leading or body * NORMAL_LEADING
        # (at the column's edge, or at a list item's or a statement's own indent, where the line above
        # starts: a justified line that ends in a word of text, however much inline maths it holds)
        last = above.words[-1]
        worded = prose(k - 1) or (bool(_TEXT_END_WORD.fullmatch(last.text)) and not is_math_word(last))
        if not ((abs(line.x0 - left) <= body * PARAGRAPH_EDGE or abs(line.x0 - above.x0) <= body * PARAGRAPH_EDGE)
                and above.x1 >= right - body * PARAGRAPH_EDGE and worded):
            return False
        return abs(line.baseline - above.baseline - pitch) <= body * PARAGRAPH_PITCH or \
            (line.baseline - above.baseline > body * 0.5 and
             ink_extent(line)[0] - ink_extent(above)[1] <= body * LINESKIP_GAP)

    def enclosed(k: int) -> bool:
        """A line whose ink lies within the height of a tall glyph of the block (a matrix's
        delimiters, an integral), across the display, is one of its rows, whatever its words look
        like (bold maths letters set in the text's bold face read as words: "Ax + By")."""
        line = lines[k]
        if line.page != anchor.page:
            return False
        ink_top, ink_bottom = ink_extent(line)
        return line.x0 < x1 + body and line.x1 > x0 - body and \
            any(t - 0.5 <= ink_top and ink_bottom <= b + 0.5 for t, b in spans)

    rules = column_rules(bars, body) if bars else []
    anchor_ink = ink_extent(anchor)
    near = range(max(0, at - DISPLAY_REACH), min(len(lines), at + DISPLAY_REACH + 1))
    assembled = {near[0] + k: v for k, v in stacked_delimiters([lines[k] for k in near], body).items()}

    def ruled(k: int) -> bool:
        """A line an array's vertical rule runs through, the rule running on through the numbered
        row too, is a row of that array (its header of words over an `\\hline`, say)."""
        line = lines[k]
        if not rules or line.page != anchor.page:
            return False
        ink_top, ink_bottom = ink_extent(line)
        return any(r_top - 1.0 <= min(ink_top, anchor_ink[0]) and max(ink_bottom, anchor_ink[1]) <= r_bottom + 1.0
                   and line.x0 - body <= x <= line.x1 + body and anchor.x0 - body <= x <= anchor.x1 + body
                   for x, r_top, r_bottom in rules)

    def level_with_row(k: int) -> bool:
        """Words on the baseline of one of the block's lines and within its width (a note's
        `\\text{}` under a brace, which the text layer gave a line of its own) are the block's."""
        line = lines[k]
        return line.page == anchor.page and x0 - body <= line.x0 and line.x1 <= x1 + body and \
            any(abs(lines[b].baseline - line.baseline) < 1.0 for b in block)

    def aligned_words(k: int) -> bool:
        """A line of words set well inside the column and short of its right edge, whose first word
        starts where a display row starts and a later word where another does (the two columns an
        `aligned` block's rows align on): a row of words of that block (`\\text{subject to} &
        \\text{the constraints},`), not prose."""
        line = lines[k]
        # (set in by more than a paragraph's indent; in a journal's narrow column, which the display
        # fills, by a little)
        indent = 0.5 if narrow else 2
        if line.page != anchor.page or len(line.words) < 2 or line.x0 < left + body * indent or line.x1 > right - body:
            return False
        if len(line.words) >= SENTENCE_WORDS and line.text.rstrip()[-1:] == "." and \
                not any(is_math_word(w) for w in line.words):
            return False      # a sentence of words of the text face to its full stop (a list item's text goes on)
        # (the rows under the number are not in the block yet while the walk goes up: any display row
        # near it counts)
        starts = [w.x0 for m in near if m != k and lines[m].page == anchor.page and (m in block or not prose(m))
                  for w in lines[m].words[:1] if equation_number(w.text) is None]
        # (its first word starts where another row starts too: the block's left edge, its label column)
        return any(abs(line.words[0].x0 - x) < body * ALIGNED_COLUMN for x in starts) and \
            any(abs(w.x0 - x) < body * ALIGNED_COLUMN for w in line.words[1:] for x in starts)

    def relation_cell(k: int) -> bool:
        """Words alone on a line short of the column's right edge that end just before the relation
        two or more rows near it open with, all at one place, and reach two rows holding that relation
        through lines set a row's gap apart: the left cell of an `aligned` block's row, set flush right
        against its `&=` column (`\\text{partial fraction expansion} & \\\\`, `\\text{Proof:} &` over
        the rows it heads), not prose, which ends where its words run out and stands a display's skip
        from the display before it (a paragraph's short last line may end by chance at that column)."""
        line = lines[k]
        if line.page != anchor.page or not line.words or line.x1 > right - body or \
                any(is_math_word(w) for w in line.words):
            return False
        opens = [lines[m].words[0].x0 for m in near if m != k and lines[m].page == anchor.page and
                 lines[m].words and lines[m].words[0].text[:1] in _RELATIONS and not prose(m)]
        return any(0 <= x - line.x1 < body * RELATION_CELL_GAP and
                   sum(abs(x - y) < body * ALIGNED_COLUMN for y in opens) >= 2 and set_against(k, x) for x in opens)

    def set_against(k: int, x: float) -> bool:
        """Whether two lines holding a relation at `x` are reached from lines[k], up or down, through
        lines each less than a row's gap of ink from the one before (a fraction's parts, a row's
        limits) but no sentence: the block's rows, not those of displays a sentence's end happens to
        stand near."""
        rows = 0
        for step in (-1, 1):
            m = k
            for _ in range(DISPLAY_REACH):
                n = m + step
                if not 0 <= n < len(lines) or lines[n].page != lines[k].page:
                    break
                upper, lower = (lines[n], lines[m]) if step < 0 else (lines[m], lines[n])
                if ink_extent(lower)[0] - ink_extent(upper)[1] >= gap or \
                        prose(n) and not 0 <= x - lines[n].x1 < body * RELATION_CELL_GAP:
                    break     # (a sentence between two displays parts them; another cell of words does not)
                rows += any(w.text[:1] in _RELATIONS and abs(w.x0 - x) < body * ALIGNED_COLUMN for w in lines[n].words)
                m = n
        return rows >= 2

    def block_row(k: int) -> bool:
        """A row of words of an aligned block, however it is set (flush left under `fleqn` with no
        indent, as journals' narrow columns set displays; its first column flush right, as amsmath
        sets it): it and a line beside it, each opening with a word, have a part after a quad's gap
        or more that starts where the other's does (the block's second column: "maximize ⟨quad⟩ f(x)"
        over "subject to ⟨quad⟩ g(x) ≤ 0"), their first parts lined up at their left or at the gap:
        justified prose never lines up so (build_formula.same_columns)."""
        line = lines[k]
        if line.page != anchor.page or len(line.words) < 2 or not _LEFT_COLUMN_WORD.fullmatch(line.words[0].text):
            return False      # (a row's left column opens with a word: "5:" opens a line of pseudocode)
        spans = [(w.x0, w.x1) for w in line.words]
        # (within a few lines: a row's limits and a number between rows stand between the two)
        for m in range(max(0, k - BLOCK_ROW_REACH), min(len(lines), k + BLOCK_ROW_REACH + 1)):
            other = lines[m]
            if m == k or other.page != line.page or len(other.words) < 2 or \
                    not _LEFT_COLUMN_WORD.fullmatch(other.words[0].text):
                continue
            if same_columns(spans, [(w.x0, w.x1) for w in other.words], body, body * ALIGNED_COLUMN):
                return True
        return False

    def script_note(k: int) -> bool:
        """Words set in a script's size under (or over) a word of the block, centred on it: a limit or
        an \\underset note in words ("survey or not" under a \\max), not prose, which runs at the
        body's size."""
        line = lines[k]
        if line.page != anchor.page or not line.words or any(w.size > body * SCRIPT_NOTE for w in line.words):
            return False
        middle = (line.x0 + line.x1) / 2
        ink_top, ink_bottom = ink_extent(line)
        # (under the word's baseline, or over its top: a font's box reaches below its letters; and over
        # its ink, where its font's box stands higher than the note: an OpenType maths font's ascent
        # over \xrightarrow{\text{round up}}'s arrow)
        return any(abs((w.x0 + w.x1) / 2 - middle) <= body and
                   (0 <= ink_top - w.baseline < body or 0 <= w.top - ink_bottom < body
                    or 0 <= (word_ink(w) or (w.top, w.bottom))[0] - ink_bottom < body)
                   for b in block for w in lines[b].words if w.size > body * SCRIPT_NOTE)

    def hangs_from_axis(line, below) -> bool:
        """Whether glyphs of `below`, at the body's size, hang from a rule of the page on the maths axis
        of `line` that none of its own words stand over: the denominators of a row of display fractions
        whose numerators and denominators are lines of their own (an inline fraction's parts are set
        smaller, in the text style)."""
        axis = line.baseline - body * MATHS_AXIS
        return any(not upright(b) and abs((b[1] + b[3]) / 2 - axis) <= body * AXIS_SLACK
                   and not any(w.x0 < b[2] and w.x1 > b[0] for w in line.words)
                   and any(w.x0 < b[2] and w.x1 > b[0] and w.top >= b[3] - 0.5 and w.size >= body * DISPLAY_PART
                           for w in below.words)
                   for b in bars)

    def fraction_part(k: int) -> bool:
        """A line whose every word stands on, or hangs from, a rule on the maths axis of a row of the
        block, within the rule's length: the numerators or denominators of that row's fractions, however
        wordy (`\\frac{\\text{Skamania odds}}{\\text{Yakima odds}}`, set in the text face).  Prose stands
        on no rule, and a rule under a line of text (an underline, a table's rule) is on no display
        row's axis."""
        line = lines[k]
        if line.page != anchor.page or not line.words:
            return False
        axes = [lines[m].baseline - body * MATHS_AXIS for m in block if lines[m].page == line.page]
        on_axis = [b for b in bars if not upright(b) and b[2] - b[0] >= body * 0.3 and
                   any(abs((b[1] + b[3]) / 2 - a) <= body * AXIS_SLACK for a in axes)]

        def part_of(w) -> bool:
            ink = word_ink(w) or (w.top, w.bottom)
            return any(b[0] - 0.5 <= w.x0 and w.x1 <= b[2] + 0.5 and (
                           0 <= b[1] - ink[1] + 0.5 <= body * FRACTION_PART_GAP or
                           0 <= ink[0] - b[3] + 0.5 <= body * FRACTION_PART_GAP)
                       for b in on_axis)
        return bool(on_axis) and all(part_of(w) for w in line.words)

    def barred(k: int) -> bool:
        """A line from whose maths axis the block's row right below it hangs (hangs_from_axis) is a
        row of fractions, however many words its `\\text{}` holds ("PoA = ⟨bar⟩, which for … is
        ⟨bar⟩"); prose sets no rule on its axis."""
        line = lines[k]
        return line.page == anchor.page and bool(block) and block[0] == k + 1 and hangs_from_axis(line, lines[k + 1])

    def continued_row(k: int) -> bool:
        """A row of an aligned block with nothing in its first column (`& x \\geq 0`, "& for all x"):
        short of the column's edge, it starts where the second column of a row of words above it
        starts, that row itself one of the block's (block_row)."""
        line = lines[k]
        if line.page != anchor.page or not line.words or line.x1 > right - body:
            return False
        for m in range(max(0, k - BLOCK_ROW_REACH), k):
            other = lines[m]
            if other.page != line.page or len(other.words) < 2 or not _LEFT_COLUMN_WORD.fullmatch(other.words[0].text):
                continue
            if any(abs(line.x0 - start) <= body * ALIGNED_COLUMN
                   for _, start in column_gaps([(w.x0, w.x1) for w in other.words], body)) and block_row(m):
                return True
        return False

    def narrow_row(k: int) -> bool:
        """In a journal's narrow column an optimisation problem's rows ("maximize  t", "subject to
        φ ≥ …") start within a paragraph's indent, as the display fills the column; such a line, set
        in a little and short of the column's edge, is a row of the display whose number stands
        below it or level with it (one under a number dropped below its row is a table's row, as
        in a book's wider measure: "echelon  S = …")."""
        line = lines[k]
        first = line.words[0].text if line.words else ""
        return line.page == anchor.page and narrow and \
            line.baseline <= anchor.baseline + body * 0.5 and \
            left + body * 0.5 < line.x0 <= left + body * 1.5 and line.x1 < right - body and \
            bool(re.fullmatch(r"[A-Za-z][a-z]+", first)) and worded_row(line, body)

    def braced_note(k: int) -> bool:
        """Words set just under a horizontal brace of the block (or just over one) and within its
        reach are its note (`\\underbrace{…}_{\\text{…}}`), however much they read as prose.  The brace
        may stand on a line right above, not yet in the block: where amsmath dropped the number below a
        display too wide for it, the walk up from the number meets the notes under the braces first."""
        line = lines[k]
        if line.page != anchor.page:
            return False
        if line.x0 <= column[0] + body * 0.5 and prose(k):
            return False      # a paragraph's line of prose at the column's edge, under a brace's low note, is no note
        ink_top, ink_bottom = ink_extent(line)
        braces: list[list[float]] = []       # each brace's x0, x1, top, bottom: its pieces joined
        above = [m for m in range(max(0, k - BRACE_LINES_ABOVE), k) if lines[m].page == line.page]
        for w in sorted((w for b in (*block, *above) for w in lines[b].words if _brace_piece(w)),
                        key=lambda w: w.x0):
            if braces and w.x0 - braces[-1][1] < body * 0.3 and abs(w.top - braces[-1][2]) < body * 0.3:
                braces[-1] = [braces[-1][0], max(braces[-1][1], w.x1), min(braces[-1][2], w.top),
                              max(braces[-1][3], w.bottom)]
            else:
                braces.append([w.x0, w.x1, w.top, w.bottom])
        # (the line may hold the notes of several braces side by side, a word space apart within a
        # note, set at its natural width, and further between notes: each must be its own brace's)
        notes, words = [], sorted(line.words, key=lambda w: w.x0)
        for w in words:
            if notes and w.x0 - notes[-1][-1].x1 < w.size * NOTE_WORD_SPACE:
                notes[-1].append(w)
            else:
                notes.append([w])
        return bool(braces) and all(any(_brace_note(note, brace, ink_top, ink_bottom, body) for brace in braces)
                                    for note in notes)

    def in_prose(k: int) -> bool:
        """A glyph of a prose line's inline maths set on a line of its own (a big operator centred
        on the axis): its ink straddles that line's baseline, which no display row's does."""
        line = lines[k]
        ink_top, ink_bottom = ink_extent(line)
        for m in range(max(0, k - 2), min(len(lines), k + 3)):
            other = lines[m]
            if other is line or other.page != line.page or not prose(m) or \
                    (label_of is not None and label_of(other) is not None):
                continue
            if m == k - 1 and hangs_from_axis(other, line):
                continue      # display fractions' denominators, whose sums reach up past a worded row's baseline
            # (the prose line's own first words may be those very pieces: an inline fraction opening it)
            if ink_top < other.baseline - 1.0 and ink_bottom > other.baseline + 0.5 and \
                    min(other.x0, left) <= line.x0 + 1 and line.x1 <= other.x1:
                return True
        return False

    def reach(j: int) -> float:
        """How low the lines from lines[j] up reach: lines go by their tops, and a taller line just
        above (a sum with its limits) may reach below the one after it."""
        return max(ink_extent(lines[k])[1] for k in range(max(0, j - 2), j + 1) if lines[k].page == anchor.page)

    def across(line) -> tuple[float, float] | None:
        """Where the line's maths runs across, its equation number left out.  A parenthesised
        numeral that is none of the book's numbers (`label_of` knows them) is the maths' own: a
        brace's note "(I)" on its line under the brace, a roman numeral as an equation number reads."""
        own = label_of(line) if label_of is not None else None
        words = [w for w in line.words if (number := equation_number(w.text)) is None
                 or (label_of is not None and number != own)]
        return (min(w.x0 for w in words), max(w.x1 for w in words)) if words else None

    def beside(k: int) -> bool:
        """A line above the block that ends before the display starts, under a prose line, and
        starts where that line starts (or holds only words of text), goes on with that paragraph
        (TeX's short display skip sets it as close as a row); a display's rows, limits and a
        fraction's parts reach across into the display, and its first row never starts flush with
        the paragraph before it."""
        line = lines[k]
        if label_of is not None and label_of(line) is not None:
            return True
        if enclosed(k):
            return True
        span = across(line)
        if span is None:
            return False
        above = lines[k - 1] if k > 0 and lines[k - 1].page == line.page else None
        worded = all(re.fullmatch(r"[A-Za-z][a-z]+[,.;:]?", w.text) and not is_math_word(w) for w in line.words)
        # (a list item's text starts after its mark, which hangs to the left of it)
        edge = None if above is None else above.words[1].x0 if len(above.words) > 1 and \
            LIST_MARK_RE.fullmatch(above.words[0].text) else above.x0
        continues = above is not None and prose(k - 1) and ink_extent(line)[1] <= top + 0.5 \
            and (abs(edge - line.x0) < 1.0 or worded)
        # flush under the prose line and a line's pitch below it: that paragraph's last line (only a
        # display that starts at the column's edge is flush, and TeX sets the full display skip over it)
        if continues and abs(edge - line.x0) < 1.0 and line.baseline - above.baseline < body * 1.5:
            return False
        # (words set against the block's relation column head its rows, however short: `\text{Proof:} &`)
        return span[1] > x0 or not continues or relation_cell(k)

    def box_top(k: int) -> float:
        """Where a line of the block starts for the row over it: its ink's top, but over the top dot of
        TeX's \\vdots (three periods 4pt apart in a box whose top is kerned 6pt above the first) the
        box's, from which TeX sets the row above a row's gap away."""
        ink = ink_extent(lines[k])[0]
        return ink - VDOTS_KERN if _top_of_stacked_dots(lines, k, body) else ink

    top, bottom = box_top(at), ink_extent(anchor)[1]
    x0, x1 = across(anchor) or (anchor.x0, anchor.x1)

    def tall(k: int) -> list[tuple[float, float]]:
        """The tall glyphs a line adds to the block: its own, and the delimiters its parts belong to."""
        return tall_glyphs(lines[k], body) + assembled.get(k, [])

    spans.extend(tall(at))
    # a number alone on its line may be one amsmath dropped below a row that left it no room: a line's
    # pitch below the row (the book's leading)
    alone = len(anchor.words) == 1 and label_of is not None and label_of(anchor) is not None
    first_gap = max(gap, leading) if alone else gap
    for m in range(max(0, at - DISPLAY_REACH), min(len(lines), at + DISPLAY_REACH + 1)):
        # a number on the right that amsmath dropped: the line just above it, which runs on past where
        # the number starts, is the row that left it no room, however many words its \text clause has
        # (and so for the other numbers near: a gather's next row may be the one)
        number = lines[m]
        if len(number.words) != 1 or label_of is None or number.page != anchor.page or \
                number.x0 <= (left + right) / 2 or label_of(number) is None:
            continue
        # (the row's pieces, a radical's foot below its baseline, are lines of their own: the row reaches
        # as low as the lowest of the lines under it that its ink overlaps; the nearest line that runs
        # past the number is the one, and only if nothing stands clear between it and the number: a
        # line below the row's pieces is a row of its own, the number's, which amsmath centred between
        # that row and the next (an array's "minimize" over "subject to"), the line above being prose)
        number_top = ink_extent(number)[0]
        for k in range(m - 1, max(-1, m - DISPLAY_REACH), -1):
            line = lines[k]
            if line.page != anchor.page or label_of(line) is not None:
                break
            if line.x0 < number.x0 - body and line.x1 > number.x0:
                row_top, lowest = ink_extent(line)
                apart = False
                for piece in lines[k + 1:m]:
                    piece_top, piece_bottom = ink_extent(piece)
                    if piece_top < lowest:
                        lowest = max(lowest, piece_bottom)
                    else:
                        apart = True
                if not apart and number_top - max(gap, leading) <= lowest <= number_top + 0.5:
                    prose_of[k] = False
                break
    def aligned_above(j: int) -> int | None:
        """The row of an array set further above the block than rows stand (`\\\\[3ex]`), with its limits
        between: a line within ALIGNED_REACH lines up whose first word starts where the block's top row's
        does and a later word where a later one of that row does (the array's columns; prose never lines
        up so, and the second column starts a column's separation or more after the first), every line from
        it down to the block maths, no prose, within the block's width."""
        head = lines[block[0]]
        if len(head.words) < 2:
            return None
        for k in range(j, max(-1, j - ALIGNED_REACH), -1):
            line = lines[k]
            if line.page != anchor.page or prose(k) or (label_of is not None and label_of(line) is not None) or \
                    line.x0 < x0 - body or line.x1 > x1 + body:
                return None
            if len(line.words) >= 2 and abs(line.words[0].x0 - head.words[0].x0) < body * ALIGNED_COLUMN and \
                    abs(line.words[1].x0 - head.words[1].x0) < body * ALIGNED_COLUMN and \
                    min(line.words[1].x0 - line.words[0].x1, head.words[1].x0 - head.words[0].x1) >= body * COLUMN_SEP \
                    and top - ink_extent(line)[1] < body * ALIGNED_ROW_GAP:
                return k
        return None

    j = at - 1
    while j >= 0:
        if fits(j) and top - reach(j) < (first_gap if j == at - 1 else gap) and beside(j):
            taken = [j]
        elif (k := aligned_above(j)) is not None:
            taken = list(range(j, k - 1, -1))
        else:
            break
        for m in taken:
            block.insert(0, m)
            spans.extend(tall(m))
            # (a row listed before a number set between two rows may reach below it: the walk down
            # goes on from the lowest ink the block has)
            top, bottom = min(top, box_top(m)), max(bottom, ink_extent(lines[m])[1])
            x0, x1 = min(x0, (across(lines[m]) or (x0, x1))[0]), max(x1, (across(lines[m]) or (x0, x1))[1])
        j = taken[-1] - 1
    j = at + 1
    # (a number alone on the left may be one amsmath raised over a row that left it no room: a line's
    # pitch above the row)
    raised_gap = max(gap, leading) if alone and anchor.x1 < (left + right) / 2 else gap
    while j < len(lines) and fits(j) and ink_extent(lines[j])[0] - bottom < (raised_gap if j == at + 1 else gap) \
            and beside(j):
        block.append(j)
        spans.extend(tall(j))
        bottom = max(bottom, ink_extent(lines[j])[1])
        x0, x1 = min(x0, (across(lines[j]) or (x0, x1))[0]), max(x1, (across(lines[j]) or (x0, x1))[1])
        j += 1
    if label_of is not None:
        block = _across_empty_rows(lines, block, label_of, body, gap, leading or body * NORMAL_LEADING,
                                   lambda k: fits(k) and beside(k))
    return block


EMPTY_ROW_GAP = 1.5   # of the line pitch: an empty row of an aligned block (`\\ \hfill \\`) widens a row's gap by one pitch
OFF_CENTRE = 0.5        # em: a number further than this from the middle of the rows gathered is centred on rows
                        # the walk has not reached (one within CENTRED_NUMBER of it is centred on them)
FLUSH_AGAINST_COLUMN = 0.5   # em: a first column's row ends this close before the relation column (a thick space)


def _across_empty_rows(lines: list, block: list[int], label_of, body: float, gap: float, pitch: float,
                       display_row) -> list[int]:
    """The block with the rows an empty row parts from it (`\\\\ \\hfill \\\\` inside an `aligned` block,
    a `\\\\[1em]`), which the walk by gaps stops at.  amsmath sets an `equation`'s number on the
    maths axis of the block it holds, the middle of all its rows: a lone number well off the middle
    of the rows gathered, whose middle it becomes when display rows one empty row away above or below
    (runs of rows no number of their own) are counted in, is theirs too.  A block centred on its
    number already (any single equation, an aligned block with no empty row), or with numbers of
    several rows, is left as it is; so is one no such rows centre (a number amsmath dropped below a
    row, multline's on its last row)."""
    page = lines[block[0]].page
    if sum(label_of(lines[k]) is not None for k in block) != 1:
        return block
    anchor = next(lines[k] for k in block if label_of(lines[k]) is not None)
    number = [w for w in anchor.words if equation_number(w.text) is not None]
    if not number:
        return block
    axis = number[-1].baseline - body * MATHS_AXIS

    def ink(ks) -> tuple[float, float] | None:
        spans = [word_ink(w) or (w.top, w.bottom) for k in ks for w in lines[k].words if w not in number]
        return (min(t for t, _ in spans), max(b for _, b in spans)) if spans else None

    def off(ks) -> float:
        span = ink(ks)
        return abs((span[0] + span[1]) / 2 - axis) if span else float("inf")

    if ink(block) is None or off(block) <= body * OFF_CENTRE:
        return block      # (a number alone, no maths gathered round it: nothing to centre it on)
    # (the block's relation column: rows past an empty row are set on it, or end just before it, a row
    # with no alignment point in the first column, which amsmath sets flush right against it)
    column = [w.x0 for k in block for w in lines[k].words if w.text[:1] in _RELATIONS]

    def of_the_block(run: list[int]) -> bool:
        """Rows of maths set on the block's relation column: no heading or running head under a
        display that happens to centre its number."""
        words = [w for k in run for w in lines[k].words]
        return any(is_math_word(w) for w in words) and any(
            abs(w.x0 - x) <= body * ALIGNED_COLUMN for w in words if w.text[:1] in _RELATIONS for x in column) or any(
            0 <= x - lines[k].x1 <= body * FLUSH_AGAINST_COLUMN for k in run for x in column)

    def runs(step: int) -> list[list[int]]:
        """The ways the block may grow in one direction: each ends where a row's gap or more parts the
        next line (a whole run of rows, never a fraction's numerator without its bar), crossing gaps
        no wider than an empty row's, over display rows with no number of their own."""
        taken, ends = [], [[]]
        edge = ink(block)
        j = (block[0] if step < 0 else block[-1]) + step
        while 0 <= j < len(lines) and abs(j - block[0 if step < 0 else -1]) <= DISPLAY_REACH:
            line = lines[j]
            if line.page != page or label_of(line) is not None or not line.words or not display_row(j):
                break
            top, bottom = ink([j])
            apart = edge[0] - bottom if step < 0 else top - edge[1]
            if apart >= gap + pitch * EMPTY_ROW_GAP:
                break
            if apart >= gap and taken:
                if not of_the_block(taken[len(ends[-1]):]):
                    break
                ends.append(list(taken))
            taken.append(j)
            edge = (min(edge[0], top), max(edge[1], bottom))
            j += step
        if taken and taken != ends[-1] and of_the_block(taken[len(ends[-1]):]):
            ends.append(list(taken))
        return ends

    best, best_off = block, off(block)
    for above in runs(-1):
        for below in runs(1):
            if not above and not below:
                continue
            grown = sorted(block + above + below)
            if off(grown) <= body * CENTRED_NUMBER and off(grown) < best_off:
                best, best_off = grown, off(grown)
    return best


VDOTS_KERN = 6.0       # pt: plain TeX's \vdots kerns its box's top this far above its first dot
VDOTS_PITCH = 0.6      # em: ... and stacks its dots 4pt apart (baseline to baseline), at most this


def _top_of_stacked_dots(lines: list, k: int, body: float) -> bool:
    """Whether lines[k] holds only periods, each with a period right under it on the next line a dot's
    pitch down, and none over it on the line above: the top dots of \\vdots columns (the text layer
    gives each row of dots a line of its own)."""
    def dots(j: int) -> list:
        if not 0 <= j < len(lines) or lines[j].page != lines[k].page:
            return []
        return [w for w in lines[j].words if w.text == "."]

    own, under, over = dots(k), dots(k + 1), dots(k - 1)
    if not own or len(own) != len(lines[k].words) or not under or \
            lines[k + 1].baseline - lines[k].baseline > body * VDOTS_PITCH:
        return False
    def stacked(w, row: list) -> bool:
        return any(abs(o.x0 - w.x0) < 0.5 for o in row)

    return all(stacked(w, under) for w in own) and not (
        over and lines[k].baseline - lines[k - 1].baseline <= body * VDOTS_PITCH and any(stacked(w, over) for w in own))


SCRIPT_NOTE = 0.85     # of the body size: a limit's or a note's words are set no larger
MATHS_AXIS = 0.25      # em: TeX's maths axis (a fraction's bar) stands this far over the baseline
AXIS_SLACK = 0.1       # em: ... a bar's middle within this of it
DISPLAY_PART = 0.9     # of the body size: a display fraction's parts are set no smaller
FRACTION_PART_GAP = 0.8  # em: a fraction's part clears its rule by this at most, ink to rule (TeX's display shifts)
ALIGNED_REACH = 3      # lines: an array's row and the limits under it, above the block
ALIGNED_ROW_GAP = 2.5  # em: ... its ink (not its limits') at most this far above the block's top
COLUMN_SEP = 0.8       # em: an array's columns stand apart by twice \arraycolsep (1 em at 10 pt), a word space less
BLOCK_ROW_REACH = 4    # lines: how far apart in reading order two rows of one aligned block may be listed
_LEFT_COLUMN_WORD = re.compile(r"[A-Za-z][a-z]+")
_STEP_WORD = re.compile(r"[A-Za-z][a-z]+[,.;:]?")   # a word of a pseudocode step (display_block's lead_in)


def _label_words(line, number: str) -> list:
    """The words of a labelled line that print its number: "(3.2)" at the right edge (or split
    as "(3" ".2)"), or at the left edge for books numbered on the left."""
    words = line.words
    if equation_number(words[-1].text) == number:
        return [words[-1]]
    if len(words) >= 2 and equation_number(words[-2].text + words[-1].text) == number:
        return words[-2:]
    if equation_number(words[0].text) == number:
        return [words[0]]
    return [w for w in words if equation_number(w.text) == number]


def numbered_display(lines: list, at: int, column: tuple[float, float], body: float, label_of,
                     bars=(), block_out: list | None = None, leading: float = 0.0,
                     shown_out: list | None = None) -> dict[str, str]:
    """LaTeX per equation number for the display block around lines[at] (a labelled line): the
    block's lines are gathered by ink and prose (display_block), every number in it is found with
    `label_of(line)`, and its glyphs, the numbers left out, are read once; one number takes the
    whole block, several share its rows (build_formula.numbered_rows).  The block's lines are added
    to `block_out` when given; `leading` is the book's line pitch, when known.  `shown_out` receives
    the block as the running text shows it, every row in its place: "$$…$$ (5.3) $$…$$ (5.4)"."""
    block = [lines[k] for k in display_block(lines, at, column, body, label_of, bars, leading)]
    if block_out is not None:
        block_out.extend(block)
    numbers = {id(line): label_of(line) for line in block}
    cut = _side_by_side(block, numbers, body)
    if cut is None:
        return _read_block(block, numbers, body, bars, leading, shown_out)
    # two displays side by side (each in a minipage), the left one's number a quad before the right
    # one: each side is read as a display of its own
    read: dict[str, str] = {}
    for keep in (lambda w: w.x1 <= cut, lambda w: w.x1 > cut):
        side, side_numbers = [], {}
        for line in block:
            kept = [w for w in line.words if keep(w)]
            if kept:
                part = Line(kept, line.page)
                number = numbers[id(line)]
                own = number is not None and any(w is d for w in kept for d in _label_words(line, number))
                side_numbers[id(part)] = number if own else None
                side.append(part)
        read.update(_read_block(side, side_numbers, body, bars, leading, shown_out))
    return read


def _side_by_side(block: list, numbers: dict, body: float) -> float | None:
    """Where a block of two displays set side by side parts (x): a number ending its line of maths well
    short of the block's right end, with another numbered line of the block beside it, right of the
    number by a word space or more, at its height; None for one display."""
    reach = max(line.x1 for line in block)
    for line in block:
        number = numbers[id(line)]
        drop = _label_words(line, number) if number is not None else []
        if not drop or drop[-1] is not line.words[-1] or drop[-1].x1 > reach - body * 2 or len(drop) == len(line.words):
            continue      # (a number alone on its line is a raised or dropped one, not a display's beside another)
        end = drop[-1].x1
        # (the display beside it numbered too, on a line of its own at its height)
        if any(other is not line and numbers[id(other)] is not None and other.x0 > end + body * 0.3
               and other.top < line.bottom and other.bottom > line.top for other in block):
            return end + body * 0.15
    return None


def _read_block(block: list, numbers: dict, body: float, bars, leading: float, shown_out) -> dict[str, str]:
    """numbered_display for a gathered block whose lines' numbers are known (`numbers`, by line)."""
    labels: list[tuple[str, float]] = []
    printed: dict[str, str] = {}      # each number's label as printed, "(5.3)"
    words: list[Word] = []
    drops = {id(line): _label_words(line, numbers[id(line)]) if numbers[id(line)] is not None else []
             for line in block}
    # where the block's numbers stand, at the right edge or the left (a tag in words stands there too)
    right = [drops[id(line)][-1].x1 for line in block if drops[id(line)] and drops[id(line)][-1] is line.words[-1]]
    left = [drops[id(line)][0].x0 for line in block if drops[id(line)] and drops[id(line)][0] is line.words[0]]
    # a row whose number stands alone on the line below it (amsmath drops a number a row leaves no room
    # for): words in parentheses at its end are the row's, not a tag of its own
    numbered_below = {id(above) for above, below in zip(block, block[1:])
                      if drops[id(below)] and len(drops[id(below)]) == len(below.words)}
    # numbers on the left, each alone on its line over an unnumbered row: amsmath sets a number a row
    # leaves no room for on a line of its own above it (leqno), so each is that row's
    alone = [k for k, line in enumerate(block) if drops[id(line)] and len(drops[id(line)]) == len(line.words)]
    over_rows = len(alone) >= 2 and bool(left) and all(
        block[k].words[0].x0 <= min(left) + LABEL_EDGE_SLACK and k + 1 < len(block) and not drops[id(block[k + 1])]
        for k in alone)
    raised = {id(block[k]): block[k + 1].baseline for k in alone} if over_rows else {}
    # numbers on the right, the block's last line one of them, each alone on its line under an
    # unnumbered row: amsmath drops a number a row leaves no room for to a line of its own below it,
    # so each is the row's above it (a number centred on a split's rows never ends its block)
    if not raised and len(alone) >= 2 and right and alone[-1] == len(block) - 1 and all(
            k >= 1 and not drops[id(block[k - 1])] and block[k].words[-1].x1 >= max(right) - LABEL_EDGE_SLACK
            for k in alone):
        raised = {id(block[k]): block[k - 1].baseline for k in alone}
    for line in block:
        number, drop = numbers[id(line)], drops[id(line)]
        if not drop and left and len(line.words) > 1 and abs(line.words[0].x0 - min(left)) <= LABEL_EDGE_SLACK and \
                (own := equation_number(line.words[0].text)) is not None and \
                line.words[1].x0 - line.words[0].x1 > body * TAG_SEPARATION:
            # a number in the block's column of numbers on the left, a tag's separation before its row,
            # whatever the row's words (a bold vector in the text face: "(2.8) w = A⁻¹b")
            number, drop = own, [line.words[0]]
        if not drop and (right or left) and len(line.words) > 1 and id(line) not in numbered_below:
            drop = word_tag(line, max(right) if right else None, min(left) if left else None, body)
            number = WORD_TAG if drop else None
        if drop:
            labels.append((number, raised.get(id(line), sum(w.baseline for w in drop) / len(drop))))
            printed[number] = "".join(w.text for w in drop) if len(drop) == 2 and number != WORD_TAG \
                else " ".join(w.text for w in drop)
        words.extend(w for w in line.words if not any(w is d for d in drop))
    if not any(number != WORD_TAG for number, _ in labels):
        return {}
    # (a lone number at the right: where it starts tells a multline's last row, set a fixed gap before it)
    edge = next((drops[id(line)][0].x0 for line in block if drops[id(line)] and drops[id(line)][-1] is line.words[-1]),
                None) if len(labels) == 1 else None
    read = numbered_rows(words, bars, labels, leading, edge)
    if shown_out is not None and read.shown:
        shown_out.append(" ".join(f"$${tex}$$" + (f" {printed[number]}" if number else "")
                                  for tex, number in read.shown))
    read.numbers.pop(WORD_TAG, None)
    return read.numbers


TAG_SEPARATION = 0.45  # em: amsmath keeps a tag at least \mintagsep (half an em) from a formula too wide to centre
WORD_TAG = "tag in words"   # the stand-in number of a row tagged in words: its row is its own, never stored
LABEL_EDGE_SLACK = 1.5      # pt: labels set flush right end this close together
TAG_GAP = 1.0               # em: ... and stand at least a quad from their row (TeX's minimum is half of that)


def word_tag(line, right: float | None, left: float | None, body: float) -> list:
    """The words of a row's tag written in words (`\\tag*{(Fisher)}`, "(KKT)"): a parenthesised run of
    a text face ending where the block's equation numbers end (or starting where they start, on the
    left), standing apart from the row as they do."""
    words = line.words
    tag: list = []
    if right is not None and words[-1].text.endswith(")") and abs(words[-1].x1 - right) <= LABEL_EDGE_SLACK:
        start = next((k for k in range(len(words) - 1, 0, -1) if words[k].text.startswith("(")), None)
        if start is not None and words[start].x0 - words[start - 1].x1 >= body * TAG_GAP:
            tag = words[start:]
    elif left is not None and words[0].text.startswith("(") and abs(words[0].x0 - left) <= LABEL_EDGE_SLACK:
        end = next((k for k in range(len(words) - 1) if words[k].text.endswith(")")), None)
        if end is not None and words[end + 1].x0 - words[end].x1 >= body * TAG_GAP:
            tag = words[:end + 1]
    if not tag or len(tag) > 4 or any(is_math_font(w.font) for w in tag) or \
            not any(c.isalpha() for w in tag for c in w.text):
        return []
    return tag
