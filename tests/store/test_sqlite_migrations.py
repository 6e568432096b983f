"""An existing SQLite file is brought forward: the shared FTS table becomes per-tenant tables."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

from store_fakes import write

from pincite.model import DocumentStatus
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


def _old_file(path: Path) -> dict[str, list[tuple[str, float]]]:
    """An old-layout file with superseded, deleted and erased rows; its search results."""
    store = SQLiteStore(path)
    write(store, "acme", "u://a", "Customer records are kept.\n\nBackups are encrypted.")
    write(store, "acme", "u://a", "Customer records are kept.\n\nBackups are encrypted daily.")
    gone = write(store, "acme", "u://gone", "Records of deleted keys.")
    store.set_status("acme", gone.document.document_id, DocumentStatus.DELETED)
    g = write(store, "globex", "u://g", "Keys rotate yearly.\n\nRecords of keys are audited.")
    store.erase("globex", g.document.document_id, g.chunks[0].chunk_id)
    write(store, "initech", "u://i", "Backups of records.")  # a tenant with nothing indexed:
    store.set_status(
        "initech", store.list_documents("initech")[0].document_id, DocumentStatus.DELETED
    )
    expected = {t: store.search_lexical(t, TERMS, 10) for t in ("acme", "globex", "initech")}
    store.close()
    _make_old_layout(path)
    with sqlite3.connect(path) as conn:
        # A stale row an old file might hold: the deleted document, indexed again.
        conn.execute(
            "INSERT INTO chunks_fts (rowid, tenant_key, doc_key, body)"
            " SELECT rowid, ?, 'dstale', embed_text FROM chunks WHERE document_id = ?",
            (tenant_key("acme"), gone.document.document_id),
        )
    return expected


def test_the_shared_fts_table_is_rebuilt_per_tenant_and_search_still_works(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    expected = _old_file(path)
    assert expected["acme"] and expected["globex"] and not expected["initech"]

    store = SQLiteStore(path)  # migrates
    found = {t: store.search_lexical(t, TERMS, 10) for t in ("acme", "globex", "initech")}
    store.close()
    assert found == expected  # same chunks and scores; the stale row is not carried over
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "chunks_fts" not in tables
        indexed = dict(conn.execute("SELECT tenant, name FROM fts_tables").fetchall())
        assert set(indexed) == {"acme", "globex"}
        applied = [r[0] for r in conn.execute("SELECT name FROM pincite_migrations")]
        assert applied.count("0003_fts_per_tenant") == 1


def _open_and_search(path: str, barrier: Any, results: Any) -> None:
    barrier.wait()  # all open at the same moment
    try:
        store = SQLiteStore(Path(path))
        try:
            results.put(len(store.search_lexical("acme", TERMS, 10)))
        finally:
            store.close()
    except Exception as exc:  # reported to the test, not lost in the child
        results.put(repr(exc))


def test_processes_opening_an_old_file_at_once_all_succeed(tmp_path: Path) -> None:
    """A server and a CLI started together after an upgrade: one migrates, none fails."""
    path = tmp_path / "old.db"
    expected = _old_file(path)
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(4), context.Queue()
    workers = [
        context.Process(target=_open_and_search, args=(str(path), barrier, results))
        for _ in range(4)
    ]
    for w in workers:
        w.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(timeout=60)
    assert outcomes == [len(expected["acme"])] * 4
