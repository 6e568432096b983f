"""Cues that bag-of-words coverage cannot see: who acts, how much, in which direction."""

from __future__ import annotations

import pytest

from pincite.support import cues

FEES = "Support requests are answered within one business day, and the vendor pays all fees."


def _pair(claim: str, evidence: str) -> tuple[list[str], list[str]]:
    return cues.stems(claim), cues.stems(evidence)


def test_a_swapped_actor_is_a_role_conflict() -> None:
    assert cues.role_conflict(*_pair("Customers pay the bank transfer fees.", FEES)) == 1.0
    assert cues.role_conflict(*_pair("The vendor pays the fees.", FEES)) == 0.0
    # the subject restated with a shared word is not a swap
    assert cues.role_conflict(*_pair("Support tickets get a reply within a day.", FEES)) == 0.0


def test_widening_what_the_evidence_narrows_is_a_scope_conflict() -> None:
    refunds = "Refunds are issued only for the unused portion of the current term."
    assert cues.scope_conflict(*_pair("Refunds cover the entire subscription fee.", refunds))
    assert not cues.scope_conflict(*_pair("Refunds cover the unused portion.", refunds))
    assert cues.scope_conflict(*_pair("Only members may enter.", "All visitors may enter."))


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("The plan includes support.", "The plan excludes support.", 1.0),
        ("The plan includes support.", "The plan includes support.", 0.0),
        ("Prices rose before the merger.", "Prices rose after the merger.", 1.0),
        # both words stated: not a reversal
        ("Prices rose before the merger.", "Prices rose before and after the merger.", 0.0),
    ],
)
def test_antonym_conflict(claim: str, evidence: str, expected: float) -> None:
    assert cues.antonym_conflict(*_pair(claim, evidence)) == expected


def test_order_agreement_counts_pairs_in_the_same_order() -> None:
    assert cues.order_agreement(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert cues.order_agreement(["c", "b", "a"], ["a", "b", "c"]) == 0.0
    assert cues.order_agreement(["a", "c", "b"], ["a", "b", "c"]) == pytest.approx(2 / 3)
    assert cues.order_agreement(["a"], ["a"]) == 1.0  # fewer than two shared


@pytest.mark.parametrize(
    ("claim", "core"),
    [
        ("According to the text, refunds are issued.", "Refunds are issued."),
        ("The source states that the vendor pays.", "The vendor pays."),
        ("Notably, Toby Keith sang it.", "Toby Keith sang it."),
        (
            "According to Duraid Hikmat, the city fell.",
            "According to Duraid Hikmat, the city fell.",
        ),
    ],
)
def test_a_reporting_frame_is_not_part_of_the_claim(claim: str, core: str) -> None:
    assert cues.core_claim(claim) == core


def test_an_act_given_to_the_other_party_is_a_counterpart_conflict() -> None:
    evidence = cues.stems("Support requests are answered quickly, and the vendor pays all fees.")
    customers = cues.stems("Customers pay the fees.")
    assert cues.role_conflict(customers, evidence) == 1.0
    assert cues.counterpart_conflict(customers, evidence) == 1.0
    # A swapped subject that is not the relation's other party is only a role conflict.
    staff = cues.stems("Staff pay the fees.")
    assert cues.role_conflict(staff, evidence) == 1.0
    assert cues.counterpart_conflict(staff, evidence) == 0.0
    assert cues.counterpart_conflict(cues.stems("The vendor pays the fees."), evidence) == 0.0
