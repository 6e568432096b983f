"""A claim of several sentences, checked as the answer path reads it: each sentence must hold.

The support checkers score one statement against its closest evidence. A
claim that quotes a run of a passage (a lead-in with its list, a definition
with the sentence completing it) or an LLM's two-sentence claim would be
scored as one long statement against a single closest sentence and judged
unsupported although every sentence of it is in the passage. Judging each
sentence and keeping the weakest verdict is both fairer to a true run and
stricter with a claim that adds one false sentence to a true one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pincite.sentences import sentence_spans
from pincite.support.base import SupportChecker, SupportPassage, SupportResult, SupportVerdict

__all__ = ["check_claim"]

# A sentence this short ("The potential impact is LOW if—") is no statement of its own.
_MIN_WORDS = 4
_RANK = {SupportVerdict.UNSUPPORTED: 0, SupportVerdict.PARTIAL: 1, SupportVerdict.SUPPORTED: 2}


def check_claim(
    checker: SupportChecker, claim: str, passages: Sequence[SupportPassage]
) -> SupportResult:
    """``checker.check`` of the claim; of each of its sentences when it has several."""
    parts = [claim[s:e] for s, e in sentence_spans(claim)] if claim.strip() else []
    parts = [part for part in parts if len(part.split()) >= _MIN_WORDS]
    if len(parts) < 2:
        return checker.check(claim, passages)
    results = [checker.check(part, passages) for part in parts]
    weakest = min(results, key=lambda r: (_RANK[r.verdict], r.score))
    ids = dict.fromkeys(i for r in results for i in r.sentence_ids)
    return replace(weakest, sentence_ids=tuple(ids))
