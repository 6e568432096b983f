"""Many ingests, few commits: each document its own savepoint, a commit per batch.

A lexical ingest of many small files spends most of its time committing; a
batch of them in one transaction (``Store.batch``) ingests several times
faster while each document still writes atomically. Files are read and parsed
before the batch opens, so the write lock is held only while rows are written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TypeVar

from pincite.embed.base import Embedder
from pincite.ingest.embedding import embed_pending
from pincite.store.base import Store

__all__ = ["BATCH_FILES", "BATCH_SECONDS", "DeferredVectors", "in_batches"]

T = TypeVar("T")
P = TypeVar("P")
R = TypeVar("R")

# A batch holds at most this many items, or what is parsed in this many seconds.
BATCH_FILES = 256
BATCH_SECONDS = 1.0


def in_batches(
    items: Sequence[T],
    prepare: Callable[[T], P],
    commit: Callable[[P], R],
    batch: Callable[[], AbstractContextManager[None]] | None,
) -> Iterator[R]:
    """``commit(prepare(item))`` for each item, in order, a batch of commits at a time.

    ``prepare`` (reading, parsing) runs outside any transaction; the commits of
    up to ``BATCH_FILES`` items, or of what was prepared in ``BATCH_SECONDS``,
    share one ``batch()``. Each result is yielded once its batch has ended, so
    a report never names text a crash could still lose (unless the caller's own
    batch encloses this one: then it commits when that one ends). ``batch``
    None: one item at a time.
    """
    pos = 0
    while pos < len(items):
        prepared: list[P] = []
        started = time.monotonic()
        while pos < len(items):
            prepared.append(prepare(items[pos]))
            pos += 1
            full = len(prepared) >= BATCH_FILES
            if batch is None or full or time.monotonic() - started >= BATCH_SECONDS:
                break
        with batch() if batch is not None else nullcontext():
            results = [commit(p) for p in prepared]
        yield from results


class DeferredVectors:
    """A batch's vectors, made once it commits: no model runs inside its transaction."""

    def __init__(self) -> None:
        # The tenants the batch in progress has text for that waits for vectors.
        self._tenants: set[str] | None = None

    def embed_now(self, tenant: str, embed: bool) -> bool:
        """Whether an ingest embeds inline; inside a batch, its tenant is embedded after it."""
        if self._tenants is None:
            return embed
        if embed:
            self._tenants.add(tenant)
        return False

    @contextmanager
    def batch(self, store: Store, embedder: Embedder | None) -> Iterator[None]:
        """``store.batch()``, then the vectors its ingests asked for."""
        if self._tenants is not None:
            yield  # an enclosing batch commits (and embeds) it all
            return
        self._tenants = set()
        try:
            with store.batch():
                yield
            waiting = sorted(self._tenants)
        finally:
            self._tenants = None
        if embedder is not None:
            for tenant in waiting:
                embed_pending(store, embedder, tenant)
