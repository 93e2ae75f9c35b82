"""build_db.py: turn a textbook PDF into knowledge.sqlite, the file rag.py serves.

    python build_db.py book.pdf                      # writes ./book.sqlite
    python build_db.py book.pdf --output knowledge.sqlite

Stages: read (PDF pages with layout) -> structure (running heads dropped, margin column,
headings) -> entities and chunks, in build_pdf.py (a folder of Markdown lessons: build_markdown.py;
the rows both make: rag_store.py); then, each a function below: references (the edge graph)
-> embed (batched) -> related -> tags (build_tags.py) -> write a temporary file -> verify -> atomic
rename.  An interrupted or
failed build never touches the existing output file.  Imports the one embedder and the id
rules from rag_core.py, and the knowledge file's schema, rows and writer from rag_store.py; the
PDF library is only needed by the builder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Iterable

from build_common import MAX_CHUNK_TOKENS, BuildError, Chunk, Section, number_ranges, numbering_gaps
from build_formula import plain_reading
from build_markdown import markdown_structure, parse_front_matter
from build_pdf import Reading, read_book
from build_tags import TagsError, Vocabulary, assign_tags, load_vocabulary, read_tables_file, read_tags_file
from rag_core import (DEFAULT_MODEL_DIR, ConfigError, Embedder, identifier_index_terms, normalize_kind, normalize_number,
                      usable_cpus)
from rag_text import (APPENDIX_MENTION_RE, CHAPTER_MENTION_RE, CALL_RE, DEF_RE, EQUATION_MENTION_RE,
                      MENTIONED_NUMBER_RE, PART_MENTION_RE, SECTION_MENTION_RE, mention_pattern)
from rag_store import CHUNK_FIELDS, SCHEMA_VERSION, Contents, KnowledgeFileError, meta_of, verify_file, write_file

BUILDER_VERSION = "0.1.0"
# One text per model run: int8 activation scales depend on the batch, and queries run alone.
RELATED_PER_ENTITY = 3


# --------------------------------------------------------------------------- references
"""References: the edge graph (REFERENCES/REFERENCED_BY, USES_IN, CITES, PART_OF, FOLLOWS, RELATED_TO),
from mentions written as rag_text.py describes."""

def find_edges(chunks: list[Chunk], sections: list[Section]) -> tuple[set[tuple[str, str, str]], list[dict]]:
    """Edges (src, dst, rel) and the references that point at nothing in the book."""
    edges: set[tuple[str, str, str]] = set()
    unresolved: list[dict] = []
    entity_ids = {(c.kind, c.number): c.id for c in chunks if c.kind != "text"}
    kinds = sorted({c.kind for c in chunks if c.kind != "text"})
    # "Exercise 3" where the book restarts its numbering per chapter: the one in the same chapter.
    printed_ids = {(c.kind, c.chapter, c.extra["printed_number"]): c.id for c in chunks
                   if c.kind != "text" and c.extra.get("printed_number")}
    # …and "Exercise 4.5.39": the 39th of the list in section 4.5.
    for c in chunks:
        if c.kind != "text" and c.extra.get("printed_number"):
            for place in (c.section, c.subsection):
                if place:
                    printed_ids.setdefault((c.kind, place, c.extra["printed_number"]), c.id)
    mentions = mention_pattern(kinds)
    # Kinds the book numbers through the whole book ("Algorithm 9"): an undotted mention of
    # such a kind that matches nothing is worth reporting; for other kinds it is just a word.
    undotted = {c.kind for c in chunks if c.kind != "text" and c.number and "." not in c.number}
    section_ids = {(s.level, s.number): s.id for s in sections}
    section_numbers = {s.number: s.id for s in sections if s.level >= 2}

    def ref(src: Chunk, dst: str, rel: str = "REFERENCES") -> None:
        if dst != src.id:
            edges.add((src.id, dst, rel))
            if rel == "REFERENCES":
                edges.add((dst, src.id, "REFERENCED_BY"))

    ids = {c.id for c in chunks}
    for c in chunks:
        if c.extra.get("proof_of") in ids:
            ref(c, c.extra["proof_of"])   # a proof (or solution) is about the statement it follows
        if c.extra.get("note_of") in ids:
            ref(c, c.extra["note_of"])    # a margin note beside a statement is about it
        text = f"{c.title or ''} {c.content} {c.context or ''}"
        for m in mentions.finditer(text):
            kind = normalize_kind(m.group("word").rstrip("."), kinds)
            if kind is None:
                continue
            listed = MENTIONED_NUMBER_RE.findall(m.group("nums"))
            for raw in listed:
                # "Table 2.1 and (2.3)": a number in parentheses after one without them is an equation's
                # (read below), not one more of the word's kind
                if raw.startswith("(") and not listed[0].startswith("(") and kind != "formula":
                    continue
                number = normalize_number(raw)
                target = entity_ids.get((kind, number)) or printed_ids.get((kind, c.chapter, number)) or (
                    printed_ids.get((kind, *number.rsplit(".", 1))) if number and "." in number else None)
                if target:
                    ref(c, target)
                elif number and (kind, number) != (c.kind, c.number) and ("." in number or kind in undotted):
                    unresolved.append({"src": c.id, "kind": kind, "number": number, "text": m.group(0)[:80]})
        for number in EQUATION_MENTION_RE.findall(text):
            target = entity_ids.get(("formula", normalize_number(number)))
            if target:
                ref(c, target)
        for number in SECTION_MENTION_RE.findall(text):
            target = section_numbers.get(number)
            if target:
                ref(c, target, "CITES")
            else:
                unresolved.append({"src": c.id, "kind": "section", "number": number, "text": f"Section {number}"})
        for number in CHAPTER_MENTION_RE.findall(text) + APPENDIX_MENTION_RE.findall(text):
            target = section_ids.get((1, number))
            if target:
                ref(c, target, "CITES")
        for number in PART_MENTION_RE.findall(text):
            target = section_ids.get((0, number))
            if target:
                ref(c, target, "CITES")

    # USES_IN: formulas an algorithm mentions, and functions an algorithm calls that another defines.
    defined: dict[str, str] = {}
    for c in chunks:
        if c.kind == "algorithm":
            for name in DEF_RE.findall(c.content):
                defined.setdefault(name, c.id)
    for c in chunks:
        if c.kind in ("algorithm", "example"):
            own = set(DEF_RE.findall(c.content))
            for name in set(CALL_RE.findall(c.content)) - own:
                source = defined.get(name)
                if source and source != c.id:
                    edges.add((source, c.id, "USES_IN"))
    for src, dst, rel in list(edges):
        if rel == "REFERENCES" and src.startswith("algorithm_") and dst.startswith("formula_"):
            edges.add((dst, src, "USES_IN"))

    # PART_OF: chunk -> deepest section; section -> parent.
    for c in chunks:
        if c.page is None and (2, f"{c.chapter}/{c.section}") in section_ids:   # a docs-tree lesson
            edges.add((c.id, section_ids[(2, f"{c.chapter}/{c.section}")], "PART_OF"))
            continue
        for level, key in ((4, "subsubsection"), (3, "subsection"), (2, "section"), (1, "chapter"), (0, "part")):
            number = getattr(c, key)
            if number and (level, number) in section_ids:
                edges.add((c.id, section_ids[(level, number)], "PART_OF"))
                break
    for s in sections:
        if s.parent_id:
            edges.add((s.id, s.parent_id, "PART_OF"))

    # FOLLOWS: reading order.
    for prev, cur in zip(chunks, chunks[1:]):
        edges.add((cur.id, prev.id, "FOLLOWS"))
    return edges, unresolved


def related_edges(chunks: list[Chunk], vectors) -> set[tuple[str, str, str]]:
    """RELATED_TO: each entity's nearest other entities by embedding (both directions)."""
    import numpy as np

    idx = [i for i, c in enumerate(chunks) if c.kind != "text"]
    if len(idx) < 2:
        return set()
    mat = vectors[idx]
    sims = mat @ mat.T
    np.fill_diagonal(sims, -1.0)
    edges = set()
    for row, i in enumerate(idx):
        for col in np.argsort(-sims[row], kind="stable")[:RELATED_PER_ENTITY]:
            if sims[row, col] >= 0.5:
                a, b = chunks[i].id, chunks[idx[col]].id
                edges.add((a, b, "RELATED_TO"))
                edges.add((b, a, "RELATED_TO"))
    return edges


# --------------------------------------------------------------------------- embed
"""Embed: every chunk as the text a reader would search for, in fixed batches."""


def heading_of(c: Chunk) -> str:
    """The most specific heading a chunk sits under, with a text chunk's own run-in head."""
    heading = c.subsubsection_title or c.subsection_title or c.section_title or c.chapter_title or ""
    sub = c.extra.get("heading")
    if sub and sub != heading:
        heading = f"{heading}. {sub}" if heading else sub
    return heading


_SENTENCE_END_RE = re.compile(r"(?<=[.!?:])\s+(?=[^a-z])")


def lead_ins(chunks: list[Chunk]) -> dict[str, str]:
    """Each entity's introducing sentence: the last sentence of the text just before it in reading
    order, in its section, when that sentence introduces what follows ("The Bellman operator in
    vector notation is:", "The following theorem …").  A reader asks for a formula or theorem by
    what this sentence says of it, so it is indexed (and, for a terse entity, embedded) with it."""
    out: dict[str, str] = {}
    for previous, c in zip(chunks, chunks[1:]):
        if c.kind == "text" or previous.kind != "text" or (previous.section, previous.chapter) != (c.section, c.chapter):
            continue
        sentences = [s for s in _SENTENCE_END_RE.split((previous.extra.get("text") or previous.content).strip()) if s.strip()]
        sentence = sentences[-1].strip() if sentences else ""
        if len(sentence) > LEAD_IN_CHARS:
            sentence = sentence[-LEAD_IN_CHARS:].split(" ", 1)[-1]
        if len(re.findall(r"[^\W\d_]{2,}", sentence)) >= 3 and _INTRODUCES_RE.search(sentence):
            out[c.id] = sentence
    return out


# A sentence that points forward: it ends in a colon or an open clause ("is", "by", "="), or speaks
# of what follows ("the following", "below", "as follows").
_INTRODUCES_RE = re.compile(r"(?:[:=]|\b(?:is|are|by|as|of|to|that|where|gives?|reads?))\s*$|\bfollow(?:ing|s)\b|\bbelow\b",
                            re.IGNORECASE)


LEAD_IN_CHARS = 300


def embedding_text(c: Chunk, lead_in: str = "") -> str:
    heading = heading_of(c)
    if c.kind == "text":
        # its maths read out plainly ("P(x|y) = (P(y|x)P(x))/(P(y))"): the model reads words and
        # signs, and LaTeX markup only blurs them
        body = readable(c.content)
        return f"{heading}. {body}" if heading else body
    label = f"{c.kind.capitalize()} {c.number}"
    # a formula's content is LaTeX: it is embedded as its plain text; a statement holding code or
    # data rows, as its words
    words = c.extra.get("words") or c.extra.get("text") or c.content
    if len(re.findall(r"[^\W\d_]{3,}", f"{c.title or ''} {words}")) >= SAYS_ENOUGH_WORDS:
        # A statement in words (a theorem, a captioned table) is embedded as it reads: a lead-in about
        # something else would only blur it.  FTS indexes the lead-in either way.
        context = c.context if c.kind == "formula" else None
        return " ".join(p for p in (f"{label}.", c.title, context, words) if p).strip()
    # A formula or a terse item says little in words: its heading and introducing sentence say what it is.
    name = ". ".join(p for p in (c.title, heading if heading != c.title else None) if p)
    intro = " ".join(p for p in (lead_in, c.context if c.context and c.context not in lead_in else None) if p)
    return " ".join(p for p in (f"{label}.", f"{name}." if name else "", intro, words) if p).strip()


def readable(content: str) -> str:
    """Text with each `$…$` and `$$…$$` of LaTeX replaced by its plain reading (one pass over the text)."""
    if "$" not in content:
        return content
    out = []
    for i, piece in enumerate(content.split("$$")):
        if i % 2:
            out.append(plain_reading(piece))
            continue
        for j, part in enumerate(piece.split("$")):
            out.append(plain_reading(part) if j % 2 else part)
    return "".join(out)


SAYS_ENOUGH_WORDS = 6    # an entity whose own text has this many words (3+ letters) is embedded as it reads


OPENING_WORDS = 8   # a text chunk shorter than this never carries its section's heading in FTS


def fts_text(c: Chunk, lead_in: str = "", opens_section: bool = False) -> tuple[str, str]:
    """The (title, content) a chunk is indexed under in FTS5: its label and name, or for the text
    chunk that opens a section the heading printed above it; its text, its introducing sentence, and
    its identifiers spelt whole and in parts (identifier_index_terms)."""
    # Only the opening chunk carries its heading: on every chunk of a section it would lift them
    # all alike, and the short ones most.
    if c.kind == "text":
        title = heading_of(c) if opens_section else ""
    else:
        title = " ".join(p for p in (c.kind, c.number, c.title) if p)
    # a formula's or a passage's plain text (its content carries LaTeX) is searchable too
    body = "\n".join(p for p in (c.content, c.extra.get("text"), c.extra.get("drawn"), c.context, lead_in) if p)
    extra = identifier_index_terms(body)
    return title, f"{body}\n{extra}" if extra else body


def read_in_child(source: Path, model_dir: Path) -> Reading:
    """Read and structure the PDF in a process of its own, which hands back the chunks and exits.

    A 700-page book's pages take some 200 MB as Python objects, and a process does not give that
    back to the system when it drops them; read elsewhere, they are gone before the embedding
    processes start, which keeps the build's peak memory to about the larger of the two phases."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_read_book, str(source), str(model_dir), build_workers()).result()


READ_HERE_PAGES = 60   # a PDF of at most this many pages is read in the build's own process


def pdf_page_count(source: Path) -> int:
    """The PDF's number of pages (0 when it cannot be opened: the reader then says why)."""
    from build_glyphs import _open

    try:
        document = _open(source)
    except BuildError:
        return 0
    try:
        return len(document)
    finally:
        document.close()


def _read_book(source: str, model_dir: str, workers: int, count_tokens=None) -> Reading:
    """read_book with the model's token counter (`count_tokens`, else the tokenizer loaded here once
    the pages are read)."""
    return read_book(Path(source), count_tokens or TokenCounter(model_dir), workers)


class TokenCounter:
    """The model's token count of a text, the tokenizer loaded on the first count.  The reading
    processes are forked from the process that reads the book, and a fork's resident pages count
    for it too: the tokenizer (some 16 MB) loaded only when the structure stage counts its first
    chunk is not carried by them."""

    def __init__(self, model_dir: str):
        self.model_dir = model_dir
        self._embedder: Embedder | None = None

    def __call__(self, text: str) -> int:
        if self._embedder is None:
            self._embedder = Embedder(self.model_dir, session=False)
        return self._embedder.count_tokens(text)


def build_workers() -> int:
    """Processes the builder reads and embeds with: the CPUs it may use (BUILD_DB_WORKERS overrides)."""
    raw = os.environ.get("BUILD_DB_WORKERS", "").strip()
    return max(1, int(raw)) if raw.isdigit() else max(1, min(usable_cpus(), 8))


class VectorCache:
    """A folder of vectors this machine's model made, one file per embedded text, so that a rebuild
    embeds only the texts that changed (BOOKRAG_VECTOR_CACHE or --vector-cache names the folder).
    A vector depends on the text alone (each text goes through the model by itself), on the model's
    bytes and on the CPU's int8 kernels: the key holds all three, so a folder shared by machines of
    different CPUs, or kept across a model change, never hands back another machine's vector.  Files
    are written whole under a temporary name and renamed, so builds running side by side can share
    the folder; a file of the wrong size is not a vector and is embedded again."""

    def __init__(self, folder: Path, embedder: Embedder):
        import platform

        self.folder = Path(folder)
        self.dim = embedder.dim
        try:
            import onnxruntime
            runtime = onnxruntime.__version__
        except ImportError:
            runtime = ""
        self._salt = "\0".join((embedder.sha256 or "", str(embedder.max_tokens), runtime, platform.machine(),
                                 cpu_vector_features())).encode()
        self.hits = self.embedded = 0          # texts found here; texts the model had to embed

    def _path(self, text: str) -> Path:
        digest = hashlib.sha256(self._salt + b"\0" + text.encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / digest[:2] / digest[2:]

    def get(self, text: str):
        """The cached vector of text (float32 array), else None."""
        import numpy as np

        try:
            raw = self._path(text).read_bytes()
        except OSError:
            return None
        if len(raw) != 4 * self.dim:
            return None
        self.hits += 1
        return np.frombuffer(raw, dtype=np.float32)

    def put(self, text: str, vector) -> None:
        """Keep text's vector; a folder that cannot be written costs the cache, never the build."""
        path = self._path(text)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(vector.astype("float32").tobytes())
            os.replace(tmp, path)
        except OSError:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:         # (the folder itself is what failed)
                pass


def cpu_vector_features() -> str:
    """The CPU's vector instruction sets the int8 kernels choose by (Linux's /proc/cpuinfo; empty
    elsewhere): the part of a vector's key that tells machines apart."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return " ".join(sorted(f for f in flags if f.startswith(("avx", "amx", "sse4", "fma"))))
    except OSError:
        pass
    return ""


def vector_cache_dir(option: Path | None = None) -> Path | None:
    """The vector cache folder: the --vector-cache option, else BOOKRAG_VECTOR_CACHE, else none."""
    raw = str(option) if option is not None else os.environ.get("BOOKRAG_VECTOR_CACHE", "").strip()
    return Path(raw).expanduser() if raw else None


def embed_chunks(chunks: list[Chunk], model_dir: Path, workers: int = 1, progress: bool = True,
                 leads: dict[str, str] | None = None, cache: VectorCache | None = None,
                 embedder: Embedder | None = None):
    """Every chunk's vector, each text alone through the model (so a text's vector never depends on
    its neighbours), spread over processes with one model and one thread each, this one among them
    (with `embedder`, whose model the tags stage then uses): the int8 model gains little from a
    second thread on its small inputs, but two processes embed twice as fast.  Texts the cache holds
    are taken from it; the rest are embedded and added to it."""
    import numpy as np

    texts = [embedding_text(c, (leads or {}).get(c.id, "")) for c in chunks]
    if cache is None:
        return _embed_texts(texts, model_dir, workers, progress, embedder)
    vectors: list = [cache.get(t) for t in texts]
    missing = sorted({t for t, v in zip(texts, vectors) if v is None})
    if progress and texts:
        print(f"  vector cache {cache.folder}: {len(texts) - sum(v is None for v in vectors)} of {len(texts)} "
              "chunks found", file=sys.stderr)
    fresh = dict(zip(missing, _embed_texts(missing, model_dir, workers, progress, embedder))) if missing else {}
    cache.embedded += len(fresh)
    for text, vector in fresh.items():
        cache.put(text, vector)
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    return np.vstack([v if v is not None else fresh[t] for t, v in zip(texts, vectors)]).astype(np.float32)


def _embed_texts(texts: list[str], model_dir: Path, workers: int, progress: bool, embedder: Embedder | None = None):
    """The model's vector of each text, one text per model run, over `workers` processes, this one
    with `embedder` (one thread; else one made here) among them."""
    import numpy as np

    total = len(texts)
    out = np.zeros((total, 0), dtype=np.float32)
    start = time.perf_counter()
    done = 0

    def report() -> None:
        if progress and (sys.stderr.isatty() or done == total or done % max(1, total // 10) < EMBED_SLICE):
            bar = "#" * int(30 * done / max(total, 1))
            rate = done / max(time.perf_counter() - start, 1e-9)
            end = "" if sys.stderr.isatty() and done < total else "\n"
            print(f"\r  embedding [{bar:<30}] {done}/{total} chunks ({rate:.0f}/s)", end=end, file=sys.stderr)

    slices = [texts[i:i + EMBED_SLICE] for i in range(0, total, EMBED_SLICE)]
    here = embedder or Embedder(model_dir, threads=1)
    parts = []
    if workers <= 1 or len(slices) < 2:
        for piece in slices:
            parts.append(_embed_each(here, piece))
            done += len(piece)
            report()
    else:
        import multiprocessing

        # Fresh processes (not forks): each loads its own model session and holds none of the pages.
        # This process embeds every `workers`-th slice itself, with the session the tags stage uses
        # after it, while workers - 1 others embed the rest: one process and one session fewer.
        with multiprocessing.get_context("spawn").Pool(workers - 1, _embed_worker_start, (str(model_dir),)) as pool:
            there = pool.imap(_embed_slice, [piece for k, piece in enumerate(slices) if k % workers])
            for k, piece in enumerate(slices):
                part = _embed_each(here, piece) if k % workers == 0 else next(there)
                parts.append(part)
                done += len(part)
                report()
    return np.vstack(parts) if parts else out


EMBED_SLICE = 32            # texts a worker embeds per task (one model run each)
_worker_embedder: Embedder | None = None


def _embed_worker_start(model_dir: str) -> None:
    global _worker_embedder
    _worker_embedder = Embedder(model_dir, threads=1)


def _embed_slice(texts: list[str]):
    return _embed_each(_worker_embedder, texts)


def _embed_each(embedder: Embedder, texts: list[str]):
    """Each text's vector, one text per model run (a text's vector never depends on its neighbours)."""
    import numpy as np

    return np.vstack([embedder.embed([t]) for t in texts])


# --------------------------------------------------------------------------- write
"""Write: the hashes, the full-text rows, the rows handed to rag_store.write_file, verification."""

# Edges derived from the vectors: they vary with the CPU's int8 kernels, as the vectors do.
NUMERIC_RELATIONS = ("RELATED_TO",)


def content_hash(chunks: list[Chunk], sections: list[Section], edges: Iterable[tuple[str, str, str]]) -> str:
    """A hash of what is exact on every machine: chunks' text, ids, entities, pages, sections, and the
    edges read from the text.  Vectors and the edges computed from them are left out: onnxruntime's
    int8 kernels differ by instruction set (AVX2, AVX-512 VNNI, arm64), so they differ in the last digits."""
    h = hashlib.sha256()
    for c in chunks:
        h.update(json.dumps([getattr(c, f) for f in CHUNK_FIELDS] + [c.extra.get("text")], ensure_ascii=False).encode())
    for s in sections:
        h.update(json.dumps([s.id, s.level, s.number, s.title, s.parent_id, s.page_start, s.page_end]).encode())
    for e in sorted(e for e in edges if e[2] not in NUMERIC_RELATIONS):
        h.update("|".join(e).encode())
    return h.hexdigest()


def vectors_hash(vectors, edges: Iterable[tuple[str, str, str]]) -> str:
    """A hash of the numeric part (vectors and the edges derived from them): equal only on the same kind of CPU."""
    h = hashlib.sha256(vectors.tobytes())
    for e in sorted(e for e in edges if e[2] in NUMERIC_RELATIONS):
        h.update("|".join(e).encode())
    return h.hexdigest()


def fts_rows(chunks: list[Chunk], leads: dict[str, str]) -> list[tuple[str, str]]:
    """Each chunk's full-text title and body, in order; a section's first text chunk of some substance
    carries the section's heading (a stub holding only a run-in head would take the heading's weight
    without the text it heads)."""
    opened: set = set()
    rows = []
    for c in chunks:
        place = (c.chapter, c.section, c.subsection, c.subsubsection, c.extra.get("heading"))
        opens = c.kind == "text" and place not in opened and len(c.content.split()) >= OPENING_WORDS
        if opens:
            opened.add(place)
        rows.append(fts_text(c, leads.get(c.id, ""), opens))
    return rows


def write_db(path: Path, chunks: list[Chunk], sections: list[Section], edges: set, unresolved: list[dict],
             vectors, meta: dict, leads: dict[str, str] | None = None, vocabulary: Vocabulary | None = None,
             chunk_tags: list | None = None) -> None:
    """The knowledge file's rows from the build (rag_store writes them)."""
    write_file(path, Contents(chunks=chunks, fts=fts_rows(chunks, leads or {}), vectors=vectors, sections=sections,
                              edges=edges, unresolved=unresolved, vocab=book_vocabulary(chunks), meta=meta,
                              tags=list(vocabulary.tags) if vocabulary is not None else [], chunk_tags=chunk_tags))


def book_vocabulary(chunks: list[Chunk]) -> dict[str, int]:
    """Lower-cased words of the book (letters only, 3+ characters) with their frequencies."""
    counts: Counter = Counter()
    for c in chunks:
        counts.update(w.lower() for w in VOCAB_WORD_RE.findall(f"{c.title or ''} {c.content}"))
    return dict(counts)


VOCAB_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def verify(path: Path, expected_chunks: int) -> None:
    """Open the new file as the service will and check it answers; raise BuildError if not."""
    try:
        verify_file(path, expected_chunks)
    except KnowledgeFileError as exc:
        raise BuildError(str(exc)) from None


# --------------------------------------------------------------------------- build
"""Build: the stages in order, with a report."""


def check_writable(output: Path) -> None:
    """Fail before any work when the output's folder cannot take the new file (read-only, missing)."""
    folder = output.resolve().parent
    if not folder.is_dir():
        raise BuildError(f"output folder does not exist: {folder}")
    probe = folder / f".{output.name}.tmp-{os.getpid()}"
    try:
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise BuildError(f"cannot write the new knowledge file in {folder}: {exc.strerror} "
                         "(choose a writable --output)") from None


def pdf_outline(source: Path) -> list[list]:
    """The PDF's bookmarks as [depth, title, pdf page] (an empty list when it has none or cannot be read)."""
    from build_glyphs import _open, read_outline

    try:
        document = _open(source)
    except BuildError:
        return []
    try:
        return [[entry.level, entry.title, entry.page] for entry in read_outline(document)]
    finally:
        document.close()


def remove_stale_temp_files(output: Path) -> None:
    """Delete temporary files that killed builds of this output left behind (their process is gone)."""
    for tmp in output.parent.glob(f".{output.name}.tmp-*"):
        pid = tmp.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _process_alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_tree(root: Path) -> str:
    """A hash over a docs tree's Markdown files and chapter metadata (paths and bytes)."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".md", ".mdx", ".json")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def source_title(source: Path) -> str:
    """The book's title: PDF metadata, or a docs tree's README heading, else the name."""
    if source.is_dir():
        for name in ("README.md", "readme.md", "index.md"):
            readme = source / name
            if readme.is_file():
                m = re.search(r"^#\s+(.+)$", parse_front_matter(readme.read_text(errors="replace"))[1], re.MULTILINE)
                if m:
                    return m.group(1).strip()
        return source.name
    return pdf_title(source)


def pdf_title(path: Path) -> str:
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
        try:
            title = (doc.get_metadata_dict() or {}).get("Title")
        finally:
            doc.close()
    except Exception:
        title = None
    return str(title).strip() if title else path.stem


def build(sources: list[Path], output: Path, model_dir: Path = DEFAULT_MODEL_DIR, progress: bool = True,
          stage_hook=None, base_url: str | None = None, title: str | None = None, strict: bool = False,
          tags: Path | None = None, tables: Path | None = None, vector_cache: Path | None = None) -> dict:
    """Build the knowledge file from sources; returns the build report.  Output replaced atomically.
    vector_cache: a folder of vectors from earlier builds (VectorCache; default BOOKRAG_VECTOR_CACHE)."""
    times: dict[str, float] = {}

    pause_at = os.environ.get("BUILD_DB_PAUSE_AT")

    def stage(name: str):
        if stage_hook:
            stage_hook(name)
        if progress:
            print(f"  stage {name}", file=sys.stderr, flush=True)
        if pause_at == name:
            # Fault-injection hook for tests: stop here long enough to be killed mid-build.
            print(f"  paused at stage {name} (BUILD_DB_PAUSE_AT)", file=sys.stderr, flush=True)
            time.sleep(60)
        times[name] = time.perf_counter()

    if len(sources) != 1:
        raise BuildError("give exactly one source: a PDF, or a folder of Markdown lessons")
    source = sources[0]
    if not source.exists():
        raise BuildError(f"source not found: {source}")
    check_writable(output)
    try:  # a bad tags or tables file fails now, before the long stages
        if tags is not None:
            read_tags_file(tags)
        if tables is not None:
            read_tables_file(tables)
    except TagsError as exc:
        raise BuildError(str(exc)) from None
    try:
        # The tokenizer counts tokens here; the embedding workers load the model.  A damaged model
        # still fails now, before any work: its bytes are checked against model.json.
        embedder = Embedder(model_dir, session=False)
        embedder.check_file()
    except ConfigError as exc:
        raise BuildError(str(exc)) from None

    t0 = time.perf_counter()
    stage("read")
    reading = None
    if source.is_dir():
        pages = 0
        stage("structure")
        chunks, sections = markdown_structure(source, embedder.count_tokens, base_url)
    else:
        # a short PDF's pages cost little memory: read here, without a process of its own to start
        reading = read_in_child(source, model_dir) if pdf_page_count(source) > READ_HERE_PAGES \
            else _read_book(str(source), str(model_dir), build_workers(), embedder.count_tokens)
        pages = reading.pages
        stage("structure")
        times["structure"] = times["read"] + reading.seconds["read"]
        chunks, sections = reading.chunks, reading.sections
    if not chunks:
        raise BuildError(f"{source} has no extractable text (a scanned PDF needs OCR first)")
    stage("references")
    edges, unresolved = find_edges(chunks, sections)
    checks = build_checks(chunks, reading, unresolved)
    if strict and any(c["gaps"] for c in checks["kinds"].values()):
        raise GapsFound(checks)
    stage("embed")
    leads = lead_ins(chunks)
    cache_dir = vector_cache_dir(vector_cache)
    cache = VectorCache(cache_dir, embedder) if cache_dir is not None else None
    vectors = embed_chunks(chunks, model_dir, workers=build_workers(), progress=progress, leads=leads, cache=cache,
                           embedder=embedder)
    stage("related")
    edges |= related_edges(chunks, vectors)
    stage("tags")
    try:
        vocabulary = load_vocabulary(tags, tables, sections)
    except TagsError as exc:
        raise BuildError(str(exc)) from None
    chunk_tags = tag_chunks(chunks, vectors, vocabulary, model_dir, cache, embedder)
    checks["tags"] = tags_report(vocabulary, chunk_tags)
    stage("write")
    meta = build_meta(source, title, embedder, pages, chunks, sections, edges, vectors, vocabulary, chunk_tags, checks)
    counts, digest, numeric, build_id = (Counter(c.kind for c in chunks), meta["content_hash"], meta["vectors_hash"],
                                         meta["build_hash"])
    if reading is not None:
        # The book's own outline and page labels, for the outline and reading routes (rag_outline.py):
        # bookmarks the structure stage could not place (unnumbered chapters) still belong in the outline.
        meta["pdf_outline"] = json.dumps(pdf_outline(source), ensure_ascii=False)
        meta["page_labels"] = json.dumps({str(k): v for k, v in sorted(reading.printed.labels.items()) if v})
    output.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(output)
    tmp = output.with_name(f".{output.name}.tmp-{os.getpid()}")
    try:
        write_db(tmp, chunks, sections, edges, unresolved, vectors, meta, leads, vocabulary, chunk_tags)
        stage("verify")
        verify(tmp, len(chunks))
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        stage("rename")
        os.replace(tmp, output)
    finally:
        if tmp.exists():
            tmp.unlink()
    end = time.perf_counter()
    names = list(times)
    seconds = {n: round((times[names[i + 1]] if i + 1 < len(names) else end) - times[n], 3)
               for i, n in enumerate(names)}
    return {
        "output": str(output), "source": source.name, "pages": pages,
        "lessons": len({c.source for c in chunks}) if source.is_dir() else 0, "chunks": len(chunks),
        "counts": dict(sorted(counts.items())), "sections": len(sections), "edges": len(edges),
        "unresolved": len(unresolved), "unresolved_examples": unresolved[:10], "checks": checks,
        "content_hash": digest,
        "vectors_hash": numeric, "build_hash": build_id,
        "seconds": seconds, "total_seconds": round(end - t0, 2),
        "pages_per_second": round(pages / max(end - t0, 1e-9), 2),
        "vector_cache": None if cache is None else {"folder": str(cache.folder), "found": cache.hits,
                                                    "embedded": cache.embedded},
    }


def build_meta(source: Path, title: str | None, embedder: Embedder, pages: int, chunks: list[Chunk],
               sections: list[Section], edges: set, vectors, vocabulary: Vocabulary, chunk_tags: list,
               checks: dict) -> dict:
    """The meta table of a new file: what it was built from and with, its counts, hashes and report."""
    counts = Counter(c.kind for c in chunks)
    digest = content_hash(chunks, sections, edges)
    numeric = vectors_hash(vectors, edges)
    # The file's identity for caches (ETags): it changes when any answer could, vectors included.
    tags_digest = hashlib.sha256(json.dumps([[t.name, t.type, t.category, t.description] for t in vocabulary.tags]
                                            + [[c.id, a] for c, a in zip(chunks, chunk_tags)]).encode()).hexdigest()
    build_id = hashlib.sha256(f"{digest}:{numeric}:{tags_digest}".encode()).hexdigest()
    printed = Counter(c.pdf_page - c.page for c in chunks if c.page is not None and c.pdf_page is not None)
    meta = {
        "schema_version": SCHEMA_VERSION, "title": title or source_title(source), "source": source.name,
        "source_kind": "markdown" if source.is_dir() else "pdf",
        "source_sha256": sha256_tree(source) if source.is_dir() else sha256_file(source),
        "model_name": embedder.name, "model_sha256": embedder.sha256,
        "dim": embedder.dim, "builder_version": BUILDER_VERSION,
        "page_offset": printed.most_common(1)[0][0] if printed else 0,
        "counts": json.dumps(dict(sorted(counts.items()))), "content_hash": digest,
        "vectors_hash": numeric, "build_hash": build_id,
        "pages": pages,
        "max_chunk_tokens": MAX_CHUNK_TOKENS,
        "build_report": json.dumps(checks, ensure_ascii=False),
        "tags_source": vocabulary.source,
    }
    return meta


def tag_chunks(chunks: list[Chunk], vectors, vocabulary: Vocabulary, model_dir: Path,
               cache: VectorCache | None = None, embedder: Embedder | None = None) -> list:
    """Each chunk's search tags (build_tags.assign_tags), tag texts embedded one per model run (or
    taken from the vector cache) by `embedder` (else one made here)."""
    import numpy as np

    if not vocabulary.tags:
        return [[] for _ in chunks]
    # the model loads on the first text the cache does not hold (a rebuild's tags are all there)
    embedder = embedder or Embedder(model_dir, threads=1, session=False)

    def vector_of(text: str):
        vector = cache.get(text) if cache is not None else None
        if vector is None:
            vector = embedder.embed([text])[0]
            if cache is not None:
                cache.embedded += 1
                cache.put(text, vector)
        return vector

    texts = [f"{c.title or ''}\n{c.content}" for c in chunks]
    return assign_tags(texts, vectors, vocabulary, lambda batch: np.vstack([vector_of(t) for t in batch]))


def tags_report(vocabulary: Vocabulary, chunk_tags: list) -> dict:
    """What the report says about tags: where they came from, how many, how many chunks carry them."""
    used = Counter(name for assigned in chunk_tags for name, _, _, _ in assigned)
    return {"source": vocabulary.source, "concepts": sum(t.type == "concepts" for t in vocabulary.tags),
            "tables": sum(t.type == "tables" for t in vocabulary.tags), "categories": len(vocabulary.categories),
            "chunks_tagged": sum(bool(a) for a in chunk_tags), "assignments": sum(used.values()),
            "by_term": sum(how == "term" for a in chunk_tags for _, _, _, how in a),
            "unused": [t.name for t in vocabulary.tags if not used[t.name]][:20]}


# --------------------------------------------------------------------------- checks
"""Checks: what the build found per kind, the gaps in its numbering, duplicates, dangling references."""


class GapsFound(BuildError):
    """--strict: the numbering has gaps; the report says which, the output file is left as it was."""

    def __init__(self, checks: dict):
        gaps = [f"{kind} {', '.join(c['gaps'][:6])}" for kind, c in checks["kinds"].items() if c["gaps"]]
        super().__init__("numbering gaps (--strict): " + "; ".join(gaps))
        self.checks = checks


def build_checks(chunks: list[Chunk], reading: Reading | None, unresolved: list[dict]) -> dict:
    """The build's look at itself: per kind, how many, which numbers are missing from the sequence
    (after the reader's second look), which heads repeated, what was recovered; printed pages;
    references to things the book does not define."""
    numbers: dict[str, set[str]] = {}
    for c in chunks:
        if c.kind != "text" and c.number:
            numbers.setdefault(c.kind, set()).add(c.number)
    gaps = numbering_gaps(numbers)
    kinds = {}
    for kind in sorted(numbers):
        kinds[kind] = {"found": len(numbers[kind]), "gaps": number_ranges(gaps.get(kind, []))}
        if reading is not None:
            dup = [f"{n} (p. {p})" for k, n, p in reading.duplicates if k == kind]
            rec = [f"{n} (p. {p})" for k, n, p in reading.recovered if k == kind]
            if dup:
                kinds[kind]["duplicates"] = dup
            if rec:
                kinds[kind]["recovered"] = rec
    dangling: dict[str, list[str]] = {}
    for u in unresolved:
        dangling.setdefault(u["kind"], [])
        if u["number"] not in dangling[u["kind"]]:
            dangling[u["kind"]].append(u["number"])
    pages = {"source": "none"}
    if reading is not None:
        printed = reading.printed
        pages = {"source": printed.source, "read": printed.read, "inferred": printed.inferred,
                 "rejected": printed.rejected}
        if printed.note:
            pages["note"] = printed.note
    checks = {"kinds": kinds, "pages": pages, "unresolved_references": {k: v[:20] for k, v in dangling.items()},
              "unresolved_count": len(unresolved)}
    if reading is not None and reading.anchors_unread:
        checks["anchors_unread"] = reading.anchors_unread
    return checks


def print_checks(checks: dict, out=sys.stdout) -> None:
    pages = checks["pages"]
    if pages["source"] == "page labels":
        print("  printed pages: from the PDF's page labels", file=out)
    elif pages["source"] == "folios":
        print(f"  printed pages: read on {pages['read']} pages, inferred for {pages['inferred']} "
              "(pages that print no number take their neighbours')", file=out)
    if pages.get("rejected"):
        print(f"  printed pages: numbers in the heads or feet of {pages['rejected']} pages are no folio "
              "(they stay, jump or restart from page to page)", file=out)
    if pages.get("note"):
        print(f"    note: {pages['note']}", file=out)
    for kind, c in checks["kinds"].items():
        line = f"  {kind:12} {c['found']:5} found"
        line += "; gaps: " + ", ".join(c["gaps"][:12]) + (" …" if len(c["gaps"]) > 12 else "") if c["gaps"] \
            else "; numbering complete"
        print(line, file=out)
        if c.get("recovered"):
            print(f"  {'':12}       found on a second look: {', '.join(c['recovered'][:10])}", file=out)
        if c.get("duplicates"):
            print(f"  {'':12}       repeated heads (first kept): {', '.join(c['duplicates'][:10])}", file=out)
    if checks["unresolved_references"]:
        what = "; ".join(f"{kind} {', '.join(nums[:8])}" for kind, nums in checks["unresolved_references"].items())
        print(f"  references to nothing the book defines ({checks['unresolved_count']}): {what}", file=out)
    if checks.get("anchors_unread"):
        print(f"  named destinations: {checks['anchors_unread']} not read (the file's own reading was unsure "
              "and PDFium's, one index at a time, would take too long)", file=out)


def print_report(report: dict) -> None:
    size = f"{report['pages']} pages" if report["pages"] else f"{report['lessons']} lessons"
    print(f"built {report['output']} from {report['source']}: {size}, {report['chunks']} chunks")
    print("  entities: " + ", ".join(f"{k} {v}" for k, v in report["counts"].items()))
    print(f"  sections {report['sections']}, edges {report['edges']}, unresolved references {report['unresolved']}")
    print_checks(report["checks"])
    tags = report["checks"].get("tags")
    if tags:
        source = "the book's section titles" if tags["source"] == "book" else tags["source"]
        print(f"  search tags from {source}: {tags['concepts']} concepts in {tags['categories']} categories, "
              f"{tags['tables']} tables; {tags['assignments']} on {tags['chunks_tagged']} chunks "
              f"({tags['by_term']} by phrase)" + (f"; on no chunk: {', '.join(tags['unused'])}" if tags["unused"] else ""))
    print("  seconds: " + ", ".join(f"{k} {v}" for k, v in report["seconds"].items())
          + f"; total {report['total_seconds']} ({report['pages_per_second']} pages/s)")
    if report.get("vector_cache"):
        cache = report["vector_cache"]
        print(f"  vector cache {cache['folder']}: {cache['found']} texts' vectors found there, {cache['embedded']} "
              "embedded and added")
    print(f"  content hash {report['content_hash']} (text, entities, pages, sections, reference edges:"
          " equal sources give equal hashes on any machine)")
    print(f"  vectors hash {report['vectors_hash']} (embeddings and RELATED_TO edges: equal only on the same"
          " kind of CPU)")


def default_output(source: Path) -> Path:
    """Where a build writes when --output is not given: <source name>.sqlite in the current folder."""
    return Path.cwd() / f"{source.stem if source.suffix.lower() == '.pdf' else source.name}.sqlite"


def built_from(path: Path) -> str | None:
    """The source file name an existing knowledge file was built from (None if it is not one)."""
    meta = meta_of(path)
    return meta.get("source") if meta else None


EPILOG = """\
where it writes:
  --output FILE, or by default SOURCE_NAME.sqlite in the current folder (book.pdf -> ./book.sqlite).
  The build writes a temporary file beside the output and renames it over the output only when
  everything succeeded: a failed or interrupted build never damages an existing file.  Without
  --output, a file of that name built from another source is never replaced.

examples:
  python build_db.py dm.pdf                               # -> ./dm.sqlite
  python build_db.py dm.pdf -o /data/dm.sqlite --title "Algorithms for Decision Making"
  python build_db.py docs/ --base-url https://docs.example.org/guide
  python build_db.py dm.pdf -o dm.sqlite --tags concept_tags.json --tables tables.txt
  python rag.py --db dm.sqlite serve                      # serve what was built

search tags: --tags reads BeliefCraft's concept_tags.json format as is, --tables a JSON list of
  table names or one name a line; without --tags each chapter is a category and its section
  titles are the concepts.  Tags are given to chunks offline (phrase matches and embedding
  similarity, build_tags.py); MCP's get_search_tags_catalog lists them, search_tags boosts by them.

what it checks: numbering is a sequence.  The report lists, per kind, what was found, the numbers
  missing from each sequence after a second look at the pages between their neighbours, repeated
  heads, and references to things the book does not define; the same report is stored in the
  knowledge file (meta build_report) and shown by GET /health.

exit codes: 0 built, 2 bad input (unreadable PDF, missing source, unwritable output, bad tags file),
  3 numbering gaps with --strict, 1 internal error.
"""


def main(argv: list[str] | None = None, prog: str = "build_db.py") -> int:
    """The builder's command line (also `bookrag build`): exit 0, 2 for bad input, 3 for gaps with --strict."""
    parser = argparse.ArgumentParser(
        prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
        description="Build a bookrag knowledge file (one SQLite file: chunks, embeddings, numbered entities, "
                    "cross-reference graph) from a book's PDF or a folder of Markdown lessons.")
    parser.add_argument("sources", nargs="+", type=Path, metavar="SOURCE",
                        help="the book's PDF, or a folder of Markdown lessons (exactly one)")
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help="the knowledge file to write (default: SOURCE_NAME.sqlite in the current folder)")
    parser.add_argument("--title", help="the book's title as the service reports it (default: the PDF's "
                                        "title metadata, a docs tree's README heading, else the file name)")
    parser.add_argument("--models", type=Path, default=DEFAULT_MODEL_DIR,
                        help=f"embedding model directory (default: {DEFAULT_MODEL_DIR})")
    parser.add_argument("--base-url", help="docs trees only: base URL that turns file paths into page URLs "
                                           "(default: none)")
    parser.add_argument("--strict", action="store_true",
                        help="fail (exit 3, output untouched) when a kind's numbering has gaps the reader could not "
                             "fill, e.g. formula 5.5-5.10 missing")
    parser.add_argument("--tags", type=Path, metavar="FILE",
                        help='search-tag concepts in BeliefCraft\'s concept_tags.json format: {"tags": {"CATEGORY": '
                             '["TAG", ...]}} (a tag may be {"name", "description"}); default: derived from the book '
                             '(each chapter a category, its section titles the tags)')
    parser.add_argument("--tables", type=Path, metavar="FILE",
                        help="database table names for search tags: a JSON list, or one name a line (# comments); "
                             "default: none")
    parser.add_argument("--vector-cache", type=Path, metavar="DIR",
                        help="a folder of vectors from earlier builds on this machine: texts found there are not "
                             "embedded again, new ones are added (default: $BOOKRAG_VECTOR_CACHE, else none)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--json", action="store_true", help="print the build report as JSON instead of text")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    args = parser.parse_args(argv)
    output = args.output
    if output is None and args.sources:
        output = default_output(args.sources[0])
        previous = built_from(output) if output.exists() else None
        if output.exists() and previous != args.sources[0].name:
            what = f"built from {previous}" if previous else "not a knowledge file of this source"
            print(f"build_db: error: {output} exists and is {what}; name the file to write with --output",
                  file=sys.stderr)
            return 2
    try:
        report = build(args.sources, output, args.models, progress=not args.quiet, base_url=args.base_url,
                       title=args.title, strict=args.strict, tags=args.tags, tables=args.tables,
                       vector_cache=args.vector_cache)
    except GapsFound as exc:
        print(f"build_db: {exc} (the previous output file is untouched)", file=sys.stderr)
        print_checks(exc.checks, out=sys.stderr)
        return 3
    except BuildError as exc:
        print(f"build_db: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("build_db: interrupted; the previous output file is untouched", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: say so in one line; --debug shows the traceback
        if args.debug:
            raise
        print(f"build_db: internal error: {type(exc).__name__}: {exc} (the previous output file is "
              "untouched; run with --debug for the traceback and please report it)", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
