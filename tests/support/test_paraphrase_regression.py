"""The four claims of issue 19 against one passage, as a new user tried them.

An LLM restates what a passage says; the default checker (heuristic with the
quantised default model) must accept the faithful restatements and reject the
ones that swap who pays or widen a partial refund to the whole fee. One of the
four is still wrong and marked so (strict: a fix turns it into a failure to
unmark).
"""

from __future__ import annotations

import pytest

from pincite.ids import encode_chunk
from pincite.support.base import SupportPassage, SupportVerdict
from pincite.support.heuristic import default_support_checker

TERMS = (
    "Annual subscriptions renew automatically every twelve months unless cancelled at least "
    "30 days before the renewal date. Refunds are issued only for the unused portion of the "
    "current term. Support requests are answered within one business day, and the vendor "
    "pays all bank transfer fees."
)
PASSAGE = SupportPassage(
    encode_chunk(
        "00000000-0000-4000-8000-000000000019",
        "0" * 16,
        "00000000-0000-4000-8000-000000000020",
    ),
    TERMS,
)


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        # The role cue alone scores it partial (0.34; as a veto it would reject
        # 10-13 % of supported dev claims); "customers" against "the vendor" are the
        # two parties of one relation (cues.counterpart_conflict), which vetoes it.
        ("Customers pay the bank transfer fees.", SupportVerdict.UNSUPPORTED),
        pytest.param(
            "Support tickets get a reply within 24 hours on working days.",
            SupportVerdict.SUPPORTED,
            # "24 hours" now agrees with "one business day" (0.43, was 0.34); "tickets",
            # "reply", "working" have no shared word, and no synonym source is offline.
            marks=pytest.mark.xfail(reason="paraphrased words without a shared stem"),
        ),
        ("Annual plans renew each year unless cancelled a month ahead.", SupportVerdict.SUPPORTED),
        ("Refunds cover the entire subscription fee.", SupportVerdict.UNSUPPORTED),
    ],
)
def test_the_issue_claims_get_the_right_verdict(claim: str, expected: SupportVerdict) -> None:
    result = default_support_checker().check(claim, [PASSAGE])
    assert result.verdict is expected, (result.score, result.reasons)
