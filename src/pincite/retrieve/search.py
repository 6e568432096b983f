"""Hybrid retrieval: each channel's candidates, fused, deduplicated, numbered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.model import Branches, ChannelRank, DocumentStatus, Hit, RetrievalResult
from pincite.retrieve import channels
from pincite.retrieve.acronyms import asked_acronyms, expansion
from pincite.retrieve.channels import Ranked
from pincite.retrieve.dedup import dedup
from pincite.retrieve.entries import defining_entries
from pincite.retrieve.fuse import FusionMethod, Normalization, convex, rrf
from pincite.retrieve.named_sections import named_section
from pincite.retrieve.places import in_last_place
from pincite.retrieve.rerank import Reranker
from pincite.store.base import Store
from pincite.tenancy import check_tenant

_FLOOR_KEY = ""  # never a chunk id (those are UUIDs)
# The channel name of a hit brought in as the entry defining the asked-about term.
ENTRY = "entry"
# How many of the best fused candidates are read for an acronym's spelling.
_SPELLING_CANDIDATES = 50


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
    #   .venv/bin/python benchmarks/tune_retrieval.py ../shared/data/scifact \
    #       --split train --db scifact-eval.db
    # A convex combination of theoretical-minimum-normalised scores (BM25 / max,
    # (cos + 1) / (max + 1); Bruch, Gai & Ingber, ACM TOIS 2023) is the best
    # fusion, at weights (0.2, 0.8). Rerun on the default quantised embedder
    # (2026-12-01): nDCG@10 on train 0.7417 at depth 100, against 0.716 for
    # RRF(k=60) and 0.703 / 0.665 for BM25 / dense alone; 0.7-0.85 dense weight
    # are within 0.004. Cosines span a narrower normalised range than BM25, hence
    # the larger weight. Depth 200 scores 0.7430 (+0.0013) and 50 0.7411: 100 is
    # kept, half the candidates to read per query for a gain inside noise.
    # Held out: SciFact test 0.730 (RRF 0.717), Cranfield (never tuned on)
    # 0.418 against 0.383 for its better single channel.
    # The weights then moved to (0.3, 0.7) for long documents, the main job. On
    # documents-dev's first 543 answerable questions (`pincite eval qa
    # data/qa/documents-dev.jsonl`) the gold passage is among the six an answer
    # reads for 512 against 505 (recall@1 362 against 366), and 6 more answers
    # hold the gold answer at equal refusal; the policy sets gained and lost no
    # answer (policies-dev4 answered one more near-miss). SciFact train pays 0.004
    # (0.7378 against 0.7417), inside the plateau above. Reported afterwards, not
    # chosen on: documents-test's recall@6 528 of 569 against 533, SciFact test
    # 0.725 against 0.730, Cranfield 0.411 against 0.422; weigh it again on more
    # documents.
    candidates: int = 100
    fusion: FusionMethod = FusionMethod.CONVEX
    normalization: Normalization = Normalization.THEORETICAL_MIN
    # A weight per channel name: convex fusion rescales them to sum to 1; RRF
    # multiplies each list's 1 / (k + rank) by them (all 1.0 for plain RRF).
    weights: tuple[tuple[str, float], ...] = (("lexical", 0.3), ("dense", 0.7))
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

    def weight(self, channel: str) -> float:
        """The fusion weight of ``channel``; ``InputError`` when it has none."""
        for name, value in self.weights:
            if name == channel:
                return value
        raise InputError(f"no fusion weight for channel {channel!r} (weights: {self.weights})")


def retrieve(
    store: Store,
    embedder: Embedder | None,
    question: str,
    *,
    tenant: str,
    k: int = 8,
    scope: tuple[str, ...] | None = None,
    options: SearchOptions = SearchOptions(),
    define: str | None = None,
) -> RetrievalResult:
    """The ``k`` best current passages of ``tenant`` for ``question``.

    ``scope`` restricts search to those document ids. With ``define`` (the
    term a definition question asks about), the best chunk holding an entry
    that defines it takes the last place unless already retrieved. Raises ``InputError`` for
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

    ranked: list[Ranked] = []
    coverage: float | None = None
    if mode is not SearchMode.DENSE:
        ranked.append(channels.lexical(store, tenant, question, pool, scope))
    if mode is not SearchMode.LEXICAL and embedder is not None:
        ranked.append(channels.dense(store, embedder, tenant, question, pool, scope, options))
        coverage = dense_coverage(store, tenant)

    fused = list(ranked[0].hits) if len(ranked) == 1 else fuse_channels(ranked, options, depth=pool)
    if mode is not SearchMode.DENSE:
        spelled = _spelled_out(store, tenant, question, fused, scope)
        if spelled:
            ranked[0] = channels.lexical(store, tenant, f"{question} {spelled}", pool, scope)
            fused = (
                list(ranked[0].hits)
                if len(ranked) == 1
                else fuse_channels(ranked, options, depth=pool)
            )
    want = max(k * 4, 20) if options.reranker is not None else k
    hits = _hits(store, tenant, fused, ranked, want, options.dedup)
    if options.reranker is not None:
        hits = _rerank(options.reranker, question, hits)
    hits = hits[:k]
    hits = named_section(store, tenant, question, fused, hits, k)
    if define:
        hits = _with_entry(store, tenant, define, scope, hits, k)
    return RetrievalResult(
        question=question,
        tenant=tenant,
        hits=tuple(hits),
        retrieved_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        mode=mode.value,
        scope=scope,
        dense_coverage=coverage,
    )


def _spelled_out(
    store: Store,
    tenant: str,
    question: str,
    fused: list[tuple[str, float]],
    scope: tuple[str, ...] | None,
) -> str:
    """The words the best candidates spell the question's unused acronyms with
    ("multi factor authentication" for "Is MFA required?"); ``""`` if none."""
    if not asked_acronyms(question):
        return ""

    def unused(word: str) -> bool:
        return not store.search_lexical(tenant, [word], 1, scope)

    head = [cid for cid, _ in fused[:_SPELLING_CANDIDATES]]
    chunks = store.chunks_by_id(tenant, head)
    texts = (chunks[cid].text for cid in head if cid in chunks)
    return expansion(question, texts, unused)


def dense_coverage(store: Store, tenant: str) -> float:
    """The fraction of ``tenant``'s searchable chunks that have a vector (1.0 when none wait).

    Chunks committed but not embedded yet are found by the lexical channel
    only; hybrid search says so through this number instead of hiding it.
    """
    embedded, total = store.vector_coverage(tenant)
    return embedded / total if total else 1.0


def _hits(
    store: Store,
    tenant: str,
    fused: list[tuple[str, float]],
    ranked: Sequence[Ranked],
    want: int,
    deduplicate: bool,
) -> list[Hit]:
    """The first ``want`` fused candidates as hits, near-duplicates dropped.

    Chunks are read from the store a window at a time (most queries need one
    window of ``1.5 * want``), not all ``candidates`` of them.
    """
    ranks = [
        {cid: ChannelRank(r.name, i + 1, s) for i, (cid, s) in enumerate(r.hits)} for r in ranked
    ]
    routed = frozenset().union(*(r.routed for r in ranked))
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
            found = tuple(r[cid] for r in ranks if cid in r)
            branches = Branches(found, score, None, chunk.document_id in routed)
            hits.append(Hit(chunk, document, score, branches))
        kept = _dedup(hits, want) if deduplicate else hits[:want]
        window *= 2
    return kept


def _with_entry(
    store: Store,
    tenant: str,
    term: str,
    scope: tuple[str, ...] | None,
    hits: list[Hit],
    k: int,
) -> list[Hit]:
    """``hits`` with the best entry defining ``term`` in the last of ``k`` places."""
    entries = defining_entries(store, tenant, term, scope)
    if not entries or any(h.chunk.chunk_id == entries[0][0] for h in hits):
        return hits
    cid, bm25 = entries[0]
    chunk = store.chunks_by_id(tenant, [cid]).get(cid)
    if chunk is None or chunk.tenant != tenant or chunk.erased:
        return hits
    document = store.documents_by_id(tenant, [chunk.document_id]).get(chunk.document_id)
    if document is None or document.status is not DocumentStatus.LIVE:
        return hits
    return in_last_place(hits, k, chunk, document, ChannelRank(ENTRY, 1, bm25))


def _dedup(hits: list[Hit], limit: int) -> list[Hit]:
    return dedup(
        hits,
        key_text=lambda h: h.chunk.text,
        key_span=lambda h: (h.chunk.content_hash, h.chunk.start, h.chunk.end),
        limit=limit,
    )


def fuse_channels(
    ranked: Sequence[Ranked],
    options: SearchOptions,
    *,
    depth: int,
) -> list[tuple[str, float]]:
    """Hybrid fusion of the channels' ``(chunk_id, score)`` lists, best first.

    ``depth`` is how many candidates each channel was asked for. With
    theoretical-minimum normalisation, a list shorter than that is complete:
    every chunk it lacks scored below its floor (BM25 0: no query word; a cosine
    under ``min_dense_score``), so such chunks get that floor's normalised score
    rather than the list's lowest returned one, which for a one-hit list would
    be the maximum. Raises ``InputError`` when the weights are all 0 or a
    channel has none.
    """
    weights = [options.weight(r.name) for r in ranked]
    if options.fusion is FusionMethod.RRF:
        return rrf([[c for c, _ in r.hits] for r in ranked], k=options.rrf_k, weights=weights)
    total = sum(weights)
    if total <= 0:
        raise InputError(f"fusion weights must not all be 0, got {options.weights}")
    lists = [list(r.hits) for r in ranked]
    bounds = None
    if options.normalization is Normalization.THEORETICAL_MIN:
        lists = [r.clamped() for r in ranked]
        bounds = tuple(r.lower_bound for r in ranked)
        for scored, r in zip(lists, ranked, strict=True):
            if len(scored) < depth:
                scored.append((_FLOOR_KEY, r.floor))  # stands for every absent chunk
    fused = convex(
        lists,
        weights=[w / total for w in weights],
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
