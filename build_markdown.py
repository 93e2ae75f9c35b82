"""build_markdown.py: read a docs site (a folder of Markdown lessons) into chunks and sections.

Lessons laid out as module/chapter/lesson/readme.md (or chapter/lesson.md) become sections
(module, chapter, lesson) and chunks (text, code, numbered entities).  build_db.py calls
markdown_structure (and parse_front_matter for a tree's title).  No PDF library needed; the id
rules come from rag_core.py and the rows from rag_store.py.  Never imports build_db.py.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from build_common import TARGET_CHUNK_TOKENS, BuildError, Chunk, Section, split_to_budget
from rag_core import entity_id, normalize_kind, normalize_number


# --------------------------------------------------------------------------- markdown trees
"""Markdown trees: a docs site (module/chapter/lesson/readme.md) as sections and chunks."""

FRONT_MATTER_RE = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
MD_CAPTION_RE = re.compile(
    r"^\*\*(Algorithm|Equation|Formula|Table|Figure|Example|Exercise)\s+((?:[A-Z]|\d+)(?:\.\d+)*)\.?\*\*\.?\s*(.*)$")
NUMBERED_SLUG_RE = re.compile(r"^(\d+)[-_](.+)$")


def parse_front_matter(text: str) -> tuple[dict, str]:
    """A small YAML subset (key: value, key: [a, b], and "- item" lists); returns (fields, body)."""
    m = FRONT_MATTER_RE.match(text)
    if not m:
        return {}, text
    fields: dict = {}
    key = None
    for raw in m.group(1).splitlines():
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s*-\s+(.*)$", line)
        if item and key:
            fields.setdefault(key, [])
            if isinstance(fields[key], list):
                fields[key].append(item.group(1).strip().strip("'\""))
            continue
        kv = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
        if kv:
            key, value = kv.group(1), kv.group(2).strip()
            if value.startswith("[") and value.endswith("]"):
                fields[key] = [v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip()]
            elif value:
                fields[key] = value.strip("'\"")
            else:
                fields[key] = []
    return fields, text[m.end():]


def _slug_parts(name: str) -> tuple[int | None, str]:
    m = NUMBERED_SLUG_RE.match(name)
    return (int(m.group(1)), m.group(2)) if m else (None, name)


def _title_from_slug(slug: str) -> str:
    return re.sub(r"[-_]+", " ", _slug_parts(slug)[1]).strip().capitalize()


@dataclass
class Lesson:
    """One Markdown file of a docs tree with its place in the tree."""

    path: Path
    rel: str
    module: str | None
    chapter: str
    chapter_number: int | None
    chapter_title: str
    lesson: str
    lesson_number: int | None
    title: str
    topics: list[str]
    difficulty: str | None
    body: str


def read_markdown_tree(root: Path) -> list[Lesson]:
    """Every .md/.mdx file under root as a lesson: module/chapter/lesson/readme.md or chapter/lesson.md.

    The top-level folder is the module unless the tree starts with numbered chapter folders.
    Chapter titles come from _category_.json, else the first lesson's front matter, else the slug.
    """
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".md", ".mdx") and p.is_file())
    files = [p for p in files if p.relative_to(root).parts[0] not in ("node_modules",) and len(p.relative_to(root).parts) >= 2]
    if not files:
        raise BuildError(f"{root} holds no Markdown lessons (.md or .mdx files inside chapter folders)")
    has_modules = not NUMBERED_SLUG_RE.match(files[0].relative_to(root).parts[0])
    lessons = []
    for path in files:
        parts = path.relative_to(root).parts
        module = parts[0] if has_modules else None
        inner = parts[1:] if has_modules else parts
        if len(inner) < 2:
            continue  # a file beside the chapters (a module's index page) is not a lesson
        chapter = inner[0]
        lesson = inner[1] if len(inner) > 2 else Path(inner[1]).stem
        text = path.read_text(encoding="utf-8", errors="replace")
        front, body = parse_front_matter(text)
        chapter_dir = path.parents[len(inner) - 2] if len(inner) > 2 else path.parent
        category = chapter_dir / "_category_.json"
        chapter_title = None
        if category.is_file():
            try:
                chapter_title = json.loads(category.read_text()).get("label")
            except ValueError:
                chapter_title = None
        heading = re.search(r"^#\s+(.+)$", body, re.MULTILINE)
        title = front.get("title") or (heading.group(1).strip() if heading else _title_from_slug(lesson))
        topics = front.get("topics") or front.get("tags") or []
        lessons.append(Lesson(
            path=path, rel=str(path.relative_to(root.parent)), module=module, chapter=chapter,
            chapter_number=_slug_parts(chapter)[0], chapter_title=chapter_title or "",
            lesson=lesson, lesson_number=_slug_parts(lesson)[0], title=str(title),
            topics=[str(t) for t in topics] if isinstance(topics, list) else [str(topics)],
            difficulty=front.get("difficulty"), body=body))
    for chapter in {l.chapter for l in lessons}:
        members = [l for l in lessons if l.chapter == chapter]
        if not members[0].chapter_title:
            for l in members:
                l.chapter_title = _title_from_slug(chapter)
    return lessons


def _markdown_blocks(body: str) -> list[tuple[str, str, str]]:
    """(kind, heading, text) blocks: 'heading', 'code' (fenced), 'math' ($$ display), 'text' paragraphs."""
    blocks, heading, para = [], "", []
    lines = body.splitlines()
    i = 0

    def flush():
        if para and "".join(para).strip():
            blocks.append(("text", heading, "\n".join(para).strip()))
        para.clear()

    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            flush()
            mark, code = fence.group(1), [line]
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(mark):
                code.append(lines[i])
                i += 1
            code.append(lines[i] if i < len(lines) else mark)
            blocks.append(("code", heading, "\n".join(code)))
        elif line.strip().startswith("$$"):
            flush()
            math = [line]
            if line.strip() == "$$" or not line.strip().endswith("$$") or line.strip() == "$$$$":
                i += 1
                while i < len(lines) and "$$" not in lines[i]:
                    math.append(lines[i])
                    i += 1
                if i < len(lines):
                    math.append(lines[i])
            blocks.append(("math", heading, "\n".join(math)))
        elif re.match(r"^#{1,6}\s+", line):
            flush()
            heading = re.sub(r"^#{1,6}\s+", "", line).strip()
            blocks.append(("heading", heading, heading))
        elif not line.strip():
            flush()
        else:
            para.append(line)
        i += 1
    flush()
    return blocks


def markdown_structure(root: Path, count_tokens, base_url: str | None = None) -> tuple[list[Chunk], list[Section]]:
    """A docs tree -> chunks (text, code, numbered entities) and sections (module, chapter, lesson)."""
    lessons = read_markdown_tree(root)
    chunks: list[Chunk] = []
    sections: list[Section] = []
    seen_sections: set[str] = set()
    seen_entities: set[tuple[str, str]] = set()

    def add_section(sid, level, number, title, parent):
        if sid not in seen_sections:
            seen_sections.add(sid)
            sections.append(Section(sid, level, number, title, parent, 0, 0, content=title, ord=len(sections)))

    for lesson in lessons:
        module_id = f"module_{lesson.module}" if lesson.module else None
        if module_id:
            add_section(module_id, 0, lesson.module, lesson.module, None)
        chapter_id = f"chapter_{lesson.chapter}"
        add_section(chapter_id, 1, lesson.chapter, lesson.chapter_title, module_id)
        lesson_id = f"lesson_{lesson.chapter}_{lesson.lesson}"
        add_section(lesson_id, 2, f"{lesson.chapter}/{lesson.lesson}", lesson.title, chapter_id)
        url = None
        if base_url:
            page = lesson.rel.split("/", 1)[1] if "/" in lesson.rel else lesson.rel
            page = re.sub(r"(/readme|/index)?\.mdx?$", "", page, flags=re.IGNORECASE)
            url = base_url.rstrip("/") + "/" + page
        index = 0
        pending_caption = None
        open_text: list[str] = []
        open_heading = ""

        def emit(kind, content, heading, number=None, title=None, content_type="text"):
            nonlocal index
            if kind == "text":
                ch = f"{lesson.chapter_number:02d}" if lesson.chapter_number is not None else lesson.chapter
                le = f"{lesson.lesson_number:02d}" if lesson.lesson_number is not None else lesson.lesson
                cid = f"chunk_ch{ch}_l{le}_{index:03d}"
            else:
                cid = entity_id(kind, number)
            chunks.append(Chunk(
                id=cid, kind=kind, content=content.strip(), page=None, pdf_page=None, number=number, title=title,
                part=lesson.module, part_title=lesson.module, chapter=lesson.chapter,
                chapter_title=lesson.chapter_title, section=lesson.lesson, section_title=lesson.title,
                source=lesson.rel, ord=len(chunks),
                extra={"chunk_index": index, "content_type": content_type, "heading": heading or lesson.title,
                       "file_path": lesson.rel, "topics": lesson.topics, "difficulty": lesson.difficulty,
                       "chapter_number": lesson.chapter_number, "lesson_number": lesson.lesson_number,
                       "module": lesson.module, "source_url": url}))
            index += 1

        def flush_text():
            nonlocal open_text
            if open_text:
                text = "\n\n".join(open_text)
                for piece in split_to_budget(text, count_tokens):
                    emit("text", piece, open_heading)
            open_text = []

        for kind, heading, text in _markdown_blocks(lesson.body):
            if kind == "heading":
                flush_text()
                open_heading = heading
                continue
            cap = MD_CAPTION_RE.match(text) if kind == "text" else None
            if cap:
                flush_text()
                pending_caption = (normalize_kind(cap.group(1)), normalize_number(cap.group(2)), cap.group(3).strip())
                continue
            if pending_caption and kind in ("code", "math", "text"):
                ekind, number, title = pending_caption
                pending_caption = None
                if ekind and number and (ekind, number) not in seen_entities:
                    seen_entities.add((ekind, number))
                    emit(ekind, text, heading, number=number, title=title or None,
                         content_type="code" if kind == "code" else ekind)
                    continue
            if kind == "code":
                flush_text()
                for piece in split_to_budget(text, count_tokens, code=True):
                    emit("text", piece, heading, content_type="code")
                continue
            if open_heading != heading:
                flush_text()
                open_heading = heading
            open_text.append(text)
            if count_tokens("\n\n".join(open_text)) >= TARGET_CHUNK_TOKENS:
                flush_text()
        flush_text()
    return chunks, sections
