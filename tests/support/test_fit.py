from __future__ import annotations

import math

import pytest

from pincite.support.fit import fit_logistic
from pincite.support.scoring import FEATURES


def _rows(values: list[float], second: float = 0.0) -> list[list[float]]:
    width = len(FEATURES)
    return [[v, second] + [0.0] * (width - 2) for v in values]


def test_fit_learns_the_direction_and_holds_fixed_coefficients() -> None:
    xs = [0.0, 0.1, 0.2, 0.3, 0.45, 0.55, 0.7, 0.8, 0.9, 1.0]
    ys = [x > 0.5 for x in xs]
    weights = fit_logistic(_rows(xs, second=1.0), ys, l2=0.1, fixed={1: -0.7})
    assert weights.coef[0] > 2.0
    assert weights.coef[1] == -0.7
    assert weights.score(_rows([0.95], 1.0)[0]) > 0.5 > weights.score(_rows([0.05], 1.0)[0])


def test_balanced_uninformative_data_gives_a_coin_flip() -> None:
    weights = fit_logistic(_rows([0.5, 0.5]), [True, False])
    assert weights.score(_rows([0.5])[0]) == pytest.approx(0.5)
    assert all(math.isfinite(c) for c in weights.coef)


def test_fit_rejects_mismatched_input() -> None:
    with pytest.raises(ValueError):
        fit_logistic([], [])
