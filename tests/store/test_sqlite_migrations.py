"""An existing SQLite file is brought forward: the shared FTS table becomes per-tenant tables."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from store_fakes import write

from pincite.store.sqlite import SQLiteStore
from pincite.store.sqlite.fts import tenant_key

TERMS = ["records", "backups", "keys"]


def _make_old_layout(path: Path) -> None:
    """Rewrite a current file into the 0001/0002 layout: one FTS table for every tenant."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE VIRTUAL TABLE chunks_fts USING fts5("
            "tenant_key, doc_key, body, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        conn.execute(
            "INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('rank', 'bm25(0.0, 0.0, 1.0)')"
        )
        for tenant, table in conn.execute("SELECT tenant, name FROM fts_tables").fetchall():
            conn.execute(
                "INSERT INTO chunks_fts (rowid, tenant_key, doc_key, body)"
                f" SELECT rowid, ?, doc_key, body FROM {table}",
                (tenant_key(tenant),),
            )
            conn.execute(f"DROP TABLE {table}")
        conn.execute("DROP TABLE fts_tables")
        conn.execute("DELETE FROM pincite_migrations WHERE name = '0003_fts_per_tenant'")


def test_the_shared_fts_table_is_split_per_tenant_and_search_still_works(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = SQLiteStore(path)
    write(store, "acme", "u://a", "Customer records are kept.\n\nBackups are encrypted.")
    write(store, "globex", "u://g", "Keys rotate yearly.\n\nRecords of keys are audited.")
    expected = {t: store.search_lexical(t, TERMS, 10) for t in ("acme", "globex")}
    store.close()
    assert all(expected.values())

    _make_old_layout(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == 4

    store = SQLiteStore(path)  # migrates
    found = {t: store.search_lexical(t, TERMS, 10) for t in ("acme", "globex")}
    store.close()
    assert found == expected  # same chunks and scores: per-tenant statistics, as before
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "chunks_fts" not in tables
        assert conn.execute("SELECT count(*) FROM fts_tables").fetchone()[0] == 2
        applied = [r[0] for r in conn.execute("SELECT name FROM pincite_migrations")]
        assert "0003_fts_per_tenant" in applied
