"""SQLite's statements for the shared version write rules (pincite.store.versioning).

Each runs on the connection of one ``BEGIN IMMEDIATE`` transaction, so the
whole write is one atomic step and writers queue on the database lock.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pincite.model import Chunk, Document, Version
from pincite.store.sqlite.fts import add_current_to_fts, drop_from_indexes
from pincite.store.sqlite.rows import CHUNK_COLUMNS, chunk_values


class VersionSQL:
    """One document's statements inside the caller's write transaction."""

    def __init__(self, conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
        self.conn, self.tenant, self.document_id = conn, tenant, document_id
        self.key = (tenant, document_id)

    def lock_current(self) -> tuple[bool, str | None]:
        # The transaction holds SQLite's write lock already: no row lock needed.
        row = self.conn.execute(
            "SELECT current_hash FROM documents WHERE tenant = ? AND document_id = ?", self.key
        ).fetchone()
        return (row is not None, None if row is None else row[0])

    def insert_document(self, document: Document, current_hash: str) -> bool:
        taken = self.conn.execute(
            "SELECT 1 FROM documents WHERE tenant = ? AND uri = ?", (self.tenant, document.uri)
        ).fetchone()
        if taken:
            return False
        self.conn.execute(
            "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                document.tenant,
                document.document_id,
                document.uri,
                document.title,
                document.status.value,
                document.published_at,
                json.dumps(dict(document.metadata)),
                document.created_at,
                current_hash,
            ),
        )
        return True

    def update_document(self, document: Document, current_hash: str) -> None:
        self.conn.execute(
            "UPDATE documents SET current_hash = ?, title = ?, status = ?, metadata = ?"
            " WHERE tenant = ? AND document_id = ?",
            (
                current_hash,
                document.title,
                document.status.value,
                json.dumps(dict(document.metadata)),
                *self.key,
            ),
        )

    def unindex(self) -> None:
        drop_from_indexes(self.conn, *self.key)

    def supersede(self, by: str) -> None:
        self.conn.execute(
            "UPDATE versions SET superseded_by = ? WHERE tenant = ? AND document_id = ?"
            " AND superseded_by IS NULL AND content_hash <> ?",
            (by, *self.key, by),
        )

    def next_seq(self) -> int:
        row = self.conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM versions WHERE tenant = ? AND document_id = ?",
            self.key,
        ).fetchone()
        return int(row[0])

    def revive(self, content_hash: str, seq: int) -> bool:
        cur = self.conn.execute(
            "UPDATE versions SET superseded_by = NULL, seq = ?"
            " WHERE tenant = ? AND document_id = ? AND content_hash = ?",
            (seq, *self.key, content_hash),
        )
        return cur.rowcount == 1

    def refresh_vectors(
        self, content_hash: str, chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        self.conn.executemany(
            "UPDATE chunks SET vector = ? WHERE tenant = ? AND document_id = ?"
            ' AND content_hash = ? AND start = ? AND "end" = ? AND erased = 0',
            [
                (_blob(vectors[i]), *self.key, content_hash, c.start, c.end)
                for i, c in enumerate(chunks)
            ],
        )

    def insert_version(
        self,
        version: Version,
        seq: int,
        chunks: Sequence[Chunk],
        vectors: npt.NDArray[np.float32] | None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO versions (tenant, document_id, content_hash, seq, text, parser,"
            " chunker, created_at, page_count, superseded_by)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            (
                version.tenant,
                version.document_id,
                version.content_hash,
                seq,
                version.text,
                version.parser,
                version.chunker,
                version.created_at,
                version.page_count,
            ),
        )
        self.conn.executemany(
            f"INSERT INTO chunks ({CHUNK_COLUMNS}, vector)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (*chunk_values(c), None if vectors is None else _blob(vectors[i]))
                for i, c in enumerate(chunks)
            ],
        )

    def index(self, content_hash: str) -> None:
        # The document row already names ``content_hash`` current; one
        # INSERT … SELECT indexes that version's unerased chunks.
        add_current_to_fts(self.conn, *self.key)

    def write_routing(self, vector: npt.NDArray[np.float32] | None) -> None:
        self.conn.execute("DELETE FROM routing WHERE tenant = ? AND document_id = ?", self.key)
        if vector is not None:
            self.conn.execute("INSERT INTO routing VALUES (?, ?, ?)", (*self.key, _blob(vector)))


def _blob(vector: npt.NDArray[np.float32]) -> bytes:
    return np.asarray(vector, np.float32).tobytes()
