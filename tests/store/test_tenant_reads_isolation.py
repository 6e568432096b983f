"""Edges of the tenant-scoped reads the mutation run found untested (issue 21)."""

from __future__ import annotations

import pytest
from store_fakes import write

from pincite.store.base import Store


def test_a_short_hash_finds_its_version_whatever_digit_follows(
    store: Store, tenants: tuple[str, str]
) -> None:
    # The 17th hex digit of this text's hash is a letter: the range upper bound
    # (hash16 + "g") must lie above every hex digit, letters included.
    a, b = tenants
    text = "Policy text number 0.\n\nMore words."
    w = write(store, a, "u://letter", text)
    assert w.version.content_hash[16] in "abcdef"
    assert store.version(a, w.document.document_id, w.version.hash16) == w.version
    assert store.version(b, w.document.document_id, w.version.hash16) is None


def test_find_document_needs_an_id_or_a_uri(store: Store, tenants: tuple[str, str]) -> None:
    with pytest.raises(ValueError, match=r"^find_document needs document_id or uri$"):
        store.find_document(tenants[0])


def test_a_malformed_short_hash_reads_as_no_version(store: Store, tenants: tuple[str, str]) -> None:
    # Sixteen characters that are not lowercase hex are refused before the
    # query: None, never a database error (PostgreSQL refuses a NUL in text).
    a, _ = tenants
    w = write(store, a, "u://malformed", "Policy text number 1.\n\nMore words.")
    did, good = w.document.document_id, w.version.hash16
    assert store.version(a, did, good) == w.version
    assert good.upper() != good
    for bad in ("\x00" * 16, good[:15] + "\x00", good.upper(), good + "0"):
        assert store.version(a, did, bad) is None
