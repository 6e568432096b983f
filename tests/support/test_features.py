from __future__ import annotations

import math

import pytest

from pincite.support import features as f


def test_content_terms_stem_lowercase_and_drop_stopwords() -> None:
    terms = f.content_terms("The singers were singing Bieber's songs in 1,200 venues")
    assert terms == {"singer", "sing", "bieber", "song", "venu", "#1200"}


def test_numbers_parse_commas_percent_words_and_scales() -> None:
    assert f.numbers("1,200 people, 3.5% of them, two dogs, 45 percent") == {1200, 3.5, 2, 45}
    assert f.numbers("a budget of 10 million") == {10, 10_000_000}
    assert f.numbers("the 2nd of May 1993") == {2, 1993}
    assert f.numbers("section 4.2.1 and version v3") == set()  # not quantities


@pytest.mark.parametrize(
    ("claimed", "stated", "expected"),
    [
        (1993, 1993, True),
        (1993, 1994, False),
        (3.5, 3.47, True),  # the claim's precision
        (3.5, 3.44, False),
        (10_000, 10_234, True),  # a round number within 5 %
        (10_000, 11_000, False),
        (2000, 2003, False),  # a year is never approximate
    ],
)
def test_number_matches(claimed: float, stated: float, expected: bool) -> None:
    assert f.number_matches(claimed, stated) is expected


def test_missing_numbers() -> None:
    assert f.missing_numbers([(1993, ""), (36, "")], {(1993, ""), (8, "")}) == [(36, "")]
    assert f.missing_numbers([], {(1, "")}) == []
    # Units must agree when both sides name one; a bare number agrees with any.
    assert f.missing_numbers([(10, "year")], {(10, "day")}) == [(10, "year")]
    assert f.missing_numbers([(10, "year")], {(10, "")}) == []
    assert f.missing_numbers([(10, "")], {(10, "day")}) == []
    # ... unless the text states the claim's unit with other values.
    assert f.missing_numbers([(10, "year")], {(10, ""), (7, "year")}) == [(10, "year")]
    assert f.missing_numbers([(10, "year")], {(10, ""), (10, "year")}) == []


def test_quantities_carry_the_unit_word_after_the_number() -> None:
    assert f.quantities("kept for ten years, refunds in 10 days") == {(10, "year"), (10, "day")}
    assert f.quantities("1,200 patients took part") == {(1200, "")}  # not a unit
    assert f.quantities("3.5% of 2 million people") == {(3.5, "percent"), (2, ""), (2e6, "")}
    assert f.quantities("2 million people", bare_scaled=False) == {(2e6, "")}
    assert f.quantities("45 percent and 12 km") == {(45, "percent"), (12, "kilometre")}


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("50 metres", "50 meters"),
        ("12 km", "12 kilometres"),
        ("5 mg", "5 milligrams"),
        ("100 litres", "100 liters"),
        ("7 years", "7 yrs"),
        ("3 hours", "3 hrs"),
        ("2 million tonnes", "2,000,000 tonnes"),
    ],
)
def test_one_unit_spelled_two_ways_agrees(claim: str, text: str) -> None:
    assert f.missing_numbers(f.quantities(claim, bare_scaled=False), f.quantities(text)) == []


def test_idf_weights_and_weighted_coverage_by_hand() -> None:
    docs = [{"a", "b"}, {"a"}, {"c"}]
    w = f.idf_weights(docs, ["a", "b", "z"])
    # log((N + 1) / (df + 0.5)) with N = 3
    assert w["a"] == pytest.approx(math.log(4 / 2.5))
    assert w["b"] == pytest.approx(math.log(4 / 1.5))
    assert w["z"] == pytest.approx(math.log(4 / 0.5))  # absent from every sentence: heaviest
    expected = (math.log(4 / 2.5) + math.log(4 / 1.5)) / sum(w.values())
    assert f.coverage({"a", "b", "z"}, {"a", "b", "c"}, w) == pytest.approx(expected)
    assert f.coverage({"a"}, set(), w) == 0.0
    assert f.coverage(set(), {"a"}, w) == 1.0


def test_idf_is_floored() -> None:
    assert f.idf_weights([{"a"}] * 10, ["a"])["a"] == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The drug did not reduce mortality.", True),
        ("The drug didn't reduce mortality.", True),
        ("Treatment failed to reduce mortality.", True),
        ("Mortality was reduced without side effects.", True),
        ("The drug reduced mortality.", False),
        ("Nothingness is a notion.", False),  # whole words only
    ],
)
def test_negated(text: str, expected: bool) -> None:
    assert f.negated(text) is expected


def test_polarity_conflict() -> None:
    claim = f.content_terms("Aspirin increases bleeding risk")
    assert f.polarity_conflict(claim, f.content_terms("Aspirin decreased the bleeding risk"))
    assert not f.polarity_conflict(claim, f.content_terms("Aspirin increased bleeding risk"))
    # both directions stated: not a reversal
    both = f.content_terms("Aspirin increased, then decreased, bleeding risk")
    assert not f.polarity_conflict(claim, both)


def test_entity_terms_are_capitalised_content_words() -> None:
    assert f.entity_terms("The rap in Baby is by Ludacris, not Justin Bieber.") == {
        "babi",
        "ludacri",
        "justin",
        "bieber",
    }


def test_negated_terms_are_the_words_a_cue_governs() -> None:
    assert f.negated_terms("Refunds are not issued for the term.") == {"issu", "term"}
    assert f.negated_terms("It isn't linked to cancer, nor to diabetes.") == {
        "link",
        "cancer",
        "diabet",
    }
    assert f.negated_terms("Refunds are issued for the term.") == frozenset()
