"""Mapping SQLite rows to pincite's values and back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.model import BBox, BoxOrigin, Chunk, Document, DocumentStatus, Version

CHUNK_COLUMNS = (
    'chunk_id, tenant, document_id, content_hash, ordinal, start, "end", text, embed_text, '
    "section, pages, page_label, bboxes, time_range, erased"
)
EMPTY = np.zeros((0, 0), dtype=np.float32)


def read_document(r: Any) -> Document:
    return Document(
        tenant=r[0],
        document_id=r[1],
        uri=r[2],
        title=r[3],
        status=DocumentStatus(r[4]),
        published_at=r[5],
        metadata=json.loads(r[6]),
        created_at=r[7],
    )


def read_version(r: Any) -> Version:
    return Version(
        tenant=r[0],
        document_id=r[1],
        content_hash=r[2],
        text=r[4],
        parser=r[5],
        chunker=r[6],
        created_at=r[7],
        page_count=r[8],
        superseded_by=r[9],
        erased_ranges=tuple((int(a), int(b)) for a, b in json.loads(r[10])),
    )


def chunk_values(c: Chunk) -> tuple[Any, ...]:
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
        json.dumps(list(c.section)),
        json.dumps(list(c.pages)),
        c.page_label,
        json.dumps([[b.page, b.x0, b.y0, b.x1, b.y1, b.origin.value] for b in c.bboxes]),
        None if c.time_range is None else json.dumps(list(c.time_range)),
        int(c.erased),
    )


def read_chunk(r: Any) -> Chunk:
    time_range = json.loads(r[13]) if r[13] else None
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
        section=tuple(json.loads(r[9])),
        pages=tuple(json.loads(r[10])),
        page_label=r[11],
        bboxes=tuple(
            BBox(b[0], b[1], b[2], b[3], b[4], BoxOrigin(b[5])) for b in json.loads(r[12])
        ),
        time_range=None if time_range is None else (time_range[0], time_range[1]),
        erased=bool(r[14]),
    )


def stack(blobs: list[bytes]) -> npt.NDArray[np.float32]:
    if not blobs:
        return EMPTY
    return np.vstack([np.frombuffer(b, dtype=np.float32) for b in blobs])


def batches(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
