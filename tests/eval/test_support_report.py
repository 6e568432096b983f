"""Reliability bins and the HTML page of `pincite eval support --html`."""

from __future__ import annotations

import pytest

from pincite.eval.support_report import expected_calibration_error, reliability, render_html


def test_reliability_bins_by_hand() -> None:
    table = reliability([0.05, 0.15, 0.12, 0.95], [False, True, False, True])
    assert [(row["lo"], row["n"]) for row in table] == [(0.0, 1), (0.1, 2), (0.9, 1)]
    assert table[1]["score"] == pytest.approx(0.135)
    assert table[1]["supported"] == 0.5
    # |0.05 - 0| + 2 * |0.135 - 0.5| + |0.95 - 1|, over 4 claims
    assert expected_calibration_error(table) == pytest.approx((0.05 + 0.73 + 0.05) / 4)


def test_a_score_of_one_lands_in_the_last_bin() -> None:
    assert reliability([1.0], [True])[0]["lo"] == 0.9


def test_the_page_shows_the_diagram_and_the_numbers() -> None:
    pytest.importorskip("matplotlib")
    table = reliability([0.1, 0.9], [False, True])
    detection = {"precision": 0.5, "recall": 1.0}
    report = {
        "checker": "HeuristicSupportChecker(...)",
        "thresholds_shipped": {"partial": 0.1, "supported": 0.5},
        "metrics": {
            "n": 2,
            "binary": {"macro_f1": 1.0, "auc": 1.0, "unsupported": detection,
                       "rejected": detection},
            "calibration": {"ece": expected_calibration_error(table), "bins": table},
        },
    }  # fmt: skip
    page = render_html(report, "support")
    assert "<svg" in page and "expected calibration error 0.100" in page
    assert page.count("<tr>") == 3  # header and two bins
