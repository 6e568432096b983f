"""SQLite counterpart of the PostgreSQL derived-row check: purge and erase leave no index rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from store_fakes import write

from pincite.model import DocumentStatus
from pincite.store.sqlite import SQLiteStore

TEXT = "Customer records are kept.\n\nBackups are encrypted.\n\nKeys rotate."


def _rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        fts = [r[0] for r in conn.execute("SELECT name FROM fts_tables")]
        counts = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("documents", "versions", "chunks", "routing")
        }
        counts["chunks_fts"] = sum(
            conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in fts
        )
        return counts


def test_purge_and_erase_remove_derived_rows(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    write(store, "acme", "u://p", TEXT)
    w = write(store, "acme", "u://p", TEXT + " Often.")
    did = w.document.document_id
    assert _rows(path)["chunks_fts"] == len(w.chunks)
    store.erase("acme", did, w.chunks[0].chunk_id)
    assert _rows(path)["chunks_fts"] == len(w.chunks) - 1
    store.set_status("acme", did, DocumentStatus.DELETED)
    assert _rows(path)["chunks_fts"] == 0
    store.set_status("acme", did, DocumentStatus.LIVE)
    assert _rows(path)["chunks_fts"] == len(w.chunks) - 1
    write(store, "acme", "u://other", "Another document.")
    other = store.find_document("acme", uri="u://other")
    assert other is not None
    assert store.purge("acme", did)
    with sqlite3.connect(path) as conn:  # the tenant still has a document: its table stays
        assert conn.execute("SELECT count(*) FROM fts_tables").fetchone()[0] == 1
    assert store.purge("acme", other.document_id)
    assert _rows(path) == dict.fromkeys(_rows(path), 0)
    with sqlite3.connect(path) as conn:  # nothing of the workspace is left, not even its name
        assert conn.execute("SELECT count(*) FROM fts_tables").fetchone()[0] == 0
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master")]
        assert not [n for n in names if n.startswith("fts_t") and n != "fts_tables"]
    assert store.search_lexical("acme", ["document"], 10) == []
    write(store, "acme", "u://again", "A document again.")  # and the tenant can come back
    assert len(store.search_lexical("acme", ["document"], 10)) == 1
    store.close()
