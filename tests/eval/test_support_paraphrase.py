"""Rule-made rewrites (labelled by construction) and what the default policy does with them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pincite.errors import ConfigurationError
from pincite.eval import support_rewrites as r
from pincite.eval.support import SupportExample, _passage
from pincite.eval.support_paraphrase import paraphrase_report, paraphrase_set
from pincite.support.base import SupportResult, SupportVerdict

RNG = random.Random(0)


@pytest.mark.parametrize(
    ("rule", "claim", "expected"),
    [
        (r.restate_number, "Plans renew every 12 months.", "Plans renew every year."),
        (r.restate_number, "Replies come within 24 hours.", "Replies come within one day."),
        (r.restate_number, "It took 3 weeks.", "It took 21 days."),
        (r.restate_number, "She had 7 children.", "She had seven children."),
        (r.negate, "The vendor was paid.", "The vendor was not paid."),
        (r.antonym, "Prices increased in May.", "Prices decreased in May."),
        (r.trim, "Toby Keith released the single in 1993, which reached number one.",
         "Toby Keith released the single in 1993."),
    ],
)  # fmt: skip
def test_each_rule_rewrites_as_documented(rule: r.Rule, claim: str, expected: str) -> None:
    assert rule(claim, RNG) == expected


@pytest.mark.parametrize(
    "claim",
    [
        "Pioneer factor OCT3/4 binds.",
        "Mice lacking SHP-2 thrive.",
        "It holds 2.4 trillion.",
        "He earns $111.2 million.",  # not "$111.2,000,000"
    ],
)
def test_restate_number_leaves_names_codes_and_decimals_alone(claim: str) -> None:
    assert r.restate_number(claim, RNG) is None


def test_change_number_leaves_reference_markers_alone() -> None:
    assert r.change_number("Good organisation helps [4].", RNG) is None
    new = r.change_number("It took 9 days [2].", random.Random(1))
    assert new is not None and new.endswith(" days [2].") and "9 days" not in new


def test_change_number_keeps_the_sentence_and_moves_the_number() -> None:
    new = r.change_number("Toby Keith released it in 1993, in Nashville.", random.Random(1))
    assert new is not None and "1993" not in new and new.endswith(", in Nashville.")


def test_swap_actor_takes_another_claims_subject() -> None:
    new = r.swap_actor("The vendor pays all fees.", RNG, ["Customers can cancel at any time."])
    assert new == "Customers pays all fees."


def test_swap_actor_swaps_only_phrases_that_name_something() -> None:
    # A pronoun, "There" or a reporting frame is no actor: swapping it in or out
    # garbles the claim without breaking what it says.
    others = ["Additionally, it is free.", "There are plans.", "It can wait."]
    assert r.swap_actor("The vendor pays all fees.", RNG, others) is None
    assert r.swap_actor("He pays all fees.", RNG, ["Customers can cancel."]) is None
    assert r.swap_actor("For example, the fee is paid.", RNG, ["Customers can cancel."]) is None
    new = r.swap_actor("Mouse models can be generated.", RNG, ["The vendor is paid."])
    assert new == "The vendor can be generated."


def test_rewrites_label_meaning_keeping_rules_supported_and_are_deterministic() -> None:
    claim = "Support requests are answered within 24 hours, and the vendor pays all fees."
    out = r.rewrites(claim, 0, ["Customers can cancel."])
    assert out == r.rewrites(claim, 0, ["Customers can cancel."])
    labels = {rule.split("+")[0]: ok for _, rule, ok in out}
    assert labels["restate_number"] and labels["hedge"]
    assert not labels["negate"] and not labels["change_number"] and not labels["swap_actor"]
    assert r.rewrites(claim, 0, supported=False) == []


def _example(claim_id: str, rule: str, label: SupportVerdict) -> SupportExample:
    # Ids as paraphrase_set makes them: "<dataset>:<id>" and "<dataset>:<id>:<rule>".
    example_id = f"x:{claim_id}" if rule == "original" else f"x:{claim_id}:{rule}"
    passage = (_passage("t", claim_id, 0, "text"),)
    return SupportExample(example_id, "c", passage, label, source=f"x:{rule}")


def test_paraphrase_report_counts_the_default_policy() -> None:
    examples = [
        _example("1", "original", SupportVerdict.SUPPORTED),
        _example("1", "synonym", SupportVerdict.SUPPORTED),
        _example("1", "hedge", SupportVerdict.SUPPORTED),
        _example("1", "negate", SupportVerdict.UNSUPPORTED),
        _example("1", "antonym", SupportVerdict.UNSUPPORTED),
        _example("2", "original", SupportVerdict.SUPPORTED),
        _example("2", "trim", SupportVerdict.SUPPORTED),
    ]
    verdicts = ["unsupported", "unsupported", "partial", "partial", "unsupported"]
    verdicts += ["supported", "unsupported"]
    results = [SupportResult(SupportVerdict(v), 0.5) for v in verdicts]
    report = paraphrase_report(None, examples, results)  # type: ignore[arg-type]
    assert report["supported_n"] == 3 and report["unsupported_n"] == 2  # originals apart
    assert report["supported_rejected"] == 2 / 3
    assert report["unsupported_accepted"] == 0.5
    assert report["by_rule"]["negate"]["partial"] == 1.0
    assert report["originals_rejected"] == 0.5
    # Only claim 2 stands as written; of its one supported rewrite, one is rejected.
    assert report["supported_rejected_original_kept"] == 1.0


def test_an_unknown_kind_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError):
        paraphrase_set(tmp_path, "dev")
