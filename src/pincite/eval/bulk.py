"""Bulk indexing for evaluation and benchmarks: many documents, few embed calls.

``ingest`` embeds one document at a time; an evaluation corpus of thousands of
short documents is indexed much faster when the chunks of many documents go to
the embedder together. Each document is still written as its own version,
exactly as ``ingest`` would write it (same chunker, embedded text and routing
text).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pincite.embed.base import Embedder
from pincite.errors import PinciteError
from pincite.eval.beir import BeirDoc
from pincite.ingest.designation import with_designation
from pincite.ingest.parse import parse_bytes
from pincite.ingest.pipeline import now, version_rows
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.retrieve.route import routing_text
from pincite.store.base import Store

#: ``progress(done, total)`` is called while indexing, after each batch.
Progress = Callable[[int, int], None]

BATCH_DOCUMENTS = 256


@dataclass(frozen=True, slots=True)
class IndexCounts:
    """Documents written, documents skipped (no text), chunks written."""

    documents: int
    skipped: int
    chunks: int


def store_many(
    store: Store,
    embedder: Embedder | None,
    documents: Sequence[BeirDoc],
    *,
    tenant: str,
    batch_documents: int = BATCH_DOCUMENTS,
    progress: Progress | None = None,
) -> IndexCounts:
    """Add ``documents`` (uri = id) as new documents; return what was written.

    The bulk path for evaluation and benchmarks: the chunks (and routing texts)
    of ``batch_documents`` documents are embedded in one call, then each
    document is written as its own version, as ``ingest`` would write it.
    Documents whose uri the tenant already has are left alone (so an
    interrupted build resumes), and documents with no text are skipped.
    """
    stored = skipped = n_chunks = 0
    total = len(documents)
    for start in range(0, total, batch_documents):
        prepared = []
        for doc in documents[start : start + batch_documents]:
            if store.find_document(tenant, uri=doc.id) is not None:
                continue
            item = _prepare(doc, tenant)
            if item is None:
                skipped += 1
            else:
                prepared.append(item)
        vectors: list[np.ndarray | None] = [None] * len(prepared)
        routes: list[np.ndarray | None] = [None] * len(prepared)
        if embedder is not None and prepared:
            texts = [c.embed_text for _, _, chunks in prepared for c in chunks]
            texts += [routing_text(d.title, chunks) for d, _, chunks in prepared]
            matrix = embedder.embed_documents(texts)
            offset = 0
            for i, (_, _, chunks) in enumerate(prepared):
                vectors[i] = matrix[offset : offset + len(chunks)]
                offset += len(chunks)
            for i in range(len(prepared)):
                routes[i] = matrix[offset + i]
        for (document, version, chunks), vecs, route in zip(prepared, vectors, routes, strict=True):
            store.write_version(document, version, chunks, vecs, route, expected_current=None)
            stored += 1
            n_chunks += len(chunks)
        if progress is not None:
            progress(min(start + batch_documents, total), total)
    return IndexCounts(stored, skipped, n_chunks)


def _prepare(doc: BeirDoc, tenant: str) -> tuple[Document, Version, list[Chunk]] | None:
    """The document, version and chunks ``store_parsed`` would write for ``doc``."""
    try:
        parsed = parse_bytes(doc.text.encode("utf-8"), "inline.txt")
    except PinciteError:
        return None  # no text: nothing to retrieve (Cranfield has two such records)
    title = doc.title.strip() or with_designation(parsed.title, parsed.text) or doc.id
    created = now()
    document_id = str(uuid.uuid4())
    document = Document(document_id, tenant, doc.id, title, DocumentStatus.LIVE, created_at=created)
    version, chunks = version_rows(document, parsed, created)
    return document, version, chunks
