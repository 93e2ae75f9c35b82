"""Reading in order: a section, an entity's surroundings or a page range, paged by max_tokens with a cursor.

Sections, top-down: scopes (what a request asks to read, as chunks in reading order), blocks (each
chunk as the reader shows it: text, formulas as LaTeX, algorithms as code, with ids and printed
pages), and pages of blocks (the budget and the cursor).  Core: imports rag_core, rag_budget and
rag_outline only.
"""

from __future__ import annotations

from typing import Any

from rag_budget import (DEFAULT_MAX_TOKENS, MAX_CONTEXT, TOKEN_RULE, NavigationError, answer_tokens, cut_to_tokens,
                        decode_cursor, encode_cursor, fit_items, max_tokens_value)
from rag_core import BLANKS, KnowledgeBase, whole_number
from rag_outline import LEVELS, find_node, node_dict, page_labels
from rag_store import CHUNK_COLUMNS, Chunk, chunk_from_row

# --------------------------------------------------------------------------- scopes
"""Scopes: what is read, as the chunks it holds in reading order, with a description for the answer."""

DEFAULT_CONTEXT = 2
CURSOR_UNKNOWN = "cursor not found: pass next_cursor from a previous answer unchanged"


def section_scope(kb: KnowledgeBase, ref: Any) -> tuple[dict, list[Chunk]]:
    node = find_node(kb, ref)
    if node.number:
        column = LEVELS[node.level]
        rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE {column} = ? ORDER BY ord", (node.number,))
    else:   # a bookmark without a number: the chunks on its pages
        rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE pdf_page BETWEEN ? AND ? ORDER BY ord",
                             (node.pdf_page_start, node.pdf_page_end))
    described = {"section": node_dict(node, with_ids=False)}
    described["section"].pop("entities", None)
    return described, [chunk_from_row(r) for r in rows]


def entity_scope(kb: KnowledgeBase, ref: Any, context: Any) -> tuple[dict, list[Chunk]]:
    if not isinstance(ref, str) or not ref.strip(BLANKS) or len(ref) > 200:
        raise NavigationError("entity must be an id or a name such as formula_3_2, 'Algorithm 4.1' or algorithm:4.1")
    around = DEFAULT_CONTEXT if context is None else whole_number(context)
    if isinstance(context, str) and context.strip().isdigit():
        around = int(context.strip())
    if around is None or not 0 <= around <= MAX_CONTEXT:
        raise NavigationError(f"context must be a whole number of chunks between 0 and {MAX_CONTEXT}")
    chunk = kb.get(ref)
    if chunk is None or chunk.kind == "section":
        raise NavigationError(f"no entity or chunk {ref!r} in this book", status=404)
    # The chunks around it in reading order: `around` text chunks either side, and what lies between.
    before = kb.db.execute("SELECT min(ord) FROM (SELECT ord FROM chunks WHERE ord < ? AND kind = 'text' "
                           "ORDER BY ord DESC LIMIT ?)", (chunk.ord, around)).fetchone()[0]
    after = kb.db.execute("SELECT max(ord) FROM (SELECT ord FROM chunks WHERE ord > ? AND kind = 'text' "
                          "ORDER BY ord LIMIT ?)", (chunk.ord, around)).fetchone()[0]
    rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE ord BETWEEN ? AND ? ORDER BY ord",
                         (before if before is not None else chunk.ord, after if after is not None else chunk.ord))
    return {"entity": chunk.id, "context": around}, [chunk_from_row(r) for r in rows]


def page_scope(kb: KnowledgeBase, first: Any, last: Any) -> tuple[dict, list[Chunk]]:
    """Chunks printed on pages first..last: printed page numbers, or labels as printed ("xii")."""
    if last is None:
        last = first
    start, end = _printed_page(kb, first, "page_start"), _printed_page(kb, last, "page_end")
    if end < start:
        raise NavigationError(f"no pages from {first} to {last}: page_end comes before page_start", status=404)
    rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE pdf_page BETWEEN ? AND ? ORDER BY ord",
                         (start, end))
    chunks = [chunk_from_row(r) for r in rows]
    if not chunks:
        raise NavigationError(f"no text on pages {first}–{last} of this book", status=404)
    labels = page_labels(kb)
    return {"pages": {"page_start": labels[start][1], "page_end": labels[end][1],
                      "pdf_page_start": start, "pdf_page_end": end}}, chunks


def _printed_page(kb: KnowledgeBase, value: Any, name: str) -> int:
    """The PDF page a printed page number or label names; 400 when malformed, 404 when the book has none."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and
                                                                      not 0 < len(value.strip(BLANKS)) <= 12):
        raise NavigationError(f"{name} must be a printed page number (12) or label (\"xii\")")
    text = str(value).strip(BLANKS)
    pdf_pages = [p for p, (_, label) in page_labels(kb).items() if label == text]
    if not pdf_pages and text.lstrip("-").isdigit():
        pdf_pages = [p for p, (number, _) in page_labels(kb).items() if number == int(text)]
    if not pdf_pages:
        raise NavigationError(f"the book has no printed page {text!r}", status=404)
    return min(pdf_pages) if name == "page_start" else max(pdf_pages)


# --------------------------------------------------------------------------- blocks
"""Blocks: each chunk as a reader sees it, in order; a display the text prints is shown there once."""


def render(chunk: Chunk) -> str:
    """A chunk's text for reading: prose as stored (inline maths in $…$), a formula as display LaTeX
    with its number, an algorithm or listing as a code block under its caption."""
    if chunk.kind == "formula":
        return f"$$ {chunk.content.strip()} $$" + (f" ({chunk.number})" if chunk.number else "")
    if chunk.kind in ("algorithm", "listing"):
        head = f"{chunk.kind.capitalize()} {chunk.number}" + (f". {chunk.title}" if chunk.title else "")
        return f"{head}\n```\n{chunk.content.rstrip()}\n```"
    if chunk.kind != "text" and chunk.number:
        return f"{chunk.kind.capitalize()} {chunk.number}. {chunk.content}"
    return chunk.content


def blocks_of(chunks: list[Chunk]) -> list[dict]:
    """The blocks of a scope in reading order.  A formula the builder also left inside the prose that
    prints it (extra.in_text) is not shown twice: the text block that follows names it in `holds`."""
    out: list[dict] = []
    waiting: list[str] = []
    ids = {c.id for c in chunks}
    for i, chunk in enumerate(chunks):
        if chunk.kind != "text" and chunk.extra.get("in_text"):
            holder = next((c for c in chunks[i + 1:] if c.kind == "text"), None)
            if holder is not None and holder.id in ids:
                waiting.append(chunk.id)
                continue
        block: dict[str, Any] = {"id": chunk.id, "kind": chunk.kind}
        if chunk.kind != "text":
            block["number"] = chunk.number
            if chunk.title:
                block["title"] = chunk.title
        block["page"] = chunk.page
        if chunk.page_label and chunk.page_label != str(chunk.page):
            block["page_label"] = chunk.page_label
        block["pdf_page"] = chunk.pdf_page
        if chunk.kind == "text" and waiting:
            block["holds"] = waiting
            waiting = []
        block["text"] = render(chunk)
        out.append(block)
    return out


# --------------------------------------------------------------------------- pages of blocks
"""Pages: as many blocks as fit in max_tokens, a block cut at a blank when even one does not, and a cursor."""


def read(kb: KnowledgeBase, section: Any = None, entity: Any = None, page_start: Any = None, page_end: Any = None,
         context: Any = None, max_tokens: Any = None, cursor: Any = None) -> dict:
    """One page of reading of one scope: the cursor's, else section, else entity (with context), else
    pages page_start..page_end, else the whole book from its start."""
    budget = max_tokens_value(max_tokens, DEFAULT_MAX_TOKENS)
    at, offset = 0, 0
    # One scope is read: the cursor's, else section, else entity, else pages, else the whole book.
    if cursor is not None:
        state = decode_cursor(cursor, ("book", "scope", "at", "char"))
        scope = state["scope"]
        at, offset = state["at"], state["char"]
        if not (isinstance(scope, list) and len(scope) == 3 and isinstance(at, int) and isinstance(offset, int)
                and at >= 0 and offset >= 0):
            raise NavigationError(CURSOR_UNKNOWN, status=404)
        if state["book"] != kb.build_hash[:16]:
            raise NavigationError("cursor belongs to another build of the knowledge file: start the reading again",
                                  status=404)
    elif section is not None:
        scope = ["section", section, None]
    elif entity is not None:
        scope = ["entity", entity, context]
    elif page_start is not None or page_end is not None:
        scope = ["pages", page_start if page_start is not None else page_end, page_end]
    else:
        scope = ["book", None, None]
    if scope[0] == "section":
        described, chunks = section_scope(kb, scope[1])
    elif scope[0] == "entity":
        described, chunks = entity_scope(kb, scope[1], scope[2])
    elif scope[0] == "pages":
        described, chunks = page_scope(kb, scope[1], scope[2])
    elif scope[0] == "book":
        described = {"book": kb.title}
        chunks = [chunk_from_row(r) for r in kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks ORDER BY ord")]
    else:
        raise NavigationError(CURSOR_UNKNOWN, status=404)
    blocks = blocks_of(chunks)
    if at > len(blocks) or (at < len(blocks) and offset > len(blocks[at]["text"])):
        raise NavigationError(CURSOR_UNKNOWN, status=404)
    rest = blocks[at:]
    if rest and offset:
        first = dict(rest[0], text=rest[0]["text"][offset:], continued=True)
        rest = [first] + rest[1:]

    def cut(block: dict, tokens: int) -> dict | None:
        spare = tokens - answer_tokens(dict(block, text=""))
        text, _ = cut_to_tokens(block["text"], spare)
        return dict(block, text=text, cut=True) if text else None

    def finish(answer: dict, whole: int, was_cut: bool) -> dict:
        next_at = at + whole
        next_char = (offset if whole == 0 else 0) + len(answer["blocks"][-1]["text"]) if was_cut else 0
        done = next_at >= len(blocks) and not was_cut
        answer["truncated"] = not done
        if not done:
            answer["next_cursor"] = encode_cursor({"book": kb.build_hash[:16], "scope": scope, "at": next_at,
                                                   "char": next_char})
            answer["hint"] = "more follows: call again with cursor=next_cursor (the same or another max_tokens)"
        answer["max_tokens"] = budget
        return answer

    envelope = {**described, "block_count": len(blocks), "first_block": at}
    answer, _, _ = fit_items(envelope, "blocks", rest, budget, cut, finish)
    if rest and not answer["blocks"]:
        raise NavigationError(f"max_tokens {budget} cannot hold one block of this reading: ask with more")
    return answer


def token_rule() -> str:
    return TOKEN_RULE
