from __future__ import annotations

import math
from collections.abc import Hashable
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pincite.errors import InputError, PinciteError
from pincite.retrieve.fuse import RRF_K, FusionMethod, Normalization, convex, rrf

K = TypeVar("K", bound=Hashable)


def keys(fused: list[tuple[K, float]]) -> list[K]:
    return [key for key, _ in fused]


def assert_fused(fused: list[tuple[K, float]], expected: list[tuple[K, float]]) -> None:
    """Same keys in the same order, scores equal to within float rounding."""
    assert keys(fused) == keys(expected)
    assert [score for _, score in fused] == pytest.approx([score for _, score in expected])


# --- rrf ------------------------------------------------------------------


def test_rrf_default_k_is_cormack_60() -> None:
    assert RRF_K == 60


def test_rrf_hand_computed_scores_and_order() -> None:
    fused = rrf([["a", "b", "c"], ["b", "c", "d"]])
    # a: 1/61                 = 0.016393
    # b: 1/62 + 1/61          = 0.032522
    # c: 1/63 + 1/62          = 0.032002
    # d: 1/63                 = 0.015873
    assert keys(fused) == ["b", "c", "a", "d"]
    scores = dict(fused)
    assert scores["a"] == pytest.approx(1 / 61)
    assert scores["b"] == pytest.approx(0.03252247488)
    assert scores["c"] == pytest.approx(0.03200204813)
    assert scores["d"] == pytest.approx(1 / 63)


def test_rrf_ties_keep_first_appearance_order() -> None:
    # a and b both score 1/61 + 1/62; a is met first.
    assert keys(rrf([["a", "b"], ["b", "a"]])) == ["a", "b"]
    assert keys(rrf([["b", "a"], ["a", "b"]])) == ["b", "a"]
    # disjoint lists: x and y tie at 1/61, then p and q at 1/62.
    assert keys(rrf([["x", "p"], ["y", "q"]])) == ["x", "y", "p", "q"]


def test_rrf_weights_change_the_winner() -> None:
    # weights (1, 3):
    # a: 1/61 + 3/62 = 0.016393 + 0.048387 = 0.064781
    # b: 1/62 + 3/61 = 0.016129 + 0.049180 = 0.065309  -> b wins
    fused = rrf([["a", "b"], ["b", "a"]], weights=[1.0, 3.0])
    assert keys(fused) == ["b", "a"]
    assert dict(fused)["a"] == pytest.approx(0.06478053940)
    assert dict(fused)["b"] == pytest.approx(0.06530936013)


def test_rrf_k_zero_is_plain_reciprocal_rank() -> None:
    assert_fused(rrf([["a", "b", "c"]], k=0), [("a", 1.0), ("b", 0.5), ("c", 1 / 3)])


def test_rrf_repeated_key_counts_once_at_its_best_rank() -> None:
    # a at ranks 1 and 3 of one list: only 1/61 counts, not 1/61 + 1/63.
    fused = dict(rrf([["a", "b", "a"]]))
    assert fused == pytest.approx({"a": 1 / 61, "b": 1 / 62})


def test_rrf_zero_weight_list_still_contributes_its_keys() -> None:
    fused = rrf([["a"], ["z"]], weights=[1.0, 0.0])
    assert_fused(fused, [("a", 1 / 61), ("z", 0.0)])


def test_rrf_empty_inputs() -> None:
    assert rrf([]) == []
    assert rrf([[], []]) == []


def test_rrf_accepts_any_hashable_key() -> None:
    fused = rrf([[("doc", 1), ("doc", 2)], [("doc", 2)]])
    assert keys(fused) == [("doc", 2), ("doc", 1)]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"k": -1}, "k must be"),
        ({"weights": [1.0]}, "1 weights for 2 lists"),
        ({"weights": [1.0, -0.5]}, ">= 0"),
        ({"weights": [1.0, math.nan]}, "finite"),
        ({"weights": [1.0, math.inf]}, "finite"),
    ],
)
def test_rrf_rejects_bad_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InputError, match=match):
        rrf([["a"], ["b"]], **kwargs)  # type: ignore[arg-type]


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=8), max_size=4))
def test_rrf_returns_each_key_once_sorted_by_score(rankings: list[list[str]]) -> None:
    fused = rrf(rankings)
    assert sorted(keys(fused)) == sorted({key for ranking in rankings for key in ranking})
    scores = [score for _, score in fused]
    assert scores == sorted(scores, reverse=True)


# --- convex ---------------------------------------------------------------

LEXICAL = [("a", 10.0), ("b", 6.0), ("c", 2.0)]
DENSE = [("b", 0.9), ("d", 0.5), ("a", 0.1)]


def test_convex_minmax_hand_computed() -> None:
    # lexical min-max over [10, 6, 2]:  a = 8/8 = 1, b = 4/8 = 0.5, c = 0
    # dense   min-max over [.9, .5, .1]: b = 1,  d = 0.4/0.8 = 0.5, a = 0
    # missing: c from dense -> dense's min normalised (0); d from lexical -> 0
    # weights (0.3, 0.7):
    # a = 0.3*1   + 0.7*0   = 0.30
    # b = 0.3*0.5 + 0.7*1   = 0.85
    # c = 0.3*0   + 0.7*0   = 0.00
    # d = 0.3*0   + 0.7*0.5 = 0.35
    fused = convex([LEXICAL, DENSE], weights=[0.3, 0.7])
    assert keys(fused) == ["b", "d", "a", "c"]
    assert dict(fused) == pytest.approx(
        {
            "a": 0.30,
            "b": 0.85,
            "c": 0.0,
            "d": 0.35,
        }
    )


def test_convex_weights_move_the_ranking() -> None:
    # Same lists, weights (0.9, 0.1):
    # a = 0.9, b = 0.45 + 0.1 = 0.55, c = 0, d = 0.05
    fused = convex([LEXICAL, DENSE], weights=[0.9, 0.1])
    assert keys(fused) == ["a", "b", "d", "c"]
    assert dict(fused)["b"] == pytest.approx(0.55)


def test_convex_zscore_hand_computed() -> None:
    # lexical [3, 1]: mean 2, population std 1 -> a = +1, b = -1
    # dense [5, 1, 3]: mean 3, std = sqrt((4 + 4 + 0) / 3) = 1.632993
    #   b = 2/1.632993 = 1.224745, c = -1.224745, d = 0
    # missing: c, d from lexical -> -1 (lexical's min); a from dense -> -1.224745
    # weights (0.5, 0.5):
    # a = (1 - 1.224745) / 2 = -0.112372
    # b = (-1 + 1.224745) / 2 = 0.112372
    # c = (-1 - 1.224745) / 2 = -1.112372
    # d = (-1 + 0) / 2 = -0.5
    fused = convex(
        [[("a", 3.0), ("b", 1.0)], [("b", 5.0), ("c", 1.0), ("d", 3.0)]],
        weights=[0.5, 0.5],
        normalization=Normalization.ZSCORE,
    )
    assert keys(fused) == ["b", "a", "d", "c"]
    assert dict(fused) == pytest.approx(
        {
            "a": -0.1123724357,
            "b": 0.1123724357,
            "c": -1.1123724357,
            "d": -0.5,
        }
    )


def test_convex_theoretical_min_hand_computed_and_differs_from_minmax() -> None:
    lexical = [("a", 8.0), ("b", 4.0)]  # BM25, lower bound 0
    dense = [("b", 0.6), ("c", 0.2)]  # cosine, lower bound -1
    # lexical: (s - 0) / (8 - 0): a = 1, b = 0.5
    # dense: (s + 1) / (0.6 + 1): b = 1, c = 1.2/1.6 = 0.75
    # missing: c from lexical -> 0.5; a from dense -> 0.75
    # a = (1 + 0.75)/2 = 0.875, b = (0.5 + 1)/2 = 0.75, c = (0.5 + 0.75)/2 = 0.625
    fused = convex(
        [lexical, dense],
        weights=[0.5, 0.5],
        normalization=Normalization.THEORETICAL_MIN,
        lower_bounds=[0.0, -1.0],
    )
    assert_fused(fused, [("a", 0.875), ("b", 0.75), ("c", 0.625)])
    # Min-max on the same lists: lexical a = 1, b = 0; dense b = 1, c = 0;
    # a = 0.5, b = 0.5 (tie, a met first), c = 0.
    assert_fused(convex([lexical, dense], weights=[0.5, 0.5]), [("a", 0.5), ("b", 0.5), ("c", 0.0)])


def test_convex_list_without_spread_contributes_nothing() -> None:
    # list 0 has one item: spread 0 -> every normalised score 0 (a = 0, b missing -> 0)
    # list 1: b = 1, a = 0.  b = 0.5*0 + 0.5*1 = 0.5, a = 0
    fused = convex([[("a", 5.0)], [("b", 0.3), ("a", 0.1)]], weights=[0.5, 0.5])
    assert_fused(fused, [("b", 0.5), ("a", 0.0)])


def test_convex_empty_list_contributes_nothing() -> None:
    fused = convex([[], [("a", 1.0), ("b", 0.0)]], weights=[0.5, 0.5])
    assert_fused(fused, [("a", 0.5), ("b", 0.0)])
    assert convex([[], []], weights=[0.5, 0.5]) == []


def test_convex_repeated_key_keeps_its_first_score() -> None:
    # {a: 10, b: 5} after dropping the second a; a = 1, b = 0.
    assert convex([[("a", 10.0), ("b", 5.0), ("a", 0.0)]], weights=[1.0]) == [
        ("a", 1.0),
        ("b", 0.0),
    ]


def test_convex_ties_keep_first_appearance_order() -> None:
    fused = convex([[("x", 1.0), ("y", 1.0)], [("z", 2.0), ("w", 2.0)]], weights=[0.5, 0.5])
    assert keys(fused) == ["x", "y", "z", "w"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"weights": [0.5, 0.6]}, "sum to 1"),
        ({"weights": [1.0]}, "1 weights for 2 lists"),
        ({"weights": [1.5, -0.5]}, ">= 0"),
        ({"weights": [0.5, 0.5], "lower_bounds": [0.0, 0.0]}, "only applies"),
        (
            {"weights": [0.5, 0.5], "normalization": Normalization.THEORETICAL_MIN},
            "needs lower_bounds",
        ),
        (
            {
                "weights": [0.5, 0.5],
                "normalization": Normalization.THEORETICAL_MIN,
                "lower_bounds": [0.0],
            },
            "1 lower_bounds for 2 lists",
        ),
        (
            {
                "weights": [0.5, 0.5],
                "normalization": Normalization.THEORETICAL_MIN,
                "lower_bounds": [0.0, 0.5],
            },
            "below the list's theoretical minimum",
        ),
    ],
)
def test_convex_rejects_bad_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InputError, match=match):
        convex([[("a", 1.0)], [("b", 0.2)]], **kwargs)  # type: ignore[arg-type]


def test_convex_rejects_non_finite_scores() -> None:
    with pytest.raises(InputError, match="not finite"):
        convex([[("a", math.nan)]], weights=[1.0])


@given(
    st.lists(
        st.lists(
            st.tuples(st.sampled_from("abcdef"), st.floats(-1e6, 1e6, allow_nan=False)),
            max_size=6,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_convex_minmax_scores_stay_in_unit_interval(
    scored: list[list[tuple[str, float]]],
) -> None:
    weights = [1.0 / len(scored)] * len(scored)
    fused = convex(scored, weights=weights)
    assert sorted(keys(fused)) == sorted({key for pairs in scored for key, _ in pairs})
    assert all(-1e-9 <= score <= 1 + 1e-9 for _, score in fused)


# --- enums ----------------------------------------------------------------


def test_fusion_method_parse_is_case_and_space_insensitive() -> None:
    assert FusionMethod.parse(" RRF ") is FusionMethod.RRF
    assert FusionMethod.parse("convex") is FusionMethod.CONVEX
    assert Normalization.parse("ZScore") is Normalization.ZSCORE
    assert Normalization.parse("theoretical_min") is Normalization.THEORETICAL_MIN


def test_parse_error_lists_the_valid_values() -> None:
    with pytest.raises(InputError) as fusion:
        FusionMethod.parse("borda")
    assert str(fusion.value) == "unknown fusion method 'borda'; valid values: rrf, convex"
    assert isinstance(fusion.value, ValueError)
    assert isinstance(fusion.value, PinciteError)
    with pytest.raises(InputError, match="minmax, zscore, theoretical_min"):
        Normalization.parse("l2")
