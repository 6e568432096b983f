"""Keeping the FTS5 indexes and version text in step with lifecycle changes.

Each tenant has its own FTS5 table (``fts_tables`` maps tenant to table), so
BM25's statistics (document count, average length, term document frequency)
are that tenant's alone: another workspace's documents can neither shift a
score nor be sensed through one. The document is a single indexed token per
row so that a scope filter runs inside the MATCH itself.
"""

from __future__ import annotations

import hashlib
import sqlite3


def tenant_key(tenant: str) -> str:
    """The single FTS token standing for a tenant: hex only, so no tokenizer splits it."""
    return "t" + hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:24]


#: ``porter`` stems English words, which BM25 on scientific text benefits from.
TOKENIZE = "porter unicode61 remove_diacritics 2"


def fts_table(conn: sqlite3.Connection, tenant: str, *, create: bool = False) -> str | None:
    """The name of ``tenant``'s FTS5 table; ``None`` if it has none and ``create`` is false.

    Created inside the caller's transaction. The name is hex from the tenant's
    hash (safe to splice into SQL); ``fts_tables.name`` is unique, so two
    tenants could never share a table even if their hashes met.
    """
    found = conn.execute("SELECT name FROM fts_tables WHERE tenant = ?", (tenant,)).fetchone()
    if found is not None:
        return str(found[0])
    if not create:
        return None
    name = "fts_" + tenant_key(tenant)
    conn.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(doc_key, body, tokenize = '{TOKENIZE}')")
    # BM25 over the body only: doc_key is a filter token, not text.
    conn.execute(f"INSERT INTO {name} ({name}, rank) VALUES ('rank', 'bm25(0.0, 1.0)')")
    conn.execute("INSERT INTO fts_tables (tenant, name) VALUES (?, ?)", (tenant, name))
    return name


def forget_tenant_if_empty(conn: sqlite3.Connection, tenant: str) -> None:
    """Drop a tenant's FTS table, and its name from ``fts_tables``, once it has no document.

    Purging a workspace's last document should leave nothing of it behind; each
    table also costs every connection schema work, so empty ones are not kept.
    """
    table = fts_table(conn, tenant)
    if table is None:
        return
    if conn.execute("SELECT 1 FROM documents WHERE tenant = ? LIMIT 1", (tenant,)).fetchone():
        return
    conn.execute(f"DROP TABLE {table}")
    conn.execute("DELETE FROM fts_tables WHERE tenant = ?", (tenant,))


def doc_key(document_id: str) -> str:
    """The FTS token standing for a document (its UUID's hex digits)."""
    return "d" + document_id.replace("-", "")


def drop_from_indexes(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    table = fts_table(conn, tenant)
    if table is None:
        return
    conn.execute(
        f"DELETE FROM {table} WHERE rowid IN"
        " (SELECT rowid FROM chunks WHERE tenant = ? AND document_id = ?)",
        (tenant, document_id),
    )


def add_current_to_fts(conn: sqlite3.Connection, tenant: str, document_id: str) -> None:
    """Index the current version's unerased chunks (a restored document)."""
    table = fts_table(conn, tenant, create=True)
    conn.execute(
        f"INSERT INTO {table} (rowid, doc_key, body)"
        " SELECT c.rowid, ?, c.embed_text FROM chunks AS c JOIN documents AS d"
        " ON d.tenant = c.tenant AND d.document_id = c.document_id"
        " WHERE c.tenant = ? AND c.document_id = ? AND c.content_hash = d.current_hash"
        " AND c.erased = 0",
        (doc_key(document_id), tenant, document_id),
    )


def unindex_chunks(conn: sqlite3.Connection, tenant: str, rowids: list[int]) -> None:
    table = fts_table(conn, tenant)
    if table is not None:
        conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", [(r,) for r in rowids])
