"""The embedder pincite uses when none is configured: offline, CPU-only."""

from __future__ import annotations

import threading

from pincite.embed.base import Embedder
from pincite.embed.onnx import MiniLMEmbedder

__all__ = ["DEFAULT_QUANTIZED", "default_embedder"]

#: The default corpus embedder is the dynamically quantised copy of the model:
#: ~1.6-1.8x less CPU per chunk than the float graph, and retrieval held
#: (`pincite eval retrieval --embedder minilm-quantized|minilm-float`, test splits:
#: SciFact hybrid nDCG@10 0.730 vs 0.730 float, Cranfield 0.422 vs 0.417).
#: ``minilm-float`` keeps the float graph selectable.
DEFAULT_QUANTIZED = True

# One per (thread count, quantised or not): an ONNX session holds ~25 MB and takes ~0.2 s to build,
# and the library, CLI and server should share it rather than each build one.
_cache: dict[tuple[int, bool], MiniLMEmbedder] = {}
_cache_lock = threading.Lock()


def default_embedder(threads: int | None = None, *, quantized: bool | None = None) -> Embedder:
    """Return the process-wide offline default embedder (all-MiniLM-L6-v2 on ONNX).

    ``threads`` is onnxruntime's intra-op thread count; ``None`` means 1, which
    is deterministic and never oversubscribes a server handling several
    requests. A CLI indexing a corpus should pass ``os.cpu_count()``.

    ``quantized`` picks the dynamically quantised copy (``pincite.embed.quantize``)
    or the float graph; ``None`` means :data:`DEFAULT_QUANTIZED`. The two give
    close but unequal vectors, so they have different names and a store
    built with one refuses the other.

    Nothing is loaded until the first embed call; a missing or corrupt model
    raises ``ConfigurationError`` then.
    """
    key = (1 if threads is None else threads, DEFAULT_QUANTIZED if quantized is None else quantized)
    with _cache_lock:
        embedder = _cache.get(key)
        if embedder is None:
            embedder = _cache[key] = MiniLMEmbedder(threads=key[0], quantized=key[1])
        return embedder
