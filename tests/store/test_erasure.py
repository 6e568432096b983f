"""Erasure erases (issue 13, finding 1): no index, page, log, hash, title or uri gives it back.

Each document carries a unique made-up word, so finding its first letters
anywhere (a row, an FTS5 segment, a database page, the write-ahead log) means
the erasure left a copy. The stem is what FTS5 (porter) and PostgreSQL
(Snowball) index, so the scan looks for the word's first letters, which the
raw word and its stem share.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pg_embedded
import psycopg
import pytest
from psycopg import sql
from store_fakes import build, embed, lexical_ids

from pincite import ids
from pincite.corpus import Corpus
from pincite.ground.fetch import FetchStatus, fetch_evidence
from pincite.store.base import Store
from pincite.store.erasure import ERASED_TITLE
from pincite.store.sqlite import SQLiteStore


def marker() -> str:
    """A made-up word no text contains; porter and Snowball strip its ``ing``."""
    letters = "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:10])
    return f"zq{letters}ing"


def needle(word: str) -> bytes:
    """The letters a word and its stem share."""
    return word[:10].encode()


def secret_text(word: str) -> str:
    return (
        f"Report on {word}\n\nThe {word} committee met on Tuesday.\n\n"
        f"Minutes: {word} budgets were approved. " + "Padding sentence. " * 40
    )


def put(store: Store, tenant: str, uri: str, text: str, title: str = "Title") -> list[str]:
    """Write ``text`` as a new document; returns [document_id, *chunk evidence ids]."""
    w = build(tenant, uri, text, title=title)
    matrix = np.vstack([embed(c.embed_text) for c in w.chunks])
    store.write_version(w.document, w.version, w.chunks, matrix, embed(text), expected_current=None)
    return [w.document.document_id, *(c.evidence_id for c in w.chunks)]


def assert_no_row_holds(store: Store, tenant: str, document_id: str, word: str) -> None:
    doc = store.find_document(tenant, document_id=document_id)
    assert doc is not None
    assert word not in doc.title and word not in doc.uri and word not in str(doc.metadata)
    for version in store.versions(tenant, document_id):
        assert word not in version.text
        for chunk in store.chunks(tenant, document_id, version.content_hash):
            assert word not in chunk.text + chunk.embed_text + str(chunk.section)
    assert lexical_ids(store, tenant, word) == []


def test_erase_whole_document_leaves_no_text_hash_title_or_uri(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, b = tenants
    word = marker()
    text = secret_text(word)
    did, *evidence = put(store, a, f"file:///notes/{word}.txt", text, title=f"Report on {word}")
    keep_b = put(store, b, "u://same", text)
    original = hashlib.sha256(text.encode()).hexdigest()
    assert lexical_ids(store, a, word)

    assert store.erase(a, did) == len(evidence)
    assert_no_row_holds(store, a, did, word)
    doc = store.find_document(a, document_id=did)
    assert doc is not None and doc.title == ERASED_TITLE and doc.metadata == {}
    assert store.find_document(a, uri=f"file:///notes/{word}.txt") is None
    # No stored hash confirms a guess of the text, not even its hash16.
    [version] = store.versions(a, did)
    current = store.current_hash(a, did)
    assert current == version.content_hash
    assert original[:16] not in version.content_hash and version.superseded_by is None
    assert store.version(a, did, original[:16]) is None
    # The tombstone: every id handed out still resolves, as erased, without text.
    span = ids.encode_span(did, original[:16], 0, 10)
    for outcome in fetch_evidence(store, [*evidence, span], tenant=a):
        assert outcome.status is FetchStatus.ERASED and outcome.text == ""
        assert outcome.title == ERASED_TITLE and word not in (outcome.uri or "")
    # The other tenant's identical text is untouched.
    assert lexical_ids(store, b, word)
    assert fetch_evidence(store, keep_b[1:2], tenant=b)[0].status is FetchStatus.OK


def test_erase_one_chunk_blanks_a_title_taken_from_it(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    word = marker()
    text = secret_text(word)
    did, first, *rest = put(store, a, "u://r", text, title=f"Report on {word}")
    original = hashlib.sha256(text.encode()).hexdigest()
    first_chunk = ids.decode(first)
    assert isinstance(first_chunk, ids.ChunkRef)
    assert store.erase(a, did, first_chunk.chunk_id) == 1
    doc = store.find_document(a, document_id=did)
    assert doc is not None and doc.title == ERASED_TITLE and doc.uri == "u://r"
    [version] = store.versions(a, did)
    assert version.content_hash != original and version.hash16 == original[:16]
    statuses = [o.status for o in fetch_evidence(store, [first, *rest], tenant=a)]
    assert statuses == [FetchStatus.ERASED] + [FetchStatus.OK] * len(rest)


def test_erased_title_leaves_the_other_chunks_index_text(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    word, other = marker(), marker()
    text = f"Report on {word}\n\nBudgets for {other} were approved.\n\nMinutes follow."
    did, first, *rest = put(store, a, "u://t", text, title=f"Report on {word}")
    # Every chunk's index text starts with the title, so all of them match it.
    assert len(lexical_ids(store, a, word)) == 1 + len(rest)
    first_chunk = ids.decode(first)
    assert isinstance(first_chunk, ids.ChunkRef)
    store.erase(a, did, first_chunk.chunk_id)
    assert lexical_ids(store, a, word) == []
    assert len(lexical_ids(store, a, other)) == 1  # the rest is still found
    [version] = store.versions(a, did)
    for chunk in store.chunks(a, did, version.content_hash):
        assert word not in chunk.embed_text


@pytest.fixture
def own_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A store of this test's own: a Corpus records its embedder in store-wide meta."""
    store: Store
    if backend == "sqlite":
        store = SQLiteStore(tmp_path / "own.db")
    else:
        from pincite.store.postgres import PostgresStore

        store = PostgresStore(request.getfixturevalue("fresh_pg_url"))
    yield store
    store.close()


def test_reingesting_erased_text_is_a_new_version(own_store: Store) -> None:
    a = "acme"
    corpus = Corpus(own_store)
    text = secret_text(marker())
    first = corpus.ingest_text(text, uri="u://doc", tenant=a)
    assert first.document_id is not None
    [v1] = corpus.versions(first.document_id, tenant=a)
    old_ids = [c.evidence_id for c in corpus.chunks(v1)]
    corpus.erase(first.document_id, tenant=a)

    again = corpus.ingest_text(text, uri="u://doc", tenant=a)
    assert again.status.value == "new" and again.chunks > 0
    assert again.document_id != first.document_id
    [v2] = corpus.versions(again.document_id or "", tenant=a)
    assert v2.text == text
    new_ids = [c.evidence_id for c in corpus.chunks(v2)]
    assert all(o.status is FetchStatus.OK for o in corpus.fetch(new_ids, tenant=a))
    assert all(o.status is FetchStatus.ERASED for o in corpus.fetch(old_ids, tenant=a))


def test_reingest_after_one_chunk_erased_restores_a_new_version(own_store: Store) -> None:
    a = "acme"
    corpus = Corpus(own_store)
    text = secret_text(marker())
    first = corpus.ingest_text(text, uri="u://doc", tenant=a)
    did = first.document_id or ""
    [v1] = corpus.versions(did, tenant=a)
    gone, *kept = corpus.chunks(v1)
    corpus.erase(did, tenant=a, chunk_id=gone.chunk_id)

    again = corpus.ingest_text(text, uri="u://doc", tenant=a)
    assert again.status.value == "updated" and again.chunks == len(kept) + 1
    old, new = corpus.versions(did, tenant=a)
    assert new.text == text and new.hash16 == v1.hash16 and old.superseded
    fresh = corpus.chunks(new)
    assert {c.chunk_id for c in fresh}.isdisjoint({c.chunk_id for c in corpus.chunks(old)})
    outcomes = corpus.fetch([c.evidence_id for c in [gone, *kept, *fresh]], tenant=a)
    assert outcomes[0].status is FetchStatus.ERASED
    assert all(o.status is FetchStatus.OK for o in outcomes[1:])
    assert [o.text for o in outcomes[1 + len(kept) :]] == [c.text for c in fresh]


def _file_bytes(path: Path) -> bytes:
    return b"".join(
        p.read_bytes() for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()
    )


def test_sqlite_erase_leaves_no_bytes_in_the_file_or_its_log(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    writer, reader = SQLiteStore(path), SQLiteStore(path)
    words = [marker() for _ in range(3)]
    for i in range(40):
        put(writer, "t", f"u://filler/{i}", f"Filler {i} about budgets and committees. " * 20)
    # Title and uri are the row test's business: here the words are only in
    # the text, so what the scan finds is the index, the pages or the log.
    docs = [put(writer, "t", f"u://secret/{i}", secret_text(w))[0] for i, w in enumerate(words)]
    assert lexical_ids(reader, "t", words[0])
    assert all(needle(w) in _file_bytes(path) for w in words)

    for did in docs:
        writer.erase("t", did)
    data = _file_bytes(path)
    leaks = [w for w in words if needle(w) in data]
    assert leaks == [], f"erased words still in {path}, -wal or -shm"
    assert Path(f"{path}-wal").stat().st_size == 0
    assert lexical_ids(reader, "t", "budgets")  # the rest of the index still works
    for conn in (writer, reader):
        conn.close()
    assert not any(needle(w) in _file_bytes(path) for w in words)


@pytest.mark.integration
def test_postgres_erase_leaves_no_row_and_vacuum_full_no_bytes(
    pg_server: pg_embedded.EmbeddedPostgres, fresh_pg_url: str
) -> None:
    from pincite.store.postgres import PostgresStore

    store = PostgresStore(fresh_pg_url)
    try:
        word = marker()
        for i in range(20):
            put(store, "t", f"u://filler/{i}", f"Filler {i} about budgets. " * 20)
        did = put(store, "t", f"u://{word}", secret_text(word), title=word)[0]
        store.erase("t", did)
        assert _tables_holding(fresh_pg_url, word[:10]) == []
        store.vacuum(full=True)
        with psycopg.connect(fresh_pg_url, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
            row = conn.execute(
                "SELECT oid FROM pg_database WHERE datname = current_database()"
            ).fetchone()
        assert row is not None
        folder = pg_server.data / "base" / str(row[0])
        leaks = [f.name for f in folder.iterdir() if needle(word) in f.read_bytes()]
        assert leaks == [], "relation files still hold the erased word"
    finally:
        store.close()


def _tables_holding(url: str, fragment: str) -> list[str]:
    """Every table of the schema one of whose rows, as text, contains ``fragment``."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        found = []
        for table in tables:
            query = sql.SQL("SELECT 1 FROM {} AS r WHERE r::text LIKE %s LIMIT 1").format(
                sql.Identifier(table)
            )
            if conn.execute(query, (f"%{fragment}%",)).fetchone():
                found.append(table)
        return found


@pytest.mark.integration
def test_postgres_0003_scrubs_what_an_older_erasure_left(fresh_pg_url: str) -> None:
    from pincite.store.postgres import PostgresStore

    store = PostgresStore(fresh_pg_url)
    word = marker()
    whole = build("t", f"u://{word}", secret_text(word), title=word)
    part = build("t", "u://p", secret_text(marker()))
    for w in (whole, part):
        store.write_version(w.document, w.version, w.chunks, None, None, expected_current=None)
    store.erase("t", whole.document.document_id)
    store.erase("t", part.document.document_id, part.chunks[1].chunk_id)
    store.close()
    # Put back what an erasure before 0003 left: real hashes, title, uri.
    with psycopg.connect(fresh_pg_url, autocommit=True) as conn:
        for w in (whole, part):
            did = w.document.document_id
            conn.execute(
                "UPDATE versions SET content_hash = %s WHERE document_id = %s",
                (w.version.content_hash, did),
            )
            conn.execute(
                "UPDATE documents SET current_hash = %s, title = %s, uri = %s"
                " WHERE document_id = %s",
                (w.version.content_hash, w.document.title, w.document.uri, did),
            )
        conn.execute("DELETE FROM pincite_migrations WHERE name = '0003_erasure_tombstones'")

    store = PostgresStore(fresh_pg_url)
    try:
        gone = store.find_document("t", document_id=whole.document.document_id)
        assert gone is not None and gone.title == ERASED_TITLE and word not in gone.uri
        [v] = store.versions("t", gone.document_id)
        assert whole.version.hash16 not in v.content_hash
        [p] = store.versions("t", part.document.document_id)
        assert p.hash16 == part.version.hash16 and p.content_hash != part.version.content_hash
        assert store.current_hash("t", p.document_id) == p.content_hash
        assert len(store.chunks("t", p.document_id, p.content_hash)) == len(part.chunks)
        kept = store.find_document("t", document_id=part.document.document_id)
        assert kept is not None and kept.uri == "u://p"
    finally:
        store.close()
