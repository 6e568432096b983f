from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pincite.errors import InputError
from pincite.eval.metrics import (
    mean,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    precision_at_k,
    recall_at_k,
)

GRADED = {"d1": 3, "d2": 2, "d3": 1, "d4": 0}


# --- nDCG -----------------------------------------------------------------


def test_ndcg_graded_linear_gain_hand_computed() -> None:
    ranked = ["d3", "d1", "dx", "d2"]
    # DCG@3  = 1/log2(2) + 3/log2(3) + 0/log2(4) = 1 + 1.892789 = 2.892789
    # IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.261860 + 0.5 = 4.761860
    # nDCG@3 = 2.892789 / 4.761860 = 0.607492
    assert ndcg_at_k(ranked, GRADED, 3) == pytest.approx(0.6074915180)
    # DCG@4  = 2.892789 + 2/log2(5) = 2.892789 + 0.861353 = 3.754142
    # IDCG@4 = IDCG@3 (d4 has grade 0, so only three gains exist)
    # nDCG@4 = 3.754142 / 4.761860 = 0.788377
    assert ndcg_at_k(ranked, GRADED, 4) == pytest.approx(0.7883773915)


def test_ndcg_uses_linear_not_exponential_gain() -> None:
    # With 2**rel - 1 the same ranking would give
    # (1 + 7/log2(3)) / (7 + 3/log2(3) + 1/2) = 5.416508 / 9.392789 = 0.576672
    value = ndcg_at_k(["d3", "d1", "dx", "d2"], GRADED, 3)
    assert value != pytest.approx(0.576672, abs=1e-4)
    assert value == pytest.approx(0.607492, abs=1e-6)


def test_ndcg_perfect_and_worst() -> None:
    assert ndcg_at_k(["d1", "d2", "d3"], GRADED, 3) == pytest.approx(1.0)
    assert ndcg_at_k(["d1", "d2", "d3", "d4", "x"], GRADED, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["d4", "x", "y"], GRADED, 3) == 0.0
    assert ndcg_at_k([], GRADED, 10) == 0.0


def test_ndcg_binary_hand_computed() -> None:
    # relevant a, b; ranked [x, a, y, b]
    # DCG@4 = 1/log2(3) + 1/log2(5) = 0.630930 + 0.430677 = 1.061606
    # IDCG@4 = 1/log2(2) + 1/log2(3) = 1.630930 -> 0.650921
    assert ndcg_at_k(["x", "a", "y", "b"], {"a": 1, "b": 1}, 4) == pytest.approx(0.6509209)


def test_ndcg_ideal_is_cut_at_k() -> None:
    # 3 relevant docs, k = 1: IDCG@1 = 1, and a relevant doc first gives 1.0
    assert ndcg_at_k(["a"], {"a": 1, "b": 1, "c": 1}, 1) == 1.0


def test_ndcg_repeated_id_counts_once() -> None:
    # ranked [a, a, b], k = 2: DCG = 1 + 0 (repeat), IDCG@2 = 1 + 1/log2(3) = 1.630930
    # -> 0.613147
    assert ndcg_at_k(["a", "a", "b"], {"a": 1, "b": 1}, 2) == pytest.approx(0.6131471928)


# --- recall / precision / MRR --------------------------------------------

BINARY = {"a": 1, "b": 1, "c": 2, "z": 0}


def test_recall_at_k() -> None:
    ranked = ["z", "a", "x", "c"]
    # relevant: a, b, c (z has grade 0). top-2 holds a -> 1/3; top-4 holds a, c -> 2/3
    assert recall_at_k(ranked, BINARY, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, BINARY, 4) == pytest.approx(2 / 3)
    assert recall_at_k(["a", "b", "c"], BINARY, 3) == 1.0


def test_precision_at_k_divides_by_k() -> None:
    ranked = ["z", "a", "x", "c"]
    assert precision_at_k(ranked, BINARY, 4) == pytest.approx(2 / 4)
    # only 4 ranked, k = 10: still 2/10 (trec_eval P_10)
    assert precision_at_k(ranked, BINARY, 10) == pytest.approx(2 / 10)
    assert precision_at_k(ranked, BINARY, 1) == 0.0


def test_repeated_ids_do_not_inflate_precision_or_recall() -> None:
    ranked = ["a", "a", "b"]
    assert precision_at_k(ranked, {"a": 1, "b": 1}, 3) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, {"a": 1, "b": 1}, 2) == pytest.approx(1 / 2)


def test_mrr_at_k() -> None:
    assert mrr_at_k(["z", "x", "c"], BINARY, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["z", "x", "c"], BINARY, 2) == 0.0  # first relevant is past k
    assert mrr_at_k(["a", "b"], BINARY, 10) == 1.0
    assert mrr_at_k([], BINARY, 10) == 0.0


@pytest.mark.parametrize("qrels", [{}, {"a": 0, "b": 0}, {"a": -1}])
def test_no_relevant_documents_scores_zero_everywhere(qrels: dict[str, int]) -> None:
    ranked = ["a", "b"]
    assert ndcg_at_k(ranked, qrels, 10) == 0.0
    assert recall_at_k(ranked, qrels, 10) == 0.0
    assert precision_at_k(ranked, qrels, 10) == 0.0
    assert mrr_at_k(ranked, qrels, 10) == 0.0


@pytest.mark.parametrize("metric", [ndcg_at_k, recall_at_k, precision_at_k, mrr_at_k])
def test_k_must_be_positive(metric: object) -> None:
    with pytest.raises(InputError, match="k must be"):
        metric(["a"], {"a": 1}, 0)  # type: ignore[operator]


# --- mean / percentile ----------------------------------------------------


def test_mean() -> None:
    assert mean([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert mean([0.1] * 10) == 0.1  # fsum: 1.0 exactly, then / 10
    with pytest.raises(InputError):
        mean([])


def test_percentile_hand_computed() -> None:
    values = [4.0, 1.0, 3.0, 2.0]  # sorted: 1 2 3 4, n - 1 = 3
    assert percentile(values, 50) == 2.5  # h = 1.5  -> 2 + 0.5*(3-2)
    assert percentile(values, 25) == 1.75  # h = 0.75 -> 1 + 0.75*(2-1)
    assert percentile(values, 90) == pytest.approx(3.7)  # h = 2.7 -> 3 + 0.7
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 4.0
    assert percentile([7.0], 95) == 7.0


@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30),
    st.floats(0, 100),
)
def test_percentile_matches_numpy_default(values: list[float], p: float) -> None:
    expected = float(np.percentile(np.array(values), p))
    assert percentile(values, p) == pytest.approx(expected, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize(
    ("values", "p", "match"),
    [
        ([], 50, "no values"),
        ([1.0], -1, r"\[0, 100\]"),
        ([1.0], 100.5, r"\[0, 100\]"),
        ([1.0, math.nan], 50, "NaN"),
    ],
)
def test_percentile_rejects(values: list[float], p: float, match: str) -> None:
    with pytest.raises(InputError, match=match):
        percentile(values, p)
