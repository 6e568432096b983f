"""Store contract, lifecycle: superseding, soft delete, restore, erasure, purge, re-embedding."""

from __future__ import annotations

import numpy as np
from store_fakes import dense_ids, embed, lexical_ids, write

from pincite.model import DocumentStatus
from pincite.store.base import Store

POLICY = (
    "Retention policy\n\nCustomer records are kept for seven years after the account closes."
    "\n\nBackups are encrypted at rest with keys rotated every ninety days."
)
POLICY_V2 = POLICY.replace("seven years", "ten years")


def _searchable(store: Store, tenant: str) -> set[str]:
    """Every chunk id either search channel can return for ``tenant``."""
    found = set(
        lexical_ids(
            store,
            tenant,
            "retention policy customer records seven ten years "
            "account closes backups encrypted rest keys rotated ninety days",
            50,
        )
    )
    found |= set(dense_ids(store, tenant, "customer records backups", 50))
    return found


def test_old_version_chunks_leave_both_indexes(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    v1 = write(store, a, "u://p", POLICY)
    assert _searchable(store, a) == {c.chunk_id for c in v1.chunks}
    v2 = write(store, a, "u://p", POLICY_V2)
    assert _searchable(store, a) == {c.chunk_id for c in v2.chunks}
    assert lexical_ids(store, a, "seven") == []
    assert lexical_ids(store, a, "ten") == [v2.chunks[1].chunk_id]
    assert store.dense_index(a).document_ids == (v1.document.document_id,) * len(v2.chunks)
    assert store.routing_index(a).document_ids == (v1.document.document_id,)


def test_deleted_document_leaves_search_and_restore_brings_it_back(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    w = write(store, a, "u://p", POLICY)
    keep = write(store, a, "u://q", "Unrelated note about lunch menus and seven cakes")
    did = w.document.document_id
    store.set_status(a, did, DocumentStatus.DELETED)
    assert _searchable(store, a) == {c.chunk_id for c in keep.chunks}
    assert lexical_ids(store, a, "seven") == [keep.chunks[0].chunk_id]
    assert store.routing_index(a).document_ids == (keep.document.document_id,)
    # Soft delete keeps every record readable.
    assert store.chunks(a, did, w.version.content_hash) == w.chunks
    store.set_status(a, did, DocumentStatus.LIVE)
    assert _searchable(store, a) == {c.chunk_id for c in w.chunks + keep.chunks}
    assert sorted(lexical_ids(store, a, "seven")) == sorted(
        [w.chunks[1].chunk_id, keep.chunks[0].chunk_id]
    )
    assert set(store.routing_index(a).document_ids) == {did, keep.document.document_id}


def test_purge_removes_every_row(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    v1 = write(store, a, "u://p", POLICY)
    v2 = write(store, a, "u://p", POLICY_V2)
    keep = write(store, a, "u://q", "Unrelated note about lunch menus")
    did = v1.document.document_id
    assert store.purge(a, did) is True
    assert store.find_document(a, document_id=did) is None
    assert store.find_document(a, uri="u://p") is None
    assert store.current_hash(a, did) is None
    assert store.versions(a, did) == []
    assert store.version(a, did, v1.version.hash16) is None
    for w in (v1, v2):
        assert store.chunks(a, did, w.version.content_hash) == []
        assert store.chunks_by_id(a, [c.chunk_id for c in w.chunks]) == {}
    assert _searchable(store, a) == {c.chunk_id for c in keep.chunks}
    assert store.routing_index(a).document_ids == (keep.document.document_id,)
    assert store.purge(a, did) is False
    # The uri is free again: a new document, a first version.
    again = write(store, a, "u://p", POLICY)
    assert again.document.document_id != did
    assert len(store.versions(a, again.document.document_id)) == 1


def test_erase_one_chunk_leaves_a_tombstone(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "u://p", POLICY)
    did, target = w.document.document_id, w.chunks[1]
    assert store.erase(a, did, target.chunk_id) == 1
    assert store.erase(a, did, target.chunk_id) == 0
    tomb = store.chunk(a, target.chunk_id)
    assert tomb is not None and tomb.erased
    assert (tomb.text, tomb.embed_text) == ("", "")
    assert (tomb.start, tomb.end, tomb.document_id) == (target.start, target.end, did)
    [version] = store.versions(a, did)
    assert len(version.text) == len(POLICY)
    assert version.text[target.start : target.end] == " " * (target.end - target.start)
    assert version.text[: target.start] == POLICY[: target.start]
    assert version.text[target.end :] == POLICY[target.end :]
    assert version.erased_ranges == ((target.start, target.end),)
    # The stored hash no longer confirms the original text; the hash16 that
    # ids already carry stays, so the unerased passages keep resolving.
    assert version.content_hash != w.version.content_hash
    assert version.hash16 == w.version.hash16
    assert target.chunk_id not in _searchable(store, a)
    assert lexical_ids(store, a, "customer seven") == []
    assert target.chunk_id not in store.dense_index(a).chunk_ids
    others = {c.chunk_id for c in w.chunks} - {target.chunk_id}
    assert _searchable(store, a) == others
    # A chunk id of another document erases nothing.
    other = write(store, a, "u://q", "Other text")
    assert store.erase(a, other.document.document_id, w.chunks[0].chunk_id) == 0


def test_erase_whole_document_blanks_every_version(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    v1 = write(store, a, "u://p", POLICY)
    v2 = write(store, a, "u://p", POLICY_V2)
    did = v1.document.document_id
    assert store.erase(a, did) == len(v1.chunks) + len(v2.chunks)
    for version in store.versions(a, did):
        assert version.text == " " * len(version.text)
        assert (0, len(version.text)) in version.erased_ranges
    for w in (v1, v2):
        for c in store.chunks(a, did, w.version.content_hash):
            assert c.erased and c.text == "" and c.embed_text == ""
    assert _searchable(store, a) == set()
    assert store.routing_index(a).document_ids == ()
    assert store.find_document(a, document_id=did) is not None
    assert store.erase(a, did) == 0


def test_replace_vectors_swaps_dense_and_routing(store: Store, tenants: tuple[str, str]) -> None:
    a, b = tenants
    w = write(store, a, "u://p", POLICY)
    did = w.document.document_id
    new = {c.chunk_id: embed("zebra " * (i + 1)) for i, c in enumerate(w.chunks)}
    routing = embed("zebra")
    store.replace_vectors(a, new, {did: routing})
    index = store.dense_index(a)
    for cid, row in zip(index.chunk_ids, index.matrix, strict=True):
        np.testing.assert_allclose(row, new[cid], rtol=1e-6)
    np.testing.assert_allclose(store.routing_index(a).matrix[0], routing, rtol=1e-6)
    # Another tenant's replace touches nothing here.
    store.replace_vectors(b, {w.chunks[0].chunk_id: embed("other")}, {did: embed("other")})
    np.testing.assert_allclose(store.dense_index(a).matrix, index.matrix)
    np.testing.assert_allclose(store.routing_index(a).matrix[0], routing, rtol=1e-6)
    assert store.routing_index(b).document_ids == ()
