"""tools/fit_support.py: the fit, its dev-only data, and the shipped constants it reproduces."""

from __future__ import annotations

import gzip
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest
from support_fakes import FakeEmbedder

from pincite.support.base import Thresholds
from pincite.support.baseline import BASELINE_THRESHOLDS
from pincite.support.heuristic import HeuristicSupportChecker
from pincite.support.scoring import FEATURES
from shared_paths import DATA

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fit_support.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_support", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fit_support", module)
    spec.loader.exec_module(module)
    return module


fit = _load_tool()


def _rows(values: list[float], second: float = 0.0) -> list[list[float]]:
    width = len(FEATURES)
    return [[v, second] + [0.0] * (width - 2) for v in values]


def test_fit_learns_the_direction_and_holds_fixed_coefficients() -> None:
    xs = [0.0, 0.1, 0.2, 0.3, 0.45, 0.55, 0.7, 0.8, 0.9, 1.0]
    ys = [x > 0.5 for x in xs]
    weights = fit.fit_logistic(_rows(xs, second=1.0), ys, l2=0.1, fixed={1: -0.7})
    assert weights.coef[0] > 2.0
    assert weights.coef[1] == -0.7
    assert weights.score(_rows([0.95], 1.0)[0]) > 0.5 > weights.score(_rows([0.05], 1.0)[0])


def test_balanced_uninformative_data_gives_a_coin_flip() -> None:
    weights = fit.fit_logistic(_rows([0.5, 0.5]), [True, False])
    assert weights.score(_rows([0.5])[0]) == pytest.approx(0.5)
    assert all(math.isfinite(c) for c in weights.coef)


def test_fit_rejects_mismatched_input() -> None:
    with pytest.raises(ValueError):
        fit.fit_logistic([], [])


# -- fit_default_weights reads dev splits only ------------------------------

FACTS = [
    ("The bridge opened in 1932 after four years of work.", "The bridge opened in 1932."),
    ("Marie Curie won the Nobel Prize in Physics in 1903.", "Curie won the physics prize in 1903."),
    (
        "The lake covers 120 square kilometres of the valley.",
        "The lake covers 120 square kilometres.",
    ),
    ("The company employs 4,000 people in three countries.", "The company employs 4,000 people."),
    ("The river freezes every winter near the northern town.", "The river freezes in winter."),
    ("The library holds two million books and old maps.", "The library holds two million books."),
]
UNRELATED = [
    "Penguins nest on the rocky southern islands.",
    "The orchestra toured Japan with a new violinist.",
    "Volcanic soil makes the vineyards unusually fertile.",
]


def _write(path: Path, records: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in records)


def _dev_only_data(root: Path) -> Path:
    wice, ab = [], []
    for i, (evidence, claim) in enumerate(FACTS):
        other = UNRELATED[i % len(UNRELATED)]
        wice.append(
            {
                "label": "supported",
                "supporting_sentences": [[0]],
                "claim": claim,
                "evidence": [evidence, other],
                "meta": {"id": f"w{i}"},
            }
        )
        wice.append(
            {
                "label": "not_supported",
                "supporting_sentences": [[]],
                "claim": other,
                "evidence": [evidence],
                "meta": {"id": f"wn{i}"},
            }
        )
        ab.append(
            {
                "claim": claim,
                "references": [evidence],
                "attribution_label": "attributable",
                "src_dataset": "X",
                "id": f"a{i}",
            }
        )
        ab.append(
            {
                "claim": other,
                "references": [evidence],
                "attribution_label": "not attributable",
                "src_dataset": "X",
                "id": f"an{i}",
            }
        )
    _write(root / "wice" / "claim" / "dev.jsonl.gz", wice)
    _write(root / "attributionbench" / "dev_all_subset_balanced.jsonl.gz", ab)
    # Test splits that cannot be read: touching one raises instead of fitting on it.
    for test in (
        "wice/claim/test.jsonl.gz",
        "attributionbench/test_all_subset_balanced_sampled500.jsonl.gz",
    ):
        (root / test).write_bytes(b"not gzip: a test split must never be read")
    return root


def test_fit_default_weights_fits_both_sets_on_dev_splits_only(tmp_path: Path) -> None:
    root = _dev_only_data(tmp_path)
    x, y, _, sources = fit.dev_features(root, HeuristicSupportChecker(FakeEmbedder()))
    assert len(x) == 4 * len(FACTS) and sum(y) == 2 * len(FACTS)
    assert sources.count("wice") == sources.count("ab") == 2 * len(FACTS)
    fitted = fit.fit_default_weights(root, FakeEmbedder())
    assert set(fitted) == {"WITH_EMBEDDER", "LEXICAL"}
    cosine = FEATURES.index("cosine")
    for name, (weights, thresholds) in fitted.items():
        assert 0.0 <= thresholds.partial <= thresholds.supported <= 1.0
        rows = x if name == "WITH_EMBEDDER" else [fit.without_embedding(r) for r in x]
        scores = [weights.score(r) for r in rows]
        supported = [s for s, label in zip(scores, y, strict=True) if label]
        unsupported = [s for s, label in zip(scores, y, strict=True) if not label]
        assert min(supported) > max(unsupported), name  # separable toy data: a clean split
        # Platt-calibrated on the dev rows: their mean score is their supported share.
        assert sum(scores) / len(scores) == pytest.approx(sum(y) / len(y), abs=1e-3), name
    for column in fit.EMBEDDING_COLUMNS:
        assert fitted["LEXICAL"][0].coef[column] == 0.0
    assert fitted["WITH_EMBEDDER"][0].coef[cosine] != 0.0


def test_calibration_rescales_log_odds_to_the_observed_rate() -> None:
    # Scores all say 0.5, yet three in four such rows are supported: calibrated, 0.75.
    weights = fit.fit_logistic(_rows([0.5, 0.5]), [True, False])
    calibrated = fit.calibrate(weights, _rows([0.5] * 4), [True, True, True, False])
    assert calibrated.score(_rows([0.5])[0]) == pytest.approx(0.75, abs=1e-6)


def test_sample_weight_counts_a_row_as_that_many_rows() -> None:
    twice = fit.fit_logistic(_rows([0.2, 0.8, 0.8]), [False, True, False], l2=0.1)
    weighted = fit.fit_logistic(_rows([0.2, 0.8]), [False, True], l2=0.1, sample_weight=[1.0, 1.0])
    doubled = fit.fit_logistic(
        _rows([0.2, 0.8, 0.8]), [False, True, False], l2=0.1, sample_weight=[1, 1, 1]
    )
    assert twice == doubled
    assert weighted.coef[0] != twice.coef[0]


def test_drift_names_each_constant_outside_the_tolerance() -> None:
    ships = fit.shipped()
    assert fit.drift(ships, ships) == []
    weights, thresholds = ships["LEXICAL"]
    coef = list(weights.coef)
    coef[0] += fit.TOLERANCE["coef"] * 2
    moved = type(weights)(weights.bias + fit.TOLERANCE["coef"] / 2, tuple(coef))
    nudged = Thresholds(thresholds.partial, thresholds.supported + fit.TOLERANCE["threshold"] * 2)
    lines = fit.drift(ships | {"LEXICAL": (moved, nudged)}, ships)
    assert lines == [
        f"WEIGHTS_LEXICAL {FEATURES[0]}: shipped {weights.coef[0]:.3f}, fitted {coef[0]:.3f}",
        f"THRESHOLDS_LEXICAL supported: shipped {thresholds.supported:.3f}, "
        f"fitted {nudged.supported:.3f}",
    ]


# -- the shipped constants come out of the fitting command ------------------


@pytest.mark.slow
def test_refit_on_the_shared_dev_splits_reproduces_the_shipped_constants() -> None:
    if not (DATA / "wice").is_dir() or not (DATA / "attributionbench").is_dir():
        pytest.skip(f"WiCE / AttributionBench not under {DATA} (set PINCITE_SHARED)")
    from pincite.support.heuristic import default_support_checker

    embedder = default_support_checker().embedder
    assert embedder is not None
    fitted = fit.fit_default_weights(DATA, embedder)
    assert fit.drift(fitted, fit.shipped()) == []
    baseline = fit.baseline_thresholds(DATA)
    assert fit.threshold_drift("BASELINE_THRESHOLDS", BASELINE_THRESHOLDS, baseline) == []
