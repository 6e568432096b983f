"""Re-embed a store's current chunks with another embedder."""

from __future__ import annotations

from pincite.embed import embedder_from_spec
from pincite.retrieve.route import routing_text
from pincite.store.base import Store

_BATCH = 256


def reindex(store: Store, spec: str) -> int:
    """Embed every current chunk of every tenant with ``spec``; record the new embedder."""
    embedder = embedder_from_spec(spec)
    total = 0
    for tenant in store.tenants():
        for document in store.list_documents(tenant):
            current = store.current_hash(tenant, document.document_id)
            if current is None:
                continue
            chunks = [
                c for c in store.chunks(tenant, document.document_id, current) if not c.erased
            ]
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
    store.set_meta("embedder", embedder.name)
    store.set_meta("embedder_dim", str(embedder.dim))
    return total
