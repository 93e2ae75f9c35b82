"""The book's outline: parts, chapters, sections and subsections with page ranges and the entities each holds.

Sections, top-down: levels and page maps, the outline itself, and finding one node.  Core: imports
rag_core and rag_budget only.  Everything is read from the knowledge file as it is: the builder's
sections table (the PDF outline's entries and the heads it found, each with its first printed and
PDF page) and the chunks under each section, from which the last page and the entity counts are
derived at read time.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rag_budget import LEVELS, NavigationError, per_knowledge_base
from rag_core import BLANKS, KnowledgeBase

# --------------------------------------------------------------------------- levels and pages
"""Levels and pages: the five heading levels, and each PDF page's printed number."""



@dataclass
class Node:
    """One heading of the book with its place, pages and entities."""

    id: str
    level: int
    number: str
    title: str
    parent_id: str | None
    ord: int
    page_start: int | None
    pdf_page_start: int | None
    page_end: int | None = None
    pdf_page_end: int | None = None
    page_label_start: str | None = None
    page_label_end: str | None = None
    entities: dict[str, int] = field(default_factory=dict)
    entity_ids: list[str] = field(default_factory=list)
    children: list["Node"] = field(default_factory=list)


def page_labels(kb: KnowledgeBase) -> dict[int, tuple[int | None, str | None]]:
    """{PDF page: (printed page, printed label)} for every PDF page a chunk starts on."""
    out: dict[int, tuple[int | None, str | None]] = {}
    try:
        stored = json.loads(kb.meta.get("page_labels") or "{}")
    except ValueError:
        stored = {}
    for pdf_page, label in stored.items():
        if str(pdf_page).isdigit() and isinstance(label, str):
            out[int(pdf_page)] = (int(label) if label.isdigit() else None, label)
    if out:
        return out
    for pdf_page, page, label in kb.db.execute(
            "SELECT pdf_page, min(page), min(page_label) FROM chunks WHERE pdf_page IS NOT NULL GROUP BY pdf_page"):
        out[pdf_page] = (page, label)
    return out


def printed_of(labels: dict, pdf_page: int | None) -> tuple[int | None, str | None]:
    """Printed page and label of a PDF page: its own, or counted on from the nearest page before it
    that prints an arabic number (pages without text, such as a full-page figure, carry none)."""
    if pdf_page is None:
        return None, None
    if pdf_page in labels:
        return labels[pdf_page]
    before = [p for p in labels if p < pdf_page and labels[p][0] is not None
              and str(labels[p][1] or labels[p][0]).isdigit()]
    if not before:
        return None, None
    base = max(before)
    page = labels[base][0] + (pdf_page - base)
    return page, str(page)


# --------------------------------------------------------------------------- the outline
"""The outline: every heading in reading order, nested, with page ranges and entity counts."""


def _folded(title: str) -> str:
    """A title compared letter for letter: case, spacing, punctuation and ligatures aside."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", title).casefold() if ch.isalnum())


def _bookmark_title(title: str, number: str | None) -> str:
    """A bookmark's title without the heading number it may start with ("2.1 Sets" -> "Sets")."""
    text = " ".join(title.split())
    if number and text.startswith(number + " "):
        return text[len(number) + 1:].strip()
    return text


def merged_headings(kb: KnowledgeBase) -> list[Node]:
    """The builder's headings, with the PDF's own bookmarks merged in: a bookmark that names a found
    heading gives it its printed title; one that names none (an unnumbered chapter, a bibliography)
    becomes a heading of its own, at the level its outline depth has elsewhere in the book."""
    nodes = [Node(*row) for row in kb.db.execute(
        "SELECT id, level, number, title, parent_id, ord, page_start, pdf_page_start FROM sections ORDER BY ord")]
    try:
        bookmarks = json.loads(kb.meta.get("pdf_outline") or "[]")
    except ValueError:
        bookmarks = []
    if not bookmarks:
        return nodes
    labels = page_labels(kb)
    free = list(nodes)
    placed: list[tuple[int, Node | None, list]] = []   # (outline depth, matched heading, bookmark)
    for mark in bookmarks:
        depth, title, page = mark
        folded = _folded(title)
        match = next((n for n in free if n.pdf_page_start is not None and abs(n.pdf_page_start - page) <= 1
                      and folded and (_folded(n.title) == folded or _folded(n.number + n.title) == folded
                                      or (len(_folded(n.title)) >= 3 and folded.endswith(_folded(n.title))))), None)
        if match is not None:
            free.remove(match)
            match.title = _bookmark_title(title, match.number) or match.title
        placed.append((depth, match, mark))
    # Which level each outline depth stands for, as the matched bookmarks show it.
    level_of_depth: dict[int, Counter] = {}
    for depth, match, _ in placed:
        if match is not None:
            level_of_depth.setdefault(depth, Counter())[match.level] += 1
    shift = Counter(match.level - depth for depth, match, _ in placed if match is not None)
    default_shift = shift.most_common(1)[0][0] if shift else 1
    made: list[Node] = []
    # A bookmark of its own takes the level of the found headings beside it at its depth (its
    # siblings), else the level its depth has in the book; and it sits above its children.
    sibling_level: dict[int, int] = {}
    for i, (depth, match, (_, title, page)) in enumerate(placed):
        for deeper in [d for d in sibling_level if d > depth]:
            del sibling_level[deeper]
        if match is not None:
            sibling_level[depth] = match.level
            continue
        level = sibling_level.get(depth)
        if level is None:
            level = (level_of_depth[depth].most_common(1)[0][0] if depth in level_of_depth
                     else min(max(depth + default_shift, 0), len(LEVELS) - 1))
        children = []
        for child_depth, child, _ in placed[i + 1:]:
            if child_depth <= depth:
                break
            if child is not None and child_depth == depth + 1:
                children.append(child.level)
        if children:
            level = max(min(level, min(children) - 1), 0)
        printed, _ = printed_of(labels, page)
        made.append(Node(id=f"outline_{i + 1}", level=level, number="", title=" ".join(title.split()),
                         parent_id=None, ord=-1, page_start=printed, pdf_page_start=page))

    # One reading order: found headings keep theirs; a bookmark of its own goes before the first found
    # heading on a later page, or on its page at its level or deeper.
    everything: list[Node] = []
    pending = sorted(made, key=lambda n: n.pdf_page_start or 0)
    for node in nodes:
        page = node.pdf_page_start or 0
        while pending and ((pending[0].pdf_page_start or 0) < page
                           or ((pending[0].pdf_page_start or 0) == page and pending[0].level <= node.level)):
            everything.append(pending.pop(0))
        everything.append(node)
    everything.extend(pending)
    stack: list[Node] = []
    for order, node in enumerate(everything):
        node.ord = order
        while stack and stack[-1].level >= node.level:
            stack.pop()
        if not node.number or node.parent_id is None:
            node.parent_id = stack[-1].id if stack else None
        stack.append(node)
    return everything


@per_knowledge_base
def all_nodes(kb: KnowledgeBase) -> list[Node]:
    """Every heading of the book in reading order, with derived ends and entities (built once per knowledge base)."""
    nodes = merged_headings(kb)
    labels = page_labels(kb)
    last_pdf_page = max(labels, default=None)
    # Where each chunk sits: the numbered heading it falls under at each level.
    members: dict[tuple[int, str], list[tuple[str, str, int | None]]] = {}
    entity_pages: list[tuple[int, str, str]] = []
    for cid, kind, pdf_page, *place in kb.db.execute(
            "SELECT id, kind, pdf_page, part, chapter, section, subsection, subsubsection FROM chunks ORDER BY ord"):
        for level, number in enumerate(place):
            if number:
                members.setdefault((level, number), []).append((cid, kind, pdf_page))
        if kind != "text" and pdf_page is not None:
            entity_pages.append((pdf_page, cid, kind))
    for node in nodes:
        held = members.get((node.level, node.number), []) if node.number else []
        first = min((p for _, _, p in held if p is not None), default=None)
        if node.level >= 2 and node.pdf_page_start is not None and first == node.pdf_page_start + 1:
            # Its text begins on the next page: the heading went there, its anchor (and bookmark) stayed.
            node.pdf_page_start = first
            node.page_start = printed_of(labels, first)[0] or node.page_start
    for i, node in enumerate(nodes):
        held = members.get((node.level, node.number), []) if node.number else []
        # A heading's pages run to the page before the next heading at its level or above, or onto that
        # page when one of its chunks starts there (the next heading starts part-way down).  Chunks
        # beyond it are not the heading's pages (a solutions appendix numbered like the chapter).
        following = next((n for n in nodes[i + 1:] if n.level <= node.level and n.pdf_page_start), None)
        pages = {p for _, _, p in held if p is not None}
        start = node.pdf_page_start
        if following is not None:
            end = following.pdf_page_start if following.pdf_page_start in pages else following.pdf_page_start - 1
        else:
            end = max(pages | ({last_pdf_page} if last_pdf_page is not None else set()), default=start)
        node.pdf_page_end = max(end, start) if start is not None and end is not None else (end or start)
        if not node.number and start is not None:
            # An unnumbered heading holds the entities printed on its pages.
            held = [(cid, kind, p) for p, cid, kind in entity_pages if start <= p <= (node.pdf_page_end or start)]
        for cid, kind, _ in held:
            if kind != "text":
                node.entities[kind] = node.entities.get(kind, 0) + 1
                node.entity_ids.append(cid)
        _, node.page_label_start = printed_of(labels, start)
        if node.page_label_start is None and node.page_start is not None:
            node.page_label_start = str(node.page_start)
        node.page_end, node.page_label_end = printed_of(labels, node.pdf_page_end)
        if node.page_end is None or (node.page_start is not None and node.page_end < node.page_start):
            node.page_end = node.page_start
    return nodes


def level_value(depth: Any) -> int:
    """A depth as sent: a level name ("chapter") or 1-5 (1 = parts, 5 = subsubsections); the deepest level shown."""
    if isinstance(depth, str) and depth.strip().lower() in LEVELS:
        return LEVELS.index(depth.strip().lower())
    if isinstance(depth, str) and depth.strip().isdigit():
        depth = int(depth.strip())
    if isinstance(depth, int) and not isinstance(depth, bool) and 1 <= depth <= len(LEVELS):
        return depth - 1
    raise NavigationError(f"depth must be one of {', '.join(LEVELS)} (or 1-5); got {depth!r}")


def node_dict(node: Node, with_ids: bool) -> dict:
    """A heading as answers show it."""
    out: dict[str, Any] = {"id": node.id, "level": LEVELS[node.level], "number": node.number or None,
                           "title": node.title,
                           "page_start": node.page_start, "page_end": node.page_end,
                           "pdf_page_start": node.pdf_page_start, "pdf_page_end": node.pdf_page_end}
    if node.page_label_start and node.page_label_start != str(node.page_start):
        out["page_label_start"] = node.page_label_start
    if node.page_label_end and node.page_label_end != str(node.page_end):
        out["page_label_end"] = node.page_label_end
    out["entities"] = dict(sorted(node.entities.items()))
    if with_ids:
        out["entity_ids"] = list(node.entity_ids)
    return out


def outline(kb: KnowledgeBase, depth: Any = "section", under: str | None = None, with_ids: bool = False) -> dict:
    """The outline down to depth, whole or under one heading, nested: {title, headings: [{..., children}]}.

    Each heading has number, title, printed and PDF page ranges, the count of each kind of entity
    it holds (its subheadings' included) and, with with_ids, their ids in reading order."""
    deepest = level_value(depth)
    nodes = all_nodes(kb)
    root = find_node(kb, under) if under is not None else None
    by_id = {n.id: n for n in nodes}
    shown: dict[str, dict] = {}
    top: list[dict] = []
    scope = _subtree_ids(nodes, root) if root else None
    for node in nodes:
        if node.level > deepest or (scope is not None and node.id not in scope):
            continue
        entry = node_dict(node, with_ids)
        shown[node.id] = entry
        parent = node.parent_id
        while parent and parent not in shown and parent in by_id:
            parent = by_id[parent].parent_id
        if parent in shown:
            shown[parent].setdefault("children", []).append(entry)
        else:
            top.append(entry)
    return {"title": kb.title, "depth": LEVELS[deepest], "headings": top,
            "heading_count": len(shown)}


def _subtree_ids(nodes: list[Node], root: Node) -> set[str]:
    children: dict[str, list[str]] = {}
    for n in nodes:
        children.setdefault(n.parent_id or "", []).append(n.id)
    out, todo = set(), [root.id]
    while todo:
        current = todo.pop()
        out.add(current)
        todo.extend(children.get(current, []))
    return out


# --------------------------------------------------------------------------- finding one heading
"""Finding a heading: by id (chapter_3, section_2_1), number ("2.1", "Part II", "Appendices") or title."""

_HEAD_WORD_RE = re.compile(r"^(?:part|chapter|section|subsection|subsubsection|appendix|§)\s*", re.IGNORECASE)


def find_node(kb: KnowledgeBase, ref: Any) -> Node:
    """The heading a client names; NavigationError 400 for a malformed name, 404 when the book has none."""
    if not isinstance(ref, str) or not ref.strip(BLANKS) or len(ref) > 300:
        raise NavigationError("section must be a heading's id (chapter_3, section_2_1), number (\"2.1\", "
                              "\"Part II\") or title, at most 300 characters")
    nodes = all_nodes(kb)
    text = ref.strip(BLANKS)
    for node in nodes:
        if node.id == text:
            return node
    word = _HEAD_WORD_RE.match(text)
    bare = text[word.end():].strip().rstrip(".") if word else text.rstrip(".")
    wanted_level = None
    if word:
        name = word.group(0).strip().lower()
        wanted_level = {"part": 0, "chapter": 1, "appendix": 1}.get(name)
    matches = [n for n in nodes if n.number.lower() == bare.lower()
               and (wanted_level is None or n.level == wanted_level)]
    if not matches:
        folded = " ".join(text.lower().split())
        matches = [n for n in nodes if " ".join(n.title.lower().split()) == folded]
    if not matches:
        raise NavigationError(f"no heading {ref!r} in this book: GET the outline for ids and numbers", status=404)
    # "II" may be both a part and a chapter number: the shallower heading is the likelier meaning.
    return min(matches, key=lambda n: (n.level, n.ord))


def chunk_scope_column(node: Node) -> str:
    """The chunks column that places a chunk under a heading of this node's level."""
    return LEVELS[node.level]


def extra_of(raw: str | None) -> dict:
    return json.loads(raw) if raw else {}
