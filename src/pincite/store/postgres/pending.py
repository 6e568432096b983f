"""Vectors that arrive after the text: what still needs one, and writing them in.

Ingest commits text first (searchable lexically at once); embedding follows
in the same command or later (``pincite embed``, a job in ``pincite serve``).
Chunks still waiting are the searchable ones with a NULL embedding, found
through a partial index that holds only those rows (migration 0005).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg

from pincite.model import Chunk
from pincite.store.postgres import rows
from pincite.store.postgres.index import Delta


class PostgresPending:
    """The deferred-embedding half of :class:`PostgresStore` (which provides the connection)."""

    _lock: threading.RLock

    def _query(self, query: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[psycopg.Cursor[tuple[Any, ...]]]:
        raise NotImplementedError

    def _ensure_dims(self, *vectors: npt.NDArray[np.float32] | None) -> None:
        raise NotImplementedError

    def _generation(self, tenant: str) -> int:
        raise NotImplementedError

    def chunks_without_vectors(self, tenant: str, limit: int) -> list[Chunk]:
        if limit <= 0:
            return []
        found = self._query(
            f"SELECT {rows.CHUNK_COLUMNS} FROM chunks WHERE tenant = %s AND searchable"
            " AND embedding IS NULL ORDER BY id LIMIT %s",
            (tenant, limit),
        )
        return [rows.chunk(r) for r in found]

    def documents_without_routing(self, tenant: str) -> list[tuple[str, str]]:
        found = self._query(
            "SELECT d.document_id, d.current_hash FROM documents AS d"
            " WHERE d.tenant = %s AND d.status = 'live' AND d.current_hash IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM routing AS r"
            " WHERE r.tenant = d.tenant AND r.document_id = d.document_id)"
            ' ORDER BY d.document_id COLLATE "C"',
            (tenant,),
        )
        return [(str(r[0]), str(r[1])) for r in found]

    def add_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[tuple[str, str], npt.NDArray[np.float32]],
    ) -> None:
        self._ensure_dims(*chunk_vectors.values(), *routing.values())
        with self._transaction() as cur:
            cur.executemany(
                "UPDATE chunks SET embedding = %s WHERE tenant = %s AND chunk_id = %s"
                " AND NOT erased",
                [(rows.vector(v), tenant, cid) for cid, v in chunk_vectors.items()],
            )
            cur.executemany(
                "INSERT INTO routing (tenant, document_id, embedding)"
                " SELECT tenant, document_id, %s FROM documents"
                " WHERE tenant = %s AND document_id = %s AND current_hash = %s"
                " ON CONFLICT (tenant, document_id) DO UPDATE SET embedding = excluded.embedding",
                [(rows.vector(v), tenant, did, chash) for (did, chash), v in routing.items()],
            )
            # Bumps the generation: cached dense and routing indexes reload.
            Delta(tenant).commit(cur)

    def vector_coverage(self, tenant: str) -> tuple[int, int]:
        # Hybrid search asks on every query: counted once per generation.
        with self._lock:
            generation = self._generation(tenant)
            cache: dict[str, tuple[int, tuple[int, int]]] = self.__dict__.setdefault(
                "_coverage", {}
            )
            cached = cache.get(tenant)
            if cached is not None and cached[0] == generation:
                return cached[1]
            found = self._query(
                "SELECT coalesce((SELECT chunks FROM tenant_stats WHERE tenant = %(t)s), 0),"
                " (SELECT count(*) FROM chunks WHERE tenant = %(t)s AND searchable"
                " AND embedding IS NULL)",
                {"t": tenant},
            )
            total, missing = int(found[0][0]), int(found[0][1])
            counts = (total - missing, total)
            cache[tenant] = (generation, counts)
            return counts
