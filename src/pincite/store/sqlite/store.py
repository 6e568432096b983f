"""The embedded default store: one SQLite file holds text, chunks, vectors and FTS5."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.errors import ConfigurationError
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.store import versioning
from pincite.store.base import DenseIndex, RoutingIndex, refuse_in_batch
from pincite.store.sqlite.conversations import SQLiteConversations
from pincite.store.sqlite.erase import checkpoint, erase
from pincite.store.sqlite.fts import (
    add_current_to_fts,
    drop_from_indexes,
    forget_tenant_if_empty,
)
from pincite.store.sqlite.migrations import migrate
from pincite.store.sqlite.pending import SQLitePending
from pincite.store.sqlite.rows import (
    CHUNK_COLUMNS,
    batches,
    read_chunk,
    read_document,
    read_version,
)
from pincite.store.sqlite.search import SQLiteSearch
from pincite.store.sqlite.write import VersionSQL


# mutmut: equivalent because SQL keywords and unquoted names are case-blind and rows
# are read by position: the case-changed SQL strings (benchmarks/mutation.sh counts them apart).
class SQLiteStore(SQLiteSearch, SQLitePending, SQLiteConversations):
    """Store of record and search engine in one SQLite file (``:memory:`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise ConfigurationError(f"cannot open database {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._batched = False
        self._conn.execute("PRAGMA busy_timeout = 10000")
        # Freed pages and cells are zeroed, so a deleted or rewritten row
        # (erased text, an old FTS5 segment) leaves no bytes behind in the file.
        self._conn.execute("PRAGMA secure_delete = ON")
        # 64 MB of page cache (SQLite's default is 2 MB): the FTS5 and chunk
        # b-trees of a large ingest stay in memory; lexical ingest of 5,183
        # SciFact abstracts ran 15 % faster (benchmarks/ingest_speed.py).
        self._conn.execute("PRAGMA cache_size = -65536")
        if self.path != ":memory:":
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        try:
            migrate(self._conn)
        except sqlite3.DatabaseError as exc:
            raise ConfigurationError(f"{self.path} is not a pincite database: {exc}") from exc
        self._dense: dict[str, DenseIndex] = {}
        self._routing: dict[str, RoutingIndex] = {}
        self._data_version = self._read_data_version()

    # -- plumbing ---------------------------------------------------------

    def close(self) -> None:
        """Checkpoint the write-ahead log (TRUNCATE), then close."""
        with self._lock:
            if self.path != ":memory:":
                # A closing store never raises; SQLite also checkpoints on last close.
                with suppress(sqlite3.Error):
                    checkpoint(self._conn)
            self._conn.close()

    def checkpoint(self) -> bool:
        """Fold the write-ahead log into the file and truncate it; False if readers held it."""
        if self.path == ":memory:":
            return True
        with self._lock:
            refuse_in_batch(self._batched, "checkpoint")
            return checkpoint(self._conn)

    def _read_data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def _refresh_caches(self) -> None:
        # data_version changes when another connection commits, so a second
        # process writing the same file invalidates this one's vector caches.
        current = self._read_data_version()
        if current != self._data_version:
            self._data_version = current
            self._dense.clear()
            self._routing.clear()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._batched:
                if not self._conn.in_transaction:
                    # SQLite rolled the whole batch back itself (disk full, I/O error):
                    # a write now would commit on its own, outside the batch.
                    raise ConfigurationError("the batch's transaction was rolled back; end it")
                # Inside a batch each write is a savepoint: a failed one rolls back alone.
                self._conn.execute("SAVEPOINT write")
                try:
                    yield self._conn
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK TO write")
                        self._conn.execute("RELEASE write")
                    raise
                self._conn.execute("RELEASE write")
            else:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            self._dense.clear()
            self._routing.clear()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for the writes inside (see ``Store.batch``)."""
        with self._lock:
            if self._batched:
                yield
                return
            self._batched = True
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                yield
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._batched = False
                self._dense.clear()
                self._routing.clear()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    # -- meta -------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta_keys(self, prefix: str) -> list[str]:
        # substr, not LIKE: a prefix may hold % or _ (SQLite compares text bytewise).
        rows = self._query(
            "SELECT key FROM meta WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key", (prefix,)
        )
        return [str(r[0]) for r in rows]

    def tenants(self) -> list[str]:
        return [r[0] for r in self._query("SELECT DISTINCT tenant FROM documents ORDER BY 1")]

    # -- documents and versions ------------------------------------------

    def find_document(
        self, tenant: str, *, document_id: str | None = None, uri: str | None = None
    ) -> Document | None:
        if document_id is not None:
            rows = self._query(
                "SELECT * FROM documents WHERE tenant = ? AND document_id = ?",
                (tenant, document_id),
            )
        elif uri is not None:
            rows = self._query(
                "SELECT * FROM documents WHERE tenant = ? AND uri = ?", (tenant, uri)
            )
        else:
            raise ValueError("find_document needs document_id or uri")
        return read_document(rows[0]) if rows else None

    def list_documents(self, tenant: str) -> list[Document]:
        rows = self._query(
            "SELECT * FROM documents WHERE tenant = ? ORDER BY created_at, uri", (tenant,)
        )
        return [read_document(r) for r in rows]

    def documents_by_id(self, tenant: str, document_ids: Sequence[str]) -> dict[str, Document]:
        out: dict[str, Document] = {}
        for batch in batches(list(dict.fromkeys(document_ids))):
            marks = ",".join("?" * len(batch))
            rows = self._query(
                f"SELECT * FROM documents WHERE tenant = ? AND document_id IN ({marks})",
                (tenant, *batch),
            )
            out.update((r[1], read_document(r)) for r in rows)
        return out

    def current_hash(self, tenant: str, document_id: str) -> str | None:
        rows = self._query(
            "SELECT current_hash FROM documents WHERE tenant = ? AND document_id = ?",
            (tenant, document_id),
        )
        return rows[0][0] if rows else None

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
        with self._write() as conn:
            versioning.write_version(
                VersionSQL(conn, document.tenant, document.document_id),
                document,
                version,
                chunks,
                vectors,
                routing_vector,
                expected_current=expected_current,
            )

    def versions(self, tenant: str, document_id: str) -> list[Version]:
        rows = self._query(
            "SELECT * FROM versions WHERE tenant = ? AND document_id = ? ORDER BY seq",
            (tenant, document_id),
        )
        return [read_version(r) for r in rows]

    def version(self, tenant: str, document_id: str, hash16: str) -> Version | None:
        # mutmut: equivalent because a non-hex character let through matches no stored hash.
        if len(hash16) != 16 or not all(c in "0123456789abcdef" for c in hash16):
            return None
        rows = self._query(
            "SELECT * FROM versions WHERE tenant = ? AND document_id = ?"
            " AND content_hash >= ? AND content_hash < ? ORDER BY seq DESC LIMIT 1",
            (tenant, document_id, hash16, hash16 + "g"),
        )
        # The latest wins: a version erased in part keeps its hash16 beside a
        # later version of the same text (erasure.tombstone_hash).
        return read_version(rows[0]) if rows else None

    # -- chunks -----------------------------------------------------------

    def chunks(self, tenant: str, document_id: str, content_hash: str) -> list[Chunk]:
        rows = self._query(
            f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE tenant = ? AND document_id = ?"
            " AND content_hash = ? ORDER BY ordinal",
            (tenant, document_id, content_hash),
        )
        return [read_chunk(r) for r in rows]

    def chunk(self, tenant: str, chunk_id: str) -> Chunk | None:
        return self.chunks_by_id(tenant, [chunk_id]).get(chunk_id)

    def chunk_at(
        self, tenant: str, document_id: str, content_hash: str, ordinal: int
    ) -> Chunk | None:
        rows = self._query(
            f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE tenant = ? AND document_id = ?"
            " AND content_hash = ? AND ordinal = ?",
            (tenant, document_id, content_hash, ordinal),
        )
        return read_chunk(rows[0]) if rows else None

    def chunks_by_id(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        out: dict[str, Chunk] = {}
        for batch in batches(list(dict.fromkeys(chunk_ids))):
            marks = ",".join("?" * len(batch))
            rows = self._query(
                f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE tenant = ? AND chunk_id IN ({marks})",
                (tenant, *batch),
            )
            out.update((r[0], read_chunk(r)) for r in rows)
        return out

    # -- lifecycle ----------------------------------------------------------

    def set_status(self, tenant: str, document_id: str, status: DocumentStatus) -> bool:
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE documents SET status = ? WHERE tenant = ? AND document_id = ?",
                (status.value, tenant, document_id),
            )
            # The routing row stays: routing_index() reads live documents only,
            # and a restored document needs its vector back without re-embedding.
            if cur.rowcount and status is DocumentStatus.DELETED:
                drop_from_indexes(conn, tenant, document_id)
            elif cur.rowcount:
                drop_from_indexes(conn, tenant, document_id)
                add_current_to_fts(conn, tenant, document_id)
            return cur.rowcount > 0

    def purge(self, tenant: str, document_id: str) -> bool:
        with self._write() as conn:
            drop_from_indexes(conn, tenant, document_id)
            args = (tenant, document_id)
            conn.execute("DELETE FROM chunks WHERE tenant = ? AND document_id = ?", args)
            conn.execute("DELETE FROM versions WHERE tenant = ? AND document_id = ?", args)
            conn.execute("DELETE FROM routing WHERE tenant = ? AND document_id = ?", args)
            cur = conn.execute("DELETE FROM documents WHERE tenant = ? AND document_id = ?", args)
            forget_tenant_if_empty(conn, tenant)
            return cur.rowcount > 0

    def erase(self, tenant: str, document_id: str, chunk_id: str | None = None) -> int:
        # Under the lock: another thread's batch holds it, so this waits for its end.
        with self._lock:
            refuse_in_batch(self._batched, "erase")
            with self._write() as conn:
                erased = erase(conn, tenant, document_id, chunk_id)
            # After the commit: the log holds the pages written before the erasure.
            self.checkpoint()
        return erased
