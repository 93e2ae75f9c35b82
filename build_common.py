"""build_common.py: what the builder's readers and its writer share: the error, the token budget, the rows.

build_pdf.py and build_markdown.py turn a source into Chunk and Section rows (text cut to the
model's window by split_to_budget); build_db.py links, embeds and writes them.  The shared
definitions live here so that the readers never import build_db.py.  rag.py imports none of this.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_CHUNK_TOKENS = 256      # the model truncates beyond this, so no chunk is longer
TARGET_CHUNK_TOKENS = 180   # text chunks aim here and close at the next paragraph end


class BuildError(Exception):
    """A build that cannot go on; the message is one actionable line."""


# --------------------------------------------------------------------------- rows
"""Rows: a chunk and a section as the readers make them and build_db.py writes them."""


@dataclass
class Chunk:
    """A chunk as the builder makes it; written to the chunks table."""

    id: str
    kind: str
    content: str
    page: int
    pdf_page: int
    number: str | None = None
    title: str | None = None
    context: str | None = None
    part: str | None = None
    part_title: str | None = None
    chapter: str | None = None
    chapter_title: str | None = None
    section: str | None = None
    section_title: str | None = None
    subsection: str | None = None
    subsection_title: str | None = None
    subsubsection: str | None = None
    subsubsection_title: str | None = None
    source: str | None = None
    extra: dict = field(default_factory=dict)
    ord: int = 0


@dataclass
class Section:
    id: str
    level: int               # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection
    number: str
    title: str
    parent_id: str | None
    page_start: int
    pdf_page_start: int
    page_end: int = 0
    content: str = ""
    ord: int = 0


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
