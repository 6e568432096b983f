"""Pure metrics for claim-support evaluation: F1, ROC-AUC, and threshold tuning.

No I/O and no checker here: scores and labels in, numbers out, so each
function is tested by hand-computed examples (``tests/eval/test_support_eval.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from pincite.support.base import SupportVerdict, Thresholds

__all__ = [
    "FLAG_RECALL",
    "REJECT_PRECISION",
    "classification",
    "detection",
    "flag_recall_cut",
    "roc_auc",
    "tune_thresholds",
]

#: The shipped ``partial`` thresholds, and ``run_support_eval``'s, are the
#: highest score below which at least this share of dev claims are in fact not
#: supported, so the fail-closed policy rejects only on a confident verdict.
#: 0.90 was tried in issue 19's third round and kept off: it was picked after
#: both test outcomes had been seen, so it stays at the value set before them.
REJECT_PRECISION = 0.85

#: The shipped ``supported`` thresholds flag (call partial or worse) at least
#: this share of WiCE dev claims that are not fully supported: issue 19's
#: operating point (not-supported recall 0.90 at precision >= 0.70).
FLAG_RECALL = 0.90


def _f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def classification(
    gold: Sequence[Any], pred: Sequence[Any], classes: Sequence[Any]
) -> dict[str, float]:
    """Accuracy and macro-F1 over ``classes`` (a class absent from gold and pred counts 0)."""
    n = len(gold)
    correct = sum(g == p for g, p in zip(gold, pred, strict=True))
    f1s = []
    for c in classes:
        tp = sum(g == c and p == c for g, p in zip(gold, pred, strict=True))
        fp = sum(g != c and p == c for g, p in zip(gold, pred, strict=True))
        fn = sum(g == c and p != c for g, p in zip(gold, pred, strict=True))
        f1s.append(_f1(tp, fp, fn)[2])
    return {"accuracy": correct / n if n else 0.0, "macro_f1": sum(f1s) / len(f1s)}


def detection(gold: Sequence[bool], pred: Sequence[bool]) -> dict[str, float]:
    tp = sum(g and p for g, p in zip(gold, pred, strict=True))
    fp = sum(p and not g for g, p in zip(gold, pred, strict=True))
    fn = sum(g and not p for g, p in zip(gold, pred, strict=True))
    precision, recall, f1 = _f1(tp, fp, fn)
    return {"precision": precision, "recall": recall, "f1": f1}


def roc_auc(scores: Sequence[float], positive: Sequence[bool]) -> float:
    """Area under the ROC curve: P(a random positive outscores a random negative), ties half.

    Mann-Whitney U over average ranks; 0.5 when either class is empty.
    """
    n_pos = sum(positive)
    n_neg = len(positive) - n_pos
    if not n_pos or not n_neg:
        return 0.5
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(r for r, p in zip(ranks, positive, strict=True) if p)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def _best_cut(scores: Sequence[float], positive: Sequence[bool], *, above: bool) -> float:
    """The threshold maximising binary macro-F1 of ``score >= t`` (``<`` unless ``above``).

    Candidates are midpoints between consecutive distinct scores, plus 0 and 1;
    ties go to the lowest threshold.
    """
    values = sorted(set(scores))
    candidates = [0.0] + [(a + b) / 2 for a, b in itertools.pairwise(values)] + [1.0]
    best_t, best_f1 = 0.0, -1.0
    for t in candidates:
        pred = [(s >= t) if above else (s < t) for s in scores]
        f1 = classification(positive, pred, (True, False))["macro_f1"]
        if f1 > best_f1 + 1e-12:
            best_t, best_f1 = t, f1
    return best_t


def tune_thresholds(
    scores: Sequence[float],
    labels: Sequence[SupportVerdict],
    *,
    reject_precision: float | None = None,
) -> Thresholds:
    """Dev-split thresholds for a checker's scores (pure; use dev labels only).

    ``supported`` maximises macro-F1 of supported vs not. ``partial`` (at most
    ``supported``) maximises macro-F1 of unsupported vs not; with
    ``reject_precision`` it is instead the highest cut below which at least
    that share of claims are not supported (0 when no cut reaches it), so that
    ``unsupported`` verdicts are rare and mostly right.
    """
    if len(scores) != len(labels) or not scores:
        raise ValueError("tune_thresholds needs one label per score and at least one score")
    hi = _best_cut(scores, [lab == SupportVerdict.SUPPORTED for lab in labels], above=True)
    if reject_precision is None:
        lo = _best_cut(scores, [lab == SupportVerdict.UNSUPPORTED for lab in labels], above=False)
    else:
        lo = _precise_cut(
            scores, [lab != SupportVerdict.SUPPORTED for lab in labels], reject_precision
        )
    return Thresholds(partial=min(lo, hi), supported=hi)


def _precise_cut(scores: Sequence[float], positive: Sequence[bool], precision: float) -> float:
    """The highest midpoint ``t`` where ``score < t`` finds ``positive`` with >= ``precision``."""
    ranked = sorted(zip(scores, positive, strict=True))
    best, hits = 0.0, 0
    for k, (score, is_positive) in enumerate(ranked):
        hits += is_positive
        following = ranked[k + 1][0] if k + 1 < len(ranked) else 1.0
        if following > score and hits / (k + 1) >= precision:
            best = (score + following) / 2
    return best


def flag_recall_cut(scores: Sequence[float], positive: Sequence[bool], recall: float) -> float:
    """The lowest midpoint ``t`` where ``score < t`` finds at least ``recall`` of ``positive``.

    1.0 when no cut reaches it (every score flagged); 0.0 for no positives.
    """
    if len(scores) != len(positive):
        raise ValueError("flag_recall_cut needs one label per score")
    total = sum(positive)
    if not total:
        return 0.0
    ranked = sorted(zip(scores, positive, strict=True))
    hits = 0
    for k, (score, is_positive) in enumerate(ranked):
        hits += is_positive
        following = ranked[k + 1][0] if k + 1 < len(ranked) else 1.0
        if following > score and hits / total >= recall:
            return (score + following) / 2
    return 1.0
