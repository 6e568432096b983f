"""Vectors that arrive after the text: what still needs one, and writing them in.

Ingest commits text first (searchable lexically at once); embedding follows
in the same command or later (``pincite embed``, a job in ``pincite serve``).
Chunks still waiting are the searchable ones with a NULL vector, found
through a partial index that holds only those rows.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.model import Chunk
from pincite.store.base import DenseIndex
from pincite.store.sqlite.rows import CHUNK_COLUMNS, read_chunk

# Searchable chunks without a vector; ``c`` is chunks, ``d`` its document.
UNEMBEDDED = (
    "FROM chunks AS c JOIN documents AS d"
    " ON d.tenant = c.tenant AND d.document_id = c.document_id"
    " WHERE c.tenant = ? AND c.vector IS NULL AND c.erased = 0"
    " AND c.content_hash = d.current_hash AND d.status = 'live'"
)


class SQLitePending:
    """The deferred-embedding half of :class:`SQLiteStore` (which provides the connection)."""

    _lock: threading.RLock

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def dense_index(self, tenant: str) -> DenseIndex:
        raise NotImplementedError

    def chunks_without_vectors(self, tenant: str, limit: int) -> list[Chunk]:
        if limit <= 0:
            return []
        rows = self._query(
            f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE rowid IN"
            f" (SELECT c.rowid {UNEMBEDDED} ORDER BY c.rowid LIMIT ?) ORDER BY rowid",
            (tenant, limit),
        )
        return [read_chunk(r) for r in rows]

    def documents_without_routing(self, tenant: str) -> list[tuple[str, str]]:
        rows = self._query(
            "SELECT d.document_id, d.current_hash FROM documents AS d"
            " WHERE d.tenant = ? AND d.status = 'live' AND d.current_hash IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM routing AS r"
            " WHERE r.tenant = d.tenant AND r.document_id = d.document_id)"
            " ORDER BY d.document_id",
            (tenant,),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def add_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[tuple[str, str], npt.NDArray[np.float32]],
    ) -> None:
        with self._write() as conn:
            conn.executemany(
                "UPDATE chunks SET vector = ? WHERE tenant = ? AND chunk_id = ? AND erased = 0",
                [(_blob(v), tenant, cid) for cid, v in chunk_vectors.items()],
            )
            conn.executemany(
                "INSERT OR REPLACE INTO routing SELECT tenant, document_id, ? FROM documents"
                " WHERE tenant = ? AND document_id = ? AND current_hash = ?",
                [(_blob(v), tenant, did, chash) for (did, chash), v in routing.items()],
            )

    def vector_coverage(self, tenant: str) -> tuple[int, int]:
        # Hybrid search asks on every query: the count is kept while the
        # tenant's cached dense index (the same object until a write) is.
        with self._lock:
            index = self.dense_index(tenant)
            cache: dict[str, tuple[DenseIndex, int]] = self.__dict__.setdefault("_coverage", {})
            cached = cache.get(tenant)
            if cached is not None and cached[0] is index:
                missing = cached[1]
            else:
                missing = int(self._query(f"SELECT count(*) {UNEMBEDDED}", (tenant,))[0][0])
                cache[tenant] = (index, missing)
        return len(index.chunk_ids), len(index.chunk_ids) + missing


def _blob(vector: npt.NDArray[np.float32]) -> bytes:
    return np.asarray(vector, np.float32).tobytes()
