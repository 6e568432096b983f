"""Named, ordered schema migrations, each applied once in its own transaction.

Applied names are recorded in ``pincite_migrations`` so opening an older file
brings it forward and opening a current one changes nothing.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from pincite.store.sqlite.fts import tenant_key


def _fts_per_tenant(conn: sqlite3.Connection) -> None:
    """Rebuild the lexical index as one FTS5 table per tenant, then drop the shared one.

    The shared table ranked with statistics over every tenant's rows, so one
    workspace's documents shifted another's BM25 scores. Each tenant's table
    is built from what must be indexed (live documents, current versions,
    unerased chunks), not copied, so a stale row in an old file is not carried
    over. The table definition is spelled out here, frozen, rather than taken
    from ``fts.fts_table``, which may change later.
    """
    conn.execute(
        "CREATE TABLE fts_tables (tenant TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE) WITHOUT ROWID"
    )
    tenants = conn.execute(
        "SELECT DISTINCT c.tenant FROM chunks AS c JOIN documents AS d"
        " ON d.tenant = c.tenant AND d.document_id = c.document_id"
        " WHERE d.status = 'live' AND c.content_hash = d.current_hash AND c.erased = 0"
    ).fetchall()
    for (tenant,) in tenants:
        table = "fts_" + tenant_key(tenant)
        conn.execute(
            f"CREATE VIRTUAL TABLE {table} USING fts5(doc_key, body,"
            " tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('rank', 'bm25(0.0, 1.0)')")
        conn.execute("INSERT INTO fts_tables (tenant, name) VALUES (?, ?)", (tenant, table))
        conn.execute(
            f"INSERT INTO {table} (rowid, doc_key, body)"
            " SELECT c.rowid, 'd' || replace(c.document_id, '-', ''), c.embed_text"
            " FROM chunks AS c JOIN documents AS d"
            " ON d.tenant = c.tenant AND d.document_id = c.document_id"
            " WHERE c.tenant = ? AND d.status = 'live' AND c.content_hash = d.current_hash"
            " AND c.erased = 0",
            (tenant,),
        )
    conn.execute("DROP TABLE chunks_fts")


def _erasure_tombstones(conn: sqlite3.Connection) -> None:
    """Scrub what files erased before issue 13 still hold (rules frozen here, as applied).

    Erased versions get a random tombstone hash (a version erased in part
    keeps its hash16, which its ids carry); a document whose every version is
    erased whole loses its title, uri and metadata; erased chunks lose their
    heading path; every tenant's FTS5 table is merged so no deleted token
    survives in an old segment (``secure_delete`` is on, so freed pages are
    zeroed).
    """
    versions = conn.execute(
        "SELECT tenant, document_id, content_hash, text FROM versions WHERE erased != '[]'"
    ).fetchall()
    for tenant, document_id, old, text in versions:
        whole = text.strip(" ") == ""
        new = secrets.token_hex(32) if whole else old[:16] + secrets.token_hex(24)
        key = (tenant, document_id, old)
        for statement in (
            "UPDATE versions SET content_hash = ?1 WHERE tenant = ?2 AND document_id = ?3"
            " AND content_hash = ?4",
            "UPDATE chunks SET content_hash = ?1 WHERE tenant = ?2 AND document_id = ?3"
            " AND content_hash = ?4",
            "UPDATE versions SET superseded_by = ?1 WHERE tenant = ?2 AND document_id = ?3"
            " AND superseded_by = ?4",
            "UPDATE documents SET current_hash = ?1 WHERE tenant = ?2 AND document_id = ?3"
            " AND current_hash = ?4",
        ):
            conn.execute(statement, (new, *key))
    conn.execute(
        "UPDATE documents SET title = '[erased]', uri = 'erased:' || document_id,"
        " metadata = '{}' WHERE current_hash IS NOT NULL AND NOT EXISTS (SELECT 1"
        " FROM versions AS v WHERE v.tenant = documents.tenant"
        " AND v.document_id = documents.document_id"
        " AND (v.erased = '[]' OR trim(v.text, ' ') != ''))"
    )
    conn.execute("UPDATE chunks SET section = '[]' WHERE erased = 1")
    for (table,) in conn.execute("SELECT name FROM fts_tables").fetchall():
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")


# 0001 made one FTS table with the tenant as an indexed token column, so the
# tenant filter ran inside the FTS5 query (filtering by JOIN measured 20 ms to
# ~1 s per query at 100k chunks, issue 3); 0003 gives each tenant its own table.
MIGRATIONS: tuple[tuple[str, str | Callable[[sqlite3.Connection], None]], ...] = (
    (
        "0001_core",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents (
            tenant TEXT NOT NULL,
            document_id TEXT NOT NULL,
            uri TEXT NOT NULL,
            title TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'live',
            published_at TEXT,
            metadata TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            current_hash TEXT,
            PRIMARY KEY (tenant, document_id),
            UNIQUE (tenant, uri)
        ) WITHOUT ROWID;
        CREATE TABLE versions (
            tenant TEXT NOT NULL,
            document_id TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            parser TEXT NOT NULL,
            chunker TEXT NOT NULL,
            created_at TEXT NOT NULL,
            page_count INTEGER NOT NULL DEFAULT 0,
            superseded_by TEXT,
            PRIMARY KEY (tenant, document_id, content_hash)
        ) WITHOUT ROWID;
        CREATE TABLE chunks (
            rowid INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            chunk_id TEXT NOT NULL,
            document_id TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            text TEXT NOT NULL,
            embed_text TEXT NOT NULL,
            section TEXT NOT NULL DEFAULT '[]',
            pages TEXT NOT NULL DEFAULT '[]',
            page_label TEXT,
            bboxes TEXT NOT NULL DEFAULT '[]',
            time_range TEXT,
            erased INTEGER NOT NULL DEFAULT 0,
            vector BLOB,
            UNIQUE (tenant, chunk_id)
        );
        CREATE INDEX chunks_by_version ON chunks (tenant, document_id, content_hash, ordinal);
        CREATE TABLE routing (
            tenant TEXT NOT NULL,
            document_id TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (tenant, document_id)
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            tenant_key, doc_key, body, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('rank', 'bm25(0.0, 0.0, 1.0)');
        """,
    ),
    (
        "0002_erasure_ranges",
        "ALTER TABLE versions ADD COLUMN erased TEXT NOT NULL DEFAULT '[]';",
    ),
    ("0003_fts_per_tenant", _fts_per_tenant),
    ("0004_erasure_tombstones", _erasure_tombstones),
    (
        "0005_conversations",
        """
        CREATE TABLE conversations (
            tenant TEXT NOT NULL,
            conversation_id TEXT NOT NULL,
            title TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            turn_count INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (tenant, conversation_id)
        ) WITHOUT ROWID;
        CREATE TABLE conversation_turns (
            tenant TEXT NOT NULL,
            conversation_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (tenant, conversation_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE memories (
            tenant TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            text TEXT NOT NULL,
            evidence_ids TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            PRIMARY KEY (tenant, memory_id)
        ) WITHOUT ROWID;
        """,
    ),
    (
        # Ingest commits text before its vectors (issue 14): this index holds
        # only the chunks still waiting for one, so finding them stays cheap.
        "0006_chunks_without_vectors",
        "CREATE INDEX chunks_without_vectors ON chunks (tenant, rowid)"
        " WHERE vector IS NULL AND erased = 0;",
    ),
)


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in order; return the names applied now."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS pincite_migrations (name TEXT PRIMARY KEY, applied_at TEXT)"
    )
    done = {row[0] for row in conn.execute("SELECT name FROM pincite_migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        # Read again under the write lock: another process opening the same
        # file may have applied it between our read and our lock.
        if conn.execute("SELECT 1 FROM pincite_migrations WHERE name = ?", (name,)).fetchone():
            conn.execute("ROLLBACK")
            continue
        try:
            if callable(sql):
                sql(conn)
            else:
                for statement in _statements(sql):
                    conn.execute(statement)
            conn.execute(
                "INSERT INTO pincite_migrations VALUES (?, ?)",
                (name, datetime.now(UTC).isoformat()),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        applied.append(name)
    return applied


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]
