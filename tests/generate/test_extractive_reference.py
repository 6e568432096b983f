"""Questions a team asks of its API reference, its protocol specs and its policies
(found by asking them of documents written for the purpose): a table row named by
its key, a document's sentence about itself, the consequence of a named code, and
"v1" for "version 1"."""

from __future__ import annotations

from extractive_helpers import assert_pinned, generate, passage

from pincite.generate.cues import kind_cue
from pincite.generate.question import QuestionKind, parse_question
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
    # A column counting the rows names no entry: "tier 1" is not row 1; an exit code is one.
    tier = parse_question("What is kept for tier 1?")
    assert not names_row(tier, "| 1 | Daily snapshots |", "| # | Backups |")
    assert not names_row(tier, "| 1 | Daily snapshots |", "| **No.** | Backups |")
    assert not names_row(tier, "| 1 | Daily snapshots |", "| Sl. No. | Backups |")
    assert not names_row(tier, "| 1 | Daily snapshots |")
    assert names_row(tier, "| 1 | Daily snapshots |", "| Tier | Backups |")
    assert names_row(
        parse_question("What does exit code 2 mean?"), "| 2 | Usage error |", "| Code | Meaning |"
    )
    # An escaped bar is the cell's own; GitHub splits at any other, in code spans too.
    flags = "| `--mode=a\\|b` | Picks the mode. |"
    assert names_row(parse_question("What does --mode=a|b do?"), flags)
    assert not names_row(parse_question("What does b do?"), flags)


def test_a_table_cell_is_what_github_renders() -> None:
    from pincite.generate.rows import cells

    assert cells("| a | b |") == ["a", "b"]
    assert cells("a | b") == ["a", "b"]
    assert cells("| a \\| b | c |") == ["a \\| b", "c"]
    assert cells("| a \\\\| b |") == ["a \\\\", "b"]  # a backslash, then a bar
    assert cells("| `x|y` | z |") == ["`x", "y`", "z"]
    assert cells("| 1 | |") == ["1", ""]


def test_a_row_named_by_a_short_code_answers_under_a_header_naming_codes() -> None:
    p = passage(
        1,
        "## Exit codes\n\nThe CLI exits with one of these codes. Code 2 is also written to the "
        "log.\n\n| Code | Meaning |\n|---|---|\n| 0 | Success |\n"
        "| 2 | Invalid arguments or usage error |\n| 64 | Configuration file not found |\n",
    )
    generation = generate("What does exit code 64 mean?", p)
    assert "| 64 | Configuration file not found |" in generation.claims[0].text
    assert_pinned(generation, [p])


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
        "This document outlines how deliveries are signed.",
        "- This section describes the escalation path.",
    ):
        assert describes_itself(text), text
    for text in (
        "This paper proposes a new parser.",  # a paper's claim, not a table of contents
        "The policy applies to all permanent employees.",
        "This laptop explains nothing.",
        # What a document specifies or covers is what it says, not a table of contents.
        "This standard specifies the Rijndael algorithm, a symmetric block cipher.",
        "This plan covers dental cleanings twice a year.",
        "This policy covers all employees and contractors.",
    ):
        assert not describes_itself(text), text
    assert describes_itself("This section covers how to rotate API keys safely.")
    assert describes_itself("This document specifies the steps to rotate a key.")
    # One that goes on to say it answers.
    assert not describes_itself(
        "This section covers what happens if either party terminates early: the Customer "
        "pays all fees due through the end of the term."
    )
    assert asks_scope(parse_question("What is the purpose of the retention schedule?"))
    assert asks_scope(parse_question("What does RFC 9110 specify?"))
    assert not asks_scope(parse_question("Who may work remotely?"))


def test_the_consequence_of_a_named_code_opens_with_that_code() -> None:
    question = parse_question("What happens if my endpoint returns 410?")
    asked = {"what", "happens", "if", "my", "endpoint", "returns", "410"}
    assert kind_cue(question, "A 410 Gone response disables the subscription.", asked)
    assert kind_cue(question, "If the endpoint fails, it is retried.", asked)
    # A code named late in the sentence, or another code, is no consequence of it.
    assert not kind_cue(question, "The subscription owner may see 410 in the log.", asked)
    assert not kind_cue(question, "A 404 response is retried.", asked)
    # A product's name holding a digit is no status code.
    named = parse_question("What happens if P1 is paged?")
    assert not kind_cue(named, "P1 incidents page the on-call engineer.", {"p1", "paged"})
    # An error code holding letters is a code.
    coded = parse_question("What happens when a request returns E4012?")
    assert kind_cue(coded, "E4012 errors revoke the API key.", {"e4012", "returns", "request"})


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
    # Only "v1" standing alone: not a path's "api-v1", nor "V8-based".
    assert content_stems("the api-v1 host") == ["api", "v1", "host"]
    assert content_stems("a V8-based runtime") == ["v8", "base", "runtim"]
    assert content_stems("the api\u2011v1 host") == ["api", "v1", "host"]  # a PDF's hyphen
    # A table row naming "Version 1" is named by a question's "v1".
    table = passage(
        2,
        "## Versions\n\n| Version | Sunset |\n|---|---|\n| Version 1 | 1 March 2027 |\n"
        "| Version 2 | not planned |\n",
    )
    generation = generate("What is the sunset date of v1?", table)
    assert "| Version 1 | 1 March 2027 |" in generation.claims[0].text


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
    # "up to date", "up to you", a noun's "needs" and minutes' "min" are no bounds.
    assert obligations("Keep the client up to date.", {"max"}) == set()
    assert obligations("It is up to you.", {"maximum"}) == set()
    assert obligations("We design around customer needs.", {"need"}) == set()
    assert obligations("Backups run every 15 min.", {"minimum"}) == set()
    assert obligations("Requests can take up to three days.", {"max"}) == {"max"}
    for text in ("reimbursed up to USD 200", "up to forty-eight hours", "up to ninety (90) days"):
        assert obligations(text, {"max"}) == {"max"}, text
    for text in ("Contractors need written approval.", "Changes needs two approvals."):
        assert obligations(text, {"requir"}) == {"requir"}, text
    for text in (
        "We meet the needs of users.",
        "Business needs change often.",
        "Approvals are reviewed as business needs change.",
        "Access is granted on a needs basis.",
    ):
        assert obligations(text, {"requir"}) == set(), text


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
    # A lead-in naming the task's steps or who they are for is no role.
    for lead_in in (
        "To declare:",
        "Declaration steps:",
        "Incident declaration:",
    ):
        named = passage(3, steps.text.replace("To declare an incident:", lead_in))
        texts = [c.text for c in generate("How do I declare an incident?", named).claims]
        assert texts[:2] == ["1. type `/incident` in Slack;", "2. open a video bridge;"], lead_in


def test_a_listed_noun_in_y_or_ure_is_read_as_its_verb() -> None:
    from pincite.stems import family_stem

    for a, b in (
        ("deliveries", "delivered"),
        ("expiry", "expires"),
        ("failure", "fails"),
        ("erasure", "erase"),
        ("disclosure", "disclosed"),
        ("companies", "company"),
        ("told", "tell"),
        ("kept", "keeps"),
        ("sent", "sending"),
    ):
        assert family_stem(a) == family_stem(b), (a, b)
    # Only the listed ones: a rule joined these.
    for a, b in (
        ("policy", "police"),
        ("ready", "read"),
        ("party", "part"),
        ("directory", "director"),
        ("early", "earl"),
        ("feature", "feat"),
        ("pressure", "press"),
        ("culture", "cult"),
        ("given", "give"),
        ("found", "find"),
        # Participles with a sense of their own: a legal hold, paid leave, "as shown in".
        ("held", "hold"),
        ("paid", "pay"),
        ("shown", "show"),
    ):
        assert family_stem(a) != family_stem(b), (a, b)


def test_an_ionary_adjective_is_read_as_its_noun() -> None:
    from pincite.stems import family_stem

    # "six-month probationary period" answers "How long is the probation period?".
    assert family_stem("probationary") == family_stem("probation")
    assert family_stem("discretionary") == family_stem("discretion")
    # Not where the noun means something else.
    assert family_stem("dictionary") != family_stem("diction")
    assert family_stem("stationary") != family_stem("station")
    assert family_stem("missionary") != family_stem("mission")
    assert family_stem("functionary") != family_stem("function")
    # A plural is read as its singular.
    assert family_stem("probationaries") == family_stem("probation")


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


def test_a_contracts_number_in_words_and_figures_is_a_duration() -> None:
    from pincite.generate.cues import states_expected

    question = parse_question("How long does a party have to cure a breach?")
    assert question.expects == "duration"
    for text in (
        "does not cure the breach within thirty (30) days of written notice.",
        "These obligations survive for five (5) years after the Agreement ends.",
        "notice at least forty-five (45) days before renewal",
    ):
        assert states_expected(question, text), text
    assert not states_expected(question, "clause thirty (30) of the Agreement")
    p = passage(
        1,
        "4. TERM AND TERMINATION\n\n"
        "4.1 Either party may terminate this Agreement for a material breach of its terms.\n\n"
        "4.2 A party that breaches it may cure the breach within thirty (30) days of written "
        "notice.\n",
    )
    assert (
        "thirty (30) days"
        in generate("How long does a party have to cure a breach?", p).claims[0].text
    )


def test_a_cap_is_what_something_is_limited_to() -> None:
    from pincite.generate.deontic import obligations

    assert obligations("Total liability is limited to the fees paid.", {"cap"}) == {"cap"}
    assert obligations("Requests are limited to 60 a minute.", {"limit"}) == {"limit"}
    assert obligations("Liability is unlimited for fraud.", {"cap"}) == set()


def test_a_second_claim_names_the_version_the_question_names() -> None:
    p = passage(
        1,
        "# Release notes\n\nRelease 4.2.0 shipped on 14 October 2026. Release 4.1.0 shipped "
        "on 2 July 2026.\n",
    )
    texts = [c.text for c in generate("When was 4.2.0 released?", p).claims]
    assert texts == ["Release 4.2.0 shipped on 14 October 2026."]
    # Another release however its numbers run, and a "v" before the asked one.
    other = passage(
        4,
        "# Release notes\n\nRelease v4.2.0 shipped on 14 October 2026. Release 4.10.0 shipped "
        "on 2 December 2026.\n",
    )
    texts = [c.text for c in generate("When was 4.2.0 released?", other).claims]
    assert texts == ["Release v4.2.0 shipped on 14 October 2026."]
    sev = passage(
        5,
        "## Paging\n\nA SEV1 incident pages the on-call engineer at once.\n\n"
        "A SEV10 incident pages the on-call engineer at once.\n",
    )
    texts = [c.text for c in generate("Whom does a SEV1 incident page?", sev).claims]
    assert texts == ["A SEV1 incident pages the on-call engineer at once."]
    # A question naming no version takes both, one naming both takes both.
    texts = [c.text for c in generate("When did releases ship?", p).claims]
    assert len(texts) == 2
    codes = passage(
        2,
        "## Errors\n\nA 401 status code means the request lacks valid credentials.\n\n"
        "A 403 status code means the server refuses to authorize the request.\n",
    )
    texts = [c.text for c in generate("What do status codes 401 and 403 mean?", codes).claims]
    assert "401" in " ".join(texts) and "403" in " ".join(texts), texts
    # A sentence naming another kind of number may still answer.
    fips = passage(
        3,
        "FIPS 200 specifies minimum security requirements for federal information systems. "
        "Agencies meet the minimum security requirements by using the controls in SP 800-53.\n",
    )
    asked = "Which controls must agencies use to meet the FIPS 200 minimum security requirements?"
    texts = [c.text for c in generate(asked, fips).claims]
    assert any("800-53" in t for t in texts), texts


def test_a_release_notes_dated_line_and_short_sentences_are_claims() -> None:
    from pincite.generate.layout import Role, layout

    text = (
        "# Release notes\n\n## Version 4.2.0\n\nReleased on 14 October 2026. Adds single "
        "sign-on.\n\n## Version 4.1.0\n\nReleased on 2 July 2026. Adds dark mode.\n"
    )
    roles = {text[u.start : u.end]: u.role for u in layout(text)}
    # A dated field, not a term's label; a short sentence inside its paragraph, no fragment.
    assert roles["Released on 14 October 2026."] is Role.STATEMENT
    assert roles["Adds single sign-on."] is Role.STATEMENT
    p = passage(1, text)
    assert generate("When was 4.2.0 released?", p).claims[0].text.startswith("Released on 14")
    assert generate("When was dark mode added?", p).claims[0].text.startswith("Adds dark mode")
    # A title run into its paragraph is no claim.
    run_in = "See the related documents. Incident Response Plan. Business Continuity Plan."
    assert all(u.role is not Role.STATEMENT for u in layout(run_in)[1:])
    # A term's label is still one ("Rapid elasticity." opening its definition).
    label = "Rapid elasticity. Capabilities can be elastically provisioned and released."
    assert layout(label)[0].role is Role.LABEL


def test_when_something_is_due_is_answered_by_its_deadline() -> None:
    p = passage(
        1,
        "## Leavers\n\n"
        "- **JML-03.** A leaver's accounts must be disabled by the IT service desk.\n"
        "- **JML-04.** A leaver's accounts must be disabled by the end of their last working "
        "day.\n",
    )
    text = generate("When are a leaver's accounts disabled?", p).claims[0].text
    assert "by the end of their last working day" in text
    # A deadline is an amount of time or a named end, not "within the time" in passing.
    from pincite.generate.cues import kind_cue

    question = parse_question("When are invoices paid?")
    assert kind_cue(question, "Invoices are payable within thirty (30) days.", set())
    assert not kind_cue(question, "A request arrives within the time allowed.", set())
    assert not kind_cue(question, "Each response is stored within a single entry.", set())


def test_a_sentence_pointing_back_with_its_is_quoted_with_the_one_it_points_to() -> None:
    p = passage(
        1,
        "3. Terminology\n\n"
        "Base delay: the starting delay of the backoff algorithm, written BASE. Its default "
        "value is 100 milliseconds.\n\n"
        "With the default values, the delay before the second attempt is 100 ms.\n",
    )
    generation = generate("What is the default base delay?", p)
    assert generation.claims[0].text == (
        "Base delay: the starting delay of the backoff algorithm, written BASE. Its default "
        "value is 100 milliseconds."
    )
    assert_pinned(generation, [p])
    # Not across a paragraph, nor for "It" (often no one thing: "It is recommended ..."),
    # nor "Their" (often further back than the sentence before).
    apart = passage(2, "Base delay is written BASE.\n\nIts default value is 100 milliseconds.\n")
    assert generate("What is the default value?", apart).claims[0].text.startswith("Its default")
    theirs = passage(3, "The NDA is reviewed by Legal. Their access logs are kept for 90 days.\n")
    texts = [c.text for c in generate("How long are access logs kept?", theirs).claims]
    assert texts[0].startswith("Their access logs")


def test_which_names_a_versioned_protocol_s_items_as_a_list() -> None:
    # "http/1.1" is one word of the noun phrase: the question asks for the headers.
    q = parse_question("which http/1.1 headers are hop-by-hop, i.e. not forwarded by proxies?")
    assert q.kind is QuestionKind.LIST
    assert q.head == "header"
    hop = passage(
        1,
        "13.5.1 End-to-end and Hop-by-hop Headers\n\n"
        "   The following HTTP/1.1 headers are hop-by-hop headers:\n\n"
        "      - Connection\n      - Keep-Alive\n      - TE\n      - Upgrade\n\n"
        "   All other headers defined by HTTP/1.1 are end-to-end headers.\n",
    )
    generation = generate(q.text, hop)
    assert [c.text for c in generation.claims] == ["Connection", "Keep-Alive", "TE", "Upgrade"]
    assert_pinned(generation, [hop])


def test_a_british_spelling_is_read_as_the_american_one() -> None:
    from pincite.stems import family_stem

    for a, b in (
        ("organisation", "organization"),
        ("authorised", "authorized"),
        ("unauthorised", "unauthorized"),
        ("anonymised", "anonymized"),
        ("behaviour", "behavior"),
        ("colours", "colors"),
        ("analyse", "analyze"),
        ("licences", "licenses"),
        ("centre", "center"),
        ("programme", "program"),
    ):
        assert family_stem(a) == family_stem(b), (a, b)
    # Their inflections and prefixed forms too.
    for a, b in (
        ("behavioural", "behavior"),
        ("unfavourable", "unfavorable"),
        ("practised", "practice"),
        ("catalogued", "catalog"),
    ):
        assert family_stem(a) == family_stem(b), (a, b)
    # "-ise" that is no "-ize" keeps its stem, which its noun shares.
    for a, b in (
        ("revise", "revision"),
        ("supervised", "supervision"),
        ("precise", "precision"),
        ("appraised", "appraisal"),
        ("imprecise", "imprecision"),
    ):
        assert family_stem(a) == family_stem(b), (a, b)


def test_a_question_in_british_english_finds_the_american_sentence() -> None:
    p = passage(
        1,
        "## Analytics\n\n"
        "The data team reviews the analytics dashboards every week.\n\n"
        "The organization's analytics are reviewed by the privacy office each quarter.\n",
    )
    answer = generate("Who reviews the organisation's analytics?", p)
    assert "privacy office" in answer.claims[0].text
    assert_pinned(answer, [p])


def test_what_the_question_denies_is_named_by_a_negating_prefix() -> None:
    from pincite.generate.words import negated

    assert negated("a chunk extension it doesn't recognise", "unrecognized extensions", {"recogn"})
    assert negated("what if the key is not supported?", "Unsupported keys", {"support"}) == {
        "support"
    }
    # A question that denies nothing is not answered by the denial.
    assert not negated("a chunk extension it recognises", "unrecognized extensions", {"recogn"})
    # Nor one that denies something else, nor by a verb that undoes ("unlock").
    assert not negated("Why doesn't the known issues page load?", "Unknown issues", {"known"})
    assert not negated("Why doesn't the door lock?", "Unlock the door first.", {"lock"})
    assert not negated("Why is it not installed?", "Uninstall it first.", {"instal"})
    assert negated("data that is not encrypted", "un-encrypted data", {"encrypt"})
    assert negated("vacation days that are not used", "Unused days lapse.", {"use", "day"})
    assert negated("leave that is not paid", "Unpaid leave is unrecorded.", {"paid"})
    assert negated("what if it is not a managed device", "Unmanaged devices", {"manag"})
    # RFC 7230 section 4.1.1: the rule for extensions a recipient does not know.
    p = passage(
        1,
        "4.1.1. Chunk Extensions\n\n"
        "The chunked encoding allows each chunk to include zero or more chunk extensions, "
        "immediately following the chunk-size, for the sake of supplying per-chunk metadata.\n\n"
        "A recipient MUST ignore unrecognized chunk extensions.\n",
    )
    answer = generate(
        "my chunked decoder hits a chunk extension it doesn't recognise - error out or what?", p
    )
    assert "MUST ignore" in answer.claims[0].text
    assert_pinned(answer, [p])
