"""The knowledge file (knowledge.sqlite): its schema and version, its rows, writing it and opening it.

The one owner of the file's shape, for the builder that writes it and the service that reads it:
the tables (SCHEMA) and SCHEMA_VERSION, the row types (Chunk, Section) with the columns they map
to by name, the writer (write_file, then verify_file on the new file), and the reader's side
(open_readonly with the SQLite extensions, read_meta, the open-time checks).  What goes into the
rows (chunking, full-text weighting, embeddings) is the builder's; how they are ranked is the
core's.  Imports nothing of the project: rag_core.py and build_db.py both import it.
"""

from __future__ import annotations

import json
import os
from dataclasses import astuple, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

# --------------------------------------------------------------------------- schema
"""Schema: the tables, and the version the service checks before it reads anything."""

# Bump when the tables change shape; the service refuses other versions.
SCHEMA_VERSION = "3"  # 3 added the search-tag tables `tags` and `chunk_tags`

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sections (
    id TEXT PRIMARY KEY, level INTEGER NOT NULL, number TEXT NOT NULL, title TEXT NOT NULL,
    parent_id TEXT, page_start INTEGER, page_end INTEGER, pdf_page_start INTEGER,
    content TEXT NOT NULL, ord INTEGER NOT NULL);
CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, number TEXT,
    title TEXT, content TEXT NOT NULL, context TEXT,
    part TEXT, part_title TEXT, chapter TEXT, chapter_title TEXT, section TEXT, section_title TEXT,
    subsection TEXT, subsection_title TEXT, subsubsection TEXT, subsubsection_title TEXT,
    page INTEGER, page_label TEXT, pdf_page INTEGER, ord INTEGER NOT NULL, source TEXT, extra TEXT);
CREATE UNIQUE INDEX chunks_kind_number ON chunks(kind, number) WHERE number IS NOT NULL;
CREATE INDEX chunks_ord ON chunks(ord);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, content, content='chunks', content_rowid='rowid', tokenize='porter unicode61');
CREATE TABLE edges (src TEXT NOT NULL, dst TEXT NOT NULL, rel TEXT NOT NULL,
    PRIMARY KEY (src, dst, rel)) WITHOUT ROWID;
CREATE INDEX edges_dst ON edges(dst, rel);
CREATE TABLE unresolved_refs (src TEXT NOT NULL, kind TEXT NOT NULL, number TEXT NOT NULL, text TEXT);
CREATE TABLE vocab (term TEXT PRIMARY KEY, freq INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE tags (name TEXT NOT NULL, type TEXT NOT NULL, category TEXT, description TEXT NOT NULL,
    ord INTEGER NOT NULL, PRIMARY KEY (type, name)) WITHOUT ROWID;
CREATE TABLE chunk_tags (chunk_id TEXT NOT NULL, type TEXT NOT NULL, tag TEXT NOT NULL, cosine REAL NOT NULL,
    how TEXT NOT NULL, PRIMARY KEY (chunk_id, type, tag)) WITHOUT ROWID;
CREATE INDEX chunk_tags_tag ON chunk_tags(tag, type);
CREATE VIEW entities AS
    SELECT id, kind, number, title, page, pdf_page, chapter, section, content FROM chunks WHERE kind != 'text';
CREATE VIEW "references" AS
    SELECT e.src, s.kind AS src_kind, e.dst, d.kind AS dst_kind, d.number AS dst_number
    FROM edges e LEFT JOIN chunks s ON s.id = e.src LEFT JOIN chunks d ON d.id = e.dst
    WHERE e.rel = 'REFERENCES';
"""

# The vector table's metadata columns: filters apply inside the KNN (vec0 takes no NULL there, so
# '' and -1 stand for "none", never a filter value).
VECTOR_FILTERS = ("kind", "part", "chapter", "section", "subsection", "subsubsection", "page")


def vector_table_sql(dim: int) -> str:
    return (f"CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[{dim}] distance_metric=cosine, "
            "kind text, part text, chapter text, section text, subsection text, subsubsection text, page integer)")


class KnowledgeFileError(Exception):
    """A knowledge file that cannot be read or written as this version expects; one actionable line."""


# --------------------------------------------------------------------------- rows
"""Rows: a chunk and a section, as the builder makes them and the service reads them back."""


@dataclass
class Chunk:
    """One retrievable unit of the book, text or a numbered entity: a row of the chunks table."""

    id: str
    kind: str
    content: str
    page: int | None = None         # the printed page number (None where it is not arabic or not known)
    pdf_page: int | None = None     # 1-based index in the PDF (None for docs trees)
    number: str | None = None
    page_label: str | None = None   # the page number as printed: "17", "xii"
    title: str | None = None
    context: str | None = None      # the words that introduce an entity (a formula's lead-in)
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
    rowid: int = 0                  # the row in the file (0 until written; -1 for a section read as a chunk)


@dataclass
class Section:
    """A part, chapter, section, subsection or subsubsection: a row of the sections table."""

    id: str
    level: int               # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection
    number: str
    title: str
    parent_id: str | None
    page_start: int | None
    pdf_page_start: int | None
    page_end: int | None = 0
    content: str = ""
    ord: int = 0


# Every field of a row is the column of its name.  CHUNK_FIELDS are the chunk columns besides rowid
# and extra (the JSON of Chunk.extra), in the order the builder's content hash reads them.
CHUNK_FIELDS = ("id", "kind", "number", "title", "content", "context", "part", "part_title", "chapter",
                "chapter_title", "section", "section_title", "subsection", "subsection_title", "subsubsection",
                "subsubsection_title", "page", "page_label", "pdf_page", "ord", "source")
CHUNK_COLUMN_NAMES = tuple(f.name for f in fields(Chunk))
SECTION_COLUMN_NAMES = tuple(f.name for f in fields(Section))
assert set(CHUNK_COLUMN_NAMES) == {*CHUNK_FIELDS, "extra", "rowid"}


def chunk_columns(table: str = "") -> str:
    """The SELECT list that chunk_from_row reads: every Chunk field by its column name (table: 'b.' in a join)."""
    return ", ".join(table + name for name in CHUNK_COLUMN_NAMES)


CHUNK_COLUMNS = chunk_columns()
SECTION_COLUMNS = ", ".join(SECTION_COLUMN_NAMES)


def chunk_from_row(row: Sequence[Any]) -> Chunk:
    """A row selected with CHUNK_COLUMNS as a Chunk (the SELECT names Chunk's fields in their order)."""
    chunk = Chunk(*row)
    chunk.extra = json.loads(chunk.extra) if chunk.extra else {}
    return chunk


def section_from_row(row: Sequence[Any]) -> Section:
    """A row selected with SECTION_COLUMNS as a Section."""
    return Section(*row)


# --------------------------------------------------------------------------- opening
"""Opening: a read-only connection with the extensions the file needs, and the checks made before use."""


@lru_cache(maxsize=None)
def sqlite_vec_path() -> str:
    """sqlite-vec's loadable extension, found without importing the package (it imports sqlite3 and numpy)."""
    from importlib.util import find_spec

    return os.path.join(os.path.dirname(find_spec("sqlite_vec").origin), "vec0")


def load_spellfix(db) -> bool:
    """Load SQLite's spellfix1 extension (shipped in apsw's wheels); False when unavailable."""
    try:
        import apsw.sqlite_extra

        apsw.sqlite_extra.load(db, "spellfix")
        return True
    except Exception:
        return False


def connect(target: str, flags: int | None = None, spellfix: bool = False):
    """An apsw connection to target (a path or a file: URI) with sqlite-vec (and spellfix1) loaded."""
    import apsw

    db = apsw.Connection(target, flags=flags) if flags is not None else apsw.Connection(target)
    db.enable_load_extension(True)
    db.load_extension(sqlite_vec_path())
    db.enable_load_extension(False)
    if spellfix:
        load_spellfix(db)
    return db


def readonly_uri(path: Path | str, immutable: bool = True) -> str:
    """The URI that opens the file read-only; immutable: SQLite may skip locking (nothing writes it)."""
    return f"file:{Path(path).resolve()}?mode=ro" + ("&immutable=1" if immutable else "")


def open_readonly(uri: str, spellfix: bool = True):
    """A read-only connection to a knowledge file's URI (readonly_uri)."""
    import apsw

    return connect(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI, spellfix=spellfix)


def read_meta(db) -> dict[str, str]:
    """The meta table: schema version, title, source, model, hashes, the build report (JSON)."""
    return dict(db.execute("SELECT key, value FROM meta").fetchall())


def meta_of(path: Path | str) -> dict[str, str] | None:
    """An existing file's meta table, or None when it is not a knowledge file (or not readable)."""
    import apsw

    try:
        db = open_readonly(readonly_uri(path, immutable=False), spellfix=False)
        try:
            return read_meta(db)
        finally:
            db.close()
    except apsw.Error:
        return None


def check_version(meta: dict[str, str], path: Path | str) -> None:
    """The open-time check of shape: a file of another schema version is refused with what to do."""
    version = meta.get("schema_version")
    if version != SCHEMA_VERSION:
        raise KnowledgeFileError(f"{path} has schema version {version!r}, this service reads {SCHEMA_VERSION!r}:"
                                 " rebuild it with build_db.py")


def check_model(meta: dict[str, str], path: Path | str, name: str, sha256: str, dim: int) -> None:
    """The open-time check of vectors: the file was embedded with this model (same bytes, same size)."""
    if meta.get("model_sha256") != sha256 or int(meta.get("dim", 0)) != dim:
        raise KnowledgeFileError(
            f"{path} was embedded with model {meta.get('model_name')} "
            f"(sha256 {str(meta.get('model_sha256'))[:12]}…, dim {meta.get('dim')}), "
            f"but models/ holds {name} (sha256 {sha256[:12]}…, dim {dim}): rebuild the knowledge file or restore the model")


# --------------------------------------------------------------------------- writing
"""Writing: every table of a new file from the builder's rows, then a check that it answers."""


@dataclass
class Contents:
    """Everything a knowledge file holds, as the builder hands it over (one entry per chunk, in order,
    in fts and vectors; chunk_tags too when given)."""

    chunks: list[Chunk]
    fts: list[tuple[str, str]]              # each chunk's full-text title and body
    vectors: Any                            # numpy float32 array, one row per chunk
    sections: list[Section]
    edges: Iterable[tuple[str, str, str]]
    unresolved: list[dict]                  # {src, kind, number, text}: references to nothing the book defines
    vocab: dict[str, int]                   # the book's words and their frequencies (typo suggestions)
    meta: dict[str, Any]
    tags: list = field(default_factory=list)        # objects with name, type, category, description
    chunk_tags: list | None = None          # per chunk: [(name, type, cosine, how)]


def write_file(path: Path, contents: Contents) -> None:
    """Write a new knowledge file at path (a temporary name: the builder renames it once verified)."""
    db = connect(str(path))
    chunk_insert = (f"INSERT INTO chunks(rowid, {', '.join(CHUNK_FIELDS)}, extra) "
                    f"VALUES (?, {', '.join('?' * len(CHUNK_FIELDS))}, ?)")
    vector_insert = (f"INSERT INTO chunks_vec(rowid, embedding, {', '.join(VECTOR_FILTERS)}) "
                     f"VALUES (?, ?, {', '.join('?' * len(VECTOR_FILTERS))})")
    with db:
        db.execute(SCHEMA)
        db.execute(vector_table_sql(contents.vectors.shape[1]))
        for rowid, (c, (fts_title, fts_body)) in enumerate(zip(contents.chunks, contents.fts), start=1):
            db.execute(chunk_insert, (rowid, *[getattr(c, f) for f in CHUNK_FIELDS],
                                      json.dumps(c.extra) if c.extra else None))
            db.execute("INSERT INTO chunks_fts(rowid, title, content) VALUES (?, ?, ?)", (rowid, fts_title, fts_body))
            db.execute(vector_insert, (rowid, contents.vectors[rowid - 1].tobytes(),
                                       *[getattr(c, f) or "" for f in VECTOR_FILTERS[:-1]],
                                       c.page if c.page is not None else -1))
        section_insert = (f"INSERT INTO sections({SECTION_COLUMNS}) "
                          f"VALUES ({', '.join('?' * len(SECTION_COLUMN_NAMES))})")
        db.executemany(section_insert, [astuple(s) for s in contents.sections])
        db.executemany("INSERT INTO edges(src, dst, rel) VALUES (?, ?, ?)", sorted(contents.edges))
        db.executemany("INSERT INTO unresolved_refs(src, kind, number, text) VALUES (?, ?, ?, ?)",
                       [(u["src"], u["kind"], u["number"], u["text"]) for u in contents.unresolved])
        db.executemany("INSERT INTO vocab(term, freq) VALUES (?, ?)", sorted(contents.vocab.items()))
        if load_spellfix(db):
            # spellfix1 index over the same words: typo suggestions at query time ("POMP" -> "POMDP").
            db.execute("CREATE VIRTUAL TABLE vocab_fix USING spellfix1")
            db.executemany("INSERT INTO vocab_fix(word, rank) VALUES (?, ?)", sorted(contents.vocab.items()))
        db.executemany("INSERT INTO tags(name, type, category, description, ord) VALUES (?, ?, ?, ?, ?)",
                       [(t.name, t.type, t.category, t.description, i) for i, t in enumerate(contents.tags)])
        db.executemany("INSERT INTO chunk_tags(chunk_id, type, tag, cosine, how) VALUES (?, ?, ?, ?, ?)",
                       [(c.id, tag_type, name, cosine, how)
                        for c, assigned in zip(contents.chunks, contents.chunk_tags or [])
                        for name, tag_type, cosine, how in assigned])
        db.executemany("INSERT INTO meta(key, value) VALUES (?, ?)",
                       sorted((k, str(v)) for k, v in contents.meta.items()))
        db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
    db.execute("VACUUM")
    db.close()


def verify_file(path: Path, expected_chunks: int) -> None:
    """Open a new file as the service will and check that it answers; KnowledgeFileError if not."""
    db = open_readonly(readonly_uri(path, immutable=False), spellfix=False)
    try:
        if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise KnowledgeFileError("the new knowledge file failed its integrity check")
        n = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        nv = db.execute("SELECT count(*) FROM chunks_vec").fetchone()[0]
        if n != expected_chunks or nv != expected_chunks:
            raise KnowledgeFileError(f"the new knowledge file holds {n} chunks and {nv} vectors, "
                                     f"expected {expected_chunks}")
        vec = db.execute("SELECT embedding FROM chunks_vec WHERE rowid = 1").fetchone()[0]
        hit = db.execute("SELECT rowid FROM chunks_vec WHERE embedding MATCH ? AND k = 1", (vec,)).fetchone()
        if not hit:
            raise KnowledgeFileError("the new knowledge file does not answer a nearest-neighbour query")
    finally:
        db.close()
