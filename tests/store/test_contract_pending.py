"""Store contract, deferred vectors: text is searchable at its commit, vectors follow.

Both backends: which chunks still need a vector, which documents a routing
vector, writing them in afterwards, and the coverage hybrid search reports.
"""

from __future__ import annotations

import numpy as np
from store_fakes import embed, lexical_ids, write

from pincite.model import DocumentStatus
from pincite.store.base import Store

TEXT = "Cats sleep most of the day.\n\nA cat purrs when content.\n\nKittens chase string."


def _fill(store: Store, tenant: str) -> None:
    """Embed every waiting chunk and routing vector the way ``pincite embed`` does."""
    chunks = store.chunks_without_vectors(tenant, 1000)
    routing = {key: embed(key[0]) for key in store.documents_without_routing(tenant)}
    store.add_vectors(tenant, {c.chunk_id: embed(c.embed_text) for c in chunks}, routing)


def test_text_without_vectors_is_lexical_now_and_waits_for_vectors(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, b = tenants
    w = write(store, a, "u://cats", TEXT, vectors=False)
    write(store, b, "u://other", "Dogs bark at night.", vectors=False)
    assert lexical_ids(store, a, "purrs")  # searchable at its commit
    waiting = store.chunks_without_vectors(a, 100)
    assert [c.chunk_id for c in waiting] == [c.chunk_id for c in w.chunks]
    assert all(c.tenant == a and c.text for c in waiting)
    assert store.documents_without_routing(a) == [(w.document.document_id, w.version.content_hash)]
    assert store.vector_coverage(a) == (0, 3)
    assert store.dense_index(a).chunk_ids == ()

    _fill(store, a)
    assert store.chunks_without_vectors(a, 100) == []
    assert store.documents_without_routing(a) == []
    assert store.vector_coverage(a) == (3, 3)
    assert set(store.dense_index(a).chunk_ids) == {c.chunk_id for c in w.chunks}
    assert store.routing_index(a).document_ids == (w.document.document_id,)
    top = store.search_dense(a, embed("A cat purrs when content."), 1)
    assert top[0][0] == w.chunks[1].chunk_id
    # The other tenant's chunks are still waiting, untouched.
    assert store.vector_coverage(b) == (0, 1)
    assert len(store.chunks_without_vectors(b, 100)) == 1


def test_limit_takes_chunks_in_store_order(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "u://cats", TEXT, vectors=False)
    first = store.chunks_without_vectors(a, 2)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in w.chunks[:2]]
    store.add_vectors(a, {c.chunk_id: embed(c.embed_text) for c in first}, {})
    rest = store.chunks_without_vectors(a, 2)
    assert [c.chunk_id for c in rest] == [w.chunks[2].chunk_id]
    assert store.vector_coverage(a) == (2, 3)
    assert store.chunks_without_vectors(a, 0) == []


def test_a_superseded_version_no_longer_waits_and_keeps_its_routing_out(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    old = write(store, a, "u://cats", TEXT, vectors=False)
    stale_key = (old.document.document_id, old.version.content_hash)
    new = write(store, a, "u://cats", TEXT + "\n\nLions roar.", vectors=False)
    assert {c.chunk_id for c in store.chunks_without_vectors(a, 100)} == {
        c.chunk_id for c in new.chunks
    }
    # A routing vector computed from the replaced text is not written.
    store.add_vectors(a, {}, {stale_key: embed("stale")})
    assert store.routing_index(a).document_ids == ()
    assert store.documents_without_routing(a) == [
        (new.document.document_id, new.version.content_hash)
    ]
    assert store.vector_coverage(a) == (0, 4)


def test_erased_and_deleted_chunks_neither_wait_nor_take_vectors(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    w = write(store, a, "u://cats", TEXT, vectors=False)
    gone = write(store, a, "u://dogs", "Dogs bark.\n\nDogs dig.", vectors=False)
    store.erase(a, w.document.document_id, w.chunks[0].chunk_id)
    store.set_status(a, gone.document.document_id, DocumentStatus.DELETED)
    waiting = {c.chunk_id for c in store.chunks_without_vectors(a, 100)}
    assert waiting == {c.chunk_id for c in w.chunks[1:]}
    assert [d for d, _ in store.documents_without_routing(a)] == [w.document.document_id]
    assert store.vector_coverage(a) == (0, 2)
    store.add_vectors(a, {w.chunks[0].chunk_id: embed("erased text")}, {})
    assert w.chunks[0].chunk_id not in store.dense_index(a).chunk_ids
    # Restored, the deleted document's chunks wait again for their vectors.
    store.set_status(a, gone.document.document_id, DocumentStatus.LIVE)
    assert store.vector_coverage(a) == (0, 4)


def test_coverage_follows_writes_from_another_connection(
    open_store: object, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    reader: Store = open_store()  # type: ignore[operator]
    writer: Store = open_store()  # type: ignore[operator]
    write(writer, a, "u://cats", TEXT, vectors=False)
    assert reader.vector_coverage(a) == (0, 3)
    _fill(writer, a)
    assert reader.vector_coverage(a) == (3, 3)
    assert np.isclose(float(np.linalg.norm(reader.dense_index(a).matrix[0])), 1.0)
