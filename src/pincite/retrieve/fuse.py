"""Rank fusion: turn several ranked lists of the same kind of item into one.

Two families, each a pure function:

- :func:`rrf` looks only at ranks (Reciprocal Rank Fusion).
- :func:`convex` looks at scores: it normalises each list's scores, then takes a
  convex combination of them.

Both return ``[(key, fused_score), ...]`` sorted by score, highest first. Ties
are broken by *first appearance*: the order in which keys are first met when the
input lists are read one after another, first list first, each from the top.
That makes the output a function of the input alone (no hash order, no set
iteration).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from enum import StrEnum
from typing import Self, TypeVar

from pincite.errors import InputError

K = TypeVar("K", bound=Hashable)

# Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and
# individual Rank Learning Methods", SIGIR 2009: k = 60 was fixed in a pilot
# study and used for every reported run.
RRF_K = 60


class _Choice(StrEnum):
    """A closed choice whose ``parse`` error lists the valid values."""

    @classmethod
    def parse(cls, value: str) -> Self:
        """Return the member spelled ``value`` (case and surrounding space ignored).

        Raises ``InputError`` naming the valid values when there is none.
        """
        wanted = value.strip().lower()
        for member in cls:
            if member.value == wanted:
                return member
        valid = ", ".join(member.value for member in cls)
        raise InputError(f"unknown {cls._what()} {value!r}; valid values: {valid}")

    @classmethod
    def _what(cls) -> str:
        return cls.__name__.lower()


class FusionMethod(_Choice):
    """How hybrid retrieval combines its lexical and dense lists."""

    RRF = "rrf"
    CONVEX = "convex"

    @classmethod
    def _what(cls) -> str:
        return "fusion method"


class Normalization(_Choice):
    """How :func:`convex` puts each list's scores on a common scale.

    The three normalisations studied by Bruch, Gai & Ingber, "An Analysis of
    Fusion Functions for Hybrid Retrieval", ACM TOIS 42(1), 2023:

    - ``MINMAX``: ``(s - min) / (max - min)`` over the list's scores.
    - ``ZSCORE``: ``(s - mean) / std`` over the list's scores (population std).
    - ``THEORETICAL_MIN``: ``(s - lower) / (max - lower)`` where ``lower`` is the
      lowest score the scoring function can produce (0 for BM25, -1 for cosine
      similarity) and ``max`` the list's highest score. The paper favours it
      because, unlike the observed minimum, it does not depend on list depth.
    """

    MINMAX = "minmax"
    ZSCORE = "zscore"
    THEORETICAL_MIN = "theoretical_min"

    @classmethod
    def _what(cls) -> str:
        return "normalization"


def rrf(
    rankings: Sequence[Sequence[K]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[K, float]]:
    """Reciprocal Rank Fusion: ``score(d) = Σ_i w_i / (k + rank_i(d))``.

    Ranks are 1-based; a list that does not contain ``d`` adds nothing. A key
    repeated inside one list counts once, at its best (first) rank. ``weights``
    (one per list, default all 1.0) scale each list's contribution; a list of
    weight 0 still contributes its keys, with score 0.

    Raises ``InputError`` when ``k`` is negative or the weights do not match the
    lists or are negative or not finite.
    """
    if k < 0:
        raise InputError(f"rrf k must be >= 0, got {k}")
    list_weights = _check_weights(weights, len(rankings))
    scores: dict[K, float] = {}
    for ranking, weight in zip(rankings, list_weights, strict=True):
        seen: set[K] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return _sorted_by_score(scores)


def convex(
    scored: Sequence[Sequence[tuple[K, float]]],
    *,
    weights: Sequence[float],
    normalization: Normalization = Normalization.MINMAX,
    lower_bounds: Sequence[float] | None = None,
) -> list[tuple[K, float]]:
    """A convex combination of normalised scores: ``score(d) = Σ_i w_i · φ_i(s_i(d))``.

    After Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid
    Retrieval", ACM TOIS 42(1), 2023 (``φ`` is one of :class:`Normalization`).

    ``weights`` has one entry per list; they must be ≥ 0 and sum to 1 (that is
    what makes the combination convex). ``lower_bounds`` (one per list) is the
    theoretical minimum score of each list's scoring function, required for
    ``THEORETICAL_MIN`` and rejected otherwise.

    **Missing items.** A key absent from a list gets that list's *minimum
    normalised score*: it was ranked below everything the list returned, and the
    list's worst returned score is the best guess that does not invent a scale.
    Consequences: under ``MINMAX`` a missing key gets 0; a list that returned
    nothing contributes 0 to every key.

    **Degenerate lists.** When a list's scores have no spread (one item, or all
    equal; or, for ``THEORETICAL_MIN``, a maximum equal to the lower bound) its
    normalised scores are all 0: it carries no ranking signal.

    A key repeated inside one list keeps its first score. Raises ``InputError``
    on bad weights or bounds, non-finite scores, or a score below its list's
    lower bound.
    """
    list_weights = _check_weights(weights, len(scored))
    if not math.isclose(math.fsum(list_weights), 1.0, rel_tol=0.0, abs_tol=1e-9):
        raise InputError(
            f"convex weights must sum to 1, got {list(list_weights)} "
            f"(sum {math.fsum(list_weights)!r})"
        )
    bounds = _check_lower_bounds(lower_bounds, normalization, len(scored))

    order: dict[K, None] = {}
    normalised_lists: list[tuple[dict[K, float], float]] = []
    for index, pairs in enumerate(scored):
        first: dict[K, float] = {}
        for key, score in pairs:
            if not math.isfinite(score):
                raise InputError(f"list {index}: score of {key!r} is not finite: {score!r}")
            first.setdefault(key, score)
            order.setdefault(key, None)
        bound = bounds[index] if bounds is not None else None
        normalised = _normalise(first, normalization, bound, index)
        floor = min(normalised.values(), default=0.0)
        normalised_lists.append((normalised, floor))

    fused: dict[K, float] = {}
    for key in order:
        fused[key] = math.fsum(
            weight * normalised.get(key, floor)
            for weight, (normalised, floor) in zip(list_weights, normalised_lists, strict=True)
        )
    return _sorted_by_score(fused)


def _normalise(
    scores: dict[K, float], normalization: Normalization, lower: float | None, index: int
) -> dict[K, float]:
    if not scores:
        return {}
    values = list(scores.values())
    if normalization is Normalization.MINMAX:
        low, high = min(values), max(values)
        spread = high - low
        return {key: (s - low) / spread if spread > 0 else 0.0 for key, s in scores.items()}
    if normalization is Normalization.ZSCORE:
        mean = math.fsum(values) / len(values)
        std = math.sqrt(math.fsum((s - mean) ** 2 for s in values) / len(values))
        return {key: (s - mean) / std if std > 0 else 0.0 for key, s in scores.items()}
    assert lower is not None  # _check_lower_bounds guarantees it for THEORETICAL_MIN
    below = min(values)
    if below < lower:
        raise InputError(
            f"list {index}: score {below!r} is below the list's theoretical minimum {lower!r}"
        )
    spread = max(values) - lower
    return {key: (s - lower) / spread if spread > 0 else 0.0 for key, s in scores.items()}


def _check_weights(weights: Sequence[float] | None, n_lists: int) -> tuple[float, ...]:
    if weights is None:
        return (1.0,) * n_lists
    if len(weights) != n_lists:
        raise InputError(f"got {len(weights)} weights for {n_lists} lists; give one per list")
    for weight in weights:
        if not math.isfinite(weight) or weight < 0:
            raise InputError(f"weights must be finite and >= 0, got {list(weights)}")
    return tuple(float(weight) for weight in weights)


def _check_lower_bounds(
    lower_bounds: Sequence[float] | None, normalization: Normalization, n_lists: int
) -> tuple[float, ...] | None:
    if normalization is not Normalization.THEORETICAL_MIN:
        if lower_bounds is not None:
            raise InputError(
                f"lower_bounds only applies to {Normalization.THEORETICAL_MIN.value!r} "
                f"normalization, not {normalization.value!r}"
            )
        return None
    if lower_bounds is None:
        raise InputError(
            "theoretical_min normalization needs lower_bounds, one per list "
            "(e.g. 0.0 for BM25, -1.0 for cosine similarity)"
        )
    if len(lower_bounds) != n_lists:
        raise InputError(f"got {len(lower_bounds)} lower_bounds for {n_lists} lists")
    for bound in lower_bounds:
        if not math.isfinite(bound):
            raise InputError(f"lower_bounds must be finite, got {list(lower_bounds)}")
    return tuple(float(bound) for bound in lower_bounds)


def _sorted_by_score(scores: dict[K, float]) -> list[tuple[K, float]]:
    # dicts keep insertion (first appearance) order and sorted() is stable, so
    # equal scores stay in first-appearance order.
    return sorted(scores.items(), key=lambda item: -item[1])
