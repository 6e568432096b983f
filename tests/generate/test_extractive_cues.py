"""The extractive generator reading how a sentence answers: a quoted or "which means"
definition, a count of what a "how many" question asks about.

Passages from the shapes of ../shared/data/documents (RFC 2616, SP 800-46r2);
lexical scoring only, so each outcome follows from the text and the rules.
Each test failed on the answerer before the rule it names was read.
"""

from __future__ import annotations

import re

import pytest
from extractive_helpers import best, passage

from pincite.generate.answer_types import asked_type, gives_type, names_quoted, quoted_phrases
from pincite.generate.cues import counts_asked, kind_cue, speaks_as_authors, states_expected
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.names import documents_named
from pincite.generate.question import QuestionKind, parse_question
from pincite.generate.scoring import Scoring
from pincite.generate.words import compounds, content_stems, joined_pairs, stem


def test_a_quoted_term_is_the_one_its_sentence_defines() -> None:
    # RFC 2616's terminology section quotes the term it defines; section 1.4
    # mentions a tunnel in passing with the same opening words.
    overview = passage(
        1,
        "A tunnel acts as a relay point between two connections without changing the "
        "messages; tunnels are used when the communication needs to pass through an "
        "intermediary.",
    )
    terminology = passage(
        2,
        'A "tunnel" acts as a blind relay between two connections without changing the messages.',
    )
    assert best("What is a tunnel in HTTP?", overview, terminology).startswith('A "tunnel"')


def test_which_means_defines_the_term_before_it() -> None:
    aside = passage(
        1,
        "With a thin VPN client, the organization has considerably less control over the "
        "remote access environment as compared to a thick client.",
    )
    entry = passage(
        2,
        "However, many VPN clients can also be configured to be thin, which means that the "
        "client uses a common application already present on the telework device, such as a "
        "web browser.",
    )
    answer = best("what's a thin VPN client", aside, entry)
    assert "which means that the client uses a common application" in answer


def test_a_sentence_counting_what_is_asked_answers_how_many() -> None:
    aside = passage(1, "For example, the access tier table lists 2 applications per user.")
    table = passage(
        2,
        "There are seven categories of client devices: government-furnished equipment (GFE) "
        "in the office, GFE in telework, BYOD in the office, BYOD in telework, contractor "
        "devices in the office, contractor devices in telework, and public devices.",
    )
    q = "In the example access tier table, how many categories of client devices are there?"
    assert best(q, aside, table).startswith("There are seven categories of client devices")


def test_a_count_the_question_states_is_no_answer_to_how_many() -> None:
    q = parse_question(
        "Of the 7 categories of client devices, how many categories are in telework?"
    )
    assert not counts_asked(q, "There are 7 categories of client devices.")
    assert counts_asked(q, "Three categories are used in telework.")
    assert not counts_asked(
        parse_question("What are the categories of devices?"), "Seven categories."
    )


def test_a_lead_in_naming_the_question_opens_no_answer_to_a_where_question() -> None:
    methods = passage(
        2,
        "Placing the remote access server at the network perimeter differs by method:\n\n"
        "- Tunneling gives administrators sufficient control.\n"
        "- Portals run the application client software themselves.\n",
    )
    advice = passage(
        1,
        "Therefore, organizations should place remote access servers at the network perimeter "
        "unless there are compelling security reasons to do otherwise.",
    )
    # Equal words: the lead-in's run may not outrank the advice by naming the question.
    answer = best("Where should remote access servers be placed on the network?", advice, methods)
    assert answer.startswith("Therefore, organizations should place remote access servers")


def test_what_plurals_were_used_asks_for_a_list() -> None:
    assert parse_question("What baselines were used in this work?").kind == "list"
    assert parse_question("What datasets are used?").focus == ("dataset",)
    assert parse_question("What class are they in?").kind != "list"  # no plural asked for


def test_a_question_about_what_the_authors_did_prefers_their_own_words() -> None:
    related = passage(
        1,
        "Previous work compares summarization models against the lead baseline on news data.",
    )
    own = passage(
        2, "We compare our summarization model against the Lead-3 and TextRank baselines."
    )
    question = "Which baselines do they compare their summarization model against?"
    assert best(question, related, own).startswith("We compare our summarization model")
    # Asked about nobody in particular, no first-person preference; "US" is no "us".
    for question in (
        "Which baselines compare summarization models?",
        "Which port is used for HTTPS?",
        "What should teleworkers do if their laptop is lost?",
    ):
        assert not parse_question(question).asks_authors, question
    assert parse_question("What dataset was used?").asks_authors
    about_them = parse_question("What datasets do they use?")
    assert speaks_as_authors(about_them, "Let us note that two datasets are used.")
    assert not speaks_as_authors(about_them, "Datasets from the US are used.")


def test_the_asked_for_noun_introducing_its_members_is_a_list_cue() -> None:
    q = parse_question("What argument components does the corpus annotate?")
    assert kind_cue(
        q, "It contains five argument components, namely claim, premise and backing.", set()
    )
    assert kind_cue(q, "Two argument components (Table 2): claim and premise.", set())
    assert not kind_cue(q, "The corpus annotates argument components for each document.", set())
    # The noun asked for must be the one introducing them, not another.
    assert not kind_cue(q, "Two corpora, namely Web and News, are annotated.", set())


def test_a_count_far_from_the_counted_word_counts_nothing() -> None:
    q = parse_question("How many species of trees are there?")
    assert counts_asked(q, "It has three large tree species.")
    assert not counts_asked(q, "One in five of all the bird species live here.")


def test_an_apostrophe_quotes_no_term() -> None:
    # Both open with the term and a defining verb; only a real quote would lift one.
    entry = passage(1, "A proxy is an intermediary program which acts as a server and a client.")
    cache = passage(2, "The user's proxy's cache acts as a store of responses.")
    assert best("What is a proxy?", entry, cache).startswith("A proxy is an intermediary")


def test_which_means_after_a_long_clause_or_a_condition_defines_nothing() -> None:
    entry = passage(1, "A thin client is a device that depends on a server for its applications.")
    for aside in (
        "Many agencies that issue laptops to staff working at home also permit a thin client, "
        "which means that users cannot connect.",
        "When a thin client is used, which means that the browser is the client, data stays "
        "on the server.",
    ):
        assert best("What is a thin client?", passage(2, aside), entry).startswith(
            "A thin client is a device"
        ), aside


def test_counts_read_as_numbers_and_references_count_nothing() -> None:
    q = parse_question("How many of the categories of client devices are there?")
    assert not counts_asked(q, "Two of the devices are shown.")
    assert counts_asked(q, "There are two categories.")
    table = parse_question("How many categories of client devices are there?")
    assert not counts_asked(table, "Table 2 lists the categories of client devices.")
    seven = parse_question("Of the seven categories, how many categories are remote?")
    assert not counts_asked(seven, "There are 7 categories.")


def test_what_happens_and_what_should_questions_are_no_lists() -> None:
    assert parse_question("What happens when certificates are revoked?").kind == "condition"
    assert parse_question("What should teleworkers do if their laptop is lost?").kind != "list"
    assert parse_question("What factors should an organization weigh?").kind == "list"


def test_the_counted_word_is_the_last_before_the_verb() -> None:
    q = parse_question("How many security-related areas do the requirements cover?")
    assert counts_asked(q, "The requirements cover nine security-related areas.")
    # "security" modifies what is counted; "two security standards" counts no areas.
    assert not counts_asked(q, "It is the first of two mandatory security standards.")
    parks = parse_question("How many large public parks does Fresno have?")
    assert counts_asked(parks, "Fresno has three parks.")
    annotators = parse_question("How many annotators tagged each text?")
    assert counts_asked(annotators, "A group of three annotators tagged the tweets.")


def test_a_sentence_of_the_named_document_need_not_repeat_its_name() -> None:
    # FIPS 199 says it once in its title; FIPS 200 cites FIPS 199 by name in passing.
    own = passage(
        1,
        "Additional security designators may be developed and used at agency discretion.",
        title="FIPS 199, Standards for Security Categorization",
    )
    citing = passage(
        2,
        # "may": both sentences carry a yes/no question's cue, so only the name decides.
        "FIPS 199 security categories may be used by an agency to select its baseline of "
        "security controls.",
        title="FIPS 200, Minimum Security Requirements",
    )
    q = "Can an agency define additional security designators beyond the FIPS 199 categories?"
    assert best(q, citing, own).startswith("Additional security designators")


def test_a_chain_of_pointers_is_quoted_back_to_what_it_names() -> None:
    # RFC 2616 14.37: the third sentence answers, but only the first names the field.
    retry = passage(
        1,
        "The Retry-After response-header field can be used with a 503 response to "
        "indicate how long the service is expected to be unavailable. This field MAY "
        "also be used with any 3xx response. The value of this field can be either an "
        "HTTP-date or an integer number of seconds after the time of the response.",
    )
    other = passage(2, "The value of the Age field is an integer number of seconds.")
    answer = best("Can the value of the Retry-After field be a number of seconds?", retry, other)
    assert answer.startswith("The Retry-After response-header field")
    assert answer.endswith("after the time of the response.")


def test_a_sentence_naming_its_own_thing_is_quoted_alone() -> None:
    # "this field's request" points at the Retry-After field the sentence itself names,
    # not at the Age field of the sentence before.
    text = (
        "The Age field is an integer number of seconds. A client that receives a "
        "Retry-After field must wait the given time before it retries this field's request."
    )
    q = "How long must a client wait when a Retry-After field is present?"
    assert best(q, passage(1, text)).startswith("A client that receives")


def test_idioms_point_back_at_nothing() -> None:
    text = (
        "A client may send a request in any case. In this case the server closes the "
        "connection on a timeout."
    )
    q = "Does the server close the connection on a timeout?"
    assert best(q, passage(1, text)).startswith("In this case")


def test_a_function_word_after_such_does_not_hide_a_later_pointer() -> None:
    text = (
        "The Retry-After response-header field can be used with a 503 response. Such as "
        "it is, the value of this field can be an integer number of seconds."
    )
    other = passage(2, "The value of the Age field is an integer number of seconds.")
    q = "Can the value of the Retry-After field be a number of seconds?"
    assert best(q, passage(1, text), other).startswith("The Retry-After")


def test_each_named_document_lends_its_own_name_only() -> None:
    # Both documents are named; a FIPS 199 sentence gains "199", never "200".
    fips199 = passage(
        1,
        "Agencies select a baseline of security controls for each system.",
        title="FIPS 199, Standards for Security Categorization",
    )
    fips200 = passage(
        2,
        "Agencies select a baseline of security controls for each system.",
        title="FIPS 200, Minimum Security Requirements",
    )
    q = "Does FIPS 200 or FIPS 199 say that agencies select a baseline of security controls?"
    names = documents_named(parse_question(q).names, [fips199, fips200])
    assert names == {1: set(content_stems("FIPS 199")), 2: set(content_stems("FIPS 200"))}


def test_a_yes_no_question_is_answered_by_a_permission_duty_or_denial() -> None:
    q = parse_question("Can an agency define its own additional security designators?")
    assert kind_cue(q, "Additional security designators may be used at agency discretion.", set())
    assert not kind_cue(q, "Security designators are listed in Appendix A.", set())
    # RFC 2616 14.9.3: what is always done, or ignored, answers whether it is.
    cache = parse_question("does a browser's private cache pay any attention to s-maxage?")
    assert kind_cue(cache, "The s-maxage directive is always ignored by a private cache.", set())
    assert kind_cue(cache, "A private cache ignores the s-maxage directive.", set())
    assert not kind_cue(cache, "The s-maxage directive is described in section 14.9.3.", set())
    # Only yes/no questions read it so.
    what = parse_question("What security designators does an agency define?")
    assert not kind_cue(what, "Additional security designators may be used.", set())


def test_a_compound_the_document_splits_still_counts() -> None:
    wanted = {stem("hostname"), stem("filename")}
    assert compounds("Comparisons of host names MUST be case-insensitive;", wanted) == {
        stem("hostname")
    }
    assert compounds("The host and the name are separate.", wanted) == set()
    # The same words but "host names": ties go to the first passage, so only the
    # compound can lift the second.
    other = passage(1, "Comparisons of path segments MUST be case-insensitive.")
    split = passage(2, "Comparisons of host names MUST be case-insensitive.")
    assert best("Are hostnames compared case-insensitively?", other, split).startswith(
        "Comparisons of host names"
    )


def test_a_word_the_question_splits_and_the_document_joins_still_counts() -> None:
    # RFC 2616 14.39 writes "qvalue" where a reader asks for the "q-value".
    pairs = dict(joined_pairs("what q-value does chunked carry? and the host name?"))
    assert pairs[stem("qvalue")] == {"q", stem("value")}
    assert pairs[stem("hostname")] == {stem("host"), stem("name")}
    # A stopword joined on makes another word: "a void", "over time".
    joins = dict(joined_pairs("is a void contract paid over time"))
    assert stem("avoid") not in joins and stem("overtime") not in joins
    other = passage(1, "The chunked transfer-coding always has a weight of 1 and a value.")
    joined = passage(2, "The chunked transfer-coding always has a qvalue of 1.")
    assert best("What q-value does chunked always have?", other, joined).endswith("qvalue of 1.")


def test_a_possessive_ends_the_document_name_it_closes() -> None:
    asked = parse_question("In RFC 2616's rules for TE, what q-value does chunked carry?")
    assert asked.names == ("rfc 2616",)
    assert parse_question("What does FIPS 200’s glossary say a user is?").names == ("fips 200",)
    # An owner's name is no document's, and stays no name.
    assert parse_question("When does Kestrelbay's parental leave start?").focus == ()


def test_a_hyphenated_name_keeps_its_stopword_parts() -> None:
    # "If" and "After" are stopwords alone; in a header's name they tell it apart
    # from "Range" and "Retry".
    assert content_stems("The If-Range header") == ["if", stem("range"), stem("header")]
    assert content_stems("If a client sends Range") == [
        stem("client"),
        stem("sends"),
        stem("range"),
    ]
    assert content_stems("a follow-up to the Retry-After field")[-3:] == [
        stem("retry"),
        "after",
        stem("field"),
    ]
    assert "up" not in content_stems("a follow-up")  # lower case: not a name
    # The section on Range opens with the Range words first; only the If-Range
    # heading names the header asked about.
    range_ = passage(
        1, "14.35 Range\n\nA client uses the Range header to ask for part of an entity."
    )
    if_range = passage(
        2, "14.27 If-Range\n\nIf a client has a partial copy, it can send a Range request."
    )
    assert best("What is If-Range for?", range_, if_range).startswith("If a client")
    # Typed in lower case the question holds no name, only "range": the If-Range
    # heading's "if" must not count against it (it did: the heading named the term
    # no more surely than a heading that merely holds it).
    lower = parse_question("what is if-range for?")
    (under,) = [c for c in ExtractiveGenerator().rank(lower, [if_range]) if c.text.startswith("If")]
    assert under.definition == 1.0
    # A stopword part that stems to another word ("Only-" to "onli") is one too.
    cached = passage(3, "14.9.4 Only-If-Cached\n\nA client sends it to get a stored response.")
    lower = parse_question("what is only-if-cached for?")
    (under,) = [c for c in ExtractiveGenerator().rank(lower, [cached]) if c.text.startswith("A")]
    assert under.definition == 1.0
    # PDF text writes Unicode hyphens.
    assert content_stems("If\u2010Range") == content_stems("If\u2011Range") == ["if", stem("range")]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("A client SHOULD NOT maintain more than 2 connections with any server.", True),
        ("Previous versions recommended a maximum of five redirections.", True),
        ("HTTP does not place any a priori limit on the length of a URI.", True),
        ("A Retry-After field can be sent with a 503 (Service Unavailable) response.", False),
        ("This field MAY also be sent with any 3xx response over HTTP/1.1.", False),
        ("See Section 6 for the retry rules.", False),
        ("See SP 800-52 Revision 1 and FIPS 140 for the retry rules.", False),
        ("There are no limits on retries.", True),
        ("There is no fixed upper limit on retries.", True),
        ("Retries are limited to 64KB of request body in all.", True),
        ("A client may retry up to forty times.", True),
        # "not limited to" introduces examples; a number inside a name counts nothing.
        ("Failures include, but are not limited to, timeouts and resets.", False),
        ("Retried requests are signed with SHA-256 over UTF-8 text.", False),
        ("Clients use one-time codes and two-factor authentication.", False),
        # A round count in the plural is a count ("thousands of connections").
        ("Busy servers retry thousands of queued requests.", True),
        ("A client may retry dozens of times.", True),
        ("Each retry waits a few thousandths of a second.", False),
        # A status code names a response; it counts nothing. A count labelled in
        # brackets still counts, and so does one beside a status code.
        ("Without Retry-After, the client handles it as it would a 500 response.", False),
        ("The server answers with a 301 (Moved Permanently) redirect.", False),
        ("The 500 response is handled like a timeout.", False),
        ("Clients retry up to 3 times after a 500 response.", True),
        ("Retries are capped at 200 (Standard) per day.", True),
        ("The gateway returns 503 (SERVICE_UNAVAILABLE_UPSTREAM, retry later) 3 times.", True),
    ],
)
def test_a_how_many_question_is_answered_by_a_count_it_does_not_state_itself(
    text: str, counts: bool
) -> None:
    # "503" is what the question is about, "3xx" and "HTTP/1.1" name things, and a
    # section number points somewhere: none of them counts retries.
    q = parse_question("How many times should a client retry after a 503 response?")
    assert q.expects == "count"
    assert states_expected(q, text) is counts


def test_a_count_question_prefers_the_sentence_that_counts() -> None:
    # The first sentence holds more of the question's words; only the second counts.
    p = passage(
        1,
        "A client that receives a 503 response may retry the request after a delay. "
        "A client may retry at most three times before it reports the failure to its user.",
    )
    question = "What is the maximum number of retries a client may make after a 503 response?"
    assert best(question, p).startswith("A client may retry at most three times")


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("HTTP does not place any a priori limit on the length of a URI.", True),
        ("Servers ought to be cautious about depending on URI lengths above 255 bytes.", True),
        # Saying that a server limits it states no limit.
        ("A server ought to limit the total length of chunk extensions it receives.", False),
        ("The chunked coding lets content of unknown size be sent as a series of chunks.", False),
        # A default is no limit, unless the sentence bounds the value too.
        ("The default page size for all list endpoints is now 50 (previously 25).", False),
        ("Pass `limit` (default 50, maximum 200) for later pages.", True),
        ("Page size, 1–200. Default 50.", True),
    ],
)
def test_a_limit_question_is_answered_by_a_limit_or_by_its_absence(text: str, states: bool) -> None:
    q = parse_question("What is the maximum length allowed?")
    assert q.expects == "limit"
    assert states_expected(q, text) is states


@pytest.mark.parametrize(
    ("question", "text", "states"),
    [
        # A figure is no bound: "a chunk-size of zero" is not the largest chunk size.
        (
            "What is the largest chunk size allowed in chunked transfer coding?",
            "The coding is complete when a chunk with a chunk-size of zero is received.",
            False,
        ),
        (
            "max number of challenges allowed in one WWW-Authenticate header",
            "The header field carries one or more challenges.",
            False,
        ),
        (
            "What is the largest chunk size allowed in chunked transfer coding?",
            "A chunk-size of at most 16 hexadecimal digits is accepted.",
            True,
        ),
        (
            "max number of challenges allowed in one WWW-Authenticate header",
            "A header may carry any number of challenges.",
            True,
        ),
        # "The rate limit" names the figure asked for; "Max-Forwards" names a header.
        (
            "What is the rate limit on the Business plan?",
            "Business: 600 requests per minute.",
            True,
        ),
        (
            "How many hops does a Max-Forwards value of 5 allow?",
            "Each proxy decrements Max-Forwards by one, so 4 further hops remain.",
            True,
        ),
        # Bounds said otherwise; a table's header may say it for its row.
        ("What is the minimum password length?", "It must be 12 characters or longer.", True),
        ("What is the minimum age for account holders?", "Holders must be 18 or older.", True),
        ("What is the maximum attachment size?", "Attachments are 25 MB or less.", True),
        # A bound from the wrong side, a figure a modal allows, the extreme repeated.
        ("What is the maximum attachment size?", "Clients need version 1.25 or later.", False),
        (
            "What is the maximum number of API keys per account?",
            "Each account may rotate 2 API keys per day.",
            False,
        ),
        (
            "What is the largest cluster size supported?",
            "The largest cluster size we run internally is 40 nodes.",
            False,
        ),
        ("How many devices can a user register at maximum?", "Most register 3 devices.", False),
        (
            "What is the maximum number of seats on the Business plan?",
            "| Plan | Max seats | Price | | Business | 300 | $12 |",
            True,
        ),
        # An extreme naming what is counted asks for no bound.
        (
            "How many employees does the largest office have?",
            "The London office has 400 employees.",
            True,
        ),
    ],
)
def test_an_extreme_asked_for_is_stated_only_as_a_bound(
    question: str, text: str, states: bool
) -> None:
    q = parse_question(question)
    assert q.expects in ("count", "limit")
    assert kind_cue(q, text, set()) is states


def test_a_table_row_under_a_bound_header_answers_an_extreme() -> None:
    table = (
        "| Plan | Max seats | Price |\n|---|---|---|\n| Free | 5 | $0 |\n"
        "| Business | 300 | $12 |\n\nBackups are encrypted."
    )
    claim = best("What is the maximum number of seats on the Business plan?", passage(1, table))
    assert "| Business | 300 | $12 |" in claim


def test_a_count_the_question_states_is_its_own_however_it_is_written() -> None:
    q = parse_question("How many retries are allowed after 1,000 requests?")
    assert not states_expected(q, "After 1000 requests the client is blocked.")
    assert states_expected(q, "After 1000 requests the client may retry 3 times.")


@pytest.mark.parametrize(
    ("question", "kind", "expects"),
    [
        ("How quickly must incidents be reported?", "number", "duration"),
        ("how promptly do critical patches have to go on", "number", "duration"),
        # A speed, in papers: a number, but no duration.
        ("How fast does the model run?", "number", None),
        ("how fast do you respond to a sev 1", "number", None),
        # Asked about, not asked for: as "how long" there.
        ("What factors determine how quickly a cache entry expires?", "other", None),
    ],
)
def test_how_quickly_asks_for_a_duration(question: str, kind: str, expects: str | None) -> None:
    q = parse_question(question)
    assert (q.kind.value, q.expects) == (kind, expects)


@pytest.mark.parametrize(
    ("question", "kind", "expects"),
    [
        # "At a minimum" says "at the least": what is required, no quantity.
        ("what do we have to do, at a minimum, for a low-impact system?", "other", None),
        ("Which controls must we apply as a minimum?", "list", None),
        ("At minimum, how many clouds make up a hybrid cloud?", "number", "count"),
        ("What is the minimum password length?", "number", "limit"),
        ("what must be logged, at the bare minimum?", "procedure", None),
        # A noun's minimum still asks for a quantity.
        ("What should we keep as a minimum of 3 copies?", "number", None),
        ("What happens to staff paid at the minimum wage?", "number", None),
    ],
)
def test_at_a_minimum_is_an_idiom_not_a_quantity(
    question: str, kind: str, expects: str | None
) -> None:
    q = parse_question(question)
    assert (q.kind.value, q.expects) == (kind, expects)


@pytest.mark.parametrize(
    ("question", "kind", "expects"),
    [
        # A past event's time: a date, not a condition ("When does a cache revalidate?").
        ("when did fips 199 come out", "number", "date"),
        ("When did the new leave policy take effect?", "number", "date"),
        ("When did the outage start?", "number", None),
        ("When does a server send 100 Continue?", "condition", None),
    ],
)
def test_when_did_asks_for_a_time_not_a_condition(
    question: str, kind: str, expects: str | None
) -> None:
    q = parse_question(question)
    assert (q.kind.value, q.expects) == (kind, expects)


def test_when_did_it_come_out_is_answered_by_a_date_not_a_condition() -> None:
    p = passage(
        1,
        "FIPS 199 applies to all federal information when security categorization is "
        "required. FIPS 199 was approved by the Secretary of Commerce in February 2004.",
    )
    assert best("when did fips 199 come out", p) == (
        "FIPS 199 was approved by the Secretary of Commerce in February 2004."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Use the `format` query parameter to choose `csv`, `xlsx` or `pdf`.",
        'Set `storage.compression` to "none", "lz4" or "zstd".',
        "Filter by `draft`, `queued`, `running`, `complete` or `failed`.",
        "The idempotent methods are GET, HEAD, PUT and DELETE.",
        # American style puts the comma inside the closing quote; code may sit tight.
        'Set it to "none," "lz4," or "zstd."',
        "“GET,” “HEAD,” and “PUT.”",
        "`GET`,`HEAD` or `--debug`",
    ],
)
def test_a_list_set_as_code_or_in_quotes_is_a_list_given_inline(text: str) -> None:
    # An API reference names its values as code; the commas then follow a backtick.
    question = parse_question("Which file formats can reports be exported in?")
    assert kind_cue(question, text, set())


def test_a_single_quoted_value_is_no_list() -> None:
    question = parse_question("Which file formats can reports be exported in?")
    assert not kind_cue(question, "The default format is `csv`, as before.", set())


def test_a_sentence_sending_the_reader_elsewhere_is_no_answer() -> None:
    # RFC 7230 3.1.2 points at RFC 7231 for the classes; RFC 2616 6.1.1 states them.
    pointer = passage(
        1,
        "See Section 6 of [RFC7231] for information about the semantics of status codes, "
        "including the classes of status code (indicated by the first digit).",
    )
    stated = passage(2, "The first digit of the Status-Code defines the class of response.")
    question = "What do the first digits of HTTP status codes mean?"
    assert best(question, pointer, stated).startswith("The first digit")
    further = passage(
        1,
        "For more information on the classes of status codes and the first digit, see "
        "Section 6 of RFC 7231.",
    )
    assert best(question, further, stated).startswith("The first digit")
    # Asked where to read more, the pointer is the answer.
    where = "Where can I read more about the classes of status codes and the first digit?"
    assert best(where, pointer, stated).startswith("See Section 6")


def test_a_reference_list_entry_answers_only_where_to_read() -> None:
    from pincite.generate.elsewhere import sends_elsewhere

    # RFC 7230 section 12: an entry names a publication, whatever words it shares.
    entry = (
        '[RFC5234] Crocker, D., Ed. and P. Overell, "Augmented BNF for Syntax '
        'Specifications: ABNF", STD 68, RFC 5234, January 2008.'
    )
    assert sends_elsewhere(entry)
    assert sends_elsewhere('[33] Fielding, R., Gettys, J. and H. Frystyk, "HTTP/1.1", 1997.')
    assert not sends_elsewhere("[RFC5234] defines the core rules ALPHA, DIGIT and CRLF.")
    assert not sends_elsewhere("[Optional] Include a request ID, e.g. a UUID.")
    assert not sends_elsewhere("[Update] Today, A. Patel approved the new leave policy.")
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    (rules,) = generator.rank(
        parse_question("Which core ABNF rules does RFC 7230 take over from RFC 5234?"),
        [passage(1, entry)],
    )
    assert rules.score == pytest.approx(rules.base * Scoring().elsewhere_factor)
    (where,) = generator.rank(
        parse_question("Which RFC defines the ABNF syntax specifications?"), [passage(1, entry)]
    )
    assert where.score >= where.base  # a source named, as asked
    # Asked what the reference list says of an entry, the entry answers.
    (listed,) = generator.rank(
        parse_question("What STD number does the normative reference give for ABNF?"),
        [passage(1, entry)],
    )
    assert listed.score >= listed.base
    # Asked for a publication, a pointer to one is not marked down.
    pointer = "See NIST SP 800-88, Guidelines for Media Sanitization, for more information."
    (named,) = generator.rank(
        parse_question("What NIST publication covers wiping telework devices?"),
        [passage(1, pointer)],
    )
    assert named.score >= named.base


def test_what_a_status_the_scene_names_is_telling_me_is_its_definition() -> None:
    # RFC 2616 10.4.7 under its heading, against a sentence of 14.1 about sending 406.
    defined = passage(
        1,
        "10.4.7 406 Not Acceptable\n\nThe resource identified by the request is only capable "
        "of generating response entities which have content characteristics not acceptable "
        "according to the accept headers sent in the request.",
    )
    sent = passage(
        2,
        "If an Accept header field is present, and if the server cannot send a response which "
        "is acceptable, then the server SHOULD send a 406 (not acceptable) response back.",
    )
    question = "got a 406 back from a server - what is it telling me?"
    assert best(question, sent, defined).startswith("The resource identified")


def test_a_quoted_message_in_a_scene_is_what_it_asks_about() -> None:
    entry = passage(
        1,
        "Access denied: the account is not allowed to use this application. "
        "Ask the service desk to add the application to your profile.",
    )
    other = passage(2, "Okta logs every denied access attempt for 90 days.")
    question = 'I get "Access denied" from Okta. What does it mean?'
    assert best(question, other, entry).startswith("Access denied: the account")


@pytest.mark.parametrize(
    ("question", "term"),
    [
        # "I" is nobody's name; a run ends with its sentence; a name holding a digit
        # is what a pronoun most often stands for.
        ("Yesterday I got a 406 back from a server. What is it telling me?", "406"),
        ("My manager said I am on a PIP. What is that?", "PIP"),
        ("When I call the API I get a 406. What does that mean?", "406"),
        ("We use Okta and got error E0000011 - what is it telling me?", "E0000011"),
        ("I read about VMI. What is it?", "VMI"),
        ("we keep seeing HSTS in audits - what does it stand for?", "HSTS"),
        # A quoted message is named by all its words, even after a name.
        ('Okta shows "Access denied" - what does it mean?', "Access denied"),
        # "IT" is a term, not a pronoun; "this policy" names its noun.
        ("What is IT governance?", "IT governance"),
        ("What is this policy?", "this policy"),
    ],
)
def test_the_term_a_scene_or_a_capitalised_word_names(question: str, term: str) -> None:
    q = parse_question(question)
    assert q.kind.value == "definition" and q.term == term


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("The page size defaults to 50 and may be raised to 200.", True),
        ("Request bodies default to a 1 MB ceiling.", True),
        # A parameter named `limit`, and a date's hyphen, bound nothing.
        ("The `limit` parameter defaults to 50.", False),
        ("The default page size is 50 (changed 2024-03-01).", False),
    ],
)
def test_a_default_that_is_also_bounded_states_a_limit(text: str, states: bool) -> None:
    q = parse_question("What is the maximum request body size?")
    assert states_expected(q, text) is states


@pytest.mark.parametrize(
    "where",
    [
        "What RFC defines the classes of status codes and the first digit?",
        "Which documents describe the classes of status codes and the first digit?",
    ],
)
def test_asked_which_document_the_pointer_answers(where: str) -> None:
    pointer = passage(
        1,
        "See Section 6 of [RFC7231] for information about the semantics of status codes, "
        "including the classes of status code (indicated by the first digit).",
    )
    stated = passage(2, "The first digit of the Status-Code defines the class of response.")
    assert best(where, pointer, stated).startswith("See Section 6")


def test_a_pointer_with_a_statement_after_it_is_no_mere_pointer() -> None:
    # "(see Section 3.2) A sender MUST NOT ...": the rule follows the reference.
    from pincite.generate.elsewhere import ELSEWHERE as _ELSEWHERE

    assert _ELSEWHERE.match("(see Section 3.2) A sender MUST NOT send whitespace.") is None
    assert _ELSEWHERE.match("See Table 2, which lists the levels LOW, MODERATE and HIGH.") is None
    assert _ELSEWHERE.match("For details, see Section 6.") is not None
    # A section number's dots end no clause: "which defines 406" still follows.
    assert _ELSEWHERE.match("See RFC 7231, Section 6.5.6, which defines 406.") is None
    assert _ELSEWHERE.match("See RFC 7231, Section 6.5.6.") is not None


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("What are examples of passive and active assessments for remote access?", "assess"),
        ("What are some examples of PaaS?", "paa"),
        # A setting, then a preposition before the wh-word.
        (
            "According to SP 800-46 Revision 1, through what channels does malware get in?",
            "channel",
        ),
        ("Via what channels is malware spread?", "channel"),
    ],
)
def test_examples_and_channels_asked_for_are_lists(question: str, head: str) -> None:
    q = parse_question(question)
    assert q.kind.value == "list" and q.head == head


def test_an_examples_question_is_answered_by_examples() -> None:
    question = parse_question("What are examples of passive assessments?")
    assert kind_cue(question, "Assessments may be passive, such as reviewing logs.", set())
    # Only a question asking for examples reads "such as" so.
    other = parse_question("What are the passive assessments?")
    assert not kind_cue(other, "Assessments may be passive, such as reviewing logs.", set())


def test_a_long_quoted_array_with_no_list_end_fails_at_once() -> None:
    # An item and the comma after it once could share a quote mark: a JSON array of
    # 16 items took 21 s, of 40 beyond patience. Atomic items fail it at once.
    question = parse_question("Which scopes can a token have?")
    array = "[" + ",".join(f'"s{i}"' for i in range(40)) + "] and may be combined."
    assert not kind_cue(question, f"Valid scopes are {array}", set())
    assert not kind_cue(question, "Valid scopes are " + array.replace(",", ", "), set())


@pytest.mark.parametrize(
    "text", ["1,000 or more", "between 1,000 and 5,000 requests", "retries 3,5 or 10 times"]
)
def test_a_number_with_a_thousands_comma_is_no_list(text: str) -> None:
    assert not kind_cue(parse_question("Which values can I use?"), text, set())


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("The page size defaults to 50; values over 200 are rejected.", True),
        ("Bodies default to 1 MB; anything under 10 MB is accepted.", True),
        # "set to" or "increased" with no figure bounds nothing.
        ("By default, the page size is set to 50.", False),
        ("The default of 50 may be increased in a future release.", False),
    ],
)
def test_a_bound_is_a_figure_past_which_a_default_cannot_go(text: str, states: bool) -> None:
    q = parse_question("What is the maximum request body size?")
    assert states_expected(q, text) is states


@pytest.mark.parametrize(
    ("question", "term"),
    [
        # A code before a bare number, a name before a number, the nearest among equals.
        ("I got a 406 after 5 minutes. What is it?", "406"),
        ("Our client follows RFC 7231 and gets a 406. What does that mean?", "406"),
        ("On Windows 11 I get 0x80070005. What is it?", "0x80070005"),
        ("My team lead and HR mentioned PIP. What is it?", "PIP"),
        # A sentence's first word, when it is a name.
        ("PIP came up in my review. What is it?", "PIP"),
        ("We failed the audit. AC-2 was cited. What does that mean?", "AC-2"),
        ("I read about VMI and I liked it. What is it?", "VMI"),
    ],
)
def test_the_name_a_scene_sets_up_for_it(question: str, term: str) -> None:
    assert parse_question(question).term == term


@pytest.mark.parametrize(
    "question", ["What is this routing table?", "What are these ring buffers?"]
)
def test_a_pronoun_before_a_noun_ending_in_ing_still_names_it(question: str) -> None:
    assert parse_question(question).kind.value == "definition"


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("What are examples of sensitive data under this policy?", "data"),
        ("What are examples of PII as defined in SP 800-122?", "pii"),
        ("What are the examples of idempotent methods?", "method"),
        ("What are some of the examples of PaaS?", "paa"),
    ],
)
def test_an_examples_question_lists_what_it_names_not_where(question: str, head: str) -> None:
    q = parse_question(question)
    assert q.kind.value == "list" and q.head == head


def test_examples_asked_of_and_given() -> None:
    assert gives_type("examples", "Remote access methods (e.g. VPNs) are covered.", set())


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What does section 4.2 say about encryption?", False),
        ("What documents do I need to submit for reimbursement?", False),
        ("What RFC defines the classes of status codes?", True),
        ("nist publication to follow for scrubbing data off old laptops", True),
        ("What guidance should we follow when we sanitize media?", True),
        ("What standard should we use for passwords, 12 or 16 characters?", False),
        ("Do we have to follow the travel policy abroad?", False),
        # Asked what a reference list gives, its entry is the answer.
        ("Which BCP number does the normative reference give for RFC 2119?", True),
        ("What date does the handbook's reference list give for the privacy act?", True),
        ("Which MIME spec appears in the RFC 2616 references?", True),
        ("Which guide on VPNs is listed among the resources in appendix C?", True),
        ("What are relative references in a URI?", False),
        ("What do the URI references in a Location header resolve against?", False),
        ("Which references to the order id must the receipt keep?", False),
        ("How does the runtime free the object references?", False),
    ],
)
def test_where_to_read_is_asked_in_so_many_words(question: str, asks: bool) -> None:
    from pincite.generate.elsewhere import ASKS_WHERE as _ASKS_WHERE

    assert (_ASKS_WHERE.search(question) is not None) is asks


def test_a_bracketed_pointer_ending_its_sentence_is_a_pointer() -> None:
    from pincite.generate.elsewhere import ELSEWHERE as _ELSEWHERE

    assert _ELSEWHERE.match("(See Appendix A).") is not None


def test_a_question_asking_which_code_wants_a_sentence_naming_one() -> None:
    # RFC 2616 section 13.1.2 speaks of stale responses without naming a warn-code;
    # section 14.46 lists the codes, each described by a sentence with no subject.
    caching = passage(
        1,
        "If the cache can not communicate with the origin server, then a correct cache "
        "SHOULD respond as above if the response can be correctly served from the cache; "
        "if not it MUST return an error or warning indicating that there was a "
        "communication failure.",
    )
    codes = passage(
        2,
        "This is a list of the currently-defined warn-codes.\n\n"
        "   110 Response is stale\n"
        "     MUST be included whenever the returned response is stale.\n\n"
        "   111 Revalidation failed\n"
        "     MUST be included if a cache returns a stale response because an\n"
        "     attempt to revalidate the response failed, due to an inability to\n"
        "     reach the server.\n",
    )
    question = "Which warning code should a cache attach when it can't reach the origin server?"
    answer = best(question, caching, codes)
    # The code's line is the sentence's subject, so the claim quotes it.
    assert answer.startswith("111 Revalidation failed MUST be included if a cache returns")
    asked = parse_question(question)
    assert kind_cue(asked, answer, set())
    assert not kind_cue(asked, "MUST be included whenever the response is stale.", set())
    # A code the question names is what it asks about, not an answer; a section
    # number is no code.
    assert not kind_cue(asked, "See section 13.1.5 and 14.46.", set())
    assert not kind_cue(asked, "Each request costs $250.", set())
    assert kind_cue(asked, "The API then returns 401.", set())
    # A question naming its codes, or a code of conduct, asks for no code.
    for other in (
        "Should I send 404 or 410? Which status code fits?",
        "What code of conduct applies?",
    ):
        assert asked_type(parse_question(other)) is None


# (question, a sentence repeating its words, the sentence giving what it asks for)
_TYPED_ANSWERS = [
    # SP 800-46r2 section 5.4: the duty repeats the words; the next sentence gives examples.
    (
        "What are examples of passive and active assessments of remote access policies?",
        "Organizations should also periodically perform assessments to confirm that the "
        "organization's remote access policies, processes, and procedures are being "
        "followed properly.",
        "Assessment activities may be passive, such as reviewing logs, or active, such as "
        "performing vulnerability scans and penetration testing.",
    ),
    # RFC 7230 section 2.3: the definition repeats the words; the next sentence, the uses.
    (
        "What are gateways typically used for?",
        'A "gateway" (a.k.a. "reverse proxy") is an intermediary that acts as an origin '
        "server for the outbound connection but translates received requests and forwards "
        "them inbound to another server or servers.",
        "Gateways are often used to encapsulate legacy or untrusted information services "
        "and to enable load balancing of HTTP services.",
    ),
    # SP 800-46r2 section 3.3: how portals and tunnels are alike, then how they differ.
    (
        "security-wise, what distinguishes a portal from a tunnel?",
        "In terms of security, portals have most of the same characteristics as tunnels.",
        "However, there is an important difference between tunnels and portals: the "
        "location of the application client software and associated data.",
    ),
]


@pytest.mark.parametrize(("question", "repeats", "gives"), _TYPED_ANSWERS)
def test_a_question_asking_for_a_type_of_answer_wants_a_sentence_giving_it(
    question: str, repeats: str, gives: str
) -> None:
    assert best(question, passage(1, repeats), passage(2, gives)) == gives


@pytest.mark.parametrize(
    ("question", "kind", "gives", "lacks"),
    [
        (
            "which resources does a provider pool? looking for concrete examples",
            "examples",
            "Examples of resources include storage and memory.",
            "The resources are pooled and reassigned on demand.",
        ),
        # What something includes gives examples; a bare list does not.
        (
            "What are some examples of PII?",
            "examples",
            "PII includes names, addresses, and biometric records.",
            "Names, addresses, and biometric records are kept for a year.",
        ),
        (
            "What are gateways typically used for?",
            "uses",
            "Gateways are often used to cache.",
            "A gateway is an intermediary.",
        ),
        # SP 800-46r2 appendix A: a catalogue's row names its control.
        (
            "rev 2 control mapping: which 800-53 control is about backing up telework data",
            "control",
            "CP-9, Information System Backup This control involves backing up data.",
            "This appendix lists the NIST SP 800-53 Revision 4 security controls.",
        ),
        (
            "which Cybersecurity Framework subcategory covers managing remote access?",
            "control",
            "PR.AC-3: Remote access is managed",
            "This appendix lists the Cybersecurity Framework subcategories.",
        ),
        (
            "what's the difference between a minor and a patch release",
            "difference",
            "Unlike a minor release, a patch release adds no features.",
            # "different forms" states no difference.
            "A patch release uses different forms of versioning.",
        ),
        # SP 800-46 section 2.2.2: two things set side by side state their difference.
        (
            "How does the interface an SSL portal VPN gives differ from terminal server access?",
            "difference",
            "Terminal server access presents a virtual desktop, while SSL portal VPNs present "
            "each application through a web page.",
            # "while" of time states none.
            "The portal keeps the session open while the teleworker is connected.",
        ),
        # SP 800-46 section 3.3.1: what a safeguard is for is its aim.
        (
            "In remote access, what is mutual authentication supposed to achieve?",
            "purpose",
            "Organizations should implement mutual authentication, so that a remote access "
            "user can verify the legitimacy of a remote access server.",
            "Mutual authentication is used by many remote access solutions.",
        ),
        (
            "What is the purpose of the Via header?",
            "purpose",
            "The Via header field is used to track message forwards and to avoid request loops.",
            "The Via header field is a list of received protocols.",
        ),
        (
            "how do thin and thick clients differ in security risk?",
            "difference",
            "Thin clients are generally more flexible and efficient than thick clients.",
            "Thin clients run in a web browser.",
        ),
        # SP 800-46r2 section 3.1: a difference stated of both at once.
        (
            "According to SP 800-46 Revision 2, how do PCs and mobile devices differ?",
            "difference",
            "Still, the security controls available for PCs and mobile devices are "
            "significantly different as of this writing.",
            # "different" naming what follows it states no difference.
            "PCs and mobile devices are different kinds of client device.",
        ),
        # SP 800-46r2: a pointer to another publication answers which publication.
        (
            "nist publication to follow for scrubbing data off old telework laptops",
            "source",
            "See NIST SP 800-88, Guidelines for Media Sanitization, for additional information.",
            "It may be necessary to scrub the telework data without affecting personal data.",
        ),
        (
            "We're exposing some internal servers through remote access. Where can we find "
            "hardening guidance for them?",
            "source",
            "Sources of hardening information include the National Checklist Repository "
            "(http://checklists.nist.gov/).",
            "Servers reachable through remote access should be hardened.",
        ),
        # RFC 2616 section 3.7: the RFC the question names is not the one it asks for.
        (
            "Which RFC does RFC 2616 point to for registering a new media type?",
            "source",
            "The registration process is outlined in RFC 1590.",
            "Media-type values are registered with IANA.",
        ),
    ],
)
def test_what_gives_a_type_of_answer(question: str, kind: str, gives: str, lacks: str) -> None:
    asked = parse_question(question)
    assert asked_type(asked) == kind
    assert kind_cue(asked, gives, set())
    assert not kind_cue(asked, lacks, set())


@pytest.mark.parametrize(
    "question",
    [
        # A yes/no question asks for none of them, whatever words it uses.
        "Are the examples in this policy binding on contractors?",
        # "any different if ..." asks about a condition, not how two things differ.
        "is the cap any different if you leak our data",
        "Which fields are required for instance creation?",
        "Which headers does the example request include?",
        # Controls asked for in words, a baseline, control over something, a question
        # naming its own control (in any case): no catalogue's identifier asked for.
        "under fips 200, which set of sp 800-53 controls do we have to start from?",
        "which set of controls do we have to start from?",
        "What security controls are recommended for telework devices?",
        "what controls does FIPS 200 require?",
        "In IaaS, what does the consumer have control over?",
        "Which SP 800-53 control does AC-20 extend?",
        "Which SP 800-53 control does ac-20 extend?",
        # A document's purpose is its scope sentence's; a purpose asked of someone or
        # of a time is no aim asked for.
        "What is the purpose of this policy?",
        "Who determines the purpose of processing personal data?",
        "When must the purpose of a data transfer be documented?",
        # An RFC the question names is what it asks about; a place to go is no source.
        "which RFC 2616 header field carries a SHA-256 digest of the response body?",
        "where do I get my temporary Google password on day one?",
        "What is the publication deadline for the annual report?",
        "Which publication date does FIPS 200 give for SP 800-60?",
        "Which publications need approval before release?",
        "Where can I find the expense claim form?",
        # A number beside a publication's name is no designation asked for.
        "Which page number of SP 800-46 holds the glossary?",
        # How such numbers work asks for no one publication.
        "Who assigns RFC numbers?",
        "What is the SP number format used by NIST?",
        "Where do I find the SP number on the invoice?",
        "What is the FIPS 199 impact level number for a moderate system?",
    ],
)
def test_questions_asking_for_no_type_of_answer(question: str) -> None:
    assert asked_type(parse_question(question)) is None


@pytest.mark.parametrize(
    "question",
    [
        "What NIST publication recommends multifactor authentication for remote access?",
        "Which RFC obsoletes RFC 2616?",
        "Which RFCs are referenced for URI syntax?",
        "The telework guide's lists are based on which section of which NIST publication?",
        # A publication's designation asked for.
        "nist sp number of the enterprise password management guide that the telework guide cites",
        "Tell me the RFC number for TLS 1.3.",
        "what's the RFC number for HTTP/1.1 message syntax?",
    ],
)
def test_a_publication_asked_for_by_what_it_does(question: str) -> None:
    assert asked_type(parse_question(question)) == "source"


def test_a_publication_the_question_names_is_not_the_source_it_asks_for() -> None:
    question = parse_question("Which RFC does RFC 2616 point to for registering a media type?")
    asked = {w.casefold() for w in re.findall(r"\w+", question.text)}
    assert kind_cue(question, "The registration process is outlined in RFC 1590.", asked)
    assert not kind_cue(question, "Media types are registered as RFC 2616 requires.", asked)


def test_what_a_thing_is_for_is_still_what_it_is() -> None:
    assert parse_question("What are gateways typically used for?").term == ""
    assert parse_question("What is the If-Range header used for?").term == "If-Range header"


def test_a_yes_no_question_is_not_answered_by_a_definition_that_says_neither() -> None:
    # RFC 2616 section 14.7: the field's definition opens the section; the rule that
    # answers the question comes later.
    allow = passage(
        1,
        "14.7 Allow\n\nThe Allow entity-header field lists the set of methods supported by "
        "the resource identified by the Request-URI.\n\n"
        "A proxy MUST NOT modify the Allow header field even if it does not understand all "
        "the methods specified.",
        section=("14.7 Allow",),
    )
    question = "our proxy gets an Allow header listing odd methods. can it trim the methods?"
    assert best(question, allow).startswith("A proxy MUST NOT modify the Allow header")


def test_whether_or_not_is_no_denial() -> None:
    asked = parse_question("should a client list chunked in its TE header?")
    assert not kind_cue(asked, "TE says whether or not the client accepts trailers.", set())
    assert kind_cue(asked, "A client MUST NOT send the chunked coding name in TE.", set())
    assert kind_cue(asked, "The server does not send it.", set())


def test_a_definition_saying_whom_a_thing_is_open_to_still_answers_yes_or_no() -> None:
    from pincite.generate.select import _says_yes_or_no

    asked = parse_question("Is a contractor allowed to use the VPN?")
    assert _says_yes_or_no(asked, "The VPN is available to contractors with a sponsor.", "VPN")
    assert not _says_yes_or_no(asked, "The VPN is the remote access service.", "VPN")
    # The condition a thing is given on answers whether one gets it.
    pay = parse_question("i started 4 months ago, do i get the enhanced maternity pay?")
    assert _says_yes_or_no(pay, "Carers with at least 26 weeks of service receive it.", "Pay")
    # "whether or not", however the text wraps it, denies nothing.
    assert not _says_yes_or_no(asked, "The VPN says whether or\n   not a device is healthy.", "VPN")
    # Under an FAQ's question heading the reply is titled by it.
    assert _says_yes_or_no(asked, "The VPN is the remote access service.", "Can I use it?")


def test_a_sentence_naming_what_the_one_before_described_defines_the_name() -> None:
    # SP 800-46r2 section 4.1: the checks are described first, then named.
    checks = passage(
        1,
        "After verifying the identity of a remote access user, organizations may choose to "
        "perform checks involving the telework client device. These checks are sometimes "
        "called health, suitability, screening, or assessment checks.",
    )
    other = passage(
        2,
        "Remote access servers perform screening of traffic between networks before forwarding it.",
    )
    question = "our vendor talks about 'screening' checks. what are those in NIST's guide?"
    asked = parse_question(question)
    assert (asked.kind, asked.term) == (QuestionKind.DEFINITION, "screening")
    answer = best(question, other, checks)
    assert answer.startswith("After verifying the identity")
    assert answer.endswith("or assessment checks.")


def test_a_quoted_phrase_is_named_by_the_sentence_that_answers() -> None:
    # RFC 2616 section 9.3. Quoting "conditional GET" marks down the sentence that says
    # "conditional request", not the one naming what the question quotes.
    loose = passage(1, "Request headers turn a plain GET into a conditional request.")
    named = passage(
        2,
        'The semantics of the GET method change to a "conditional GET" if the request '
        "message includes an If-Modified-Since, If-Unmodified-Since, If-Match, "
        "If-None-Match, or If-Range header field.",
    )
    generator = ExtractiveGenerator(None, ExtractiveConfig(threshold=-1e9))
    quoting = 'which request headers turn a plain GET into a "conditional GET"?'

    def scores(question: str) -> dict[int, float]:
        ranked = generator.rank(parse_question(question), [loose, named])
        return {c.passage.number: c.score for c in ranked}

    plain, quoted = scores(quoting.replace('"', "")), scores(quoting)
    assert quoted[2] == pytest.approx(plain[2])
    assert quoted[1] == pytest.approx(plain[1] - Scoring().type_penalty)
    assert quoted_phrases(parse_question(quoting)) == ((stem("conditional"), stem("get")),)
    # A phrase no sentence names (scare quotes, a message no passage repeats) marks
    # none down: the refusal threshold would read that as weaker evidence.
    scared = 'which request headers turn a plain GET into a "smart GET"?'
    assert scores(scared) == pytest.approx(scores(scared.replace('"', "")))


def test_a_heading_naming_the_quoted_phrase_names_it_for_the_sentence_under_it() -> None:
    section = passage(
        1,
        "10.3.5 304 Not Modified\n\nIf the client has performed a conditional GET request "
        "and access is allowed, but the document has not been modified, the server SHOULD "
        "respond with this status code.",
    )
    aside = passage(2, "A 304 Not Modified response carries no body.")
    generator = ExtractiveGenerator(None, ExtractiveConfig(threshold=-1e9))
    quoting = 'When does a server send "304 Not Modified"?'
    ranked = {
        q: {c.passage.number: c.score for c in generator.rank(parse_question(q), [section, aside])}
        for q in (quoting, quoting.replace('"', ""))
    }
    assert ranked[quoting][1] == pytest.approx(ranked[quoting.replace('"', "")][1])


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("A conditional GET method requests that ...", True),
        ("a Conditional-GET is ...", True),
        ("The GET method is conditional when ...", False),
    ],
)
def test_a_quoted_phrase_is_named_word_after_word(text: str, named: bool) -> None:
    assert names_quoted(text, ((stem("conditional"), stem("get")),)) is named


def test_a_quoted_term_holding_the_asked_one_is_another_term() -> None:
    # RFC 2616 section 1.3: the "proxy" entry (here as a plain sentence), and the
    # "transparent proxy" after it.
    glossary = passage(
        1,
        "A proxy is an intermediary program which acts as both a server and a client "
        "for the purpose of making requests on behalf of other clients.",
    )
    other = passage(
        2,
        'A "transparent proxy" is a proxy that does not modify the request or response '
        "beyond what is required for proxy authentication and identification.",
    )
    assert best("What is a proxy?", other, glossary).startswith("A proxy is an intermediary")
