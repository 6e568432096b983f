"""Many ingests, few commits: each document its own savepoint, a commit per batch.

A lexical ingest of many small files spends most of its time committing; a
batch of them in one transaction (``Store.batch``) ingests several times
faster while each document still writes atomically.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TypeVar

__all__ = ["BATCH_FILES", "BATCH_SECONDS", "in_batches"]

T = TypeVar("T")
R = TypeVar("R")

# A batch commits at least this often (items, seconds).
BATCH_FILES = 256
BATCH_SECONDS = 1.0


def in_batches(
    items: Sequence[T],
    ingest_one: Callable[[T], R],
    batch: Callable[[], AbstractContextManager[None]] | None,
) -> Iterator[R]:
    """``ingest_one`` of each item, in order, committed ``BATCH_FILES`` or a second at a time.

    Each result is yielded only once its batch has committed, so a report never
    names text a crash could still lose. ``batch`` None: one commit per item.
    """
    pos = 0
    while pos < len(items):
        results: list[R] = []
        started = time.monotonic()
        with batch() if batch is not None else nullcontext():
            while pos < len(items):
                results.append(ingest_one(items[pos]))
                pos += 1
                full = len(results) >= BATCH_FILES
                if batch is None or full or time.monotonic() - started >= BATCH_SECONDS:
                    break
        yield from results
