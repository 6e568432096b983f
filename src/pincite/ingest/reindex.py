"""Re-embed a tenant's current chunks with another embedder."""

from __future__ import annotations

from collections.abc import Callable

from pincite.embed.base import Embedder
from pincite.model import Document
from pincite.retrieve.route import routing_text
from pincite.store.base import Store

_BATCH = 256


def reindex_tenant(
    store: Store,
    embedder: Embedder,
    tenant: str,
    on_document: Callable[[Document], None] | None = None,
) -> int:
    """Embed every current, unerased chunk of ``tenant``; returns the number embedded.

    Recording which embedder the store uses is the caller's job
    (:meth:`pincite.Corpus.reindex`), once all tenants it re-embeds are done.
    """
    total = 0
    for document in store.list_documents(tenant):
        if on_document is not None:
            on_document(document)
        current = store.current_hash(tenant, document.document_id)
        if current is None:
            continue
        chunks = [c for c in store.chunks(tenant, document.document_id, current) if not c.erased]
        if not chunks:
            continue
        vectors = {}
        for i in range(0, len(chunks), _BATCH):
            batch = chunks[i : i + _BATCH]
            matrix = embedder.embed_documents([c.embed_text for c in batch])
            vectors.update({c.chunk_id: matrix[j] for j, c in enumerate(batch)})
        routing = embedder.embed_documents([routing_text(document.title, chunks)])[0]
        store.replace_vectors(tenant, vectors, {document.document_id: routing})
        total += len(chunks)
    return total
