"""A batch that loses its transaction says so: nothing is reported as kept that was not.

SQLite rolls a whole transaction back by itself on a full disk; PostgreSQL
loses it with the connection. Either way the batch must raise, and no write
after the loss may commit on its own outside it.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import psycopg
import pytest
from store_fakes import write

from pincite.errors import ConfigurationError
from pincite.store.sqlite import SQLiteStore


def test_sqlite_a_batch_rolled_back_by_a_full_disk_takes_no_later_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages + 30}")
    failed = None
    with pytest.raises((sqlite3.Error, ConfigurationError)), store.batch():
        for i in range(2000):
            try:
                write(store, "t", f"u://big-{i}", f"word{i} " * 400)
            except sqlite3.Error as exc:
                failed = exc
                break
        assert failed is not None and "full" in str(failed)  # the real cause, not masked
        # A caller that carries on: the write must not commit outside the dead batch.
        with pytest.raises(ConfigurationError, match="rolled back"):
            write(store, "t", "u://after-the-failure", "small text")
    store._conn.execute("PRAGMA max_page_count = 1073741823")
    assert [d.uri for d in SQLiteStore(tmp_path / "s.db").list_documents("t")] == []
    write(store, "t", "u://later", "the store takes writes again")
    assert [d.uri for d in store.list_documents("t")] == ["u://later"]


@pytest.mark.integration
def test_postgres_a_batch_whose_connection_died_raises_and_keeps_nothing_after(
    pg_url: str,
) -> None:
    from pincite.store.postgres import PostgresStore

    store = PostgresStore(pg_url)
    tenant = f"t-{time.monotonic_ns()}"
    with pytest.raises((psycopg.OperationalError, ConfigurationError)), store.batch():
        write(store, tenant, "u://one", "first document text")
        pid = store._connection.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.3)
        # What an ingest does next: a read, then a write; neither may reconnect and commit.
        write(store, tenant, "u://two", "second document text")
    other = PostgresStore(pg_url)
    try:
        assert other.list_documents(tenant) == []
        # Outside a batch the store reconnects and writes as before.
        write(store, tenant, "u://three", "after the batch")
        assert [d.uri for d in other.list_documents(tenant)] == ["u://three"]
    finally:
        other.close()
        store.close()


@pytest.mark.integration
def test_postgres_an_aborted_batch_raises_instead_of_vanishing(pg_url: str) -> None:
    from pincite.store.postgres import PostgresStore

    store = PostgresStore(pg_url)
    tenant = f"t-{time.monotonic_ns()}"
    try:
        with pytest.raises(ConfigurationError, match="lost or aborted"), store.batch():
            write(store, tenant, "u://one", "first document text")
            # A statement that fails on the batch's own transaction, caught by the caller.
            with contextlib.suppress(psycopg.Error):
                store._connection.execute("SELECT * FROM no_such_table")
        assert store.list_documents(tenant) == []
    finally:
        store.close()


@pytest.mark.integration
def test_postgres_builds_a_new_dimensions_index_after_the_batch_not_inside(
    fresh_pg_url: str,
) -> None:
    from pincite.store.postgres import PostgresStore
    from pincite.store.postgres.migrations import dense_index_dims

    store = PostgresStore(fresh_pg_url)
    try:
        assert dense_index_dims(store._connection) == set()
        with pytest.raises(RuntimeError), store.batch():
            write(store, "t", "u://rolled-back", "vectors of a new dimension")
            raise RuntimeError("interrupted")
        # Rolled back: no index, and the store does not believe there is one.
        assert dense_index_dims(store._connection) == set() and store._dims == set()
        with store.batch():
            write(store, "t", "u://kept", "vectors of a new dimension")
            assert dense_index_dims(store._connection) == set()  # not while rows are locked
        assert dense_index_dims(store._connection) == {8} and store._dims == {8}
    finally:
        store.close()
