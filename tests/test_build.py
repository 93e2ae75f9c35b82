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


def test_rebuild_is_identical_to_committed(fresh_build):
    """Same PDF, same ids and content: the logical build hash of a fresh build equals the committed one."""
    path, report = fresh_build
    assert report["build_hash"] == meta_of(KNOWLEDGE)["build_hash"] == meta_of(path)["build_hash"]


def test_build_report(fresh_build):
    _, report = fresh_build
    assert report["pages"] > 0 and report["chunks"] > 0
    assert set(report["seconds"]) >= {"read", "structure", "references", "embed", "write", "verify"}
    assert "algorithm" in report["counts"] and "formula" in report["counts"]
    assert report["unresolved"] == 0, report["unresolved_examples"]


def test_chunks_fit_the_model(fresh_build):
    from rag import Embedder

    path, _ = fresh_build
    embedder = Embedder(ROOT / "models")
    db = apsw.Connection(str(path))
    for kind, content in db.execute("SELECT kind, content FROM chunks WHERE kind = 'text'"):
        assert embedder.count_tokens(content) <= 256


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


STAGES = ["read", "structure", "references", "embed", "related", "write", "verify", "rename"]


@pytest.fixture(scope="module")
def excerpt(tmp_path_factory):
    """Twelve pages of the sample book: enough for every stage, quick to build."""
    from pypdf import PdfReader, PdfWriter

    reader, writer = PdfReader(str(BOOK_PDF)), PdfWriter()
    for page in reader.pages[4:16]:
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
