"""Store contract, concurrency: two writers of one document never make two current versions."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from store_fakes import Written, build, write

from pincite.errors import ConcurrentWriteError
from pincite.store.base import Store

ROUNDS = 8


def _one_current(store: Store, tenant: str, document_id: str) -> str:
    versions = store.versions(tenant, document_id)
    current = [v.content_hash for v in versions if v.superseded_by is None]
    assert len(current) == 1, current
    assert store.current_hash(tenant, document_id) == current[0]
    for v in versions:
        assert v.superseded_by is None or v.superseded_by in {w.content_hash for w in versions}
    return current[0]


def test_stale_expected_current_is_refused(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    v1 = write(store, a, "u://p", "first text")
    did = v1.document.document_id
    write(store, a, "u://p", "second text")
    stale = build(a, "u://p", "third text", document_id=did)
    with pytest.raises(ConcurrentWriteError):
        store.write_version(
            stale.document,
            stale.version,
            stale.chunks,
            None,
            None,
            expected_current=v1.version.content_hash,
        )
    with pytest.raises(ConcurrentWriteError):
        store.write_version(
            stale.document, stale.version, stale.chunks, None, None, expected_current=None
        )
    assert store.current_hash(a, did) != stale.version.content_hash
    assert len(store.versions(a, did)) == 2
    assert store.chunk(a, stale.chunks[0].chunk_id) is None


def test_second_new_document_at_a_taken_uri_is_refused(
    store: Store, tenants: tuple[str, str]
) -> None:
    """Two ingests of one new uri: both saw no document; the later one must lose cleanly."""
    a, _ = tenants
    first = build(a, "u://new", "first text")
    second = build(a, "u://new", "second text")
    store.write_version(
        first.document, first.version, first.chunks, None, None, expected_current=None
    )
    with pytest.raises(ConcurrentWriteError):
        store.write_version(
            second.document, second.version, second.chunks, None, None, expected_current=None
        )
    assert [d.document_id for d in store.list_documents(a)] == [first.document.document_id]
    assert store.chunk(a, second.chunks[0].chunk_id) is None


def _race(
    store: Store, w: Written, expected: str | None, barrier: threading.Barrier, out: list[str]
) -> None:
    barrier.wait()
    try:
        store.write_version(w.document, w.version, w.chunks, None, None, expected_current=expected)
        out.append("won")
    except ConcurrentWriteError:
        out.append("lost")


def test_racing_threads_on_two_connections(
    open_store: Callable[[], Store], tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    stores = [open_store(), open_store()]
    did = write(stores[0], a, "u://race", "round start").document.document_id
    outcomes: list[str] = []
    for n in range(ROUNDS):
        expected = stores[0].current_hash(a, did)
        barrier = threading.Barrier(2)
        threads = [
            threading.Thread(
                target=_race,
                args=(
                    s,
                    build(a, "u://race", f"round {n} writer {i}", document_id=did),
                    expected,
                    barrier,
                    outcomes,
                ),
            )
            for i, s in enumerate(stores)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        _one_current(stores[0], a, did)
    assert outcomes.count("won") == ROUNDS and outcomes.count("lost") == ROUNDS
    assert len(stores[1].versions(a, did)) == ROUNDS + 1


def _process_writer(
    backend: str, address: str, tenant: str, uri: str, name: str, rounds: int, start: object
) -> tuple[int, int]:
    if backend == "sqlite":
        from pincite.store.sqlite import SQLiteStore

        store: Store = SQLiteStore(address)
    else:
        from pincite.store.postgres import PostgresStore

        store = PostgresStore(address)
    won = lost = 0
    start.wait()  # type: ignore[attr-defined]
    for n in range(rounds):
        existing = store.find_document(tenant, uri=uri)
        try:
            write(
                store,
                tenant,
                uri,
                f"{name} round {n}",
                document_id=existing.document_id if existing else None,
            )
            won += 1
        except ConcurrentWriteError:
            lost += 1
    store.close()
    return won, lost


def test_two_processes_ingesting_one_new_document(
    backend: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    open_store: Callable[[], Store],
    tenants: tuple[str, str],
) -> None:
    a, _ = tenants
    address = (
        str(tmp_path / "store.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    )
    open_store().close()  # creates (and migrates) the store before the race
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        start = manager.Event()
        with ctx.Pool(2) as pool:
            jobs = [
                pool.apply_async(
                    _process_writer, (backend, address, a, "u://shared", f"p{i}", ROUNDS, start)
                )
                for i in range(2)
            ]
            start.set()
            results = [job.get(120) for job in jobs]
    store = open_store()
    [document] = store.list_documents(a)
    current = _one_current(store, a, document.document_id)
    won = sum(r[0] for r in results)
    assert won == len(store.versions(a, document.document_id)) >= 1
    assert won + sum(r[1] for r in results) == 2 * ROUNDS
    assert store.chunks(a, document.document_id, current)
