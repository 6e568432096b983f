"""An existing SQLite file is brought forward: the shared FTS table becomes per-tenant tables."""

from __future__ import annotations

import multiprocessing
import sqlite3
from contextlib import closing
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


def test_0004_scrubs_what_an_older_erasure_left(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = SQLiteStore(path)
    whole = write(store, "acme", "u://secret-file", "Zqxwbelt notes\n\nZqxwbelt budget lines.")
    part = write(store, "acme", "u://p", "Zqxwvint heading\n\nKept paragraph about keys.")
    store.erase("acme", whole.document.document_id)
    store.erase("acme", part.document.document_id, part.chunks[0].chunk_id)
    store.close()
    # Put back what an erasure before 0004 left: real hashes, title, uri, and a
    # deleted FTS row whose tokens stay in an unmerged segment.
    with closing(sqlite3.connect(path)) as conn, conn:
        for w in (whole, part):
            did, real = w.document.document_id, w.version.content_hash
            for table, column in (("versions", "content_hash"), ("chunks", "content_hash")):
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE document_id = ?", (real, did))
            conn.execute(
                "UPDATE documents SET current_hash = ?, uri = ?, title = 'Zqxwbelt notes'"
                " WHERE document_id = ?",
                (real, w.document.uri, did),
            )
        [table] = conn.execute("SELECT name FROM fts_tables").fetchone()
        conn.execute(f"INSERT INTO {table} (rowid, doc_key, body) VALUES (999, 'dx', 'zqxwghost')")
        conn.execute(f"DELETE FROM {table} WHERE rowid = 999")
        conn.execute("DELETE FROM pincite_migrations WHERE name = '0004_erasure_tombstones'")
    assert b"zqxwghost" in path.read_bytes()

    store = SQLiteStore(path)
    gone = store.find_document("acme", document_id=whole.document.document_id)
    assert gone is not None and (gone.title, gone.uri) == ("[erased]", f"erased:{gone.document_id}")
    [v] = store.versions("acme", gone.document_id)
    assert whole.version.hash16 not in v.content_hash
    [p] = store.versions("acme", part.document.document_id)
    assert p.hash16 == part.version.hash16 and p.content_hash != part.version.content_hash
    assert [c.content_hash for c in store.chunks("acme", p.document_id, p.content_hash)] == [
        p.content_hash
    ] * len(part.chunks)
    kept = store.find_document("acme", document_id=part.document.document_id)
    assert kept is not None and kept.uri == "u://p"
    store.close()
    assert b"zqxwghost" not in path.read_bytes()
