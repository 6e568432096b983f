"""Named, ordered schema migrations, each applied once in its own transaction.

Applied names are recorded in ``pincite_migrations``. Every tenant-owned
table's primary key and every B-tree index lead with ``tenant``, so the schema
distributes by tenant under Citus unchanged (``docs/postgres.md`` has the DDL);
``meta`` and ``pincite_migrations`` hold no tenant data (Citus reference tables).

The vector column has no declared dimension: the embedder, and so the
dimension, is known only at the first write. :func:`ensure_dense_index`
creates the HNSW index for a dimension then, as an expression index over
``embedding::vector(dim)`` restricted to searchable rows of that dimension
(pgvector's documented way to index a column of mixed dimensions).
"""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
from psycopg import sql

# A fixed key for pg_advisory_lock: two processes opening a fresh database
# at once must not both run the same migration.
_MIGRATION_LOCK = 7_283_519_004
_INDEX_LOCK = 7_283_519_005

# pgvector's HNSW indexes `vector` columns of up to 2,000 dimensions; above
# that, dense search stays exact.
HNSW_MAX_DIM = 2000
# pgvector defaults (m = 16, ef_construction = 64); 64 → 100 raises recall at
# a modest build cost (measured in benchmarks/bench_postgres.py).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 100

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001_core",
        """
        CREATE EXTENSION IF NOT EXISTS vector;
        CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE documents (
            tenant text NOT NULL,
            document_id text NOT NULL,
            uri text NOT NULL,
            title text NOT NULL,
            status text NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'deleted')),
            published_at text,
            metadata jsonb NOT NULL DEFAULT '{}',
            created_at text NOT NULL,
            current_hash text,
            PRIMARY KEY (tenant, document_id),
            UNIQUE (tenant, uri)
        );
        CREATE TABLE versions (
            tenant text NOT NULL,
            document_id text NOT NULL,
            content_hash text NOT NULL,
            seq integer NOT NULL,
            text text NOT NULL,
            parser text NOT NULL,
            chunker text NOT NULL,
            created_at text NOT NULL,
            page_count integer NOT NULL DEFAULT 0,
            superseded_by text,
            erased jsonb NOT NULL DEFAULT '[]',
            PRIMARY KEY (tenant, document_id, content_hash),
            FOREIGN KEY (tenant, document_id) REFERENCES documents ON DELETE CASCADE
        );
        -- The database itself refuses a second current version of a document.
        CREATE UNIQUE INDEX versions_one_current ON versions (tenant, document_id)
            WHERE superseded_by IS NULL;
        -- id: a compact key for postings. bigserial rather than an identity
        -- column, which Citus supports only with limitations.
        -- searchable = current version, live document, not erased. Only
        -- searchable chunks have postings, count in tenant_stats, and sit in
        -- the HNSW index.
        CREATE TABLE chunks (
            tenant text NOT NULL,
            id bigserial NOT NULL,
            chunk_id text NOT NULL,
            document_id text NOT NULL,
            content_hash text NOT NULL,
            ordinal integer NOT NULL,
            start integer NOT NULL,
            "end" integer NOT NULL,
            text text NOT NULL,
            embed_text text NOT NULL,
            section jsonb NOT NULL DEFAULT '[]',
            pages jsonb NOT NULL DEFAULT '[]',
            page_label text,
            bboxes jsonb NOT NULL DEFAULT '[]',
            time_range jsonb,
            erased boolean NOT NULL DEFAULT false,
            searchable boolean NOT NULL DEFAULT false,
            length integer NOT NULL DEFAULT 0,
            embedding vector,
            PRIMARY KEY (tenant, id),
            UNIQUE (tenant, chunk_id),
            FOREIGN KEY (tenant, document_id, content_hash) REFERENCES versions ON DELETE CASCADE
        );
        -- Keep vectors in the row (text and embed_text are moved out instead):
        -- an exact scan then reads one page per row, not a TOAST lookup per row.
        ALTER TABLE chunks ALTER COLUMN embedding SET STORAGE MAIN;
        CREATE INDEX chunks_by_version ON chunks (tenant, document_id, content_hash, ordinal);
        -- BM25 postings: one row per (term, searchable chunk), term = an English
        -- Snowball lexeme from to_tsvector('english', embed_text).
        CREATE TABLE chunk_terms (
            tenant text NOT NULL,
            term text NOT NULL,
            chunk bigint NOT NULL,
            tf integer NOT NULL,
            length integer NOT NULL,
            PRIMARY KEY (tenant, term, chunk) INCLUDE (tf, length)
        );
        CREATE INDEX chunk_terms_by_chunk ON chunk_terms (tenant, chunk);
        -- Per-tenant BM25 collection statistics, kept at write time;
        -- generation changes on every write so readers can cache safely.
        CREATE TABLE tenant_stats (
            tenant text PRIMARY KEY,
            chunks bigint NOT NULL DEFAULT 0,
            length bigint NOT NULL DEFAULT 0,
            generation bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE routing (
            tenant text NOT NULL,
            document_id text NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (tenant, document_id),
            FOREIGN KEY (tenant, document_id) REFERENCES documents ON DELETE CASCADE
        );
        """,
    ),
    (
        # Erasure replaces a version's content hash by a tombstone
        # (pincite.store.erasure); its chunks follow the key they reference.
        "0002_tombstone_cascade",
        """
        ALTER TABLE chunks DROP CONSTRAINT chunks_tenant_document_id_content_hash_fkey;
        ALTER TABLE chunks ADD CONSTRAINT chunks_tenant_document_id_content_hash_fkey
            FOREIGN KEY (tenant, document_id, content_hash) REFERENCES versions
            ON DELETE CASCADE ON UPDATE CASCADE;
        """,
    ),
    (
        # What databases erased before issue 13 still hold: real hashes of
        # erased versions (a version erased in part keeps its hash16, which
        # its ids carry), titles, uris and metadata of documents erased whole,
        # heading paths of erased chunks. Dead tuples go at the next VACUUM.
        "0003_erasure_tombstones",
        """
        CREATE TEMP TABLE tombstones ON COMMIT DROP AS
            SELECT tenant, document_id, content_hash AS old,
                CASE WHEN btrim(text, ' ') = '' THEN '' ELSE left(content_hash, 16) END
                || left(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
                        CASE WHEN btrim(text, ' ') = '' THEN 64 ELSE 48 END) AS new
            FROM versions WHERE erased <> '[]'::jsonb;
        UPDATE versions AS v SET content_hash = t.new FROM tombstones AS t
            WHERE v.tenant = t.tenant AND v.document_id = t.document_id
            AND v.content_hash = t.old;
        UPDATE versions AS v SET superseded_by = t.new FROM tombstones AS t
            WHERE v.tenant = t.tenant AND v.document_id = t.document_id
            AND v.superseded_by = t.old;
        UPDATE documents AS d SET current_hash = t.new FROM tombstones AS t
            WHERE d.tenant = t.tenant AND d.document_id = t.document_id
            AND d.current_hash = t.old;
        UPDATE documents AS d SET title = '[erased]', uri = 'erased:' || d.document_id,
            metadata = '{}' WHERE d.current_hash IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM versions AS v WHERE v.tenant = d.tenant
                AND v.document_id = d.document_id
                AND (v.erased = '[]'::jsonb OR btrim(v.text, ' ') <> ''));
        UPDATE chunks SET section = '[]' WHERE erased AND section <> '[]';
        """,
    ),
    (
        "0004_conversations",
        """
        CREATE TABLE conversations (
            tenant text NOT NULL,
            conversation_id text NOT NULL,
            title text NOT NULL,
            created_at text NOT NULL,
            updated_at text NOT NULL,
            turn_count integer NOT NULL DEFAULT 0,
            PRIMARY KEY (tenant, conversation_id)
        );
        CREATE TABLE conversation_turns (
            tenant text NOT NULL,
            conversation_id text NOT NULL,
            seq integer NOT NULL,
            created_at text NOT NULL,
            data text NOT NULL,
            PRIMARY KEY (tenant, conversation_id, seq),
            FOREIGN KEY (tenant, conversation_id) REFERENCES conversations ON DELETE CASCADE
        );
        CREATE TABLE memories (
            tenant text NOT NULL,
            memory_id text NOT NULL,
            text text NOT NULL,
            evidence_ids jsonb NOT NULL DEFAULT '[]',
            created_at text NOT NULL,
            PRIMARY KEY (tenant, memory_id)
        );
        """,
    ),
    (
        # Ingest commits text before its vectors (issue 14): this index holds
        # only the searchable chunks still waiting for one.
        "0005_chunks_without_vectors",
        "CREATE INDEX chunks_without_vectors ON chunks (tenant, id)"
        " WHERE searchable AND embedding IS NULL;",
    ),
)


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """Apply pending migrations in order; return the names applied now.

    ``conn`` must be in autocommit mode; each migration runs in its own
    transaction under a session advisory lock.
    """
    conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS pincite_migrations"
            " (name text PRIMARY KEY, applied_at timestamptz NOT NULL)"
        )
        done = {row[0] for row in conn.execute("SELECT name FROM pincite_migrations")}
        applied = []
        for name, script in MIGRATIONS:
            if name in done:
                continue
            with conn.transaction():
                conn.execute(script)
                conn.execute(
                    "INSERT INTO pincite_migrations VALUES (%s, %s)",
                    (name, datetime.now(UTC)),
                )
            applied.append(name)
        return applied
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))


def dense_index_name(dim: int) -> str:
    return f"chunks_hnsw_{dim}"


def dense_index_dims(conn: psycopg.Connection[tuple[object, ...]]) -> set[int]:
    """The dimensions that have an HNSW index."""
    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
        " AND tablename = 'chunks' AND indexname ~ '^chunks_hnsw_[0-9]+$'"
    ).fetchall()
    return {int(str(r[0]).rsplit("_", 1)[1]) for r in rows}


def ensure_dense_index(conn: psycopg.Connection[tuple[object, ...]], dim: int) -> None:
    """Create the HNSW index for ``dim``-dimensional vectors unless it exists.

    Runs in its own transaction, before any write that brings the first
    vector of that dimension, so no writer holds row locks while waiting for
    the index build's table lock.
    """
    if not 0 < dim <= HNSW_MAX_DIM:
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_INDEX_LOCK,))
        conn.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {name} ON chunks USING hnsw"
                " ((embedding::vector({dim})) vector_ip_ops)"
                " WITH (m = {m}, ef_construction = {ef})"
                " WHERE searchable AND vector_dims(embedding) = {dim}"
            ).format(
                name=sql.Identifier(dense_index_name(dim)),
                dim=sql.Literal(dim),
                m=sql.Literal(HNSW_M),
                ef=sql.Literal(HNSW_EF_CONSTRUCTION),
            )
        )
