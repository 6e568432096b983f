"""Store contract, search: BM25 and dense see current live chunks of one tenant only."""

from __future__ import annotations

import numpy as np
import pytest
from store_fakes import dense_ids, embed, lexical_ids, write

from pincite.store.base import Store

CORPUS = {
    "u://cats": "Cats sleep most of the day.\n\nA cat purrs when content and kneads blankets.",
    "u://dogs": "Dogs need daily walks.\n\nA dog barks at strangers and fetches sticks.",
    "u://birds": "Birds migrate south in autumn.\n\nParrots can imitate human speech.",
}


@pytest.fixture
def corpus(store: Store, tenants: tuple[str, str]) -> dict[str, str]:
    """uri → document id, in tenant ``a``."""
    a, _ = tenants
    return {uri: write(store, a, uri, text).document.document_id for uri, text in CORPUS.items()}


def _text(store: Store, tenant: str, chunk_id: str) -> str:
    chunk = store.chunk(tenant, chunk_id)
    assert chunk is not None
    return chunk.text


def test_lexical_ranks_matching_chunks_best_first(
    store: Store, tenants: tuple[str, str], corpus: dict[str, str]
) -> None:
    a, _ = tenants
    hits = store.search_lexical(a, ["dog", "barks", "strangers"], 10)
    assert hits and _text(store, a, hits[0][0]).startswith("A dog barks")
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    # Stemming: plural and inflected forms meet.
    assert _text(store, a, store.search_lexical(a, ["migrating"], 1)[0][0]).startswith("Birds")
    assert store.search_lexical(a, ["zebra"], 10) == []
    assert store.search_lexical(a, [], 10) == []
    assert store.search_lexical(a, ["dog"], 0) == []
    assert len(store.search_lexical(a, ["a"], 1)) <= 1


def test_lexical_document_scope(
    store: Store, tenants: tuple[str, str], corpus: dict[str, str]
) -> None:
    a, _ = tenants
    terms = ["a", "cat", "dog", "parrots"]
    everywhere = {store.chunk(a, c).document_id for c in lexical_ids(store, a, " ".join(terms))}  # type: ignore[union-attr]
    assert everywhere == set(corpus.values())
    only = [corpus["u://dogs"]]
    scoped = store.search_lexical(a, terms, 10, only)
    assert scoped and {store.chunk(a, c).document_id for c, _ in scoped} == set(only)  # type: ignore[union-attr]
    assert store.search_lexical(a, terms, 10, []) == []
    assert store.search_lexical(a, terms, 10, ["not-a-document"]) == []


@pytest.mark.parametrize(
    "term",
    [
        '"AND"',
        "OR",
        "NEAR(x y)",
        "*",
        ":",
        "^",
        "'",
        '"',
        "dog*",
        "-dog",
        "dog:*",
        "!dog",
        "dog & cat",
        "dog | cat",
        "<->",
        "(",
        ")",
        "NOT",
        "tenant_key",
        "body : dog",
        "\\",
        "%",
        "_",
    ],
)
def test_query_syntax_in_terms_is_plain_text(
    store: Store, tenants: tuple[str, str], corpus: dict[str, str], term: str
) -> None:
    a, b = tenants
    write(store, b, "u://secret", "Dogs and cats of the other tenant.")
    hits = store.search_lexical(a, [term], 10)
    for cid, _ in hits:
        assert store.chunk(a, cid) is not None
    # An operator next to a real word neither errors nor widens the match.
    with_word = store.search_lexical(a, [term, "parrots"], 10)
    assert with_word and _text(store, a, with_word[0][0]).startswith("Parrots")
    for cid, _ in with_word:
        assert store.chunk(a, cid) is not None


def test_the_other_tenants_best_match_is_never_returned(
    store: Store, tenants: tuple[str, str], corpus: dict[str, str]
) -> None:
    a, b = tenants
    secret = "Quokkas quokka quokkas smile in the dogs cats birds"
    theirs = write(store, b, "u://q", secret)
    theirs_ids = {c.chunk_id for c in theirs.chunks}
    mine = {c for c in lexical_ids(store, a, "quokkas dogs cats birds smile", 50)}
    assert mine and not mine & theirs_ids
    assert not set(dense_ids(store, a, secret, 50)) & theirs_ids
    assert set(store.dense_index(a).document_ids) == set(corpus.values())
    assert theirs.document.document_id not in store.routing_index(a).document_ids
    # ... while the other tenant does find it.
    assert lexical_ids(store, b, "quokkas", 1) == [theirs.chunks[0].chunk_id]


def test_dense_index_holds_current_live_vectors(
    store: Store, tenants: tuple[str, str], corpus: dict[str, str]
) -> None:
    a, _ = tenants
    index = store.dense_index(a)
    assert index.matrix.dtype == np.float32
    assert index.matrix.shape == (len(index.chunk_ids), 8)
    for cid, did, row in zip(index.chunk_ids, index.document_ids, index.matrix, strict=True):
        chunk = store.chunk(a, cid)
        assert chunk is not None and chunk.document_id == did
        np.testing.assert_allclose(row, embed(chunk.embed_text), rtol=1e-6)
    routing = store.routing_index(a)
    assert set(routing.document_ids) == set(corpus.values())
    assert routing.matrix.shape == (3, 8)


def test_documents_without_vectors_are_lexical_only(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    w = write(store, a, "u://plain", "Plain lexical document about walruses", vectors=False)
    assert lexical_ids(store, a, "walruses") == [w.chunks[0].chunk_id]
    assert store.dense_index(a).chunk_ids == ()
    assert store.routing_index(a).document_ids == ()


def test_another_tenants_documents_do_not_move_a_score(
    store: Store, tenants: tuple[str, str]
) -> None:
    """BM25 statistics are per tenant: nothing about B can be read off A's scores."""
    a, b = tenants
    write(store, a, "u://a1", "Parrots repeat the words they hear.")
    write(store, a, "u://a2", "Cats sleep for most of the day.")
    before = store.search_lexical(a, ["parrots", "words", "sleep"], 10)
    for i in range(12):
        write(store, b, f"u://b{i}", "Parrots and words, words and parrots. " * (i + 1))
    after = store.search_lexical(a, ["parrots", "words", "sleep"], 10)
    assert len(before) == 2
    assert after == before  # same chunks, same order, bit-identical scores
