"""The writes with most to keep consistent: a new version, an erasure, new vectors.

Each runs inside the caller's transaction, after nothing else has been written
in it, and takes the document's row lock first, so writers of one document
queue behind each other and writers of different documents do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.types.json import Jsonb

from pincite.errors import ConcurrentWriteError
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.store import erasure
from pincite.store.base import check_version_rows
from pincite.store.postgres import rows
from pincite.store.postgres.index import Delta, index, unindex

Cursor = psycopg.Cursor[tuple[Any, ...]]


def write_version(
    cur: Cursor,
    document: Document,
    version: Version,
    chunks: Sequence[Chunk],
    vectors: npt.NDArray[np.float32] | None,
    routing_vector: npt.NDArray[np.float32] | None,
    expected_current: str | None,
) -> None:
    """Make ``version`` the document's current version (see ``Store.write_version``).

    Writing a version the document had before (an edit undone) makes that
    stored version current again with its own chunks and ids; the given
    chunks only refresh the vectors of chunks with the same span.
    """
    check_version_rows(document, version, chunks)
    tenant, document_id, new = document.tenant, document.document_id, version.content_hash
    row = cur.execute(
        "SELECT current_hash FROM documents WHERE tenant = %s AND document_id = %s FOR UPDATE",
        (tenant, document_id),
    ).fetchone()
    current = None if row is None else row[0]
    if current != expected_current:
        raise ConcurrentWriteError(f"document {document_id} changed during ingest; retry")
    delta = Delta(tenant)
    if row is None:
        # A concurrent writer of the same new document (same id or same uri)
        # makes this insert do nothing once it commits: that writer won.
        cur.execute(
            f"INSERT INTO documents ({rows.DOCUMENT_COLUMNS}, current_hash)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (
                tenant,
                document_id,
                document.uri,
                document.title,
                document.status.value,
                document.published_at,
                Jsonb(dict(document.metadata)),
                document.created_at,
                new,
            ),
        )
        if cur.rowcount != 1:
            raise ConcurrentWriteError(
                f"document {document.uri!r} was created by another writer; retry"
            )
    else:
        cur.execute(
            "UPDATE documents SET current_hash = %s, title = %s, status = %s, metadata = %s"
            " WHERE tenant = %s AND document_id = %s",
            (
                new,
                document.title,
                document.status.value,
                Jsonb(dict(document.metadata)),
                tenant,
                document_id,
            ),
        )
        unindex(cur, delta, document_id)
        cur.execute(
            "UPDATE versions SET superseded_by = %s WHERE tenant = %s AND document_id = %s"
            " AND superseded_by IS NULL AND content_hash <> %s",
            (new, tenant, document_id, new),
        )
    seq_row = cur.execute(
        "SELECT coalesce(max(seq), 0) + 1 FROM versions WHERE tenant = %s AND document_id = %s",
        (tenant, document_id),
    ).fetchone()
    assert seq_row is not None
    revived = cur.execute(
        "UPDATE versions SET superseded_by = NULL, seq = %s"
        " WHERE tenant = %s AND document_id = %s AND content_hash = %s RETURNING 1",
        (seq_row[0], tenant, document_id, new),
    ).fetchone()
    if revived is None:
        _insert_version(cur, version, seq_row[0], chunks, vectors)
    elif vectors is not None:
        cur.executemany(
            "UPDATE chunks SET embedding = %s WHERE tenant = %s AND document_id = %s"
            ' AND content_hash = %s AND start = %s AND "end" = %s AND NOT erased',
            [
                (rows.vector(vectors[i]), tenant, document_id, new, c.start, c.end)
                for i, c in enumerate(chunks)
            ],
        )
    if document.status is DocumentStatus.LIVE:
        index(cur, delta, document_id, content_hash=new)
    if routing_vector is None:
        cur.execute(
            "DELETE FROM routing WHERE tenant = %s AND document_id = %s", (tenant, document_id)
        )
    else:
        cur.execute(
            "INSERT INTO routing (tenant, document_id, embedding) VALUES (%s, %s, %s)"
            " ON CONFLICT (tenant, document_id) DO UPDATE SET embedding = excluded.embedding",
            (tenant, document_id, rows.vector(routing_vector)),
        )
    delta.commit(cur)


def _insert_version(
    cur: Cursor,
    version: Version,
    seq: int,
    chunks: Sequence[Chunk],
    vectors: npt.NDArray[np.float32] | None,
) -> None:
    cur.execute(
        "INSERT INTO versions (tenant, document_id, content_hash, seq, text, parser, chunker,"
        " created_at, page_count) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            version.tenant,
            version.document_id,
            version.content_hash,
            seq,
            version.text,
            version.parser,
            version.chunker,
            version.created_at,
            version.page_count,
        ),
    )
    if not chunks:
        return
    cur.executemany(
        f"INSERT INTO chunks ({rows.CHUNK_COLUMNS}, embedding)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (*rows.chunk_params(c), None if vectors is None else rows.vector(vectors[i]))
            for i, c in enumerate(chunks)
        ],
    )


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


def replace_vectors(
    cur: Cursor,
    tenant: str,
    chunk_vectors: dict[str, npt.NDArray[np.float32]],
    routing: dict[str, npt.NDArray[np.float32]],
) -> None:
    """Swap in re-embedded vectors; erased chunks keep none."""
    cur.executemany(
        "UPDATE chunks SET embedding = %s WHERE tenant = %s AND chunk_id = %s AND NOT erased",
        [(rows.vector(v), tenant, cid) for cid, v in chunk_vectors.items()],
    )
    cur.executemany(
        "INSERT INTO routing (tenant, document_id, embedding)"
        " SELECT tenant, document_id, %s FROM documents"
        " WHERE tenant = %s AND document_id = %s"
        " ON CONFLICT (tenant, document_id) DO UPDATE SET embedding = excluded.embedding",
        [(rows.vector(v), tenant, did) for did, v in routing.items()],
    )
    Delta(tenant).commit(cur)
