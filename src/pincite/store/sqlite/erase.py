"""Erasure on SQLite: the rules of ``pincite.store.erasure`` as SQL, and the page hygiene.

Blanking a row is not enough on SQLite: an FTS5 delete only appends a delete
marker, so the erased tokens stay in the older index segments until a merge;
a freed page or cell keeps its bytes unless ``secure_delete`` is on; and the
write-ahead log keeps every page written since the last checkpoint. So the
store runs with ``secure_delete`` on, an erasure optimizes the tenant's FTS5
table (a full merge drops the deleted entries and frees the old segments,
which ``secure_delete`` zeroes), and ``checkpoint`` truncates the log after.
"""

from __future__ import annotations

import json
import sqlite3
import time

from pincite.model import DocumentStatus
from pincite.store import erasure
from pincite.store.sqlite.fts import (
    add_current_to_fts,
    drop_from_indexes,
    fts_table,
    unindex_chunks,
)

# How long erase waits for readers to let a TRUNCATE checkpoint finish. A
# reader holding an old snapshot pins the log; past this the log is left for
# the next checkpoint (on close, or the next erasure).
CHECKPOINT_WAIT_S = 2.0


def erase(conn: sqlite3.Connection, tenant: str, document_id: str, chunk_id: str | None) -> int:
    """Erase inside the caller's write transaction; returns the chunks newly erased."""
    key = (tenant, document_id)
    sql = (
        'SELECT rowid, content_hash, start, "end", text FROM chunks'
        " WHERE tenant = ? AND document_id = ? AND erased = 0"
    )
    params: tuple[str, ...] = key
    if chunk_id is not None:
        sql += " AND chunk_id = ?"
        params += (chunk_id,)
    targets = conn.execute(sql, params).fetchall()
    whole = chunk_id is None
    if not targets and not whole:
        return 0
    unindex_chunks(conn, tenant, [t[0] for t in targets])
    conn.executemany(
        "UPDATE chunks SET text = '', embed_text = '', section = '[]', erased = 1,"
        " vector = NULL WHERE rowid = ?",
        [(t[0],) for t in targets],
    )
    by_version: dict[str, list[tuple[int, int]]] = {}
    for _, chash, start, end, _ in targets:
        by_version.setdefault(chash, []).append((start, end))
    if whole:
        # Whole-document erasure also blanks text that no chunk covered.
        for chash, length in conn.execute(
            "SELECT content_hash, length(text) FROM versions WHERE tenant = ? AND document_id = ?",
            key,
        ).fetchall():
            by_version[chash] = [(0, length)]
        conn.execute("DELETE FROM routing WHERE tenant = ? AND document_id = ?", key)
    for chash, ranges in by_version.items():
        _tombstone_version(conn, tenant, document_id, chash, ranges, whole=whole)
    erased_texts = [t[4] for t in targets]
    if not whole:
        _scrub_remaining(conn, tenant, document_id, erased_texts)
    _blank_document(conn, tenant, document_id, erased_texts, whole=whole)
    table = fts_table(conn, tenant)
    if table is not None and targets:
        # A full merge rewrites the tenant's index without the deleted rows'
        # tokens; without it they stay readable in older segments.
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
    return len(targets)


def _tombstone_version(
    conn: sqlite3.Connection,
    tenant: str,
    document_id: str,
    content_hash: str,
    ranges: list[tuple[int, int]],
    *,
    whole: bool,
) -> None:
    key = (tenant, document_id)
    row = conn.execute(
        "SELECT text, erased FROM versions WHERE tenant = ? AND document_id = ?"
        " AND content_hash = ?",
        (*key, content_hash),
    ).fetchone()
    if row is None:
        return
    plan = erasure.erase_version(content_hash, row[0], json.loads(row[1]), ranges, whole=whole)
    new, old = plan.new_hash, plan.old_hash
    conn.execute(
        "UPDATE versions SET content_hash = ?, text = ?, erased = ?"
        " WHERE tenant = ? AND document_id = ? AND content_hash = ?",
        (new, plan.text, json.dumps(plan.erased), *key, old),
    )
    for statement in (
        "UPDATE chunks SET content_hash = ? WHERE tenant = ? AND document_id = ?"
        " AND content_hash = ?",
        "UPDATE versions SET superseded_by = ? WHERE tenant = ? AND document_id = ?"
        " AND superseded_by = ?",
        "UPDATE documents SET current_hash = ? WHERE tenant = ? AND document_id = ?"
        " AND current_hash = ?",
    ):
        conn.execute(statement, (new, *key, old))


def _scrub_remaining(
    conn: sqlite3.Connection, tenant: str, document_id: str, erased_texts: list[str]
) -> None:
    """Take a title or heading found in the erased text out of the other chunks' index text."""
    key = (tenant, document_id)
    doc = conn.execute(
        "SELECT title, status FROM documents WHERE tenant = ? AND document_id = ?", key
    ).fetchone()
    rows = conn.execute(
        "SELECT rowid, text, embed_text, section FROM chunks"
        " WHERE tenant = ? AND document_id = ? AND erased = 0",
        key,
    ).fetchall()
    if doc is None:
        return
    removed = erasure.derived_from(doc[0], [json.loads(r[3]) for r in rows], erased_texts)
    if not removed:
        return
    for rowid, text, embed_text, section in rows:
        new_embed, new_section = erasure.scrub(embed_text, text, json.loads(section), removed)
        conn.execute(
            "UPDATE chunks SET embed_text = ?, section = ? WHERE rowid = ?",
            (new_embed, json.dumps(new_section), rowid),
        )
    drop_from_indexes(conn, tenant, document_id)
    if doc[1] == DocumentStatus.LIVE.value:
        add_current_to_fts(conn, tenant, document_id)


def _blank_document(
    conn: sqlite3.Connection,
    tenant: str,
    document_id: str,
    erased_texts: list[str],
    *,
    whole: bool,
) -> None:
    key = (tenant, document_id)
    row = conn.execute(
        "SELECT title FROM documents WHERE tenant = ? AND document_id = ?", key
    ).fetchone()
    if row is None:
        return
    plan = erasure.erase_document(document_id, row[0], erased_texts, whole=whole)
    if plan.title is not None:
        conn.execute(
            "UPDATE documents SET title = ? WHERE tenant = ? AND document_id = ?",
            (plan.title, *key),
        )
    if plan.uri is not None:
        conn.execute(
            "UPDATE documents SET uri = ? WHERE tenant = ? AND document_id = ?", (plan.uri, *key)
        )
    if plan.clear_metadata:
        conn.execute(
            "UPDATE documents SET metadata = '{}' WHERE tenant = ? AND document_id = ?", key
        )


def checkpoint(conn: sqlite3.Connection, *, wait_s: float = CHECKPOINT_WAIT_S) -> bool:
    """Copy the write-ahead log into the database and truncate it to zero bytes.

    Outside any transaction. Returns False when readers kept it from
    completing within ``wait_s`` (the log then still holds old pages).
    """
    deadline = time.monotonic() + wait_s
    while True:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if not busy:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
