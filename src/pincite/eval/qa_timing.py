"""Stage timing for `pincite eval qa`: the store's embedder, the generator and retrieval, timed.

The answer path is run unchanged; these wrappers implement the same protocols
(``Embedder``, ``Generator``, ``AnswerSource``) and add up the milliseconds each
stage took for one question.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from pincite.embed.base import Embedder, Vectors
from pincite.generate.base import Generation, Generator, Passage
from pincite.model import RetrievalResult
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store.base import Store


class Clock:
    """Milliseconds spent per stage, for the question being run."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] += (time.perf_counter() - t0) * 1000


class TimedEmbedder:
    """The store's embedder, timed: only the query embeddings of retrieval pass here."""

    def __init__(self, inner: Embedder, clock: Clock) -> None:
        self._inner, self._clock = inner, clock

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dim(self) -> int:
        return self._inner.dim

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        with self._clock.stage("embed"):
            return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        with self._clock.stage("embed"):
            return self._inner.embed_query(text)


class TimedGenerator:
    """The generator, timed; it keeps the passages it was last shown (for its score)."""

    def __init__(self, inner: Generator, clock: Clock) -> None:
        self._inner, self._clock = inner, clock
        self.passages: Sequence[Passage] = ()

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def is_model(self) -> bool:
        return self._inner.is_model

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        self.passages = passages
        with self._clock.stage("generate"):
            return self._inner.generate(question, passages, summary=summary, feedback=feedback)


@dataclass
class TimedSource:
    """What the answer path reads (an ``AnswerSource``), timed and optionally scoped."""

    store: Store
    embedder: Embedder | None
    clock: Clock
    scope: tuple[str, ...] | None = None

    def retrieve(
        self,
        question: str,
        *,
        tenant: str,
        k: int = 6,
        options: SearchOptions | None = None,
        define: str | None = None,
    ) -> RetrievalResult:
        if options is None:
            options = SearchOptions(mode=SearchMode.HYBRID if self.embedder else SearchMode.LEXICAL)
        with self.clock.stage("retrieve"):
            return retrieve(
                self.store,
                self.embedder,
                question,
                tenant=tenant,
                k=k,
                scope=self.scope,
                options=options,
                define=define,
            )
