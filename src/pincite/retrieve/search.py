"""Hybrid retrieval: lexical and dense candidates, fused, deduplicated, numbered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum

import numpy as np

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.model import Branches, DocumentStatus, Hit, RetrievalResult
from pincite.retrieve.dedup import dedup
from pincite.retrieve.fuse import FusionMethod, Normalization, convex, rrf
from pincite.retrieve.query import query_terms
from pincite.retrieve.rerank import Reranker
from pincite.retrieve.route import route
from pincite.store.base import Store
from pincite.tenancy import check_tenant

_BM25_MIN = 0.0
_COSINE_MIN = -1.0
_FLOOR_KEY = ""  # never a chunk id (those are UUIDs)


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
    # Fusion defaults were tuned on SciFact *train* (809 claims; BEIR qrels/train.tsv),
    # never on a reported split, with
    #   .venv/bin/python benchmarks/tune_retrieval.py /work/shared/data/scifact \
    #       --split train --db scifact-eval.db
    # A convex combination of theoretical-minimum-normalised scores (BM25 / max,
    # (cos + 1) / (max + 1); Bruch, Gai & Ingber, ACM TOIS 2023) at weights
    # (0.2, 0.8) scored nDCG@10 0.743 on train, against 0.718 for RRF(k=60) and
    # 0.703 / 0.670 for BM25 / dense alone; 0.7-0.85 dense weight are within 0.005.
    # Cosines span a narrower normalised range than BM25, hence the larger weight.
    # Candidate depth 100 beat 50 and 200. Held out: SciFact test 0.730 (RRF 0.717),
    # Cranfield (never tuned on) 0.418 against 0.383 for its better single channel.
    candidates: int = 100
    fusion: FusionMethod = FusionMethod.CONVEX
    normalization: Normalization = Normalization.THEORETICAL_MIN
    # (lexical, dense) weights: convex fusion rescales them to sum to 1; RRF
    # multiplies each list's 1 / (k + rank) by them (use (1.0, 1.0) for plain RRF).
    weights: tuple[float, float] = (0.2, 0.8)
    # Cormack, Clarke & Büttcher (SIGIR 2009) use k = 60; only used by RRF.
    rrf_k: int = 60
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

    fused = _fuse(lexical, dense, mode, options, pool)
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
    window of ``1.5 * want``), not all ``candidates`` of them.
    """
    lex_rank = {cid: (i + 1, s) for i, (cid, s) in enumerate(lexical)}
    dense_rank = {cid: (i + 1, s) for i, (cid, s) in enumerate(dense)}
    hits: list[Hit] = []
    kept: list[Hit] = []
    pos, window = 0, want + max(4, want // 2)
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
    # Each store searches its own way: pgvector HNSW in PostgreSQL, an exact
    # scan of the tenant's matrix in SQLite (pincite.store.dense).
    documents = sorted(allowed) if allowed is not None else None
    return store.search_dense(tenant, qv, pool, documents)


def _fuse(
    lexical: list[tuple[str, float]],
    dense: list[tuple[str, float]],
    mode: SearchMode,
    options: SearchOptions,
    depth: int,
) -> list[tuple[str, float]]:
    if mode is SearchMode.LEXICAL:
        return lexical
    if mode is SearchMode.DENSE:
        return dense
    return fuse_channels(lexical, dense, options, depth=depth)


def fuse_channels(
    lexical: Sequence[tuple[str, float]],
    dense: Sequence[tuple[str, float]],
    options: SearchOptions,
    *,
    depth: int,
) -> list[tuple[str, float]]:
    """Hybrid fusion of BM25 and cosine ``(chunk_id, score)`` lists, best first.

    ``depth`` is how many candidates each channel was asked for. With
    theoretical-minimum normalisation, a list shorter than that is complete:
    every chunk it lacks scored below its floor (BM25 0: no query word; a cosine
    under ``min_dense_score``), so such chunks get that floor's normalised score
    rather than the list's lowest returned one, which for a one-hit list would
    be the maximum. Raises ``InputError`` when the weights are all 0.
    """
    if options.fusion is FusionMethod.RRF:
        return rrf(
            [[c for c, _ in lexical], [c for c, _ in dense]],
            k=options.rrf_k,
            weights=options.weights,
        )
    total = sum(options.weights)
    if total <= 0:
        raise InputError(f"fusion weights must not all be 0, got {options.weights}")
    lists = [list(lexical), list(dense)]
    bounds = None
    if options.normalization is Normalization.THEORETICAL_MIN:
        # BM25 (FTS5 clamps IDF above 0) is never below 0, a cosine never below -1;
        # clamping only guards against float rounding past those bounds.
        lists[0] = [(c, max(s, _BM25_MIN)) for c, s in lexical]
        lists[1] = [(c, min(max(s, _COSINE_MIN), 1.0)) for c, s in dense]
        bounds = (_BM25_MIN, _COSINE_MIN)
        floors = (_BM25_MIN, max(options.min_dense_score, _COSINE_MIN))
        for ranked, floor in zip(lists, floors, strict=True):
            if len(ranked) < depth:
                ranked.append((_FLOOR_KEY, floor))  # stands for every absent chunk
    fused = convex(
        lists,
        weights=[w / total for w in options.weights],
        normalization=options.normalization,
        lower_bounds=bounds,
    )
    return [(c, s) for c, s in fused if c != _FLOOR_KEY]


def _rerank(reranker: Reranker, question: str, hits: list[Hit]) -> list[Hit]:
    if not hits:
        return hits
    scores = reranker.score(question, [h.chunk.text for h in hits])
    rescored = [
        replace(h, score=s, branches=replace(h.branches, rerank_score=s))
        for h, s in zip(hits, scores, strict=True)
    ]
    return sorted(rescored, key=lambda h: -h.score)
