"""Values pincite stores and passes around. All frozen; change with ``replace``."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pincite import ids


def content_hash(text: str) -> str:
    """sha256 hex of a version's canonical text (UTF-8): the version's identity."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class DocumentStatus(StrEnum):
    LIVE = "live"
    DELETED = "deleted"


class BoxOrigin(StrEnum):
    """Where a bounding box's coordinates start. PDF user space starts bottom-left."""

    BOTTOM_LEFT = "bottom-left"
    TOP_LEFT = "top-left"


@dataclass(frozen=True, slots=True)
class BBox:
    """A rectangle on a 1-based physical page, in PDF points."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    origin: BoxOrigin = BoxOrigin.BOTTOM_LEFT


@dataclass(frozen=True, slots=True)
class Span:
    """A code-point range ``[start, end)`` into a version's canonical text."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid span {self.start}-{self.end}")

    def __len__(self) -> int:
        return self.end - self.start

    def covers(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end


@dataclass(frozen=True, slots=True)
class Document:
    document_id: str
    tenant: str
    uri: str
    title: str
    status: DocumentStatus = DocumentStatus.LIVE
    published_at: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class Version:
    document_id: str
    tenant: str
    content_hash: str
    text: str
    parser: str
    chunker: str
    created_at: str
    page_count: int = 0
    superseded_by: str | None = None
    # Ranges whose characters were erased (overwritten with spaces so every
    # other offset stays valid); the hash still names the original text.
    erased_ranges: tuple[tuple[int, int], ...] = ()

    @property
    def hash16(self) -> str:
        return self.content_hash[:16]

    @property
    def superseded(self) -> bool:
        return self.superseded_by is not None


@dataclass(frozen=True, slots=True)
class Chunk:
    """A stored passage: an exact span of one version's canonical text.

    ``text`` is ``version.text[start:end]``; an erased chunk keeps its span and
    ids as a tombstone but has empty ``text`` and ``embed_text``.
    """

    chunk_id: str
    tenant: str
    document_id: str
    content_hash: str
    ordinal: int
    start: int
    end: int
    text: str
    embed_text: str
    section: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    page_label: str | None = None
    bboxes: tuple[BBox, ...] = ()
    time_range: tuple[float, float] | None = None
    erased: bool = False

    @property
    def hash16(self) -> str:
        return self.content_hash[:16]

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    @property
    def evidence_id(self) -> str:
        return ids.encode_chunk(self.document_id, self.hash16, self.chunk_id)


@dataclass(frozen=True, slots=True)
class ChannelRank:
    """Where one retrieval channel (``lexical``, ``dense``, …) ranked a hit: 1-based."""

    name: str
    rank: int
    score: float


# Always present in serialised branches (``None`` when a channel did not run or
# did not find the hit), so a client's schema does not change with the mode.
STANDARD_CHANNELS = ("lexical", "dense")


@dataclass(frozen=True, slots=True)
class Branches:
    """How one hit was found: each channel's rank and score, then fusion and reranking."""

    channels: tuple[ChannelRank, ...] = ()
    fused_score: float | None = None
    rerank_score: float | None = None
    routed: bool = False

    def channel(self, name: str) -> ChannelRank | None:
        return next((c for c in self.channels if c.name == name), None)

    @property
    def lexical_rank(self) -> int | None:
        found = self.channel("lexical")
        return found.rank if found else None

    @property
    def lexical_score(self) -> float | None:
        found = self.channel("lexical")
        return found.score if found else None

    @property
    def dense_rank(self) -> int | None:
        found = self.channel("dense")
        return found.rank if found else None

    @property
    def dense_score(self) -> float | None:
        found = self.channel("dense")
        return found.score if found else None

    def as_dict(self) -> dict[str, object]:
        """``<channel>_rank`` and ``<channel>_score`` per channel, then fused/rerank/routed.

        The one serialisation every surface (CLI JSON, HTTP, MCP, framework
        metadata) uses.
        """
        names = dict.fromkeys((*STANDARD_CHANNELS, *(c.name for c in self.channels)))
        out: dict[str, object] = {}
        for name in names:
            found = self.channel(name)
            out[f"{name}_rank"] = found.rank if found else None
            out[f"{name}_score"] = found.score if found else None
        out.update(fused_score=self.fused_score, rerank_score=self.rerank_score, routed=self.routed)
        return out


@dataclass(frozen=True, slots=True)
class Hit:
    """A retrieved chunk with the document it belongs to and how it was found."""

    chunk: Chunk
    document: Document
    score: float
    branches: Branches = Branches()
    superseded: bool = False

    @property
    def evidence_id(self) -> str:
        return self.chunk.evidence_id


@dataclass(frozen=True, slots=True)
class RetrievalResult:
    """What one retrieval run returned, in rank order, for one tenant."""

    question: str
    tenant: str
    hits: tuple[Hit, ...]
    retrieved_at: str
    mode: str = "hybrid"
    scope: tuple[str, ...] | None = None
    # Fraction of the tenant's searchable chunks that had a vector when the dense
    # channel ran (below 1 while ingested text still waits for embedding: those
    # chunks were found lexically only); ``None`` when no dense channel ran.
    dense_coverage: float | None = None

    def __len__(self) -> int:
        return len(self.hits)

    def __bool__(self) -> bool:
        return bool(self.hits)
