"""Hybrid retrieval through the facade gives the same hits on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_fakes import HashEmbedder

import pincite
from pincite.retrieve.search import SearchMode, SearchOptions

NOTES = {
    "notes://cats": "Cats sleep most of the day.\n\nA cat purrs when content and kneads blankets.",
    "notes://dogs": "Dogs need daily walks.\n\nA dog barks at strangers and fetches sticks.",
    "notes://birds": "Birds migrate south in autumn.\n\nParrots can imitate human speech.",
}


def _address(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return str(tmp_path / "r.db")
    return str(request.getfixturevalue("fresh_pg_url"))


@pytest.mark.parametrize("mode", list(SearchMode))
def test_retrieve_on_each_backend(
    backend: str, mode: SearchMode, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with pincite.open(_address(backend, tmp_path, request), embedder=HashEmbedder()) as corpus:
        for uri, text in NOTES.items():
            corpus.ingest_text(text, uri=uri, tenant="acme")
            corpus.ingest_text(text.upper(), uri=uri, tenant="globex")
        options = SearchOptions(mode=mode, min_dense_score=-1.0)
        result = corpus.retrieve(
            "why does a dog bark at strangers", tenant="acme", k=3, options=options
        )
        assert result.hits
        assert all(h.chunk.tenant == "acme" for h in result.hits)
        if mode is not SearchMode.DENSE:
            assert "A dog barks" in result.hits[0].chunk.text
