"""Claim-support evaluation on WiCE and AttributionBench.

Datasets (``../shared/data``; each directory's SOURCE.md has the details):

- **WiCE** (``wice/claim/{dev,test}.jsonl.gz``): a Wikipedia claim, the
  sentences of the page it cites, a label in supported / partially_supported /
  not_supported, and sets of supporting sentence indexes. The evidence
  sentences become one passage joined by blank lines, so every evidence
  sentence is at least one pincite sentence and selected sentences map back to
  evidence indexes by offset.
- **AttributionBench** (``attributionbench/*.jsonl.gz``): a claim, its cited
  reference passages, attributable / not attributable. Splits ``dev``,
  ``test`` (the authors' 500-example in-distribution sample) and ``test_ood``.
  Records with no references are kept and scored fail-closed (unsupported).

Metrics (``evaluate_support``):

- **binary view**, supported vs not: WiCE ``partially_supported`` counts as
  *not supported* (a citation that backs only part of a claim does not back
  the claim; LLM-AggreFact maps WiCE the same way). A prediction is
  "supported" only for the ``supported`` verdict. Accuracy, macro-F1, and
  precision / recall of detecting the *not supported* claims (``unsupported``:
  any verdict but supported, i.e. flagged; ``rejected``: the ``unsupported``
  verdict alone, what the fail-closed policy rejects); and ROC-AUC of the
  score, which does not depend on thresholds.
- **3-way view** (WiCE only): accuracy and macro-F1 over the three labels, and
  precision / recall of the ``unsupported`` verdict for ``not_supported``.
- **sentence recall** (WiCE only): for claims with gold support sets, the share
  of the best-matching gold set that the checker's ``sentence_ids`` hit.

The headline numbers (``SupportEvalReport.metrics``) are the checker's own
verdicts: for the default checker, the shipped thresholds the answer path
uses. Thresholds re-tuned on the dataset's ``dev`` split (``tune_thresholds``,
never on the reported split) give a labelled extra, ``retuned_metrics``: what
the same scores would reach with thresholds fitted to this one dataset.
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import json
import re
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pincite.errors import ConfigurationError
from pincite.eval.support_report import expected_calibration_error, reliability
from pincite.ids import SpanRef, decode, encode_chunk
from pincite.support.base import (
    SupportChecker,
    SupportPassage,
    SupportResult,
    SupportVerdict,
    Thresholds,
)
from pincite.support.metrics import (
    REJECT_PRECISION,
    classification,
    detection,
    roc_auc,
    tune_thresholds,
)

__all__ = [
    "REJECT_PRECISION",
    "SupportEvalReport",
    "SupportExample",
    "evaluate_support",
    "load_attributionbench",
    "load_support_dataset",
    "load_wice",
    "roc_auc",
    "run_support_eval",
    "score_examples",
    "tune_thresholds",
]

_WICE_LABELS = {
    "supported": SupportVerdict.SUPPORTED,
    "partially_supported": SupportVerdict.PARTIAL,
    "not_supported": SupportVerdict.UNSUPPORTED,
}
_AB_LABELS = {
    "attributable": SupportVerdict.SUPPORTED,
    "not attributable": SupportVerdict.UNSUPPORTED,
}
_AB_FILES = {
    "dev": "dev_all_subset_balanced.jsonl.gz",
    "test": "test_all_subset_balanced_sampled500.jsonl.gz",
    "test_ood": "test_ood_all_subset_balanced.jsonl.gz",
}
_NS = uuid.UUID("5f1c1f0e-2a51-4b0c-9d59-1c2e3b7f0a11")  # fixed: example ids stay stable


@dataclass(frozen=True, slots=True)
class SupportExample:
    """One labelled (claim, cited passages) pair.

    ``gold_sentences`` (WiCE) are alternative sets of evidence-sentence indexes
    that support the claim; ``sentence_starts`` are the offsets of those
    evidence sentences in passage 0, for mapping predicted spans back.
    """

    id: str
    claim: str
    passages: tuple[SupportPassage, ...]
    label: SupportVerdict
    gold_sentences: tuple[frozenset[int], ...] = ()
    sentence_starts: tuple[int, ...] = ()
    source: str = ""


def _passage(dataset: str, example_id: str, k: int, text: str) -> SupportPassage:
    doc = str(uuid.uuid5(_NS, f"{dataset}:{example_id}:{k}"))
    chunk = str(uuid.uuid5(_NS, f"{dataset}:{example_id}:{k}:chunk"))
    hash16 = hashlib.sha256(text.encode()).hexdigest()[:16]
    return SupportPassage(encode_chunk(doc, hash16, chunk), text, 0)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        raise ConfigurationError(f"dataset file not found: {path}")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def load_wice(dataset_dir: Path, split: str) -> list[SupportExample]:
    """WiCE claim-level ``dev`` or ``test``; raises ``ConfigurationError`` for another split."""
    if split not in ("dev", "test"):
        raise ConfigurationError(f"WiCE has splits dev, test; got {split!r}")
    out = []
    for rec in _jsonl(Path(dataset_dir) / "claim" / f"{split}.jsonl.gz"):
        starts, pos = [], 0
        for sentence in rec["evidence"]:
            starts.append(pos)
            pos += len(sentence) + 2
        text = "\n\n".join(rec["evidence"])
        example_id = rec["meta"]["id"]
        out.append(
            SupportExample(
                id=example_id,
                claim=rec["claim"],
                passages=(_passage("wice", example_id, 0, text),),
                label=_WICE_LABELS[rec["label"]],
                gold_sentences=tuple(frozenset(s) for s in rec["supporting_sentences"] if s),
                sentence_starts=tuple(starts),
            )
        )
    return out


def load_attributionbench(dataset_dir: Path, split: str) -> list[SupportExample]:
    """AttributionBench ``dev``, ``test`` (ID sample) or ``test_ood``."""
    if split not in _AB_FILES:
        raise ConfigurationError(f"AttributionBench has splits {sorted(_AB_FILES)}; got {split!r}")
    out = []
    for rec in _jsonl(Path(dataset_dir) / _AB_FILES[split]):
        refs = [r for r in rec["references"] if r.strip()]
        out.append(
            SupportExample(
                id=rec["id"],
                claim=rec["claim"],
                passages=tuple(_passage("ab", rec["id"], k, r) for k, r in enumerate(refs)),
                label=_AB_LABELS[rec["attribution_label"]],
                source=rec["src_dataset"],
            )
        )
    return out


def load_support_dataset(dataset_dir: Path, split: str) -> tuple[str, list[SupportExample]]:
    """Recognise the dataset by its files; return its name and examples."""
    root = Path(dataset_dir)
    if (root / "claim").is_dir():
        return "wice", load_wice(root, split)
    if (root / _AB_FILES["dev"]).is_file():
        return "attributionbench", load_attributionbench(root, split)
    raise ConfigurationError(f"{root} is neither a WiCE nor an AttributionBench directory")


# -- metrics (pure) ---------------------------------------------------------


def _sentence_indexes(example: SupportExample, result: SupportResult) -> set[int]:
    hit: set[int] = set()
    starts = example.sentence_starts
    for sid in result.sentence_ids:
        ref = decode(sid)
        if isinstance(ref, SpanRef) and starts:
            hit.add(bisect.bisect_right(starts, ref.start) - 1)
    return hit


def evaluate_support(
    checker: SupportChecker,
    examples: Sequence[SupportExample],
    *,
    thresholds: Thresholds | None = None,
    results: Sequence[SupportResult] | None = None,
) -> dict[str, Any]:
    """Score ``examples`` (or reuse ``results``) and report the metrics in the module docstring.

    With ``thresholds``, verdicts are re-derived from the scores; otherwise the
    checker's own verdicts count.
    """
    if results is None:
        results = score_examples(checker, examples)
    verdicts = [thresholds.verdict(r.score) if thresholds else r.verdict for r in results]
    gold = [e.label for e in examples]
    not_supported_gold = [g != SupportVerdict.SUPPORTED for g in gold]
    not_supported_pred = [v != SupportVerdict.SUPPORTED for v in verdicts]
    report: dict[str, Any] = {
        "n": len(examples),
        "labels": {v.value: gold.count(v) for v in SupportVerdict},
    }
    report["binary"] = {
        **classification(not_supported_gold, not_supported_pred, (True, False)),
        "unsupported": detection(not_supported_gold, not_supported_pred),
        "rejected": detection(
            not_supported_gold, [v == SupportVerdict.UNSUPPORTED for v in verdicts]
        ),
        "auc": roc_auc([r.score for r in results], [g == SupportVerdict.SUPPORTED for g in gold]),
    }
    table = reliability([r.score for r in results], [g == SupportVerdict.SUPPORTED for g in gold])
    report["calibration"] = {"ece": expected_calibration_error(table), "bins": table}
    if SupportVerdict.PARTIAL in gold:
        report["three_way"] = {
            **classification(gold, verdicts, tuple(SupportVerdict)),
            "unsupported": detection(
                [g == SupportVerdict.UNSUPPORTED for g in gold],
                [v == SupportVerdict.UNSUPPORTED for v in verdicts],
            ),
        }
    with_gold = [(e, r) for e, r in zip(examples, results, strict=True) if e.gold_sentences]
    if with_gold:
        recalls, sizes = [], []
        for example, result in with_gold:
            hit = _sentence_indexes(example, result)
            recalls.append(max(len(hit & g) / len(g) for g in example.gold_sentences))
            sizes.append(len(result.sentence_ids))
        report["sentence_recall"] = sum(recalls) / len(recalls)
        report["sentences_per_claim"] = sum(sizes) / len(sizes)
    return report


def score_examples(
    checker: SupportChecker, examples: Sequence[SupportExample]
) -> list[SupportResult]:
    return [checker.check(e.claim, e.passages) for e in examples]


@dataclass(frozen=True, slots=True)
class SupportEvalReport:
    """One split's numbers: ``metrics`` with the checker's own (shipped) thresholds;
    ``retuned_metrics`` with ``thresholds`` re-tuned on ``tuned_on`` (a dev split)."""

    dataset: str
    split: str
    checker: str
    metrics: dict[str, Any]
    thresholds: Thresholds | None = None
    tuned_on: str | None = None
    retuned_metrics: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        t = self.thresholds
        return {
            "dataset": self.dataset,
            "split": self.split,
            "checker": self.checker,
            "thresholds_shipped": self.shipped_thresholds(),
            "metrics": self.metrics,
            "retuned": {
                "thresholds": {"partial": t.partial, "supported": t.supported},
                "tuned_on": self.tuned_on,
                "metrics": self.retuned_metrics,
            }
            if t
            else None,
        }

    def shipped_thresholds(self) -> dict[str, float] | None:
        """The checker's own thresholds, read from its repr (None for a checker without)."""
        found = re.search(r"partial=([\d.]+), supported=([\d.]+)", self.checker)
        return {"partial": float(found[1]), "supported": float(found[2])} if found else None

    def format(self) -> str:
        m = self.metrics
        b = m["binary"]
        parts = [
            f"{self.dataset}/{self.split} n={m['n']} checker={self.checker} (shipped thresholds)",
            f"binary acc={b['accuracy']:.3f} macroF1={b['macro_f1']:.3f} AUC={b['auc']:.3f} "
            f"flagged P={b['unsupported']['precision']:.3f} R={b['unsupported']['recall']:.3f} "
            f"rejected P={b['rejected']['precision']:.3f} R={b['rejected']['recall']:.3f}",
        ]
        if "three_way" in m:
            w = m["three_way"]
            parts.append(f"3-way acc={w['accuracy']:.3f} macroF1={w['macro_f1']:.3f}")
        if "calibration" in m:
            parts.append(f"calibration: expected calibration error {m['calibration']['ece']:.3f}")
        if "sentence_recall" in m:
            parts.append(
                f"sentence recall={m['sentence_recall']:.3f} ({m['sentences_per_claim']:.1f}/claim)"
            )
        if self.thresholds and self.retuned_metrics:
            o = self.retuned_metrics["binary"]
            parts.append(
                f"re-tuned on {self.tuned_on} (partial={self.thresholds.partial:.3f} "
                f"supported={self.thresholds.supported:.3f}; not what pincite ships): "
                f"binary acc={o['accuracy']:.3f} macroF1={o['macro_f1']:.3f} "
                f"rejected P={o['rejected']['precision']:.3f} R={o['rejected']['recall']:.3f}"
            )
        return "\n".join(parts)


def run_support_eval(
    dataset_dir: Path, *, checker: SupportChecker, split: str, tune: bool = True
) -> SupportEvalReport:
    """Evaluate ``checker`` on one split of WiCE or AttributionBench.

    The headline ``metrics`` judge by the checker's own verdicts. With ``tune``
    (the default) thresholds are also re-tuned on the dataset's ``dev`` split
    and applied to ``split`` for ``retuned_metrics``. Raises
    ``ConfigurationError`` for an unknown directory or split.
    """
    dataset, examples = load_support_dataset(dataset_dir, split)
    results = score_examples(checker, examples)
    metrics = evaluate_support(checker, examples, results=results)
    if not tune:
        return SupportEvalReport(dataset, split, repr(checker), metrics)
    dev = examples if split == "dev" else load_support_dataset(dataset_dir, "dev")[1]
    dev_results = results if split == "dev" else score_examples(checker, dev)
    thresholds = tune_thresholds(
        [r.score for r in dev_results],
        [e.label for e in dev],
        reject_precision=REJECT_PRECISION,
    )
    retuned = evaluate_support(checker, examples, thresholds=thresholds, results=results)
    return SupportEvalReport(
        dataset, split, repr(checker), metrics, thresholds, f"{dataset}/dev", retuned
    )


_CHECKERS = ("heuristic", "heuristic-lexical", "lexical-overlap")


def _make_checker(name: str) -> SupportChecker:
    from pincite.support.baseline import LexicalOverlapChecker
    from pincite.support.heuristic import HeuristicSupportChecker, default_support_checker

    if name == "heuristic":
        return default_support_checker()
    if name == "heuristic-lexical":
        return HeuristicSupportChecker()
    if name == "lexical-overlap":
        return LexicalOverlapChecker()
    raise ConfigurationError(f"unknown checker {name!r}; choose one of {list(_CHECKERS)}")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pincite.eval.support DATASET_DIR --split test [--checker NAME] [--json]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pincite.eval.support")
    parser.add_argument("dataset_dir", type=Path)
    parser.add_argument("--split", default="test", help="dev, test, or (AttributionBench) test_ood")
    parser.add_argument("--checker", default="heuristic", choices=_CHECKERS)
    parser.add_argument(
        "--no-tune",
        action="store_true",
        help="skip the extra numbers with thresholds re-tuned on dev",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run_support_eval(
        args.dataset_dir,
        checker=_make_checker(args.checker),
        split=args.split,
        tune=not args.no_tune,
    )
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.format())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
