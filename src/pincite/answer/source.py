"""What the answer path needs from above it: a store, an embedder, and a retriever.

``answer_question`` takes this protocol instead of the facade, so the answering
layer never imports ``pincite.corpus``; :class:`pincite.Corpus` satisfies it,
and so does any test double that can retrieve.
"""

from __future__ import annotations

from typing import Protocol

from pincite.embed.base import Embedder
from pincite.model import RetrievalResult
from pincite.retrieve.search import SearchOptions
from pincite.store.base import Store


class AnswerSource(Protocol):
    """A tenant-scoped retriever over a store of record."""

    @property
    def store(self) -> Store: ...

    @property
    def embedder(self) -> Embedder | None: ...

    def retrieve(
        self,
        question: str,
        *,
        tenant: str,
        k: int = ...,
        options: SearchOptions | None = ...,
        define: str | None = ...,
    ) -> RetrievalResult: ...
