"""Keeping the search side in step with the store of record, inside a write transaction.

A chunk is *searchable* while it belongs to its document's current version,
the document is live and the chunk is not erased. Only searchable chunks have
BM25 postings, count in ``tenant_stats`` and are in the HNSW index (a partial
index on ``searchable``). These helpers flip the flag and move the postings
and statistics with it, so the three never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

# Lexemes are what PostgreSQL's English Snowball configuration produces; the
# query side (search.py) uses the same configuration on the question.
_INDEX = """
WITH marked AS (
    UPDATE chunks AS c SET searchable = true, length = (
        SELECT coalesce(sum(cardinality(positions)), 0)
        FROM unnest(to_tsvector('english', c.embed_text))
    )
    WHERE c.tenant = %(tenant)s AND c.document_id = %(document)s AND {cond}
      AND NOT c.searchable AND NOT c.erased
    RETURNING c.id, c.length, c.embed_text
), postings AS (
    INSERT INTO chunk_terms (tenant, term, chunk, tf, length)
    SELECT %(tenant)s, t.lexeme, m.id, cardinality(t.positions), m.length
    FROM marked AS m CROSS JOIN LATERAL unnest(to_tsvector('english', m.embed_text)) AS t
)
SELECT count(*), coalesce(sum(length), 0) FROM marked
"""

_UNINDEX = """
WITH marked AS (
    UPDATE chunks AS c SET searchable = false
    WHERE c.tenant = %(tenant)s AND c.document_id = %(document)s AND {cond} AND c.searchable
    RETURNING c.id, c.length
), gone AS (
    DELETE FROM chunk_terms AS p USING marked AS m
    WHERE p.tenant = %(tenant)s AND p.chunk = m.id
)
SELECT count(*), coalesce(sum(length), 0) FROM marked
"""

_ALL = sql.SQL("true")
_VERSION = sql.SQL("c.content_hash = %(content_hash)s")
_CHUNK = sql.SQL("c.chunk_id = %(chunk_id)s")


@dataclass(slots=True)
class Delta:
    """Changes to one tenant's collection statistics within a transaction."""

    tenant: str
    chunks: int = 0
    length: int = 0

    def commit(self, cur: psycopg.Cursor[Any]) -> None:
        """Apply the delta and bump the tenant's generation (last, to hold the row briefly)."""
        cur.execute(
            "INSERT INTO tenant_stats AS s (tenant, chunks, length, generation)"
            " VALUES (%s, %s, %s, 1) ON CONFLICT (tenant) DO UPDATE SET"
            " chunks = s.chunks + excluded.chunks, length = s.length + excluded.length,"
            " generation = s.generation + 1",
            (self.tenant, self.chunks, self.length),
        )


def index(
    cur: psycopg.Cursor[Any],
    delta: Delta,
    document_id: str,
    *,
    content_hash: str,
) -> None:
    """Make the unerased chunks of one version searchable."""
    _run(cur, _INDEX, _VERSION, delta, document_id, content_hash=content_hash, sign=1)


def unindex(
    cur: psycopg.Cursor[Any],
    delta: Delta,
    document_id: str,
    *,
    chunk_id: str | None = None,
) -> None:
    """Take one chunk, or every chunk of the document, out of search."""
    cond = _ALL if chunk_id is None else _CHUNK
    _run(cur, _UNINDEX, cond, delta, document_id, chunk_id=chunk_id, sign=-1)


def _run(
    cur: psycopg.Cursor[Any],
    template: str,
    cond: sql.Composable,
    delta: Delta,
    document_id: str,
    *,
    sign: int,
    **extra: str | None,
) -> None:
    statement = sql.SQL(template).format(cond=cond)
    params = {"tenant": delta.tenant, "document": document_id, **extra}
    row = cur.execute(statement, params).fetchone()
    assert row is not None
    delta.chunks += sign * int(row[0])
    delta.length += sign * int(row[1])
