"""Tests of the shipped embedding model in models/ (real ONNX file, real tokenizer).

Uses rag.Embedder, the one embedder of the service and the builder, and checks
the files against models/model.json and models/reference_vectors.json (fp32
embeddings written by models/export_model.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from rag import Embedder

MODELS = Path(__file__).resolve().parent.parent / "models"
MIN_COSINE_TO_FP32 = 0.98


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def meta() -> dict:
    return json.loads((MODELS / "model.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def references() -> list[dict]:
    return json.loads((MODELS / "reference_vectors.json").read_text(encoding="utf-8"))["vectors"]


@pytest.fixture(scope="module")
def embed():
    """The project's one embedder (rag.Embedder), as the service and the builder use it."""
    embedder = Embedder(MODELS)

    def run(texts: list[str]) -> np.ndarray:
        return embedder.embed(texts)

    run.session = embedder.session
    run.tokenizer = embedder.tokenizer
    return run


def test_hashes_match_model_json(meta):
    assert _sha256(MODELS / "model.onnx") == meta["onnx_sha256"]
    assert _sha256(MODELS / "tokenizer.json") == meta["tokenizer_sha256"]


def test_metadata(meta):
    assert meta["dim"] == 384
    assert meta["pooling"] == "mean"
    assert meta["normalized"] is True
    assert meta["max_tokens"] == 256
    assert meta["license"] == "Apache-2.0"
    assert (MODELS / "LICENSE").read_text(encoding="utf-8").lstrip().startswith("Apache License")
    assert "all-MiniLM-L6-v2" in (MODELS / "NOTICE").read_text(encoding="utf-8")


def test_graph_signature(embed, meta):
    sess = embed.session
    ins = {i.name: i for i in sess.get_inputs()}
    assert list(ins) == [i["name"] for i in meta["inputs"]]
    for i in ins.values():
        assert i.type == "tensor(int64)"
        assert len(i.shape) == 2 and all(isinstance(d, str) for d in i.shape)  # dynamic
    (out,) = sess.get_outputs()
    assert out.name == meta["output"]["name"] == "sentence_embedding"
    assert out.type == "tensor(float)"
    assert out.shape[1] == 384


def test_tokenizer_truncates_at_256(embed):
    enc = embed.tokenizer.encode("word " * 1000)
    assert len(enc.ids) == 256
    assert enc.ids[0] == 101 and enc.ids[-1] == 102  # [CLS] ... [SEP]


def test_shape_and_unit_norm(embed):
    texts = ["x", "value iteration converges", "word " * 400]
    vecs = embed(texts)
    assert vecs.shape == (3, 384)
    assert vecs.dtype == np.float32
    assert np.all(np.isfinite(vecs))
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)


def test_same_text_alone_is_deterministic(embed):
    a = embed(["POMDP belief state update"])
    b = embed(["POMDP belief state update"])
    assert np.array_equal(a, b)


def test_batching_changes_embeddings_only_slightly(embed):
    # Dynamic int8 quantisation picks one activation scale per tensor, i.e. per
    # batch, so a text's embedding depends a little on its batch mates (and their
    # padding). Not bit-identical; close. (In fp32 the two agree to ~1e-6.)
    texts = ["newsvendor critical fractile", "a much longer text " * 20]
    alone = np.vstack([embed([t]) for t in texts])
    together = embed(texts)
    cos = (alone * together).sum(axis=1)
    assert np.all(cos >= 0.98), cos


def test_close_to_fp32_reference(embed, references):
    assert len(references) >= 5
    vecs = embed([r["text"] for r in references])
    for r, v in zip(references, vecs):
        ref = np.asarray(r["embedding"], dtype=np.float32)
        assert ref.shape == (384,)
        cos = float(v @ ref / (np.linalg.norm(v) * np.linalg.norm(ref)))
        assert cos >= MIN_COSINE_TO_FP32, f"{r['text']!r}: cosine {cos:.4f}"


def test_semantics(embed):
    a, b, c = embed([
        "inventory control (s,S) policy",
        "reorder point and order-up-to level for stock replenishment",
        "the Bellman operator is a contraction",
    ])
    assert a @ b > a @ c
