"""Reading citations back: excerpt, CitationResolver, MemoryRecord, trace attributes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pincite.citation import Citation
from pincite.errors import NotFoundError
from pincite.ground.fetch import FetchStatus, fetch_evidence
from pincite.store.base import Store


def excerpt(citation: Citation, store: Store) -> str:
    """The exact characters the citation pins, from the version it was made from.

    Raises ``NotFoundError`` when the text is no longer readable (erased,
    deleted, purged, or another tenant's).
    """
    [outcome] = fetch_evidence(store, [citation.evidence_id], tenant=citation.tenant)
    if outcome.status is not FetchStatus.OK:
        raise NotFoundError("evidence", citation.evidence_id)
    return outcome.text


@dataclass(frozen=True, slots=True)
class Resolution:
    citation_id: str
    evidence_id: str
    status: FetchStatus
    text: str | None
    erased: bool
    superseded: bool
    current_hash16: str | None


class CitationResolver:
    """Resolves citations against the live corpus, for audits long after the answer."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def resolve(self, citation: Citation) -> Resolution:
        [o] = fetch_evidence(self._store, [citation.evidence_id], tenant=citation.tenant)
        readable = o.status in (FetchStatus.OK, FetchStatus.PARTIAL, FetchStatus.TRUNCATED)
        return Resolution(
            citation_id=citation.citation_id,
            evidence_id=citation.evidence_id,
            status=o.status,
            text=o.text if readable else None,
            erased=o.status is FetchStatus.ERASED,
            superseded=o.superseded,
            current_hash16=o.current_hash16,
        )


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    """Something written back to an agent's memory, keeping where it came from."""

    text: str
    citations: tuple[Citation, ...]

    def provenance(self) -> list[str]:
        return [c.evidence_id for c in self.citations]


def citation_attributes(citations: Sequence[Citation]) -> dict[str, object]:
    """OpenTelemetry span attributes under ``pincite.citation.*``: counts and ids, never text."""
    documents = sorted({c.document_id for c in citations})
    versions = sorted({f"{c.document_id}@{c.hash16}" for c in citations})
    return {
        "pincite.citation.count": len(citations),
        "pincite.citation.document_count": len(documents),
        "pincite.citation.document_ids": documents,
        "pincite.citation.versions": versions,
        "pincite.citation.superseded_count": sum(c.superseded for c in citations),
        "pincite.citation.tenant": sorted({c.tenant for c in citations}),
    }
