"""build_heads.py: how a book prints the labels of its numbered things and of its own parts.

Equation numbers ("(5.3)"), entity heads ("Theorem 2.9 (Name).", "Figure 3.2:", "Fig. 1."),
section and chapter labels, and the headings the PDF's bookmarks point at.  What is read here is
the printed text and face of one line (or one bookmark); what a line *is* in the flow of a page is
decided by the rules in build_roles.py.  Imports only build_glyphs.py and the core's number rules.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from build_glyphs import Document, Line, Page, Word
from rag_core import normalize_number


# --------------------------------------------------------------------------- numbers
"""Numbers: an equation's label, a section's number, a part's or a chapter's label."""

# (ConTeXt numbers a set of subformulas "(2.4.a)": a sub-letter after a dot, stored as "2.4a")
EQ_NUMBER_RE = re.compile(r"^\(\s*((?:[A-Z]|\d+)(?:\s*[.:·\-–]\s*\d+)*(?:\.?[a-z])?)\s*\)$")
HEADING_RE = re.compile(r"^((?:[A-Z]|\d+)(?:\.\d+){1,3})\.?\s+(\S.*)$")
CHAPTER_RE = re.compile(r"^(?:Chapter|CHAPTER|Appendix|APPENDIX)\s+([A-Z]|\d+)\s*[.:]?\s*(.*)$")
PART_RE = re.compile(r"^(?:Part|PART)\s+([IVX]+)\b\s*[.:]?\s*(.*)$")
END_MARK_RE = re.compile(r"(□|■|∎|◀|◁|⊓⊔|♦|◆|◇|♠|♣|▮|\bQED|\bq\.e\.d\.)\s*$")   # end of a proof or an example


def lone_chapter_label(text: str) -> re.Match | None:
    """A chapter's label alone on its line ("CHAPTER 2", "Appendix A"), its title on a line of its own."""
    m = CHAPTER_RE.match(text.strip())
    return m if m and not m.group(2).strip() else None


def equation_number(text: str) -> str | None:
    """'(5.3)', '(1:1)', '( 2.4a )', '(2.4.a)', '(12)' -> the number with periods ('5.3', '1.1', '2.4a',
    '2.4a', '12')."""
    m = EQ_NUMBER_RE.match(text.strip())
    if not m:
        return None
    number = re.sub(r"\s*[.:·\-–]\s*", ".", m.group(1))
    return normalize_number(number[:-2] + number[-1] if number[-1:].islower() and number[-2:-1] == "." else number)


# Numbering is a sequence: a label continues the one before it.  A number with a part of many digits
# is a date or a year set in brackets at a line's end ("(20220829)" after a changelog's entry), unless
# the labels met before it lead up to it (a book past its thousandth equation has printed 999 first).
LONG_NUMBER_DIGITS = 4      # digits: a part this long is a year's or a date's unless a sequence reaches it
SEQUENCE_STEP = 3           # the most a label goes past the last one met (labels a reading missed between)


def sequence_reaches(number: str, last: str | None) -> bool:
    """Whether an equation number may be a label after the last one met: any number of short parts
    may (a book's numbering restarts in each chapter, and a reading may miss labels); one with a
    part of LONG_NUMBER_DIGITS digits or more only when it continues the last, the same parts before
    its last, that one a little larger ('1000' after '999' or '998'; '2022.8.29' after nothing)."""
    parts = number.split(".")
    if all(len(part.rstrip("abcdefghijklmnopqrstuvwxyz")) < LONG_NUMBER_DIGITS for part in parts):
        return True
    before = (last or "").split(".")
    if last is None or len(before) != len(parts) or before[:-1] != parts[:-1]:
        return False
    step = _leading_int(parts[-1]) - _leading_int(before[-1])
    return number != last and 0 <= step <= SEQUENCE_STEP


def reached_by_its_kind(kind: str, number: str, taken) -> bool:
    """Whether a head's number may be a numbered thing's, given the (kind, number) pairs met before
    it: any number of short parts may; one with a part of LONG_NUMBER_DIGITS digits or more only when
    a number of its kind met before leads up to it.  A year or a code after a word is no count
    ("Knuth 1984" in a citation, "Gourmet. 2000." opening a reference, a centred "ISBN 978-3-…"): a
    thing's numbering starts small, and the thousandth comes after the 999th."""
    return sequence_reaches(number, None) or any(k == kind and sequence_reaches(number, n) for k, n in taken)


def _leading_int(part: str) -> int:
    """'1000' -> 1000, '1000a' -> 1000 (a sub-letter's base); -1 for a part that is no number (an appendix's 'A')."""
    digits = part.rstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits.isdigit() else -1


def equation_printed(text: str) -> str | None:
    """An equation number as printed, when its stored form is not just its separators changed:
    '(2.4.a)' -> '2.4.a' (stored '2.4a'); '(1:1)', '(5.3)' -> None."""
    number = equation_number(text)
    printed = text.strip()[1:-1].strip() if number else ""
    return printed if printed and head_number(printed) != number else None


# --------------------------------------------------------------------------- entity heads
"""Entity heads: "Theorem 5.1 (Name).", "Figure 3.2:", "Example 2.12" — any numbered thing, found by typography."""

# A word, a number, and what follows.  The word is any capitalised word: the kind of thing a book
# numbers is whatever it prints ("Assumption 2.1", "Problem 3.4"), not a list of ours, in whatever
# script its language is written ("Şekil 1.2", "Таблица 3", "Ábra 1"; `[^\W\d_]` is a letter of any
# script, and a capital is asked of its first by head_word_match, as Python's re knows no \p{Lu}).
# (KOMA-Script ends a number with a dot before a caption's colon, "Figure 1.1.:", the colon its
# separator; a harder exercise carries a star or a dagger after its number, "Exercise 2.5*".)
HEAD_RE = re.compile(r"^(?P<word>[^\W\d_]{2,25})(?P<dot>\.)?\s+"
                     r"(?P<num>[A-Z](?:[.:\-–]\d+)+|\d+(?:[.:\-–]\d+)*[a-z]?)"
                     r"[*†‡∗⋆]{0,3}(?:\.(?=:))?(?P<sep>[.:])?(?=\s|$|\()\s*(?P<rest>.*)$")
# The abbreviations books print for a kind.
KIND_ABBREVIATIONS = {"fig": "figure", "figs": "figure", "tab": "table", "eq": "formula", "eqn": "formula",
                      "equation": "formula", "alg": "algorithm", "algo": "algorithm", "thm": "theorem",
                      "lem": "lemma", "prop": "proposition", "cor": "corollary", "def": "definition",
                      "defn": "definition", "rem": "remark", "exer": "exercise", "prob": "problem",
                      "conj": "conjecture", "lst": "listing", "prog": "program"}
# Words that number the book's own parts, or steps inside a text, never a thing the book defines.
NOT_ENTITY_WORDS = {"chapter", "section", "subsection", "part", "appendix", "page", "pages", "lecture", "unit",
                    "module", "lesson", "step", "steps", "case", "cases", "item", "stage", "phase", "level", "line",
                    "lines", "version", "release", "volume", "vol", "no", "number", "week", "day", "session",
                    "round", "class", "grade", "year", "rule", "the", "and", "for", "see", "in", "of", "on",
                    "at", "by", "to", "with", "from", "as", "or", "is", "are", "if", "let", "then", "we"}
# The words of a book that name no kind in it: those it labels its own divisions with, in whatever
# language it is written ("Bölüm", "Hoofdstuk"), and those whose heads count down ("Version 1.18",
# "1.16", …): read off its pages (build_roles.division_words, words_numbered_backwards), set while
# the book is read.
DIVISION_WORDS: ContextVar[frozenset] = ContextVar("DIVISION_WORDS", default=frozenset())
# Kinds printed as captioned floats: their body is a drawing, a table's rows or code, not running text.
FLOAT_KINDS = ("figure", "table", "algorithm", "listing")


def head_word_match(text: str) -> re.Match | None:
    """HEAD_RE's match of a line's text, when its word opens with a capital (of any script)."""
    m = HEAD_RE.match(text)
    return m if m and m.group("word")[0].isupper() else None


def head_number(printed: str) -> str | None:
    """A head's number as stored, whatever separator the book prints: '2-5', '2:5', '2–5' -> '2.5'."""
    return normalize_number(re.sub(r"[:\-–]", ".", printed))


def entity_kind(word: str) -> str | None:
    """The kind a printed head word names: 'Fig.' -> figure, 'Theorem' -> theorem; None for structure words."""
    w = word.strip().rstrip(".").lower()
    w = KIND_ABBREVIATIONS.get(w, w)
    if not w.isalpha() or len(w) < 3 or w in NOT_ENTITY_WORDS or w in DIVISION_WORDS.get():
        return None
    return w


@contextmanager
def in_division_words(words):
    """Within it, the words a book labels its divisions with, or counts down with (lower case), name
    no kind of numbered thing."""
    token = DIVISION_WORDS.set(frozenset(words))
    try:
        yield
    finally:
        DIVISION_WORDS.reset(token)


@dataclass
class Head:
    """A numbered head at the start of a line."""

    kind: str
    number: str           # as printed, separators made periods
    title: str            # "(Cauchy-Schwarz)" or a bold name after the number, else ""
    rest: str             # the line's text after the head and title
    head_words: int       # how many of the line's words the head and title take
    distinct: bool        # set in a face of its own: bold, or italic or capitals against upright body text
    sep: str              # "." or ":" right after the number, "–" for a dash standing after it, or ""
    printed: str = ""     # the number as printed when its separators are not periods ("2-5", "1:3"), else ""


# A small-capitals face, by the names fonts give it ("…-SC", "CSC10", "…Caps").
CAPS_FONT_RE = re.compile(r"Caps|SC\d|CSC|-SC|SmallCap", re.I)


def match_head(line: Line, body_font: str) -> Head | None:
    """The numbered head a line starts with, if any: "Theorem 2.9 Division Algorithm. Let …"."""
    words = line.words
    if len(words) < 2:
        return None
    m = head_word_match(f"{words[0].text} {words[1].text}")
    dash = 0
    if m:
        word, num, sep = m.group("word"), m.group("num"), m.group("sep") or ""
        if not sep and len(words) > 2 and words[2].text in CAPTION_DASHES:
            # "Table 1 – Liste des …": a dash standing alone after the number parts it from the text
            # as a colon does (French typography's caption, the caption package's labelsep=endash)
            sep, dash = "–", 1
    else:
        found = _number_first(words)
        if found is None:
            return None
        word, num, sep = found
    kind = entity_kind(word)
    number = head_number(num)
    if kind is None or number is None:
        return None
    first = words[0]
    after = words[2 + dash:]
    bold = first.bold and words[1].bold
    caps = bool(CAPS_FONT_RE.search(first.font)) or (first.text.isupper() and len(first.text) > 3)
    # (a font with no name, a Type 3 font of bitmaps, is told from the text's by its face alone: its
    # italic is read from its drawing, build_glyphs.weigh_nameless_fonts)
    own_face = first.font != body_font or not first.font
    slanted = first.italic and own_face and not all(w.italic for w in after[:4])
    # (an italic or capitals head sets its number in its own face, ntheorem's "Remark 2 The …", or
    # upright with a point after it, amsthm's "Remark 2." (\@upn): an italic word before an upright
    # number that the text runs on from is a title cited in prose, "CMOS 14.34 also shows how …")
    number_in_face = words[1].font != body_font or not words[1].font
    distinct = bold or ((caps or slanted) and own_face and (number_in_face or bool(sep)))
    if not m:
        # numbered first: a bold number, the word in a face of its own (bold, small capitals); or number
        # and word both in the italic of a remark's head, the text after them upright ("5.1.5 Remark. The …");
        # or the word alone in small capitals with its point, the number in the text's face (amsbook's and
        # amsart's heads under \swapnumbers, "1.2. Definition. A sequence …"): no word of running text is
        # set in small capitals after a number with a point after it
        word_face = words[1].bold or bool(CAPS_FONT_RE.search(words[1].font)) or words[1].font != body_font
        caps_word = bool(CAPS_FONT_RE.search(words[1].font)) and sep == "."
        distinct = first.bold and word_face or slanted and words[1].italic or caps_word
    # A title: "(Name)" right after the number, or words in the head's own bold face ending in ".".
    title, used = "", 2 + dash
    if after and after[0].text.startswith("("):
        depth = 0     # the title's own parentheses: "(Optimality of (s, S) policies)"
        for k, w in enumerate(after):
            depth += w.text.count("(") - w.text.count(")")
            if depth <= 0 and w.text.rstrip(".:").endswith(")"):
                title = " ".join(x.text for x in after[:k + 1]).rstrip(".:").strip()[1:-1]
                used = 2 + dash + k + 1
                break
    elif bold and after and after[0].bold:
        for k, w in enumerate(after[:12]):
            if not w.bold:
                break
            if w.text.endswith("."):
                title = " ".join(x.text for x in after[:k + 1]).rstrip(".")
                used = 2 + dash + k + 1
                break
    rest = " ".join(w.text for w in words[used:])
    printed = num if num != number else ""
    return Head(kind, number, title, rest, used, distinct, sep, printed)


def _number_first(words: list) -> tuple[str, str, str] | None:
    """A head numbered first, as some books set them: "2.14 Theorem." or "2.14 Theorem (Name)." (word,
    number, separator).  The word ends in a point, after it or after its title in parentheses: a
    section's "2.1 Costs and service" and a paragraph's "2.5 Theorem 2.4 says …" do not.  The number
    is numbered within its chapter: a clause's "4. MODIFICATIONS." (a licence's) is a list's item.
    With no point after the word (ntheorem's `change` and `margin` styles print no separator, "1.3
    Example The …"), number and word are bold and the line runs on in running words of another face:
    the bold ends where the head ends, as it does after a run-in head's point."""
    m = NUMBER_FIRST_RE.fullmatch(words[0].text)
    w = WORD_FIRST_RE.fullmatch(words[1].text)
    if not m or not w:
        return None
    if w.group(2):
        return w.group(1), m.group(1), "."
    if _runs_on_unpointed(words, 2):
        return w.group(1), m.group(1), ""
    depth = 0
    for k, x in enumerate(words[2:2 + NUMBER_FIRST_TITLE], 2):
        if depth == 0 and not x.text.startswith("("):
            return None
        depth += x.text.count("(") - x.text.count(")")
        if depth <= 0:
            if x.text.endswith(")."):
                return w.group(1), m.group(1), "."
            return (w.group(1), m.group(1), "") if x.text.endswith(")") and _runs_on_unpointed(words, k + 1) else None
    return None


def _runs_on_unpointed(words: list, after: int) -> bool:
    """The head's words (number, word and any title, words[:after]) bold, the word after them on the
    line not bold and opening with a letter: a run-in head with no separator.  A section heading "2.1
    Costs and service" goes on in its own bold, and a paragraph's "2.5 Theorem 2.4 says …" is not bold."""
    return (len(words) > after and all(x.bold for x in words[:after]) and not words[after].bold
            and words[after].text[:1].isalpha())


def head_alone(line: Line) -> Head | None:
    """A head numbered first standing alone on its line with no separator: "1.1 Definition" or "1.4
    Theorem (Name)", every word bold (ntheorem's `marginbreak` and `changebreak` styles end the head's
    line and set the body under it).  Such a line reads as a section's heading just as well ("2.1
    Introduction"); only the step to the line under it tells them apart (build_roles.head_on_its_line)."""
    words = line.words
    if len(words) < 2 or not all(w.bold for w in words):
        return None
    m = NUMBER_FIRST_RE.fullmatch(words[0].text)
    w = WORD_FIRST_RE.fullmatch(words[1].text)
    if not m or not w or w.group(2):
        return None     # (a point after the word is a run-in head's: match_head reads it)
    title = ""
    if len(words) > 2:
        text = " ".join(x.text for x in words[2:])
        if len(words) - 2 > NUMBER_FIRST_TITLE or not (text.startswith("(") and text.endswith(")")) or \
                text.count("(") != text.count(")"):
            return None
        title = text[1:-1]
    kind = entity_kind(w.group(1))
    number = head_number(m.group(1))
    if kind is None or number is None or kind in FLOAT_KINDS:
        return None
    return Head(kind, number, title, "", len(words), True, "")


CAPTION_DASHES = ("–", "—")     # an en or em dash set as a word of its own between a number and a caption


NUMBER_FIRST_RE = re.compile(r"(\d{1,3}(?:\.\d{1,3}){1,3})\.?")      # "2.14" or "2.14." before the word
WORD_FIRST_RE = re.compile(r"([A-Z][A-Za-z]{2,24})(\.)?")            # "Theorem." (or "Theorem" before a title)
NUMBER_FIRST_TITLE = 12     # words: the longest title in parentheses a head numbered first carries


PHRASE_HEAD_WORDS = 3       # words: the longest name a head's phrase gives its kind ("Abuse of Notation")
PHRASE_NUMBER_RE = re.compile(r"(\d{1,3}(?:\.\d{1,3}){0,3})([.:]?)")   # its number: "1.2.6." or "4"


def phrase_head(line: Line) -> Head | None:
    """A head whose kind is named by a phrase ("Abuse of Notation 1.2.6."): two or three words and a
    number, every one in bold (the head's face), the line's text after it not bold; the kind is its
    first word. Whether such a line is a head is for its number to say (build_roles.phrase_run_in_head):
    "Proof of Theorem 2.1" is set the same way."""
    words = line.words
    for k in range(2, PHRASE_HEAD_WORDS + 1):
        if len(words) <= k:
            return None
        m = PHRASE_NUMBER_RE.fullmatch(words[k].text)
        if m:
            break
    else:
        return None
    named = words[:k]
    if not (all(w.bold for w in words[:k + 1]) and named[0].text[:1].isupper() and named[0].text.isalpha()
            and all(w.text.isalpha() for w in named) and (len(words) == k + 1 or not words[k + 1].bold)):
        return None
    kind, number = entity_kind(named[0].text), normalize_number(m.group(1))
    if kind is None or number is None:
        return None
    rest = " ".join(w.text for w in words[k + 1:])
    return Head(kind, number, "", rest, k + 1, True, m.group(2))


# A theorem declared with an empty name (`\newtheorem{exer}{}[section]`) prints its number alone, bold,
# with the head's point: "**1.1.3.** When λ ≠ δ, …".  The page names no kind, so the builder files it
# under the kind it already gives the other numbers a book prints with no word, an exercise list's "3."
# (build_roles.exercise_item): in the books we met such heads number exercises and problems, whose
# name the book's prose says once ("the next exercises show") and the heads leave out.
NUMBER_ALONE_RE = re.compile(r"(\d{1,3}(?:\.\d{1,3}){1,3})\.")      # "1.1.3.": the number and the head's point
NAMELESS_KIND = "exercise"


def number_alone_head(line: Line) -> Head | None:
    """A head that is a bold number alone with its point, the line's text after it not bold (a
    section's heading goes on in its bold title): "1.1.3. When λ ≠ δ, …".  A numbered paragraph
    prints the same; its face and its number's place in the book's sequence tell them apart
    (build_roles.nameless_head)."""
    words = line.words
    if len(words) < 2 or not words[0].bold or words[1].bold:
        return None
    m = NUMBER_ALONE_RE.fullmatch(words[0].text)
    number = normalize_number(m.group(1)) if m else None
    if number is None:
        return None
    rest = " ".join(w.text for w in words[1:])
    return Head(NAMELESS_KIND, number, "", rest, 1, True, ".")


def is_head_like(line: Line) -> bool:
    """True when a line starts like an entity head ("Table 4.2 …"), whatever its face."""
    m = head_word_match(line.text)
    return bool(m) and entity_kind(m.group("word")) is not None


# --------------------------------------------------------------------------- bookmarks
"""Bookmarks: the headings the PDF's outline points at, found on their pages with their numbers."""


@dataclass
class OutlineHeading:
    """A heading the PDF's bookmarks point at, found on its page."""

    level: int              # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection
    number: str | None      # as printed ("3", "3.1", "A", "II"); None for unnumbered ones (Preface, Index)
    title: str
    page: int
    baseline: float         # the heading line's baseline on its page
    outline_level: int = 0


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _after_number(title: str, text: str) -> bool:
    """Whether a line prints the title right after a number ("4.2 A Single Order")."""
    at = text.find(title)
    return at > 0 and text[:at].rstrip(".: ")[-1:].isdigit()


_LEADING_NUMBER = re.compile(r"^(?:(?P<word>chapter|part|appendix|lecture)\s+)?(?P<num>(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+))"
                             r"(?:\.|:)?(?:\s+|$)", re.IGNORECASE)


def _heading_number(line: Line, above: list[Line]) -> tuple[str | None, str | None]:
    """(number, 'part' | 'appendix' | None) printed on a heading line or on a label line right above it
    ("3.1 Title", "Chapter 3" / "3" above the title, "Appendix A", "Part II")."""
    for candidate in [line] + above:
        m = _LEADING_NUMBER.match(candidate.text)
        if not m:
            continue
        word, num = (m.group("word") or "").lower(), m.group("num")
        rest = candidate.text[m.end():].strip()
        if word == "part" or (re.fullmatch(r"[IVXLC]+", num) and word != "chapter" and (not rest or candidate is not line)):
            if word == "part" or candidate is not line:
                return num.upper(), "part"
            continue
        if num.isalpha() and not word and not (candidate is not line and not rest):
            continue  # "A Short Note on Proofs": a word, not an appendix letter
        if candidate is not line and rest and word not in ("chapter", "appendix", "lecture"):
            continue  # a line above that says more than a label is not the heading's number
        return (num.upper() if num.isalpha() else num), ("appendix" if word == "appendix" else None)
    return None, None


def _words_of(text: str) -> list[Word]:
    """Plain words (no positions) for reading a number off a bookmark's title with _heading_number."""
    return [Word(t, 0, 0, 0, 0, 0, False, False) for t in text.split()]


def _unglued(title: str, page: Page) -> str:
    """A bookmark's title as its page prints it, when it is two lines of the heading run together
    with nothing between them ("CHAPTER 1Ordering at a Steady Rate"): an HTML engine's bookmark takes
    its element's text, and a label set as a block of its own over the title adds no space."""
    text = " ".join(title.split())
    for above, below in zip(page.lines, page.lines[1:]):
        first, second = " ".join(above.text.split()), " ".join(below.text.split())
        if first and second and text == first + second:
            return f"{first} {second}"
    return title


TEXT_SIZE_SLACK = 0.3    # pt: a line of the page's running text is set within this of its size


def _text_size(page: Page) -> float:
    """The size of a page's running text: the size most of its characters are set in."""
    sizes = Counter()
    for line in page.lines:
        sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def outline_headings(document: Document) -> dict[int, list[OutlineHeading]]:
    """The bookmarks' headings, placed on their lines: {pdf page: [headings]}.

    Each bookmark's title is looked for on its page, near the height it points at; its number is
    read from that line or from a label right above it ("Chapter 3", a big "3").  An unnumbered
    bookmark whose children are numbered "3.1", "3.2" is chapter 3."""
    found: list[OutlineHeading | None] = []
    for entry in document.outline:
        if not 1 <= entry.page <= len(document.pages):
            found.append(None)
            continue
        page = document.pages[entry.page - 1]
        entry = replace(entry, title=_unglued(entry.title, page))
        # Bookmarks often carry the number: "I Probabilistic Reasoning", "2.1 Sets"; the page sets it apart.
        prefix = _LEADING_NUMBER.match(entry.title.strip())
        core = entry.title.strip()[prefix.end():] if prefix and len(entry.title.strip()[prefix.end():]) >= 3 else ""
        # a lone capital is a number (Appendix "A Notation") unless the page prints it after the
        # heading's own number ("4.2 A Single Order": an article)
        if core and not prefix.group("word") and re.fullmatch(r"[A-Z]", prefix.group("num")) and \
                any(_after_number(_norm(entry.title)[:24], _norm(l.text)) for l in page.lines):
            core = ""
        title = _norm(core or entry.title)
        if len(title) < 3:
            found.append(None)
            continue
        candidates = []
        for i, line in enumerate(page.lines):
            text = _norm(line.text)
            if not text or len(text) > len(title) + 16 or re.search(r"(\.\s?){3,}\S*$", line.text):
                continue  # too long for this title, or a contents line ("1.1 Title . . . 3")
            if title[:24] not in text and not (len(text) >= 6 and title.startswith(text[-min(len(text), 24):])):
                continue
            candidates.append((i, line, _after_number(title[:24], text)))
        # The heading is the largest such line; among equals, the one nearest where the bookmark points.
        # A line of the text's own size that prints the title with no number before it (a paragraph's
        # last words, "Little's law:") comes after one that numbers it: a section's heading set in
        # capitals a step under the text's size ("1.2 LITTLE'S LAW", classicthesis's small capitals
        # where the font has none) is smaller, and text does not number what it says.
        body = _text_size(page) if any(numbered for _, _, numbered in candidates) else None
        best, best_key = None, None
        for i, line, numbered in candidates:
            in_text = body is not None and not numbered and abs(line.size - body) < TEXT_SIZE_SLACK
            key = (in_text, -round(line.size), abs(line.top - entry.top) if entry.top is not None else 0, i)
            if best_key is None or key < best_key:
                best, best_key = i, key
        if best is None:
            found.append(None)
            continue
        line = page.lines[best]
        above = [l for l in page.lines[max(0, best - 2):best] if line.top - l.bottom < line.size * 4]
        number, what = _heading_number(line, list(reversed(above)))
        if number is None and core:
            number, what = _heading_number(Line(_words_of(entry.title.strip()), entry.page), [])
        level = 0 if what == "part" else (number.count(".") + 1 if number else -1)
        found.append(OutlineHeading(min(level, 4), number, (core or entry.title).strip(), entry.page, line.baseline,
                                    entry.level))
    # Unnumbered bookmarks over numbered children: chapter N when the children are N.1, N.2, …
    entries = document.outline
    for i, h in enumerate(found):
        if h is None or h.number:
            continue
        children = []
        for j in range(i + 1, len(entries)):
            if entries[j].level <= entries[i].level:
                break
            if found[j] and found[j].number and entries[j].level == entries[i].level + 1:
                children.append(found[j].number)
        prefixes = {c.rsplit(".", 1)[0] for c in children if "." in c}
        if len(prefixes) == 1:
            h.number = prefixes.pop()
            h.level = h.number.count(".") + 1
    # The outline depth of chapters: unnumbered bookmarks at that depth are unnumbered chapters.
    chapter_depths = Counter(h.outline_level for h in found if h and h.level == 1)
    base = chapter_depths.most_common(1)[0][0] if chapter_depths else 0
    part_depths = {h.outline_level for h in found if h and h.level == 0}
    out: dict[int, list[OutlineHeading]] = defaultdict(list)
    for h in found:
        if h is None:
            continue
        if h.level < 0 and h.outline_level in part_depths and h.outline_level < base:
            # An unnumbered bookmark beside the parts: the appendices' divider is the part "Appendices".
            h.level = 0
            if re.fullmatch(r"(?i)appendi(x|ces)", h.title.strip()):
                h.number = "Appendices"
        elif h.level < 0:
            h.level = max(1, min(4, 1 + h.outline_level - base))
        out[h.page].append(h)
    return dict(out)
