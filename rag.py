"""bookrag service: answer agents' questions about one textbook from one SQLite file.

Sections, top-down: configuration, model (the one embedder), ids (the one id rule),
knowledge base (the read side every route shares), ranking, the spec 01 REST adapter,
the MCP adapter (spec 02), the app, the CLI.  The builder lives in build_db.py and
imports from here; this module never imports the builder or any PDF library.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Iterable, Optional, Sequence

if __name__ == "__main__":  # run as a script: rag_answers' `import rag` must get this module, not a second copy
    sys.modules.setdefault("rag", sys.modules[__name__])

# --------------------------------------------------------------------------- configuration
"""Configuration: paths, schema version, vocabularies shared by the builder and the service."""

HERE = Path(__file__).resolve().parent
DEFAULT_DB = HERE / "knowledge.sqlite"
DEFAULT_MODEL_DIR = HERE / "models"
DEFAULT_PORT = 8001
SERVICE_NAME = "rag-service"

# Bump when the knowledge file's tables change shape; the service refuses other versions.
SCHEMA_VERSION = "1"

# Kinds of chunk.  Numbered entities are chunks too, unique by (kind, number).
ENTITY_KINDS = ("formula", "algorithm", "table", "figure", "example", "exercise")
CHUNK_KINDS = ("text",) + ENTITY_KINDS

# Caption words as printed in books, mapped to our kinds.
CAPTION_WORDS = {
    "algorithm": "algorithm", "equation": "formula", "formula": "formula", "eq": "formula",
    "table": "table", "figure": "figure", "fig": "figure", "example": "example",
    "exercise": "exercise",
}

# Graph relations (spec 01 names); DESIGN.md gives each its one meaning.
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


class ConfigError(Exception):
    """A problem with the knowledge file or model that stops the service from starting."""


def load_spellfix(db) -> bool:
    """Load SQLite's spellfix1 extension (shipped in apsw's wheels); False when unavailable."""
    try:
        import apsw.sqlite_extra

        apsw.sqlite_extra.load(db, "spellfix")
        return True
    except Exception:
        return False


# --------------------------------------------------------------------------- model
"""Model: the one embedder (ONNX MiniLM, pooling and normalisation inside the graph)."""


class Embedder:
    """Turns texts into unit-length float32 vectors with the ONNX model in models/."""

    def __init__(self, model_dir: Path | str = DEFAULT_MODEL_DIR, threads: int = 1):
        import numpy as np
        import onnxruntime as ort
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
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(
                str(onnx_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise ConfigError(f"model.onnx cannot be loaded: {str(exc).splitlines()[0]}") from None
        self._input_names = [i.name for i in self.session.get_inputs()]
        self._np = np

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

_NUMBER_RE = re.compile(r"^(?:[A-Z]|\d+)(?:\.\d+)*[a-z]?$")
_KIND_ALIASES = {
    "formula": "formula", "formulas": "formula", "equation": "formula", "equations": "formula",
    "eq": "formula", "eqs": "formula", "eqn": "formula", "eqns": "formula", "numbered_formula": "formula",
    "algorithm": "algorithm", "algorithms": "algorithm", "algo": "algorithm", "algos": "algorithm",
    "alg": "algorithm",
    "table": "table", "tables": "table", "tab": "table", "numbered_table": "table",
    "figure": "figure", "figures": "figure", "fig": "figure", "figs": "figure", "image": "figure",
    "captioned_image": "figure",
    "example": "example", "examples": "example", "ex": "example",
    "exercise": "exercise", "exercises": "exercise", "exr": "exercise",
}


def normalize_kind(word: str) -> str | None:
    """Map a type word an agent wrote ('Algorithm', 'eq', 'image') to our kind, or None."""
    return _KIND_ALIASES.get(word.strip().lower().rstrip("."))


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
    if len(head) == 1 and head.isalpha():
        head = head.upper()
    number = head + ("." + rest if rest else "")
    return number if _NUMBER_RE.match(number) else None


def entity_id(kind: str, number: str) -> str:
    """The readable id of a numbered entity: ('formula', '3.2') -> 'formula_3_2'."""
    return f"{kind}_{number.replace('.', '_')}"


def beliefcraft_uuid(kind: str, number: str) -> str:
    """The id BeliefCraft's ingestion gave an entity: uuid5(DNS, '<number>:<chunk_type>')."""
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, f"{number}:{CHUNK_TYPE_OF_KIND[kind]}"))


_ID_SHAPE = re.compile(r"^[A-Za-z0-9_.:\- ()]{1,128}$")


def id_is_wellformed(text: str) -> bool:
    """True when text could be an id at all (letters, digits and _ . : - space parentheses)."""
    return bool(_ID_SHAPE.match(text))


def parse_entity_alias(text: str) -> tuple[str, str] | None:
    """'algo_4_1', 'Algorithm 4.1', 'algorithm:4.1', 'eq (3.4)' -> (kind, number), else None."""
    match = re.match(r"^\s*([A-Za-z]+)(?:[\s_:.]+|(?=\d))\(?((?:[A-Za-z]|\d+)(?:[._]\d+)*[a-z]?)\)?\s*$", text)
    if not match:
        return None
    kind = normalize_kind(match.group(1).strip("_"))
    number = normalize_number(match.group(2))
    return (kind, number) if kind and number else None


# --------------------------------------------------------------------------- knowledge base
"""Knowledge base: the one read-only view of knowledge.sqlite under every route."""


@dataclass
class Chunk:
    """One retrievable unit of the book: text, or a numbered entity."""

    rowid: int
    id: str
    kind: str
    number: str | None
    title: str | None
    content: str
    part: str | None
    part_title: str | None
    chapter: str | None
    chapter_title: str | None
    section: str | None
    section_title: str | None
    subsection: str | None
    subsection_title: str | None
    subsubsection: str | None
    subsubsection_title: str | None
    page: int | None
    pdf_page: int | None
    ord: int
    source: str | None = None
    extra: dict = field(default_factory=dict)


CHUNK_COLUMNS = (
    "rowid, id, kind, number, title, content, part, part_title, chapter, chapter_title, "
    "section, section_title, subsection, subsection_title, subsubsection, subsubsection_title, "
    "page, pdf_page, ord, source, extra"
)


SECTION_COLUMNS = "id, level, number, title, page_start, pdf_page_start, content, ord"


def _row_to_chunk(row: Sequence[Any]) -> Chunk:
    *head, extra = row
    return Chunk(*head, extra=json.loads(extra) if extra else {})


@dataclass
class Hit:
    """A ranked search result: the chunk, its fused score and its raw cosine similarity."""

    chunk: Chunk
    score: float
    cosine: float
    via: str = "search"  # "reference" (pinned), "search", or "expansion"


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


class KnowledgeBase:
    """Opens knowledge.sqlite read-only, checks it against the model, answers every query."""

    def __init__(self, db_path: Path | str = DEFAULT_DB, model_dir: Path | str = DEFAULT_MODEL_DIR,
                 embedder: Embedder | None = None, threads: int = 1):
        import apsw
        import sqlite_vec

        self.path = Path(db_path)
        if not self.path.is_file():
            raise ConfigError(f"knowledge file not found: {self.path}")
        uri = f"file:{self.path.resolve()}?mode=ro&immutable=1"
        try:
            self.db = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
            self.db.enable_load_extension(True)
            self.db.load_extension(sqlite_vec.loadable_path())
            self.db.enable_load_extension(False)
            self.meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        except apsw.Error as exc:
            raise ConfigError(f"{self.path} is not a readable knowledge file ({exc})") from None
        version = self.meta.get("schema_version")
        if version != SCHEMA_VERSION:
            raise ConfigError(
                f"{self.path} has schema version {version!r}, this service reads {SCHEMA_VERSION!r}:"
                " rebuild it with build_db.py"
            )
        self.embedder = embedder or Embedder(model_dir, threads=threads)
        if self.meta.get("model_sha256") != self.embedder.sha256 or int(self.meta.get("dim", 0)) != self.embedder.dim:
            raise ConfigError(
                f"{self.path} was embedded with model {self.meta.get('model_name')} "
                f"(sha256 {str(self.meta.get('model_sha256'))[:12]}…, dim {self.meta.get('dim')}), "
                f"but models/ holds {self.embedder.name} (sha256 {self.embedder.sha256[:12]}…, "
                f"dim {self.embedder.dim}): rebuild the knowledge file or restore the model"
            )
        self.has_spellfix = load_spellfix(self.db) and bool(self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'vocab_fix'").fetchone())
        self.title = self.meta.get("title", "")
        self.build_hash = self.meta.get("build_hash", "")
        self._uuid_alias = {}
        for kind, number, cid in self.db.execute(
            "SELECT kind, number, id FROM chunks WHERE kind != 'text' AND number IS NOT NULL"
        ):
            self._uuid_alias[beliefcraft_uuid(kind, number)] = cid

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
        return _row_to_chunk(row) if row else None

    def get_many(self, ids: Iterable[str]) -> dict[str, Chunk]:
        """Chunks by canonical id; section nodes (part_I, chapter_5, section_5_2) come as kind 'section'."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id IN ({marks})", ids)
        found = {c.id: c for c in map(_row_to_chunk, rows)}
        rest = [i for i in ids if i not in found]
        if rest:
            marks = ",".join("?" * len(rest))
            for row in self.db.execute(f"SELECT {SECTION_COLUMNS} FROM sections WHERE id IN ({marks})", rest):
                section = self._section_chunk(row)
                found[section.id] = section
        return found

    def _section_chunk(self, row: Sequence[Any]) -> Chunk:
        """A section node as a document: its heading and opening text, placed in the hierarchy."""
        sid, level, number, title, page, pdf_page, content, order = row
        names = ["part", "chapter", "section", "subsection", "subsubsection"]
        place: dict[str, Any] = {n: None for n in names} | {f"{n}_title": None for n in names}
        place[names[level]], place[f"{names[level]}_title"] = number, title
        if level >= 2:
            place["chapter"] = number.split(".")[0]
        return Chunk(rowid=-1, id=sid, kind="section", number=number, title=title, content=content,
                     page=page, pdf_page=pdf_page, ord=order, **place)

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
        alias = parse_entity_alias(text)
        if alias:
            row = self.db.execute(
                "SELECT id FROM chunks WHERE kind = ? AND number = ?", alias
            ).fetchone()
            return row[0] if row else None
        return None

    def entity(self, kind: str, number: str) -> Chunk | None:
        """A numbered entity by kind and (normalised) number, or None."""
        number = normalize_number(number) or number
        row = self.db.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE kind = ? AND number = ?", (kind, number)
        ).fetchone()
        return _row_to_chunk(row) if row else None

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

    def code_index(self) -> dict[str, tuple[str, str]]:
        """{function or class name: (algorithm id, its source)} over every algorithm (built once)."""
        if getattr(self, "_code_index", None) is None:
            index: dict[str, tuple[str, str]] = {}
            for cid, content in self.db.execute("SELECT id, content FROM chunks WHERE kind = 'algorithm' ORDER BY ord"):
                for name, source in top_level_definitions(content).items():
                    index.setdefault(name, (cid, source))
            self._code_index = index
        return self._code_index

    def toc(self) -> list[dict]:
        """The book's parts and chapters with printed start pages, in reading order."""
        rows = self.db.execute(
            "SELECT level, number, title, page_start FROM sections WHERE level <= 1 ORDER BY ord"
        )
        return [{"level": lvl, "number": num, "title": title, "page": page} for lvl, num, title, page in rows]

    # ---- search
    def search(self, query: str, k: int = 5, filters: dict | None = None,
               traverse_kinds: Sequence[str] = (), mode: str = "hybrid") -> SearchResult:
        """Ranked chunks for a query: pinned references, then hybrid dense+BM25, then expansion.

        mode "dense" or "bm25" ranks by one signal alone (for evaluation side by side).
        """
        return rank(self, query, k, filters or {}, traverse_kinds, mode)

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
            "SELECT f.rowid, -bm25(chunks_fts, 2.0, 1.0) AS s FROM chunks_fts f "
            f"JOIN chunks c ON c.rowid = f.rowid WHERE chunks_fts MATCH ?{where} "
            "ORDER BY s DESC LIMIT ?",
            (match, *args, n),
        ).fetchall()
        return rows

    def first_chunk_of_section(self, number: str, filters: dict) -> int | None:
        """Rowid of the first text chunk under a numbered section (at any depth), within filters."""
        level = {1: "section", 2: "subsection"}.get(number.count("."), "subsubsection")
        where, args = _filter_sql(filters, table="")
        row = self.db.execute(f"SELECT rowid FROM chunks WHERE {level} = ? AND kind = 'text'{where} "
                              "ORDER BY ord LIMIT 1", (number, *args)).fetchone()
        return row[0] if row else None

    def chunks_by_rowid(self, rowids: Sequence[int]) -> dict[int, Chunk]:
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE rowid IN ({marks})", list(rowids))
        return {c.rowid: c for c in map(_row_to_chunk, rows)}

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


def fts_query(text: str) -> str:
    """User text as an FTS5 query of quoted words OR'ed together: no input is ever syntax.

    Single letters are dropped, except in pair notation such as "(s,S)" or "(Q, R)", which
    becomes the phrase "s s" so that it matches the book's "(s, S)" and "(s,S)".
    """
    terms = ['"' + f"{a} {b}".lower() + '"' for a, b in _PAIR_NOTATION_RE.findall(text)]
    words = [w.lower() for w in _WORD_RE.findall(text)][:64]
    words = [w for w in dict.fromkeys(words) if len(w) > 1 or w.isdigit()]
    terms += ['"' + w.replace('"', "") + '"' for w in words]
    return " OR ".join(dict.fromkeys(terms))


# --------------------------------------------------------------------------- ranking
"""Ranking: pinned references, dense + BM25 fused into one score, one-hop expansion."""

# Fusion of the dense and BM25 lists (see fuse); chosen on the sample book's questions by
# tests/eval/tune_fusion.py, which prints every candidate side by side.
FUSION = "convex"
DENSE_WEIGHT = 0.8
RRF_K = 60
CANDIDATES = 50

_REF_RE = re.compile(
    r"\b(algorithms?|algo|alg|equations?|eqs?|eqn|formulas?|figures?|figs?|tables?|examples?|exercises?)"
    r"\.?\s*\(?((?:[A-Z](?![A-Za-z])|\d+)(?:\.\d+[a-z]?)?)\)?(?!\w|\.\d)",
    re.IGNORECASE,
)


_SECTION_REF_RE = re.compile(r"(?:\b[Ss]ection|\bsec\.|§)\s*((?:[A-Z]|\d+)(?:\.\d+){1,3})\b")


def section_references(query: str) -> list[str]:
    """Section numbers the query names outright: 'Section 4.2.1', '§ 4.2', 'sec. 3.1'."""
    return list(dict.fromkeys(normalize_number(n) for n in _SECTION_REF_RE.findall(query) if normalize_number(n)))


def explicit_references(query: str) -> list[tuple[str, str]]:
    """(kind, number) pairs the query names outright: 'Algorithm 3.2', 'eq. (3.4)', 'fig 2.1'."""
    found = []
    for word, number in _REF_RE.findall(query):
        kind = normalize_kind(word)
        num = normalize_number(number)
        if kind and num and (kind, num) not in found:
            found.append((kind, num))
    return found


_QUERY_WORD_RE = re.compile(r"[^\W\d_]+")


def correct_query(kb: KnowledgeBase, query: str) -> tuple[str, list[tuple[str, str]]]:
    """The query with misspelled words replaced by the book's nearest words, and what changed.

    A word is corrected only when the book does not contain it and it is either written in
    capitals (an acronym such as "POMP") or not a whole word in the model's English vocabulary
    (so "polcy" is corrected, "fridge" is left alone).  Candidates come from spellfix1 over the
    book's vocabulary: at most one edit for words of up to five letters, two beyond.
    """
    if not kb.has_spellfix:
        return query, []
    changes = []
    out = query
    for match in _QUERY_WORD_RE.finditer(query):
        word = match.group(0)
        lower = word.lower()
        if len(lower) < 4 or kb.db.execute("SELECT 1 FROM vocab WHERE term = ?", (lower,)).fetchone():
            continue
        if not word.isupper() and kb.embedder.is_known_word(lower):
            continue
        limit = 100 if len(lower) <= 5 else 200
        row = kb.db.execute("SELECT word, distance FROM vocab_fix WHERE word MATCH ? AND top = 3 "
                            "ORDER BY score LIMIT 1", (lower,)).fetchone()
        if row and row[1] <= limit and row[0] != lower:
            fixed = row[0].upper() if word.isupper() else (row[0].capitalize() if word[0].isupper() else row[0])
            changes.append((word, fixed))
    for word, fixed in changes:
        out = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", fixed, out)
    return out, changes


def rank(kb: KnowledgeBase, query: str, k: int, filters: dict,
         traverse_kinds: Sequence[str], mode: str = "hybrid") -> SearchResult:
    original = query
    query, changes = correct_query(kb, query) if mode == "hybrid" else (query, [])
    t0 = time.perf_counter()
    vector = kb.embedder.embed_query(query)
    t1 = time.perf_counter()
    dense = kb.dense(vector, max(CANDIDATES, k), filters) if mode != "bm25" else []
    t2 = time.perf_counter()
    lexical = kb.lexical(query, max(CANDIDATES, k), filters) if mode != "dense" else []
    t3 = time.perf_counter()

    cos = dict(dense)
    fused = fuse(dense, lexical)
    missing = [r for r in fused if r not in cos]
    cos.update(kb.cosine_to(vector, missing))

    pinned: list[int] = []
    for kind, number in (explicit_references(query) if mode == "hybrid" else []):
        chunk = kb.entity(kind, number)
        if chunk and _passes(chunk, filters):
            pinned.append(chunk.rowid)
    for number in (section_references(query) if mode == "hybrid" else []):
        rowid = kb.first_chunk_of_section(number, filters)
        if rowid is not None and rowid not in pinned:
            pinned.append(rowid)
    cos.update(kb.cosine_to(vector, [r for r in pinned if r not in cos]))

    ordered = pinned + [r for r, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0])) if r not in pinned]
    ordered = ordered[:k]
    chunks = kb.chunks_by_rowid(ordered)
    hits: list[Hit] = []
    ceiling = 1.0
    for rowid in ordered:
        score = 1.0 if rowid in pinned else fused.get(rowid, 0.0)
        score = min(ceiling, max(0.0, score))  # non-increasing down the list
        ceiling = score
        hits.append(Hit(chunks[rowid], round(score, 4), round(cos.get(rowid, 0.0), 4),
                        "reference" if rowid in pinned else "search"))
    t4 = time.perf_counter()
    if traverse_kinds:
        hits.extend(expand_hits(kb, hits, traverse_kinds, vector))
    t5 = time.perf_counter()
    timings = {"embed": t1 - t0, "knn": t2 - t1, "fts": t3 - t2, "fuse": t4 - t3, "expand": t5 - t4}
    result = SearchResult(hits, original, timings_ms={k: round(v * 1000, 3) for k, v in timings.items()})
    if changes:
        result.corrected_query = query
        result.suggestion = "did you mean " + ", ".join(fixed for _, fixed in changes)
    return result


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


def expand_hits(kb: KnowledgeBase, hits: list[Hit], kinds: Sequence[str], vector: bytes) -> list[Hit]:
    """One hop from each hit, both directions, to chunks of the requested kinds (deduplicated)."""
    seen = {h.chunk.id for h in hits}
    docs, _ = expand_graph(kb, [h.chunk.id for h in hits], LINK_RELATIONS)
    chunks = [d["chunk"] for d in docs if d["chunk"].kind in kinds and d["chunk"].id not in seen]
    cos = kb.cosine_to(vector, [c.rowid for c in chunks])
    # Linked items follow the ranked results: each scores its own cosine scaled by the last ranked
    # score, so the list stays non-increasing and the scores stay comparable with each other.
    base = hits[-1].score if hits else 1.0
    out = [Hit(c, 0.0, round(cos.get(c.rowid, 0.0), 4), "expansion") for c in chunks]
    out.sort(key=lambda h: (-h.cosine, h.chunk.id))
    for h in out:
        h.score = round(max(0.0, h.cosine) * base, 4)
    return out


INVERSE = {"REFERENCES": "REFERENCED_BY", "REFERENCED_BY": "REFERENCES"}
# The relations that link content to content (not reading order or the section tree).
LINK_RELATIONS = ("REFERENCES", "REFERENCED_BY", "USES_IN", "CITES")


def expand_graph(kb: KnowledgeBase, ids: Sequence[str], relations: Sequence[str]) -> tuple[list[dict], list[str]]:
    """Documents one hop from ids along relations, and the ids that matched nothing.

    REFERENCES and REFERENCED_BY are stored both ways, so they are followed outwards only
    (REFERENCED_BY from X gives what cites X).  The other relations are followed in both
    directions (USES_IN from an algorithm gives the formulas and functions it uses, and the
    algorithms that use it).  Each document lists its relationships from its own point of
    view: {"type": "USES_IN", "target_id": "algorithm_3_2"} reads "this USES_IN algorithm 3.2";
    "direction": "incoming" marks an edge that points from the target to this document.
    """
    unknown, seeds = [], []
    for raw in ids:
        cid = kb.resolve_id(raw)
        (seeds.append(cid) if cid else unknown.append(raw))
    seeds = list(dict.fromkeys(seeds))
    links: dict[str, list[dict]] = {}
    for seed in seeds:
        for src, dst, rel in kb.edges_of(seed, relations):
            if src == seed and dst == seed:
                continue
            if src == seed:
                if rel in INVERSE:
                    entry = {"type": INVERSE[rel], "target_id": seed}
                else:
                    entry = {"type": rel, "target_id": seed, "direction": "incoming"}
                other = dst
            else:
                if rel in INVERSE:
                    continue  # the stored inverse edge already covers this pair
                entry = {"type": rel, "target_id": seed}
                other = src
            if other in seeds:
                continue
            rels = links.setdefault(other, [])
            if entry not in rels:
                rels.append(entry)
    docs = kb.get_many(list(links) + seeds)
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


# --------------------------------------------------------------------------- spec 01 REST
"""REST adapter (spec 01): /search/semantic, /search/expand-graph, /entity/{type}/{number}."""

import msgspec  # noqa: E402  (after the core on purpose: the core needs no web stack)

SPEC01_TRAVERSE_TYPES = ("formula", "algorithm", "table", "figure", "section", "example",
                         "exercise", "appendix")
SPEC01_FILTER_KEYS = ("chapter", "section", "page_number")
SPEC01_ENTITY_TYPES = ("formula", "algorithm", "table", "figure")


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
LABEL = {"type": ["string", "integer"], "pattern": NONBLANK}  # a chapter or section: "3", "3.1" or 3
FILTER_VALUE = {"type": ["string", "integer", "null"], "pattern": NONBLANK}


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


class ApiError(Exception):
    """A client error with the HTTP status, message and machine-readable code to report."""

    def __init__(self, status: int, detail: str, code: str = "INVALID_PARAMETER"):
        super().__init__(detail)
        self.status, self.detail, self.code = status, detail, code


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class SemanticSearchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /search/semantic."""

    query: Annotated[str, JsonSchema(type="string", minLength=3, maxLength=2000, pattern=QUERY_PATTERN)]
    # an integer 1-20; checked here, not coerced ("5" is an error, as spec 01 says)
    k: Annotated[Any, JsonSchema(type="integer", minimum=1, maximum=20, default=5)] = 5
    traverse_types: Annotated[Optional[list[str]], JsonSchema(
        type=["array", "null"], items={"type": "string", "enum": list(SPEC01_TRAVERSE_TYPES)})] = None
    filters: Annotated[Optional[dict[str, Any]], JsonSchema(
        type=["object", "null"], additionalProperties=False,
        properties={"chapter": FILTER_VALUE, "section": FILTER_VALUE,
                    "page_number": {"type": ["integer", "null"]}})] = None


class SearchFiltersOut(msgspec.Struct):
    chapter: str | None = None
    section: str | None = None
    page_number: int | None = None


class SemanticResult(msgspec.Struct):
    """One search result of spec 01."""

    id: str
    type: str
    content: str
    number: str | None
    title: str | None
    chapter: str | None
    section: str | None
    page_number: int | None
    pdf_page: int | None
    score: float


class SemanticSearchResponse(msgspec.Struct, omit_defaults=True):
    results: list[SemanticResult]
    total_count: int
    suggestion: str | None = None
    corrected_query: str | None = None


class ExpandGraphRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /search/expand-graph."""

    document_ids: Annotated[list[str], JsonSchema(
        type="array", minItems=1, maxItems=100,
        items={"type": "string", "pattern": r"^[A-Za-z0-9_.:\- ()]{1,128}$"})]
    traverse_types: Annotated[Optional[list[str]], JsonSchema(
        type=["array", "null"], items={"type": "string", "enum": list(RELATIONS)})] = None


class Relationship(msgspec.Struct, omit_defaults=True):
    type: str
    target_id: str
    target_type: str
    direction: str | None = None


class ExpandedDocument(msgspec.Struct):
    id: str
    type: str
    content: str
    number: str | None
    title: str | None
    chapter: str | None
    section: str | None
    page_number: int | None
    relationships: list[Relationship]


class ExpandGraphResponse(msgspec.Struct, omit_defaults=True):
    expanded_documents: list[ExpandedDocument]
    relationship_count: int
    warnings: list[str] | None = None


class EntityResponse(msgspec.Struct):
    id: str
    type: str
    number: str | None
    title: str | None
    content: str
    chapter: str | None
    section: str | None
    page_number: int | None
    pdf_page: int | None
    references: list[str]
    cited_by: list[str]


class ErrorBody(msgspec.Struct):
    """Spec 01's error body."""

    detail: str
    status_code: int
    error_code: str
    timestamp: str


class HealthResponse(msgspec.Struct):
    status: str
    service: str
    timestamp: str
    book: str
    counts: dict[str, int]


def validate_semantic(req: SemanticSearchRequest) -> tuple[str, int, dict, list[str]]:
    """Spec 01's validation rules, in its words; returns (query, k, kb filters, kinds)."""
    query = req.query.strip(BLANKS)
    if len(query) < 3:
        raise ApiError(400, "query must be at least 3 characters")
    if len(req.query) > 2000:  # as sent: padding does not buy a longer query
        raise ApiError(400, "query must be at most 2000 characters")
    k = whole_number(req.k)
    if k is None:
        raise ApiError(400, "k must be an integer between 1 and 20")
    if not 1 <= k <= 20:
        raise ApiError(400, "k must be between 1 and 20")
    kinds = []
    for value in req.traverse_types or []:
        if value not in SPEC01_TRAVERSE_TYPES:
            raise ApiError(400, f"traverse_types contains invalid value: {value!r}. "
                                f"Valid values: [{', '.join(SPEC01_TRAVERSE_TYPES)}]")
        kinds.append(value)
    filters: dict[str, Any] = {}
    for key, value in (req.filters or {}).items():
        if key not in SPEC01_FILTER_KEYS:
            raise ApiError(400, f"filter {key!r} is not supported. "
                                f"Supported filters: {', '.join(SPEC01_FILTER_KEYS)}")
        if value is None:
            continue
        if key == "page_number":
            if whole_number(value) is None:
                raise ApiError(400, "page_number must be an integer")
            filters["page"] = whole_number(value)
        else:
            label = label_text(value)
            if label is None:
                raise ApiError(400, f"filter {key!r} must be a non-empty string such as \"3\" or \"3.1\"")
            filters[key] = normalize_number(label) or label
    return query, k, filters, kinds


def section_of(chunk: Chunk) -> str | None:
    """The deepest numbered heading a chunk sits under (spec 01's `section`)."""
    return chunk.subsubsection or chunk.subsection or chunk.section


def semantic_result(hit: Hit) -> SemanticResult:
    c = hit.chunk
    return SemanticResult(
        id=c.id, type=c.kind, content=c.content, number=c.number, title=c.title,
        chapter=c.chapter, section=section_of(c), page_number=c.page, pdf_page=c.pdf_page,
        score=hit.score,
    )


def kinds_for_traverse(types: Sequence[str]) -> list[str]:
    """spec 01 traverse_types -> chunk kinds ('section'/'appendix' widen to text chunks)."""
    kinds = [t for t in types if t in ENTITY_KINDS]
    if "section" in types or "appendix" in types:
        kinds.append("text")
    return kinds


def semantic_search(kb: KnowledgeBase, req: SemanticSearchRequest) -> SemanticSearchResponse:
    query, k, filters, types = validate_semantic(req)
    result = kb.search(query, k=k, filters=filters, traverse_kinds=kinds_for_traverse(types))
    hits = result.hits
    if "appendix" in types and "section" not in types:
        hits = [h for h in hits if h.via != "expansion" or h.chunk.kind != "text"
                or (h.chunk.chapter or "").isalpha()]
    return SemanticSearchResponse(
        results=[semantic_result(h) for h in hits], total_count=len(hits),
        suggestion=result.suggestion, corrected_query=result.corrected_query,
    )


def validate_expand(req: ExpandGraphRequest) -> tuple[list[str], list[str]]:
    if not req.document_ids:
        raise ApiError(400, "document_ids must be a non-empty array of ids")
    if len(req.document_ids) > 100:
        raise ApiError(400, "document_ids may hold at most 100 ids")
    for raw in req.document_ids:
        if not isinstance(raw, str) or not id_is_wellformed(raw):
            raise ApiError(400, f"document_ids contains an invalid id: {str(raw)[:80]!r}. "
                                "Ids are letters, digits, '_', '.', ':', '-' (e.g. 'formula_3_2', 'algo_4_1')")
    relations = req.traverse_types if req.traverse_types else list(RELATIONS)
    for rel in relations:
        if rel not in RELATIONS:
            raise ApiError(400, f"traverse_types contains invalid value: {rel!r}. "
                                f"Valid values: [{', '.join(RELATIONS)}]")
    return req.document_ids, relations


def expand_documents(kb: KnowledgeBase, req: ExpandGraphRequest) -> ExpandGraphResponse:
    ids, relations = validate_expand(req)
    docs, unknown = expand_graph(kb, ids, relations)
    out = []
    count = 0
    for doc in docs:
        c = doc["chunk"]
        rels = [Relationship(**r) for r in doc["relationships"]]
        count += len(rels)
        out.append(ExpandedDocument(id=c.id, type=c.kind, content=c.content, number=c.number,
                                    title=c.title, chapter=c.chapter, section=section_of(c),
                                    page_number=c.page, relationships=rels))
    warnings = [f"document id not found: {u}" for u in unknown] or None
    return ExpandGraphResponse(expanded_documents=out, relationship_count=count, warnings=warnings)


def get_entity(kb: KnowledgeBase, entity_type: str, number: str) -> EntityResponse:
    kind = entity_type.strip().lower()
    kind = "figure" if kind == "image" else kind
    if kind not in ENTITY_KINDS:
        raise ApiError(400, "entity_type must be one of: " + ", ".join(ENTITY_KINDS))
    num = normalize_number(number)
    if num is None:
        raise ApiError(400, "number format invalid. Expected format: X.Y or X.YZ (e.g. 3.2, 16.4, A.1)")
    chunk = kb.entity(kind, num)
    if chunk is None:
        raise ApiError(404, f"{kind.capitalize()} {num} not found in knowledge base", "NOT_FOUND")
    refs, cited = kb.references_of(chunk.id)
    return EntityResponse(id=chunk.id, type=chunk.kind, number=chunk.number, title=chunk.title,
                          content=chunk.content, chapter=chunk.chapter, section=section_of(chunk),
                          page_number=chunk.page, pdf_page=chunk.pdf_page, references=refs,
                          cited_by=cited)


# --------------------------------------------------------------------------- spec 03 REST
"""Lesson-scoped search (spec 03): POST /api/rag/search with its own error envelope and rate limit."""

SPEC03_SCOPES = ("current_lesson", "current_chapter", "entire_book", "auto")
# scope "auto" (spec 03's multi-level strategy): this many from the lesson, then the chapter, then the book.
AUTO_LEVELS = (("current_lesson", 3), ("current_chapter", 5), ("entire_book", 2))


class RagSearchRequest(msgspec.Struct):
    """Body of POST /api/rag/search (fields loosely typed: spec 03 defines its own error codes)."""

    query: Annotated[Any, JsonSchema(type="string", minLength=1, maxLength=500, pattern=NONBLANK)] = None
    scope: Annotated[Any, JsonSchema(type=["string", "null"], enum=[*SPEC03_SCOPES, None],
                                     default="current_lesson")] = "current_lesson"
    n_results: Annotated[Any, JsonSchema(type=["integer", "null"], minimum=1, maximum=20, default=5)] = 5
    current_chapter: Annotated[Any, JsonSchema(type=["string", "integer", "null"], pattern=NONBLANK)] = None
    current_lesson: Annotated[Any, JsonSchema(type=["string", "integer", "null"], pattern=NONBLANK)] = None

    # What each scope needs besides the query (scope left out means current_lesson).
    json_schema = {"required": ["query"], "additionalProperties": True, "anyOf": [
        {"properties": {"scope": {"type": "string", "enum": ["entire_book", "auto"]}}, "required": ["scope"]},
        {"properties": {"scope": {"type": "string", "const": "current_chapter"}, "current_chapter": LABEL},
         "required": ["scope", "current_chapter"]},
        {"properties": {"scope": {"type": ["string", "null"], "enum": ["current_lesson", None]},
                        "current_chapter": LABEL, "current_lesson": LABEL},
         "required": ["current_chapter", "current_lesson"]},
    ]}


class RagSearchHit(msgspec.Struct):
    chunk_id: str
    content: str
    score: float
    metadata: dict[str, Any]


class RagSearchResponse(msgspec.Struct):
    query: str
    scope: str
    results: list[RagSearchHit]
    total_results: int
    search_time_ms: int


class Spec03Detail(msgspec.Struct, omit_defaults=True):
    code: str
    message: str
    field: str | None = None


class Spec03Error(msgspec.Struct, omit_defaults=True):
    """spec 03's error envelope."""

    error: str
    details: list[Spec03Detail]
    timestamp: str
    request_id: str | None = None
    retry_after: int | None = None


class Spec03Failure(Exception):
    """A spec 03 client error: status and the details list."""

    def __init__(self, status: int, details: list[Spec03Detail]):
        super().__init__(details[0].message)
        self.status, self.details = status, details


def validate_rag_search(req: RagSearchRequest) -> tuple[str, str, int, str | None, str | None]:
    """spec 03's rules; 400 for missing or malformed fields, 422 for the query's length."""
    problems: list[Spec03Detail] = []
    scope = req.scope if req.scope is not None else "current_lesson"
    if not isinstance(scope, str) or scope not in SPEC03_SCOPES:
        problems.append(Spec03Detail("INVALID_SCOPE", "scope must be one of: " + ", ".join(SPEC03_SCOPES), "scope"))
    n = whole_number(req.n_results) if req.n_results is not None else 5
    if n is None or not 1 <= n <= 20:
        problems.append(Spec03Detail("INVALID_N_RESULTS", "n_results must be an integer between 1 and 20",
                                     "n_results"))
    chapter, lesson = req.current_chapter, req.current_lesson
    for name, value in (("current_chapter", chapter), ("current_lesson", lesson)):
        if value is not None and label_text(value) is None:
            problems.append(Spec03Detail("INVALID_FIELD", f"{name} must be a non-empty string", name))
    if scope in ("current_lesson", "current_chapter") and chapter is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD",
                                     f"current_chapter is required when scope is '{scope}'", "current_chapter"))
    if scope == "current_lesson" and lesson is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD",
                                     "current_lesson is required when scope is 'current_lesson'", "current_lesson"))
    if req.query is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD", "query is required", "query"))
    elif not isinstance(req.query, str):
        problems.append(Spec03Detail("INVALID_FIELD", "query must be a string", "query"))
    if problems:
        raise Spec03Failure(400, problems)
    if not req.query.strip(BLANKS) or len(req.query) > 500:  # the length as sent: padding buys nothing
        raise Spec03Failure(422, [Spec03Detail("INVALID_QUERY_LENGTH",
                                               "Query must be between 1 and 500 characters", "query")])
    return req.query.strip(BLANKS), scope, n, label_text(chapter), label_text(lesson)


def scope_filters(scope: str, chapter: str | None, lesson: str | None) -> dict | None:
    """Knowledge-base filters of a scope: lesson = (chapter, section) of a PDF or a docs tree."""
    if scope == "current_lesson":
        return None if chapter is None or lesson is None else {"chapter": chapter, "section": lesson}
    if scope == "current_chapter":
        return None if chapter is None else {"chapter": chapter}
    return {}


def spec03_metadata(chunk: Chunk) -> dict[str, Any]:
    """spec 03 metadata for a chunk; for a PDF, chapter = chapter number and lesson = section number."""
    extra = chunk.extra or {}

    def number_of(value: str | None, position: int) -> int | None:
        if not value:
            return None
        parts = value.split(".")
        return int(parts[position]) if len(parts) > position and parts[position].isdigit() else None

    from_pdf = chunk.page is not None
    meta: dict[str, Any] = {
        "chapter": chunk.chapter,
        "chapter_number": number_of(chunk.chapter, 0) if from_pdf else extra.get("chapter_number"),
        "chapter_title": chunk.chapter_title,
        "lesson": chunk.section,
        "lesson_number": number_of(chunk.section, 1) if from_pdf else extra.get("lesson_number"),
        "lesson_title": chunk.section_title,
        "file_path": extra.get("file_path") or (f"{chunk.source}#page={chunk.pdf_page}" if chunk.source else None),
        "chunk_index": extra.get("chunk_index", chunk.ord),
        "content_type": extra.get("content_type") or ("code" if chunk.kind == "algorithm" else chunk.kind),
        "heading": extra.get("heading") or chunk.subsubsection_title or chunk.subsection_title
                   or chunk.section_title or chunk.chapter_title,
        "topics": extra.get("topics") or [],
        "difficulty": extra.get("difficulty"),
    }
    if from_pdf:
        meta["page"] = chunk.page
    if extra.get("module"):
        meta["module"] = extra["module"]
    if extra.get("source_url"):
        meta["page_url"] = extra["source_url"]
    if chunk.kind != "text":
        meta["entity_type"], meta["entity_number"] = chunk.kind, chunk.number
    return meta


def rag_search(kb: KnowledgeBase, req: RagSearchRequest) -> RagSearchResponse:
    query, scope, n, chapter, lesson = validate_rag_search(req)
    started = time.perf_counter()
    hits: list[Hit] = []
    if scope == "auto":
        seen: set[str] = set()
        for level, count in AUTO_LEVELS:
            filters = scope_filters(level, chapter, lesson)
            if filters is None:
                continue
            for hit in kb.search(query, k=min(20, count + len(seen)), filters=filters).hits:
                if hit.chunk.id not in seen and sum(1 for h in hits if h.via == level) < count:
                    seen.add(hit.chunk.id)
                    hit.via = level
                    hits.append(hit)
        hits = hits[:n]
    else:
        hits = kb.search(query, k=n, filters=scope_filters(scope, chapter, lesson)).hits
    elapsed = int(round((time.perf_counter() - started) * 1000))
    results = [RagSearchHit(chunk_id=h.chunk.id, content=h.chunk.content, score=h.score,
                            metadata=spec03_metadata(h.chunk) | ({"scope_level": h.via} if scope == "auto" else {}))
               for h in hits]
    return RagSearchResponse(query=req.query, scope=scope, results=results, total_results=len(results),
                             search_time_ms=elapsed)


def rate_limit_setting() -> tuple[str, int]:
    """RAG_RATE_LIMIT "60/minute" (also second, hour, day) -> ("minute", 60)."""
    raw = env("RAG_RATE_LIMIT", "60/minute") or "60/minute"
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*", raw)
    if not m:
        raise ConfigError(f"RAG_RATE_LIMIT must look like '60/minute' (second, minute, hour or day); got {raw!r}")
    return m.group(2), int(m.group(1))


def session_key(request) -> str:
    """Who a rate limit counts: the X-Session-ID header, else the client address."""
    session = request.headers.get("x-session-id", "").strip()
    if session:
        return "session:" + session[:128]
    client = request.client
    return "address:" + (client.host if client else "unknown")


# --------------------------------------------------------------------------- MCP (spec 02)
"""MCP adapter (spec 02): the official SDK's MCPServer, stateless JSON, mounted at /mcp."""

# spec 02's EntityType; "figure" is accepted as another name for "image".
MCP_ENTITY_TYPES = ("formula", "table", "algorithm", "image", "exercise", "example", "figure")
MCP_PARTS = ("I", "II", "III", "IV", "V", "Appendices")
_KIND_OF_MCP_TYPE = {"image": "figure"}
_MCP_TYPE_OF_KIND = {"figure": "image"}


def mcp_document(chunk: Chunk, kb: KnowledgeBase, cosine: float | None = None) -> dict:
    """spec 02's Document {id, content, cosine_similarity, metadata}: lean, no nulls, integer pages."""
    meta: dict[str, Any] = {"chunk_type": CHUNK_TYPE_OF_KIND.get(chunk.kind, chunk.kind)}
    if chunk.number and chunk.kind != "section":
        meta["entity_id"] = chunk.number
    if chunk.title and chunk.kind not in ("text", "section"):
        meta["title"] = chunk.title
    # spec 02 names: section = chapter, subsection = our section, subsubsection = our subsection.
    for ours, theirs in (("part", "part"), ("chapter", "section"), ("section", "subsection"),
                         ("subsection", "subsubsection")):
        if getattr(chunk, ours):
            key = "part" if theirs == "part" else f"{theirs}_number"
            meta[key] = getattr(chunk, ours)
            if getattr(chunk, f"{ours}_title"):
                meta[f"{theirs}_title"] = getattr(chunk, f"{ours}_title")
    if chunk.page is not None:
        meta["page"] = int(chunk.page)
    if chunk.kind != "section":
        refs, _ = kb.references_of(chunk.id)
        grouped: dict[str, list[str]] = {}
        for ref in refs:
            kind, _, number = ref.partition("_")
            if kind in ENTITY_KINDS:
                grouped.setdefault(f"referenced_{kind}s", []).append(number.replace("_", "."))
        meta.update(grouped)
    doc: dict[str, Any] = {"id": chunk.id, "content": chunk.content}
    if cosine is not None:
        doc["cosine_similarity"] = round(float(cosine), 4)
    doc["metadata"] = meta
    return doc


def mcp_filters(filters: dict | None) -> dict:
    """spec 02 SearchFilters -> knowledge-base filters, with messages that name the allowed values."""
    out: dict[str, Any] = {}
    for key, value in (filters or {}).items():
        if value is None:
            continue
        if key == "part":
            part = str(value).strip()
            match = next((p for p in MCP_PARTS if p.lower() == part.lower()), None)
            if match is None:
                raise ValueError(f"filters.part must be one of {', '.join(MCP_PARTS)}; got {part!r}")
            out["part"] = match
        elif key in ("section", "subsection", "subsubsection"):
            number = normalize_number(str(value))
            if number is None:
                raise ValueError(f"filters.{key} must be a number like "
                                 f"{ {'section': '2', 'subsection': '2.3', 'subsubsection': '2.3.1'}[key]!r}")
            out[{"section": "chapter", "subsection": "section", "subsubsection": "subsection"}[key]] = number
        elif key == "page_number":
            if whole_number(value) is None:
                raise ValueError("filters.page_number must be an integer")
            out["page"] = whole_number(value)
        else:
            raise ValueError(f"filters.{key} is not supported; use part, section, subsection, "
                             "subsubsection, page_number")
    return out


def mcp_kinds(types: Sequence[str] | None) -> list[str]:
    return list(dict.fromkeys(_KIND_OF_MCP_TYPE.get(t, t) for t in types or []))


def related_code(kb: KnowledgeBase, ids: Sequence[str]) -> tuple[str, list[str]]:
    """Python definitions the given algorithms/examples depend on, transitively, callees first."""
    index = kb.code_index()
    order: list[str] = []
    visiting: set[str] = set()
    own: set[str] = set()
    roots: list[str] = []
    for raw in ids:
        chunk = kb.get(raw)
        if chunk is None or chunk.kind not in ("algorithm", "example"):
            continue
        own.update(name for name, (cid, _) in index.items() if cid == chunk.id)
        roots.extend(called_names(chunk.content))

    def visit(name: str) -> None:
        if name in visiting or name in order or name not in index:
            return
        visiting.add(name)
        for callee in called_names(index[name][1]):
            visit(callee)
        order.append(name)

    for name in roots:
        if name not in own:
            visit(name)
    names = [n for n in order if n not in own]
    parts = [f"# {index[n][0]}: {n}\n{index[n][1]}" for n in names]
    return "\n\n".join(parts), [index[n][0] for n in names]


_CALL_RE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_CALL_ATTR_RE = re.compile(r"\.([A-Za-z_]\w*)\s*\(")


def called_names(code: str) -> list[str]:
    """Names a piece of code calls (plain calls and method calls), in order of first use."""
    names = _CALL_RE.findall(code) + _CALL_ATTR_RE.findall(code)
    return list(dict.fromkeys(n for n in names if n not in ("def", "class", "return", "print")))


def top_level_definitions(code: str) -> dict[str, str]:
    """{name: source} of each top-level def/class in an algorithm's code (parsed, else by indentation)."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        blocks, name, lines = {}, None, []
        for line in code.splitlines():
            m = re.match(r"(?:def|class)\s+([A-Za-z_]\w*)", line)
            if m:
                if name:
                    blocks[name] = "\n".join(lines).rstrip()
                name, lines = m.group(1), [line]
            elif name and (line.startswith((" ", "\t")) or not line.strip()):
                lines.append(line)
        if name:
            blocks[name] = "\n".join(lines).rstrip()
        return blocks
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = ast.get_source_segment(code, node) or ""
    return out


MCP_TOOL_DOCS = {
    "answer_question": (
        "Answer a question from the book only, with inline [n] citations (title, chapter, page), or refuse with "
        "'answer not found in book'. mode 'selected_text_only' answers only from selected_text. Deterministic: "
        "the same input gives the same answer and output_hash. Returns spec 04's AgentResponse (status, "
        "content, citations, confidence high|low|none, hashes, timings)."),
    "search_knowledge_base": (
        "Search the book 'Algorithms for Decision Making'-style textbook served here. Hybrid semantic and "
        "keyword search over text, formulas, algorithms, tables, figures, examples and exercises; explicit "
        "references such as 'Algorithm 3.2' or 'eq. (4.5)' come first. Optional filters restrict the scope "
        "(part, section = chapter number, subsection, subsubsection, page_number); traverse_types adds the "
        "linked entities of those types after the ranked results. Returns {result: [Document]} where each "
        "Document has id, content, cosine_similarity and metadata (chunk_type, entity_id, page, section "
        "titles, referenced_* lists)."),
    "expand_graph_by_ids": (
        "Given document ids from an earlier result (any id or alias such as 'algo_4_1' or 'Algorithm 4.1'), "
        "return the linked entities of the requested types: what those documents reference, what references "
        "them, and formulas or functions used in algorithms. Returns {result: [Document]}."),
    "get_entity_by_number": (
        "Fetch one numbered entity directly: entity_type formula, table, algorithm, image (a figure), "
        "exercise or example, and its number such as '3.2', '16.4' or 'A.1'. Returns {result: Document} or "
        "{result: null} when the book has no such entity."),
    "get_related_code_definitions": (
        "For algorithm or example ids, return the Python definitions they depend on in other algorithms "
        "(functions and classes they call, transitively, callees first) as one document, so the code can be "
        "read or run as a whole. Returns {result: [Document]} (empty when nothing is called)."),
}


def create_mcp(kb: KnowledgeBase):
    """The MCPServer with spec 02's tools (plus get_related_code_definitions) over the knowledge base."""
    from typing import Annotated, Literal

    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import Field
    from typing_extensions import NotRequired, TypedDict

    # Functional TypedDicts: this module defers annotations, and these types live in a function.
    SearchFilters = TypedDict("SearchFilters", {
        "part": Annotated[str, Field(description="One of I, II, III, IV, V, Appendices")],
        "section": Annotated[str, Field(description="Chapter number, e.g. '2'")],
        "subsection": Annotated[str, Field(description="Section number, e.g. '2.3'")],
        "subsubsection": Annotated[str, Field(description="Subsection number, e.g. '2.3.1'")],
        "page_number": Annotated[int, Field(description="Printed page number")],
    }, total=False)
    Document = TypedDict("Document", {
        "id": str, "content": str, "cosine_similarity": NotRequired[float], "metadata": dict[str, Any],
    })
    # Results are {"result": ...} objects, so structuredContent and the JSON text block are the same.
    ListResult = TypedDict("ListResult", {"result": list[Document]})
    EntityResult = TypedDict("EntityResult", {"result": Document | None})
    EntityType = Literal["formula", "table", "algorithm", "image", "exercise", "example", "figure"]
    toc = "\n".join(f"{'  ' * row['level']}{'Part ' if row['level'] == 0 else ''}{row['number']} "
                    f"{row['title']} (p. {row['page']})" for row in kb.toc())
    server = MCPServer(
        name="bookrag", version="0.1.0",
        instructions=(f"Knowledge service for the textbook '{kb.title}'. Cite printed pages from "
                      f"metadata.page. Contents:\n{toc}"),
    )

    def search_knowledge_base(query, k=5, traverse_types=None, filters=None):
        if not query or len(query.strip()) < 3:
            raise ToolError("query must be at least 3 characters")
        if not 1 <= k <= 20:
            raise ToolError("k must be between 1 and 20")
        try:
            kb_filters = mcp_filters(filters)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        result = kb.search(query.strip()[:2000], k=k, filters=kb_filters, traverse_kinds=mcp_kinds(traverse_types))
        return {"result": [mcp_document(h.chunk, kb, h.cosine) for h in result.hits]}

    def expand_graph_by_ids(document_ids, traverse_types):
        if not document_ids:
            raise ToolError("document_ids must be a non-empty list of ids")
        kinds = set(mcp_kinds(traverse_types))
        docs, _unknown = expand_graph(kb, document_ids[:100], LINK_RELATIONS + ("RELATED_TO",))
        return {"result": [mcp_document(d["chunk"], kb) for d in docs if d["chunk"].kind in kinds]}

    def get_entity_by_number(entity_type, number):
        num = normalize_number(number)
        if num is None:
            raise ToolError(f"number {number!r} is not an entity number; expected e.g. '3.2', '16.4' or 'A.1'")
        chunk = kb.entity(_KIND_OF_MCP_TYPE.get(entity_type, entity_type), num)
        return {"result": mcp_document(chunk, kb) if chunk else None}

    def get_related_code_definitions(document_ids):
        if not document_ids:
            raise ToolError("document_ids must be a non-empty list of algorithm or example ids")
        code, sources = related_code(kb, document_ids[:50])
        if not code:
            return {"result": []}
        return {"result": [{"id": "code_for_" + "_".join(kb.resolve_id(i) or i for i in document_ids[:5]),
                            "content": code, "metadata": {"chunk_type": "code", "source_ids": sources}}]}

    ids_arg = Annotated[list[Annotated[str, Field(max_length=128)]],
                        Field(description="Document ids from earlier results", max_length=100)]
    search_knowledge_base.__annotations__ = {
        "query": Annotated[str, Field(description="Text query for semantic search", max_length=2000)],
        "k": Annotated[int, Field(description="Number of results, 1-20")],
        "traverse_types": Annotated[list[EntityType] | None,
                                    Field(description="Entity types to add via links")],
        "filters": Annotated[SearchFilters | None, Field(description="Metadata filters")],
        "return": ListResult}
    expand_graph_by_ids.__annotations__ = {
        "document_ids": ids_arg,
        "traverse_types": Annotated[list[EntityType], Field(description="Types of linked objects to retrieve")],
        "return": ListResult}
    get_entity_by_number.__annotations__ = {
        "entity_type": Annotated[EntityType, Field(description="Type of entity")],
        "number": Annotated[str, Field(description="Entity number, e.g. '3.2' or 'A.1'", max_length=32)],
        "return": EntityResult}
    get_related_code_definitions.__annotations__ = {"document_ids": ids_arg, "return": ListResult}

    def answer_question(query, mode="full_book", selected_text=None, top_k=5, module_filter=None):
        from rag_answers import AnswerError, answer

        try:
            return answer(kb, query, mode, selected_text, top_k, module_filter)
        except AnswerError as exc:
            raise ToolError(exc.message) from None

    answer_question.__annotations__ = {
        "query": Annotated[str, Field(description="The question", max_length=2000)],
        "mode": Annotated[Literal["full_book", "selected_text_only"], Field(description="Where to look")],
        "selected_text": Annotated[str | None, Field(description="The text to answer from in selected_text_only mode")],
        "top_k": Annotated[int, Field(description="Chunks to retrieve, 1-20")],
        "module_filter": Annotated[str | None, Field(description="Restrict to one module (or part) of the book")],
        "return": dict[str, Any]}
    for fn in (search_knowledge_base, expand_graph_by_ids, get_entity_by_number, get_related_code_definitions,
               answer_question):
        server.add_tool(fn, name=fn.__name__, description=MCP_TOOL_DOCS[fn.__name__])
    return server


# --------------------------------------------------------------------------- app
"""App: the Litestar application serving every adapter over one KnowledgeBase."""


_ERROR_CODES = {400: "INVALID_PARAMETER", 401: "UNAUTHORIZED", 404: "NOT_FOUND",
                405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE",
                429: "RATE_LIMIT_EXCEEDED", 500: "INTERNAL_ERROR"}


def _validation_detail(exc: Any) -> str:
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


# What the JSON decoder raises on hostile bodies (too deeply nested, not UTF-8) besides its own error.
CLIENT_DECODE_ERRORS = (RecursionError, UnicodeDecodeError)


def decode_error_message(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "request body is not valid UTF-8"
    return "request body is nested too deeply"


ERROR_DESCRIPTIONS = {400: "Invalid request: the message names the field", 401: "Missing or wrong API key",
                      404: "Not found", 413: "Request body larger than 1 MB",
                      422: "Query empty or longer than allowed", 429: "Rate limit exceeded",
                      500: "Internal error", 503: "Knowledge base unavailable; retry"}
MAX_BODY_BYTES = 1_000_000  # every route, MCP included: larger bodies get a 413
SEARCH_MAX_AGE = 86400      # spec 01: agents cache search and expansion for 24 hours
ENTITY_MAX_AGE = 604800     # and entities for 7 days


class RequestLogMiddleware:
    """X-Request-ID accepted (or generated) and echoed on every response; one JSON log line per request."""

    def __init__(self, app):
        self.app = app
        self.enabled = env("RAG_ACCESS_LOG", "1") not in ("0", "false", "no")

    def __getattr__(self, name: str):
        return getattr(self.app, name)  # the wrapped Litestar app's attributes (state, openapi_schema, …)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1").strip()
        request_id = incoming if re.fullmatch(r"[\w.:-]{1,128}", incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500

        async def send_with_id(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                message = {**message, "headers": headers + [(b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.enabled:
                line = {"ts": now_iso(), "request_id": request_id, "method": scope.get("method"),
                        "route": scope.get("path"), "status": status,
                        "ms": round((time.perf_counter() - started) * 1000, 2)}
                sys.stderr.write(json.dumps(line) + "\n")


class LazyMCP:
    """The MCP server, built and started on first use of /mcp or /tools, not at start-up.

    Importing the MCP SDK takes about half a second, most of the service's cold start; agents
    that only use REST never pay it.  The session manager's task group must be entered and left
    in one task, so a task started in the app's lifespan waits for the first request, builds the
    server, runs the session manager, and stops at shutdown.
    """

    def __init__(self, kb: KnowledgeBase):
        import asyncio

        self.kb = kb
        self.server = None
        self._app = None
        self.error: Exception | None = None
        self.needed, self.ready, self.stop = asyncio.Event(), asyncio.Event(), asyncio.Event()

    def running(self):
        """The lifespan part: an async context that owns the MCP task."""
        import asyncio
        from contextlib import asynccontextmanager

        @asynccontextmanager
        async def lifespan():
            task = asyncio.create_task(self._run())
            try:
                yield
            finally:
                self.stop.set()
                await task

        return lifespan()

    async def _run(self) -> None:
        import asyncio

        needed, stop = asyncio.create_task(self.needed.wait()), asyncio.create_task(self.stop.wait())
        await asyncio.wait({needed, stop}, return_when=asyncio.FIRST_COMPLETED)
        needed.cancel()
        stop.cancel()
        if self.stop.is_set():
            return
        try:
            self.server = create_mcp(self.kb)
            self._app = self.server.streamable_http_app(
                streamable_http_path="/", stateless_http=True, json_response=True,
                transport_security=mcp_transport_security(), max_request_body_size=MAX_BODY_BYTES)
            async with self.server.session_manager.run():
                self.ready.set()
                await self.stop.wait()
        except Exception as exc:  # reported to every waiting request instead of hanging them
            self.error = exc
            self.ready.set()

    async def app(self):
        """The MCP ASGI app, starting the server on the first call."""
        self.needed.set()
        await self.ready.wait()
        if self.error is not None:
            raise RuntimeError(f"the MCP server could not start: {self.error}")
        return self._app

    async def list_tools(self):
        await self.app()
        return await self.server.list_tools()


class ApiKeyMiddleware:
    """RAG_API_KEY: when set, every route but /health (and CORS preflights) needs the key.

    The key comes as "Authorization: Bearer <key>" or "X-API-Key: <key>" and is compared in
    constant time.  A missing or wrong key gets a 401 in the route's own error format; the key
    itself is never logged or echoed.
    """

    OPEN_PATHS = ("/health",)

    def __init__(self, app, key: str):
        self.app = app
        self.key = key.encode()

    def __getattr__(self, name: str):
        return getattr(self.app, name)

    def _authorized(self, headers: dict) -> bool:
        import hmac

        given = headers.get(b"x-api-key", b"")
        bearer = headers.get(b"authorization", b"")
        if bearer[:7].lower() == b"bearer ":
            given = given or bearer[7:].strip()
        return hmac.compare_digest(given, self.key)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.OPEN_PATHS or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if self._authorized(headers):
            await self.app(scope, receive, send)
            return
        message = "missing or wrong API key: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
        path = scope.get("path", "")
        request_id = scope.get("state", {}).get("request_id")
        if path.startswith("/api/rag"):
            body = Spec03Error(error="Unauthorized", details=[Spec03Detail("UNAUTHORIZED", message)],
                               timestamp=now_iso(), request_id=request_id)
        elif path in ("/ask", "/tools") or path.startswith("/tools/"):
            body = {"status": "error", "error": message, "error_type": "unauthorized", "message": message,
                    "fallback_action": "refuse_answer", "timestamp": now_iso()}
        else:
            body = ErrorBody(detail=message, status_code=401, error_code="UNAUTHORIZED", timestamp=now_iso())
        data = msgspec.json.encode(body)
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})


def cors_config():
    """RAG_CORS_ORIGINS: comma-separated origins browsers may call from (default: none)."""
    origins = [o.strip() for o in (env("RAG_CORS_ORIGINS", "") or "").split(",") if o.strip()]
    if not origins:
        return None
    from litestar.config.cors import CORSConfig

    return CORSConfig(allow_origins=origins, allow_methods=["GET", "POST", "OPTIONS"],
                      allow_headers=["Content-Type", "Authorization", "X-API-Key", "X-Request-ID", "X-Session-ID",
                                     "Mcp-Protocol-Version", "Mcp-Session-Id"],
                      expose_headers=["X-Request-ID", "ETag", "Retry-After"], max_age=600)


def mcp_transport_security():
    """Host/Origin checks for /mcp: RAG_MCP_ALLOWED_HOSTS (comma-separated, default loopback names)."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = [h.strip() for h in (env("RAG_MCP_ALLOWED_HOSTS", "") or "").split(",") if h.strip()]
    if hosts == ["*"]:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    hosts = hosts or ["localhost", "127.0.0.1", "[::1]"]
    allowed = hosts + [f"{h}:*" for h in hosts if ":" not in h.strip("[]") or h.startswith("[")]
    origins = [f"{scheme}://{h}" for h in allowed for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=allowed,
                                     allowed_origins=origins)


# JSON Schema keywords whose values are schemas themselves, and Litestar's names for keywords.
_SUBSCHEMA_KEYS = {"items", "additionalProperties", "not", "if", "then", "else"}
_SCHEMA_LIST_KEYS = {"anyOf", "allOf", "oneOf"}
_LITESTAR_SCHEMA_NAMES = {"not": "schema_not", "if": "schema_if", "else": "schema_else"}


def openapi_schema_object(schema: dict):
    """A JSON Schema dict (JSON's own camelCase words) as Litestar's OpenAPI Schema object."""
    from litestar.openapi.spec import Schema

    return Schema(**openapi_schema_fields(schema))


def openapi_schema_fields(schema: dict) -> dict[str, Any]:
    """The keyword arguments of Litestar's Schema for a JSON Schema dict."""
    from litestar.openapi.spec import OpenAPIType

    kwargs: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type":
            value = [OpenAPIType(t) for t in value] if isinstance(value, list) else OpenAPIType(value)
        elif key in _SUBSCHEMA_KEYS and isinstance(value, dict):
            value = openapi_schema_object(value)
        elif key in _SCHEMA_LIST_KEYS:
            value = [openapi_schema_object(v) for v in value]
        elif key == "properties":
            value = {name: openapi_schema_object(v) for name, v in value.items()}
        name = _LITESTAR_SCHEMA_NAMES.get(key) or re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), key)
        kwargs[name] = value
    return kwargs


def request_schema_plugin():
    """A Litestar OpenAPI plugin: fields marked with JsonSchema, and request structs' own rules.

    A request struct that forbids unknown fields says so (additionalProperties: false); one with a
    `json_schema` class attribute adds those keywords (e.g. which fields a scope requires).
    """
    from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
    from litestar.plugins import OpenAPISchemaPlugin

    structs = StructSchemaPlugin()

    class RequestSchemaPlugin(OpenAPISchemaPlugin):
        def is_plugin_supported_field(self, field_definition) -> bool:
            if any(isinstance(m, JsonSchema) for m in field_definition.metadata):
                return True
            return structs.is_plugin_supported_field(field_definition) and (
                hasattr(field_definition.type_, "json_schema")
                or field_definition.type_.__struct_config__.forbid_unknown_fields)

        def to_openapi_schema(self, field_definition, schema_creator):
            marks = [m for m in field_definition.metadata if isinstance(m, JsonSchema)]
            if marks:
                return openapi_schema_object(marks[0].schema)
            schema = structs.to_openapi_schema(field_definition, schema_creator)
            rules = dict(getattr(field_definition.type_, "json_schema", {}))
            if field_definition.type_.__struct_config__.forbid_unknown_fields:
                rules.setdefault("additionalProperties", False)
            for name, value in openapi_schema_fields(rules).items():
                setattr(schema, name, value)
            # Each alternative repeats the whole object: generators (and readers) that take one
            # branch alone then still see every field's type.
            for branch in schema.any_of or []:
                branch.type = schema.type
                branch.properties = {**(schema.properties or {}), **(branch.properties or {})}
                branch.required = sorted(set(schema.required or []) | set(branch.required or []))
            return schema

    return RequestSchemaPlugin()


def create_app(kb: KnowledgeBase | None = None, db_path: Path | str | None = None):
    """Build the Litestar app around one KnowledgeBase (opened now unless given)."""
    from contextlib import asynccontextmanager
    from typing import AsyncIterator

    from litestar import Litestar, MediaType, Request, Response, Router, asgi, get, post
    from litestar.middleware.rate_limit import RateLimitConfig
    from litestar.params import JSONBody, Parameter
    from litestar.types import Receive, Scope, Send
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.openapi import OpenAPIConfig

    from litestar.openapi.datastructures import ResponseSpec

    if kb is None:
        kb = KnowledgeBase(db_path or env("RAG_DB", str(DEFAULT_DB)), env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR)))

    # Path parameters as documented (docs only: our own checks give spec 01's messages); we also accept
    # other spellings ("Algorithm", "eq", "(3.2)"), these are the canonical ones.
    EntityTypeParam = Annotated[str, Parameter(description="Entity type (spec 01 names four; all six work)",
                                               schema_extra={"enum": [*ENTITY_KINDS, "image"]})]
    EntityNumberParam = Annotated[str, Parameter(description="Printed number, e.g. 3.2 or A.1",
                                                 schema_extra={"pattern": r"^(?:[A-Za-z]|[0-9]+)(?:\.[0-9]+)*[a-z]?$"})]

    def documented(*statuses: int, body: Any = ErrorBody, cached: bool = False) -> dict[int, Any]:
        """The OpenAPI responses of a route besides its 200: each error status with its real body."""
        responses = {status: ResponseSpec(body, description=ERROR_DESCRIPTIONS[status], generate_examples=False)
                     for status in statuses}
        if cached:
            responses[304] = ResponseSpec(None, description="Not modified: the client's ETag is still current")
        return responses

    def error_response(status: int, detail: str, code: str | None = None, headers: dict | None = None) -> Response:
        body = ErrorBody(detail=detail, status_code=status, error_code=code or _ERROR_CODES.get(status, "ERROR"),
                         timestamp=now_iso())
        return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)

    def on_api_error(_: Request, exc: ApiError) -> Response:
        return error_response(exc.status, exc.detail, exc.code)

    def on_validation(_: Request, exc: ValidationException) -> Response:
        return error_response(400, _validation_detail(exc))

    def on_http(_: Request, exc: HTTPException) -> Response:
        detail = exc.detail if exc.status_code != 500 else "internal error"
        return error_response(exc.status_code, str(detail), headers=exc.headers)  # e.g. Allow on a 405

    def on_crash(_: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):  # the JSON decoder on hostile input: the client's fault
            return error_response(400, decode_error_message(exc))
        return error_response(500, "internal error: the request could not be completed", "INTERNAL_ERROR")

    @get("/health", summary="Service status, the book's title and counts per chunk type",
         responses=documented(500))
    async def health() -> HealthResponse:
        return HealthResponse(status="ok", service=SERVICE_NAME, timestamp=now_iso(), book=kb.title,
                              counts=kb.counts())

    def cached(request: Request, body: Any, max_age: int) -> Response:
        """A 200 with Cache-Control and an ETag (build hash + request), or 304 when the client has it."""
        key = hashlib.sha1(f"{request.method} {request.url.path} ".encode() + msgspec.json.encode(body)).hexdigest()
        etag = f'W/"{kb.build_hash[:16]}-{key[:16]}"'
        headers = {"Cache-Control": f"public, max-age={max_age}", "ETag": etag}
        wanted = request.headers.get("if-none-match", "")
        if etag in [t.strip() for t in wanted.split(",")] or wanted.strip() == "*":
            return Response(content=b"", status_code=304, headers=headers)
        return Response(content=body, headers=headers, media_type=MediaType.JSON)

    @post("/search/semantic", status_code=200, summary="Hybrid search over the book (spec 01)",
          responses=documented(400, 401, 413, 500, cached=True))
    async def search_semantic(request: Request, data: JSONBody[SemanticSearchRequest]) -> Response[SemanticSearchResponse]:
        return cached(request, semantic_search(kb, data), SEARCH_MAX_AGE)

    @post("/search/expand-graph", status_code=200, summary="One hop along the reference graph (spec 01)",
          responses=documented(400, 401, 413, 500, cached=True))
    async def search_expand_graph(request: Request, data: JSONBody[ExpandGraphRequest]) -> Response[ExpandGraphResponse]:
        return cached(request, expand_documents(kb, data), SEARCH_MAX_AGE)

    @get("/entity/{entity_type:str}/{number:str}", summary="A numbered entity by type and number (spec 01)",
         responses=documented(400, 401, 404, 500, cached=True))
    async def entity(request: Request, entity_type: EntityTypeParam, number: EntityNumberParam) -> Response[EntityResponse]:
        return cached(request, get_entity(kb, entity_type, number), ENTITY_MAX_AGE)

    import logging

    logging.getLogger("mcp").setLevel(logging.WARNING)  # our request log says what happened
    mcp = LazyMCP(kb)

    @asgi("/mcp", is_mount=True, copy_scope=True)
    async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        # Stateless JSON only: no GET event stream (an idle stream would bill a serverless
        # instance) and no sessions to DELETE.
        if scope["type"] == "http" and scope["method"] in ("GET", "DELETE"):
            body = msgspec.json.encode(ErrorBody(
                detail=f"{scope['method']} is not supported on /mcp: POST JSON-RPC requests",
                status_code=405, error_code="METHOD_NOT_ALLOWED", timestamp=now_iso()))
            await send({"type": "http.response.start", "status": 405,
                        "headers": [(b"content-type", b"application/json"), (b"allow", b"POST"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "http" and scope.get("path", "") == "":
            scope["path"] = "/"
        await (await mcp.app())(scope, receive, send)

    @asynccontextmanager
    async def run_mcp(_app) -> AsyncIterator[None]:
        async with mcp.running():
            yield

    def spec03_error(request: Request, status: int, error: str, details: list[Spec03Detail],
                     retry_after: int | None = None, headers: dict | None = None) -> Response:
        body = Spec03Error(error=error, details=details, timestamp=now_iso(),
                           request_id=request.scope.get("state", {}).get("request_id"), retry_after=retry_after)
        return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)

    def on_spec03_failure(request: Request, exc: Spec03Failure) -> Response:
        return spec03_error(request, exc.status, "Invalid request" if exc.status == 400 else "Validation error",
                            exc.details)

    def on_spec03_http(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 429:
            reset = int((exc.headers or {}).get("RateLimit-Reset", "1") or 1)
            return spec03_error(request, 429, "Rate limit exceeded", [Spec03Detail(
                "RATE_LIMIT_EXCEEDED", f"Too many search requests. Try again in {reset} seconds.")],
                retry_after=reset, headers={**(exc.headers or {}), "Retry-After": str(reset)})
        if exc.status_code >= 500:
            return on_spec03_crash(request, exc)
        code = "INVALID_JSON" if "JSON" in str(exc.detail) else "INVALID_REQUEST"
        return spec03_error(request, exc.status_code, "Invalid request", [Spec03Detail(code, str(exc.detail))])

    def on_spec03_validation(request: Request, exc: ValidationException) -> Response:
        return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON", _validation_detail(exc))])

    def on_spec03_crash(request: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):
            return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON",
                                                                               decode_error_message(exc))])
        return spec03_error(request, 500, "Search failed", [Spec03Detail(
            "SEARCH_ERROR", "An error occurred during search. Please try again.")])

    @post("/search", status_code=200, summary="Lesson-, chapter- or book-scoped search (spec 03)",
          responses=documented(400, 401, 413, 422, 429, 500, body=Spec03Error))
    async def api_rag_search(data: JSONBody[RagSearchRequest]) -> RagSearchResponse:
        return rag_search(kb, data)

    from rag_answers import answer_routes

    unit, count = rate_limit_setting()
    rag_router = Router(
        path="/api/rag", route_handlers=[api_rag_search],
        middleware=[RateLimitConfig(rate_limit=(unit, count), identifier_for_request=session_key).middleware],
        exception_handlers={Spec03Failure: on_spec03_failure, ValidationException: on_spec03_validation,
                            HTTPException: on_spec03_http, Exception: on_spec03_crash},
    )

    app = Litestar(
        route_handlers=[health, search_semantic, search_expand_graph, entity, mcp_endpoint, rag_router,
                        answer_routes(kb, mcp.list_tools)],
        lifespan=[run_mcp],
        # Handlers' annotations are strings (deferred); these names live in this function.
        signature_namespace={"Request": Request, "Response": Response, "Scope": Scope, "Receive": Receive,
                             "Send": Send, "JSONBody": JSONBody, "EntityTypeParam": EntityTypeParam,
                             "EntityNumberParam": EntityNumberParam},
        exception_handlers={ApiError: on_api_error, ValidationException: on_validation,
                            HTTPException: on_http, Exception: on_crash},
        openapi_config=OpenAPIConfig(title="bookrag", version="0.1.0",
                                     description=f"Knowledge service for {kb.title}"),
        plugins=[request_schema_plugin()],
        request_max_body_size=MAX_BODY_BYTES,
        cors_config=cors_config(),
    )
    app.state.kb = kb
    key = env("RAG_API_KEY")
    served = ApiKeyMiddleware(app, key) if key else app
    # Outside the whole app, so that responses made from exceptions anywhere (a 429 raised by the
    # rate limiter, or a 401) carry the request id and are logged with their real status.
    return RequestLogMiddleware(served)


# --------------------------------------------------------------------------- serverless
"""AWS Lambda: API Gateway HTTP API / function URL events (payload 2.0, and 1.0) to the ASGI app."""


class LambdaAdapter:
    """Runs the app in one event loop per container; the ASGI lifespan starts once, on the first event.

    Lambda freezes the process between invocations; the loop and the started lifespan (which
    holds the MCP session manager, startable once per process) survive, so warm invocations
    reuse them.
    """

    def __init__(self):
        import asyncio

        self.loop = asyncio.new_event_loop()
        self.app = None

    def _start(self) -> None:
        import asyncio

        self.app = create_app()
        started = asyncio.Event()
        queue: asyncio.Queue = asyncio.Queue()

        async def receive():
            return await queue.get()

        async def send(message):
            if message["type"] in ("lifespan.startup.complete", "lifespan.startup.failed"):
                self.startup = message
                started.set()

        async def run_lifespan():
            await queue.put({"type": "lifespan.startup"})
            await self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)

        self._lifespan = self.loop.create_task(run_lifespan())  # keeps running: shutdown never comes
        self.loop.run_until_complete(started.wait())
        if self.startup["type"] != "lifespan.startup.complete":
            raise ConfigError(f"startup failed: {self.startup.get('message', '')}")

    def __call__(self, event: dict, context: Any = None) -> dict:
        import base64

        if self.app is None:
            self._start()
        http = (event.get("requestContext") or {}).get("http") or {}
        method = http.get("method") or event.get("httpMethod") or "GET"
        path = event.get("rawPath") or event.get("path") or "/"
        query = event.get("rawQueryString")
        if query is None:
            query = "&".join(f"{k}={v}" for k, v in (event.get("queryStringParameters") or {}).items())
        headers = [(k.lower().encode("latin-1"), str(v).encode("latin-1"))
                   for k, v in (event.get("headers") or {}).items()]
        if event.get("cookies"):
            headers.append((b"cookie", "; ".join(event["cookies"]).encode("latin-1")))
        body = event.get("body") or ""
        body = base64.b64decode(body) if event.get("isBase64Encoded") else body.encode()
        source = http.get("sourceIp") or ((event.get("requestContext") or {}).get("identity") or {}).get("sourceIp")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method.upper(),
                 "scheme": "https", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
                 "root_path": "", "headers": headers, "client": (source or "0.0.0.0", 0),
                 "server": ("lambda", 443), "state": {}}
        response: dict = {"status": 500, "headers": [], "body": b""}
        sent = False

        async def receive():
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                response["status"], response["headers"] = message["status"], message.get("headers", [])
            elif message["type"] == "http.response.body":
                response["body"] += message.get("body", b"")

        self.loop.run_until_complete(self.app(scope, receive, send))
        out_headers: dict[str, str] = {}
        for k, v in response["headers"]:
            key = k.decode("latin-1").lower()
            out_headers[key] = f"{out_headers[key]},{v.decode('latin-1')}" if key in out_headers else v.decode("latin-1")
        text_like = out_headers.get("content-type", "").startswith(("application/json", "text/"))
        payload = response["body"]
        return {"statusCode": response["status"], "headers": out_headers,
                "body": payload.decode() if text_like else base64.b64encode(payload).decode(),
                "isBase64Encoded": not text_like}


_lambda_adapter: LambdaAdapter | None = None


def handler(event: dict, context: Any = None) -> dict:
    """AWS Lambda entry point (`rag.handler`): one adapter per container, reused while warm."""
    global _lambda_adapter
    if _lambda_adapter is None:
        _lambda_adapter = LambdaAdapter()
    return _lambda_adapter(event, context)


# --------------------------------------------------------------------------- CLI
"""CLI: serve, search, entity, expand — each a thin call into the functions above."""


def _print_json(obj: Any) -> None:
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode() + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    # --db and --models work before or after the command ("rag.py --db X serve", "rag.py serve --db X").
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help="knowledge file (env RAG_DB)")
    common.add_argument("--models", default=argparse.SUPPRESS, help="model directory (env RAG_MODEL_DIR)")
    parser = argparse.ArgumentParser(prog="rag.py", description="bookrag: a textbook knowledge service",
                                     parents=[common])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve REST and MCP over HTTP", parents=[common])
    serve.add_argument("--host", default=env("HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(env("PORT", str(DEFAULT_PORT))))
    serve.add_argument("--workers", type=int, default=int(env("WEB_CONCURRENCY", "1")),
                       help="worker processes (env WEB_CONCURRENCY); each loads the model (~100 MB)")
    search = sub.add_parser("search", help="search the book from the file, no server", parents=[common])
    search.add_argument("query")
    search.add_argument("-k", type=int, default=5)
    search.add_argument("--chapter")
    search.add_argument("--json", action="store_true")
    ent = sub.add_parser("entity", help="print a numbered entity (JSON)", parents=[common])
    ent.add_argument("entity_type")
    ent.add_argument("number")
    exp = sub.add_parser("expand", help="one hop along the graph from ids (JSON)", parents=[common])
    exp.add_argument("ids", nargs="+")
    exp.add_argument("--relations", nargs="*", default=None)
    for command in (ent, exp):
        command.add_argument("--json", action="store_true", help="(their output is always JSON)")
    args = parser.parse_args(argv)
    args.db = getattr(args, "db", None) or env("RAG_DB", str(DEFAULT_DB))
    args.models = getattr(args, "models", None) or env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR))

    try:
        kb = KnowledgeBase(args.db, args.models)
        if args.command == "serve":
            import uvicorn

            print(f"bookrag: serving {kb.title!r} from {args.db} on http://{args.host}:{args.port}"
                  + (f" with {args.workers} workers" if args.workers > 1 else ""), file=sys.stderr)
            if args.workers > 1:
                # Each worker process builds its own app (and KnowledgeBase) from the environment.
                os.environ["RAG_DB"], os.environ["RAG_MODEL_DIR"] = str(args.db), str(args.models)
                uvicorn.run("rag:create_app", factory=True, workers=args.workers, host=args.host,
                            port=args.port, log_level="warning")
            else:
                uvicorn.run(create_app(kb), host=args.host, port=args.port, log_level="warning")
            return 0
        if args.command == "search":
            filters = {"chapter": args.chapter} if args.chapter else None
            resp = semantic_search(kb, SemanticSearchRequest(query=args.query, k=args.k, filters=filters))
            if args.json:
                _print_json(resp)
            else:
                if resp.suggestion:
                    print(resp.suggestion)
                for r in resp.results:
                    label = f"{r.type} {r.number}" if r.number else r.type
                    head = r.content.replace("\n", " ")[:100]
                    print(f"{r.score:.3f}  p.{r.page_number}  {r.id:28} {label:16} {head}")
            return 0
        if args.command == "entity":
            _print_json(get_entity(kb, args.entity_type, args.number))
            return 0
        if args.command == "expand":
            _print_json(expand_documents(kb, ExpandGraphRequest(document_ids=args.ids,
                                                                traverse_types=args.relations)))
            return 0
    except ConfigError as exc:
        print(f"bookrag: error: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"bookrag: {exc.detail}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
