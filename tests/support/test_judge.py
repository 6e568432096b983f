from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from support_fakes import passage

from pincite.errors import GeneratorError
from pincite.ids import SpanRef, decode
from pincite.support.base import SupportVerdict
from pincite.support.judge import JUDGE_TOOL, JudgeRequest, JudgeSupportChecker

TEXT = "Toby Keith recorded the song. It was released in 1993. It reached number one."


class Scripted:
    """Returns the scripted answers in order and records every request."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.requests: list[JudgeRequest] = []

    def __call__(self, request: JudgeRequest) -> Mapping[str, Any]:
        self.requests.append(request)
        answer = self.answers.pop(0)
        return answer  # type: ignore[return-value]


def test_numbers_map_to_sentences_by_enumeration() -> None:
    judge = Scripted({"verdict": "supported", "score": 0.9, "sentences": [2, 1, 2], "reason": "ok"})
    result = JudgeSupportChecker(judge).check(
        "Toby Keith released it in 1993.", [passage(TEXT, start=7)]
    )
    assert result.verdict is SupportVerdict.SUPPORTED and result.score == 0.9
    spans = [decode(s) for s in result.sentence_ids]
    assert all(isinstance(s, SpanRef) for s in spans)
    texts = [TEXT[s.start - 7 : s.end - 7] for s in spans if isinstance(s, SpanRef)]
    assert texts == ["Toby Keith recorded the song.", "It was released in 1993."]
    request = judge.requests[0]
    assert request.tool == JUDGE_TOOL
    assert "[1] Toby Keith recorded the song." in request.prompt
    assert "[3] It reached number one." in request.prompt
    assert "Claim: Toby Keith released it in 1993." in request.prompt


def test_out_of_range_numbers_are_dropped_not_clamped() -> None:
    judge = Scripted({"verdict": "partial", "score": 0.5, "sentences": [0, 3, 4, -1]})
    result = JudgeSupportChecker(judge).check("It reached number one.", [passage(TEXT)])
    assert result.verdict is SupportVerdict.PARTIAL
    assert len(result.sentence_ids) == 1
    assert any("[-1, 0, 4]" in r for r in result.reasons)


def test_support_without_a_valid_sentence_is_lowered_to_unsupported() -> None:
    judge = Scripted({"verdict": "supported", "score": 0.95, "sentences": [9]})
    result = JudgeSupportChecker(judge).check("It reached number one.", [passage(TEXT)])
    assert result.verdict is SupportVerdict.UNSUPPORTED
    assert result.sentence_ids == ()


def test_no_passages_means_no_model_call() -> None:
    judge = Scripted()
    assert JudgeSupportChecker(judge).check("x", []).verdict is SupportVerdict.UNSUPPORTED
    assert judge.requests == []


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("supported", "must be an object"),
        ({"verdict": "supported", "score": 1, "sentences": [1], "quote": "x"}, "unknown keys"),
        ({"verdict": "supported", "sentences": [1]}, "missing"),
        ({"verdict": "Supported", "score": 1, "sentences": [1]}, "not one of"),
        ({"verdict": "supported", "score": "high", "sentences": [1]}, "must be a number"),
        ({"verdict": "supported", "score": True, "sentences": [1]}, "must be a number"),
        ({"verdict": "supported", "score": 1.5, "sentences": [1]}, r"in \[0, 1\]"),
        ({"verdict": "supported", "score": float("nan"), "sentences": [1]}, "must be a number"),
        ({"verdict": "supported", "score": 1, "sentences": ["1"]}, "list of integers"),
        ({"verdict": "supported", "score": 1, "sentences": 1}, "list of integers"),
        ({"verdict": "supported", "score": 1, "sentences": [1], "reason": 3}, "reason"),
    ],
)
def test_malformed_answers_raise_a_clear_generator_error(answer: object, message: str) -> None:
    checker = JudgeSupportChecker(Scripted(answer))
    with pytest.raises(GeneratorError, match=message):
        checker.check("It reached number one.", [passage(TEXT)])


def test_only_the_first_sentences_are_numbered() -> None:
    judge = Scripted({"verdict": "unsupported", "score": 0.1, "sentences": []})
    result = JudgeSupportChecker(judge, max_sentences=2).check("x y", [passage(TEXT)])
    assert "[3]" not in judge.requests[0].prompt
    assert any("first 2 of 3" in r for r in result.reasons)
