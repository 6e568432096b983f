"""PostgreSQL's statements for an erasure (the rules live in pincite.store.erasure).

Runs inside the caller's transaction, after the document's row lock; the
store's ``VACUUM`` afterwards reaches the dead row versions (docs/postgres.md,
"Erasure").
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from pincite.model import DocumentStatus
from pincite.store import erasure
from pincite.store.postgres.index import Delta, index, unindex

Cursor = psycopg.Cursor[tuple[Any, ...]]


def erase(cur: Cursor, tenant: str, document_id: str, chunk_id: str | None) -> int:
    """Blank one chunk (or every chunk and all text of every version); keep tombstones.

    Applies ``pincite.store.erasure``: the erased versions get tombstone
    hashes (chunks follow by ``ON UPDATE CASCADE``), and the document row
    loses what it derived from the text. The old row versions stay in the
    heap as dead tuples until ``VACUUM`` (the store runs it after the commit).
    """
    delta = Delta(tenant)
    key = (tenant, document_id)
    statement = (
        "UPDATE chunks AS c SET text = '', embed_text = '', section = '[]', erased = true,"
        " embedding = NULL, length = 0 FROM chunks AS o"
        " WHERE o.tenant = c.tenant AND o.id = c.id"
        " AND c.tenant = %s AND c.document_id = %s AND NOT c.erased"
    )
    params: tuple[str, ...] = key
    if chunk_id is not None:
        statement += " AND c.chunk_id = %s"
        params += (chunk_id,)
    whole = chunk_id is None
    unindex(cur, delta, document_id, chunk_id=chunk_id)
    targets = cur.execute(
        (statement + ' RETURNING c.content_hash, c.start, c."end", o.text').encode(), params
    ).fetchall()
    if not targets and not whole:
        delta.commit(cur)
        return 0
    by_version: dict[str, list[tuple[int, int]]] = {}
    for content_hash, start, end, _ in targets:
        by_version.setdefault(content_hash, []).append((start, end))
    if whole:
        # Whole-document erasure also blanks text that no chunk covered.
        for content_hash, length in cur.execute(
            "SELECT content_hash, length(text) FROM versions WHERE tenant = %s"
            " AND document_id = %s",
            key,
        ).fetchall():
            by_version[content_hash] = [(0, length)]
        cur.execute("DELETE FROM routing WHERE tenant = %s AND document_id = %s", key)
    for content_hash, ranges in by_version.items():
        _tombstone_version(cur, tenant, document_id, content_hash, ranges, whole=whole)
    erased_texts = [t[3] for t in targets]
    if not whole:
        _scrub_remaining(cur, delta, document_id, erased_texts)
    _blank_document(cur, tenant, document_id, erased_texts, whole=whole)
    delta.commit(cur)
    return len(targets)


def _tombstone_version(
    cur: Cursor,
    tenant: str,
    document_id: str,
    content_hash: str,
    ranges: list[tuple[int, int]],
    *,
    whole: bool,
) -> None:
    key = (tenant, document_id)
    row = cur.execute(
        "SELECT text, erased FROM versions WHERE tenant = %s AND document_id = %s"
        " AND content_hash = %s",
        (*key, content_hash),
    ).fetchone()
    if row is None:
        return
    plan = erasure.erase_version(content_hash, row[0], row[1], ranges, whole=whole)
    new, old = plan.new_hash, plan.old_hash
    cur.execute(
        "UPDATE versions SET content_hash = %s, text = %s, erased = %s"
        " WHERE tenant = %s AND document_id = %s AND content_hash = %s",
        (new, plan.text, Jsonb(plan.erased), *key, old),
    )
    cur.execute(
        "UPDATE versions SET superseded_by = %s WHERE tenant = %s AND document_id = %s"
        " AND superseded_by = %s",
        (new, *key, old),
    )
    cur.execute(
        "UPDATE documents SET current_hash = %s WHERE tenant = %s AND document_id = %s"
        " AND current_hash = %s",
        (new, *key, old),
    )


def _scrub_remaining(cur: Cursor, delta: Delta, document_id: str, erased_texts: list[str]) -> None:
    """Take a title or heading found in the erased text out of the other chunks' index text."""
    key = (delta.tenant, document_id)
    doc = cur.execute(
        "SELECT title, status, current_hash FROM documents WHERE tenant = %s AND document_id = %s",
        key,
    ).fetchone()
    found = cur.execute(
        "SELECT id, text, embed_text, section FROM chunks"
        " WHERE tenant = %s AND document_id = %s AND NOT erased",
        key,
    ).fetchall()
    if doc is None:
        return
    removed = erasure.derived_from(doc[0], [r[3] for r in found], erased_texts)
    if not removed:
        return
    unindex(cur, delta, document_id)
    cur.executemany(
        "UPDATE chunks SET embed_text = %s, section = %s WHERE tenant = %s AND id = %s",
        [
            (*_scrubbed(embed_text, text, section, removed), delta.tenant, row_id)
            for row_id, text, embed_text, section in found
        ],
    )
    if doc[1] == DocumentStatus.LIVE.value and doc[2] is not None:
        index(cur, delta, document_id, content_hash=doc[2])


def _scrubbed(
    embed_text: str, text: str, section: list[str], removed: list[str]
) -> tuple[str, Jsonb]:
    new_embed, new_section = erasure.scrub(embed_text, text, section, removed)
    return new_embed, Jsonb(new_section)


def _blank_document(
    cur: Cursor, tenant: str, document_id: str, erased_texts: list[str], *, whole: bool
) -> None:
    key = (tenant, document_id)
    row = cur.execute(
        "SELECT title FROM documents WHERE tenant = %s AND document_id = %s", key
    ).fetchone()
    if row is None:
        return
    plan = erasure.erase_document(document_id, row[0], erased_texts, whole=whole)
    cur.execute(
        "UPDATE documents SET title = coalesce(%s, title), uri = coalesce(%s, uri),"
        " metadata = CASE WHEN %s THEN '{}'::jsonb ELSE metadata END"
        " WHERE tenant = %s AND document_id = %s",
        (plan.title, plan.uri, plan.clear_metadata, *key),
    )


def vacuum(conn: psycopg.Connection[tuple[Any, ...]], *, full: bool) -> None:
    """``VACUUM`` the tables an erasure rewrites (docs/postgres.md, "Erasure").

    Plain VACUUM (after every erasure) removes the dead row versions and
    TOAST chunks that held the erased text, so no query or index reaches
    them, but their bytes stay in the pages' free space until reused.
    ``full=True`` rewrites the tables into new files (the erased bytes leave
    the relation files) under an exclusive lock: a maintenance-window step.
    VACUUM cannot run in a transaction; the store's connection autocommits.
    """
    option = "FULL" if full else "SKIP_LOCKED"
    conn.execute(f"VACUUM ({option}) chunks, chunk_terms, versions, documents, routing".encode())
