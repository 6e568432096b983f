"""Embedding after the text's commit: a document is searchable lexically first.

Ingest commits a version's text and chunks in one transaction, without
vectors, so the folder is searchable the moment it commits; vectors follow
(in the same command, or later with ``pincite embed`` or a job in
``pincite serve``). What still needs a vector is read from the store each
time, so a run that was killed resumes where the last committed batch left
it, and nothing of the text is ever lost to a crash during embedding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pincite.embed.base import Embedder
from pincite.errors import PinciteError
from pincite.model import Chunk
from pincite.retrieve.route import routing_text
from pincite.store.base import Store

# A document of one chunk routes by that chunk's vector: its routing text
# (title, headings, first paragraph, frequent words) would restate the same
# text, and embedding it again was 42 % of the work on short documents
# (SciFact). Test-split hybrid nDCG@10 with the same vectors otherwise:
# SciFact 0.7298 either way (3,543 of 5,183 documents have one chunk),
# Cranfield 0.4219 either way (1,202 of 1,398).

# Chunks per committed batch: small enough that a kill loses seconds of work
# and the progress bar moves, large enough that a commit per batch is noise.
BATCH = 64
_ROUTING_BATCH = 32


@dataclass(frozen=True, slots=True)
class Pending:
    """What ``tenant`` still needs: chunk vectors and document routing vectors."""

    tenant: str
    chunks: int
    documents: int


def pending(store: Store, tenant: str) -> Pending:
    embedded, total = store.vector_coverage(tenant)
    return Pending(tenant, total - embedded, len(store.documents_without_routing(tenant)))


def embed_version(
    store: Store,
    embedder: Embedder,
    tenant: str,
    document_id: str,
    content_hash: str,
    title: str,
    chunks: Sequence[Chunk],
    *,
    fresh: bool,
) -> None:
    """Vectors for one just-committed version: its chunks' (when ``fresh``) and its routing one.

    A revived version (``fresh`` false) kept its stored chunk vectors; only
    its routing vector, dropped at the commit, is computed again. A version of
    one chunk embeds that chunk once, for both.
    """
    live = [c for c in chunks if not c.erased]
    vectors = {}
    if len(live) == 1:
        # Its chunk's vector doubles as its routing vector (one_chunk_routing).
        vectors = {live[0].chunk_id: embedder.embed_documents([live[0].embed_text])[0]}
        routing = vectors[live[0].chunk_id]
    else:
        if fresh and live:
            matrix = embedder.embed_documents([c.embed_text for c in live])
            vectors = {c.chunk_id: matrix[i] for i, c in enumerate(live)}
        routing = embedder.embed_documents([routing_text(title, live)])[0]
    store.add_vectors(tenant, vectors, {(document_id, content_hash): routing})


def embed_pending(
    store: Store,
    embedder: Embedder,
    tenant: str,
    *,
    on_chunks: Callable[[int], None] | None = None,
    batch: int = BATCH,
) -> int:
    """Embed every searchable chunk of ``tenant`` that has no vector; returns how many.

    Routing vectors go first (one per document; a one-chunk document's chunk
    gets its vector then too), so routed dense search already reaches each
    document; then the other chunks, a committed batch at a time,
    ``on_chunks`` told the size of each. Raises ``PinciteError`` if the store
    keeps returning chunks it was given vectors for.
    """
    done = _embed_routing(store, embedder, tenant, on_chunks)
    seen: set[str] = set()
    while True:
        chunks = store.chunks_without_vectors(tenant, batch)
        if not chunks:
            return done
        ids = [c.chunk_id for c in chunks]
        if seen.issuperset(ids):
            raise PinciteError(f"the store did not keep the vectors of {len(ids)} chunk(s)")
        seen.update(ids)
        matrix = embedder.embed_documents([c.embed_text for c in chunks])
        store.add_vectors(tenant, {cid: matrix[i] for i, cid in enumerate(ids)}, {})
        done += len(chunks)
        if on_chunks is not None:
            on_chunks(len(chunks))


def _embed_routing(
    store: Store, embedder: Embedder, tenant: str, on_chunks: Callable[[int], None] | None
) -> int:
    """Routing vectors of every document lacking one; how many chunks got theirs on the way."""
    done = 0
    waiting = store.documents_without_routing(tenant)
    for i in range(0, len(waiting), _ROUTING_BATCH):
        keys = waiting[i : i + _ROUTING_BATCH]
        documents = store.documents_by_id(tenant, [d for d, _ in keys])
        texts: dict[tuple[str, str], str] = {}
        sole: dict[tuple[str, str], str] = {}  # one-chunk documents: key -> their chunk id
        for document_id, chash in keys:
            document = documents.get(document_id)
            if document is None:
                continue  # purged since it was listed
            chunks = [c for c in store.chunks(tenant, document_id, chash) if not c.erased]
            if len(chunks) == 1:
                sole[(document_id, chash)] = chunks[0].chunk_id
                texts[(document_id, chash)] = chunks[0].embed_text
            else:
                texts[(document_id, chash)] = routing_text(document.title, chunks)
        if texts:
            matrix = embedder.embed_documents(list(texts.values()))
            routing = {k: matrix[j] for j, k in enumerate(texts)}
            store.add_vectors(tenant, {sole[k]: routing[k] for k in sole}, routing)
            done += len(sole)
            if on_chunks is not None and sole:
                on_chunks(len(sole))
    return done
