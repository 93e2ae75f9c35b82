"""build_db.py on the sample book: deterministic, matches the committed file, never damages output."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import apsw
import pytest

from conftest import BOOK_PDF, KNOWLEDGE, ROOT


def meta_of(path) -> dict:
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        return dict(db.execute("SELECT key, value FROM meta").fetchall())
    finally:
        db.close()


def test_committed_knowledge_file_matches_committed_pdf():
    """knowledge.sqlite is stale when the PDF changed: rebuild with `make knowledge`."""
    sha = hashlib.sha256(BOOK_PDF.read_bytes()).hexdigest()
    assert meta_of(KNOWLEDGE)["source_sha256"] == sha, "knowledge.sqlite is stale: run `make knowledge`"


def test_committed_knowledge_file_matches_model():
    model = json.loads((ROOT / "models" / "model.json").read_text())
    meta = meta_of(KNOWLEDGE)
    assert meta["model_sha256"] == model["onnx_sha256"]
    assert int(meta["dim"]) == model["dim"]


# The lowest cosine allowed between a chunk's vector in a fresh build and in the committed file.
# onnxruntime's int8 kernels differ by instruction set: a build on an AVX2-only CPU against one
# made with AVX-512 VNNI differs by up to 0.053 in a component, lowest cosine 0.979 (docs/knowledge-file.md,
# "What is exact").  On one kind of CPU the vectors are identical.
VECTOR_COSINE_TOLERANCE = 0.97


def test_rebuild_has_the_committed_content(fresh_build):
    """Same PDF, same ids, text, entities, pages, sections and reference edges: equal content hashes.

    The content hash leaves out the vectors and the RELATED_TO edges computed from them, so it is
    equal on every machine; they are compared within a tolerance below."""
    path, report = fresh_build
    assert report["content_hash"] == meta_of(KNOWLEDGE)["content_hash"] == meta_of(path)["content_hash"]


def vectors_by_id(path) -> dict:
    import numpy as np

    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    db.enable_load_extension(True)
    import sqlite_vec

    db.load_extension(sqlite_vec.loadable_path())
    rows = db.execute("SELECT c.id, v.embedding FROM chunks c JOIN chunks_vec v ON v.rowid = c.rowid")
    return {cid: np.frombuffer(blob, dtype=np.float32) for cid, blob in rows}


def test_rebuild_vectors_match_the_committed_within_tolerance(fresh_build):
    path, _ = fresh_build
    fresh, committed = vectors_by_id(path), vectors_by_id(KNOWLEDGE)
    assert fresh.keys() == committed.keys()
    lowest = min(float(fresh[i] @ committed[i]) for i in fresh)
    assert lowest >= VECTOR_COSINE_TOLERANCE, f"a chunk's vector moved: cosine {lowest:.4f}"


def test_related_edges_join_similar_entities_both_ways(fresh_build):
    """RELATED_TO comes from the vectors, so its exact set varies with the CPU; its shape does not."""
    path, _ = fresh_build
    db = apsw.Connection(f"file:{path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    related = set(db.execute("SELECT src, dst FROM edges WHERE rel = 'RELATED_TO'"))
    assert related and all((b, a) in related for a, b in related)
    kinds = dict(db.execute("SELECT id, kind FROM chunks"))
    assert all(kinds[a] != "text" and kinds[b] != "text" for a, b in related)


def test_build_report(fresh_build):
    _, report = fresh_build
    assert report["pages"] > 0 and report["chunks"] > 0
    assert set(report["seconds"]) >= {"read", "structure", "references", "embed", "write", "verify"}
    assert "algorithm" in report["counts"] and "formula" in report["counts"]
    assert report["unresolved"] == 0, report["unresolved_examples"]


def test_chunks_fit_the_model(fresh_build):
    """What a text chunk embeds fits the model's window: its plain text where its content carries
    maths as LaTeX (extra.text), else its content."""
    import json

    from rag import Embedder

    path, _ = fresh_build
    embedder = Embedder(ROOT / "models")
    db = apsw.Connection(str(path))
    for kind, content, extra in db.execute("SELECT kind, content, extra FROM chunks WHERE kind = 'text'"):
        embedded = (json.loads(extra) if extra else {}).get("text") or content
        assert embedder.count_tokens(embedded) <= 256


def run_build(*args):
    return subprocess.run([sys.executable, str(ROOT / "build_db.py"), *map(str, args), "--quiet"],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("content", [b"", b"%PDF-1.4\n garbage that is not a pdf", b"hello"])
def test_unreadable_pdf_one_line_error_exit_2_output_untouched(tmp_path, content):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    out = tmp_path / "knowledge.sqlite"
    out.write_bytes(b"previous build")
    proc = run_build(bad, "-o", out)
    assert proc.returncode == 2
    assert proc.stderr.startswith("build_db: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert out.read_bytes() == b"previous build"
    assert not list(tmp_path.glob(".*tmp*"))


def test_encrypted_pdf(tmp_path):
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    reader = PdfReader(str(BOOK_PDF))
    writer.add_page(reader.pages[5])
    writer.encrypt("secret")
    enc = tmp_path / "enc.pdf"
    with open(enc, "wb") as f:
        writer.write(f)
    proc = run_build(enc, "-o", tmp_path / "k.sqlite")
    assert proc.returncode == 2 and "encrypted" in proc.stderr
    assert not (tmp_path / "k.sqlite").exists()


def test_missing_source(tmp_path):
    proc = run_build(tmp_path / "nope.pdf", "-o", tmp_path / "k.sqlite")
    assert proc.returncode == 2 and "not found" in proc.stderr


STAGES = ["read", "structure", "references", "embed", "related", "tags", "write", "verify", "rename"]


@pytest.fixture(scope="module")
def excerpt(tmp_path_factory):
    """Four pages of the sample book: enough for every stage (sections, formulas, an algorithm, search
    tags), quick to build (the tests here build it a dozen times)."""
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(str(BOOK_PDF)), PdfWriter()
    for page in reader.pages[4:8]:
        writer.add_page(page)
    path = tmp_path_factory.mktemp("excerpt") / "excerpt.pdf"
    with open(path, "wb") as f:
        writer.write(f)
    return path


@pytest.mark.parametrize("stage", STAGES)
def test_sigkill_at_any_stage_leaves_previous_output_untouched(tmp_path, excerpt, stage):
    """Kill -9 a build paused at the start of each stage: the previous file survives byte for byte."""
    import os
    import signal
    import time

    out = tmp_path / "knowledge.sqlite"
    out.write_bytes(KNOWLEDGE.read_bytes())
    before = hashlib.sha256(out.read_bytes()).hexdigest()
    proc = subprocess.Popen([sys.executable, str(ROOT / "build_db.py"), str(excerpt), "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BUILD_DB_PAUSE_AT": stage})
    deadline = time.time() + 120
    for line in proc.stderr:
        if f"paused at stage {stage}" in line or time.time() > deadline:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert hashlib.sha256(out.read_bytes()).hexdigest() == before
    if stage == "verify":
        # The killed build left its temporary file; the next build removes it and succeeds.
        assert list(tmp_path.glob(".*tmp*"))
        run = run_build(excerpt, "-o", out)
        assert run.returncode == 0, run.stderr
        assert not list(tmp_path.glob(".*tmp*"))
        assert hashlib.sha256(out.read_bytes()).hexdigest() != before


def test_read_only_output_folder_fails_first_and_keeps_the_file(read_only_dir, excerpt):
    read_only_dir.source.joinpath("knowledge.sqlite").write_bytes(KNOWLEDGE.read_bytes())
    folder = read_only_dir.seal()
    before = hashlib.sha256((folder / "knowledge.sqlite").read_bytes()).hexdigest()
    proc = run_build(excerpt, "-o", folder / "knowledge.sqlite")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the new knowledge file" in lines[0], proc.stderr
    assert "stage read" not in proc.stderr  # refused before any work
    assert hashlib.sha256((folder / "knowledge.sqlite").read_bytes()).hexdigest() == before


def test_default_output_is_named_after_the_source_and_never_the_sample_file(tmp_path, excerpt):
    """`build_db.py some.pdf` run where a knowledge.sqlite lies writes some.sqlite; --title names the book."""
    (tmp_path / "knowledge.sqlite").write_bytes(KNOWLEDGE.read_bytes())
    before = hashlib.sha256((tmp_path / "knowledge.sqlite").read_bytes()).hexdigest()
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(excerpt), "--quiet",
                           "--title", "An Excerpt"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert hashlib.sha256((tmp_path / "knowledge.sqlite").read_bytes()).hexdigest() == before
    assert meta_of(tmp_path / "excerpt.sqlite")["title"] == "An Excerpt"
    assert "excerpt.sqlite" in proc.stdout


def test_default_output_built_from_another_source_is_refused(tmp_path, excerpt):
    (tmp_path / "excerpt.sqlite").write_bytes(KNOWLEDGE.read_bytes())   # a file built from book.pdf
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(excerpt), "--quiet"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--output" in proc.stderr and "book.pdf" in proc.stderr
    assert (tmp_path / "excerpt.sqlite").read_bytes() == KNOWLEDGE.read_bytes()


def test_vector_cache_embeds_each_text_once_and_gives_the_models_vectors(tmp_path, excerpt):
    """--vector-cache: a first build embeds every text through the model and keeps its vector; a second
    takes every vector from the folder and embeds nothing, writing the same file (same vectors on this
    machine); a damaged entry is embedded again; a folder that cannot be written costs the cache, never
    the build."""
    import os

    import numpy as np

    from build_db import VectorCache
    from rag_core import Embedder

    cache = tmp_path / "vectors"
    env = {k: v for k, v in os.environ.items() if k != "BOOKRAG_VECTOR_CACHE"}

    def built(name: str, *options) -> dict:
        proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(excerpt), "-o", str(tmp_path / name),
                               "--quiet", "--json", *options], capture_output=True, text=True, timeout=300, env=env)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    first = built("first.sqlite", "--vector-cache", str(cache))
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert first["vector_cache"]["found"] == 0 and first["vector_cache"]["embedded"] == len(entries) >= first["chunks"]
    second = built("second.sqlite", "--vector-cache", str(cache))
    assert second["vector_cache"] == {"folder": str(cache), "found": len(entries), "embedded": 0}
    assert first["vectors_hash"] == second["vectors_hash"] and first["content_hash"] == second["content_hash"]
    entries[0].write_bytes(b"not a vector")
    third = built("third.sqlite", "--vector-cache", str(cache))
    assert third["vector_cache"]["embedded"] == 1 and third["vectors_hash"] == first["vectors_hash"]
    # a folder that cannot be made: the vector is not kept, and nothing is raised
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    kept = VectorCache(blocked / "vectors", Embedder(ROOT / "models", session=False))
    kept.put("a text", np.ones(kept.dim, dtype=np.float32))
    assert kept.get("a text") is None


def test_a_reference_carried_to_a_margin_captions_next_line_is_the_captions_text(tmp_path):
    """The sample book's margin caption of Algorithm 2.3 wraps before "Algorithm 2.2.", a reference in its
    running text (same face and size, at the caption's pitch, the line above stopped short of it): the
    caption's words, not the head of a second Algorithm 2.2, which the build would report repeated."""
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(str(BOOK_PDF)), PdfWriter()
    for page in reader.pages[23:25]:     # Algorithm 2.2 (pdf page 24), then Algorithm 2.3 with its caption
        writer.add_page(page)
    pdf, out = tmp_path / "two.pdf", tmp_path / "two.sqlite"
    with open(pdf, "wb") as f:
        writer.write(f)
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(pdf), "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "repeated heads" not in proc.stdout + proc.stderr
    (title,) = next(apsw.Connection(str(out)).execute("SELECT title FROM chunks WHERE id = 'algorithm_2_3'"))
    assert title.endswith("Uses Algorithm 2.1 and Algorithm 2.2.")


def test_a_formulas_memo_key_is_a_digest_of_its_glyphs_values():
    """The structuring walks a book two or three times and reads each formula once (build_formula's
    memo): a reading's key is a short digest of its glyphs' values, not the glyphs' boxes held again
    (a mathematical book's memo held some 60 MB of them), so the same page read again (new objects,
    equal values) finds its formulas' readings, and other lines do not."""
    import build_glyphs
    from build_formula import _reading_key

    first, again = (build_glyphs.read_pages(str(BOOK_PDF), [34], True)[0] for _ in range(2))
    assert first.lines[0].words[0] is not again.lines[0].words[0]
    keys = [_reading_key("display", line.words, first.bars, (12.0,)) for line in first.lines]
    assert keys == [_reading_key("display", line.words, again.bars, (12.0,)) for line in again.lines]
    assert len(set(keys)) == len(keys) > 10
    assert all(isinstance(key, bytes) and len(key) == 16 for key in keys)
    assert _reading_key("inline", first.lines[0].words, first.bars, (12.0,)) != keys[0]
