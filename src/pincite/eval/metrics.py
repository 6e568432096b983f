"""Retrieval metrics for one query, and the two aggregates the reports need.

Definitions follow trec_eval (which BEIR calls through pytrec_eval), so numbers
are comparable with published BEIR tables:

- ``qrels`` maps a document id to its graded judgement. Only grades > 0 count
  as relevant; a document missing from ``qrels`` counts as non-relevant.
- ``ranked_ids`` is taken in the order given (trec_eval would re-sort by score
  and break ties by document id; sort before calling if that matters). A
  document repeated in ``ranked_ids`` counts at its first position only; the
  later copies are non-relevant but still take a rank.
- A query with no relevant document scores 0.0 on every metric, as trec_eval
  reports it. The value means nothing, so a runner should leave such queries
  out of the average (see ``BeirDataset.evaluable_query_ids``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pincite.errors import InputError


def ndcg_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Normalised discounted cumulative gain of the top ``k``.

    ``DCG@k = Σ_{i=1..k} gain(d_i) / log2(i + 1)`` with *linear* gain
    ``gain = grade`` (not ``2**grade - 1``): trec_eval's ``ndcg_cut`` uses the
    judgement value itself as the gain, and BEIR reports ``ndcg_cut`` through
    pytrec_eval. (On binary qrels, such as SciFact's, the two gains agree.)
    ``IDCG@k`` is the DCG of the judged grades sorted high to low, cut at ``k``.
    """
    _check_k(k)
    dcg = math.fsum(
        grade / math.log2(rank + 1) for rank, grade in _top_k_grades(ranked_ids, qrels, k)
    )
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = math.fsum(grade / math.log2(rank + 1) for rank, grade in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Relevant documents in the top ``k`` divided by all relevant documents."""
    _check_k(k)
    n_relevant = sum(1 for grade in qrels.values() if grade > 0)
    if n_relevant == 0:
        return 0.0
    return sum(1 for _, grade in _top_k_grades(ranked_ids, qrels, k) if grade > 0) / n_relevant


def precision_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Relevant documents in the top ``k`` divided by ``k``.

    The divisor is ``k`` even when fewer than ``k`` documents were ranked
    (trec_eval's ``P_k``), so a short list is not rewarded for being short.
    """
    _check_k(k)
    return sum(1 for _, grade in _top_k_grades(ranked_ids, qrels, k) if grade > 0) / k


def mrr_at_k(ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """``1 / rank`` of the first relevant document in the top ``k``; 0.0 if none.

    (Averaged over queries this is the mean reciprocal rank, MRR@k.)
    """
    _check_k(k)
    for rank, grade in _top_k_grades(ranked_ids, qrels, k):
        if grade > 0:
            return 1.0 / rank
    return 0.0


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean (``math.fsum`` for accuracy). Raises ``InputError`` when empty."""
    if not values:
        raise InputError("mean of no values")
    return math.fsum(values) / len(values)


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0 ≤ p ≤ 100) with linear interpolation.

    The same as ``numpy.percentile``'s default (``method="linear"``, definition
    7 of Hyndman & Fan, "Sample Quantiles in Statistical Packages", 1996): on
    the sorted values ``v``, ``h = (n - 1) · p / 100`` and the result is
    ``v[⌊h⌋] + (h - ⌊h⌋) · (v[⌊h⌋ + 1] - v[⌊h⌋])``.

    Raises ``InputError`` when ``values`` is empty or holds NaN, or ``p`` is
    outside [0, 100].
    """
    if not values:
        raise InputError("percentile of no values")
    if not 0.0 <= p <= 100.0:
        raise InputError(f"percentile p must be in [0, 100], got {p!r}")
    if any(math.isnan(v) for v in values):
        raise InputError("percentile of values that include NaN")
    ordered = sorted(values)
    h = (len(ordered) - 1) * p / 100.0
    low = math.floor(h)
    if low + 1 >= len(ordered):
        return float(ordered[-1])
    fraction = h - low
    return float(ordered[low] + fraction * (ordered[low + 1] - ordered[low]))


def _check_k(k: int) -> None:
    if k < 1:
        raise InputError(f"k must be >= 1, got {k}")


def _top_k_grades(
    ranked_ids: Sequence[str], qrels: Mapping[str, int], k: int
) -> list[tuple[int, int]]:
    """``(rank, grade)`` for the top ``k`` ranks; a repeated id has grade 0 after its first rank."""
    seen: set[str] = set()
    out: list[tuple[int, int]] = []
    for rank, doc_id in enumerate(ranked_ids[:k], start=1):
        grade = 0 if doc_id in seen else max(qrels.get(doc_id, 0), 0)
        seen.add(doc_id)
        out.append((rank, grade))
    return out
