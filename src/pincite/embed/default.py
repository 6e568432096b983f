"""The embedder pincite uses when none is configured: offline, CPU-only."""

from __future__ import annotations

import threading

from pincite.embed.base import Embedder
from pincite.embed.onnx import MiniLMEmbedder

__all__ = ["default_embedder"]

# One per thread count: an ONNX session holds ~25 MB and takes ~0.2 s to build,
# and the library, CLI and server should share it rather than each build one.
_cache: dict[int, MiniLMEmbedder] = {}
_cache_lock = threading.Lock()


def default_embedder(threads: int | None = None) -> Embedder:
    """Return the process-wide offline default embedder (int8 all-MiniLM-L6-v2).

    ``threads`` is onnxruntime's intra-op thread count; ``None`` means 1, which
    is deterministic and never oversubscribes a server handling several
    requests. A CLI indexing a corpus should pass ``os.cpu_count()``.

    Nothing is loaded until the first embed call; a missing or corrupt model
    raises ``ConfigurationError`` then.
    """
    n = 1 if threads is None else threads
    with _cache_lock:
        embedder = _cache.get(n)
        if embedder is None:
            embedder = _cache[n] = MiniLMEmbedder(threads=n)
        return embedder
