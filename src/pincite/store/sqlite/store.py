"""The embedded default store: one SQLite file holds text, chunks, vectors and FTS5."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.errors import ConcurrentWriteError, ConfigurationError
from pincite.model import BBox, BoxOrigin, Chunk, Document, DocumentStatus, Version
from pincite.store.base import DenseIndex, RoutingIndex, check_version_rows
from pincite.store.sqlite.migrations import migrate

_CHUNK_COLUMNS = (
    'chunk_id, tenant, document_id, content_hash, ordinal, start, "end", text, embed_text, '
    "section, pages, page_label, bboxes, time_range, erased"
)
_EMPTY = np.zeros((0, 0), dtype=np.float32)


def tenant_key(tenant: str) -> str:
    """The single FTS token standing for a tenant: hex only, so no tokenizer splits it."""
    return "t" + hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:24]


def doc_key(document_id: str) -> str:
    """The FTS token standing for a document (its UUID's hex digits)."""
    return "d" + document_id.replace("-", "")


class SQLiteStore:
    """Store of record and search engine in one SQLite file (``:memory:`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise ConfigurationError(f"cannot open database {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._conn.execute("PRAGMA busy_timeout = 10000")
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
        with self._lock:
            self._conn.close()

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
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
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
            rows = self._query("SELECT * FROM documents WHERE tenant = ? AND uri = ?", (tenant, uri))
        else:
            raise ValueError("find_document needs document_id or uri")
        return _document(rows[0]) if rows else None

    def list_documents(self, tenant: str) -> list[Document]:
        rows = self._query(
            "SELECT * FROM documents WHERE tenant = ? ORDER BY created_at, uri", (tenant,)
        )
        return [_document(r) for r in rows]

    def documents_by_id(self, tenant: str, document_ids: Sequence[str]) -> dict[str, Document]:
        out: dict[str, Document] = {}
        for batch in _batches(list(dict.fromkeys(document_ids))):
            marks = ",".join("?" * len(batch))
            rows = self._query(
                f"SELECT * FROM documents WHERE tenant = ? AND document_id IN ({marks})",
                (tenant, *batch),
            )
            out.update((r[1], _document(r)) for r in rows)
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
        tenant = document.tenant
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk is required")
        check_version_rows(document, version, chunks)
        with self._write() as conn:
            row = conn.execute(
                "SELECT current_hash FROM documents WHERE tenant = ? AND document_id = ?",
                (tenant, document.document_id),
            ).fetchone()
            current = row[0] if row else None
            if current != expected_current:
                raise ConcurrentWriteError(
                    f"document {document.document_id} changed during ingest; retry"
                )
            if row is None:
                taken = conn.execute(
                    "SELECT 1 FROM documents WHERE tenant = ? AND uri = ?", (tenant, document.uri)
                ).fetchone()
                if taken:
                    raise ConcurrentWriteError(
                        f"another document was created at {document.uri} during ingest; retry"
                    )
                conn.execute(
                    "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tenant,
                        document.document_id,
                        document.uri,
                        document.title,
                        document.status.value,
                        document.published_at,
                        json.dumps(dict(document.metadata)),
                        document.created_at,
                        version.content_hash,
                    ),
                )
            else:
                conn.execute(
                    "UPDATE documents SET current_hash = ?, title = ?, status = ?, metadata = ?"
                    " WHERE tenant = ? AND document_id = ?",
                    (
                        version.content_hash,
                        document.title,
                        document.status.value,
                        json.dumps(dict(document.metadata)),
                        tenant,
                        document.document_id,
                    ),
                )
            if current is not None:
                conn.execute(
                    "UPDATE versions SET superseded_by = ?"
                    " WHERE tenant = ? AND document_id = ? AND superseded_by IS NULL",
                    (version.content_hash, tenant, document.document_id),
                )
                _drop_from_indexes(conn, tenant, document.document_id)
            if _reinstate(conn, document, version.content_hash):
                self._write_routing(conn, document, routing_vector)
                return
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM versions WHERE tenant = ? AND document_id = ?",
                (tenant, document.document_id),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO versions (tenant, document_id, content_hash, seq, text, parser,"
                " chunker, created_at, page_count, superseded_by)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                (
                    tenant,
                    document.document_id,
                    version.content_hash,
                    seq,
                    version.text,
                    version.parser,
                    version.chunker,
                    version.created_at,
                    version.page_count,
                ),
            )
            key = tenant_key(tenant)
            live = document.status is DocumentStatus.LIVE
            for i, chunk in enumerate(chunks):
                blob = None if vectors is None else np.asarray(vectors[i], np.float32).tobytes()
                cur = conn.execute(
                    f"INSERT INTO chunks ({_CHUNK_COLUMNS}, vector)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*_chunk_row(chunk), blob),
                )
                if live and not chunk.erased:
                    conn.execute(
                        "INSERT INTO chunks_fts (rowid, tenant_key, doc_key, body)"
                        " VALUES (?, ?, ?, ?)",
                        (cur.lastrowid, key, doc_key(document.document_id), chunk.embed_text),
                    )
            self._write_routing(conn, document, routing_vector)

    @staticmethod
    def _write_routing(
        conn: sqlite3.Connection,
        document: Document,
        routing_vector: npt.NDArray[np.float32] | None,
    ) -> None:
        conn.execute(
            "DELETE FROM routing WHERE tenant = ? AND document_id = ?",
            (document.tenant, document.document_id),
        )
        if routing_vector is not None:
            conn.execute(
                "INSERT INTO routing VALUES (?, ?, ?)",
                (
                    document.tenant,
                    document.document_id,
                    np.asarray(routing_vector, np.float32).tobytes(),
                ),
            )

    def versions(self, tenant: str, document_id: str) -> list[Version]:
        rows = self._query(
            "SELECT * FROM versions WHERE tenant = ? AND document_id = ? ORDER BY seq",
            (tenant, document_id),
        )
        return [_version(r) for r in rows]

    def version(self, tenant: str, document_id: str, hash16: str) -> Version | None:
        if len(hash16) != 16 or not all(c in "0123456789abcdef" for c in hash16):
            return None
        rows = self._query(
            "SELECT * FROM versions WHERE tenant = ? AND document_id = ?"
            " AND content_hash >= ? AND content_hash < ?",
            (tenant, document_id, hash16, hash16 + "g"),
        )
        return _version(rows[0]) if len(rows) == 1 else None

    # -- chunks -----------------------------------------------------------

    def chunks(self, tenant: str, document_id: str, content_hash: str) -> list[Chunk]:
        rows = self._query(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE tenant = ? AND document_id = ?"
            " AND content_hash = ? ORDER BY ordinal",
            (tenant, document_id, content_hash),
        )
        return [_chunk(r) for r in rows]

    def chunk(self, tenant: str, chunk_id: str) -> Chunk | None:
        return self.chunks_by_id(tenant, [chunk_id]).get(chunk_id)

    def chunks_by_id(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        out: dict[str, Chunk] = {}
        for batch in _batches(list(dict.fromkeys(chunk_ids))):
            marks = ",".join("?" * len(batch))
            rows = self._query(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE tenant = ? AND chunk_id IN ({marks})",
                (tenant, *batch),
            )
            out.update((r[0], _chunk(r)) for r in rows)
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
                _drop_from_indexes(conn, tenant, document_id)
            elif cur.rowcount:
                _drop_from_indexes(conn, tenant, document_id)
                _add_current_to_fts(conn, tenant, document_id)
            return cur.rowcount > 0

    def purge(self, tenant: str, document_id: str) -> bool:
        with self._write() as conn:
            _drop_from_indexes(conn, tenant, document_id)
            args = (tenant, document_id)
            conn.execute("DELETE FROM chunks WHERE tenant = ? AND document_id = ?", args)
            conn.execute("DELETE FROM versions WHERE tenant = ? AND document_id = ?", args)
            conn.execute("DELETE FROM routing WHERE tenant = ? AND document_id = ?", args)
            cur = conn.execute("DELETE FROM documents WHERE tenant = ? AND document_id = ?", args)
            return cur.rowcount > 0

    def erase(self, tenant: str, document_id: str, chunk_id: str | None = None) -> int:
        with self._write() as conn:
            sql = (
                "SELECT rowid, content_hash, start, \"end\" FROM chunks"
                " WHERE tenant = ? AND document_id = ? AND erased = 0"
            )
            params: tuple[str, ...] = (tenant, document_id)
            if chunk_id is not None:
                sql += " AND chunk_id = ?"
                params += (chunk_id,)
            targets = conn.execute(sql, params).fetchall()
            by_version: dict[str, list[tuple[int, int]]] = {}
            for rowid, chash, start, end in targets:
                conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (rowid,))
                conn.execute(
                    "UPDATE chunks SET text = '', embed_text = '', erased = 1, vector = NULL"
                    " WHERE rowid = ?",
                    (rowid,),
                )
                by_version.setdefault(chash, []).append((start, end))
            if chunk_id is None:
                # Whole-document erasure also blanks text that no chunk covered.
                for (chash, length) in conn.execute(
                    "SELECT content_hash, length(text) FROM versions"
                    " WHERE tenant = ? AND document_id = ?",
                    (tenant, document_id),
                ).fetchall():
                    by_version[chash] = [(0, length)]
                conn.execute(
                    "DELETE FROM routing WHERE tenant = ? AND document_id = ?", params
                )
            for chash, ranges in by_version.items():
                _blank_ranges(conn, tenant, document_id, chash, ranges)
            return len(targets)

    # -- search -------------------------------------------------------------

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
        # nothing in a question can be read as FTS5 syntax. Tenant and document
        # scope are filters inside the MATCH itself, so FTS5 can rank with its
        # own ORDER BY rank LIMIT path instead of filtering after a JOIN.
        body = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f'tenant_key : "{tenant_key(tenant)}" AND body : ({body})'
        if documents is not None:
            if not documents:
                return []
            match += " AND doc_key : (" + " OR ".join(doc_key(d) for d in documents) + ")"
        rows = self._query(
            "SELECT c.chunk_id, -s.rank FROM (SELECT rowid, rank FROM chunks_fts"
            " WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?) AS s"
            " JOIN chunks AS c ON c.rowid = s.rowid WHERE c.tenant = ? ORDER BY s.rank",
            (match, k, tenant),
        )
        return [(r[0], float(r[1])) for r in rows]

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
                _stack([r[2] for r in rows]),
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
            index = RoutingIndex(tuple(r[0] for r in rows), _stack([r[1] for r in rows]))
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


# -- row mapping --------------------------------------------------------------


def _document(r: Any) -> Document:
    return Document(
        tenant=r[0],
        document_id=r[1],
        uri=r[2],
        title=r[3],
        status=DocumentStatus(r[4]),
        published_at=r[5],
        metadata=json.loads(r[6]),
        created_at=r[7],
    )


def _version(r: Any) -> Version:
    return Version(
        tenant=r[0],
        document_id=r[1],
        content_hash=r[2],
        text=r[4],
        parser=r[5],
        chunker=r[6],
        created_at=r[7],
        page_count=r[8],
        superseded_by=r[9],
        erased_ranges=tuple((int(a), int(b)) for a, b in json.loads(r[10])),
    )


def _chunk_row(c: Chunk) -> tuple[Any, ...]:
    return (
        c.chunk_id,
        c.tenant,
        c.document_id,
        c.content_hash,
        c.ordinal,
        c.start,
        c.end,
        c.text,
        c.embed_text,
        json.dumps(list(c.section)),
        json.dumps(list(c.pages)),
        c.page_label,
        json.dumps([[b.page, b.x0, b.y0, b.x1, b.y1, b.origin.value] for b in c.bboxes]),
        None if c.time_range is None else json.dumps(list(c.time_range)),
        int(c.erased),
    )


def _chunk(r: Any) -> Chunk:
    time_range = json.loads(r[13]) if r[13] else None
    return Chunk(
        chunk_id=r[0],
        tenant=r[1],
        document_id=r[2],
        content_hash=r[3],
        ordinal=r[4],
        start=r[5],
        end=r[6],
        text=r[7],
        embed_text=r[8],
        section=tuple(json.loads(r[9])),
        pages=tuple(json.loads(r[10])),
        page_label=r[11],
        bboxes=tuple(
            BBox(b[0], b[1], b[2], b[3], b[4], BoxOrigin(b[5])) for b in json.loads(r[12])
        ),
        time_range=None if time_range is None else (time_range[0], time_range[1]),
        erased=bool(r[14]),
    )


def _reinstate(conn: sqlite3.Connection, document: Document, content_hash: str) -> bool:
    """Make an earlier stored version current again (an edit undone: v1 → v2 → v1).

    Its chunks, ids and vectors are reused, so citations made against it while
    it was first current keep resolving to the same passages.
    """
    key = (document.tenant, document.document_id, content_hash)
    found = conn.execute(
        "SELECT 1 FROM versions WHERE tenant = ? AND document_id = ? AND content_hash = ?", key
    ).fetchone()
    if found is None:
        return False
    conn.execute(
        "UPDATE versions SET superseded_by = NULL"
        " WHERE tenant = ? AND document_id = ? AND content_hash = ?",
        key,
    )
    if document.status is DocumentStatus.LIVE:
        _add_current_to_fts(conn, document.tenant, document.document_id)
    return True


def _drop_from_indexes(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    conn.execute(
        "DELETE FROM chunks_fts WHERE rowid IN"
        " (SELECT rowid FROM chunks WHERE tenant = ? AND document_id = ?)",
        (tenant, document_id),
    )


def _add_current_to_fts(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    """Index the current version's unerased chunks (a restored document)."""
    conn.execute(
        "INSERT INTO chunks_fts (rowid, tenant_key, doc_key, body)"
        " SELECT c.rowid, ?, ?, c.embed_text FROM chunks AS c JOIN documents AS d"
        " ON d.tenant = c.tenant AND d.document_id = c.document_id"
        " WHERE c.tenant = ? AND c.document_id = ? AND c.content_hash = d.current_hash"
        " AND c.erased = 0",
        (tenant_key(tenant), doc_key(document_id), tenant, document_id),
    )


def _blank_ranges(
    conn: sqlite3.Connection,
    tenant: str,
    document_id: str,
    content_hash: str,
    ranges: list[tuple[int, int]],
) -> None:
    row = conn.execute(
        "SELECT text, erased FROM versions WHERE tenant = ? AND document_id = ?"
        " AND content_hash = ?",
        (tenant, document_id, content_hash),
    ).fetchone()
    if row is None:
        return
    text, erased = row[0], [tuple(x) for x in json.loads(row[1])]
    for start, end in ranges:
        text = text[:start] + " " * (end - start) + text[end:]
        erased.append((start, end))
    conn.execute(
        "UPDATE versions SET text = ?, erased = ? WHERE tenant = ? AND document_id = ?"
        " AND content_hash = ?",
        (text, json.dumps(sorted(set(erased))), tenant, document_id, content_hash),
    )


def _stack(blobs: list[bytes]) -> npt.NDArray[np.float32]:
    if not blobs:
        return _EMPTY
    return np.vstack([np.frombuffer(b, dtype=np.float32) for b in blobs])


def _batches(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
