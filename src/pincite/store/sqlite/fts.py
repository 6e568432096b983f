"""Keeping the FTS5 index and version text in step with lifecycle changes.

The FTS table carries the tenant and the document as single indexed tokens so
that tenant and scope filters run inside the MATCH itself.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from pincite.model import Document, DocumentStatus
from pincite.store.base import blank_text


def tenant_key(tenant: str) -> str:
    """The single FTS token standing for a tenant: hex only, so no tokenizer splits it."""
    return "t" + hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:24]


def doc_key(document_id: str) -> str:
    """The FTS token standing for a document (its UUID's hex digits)."""
    return "d" + document_id.replace("-", "")


def reinstate(conn: sqlite3.Connection, document: Document, content_hash: str) -> bool:
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
        add_current_to_fts(conn, document.tenant, document.document_id)
    return True


def drop_from_indexes(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    conn.execute(
        "DELETE FROM chunks_fts WHERE rowid IN"
        " (SELECT rowid FROM chunks WHERE tenant = ? AND document_id = ?)",
        (tenant, document_id),
    )


def add_current_to_fts(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    """Index the current version's unerased chunks (a restored document)."""
    conn.execute(
        "INSERT INTO chunks_fts (rowid, tenant_key, doc_key, body)"
        " SELECT c.rowid, ?, ?, c.embed_text FROM chunks AS c JOIN documents AS d"
        " ON d.tenant = c.tenant AND d.document_id = c.document_id"
        " WHERE c.tenant = ? AND c.document_id = ? AND c.content_hash = d.current_hash"
        " AND c.erased = 0",
        (tenant_key(tenant), doc_key(document_id), tenant, document_id),
    )


def blank_ranges(
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
    text, erased = blank_text(row[0], json.loads(row[1]), ranges)
    conn.execute(
        "UPDATE versions SET text = ?, erased = ? WHERE tenant = ? AND document_id = ?"
        " AND content_hash = ?",
        (text, json.dumps(erased), tenant, document_id, content_hash),
    )
