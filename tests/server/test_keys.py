"""API keys: random, shown once, stored only as a sha256 in the store's meta table."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.errors import InputError, NotFoundError
from pincite.server import keys


def test_a_key_is_stored_hashed_and_names_its_tenant(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    digest = hashlib.sha256(key.encode()).hexdigest()
    record = json.loads(corpus.store.get_meta(f"apikey:{digest}") or "")
    assert record["tenant"] == "acme" and record["revoked"] is False
    assert corpus.store.meta_keys("apikey:") == [f"apikey:{digest}"]  # nothing else stored
    assert keys.tenant_for(corpus.store, key) == "acme"
    assert keys.create_key(corpus.store, "acme") != key


@pytest.mark.parametrize("bad", ["", "pk_", "pk_unknown", "sk-something", "pk_" + "x" * 500])
def test_unknown_keys_name_no_tenant(corpus: Corpus, bad: str) -> None:
    keys.create_key(corpus.store, "acme")
    assert keys.tenant_for(corpus.store, bad) is None


def test_list_and_revoke_by_key_id_or_key(corpus: Corpus) -> None:
    a = keys.create_key(corpus.store, "acme")
    b = keys.create_key(corpus.store, "globex")
    listed = keys.list_keys(corpus.store)
    assert [k.tenant for k in listed] == ["acme", "globex"]
    assert [k.tenant for k in keys.list_keys(corpus.store, "globex")] == ["globex"]
    revoked = keys.revoke_key(corpus.store, listed[0].key_id)
    assert revoked.revoked and revoked.tenant == "acme"
    assert keys.tenant_for(corpus.store, a) is None
    assert keys.revoke_key(corpus.store, b).tenant == "globex"
    assert keys.tenant_for(corpus.store, b) is None


def test_revoke_refuses_unknown_and_too_short_ids(corpus: Corpus) -> None:
    keys.create_key(corpus.store, "acme")
    with pytest.raises(NotFoundError):
        keys.revoke_key(corpus.store, "ffffffffffff")
    with pytest.raises(NotFoundError):
        keys.revoke_key(corpus.store, "pk_not-a-key")
    with pytest.raises(InputError, match="at least 6"):
        keys.revoke_key(corpus.store, "ab")


def test_tenant_names_are_checked(corpus: Corpus) -> None:
    with pytest.raises(InputError):
        keys.create_key(corpus.store, " spaced ")


def test_a_damaged_record_authenticates_nobody(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    corpus.store.set_meta(f"apikey:{keys.key_hash(key)}", "{not json")
    assert keys.tenant_for(corpus.store, key) is None
    assert keys.list_keys(corpus.store) == []
    with pytest.raises(InputError, match="damaged record"):  # a clear error, not a traceback
        keys.revoke_key(corpus.store, keys.key_hash(key)[:12])


def test_keys_created_at_once_from_several_processes_are_all_listed(tmp_path: Path) -> None:
    """Each creation is one write: simultaneous creators cannot drop each other's key."""
    db = tmp_path / "keys.db"
    with pincite.open(db, embedder=None):
        pass  # create the schema once
    created: list[str] = []

    def make(n: int) -> None:
        with pincite.open(db, embedder=None) as corpus:
            for _ in range(n):
                created.append(keys.create_key(corpus.store, "acme"))

    threads = [threading.Thread(target=make, args=(10,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with pincite.open(db, embedder=None) as corpus:
        listed = keys.list_keys(corpus.store)
        assert len(created) == len(listed) == 40
        assert {k.key_id for k in listed} == {
            hashlib.sha256(k.encode()).hexdigest()[:12] for k in created
        }
        assert all(keys.tenant_for(corpus.store, k) == "acme" for k in created)
