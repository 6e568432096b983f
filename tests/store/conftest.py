"""Fixtures for the store contract suite: every test runs on SQLite and on PostgreSQL.

PostgreSQL is a real server started once per session (``pg_embedded``). The
contract tests share one migrated database and keep apart by tenant names
unique to each test; tests that need a database of their own ask for
``fresh_pg_url``. If the server cannot start, every PostgreSQL test errors:
a skipped PostgreSQL run is a failure, not a pass.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from pathlib import Path

import pg_embedded
import psycopg
import pytest

from pincite.store.base import Store

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg_embedded.EmbeddedPostgres]:
    server = pg_embedded.start()
    try:
        pg_embedded.wait_ready(server.url())
        yield server
    finally:
        server.stop()


def _create_database(server: pg_embedded.EmbeddedPostgres) -> str:
    name = f"pincite_{next(_counter)}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    return server.url(name)


@pytest.fixture(scope="session")
def pg_url(pg_server: pg_embedded.EmbeddedPostgres) -> str:
    """A migrated database shared by the contract tests (tenants keep them apart)."""
    from pincite.store.postgres import PostgresStore

    url = _create_database(pg_server)
    PostgresStore(url).close()
    return url


@pytest.fixture
def fresh_pg_url(pg_server: pg_embedded.EmbeddedPostgres) -> str:
    """An empty database of this test's own."""
    return _create_database(pg_server)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.integration)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[object]:
    """A factory: each call opens another connection to this test's store."""
    opened: list[Store] = []

    def open_() -> Store:
        store: Store
        if backend == "sqlite":
            from pincite.store.sqlite import SQLiteStore

            store = SQLiteStore(tmp_path / "store.db")
        else:
            from pincite.store.postgres import PostgresStore

            store = PostgresStore(request.getfixturevalue("pg_url"))
        opened.append(store)
        return store

    yield open_
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: object) -> Store:
    return open_store()  # type: ignore[operator, no-any-return]


@pytest.fixture
def tenants() -> tuple[str, str]:
    """Two tenant names no other test uses."""
    tag = uuid.uuid4().hex[:10]
    return f"acme-{tag}", f"globex-{tag}"


@pytest.fixture
def location(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a test's corpus lives: a SQLite file, or an empty PostgreSQL database."""
    if backend == "sqlite":
        return str(tmp_path / "corpus.db")
    return str(request.getfixturevalue("fresh_pg_url"))
