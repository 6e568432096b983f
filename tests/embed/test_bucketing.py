"""Length-bucketed batches: rows come back in input order, as if each text ran alone."""

from __future__ import annotations

import numpy as np
import pytest

import pincite.embed.onnx as onnx_module
from pincite.embed import MiniLMEmbedder

# Lengths from 1 to ~256 tokens, shuffled so that sorting by length must move rows.
TEXTS = [
    "Heading only",
    " ".join(["The cat sat on the mat."] * 40),
    "",
    "Vitamin D supplementation did not reduce fracture risk in older adults.",
    " ".join(["Proxies forward requests."] * 12),
    "Hi",
    " ".join(["Mitochondria are the powerhouse of the cell."] * 5),
    "A feline rested on the rug.",
]


@pytest.mark.parametrize("quantized", [False, True], ids=["float", "quantised"])
def test_bucketed_rows_equal_each_text_alone_in_input_order(
    quantized: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = MiniLMEmbedder(threads=1, quantized=quantized)
    singles = np.stack([alone.embed_query(t) for t in TEXTS])
    # A window of 3 makes the texts cross sort windows as well as batches.
    monkeypatch.setattr(onnx_module, "_SORT_WINDOW", 3)
    batched = MiniLMEmbedder(threads=1, quantized=quantized, batch_tokens=100_000)
    vectors = batched.embed_documents(TEXTS)
    np.testing.assert_allclose(vectors, singles, atol=1e-5)
    # Rows are distinct, so an order mix-up could not pass the comparison above by luck.
    assert len({row.tobytes() for row in vectors}) == len(TEXTS)


def test_the_quantised_model_runs_one_text_per_run_unless_told() -> None:
    # Its activation scale is taken over the whole batch: batchmates would move a vector.
    assert "batch_size=1," in repr(MiniLMEmbedder(quantized=True))
    assert "batch_size=32," in repr(MiniLMEmbedder())
    assert "batch_size=8," in repr(MiniLMEmbedder(quantized=True, batch_size=8))
