"""Optional second-stage reranking behind one narrow protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pincite.errors import ConfigurationError


class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage, higher is better."""
        ...


class CrossEncoderReranker:
    """A sentence-transformers cross-encoder the user already has on disk."""

    def __init__(self, model_name_or_path: str) -> None:
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ConfigurationError(
                "the cross-encoder reranker needs sentence-transformers: "
                "pip install -e '.[sentence-transformers]' in a pincite clone "
                "(once published: pip install 'pincite[sentence-transformers]')"
            ) from exc
        self._model = CrossEncoder(model_name_or_path, device="cpu")
        self.name = f"cross-encoder:{model_name_or_path}"

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        scores = self._model.predict([(question, p) for p in passages])
        return [float(s) for s in scores]
