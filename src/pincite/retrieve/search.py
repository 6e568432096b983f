"""Hybrid retrieval: lexical and dense candidates, fused, deduplicated, numbered."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum

import numpy as np

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.model import Branches, DocumentStatus, Hit, RetrievalResult
from pincite.retrieve.dedup import dedup
from pincite.retrieve.fuse import FusionMethod, convex, rrf
from pincite.retrieve.query import query_terms
from pincite.retrieve.rerank import Reranker
from pincite.retrieve.route import route
from pincite.store.base import Store
from pincite.tenancy import check_tenant


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    LEXICAL = "lexical"
    DENSE = "dense"

    @classmethod
    def parse(cls, value: str) -> SearchMode:
        try:
            return cls(value)
        except ValueError:
            valid = ", ".join(m.value for m in cls)
            raise InputError(f"unknown search mode {value!r}; choose one of: {valid}") from None


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How retrieval runs. Defaults are the ones `pincite eval` reports."""

    mode: SearchMode = SearchMode.HYBRID
    candidates: int = 100
    fusion: FusionMethod = FusionMethod.RRF
    # Cormack, Clarke & Büttcher (SIGIR 2009) use k = 60.
    rrf_k: int = 60
    # (lexical, dense) weights; for RRF they scale each list's contribution.
    weights: tuple[float, float] = (1.0, 1.0)
    routing: bool = True
    # Permissive routing: keep many documents, and never fewer than this many.
    route_min_documents: int = 50
    route_fraction: float = 0.25
    dedup: bool = True
    reranker: Reranker | None = None
    # Dense search always returns *something*; a cosine below this floor is
    # treated as no match, so an off-topic question retrieves nothing and is
    # refused without a model call. MiniLM cosines of unrelated texts sit
    # around 0.0-0.15.
    min_dense_score: float = 0.2


def retrieve(
    store: Store,
    embedder: Embedder | None,
    question: str,
    *,
    tenant: str,
    k: int = 8,
    scope: tuple[str, ...] | None = None,
    options: SearchOptions = SearchOptions(),
) -> RetrievalResult:
    """The ``k`` best current passages of ``tenant`` for ``question``.

    ``scope`` restricts search to those document ids. Raises ``InputError`` for
    an empty question, a missing tenant or ``k < 1``; ``ConfigurationError`` when
    a dense mode is asked of a corpus opened without an embedder.
    """
    check_tenant(tenant)
    if not question or not question.strip():
        raise InputError("the question is empty")
    if k < 1:
        raise InputError(f"k must be at least 1, got {k}")
    mode = options.mode
    if mode is not SearchMode.LEXICAL and embedder is None:
        raise ConfigurationError(f"{mode.value} search needs an embedder; this corpus has none")
    pool = max(options.candidates, k)

    lexical: list[tuple[str, float]] = []
    if mode is not SearchMode.DENSE:
        lexical = store.search_lexical(tenant, query_terms(question), pool, scope)

    dense: list[tuple[str, float]] = []
    routed: set[str] = set()
    if mode is not SearchMode.LEXICAL and embedder is not None:
        qv = embedder.embed_query(question)
        allowed = set(scope) if scope is not None else None
        if options.routing:
            rindex = store.routing_index(tenant)
            top = max(
                options.route_min_documents, int(len(rindex.document_ids) * options.route_fraction)
            )
            chosen = route(rindex, qv, top=top)
            if chosen is not None:
                routed = set(chosen)
                allowed = routed if allowed is None else allowed & routed
        dense = [
            (cid, sc)
            for cid, sc in _dense_top(store, tenant, qv, pool, allowed)
            if sc >= options.min_dense_score
        ]

    fused = _fuse(lexical, dense, mode, options)
    want = max(k * 4, 20) if options.reranker is not None else k
    hits = _hits(store, tenant, fused, lexical, dense, routed, want, options.dedup)
    if options.reranker is not None:
        hits = _rerank(options.reranker, question, hits)
    return RetrievalResult(
        question=question,
        tenant=tenant,
        hits=tuple(hits[:k]),
        retrieved_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        mode=mode.value,
        scope=scope,
    )


def _hits(
    store: Store,
    tenant: str,
    fused: list[tuple[str, float]],
    lexical: list[tuple[str, float]],
    dense: list[tuple[str, float]],
    routed: set[str],
    want: int,
    deduplicate: bool,
) -> list[Hit]:
    """The first ``want`` fused candidates as hits, near-duplicates dropped.

    Chunks are read from the store a window at a time (most queries need one
    window of ``2 * want``), not all ``candidates`` of them.
    """
    lex_rank = {cid: (i + 1, s) for i, (cid, s) in enumerate(lexical)}
    dense_rank = {cid: (i + 1, s) for i, (cid, s) in enumerate(dense)}
    hits: list[Hit] = []
    kept: list[Hit] = []
    pos, window = 0, 2 * want + 8
    while pos < len(fused) and len(kept) < want:
        head = fused[pos : pos + window]
        pos += len(head)
        chunks = store.chunks_by_id(tenant, [cid for cid, _ in head])
        documents = store.documents_by_id(tenant, list({c.document_id for c in chunks.values()}))
        for cid, score in head:
            chunk = chunks.get(cid)
            # The store searches current, live, unerased chunks of this tenant
            # only; these checks keep that true even for a store that does not.
            if chunk is None or chunk.tenant != tenant or chunk.erased:
                continue
            document = documents.get(chunk.document_id)
            if document is None or document.status is not DocumentStatus.LIVE:
                continue
            lr, ls = lex_rank.get(cid, (None, None))
            dr, ds = dense_rank.get(cid, (None, None))
            branches = Branches(lr, ls, dr, ds, score, None, chunk.document_id in routed)
            hits.append(Hit(chunk, document, score, branches))
        kept = _dedup(hits, want) if deduplicate else hits[:want]
        window *= 2
    return kept


def _dedup(hits: list[Hit], limit: int) -> list[Hit]:
    return dedup(
        hits,
        key_text=lambda h: h.chunk.text,
        key_span=lambda h: (h.chunk.content_hash, h.chunk.start, h.chunk.end),
        limit=limit,
    )


def _dense_top(
    store: Store,
    tenant: str,
    qv: np.ndarray,
    pool: int,
    allowed: set[str] | None,
) -> list[tuple[str, float]]:
    index = store.dense_index(tenant)
    if not index.chunk_ids:
        return []
    if index.matrix.shape[1] != qv.shape[0]:
        raise ConfigurationError(
            f"stored vectors have {index.matrix.shape[1]} dimensions, the embedder "
            f"{qv.shape[0]}; run `pincite reindex`"
        )
    scores = index.matrix @ qv
    if allowed is not None:
        mask = np.fromiter(
            (d in allowed for d in index.document_ids), bool, len(index.document_ids)
        )
        scores = np.where(mask, scores, -np.inf)
    n = min(pool, len(scores))
    best = np.argpartition(-scores, n - 1)[:n]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(index.chunk_ids[i], float(scores[i])) for i in best if np.isfinite(scores[i])]


def _fuse(
    lexical: list[tuple[str, float]],
    dense: list[tuple[str, float]],
    mode: SearchMode,
    options: SearchOptions,
) -> list[tuple[str, float]]:
    if mode is SearchMode.LEXICAL:
        return lexical
    if mode is SearchMode.DENSE:
        return dense
    if options.fusion is FusionMethod.RRF:
        return rrf(
            [[c for c, _ in lexical], [c for c, _ in dense]],
            k=options.rrf_k,
            weights=options.weights,
        )
    total = sum(options.weights)
    return convex([lexical, dense], weights=[w / total for w in options.weights])


def _rerank(reranker: Reranker, question: str, hits: list[Hit]) -> list[Hit]:
    if not hits:
        return hits
    scores = reranker.score(question, [h.chunk.text for h in hits])
    rescored = [
        replace(h, score=s, branches=replace(h.branches, rerank_score=s))
        for h, s in zip(hits, scores, strict=True)
    ]
    return sorted(rescored, key=lambda h: -h.score)
