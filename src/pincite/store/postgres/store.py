"""The server store: PostgreSQL holds text, chunks, BM25 postings and pgvector vectors."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector.psycopg import register_vector

from pincite.errors import ConfigurationError
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.store.base import DenseIndex, RoutingIndex, refuse_in_batch
from pincite.store.postgres import erase, pending, rows, search, write
from pincite.store.postgres.batches import PostgresBatches
from pincite.store.postgres.conversations import PostgresConversations
from pincite.store.postgres.index import Delta, index, unindex
from pincite.store.postgres.matrices import PostgresMatrices
from pincite.store.postgres.migrations import (
    HNSW_MAX_DIM,
    dense_index_dims,
    migrate,
)

_T = TypeVar("_T")

# Dense search reads a tenant's vectors exactly while it has at most this many
# searchable chunks (a few milliseconds at 384 dimensions) and uses HNSW above.
EXACT_LIMIT = 10_000
# HNSW candidate list. With iterative scans (pgvector 0.8) the scan goes on
# past ef_search until the tenant filter has passed k rows, so ef_search sets
# the quality of each step rather than a ceiling (benchmarks/bench_postgres.py).
EF_SEARCH = 100
MAX_SCAN_TUPLES = 50_000


# mutmut: equivalent because SQL keywords and unquoted names are case-blind and rows
# are read by position: the case-changed SQL strings that keep their `%s` placeholders
# and quoted "C" as they are (an uppercased `%S` is refused by psycopg and dies).
# benchmarks/mutation.sh lists them, as it counts apart only strings with no `%` or quote.
class PostgresStore(
    PostgresBatches, pending.PostgresPending, PostgresMatrices, PostgresConversations
):
    """Store of record and search engine on PostgreSQL with pgvector (>= 0.8).

    One connection, used by one thread at a time; open one store per worker
    process. ``exact_limit`` and ``ef_search`` tune dense search (see
    ``docs/postgres.md``).
    """

    def __init__(
        self, url: str, *, exact_limit: int = EXACT_LIMIT, ef_search: int = EF_SEARCH
    ) -> None:
        self.url = url
        self.exact_limit = exact_limit
        self.ef_search = ef_search
        self._lock = threading.RLock()
        self._batched = False
        # Vector dimensions first written inside a batch: their index is built after it.
        self._pending_dims: set[int] = set()
        self._closed = False
        self._connection = self._connect()
        self._dims = dense_index_dims(self._connection)
        self._dense: dict[str, tuple[int, DenseIndex]] = {}
        self._routing: dict[str, tuple[int, RoutingIndex]] = {}

    # -- plumbing ---------------------------------------------------------

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        try:
            # prepare_threshold=None: never a server-side prepared statement, so
            # every query is planned for its own tenant (a generic plan lost
            # filtered HNSW recall, issue 6).
            conn = psycopg.connect(self.url, autocommit=True, prepare_threshold=None)
        except psycopg.Error as exc:
            raise ConfigurationError(f"cannot connect to PostgreSQL: {exc}") from exc
        try:
            encoding = conn.execute("SHOW server_encoding").fetchone()
            if encoding is None or encoding[0] != "UTF8":
                # Offsets are code points; only UTF8 makes length() and
                # substrings agree with Python's str.
                raise ValueError(f"the database encoding must be UTF8, not {encoding}")
            migrate(conn)
            register_vector(conn)
            conn.execute("SET plan_cache_mode = force_custom_plan")
            conn.execute("SET hnsw.iterative_scan = relaxed_order")
            conn.execute(f"SET hnsw.ef_search = {int(self.ef_search)}".encode())
            conn.execute(f"SET hnsw.max_scan_tuples = {MAX_SCAN_TUPLES}".encode())
        except psycopg.errors.InsufficientPrivilege as exc:
            conn.close()
            raise ConfigurationError(
                f"cannot set up the pincite schema: {exc}. The pgvector extension must"
                " exist (CREATE EXTENSION vector, as a superuser) and this role must be"
                " able to create tables"
            ) from exc
        except (psycopg.Error, ValueError) as exc:
            conn.close()
            raise ConfigurationError(f"cannot set up the pincite schema: {exc}") from exc
        return conn

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._connection.close()

    @property
    def _conn(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The connection, opened again if the server dropped it (a restart, a failover).

        Never inside a batch: a fresh connection would commit each later write on
        its own while the batch's earlier ones were lost with the old one.
        """
        if self._connection.closed and not self._closed:
            if self._batched:
                raise psycopg.OperationalError("the connection was lost inside a batch")
            self._connection = self._connect()
        return self._connection

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor[tuple[Any, ...]]]:
        with self._lock, self._conn.transaction(), self._conn.cursor() as cur:
            yield cur

    def _read(self, run: Callable[[psycopg.Connection[tuple[Any, ...]]], _T]) -> _T:
        """Run an idempotent read; once more on a fresh connection if the old one died."""
        with self._lock:
            try:
                return run(self._conn)
            except psycopg.OperationalError:
                if not self._connection.closed:
                    raise
            return run(self._conn)

    def _query(self, query: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        return self._read(lambda conn: conn.execute(query.encode(), params).fetchall())

    def _generation(self, tenant: str) -> int:
        found = self._query("SELECT generation FROM tenant_stats WHERE tenant = %s", (tenant,))
        return int(found[0][0]) if found else 0

    # -- meta -------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        found = self._query("SELECT value FROM meta WHERE key = %s", (key,))
        return str(found[0][0]) if found else None

    def set_meta(self, key: str, value: str) -> None:
        self._query(
            "INSERT INTO meta VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING key",
            (key, value),
        )

    def meta_keys(self, prefix: str) -> list[str]:
        found = self._query(
            'SELECT key FROM meta WHERE starts_with(key, %s) ORDER BY key COLLATE "C"', (prefix,)
        )
        return [str(r[0]) for r in found]

    def tenants(self) -> list[str]:
        # Byte order, as SQLite sorts, whatever the database's collation.
        found = self._query('SELECT DISTINCT tenant COLLATE "C" FROM documents ORDER BY 1')
        return [r[0] for r in found]

    # -- documents and versions ------------------------------------------

    def find_document(
        self, tenant: str, *, document_id: str | None = None, uri: str | None = None
    ) -> Document | None:
        select = f"SELECT {rows.DOCUMENT_COLUMNS} FROM documents WHERE tenant = %s"
        if document_id is not None:
            found = self._query(select + " AND document_id = %s", (tenant, document_id))
        elif uri is not None:
            found = self._query(select + " AND uri = %s", (tenant, uri))
        else:
            raise ValueError("find_document needs document_id or uri")
        return rows.document(found[0]) if found else None

    def list_documents(self, tenant: str) -> list[Document]:
        found = self._query(
            f"SELECT {rows.DOCUMENT_COLUMNS} FROM documents WHERE tenant = %s"
            ' ORDER BY created_at COLLATE "C", uri COLLATE "C"',
            (tenant,),
        )
        return [rows.document(r) for r in found]

    def documents_by_id(self, tenant: str, document_ids: Sequence[str]) -> dict[str, Document]:
        found = self._query(
            f"SELECT {rows.DOCUMENT_COLUMNS} FROM documents WHERE tenant = %s"
            " AND document_id = ANY(%s)",
            (tenant, list(document_ids)),
        )
        return {r[1]: rows.document(r) for r in found}

    def current_hash(self, tenant: str, document_id: str) -> str | None:
        found = self._query(
            "SELECT current_hash FROM documents WHERE tenant = %s AND document_id = %s",
            (tenant, document_id),
        )
        return found[0][0] if found else None

    def write_version(
        self,
        document: Document,
        version: Version,
        chunks: Sequence[Chunk],
        vectors: npt.NDArray[np.float32] | None,
        routing_vector: npt.NDArray[np.float32] | None,
        *,
        expected_current: str | None,
    ) -> None:
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk is required")
        self._ensure_dims(vectors, routing_vector)
        with self._transaction() as cur:
            write.write_version(
                cur, document, version, chunks, vectors, routing_vector, expected_current
            )

    def versions(self, tenant: str, document_id: str) -> list[Version]:
        found = self._query(
            f"SELECT {rows.VERSION_COLUMNS} FROM versions WHERE tenant = %s AND document_id = %s"
            " ORDER BY seq",
            (tenant, document_id),
        )
        return [rows.version(r) for r in found]

    def version(self, tenant: str, document_id: str, hash16: str) -> Version | None:
        # mutmut: equivalent because the hex set widened ("XX0123...XX") lets only "X"
        # through, which matches no stored hash.
        if len(hash16) != 16 or not all(c in "0123456789abcdef" for c in hash16):
            return None
        found = self._query(
            f"SELECT {rows.VERSION_COLUMNS} FROM versions WHERE tenant = %s AND document_id = %s"
            " AND left(content_hash, 16) = %s ORDER BY seq DESC LIMIT 1",
            (tenant, document_id, hash16),
        )
        # The latest wins: a version erased in part keeps its hash16 beside a
        # later version of the same text (erasure.tombstone_hash).
        return rows.version(found[0]) if found else None

    # -- chunks -----------------------------------------------------------

    def chunks(self, tenant: str, document_id: str, content_hash: str) -> list[Chunk]:
        found = self._query(
            f"SELECT {rows.CHUNK_COLUMNS} FROM chunks WHERE tenant = %s AND document_id = %s"
            " AND content_hash = %s ORDER BY ordinal",
            (tenant, document_id, content_hash),
        )
        return [rows.chunk(r) for r in found]

    def chunk(self, tenant: str, chunk_id: str) -> Chunk | None:
        return self.chunks_by_id(tenant, [chunk_id]).get(chunk_id)

    def chunk_at(
        self, tenant: str, document_id: str, content_hash: str, ordinal: int
    ) -> Chunk | None:
        found = self._query(
            f"SELECT {rows.CHUNK_COLUMNS} FROM chunks WHERE tenant = %s AND document_id = %s"
            " AND content_hash = %s AND ordinal = %s",
            (tenant, document_id, content_hash, ordinal),
        )
        return rows.chunk(found[0]) if found else None

    def chunks_by_id(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        found = self._query(
            f"SELECT {rows.CHUNK_COLUMNS} FROM chunks WHERE tenant = %s AND chunk_id = ANY(%s)",
            (tenant, list(chunk_ids)),
        )
        return {r[0]: rows.chunk(r) for r in found}

    # -- lifecycle ----------------------------------------------------------

    def set_status(self, tenant: str, document_id: str, status: DocumentStatus) -> bool:
        with self._transaction() as cur:
            row = _lock_document(cur, tenant, document_id)
            if row is None:
                return False
            cur.execute(
                "UPDATE documents SET status = %s WHERE tenant = %s AND document_id = %s",
                (status.value, tenant, document_id),
            )
            delta = Delta(tenant)
            if status is DocumentStatus.DELETED:
                unindex(cur, delta, document_id)
            elif row[0] is not None:
                index(cur, delta, document_id, content_hash=row[0])
            delta.commit(cur)
            return True

    def purge(self, tenant: str, document_id: str) -> bool:
        with self._transaction() as cur:
            if _lock_document(cur, tenant, document_id) is None:
                return False
            delta = Delta(tenant)
            unindex(cur, delta, document_id)
            # Versions, chunks and the routing vector go by ON DELETE CASCADE.
            cur.execute(
                "DELETE FROM documents WHERE tenant = %s AND document_id = %s",
                (tenant, document_id),
            )
            delta.commit(cur)
            return True

    def erase(self, tenant: str, document_id: str, chunk_id: str | None = None) -> int:
        # Under the lock: another thread's batch holds it, so this waits for its end.
        with self._lock:
            refuse_in_batch(self._batched, "erase")
            with self._transaction() as cur:
                if _lock_document(cur, tenant, document_id) is None:
                    return 0
                erased = erase.erase(cur, tenant, document_id, chunk_id)
            self.vacuum()
        return erased

    def vacuum(self, *, full: bool = False) -> None:
        """``VACUUM`` the tables an erasure rewrites (see ``erase.vacuum``)."""
        with self._lock:
            refuse_in_batch(self._batched, "VACUUM")
            erase.vacuum(self._conn, full=full)

    # -- search -------------------------------------------------------------

    def search_lexical(
        self,
        tenant: str,
        terms: Sequence[str],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        return self._read(lambda conn: search.lexical(conn, tenant, terms, k, documents))

    def search_dense(
        self,
        tenant: str,
        vector: npt.NDArray[np.float32],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Inner-product k-NN over current, live, unerased chunks: ``(chunk_id, score)``.

        Scores equal ``dense_index(tenant).matrix @ vector`` (cosine for
        normalised vectors), best first. Raises ``ConfigurationError`` when the
        stored vectors have another dimension than ``vector``.
        """
        dim = int(np.asarray(vector).reshape(-1).shape[0])
        if dim not in self._dims and dim <= HNSW_MAX_DIM:
            # Another process may have written the first vectors of this dimension.
            self._dims |= self._read(dense_index_dims)
        indexed, limit = dim in self._dims, self.exact_limit
        return self._read(
            lambda conn: search.dense(
                conn, tenant, vector, k, documents, indexed=indexed, exact_limit=limit
            )
        )

    def replace_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[str, npt.NDArray[np.float32]],
    ) -> None:
        self._ensure_dims(*chunk_vectors.values(), *routing.values())
        with self._transaction() as cur:
            write.replace_vectors(cur, tenant, chunk_vectors, routing)


def _lock_document(
    cur: psycopg.Cursor[tuple[Any, ...]], tenant: str, document_id: str
) -> tuple[Any, ...] | None:
    return cur.execute(
        "SELECT current_hash FROM documents WHERE tenant = %s AND document_id = %s FOR UPDATE",
        (tenant, document_id),
    ).fetchone()
