"""A dynamically quantised int8 copy of the default model, derived here and cached.

The registry file stores int8 weights, but as dequantise-then-multiply graphs:
onnxruntime folds them back to float32 when it loads the file, so every run is
float32 matrix work (~0.25 ms per token per core here). Rewriting the folded
graph with onnxruntime's own dynamic quantiser (int8 weights per output
channel, activations quantised per run) runs on integer instructions: about 3x
faster on this machine, with vectors at cosine >= 0.98 (about 0.99 on
sentences) to the float ones (tests/embed/test_quantize.py).

The derivation takes ~2 s, so the result is cached under the user's cache
directory (``PINCITE_CACHE_DIR``, else ``$XDG_CACHE_HOME/pincite``, else
``~/.cache/pincite``), keyed by the source file's sha256 and the onnxruntime
and onnx versions, with a sidecar sha256 checked on every load. A cache that
cannot be written only costs the derivation again next time.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from pincite.errors import ConfigurationError

__all__ = ["cache_dir", "quantized_model"]

_lock = threading.Lock()
# Bump when the derivation's settings change, so no older result is loaded.
_RECIPE = "r1"


def cache_dir() -> Path:
    """Where derived models are kept (created on first write)."""
    explicit = os.environ.get("PINCITE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pincite"


def quantized_model(source: Path, source_sha256: str) -> bytes:
    """The dynamically quantised model derived from ``source`` (already verified), as bytes.

    Raises ``ConfigurationError`` when the ``onnx`` package (which the
    quantiser needs) is missing or the derivation fails.
    """
    try:
        import onnx
        import onnxruntime as ort
    except ImportError as exc:
        raise ConfigurationError(
            f"quantising the embedding model needs the onnx package: pip install onnx ({exc})"
        ) from exc
    name = (
        f"minilm-dynint8-{_RECIPE}-{source_sha256[:16]}-ort{ort.__version__}-onnx{onnx.__version__}"
    )
    target = cache_dir() / f"{name}.onnx"
    with _lock:
        cached = _read_cached(target)
        if cached is not None:
            return cached
        model = _derive(source)
        _write_cached(target, model)
        return model


def _read_cached(target: Path) -> bytes | None:
    try:
        model = target.read_bytes()
        expected = target.with_suffix(".sha256").read_bytes().strip()
    except OSError:
        return None
    # A truncated or altered file (or sidecar) is derived again, never loaded.
    return model if hashlib.sha256(model).hexdigest().encode() == expected else None


def _write_cached(target: Path, model: bytes) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        for path, data in (
            (target, model),
            (target.with_suffix(".sha256"), hashlib.sha256(model).hexdigest().encode("ascii")),
        ):
            # Written aside and renamed: another process never reads half a file.
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide a shared cache
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
    except OSError:
        pass  # a read-only home or a full disk: derive again next time rather than fail


def _derive(source: Path) -> bytes:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(prefix="pincite-quantize-") as tmp:
        folded, quantized = Path(tmp) / "folded.onnx", Path(tmp) / "quantized.onnx"
        options = ort.SessionOptions()
        # Basic level: constant folding turns the stored int8 weights into plain
        # float32 MatMul weights the quantiser recognises, without fused ops it does not.
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        with _quiet_quantiser():
            try:
                ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
                # reduce_range keeps weights to 7 bits: CPUs without VNNI would otherwise
                # saturate int16 accumulators; it costs < 0.003 in cosine here.
                quantize_dynamic(
                    folded,
                    quantized,
                    per_channel=True,
                    reduce_range=True,
                    weight_type=QuantType.QInt8,
                )
                return quantized.read_bytes()
            except Exception as exc:  # the quantiser raises many unexported types
                raise ConfigurationError(
                    f"cannot quantise the embedding model {source}: {exc}"
                ) from exc


class _FromQuantiser(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "quantization" not in Path(record.pathname).parts


@contextlib.contextmanager
def _quiet_quantiser() -> Iterator[None]:
    """Keep the quantiser's advice off stderr without muting anyone else.

    It logs through bare ``logging.warning`` calls, which would also install a
    stderr handler on an unconfigured root logger: a null handler prevents
    that, and a filter drops only the records its own files make.
    """
    root = logging.getLogger()
    guard, drop = logging.NullHandler(), _FromQuantiser()
    named = logging.getLogger("onnxruntime.quantization")
    level = named.level
    root.addHandler(guard)
    root.addFilter(drop)
    named.setLevel(logging.ERROR)
    try:
        yield
    finally:
        named.setLevel(level)
        root.removeFilter(drop)
        root.removeHandler(guard)
