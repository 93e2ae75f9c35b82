"""Quote checks: is a passage in the book (exactly, or but for how it is written), where, and what is closest.

Sections, top-down: folding (one spelling for case, spacing, hyphenation, ligatures and LaTeX vs
Unicode maths), the book's folded text (built once per knowledge base), and the check itself.
Core: imports rag_core and rag_budget only.  Every pass is linear in the text it reads.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache
from typing import Any

from rag_budget import MAX_PASSAGE, NavigationError, per_knowledge_base
from rag_core import BLANKS, KnowledgeBase

# --------------------------------------------------------------------------- folding
"""Folding: the letters, digits and mathematical signs of a text, in order, in one spelling."""

# LaTeX commands that print a sign or a word; any other command prints nothing of its own.
_LATEX_SIGNS = {
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "propto": "∝",
    "equiv": "≡", "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "mapsto": "↦", "Rightarrow": "⇒",
    "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "setminus": "∖",
    "sum": "∑", "prod": "∏", "int": "∫", "infty": "∞", "partial": "∂", "nabla": "∇", "times": "×", "cdot": "⋅",
    "pm": "±", "mid": "|", "vert": "|", "perp": "⊥", "forall": "∀", "exists": "∃", "neg": "¬", "lor": "∨",
    "land": "∧", "wedge": "∧", "vee": "∨", "emptyset": "∅", "varnothing": "∅", "ell": "ℓ",
    "langle": "⟨", "rangle": "⟩", "star": "⋆", "circ": "∘", "otimes": "⊗", "oplus": "⊕", "top": "⊤",
    "dots": "", "ldots": "", "cdots": "", "quad": "", "qquad": "",
}
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
          "upsilon phi chi psi omega").split()
for _i, _name in enumerate(_GREEK):
    _LATEX_SIGNS[_name] = chr(0x3B1 + _i + (1 if _i >= 17 else 0))          # ς (U+03C2) is skipped
    _LATEX_SIGNS[_name.capitalize()] = chr(0x391 + _i + (1 if _i >= 17 else 0))
_LATEX_SIGNS.update({"varepsilon": "ε", "vartheta": "θ", "varphi": "φ", "varrho": "ρ", "varsigma": "σ",
                     "varpi": "π"})
_WORD_OPERATORS = ("min max log ln exp sin cos tan lim sup inf arg det dim ker Pr var Var mod gcd").split()
_LATEX_COMMAND_RE = re.compile(r"\\([A-Za-z]+)|\\(.)")
# Signs that differ only in how they were typed: minus and dashes fold away with hyphens; these stay.
_SAME_SIGN = {"∣": "|", "⋅": "⋅", "·": "⋅", "∗": "*", "≦": "≤", "≧": "≥", "⩽": "≤", "⩾": "≥", "ϵ": "ε",
              "ϑ": "θ", "ϕ": "φ", "ϱ": "ρ", "ς": "σ", "ϖ": "π"}


def _latex_sign(match: re.Match) -> str:
    """What one LaTeX command prints: a sign (\\gamma -> γ, \\leq -> ≤), a word (\\min), or nothing."""
    name = match.group(1)
    if name is None:
        return match.group(2) if match.group(2) in "{}%$&#_|" else ""
    if name in _LATEX_SIGNS:
        return _LATEX_SIGNS[name]
    return name if name in _WORD_OPERATORS else ""


@lru_cache(maxsize=65536)
def _folded_char(ch: str) -> str:
    """What one character folds to: NFKC and case folded, only letters, digits and mathematical signs."""
    out = []
    for piece in unicodedata.normalize("NFKC", ch).casefold():
        piece = _SAME_SIGN.get(piece, piece)
        if piece.isalnum() or (unicodedata.category(piece) == "Sm" and piece not in "−∓"):
            out.append(piece)          # a minus folds away with hyphens and dashes
    return "".join(out)


def _group_ends(text: str) -> list[int]:
    """For each "{" of the text, the index just after the "}" that closes it (the text's end when none
    does), every other index mapped to itself; escaped braces (\\{) are no group.  One pass."""
    ends = list(range(len(text)))
    open_at: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            open_at.append(i)
        elif ch == "}" and open_at:
            ends[open_at.pop()] = i + 1
        i += 1
    for k in open_at:
        ends[k] = n
    return ends


def _script_end(text: str, i: int, group_end: list[int]) -> int:
    """Where the argument of a script mark ending just before i ends: a braced group, a command, or
    one character (spaces before it skipped)."""
    n = len(text)
    while i < n and text[i] == " ":
        i += 1
    if i >= n:
        return i
    if text[i] == "{":
        return group_end[i]
    if text[i] == "\\":
        j = i + 1
        while j < n and text[j].isalpha():
            j += 1
        return max(j, min(i + 2, n))
    return i + 1


def scripts_in_order(text: str) -> tuple[str, list[int]]:
    """LaTeX with every superscript written before its subscript (`G^{(i)}_{d-1}`) turned round
    (`G_{d-1}^{(i)}`): both print the same, and the book's text may hold either.  Returns the text
    and, per character, its index in the original.  Linear: braces are matched once, up front, so
    no argument is scanned again for each script mark inside it."""
    group_end = _group_ends(text)
    out: list[str] = []
    where: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:          # an escaped character or a command is copied whole
            out.append(text[i:i + 2])
            where.extend((i, i + 1))
            i += 2
            continue
        if ch == "^":
            sup_end = _script_end(text, i + 1, group_end)
            j = sup_end
            while j < n and text[j] == " ":
                j += 1
            if j < n and text[j] == "_":
                sub_end = _script_end(text, j + 1, group_end)
                for start, end in ((j, sub_end), (i, sup_end)):
                    out.append(text[start:end])
                    where.extend(range(start, end))
                i = sub_end
                continue
        out.append(ch)
        where.append(i)
        i += 1
    return "".join(out), where


def fold_with_positions(text: str) -> tuple[str, list[int]]:
    """The text in one spelling, with the index in text each folded character comes from: LaTeX
    commands as the signs they print (superscripts after subscripts), NFKC (ligatures, script and
    subscript letters), case folded, and only letters, digits and mathematical signs kept (so spacing,
    hyphenation, line-end hyphens and punctuation no longer count)."""
    if "^" in text and "_" in text:
        ordered, original = scripts_in_order(text)
        if ordered != text:
            folded, where = _fold_signs(ordered)
            return folded, [original[k] for k in where]
    return _fold_signs(text)


def _fold_signs(text: str) -> tuple[str, list[int]]:
    """fold_with_positions() for text whose scripts are in order."""
    out: list[str] = []
    where: list[int] = []
    position = 0
    commands = _LATEX_COMMAND_RE.finditer(text) if "\\" in text else iter(())
    for match in commands:
        for i in range(position, match.start()):
            for ch in _folded_char(text[i]):
                out.append(ch)
                where.append(i)
        for ch in "".join(_folded_char(c) for c in _latex_sign(match)):
            out.append(ch)
            where.append(match.start())
        position = match.end()
    for i in range(position, len(text)):
        for ch in _folded_char(text[i]):
            out.append(ch)
            where.append(i)
    return "".join(out), where


def fold(text: str) -> str:
    """fold_with_positions() without the positions."""
    if "\\" in text or ("^" in text and "_" in text):
        return fold_with_positions(text)[0]
    return "".join(map(_folded_char, text))


# --------------------------------------------------------------------------- the book's folded text
"""The book's folded text: prose in reading order as one string (quotes cross chunk ends), then each
entity's own text, apart."""

_SEPARATOR = "\x00"   # fold() never keeps it: no quote matches across it


class FoldedBook:
    """Every chunk's folded text in one string, with where each chunk starts."""

    def __init__(self, kb: KnowledgeBase):
        rows = list(kb.db.execute("SELECT id, kind, content, page, page_label, pdf_page, ord FROM chunks ORDER BY "
                                  "kind != 'text', ord"))
        self.chunks = rows
        self.starts: list[int] = []
        parts: list[str] = []
        length = 0
        text_chunks = sum(1 for r in rows if r[1] == "text")
        for i, (_, kind, content, *_) in enumerate(rows):
            piece = fold(content)
            if i >= text_chunks:        # entities stand apart from the prose and from each other
                piece = _SEPARATOR + piece
            self.starts.append(length)
            parts.append(piece)
            length += len(piece)
        self.text = "".join(parts)
        # Each text chunk's next text chunk's page: a passage near a chunk's end may be printed there.
        self.next_page = {rows[i][0]: rows[i + 1][3] for i in range(text_chunks - 1)}

    def chunk_at(self, position: int) -> int:
        return bisect.bisect_right(self.starts, position) - 1


folded_book = per_knowledge_base(FoldedBook)


# --------------------------------------------------------------------------- the check
"""The check: found (verbatim, or but for spelling), or absent with the closest passage."""

GRAM = 8               # the closest passage is found by shared runs of this many folded characters
MAX_OCCURRENCES = 10


def _place(book: FoldedBook, index: int, kb: KnowledgeBase) -> dict:
    cid, kind, _, page, label, pdf_page, _ = book.chunks[index]
    out: dict[str, Any] = {"id": cid, "kind": kind, "page": page}
    if label and label != str(page):
        out["page_label"] = label
    out["pdf_page"] = pdf_page
    following = book.next_page.get(cid)
    if following is not None and page is not None and following > page:
        out["page_end"] = following          # the chunk runs on to the next page: the passage may be there
    return out


def _original(book: FoldedBook, index: int, start: int, length: int) -> str:
    """The chunk's own text (LaTeX kept) for its folded characters start..start+length."""
    content = book.chunks[index][2]
    _, where = fold_with_positions(content)
    if not where:
        return ""
    start = min(max(start, 0), len(where) - 1)
    span = where[start:max(min(start + length, len(where)), start + 1)]
    return content[min(span):max(span) + 1]      # scripts put in order may have moved a character


def check_quote(kb: KnowledgeBase, passage: Any) -> dict:
    """Whether the book contains the passage: {"found", "match": "verbatim" | "normalized" | None,
    "occurrences": [{id, kind, page, pdf_page, text}], "closest": {... "similarity"} when absent}."""
    if not isinstance(passage, str) or not passage.strip(BLANKS):
        raise NavigationError("passage must be non-empty text")
    if len(passage) > MAX_PASSAGE:
        raise NavigationError(f"passage must be at most {MAX_PASSAGE} characters: check one sentence or a few")
    wanted = fold(passage)
    book = folded_book(kb)
    if not wanted:     # punctuation and spaces only: nothing the book could be said to contain
        return {"found": False, "match": None, "occurrences": [], "closest": None, "folded_length": 0}
    occurrences = []
    start = book.text.find(wanted)
    while start >= 0 and len(occurrences) < MAX_OCCURRENCES:
        index = book.chunk_at(start)
        place = _place(book, index, kb)
        place["text"] = _original(book, index, start - book.starts[index] - (1 if index >= _first_entity(book) else 0),
                                  len(wanted))
        occurrences.append(place)
        start = book.text.find(wanted, start + 1)
    if occurrences:
        verbatim = any(" ".join(passage.split()) in " ".join(book.chunks[i][2].split())
                       for i in {book.chunk_at(book.text.find(wanted))})
        return {"found": True, "match": "verbatim" if verbatim else "normalized", "occurrences": occurrences,
                "folded_length": len(wanted)}
    return {"found": False, "match": None, "occurrences": [], "closest": closest(kb, book, wanted),
            "folded_length": len(wanted)}


def _first_entity(book: FoldedBook) -> int:
    return next((i for i, row in enumerate(book.chunks) if row[1] != "text"), len(book.chunks))


def closest(kb: KnowledgeBase, book: FoldedBook, wanted: str) -> dict | None:
    """The book's passage sharing the most GRAM-character runs with the wanted one, placed where most
    shared runs agree it starts; similarity = the share of the wanted runs found there."""
    grams = {wanted[i:i + GRAM]: i for i in range(0, max(len(wanted) - GRAM + 1, 1), 2)}
    starts: dict[int, list[int]] = {}
    for gram, offset in list(grams.items())[:64]:
        position, seen = book.text.find(gram), 0
        while position >= 0 and seen < 20:
            starts.setdefault((position - offset) // 8, []).append(position - offset)
            position, seen = book.text.find(gram, position + 1), seen + 1
    if not starts:
        return None
    bucket = max(starts, key=lambda b: (len(starts[b]) + len(starts.get(b - 1, ())) + len(starts.get(b + 1, ())), -b))
    near = sorted(starts[bucket] + starts.get(bucket - 1, []) + starts.get(bucket + 1, []))
    begin = max(near[len(near) // 2], 0)
    window = book.text[begin:begin + len(wanted)]
    present = {window[i:i + GRAM] for i in range(max(len(window) - GRAM + 1, 1))}
    share = sum(1 for gram in grams if gram in present) / len(grams)
    index = book.chunk_at(begin)
    entity = index >= _first_entity(book)
    chunk_start = book.starts[index] + (1 if entity else 0)
    if begin < chunk_start:
        begin = chunk_start
    place = _place(book, index, kb)
    text = _original(book, index, begin - chunk_start, len(wanted))
    chunk_end = book.starts[index + 1] if index + 1 < len(book.starts) else len(book.text)
    if begin + len(wanted) > chunk_end and not entity and index + 1 < len(book.chunks):
        text += " " + _original(book, index + 1, 0, begin + len(wanted) - chunk_end)
    place["text"] = text
    place["similarity"] = round(share, 3)
    return place
