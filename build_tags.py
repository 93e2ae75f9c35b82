"""Search tags for the builder: a tag vocabulary, read from files or derived from the book, and which
chunks carry which tags.

The vocabulary has two kinds of tag, as BeliefCraft's rag-service has them:

- concepts, grouped in categories.  `--tags FILE` reads BeliefCraft's concept_tags.json format
  as is: {"tags": {"CATEGORY": ["TAG", ...], ...}}.  A tag may also be an object
  {"name": "TAG", "description": "what it means"}; the description then helps matching.  An
  optional top-level "tables" list in the same file adds table names.
- tables: names of database tables an agent may ask about.  `--tables FILE` reads a JSON list of
  names (or {"tables": [...]}, names or {"name", "description"} objects), or plain text with one
  name a line (blank lines and lines starting with # are skipped).

With no tags file the concepts come from the book itself: one category per chapter (its title),
whose tags are the titles of its sections (the chapter's key phrases).

Assignment is offline and deterministic: a tag's text (its name as words, plus its description)
is embedded with the same ONNX model as the chunks, and a chunk gets the tag when

- the tag's words appear in the chunk as a phrase ("Monte Carlo tree search" for
  MONTE_CARLO_TREE_SEARCH; plurals and hyphens allowed), unless the phrase is so common in the
  book (more than TERM_MAX_SHARE of the chunks) that it singles nothing out, or
- its cosine to the tag is one of the tag's best in the book: at least EMBED_FLOOR and within
  EMBED_MARGIN of the tag's best chunk; a chunk keeps at most EMBED_PER_CHUNK such tags.

Cosines are rounded to three decimals before they are compared, so the last digits that differ
between CPUs' int8 kernels rarely change an assignment.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

EMBED_FLOOR = 0.40
EMBED_MARGIN = 0.10
EMBED_PER_CHUNK = 3
# A phrase found in more than this share of the chunks (and in more than TERM_MIN_LIMIT) says
# nothing about any one of them ("MODEL" from a section called "The model"): its matches are dropped.
TERM_MAX_SHARE = 0.05
TERM_MIN_LIMIT = 10
MAX_TAGS = 500
TAG_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\- ]{0,79}$")


class TagsError(ValueError):
    """A tags or tables file that cannot be used; the message says which file and why."""


@dataclass
class Tag:
    name: str
    type: str                 # "concepts" or "tables"
    category: str | None = None
    description: str = ""

    @property
    def words(self) -> list[str]:
        """The tag's name as words: POMDP_BELIEF_UPDATE -> [pomdp, belief, update]."""
        return [w for w in re.split(r"[\s_\-.]+", self.name.lower()) if w]

    @property
    def text(self) -> str:
        """What is embedded for the tag."""
        phrase = " ".join(self.words)
        return f"{phrase}: {self.description}" if self.description else phrase


@dataclass
class Vocabulary:
    tags: list[Tag] = field(default_factory=list)
    source: str = "book"

    @property
    def categories(self) -> list[str]:
        return list(dict.fromkeys(t.category for t in self.tags if t.type == "concepts"))


def _entry(value, where: str) -> tuple[str, str]:
    """(name, description) of one tag entry: a string or {"name", "description"}."""
    if isinstance(value, str):
        name, description = value.strip(), ""
    elif isinstance(value, dict) and isinstance(value.get("name"), str):
        name, description = value["name"].strip(), str(value.get("description") or "").strip()
    else:
        raise TagsError(f"{where}: each tag must be a name or an object with a name, got {value!r}")
    if not TAG_NAME_RE.match(name):
        raise TagsError(f"{where}: tag name {name!r} must be 1-80 letters, digits, _ . - or spaces")
    return name, description


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TagsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TagsError(f"{path}: not valid JSON ({exc})") from None


def read_tags_file(path: Path) -> list[Tag]:
    """Concept tags (and optional tables) from a file in BeliefCraft's concept_tags.json format."""
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("tags"), dict) or not data["tags"]:
        raise TagsError(f'{path}: expected {{"tags": {{"CATEGORY": ["TAG", ...], ...}}}} with at least one category')
    tags = []
    for category, entries in data["tags"].items():
        if not isinstance(entries, list) or not entries:
            raise TagsError(f"{path}: category {category!r} must be a non-empty list of tags")
        if not TAG_NAME_RE.match(str(category)):
            raise TagsError(f"{path}: category name {category!r} must be 1-80 letters, digits, _ . - or spaces")
        for value in entries:
            name, description = _entry(value, f"{path}: category {category!r}")
            tags.append(Tag(name, "concepts", category, description))
    if "tables" in data:
        tags += _tables_from(data["tables"], path)
    return tags


def _tables_from(data, path: Path) -> list[Tag]:
    if isinstance(data, dict) and "tables" in data:
        data = data["tables"]
    if not isinstance(data, list):
        raise TagsError(f'{path}: expected a JSON list of table names (or {{"tables": [...]}})')
    tags = []
    for value in data:
        name, description = _entry(value, f"{path}: tables")
        tags.append(Tag(name, "tables", None, description))
    return tags


def read_tables_file(path: Path) -> list[Tag]:
    """Table names: a JSON list (or {"tables": [...]}), else plain text, one name a line, # comments."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TagsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise TagsError(f"{path}: not UTF-8 text ({exc})") from None
    if text.lstrip().startswith(("[", "{")):
        return _tables_from(_read_json(path), path)
    tags = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            tags.append(Tag(_entry(line, f"{path}: line {number}")[0], "tables"))
    return tags


def load_vocabulary(tags_path: Path | None, tables_path: Path | None, sections: Sequence = ()) -> Vocabulary:
    """The vocabulary from --tags/--tables, or derived from the book's sections when no tags file is given."""
    if tags_path is not None:
        tags = read_tags_file(tags_path)
        source = tags_path.name
    else:
        tags = book_concepts(sections)
        source = "book"
    if tables_path is not None:
        tags += read_tables_file(tables_path)
    seen: dict[str, Tag] = {}
    for tag in tags:
        key = tag.name.casefold()
        if key in seen and seen[key].type == tag.type:
            if tags_path is not None or tables_path is not None:
                where = tags_path if tag.type == "concepts" else tables_path
                raise TagsError(f"{where}: tag {tag.name!r} is listed twice")
            continue  # a derived vocabulary may meet the same title twice: keep the first
        seen.setdefault(key, tag)
    unique = list(seen.values())
    if len(unique) > MAX_TAGS:
        if tags_path is not None:
            raise TagsError(f"{len(unique)} tags is more than the {MAX_TAGS} a vocabulary may hold")
        # A long book's own vocabulary: its first sections' titles, tables kept.
        tables = [t for t in unique if t.type == "tables"][:MAX_TAGS]
        unique = [t for t in unique if t.type == "concepts"][:MAX_TAGS - len(tables)] + tables
    return Vocabulary(unique, source)


_SKIP_TITLES = {"exercises", "exercise", "problems", "summary", "notes", "references", "bibliography",
                "further reading", "overview of the book", "short history", "a short history"}


def tag_name(title: str) -> str:
    """A heading as an UPPER_SNAKE tag name: 'The newsvendor model' -> NEWSVENDOR_MODEL."""
    title = re.sub(r"-\s+(?=[a-z])", "", title)  # "distribu- tions": a hyphen left by line breaking
    words = re.findall(r"[A-Za-z0-9]+", title.replace("’", "").replace("'", ""))
    if words and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    return "_".join(w.upper() for w in words)[:80].strip("_")


def book_concepts(sections: Sequence) -> list[Tag]:
    """Concepts of a book with no tags file: each chapter a category, its sections' titles its tags."""
    chapters = {s.id: s for s in sections if s.level == 1}
    tags = []
    for s in sorted(sections, key=lambda s: s.ord):
        if s.level != 2 or s.title.strip().lower() in _SKIP_TITLES:
            continue
        chapter = chapters.get(s.parent_id) or next(
            (c for c in chapters.values() if s.number.split(".")[0] == c.number), None)
        name = tag_name(s.title)
        if chapter is None or not name or not TAG_NAME_RE.match(name):
            continue
        tags.append(Tag(name, "concepts", tag_name(chapter.title) or f"CHAPTER_{chapter.number}", s.title))
    return tags


def phrase_pattern(tag: Tag) -> re.Pattern:
    """The tag's words as a phrase in running text: any case, space or hyphen between, plural ends."""
    parts = [re.escape(w) for w in tag.words]
    joined = r"[\s\-_]+".join(parts)
    return re.compile(rf"(?<![A-Za-z0-9]){joined}(?:s|es)?(?![A-Za-z0-9])", re.IGNORECASE)


def assign_tags(texts: Sequence[str], vectors, vocabulary: Vocabulary,
                embed: Callable[[list[str]], object]) -> list[list[tuple[str, float, str]]]:
    """Per chunk, its tags as (name, type, rounded cosine, "term" or "embedding"), in the vocabulary's order."""
    import numpy as np

    tags = vocabulary.tags
    out: list[list[tuple[str, str, float, str]]] = [[] for _ in texts]
    if not tags or not len(texts):
        return out
    tag_vectors = np.asarray(embed([t.text for t in tags]), dtype=np.float32)
    cosines = np.round(np.asarray(vectors, dtype=np.float32) @ tag_vectors.T, 3)  # [chunks, tags]
    best = cosines.max(axis=0)
    patterns = [phrase_pattern(t) for t in tags]
    first_words = [t.words[0] if t.words else "" for t in tags]
    terms: list[set[int]] = []
    for text in texts:
        lowered = text.lower()  # the substring test below skips most regexes
        terms.append({j for j, pattern in enumerate(patterns) if first_words[j] in lowered and pattern.search(text)})
    limit = max(TERM_MIN_LIMIT, TERM_MAX_SHARE * len(texts))
    chunks_with = Counter(j for found in terms for j in found)   # tag -> chunks whose text names it
    common = {j for j, n in chunks_with.items() if n > limit}
    for i in range(len(texts)):
        row = cosines[i]
        chosen: dict[int, str] = {j: "term" for j in terms[i] - common}
        close = [j for j in range(len(tags))
                 if j not in chosen and row[j] >= EMBED_FLOOR and row[j] >= best[j] - EMBED_MARGIN]
        close.sort(key=lambda j: (-float(row[j]), j))
        for j in close[:EMBED_PER_CHUNK]:
            chosen[j] = "embedding"
        out[i] = [(tags[j].name, tags[j].type, float(row[j]), chosen[j]) for j in sorted(chosen)]
    return out
