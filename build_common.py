"""build_common.py: what the builder's readers and its writer share: the error, the token budget, numbering.

build_pdf.py and build_markdown.py turn a source into Chunk and Section rows (rag_store.py's: the
knowledge file's own row types; text cut to the model's window by split_to_budget); build_db.py
links, embeds and writes them.  The shared definitions live here so that the readers never import
build_db.py.  rag.py imports none of this.
"""

from __future__ import annotations

import re

from rag_store import Chunk, Section  # noqa: F401  (the knowledge file's rows, as the readers make them)

# Operator names TeX sets upright (\log, \max); those with limits below in a display take them.  Shared by
# the formula reader and the glyph reader (a word of prose is none of them).
OPERATOR_NAMES = {"min", "max", "log", "ln", "lg", "exp", "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh",
                  "tanh", "coth", "arcsin", "arccos", "arctan", "lim", "sup", "inf", "det", "arg", "Pr", "deg", "dim",
                  "ker", "gcd", "hom", "liminf", "limsup", "mod", "injlim", "projlim"}

MAX_CHUNK_TOKENS = 256      # the model truncates beyond this, so no chunk is longer
TARGET_CHUNK_TOKENS = 180   # text chunks aim here and close at the next paragraph end


class BuildError(Exception):
    """A build that cannot go on; the message is one actionable line."""


# --------------------------------------------------------------------------- budget
"""Budget: text cut into pieces that fit the model's window."""


def split_to_budget(text: str, count_tokens, code: bool = False) -> list[str]:
    """Split text into pieces within the model's window: prose at sentence ends, code at line ends;
    a single unit still too long is cut by words."""
    if count_tokens(text) <= MAX_CHUNK_TOKENS:
        return [text]
    units = text.splitlines() if code else re.split(r"(?<=[.!?:])\s+", text)
    joiner = "\n" if code else " "
    pieces, current = [], ""
    for unit in units:
        candidate = f"{current}{joiner}{unit}" if current else unit.strip() if not code else unit
        if current and count_tokens(candidate) > MAX_CHUNK_TOKENS - 16:
            pieces.append(current)
            current = unit
        else:
            current = candidate
    if current:
        pieces.append(current)
    out = []
    for piece in pieces:
        while count_tokens(piece) > MAX_CHUNK_TOKENS:
            words = piece.split(" ") if code else piece.split()
            half = max(1, len(words) * 3 // 4)
            out.append(" ".join(words[:half]))
            piece = " ".join(words[half:])
        out.append(piece)
    return [p for p in out if p.strip()]


# --------------------------------------------------------------------------- numbering
"""Numbering: entities of a kind form sequences; gaps and duplicates are what the reader missed."""


def _number_parts(number: str) -> tuple[str, int] | None:
    """'5.12' -> ('5', 12); '7' -> ('', 7); '5.142a' -> ('5', 142); 'A.3' -> ('A', 3); else None."""
    head, _, last = number.rpartition(".")
    last = last.rstrip("abcdefghijklmnopqrstuvwxyz")
    return (head, int(last)) if last.isdigit() else None


def number_key(number: str) -> list[tuple[int, int, str]]:
    """A number's place in its sequence: '2.10' after '2.9', 'A.1' after every numbered chapter."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|[A-Za-z]+", number)]


def numbering_gaps(numbers_by_kind: dict[str, set[str]]) -> dict[str, list[str]]:
    """Per kind, the numbers missing from its sequences (each chapter prefix its own sequence).

    Books that share one counter among kinds (Theorem 2.3, Example 2.4, Figure 2.5) leave gaps in
    each kind that another kind fills: a number is missing only when no kind whose numbers never
    collide with this one's holds it."""
    parts = {kind: {p for p in map(_number_parts, numbers) if p} for kind, numbers in numbers_by_kind.items()}
    gaps: dict[str, list[str]] = {}
    for kind, own in parts.items():
        sharing = [other for other, theirs in parts.items() if other != kind and not (own & theirs)]
        missing = []
        for prefix in sorted({p for p, _ in own}, key=_sort_key):
            held = {n for p, n in own if p == prefix}
            shared = held | {n for other in sharing for p, n in parts[other] if p == prefix}
            top = max(held)
            if top > 400:   # a year, a page or a code, not a running count
                continue
            missing += [f"{prefix}.{n}" if prefix else str(n) for n in range(1, top) if n not in shared]
        if missing:
            gaps[kind] = missing
    return gaps


def _sort_key(prefix: str):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in prefix.split(".")] if prefix else []


def number_ranges(numbers: list[str]) -> list[str]:
    """['5.5', '5.6', '5.7', '5.9'] -> ['5.5–5.7', '5.9']: runs of one prefix written as ranges."""
    out: list[str] = []
    run: list[tuple[str, int, str]] = []
    for number in numbers:
        parts = _number_parts(number)
        if parts and run and parts[0] == run[-1][0] and parts[1] == run[-1][1] + 1:
            run.append((*parts, number))
            continue
        if run:
            out.append(run[0][2] if len(run) == 1 else f"{run[0][2]}–{run[-1][2]}")
        run = [(*parts, number)] if parts else []
        if not parts:
            out.append(number)
    if run:
        out.append(run[0][2] if len(run) == 1 else f"{run[0][2]}–{run[-1][2]}")
    return out
