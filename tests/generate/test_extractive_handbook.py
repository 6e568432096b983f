"""Questions a team asks of its own travel, security and leave handbooks (found by
asking them of handbooks written for the purpose): amounts in pence, allowances and
periods asked for by name, lists under a heading worded as the question, definition
lists, dated fields and "what are the steps to ..."."""

from __future__ import annotations

from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.cues import states_expected
from pincite.generate.layout import Role, layout
from pincite.generate.question import QuestionKind, parse_question
from pincite.ingest.parse import parse_bytes

ALLOWANCES = (
    "## Allowances\n\n"
    "| Item | Limit | Notes |\n"
    "|------|-------|-------|\n"
    "| Hotel (London) | £180 per night | Including breakfast |\n"
    "| Daily meal allowance | £45 | Receipts required |\n"
    "| Mileage | 45p per mile | First 10,000 miles per year |\n\n"
    "The daily meal allowance is not paid when meals are provided by a client or at a "
    "conference.\n"
)


def test_an_amount_in_pence_is_money() -> None:
    question = parse_question("How much is mileage paid?")
    assert question.expects == "money"
    assert "much" not in question.stems  # "45p per mile" never says "much"
    assert states_expected(question, "| Mileage | 45p per mile |")
    assert states_expected(question, "Parking is refunded at 30c an hour.")
    # A temperature or a page is no amount.
    assert not states_expected(question, "Mileage is logged at 5 C and 10 P.")
    p = passage(1, ALLOWANCES)
    generation = generate("How much is mileage paid?", p)
    assert "| Mileage | 45p per mile |" in generation.claims[0].text
    assert_pinned(generation, [p])


def test_an_allowance_asked_for_by_name_is_its_amount() -> None:
    question = parse_question("What is the daily meal allowance?")
    assert (question.kind, question.expects) == (QuestionKind.NUMBER, "money")
    p = passage(1, ALLOWANCES)
    generation = generate("What is the daily meal allowance?", p)
    # Not "The daily meal allowance is not paid when ...", which states no amount.
    assert "| Daily meal allowance | £45 |" in generation.claims[0].text
    assert_pinned(generation, [p])


def test_a_gain_asked_by_how_much_is_any_number_not_money() -> None:
    for text in (
        "By how much do they improve the efficacy of the attention mechanism?",
        "How much does this model improve the state of the art?",
    ):
        question = parse_question(text)
        assert question.expects == "gain"
        assert states_expected(question, "It improves BLEU by 2.3 points.")
        assert not states_expected(question, "Segmentation improved BIBREF27 attention.")
    assert parse_question("How much does the growth plan cost?").expects == "money"


def test_a_period_or_notice_asked_for_is_a_duration() -> None:
    for text in (
        "What is the retention period for backups?",
        "How much notice is needed for a leave request?",
    ):
        question = parse_question(text)
        assert (question.kind, question.expects) == (QuestionKind.NUMBER, "duration")
    p = passage(
        1,
        "## Retention\n\n| Record | Retention period |\n| --- | --- |\n"
        "| Access logs | 12 months |\n| Backups | 90 days |\n\n"
        "Backups are stored in a second region.\n",
    )
    generation = generate("What is the retention period for backups?", p)
    assert "| Backups | 90 days |" in generation.claims[0].text


NOT_REIMBURSED = (
    "## What is not reimbursed\n\n"
    "- Alcohol, except when entertaining a client\n"
    "- Fines for parking or speeding offences\n"
    "- Personal entertainment such as films or minibar items\n"
)


def test_a_heading_worded_as_the_question_is_answered_by_its_whole_list() -> None:
    p = passage(1, NOT_REIMBURSED)
    generation = generate("What is not reimbursed?", p)
    assert [c.text for c in generation.claims] == [
        "Alcohol, except when entertaining a client",
        "Fines for parking or speeding offences",
        "Personal entertainment such as films or minibar items",
    ]
    assert_pinned(generation, [p])


def test_a_question_the_other_way_round_is_not_answered_by_that_list() -> None:
    p = passage(1, NOT_REIMBURSED)
    paid = passage(2, "## Hotels\n\nHotel bills are reimbursed within 30 days of the stay.\n")
    generation = generate("What is reimbursed?", p, paid)
    # The heading's "not" turns it round: its first item is no answer to what is paid.
    assert generation.claims[0].text == "Hotel bills are reimbursed within 30 days of the stay."
    assert all("Alcohol" not in c.text for c in generation.claims)


def test_an_item_ending_a_chunk_is_not_joined_to_the_heading_opening_the_next() -> None:
    first = NOT_REIMBURSED + "- Upgrades to business class that were not approved in advance"
    second = "## Definitions\n\nPer diem\n: A fixed daily amount paid on international trips."
    a = passage(1, first, document=7)
    b = passage(2, second, start=len(first) + 2, document=7)
    generation = generate("Are business class upgrades reimbursed if not approved?", a, b)
    upgrade = [c for c in generation.claims if "Upgrades" in c.text]
    assert upgrade and all("Definitions" not in c.text for c in upgrade)
    assert_pinned(generation, [a, b])


CLASSIFICATION = (
    b"<h2>Data classification</h2><dl>"
    b"<dt>Public</dt><dd>Information that may be shared with anyone.</dd>"
    b"<dt>Internal</dt><dd>Information for employees only, such as the staff directory.</dd>"
    b"<dt>Confidential</dt><dd>Customer data, contracts and unpublished results.</dd>"
    b"</dl><p>Confidential data must be encrypted at rest and in transit.</p>"
)


def test_a_definition_list_is_a_list_and_each_entry_names_its_term() -> None:
    text = parse_bytes(CLASSIFICATION, "security.html").text
    p = passage(1, text)
    listed = generate("What are the data classifications?", p)
    assert [c.text for c in listed.claims] == [
        "Public : Information that may be shared with anyone.",
        "Internal : Information for employees only, such as the staff directory.",
        "Confidential : Customer data, contracts and unpublished results.",
    ]
    assert_pinned(listed, [p])
    # Markdown writes the same list by hand.
    markdown = passage(
        2,
        "## Data classification\n\nPublic\n: Shared with anyone.\n\n"
        "Internal\n: For employees only.\n",
    )
    assert [c.text for c in generate("What are the data classifications?", markdown).claims] == [
        "Public : Shared with anyone.",
        "Internal : For employees only.",
    ]
    defined = generate("What is confidential data?", p)
    assert defined.claims[0].text.startswith("Confidential : Customer data")


def test_a_dated_field_is_a_statement_and_answers_when() -> None:
    text = "Information Security Standard\n\nLast reviewed: March 2026. Owner: CISO.\n"
    roles = [(text[u.start : u.end], u.role) for u in layout(text, "Standard")]
    assert ("Last reviewed: March 2026.", Role.STATEMENT) in roles
    assert ("Table 2: Retention.", Role.STATEMENT) not in [
        (text2[u.start : u.end], u.role)
        for text2 in ["Table 2: Retention.\n"]
        for u in layout(text2, "Standard")
    ]
    question = parse_question("When was the security standard last reviewed?")
    assert question.expects == "date"
    generation = generate("When was the security standard last reviewed?", passage(1, text))
    assert "March 2026" in generation.claims[0].text


def test_what_are_the_steps_to_do_a_task_is_answered_by_its_steps() -> None:
    question = parse_question("What are the steps to claim expenses?")
    assert question.kind is QuestionKind.PROCEDURE
    assert "step" not in question.stems
    text = (
        "## Claiming expenses\n\n"
        "1. Keep an itemised receipt for every purchase over £10.\n"
        "2. Submit your claim in the expenses system within 30 days.\n"
        "3. Your line manager approves the claim within 5 working days.\n\n"
        "Claims submitted more than 90 days after the expense will not be paid.\n"
    )
    p = passage(1, text)
    generation = generate("What are the steps to claim expenses?", p)
    assert [c.text[:2] for c in generation.claims] == ["1.", "2.", "3."]
    assert_pinned(generation, [p])


RUNBOOK = (
    "## Configuration\n\n"
    "| Variable | Default | Meaning |\n"
    "|----------|---------|---------|\n"
    "| `PAYMENTS_TIMEOUT` | `30s` | How long a request to the bank may take |\n"
    "| `PAYMENTS_RETRIES` | `3` | How many times a failed settlement is retried |\n\n"
    "Set variables in `/etc/payments/env`, then restart the service:\n\n"
    "```bash\n"
    "sudo systemctl restart payments\n"
    "```\n\n"
    "The service reads its variables only at start.\n"
)


def test_a_configured_duration_in_short_units_is_a_duration() -> None:
    question = parse_question("What is the default timeout for bank requests?")
    assert question.expects == "duration"
    assert states_expected(question, "| `PAYMENTS_TIMEOUT` | `30s` |")
    assert states_expected(question, "Requests give up after 500ms.")
    assert not states_expected(question, "Use a 2d grid of 5m cells.")
    p = passage(1, RUNBOOK)
    generation = generate("What is the default timeout for bank requests?", p)
    assert "`30s`" in generation.claims[0].text


def test_a_lead_in_to_a_command_is_answered_with_the_command() -> None:
    p = passage(1, RUNBOOK)
    generation = generate("How do I restart the payments service?", p)
    claim = generation.claims[0]
    assert claim.text.startswith("Set variables in `/etc/payments/env`, then restart the service:")
    assert "sudo systemctl restart payments" in claim.text
    assert claim.text.endswith("```")  # the block whole, its closing fence included
    assert_pinned(generation, [p])


def test_an_unclosed_code_block_is_no_answer_of_a_lead_in() -> None:
    text = "Restart the payments service with:\n\n```bash\nsudo systemctl restart payments\n"
    generation = generate("How do I restart the payments service?", passage(1, text))
    assert all("```" not in c.text for c in generation.claims)
