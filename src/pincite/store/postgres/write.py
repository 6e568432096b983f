"""The writes with most to keep consistent: a new version and new vectors.

Each runs inside the caller's transaction, after nothing else has been written
in it, and takes the document's row lock first, so writers of one document
queue behind each other and writers of different documents do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.types.json import Jsonb

from pincite.model import Chunk, Document, Version
from pincite.store import versioning
from pincite.store.postgres import rows
from pincite.store.postgres.index import Delta, index, unindex

Cursor = psycopg.Cursor[tuple[Any, ...]]


class VersionSQL:
    """PostgreSQL's statements for :func:`pincite.store.versioning.write_version`.

    ``delta`` carries the tenant's BM25 statistics change; commit it after the rules ran.
    """

    def __init__(self, cur: Cursor, tenant: str, document_id: str) -> None:
        self.cur, self.tenant, self.document_id = cur, tenant, document_id
        self.key = (tenant, document_id)
        self.delta = Delta(tenant)

    def lock_current(self) -> tuple[bool, str | None]:
        row = self.cur.execute(
            "SELECT current_hash FROM documents WHERE tenant = %s AND document_id = %s FOR UPDATE",
            self.key,
        ).fetchone()
        return (row is not None, None if row is None else row[0])

    def insert_document(self, document: Document, current_hash: str) -> bool:
        # A concurrent writer of the same new document (same id or same uri)
        # makes this insert do nothing once it commits: that writer won.
        self.cur.execute(
            f"INSERT INTO documents ({rows.DOCUMENT_COLUMNS}, current_hash)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (
                document.tenant,
                document.document_id,
                document.uri,
                document.title,
                document.status.value,
                document.published_at,
                Jsonb(dict(document.metadata)),
                document.created_at,
                current_hash,
            ),
        )
        return self.cur.rowcount == 1

    def update_document(self, document: Document, current_hash: str) -> None:
        self.cur.execute(
            "UPDATE documents SET current_hash = %s, title = %s, status = %s, metadata = %s"
            " WHERE tenant = %s AND document_id = %s",
            (
                current_hash,
                document.title,
                document.status.value,
                Jsonb(dict(document.metadata)),
                *self.key,
            ),
        )

    def unindex(self) -> None:
        unindex(self.cur, self.delta, self.document_id)

    def supersede(self, by: str) -> None:
        self.cur.execute(
            "UPDATE versions SET superseded_by = %s WHERE tenant = %s AND document_id = %s"
            " AND superseded_by IS NULL AND content_hash <> %s",
            (by, *self.key, by),
        )

    def next_seq(self) -> int:
        row = self.cur.execute(
            "SELECT coalesce(max(seq), 0) + 1 FROM versions WHERE tenant = %s AND document_id = %s",
            self.key,
        ).fetchone()
        assert row is not None
        return int(row[0])

    def revive(self, content_hash: str, seq: int) -> bool:
        revived = self.cur.execute(
            "UPDATE versions SET superseded_by = NULL, seq = %s"
            " WHERE tenant = %s AND document_id = %s AND content_hash = %s RETURNING 1",
            (seq, *self.key, content_hash),
        ).fetchone()
        return revived is not None

    def refresh_vectors(
        self, content_hash: str, chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        self.cur.executemany(
            "UPDATE chunks SET embedding = %s WHERE tenant = %s AND document_id = %s"
            ' AND content_hash = %s AND start = %s AND "end" = %s AND NOT erased',
            [
                (rows.vector(vectors[i]), *self.key, content_hash, c.start, c.end)
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
        _insert_version(self.cur, version, seq, chunks, vectors)

    def index(self, content_hash: str) -> None:
        index(self.cur, self.delta, self.document_id, content_hash=content_hash)

    def write_routing(self, vector: npt.NDArray[np.float32] | None) -> None:
        if vector is None:
            self.cur.execute("DELETE FROM routing WHERE tenant = %s AND document_id = %s", self.key)
        else:
            self.cur.execute(
                "INSERT INTO routing (tenant, document_id, embedding) VALUES (%s, %s, %s)"
                " ON CONFLICT (tenant, document_id) DO UPDATE SET embedding = excluded.embedding",
                (*self.key, rows.vector(vector)),
            )


def write_version(
    cur: Cursor,
    document: Document,
    version: Version,
    chunks: Sequence[Chunk],
    vectors: npt.NDArray[np.float32] | None,
    routing_vector: npt.NDArray[np.float32] | None,
    expected_current: str | None,
) -> None:
    """Make ``version`` the document's current version under the shared rules."""
    statements = VersionSQL(cur, document.tenant, document.document_id)
    versioning.write_version(
        statements,
        document,
        version,
        chunks,
        vectors,
        routing_vector,
        expected_current=expected_current,
    )
    statements.delta.commit(cur)


def _insert_version(
    cur: Cursor,
    version: Version,
    seq: int,
    chunks: Sequence[Chunk],
    vectors: npt.NDArray[np.float32] | None,
) -> None:
    cur.execute(
        "INSERT INTO versions (tenant, document_id, content_hash, seq, text, parser, chunker,"
        " created_at, page_count) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
    if not chunks:
        return
    cur.executemany(
        f"INSERT INTO chunks ({rows.CHUNK_COLUMNS}, embedding)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (*rows.chunk_params(c), None if vectors is None else rows.vector(vectors[i]))
            for i, c in enumerate(chunks)
        ],
    )


def replace_vectors(
    cur: Cursor,
    tenant: str,
    chunk_vectors: dict[str, npt.NDArray[np.float32]],
    routing: dict[str, npt.NDArray[np.float32]],
) -> None:
    """Swap in re-embedded vectors; erased chunks keep none."""
    cur.executemany(
        "UPDATE chunks SET embedding = %s WHERE tenant = %s AND chunk_id = %s AND NOT erased",
        [(rows.vector(v), tenant, cid) for cid, v in chunk_vectors.items()],
    )
    cur.executemany(
        "INSERT INTO routing (tenant, document_id, embedding)"
        " SELECT tenant, document_id, %s FROM documents"
        " WHERE tenant = %s AND document_id = %s"
        " ON CONFLICT (tenant, document_id) DO UPDATE SET embedding = excluded.embedding",
        [(rows.vector(v), tenant, did) for did, v in routing.items()],
    )
    Delta(tenant).commit(cur)
