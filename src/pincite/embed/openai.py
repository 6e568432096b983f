"""Embeddings from any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

Works with OpenAI itself and with local servers that copy its protocol (vLLM,
llama.cpp, Ollama, LM Studio, text-embeddings-inference). The library never
reads the environment: the caller passes the base URL and key.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np
import numpy.typing as npt

from pincite.embed.base import Vectors
from pincite.errors import GeneratorError

__all__ = ["OpenAIEmbedder"]

# Enough of an error body to show the server's reason, not a whole HTML page.
_MAX_BODY_IN_ERROR = 300
# Sent only to learn the dimension when ``dim`` was not given; some servers
# reject empty input, so it is a short real word.
_PROBE_TEXT = "dimension"


class OpenAIEmbedder:
    """Embeds through an OpenAI-compatible HTTP API; vectors are re-normalised.

    ``dim`` is what the server returns, checked on every response; it is not
    sent. When it is not given, the first response sets it (reading ``dim``
    before any embed call makes one small request to learn it).

    Every failure — transport error, HTTP error status, a body that is not the
    expected JSON, the wrong number of vectors, a wrong or inconsistent
    dimension, a zero or non-finite vector — raises ``GeneratorError``. The API
    key never appears in an error message.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30,
        batch_size: int = 64,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required, e.g. https://api.openai.com/v1")
        if not model:
            raise ValueError("model is required")
        if dim is not None and dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self._url = base_url.rstrip("/") + "/embeddings"
        self._model = model
        self._api_key = api_key
        self._dim = dim
        self._batch_size = batch_size
        self._dim_lock = threading.Lock()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # One pooled client, thread-safe, reused across calls.
        self._client = httpx.Client(timeout=timeout, headers=headers)

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._embed_batch([_PROBE_TEXT])
        assert self._dim is not None  # set by the successful call above
        return self._dim

    def __repr__(self) -> str:
        # No key here: reprs end up in logs and tracebacks.
        return f"OpenAIEmbedder(url={self._url!r}, model={self._model!r}, dim={self._dim})"

    def close(self) -> None:
        """Close the pooled HTTP connections."""
        self._client.close()

    def __enter__(self) -> OpenAIEmbedder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return ``(len(texts), dim)`` float32 rows, L2-normalised.

        Sends ``batch_size`` texts per request. Raises ``GeneratorError`` when
        the endpoint fails or answers outside the protocol.
        """
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of strings; use embed_query")
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        parts = [
            self._embed_batch(list(texts[i : i + self._batch_size]))
            for i in range(0, len(texts), self._batch_size)
        ]
        return np.concatenate(parts, axis=0)

    def embed_query(self, text: str) -> Vectors:
        """Return one ``(dim,)`` float32 vector, L2-normalised."""
        if not isinstance(text, str):
            raise TypeError(f"embed_query takes a string, got {type(text).__name__}")
        vector: Vectors = self._embed_batch([text])[0]
        return vector

    # -- internals ---------------------------------------------------------

    def _fail(self, message: str) -> GeneratorError:
        if self._api_key:
            # Some servers echo the Authorization header or the key in error bodies.
            message = message.replace(self._api_key, "***")
        return GeneratorError(f"embedding endpoint {self._url} (model {self._model!r}): {message}")

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        try:
            response = self._client.post(self._url, json={"model": self._model, "input": texts})
        except httpx.HTTPError as exc:
            raise self._fail(f"request failed: {type(exc).__name__}: {exc}") from None
        if response.status_code >= 400:
            body = response.text[:_MAX_BODY_IN_ERROR]
            raise self._fail(f"HTTP {response.status_code}: {body}")
        try:
            payload = response.json()
        except ValueError:
            raise self._fail(
                f"response is not JSON: {response.text[:_MAX_BODY_IN_ERROR]!r}"
            ) from None
        vectors = self._parse(payload, expected=len(texts))
        with self._dim_lock:
            if self._dim is None:
                self._dim = vectors.shape[1]
        if vectors.shape[1] != self._dim:
            raise self._fail(f"returned {vectors.shape[1]}-d vectors, expected {self._dim}-d")
        return vectors

    def _parse(self, payload: Any, expected: int) -> npt.NDArray[np.float32]:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise self._fail("response has no 'data' list")
        if len(data) != expected:
            raise self._fail(f"sent {expected} inputs, got {len(data)} embeddings back")
        rows: list[Any] = [None] * expected
        for position, item in enumerate(data):
            if not isinstance(item, dict) or "embedding" not in item:
                raise self._fail(f"data[{position}] has no 'embedding'")
            # The protocol gives each item its input's index; servers that omit it
            # return items in input order.
            index = item.get("index", position)
            if not isinstance(index, int) or not 0 <= index < expected or rows[index] is not None:
                raise self._fail(f"data[{position}] has a bad or repeated index {index!r}")
            rows[index] = item["embedding"]
        try:
            matrix = np.asarray(rows, dtype=np.float64)
        except (TypeError, ValueError):
            raise self._fail("embeddings are not equal-length lists of numbers") from None
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise self._fail("embeddings are not equal-length lists of numbers")
        if not np.isfinite(matrix).all():
            raise self._fail("embeddings contain NaN or infinity")
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        if (norms == 0).any():
            raise self._fail("an embedding is all zeros and cannot be normalised")
        # Re-normalised because many compatible servers do not normalise.
        unit: npt.NDArray[np.float32] = (matrix / norms).astype(np.float32)
        return unit
