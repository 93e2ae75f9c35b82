"""bookrag's core: the one embedder, the id rules, the knowledge base and its ranking.

Sections, top-down: configuration, model (the one embedder), ids (the one id rule), knowledge
base (BookReader, the read side every route shares, and KnowledgeBase, which owns a reader, the
embedder and a Ranker), ranking (the Ranker: it reads through the reader, never back through the
knowledge base), the worker pool, and the request rules every adapter shares.  The knowledge
file's shape (schema, rows, opening checks) is rag_store.py's.  This module imports no adapter: rag_rest.py (specs 01 and 03), rag_mcp.py
(spec 02) and rag_answers.py (specs 04 and 05) import it, and rag.py assembles them into the app,
the Lambda handler and the CLI.  The builder (build_db.py) imports it too; nothing here imports
the builder or any PDF library.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

import msgspec

from rag_store import (  # noqa: F401  (SCHEMA_VERSION, Chunk, load_spellfix: re-exported for scripts)
    CHUNK_COLUMNS, SCHEMA_VERSION, SECTION_COLUMNS, Chunk, KnowledgeFileError, Section, check_model, check_version,
    chunk_columns, chunk_from_row, load_spellfix, open_readonly, read_meta, readonly_uri, section_from_row,
)
from rag_text import KIND_ALIASES, NUMBER_RE, SECTION_REFERENCE_RE, STOPWORDS, reference_pattern

# --------------------------------------------------------------------------- configuration
"""Configuration: paths, schema version, vocabularies shared by the builder and the service."""

HERE = Path(__file__).resolve().parent
DEFAULT_DB = HERE / "knowledge.sqlite"
DEFAULT_MODEL_DIR = HERE / "models"
DEFAULT_PORT = 8001
SERVICE_NAME = "rag-service"

# Kinds of chunk.  Numbered entities are chunks too, unique by (kind, number).  Spec 01 names four
# kinds; textbooks print many more, and a knowledge file holds whatever numbered things its book
# prints ("assumption", "problem" …): KnowledgeBase.kinds lists them.
SPEC_KINDS = ("formula", "algorithm", "table", "figure")
ENTITY_KINDS = SPEC_KINDS + ("example", "exercise", "theorem", "lemma", "proposition", "corollary", "definition",
                             "remark", "box", "listing")
CHUNK_KINDS = ("text",) + ENTITY_KINDS

# Graph relations (spec 01 names), each with one meaning: expand_graph below, and docs/api.md.
RELATIONS = ("REFERENCES", "REFERENCED_BY", "USES_IN", "CITES", "PART_OF", "FOLLOWS", "RELATED_TO")

# BeliefCraft's chunk_type names (spec 02 metadata) for our kinds.
CHUNK_TYPE_OF_KIND = {
    "text": "text", "formula": "numbered_formula", "table": "numbered_table",
    "algorithm": "algorithm", "figure": "captioned_image", "example": "example",
    "exercise": "exercise",
}


def env(name: str, default: str | None = None) -> str | None:
    """Read one configuration value from the environment (empty counts as unset)."""
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def now_iso() -> str:
    """The current UTC time as the specs write it: 2026-02-18T14:30:00Z."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ConfigError(Exception):
    """A problem with the knowledge file or model that stops the service from starting."""


# --------------------------------------------------------------------------- model
"""Model: the one embedder (ONNX MiniLM, pooling and normalisation inside the graph)."""


_CHECKED_MODELS: set[tuple] = set()    # model files whose bytes this process found as model.json names them


class Embedder:
    """Turns texts into unit-length float32 vectors with the ONNX model in models/."""

    def __init__(self, model_dir: Path | str = DEFAULT_MODEL_DIR, threads: int = 1, session: bool = True):
        """session=False loads the tokenizer only (count_tokens); the model then loads on the first embed()."""
        import numpy as np
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        info_path = self.model_dir / "model.json"
        onnx_path = self.model_dir / "model.onnx"
        tok_path = self.model_dir / "tokenizer.json"
        for path in (info_path, onnx_path, tok_path):
            if not path.is_file():
                raise ConfigError(f"model file missing: {path}")
        try:
            self.info = json.loads(info_path.read_text())
        except ValueError as exc:
            raise ConfigError(f"model.json is not valid JSON: {exc}") from None
        self.name = self.info.get("name", "unknown")
        self.dim = int(self.info.get("dim", 384))
        self.max_tokens = int(self.info.get("max_tokens", 256))
        self.sha256 = self.info.get("onnx_sha256", "")
        try:
            self.tokenizer = Tokenizer.from_file(str(tok_path))
        except Exception as exc:  # tokenizers raises a bare Exception on bad files
            raise ConfigError(f"tokenizer.json cannot be read: {exc}") from None
        self.tokenizer.enable_truncation(max_length=self.max_tokens)
        self.tokenizer.no_padding()
        self._np = np
        self._threads = threads
        self.session = None
        if session:
            self._load_session()

    def _load_session(self) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(
                str(self.model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise ConfigError(f"model.onnx cannot be loaded: {str(exc).splitlines()[0]}") from None
        self._input_names = [i.name for i in self.session.get_inputs()]

    def check_file(self) -> None:
        """ConfigError unless model.onnx's bytes are the ones model.json names (a cheap check, no session).
        A file this process checked, unchanged since (its size and modification time), is not hashed
        again: a process that builds many books in turn hashed 23 MB for each."""
        path = self.model_dir / "model.onnx"
        stat = path.stat()
        seen = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, self.sha256)
        if seen in _CHECKED_MODELS:
            return
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if self.sha256 and digest != self.sha256:
            raise ConfigError(f"model.onnx does not match model.json (sha256 {digest[:12]}…, expected "
                              f"{self.sha256[:12]}…): restore models/ from the repository")
        _CHECKED_MODELS.add(seen)

    def count_tokens(self, text: str) -> int:
        """Number of model tokens of text (without truncation), [CLS]/[SEP] included."""
        self.tokenizer.no_truncation()
        try:
            return len(self.tokenizer.encode(text).ids)
        finally:
            self.tokenizer.enable_truncation(max_length=self.max_tokens)

    def embed(self, texts: Sequence[str]):
        """Embed a batch of texts; returns an array [len(texts), dim] of unit vectors."""
        np = self._np
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.session is None:
            self._load_session()
        encodings = self.tokenizer.encode_batch(list(texts))
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        out = self.session.run(None, {k: v for k, v in feeds.items() if k in self._input_names})[0]
        return np.ascontiguousarray(out, dtype=np.float32)

    def is_known_word(self, word: str) -> bool:
        """True when the model's vocabulary holds the word whole (an ordinary English word)."""
        return self.tokenizer.token_to_id(word.lower()) is not None

    def embed_query(self, text: str) -> bytes:
        """Embed one query as float32 bytes (cached: agents repeat themselves)."""
        return _cached_query_vector(self, text)


def _query_vector(embedder: Embedder, text: str) -> bytes:
    return embedder.embed([text])[0].tobytes()


# RAG_QUERY_CACHE: how many query vectors to keep (0 turns the cache off, e.g. for benchmarks).
_cached_query_vector = lru_cache(maxsize=int(env("RAG_QUERY_CACHE", "2048")))(_query_vector)


# --------------------------------------------------------------------------- ids
"""Ids: one rule for readable entity ids, and every alias agents send for them."""

def normalize_kind(word: str, kinds: Iterable[str] = ()) -> str | None:
    """Map a type word an agent wrote ('Algorithm', 'eq', 'image', 'Assumptions') to our kind, or None.

    kinds: further kinds the knowledge file holds (its book's own words, e.g. 'assumption')."""
    w = word.strip().lower().rstrip(".")
    found = KIND_ALIASES.get(w)
    if found or not kinds:
        return found
    for candidate in (w, w[:-1] if w.endswith("s") else None, w[:-2] if w.endswith("es") else None):
        if candidate and candidate in kinds:
            return candidate
    return None


def chunk_type(kind: str) -> str:
    """BeliefCraft's chunk_type (spec 02 metadata) for a kind; kinds it has no name for keep theirs."""
    return CHUNK_TYPE_OF_KIND.get(kind, kind)


def normalize_number(text: str) -> str | None:
    """'3.2.' / ' a.1 ' / '(3.4)' / 'Algorithm 3.2' -> '3.2' / 'A.1' / '3.4'; None if malformed."""
    text = text.strip()
    match = re.match(r"^[A-Za-z_]+[\s_:]+(?=[\dA-Za-z])", text)
    if match and normalize_kind(match.group(0).strip(" _:")):
        text = text[match.end():]
    text = text.strip().strip("()").rstrip(".").replace("_", ".").replace("-", ".")
    if not text:
        return None
    head, _, rest = text.partition(".")
    if head[:1].isalpha():   # an appendix letter: "a.1" -> "A.1" (and "pt" -> "Pt", which no book holds)
        head = head[0].upper() + head[1:]
    number = head + ("." + rest if rest else "")
    return number if NUMBER_RE.match(number) else None


def entity_id(kind: str, number: str) -> str:
    """The readable id of a numbered entity: ('formula', '3.2') -> 'formula_3_2'."""
    return f"{kind}_{number.replace('.', '_')}"


def beliefcraft_uuid(kind: str, number: str) -> str:
    """The id BeliefCraft's ingestion gave an entity: uuid5(DNS, '<number>:<chunk_type>')."""
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, f"{number}:{chunk_type(kind)}"))


_ID_SHAPE = re.compile(r"^[A-Za-z0-9_.:\- ()]{1,128}$")


def id_is_wellformed(text: str) -> bool:
    """True when text could be an id at all (letters, digits and _ . : - space parentheses)."""
    return bool(_ID_SHAPE.match(text))


def parse_entity_alias(text: str, kinds: Iterable[str] = ()) -> tuple[str, str] | None:
    """'algo_4_1', 'Algorithm 4.1', 'algorithm:4.1', 'eq (3.4)' -> (kind, number), else None."""
    match = re.match(r"^\s*([A-Za-z]+)(?:[\s_:.]+|(?=\d))\(?((?:[A-Za-z]|\d+)(?:[._]\d+)*[a-z]?)\)?\s*$", text)
    if not match:
        return None
    kind = normalize_kind(match.group(1).strip("_"), kinds)
    number = normalize_number(match.group(2))
    return (kind, number) if kind and number else None


# --------------------------------------------------------------------------- knowledge base
"""Knowledge base: the one read-only view of knowledge.sqlite under every route."""


# The same columns of a second chunk table "b" in a join (KnowledgeBase.next_in_section).
_NEXT_COLUMNS = chunk_columns("b.")


@dataclass
class Hit:
    """A ranked search result: the chunk, its fused score and its raw cosine similarity."""

    chunk: Chunk
    score: float
    cosine: float
    via: str = "search"  # "reference" (pinned), "search", or "expansion"
    continued: str | None = None  # a short hit's next chunk in reading order (FOLLOWS), same section


@dataclass
class SearchResult:
    """What KnowledgeBase.search returns: hits plus what it did to the query."""

    hits: list[Hit]
    query: str
    corrected_query: str | None = None
    suggestion: str | None = None
    timings_ms: dict = field(default_factory=dict)


# Filter keys of the knowledge base (book terms); adapters translate their specs' names.
FILTER_COLUMNS = ("part", "chapter", "section", "subsection", "subsubsection", "page", "kind")


class BookReader:
    """The knowledge file's read side: a read-only connection per thread, the book's facts (title,
    kinds, search tags, parts) read once, and every lookup over it, the ranker's candidates included.

    Opening makes rag_store's open-time check of the file's shape; KnowledgeBase adds the model's.
    """

    def __init__(self, db_path: Path | str = DEFAULT_DB):
        import apsw

        self.path = Path(db_path)
        if not self.path.is_file():
            raise ConfigError(f"knowledge file not found: {self.path}")
        self._uri = readonly_uri(self.path)
        # One connection per thread: an apsw Connection refuses to be used by two threads at once
        # (ThreadingViolationError), and searches run in worker threads (MCP tools, search pool).
        self._local = threading.local()
        try:
            self._local.db = self._connect(spellfix=False)
            self.meta = read_meta(self.db)
        except apsw.Error as exc:
            raise ConfigError(f"{self.path} is not a readable knowledge file ({exc})") from None
        try:
            check_version(self.meta, self.path)
        except KnowledgeFileError as exc:
            raise ConfigError(str(exc)) from None
        self.has_spellfix = load_spellfix(self.db) and bool(self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'vocab_fix'").fetchone())
        self.title = self.meta.get("title", "")
        self.chunk_count = self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        self.build_hash = self.meta.get("build_hash", "")
        self.build_report = json.loads(self.meta["build_report"]) if self.meta.get("build_report") else None
        self._uuid_alias = {}
        held = set()
        for kind, number, cid in self.db.execute(
            "SELECT kind, number, id FROM chunks WHERE kind != 'text' AND number IS NOT NULL"
        ):
            self._uuid_alias[beliefcraft_uuid(kind, number)] = cid
            held.add(kind)
        # The entity kinds this file answers for: the well-known ones and whatever else its book numbers.
        self.kinds: tuple[str, ...] = ENTITY_KINDS + tuple(sorted(held - set(ENTITY_KINDS)))
        self.reference_re = reference_pattern(self.kinds)
        self.vocabulary = self._load_vocabulary()
        self._parts: list[str] | None = None
        self._word_total: int | None = None
        self._named: dict[str, int] | None = None

    def _connect(self, spellfix: bool = True):
        """A new read-only connection to the knowledge file with sqlite-vec (and spellfix1) loaded."""
        db = open_readonly(self._uri, spellfix=spellfix)
        # A statement past its request's deadline stops (apsw.InterruptError): see time_budget.
        db.set_progress_handler(past_deadline, PROGRESS_STEPS)
        return db

    @property
    def db(self):
        """This thread's connection (opened on the thread's first use)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        return db

    # ---- search tags
    def _load_vocabulary(self) -> TagVocabulary:
        concepts: dict[str, list[str]] = {}
        tables: list[str] = []
        for name, tag_type, category in self.db.execute("SELECT name, type, category FROM tags ORDER BY ord"):
            if tag_type == "tables":
                tables.append(name)
            else:
                concepts.setdefault(category or "", []).append(name)
        return TagVocabulary(concepts, tables, self.meta.get("tags_source", ""))

    def tags_of(self, chunk_ids: Sequence[str]) -> dict[str, set[str]]:
        """{chunk id: the search tags (concepts and tables) the builder gave it}."""
        out: dict[str, set[str]] = {i: set() for i in chunk_ids}
        ids = list(out)
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            rows = self.db.execute(f"SELECT chunk_id, tag FROM chunk_tags WHERE chunk_id IN "
                                   f"({','.join('?' * len(part))})", part)
            for cid, tag in rows:
                out[cid].add(tag)
        return out

    # ---- lookups
    def counts(self) -> dict[str, int]:
        """Number of chunks of each kind."""
        rows = self.db.execute("SELECT kind, count(*) FROM chunks GROUP BY kind ORDER BY kind")
        return {kind: n for kind, n in rows}

    def get(self, chunk_id: str) -> Chunk | None:
        """The chunk with this id (any alias accepted), or None."""
        canonical = self.resolve_id(chunk_id)
        if canonical is None:
            return None
        row = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id = ?", (canonical,)).fetchone()
        return chunk_from_row(row) if row else None

    def get_many(self, ids: Iterable[str]) -> dict[str, Chunk]:
        """Chunks by canonical id; section nodes (part_I, chapter_5, section_5_2) come as kind 'section'."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id IN ({marks})", ids)
        found = {c.id: c for c in map(chunk_from_row, rows)}
        rest = [i for i in ids if i not in found]
        if rest:
            marks = ",".join("?" * len(rest))
            for row in self.db.execute(f"SELECT {SECTION_COLUMNS} FROM sections WHERE id IN ({marks})", rest):
                node = self._section_chunk(section_from_row(row))
                found[node.id] = node
        return found

    def _section_chunk(self, section: Section) -> Chunk:
        """A section node as a document: its heading and opening text, placed in the hierarchy."""
        names = ["part", "chapter", "section", "subsection", "subsubsection"]
        place: dict[str, Any] = {n: None for n in names} | {f"{n}_title": None for n in names}
        place[names[section.level]], place[f"{names[section.level]}_title"] = section.number, section.title
        if section.level >= 2:
            place["chapter"] = section.number.split(".")[0]
        return Chunk(rowid=-1, id=section.id, kind="section", number=section.number, title=section.title,
                     content=section.content, page=section.page_start, pdf_page=section.pdf_page_start,
                     ord=section.ord, **place)

    def resolve_id(self, text: str) -> str | None:
        """Canonical chunk id for an id or any alias agents produce; None if unknown."""
        text = text.strip()
        if not text:
            return None
        if self.db.execute("SELECT 1 FROM chunks WHERE id = ? UNION ALL SELECT 1 FROM sections WHERE id = ?",
                           (text, text)).fetchone():
            return text
        if text.lower() in self._uuid_alias:
            return self._uuid_alias[text.lower()]
        alias = parse_entity_alias(text, self.kinds)
        if alias:
            row = self.db.execute(
                "SELECT id FROM chunks WHERE kind = ? AND number = ?", alias
            ).fetchone()
            return row[0] if row else None
        return None

    def entity(self, kind: str, number: str) -> Chunk | None:
        """A numbered entity by kind and (normalised) number, or None.

        The number as printed is accepted too where the book restarts numbering in each chapter
        ("Exercise 3" of chapter 2 is stored as 2.3): it answers when it names one entity."""
        number = normalize_number(number) or number
        row = self.db.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE kind = ? AND number = ?", (kind, number)
        ).fetchone()
        if row is None:
            rows = self.db.execute(
                f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE kind = ? AND json_extract(extra, '$.printed_number') = ? "
                "LIMIT 2", (kind, number)).fetchall()
            row = rows[0] if len(rows) == 1 else None
        return chunk_from_row(row) if row else None

    def edges_of(self, chunk_id: str, relations: Sequence[str] = RELATIONS) -> list[tuple[str, str, str]]:
        """Edges (src, dst, rel) touching chunk_id in either direction, restricted to relations."""
        marks = ",".join("?" * len(relations))
        return self.db.execute(
            f"SELECT src, dst, rel FROM edges WHERE src = ? AND rel IN ({marks}) "
            f"UNION SELECT src, dst, rel FROM edges WHERE dst = ? AND rel IN ({marks})",
            (chunk_id, *relations, chunk_id, *relations),
        ).fetchall()

    def references_of(self, chunk_id: str) -> tuple[list[str], list[str]]:
        """(ids this chunk references, ids of entities that reference it)."""
        refs = [r[0] for r in self.db.execute(
            "SELECT dst FROM edges WHERE src = ? AND rel = 'REFERENCES' ORDER BY dst", (chunk_id,))]
        cited = [r[0] for r in self.db.execute(
            "SELECT src FROM edges WHERE dst = ? AND rel = 'REFERENCES' ORDER BY src", (chunk_id,))]
        return refs, cited

    def toc(self) -> list[dict]:
        """The book's parts and chapters with printed start pages, in reading order."""
        rows = self.db.execute(
            "SELECT level, number, title, page_start FROM sections WHERE level <= 1 ORDER BY ord"
        )
        return [{"level": lvl, "number": num, "title": title, "page": page} for lvl, num, title, page in rows]

    def parts(self) -> list[str]:
        """The book's parts as it numbers them ("I"…"V", "Appendices"; a docs tree's modules), in order."""
        if self._parts is None:
            self._parts = [r[0] for r in self.db.execute("SELECT number FROM sections WHERE level = 0 ORDER BY ord")]
        return list(self._parts)

    # ---- candidates: what the ranker reads
    def word_frequency(self, term: str) -> int:
        """How often the book prints a word (lower case; 0 when it never does)."""
        row = self.db.execute("SELECT freq FROM vocab WHERE term = ?", (term,)).fetchone()
        return row[0] if row else 0

    def word_total(self) -> int:
        """How many words (of three letters or more) the book prints in all, at least 1 (read once)."""
        if self._word_total is None:
            self._word_total = int(self.db.execute("SELECT coalesce(sum(freq), 0) FROM vocab").fetchone()[0]) or 1
        return self._word_total

    def passages_containing(self, text: str, module: str | None = None, limit: int = 8) -> list[tuple[int, str, str]]:
        """(rowid, id, content) of the first text chunks, in reading order, whose text holds text verbatim
        (within one part or module when given)."""
        return self.db.execute("SELECT rowid, id, content FROM chunks WHERE kind = 'text' AND instr(content, ?) > 0 "
                               "AND (? IS NULL OR part = ?) ORDER BY ord LIMIT ?", (text, module, module, limit)).fetchall()

    def contents_of_kind(self, kind: str) -> list[tuple[str, str]]:
        """(id, content) of every chunk of a kind, in reading order."""
        return self.db.execute("SELECT id, content FROM chunks WHERE kind = ? ORDER BY ord", (kind,)).fetchall()

    def nearest_word(self, word: str) -> tuple[str, int] | None:
        """The book's word nearest a misspelled one by spellfix1, with its edit distance; None without one."""
        if not self.has_spellfix:
            return None
        return self.db.execute("SELECT word, distance FROM vocab_fix WHERE word MATCH ? AND top = 3 "
                               "ORDER BY score LIMIT 1", (word,)).fetchone()

    def dense(self, vector: bytes, n: int, filters: dict) -> list[tuple[int, float]]:
        """(rowid, cosine) of the n nearest chunks, filters applied inside the KNN."""
        where, args = _filter_sql(filters, table="")
        rows = self.db.execute(
            f"SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ?{where}",
            (vector, n, *args),
        ).fetchall()
        return [(rowid, 1.0 - dist) for rowid, dist in rows]

    def lexical(self, query: str, n: int, filters: dict) -> list[tuple[int, float]]:
        """(rowid, bm25 score, larger is better) of the n best FTS5 matches of query's words."""
        match = fts_query(query)
        if not match:
            return []
        where, args = _filter_sql(filters, table="c.")
        rows = self.db.execute(
            f"SELECT f.rowid, -bm25(chunks_fts, {TITLE_WEIGHT}, 1.0) AS s FROM chunks_fts f "
            f"JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ?{where} "
            "ORDER BY s DESC LIMIT ?",
            (match, *args, n),
        ).fetchall()
        return rows

    def next_in_section(self, chunk_id: str, text_only: bool = False) -> Chunk | None:
        """The chunk after this one in reading order within its section, or None: by its FOLLOWS edge,
        or with text_only the next text chunk (skipping the entities set between, such as a display
        the passage itself prints)."""
        b_columns = _NEXT_COLUMNS
        same_place = ("b.chapter IS a.chapter AND b.section IS a.section AND b.subsection IS a.subsection "
                      "AND b.subsubsection IS a.subsubsection")
        if text_only:
            sql = (f"SELECT {b_columns} FROM chunks a JOIN chunks b ON b.ord > a.ord AND b.kind = 'text' "
                   f"AND b.source IS a.source AND {same_place} WHERE a.id = ? ORDER BY b.ord LIMIT 1")
        else:
            sql = (f"SELECT {b_columns} FROM edges e JOIN chunks a ON a.id = e.dst JOIN chunks b ON b.id = e.src "
                   f"WHERE e.dst = ? AND e.rel = 'FOLLOWS' AND {same_place} LIMIT 1")
        row = self.db.execute(sql, (chunk_id,)).fetchone()
        return chunk_from_row(row) if row else None

    def first_chunk_of_section(self, number: str, filters: dict) -> int | None:
        """Rowid of the first text chunk under a numbered section (at any depth), within filters."""
        level = {1: "section", 2: "subsection"}.get(number.count("."), "subsubsection")
        where, args = _filter_sql(filters, table="")
        row = self.db.execute(f"SELECT rowid FROM chunks WHERE {level} = ? AND kind = 'text'{where} "
                              "ORDER BY ord LIMIT 1", (number, *args)).fetchone()
        return row[0] if row else None

    def named_entities(self) -> dict[str, int]:
        """Entities the book names ("Theorem 2.15 (Fundamental Theorem of Arithmetic)"): each title of
        NAME_WORDS words, its words lower-cased and joined by single spaces, to the entity's rowid.
        A figure's, table's or listing's caption describes what it shows and names nothing; a name
        two entities share names neither.  Read once per file."""
        if self._named is None:
            named: dict[str, int] = {}
            shared: set[str] = set()
            for rowid, title in self.db.execute(
                    "SELECT rowid, title FROM chunks WHERE kind NOT IN ('text', 'figure', 'table', 'listing') "
                    "AND number IS NOT NULL AND title != ''"):
                words = name_words(title or "")
                if not (NAME_WORDS[0] <= len(words) <= NAME_WORDS[1]) or not _names_something(words):
                    continue
                key = " ".join(words)
                if key in named or key in shared:
                    named.pop(key, None)
                    shared.add(key)
                else:
                    named[key] = rowid
            self._named = named
        return self._named

    def chunks_by_rowid(self, rowids: Sequence[int]) -> dict[int, Chunk]:
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE rowid IN ({marks})", list(rowids))
        return {c.rowid: c for c in map(chunk_from_row, rows)}

    def cosine_to(self, vector: bytes, rowids: Sequence[int]) -> dict[int, float]:
        """Cosine similarity of the query vector to specific chunks (for pinned/linked items)."""
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self.db.execute(
            f"SELECT rowid, vec_distance_cosine(embedding, ?) FROM chunks_vec WHERE rowid IN ({marks})",
            (vector, *rowids),
        )
        return {rowid: 1.0 - dist for rowid, dist in rows}


class KnowledgeBase:
    """The one knowledge base every route shares: a BookReader, the embedder, and search by a Ranker.

    Opens knowledge.sqlite read-only and checks it against the model.  Lookups (get, entity, toc, …)
    and the book's facts (title, kinds, meta, …) are its reader's, reached through this object;
    search is its ranker's, which reads through the reader and embeds with the embedder: nothing
    calls back into the knowledge base.
    """

    def __init__(self, db_path: Path | str = DEFAULT_DB, model_dir: Path | str = DEFAULT_MODEL_DIR,
                 embedder: Embedder | None = None, threads: int = 1):
        self.reader = BookReader(db_path)
        self.embedder = embedder or Embedder(model_dir, threads=threads)
        try:
            check_model(self.reader.meta, self.reader.path, self.embedder.name, self.embedder.sha256,
                        self.embedder.dim)
        except KnowledgeFileError as exc:
            raise ConfigError(str(exc)) from None
        self.ranker = Ranker(self.reader, self.embedder)

    def __getattr__(self, name: str):
        """Anything the knowledge base does not hold itself is its reader's (lookups, the book's facts)."""
        reader = self.__dict__.get("reader")
        if reader is None:
            raise AttributeError(name)
        return getattr(reader, name)

    def search(self, query: str, k: int = 5, filters: dict | None = None,
               traverse_kinds: Sequence[str] = (), mode: str = "hybrid", tags: Iterable[str] = ()) -> SearchResult:
        """Ranked chunks for a query: pinned references, then hybrid dense+BM25, then expansion.

        mode "dense" or "bm25" ranks by one signal alone (for evaluation side by side).  tags (names
        from self.vocabulary, already checked) re-rank the best k + TAG_POOL candidates: each tag a
        candidate shares with them adds TAG_BOOST to its score.
        """
        return self.ranker.search(query, k, filters or {}, traverse_kinds, mode, tags=tuple(tags))


def _filter_sql(filters: dict, table: str) -> tuple[str, list]:
    """' AND col = ?' clauses for the knowledge-base filter keys (values already validated)."""
    clauses, args = [], []
    for key in FILTER_COLUMNS:
        if key in filters and filters[key] is not None:
            value = filters[key]
            if isinstance(value, (list, tuple)):
                clauses.append(f"{table}{key} IN ({','.join('?' * len(value))})")
                args.extend(value)
            else:
                clauses.append(f"{table}{key} = ?")
                args.append(value)
    return "".join(f" AND {c}" for c in clauses), args


_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


_PAIR_NOTATION_RE = re.compile(r"\(\s*([^\W\d_])\s*,\s*([^\W\d_])\s*\)")

# Identifiers a book prints verbatim: names joined by underscores or dots (glp_simplex, tol_bnd,
# GLP_EBADB, numpy.linalg) and camelCase or PascalCase names (SetKwInput, maxIter).  The FTS index
# holds each one both as its parts (what unicode61 makes of it) and whole (identifier_index_terms),
# and a query's identifiers search for both, so either spelling finds the other.
_JOINED_ID_RE = re.compile(r"(?<![\w.])[^\W\d_][^\W_]*(?:_+[^\W_]+|\.[^\W\d_][^\W_]+)+(?![\w]|\.\w)")
# A camelCase name is a lower-case run (or one capitalised word), optional digits, then a capital and
# the rest of the alphanumeric run.  Written with one quantifier per character class in sequence so
# that it matches in linear time (the earlier nested form backtracked exponentially on a run of digits).
_CAMEL_ID_RE = re.compile(r"(?<![\w.])(?:[a-z]+|[A-Z][a-z]+)[0-9]*[A-Z][A-Za-z0-9]*(?!\w)")
_CAMEL_SPLIT_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def identifiers(text: str) -> list[str]:
    """The identifier-shaped tokens of a text (glp_simplex, GLP_EBADB, a.b_c, SetKwInput), in order."""
    found = [m.group(0) for m in _JOINED_ID_RE.finditer(text)]
    found += [m.group(0) for m in _CAMEL_ID_RE.finditer(text) if m.group(0) not in found]
    # Mathematical notation (Z_n, x_i, a_ij) is not a name: an identifier has a part of 3+ letters.
    return [n for n in dict.fromkeys(found) if max(len(p) for p in re.split(r"[_.]+", n)) >= 3]


def identifier_parts(name: str) -> list[str]:
    """An identifier's words, lower case: 'glp_simplex' -> ['glp', 'simplex'], 'SetKwInput' -> ['set', 'kw', 'input']."""
    parts = []
    for piece in re.split(r"[_.]+", name):
        parts.extend(w.lower() for w in _CAMEL_SPLIT_RE.findall(piece))
    return [p for p in parts if p]


def identifier_index_terms(text: str) -> str:
    """Extra FTS text for a chunk's identifiers: joined names whole ('glpsimplex'), camelCase names in
    parts ('set kw input'); unicode61 already indexes the other spelling of each."""
    terms = []
    for name in identifiers(text):
        parts = identifier_parts(name)
        if len(parts) < 2:
            continue
        terms.append(" ".join(parts) if _CAMEL_ID_RE.fullmatch(name) else "".join(parts))
    return " ".join(dict.fromkeys(terms))


def fts_query(text: str) -> str:
    """User text as an FTS5 query of quoted words OR'ed together: no input is ever syntax.

    Single letters are dropped, except in pair notation such as "(s,S)" or "(Q, R)", which
    becomes the phrase "s s" so that it matches the book's "(s, S)" and "(s,S)".  An identifier
    (glp_simplex, SetKwInput) adds the phrase of its parts and its whole name, so the exact name
    scores above chunks holding its words apart.
    """
    terms = ['"' + f"{a} {b}".lower() + '"' for a, b in _PAIR_NOTATION_RE.findall(text)]
    for name in identifiers(text)[:16]:
        parts = [p.replace('"', "") for p in identifier_parts(name)]
        if len(parts) > 1:
            terms += ['"' + " ".join(parts) + '"', '"' + "".join(parts) + '"']
    words = [w.lower() for w in _WORD_RE.findall(text)][:64]
    if PAIR_PHRASES and any(w in STOPWORDS for w in words):
        # In a question written as prose, two content words side by side ("package provide") also
        # search as a phrase: a passage that says them together scores above one that mentions each
        # somewhere.  A string of keywords ("POMDP belief state update") is left as words: there
        # the order is the typist's, not the book's.
        for a, b in zip(words, words[1:]):
            if a not in STOPWORDS and b not in STOPWORDS and len(a) > 1 and len(b) > 1:
                terms.append(f'"{a} {b}"')
    words = [w for w in dict.fromkeys(words) if len(w) > 1 or w.isdigit()]
    terms += ['"' + w.replace('"', "") + '"' for w in words]
    return " OR ".join(dict.fromkeys(terms))


def query_profile(reader: BookReader, embedder: Embedder, query: str) -> dict:
    """What kind of query this is, for the dense/BM25 weighting: its content words, the identifiers
    it names, and its rare terms (words of this book that are not whole words of the model's English
    vocabulary, such as 'ebadb', 'kwinput', 'linesnumbered', and that occur in few places of the book:
    'simplex' in a book about the simplex method is a topic, not a lookup)."""
    ids = identifiers(query)
    words = [w.lower() for w in _WORD_RE.findall(query)]
    content = [w for w in words if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    rare = []
    for w in dict.fromkeys(content):
        if w.isdigit() or embedder.is_known_word(w):
            continue
        freq = reader.word_frequency(w)
        if freq and freq <= max(RARE_MIN_COUNT, RARE_SHARE * reader.chunk_count):
            rare.append(w)
    return {"identifiers": ids, "words": content, "rare": rare}


def dense_weight(profile: dict) -> float:
    """The dense share of the fused score for a query: a lookup (an identifier, or a short query
    holding a rare term of the book) leans on BM25; a question in prose on the embedding.  Between
    the two, the weight moves with the share of the query's words that are rare terms."""
    n = len(profile["words"])
    if profile["identifiers"] and n <= LOOKUP_WORDS + 1:
        return LOOKUP_DENSE_WEIGHT
    if profile["rare"] and n <= LOOKUP_WORDS:
        return LOOKUP_DENSE_WEIGHT
    if profile["identifiers"] or profile["rare"]:
        share = (len(profile["rare"]) + len(profile["identifiers"])) / max(n, 1)
        return max(LOOKUP_DENSE_WEIGHT, DENSE_WEIGHT - RARE_SHIFT * min(1.0, share * 2))
    return DENSE_WEIGHT


# --------------------------------------------------------------------------- ranking
"""Ranking: pinned references, dense + BM25 fused into one score, one-hop expansion."""

# Fusion of the dense and BM25 lists (see fuse) and the query-adaptive weight (dense_weight);
# tests/eval/tune_fusion.py prints every candidate side by side on the dev books (the sample book,
# glpk_manual, algorithm2e_doc) and the held-out ones (docs/evaluation.md, "Retrieval quality").
FUSION = "convex"
DENSE_WEIGHT = 0.8          # a question in prose
LOOKUP_DENSE_WEIGHT = 0.2   # a lookup: an identifier, or a short query holding a rare term
RARE_MIN_COUNT = 5          # a term is rare when the book prints it at most this many times,
RARE_SHARE = 0.01           # or in at most this share of its chunk count
LOOKUP_WORDS = 2            # "short": at most this many content words
RARE_SHIFT = 0.3            # how far rare terms and identifiers in a longer query move the weight
RRF_K = 60
PAIR_PHRASES = True         # adjacent content words of a query also search as a phrase (fts_query)
SHORT_HIT_CHARS = 200       # a hit shorter than this is shown with the chunk that follows it
TITLE_WEIGHT = 2.0          # BM25 weight of a chunk's label, name and heading against its text
CANDIDATES = 50
# Search tags: each tag a candidate shares with the query's adds TAG_BOOST to its score, over the
# best k + TAG_POOL candidates (BeliefCraft's rag-service rule).
TAG_BOOST = 0.1
TAG_POOL = 10


@dataclass
class TagVocabulary:
    """The search tags a knowledge file was built with: concept tags by category, and table names."""

    concepts: dict[str, list[str]]
    tables: list[str]
    source: str = ""   # the tags file's name, or "book" when derived from the book itself

    @property
    def all_concepts(self) -> list[str]:
        return [t for tags in self.concepts.values() for t in tags]

    def canonical(self, tag_type: str, names: Iterable[str]) -> tuple[list[str], list[str]]:
        """(known tags in their stored spelling, unknown names) for names in any letter case."""
        pool = self.all_concepts if tag_type == "concepts" else self.tables
        by_key = {t.casefold(): t for t in pool}
        known, unknown = [], []
        for name in names:
            tag = by_key.get(str(name).strip().casefold())
            (known if tag else unknown).append(tag or str(name))
        return list(dict.fromkeys(known)), unknown


_REF_RE = reference_pattern(ENTITY_KINDS)


def section_references(query: str) -> list[str]:
    """Section numbers the query names outright: 'Section 4.2.1', '§ 4.2', 'sec. 3.1'."""
    return list(dict.fromkeys(normalize_number(n) for n in SECTION_REFERENCE_RE.findall(query) if normalize_number(n)))


def explicit_references(query: str, kinds: Sequence[str] = ENTITY_KINDS, pattern=None) -> list[tuple[str, str]]:
    """(kind, number) pairs the query names outright: 'Algorithm 3.2', 'eq. (3.4)', 'fig 2.1'."""
    found = []
    for word, number in (pattern or _REF_RE).findall(query):
        kind = normalize_kind(word, kinds)
        num = normalize_number(number)
        if kind and num and (kind, num) not in found:
            found.append((kind, num))
    return found


_QUERY_WORD_RE = re.compile(r"[^\W\d_]+")
_NAME_WORD_RE = re.compile(r"[^\W_]+")
NAME_WORDS = (2, 6)     # a name is two to six words: longer titles are captions, not names


def name_words(text: str) -> list[str]:
    """A title's or query's words, lower-cased, for matching names ("Bayes' rule" -> bayes, rule)."""
    return _NAME_WORD_RE.findall(text.lower())


def _names_something(words: list[str]) -> bool:
    """A name holds two words of four letters or more that are no stop words: "Gram-Schmidt Process"
    and "Bezier curves" name something, "A Pie Chart" and "Part 2" are too plain to tell a query
    that names them from one that merely says them."""
    return sum(len(w) >= 4 and w not in STOPWORDS and not w.isdigit() for w in words) >= 2


def named_in(query: str, names: dict[str, int]) -> list[int]:
    """Rowids of the entities whose whole name the query holds, word for word, in the query's order
    (each span of two to six words is looked up once: linear in the query's length)."""
    words = name_words(query)
    found: list[int] = []
    for start in range(len(words)):
        for size in range(NAME_WORDS[1], NAME_WORDS[0] - 1, -1):
            if start + size <= len(words):
                rowid = names.get(" ".join(words[start:start + size]))
                if rowid is not None and rowid not in found:
                    found.append(rowid)
    return found


class Ranker:
    """Search over one knowledge file: typos corrected, explicit references pinned first, dense and
    BM25 candidates fused into one score, search tags, short hits continued, one-hop expansion.

    Owned by a KnowledgeBase, whose search it answers; it reads through a BookReader and embeds with
    the Embedder, and calls nothing else back.
    """

    def __init__(self, reader: BookReader, embedder: Embedder):
        self.reader = reader
        self.embedder = embedder

    def search(self, query: str, k: int, filters: dict, traverse_kinds: Sequence[str] = (),
               mode: str = "hybrid", tags: Sequence[str] = ()) -> SearchResult:
        """The ranked hits for a query (KnowledgeBase.search says what the arguments do)."""
        reader = self.reader
        original = query
        query, changes = self.correct(query) if mode == "hybrid" else (query, [])
        check_deadline()  # between stages: SQLite's progress handler covers the statements themselves
        t0 = time.perf_counter()
        vector = self.embedder.embed_query(query)
        t1 = time.perf_counter()
        dense = reader.dense(vector, max(CANDIDATES, k), filters) if mode != "bm25" else []
        t2 = time.perf_counter()
        lexical = reader.lexical(query, max(CANDIDATES, k), filters) if mode != "dense" else []
        t3 = time.perf_counter()
        check_deadline()

        cos = dict(dense)
        weight = dense_weight(query_profile(reader, self.embedder, query)) if mode == "hybrid" else None
        fused = fuse(dense, lexical, weight=weight)
        cos.update(reader.cosine_to(vector, [r for r in fused if r not in cos]))
        pinned = self.pinned(query, filters) if mode == "hybrid" else []
        cos.update(reader.cosine_to(vector, [r for r in pinned if r not in cos]))

        ordered = pinned + [r for r, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0])) if r not in pinned]
        scores = {r: 1.0 if r in pinned else fused.get(r, 0.0) for r in ordered}
        chunks: dict = {}
        if tags:
            ordered, chunks = self.boost_by_tags(ordered[:k + TAG_POOL], pinned, scores, tags)
        ordered = ordered[:k]
        hits = self.hits(ordered, chunks or reader.chunks_by_rowid(ordered), scores, cos, pinned)
        t4 = time.perf_counter()
        check_deadline()
        if traverse_kinds:
            hits.extend(self.expand(hits, traverse_kinds, vector))
        t5 = time.perf_counter()
        timings = {"embed": t1 - t0, "knn": t2 - t1, "fts": t3 - t2, "fuse": t4 - t3, "expand": t5 - t4}
        result = SearchResult(hits, original, timings_ms={k: round(v * 1000, 3) for k, v in timings.items()})
        if changes:
            result.corrected_query = query
            result.suggestion = "did you mean " + ", ".join(fixed for _, fixed in changes)
        return result

    def correct(self, query: str) -> tuple[str, list[tuple[str, str]]]:
        """The query with misspelled words replaced by the book's nearest words, and what changed.

        A word is corrected only when the book does not contain it and it is either written in
        capitals (an acronym such as "POMP") or not a whole word in the model's English vocabulary
        (so "polcy" is corrected, "fridge" is left alone).  Candidates come from spellfix1 over the
        book's vocabulary: at most one edit for words of up to five letters, two beyond.
        """
        if not self.reader.has_spellfix:
            return query, []
        changes, spans = [], []
        for match in _QUERY_WORD_RE.finditer(query):
            word = match.group(0)
            lower = word.lower()
            if len(lower) < 4 or self.reader.word_frequency(lower):
                continue
            if not word.isupper() and self.embedder.is_known_word(lower):
                continue
            limit = 100 if len(lower) <= 5 else 200
            row = self.reader.nearest_word(lower)
            if row and row[1] <= limit and row[0] != lower:
                fixed = row[0].upper() if word.isupper() else (row[0].capitalize() if word[0].isupper() else row[0])
                changes.append((word, fixed))
                spans.append((match.start(), match.end(), fixed))
        # Replace exactly the words that were judged (by position, so "glp_simplx" becomes "glp_simplex"):
        # the suggestion shown and the query searched are one correction.
        out = query
        for start, end, fixed in reversed(spans):
            out = out[:start] + fixed + out[end:]
        return out, changes

    def pinned(self, query: str, filters: dict) -> list[int]:
        """Rowids of what the query names outright: entities by number ("Algorithm 3.2"), entities by
        their printed name, then sections."""
        reader = self.reader
        pinned: list[int] = []
        for kind, number in explicit_references(query, reader.kinds, reader.reference_re):
            chunk = reader.entity(kind, number)
            if chunk and _passes(chunk, filters):
                pinned.append(chunk.rowid)
        # then an entity the query calls by its name ("the Fundamental Theorem of Arithmetic")
        named = named_in(query, reader.named_entities())
        chunks = reader.chunks_by_rowid(named) if named else {}
        for rowid in named:
            if rowid not in pinned and rowid in chunks and _passes(chunks[rowid], filters):
                pinned.append(rowid)
        for number in section_references(query):
            rowid = reader.first_chunk_of_section(number, filters)
            if rowid is not None and rowid not in pinned:
                pinned.append(rowid)
        return pinned

    def boost_by_tags(self, pool: list[int], pinned: list[int], scores: dict[int, float],
                      tags: Sequence[str]) -> tuple[list[int], dict]:
        """The pool re-ranked by search tags (TAG_BOOST per shared tag; pinned references stay first),
        with the pool's chunks, which the hits reuse."""
        chunks = self.reader.chunks_by_rowid(pool)
        tagged = self.reader.tags_of([chunks[r].id for r in pool])
        wanted = set(tags)
        for r in pool:
            scores[r] += TAG_BOOST * len(wanted & tagged[chunks[r].id])
        rest = sorted((r for r in pool if r not in pinned), key=lambda r: (-round(scores[r], 6), r))
        return [r for r in pool if r in pinned] + rest, chunks

    def hits(self, ordered: list[int], chunks: dict, scores: dict[int, float], cos: dict[int, float],
             pinned: list[int]) -> list[Hit]:
        """Hits in order with scores capped to be non-increasing; a short hit carries what follows it."""
        hits: list[Hit] = []
        ceiling = 1.0
        for rowid in ordered:
            score = min(ceiling, max(0.0, scores[rowid]))  # non-increasing down the list
            ceiling = score
            hits.append(Hit(chunks[rowid], round(score, 4), round(cos.get(rowid, 0.0), 4),
                            "reference" if rowid in pinned else "search"))
        for hit in hits:
            # A short hit (a heading's opening line, a parameter's head, a bare formula) comes with
            # what follows it, so the reader sees the unit it opens.
            if len(hit.chunk.content) < SHORT_HIT_CHARS:
                after = self.reader.next_in_section(hit.chunk.id)
                hit.continued = after.content if after else None
        return hits

    def expand(self, hits: list[Hit], kinds: Sequence[str], vector: bytes) -> list[Hit]:
        """One hop from each hit, both directions, to chunks of the requested kinds (deduplicated)."""
        seen = {h.chunk.id for h in hits}
        docs, _ = expand_graph(self.reader, [h.chunk.id for h in hits], LINK_RELATIONS)
        chunks = [d["chunk"] for d in docs if d["chunk"].kind in kinds and d["chunk"].id not in seen]
        cos = self.reader.cosine_to(vector, [c.rowid for c in chunks])
        # Linked items follow the ranked results: each scores its own cosine scaled by the last ranked
        # score, so the list stays non-increasing and the scores stay comparable with each other.
        base = hits[-1].score if hits else 1.0
        out = [Hit(c, 0.0, round(cos.get(c.rowid, 0.0), 4), "expansion") for c in chunks]
        out.sort(key=lambda h: (-h.cosine, h.chunk.id))
        for h in out:
            h.score = round(max(0.0, h.cosine) * base, 4)
        return out


def fuse(dense: list[tuple[int, float]], lexical: list[tuple[int, float]],
         method: str | None = None, weight: float | None = None) -> dict[int, float]:
    """One score in [0, 1] per candidate from the dense and BM25 lists.

    "convex" (shipped): weight * cosine / best cosine + (1 - weight) * bm25 / best bm25.
    "rrf": reciprocal rank fusion, sum of 1 / (60 + rank), scaled so a double first place is 1.
    """
    method = method or FUSION
    weight = DENSE_WEIGHT if weight is None else weight
    fused: dict[int, float] = {}
    if method == "rrf":
        for ranked in (dense, lexical):
            for position, (rowid, _) in enumerate(ranked, start=1):
                fused[rowid] = fused.get(rowid, 0.0) + (RRF_K + 1) / (2 * (RRF_K + position))
        return fused
    if dense:
        top = max(max(c for _, c in dense), 1e-9)
        for rowid, c in dense:
            fused[rowid] = weight * max(0.0, c) / top
    if lexical:
        best = max(s for _, s in lexical) or 1.0
        for rowid, s in lexical:
            fused[rowid] = fused.get(rowid, 0.0) + (1 - weight) * max(0.0, s) / best
    return fused


def _passes(chunk: Chunk, filters: dict) -> bool:
    for key in FILTER_COLUMNS:
        if key in filters and filters[key] is not None:
            wanted = filters[key]
            value = chunk.kind if key == "kind" else getattr(chunk, key)
            if (value not in wanted) if isinstance(wanted, (list, tuple)) else value != wanted:
                return False
    return True


INVERSE = {"REFERENCES": "REFERENCED_BY", "REFERENCED_BY": "REFERENCES"}
# The relations that link content to content (not reading order or the section tree).
LINK_RELATIONS = ("REFERENCES", "REFERENCED_BY", "USES_IN", "CITES")


def expand_graph(reader: BookReader, ids: Sequence[str], relations: Sequence[str]) -> tuple[list[dict], list[str]]:
    """Documents one hop from ids along relations, and the ids that matched nothing.

    Each document lists its relationships as seen from the requested document it was reached
    from: {"type": REL, "target_id": <requested id>, "direction": "outgoing" | "incoming"}.
    "outgoing" reads "<requested> REL <this document>", "incoming" reads "<this document> REL
    <requested>".  REFERENCES and REFERENCED_BY are stored both ways, so they are always outgoing
    and asking for one gives items labelled with it: REFERENCED_BY from formula_3_2 gives what
    mentions formula 3.2, each labelled REFERENCED_BY.  The other relations are followed both ways:
    USES_IN from an algorithm gives the formulas used in it (incoming: "formula USES_IN algorithm")
    and the algorithms that use its functions (outgoing).
    """
    unknown, seeds = [], []
    for raw in ids:
        cid = reader.resolve_id(raw)
        (seeds.append(cid) if cid else unknown.append(raw))
    seeds = list(dict.fromkeys(seeds))
    links: dict[str, list[dict]] = {}
    for seed in seeds:
        for src, dst, rel in reader.edges_of(seed, relations):
            if src == seed and dst == seed:
                continue
            if src == seed:
                entry, other = {"type": rel, "target_id": seed, "direction": "outgoing"}, dst
            elif rel in INVERSE:
                continue  # the stored inverse edge, outgoing from the seed, covers this pair
            else:
                entry, other = {"type": rel, "target_id": seed, "direction": "incoming"}, src
            if other in seeds:
                continue
            rels = links.setdefault(other, [])
            if entry not in rels:
                rels.append(entry)
    docs = reader.get_many(list(links) + seeds)
    result = []
    for cid, rels in links.items():
        if cid not in docs:
            continue
        for rel in rels:
            target = docs.get(rel["target_id"])
            rel["target_type"] = target.kind if target else "text"
        result.append({"chunk": docs[cid], "relationships": rels})
    result.sort(key=lambda d: (d["chunk"].kind == "section", d["chunk"].ord))
    return result, unknown




# --------------------------------------------------------------------------- time budget
"""Time budget: a deadline per request, checked by SQLite's progress handler and between stages."""

DEFAULT_REQUEST_BUDGET = 5.0  # seconds: a search takes milliseconds, an answer well under one
BUDGET_GRACE = 1.0            # seconds the caller waits past the deadline for the work to notice it
PROGRESS_STEPS = 2000         # SQLite virtual-machine steps between deadline checks (~0.1 ms each)

_deadline = threading.local()


class BudgetExceeded(Exception):
    """The request ran past its time budget; its work stopped.  Adapters answer 503 with a retry hint."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"the request ran past its time budget of {seconds:g} s and was stopped; "
                         "try again, or with a shorter or simpler query")


@contextmanager
def time_budget(seconds: float | None):
    """Within this block (on this thread), check_deadline raises and SQLite statements stop past the
    deadline; either way the block ends in BudgetExceeded."""
    import apsw

    outer = getattr(_deadline, "at", None)
    at = time.monotonic() + seconds if seconds is not None else None
    _deadline.at = at if outer is None or at is None else min(outer, at)
    try:
        yield
    except apsw.InterruptError:
        if past_deadline():  # the progress handler stopped a statement at the deadline
            raise BudgetExceeded(seconds if seconds is not None else request_budget()) from None
        raise
    finally:
        _deadline.at = outer


def past_deadline() -> bool:
    at = getattr(_deadline, "at", None)
    return at is not None and time.monotonic() > at


def check_deadline() -> None:
    """Raise BudgetExceeded when this thread's request is past its deadline (call between stages)."""
    if past_deadline():
        raise BudgetExceeded(request_budget())


def bounded(seconds: float, fn, *args, **kwargs):
    """fn(*args, **kwargs) within a time budget of its own (the worker pool's unit of work)."""
    with time_budget(seconds):
        return fn(*args, **kwargs)


# --------------------------------------------------------------------------- worker pool
"""Worker pool: searches run in a few threads off the event loop, one SQLite connection each."""

_kb_workers = None


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one: a container's
    cpuset, taskset), which the service's threads and the builder's processes are counted by."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def search_threads() -> int:
    """RAG_SEARCH_THREADS, by default the CPUs this process may run on."""
    usable = usable_cpus()
    raw = env("RAG_SEARCH_THREADS", str(usable)) or str(usable)
    if not raw.strip().isdigit() or int(raw) < 1:
        raise ConfigError(f"RAG_SEARCH_THREADS must be a whole number of threads, 1 or more; got {raw!r}")
    return int(raw)


class WorkerPool:
    """A fixed set of daemon threads taking work from one queue (an executor for run_in_executor).

    Unlike concurrent.futures' pool, whose threads the interpreter joins at exit, a stop signal
    never waits here for work that outlived its request: the process ends when the server has.
    """

    def __init__(self, threads: int):
        import queue

        self._work: "queue.SimpleQueue" = queue.SimpleQueue()
        for n in range(threads):
            threading.Thread(target=self._serve, name=f"bookrag-kb-{n}", daemon=True).start()

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future

        future: Future = Future()
        self._work.put((future, fn, args, kwargs))
        return future

    def _serve(self) -> None:
        while True:
            future, fn, args, kwargs = self._work.get()
            if not future.set_running_or_notify_cancel():
                continue  # its caller gave up before it started
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the caller, as concurrent.futures does
                future.set_exception(exc)


@lru_cache(maxsize=1)
def request_budget() -> float:
    """RAG_REQUEST_BUDGET: the seconds one search or answer may work, by default 5.  Read once: every
    request asks, and the setting is fixed for the process (checked at start-up, a bad value refused)."""
    raw = env("RAG_REQUEST_BUDGET", str(DEFAULT_REQUEST_BUDGET)) or str(DEFAULT_REQUEST_BUDGET)
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0.001 <= seconds <= 600:  # NaN fails too
        raise ConfigError(f"RAG_REQUEST_BUDGET must be a number of seconds from 0.001 to 600; got {raw!r}")
    return seconds


async def off_loop(fn, *args, **kwargs):
    """Run knowledge-base work (embedding, SQLite) in the process's small worker pool, off the event loop.

    onnxruntime and SQLite release the GIL, so searches use every core while the loop goes on
    reading and answering requests.  Every route and MCP tool that searches shares this one pool
    (one thread per core), which also bounds the SQLite connections: one per thread.

    The work runs inside the request budget (time_budget): SQLite's progress handler interrupts a
    statement past the deadline and the ranking stages check it between them, so the worker is
    freed and the caller gets BudgetExceeded.  Should work ever ignore the deadline, the caller
    still stops waiting a moment after it (the thread finishes on its own).
    """
    import asyncio
    import functools

    global _kb_workers
    if _kb_workers is None:
        _kb_workers = WorkerPool(search_threads())
    budget = request_budget()
    work = functools.partial(bounded, budget, fn, *args, **kwargs)
    future = asyncio.get_running_loop().run_in_executor(_kb_workers, work)
    try:
        return await asyncio.wait_for(future, budget + BUDGET_GRACE)
    except asyncio.TimeoutError:
        raise BudgetExceeded(budget) from None


# --------------------------------------------------------------------------- request rules
"""Request rules every adapter shares: blanks, counts, body limits, decode errors, OpenAPI errors."""

CLIENT_DECODE_ERRORS = (RecursionError, UnicodeDecodeError)


def decode_error_message(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "request body is not valid UTF-8"
    return "request body is nested too deeply"


ERROR_DESCRIPTIONS = {400: "Invalid request: the message names the field", 401: "Missing or wrong API key",
                      404: "Not found", 413: "Request body larger than 1 MB",
                      422: "Query empty or longer than allowed", 429: "Rate limit exceeded",
                      500: "Internal error",
                      503: "The request ran past its time budget (RAG_REQUEST_BUDGET) or the knowledge base "
                           "is unavailable; retry after Retry-After seconds"}
MAX_BODY_BYTES = 1_000_000  # every route, MCP included: larger bodies get a 413
RETRY_AFTER_SECONDS = 1     # a request stopped at its time budget: the Retry-After hint every adapter sends

def error_responses(*statuses: int, body: Any, cached: bool = False) -> dict[int, Any]:
    """A route's OpenAPI responses besides its 200: each error status with the body it really sends."""
    from litestar.openapi.datastructures import ResponseSpec

    responses = {status: ResponseSpec(body, description=ERROR_DESCRIPTIONS[status], generate_examples=False)
                 for status in statuses}
    if cached:
        responses[304] = ResponseSpec(None, description="Not modified: the client's ETag is still current")
    return responses


class JsonSchema:
    """The OpenAPI description of a request field (JSON Schema words), for fields our own code validates.

    Request fields are typed loosely on purpose ("k": "5" must be an error with spec 01's message,
    not a coerced 5), so the framework cannot derive their schema; this says what we accept.
    """

    def __init__(self, **schema: Any):
        self.schema = schema


# What a search query must look like: at least 3 characters once surrounding blanks are removed.
# What counts as blank around a query: ASCII whitespace only, so that the rule reads the same in
# JSON Schema's regex dialect and in Python (they disagree about some Unicode spaces).
BLANKS = " \t\n\r\f\v"
NONBLANK = r"[^ \t\n\r\f\v]"
QUERY_PATTERN = rf"^[{BLANKS}]*{NONBLANK}[\s\S]+{NONBLANK}[{BLANKS}]*$"


def whole_number(value: Any) -> int | None:
    """A count as JSON sends it: 5, or 5.0 (JSON has one number type); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def label_text(value: Any) -> str | None:
    """A chapter or lesson label as sent: non-blank text, or a whole number ("3", 3, 3.0); else None."""
    if isinstance(value, str):
        return value.strip(BLANKS) or None
    number = whole_number(value)
    return None if number is None else str(number)


# --------------------------------------------------------------------------- spec 01 errors
"""Spec 01's error body and its handlers: every adapter that answers in spec 01's format uses these."""

class ApiError(Exception):
    """A client error with the HTTP status, message and machine-readable code to report."""

    def __init__(self, status: int, detail: str, code: str = "INVALID_PARAMETER"):
        super().__init__(detail)
        self.status, self.detail, self.code = status, detail, code


class ErrorBody(msgspec.Struct):
    """Spec 01's error body."""

    detail: str
    status_code: int
    error_code: str
    timestamp: str


ERROR_CODES = {400: "INVALID_PARAMETER", 401: "UNAUTHORIZED", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
               413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMIT_EXCEEDED",
               500: "INTERNAL_ERROR", 503: "TIME_BUDGET_EXCEEDED"}


def validation_detail(exc: Any) -> str:
    """Turn a framework validation error into one sentence naming the field."""
    extra = getattr(exc, "extra", None) or []
    if isinstance(extra, list) and extra and isinstance(extra[0], dict):
        item = extra[0]
        key = str(item.get("key") or "").removeprefix("$.") or "body"
        message = str(item.get("message") or "invalid value")
        if "unknown field" in message:
            name = message.split("`")[1] if "`" in message else key
            return f"unknown field {name!r} in request body"
        if "missing required field" in message:
            name = message.split("`")[1] if "`" in message else key
            return f"{name} is required"
        if key == "k":
            return "k must be an integer between 1 and 20"
        return f"{key}: {message}"
    text = str(getattr(exc, "detail", "") or exc)
    return text if text else "invalid request body"


def error_response(status: int, detail: str, code: str | None = None, headers: dict | None = None):
    """spec 01's error body {detail, status_code, error_code, timestamp} as a response."""
    from litestar import MediaType, Response

    body = ErrorBody(detail=detail, status_code=status, error_code=code or ERROR_CODES.get(status, "ERROR"),
                     timestamp=now_iso())
    return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)


def spec01_error_handlers() -> dict:
    """spec 01's error format for its routes, and app-wide for every route that has none of its own
    (an unknown path's 404, a wrong method's 405)."""
    from litestar.exceptions import HTTPException, ValidationException

    def on_api_error(_, exc: ApiError):
        return error_response(exc.status, exc.detail, exc.code)

    def on_validation(_, exc: ValidationException):
        return error_response(400, validation_detail(exc))

    def on_http(_, exc: HTTPException):
        detail = exc.detail if exc.status_code != 500 else "internal error"
        return error_response(exc.status_code, str(detail), headers=exc.headers)  # e.g. Allow on a 405

    def on_budget(_, exc: BudgetExceeded):
        return error_response(503, str(exc), headers={"Retry-After": str(RETRY_AFTER_SECONDS)})

    def on_crash(_, exc: Exception):
        if isinstance(exc, CLIENT_DECODE_ERRORS):  # the JSON decoder on hostile input: the client's fault
            return error_response(400, decode_error_message(exc))
        return error_response(500, "internal error: the request could not be completed", "INTERNAL_ERROR")

    return {ApiError: on_api_error, ValidationException: on_validation, HTTPException: on_http,
            BudgetExceeded: on_budget, Exception: on_crash}
