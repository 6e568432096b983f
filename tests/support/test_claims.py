"""`check_claim`: a claim of several sentences stands only as its weakest sentence does."""

from __future__ import annotations

from collections.abc import Sequence

from support_fakes import passage

from pincite.support.base import SupportPassage, SupportResult, SupportVerdict
from pincite.support.claims import check_claim, quoted
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


LIST = (
    "Downtime does not count towards the Monthly Uptime Percentage when it is caused by:\n\n"
    "- Scheduled Maintenance;\n\n"
    "- the Customer's own equipment, network or internet connection;\n\n"
    "- features that are labelled as beta;\n\n"
    "- a suspension for non-payment or for breach of these terms;\n\n"
    "- events beyond our reasonable control, such as a national power failure."
)
LEAD_IN = "Downtime does not count towards the Monthly Uptime Percentage when it is caused by:"
ITEMS = [line for line in LIST.split("\n\n")[1:]]
DEFAULT = default_support_checker()


class Recording:
    """The default checker, recording each statement it is asked about."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult:
        self.asked.append(claim)
        return DEFAULT.check(claim, passages)


def test_a_lead_in_with_its_items_is_judged_part_by_part() -> None:
    flat = " ".join(LIST.split())  # as an answer states it, on one line
    whole = DEFAULT.check(flat, [passage(LIST)])
    assert whole.verdict is not SupportVerdict.SUPPORTED  # one long "sentence" fails
    recording = Recording()
    result = check_claim(recording, flat, [passage(LIST)])
    assert recording.asked == [LEAD_IN, *ITEMS]
    assert result.verdict is SupportVerdict.SUPPORTED
    assert len(result.sentence_ids) >= 3


def test_each_item_of_a_list_claim_must_hold() -> None:
    # An answer's list with one item the passage never states is judged by that item.
    true = f"{LEAD_IN} - Scheduled Maintenance; - features that are labelled as beta;"
    false = f"{LEAD_IN} - Scheduled Maintenance; - the vendor's own equipment;"
    assert check_claim(DEFAULT, true, [passage(LIST)]).verdict is SupportVerdict.SUPPORTED
    weakest = check_claim(DEFAULT, false, [passage(LIST)])
    assert weakest.verdict is not SupportVerdict.SUPPORTED
    alone = DEFAULT.check("- the vendor's own equipment;", [passage(LIST)])
    assert (weakest.verdict, weakest.score) == (alone.verdict, alone.score)


def test_a_short_lead_in_is_judged_too_and_pdf_bullets_split_items() -> None:
    # "Employees may:" carries what the items are; dropping it as a fragment would
    # let a "must not" list pass as a "may" one.
    recording = Recording()
    claim = (
        "Employees may: \uf03c share passwords with colleagues; \uf0b7 disable antivirus software."
    )
    check_claim(recording, claim, [passage("Employees must not share passwords.")])
    assert recording.asked == [
        "Employees may:",
        "\uf03c share passwords with colleagues;",
        "\uf0b7 disable antivirus software.",
    ]
    # a hyphen inside a word is no bullet
    recording = Recording()
    check_claim(
        recording, "Refunds follow non-payment disputes; - refunds take ten days.", [passage(LIST)]
    )
    assert recording.asked[0] == "Refunds follow non-payment disputes;"


def test_quoted_is_the_cited_text_word_for_word_and_nothing_else() -> None:
    span = "ev1:s:11111111-1111-4111-8111-111111111111:0123456789abcdef:10-60"
    cited = [(span, "Customer invoices are\nretained for seven years."), ("ev1:c:x", "- Two;")]
    result = quoted("Customer invoices are retained for seven years. - Two;", cited)
    assert result is not None and result.verdict is SupportVerdict.SUPPORTED
    assert result.score == 1.0 and result.sentence_ids == (span,)
    assert quoted("invoices are retained for seven years. - Two;", cited) is None
    assert quoted("Customer invoices are retained for eight years. - Two;", cited) is None
    assert quoted("- Two; Customer invoices are retained for seven years.", cited) is None
    assert quoted("", cited) is None and quoted("Anything.", []) is None
