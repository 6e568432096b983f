"""A tenant's vectors as matrices (chunks, and documents for routing), cached per generation.

Dense scoring and routing read every searchable vector of a tenant at once;
the matrix is read again only when the tenant's generation (bumped by every
write that changes what is searchable) has moved.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from pincite.store.base import DenseIndex, RoutingIndex
from pincite.store.postgres import rows


class PostgresMatrices:
    """The cached-matrix half of :class:`PostgresStore` (which provides the connection)."""

    _lock: threading.RLock
    _dense: dict[str, tuple[int, DenseIndex]]
    _routing: dict[str, tuple[int, RoutingIndex]]

    def _query(self, query: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _generation(self, tenant: str) -> int:
        raise NotImplementedError

    def dense_index(self, tenant: str) -> DenseIndex:
        with self._lock:
            generation = self._generation(tenant)
            cached = self._dense.get(tenant)
            if cached is not None and cached[0] == generation:
                return cached[1]
            found = self._query(
                "SELECT chunk_id, document_id, embedding FROM chunks WHERE tenant = %s"
                " AND searchable AND embedding IS NOT NULL ORDER BY id",
                (tenant,),
            )
            dense = DenseIndex(
                tuple(r[0] for r in found), tuple(r[1] for r in found), rows.stack(found, 2)
            )
            self._dense[tenant] = (generation, dense)
            return dense

    def routing_index(self, tenant: str) -> RoutingIndex:
        with self._lock:
            generation = self._generation(tenant)
            cached = self._routing.get(tenant)
            if cached is not None and cached[0] == generation:
                return cached[1]
            found = self._query(
                "SELECT r.document_id, r.embedding FROM routing AS r JOIN documents AS d"
                " ON d.tenant = r.tenant AND d.document_id = r.document_id"
                " WHERE r.tenant = %s AND d.status = 'live' ORDER BY r.document_id COLLATE \"C\"",
                (tenant,),
            )
            routing = RoutingIndex(tuple(r[0] for r in found), rows.stack(found, 1))
            self._routing[tenant] = (generation, routing)
            return routing
