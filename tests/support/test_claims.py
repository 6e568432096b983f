"""`check_claim`: a claim of several sentences stands only as its weakest sentence does."""

from __future__ import annotations

from support_fakes import passage

from pincite.ids import SpanRef, decode
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


LIST = (
    "Downtime does not count towards the Monthly Uptime Percentage when it is caused by:\n\n"
    "- Scheduled Maintenance;\n\n"
    "- the Customer's own equipment, network or internet connection;\n\n"
    "- features that are labelled as beta;\n\n"
    "- a suspension for non-payment or for breach of these terms;\n\n"
    "- events beyond our reasonable control, such as a national power failure.\n\n"
    "| Continuous service | Full pay |\n| --- | --- |\n| 2 to 5 years | 10 weeks |\n"
)
FLAT_LEAD_IN = " ".join(LIST.split("\n\n| Continuous")[0].split())
DEFAULT = default_support_checker()


def test_a_lead_in_quoted_with_its_items_is_supported() -> None:
    # Flattened to one line, as an answer states it; a checker reads it as one long
    # sentence and rejected it, though every word of it is in the passage.
    assert "\n" not in FLAT_LEAD_IN and FLAT_LEAD_IN not in LIST
    result = check_claim(DEFAULT, FLAT_LEAD_IN, [passage(LIST, start=40)])
    assert result.verdict is SupportVerdict.SUPPORTED and result.score == 1.0
    # its evidence is the exact characters quoted (the lead-in and each item), in the
    # version's offsets
    quoted = []
    for span in result.sentence_ids:
        ref = decode(span)
        assert isinstance(ref, SpanRef)
        quoted.append(LIST[ref.start - 40 : ref.end - 40])
    assert len(quoted) == 6 and quoted[0].endswith("caused by:")
    assert quoted[1] == "- Scheduled Maintenance;"
    assert quoted[-1] == "- events beyond our reasonable control, such as a national power failure."
    rows = "Sick pay: | Continuous service | Full pay | | 2 to 5 years | 10 weeks |"
    assert check_claim(DEFAULT, rows, [passage(LIST)]).verdict is not SupportVerdict.UNSUPPORTED


def test_each_item_of_a_list_claim_must_hold() -> None:
    # An answer's list with one item the passage never states is judged by that item.
    lead_in = "Downtime does not count towards the Monthly Uptime Percentage when it is caused by:"
    true = f"{lead_in} - Scheduled Maintenance; - features that are labelled as beta;"
    false = f"{lead_in} - Scheduled Maintenance; - the vendor's own equipment;"
    assert check_claim(DEFAULT, true, [passage(LIST)]).verdict is SupportVerdict.SUPPORTED
    weakest = check_claim(DEFAULT, false, [passage(LIST)])
    assert weakest.verdict is not SupportVerdict.SUPPORTED
    alone = DEFAULT.check("- the vendor's own equipment;", [passage(LIST)])
    assert (weakest.verdict, weakest.score) == (alone.verdict, alone.score)


def test_a_run_across_two_passages_with_pdf_bullets_is_judged_item_by_item() -> None:
    # A PDF's symbol-font bullet ("\uf03c") and a lead-in that ends one chunk while
    # its items open the next: each item is a quote of the second passage.
    first = "Other security measures that are important for telework include the following:"
    second = (
        "\uf03c Have a separate user account with limited privileges for each person.\n"
        "\uf03c Physically secure telework PCs by using cable locks."
    )
    claim = f"{first} {' '.join(second.split())}"
    passages = [passage(first), passage(second, k=1)]
    result = check_claim(DEFAULT, claim, passages)
    assert result.verdict is SupportVerdict.SUPPORTED
    assert len(result.sentence_ids) == 3
    # an item changed is no quote: the checker judges it, and the claim stands as it does
    forged = claim.replace("cable locks", "fingerprint readers")
    judged = check_claim(DEFAULT, forged, passages)
    alone = DEFAULT.check(
        "\uf03c Physically secure telework PCs by using fingerprint readers.", passages
    )
    assert judged.score == alone.score < 1.0


def test_words_cut_from_inside_a_sentence_are_no_quote() -> None:
    # Quote-mining: the words are in the passage, the statement is not.
    text = (
        "Many customers believe that customers pay the bank transfer fees. In fact the vendor does."
    )
    mined = "customers pay the bank transfer fees."
    assert mined in text
    result = check_claim(DEFAULT, mined, [passage(text)])
    assert result.score < 1.0
    assert result == DEFAULT.check(mined, [passage(text)])
    whole = check_claim(DEFAULT, "In fact the vendor does.", [passage(text)])
    assert whole.verdict is SupportVerdict.SUPPORTED and whole.score == 1.0
