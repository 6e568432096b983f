"""The offline follow-up rewrite: pronouns and ellipses resolved against the previous turn."""

from __future__ import annotations

import pytest

from pincite.generate.rewrite import key_terms, standalone

FIRST = "How long must customer invoices be retained?"


def test_the_first_turn_is_searched_as_asked() -> None:
    assert standalone("  How long are invoices kept?  ") == "How long are invoices kept?"


def test_a_pronoun_becomes_the_previous_subject() -> None:
    assert standalone("Where are they stored?", [FIRST]) == "Where are customer invoices stored?"
    got = standalone("Is it encrypted?", ["Which archive holds payroll?"])
    assert got.startswith("Is archive") and got.endswith("payroll encrypted?")
    # The verbs of the previous turn stay behind: a pronoun names a thing.
    assert standalone("Is it encrypted?", ["How is payroll archived?"]) == "Is payroll encrypted?"


def test_a_possessive_pronoun_keeps_the_possessive() -> None:
    assert standalone("Who approves their deletion?", [FIRST]) == (
        "Who approves customer invoices' deletion?"
    )
    assert standalone("What is its size?", ["Where is the backup"]) == "What is backup's size?"


def test_an_ellipsis_carries_the_previous_terms() -> None:
    got = standalone("What about receipts?", [FIRST])
    assert got.startswith("receipts") and "invoices" in got and "retained" in got
    assert "invoices" in standalone("And for contractors?", [FIRST])


def test_a_question_naming_its_subject_is_left_alone() -> None:
    q = "How are backups of customer databases rotated every ninety days?"
    assert standalone(q, [FIRST]) == q


def test_only_the_previous_standalone_question_is_read() -> None:
    chain = [FIRST, "Where are customer invoices stored?"]
    assert "retained" not in standalone("Is it encrypted?", chain)
    assert "invoices" in standalone("Is it encrypted?", chain)


def test_words_already_in_the_turn_are_not_repeated() -> None:
    got = standalone("Are invoices of them archived?", [FIRST])
    assert got.casefold().count("invoices") == 1


@pytest.mark.parametrize("asking", ["How long must it be?", "Can you tell me more?"])
def test_asking_words_and_modals_are_not_key_terms(asking: str) -> None:
    assert key_terms(asking) == []


def test_key_terms_keep_order_and_drop_repeats() -> None:
    assert key_terms("Invoices and invoices: the archive of invoices") == ["Invoices", "archive"]
