"""Settings resolved once: what an adapter read from flags and the environment.

Only adapters (CLI, server, MCP) read the environment; they turn it into these
values in one place and hand them to the library, so every code path that
builds an embedder or a generator sees the same base URL and key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pincite.embed.base import Embedder
from pincite.generate.base import Generator


@dataclass(frozen=True, slots=True)
class EmbedderSettings:
    """``spec`` is ``default``, ``st:<model>``, ``openai:<model>`` or ``none``."""

    spec: str = "default"
    base_url: str | None = None
    api_key: str | None = None

    @property
    def lexical_only(self) -> bool:
        return self.spec.strip() == "none"

    def build(self, *, threads: int | None = None) -> Embedder | None:
        """The embedder these settings name, or ``None`` for lexical search only."""
        if self.lexical_only:
            return None
        from pincite.embed.spec import embedder_from_spec

        return embedder_from_spec(
            self.spec,
            base_url=self.base_url,
            api_key=self.api_key,
            # Ingest time is embedding time: use every core unless told otherwise.
            threads=threads if threads is not None else (os.cpu_count() or 1),
        )


@dataclass(frozen=True, slots=True)
class GeneratorSettings:
    """``kind`` is one of :data:`pincite.generate.GENERATORS`."""

    kind: str = "extractive"
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    # The extractive generator's refusal threshold; None keeps the shipped one.
    threshold: float | None = None

    def build(self, embedder: Embedder | None) -> Generator:
        from pincite.generate import make_generator

        return make_generator(
            self.kind,
            embedder=embedder,
            base_url=self.base_url,
            model=self.model,
            api_key=self.api_key,
            threshold=self.threshold,
        )
