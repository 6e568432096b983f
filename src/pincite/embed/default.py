"""The embedder pincite uses when none is configured: offline, CPU-only."""

from __future__ import annotations

import threading

from pincite.embed.base import Embedder
from pincite.embed.onnx import MiniLMEmbedder

__all__ = ["default_embedder"]

# One per (thread count, quantised or not): an ONNX session holds ~25 MB and takes ~0.2 s to build,
# and the library, CLI and server should share it rather than each build one.
_cache: dict[tuple[int, bool], MiniLMEmbedder] = {}
_cache_lock = threading.Lock()


def default_embedder(threads: int | None = None, *, quantized: bool = False) -> Embedder:
    """Return the process-wide offline default embedder (int8 all-MiniLM-L6-v2).

    ``threads`` is onnxruntime's intra-op thread count; ``None`` means 1, which
    is deterministic and never oversubscribes a server handling several
    requests. A CLI indexing a corpus should pass ``os.cpu_count()``.

    ``quantized`` gives the dynamically quantised copy (``pincite.embed.quantize``):
    3x faster, close to but not equal to the default vectors, so it has its own
    name and is not for indexing a store the default embedder built.

    Nothing is loaded until the first embed call; a missing or corrupt model
    raises ``ConfigurationError`` then.
    """
    key = (1 if threads is None else threads, quantized)
    with _cache_lock:
        embedder = _cache.get(key)
        if embedder is None:
            embedder = _cache[key] = MiniLMEmbedder(threads=key[0], quantized=quantized)
        return embedder
