"""Export: the book as Markdown, one file per chapter, and the llms.txt index that lists them.

Sections, top-down: files (which chapters, and their names), one chapter as Markdown (headings,
printed-page markers, entity anchors, LaTeX maths and code blocks, in reading order), and the
index (llms.txt, https://llmstxt.org).  Core: imports rag_core, rag_outline and rag_reading only.
"""

from __future__ import annotations

from pathlib import Path

from rag_budget import NavigationError
from rag_core import KnowledgeBase
from rag_outline import LEVELS, Node, all_nodes
from rag_reading import blocks_of
from rag_store import CHUNK_COLUMNS, chunk_from_row

# --------------------------------------------------------------------------- files
"""Files: each chapter (numbered, or an unnumbered chapter-level bookmark) is one file; the pages
before the first chapter are front.md."""


def chapters(kb: KnowledgeBase) -> list[Node]:
    return [n for n in all_nodes(kb) if n.level == 1]


def file_name(node: Node | None) -> str:
    return "front.md" if node is None else f"{node.id}.md"


def _chunks_of(kb: KnowledgeBase, node: Node | None) -> list:
    if node is None:
        first = min((n.pdf_page_start for n in all_nodes(kb) if n.pdf_page_start), default=None)
        rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE chapter IS NULL AND part IS NULL "
                             f"AND (? IS NULL OR pdf_page < ?) ORDER BY ord", (first, first))
    elif node.number:
        rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE chapter = ? ORDER BY ord", (node.number,))
    else:
        rows = kb.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE pdf_page BETWEEN ? AND ? ORDER BY ord",
                             (node.pdf_page_start, node.pdf_page_end))
    return [chunk_from_row(r) for r in rows]


# --------------------------------------------------------------------------- one chapter
"""One chapter: its blocks in reading order with the headings they fall under, page markers and anchors."""


def chapter_markdown(kb: KnowledgeBase, node: Node | None) -> str:
    titles = {(n.level, n.number): n for n in all_nodes(kb) if n.number}
    lines: list[str] = []
    if node is not None:
        part = titles.get((0, _part_of(kb, node))) if node.number else None
        if part is not None and part.pdf_page_start and part.pdf_page_start <= (node.pdf_page_start or 0) \
                and _first_chapter_of(kb, part) is node:
            lines.append(f"# Part {part.number}: {part.title}\n")
        lines.append(f"# {node.number + ' ' if node.number else ''}{node.title}\n")
        lines.append(f'<a id="{node.id}"></a>\n')
    else:
        lines.append(f"# {kb.title or 'Front matter'}\n")
    chunks = _chunks_of(kb, node)
    by_id = {c.id: c for c in chunks}
    page = None
    place: tuple = ()
    for block in blocks_of(chunks):
        chunk = by_id[block["id"]]
        if block["page"] != page and (block["page"] is not None or block.get("pdf_page")):
            page = block["page"]
            label = block.get("page_label") or page
            lines.append(f"<!-- page {label} (PDF page {block['pdf_page']}) -->\n")
        here = (chunk.section, chunk.subsection, chunk.subsubsection)
        if here != place:
            for depth, number in enumerate(here, start=2):
                if number and (len(place) < depth - 1 or place[depth - 2] != number):
                    head = titles.get((depth, number))
                    if head is not None:
                        lines.append(f"{'#' * depth} {number} {head.title}\n")
                        lines.append(f'<a id="{head.id}"></a>\n')
            place = here
        for held in block.get("holds", []):
            lines.append(f'<a id="{held}"></a>')
        if block["kind"] != "text":
            lines.append(f'<a id="{block["id"]}"></a>\n')
        lines.append(block["text"].rstrip() + "\n")
    return "\n".join(lines).rstrip() + "\n"


def _part_of(kb: KnowledgeBase, node: Node) -> str | None:
    row = kb.db.execute("SELECT part FROM chunks WHERE chapter = ? AND part IS NOT NULL LIMIT 1",
                        (node.number,)).fetchone()
    return row[0] if row else None


def _first_chapter_of(kb: KnowledgeBase, part: Node) -> Node | None:
    for n in chapters(kb):
        if n.number and _part_of(kb, n) == part.number:
            return n
    return None


def exported_names(kb: KnowledgeBase) -> list[str]:
    """The files export writes (llms.txt aside), in reading order."""
    front = ["front.md"] if _chunks_of(kb, None) else []
    return front + [file_name(node) for node in chapters(kb)]


def markdown_of(kb: KnowledgeBase, name: str) -> str:
    """One exported file by name (front.md, chapter_3.md, outline_5.md); NavigationError 404 if none."""
    if name == "front.md":
        return chapter_markdown(kb, None)
    for node in chapters(kb):
        if file_name(node) == name:
            return chapter_markdown(kb, node)
    raise NavigationError(f"no exported file {name!r}: GET /llms.txt lists them", status=404)


def export(kb: KnowledgeBase, folder: Path) -> list[Path]:
    """Write every chapter's Markdown and llms.txt into folder; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    nodes = {file_name(node): node for node in chapters(kb)}
    for name in exported_names(kb):
        node = nodes.get(name)
        path = folder / name
        path.write_text(chapter_markdown(kb, node), encoding="utf-8")
        written.append(path)
    index = folder / "llms.txt"
    index.write_text(llms_txt(kb, base=""), encoding="utf-8")
    return [*written, index]


# --------------------------------------------------------------------------- the index
"""The index: llms.txt, the book's title, what it is, and a link per chapter with its pages."""


def llms_txt(kb: KnowledgeBase, base: str = "/book/") -> str:
    counts = kb.counts()
    entities = ", ".join(f"{n} {k}s" for k, n in sorted(counts.items()) if k != "text")
    lines = [f"# {kb.title or 'Book'}", "",
             f"> The book as Markdown, one file per chapter: LaTeX maths, code blocks, printed-page markers "
             f"(<!-- page N -->) and an anchor per numbered entity ({entities}).", ""]
    if "front.md" in exported_names(kb):
        lines += ["## Front matter", "", f"- [Front matter]({base}front.md)", ""]
    lines += ["## Chapters", ""]
    for node in chapters(kb):
        pages = f"pages {node.page_label_start or node.page_start}–{node.page_label_end or node.page_end}"
        title = f"{node.number + ' ' if node.number else ''}{node.title}"
        lines.append(f"- [{title}]({base}{file_name(node)}): {pages}")
    lines += ["", "## Optional", "",
              "- [Outline with page ranges](/outline): JSON; reading by section: /read?section=2.1"]
    return "\n".join(lines) + "\n"


LEVEL_NAMES = LEVELS
