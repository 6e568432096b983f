"""Any local sentence-transformers model, for users who bring their own.

Needs the ``sentence-transformers`` extra (PyTorch included). Models are loaded
from local files only: a path, or a hub name already in the local cache.
pincite never downloads a model.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from pincite.embed.base import Vectors
from pincite.errors import ConfigurationError

__all__ = ["SentenceTransformerEmbedder"]

_INSTALL_HINT = (
    "pip install -e '.[sentence-transformers]' in a pincite clone "
    "(once published: pip install 'pincite[sentence-transformers]')"
)


class SentenceTransformerEmbedder:
    """Embeds with ``sentence_transformers.SentenceTransformer``; rows L2-normalised.

    Raises ``ConfigurationError`` at construction when the extra is not
    installed, and on first use when the model cannot be loaded from local
    files. The model (and PyTorch) is imported on first use, not here, because
    importing torch takes seconds.
    """

    def __init__(
        self, model_name_or_path: str, device: str = "cpu", *, batch_size: int = 32
    ) -> None:
        if not model_name_or_path:
            raise ValueError("model_name_or_path is required")
        if importlib.util.find_spec("sentence_transformers") is None:
            raise ConfigurationError(
                f"embedder 'st:{model_name_or_path}' needs sentence-transformers: {_INSTALL_HINT}"
            )
        self._model_name_or_path = model_name_or_path
        self._device = device
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._model: Any = None

    @property
    def name(self) -> str:
        return f"st:{self._model_name_or_path}"

    @property
    def dim(self) -> int:
        dim = self._load().get_sentence_embedding_dimension()
        if not isinstance(dim, int):
            raise ConfigurationError(f"model {self._model_name_or_path!r} reports no dimension")
        return dim

    def __repr__(self) -> str:
        return f"SentenceTransformerEmbedder({self._model_name_or_path!r}, device={self._device!r})"

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return ``(len(texts), dim)`` float32 rows, L2-normalised."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of strings; use embed_query")
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> Vectors:
        """Return one ``(dim,)`` float32 vector, L2-normalised."""
        if not isinstance(text, str):
            raise TypeError(f"embed_query takes a string, got {type(text).__name__}")
        vector: Vectors = self.embed_documents([text])[0]
        return vector

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import (  # type: ignore[import-not-found, unused-ignore]
                        SentenceTransformer,
                    )
                except ImportError as exc:
                    raise ConfigurationError(
                        f"cannot import sentence-transformers ({exc}): {_INSTALL_HINT}"
                    ) from exc
                try:
                    # local_files_only: a hub name must already be cached; never download.
                    self._model = SentenceTransformer(
                        self._model_name_or_path, device=self._device, local_files_only=True
                    )
                except Exception as exc:  # torch, hub and OS errors all land here
                    raise ConfigurationError(
                        f"cannot load sentence-transformers model {self._model_name_or_path!r} "
                        f"from local files (pincite never downloads models): {exc}"
                    ) from exc
            return self._model
