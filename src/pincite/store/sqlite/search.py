"""Search over the SQLite store: FTS5 BM25 and in-memory dense matrices per tenant."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.store.base import DenseIndex, RoutingIndex
from pincite.store.dense import exact_top
from pincite.store.sqlite.fts import doc_key, fts_table
from pincite.store.sqlite.rows import stack


class SQLiteSearch:
    """The search half of :class:`SQLiteStore` (which provides the connection)."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    _dense: dict[str, DenseIndex]
    _routing: dict[str, RoutingIndex]

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _refresh_caches(self) -> None:
        raise NotImplementedError

    def _fts_table(self, tenant: str) -> str | None:
        with self._lock:
            return fts_table(self._conn, tenant)

    def search_lexical(
        self,
        tenant: str,
        terms: Sequence[str],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        if not terms or k <= 0:
            return []
        # Terms reach FTS5 only as double-quoted strings (quotes doubled), so
        # nothing in a question can be read as FTS5 syntax. The table is the
        # tenant's own; document scope is a filter inside the MATCH itself, so
        # FTS5 ranks with its own ORDER BY rank LIMIT path.
        body = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f"body : ({body})"
        if documents is not None:
            if not documents:
                return []
            match += " AND doc_key : (" + " OR ".join(doc_key(d) for d in documents) + ")"
        table = self._fts_table(tenant)
        if table is None:
            return []  # the tenant has never had a document
        rows = self._query(
            f"SELECT c.chunk_id, -s.rank FROM (SELECT rowid, rank FROM {table}"
            f" WHERE {table} MATCH ? ORDER BY rank LIMIT ?) AS s"
            " JOIN chunks AS c ON c.rowid = s.rowid WHERE c.tenant = ? ORDER BY s.rank",
            (match, k, tenant),
        )
        return [(r[0], float(r[1])) for r in rows]

    def search_dense(
        self,
        tenant: str,
        vector: npt.NDArray[np.float32],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        # No vector index in SQLite: an exact scan of the tenant's cached matrix.
        return exact_top(self.dense_index(tenant), vector, k, documents)

    def dense_index(self, tenant: str) -> DenseIndex:
        with self._lock:
            self._refresh_caches()
            cached = self._dense.get(tenant)
            if cached is not None:
                return cached
            rows = self._conn.execute(
                "SELECT c.chunk_id, c.document_id, c.vector FROM chunks AS c"
                " JOIN documents AS d ON d.tenant = c.tenant AND d.document_id = c.document_id"
                " WHERE c.tenant = ? AND c.content_hash = d.current_hash AND d.status = 'live'"
                " AND c.erased = 0 AND c.vector IS NOT NULL ORDER BY c.rowid",
                (tenant,),
            ).fetchall()
            index = DenseIndex(
                tuple(r[0] for r in rows),
                tuple(r[1] for r in rows),
                stack([r[2] for r in rows]),
            )
            self._dense[tenant] = index
            return index

    def routing_index(self, tenant: str) -> RoutingIndex:
        with self._lock:
            self._refresh_caches()
            cached = self._routing.get(tenant)
            if cached is not None:
                return cached
            rows = self._conn.execute(
                "SELECT r.document_id, r.vector FROM routing AS r JOIN documents AS d"
                " ON d.tenant = r.tenant AND d.document_id = r.document_id"
                " WHERE r.tenant = ? AND d.status = 'live' ORDER BY r.document_id",
                (tenant,),
            ).fetchall()
            index = RoutingIndex(tuple(r[0] for r in rows), stack([r[1] for r in rows]))
            self._routing[tenant] = index
            return index

    def replace_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[str, npt.NDArray[np.float32]],
    ) -> None:
        with self._write() as conn:
            for chunk_id, vec in chunk_vectors.items():
                # An erased chunk never gets a vector back: it is derived from
                # text that no longer exists.
                conn.execute(
                    "UPDATE chunks SET vector = ? WHERE tenant = ? AND chunk_id = ? AND erased = 0",
                    (np.asarray(vec, np.float32).tobytes(), tenant, chunk_id),
                )
            for document_id, vec in routing.items():
                conn.execute(
                    "INSERT OR REPLACE INTO routing SELECT tenant, document_id, ? FROM documents"
                    " WHERE tenant = ? AND document_id = ?",
                    (np.asarray(vec, np.float32).tobytes(), tenant, document_id),
                )
