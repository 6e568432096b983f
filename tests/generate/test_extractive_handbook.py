"""Questions a team asks of its own travel, security and leave handbooks (found by
asking them of handbooks written for the purpose): amounts in pence, allowances and
periods asked for by name, lists under a heading worded as the question, definition
lists, dated fields and "what are the steps to ..."."""

from __future__ import annotations

from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.cues import states_expected
from pincite.generate.extractive import ExtractiveGenerator
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
    for stated in (
        "Parking is refunded at 30c an hour.",
        "The rate is 45p.",
        "Rate: 45p\nBus: 20p",
    ):
        assert states_expected(question, stated), stated
    # A temperature, a page, a video's resolution or a clause is no amount.
    for text in ("Mileage is logged at 5 C and 10 P.", "Video is 1080p.", "See clause 12c."):
        assert not states_expected(question, text), text
    p = passage(1, ALLOWANCES)
    generation = generate("How much is mileage paid?", p)
    assert "| Mileage | 45p per mile |" in generation.claims[0].text
    assert_pinned(generation, [p])


def test_an_allowance_asked_for_by_name_is_its_amount() -> None:
    question = parse_question("What is the daily meal allowance?")
    # Some number: a leave or baggage allowance is days or kilos, not money.
    assert (question.kind, question.expects) == (QuestionKind.NUMBER, "amount")
    p = passage(1, ALLOWANCES)
    generation = generate("What is the daily meal allowance?", p)
    # Not "The daily meal allowance is not paid when ...", which states no amount.
    assert "| Daily meal allowance | £45 |" in generation.claims[0].text
    assert states_expected(question, "25 days") and not states_expected(question, "not paid")
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
        assert not states_expected(question, "It improves much more, as Table 3 shows.")
    assert parse_question("How much does the growth plan cost?").expects == "money"
    # A price named is money, whatever "more" follows it.
    storage = parse_question("How much does it cost to store more than 1 TB of logs?")
    assert storage.expects == "money"


def test_a_period_or_notice_asked_for_is_a_quantity() -> None:
    notice = parse_question("How much notice is needed for a leave request?")
    assert (notice.kind, notice.expects) == (QuestionKind.NUMBER, "duration")
    # A period may be a length or a span of dates ("1 April to 31 March"): any number.
    period = parse_question("What is the retention period for backups?")
    assert (period.kind, period.expects) == (QuestionKind.NUMBER, "amount")
    p = passage(
        1,
        "## Retention\n\n| Record | Retention period |\n| --- | --- |\n"
        "| Access logs | 12 months |\n| Backups | 90 days |\n\n"
        "Backups are stored in a second region.\n",
    )
    generation = generate("What is the retention period for backups?", p)
    assert "| Backups | 90 days |" in generation.claims[0].text
    reporting = passage(
        2,
        "## Reporting\n\nThe reporting period runs from 1 April to 31 March. Reports are "
        "due within 30 days after the end of each quarter.\n",
    )
    answer = generate("What is the reporting period?", reporting)
    assert answer.claims[0].text == "The reporting period runs from 1 April to 31 March."


def test_an_amount_word_inside_a_longer_noun_asks_for_no_amount() -> None:
    for text in (
        "What is the fee waiver process?",
        "What is the learning rate schedule?",
        "What is the cost function?",
    ):
        assert parse_question(text).kind is not QuestionKind.NUMBER, text
    p = passage(
        1,
        "## Fee waivers\n\nFee waivers are requested through the finance portal and "
        "approved by the CFO. The standard course fee is £50.\n",
    )
    generation = generate("What is the fee waiver process?", p)
    assert generation.claims[0].text.startswith("Fee waivers are requested")
    steps = parse_question("What are the steps for budget approval?")
    assert steps.kind is QuestionKind.PROCEDURE


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
    for stated in (
        "Requests give up after 500ms.",
        "Retry after 1m30s.",
        "Set `5m`.",
        "Wait 5 min.",
    ):
        assert states_expected(question, stated), stated
    for text in ("Use a 2d grid of 5m cells.", "Logs were first kept in the 1990s."):
        assert not states_expected(question, text), text
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
    # Nor is one that a later block's fence seems to close, across a heading.
    text += "\n## Logs\n\nRead the logs with:\n\n```bash\njournalctl -u payments\n```\n"
    generation = generate("How do I restart the payments service?", passage(1, text))
    assert all("## Logs" not in c.text for c in generation.claims)


FAQ = b"""<h1>IT Help FAQ</h1>
<details><summary>How do I reset my password?</summary>
<p>Go to the password portal and follow the steps. You will need your phone for the code.</p>
</details>
<details><summary>Can I use my own laptop for work?</summary>
<p>No. Only company-managed devices may connect to the corporate network.</p>
</details>"""


def test_a_question_on_its_own_line_titles_its_answer_and_is_never_the_answer() -> None:
    text = parse_bytes(FAQ, "faq.html").text
    roles = {text[u.start : u.end]: u.role for u in layout(text, "IT Help FAQ")}
    assert roles["How do I reset my password?"] is Role.HEADING
    assert roles["Can I use my own laptop for work?"] is Role.HEADING
    p = passage(1, text)
    reset = generate("How do I reset my password?", p)
    # The FAQ's question was quoted back as its own answer.
    assert reset.claims[0].text.startswith("Go to the password portal")
    # "No." opens the reply; it names no term the sentence after it defines.
    assert roles["No."] is not Role.LABEL
    own = generate("Can I use my own laptop for work?", p)
    assert own.claims[0].text == (
        "No. Only company-managed devices may connect to the corporate network."
    )
    assert_pinned(own, [p])
    # A question inside a paragraph is still read as part of it.
    inline = "Why rotate keys? Rotation limits what a leaked key exposes."
    assert layout(inline, "Keys")[0].role is not Role.HEADING


def test_a_negated_condition_in_a_question_is_no_question_turned_round() -> None:
    faq = (
        "## Expenses FAQ\n\n### What if I lose a receipt?\n\nFill in a missing-receipt "
        "declaration and ask your manager to countersign it.\n\n### When are claims paid?\n\n"
        "Claims are paid with the next monthly salary if you submit a receipt for each item.\n"
    )
    generation = generate("What if I don't have a receipt?", passage(1, faq))
    assert generation.claims[0].text.startswith("Fill in a missing-receipt declaration")


def test_negation_by_word_or_curly_apostrophe_turns_a_heading_round() -> None:
    paid = passage(2, "## Hotels\n\nHotel bills are reimbursed within 30 days of the stay.\n")
    for heading in (
        "## What isn\u2019t reimbursed",
        "## What is excluded from reimbursement?",
        "## 4.2 What is not reimbursed",
    ):
        listed = passage(
            1,
            heading + "\n\n- Alcohol, except when entertaining a client\n"
            "- Fines for parking or speeding offences\n",
        )
        generation = generate("What is reimbursed?", listed, paid)
        assert generation.claims[0].text.startswith("Hotel bills"), heading
    numbered = passage(1, "## 4.2 What is not reimbursed\n\n- Alcohol\n- Parking fines\n")
    assert len(generate("What is not reimbursed?", numbered).claims) == 2


def test_a_question_heading_ending_a_chunk_is_answered_by_the_list_opening_the_next() -> None:
    first = "## Hotels\n\nHotel bills are reimbursed within 30 days of the stay.\n\n"
    first += "## What is not reimbursed"
    second = "- Alcohol, except when entertaining a client\n- Fines for parking\n- Minibar items\n"
    a = passage(1, first, document=7)
    b = passage(2, second, start=len(first) + 2, document=7)
    generation = generate("What is not reimbursed?", a, b)
    assert [c.text for c in generation.claims] == [
        "Alcohol, except when entertaining a client",
        "Fines for parking",
        "Minibar items",
    ]
    assert_pinned(generation, [a, b])


def test_a_sentence_cut_by_a_chunk_still_runs_on_into_a_lead_in() -> None:
    first = (
        "## Travel\n\nLaptops taken abroad must be encrypted. Employees who travel abroad "
        "with a company laptop are required to tell the security team in writing, and they"
    )
    second = "must also follow these rules while they are away:\n\n- Keep the laptop with you.\n"
    a = passage(1, first, document=7)
    b = passage(2, second, start=len(first) + 1, document=7)
    generation = generate(
        "What are employees who travel abroad with a company laptop required to do?", a, b
    )
    assert generation.claims[0].text.endswith("while they are away:")


def test_cant_and_wont_turn_a_heading_round() -> None:
    paid = passage(2, "## Hotels\n\nHotel bills are reimbursed within 30 days of the stay.\n")
    for heading in ("## What can't I claim?", "## What won’t be reimbursed?"):
        listed = passage(
            1,
            heading + "\n\n- Alcohol, except when entertaining a client\n"
            "- Fines for parking or speeding offences\n",
        )
        question = "What can I claim?" if "claim" in heading else "What will be reimbursed?"
        generation = generate(question, listed, paid)
        assert all("Alcohol" not in c.text for c in generation.claims), heading


def test_a_sentence_cut_by_a_chunk_does_not_run_on_into_a_page_number_or_footnote() -> None:
    first = (
        "## Connections\n\nA client that sees an error from a server MUST close the connection and"
    )
    for rest in ("12\n\nit SHOULD NOT reuse it.", "6 The Office of Management issues guidance."):
        a = passage(1, first, document=7)
        b = passage(2, rest, start=len(first) + 1, document=7)
        ranked = ExtractiveGenerator().rank_sentences("What must a client do?", [a, b])
        cut = [c.text for c in ranked if "close the connection" in c.text]
        assert cut == ["A client that sees an error from a server MUST close the connection and"]


def test_a_question_in_prose_a_chat_or_a_research_question_titles_nothing() -> None:
    rfc = (
        "10.4.9 408 Request Timeout\n\n"
        "The client did not produce a request within the time the server was prepared to wait.\n"
        "Is waiting longer always better for the server?\n"
        "The client MAY repeat the request without modifications at any later time.\n"
    )
    chat = "Alice: When will the report be sent?\n\nBob: I need to check with finance first.\n"
    paper = "RQ2: How does model size affect robustness?\n\nWe evaluate seven models on GSM8K.\n"
    for text, line in (
        (rfc, "Is waiting longer always better for the server?"),
        (chat, "Alice: When will the report be sent?"),
        (paper, "RQ2: How does model size affect robustness?"),
    ):
        roles = {text[u.start : u.end]: u.role for u in layout(text, "Doc")}
        assert roles[line] is not Role.HEADING, line
    answer = generate("When may a client repeat a request after a 408 timeout?", passage(1, rfc))
    assert answer.claims[0].text.startswith("The client MAY repeat the request")


def test_a_reply_opens_the_claim_only_for_the_question_its_heading_asks() -> None:
    text = "### Is the basic plan free?\n\nNo. The basic plan costs 5 dollars a month.\n"
    asked = generate("Is the basic plan free?", passage(1, text))
    assert asked.claims[0].text == "No. The basic plan costs 5 dollars a month."
    other = generate("Does the basic plan cost money?", passage(1, text))
    # "No." answers the heading's question, not this one.
    assert other.claims[0].text == "The basic plan costs 5 dollars a month."


def test_how_long_is_a_named_period_is_answered_by_a_duration_that_never_says_period() -> None:
    text = (
        "## Leaving\n\nThe notice period for every role is written in the employment contract.\n"
        "Staff must give four weeks' notice before their last day.\n"
    )
    generation = generate("How long is the notice period?", passage(1, text))
    assert generation.claims[0].text.startswith("Staff must give four weeks' notice")


def test_an_amount_word_before_a_clause_still_asks_an_amount() -> None:
    for text in (
        "What is the monthly fee, including VAT?",
        "What is the rate they charge?",
        "What are the fees charged by the bank?",
    ):
        assert parse_question(text).kind is QuestionKind.NUMBER, text


def test_an_http_range_header_asks_for_no_span() -> None:
    # "Range" names the header; "date range" and "age range" ask for a span.
    for text in (
        "How can a client request only the last N bytes of a file with the Range header?",
        "Our proxy forwarded a Range request. What should it send to the client?",
    ):
        assert parse_question(text).kind is not QuestionKind.NUMBER, text
    for text in ("What is the longest date range a report can cover?", "What age range is in it?"):
        assert parse_question(text).kind is QuestionKind.NUMBER, text


def test_an_allowance_of_kilos_is_answered_in_kilos() -> None:
    text = (
        "## Baggage\n\nThe checked baggage allowance is 23 kg per passenger.\n"
        "Extra bags beyond the baggage allowance cost EUR 50 each.\n"
    )
    generation = generate("What is the baggage allowance?", passage(1, text))
    # An allowance asks for a number, not for money: the kilos are no longer marked down.
    claims = [c.text for c in generation.claims]
    assert "The checked baggage allowance is 23 kg per passenger." in claims


def test_a_heading_asking_another_question_word_is_no_restatement() -> None:
    text = (
        "## How to approve expenses\n\n- Open the claim in the portal\n"
        "- Check each receipt against the policy\n- Click Approve\n\n"
        "## Approvers\n\nExpenses are approved by the employee's line manager.\n"
    )
    for question in ("Who approves expenses?", "When are expenses approved?"):
        generation = generate(question, passage(1, text))
        assert generation.claims[0].text.startswith("Expenses are approved by"), question
    # The heading's own question still gets its steps.
    steps = generate("How do I approve expenses?", passage(1, text))
    assert [c.text for c in steps.claims][:1] == ["Open the claim in the portal"]


def test_non_turns_a_heading_round_and_list_questions_skip_the_opposite_list() -> None:
    text = (
        "## What is non-reimbursable\n\n- Alcohol, except when entertaining a client\n"
        "- Minibar charges at any hotel\n\n## What is reimbursable\n\n"
        "- Economy airfare booked through the portal\n- Hotel rooms up to the city limit\n"
    )
    generation = generate("What is reimbursable?", passage(1, text))
    assert all("Alcohol" not in c.text for c in generation.claims)
    devices = (
        "### Which devices are not allowed on the network?\n\n- Personal routers\n"
        "- Unmanaged phones\n\n### Which devices are allowed on the network?\n\n"
        "- Company laptops\n- Company phones\n"
    )
    listed = generate("Which devices are allowed on the network?", passage(1, devices))
    assert [c.text for c in listed.claims] == ["Company laptops", "Company phones"]


def test_a_reason_or_the_terms_of_a_fee_ask_for_no_amount() -> None:
    for text in (
        "What is the reason for the fee?",
        "What is the purpose of the fee?",
        "What are the conditions of the allowance?",
    ):
        assert parse_question(text).kind is not QuestionKind.NUMBER, text


def test_a_command_block_with_a_comment_is_quoted_whole() -> None:
    text = (
        "Set the variables in /etc/payments/env, then restart the service:\n\n"
        "```bash\n# reload unit files first\nsudo systemctl daemon-reload\n"
        "sudo systemctl restart payments\n```\n"
    )
    generation = generate("How do I restart the payments service?", passage(1, text))
    claim = generation.claims[0].text
    assert "sudo systemctl restart payments" in claim and claim.endswith("```")


def test_a_status_codes_plural_is_no_duration() -> None:
    question = parse_question("What is the timeout for the payments gateway?")
    assert not states_expected(question, "The gateway returns 503s when the database is down.")
    assert states_expected(question, "Set `300s` as the timeout.")
