"""Rows to values and back: the column lists and the mapping for each table."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from psycopg.types.json import Jsonb

from pincite.model import BBox, BoxOrigin, Chunk, Document, DocumentStatus, Version

DOCUMENT_COLUMNS = "tenant, document_id, uri, title, status, published_at, metadata, created_at"
VERSION_COLUMNS = (
    "tenant, document_id, content_hash, text, parser, chunker, created_at, page_count,"
    " superseded_by, erased"
)
CHUNK_COLUMNS = (
    'chunk_id, tenant, document_id, content_hash, ordinal, start, "end", text, embed_text,'
    " section, pages, page_label, bboxes, time_range, erased"
)


def document(r: Any) -> Document:
    return Document(
        tenant=r[0],
        document_id=r[1],
        uri=r[2],
        title=r[3],
        status=DocumentStatus(r[4]),
        published_at=r[5],
        metadata=r[6],
        created_at=r[7],
    )


def version(r: Any) -> Version:
    return Version(
        tenant=r[0],
        document_id=r[1],
        content_hash=r[2],
        text=r[3],
        parser=r[4],
        chunker=r[5],
        created_at=r[6],
        page_count=r[7],
        superseded_by=r[8],
        erased_ranges=tuple((int(a), int(b)) for a, b in r[9]),
    )


def chunk_params(c: Chunk) -> tuple[Any, ...]:
    """Parameters for ``CHUNK_COLUMNS``, in order."""
    return (
        c.chunk_id,
        c.tenant,
        c.document_id,
        c.content_hash,
        c.ordinal,
        c.start,
        c.end,
        c.text,
        c.embed_text,
        Jsonb(list(c.section)),
        Jsonb(list(c.pages)),
        c.page_label,
        Jsonb([[b.page, b.x0, b.y0, b.x1, b.y1, b.origin.value] for b in c.bboxes]),
        None if c.time_range is None else Jsonb(list(c.time_range)),
        c.erased,
    )


def chunk(r: Any) -> Chunk:
    time_range = r[13]
    return Chunk(
        chunk_id=r[0],
        tenant=r[1],
        document_id=r[2],
        content_hash=r[3],
        ordinal=r[4],
        start=r[5],
        end=r[6],
        text=r[7],
        embed_text=r[8],
        section=tuple(r[9]),
        pages=tuple(r[10]),
        page_label=r[11],
        bboxes=tuple(BBox(b[0], b[1], b[2], b[3], b[4], BoxOrigin(b[5])) for b in r[12]),
        time_range=None if time_range is None else (time_range[0], time_range[1]),
        erased=bool(r[14]),
    )


def vector(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A vector as a pgvector parameter: one float32 row."""
    return np.asarray(v, dtype=np.float32).reshape(-1)


def stack(found: list[Any], column: int) -> npt.NDArray[np.float32]:
    """The pgvector ``column`` of ``found`` rows as one matrix (0×0 for no rows)."""
    if not found:
        return np.zeros((0, 0), dtype=np.float32)
    return np.vstack([r[column].to_numpy() for r in found])
