"""Searchable at once, dense when ready: ingest commits text, vectors follow (both backends).

Through the facade on a real store: text ingested without embedding is found
by its words at once and hybrid search says how much of the tenant has
vectors; ``embed_pending`` fills them in, a committed batch at a time, so a
run killed half way loses no text and the next run resumes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from store_fakes import HashEmbedder

import pincite
from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.ingest.embedding import embed_pending, pending
from pincite.retrieve.search import SearchMode, SearchOptions

# Paragraphs near the chunker's 1,000-character target: one chunk each.
PARAGRAPHS = [f"Paragraph {i} tells of kestrel number {i} hovering. " * 17 for i in range(12)]
TEXT = "\n\n".join(PARAGRAPHS)
N = len(PARAGRAPHS)
HYBRID = SearchOptions(mode=SearchMode.HYBRID, min_dense_score=-1.0)
DENSE = SearchOptions(mode=SearchMode.DENSE, min_dense_score=-1.0)


class CountingEmbedder(HashEmbedder):
    """Counts the texts it embeds; raises once ``fail_after`` texts are done (a kill)."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.texts: list[str] = []
        self.fail_after = fail_after

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.fail_after is not None and len(self.texts) >= self.fail_after:
            raise KeyboardInterrupt
        self.texts.extend(texts)
        return super().embed_documents(texts)


@pytest.fixture
def address(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return str(tmp_path / "deferred.db")
    return str(request.getfixturevalue("fresh_pg_url"))


@pytest.fixture
def corpus(address: str) -> Iterator[Corpus]:
    with pincite.open(address, embedder=CountingEmbedder()) as c:
        yield c


def test_text_is_searchable_at_once_and_dense_when_embedded(corpus: Corpus) -> None:
    report = corpus.ingest_text(TEXT, uri="u://birds", tenant="acme", embed=False)
    assert report.chunks == N
    assert pending(corpus.store, "acme").chunks == report.chunks
    found = corpus.retrieve("kestrel hovering", tenant="acme", k=3, options=HYBRID)
    assert found.hits and found.dense_coverage == 0.0
    assert not corpus.retrieve("kestrel", tenant="acme", k=3, options=DENSE).hits
    assert corpus.retrieve("kestrel", tenant="acme", k=3).dense_coverage is not None

    assert embed_pending(corpus.store, corpus.embedder, "acme", batch=1) == report.chunks  # type: ignore[arg-type]
    after = corpus.retrieve("kestrel hovering", tenant="acme", k=3, options=HYBRID)
    assert after.dense_coverage == 1.0
    assert any(c.name == "dense" for h in after.hits for c in h.branches.channels)
    assert corpus.store.routing_index("acme").document_ids == (report.document_id,)
    assert pending(corpus.store, "acme").chunks == 0
    assert embed_pending(corpus.store, corpus.embedder, "acme") == 0  # type: ignore[arg-type]


def test_ingest_embeds_by_default(corpus: Corpus) -> None:
    corpus.ingest_text(TEXT, uri="u://birds", tenant="acme")
    assert corpus.store.vector_coverage("acme") == (N, N)
    assert len(corpus.store.routing_index("acme").document_ids) == 1
    lexical = SearchOptions(mode=SearchMode.LEXICAL)
    assert corpus.retrieve("kestrel", tenant="acme", options=lexical).dense_coverage is None


def test_a_kill_during_embedding_loses_no_text_and_the_next_run_resumes(address: str) -> None:
    with pincite.open(address, embedder=CountingEmbedder()) as c:
        c.ingest_text(TEXT, uri="u://birds", tenant="acme", embed=False)
    dying = CountingEmbedder(fail_after=1 + 4)  # the routing text, then one batch of 4
    with pincite.open(address, embedder=dying) as c, pytest.raises(KeyboardInterrupt):
        embed_pending(c.store, dying, "acme", batch=4)
    resumed = CountingEmbedder()
    with pincite.open(address, embedder=resumed) as c:
        assert c.store.vector_coverage("acme") == (4, N)
        assert c.store.documents_without_routing("acme") == []
        # Every word is still there, and still found.
        (document,) = c.documents(tenant="acme")
        assert c.versions(document.document_id, tenant="acme")[-1].text == TEXT
        assert c.retrieve("kestrel", tenant="acme", options=HYBRID).hits
        assert embed_pending(c.store, resumed, "acme", batch=4) == N - 4
        # Only what was missing was embedded again.
        assert len(resumed.texts) == N - 4
        assert c.store.vector_coverage("acme") == (N, N)


def test_an_earlier_text_again_keeps_its_vectors_and_gets_its_routing_back(
    address: str,
) -> None:
    counting = CountingEmbedder()
    with pincite.open(address, embedder=counting) as c:
        c.ingest_text(TEXT, uri="u://birds", tenant="acme")
        c.ingest_text("Something else entirely.", uri="u://birds", tenant="acme")
        before = len(counting.texts)
        report = c.ingest_text(TEXT, uri="u://birds", tenant="acme")
        assert report.status.value == "updated"
        assert len(counting.texts) == before + 1  # the routing text only
        assert c.store.vector_coverage("acme") == (N, N)
        assert c.store.documents_without_routing("acme") == []


def test_tenants_embed_apart(corpus: Corpus) -> None:
    corpus.ingest_text(TEXT, uri="u://birds", tenant="acme", embed=False)
    corpus.ingest_text(TEXT, uri="u://birds", tenant="globex", embed=False)
    embed_pending(corpus.store, corpus.embedder, "acme")  # type: ignore[arg-type]
    assert corpus.store.vector_coverage("acme") == (N, N)
    assert corpus.store.vector_coverage("globex") == (0, N)
    assert corpus.retrieve("kestrel", tenant="globex", options=HYBRID).dense_coverage == 0.0


class _Forgetful:
    """A store that drops every vector it is given (a broken backend)."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def add_vectors(self, *args: object) -> None:
        return None


def test_a_store_that_keeps_no_vectors_is_an_error_not_a_loop(corpus: Corpus) -> None:
    corpus.ingest_text(TEXT, uri="u://birds", tenant="acme", embed=False)
    with pytest.raises(PinciteError, match="did not keep"):
        embed_pending(_Forgetful(corpus.store), corpus.embedder, "acme")  # type: ignore[arg-type]


@pytest.mark.parametrize("embed_now", [True, False])
def test_a_one_chunk_document_is_embedded_once_for_both_vectors(
    address: str, embed_now: bool
) -> None:
    counting = CountingEmbedder()
    with pincite.open(address, embedder=counting) as c:
        report = c.ingest_text(PARAGRAPHS[0], uri="u://one", tenant="acme", embed=embed_now)
        if not embed_now:
            assert embed_pending(c.store, counting, "acme") == 1  # with its routing vector
        assert report.chunks == 1 and len(counting.texts) == 1
        dense, routing = c.store.dense_index("acme"), c.store.routing_index("acme")
        assert routing.document_ids == (report.document_id,)
        assert np.array_equal(dense.matrix[0], routing.matrix[0])
        assert c.store.vector_coverage("acme") == (1, 1)
