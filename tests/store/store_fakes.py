"""Builders for the store contract suite: documents, versions, chunks, fake vectors.

The contract is about storage, so vectors come from a tiny deterministic
bag-of-words hash (``DIM`` dimensions, unit length), not a model: texts that
share words get similar vectors, and the same text always gets the same one.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pincite.model import Chunk, Document, Version, content_hash
from pincite.store.base import Store

DIM = 8
_WORD = re.compile(r"\w+")


def embed(text: str) -> npt.NDArray[np.float32]:
    v = np.zeros(DIM, dtype=np.float32)
    for word in _WORD.findall(text.casefold()):
        h = hashlib.sha256(word.encode()).digest()
        v[h[0] % DIM] += 1.0 + h[1] / 255.0
    norm = float(np.linalg.norm(v))
    if norm == 0:
        v[0] = 1.0
        return v
    return v / norm


@dataclass(frozen=True)
class Written:
    document: Document
    version: Version
    chunks: list[Chunk]


def build(
    tenant: str,
    uri: str,
    text: str,
    *,
    document_id: str | None = None,
    title: str = "Title",
    created_at: str = "2025-01-01T00:00:00+00:00",
) -> Written:
    """A document, its version for ``text``, one chunk per blank-line paragraph."""
    document_id = document_id or str(uuid.uuid4())
    chash = content_hash(text)
    document = Document(
        document_id, tenant, uri, title, created_at=created_at, metadata={"source": uri}
    )
    version = Version(
        document_id, tenant, chash, text, "text/plain@1", "chunker@1", created_at, page_count=1
    )
    chunks: list[Chunk] = []
    start = 0
    for ordinal, part in enumerate(text.split("\n\n")):
        end = start + len(part)
        if part.strip():
            chunks.append(
                Chunk(
                    str(uuid.uuid4()),
                    tenant,
                    document_id,
                    chash,
                    len(chunks),
                    start,
                    end,
                    part,
                    f"{title}\n{part}",
                    section=("Intro", f"part {ordinal}"),
                    pages=(1,),
                    page_label="i",
                )
            )
        start = end + 2
    return Written(document, version, chunks)


def write(
    store: Store,
    tenant: str,
    uri: str,
    text: str,
    *,
    document_id: str | None = None,
    vectors: bool = True,
) -> Written:
    """Write ``text`` as the next version of the document at ``uri`` (as ingest would)."""
    existing = store.find_document(tenant, uri=uri)
    if existing is not None:
        document_id = existing.document_id
    w = build(tenant, uri, text, document_id=document_id)
    current = store.current_hash(tenant, w.document.document_id)
    matrix = np.vstack([embed(c.embed_text) for c in w.chunks]) if vectors else None
    routing = embed(text) if vectors else None
    store.write_version(w.document, w.version, w.chunks, matrix, routing, expected_current=current)
    return w


def lexical_ids(
    store: Store, tenant: str, query: str, k: int = 10, documents: list[str] | None = None
) -> list[str]:
    return [cid for cid, _ in store.search_lexical(tenant, query.split(), k, documents)]


def dense_ids(store: Store, tenant: str, query: str, k: int = 10) -> list[str]:
    """Chunk ids by exact inner product over ``dense_index``; ``search_dense`` must agree."""
    qv = embed(query)
    index = store.dense_index(tenant)
    exact: list[str] = []
    if index.chunk_ids:
        scores = index.matrix @ qv
        order = np.argsort(-scores, kind="stable")[:k]
        exact = [index.chunk_ids[i] for i in order]
    found = [cid for cid, _ in store.search_dense(tenant, qv, k)]
    assert set(found) == set(exact), (found, exact)
    return exact


class HashEmbedder:
    """An ``Embedder`` over :func:`embed`, for end-to-end runs through ``pincite.open``."""

    name = "contract-hash"
    dim = DIM

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.vstack([embed(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return embed(text)
