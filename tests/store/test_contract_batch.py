"""Store contract, batches: many writes in one transaction, each still atomic on its own."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from store_fakes import build, lexical_ids, write

from pincite.errors import ConcurrentWriteError, ConfigurationError
from pincite.store.base import Store


def _uris(store: Store, tenant: str) -> set[str]:
    return {d.uri for d in store.list_documents(tenant)}


def test_a_batch_commits_every_write_once_it_ends(
    open_store: Callable[[], Store], tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    writer, reader = open_store(), open_store()
    with writer.batch():
        for i in range(5):
            write(writer, a, f"u://doc-{i}", f"text number {i} about batches")
        # The batch's own connection reads its writes; another sees none yet.
        assert len(_uris(writer, a)) == 5
        assert _uris(reader, a) == set()
    assert _uris(reader, a) == {f"u://doc-{i}" for i in range(5)}
    assert len(lexical_ids(reader, a, "batches")) == 5


def test_a_failed_write_inside_a_batch_rolls_back_alone(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    first = write(store, a, "u://kept", "first text")
    with store.batch():
        write(store, a, "u://before", "written before the failure")
        stale = build(a, "u://kept", "a stale rewrite", document_id=first.document.document_id)
        with pytest.raises(ConcurrentWriteError):
            store.write_version(
                stale.document, stale.version, stale.chunks, None, None, expected_current=None
            )
        write(store, a, "u://after", "written after the failure")
    assert _uris(store, a) == {"u://kept", "u://before", "u://after"}
    assert store.current_hash(a, first.document.document_id) == first.version.content_hash
    assert store.chunk(a, stale.chunks[0].chunk_id) is None


def test_an_exception_leaving_a_batch_rolls_all_of_it_back(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    write(store, a, "u://earlier", "committed before the batch")
    with pytest.raises(RuntimeError), store.batch():
        write(store, a, "u://lost-1", "vanished words one")
        write(store, a, "u://lost-2", "vanished words two")
        raise RuntimeError("interrupted")
    assert _uris(store, a) == {"u://earlier"}
    assert lexical_ids(store, a, "vanished") == []
    # The store takes writes again, outside any batch.
    write(store, a, "u://later", "after the rollback")
    assert _uris(store, a) == {"u://earlier", "u://later"}


def test_erase_refuses_to_run_inside_a_batch(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "u://secret", "erase me later")
    with store.batch():
        with pytest.raises(ConfigurationError, match="inside a batch"):
            store.erase(a, w.document.document_id)
        write(store, a, "u://other", "still written")
    assert store.chunk(a, w.chunks[0].chunk_id) is not None
    assert _uris(store, a) == {"u://secret", "u://other"}
    assert store.erase(a, w.document.document_id) >= 1


def test_nested_batches_join_the_outer_one(
    open_store: Callable[[], Store], tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    writer, reader = open_store(), open_store()
    with writer.batch():
        with writer.batch():
            write(writer, a, "u://inner", "inside the inner batch")
        assert _uris(reader, a) == set()
    assert _uris(reader, a) == {"u://inner"}


def test_erase_from_another_thread_waits_for_the_batch_instead_of_failing(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    w = write(store, a, "u://secret", "erase me from the other thread")
    outcome: list[object] = []
    started = threading.Event()

    def erase_elsewhere() -> None:
        started.set()
        try:
            outcome.append(store.erase(a, w.document.document_id))
        except Exception as exc:  # the failure this test guards against
            outcome.append(exc)

    with store.batch():
        write(store, a, "u://other", "written in the batch")
        thread = threading.Thread(target=erase_elsewhere)
        thread.start()
        started.wait(5)
        thread.join(0.3)  # it waits on the batch's lock, it does not refuse
        assert outcome == []
    thread.join(10)
    assert outcome and isinstance(outcome[0], int) and outcome[0] >= 1
    # The batch committed first, then the erasure ran (and blanked the secret's uri).
    assert "u://other" in _uris(store, a) and "u://secret" not in _uris(store, a)
    assert store.chunk(a, w.chunks[0].chunk_id).erased  # type: ignore[union-attr]
