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
    assert store.purge("acme", did)
    assert _rows(path) == dict.fromkeys(_rows(path), 0)
    store.close()
