"""Store contract, records: documents, versions and chunks read back exactly, per tenant."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from store_fakes import build, embed, write

from pincite.model import BBox, BoxOrigin, Chunk, DocumentStatus, content_hash
from pincite.store.base import Store

POLICY = (
    "Retention policy\n\nCustomer records are kept for seven years after the account closes."
    "\n\nBackups are encrypted at rest with keys rotated every ninety days."
)
POLICY_V2 = POLICY.replace("seven years", "ten years")


def test_written_version_reads_back_exactly(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "policy://retention", POLICY)
    doc = w.document
    assert store.find_document(a, document_id=doc.document_id) == doc
    assert store.find_document(a, uri=doc.uri) == doc
    assert store.list_documents(a) == [doc]
    assert store.documents_by_id(a, [doc.document_id, "missing"]) == {doc.document_id: doc}
    assert store.current_hash(a, doc.document_id) == w.version.content_hash
    assert store.versions(a, doc.document_id) == [w.version]
    assert store.version(a, doc.document_id, w.version.hash16) == w.version
    assert store.chunks(a, doc.document_id, w.version.content_hash) == w.chunks
    first = w.chunks[0]
    assert store.chunk(a, first.chunk_id) == first
    ids = [c.chunk_id for c in w.chunks]
    assert store.chunks_by_id(a, [*ids, ids[0], "missing"]) == {c.chunk_id: c for c in w.chunks}
    for c in store.chunks(a, doc.document_id, w.version.content_hash):
        assert c.text == w.version.text[c.start : c.end]
    assert a in store.tenants()


def test_every_chunk_field_round_trips(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    text = "Ünïcödé 𝔘 text — with astral 🎉 characters"
    w = build(a, "u://fields", text)
    chunk = Chunk(
        "0b6f3c1e-8d8a-4c5f-9a59-1f1d8f3b2a11",
        a,
        w.document.document_id,
        w.version.content_hash,
        0,
        0,
        len(text),
        text,
        "Heading › " + text,
        section=("Part 1", "§ 2"),
        pages=(3, 4),
        page_label="iv",
        bboxes=(BBox(3, 1.5, 2.25, 100.0, 200.125, BoxOrigin.TOP_LEFT), BBox(4, 0, 0, 1, 1)),
        time_range=(1.25, 9.5),
    )
    store.write_version(
        w.document, w.version, [chunk], np.vstack([embed(text)]), embed(text), expected_current=None
    )
    assert store.chunk(a, chunk.chunk_id) == chunk
    assert store.versions(a, w.document.document_id) == [w.version]


def test_hash16_lookup_is_exact(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "u://h", POLICY)
    did, h16 = w.document.document_id, w.version.hash16
    assert store.version(a, did, h16.upper()) is None
    assert store.version(a, did, h16[:15]) is None
    assert store.version(a, did, h16[:15] + "%") is None
    assert store.version(a, did, "_" * 16) is None
    assert store.version(a, did, w.version.content_hash) is None


def test_new_text_supersedes_and_keeps_the_old_version(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    v1 = write(store, a, "policy://retention", POLICY)
    v2 = write(store, a, "policy://retention", POLICY_V2)
    did = v1.document.document_id
    assert v2.document.document_id == did
    assert store.current_hash(a, did) == v2.version.content_hash
    versions = store.versions(a, did)
    assert [v.content_hash for v in versions] == [v1.version.content_hash, v2.version.content_hash]
    assert versions[0].superseded_by == v2.version.content_hash
    assert versions[1].superseded_by is None
    old = store.version(a, did, v1.version.hash16)
    assert old is not None and old.text == POLICY and old.superseded
    assert store.chunks(a, did, v1.version.content_hash) == v1.chunks
    assert store.chunk(a, v1.chunks[1].chunk_id) == v1.chunks[1]
    assert len(store.list_documents(a)) == 1


def test_rewriting_an_earlier_text_makes_that_version_current_again(
    store: Store, tenants: tuple[str, str]
) -> None:
    """An edit undone (v1 → v2 → v1 text) is not an error and keeps one row per version."""
    a, _ = tenants
    v1 = write(store, a, "u://undo", POLICY)
    write(store, a, "u://undo", POLICY_V2)
    write(store, a, "u://undo", POLICY)
    did = v1.document.document_id
    assert store.current_hash(a, did) == v1.version.content_hash
    versions = store.versions(a, did)
    assert sorted(v.content_hash for v in versions) == sorted(
        {v1.version.content_hash, content_hash(POLICY_V2)}
    )
    current = [v for v in versions if v.superseded_by is None]
    assert [v.content_hash for v in current] == [v1.version.content_hash]
    # Both backends order versions by when each last became current: the current is last.
    assert versions[-1].content_hash == v1.version.content_hash
    live = store.search_lexical(a, ["seven"], 10)
    assert [store.chunk(a, cid).content_hash for cid, _ in live] == [  # type: ignore[union-attr]
        v1.version.content_hash
    ]
    assert store.search_lexical(a, ["ten"], 10) == []


def test_documents_are_listed_by_creation(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    late = build(a, "u://b", "late text", created_at="2025-02-01T00:00:00+00:00")
    early = build(a, "u://a", "early text", created_at="2025-01-01T00:00:00+00:00")
    for w in (late, early):
        store.write_version(w.document, w.version, w.chunks, None, None, expected_current=None)
    assert [d.uri for d in store.list_documents(a)] == ["u://a", "u://b"]


def test_status_is_stored(store: Store, tenants: tuple[str, str]) -> None:
    a, b = tenants
    w = write(store, a, "u://s", POLICY)
    did = w.document.document_id
    assert store.set_status(a, did, DocumentStatus.DELETED) is True
    found = store.find_document(a, document_id=did)
    assert found is not None and found.status is DocumentStatus.DELETED
    assert store.set_status(b, did, DocumentStatus.DELETED) is False
    assert store.set_status(a, "missing", DocumentStatus.DELETED) is False


def test_every_read_is_confined_to_its_tenant(store: Store, tenants: tuple[str, str]) -> None:
    a, b = tenants
    w = write(store, a, "policy://retention", POLICY)
    did, chash = w.document.document_id, w.version.content_hash
    cid = w.chunks[0].chunk_id
    assert store.find_document(b, document_id=did) is None
    assert store.find_document(b, uri="policy://retention") is None
    assert store.list_documents(b) == []
    assert store.documents_by_id(b, [did]) == {}
    assert store.current_hash(b, did) is None
    assert store.versions(b, did) == []
    assert store.version(b, did, w.version.hash16) is None
    assert store.chunks(b, did, chash) == []
    assert store.chunk(b, cid) is None
    assert store.chunks_by_id(b, [cid]) == {}
    assert store.dense_index(b).chunk_ids == ()
    assert store.routing_index(b).document_ids == ()
    assert store.search_lexical(b, ["customer", "records"], 10) == []
    assert store.search_lexical(b, ["customer"], 10, [did]) == []
    assert b not in store.tenants()
    assert store.purge(b, did) is False
    assert store.erase(b, did) == 0
    assert store.erase(b, did, cid) == 0
    assert store.chunk(a, cid) == w.chunks[0]


def test_same_uri_in_two_tenants_are_two_documents(store: Store, tenants: tuple[str, str]) -> None:
    a, b = tenants
    wa = write(store, a, "policy://shared", POLICY)
    wb = write(store, b, "policy://shared", POLICY)
    assert wa.document.document_id != wb.document.document_id
    assert store.find_document(a, uri="policy://shared") == wa.document
    assert store.find_document(b, uri="policy://shared") == wb.document


def test_meta_get_and_set(store: Store, tenants: tuple[str, str]) -> None:
    key = f"contract-{tenants[0]}"
    assert store.get_meta(key) is None
    store.set_meta(key, "one")
    store.set_meta(key, "two")
    assert store.get_meta(key) == "two"


def test_meta_keys_lists_by_literal_prefix(store: Store, tenants: tuple[str, str]) -> None:
    base = f"contract-{tenants[0]}"
    for suffix in ("b", "a", "%x", "_y", "é", "Z"):
        store.set_meta(f"{base}:{suffix}", suffix)
    store.set_meta(f"{base}-other", "no")
    # Code-point order on both backends, whatever the database's collation.
    expected = [f"{base}:{s}" for s in ("%x", "Z", "_y", "a", "b", "é")]
    assert store.meta_keys(f"{base}:") == expected
    # Wildcards in the prefix are literal characters, not patterns.
    assert store.meta_keys(f"{base}:%") == [f"{base}:%x"]
    assert store.meta_keys(f"{base}:_") == [f"{base}:_y"]
    assert store.meta_keys(f"{base}:zz") == []


def test_a_second_connection_sees_committed_writes(
    open_store: Callable[[], Store], tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    first, second = open_store(), open_store()
    assert second.dense_index(a).chunk_ids == ()
    w = write(first, a, "u://x", POLICY)
    assert second.current_hash(a, w.document.document_id) == w.version.content_hash
    assert len(second.dense_index(a).chunk_ids) == len(w.chunks)
    assert len(second.routing_index(a).document_ids) == 1


@pytest.mark.parametrize("field", ["tenant", "document_id", "content_hash"])
def test_chunks_of_another_version_are_refused(
    store: Store, tenants: tuple[str, str], field: str
) -> None:
    from dataclasses import replace

    a, b = tenants
    w = build(a, "u://bad", POLICY)
    wrong = {"tenant": b, "document_id": "other", "content_hash": "0" * 64}[field]
    chunks = [replace(w.chunks[0], **{field: wrong}), *w.chunks[1:]]  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.write_version(w.document, w.version, chunks, None, None, expected_current=None)
    assert store.find_document(a, uri="u://bad") is None
    assert store.chunk(b, w.chunks[0].chunk_id) is None
