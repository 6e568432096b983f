"""Questions a customer asks of a contract (found by asking them of documents written
for the purpose): a defined term asked about "in the contract", "under the agreement"."""

from __future__ import annotations

import pytest
from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.question import QuestionKind, parse_question

DEFINITIONS = (
    "## 1. Definitions\n\n"
    '"Platform" means the hosted Ledgerline service. '
    '"Seat" means a named individual user account. '
    '"Fees" means the amounts payable under an Order Form.\n\n'
    "## 5. Changes to the subscription\n\n"
    "The Customer may add seats to its subscription at any time during the contract term."
)


@pytest.mark.parametrize(
    "question",
    [
        "What counts as a seat in the contract?",
        "What is a seat under the agreement?",
        "what does seat mean in our MSA",
        "What qualifies as a seat under this agreement?",
    ],
)
def test_the_document_a_term_is_asked_of_is_no_part_of_the_term(question: str) -> None:
    parsed = parse_question(question)
    assert (parsed.kind, parsed.term) == (QuestionKind.DEFINITION, "seat")
    # "counts as" frames the question, and the document is where it is asked of:
    # no definition repeats either.
    assert parsed.stems == ("seat",)


def test_a_term_asked_of_in_the_contract_is_answered_by_its_definition() -> None:
    p = passage(1, DEFINITIONS)
    generation = generate("What counts as a seat in the contract?", p)
    assert generation.claims[0].text == '"Seat" means a named individual user account.'
    assert_pinned(generation, [p])


def test_a_capitalised_document_still_stays_out_of_the_term() -> None:
    assert parse_question("What is a seat in the MSA?").term == "seat"
    # Nor is a term cut where a word only looks like a document's.
    assert parse_question("What is a standard contract?").term == "standard contract"
    assert parse_question("What is the policy?").term == "policy"
