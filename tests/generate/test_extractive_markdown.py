"""What a team's own Markdown (and HTML) handbook holds: numbered headings, tables,
amounts in ISO currency codes, and questions typed with contractions."""

from __future__ import annotations

import pytest
from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.base import Passage
from pincite.generate.cues import states_expected
from pincite.generate.extractive import ExtractiveGenerator
from pincite.generate.layout import Role, layout
from pincite.generate.question import parse_question
from pincite.generate.scoring import Scoring
from pincite.generate.words import content_stems
from pincite.ingest.parse import parse_bytes
from pincite.retrieve.query import query_terms

HEADING_WEIGHT = Scoring().heading_weight

EXPENSES = (
    "## 3. Expenses\n\n"
    "Receipts must be submitted within 30 days of the expense.\n\n"
    "| Item | Limit |\n"
    "|------|:-----:|\n"
    "| Hotel (per night) | EUR 150 |\n"
    "| Taxi (per trip) | EUR 60 |\n\n"
    "Claims above these limits require approval by a director.\n"
)


def test_a_numbered_markdown_heading_is_one_title() -> None:
    units = layout(EXPENSES, "Handbook")
    heading = units[0]
    assert heading.role is Role.HEADING
    assert EXPENSES[heading.start : heading.end] == "## 3. Expenses"
    receipts = units[1]
    assert receipts.role is Role.STATEMENT
    assert receipts.title == "## 3. Expenses"
    assert receipts.first


def test_each_table_row_is_a_unit_and_the_rule_is_furniture() -> None:
    rows = [
        (EXPENSES[u.start : u.end], u.role)
        for u in layout(EXPENSES, "Handbook")
        if "|" in EXPENSES[u.start : u.end]
    ]
    assert rows == [
        ("| Item | Limit |", Role.FRAGMENT),
        ("|------|:-----:|", Role.FURNITURE),
        ("| Hotel (per night) | EUR 150 |", Role.FRAGMENT),
        ("| Taxi (per trip) | EUR 60 |", Role.FRAGMENT),
    ]


BARLESS = (
    "## Travel\n\n"
    "Item | Cap\n"
    "--- | :---:\n"
    "Taxi per ride | EUR 60\n"
    "Train ticket | EUR 200\n\n"
    "Book every train ticket through the travel desk.\n"
)


def test_a_table_without_outer_bars_is_read_row_by_row() -> None:
    # GitHub's tables may leave the outer bars off; the rows were read as code.
    units = layout(BARLESS, "Handbook")
    assert [(BARLESS[u.start : u.end], u.role, u.row) for u in units[1:]] == [
        ("Item | Cap", Role.FRAGMENT, True),
        ("--- | :---:", Role.FURNITURE, True),
        ("Taxi per ride | EUR 60", Role.FRAGMENT, True),
        ("Train ticket | EUR 200", Role.FRAGMENT, True),
        ("Book every train ticket through the travel desk.", Role.STATEMENT, False),
    ]
    p = passage(1, BARLESS)
    generation = generate("How much can I spend on a train ticket?", p)
    assert generation.claims[0].text == "Item | Cap Train ticket | EUR 200"
    assert_pinned(generation, [p])


def test_bars_in_prose_or_grammar_make_no_table() -> None:
    text = 'Method = "OPTIONS" | "GET" | "HEAD"\nextension-method = token\n'
    assert not any(u.row for u in layout(text, "RFC 2616"))


def test_a_row_is_quoted_with_its_own_tables_header() -> None:
    # Two tables one under the other: the second's rows are not the first's.
    text = EXPENSES.replace("\nClaims above", "\n" + BARLESS.split("\n\n", 1)[1] + "\nClaims above")
    p = passage(1, text)
    claim = generate("How much can I spend on a train ticket?", p).claims[0]
    assert claim.text == "Item | Cap Train ticket | EUR 200"
    hotel = generate("What is the hotel limit per night?", p).claims[0]
    assert hotel.text == "| Item | Limit | | Hotel (per night) | EUR 150 |"


def test_a_wrapped_sentence_run_into_a_table_stays_one_sentence() -> None:
    # No stop before the table: the sentence splitter hands over the sentence and
    # the rows as one span, and only the rows are cut out of it.
    text = (
        "Claims are paid up to the limits that the finance team sets\n"
        "for each kind of expense, as listed here\n"
        "| Item | Limit |\n|---|---|\n| Hotel | EUR 150 |\n"
    )
    units = layout(text, "Handbook")
    assert [(text[u.start : u.end], u.role) for u in units[:2]] == [
        (
            "Claims are paid up to the limits that the finance team sets\n"
            "for each kind of expense, as listed here",
            Role.STATEMENT,
        ),
        ("| Item | Limit |", Role.FRAGMENT),
    ]


def test_a_table_row_answers_a_number_question_with_its_header_row() -> None:
    p = passage(1, EXPENSES)
    generation = generate("What is the hotel limit per night?", p)
    claim = generation.claims[0]
    header = EXPENSES.index("| Item | Limit |")
    hotel = EXPENSES.index("| Hotel (per night) | EUR 150 |")
    assert claim.spans == (
        (header, header + len("| Item | Limit |")),
        (hotel, hotel + len("| Hotel (per night) | EUR 150 |")),
    )
    assert claim.quote is None
    assert_pinned(generation, [p])
    taxi = generate("How much is the taxi limit per trip?", p).claims[0]
    assert "EUR 60" in taxi.text
    assert "EUR 150" not in taxi.text


def test_an_html_table_is_read_like_a_markdown_one() -> None:
    text = parse_bytes(
        b"<h2>3. Expenses</h2><table><tr><th>Item</th><th>Limit</th></tr>"
        b"<tr><td>Hotel (per night)</td><td>EUR 150</td></tr>"
        b"<tr><td>Taxi (per trip)</td><td>EUR 60</td></tr></table>",
        "expenses.html",
    ).text
    p = passage(1, text)
    generation = generate("What is the taxi limit per trip?", p)
    assert generation.claims[0].text == "| Item | Limit | | Taxi (per trip) | EUR 60 |"
    assert_pinned(generation, [p])


def test_a_chunk_that_opens_mid_table_has_no_header_row_to_quote() -> None:
    rows = "| Hotel (per night) | EUR 150 |\n\n| Taxi (per trip) | EUR 60 |"
    cut = passage(2, rows, start=400)  # a later chunk of its document
    claims = generate("What is the taxi limit per trip?", cut).claims
    assert all("Hotel" not in c.text for c in claims)
    whole = passage(1, rows)  # the document's start: its first row is the header
    assert "Hotel" in generate("What is the taxi limit per trip?", whole).claims[0].text


def test_a_table_row_is_no_answer_to_a_question_that_asks_for_no_number() -> None:
    p = passage(1, EXPENSES)
    claim = generate("Who approves claims above the hotel limit?", p).claims[0]
    assert claim.text == "Claims above these limits require approval by a director."


def test_a_row_on_one_revision_does_not_answer_for_another() -> None:
    table = (
        "| document | published |\n"
        "|---|---|\n"
        "| SP 800-46 Revision 1 | June 2009 |\n"
        "| SP 800-46 Revision 2 | July 2016 |\n"
    )
    p = passage(1, table)
    asked = generate("When was SP 800-46 Revision 2 published?", p).claims[0]
    assert "July 2016" in asked.text
    assert "June 2009" not in asked.text
    never = generate("When was SP 800-46 Revision 3 published?", p)
    assert all("2009" not in c.text and "2016" not in c.text for c in never.claims)


STEPS = (
    "## Resetting your password\n\n"
    "1. Open the self-service portal.\n"
    "2. Choose Forgot password and enter your employee number.\n"
    "3. Follow the link sent to your phone within 15 minutes.\n\n"
    "## Choosing a password\n\n"
    "Passwords must be at least 14 characters long.\n"
)


def test_a_short_first_step_is_a_step_not_a_numbered_heading() -> None:
    roles = [(STEPS[u.start : u.end], u.role) for u in layout(STEPS, "Handbook")][1:4]
    assert [r for _, r in roles] == [Role.ITEM] * 3


RETURNS = (
    "## Returning an item\n\n"
    "You can return most items within 30 days of delivery for a full refund. "
    "Items must be unused and in their original packaging.\n\n"
    "To start a return:\n\n"
    "1. Sign in to your account and open Orders.\n"
    "2. Select the item and choose Return.\n"
    "3. Drop the parcel at any post office.\n"
)


@pytest.mark.parametrize(
    ("text", "question", "steps"),
    [
        # Under the heading naming the task.
        (
            STEPS,
            "How do I reset my password?",
            [
                "1. Open the self-service portal.",
                "2. Choose Forgot password and enter your employee number.",
                "3. Follow the link sent to your phone within 15 minutes.",
            ],
        ),
        # Under a lead-in naming the task with its heading ("return" + "item").
        (
            RETURNS,
            "How do I return an item?",
            [
                "1. Sign in to your account and open Orders.",
                "2. Select the item and choose Return.",
                "3. Drop the parcel at any post office.",
            ],
        ),
    ],
)
def test_a_procedure_is_answered_with_the_steps_named_for_its_task(
    text: str, question: str, steps: list[str]
) -> None:
    p = passage(1, text)
    generation = generate(question, p)
    assert [c.text for c in generation.claims] == steps
    assert_pinned(generation, [p])


def test_a_lead_in_naming_another_task_gives_no_steps() -> None:
    p = passage(1, RETURNS.replace("To start a return:", "To track a delivery:"))
    claims = generate("How do I return an item?", p).claims
    assert not any(c.text.startswith("1. Sign in") for c in claims[1:])
    assert len(claims) < 3


def test_lines_under_a_procedures_heading_that_are_no_steps_are_not_its_steps() -> None:
    text = (
        "## Resetting your password\n\n"
        "The self-service portal resets passwords for every employee account.\n"
        "The service desk resets passwords for contractors on request.\n"
    )
    p = passage(1, text)
    claims = generate("How do I reset my password?", p).claims
    assert len(claims) < 2  # the best sentence, not every line as a step


def test_an_iso_currency_code_before_the_amount_states_money() -> None:
    q = parse_question("How much is mileage reimbursed?")
    assert q.expects == "money"
    assert states_expected(q, "reimbursed at EUR 0.30 per kilometre")
    assert states_expected(q, "a fee of 45 CHF")
    assert not states_expected(q, "reimbursed per kilometre driven")


def test_contractions_leave_no_word_behind() -> None:
    assert content_stems("When must I tell my manager I'm sick?") == content_stems(
        "When must I tell my manager sick?"
    )
    assert query_terms("Why doesn't the server cache what we've sent?") == [
        "server",
        "cache",
        "sent",
    ]
    assert content_stems("They’re here and we'll wait") == content_stems("here wait")
    assert query_terms("Can't I take vitamin D?") == ["take", "vitamin", "d"]


def test_markdown_emphasis_and_star_bullets_are_no_code() -> None:
    # Their asterisks counted as code symbols: the sentences were never quoted.
    text = (
        "**Receipts** are required for all claims.\n\n"
        "**Note:** Claims must be filed within 30 days.\n\n"
        "The company provides:\n\n* a laptop\n* a headset\n\n"
        'chunk-size = 1*HEXDIG *( OWS ";" ) and *DIGIT *( "," )\n'
    )
    assert [r for r, _ in _roles(text)] == [
        Role.STATEMENT,
        Role.STATEMENT,
        Role.LEADIN,
        Role.ITEM,
        Role.ITEM,
        Role.FRAGMENT,
    ]


def test_a_short_sentence_with_a_verb_is_a_claim() -> None:
    text = (
        "## Who can work remotely\n\n"
        "Employees who have completed probation may work remotely three days a week. "
        "Contractors are not eligible.\n"
    )
    assert _roles(text)[-1] == (Role.STATEMENT, "Contractors are not eligible.")
    p = passage(1, text)
    generation = generate("Can contractors work remotely?", p)
    assert generation.claims[0].text == "Contractors are not eligible."
    assert_pinned(generation, [p])
    # Without a verb, a short line is still a label or a heading.
    assert _roles("Rapid elasticity. Capabilities can be provisioned and released.\n")[0] == (
        Role.LABEL,
        "Rapid elasticity.",
    )


def test_a_sentence_ending_in_a_mail_address_is_a_claim_not_a_heading() -> None:
    text = (
        "## Getting help\n\n"
        "Contact the IT service desk at itsupport@example.com or call extension 4400.\n"
        "For HR questions, email hr@example.com\n"
    )
    assert _roles(text)[-1] == (Role.STATEMENT, "For HR questions, email hr@example.com")


def test_a_row_with_a_full_stop_in_a_cell_is_one_unit() -> None:
    text = "| Item | Limit |\n|---|---|\n| Hotel | EUR 150. Breakfast is extra. |\n"
    assert _roles(text) == [
        (Role.FRAGMENT, "| Item | Limit |"),
        (Role.FURNITURE, "|---|---|"),
        (Role.FRAGMENT, "| Hotel | EUR 150. Breakfast is extra. |"),
    ]


def _roles(text: str) -> list[tuple[Role, str]]:
    return [(u.role, text[u.start : u.end]) for u in layout(text, "Handbook")]


def test_a_bulleted_list_ends_at_the_next_paragraph() -> None:
    # The paragraph after the bullets was read as one more item of the lead-in's run.
    text = (
        "## Equipment\n\nThe company provides:\n\n"
        "* a laptop\n* a headset\n* one external monitor\n\n"
        "You may claim up to 300 pounds once for office furniture.\n"
    )
    p = passage(1, text)
    generation = generate("Which items does the company provide?", p)
    assert [c.text for c in generation.claims] == [
        "The company provides: * a laptop * a headset * one external monitor"
    ]
    assert_pinned(generation, [p])


def test_an_indented_paragraph_in_a_loose_list_belongs_to_its_item() -> None:
    text = (
        "Staff may take the following devices home:\n\n- Laptops issued by IT.\n\n"
        "  Laptops must be encrypted before they leave the office.\n\n"
        "- Phones issued by IT.\n- Tokens for remote access.\n"
    )
    answer = _answer("Which devices may staff take home?", passage(1, text))
    assert "Tokens for remote access." in answer


def test_bars_in_a_fenced_code_block_make_no_table() -> None:
    text = "Run this:\n\n```\na | b\n--- | ---\nx | y\n```\n"
    assert not any(u.row for u in layout(text, "Handbook"))


def test_a_barless_row_ending_in_an_address_stays_a_row() -> None:
    # Read as a statement, the row would be quoted without the header naming its cells.
    text = (
        "## Contacts\n\nTeam | Contact\n--- | ---\n"
        "Human resources and payroll | hr@example.com\nIT service desk | https://it.example.com\n"
    )
    assert [(u.role, u.row) for u in layout(text, "Handbook")[1:]] == [
        (Role.FRAGMENT, True),
        (Role.FURNITURE, True),
        (Role.FRAGMENT, True),
        (Role.FRAGMENT, True),
    ]


BOOKING = (
    "### How do I book leave?\n\n"
    "1. Open the HR portal.\n2. Choose **Request leave**.\n3. Enter the dates and submit.\n\n"
    "Your manager approves or declines the request within 3 working days.\n"
)


def test_numbered_lines_one_under_the_other_are_steps() -> None:
    # Read as numbered headings ("4. Approving Authority."), the steps titled
    # each other and the procedure was never quoted.
    assert [r for r, _ in _roles(BOOKING)] == [
        Role.HEADING,
        Role.ITEM,
        Role.ITEM,
        Role.ITEM,
        Role.STATEMENT,
    ]
    p = passage(1, BOOKING)
    generation = generate("How do I book leave?", p)
    assert [c.text for c in generation.claims] == [
        "1. Open the HR portal.",
        "2. Choose **Request leave**.",
        "3. Enter the dates and submit.",
    ]
    assert_pinned(generation, [p])


def test_numbered_headings_apart_stay_headings() -> None:
    # FIPS 199's "1. Name of Standard." and "2. Category of Standard." each open a paragraph.
    text = (
        "1. Name of Standard.\n\nFIPS Publication 199.\n\n2. Category of Standard.\n\nSecurity.\n"
    )
    assert [r for r, _ in _roles(text)][::2] == [Role.HEADING, Role.HEADING]
    apart = "1. Introduction.\n\n2. Scope and applicability.\n"
    assert Role.ITEM not in [r for r, _ in _roles(apart)]


def _faq_and_topic(question: str, heading: str, topic: str, body: str) -> tuple[float, float]:
    """The definition share of ``body``'s first sentence under the question-worded
    ``heading``, and under the plain heading ``topic``."""
    asked = parse_question(question)
    shares = []
    for title in (heading, topic):
        ranked = ExtractiveGenerator().rank(asked, [passage(1, f"### {title}\n\n{body}\n")])
        (first,) = [c for c in ranked if c.text.startswith(body[:20])]
        shares.append(first.definition)
    return shares[0], shares[1]


def test_the_first_sentence_under_a_faq_question_answers_it() -> None:
    faq, topic = _faq_and_topic(
        "Who do I tell if I'm sick?",
        "Who do I tell if I'm sick?",
        "Telling someone you are sick",
        "Call your line manager before 10:00 on the first day of absence. "
        "Sickness records are kept by the people team for six years.",
    )
    # A heading that asks the question is the FAQ's entry: its first sentence gets
    # twice the share the heading names; a topic heading lends a question that
    # asks for no meaning only ``heading_weight`` of that share.
    assert faq == pytest.approx(2 * topic / HEADING_WEIGHT)
    assert topic > 0


def test_a_faq_question_naming_only_the_product_is_not_the_question_asked() -> None:
    faq, topic = _faq_and_topic(
        "How can I download all of my data out of Ledgerlark?",
        "What is Ledgerlark?",
        "Ledgerlark",
        "Ledgerlark is a hosted data pipeline service that delivers your data on a schedule.",
    )
    # The heading holds only the product's name, which the question mentions in
    # passing: it asks another question, whose answer is no answer to this one.
    assert faq == 0 < topic


def test_a_faq_question_is_asked_by_a_question_that_adds_a_condition() -> None:
    faq, topic = _faq_and_topic(
        "How do I reset my password if I no longer have access to my email account?",
        "How do I reset my password?",
        "Password reset",
        "Contact support with your account ID and they will send a reset link.",
    )
    # Two of the question's words are the heading's: it is the question asked, with a
    # condition added, and titles its answer.
    assert faq == pytest.approx(2 * topic / HEADING_WEIGHT)
    assert topic > 0


def test_an_rfc_paragraph_as_indented_as_the_items_ends_the_list() -> None:
    # RFC text indents its paragraphs as deep as its items.
    text = (
        "   A proxy MUST forward the following header fields:\n\n   -  Via\n\n"
        "   -  Cache-Control\n\n"
        "   The proxy MAY add other fields when the origin server asks for them.\n"
    )
    joined = _answer("Which header fields must a proxy forward?", passage(1, text))
    assert "Cache-Control" in joined and "MAY add" not in joined


def test_a_table_of_contents_is_no_run_of_steps() -> None:
    text = (
        "9.8. Privacy of Server Log Information ....71\n"
        "10. Acknowledgments ....72\n11. References ....74\n"
    )
    assert Role.ITEM not in [r for r, _ in _roles(text)]


def test_a_chunk_that_opens_inside_a_code_block_still_reads_its_table() -> None:
    # One fence line: the chunk began (or ends) inside a block, and which is not known.
    text = "x = 1\n```\n\n" + EXPENSES
    assert any(u.row for u in layout(text, "Handbook"))


def test_a_nested_lists_parent_paragraph_does_not_end_the_list() -> None:
    text = (
        "Devices must meet these controls:\n\n- Encryption\n  - Full-disk encryption is required.\n"
        "  - Keys are escrowed with IT.\n\n"
        "  Exceptions must be approved by the security office.\n\n"
        "- Patching\n  - Patches are applied every week.\n"
    )
    answer = _answer("Which controls must devices meet?", passage(1, text))
    assert "Patches are applied every week." in answer


def test_a_list_carried_into_a_chunk_that_opens_on_an_item_ends_at_its_paragraph() -> None:
    # The chunk left out the item's indent; measured from it, the indented
    # paragraph after the list read as one more item.
    first_text = "   A proxy MUST forward the following header fields:\n\n   -  Via\n\n"
    second_text = (
        "-  Cache-Control\n\n   -  Pragma\n\n"
        "   The proxy MAY add other fields when the origin server asks for them.\n"
    )
    first = passage(1, first_text, document=1)
    second = passage(2, second_text, start=len(first_text) + 3, document=1)
    joined = _answer("Which header fields must a proxy forward?", first, second)
    assert "Pragma" in joined and "MAY add" not in joined


def test_a_list_whose_only_item_opens_the_next_chunk_ends_at_its_paragraph() -> None:
    first_text = "## Visitors\n\nEvery visitor must bring the following:\n\n"
    second_text = (
        "- A government-issued photo ID\n\nParking is free for visitors in the north lot.\n\n"
        "The cafeteria is open from 8am to 3pm.\n"
    )
    first = passage(1, first_text, document=1)
    second = passage(2, second_text, start=len(first_text), document=1)
    joined = _answer("What must every visitor bring?", first, second)
    assert "photo ID" in joined and "Parking" not in joined


def _answer(question: str, *passages: Passage) -> str:
    """Every claim of the answer, in order, as one text."""
    return " ".join(c.text for c in generate(question, *passages).claims)


def test_a_list_over_three_chunks_keeps_the_outermost_items_indent() -> None:
    # The second chunk holds one item, the third opens on another: neither
    # line's indent survived chunking, and a nested item's must not stand in.
    texts = (
        "Remote access servers must meet the following requirements:\n",
        "- Servers are patched every month.\n",
        "- Servers log every session.\n  - Logs are kept for a year.\n\n"
        "  Logs are reviewed weekly by the security team.\n\n"
        "- Servers use multi-factor authentication.\n",
    )
    starts = [sum(len(t) for t in texts[:n]) for n in range(len(texts))]
    chunks = [
        passage(n + 1, t, start=s, document=1)
        for n, (t, s) in enumerate(zip(texts, starts, strict=True))
    ]
    answer = _answer("What requirements must remote access servers meet?", *chunks)
    assert "multi-factor authentication" in answer
