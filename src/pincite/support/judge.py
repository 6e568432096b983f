"""Model-as-judge support checking through the configured generator.

``JudgeSupportChecker`` numbers the cited passages' sentences, asks a model
(through a caller-supplied function that sends one forced tool call) for a
structured verdict, and validates the answer strictly. As everywhere in
pincite, the model returns *numbers*: they are mapped back to sentences by
enumeration, numbers out of range are dropped, and every sentence id is built
from the stored passage, never from model text.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pincite.errors import GeneratorError
from pincite.sentences import sentence_spans
from pincite.support.base import SupportPassage, SupportResult, SupportVerdict

__all__ = ["JUDGE_TOOL", "JudgeRequest", "JudgeSupportChecker", "parse_judgement"]

JUDGE_TOOL: dict[str, Any] = {
    "name": "record_support_verdict",
    "description": "Record whether the numbered sentences support the claim.",
    "parameters": {
        "type": "object",
        "properties": {
            "verdict": {
                "type": "string",
                "enum": [v.value for v in SupportVerdict],
                "description": "supported: every part of the claim is stated or directly implied "
                "by the sentences; partial: some parts are; unsupported: none, or contradicted.",
            },
            "score": {
                "type": "number",
                "minimum": 0,
                "maximum": 1,
                "description": "Confidence that the sentences support the whole claim.",
            },
            "sentences": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "Numbers of the sentences that support the claim.",
            },
            "reason": {"type": "string", "description": "One short sentence."},
        },
        "required": ["verdict", "score", "sentences"],
        "additionalProperties": False,
    },
}

_SYSTEM = (
    "You check citations. Decide whether the numbered sentences support the claim, using only "
    "those sentences, not your own knowledge. Answer only by calling the tool."
)
_KEYS = frozenset({"verdict", "score", "sentences", "reason"})


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """One forced tool call: the model must call ``tool['name']`` with ``tool['parameters']``."""

    system: str
    prompt: str
    tool: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(JUDGE_TOOL))


@dataclass(frozen=True, slots=True)
class _Numbered:
    passage: int
    start: int
    end: int


def parse_judgement(
    answer: object, n_sentences: int
) -> tuple[SupportVerdict, float, list[int], list[str]]:
    """Validate a judge's tool arguments; return verdict, score, 0-based sentences, notes.

    Raises ``GeneratorError`` for anything outside ``JUDGE_TOOL``'s schema: not
    an object, unknown or missing keys, a verdict outside the enum, a score
    that is not a number in [0, 1], sentence numbers that are not integers.
    Numbers outside 1..``n_sentences`` are dropped (and noted), never clamped.
    """
    if not isinstance(answer, Mapping):
        raise GeneratorError(f"judge answer must be an object, got {type(answer).__name__}")
    unknown = sorted(str(k) for k in answer if k not in _KEYS)
    if unknown:
        raise GeneratorError(f"judge answer has unknown keys {unknown}; allowed: {sorted(_KEYS)}")
    missing = sorted(k for k in ("verdict", "score", "sentences") if k not in answer)
    if missing:
        raise GeneratorError(f"judge answer is missing {missing}")
    raw_verdict = answer["verdict"]
    try:
        verdict = SupportVerdict(raw_verdict)
    except ValueError:
        allowed = [v.value for v in SupportVerdict]
        raise GeneratorError(f"judge verdict {raw_verdict!r} is not one of {allowed}") from None
    score = answer["score"]
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise GeneratorError(f"judge score must be a number, got {score!r}")
    if not 0.0 <= score <= 1.0:
        raise GeneratorError(f"judge score must be in [0, 1], got {score!r}")
    numbers = answer["sentences"]
    if not isinstance(numbers, list) or any(
        isinstance(n, bool) or not isinstance(n, int) for n in numbers
    ):
        raise GeneratorError(f"judge sentences must be a list of integers, got {numbers!r}")
    reason = answer.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise GeneratorError(f"judge reason must be a string, got {reason!r}")
    kept = sorted({n - 1 for n in numbers if 1 <= n <= n_sentences})
    dropped = sorted({n for n in numbers if not 1 <= n <= n_sentences})
    notes = [f"judge: {reason}"] if reason else []
    if dropped:
        notes.append(f"dropped sentence numbers outside 1..{n_sentences}: {dropped}")
    return verdict, float(score), kept, notes


class JudgeSupportChecker:
    """Asks a model, through ``generator_call``, whether the passages support a claim.

    ``generator_call(request)`` must send ``request`` as one forced tool call
    and return the tool call's arguments (a dict); it raises ``GeneratorError``
    when the endpoint fails. At most ``max_sentences`` sentences are numbered
    (in passage order); the rest are not shown to the judge.

    A ``supported`` or ``partial`` verdict that names no valid sentence is
    lowered to ``unsupported``: support that cannot be pinned to a sentence is
    not support (fail closed). No passages means ``unsupported`` with no model call.
    """

    def __init__(
        self,
        generator_call: Callable[[JudgeRequest], Mapping[str, Any]],
        *,
        max_sentences: int = 200,
    ) -> None:
        self.generator_call = generator_call
        self.max_sentences = max_sentences

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        if not passages:
            return SupportResult(SupportVerdict.UNSUPPORTED, 0.0, reasons=("no passage is cited",))
        numbered = [
            _Numbered(p, s, e)
            for p, passage in enumerate(passages)
            for s, e in sentence_spans(passage.text)
        ]
        shown = numbered[: self.max_sentences]
        answer = self.generator_call(JudgeRequest(_SYSTEM, _prompt(claim, passages, shown)))
        verdict, score, kept, notes = parse_judgement(answer, len(shown))
        if verdict is not SupportVerdict.UNSUPPORTED and not kept:
            notes.append(f"judge said {verdict.value} but named no valid sentence")
            verdict = SupportVerdict.UNSUPPORTED
        if len(numbered) > len(shown):
            notes.append(f"only the first {len(shown)} of {len(numbered)} sentences were judged")
        ids = tuple(passages[shown[i].passage].span_id(shown[i].start, shown[i].end) for i in kept)
        return SupportResult(verdict, score, ids, reasons=tuple(notes))


def _prompt(claim: str, passages: Sequence[SupportPassage], shown: Sequence[_Numbered]) -> str:
    lines = [f"Claim: {claim}", "", "Sentences:"]
    current = -1
    for number, item in enumerate(shown, start=1):
        if item.passage != current:
            current = item.passage
            lines.append(f"(passage {current + 1})")
        text = " ".join(passages[item.passage].text[item.start : item.end].split())
        lines.append(f"[{number}] {text}")
    return "\n".join(lines)
