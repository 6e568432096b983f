from __future__ import annotations

import pytest
from support_fakes import DOC, HASH16, passage

from pincite.errors import EvidenceIdError, InputError
from pincite.ids import decode, encode_span
from pincite.support.base import (
    SupportChecker,
    SupportPassage,
    SupportResult,
    SupportVerdict,
    Thresholds,
)
from pincite.support.baseline import LexicalOverlapChecker
from pincite.support.heuristic import HeuristicSupportChecker
from pincite.support.judge import JudgeSupportChecker
from pincite.support.nli import NLISupportChecker


def test_span_id_uses_absolute_offsets_of_the_version() -> None:
    p = passage("Alpha beta. Gamma delta.", start=100)
    sid = p.span_id(12, 24)
    assert sid == f"ev1:s:{DOC}:{HASH16}:112-124"
    assert decode(sid) == decode(encode_span(DOC, HASH16, 112, 124))


def test_span_id_rejects_a_range_outside_the_passage() -> None:
    p = passage("short")
    with pytest.raises(EvidenceIdError):
        p.span_id(2, 9)
    with pytest.raises(EvidenceIdError):
        p.span_id(3, 3)


def test_passage_from_a_span_id_must_agree_with_it() -> None:
    text = "Gamma delta."
    SupportPassage(encode_span(DOC, HASH16, 40, 52), text, 40)
    with pytest.raises(InputError, match="does not match"):
        SupportPassage(encode_span(DOC, HASH16, 40, 52), text, 41)
    with pytest.raises(EvidenceIdError):
        SupportPassage("ev1:c:not-an-id", text, 0)
    with pytest.raises(InputError):
        passage("x", start=-1)


def test_thresholds() -> None:
    t = Thresholds(partial=0.3, supported=0.6)
    assert [t.verdict(s) for s in (0.0, 0.3, 0.59, 0.6, 1.0)] == [
        SupportVerdict.UNSUPPORTED,
        SupportVerdict.PARTIAL,
        SupportVerdict.PARTIAL,
        SupportVerdict.SUPPORTED,
        SupportVerdict.SUPPORTED,
    ]
    with pytest.raises(InputError):
        Thresholds(partial=0.7, supported=0.6)


def test_result_score_must_be_a_probability() -> None:
    with pytest.raises(InputError):
        SupportResult(SupportVerdict.SUPPORTED, 1.5)
    with pytest.raises(InputError):
        SupportResult(SupportVerdict.SUPPORTED, float("nan"))
    assert SupportVerdict("partial") is SupportVerdict.PARTIAL


def test_every_checker_implements_the_protocol() -> None:
    checkers = [
        HeuristicSupportChecker(),
        LexicalOverlapChecker(),
        JudgeSupportChecker(lambda request: {}),
        NLISupportChecker("unused"),
    ]
    assert all(isinstance(c, SupportChecker) for c in checkers)
