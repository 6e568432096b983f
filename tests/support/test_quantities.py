"""Quantities that mean the same thing compare equal; different ones do not."""

from __future__ import annotations

import pytest

from pincite.support import quantities as q


def _missing(claim: str, text: str) -> list[q.Quantity]:
    return q.missing_numbers(q.quantities(claim, bare_scaled=False), q.quantities(text))


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        # durations across units (month 30.4375 days, year 365.25, 2 % tolerance)
        ("renews every year", "renews every twelve months"),
        ("renews every 12 months", "renews every 365 days"),
        ("renews every 52 weeks", "renews yearly, every 12 months"),
        ("cancelled a month ahead", "cancelled 30 days before"),
        ("a reply within 24 hours", "answered within one business day"),
        ("lasted 90 minutes", "lasted an hour and a half, 1.5 hours"),
        ("a decade later", "ten years later"),
        # money with its currency
        ("costs 5 dollars", "costs $5"),
        ("a $2 million grant", "a grant of USD 2,000,000"),
        ("earned €30", "earned 30 euros"),
        # percentages and fractions
        ("half the patients", "50% of the patients"),
        ("33% of voters", "a third of voters"),
        ("75 percent of sites", "three quarters of sites"),
        # units of length, mass, volume
        ("a 5 mile race", "an 8.05 km race"),
        ("weighs 2 kg", "weighs 2,000 grams"),
        ("holds 1 gallon", "holds 3.785 litres"),
        # number words, compounds and ordinals
        ("25 people", "twenty-five people"),
        ("300 seats", "three hundred seats"),
        ("the 3rd album", "the third album"),
        ("a dozen eggs", "12 eggs"),
        # dates in common layouts
        ("opened on 2020-03-15", "opened on March 15, 2020"),
        ("opened on 15 March 2020", "opened on 15/03/2020"),
        ("opened on March 15, 2020", "opened on 03/15/2020"),
        ("opened in March 2020", "opened on 15 March 2020"),
        ("opened in 2020", "opened on 15 March 2020"),
        # a span of years cut short
        ("during the 2018–19 academic year", "over the 2018-2019 academic year"),
        ("the 1999-00 season", "from 1999 to 2000"),
    ],
)
def test_the_same_quantity_written_two_ways_agrees(claim: str, text: str) -> None:
    assert _missing(claim, text) == []


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("cancelled two weeks ahead", "cancelled 30 days before"),
        ("four weeks' notice", "a month's notice, 30.4 days"),  # 28 days is not a month
        ("renews every 10 years", "renews every 10 days"),
        ("costs €5", "costs $5"),  # currencies are not converted
        ("half the patients", "40% of the patients"),
        ("a 5 mile race", "a 5 km race"),
        ("opened on 2020-03-15", "opened on March 16, 2020"),
        ("opened in April 2020", "opened on 15 March 2020"),
        ("25 people", "twenty people"),
    ],
)
def test_a_different_quantity_is_missing(claim: str, text: str) -> None:
    assert _missing(claim, text) != []


def test_words_that_look_like_numbers_are_not_quantities() -> None:
    assert q.quantities("no one knew; one of them") == set()
    assert q.quantities("three times a day") == {(3.0, "")}  # not also "a day"
    assert q.quantities("the half-life of the drug") == set()
    assert q.quantities("it may rain in March") == set()  # not dates


def test_a_claim_date_is_the_date_only() -> None:
    assert q.quantities("on 2020-03-15", bare_scaled=False) == {(20200315.0, "date")}
    # read as a passage, the date's numbers stay too, so a claim's "2020" is found
    assert {(2020.0, ""), (20200315.0, "date")} <= q.quantities("on 2020-03-15")


def test_numbers_leave_out_dates_but_keep_their_parts() -> None:
    assert q.numbers("on 15 March 2020, 40% of 1,200") == {15, 2020, 40, 1200}


def test_reference_markers_are_not_quantities() -> None:
    assert q.quantities("Organisation is key [3].", bare_scaled=False) == set()
    assert q.quantities("as shown [1, 4] within 5 days [2-3]") == {(5.0, "day")}
    assert q.quantities("a list of [10 items]") == {(10.0, "")}  # a number in words is kept


def test_a_list_items_number_is_not_a_quantity() -> None:
    # An answer's numbered steps ("4. Turn on ...") number the answer, not the world.
    assert q.quantities("4. Turn on the diffuser.", bare_scaled=False) == set()
    # A passage's item number stays: an extractive quote that runs on across the
    # items ("... except in these cases: 1. If the response ...") repeats it.
    item = "1. If the response status code is 100 (Continue), the response MAY include a Date."
    quote = "Origin servers MUST include a Date header field in all responses, except in " + item
    claimed = q.quantities(quote, bare_scaled=False)
    assert not q.missing_numbers(claimed, q.quantities(item))
    assert q.quantities("1) Choose a spot for 2 hours", bare_scaled=False) == {(2.0, "hour")}
    assert (1.0, "") in q.quantities("1) Choose a spot for 2 hours")  # a passage's stays
    assert q.quantities("It took 4. Then it rained.") == {(4.0, "")}  # only at the start


def test_a_year_span_is_two_whole_years() -> None:
    assert q.quantities("the 2018–19 season", bare_scaled=False) == {(2018.0, ""), (2019.0, "")}
    assert (95.0, "") in q.quantities("In 1990 - 95 people came")  # spaced: a year and a count
    # A year and month, or a numbered resolution, is no span of years.
    assert (2012.0, "") not in q.quantities("revised 2010-12 after review")
    assert (2103.0, "") not in q.quantities("updated 2021-03")
    assert (2118.0, "") not in q.quantities("Resolution 2019-18 was adopted")
    assert {(2010.0, ""), (2015.0, "")} <= q.quantities("the 2010–15 plan")  # an en dash may run on
    assert q.quantities("on 2010-12-05", bare_scaled=False) == {(20101205.0, "date")}


def test_a_hyphenated_unit_is_read() -> None:
    assert q.quantities("a 20-year-old singer") == {(20.0, "year")}
    assert q.missing_numbers({(660.0, "month")}, q.quantities("a 55-year-old man")) == []
