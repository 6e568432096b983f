"""SentenceTransformerEmbedder: the optional extra, with and without the package."""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

import numpy as np
import pytest

from pincite.embed import Embedder, SentenceTransformerEmbedder
from pincite.errors import ConfigurationError


def test_missing_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not installed in the dev venv; the None entry makes sure even if it is.
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ConfigurationError) as info:
        SentenceTransformerEmbedder("sentence-transformers/all-MiniLM-L6-v2")
    message = str(info.value)
    assert "pip install 'pincite[sentence-transformers]'" in message
    assert "st:sentence-transformers/all-MiniLM-L6-v2" in message


class _FakeSentenceTransformer:
    """Stands in for ``sentence_transformers.SentenceTransformer`` (no torch here).

    Mirrors the two calls pincite makes; normalises only when asked, so the
    test sees whether pincite asks.
    """

    instances: ClassVar[list[_FakeSentenceTransformer]] = []

    def __init__(self, model_name_or_path: str, **kwargs: Any) -> None:
        if model_name_or_path == "not-cached/model":
            raise OSError("We couldn't connect to 'https://huggingface.co' ... offline mode")
        self.kwargs = kwargs
        self.instances.append(self)

    def get_sentence_embedding_dimension(self) -> int:
        return 3

    def encode(self, sentences: list[str], **kwargs: Any) -> np.ndarray:
        rows = np.array([[len(s) + 1.0, 1.0, 2.0] for s in sentences], dtype=np.float64)
        if kwargs.get("normalize_embeddings"):
            rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        return rows


@pytest.fixture
def fake_package(monkeypatch: pytest.MonkeyPatch) -> type[_FakeSentenceTransformer]:
    module = types.ModuleType("sentence_transformers")
    module.__spec__ = types.SimpleNamespace(name="sentence_transformers")  # type: ignore[assignment]
    module.SentenceTransformer = _FakeSentenceTransformer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", module)
    _FakeSentenceTransformer.instances = []
    return _FakeSentenceTransformer


def test_loads_lazily_offline_and_normalises(
    fake_package: type[_FakeSentenceTransformer],
) -> None:
    embedder = SentenceTransformerEmbedder("/models/mine", device="cpu")
    assert embedder.name == "st:/models/mine"
    assert fake_package.instances == []  # nothing loaded yet: torch import is slow

    vectors = embedder.embed_documents(["a", "longer text"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 3)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert embedder.embed_query("a").shape == (3,)
    assert embedder.dim == 3
    assert isinstance(embedder, Embedder)
    (model,) = fake_package.instances
    assert model.kwargs == {"device": "cpu", "local_files_only": True}


def test_unloadable_model_is_a_configuration_error(
    fake_package: type[_FakeSentenceTransformer],
) -> None:
    embedder = SentenceTransformerEmbedder("not-cached/model")
    with pytest.raises(ConfigurationError, match="never downloads"):
        embedder.embed_query("hello")
