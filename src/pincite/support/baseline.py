"""The baseline support checker: the share of the claim's words in its best sentence.

Kept to show what the heuristic checker (``support/heuristic.py``) adds; its
thresholds come out of the same fit (`python tools/fit_support.py
../shared/data`) on the same dev splits.
"""

from __future__ import annotations

from collections.abc import Sequence

from pincite.support.base import SupportPassage, SupportResult, Thresholds
from pincite.support.scoring import analyse, sentence_ids

__all__ = ["BASELINE_THRESHOLDS", "LexicalOverlapChecker"]

BASELINE_THRESHOLDS = Thresholds(partial=0.078, supported=0.469)


class LexicalOverlapChecker:
    """Baseline: the share of the claim's content words in the single best sentence.

    No weighting, numbers, negation or embeddings; ``sentence_ids`` is that one
    sentence. Kept to show what the heuristic checker adds.
    """

    def __init__(self, thresholds: Thresholds = BASELINE_THRESHOLDS) -> None:
        self.thresholds = thresholds

    def __repr__(self) -> str:
        return f"LexicalOverlapChecker(thresholds={self.thresholds})"

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        analysis = analyse(claim, [p.text for p in passages])
        terms = analysis.claim_terms
        best_i, best = -1, 0.0
        for i, sentence in enumerate(analysis.sentences):
            recall = len(terms & sentence.terms) / len(terms) if terms else 0.0
            if recall > best:
                best_i, best = i, recall
        ids = sentence_ids(passages, analysis, [best_i]) if best_i >= 0 else ()
        return SupportResult(self.thresholds.verdict(best), best, ids)
