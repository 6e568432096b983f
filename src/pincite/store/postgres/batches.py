"""Many writes in one transaction on PostgreSQL, and the vector indexes they defer.

A batch is one ``conn.transaction()``; psycopg makes each write's own
``transaction()`` a savepoint inside it. The HNSW index of a vector dimension
is built in a transaction of its own before any row lock is held, so a
dimension first written inside a batch gets its index once the batch ends.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.pq import TransactionStatus

from pincite.errors import ConfigurationError
from pincite.store.base import DenseIndex, RoutingIndex
from pincite.store.postgres.migrations import HNSW_MAX_DIM, ensure_dense_index


class PostgresBatches:
    """The batch half of :class:`PostgresStore` (which provides the connection)."""

    _lock: threading.RLock
    _batched: bool
    _pending_dims: set[int]
    _dims: set[int]
    _connection: psycopg.Connection[tuple[Any, ...]]
    _dense: dict[str, tuple[int, DenseIndex]]
    _routing: dict[str, tuple[int, RoutingIndex]]

    @property
    def _conn(self) -> psycopg.Connection[tuple[Any, ...]]:
        raise NotImplementedError

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for the writes inside (see ``Store.batch``).

        psycopg makes each write's own ``transaction()`` a savepoint inside it.
        A batch whose connection died, or whose transaction PostgreSQL aborted
        (psycopg would end it silently), raises instead of returning as if
        committed.
        """
        with self._lock:
            if self._batched:
                yield
                return
            conn = self._conn
            self._batched = True
            try:
                with conn.transaction():
                    yield
                    alive = conn is self._connection and not conn.closed
                    if not alive or conn.info.transaction_status != TransactionStatus.INTRANS:
                        raise ConfigurationError(
                            "the batch's transaction was lost or aborted; nothing in it was kept"
                        )
            finally:
                self._batched = False
                self._dense.clear()
                self._routing.clear()
                pending, self._pending_dims = self._pending_dims, set()
            for dim in sorted(pending):
                ensure_dense_index(conn, dim)
                self._dims.add(dim)

    def _ensure_dims(self, *vectors: npt.NDArray[np.float32] | None) -> None:
        for v in vectors:
            if v is None or v.size == 0:
                continue
            dim = int(v.shape[-1])
            if dim not in self._dims and dim <= HNSW_MAX_DIM:
                if self._batched:
                    # Built in a transaction of its own, before any row lock: after the batch.
                    self._pending_dims.add(dim)
                    continue
                with self._lock:
                    ensure_dense_index(self._conn, dim)
                self._dims.add(dim)
