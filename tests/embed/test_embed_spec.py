"""embedder_from_spec and the package's public surface."""

from __future__ import annotations

import sys

import pytest

import pincite.embed
from pincite.corpus import Corpus
from pincite.embed import (
    MiniLMEmbedder,
    OpenAIEmbedder,
    default_embedder,
    embedder_from_spec,
)
from pincite.embed.default import DEFAULT_QUANTIZED
from pincite.embed.onnx import MODEL_NAME, QUANTIZED_MODEL_NAME
from pincite.errors import ConfigurationError
from pincite.store.sqlite import SQLiteStore


def test_exports_are_sorted_and_complete() -> None:
    exported = pincite.embed.__all__
    assert exported == sorted(exported)
    public = {
        name
        for name, value in vars(pincite.embed).items()
        if not name.startswith("_") and not isinstance(value, type(sys))
    }
    assert public == set(exported)


def test_default_spec_and_the_default_name_give_the_cached_default() -> None:
    assert embedder_from_spec("default") is default_embedder()
    assert embedder_from_spec(" default ") is default_embedder()
    # The name a store recorded rebuilds the same embedder.
    assert embedder_from_spec(default_embedder().name) is default_embedder()
    assert embedder_from_spec("default", threads=2) is default_embedder(2)
    assert isinstance(default_embedder(), MiniLMEmbedder)


def test_openai_spec_needs_a_base_url() -> None:
    with pytest.raises(ConfigurationError, match="needs a base URL"):
        embedder_from_spec("openai:text-embedding-3-small")
    embedder = embedder_from_spec(
        "openai:text-embedding-3-small", base_url="http://127.0.0.1:1/v1", api_key="k"
    )
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.name == "openai:text-embedding-3-small"
    embedder.close()


def test_st_spec_reports_the_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ConfigurationError, match=r"pincite\[sentence-transformers\]"):
        embedder_from_spec("st:all-MiniLM-L6-v2")


@pytest.mark.parametrize("spec", ["", "bm25", "st:", "openai:", "openai", "st", "Default"])
def test_unknown_specs_list_the_valid_forms(spec: str) -> None:
    with pytest.raises(
        ConfigurationError, match="expected 'default', 'minilm-float', 'minilm-quantized', 'st:"
    ):
        embedder_from_spec(spec, base_url="http://127.0.0.1:1/v1")


@pytest.mark.parametrize(
    ("spec", "quantized"),
    [
        ("minilm-float", False),
        (MODEL_NAME, False),
        ("minilm-quantized", True),
        (QUANTIZED_MODEL_NAME, True),
        ("default", DEFAULT_QUANTIZED),
    ],
)
def test_minilm_specs_pick_the_float_or_the_quantised_model(spec: str, quantized: bool) -> None:
    embedder = embedder_from_spec(spec, threads=2)
    assert embedder is default_embedder(2, quantized=quantized)
    assert embedder.name == (QUANTIZED_MODEL_NAME if quantized else MODEL_NAME)
    # The recorded name rebuilds the same embedder.
    assert embedder_from_spec(embedder.name, threads=2) is embedder


def test_float_and_quantised_names_differ_and_a_store_refuses_the_other() -> None:
    float_model, quantised = (
        embedder_from_spec("minilm-float"),
        embedder_from_spec("minilm-quantized"),
    )
    assert float_model.name != quantised.name
    assert float_model.dim == quantised.dim
    for built_with, opened_with in ((float_model, quantised), (quantised, float_model)):
        store = SQLiteStore(":memory:")
        Corpus(store, built_with)  # records the embedder that builds the store
        with pytest.raises(ConfigurationError, match=r"run `pincite reindex`") as refused:
            Corpus(store, opened_with)
        # The hint names a spec that rebuilds the embedder the store was built with.
        hinted = str(refused.value).split("--embedder ", 1)[1].split(")", 1)[0]
        assert embedder_from_spec(hinted) is built_with
        Corpus(store, built_with)  # the same one is still welcome
        store.close()
