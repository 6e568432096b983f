"""The seam every embedder implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors.

    ``name`` identifies the model and its preprocessing; it is recorded in the
    store, and a store opened with an embedder of another name or dimension is
    refused, because vectors from two models are not comparable.
    """

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return an ``(len(texts), dim)`` float32 array, rows L2-normalised.

        Raises ``ConfigurationError`` when the model cannot be loaded and
        ``GeneratorError`` when a remote endpoint fails.
        """
        ...

    def embed_query(self, text: str) -> Vectors:
        """Return one ``(dim,)`` float32 vector, L2-normalised."""
        ...
