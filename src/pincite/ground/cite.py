"""cite and check_grounding: citations are built from retrieval, never from text.

A ``Citation`` (a value, :mod:`pincite.citation`) is made by :func:`cite`
from a stored chunk that retrieval returned; a model only ever points at one by
its number or its id.
:func:`check_grounding` then raises at the first citation that does not hold,
and never repairs an answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from pincite import ids
from pincite.citation import Citation, CitedAnswer, ClaimKind, Locator
from pincite.errors import (
    ConfigurationError,
    TenantCrossingError,
    UncitedClaimError,
    UngroundedCitationError,
)
from pincite.model import Hit, RetrievalResult
from pincite.store.base import Store


def citation_id_for(evidence_id: str) -> str:
    """A short stable handle for a citation, derived from what it pins."""
    return "c" + hashlib.sha256(evidence_id.encode()).hexdigest()[:10]


def cite_hit(
    hit: Hit,
    *,
    tenant: str,
    retrieved_at: str,
    span: tuple[int, int] | None = None,
    text_len: int | None = None,
) -> Citation:
    """Build the citation for a hit, or for a sentence ``span`` inside it."""
    chunk = hit.chunk
    if not chunk.content_hash or chunk.end <= chunk.start:
        raise ConfigurationError(
            f"chunk {chunk.chunk_id} has no version or span; re-ingest its document"
        )
    if span is None:
        evidence_id = chunk.evidence_id
        span = (chunk.start, chunk.end)
    else:
        if not (chunk.start <= span[0] < span[1] <= chunk.end):
            raise ConfigurationError(f"span {span} lies outside chunk {chunk.chunk_id}")
        evidence_id = ids.encode_span(chunk.document_id, chunk.hash16, span[0], span[1])
    return Citation(
        citation_id=citation_id_for(evidence_id),
        evidence_id=evidence_id,
        document_id=chunk.document_id,
        document_version=chunk.content_hash,
        chunk_id=chunk.chunk_id,
        span=span,
        tenant=tenant,
        score=hit.score,
        branches=hit.branches,
        retrieved_at=retrieved_at,
        locator=Locator(
            uri=hit.document.uri,
            title=hit.document.title,
            pages=chunk.pages,
            page_label=chunk.page_label,
            section=chunk.section,
        ),
        superseded=hit.superseded,
    )


@dataclass(frozen=True, slots=True)
class Retrieved:
    """One retrieval run as an answer may cite it: each hit beside its citation, in rank order.

    Passage number ``i`` shown to a generator is ``pairs[i - 1]``.
    """

    tenant: str
    pairs: tuple[tuple[Hit, Citation], ...]

    @property
    def citations(self) -> tuple[Citation, ...]:
        return tuple(c for _, c in self.pairs)

    def hit_for(self, citation: Citation) -> Hit:
        """The retrieved hit ``citation`` was built from (or points inside)."""
        for hit, base in self.pairs:
            if base.chunk_id == citation.chunk_id:
                return hit
        raise KeyError(citation.chunk_id)

    def __len__(self) -> int:
        return len(self.pairs)

    def __getitem__(self, i: int) -> Citation:
        return self.pairs[i][1]

    def __iter__(self) -> Iterator[Citation]:
        return (c for _, c in self.pairs)


def cite(result: RetrievalResult) -> Retrieved:
    """Turn a retrieval result into citations, one per hit, in rank order."""
    return Retrieved(
        result.tenant,
        tuple(
            (h, cite_hit(h, tenant=result.tenant, retrieved_at=result.retrieved_at))
            for h in result.hits
        ),
    )


def check_grounding(
    answer: CitedAnswer, retrieved: Retrieved, *, store: Store | None = None
) -> None:
    """Raise unless every claim rests on citations this run retrieved, unaltered.

    - a fact claim with no citation id → ``UncitedClaimError``
    - a claim id the answer does not carry → ``UngroundedCitationError``
    - a citation of another tenant → ``TenantCrossingError``
    - a citation whose document, version, chunk or span is not one retrieved in
      this run (a sentence span must lie inside a retrieved chunk) →
      ``UngroundedCitationError``
    - with ``store``: a citation whose chunk or span no longer matches the
      stored chunk → ``UngroundedCitationError``
    Never strips or re-points a citation.
    """
    available = {c.evidence_id: c for c in retrieved.citations}
    by_chunk = {c.chunk_id: c for c in retrieved.citations}
    carried = {c.citation_id for c in answer.citations}
    for claim in answer.claims:
        if claim.kind is ClaimKind.FACT and not claim.citation_ids:
            raise UncitedClaimError(claim.text)
        missing = [cid for cid in claim.citation_ids if cid not in carried]
        if missing:
            raise UngroundedCitationError(
                "claim cites ids the answer does not carry", missing, sorted(carried)
            )
    foreign = [c.evidence_id for c in answer.citations if c.tenant != retrieved.tenant]
    if foreign:
        raise TenantCrossingError(retrieved.tenant, foreign)
    for c in answer.citations:
        _check_pinned(c, available, by_chunk)
        if store is not None:
            _check_stored(c, store)


def _check_pinned(
    c: Citation, available: dict[str, Citation], by_chunk: dict[str, Citation]
) -> None:
    try:
        ref = ids.decode(c.evidence_id)
    except ValueError:
        raise UngroundedCitationError(
            "citation has a malformed evidence id", [c.evidence_id], sorted(available)
        ) from None
    base = by_chunk.get(c.chunk_id)
    ok = (
        base is not None
        and ref.document_id == c.document_id == base.document_id
        and ref.hash16 == c.document_version[:16]
        and c.document_version == base.document_version
        and c.tenant == base.tenant
        and base.span[0] <= c.span[0] < c.span[1] <= base.span[1]
    )
    if ok and isinstance(ref, ids.ChunkRef):
        ok = ref.chunk_id == c.chunk_id and c.span == base.span  # type: ignore[union-attr]
    if ok and isinstance(ref, ids.SpanRef):
        ok = (ref.start, ref.end) == c.span
    if not ok:
        raise UngroundedCitationError(
            "citation does not match a passage retrieved in this run",
            [c.evidence_id],
            sorted(available),
        )


def _check_stored(c: Citation, store: Store) -> None:
    chunk = store.chunk(c.tenant, c.chunk_id)
    if (
        chunk is None
        or chunk.erased
        or chunk.document_id != c.document_id
        or chunk.content_hash != c.document_version
        or not (chunk.start <= c.span[0] < c.span[1] <= chunk.end)
    ):
        raise UngroundedCitationError(
            "citation no longer matches the stored chunk", [c.evidence_id], []
        )


def citations_from(retrieved: Retrieved, numbers: Iterable[object]) -> list[Citation]:
    """Map a model's 1-based passage numbers to citations by enumeration.

    Non-integers (including bools and floats) and out-of-range numbers are
    dropped, never used as indexes.
    """
    out: list[Citation] = []
    for n in numbers:
        if isinstance(n, bool) or not isinstance(n, int):
            continue
        if 1 <= n <= len(retrieved):
            c = retrieved[n - 1]
            if c not in out:
                out.append(c)
    return out


def unique(citations: Sequence[Citation]) -> tuple[Citation, ...]:
    return tuple({c.citation_id: c for c in citations}.values())
