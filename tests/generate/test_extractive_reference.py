"""Questions a team asks of its API reference, its protocol specs and its policies
(found by asking them of documents written for the purpose): a table row named by
its key, a document's sentence about itself, the consequence of a named code, and
"v1" for "version 1"."""

from __future__ import annotations

from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.cues import kind_cue
from pincite.generate.question import parse_question
from pincite.generate.scope import asks_scope, describes_itself
from pincite.generate.tables import names_row
from pincite.generate.words import content_stems

ERRORS = (
    "## Errors\n\n"
    "Every error body carries a message; a 409 is also logged for support.\n\n"
    "| Code | Meaning |\n"
    "|------|---------|\n"
    "| 400 | The request body is malformed or a required field is missing. |\n"
    "| 409 | The order is in a state that does not allow the operation. |\n"
    "| 422 | The request is well formed but a value is invalid. |\n"
)

RETENTION = (
    "## Retention periods\n\n"
    "| Record type | Retention period | Owner |\n"
    "|---|---|---|\n"
    "| Customer invoices | 7 years | Finance |\n"
    "| Support tickets | 3 years after closure | Support |\n"
)

REMOTE = (
    "# Remote Work Policy\n\n"
    "This policy explains who may work remotely, how to request it, and what the "
    "company provides to remote workers.\n\n"
    "## Eligibility\n\n"
    "Employees past probation may work from home up to three days a week; warehouse staff "
    "are excluded.\n"
)


def test_a_table_row_named_by_its_key_answers_what_it_means() -> None:
    p = passage(1, ERRORS)
    generation = generate("What does a 409 error mean?", p)
    text = generation.claims[0].text
    # The row, under its header row; not the sentence that names 409 in passing.
    assert text.startswith("| Code | Meaning |")
    assert "| 409 | The order is in a state" in text and "| 400 |" not in text
    assert_pinned(generation, [p])


def test_a_row_named_by_its_key_answers_a_question_of_another_column() -> None:
    p = passage(1, RETENTION)
    generation = generate("Who owns support tickets?", p)
    assert "| Support tickets | 3 years after closure | Support |" in generation.claims[0].text
    assert "| Record type |" in generation.claims[0].text
    assert_pinned(generation, [p])


def test_a_row_key_is_an_entry_only_when_specific_and_named_whole() -> None:
    row = "| Support tickets | 3 years after closure | Support |"
    assert names_row(parse_question("Who owns support tickets?"), row)
    # One word of the key is not the key.
    assert not names_row(parse_question("Who owns the tickets?"), row)
    # One common word a question may use in passing is no entry's name.
    assert not names_row(parse_question("Is the API free?"), "| Free | 60 | 10 |")
    assert names_row(parse_question("What does 422 mean?"), "| 422 | Invalid value. |")
    # A row saying nothing beyond its key, and a question for a list, are left alone.
    assert not names_row(parse_question("What does 422 mean?"), "| 422 | |")
    assert not names_row(parse_question("Which support tickets are kept?"), row)


def test_a_document_describing_itself_answers_only_what_it_covers() -> None:
    p = passage(1, REMOTE)
    text = generate("Who may work remotely?", p).claims[0].text
    assert text.startswith("Employees past probation")
    scope = generate("What does the remote work policy cover?", p).claims[0].text
    assert scope.startswith("This policy explains")


def test_what_counts_as_a_document_describing_itself() -> None:
    for text in (
        "This policy explains who may work remotely.",
        "This Remote Work Policy sets out how to request it.",
        "The following section describes the retry schedule.",
        "This document specifies how deliveries are signed.",
    ):
        assert describes_itself(text), text
    for text in (
        "This paper proposes a new parser.",  # a paper's claim, not a table of contents
        "The policy applies to all permanent employees.",
        "This laptop explains nothing.",
    ):
        assert not describes_itself(text), text
    assert asks_scope(parse_question("What is the purpose of the retention schedule?"))
    assert not asks_scope(parse_question("Who may work remotely?"))


def test_the_consequence_of_a_named_code_opens_with_that_code() -> None:
    question = parse_question("What happens if my endpoint returns 410?")
    asked = {"what", "happens", "if", "my", "endpoint", "returns", "410"}
    assert kind_cue(question, "A 410 Gone response disables the subscription.", asked)
    assert kind_cue(question, "If the endpoint fails, it is retried.", asked)
    # A code named late in the sentence, or another code, is no consequence of it.
    assert not kind_cue(question, "The subscription owner may see 410 in the log.", asked)
    assert not kind_cue(question, "A 404 response is retried.", asked)


def test_v1_is_version_1() -> None:
    assert content_stems("When is v1 switched off?") == ["version", "1", "switch"]
    assert content_stems("Version 1 is switched off") == ["version", "1", "switch"]
    p = passage(
        1,
        "## Versioning\n\nThe current version is v2. Version 1 was deprecated on 1 March "
        "2026 and will be switched off on 1 March 2027.\n",
    )
    generation = generate("When will v1 be switched off?", p)
    assert "will be switched off on 1 March 2027" in generation.claims[0].text


def test_a_row_named_by_its_key_answers_a_number_question_over_a_passing_mention() -> None:
    p = passage(
        1,
        "## Severity levels\n\n"
        "| Severity | Definition | Response time |\n"
        "|---|---|---|\n"
        "| SEV1 | Customer-facing outage | 15 minutes |\n"
        "| SEV2 | Major feature degraded | 1 hour |\n\n"
        "We respond to every SEV1 with a postmortem, written within 5 business days.\n",
    )
    generation = generate("How fast do we have to respond to a SEV1?", p)
    assert "| SEV1 | Customer-facing outage | 15 minutes |" in generation.claims[0].text
    assert "postmortem" not in generation.claims[0].text
    assert_pinned(generation, [p])


def test_need_asks_for_what_is_required_and_max_for_what_is_at_most() -> None:
    from pincite.generate.deontic import obligations

    assert obligations("Python 3.10 or newer is required.", {"need", "python"}) == {"need"}
    assert obligations("You need a badge to enter.", {"requir"}) == {"requir"}
    assert obligations("List endpoints return at most 100 items per page.", {"max"}) == {"max"}
    assert obligations("Uploads may be up to 5 MB.", {"maximum"}) == {"maximum"}
    assert obligations("Passwords have at least 12 characters.", {"minimum"}) == {"minimum"}
    # A default is no bound, and a bound is no obligation.
    assert obligations("The default page size is 25.", {"max"}) == set()
    assert obligations("Uploads may be up to 5 MB.", {"need"}) == set()


def test_a_setting_name_in_snake_case_is_its_words() -> None:
    assert content_stems("`bandwidth_limit` (default)") == ["bandwidth", "limit", "default"]
    p = passage(
        1,
        "## Configuration\n\n"
        "- `threads` (default 4): how many files are copied at once.\n"
        "- `bandwidth_limit` (default none): maximum transfer rate in KB/s.\n",
    )
    assert "bandwidth_limit" in generate("How do I limit bandwidth?", p).claims[0].text


def test_a_lead_in_naming_a_role_is_no_procedure_for_a_task() -> None:
    p = passage(
        1,
        "## Declaring an incident\n\n"
        "Anyone can declare an incident by typing `/incident` in Slack.\n\n"
        "The incident commander:\n\n"
        "1. opens a video bridge;\n"
        "2. assigns a communications lead;\n"
        "3. posts a status update every 30 minutes.\n",
    )
    generation = generate("How do I declare an incident?", p)
    assert generation.claims[0].text.startswith("Anyone can declare an incident")
    assert len(generation.claims) == 1
    # The same steps under a lead-in naming the task are still its procedure.
    steps = passage(
        2,
        "## Declaring an incident\n\n"
        "To declare an incident:\n\n"
        "1. type `/incident` in Slack;\n"
        "2. open a video bridge;\n"
        "3. post the link in the incident channel.\n",
    )
    claims = generate("How do I declare an incident?", steps).claims
    texts = [c.text for c in claims]
    assert texts[:2] == ["1. type `/incident` in Slack;", "2. open a video bridge;"]


def test_a_noun_in_y_or_ure_is_read_as_its_verb() -> None:
    from pincite.stems import family_stem

    for a, b in (
        ("deliveries", "delivered"),
        ("expiry", "expires"),
        ("failure", "fails"),
        ("erasure", "erase"),
        ("disclosure", "disclosed"),
        ("companies", "company"),
    ):
        assert family_stem(a) == family_stem(b), (a, b)
    assert family_stem("policy") != family_stem("police")


def test_a_yes_no_question_naming_a_row_key_is_not_answered_by_the_row_alone() -> None:
    p = passage(
        1,
        "## Severity levels\n\n"
        "| Severity | Definition | Response time |\n"
        "|---|---|---|\n"
        "| SEV2 | Major feature degraded | 1 hour |\n"
        "| SEV3 | Minor bug with a workaround | Next business day |\n\n"
        "## After an incident\n\n"
        "Every SEV1 and SEV2 incident gets a blameless postmortem.\n",
    )
    asked = "Do we have to write a postmortem for a SEV3?"
    assert not names_row(parse_question(asked), "| SEV3 | Minor bug | Next business day |")
    assert "postmortem" in generate(asked, p).claims[0].text
