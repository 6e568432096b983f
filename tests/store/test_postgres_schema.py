"""PostgreSQL-only guarantees: the tenant-leading schema, migrations, derived rows, HNSW path."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import psycopg
import pytest
from store_fakes import DIM, build, embed, write

from pincite.errors import ConfigurationError
from pincite.model import DocumentStatus
from pincite.store.postgres import PostgresStore
from pincite.store.postgres.migrations import MIGRATIONS

pytestmark = pytest.mark.integration

# Hold no tenant data: Citus reference tables (docs/postgres.md).
GLOBAL_TABLES = {"meta", "pincite_migrations"}
TENANT_TABLES = {
    "documents",
    "versions",
    "chunks",
    "chunk_terms",
    "tenant_stats",
    "routing",
    "conversations",
    "conversation_turns",
    "memories",
}
# Kept by a tenant, not derived from a document: a purge leaves them.
CONVERSATION_TABLES = {"conversations", "conversation_turns", "memories"}

_INDEX_COLUMNS = """
SELECT t.relname, i.relname, am.amname, ix.indisprimary,
       array(SELECT a.attname FROM unnest(ix.indkey[:ix.indnkeyatts - 1]) WITH ORDINALITY AS k(n, o)
             LEFT JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = k.n
             ORDER BY k.o)
FROM pg_index AS ix
JOIN pg_class AS t ON t.oid = ix.indrelid
JOIN pg_class AS i ON i.oid = ix.indexrelid
JOIN pg_am AS am ON am.oid = i.relam
JOIN pg_namespace AS n ON n.oid = t.relnamespace
WHERE n.nspname = current_schema()
"""


@pytest.fixture
def pg(fresh_pg_url: str) -> Iterator[PostgresStore]:
    store = PostgresStore(fresh_pg_url)
    yield store
    store.close()


def test_every_key_and_index_leads_with_tenant(pg: PostgresStore) -> None:
    w = write(pg, "acme", "u://p", "One paragraph.\n\nAnother paragraph.")
    assert w.chunks  # the lazily created HNSW index exists now
    with psycopg.connect(pg.url) as conn:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
        indexes = conn.execute(_INDEX_COLUMNS).fetchall()
    assert tables == GLOBAL_TABLES | TENANT_TABLES
    primary = {table for table, _, _, is_primary, _ in indexes if is_primary}
    assert primary >= TENANT_TABLES
    hnsw = []
    for table, index, method, _, columns in indexes:
        if table in GLOBAL_TABLES:
            continue
        if method == "hnsw":
            # A graph index has one key column by construction; under Citus
            # each tenant-distributed shard carries its own graph.
            hnsw.append(index)
            continue
        assert columns[0] == "tenant", (table, index, columns)
    assert hnsw == [f"chunks_hnsw_{DIM}"]


def test_migrations_are_recorded_and_run_once(fresh_pg_url: str) -> None:
    PostgresStore(fresh_pg_url).close()
    PostgresStore(fresh_pg_url).close()
    with psycopg.connect(fresh_pg_url) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM pincite_migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]


def test_unreachable_server_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="cannot connect"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def _counts(url: str, tenant: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        out = {
            table: int(
                conn.execute(  # type: ignore[index]
                    f"SELECT count(*) FROM {table} WHERE tenant = %s".encode(), (tenant,)
                ).fetchone()[0]
            )
            for table in sorted(TENANT_TABLES - {"tenant_stats"} - CONVERSATION_TABLES)
        }
        stats = conn.execute(
            "SELECT chunks, length FROM tenant_stats WHERE tenant = %s", (tenant,)
        ).fetchone()
    out["stats_chunks"], out["stats_length"] = stats if stats else (0, 0)
    return out


def test_purge_and_erase_remove_derived_rows(pg: PostgresStore) -> None:
    empty = {
        "chunk_terms": 0,
        "chunks": 0,
        "documents": 0,
        "routing": 0,
        "versions": 0,
        "stats_chunks": 0,
        "stats_length": 0,
    }
    text = "Customer records are kept.\n\nBackups are encrypted.\n\nKeys rotate."
    write(pg, "acme", "u://p", text)
    w = write(pg, "acme", "u://p", text + " Often.")
    did = w.document.document_id
    before = _counts(pg.url, "acme")
    assert before["stats_chunks"] == len(w.chunks) and before["chunk_terms"] > 0
    assert pg.erase("acme", did, w.chunks[0].chunk_id) == 1
    after = _counts(pg.url, "acme")
    assert after["stats_chunks"] == len(w.chunks) - 1
    assert after["chunk_terms"] < before["chunk_terms"]
    pg.set_status("acme", did, DocumentStatus.DELETED)
    assert _counts(pg.url, "acme")["chunk_terms"] == 0
    pg.set_status("acme", did, DocumentStatus.LIVE)
    assert _counts(pg.url, "acme") == after
    assert pg.purge("acme", did)
    assert _counts(pg.url, "acme") == empty


@pytest.mark.parametrize("exact_limit", [0, 10_000], ids=["hnsw", "exact"])
def test_search_dense_agrees_with_the_dense_index(fresh_pg_url: str, exact_limit: int) -> None:
    pg = PostgresStore(fresh_pg_url, exact_limit=exact_limit)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    words += ["eta", "theta", "iota", "kappa", "lambda", "mu"]
    docs = {}
    for i in range(12):
        text = "\n\n".join(" ".join(words[(i + j) % 12 : (i + j) % 12 + 3]) for j in range(4))
        docs[i] = write(pg, "acme", f"u://{i}", text).document.document_id
        write(pg, "other", f"u://{i}", text)
    pg.set_status("acme", docs[0], DocumentStatus.DELETED)
    query = embed("beta gamma delta")
    index = pg.dense_index("acme")
    scores = index.matrix @ query
    order = np.argsort(-scores, kind="stable")
    exact = [(index.chunk_ids[i], float(scores[i])) for i in order[:10]]
    found = pg.search_dense("acme", query, 10)
    # Many chunks tie (the texts repeat), so compare scores, and each id's own score.
    np.testing.assert_allclose([s for _, s in found], [s for _, s in exact], atol=1e-5)
    by_id = dict(zip(index.chunk_ids, scores.tolist(), strict=True))
    for cid, score in found:
        assert score == pytest.approx(by_id[cid], abs=1e-5)
    scoped = pg.search_dense("acme", query, 50, [docs[3], docs[0]])
    assert scoped and {pg.chunk("acme", c).document_id for c, _ in scoped} == {docs[3]}  # type: ignore[union-attr]
    assert pg.search_dense("acme", query, 5, []) == []
    with pytest.raises(ConfigurationError, match="dimensions"):
        pg.search_dense("acme", np.ones(DIM + 1, dtype=np.float32), 5)
    pg.close()


def test_dense_index_cache_follows_writes_from_another_connection(fresh_pg_url: str) -> None:
    reader, writer = PostgresStore(fresh_pg_url), PostgresStore(fresh_pg_url)
    w = write(writer, "acme", "u://p", "One.\n\nTwo.")
    assert len(reader.dense_index("acme").chunk_ids) == 2
    writer.erase("acme", w.document.document_id, w.chunks[0].chunk_id)
    assert reader.dense_index("acme").chunk_ids == (w.chunks[1].chunk_id,)
    reader.close()
    writer.close()


def test_nothing_is_written_when_a_version_fails(pg: PostgresStore) -> None:
    w = build("acme", "u://p", "Some text.\n\nMore text.")
    vectors = np.vstack([embed(c.embed_text) for c in w.chunks])
    with pytest.raises(ValueError):
        pg.write_version(w.document, w.version, w.chunks, vectors[:1], None, expected_current=None)
    bad = np.vstack([embed("x"), np.full(DIM, np.nan, dtype=np.float32)])
    with pytest.raises(psycopg.Error):
        pg.write_version(w.document, w.version, w.chunks, bad, None, expected_current=None)
    assert pg.find_document("acme", uri="u://p") is None
    assert _counts(pg.url, "acme")["chunks"] == 0


def test_a_dropped_connection_is_opened_again(pg: PostgresStore) -> None:
    w = write(pg, "acme", "u://p", "Some text.")
    with psycopg.connect(pg.url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    assert pg.search_lexical("acme", ["text"], 5)
    assert pg.chunk("acme", w.chunks[0].chunk_id) == w.chunks[0]
