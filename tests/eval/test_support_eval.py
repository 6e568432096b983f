from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from pincite.errors import ConfigurationError
from pincite.eval.support import (
    SupportExample,
    evaluate_support,
    load_attributionbench,
    load_wice,
    roc_auc,
    run_support_eval,
    tune_thresholds,
)
from pincite.support.base import SupportPassage, SupportResult, SupportVerdict, Thresholds
from pincite.support.baseline import LexicalOverlapChecker

S, P, U = SupportVerdict.SUPPORTED, SupportVerdict.PARTIAL, SupportVerdict.UNSUPPORTED


class Scripted:
    """A checker that answers from a table keyed by claim."""

    def __init__(self, answers: dict[str, SupportResult]) -> None:
        self.answers = answers

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        return self.answers[claim]


def _write_jsonl_gz(path: Path, records: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record) + "\n")


def _wice(tmp_path: Path) -> Path:
    root = tmp_path / "wice"
    evidence = ["Title line", "Keith was born in 1961.", "He died in 2024."]
    records = [
        {"label": "supported", "supporting_sentences": [[1]], "claim": "Keith was born in 1961.",
         "evidence": evidence, "meta": {"id": "w1"}},
        {"label": "partially_supported", "supporting_sentences": [[1], [2]],
         "claim": "Keith was born in 1961 in Oklahoma.", "evidence": evidence,
         "meta": {"id": "w2"}},
        {"label": "not_supported", "supporting_sentences": [[]],
         "claim": "Keith sang opera in Milan.", "evidence": evidence, "meta": {"id": "w3"}},
    ]  # fmt: skip
    for split in ("dev", "test"):
        _write_jsonl_gz(root / "claim" / f"{split}.jsonl.gz", records)
    return root


def test_report_math_on_a_tiny_synthetic_set() -> None:
    gold = [S, S, P, U, U]
    predicted = [S, P, U, U, S]
    examples = [SupportExample(str(i), f"claim {i}", (), g) for i, g in enumerate(gold)]
    checker = Scripted({f"claim {i}": SupportResult(v, 0.5) for i, v in enumerate(predicted)})
    report = evaluate_support(checker, examples)
    binary = report["binary"]
    # not-supported gold: F F T T T; flagged (verdict != supported): F T T T F
    assert binary["accuracy"] == pytest.approx(3 / 5)
    assert binary["macro_f1"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert binary["unsupported"] == pytest.approx(
        {"precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3}
    )
    # rejected (verdict == unsupported): F F T T F
    assert binary["rejected"]["precision"] == pytest.approx(1.0)
    assert binary["rejected"]["recall"] == pytest.approx(2 / 3)
    three = report["three_way"]
    assert three["accuracy"] == pytest.approx(2 / 5)
    assert three["macro_f1"] == pytest.approx((1 / 2 + 0 + 1 / 2) / 3)
    assert three["unsupported"]["precision"] == pytest.approx(1 / 2)
    assert three["unsupported"]["recall"] == pytest.approx(1 / 2)
    assert report["labels"] == {"supported": 2, "partial": 1, "unsupported": 2}


def test_thresholds_rederive_verdicts_from_scores() -> None:
    examples = [SupportExample("a", "a", (), S), SupportExample("b", "b", (), U)]
    checker = Scripted({"a": SupportResult(U, 0.9), "b": SupportResult(S, 0.1)})
    assert evaluate_support(checker, examples)["binary"]["accuracy"] == 0.0
    tuned = evaluate_support(checker, examples, thresholds=Thresholds(0.5, 0.5))
    assert tuned["binary"]["accuracy"] == 1.0


def test_tune_thresholds() -> None:
    assert tune_thresholds([0.1, 0.2, 0.6, 0.8, 0.9], [U, U, S, S, S]) == Thresholds(0.4, 0.4)
    assert tune_thresholds([0.1, 0.3, 0.5, 0.9], [U, P, P, S]) == Thresholds(0.2, 0.7)
    # reject_precision: the highest cut below which all claims (precision 1.0) are not supported
    tuned = tune_thresholds([0.1, 0.2, 0.3, 0.9], [U, P, S, S], reject_precision=1.0)
    assert tuned.partial == pytest.approx(0.25)
    with pytest.raises(ValueError):
        tune_thresholds([0.1], [])


def test_wice_loader_and_sentence_recall(tmp_path: Path) -> None:
    examples = load_wice(_wice(tmp_path), "test")
    assert [e.label for e in examples] == [S, P, U]
    first = examples[0]
    text = first.passages[0].text
    assert text == "Title line\n\nKeith was born in 1961.\n\nHe died in 2024."
    assert first.sentence_starts == (0, 12, 37)
    assert first.gold_sentences == (frozenset({1}),)
    assert examples[2].gold_sentences == ()
    passage = first.passages[0]
    hit = SupportResult(S, 0.9, (passage.span_id(12, 35),))
    miss = SupportResult(S, 0.9, (passage.span_id(37, 53), passage.span_id(0, 10)))
    checker = Scripted({examples[0].claim: hit, examples[1].claim: miss, examples[2].claim: miss})
    report = evaluate_support(checker, examples)
    # w1: gold {1} hit -> 1.0; w2: gold sets {1} / {2}, hit {0, 2} -> best 1.0
    assert report["sentence_recall"] == pytest.approx(1.0)
    assert report["sentences_per_claim"] == pytest.approx(1.5)


def test_attributionbench_loader_keeps_records_without_references(tmp_path: Path) -> None:
    root = tmp_path / "ab"
    records = [
        {"claim": "c1", "references": ["Ref one.", "  "], "attribution_label": "attributable",
         "src_dataset": "HAGRID", "id": "x1"},
        {"claim": "c2", "references": [], "attribution_label": "not attributable",
         "src_dataset": "BEGIN", "id": "x2"},
    ]  # fmt: skip
    _write_jsonl_gz(root / "test_ood_all_subset_balanced.jsonl.gz", records)
    examples = load_attributionbench(root, "test_ood")
    assert [len(e.passages) for e in examples] == [1, 0]
    assert [e.label for e in examples] == [S, U]
    assert examples[0].source == "HAGRID"
    with pytest.raises(ConfigurationError, match="splits"):
        load_attributionbench(root, "train")


def test_run_support_eval_tunes_on_dev_and_reports(tmp_path: Path) -> None:
    report = run_support_eval(_wice(tmp_path), checker=LexicalOverlapChecker(), split="test")
    assert report.dataset == "wice" and report.tuned_on == "wice/dev"
    assert report.metrics["n"] == 3 and "three_way" in report.metrics
    assert report.retuned_metrics["n"] == 3
    assert "wice/test n=3" in report.format()
    assert json.loads(json.dumps(report.to_dict()))["split"] == "test"
    untuned = run_support_eval(
        _wice(tmp_path), checker=LexicalOverlapChecker(), split="test", tune=False
    )
    assert untuned.thresholds is None and untuned.retuned_metrics == {}
    assert untuned.to_dict()["retuned"] is None and "re-tuned" not in untuned.format()
    with pytest.raises(ConfigurationError):
        run_support_eval(tmp_path, checker=LexicalOverlapChecker(), split="test")


def test_roc_auc_by_hand() -> None:
    assert roc_auc([0.1, 0.4, 0.35, 0.8], [False, False, True, True]) == pytest.approx(0.75)
    assert roc_auc([0.5, 0.5], [True, False]) == pytest.approx(0.5)  # a tie counts half
    assert roc_auc([0.2, 0.9], [True, True]) == 0.5  # one class only


# -- leakage: thresholds come from dev, numbers from the reported split ------
# Dev and test below are told apart by their scores: on dev the supported claims
# score 0.8 and the rest 0.2, on test 0.35 and 0.1. Tuning on dev puts the
# supported cut at 0.5 (every test claim then reads "not supported"); tuning on
# test would put it at 0.225 and classify test perfectly.

_DEV_WICE = [
    ("dev supported a", "supported", 0.8),
    ("dev supported b", "supported", 0.8),
    ("dev partial", "partially_supported", 0.2),
    ("dev not", "not_supported", 0.2),
]
_TEST_WICE = [("test supported", "supported", 0.35), ("test not a", "not_supported", 0.1),
              ("test not b", "not_supported", 0.1)]  # fmt: skip


def _scored_wice(tmp_path: Path) -> tuple[Path, Scripted]:
    root = tmp_path / "wice"
    for split, rows in (("dev", _DEV_WICE), ("test", _TEST_WICE)):
        records = [
            {"label": label, "supporting_sentences": [[0]] if label != "not_supported" else [[]],
             "claim": claim, "evidence": [f"Evidence for {claim}."], "meta": {"id": claim}}
            for claim, label, _ in rows
        ]  # fmt: skip
        _write_jsonl_gz(root / "claim" / f"{split}.jsonl.gz", records)
    # The scripted verdict (always "supported") disagrees with every cut on purpose.
    answers = {claim: SupportResult(S, score) for claim, _, score in _DEV_WICE + _TEST_WICE}
    return root, Scripted(answers)


def test_thresholds_are_tuned_on_dev_scores_never_on_the_reported_split(tmp_path: Path) -> None:
    root, checker = _scored_wice(tmp_path)
    report = run_support_eval(root, checker=checker, split="test")
    assert report.thresholds is not None and report.thresholds.supported == pytest.approx(0.5)
    # What leakage would have produced: a different cut, and a perfect score.
    on_test = tune_thresholds(
        [s for *_, s in _TEST_WICE], [_label(lab) for _, lab, _ in _TEST_WICE]
    )
    assert on_test.supported == pytest.approx(0.225)
    # The re-tuned numbers are test's (3 claims), judged with dev's cut: the one
    # supported test claim (0.35 < 0.5) is missed.
    retuned = report.retuned_metrics
    assert retuned["n"] == 3
    assert retuned["labels"] == {"supported": 1, "partial": 0, "unsupported": 2}
    assert retuned["binary"]["accuracy"] == pytest.approx(2 / 3)
    assert "re-tuned on wice/dev (partial=" in report.format()


def test_headline_numbers_are_the_checkers_own_verdicts(tmp_path: Path) -> None:
    """The shipped thresholds decide the headline; re-tuned ones are only the extra."""
    root, checker = _scored_wice(tmp_path)
    report = run_support_eval(root, checker=checker, split="test")
    # The checker calls every claim "supported": right on the one supported test
    # claim only. Dev's cuts would reject the two unsupported ones.
    assert report.metrics["binary"]["accuracy"] == pytest.approx(1 / 3)
    assert report.metrics["binary"]["rejected"]["recall"] == 0.0
    assert report.retuned_metrics["binary"]["rejected"]["recall"] == 1.0
    shown = report.format().splitlines()
    assert shown[0].endswith("(shipped thresholds)") and shown[-1].startswith("re-tuned on")
    assert report.to_dict()["metrics"] == report.metrics


def test_dev_split_is_tuned_and_reported_on_itself(tmp_path: Path) -> None:
    root, checker = _scored_wice(tmp_path)
    report = run_support_eval(root, checker=checker, split="dev")
    assert report.tuned_on == "wice/dev" and report.retuned_metrics["n"] == 4
    assert report.retuned_metrics["binary"]["accuracy"] == 1.0


def test_attributionbench_thresholds_come_from_its_dev_file(tmp_path: Path) -> None:
    root = tmp_path / "ab"
    files = {
        "dev_all_subset_balanced.jsonl.gz": [("ab dev yes", "attributable", 0.9),
                                             ("ab dev no", "not attributable", 0.7)],
        "test_all_subset_balanced_sampled500.jsonl.gz": [("ab test yes", "attributable", 0.4),
                                                         ("ab test no", "not attributable", 0.2)],
    }  # fmt: skip
    answers = {}
    for name, rows in files.items():
        records = [
            {"claim": claim, "references": [f"Ref for {claim}."], "attribution_label": label,
             "src_dataset": "X", "id": claim}
            for claim, label, _ in rows
        ]  # fmt: skip
        _write_jsonl_gz(root / name, records)
        answers |= {claim: SupportResult(U, score) for claim, _, score in rows}
    report = run_support_eval(root, checker=Scripted(answers), split="test")
    assert report.tuned_on == "attributionbench/dev"
    assert report.thresholds is not None and report.thresholds.supported == pytest.approx(0.8)
    retuned = report.retuned_metrics
    assert retuned["n"] == 2 and retuned["binary"]["accuracy"] == pytest.approx(0.5)


def _label(name: str) -> SupportVerdict:
    return {"supported": S, "partially_supported": P, "not_supported": U}[name]


def test_flag_recall_cut_is_the_lowest_cut_reaching_the_recall() -> None:
    from pincite.support.metrics import flag_recall_cut

    scores = [0.1, 0.2, 0.3, 0.4, 0.6, 0.8]
    positive = [True, True, False, True, True, False]
    assert flag_recall_cut(scores, positive, 0.75) == pytest.approx(0.5)  # 3 of 4 below 0.5
    assert flag_recall_cut(scores, positive, 1.0) == pytest.approx(0.7)
    assert flag_recall_cut(scores, [False] * 6, 0.9) == 0.0
