"""A question word common in all English weighs less than a rare one the passages lack too."""

from __future__ import annotations

from extractive_helpers import passage

from pincite.generate.extractive import ExtractiveGenerator
from pincite.generate.rarity import english_weight, stem_weights

RETENTION = passage(
    1,
    "Invoices are retained for ten years after the end of the financial year. "
    "Receipts must be submitted within 30 days of the expense.",
)


def test_common_words_weigh_less_and_numbers_keep_full_weight() -> None:
    assert english_weight("invoices") == 1.0
    assert english_weight("the") == english_weight("long") < english_weight("kept") < 1.0
    assert english_weight("408") == english_weight("2616") == 1.0
    # A stem takes its commonest surface form's weight ("kept" is "keep"'s).
    weights = stem_weights("Keeping what we kept")
    assert weights["keep"] == min(english_weight("keeping"), english_weight("kept"))
    assert english_weight("keeping") != english_weight("kept")


def test_a_missing_common_word_costs_less_than_a_missing_rare_one() -> None:
    # Neither "kept" nor "archived" is in the passage, so their idf over the
    # passages is the same; only English at large tells them apart.
    generator = ExtractiveGenerator(None)
    common, found = generator.assess("How long are invoices kept?", [RETENTION])
    rare, _ = generator.assess("How long are invoices archived?", [RETENTION])
    assert found is not None and found.text.startswith("Invoices are retained")
    assert common > rare + 0.03


def test_a_word_written_as_a_name_keeps_its_full_weight() -> None:
    weights = stem_weights("Can a POST to the Host be cached? Long answers: Keep them short.")
    assert weights["post"] == weights["host"] == 1.0  # capitals; a capital inside a sentence
    # A capital that opens a sentence or follows a colon is no name.
    assert weights["long"] == english_weight("long") < 1.0
    assert weights["keep"] == english_weight("keep") < 1.0
    assert weights["cach"] == english_weight("cached")
