"""Claim-support verification: does a cited passage back the claim that cites it?

``HeuristicSupportChecker`` is the offline default (``default_support_checker``
wires it to the quantised default model); ``LexicalOverlapChecker`` is the baseline it
is measured against; ``NLISupportChecker`` and ``JudgeSupportChecker`` are
opt-in backends for a local NLI model and for a model-as-judge.
"""

from pincite.support.base import (
    PassageSupport,
    SupportChecker,
    SupportPassage,
    SupportResult,
    SupportVerdict,
    Thresholds,
)
from pincite.support.baseline import LexicalOverlapChecker
from pincite.support.heuristic import (
    HeuristicSupportChecker,
    default_support_checker,
    support_checker_for,
)
from pincite.support.judge import JudgeRequest, JudgeSupportChecker
from pincite.support.nli import NLISupportChecker

__all__ = [
    "HeuristicSupportChecker",
    "JudgeRequest",
    "JudgeSupportChecker",
    "LexicalOverlapChecker",
    "NLISupportChecker",
    "PassageSupport",
    "SupportChecker",
    "SupportPassage",
    "SupportResult",
    "SupportVerdict",
    "Thresholds",
    "default_support_checker",
    "support_checker_for",
]
