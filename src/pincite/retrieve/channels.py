"""Retrieval channels: each turns a question into its own ranked ``(chunk_id, score)`` list.

A channel's :class:`Ranked` list carries what fusion needs to know about its
scores (the lowest its scoring can produce, the floor below which it lists
nothing), so fusion, branches and their serialisation work on any number of
channels. A new channel is a function here returning ``Ranked`` under a new
name, a weight in ``SearchOptions.weights``, and a line in ``retrieve``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pincite.embed.base import Embedder
from pincite.retrieve.query import query_terms
from pincite.retrieve.route import route
from pincite.store.base import Store

if TYPE_CHECKING:
    from pincite.retrieve.search import SearchOptions

LEXICAL = "lexical"
DENSE = "dense"
# FTS5 clamps IDF above 0, so a BM25 score is never below 0; a cosine never below -1.
BM25_MIN = 0.0
COSINE_MIN = -1.0


@dataclass(frozen=True, slots=True)
class Ranked:
    """One channel's candidates, best first, and the range its scores live in.

    ``lower_bound`` is the lowest score the scoring function can give (the
    theoretical-minimum normalisation's anchor); ``upper_bound`` the highest,
    if it has one; ``floor`` the score under which the channel lists nothing,
    so a chunk missing from a complete list scored at most that.
    """

    name: str
    hits: tuple[tuple[str, float], ...]
    lower_bound: float
    floor: float
    upper_bound: float | None = None
    routed: frozenset[str] = frozenset()

    def clamped(self) -> list[tuple[str, float]]:
        """Scores held inside the bounds (guards float rounding past them)."""
        top = self.upper_bound if self.upper_bound is not None else float("inf")
        return [(c, min(max(s, self.lower_bound), top)) for c, s in self.hits]


def lexical_ranked(hits: Sequence[tuple[str, float]]) -> Ranked:
    """A BM25 list as a channel."""
    return Ranked(LEXICAL, tuple(hits), lower_bound=BM25_MIN, floor=BM25_MIN)


def dense_ranked(
    hits: Sequence[tuple[str, float]], min_score: float, routed: frozenset[str] = frozenset()
) -> Ranked:
    """A cosine list as a channel; cosines under ``min_score`` count as no match."""
    kept = tuple((c, s) for c, s in hits if s >= min_score)
    floor = max(min_score, COSINE_MIN)
    return Ranked(DENSE, kept, COSINE_MIN, floor, upper_bound=1.0, routed=routed)


def lexical(
    store: Store, tenant: str, question: str, pool: int, scope: Sequence[str] | None
) -> Ranked:
    """BM25 over the tenant's current chunks (the store's own full-text index)."""
    return lexical_ranked(store.search_lexical(tenant, query_terms(question), pool, scope))


def dense(
    store: Store,
    embedder: Embedder,
    tenant: str,
    question: str,
    pool: int,
    scope: Sequence[str] | None,
    options: SearchOptions,
) -> Ranked:
    """Cosine k-NN over the tenant's chunk vectors, within the documents routing keeps."""
    qv: np.ndarray = embedder.embed_query(question)
    allowed = set(scope) if scope is not None else None
    routed: set[str] = set()
    if options.routing:
        rindex = store.routing_index(tenant)
        top = max(
            options.route_min_documents, int(len(rindex.document_ids) * options.route_fraction)
        )
        chosen = route(rindex, qv, top=top)
        if chosen is not None:
            routed = set(chosen)
            allowed = routed if allowed is None else allowed & routed
    # Each store searches its own way: pgvector HNSW in PostgreSQL, an exact
    # scan of the tenant's matrix in SQLite (pincite.store.dense).
    documents = sorted(allowed) if allowed is not None else None
    found = store.search_dense(tenant, qv, pool, documents)
    return dense_ranked(found, options.min_dense_score, frozenset(routed))
