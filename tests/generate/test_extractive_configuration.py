"""Questions a team asks of a configuration reference, a service level agreement and
a runbook (found by asking them of documents written for the purpose): a table row
whose description says what happens, asked of without its key."""

from __future__ import annotations

from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.cues import kind_cue
from pincite.generate.extractive import ExtractiveGenerator
from pincite.generate.question import parse_question
from pincite.generate.tables import describes, names_row
from pincite.generate.words import content_stems

STORAGE = (
    "## Storage\n\n"
    "The agent keeps what it collects on local disk until it is forwarded.\n\n"
    "| Key | Type | Default | Description |\n"
    "|---|---|---|---|\n"
    "| `storage.data_dir` | path | `/var/lib/agent` | Directory the agent keeps its state in. |\n"
    "| `storage.max_buffer_size` | size | `10GiB` | When the buffer reaches this size, "
    "the agent stops accepting new data and returns HTTP 503. |\n"
    "| `upstream.api_key` | string | *(none)* | Workspace API key. The agent refuses to "
    "start without it. |\n"
)


def test_a_rows_description_answers_a_question_that_does_not_name_its_key() -> None:
    p = passage(1, STORAGE)
    generation = generate("What happens when the local buffer fills up?", p)
    text = generation.claims[0].text
    # The row, under its header row: the description is only read with its key.
    assert text.startswith("| Key | Type | Default | Description |")
    assert "stops accepting new data and returns HTTP 503" in text
    assert "storage.data_dir" not in text
    assert_pinned(generation, [p])


def test_a_rows_description_answers_a_yes_no_question() -> None:
    p = passage(1, STORAGE)
    text = generate("Will the agent start if I don't set an API key?", p).claims[0].text
    assert "refuses to start without it" in text


def test_a_row_describes_only_with_a_sentence_after_its_key() -> None:
    assert describes("| `x.y` | int | `1` | Retries for a failed batch before it is dropped. |")
    # Figures and short labels say nothing of their own: such a row needs its key named.
    assert not describes("| Customer invoices | 7 years | Finance |")
    assert not describes("| Hotel (per night) | EUR 150 |")
    # A sentence in the key cell is the key, not its description.
    assert not describes("| The request body is malformed or a field is missing. | 400 |")


WORKERS = (
    "## Keys\n\n"
    "| Key | Type | Default | Description |\n"
    "|---|---|---|---|\n"
    "| `workers.count` | integer | `0` | Number of forwarding workers. |\n"
    "| `upstream.api_key` | string | *(none)* | Workspace API key. |\n\n"
    "## Environment variables\n\n"
    "Every key can also be set in the environment: upper-case it, replace each dot with a "
    "double underscore and add the prefix `AGENT_`, so `upstream.api_key` becomes "
    "`AGENT_UPSTREAM__API_KEY`.\n"
)
HEADER = "| Key | Type | Default | Description |"


def test_a_named_key_is_the_entry_asked_about_only_when_its_row_holds_the_rest() -> None:
    row = "| `workers.count` | integer | `0` | Number of forwarding workers. |"
    assert names_row(parse_question("What does workers.count set?"), row, HEADER)
    assert names_row(parse_question("What is the default of workers.count?"), row, HEADER)
    # What is asked of the key (a maximum, an allowed value) is not in its row.
    maximum = parse_question("What's the maximum value allowed for workers.count?")
    assert not names_row(maximum, row, HEADER)
    # "How fast" asks for what the row's figure is, not for a word the row must hold.
    sev = "| SEV1 | Customer-facing outage | 15 minutes |"
    fast = parse_question("How fast do we have to respond to a SEV1?")
    assert names_row(fast, sev, "| Severity | Definition | Response |")


def test_a_question_on_a_keys_environment_variable_is_not_answered_by_its_row() -> None:
    p = passage(1, WORKERS)
    asked = "What environment variable do I use to pass upstream.api_key?"
    text = generate(asked, p).claims[0].text
    assert "AGENT_UPSTREAM__API_KEY" in text and "| Key |" not in text


CREDITS = (
    "## Definitions\n\n"
    "- **Monthly Uptime Percentage** is calculated as the minutes in a calendar month, "
    "minus the minutes of Downtime, divided by the minutes in that month.\n\n"
    "## Service credits\n\n"
    "If the Monthly Uptime Percentage for your plan falls below its commitment, you are "
    "entitled to the following Service Credit:\n\n"
    "| Monthly Uptime Percentage | Service Credit |\n"
    "|---|---|\n"
    "| Below 99.9% | 10% |\n"
    "| Below 99.0% | 25% |\n\n"
    "- Service Credits for a single month are capped at 50% of the monthly fee.\n"
    "- Service Credits cannot be exchanged for cash.\n"
)


def test_a_lead_in_over_a_table_does_not_take_the_bullets_after_it_as_its_steps() -> None:
    p = passage(1, CREDITS)
    generation = generate("How do you work out the monthly uptime percentage?", p)
    texts = [c.text for c in generation.claims]
    # The lead-in announces the table; the bullets after it are no steps of its task.
    assert "is calculated as the minutes in a calendar month" in texts[0]
    assert not any("exchanged for cash" in t for t in texts)


SEVERITIES = (
    "## Support severity levels\n\n"
    "When you open a support ticket, you choose an initial severity.\n\n"
    "| Severity | Description | Initial response time |\n"
    "|---|---|---|\n"
    "| P2 – High | A major feature is unusable and there is no workaround | 4 hours |\n"
    "| P3 – Medium | A feature misbehaves but a workaround exists | 8 business hours |\n"
)


def test_a_row_opening_with_a_labelled_code_is_named_by_its_code() -> None:
    p = passage(1, SEVERITIES)
    generation = generate("What's the initial response time for a P3 ticket?", p)
    text = generation.claims[0].text
    assert "| P3 – Medium |" in text and "8 business hours" in text and "| P2" not in text
    assert_pinned(generation, [p])
    header = "| Severity | Description | Initial response time |"
    row = "| P3 – Medium | A feature misbehaves but a workaround exists | 8 business hours |"
    assert names_row(parse_question("What's the response time for P3?"), row, header)
    assert names_row(parse_question("What's the response time for medium P3?"), row, header)
    # The code must be named: "medium" alone is a word a question uses in passing.
    assert not names_row(parse_question("What's the response time for medium?"), row, header)


def test_an_faq_heading_titles_the_answer_only_to_the_question_it_asks() -> None:
    p = passage(
        1,
        "## Are there API rate limits?\n\n"
        "Yes. The Team plan allows 600 API requests per minute per workspace.\n",
    )
    generator = ExtractiveGenerator()

    def first_under_heading(asked: str) -> float:
        ranked = generator.rank(parse_question(asked), [p])
        return next(c.definition for c in ranked if "600 API requests" in c.text)

    asked = first_under_heading("Are there rate limits on the API?")
    # A question naming the API, but asking after something the heading does not: the
    # heading asks another question, and titles no answer to this one.
    other = first_under_heading("Is there a guaranteed maximum API response latency?")
    assert asked > other == 0


def test_a_who_question_is_answered_by_a_sentence_naming_someone() -> None:
    p = passage(
        1,
        "## Expenses\n\n"
        "Expense claims above EUR 500 are approved on Fridays.\n\n"
        "Expense claims above EUR 500 are approved by a director.\n",
    )
    text = generate("Who approves expense claims over 500 euros?", p).claims[0].text
    assert text == "Expense claims above EUR 500 are approved by a director."
    who = parse_question("Who signs off travel?")
    assert kind_cue(who, "Travel is signed off by the CFO.", set())
    assert kind_cue(who, "Each team lead signs off their team's travel.", set())
    assert not kind_cue(who, "Travel is signed off within two days.", set())
    # Not a cue for a question of another kind.
    assert not kind_cue(parse_question("What is signed off?"), "The CFO signs off.", set())


def test_how_much_notice_asks_for_a_time_ahead_not_any_duration() -> None:
    p = passage(
        1,
        "## Requesting leave\n\n"
        "You may request parental leave once you have completed 90 days of service.\n\n"
        "Tell your manager at least 8 weeks before your parental leave is due to start.\n",
    )
    asked = "How much notice do I need to give before my parental leave starts?"
    assert "8 weeks before" in generate(asked, p).claims[0].text
    q = parse_question(asked)
    assert kind_cue(q, "Give two weeks' notice in writing.", set())
    assert kind_cue(q, "Resignations need one month's notice.", set())
    assert kind_cue(q, "Requests must be made 30 days in advance.", set())
    assert not kind_cue(q, "You qualify after 90 days of service.", set())
    assert not kind_cue(q, "You qualify after 90 days of service before you can apply.", set())
    # Kept running for a time after it is announced: that time is the notice; a time
    # after some other event is not.
    assert kind_cue(q, "It keeps running for at least 12 months after the announcement.", set())
    assert kind_cue(q, "It stays up for 12 months after the deprecation announcement.", set())
    assert not kind_cue(q, "Refunds are paid 14 days after the notification.", set())
    # A notice period is any duration; so is every other duration question.
    period = parse_question("How long is the notice period for resignation?")
    assert kind_cue(period, "The period for resignation is four weeks.", set())
    assert kind_cue(parse_question("How long is parental leave?"), "It lasts 90 days.", set())


def test_who_reads_roles_in_any_case_and_not_machines_or_the_questions_own_words() -> None:
    p = passage(
        1,
        "## Payroll\n\n"
        "Payroll records are stored on an encrypted server.\n\n"
        "Only the Finance Director can access payroll records.\n",
    )
    text = generate("Who can access payroll records?", p).claims[0].text
    assert text == "Only the Finance Director can access payroll records."
    who = parse_question("Under the travel policy, who approves trips?")
    assert kind_cue(who, "Managers approve trips.", set())
    assert not kind_cue(who, "Trips are booked on the server overnight.", set())
    assert not kind_cue(who, "Trips are logged in the finance system.", set())
    assert not kind_cue(who, "Trips are booked by customer-facing sites.", set())
    mine = parse_question("Who approves my manager's leave?")
    asked = {"who", "approves", "my", "manager", "s", "leave"}
    assert not kind_cue(mine, "Leave is approved by your manager before it starts.", asked)
    desk = parse_question("Who should I contact about the help desk?")
    asked = {"who", "should", "i", "contact", "about", "the", "help", "desk"}
    assert not kind_cue(desk, "The help desk is open from eight.", asked)


def test_a_row_keyed_by_a_code_is_no_answer_to_what_its_row_does_not_hold() -> None:
    p = passage(
        1,
        "## Severities\n\n"
        "| Level | Meaning |\n"
        "|---|---|\n"
        "| SEV1 | Full outage of a public service |\n\n"
        "## Postmortems\n\n"
        "The VP of Engineering signs off every SEV1 postmortem.\n",
    )
    text = generate("Who approves a SEV1 postmortem?", p).claims[0].text
    assert text == "The VP of Engineering signs off every SEV1 postmortem."
    # A hyphenated word opening a cell is no labelled code: "3rd-party" is not "3rd".
    row = "| 3rd-party processors | Reviewed every year by Legal |"
    third = parse_question("When are 3rd-party contractors reviewed?")
    assert not names_row(third, row, "| Party | Review |")


def test_a_lead_in_over_a_table_in_the_next_chunk_takes_no_bullets_after_it() -> None:
    first = "## Fees\n\nThe fees for each plan are listed below:\n"
    rest = (
        "| Plan | Fee |\n|---|---|\n| Team | EUR 10 |\n\n"
        "- Invoices are sent monthly.\n- Payment is due within 30 days.\n"
    )
    passages = [passage(1, first, document=1), passage(2, rest, start=len(first), document=1)]
    texts = [c.text for c in generate("What are the fees for each plan?", *passages).claims]
    assert not any("listed below" in t and "Invoices" in t for t in texts)


def test_a_heading_over_a_table_still_has_the_bullets_after_it_as_items() -> None:
    p = passage(
        1,
        "## Password requirements\n\n"
        "| Account | Minimum length |\n"
        "|---|---|\n"
        "| Standard | 12 |\n\n"
        "- Passwords must not contain your username.\n"
        "- Passwords must not repeat any of your last 5.\n"
        "- Passwords must be changed after a suspected compromise.\n",
    )
    texts = [c.text for c in generate("What are the password requirements?", p).claims]
    assert len([t for t in texts if t.startswith("Passwords must")]) == 3


def test_an_faqs_numbering_is_no_word_of_its_question() -> None:
    generator = ExtractiveGenerator()
    shares = []
    for heading in ("How do I reset my 2FA device?", "Q1: How do I reset my 2FA device?"):
        body = "Open your account settings, choose the security tab and press the reset button."
        p = passage(1, f"## {heading}\n\n{body}\n")
        ranked = generator.rank(parse_question("How do I reset 2FA?"), [p])
        shares.append(next(c.definition for c in ranked if "account settings" in c.text))
    assert shares[0] == shares[1] > 0


def test_a_short_form_a_question_types_is_the_word_the_document_spells_out() -> None:
    for short, full in [("config", "configuration"), ("env", "environment")]:
        assert content_stems(short) == content_stems(full)
    # Not a short form whose stem is another word's: VaR is no variable.
    assert content_stems("VaR") != content_stems("variable")
    p = passage(
        1,
        "## Reloading\n\n"
        "The agent logs a line for every reload it performs at start-up.\n\n"
        "Sending SIGHUP re-reads the configuration file without dropping connections.\n",
    )
    text = generate("How do I reload the config file?", p).claims[0].text
    assert text.startswith("Sending SIGHUP")
