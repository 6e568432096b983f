"""`check_claim`: a claim of several sentences stands only as its weakest sentence does."""

from __future__ import annotations

from support_fakes import passage

from pincite.support.base import SupportVerdict
from pincite.support.claims import check_claim
from pincite.support.heuristic import default_support_checker

TEXT = (
    "Telework client devices can be divided into two general categories: personal computers "
    "and consumer devices. Personal computers are desktop and laptop computers running standard "
    "operating systems. Consumer devices are small, usually mobile computers such as phones and "
    "video game systems. The difference between personal computers and consumer devices is "
    "decreasing."
)
CHECKER = default_support_checker(lexical_only=True)


def test_one_false_sentence_sinks_a_claim_the_whole_would_pass() -> None:
    claim = (
        "Telework client devices can be divided into two general categories: personal computers "
        "and consumer devices. Consumer devices are large stationary servers kept in data centres."
    )
    whole = CHECKER.check(claim, [passage(TEXT)])
    assert whole.verdict is SupportVerdict.SUPPORTED  # the long claim hides its false half
    each = check_claim(CHECKER, claim, [passage(TEXT)])
    assert each.verdict is not SupportVerdict.SUPPORTED and each.score < whole.score


def test_a_true_run_is_supported_and_points_at_every_sentence_it_rests_on() -> None:
    result = check_claim(CHECKER, TEXT, [passage(TEXT)])
    assert result.verdict is SupportVerdict.SUPPORTED
    parts = [CHECKER.check(s, [passage(TEXT)]) for s in TEXT.split(". ")]
    assert set(result.sentence_ids) == {i for p in parts for i in p.sentence_ids}
    assert len(result.sentence_ids) >= 3


def test_a_single_sentence_is_checked_as_it_is() -> None:
    claim = "Consumer devices are small, usually mobile computers."
    assert check_claim(CHECKER, claim, [passage(TEXT)]) == CHECKER.check(claim, [passage(TEXT)])
    # A lead-in fragment under four words is no sentence of its own.
    short = "It holds. Consumer devices are small, usually mobile computers."
    assert check_claim(CHECKER, short, [passage(TEXT)]) == CHECKER.check(short, [passage(TEXT)])
