"""Questions asked of a contract and a policy's tables (found by asking them of documents
written for the purpose): a defined term asked about "in the contract", and a tier
asked about by the figure it holds ("I've been here 3 years", "availability was 97%")."""

from __future__ import annotations

import pytest
from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.bands import in_band
from pincite.generate.question import QuestionKind, parse_question
from pincite.generate.tables import names_row

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


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("does an automated process count as a 'user' in FIPS 200, or only people?", "user"),
        ("Does a contractor count as a seat under the agreement?", "seat"),
        ("would a USB stick be considered removable media", "removable media"),
        ("is an intern considered to be an employee?", "employee"),
    ],
)
def test_whether_a_thing_counts_as_a_term_asks_for_the_terms_definition(
    question: str, term: str
) -> None:
    parsed = parse_question(question)
    assert (parsed.kind, parsed.term) == (QuestionKind.DEFINITION, term)


def test_whether_a_thing_counts_as_a_term_is_answered_by_its_definition() -> None:
    p = passage(1, DEFINITIONS)
    generation = generate("Does a shared login count as a seat in the contract?", p)
    assert generation.claims[0].text == '"Seat" means a named individual user account.'
    # Not every "count as" asks for a meaning.
    assert (
        parse_question("is there a time limit to count as rapid elasticity, say X minutes").term
        == ""
    )


def test_a_capitalised_document_still_stays_out_of_the_term() -> None:
    assert parse_question("What is a seat in the MSA?").term == "seat"
    # Nor is a term cut where a word only looks like a document's.
    assert parse_question("What is a standard contract?").term == "standard contract"
    assert parse_question("What is the policy?").term == "policy"


SICK_PAY = (
    "## 6. Sick pay\n\n"
    "Company sick pay depends on continuous service.\n\n"
    "| Continuous service | Full pay | Half pay |\n"
    "|---|---|---|\n"
    "| Less than 6 months | None | None |\n"
    "| 6 months to 2 years | 4 weeks | 4 weeks |\n"
    "| 2 to 5 years | 10 weeks | 10 weeks |\n"
    "| More than 5 years | 16 weeks | 16 weeks |\n\n"
    "From the sixth working day of absence you must provide a fit note from a doctor."
)
CREDITS = (
    "## 7. Service credits\n\n"
    "If Availability falls below 99.9% in a month, the Customer is entitled to Service "
    "Credits as follows:\n\n"
    "| Monthly Availability | Service Credit (% of monthly Fees) |\n"
    "|---|---|\n"
    "| 99.0% to below 99.9% | 5% |\n"
    "| 95.0% to below 99.0% | 10% |\n"
    "| Below 95.0% | 25% |\n"
)


@pytest.mark.parametrize(
    ("cell", "question", "held"),
    [
        ("2 to 5 years", "I've been here 3 years", True),
        ("6 months to 2 years", "I've been here 3 years", False),
        ("More than 5 years", "after 6 years", True),
        ("5+ years", "after 6 years", True),
        ("Less than 6 months", "I started 4 months ago", True),
        ("95.0% to below 99.0%", "availability was 97%", True),
        ("Below 95.0%", "availability was 97%", False),
        ("Below 99.0% but at least 97.0%", "uptime was 98.5 percent", True),
        ("Below the plan commitment but at least 99.0%", "uptime was 99.5%", True),
        ("GBP 2,500.01 to GBP 10,000", "a claim of £3,000", True),
        ("Up to £500", "a claim of £3,000", False),
        # Figures compare only in one unit, and only with a unit.
        ("2 to 5 years", "availability was 3%", False),
        ("2 to 5 years", "what is tier 3", False),
        ("GBP 2,500.01 to GBP 10,000", "a claim of $3,000", False),
        # A key that is no range is no band.
        ("P3 – Medium", "a P3 ticket for 3 days", False),
        ("Secondary caregiver leave", "after 3 years", False),
        # Ends as written: "to below" leaves its figure out, "up to" keeps it in.
        ("95.0% to below 99.0%", "if availability was exactly 99.0%", False),
        ("99.0% to below 99.9%", "if availability was exactly 99.0%", True),
        ("99.0% to below 99.9%", "availability was 99.9% last month", False),
        ("Up to £500", "a claim of £500", True),
        ("Over 4 years", "after 4 years", False),
        # The question's own comparator: the band must hold all it says.
        ("Below 95.0%", "if availability drops below 95%", True),
        ("95.0% to below 99.0%", "if availability drops below 95%", False),
        # Negated comparators.
        ("Not less than 5 years", "after 6 years", True),
        ("No more than 7 days", "an absence of 40 days", False),
        ("Over 28 days", "an absence of 40 days", True),
        # Amounts in thousands and millions.
        ("£250k to £1m", "a £300k contract", True),
        ("Up to £250k", "a £300k contract", False),
        ("Over £1m", "a contract worth £500,000", False),
        ("£250k to £1m", "a contract worth £500,000", True),
        ("Up to £250k", "a £2m contract", False),
        # A year is twelve months.
        ("Up to 1 year", "I've worked here 12 months", True),
        ("6 months to 2 years", "after 24 months", True),
        ("12 months or more", "after 1 year", True),
        # No figure inside a word or a code.
        ("Up to 30 days", "COVID19 days off", False),
        # The question's comparator takes its figure just past the end it names.
        ("2 to 5 years", "I've been here for over 3 years", True),
        ("More than 5 years", "I've been here over 5 years", True),
        ("2 to 5 years", "at least 3 years of service", True),
        ("0% to below 95%", "if availability drops below 95%", True),
        ("0-2 years", "if I've worked here under 2 years", True),
        # ... and only a comparator just before it: not one a clause away.
        ("95.0% to below 99.0%", "below target, as they say, and so on, it was 97%", True),
        # More ways tables write their ranges.
        ("5 years+", "after 6 years", True),
        ("99.9% +", "uptime was 99.95%", True),
        ("99.9% – 99.0%", "availability was 99.5%", True),
        ("GBP500.01 to GBP2,500", "a claim of GBP1,200", True),
        ("GBP500.01 to GBP2,500", "a claim of £1,200", True),
        ("£250-500k", "a £300k contract", True),
        ("£10k–20k", "a £15,000 purchase", True),
        ("£250,001 to £1 million", "a £300,000 contract", True),
        ("Over £1 million", "a £300,000 contract", False),
        ("Over 2 years to 5 years", "after 2 years", False),
        ("More than 2 years up to 5 years", "after 3 years", True),
        ("At least 2 years but less than 5 years", "after 5 years", False),
        ("2 to <5 years", "after 5 years", False),
        ("< 95%", "availability was 94%", True),
        (">= 99.9%", "availability was 99.9%", True),
        # A name's number is no end of a range ("Tier 1", then 0%).
        ("Tier 1 – 0%", "at 0.5% availability", False),
    ],
)
def test_a_band_holds_the_figure_a_question_states(cell: str, question: str, held: bool) -> None:
    assert (in_band(question, cell) is not None) is held


def test_a_tier_is_asked_of_by_the_figure_it_holds() -> None:
    p = passage(1, SICK_PAY)
    question = "I've been here 3 years, how long do I get full salary if I'm off sick?"
    generation = generate(question, p)
    text = generation.claims[0].text
    # The row, under its header row.
    assert text.startswith("| Continuous service | Full pay | Half pay |")
    assert "| 2 to 5 years | 10 weeks | 10 weeks |" in text
    assert "6 months to 2 years" not in text
    assert_pinned(generation, [p])


def test_a_band_answers_a_question_of_another_kind() -> None:
    p = passage(1, CREDITS)
    generation = generate("if availability was only 97% last month what credit are we owed", p)
    assert "| 95.0% to below 99.0% | 10% |" in generation.claims[0].text


def test_a_band_is_the_entry_only_for_what_its_table_says() -> None:
    header = "| Continuous service | Full pay | Half pay |"
    row = "| 2 to 5 years | 10 weeks | 10 weeks |"
    asked = parse_question("I've been here 3 years, how long do I get full pay?")
    assert names_row(asked, row, header)
    # Its figure alone: the question asks something the table does not say.
    parking = parse_question("I've been here 3 years, how long can I park on site?")
    assert not names_row(parking, row, header)


def test_a_figure_the_table_states_is_what_is_asked_not_the_case() -> None:
    p = passage(1, SICK_PAY)
    generation = generate("Which length of service gets 10 weeks of full pay?", p)
    assert "Less than 6 months" not in generation.claims[0].text
    # "10 weeks" is a value of the table, not a length of service.
    header = "| Continuous service | Full pay | Half pay |"
    row = "| Less than 6 months | None | None |"
    values = frozenset({("days", 28.0), ("days", 70.0), ("days", 112.0)})
    asked = parse_question("Which length of service gets 10 weeks of full pay?")
    assert not names_row(asked, row, header, values)
    assert names_row(parse_question("I've been here 10 weeks, what full pay?"), row, header)


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        # Getting is what is asked: the answer may say "To get a refund, ...".
        ("How do I get a refund?", "get"),
        ("Where do we get the VPN client?", "get"),
        # "count as of Q3" is a count on a date, not "counts as".
        ("What was the user count as of Q3?", "count"),
    ],
)
def test_words_that_only_look_like_framing_stay(question: str, kept: str) -> None:
    assert kept in parse_question(question).stems


def test_a_scope_question_under_a_policy_keeps_its_words() -> None:
    # "covered" is no term of the policy: the policy's scope is asked for.
    covered = parse_question("Who is covered under the policy?")
    assert covered.term != "covered"
    assert {"cover", "polici"} <= set(covered.stems)
    included = parse_question("What is included in our SLA?")
    assert not included.term and {"includ", "sla"} <= set(included.stems)


def test_only_the_kind_of_document_is_dropped() -> None:
    # Which policy is still said: the security policy's incident, not another's.
    incident = parse_question("What is an incident in the security policy?")
    assert incident.term == "incident"
    assert "secur" in incident.stems and "polici" not in incident.stems
    seat = parse_question("What is a seat in the master services agreement?")
    assert seat.term == "seat"


@pytest.mark.parametrize(
    ("question", "held"),
    [
        # The user's own figure, though the table also states it as a value.
        ("I've been here 4 weeks, how long do I get full salary if I'm off sick?", True),
        # A figure asked for, which the table states: not the case.
        ("Which length of service gets 4 weeks of full pay?", False),
    ],
)
def test_a_stated_figure_is_the_case_unless_it_is_asked_for(question: str, held: bool) -> None:
    stated = frozenset({("days", 28.0), ("days", 70.0)})
    assert (in_band(question, "Less than 6 months", stated) is not None) is held


def test_a_key_naming_a_tier_by_number_is_no_band_and_no_error() -> None:
    # "Tier 1 – 0%" once divided by its zero; it is a name's number and a figure.
    tiers = (
        "## Credits\n\n"
        "| Monthly availability | Service Credit |\n|---|---|\n"
        "| Tier 1 – 0% | None |\n| Band 1: £0 | None |\n| 95.0% to below 99.0% | 10% |\n"
    )
    generation = generate("if availability was 97% what credit are we owed", passage(1, tiers))
    assert "| 95.0% to below 99.0% | 10% |" in generation.claims[0].text


def test_who_is_covered_asks_the_policy_s_scope() -> None:
    covered = parse_question("Who is covered under the policy?")
    assert covered.kind is not QuestionKind.DEFINITION and not covered.term
    # A noun that ends in "ed" is still a term.
    assert parse_question("What is a seed in the contract?").term == "seed"


def test_a_yes_no_question_after_a_scene_is_not_asked_of_a_tier() -> None:
    # "do i get ...?" after a comma asks whether: a tier row, keyed by the 4 months
    # the scene states, is no answer to it (here: of another table altogether).
    question = "i only started 4 months ago and i'm pregnant, do i get the enhanced maternity pay?"
    asked = parse_question(question)
    assert asked.whether
    header = "| Continuous service | Full pay | Half pay |"
    assert not names_row(asked, "| Less than 6 months | None | None |", header)
    text = SICK_PAY + (
        "\n\n## 7. Maternity pay\n\n"
        "Primary carers with at least 26 weeks of continuous service receive enhanced "
        "maternity pay of 20 weeks at full pay."
    )
    generation = generate(question, passage(1, text))
    assert generation.claims[0].text.startswith("Primary carers with at least 26 weeks")
