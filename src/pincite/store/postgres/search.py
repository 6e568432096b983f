"""Search inside PostgreSQL: BM25 over stored postings, and dense k-NN with pgvector.

Both run one SQL statement per query with the tenant filter inside it; both
see only searchable chunks (current version, live document, not erased).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from pincite.errors import ConfigurationError

# BM25 as SQLite FTS5's bm25() computes it, so both backends rank alike:
# k1 = 1.2, b = 0.75 (Robertson & Zaragoza, "The Probabilistic Relevance
# Framework: BM25 and Beyond", 2009), idf = ln((N - df + 0.5) / (df + 0.5))
# floored at 1e-6 as FTS5 does. N, avgdl and df are this tenant's alone.
BM25_K1 = 1.2
BM25_B = 0.75

# Terms reach the server only as one plain-text parameter to to_tsvector(),
# never as tsquery syntax, so no character in a question is an operator. A
# term repeated after stemming (``run``, ``running``) counts once per word,
# as an FTS5 OR of both words would.
_BM25 = """
WITH q AS (
    SELECT lexeme AS term, cardinality(positions) AS qtf
    FROM unnest(to_tsvector('english', %(text)s))
),
st AS (
    SELECT chunks::float8 AS n, greatest(length::float8 / greatest(chunks, 1), 1e-9) AS avgdl
    FROM tenant_stats WHERE tenant = %(tenant)s
),
post AS (
    SELECT p.chunk, p.tf, p.length, q.qtf, count(*) OVER (PARTITION BY p.term) AS df
    FROM q JOIN chunk_terms AS p ON p.tenant = %(tenant)s AND p.term = q.term
),
scored AS (
    SELECT post.chunk, sum(
        post.qtf * greatest(ln((st.n - post.df + 0.5) / (post.df + 0.5)), 1e-6)
        * post.tf * (%(k1)s + 1)
        / (post.tf + %(k1)s * (1 - %(b)s + %(b)s * post.length / st.avgdl))
    ) AS score
    FROM post CROSS JOIN st
    {scope}
    GROUP BY post.chunk
    ORDER BY score DESC, post.chunk
    LIMIT %(k)s
)
SELECT c.chunk_id, s.score FROM scored AS s
JOIN chunks AS c ON c.tenant = %(tenant)s AND c.id = s.chunk AND c.searchable
ORDER BY s.score DESC, s.chunk
"""
_SCOPE = (
    "WHERE post.chunk IN (SELECT id FROM chunks WHERE tenant = %(tenant)s"
    " AND document_id = ANY(%(documents)s) AND searchable)"
)


def lexical(
    conn: psycopg.Connection[Any],
    tenant: str,
    terms: Sequence[str],
    k: int,
    documents: Sequence[str] | None,
) -> list[tuple[str, float]]:
    if not terms or k <= 0 or (documents is not None and not documents):
        return []
    query = _BM25.format(scope=_SCOPE if documents is not None else "")
    params = {
        "text": " ".join(terms),
        "tenant": tenant,
        "k": k,
        "k1": BM25_K1,
        "b": BM25_B,
        "documents": None if documents is None else list(documents),
    }
    rows = conn.execute(query.encode(), params).fetchall()
    return [(str(r[0]), float(r[1])) for r in rows]


def dense(
    conn: psycopg.Connection[Any],
    tenant: str,
    vector: npt.NDArray[np.float32],
    k: int,
    documents: Sequence[str] | None,
    *,
    indexed: bool,
    exact_limit: int,
) -> list[tuple[str, float]]:
    """The ``k`` chunks with the highest inner product with ``vector``.

    Exact when the candidates number at most ``exact_limit`` (or ``dim`` has
    no HNSW index); otherwise an HNSW scan with the tenant (and document)
    filter applied during the scan (``hnsw.iterative_scan``, set per session).
    """
    if k <= 0 or (documents is not None and not documents):
        return []
    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    dim = int(query.shape[0])
    params: dict[str, Any] = {
        "tenant": tenant,
        "q": query,
        "k": k,
        "documents": None if documents is None else list(documents),
        "limit": exact_limit + 1,
    }
    where = sql.SQL("tenant = %(tenant)s AND searchable AND vector_dims(embedding) = {dim}").format(
        dim=sql.Literal(dim)
    )
    if documents is not None:
        where = sql.SQL("{} AND document_id = ANY(%(documents)s)").format(where)
    exact = not indexed or _candidates(conn, where, params, documents is None) <= exact_limit
    if exact:
        # Ordering by the uncast column cannot use the expression index:
        # the planner reads the tenant's rows and sorts them.
        statement = sql.SQL(
            "SELECT chunk_id, embedding <#> %(q)s AS distance FROM chunks WHERE {where}"
            " ORDER BY distance, chunk_id LIMIT %(k)s"
        ).format(where=where)
    else:
        # relaxed_order may return neighbours slightly out of order; the
        # outer query restores it (pgvector's documented pattern).
        statement = sql.SQL(
            "WITH hits AS MATERIALIZED (SELECT chunk_id,"
            " embedding::vector({dim}) <#> %(q)s AS distance FROM chunks WHERE {where}"
            " ORDER BY embedding::vector({dim}) <#> %(q)s LIMIT %(k)s)"
            " SELECT chunk_id, distance FROM hits ORDER BY distance, chunk_id"
        ).format(dim=sql.Literal(dim), where=where)
    rows = conn.execute(statement, params).fetchall()
    if not rows:
        _check_dimension(conn, tenant, dim)
    # <#> is the negative inner product.
    return [(str(r[0]), -float(r[1])) for r in rows]


def _candidates(
    conn: psycopg.Connection[Any],
    where: sql.Composable,
    params: dict[str, Any],
    whole_tenant: bool,
) -> int:
    if whole_tenant:
        row = conn.execute(
            "SELECT chunks FROM tenant_stats WHERE tenant = %(tenant)s", params
        ).fetchone()
        return int(row[0]) if row else 0
    statement = sql.SQL(
        "SELECT count(*) FROM (SELECT 1 FROM chunks WHERE {where} LIMIT %(limit)s) AS c"
    ).format(where=where)
    row = conn.execute(statement, params).fetchone()
    return int(row[0]) if row else 0


def _check_dimension(conn: psycopg.Connection[Any], tenant: str, dim: int) -> None:
    row = conn.execute(
        "SELECT vector_dims(embedding) FROM chunks WHERE tenant = %s AND searchable"
        " AND embedding IS NOT NULL LIMIT 1",
        (tenant,),
    ).fetchone()
    if row is not None and int(row[0]) != dim:
        raise ConfigurationError(
            f"stored vectors have {row[0]} dimensions, the embedder {dim}; run `pincite reindex`"
        )
