"""How users word what a policy states: acronyms for what it spells out (and the
other way round), "required" for its "must", and framing words ("what happens",
"do I need to") that no passage repeats."""

from __future__ import annotations

import pytest
from extractive_helpers import best, passage

from pincite.generate.acronyms import acronyms
from pincite.generate.deontic import obligations
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.question import parse_question

SECURITY = (
    "Passwords must be at least 14 characters long. "
    "Multi-factor authentication is mandatory for email and the HR portal. "
    "Company laptops must be connected through the company network when used outside."
)


def test_the_question_s_acronym_is_found_spelled_out() -> None:
    assert acronyms("Is MFA required?", SECURITY, {"mfa", "requir"}) == {"mfa"}
    assert best("Is MFA required?", passage(1, SECURITY)).startswith("Multi-factor")


def test_question_words_spelling_out_the_text_s_acronym_are_found() -> None:
    text = "Teleworkers should use the VPN for every connection to the office."
    wanted = {"virtual", "privat", "network", "home"}
    assert acronyms("Do I need a virtual private network at home?", text, wanted) == {
        "virtual",
        "privat",
        "network",
    }


def test_a_plural_acronym_is_read_as_its_singular() -> None:
    text = "Bring your own device programs need a separate network."
    assert acronyms("Which BYODs are allowed?", text, {"byod", "allow"}) == {"byod"}


@pytest.mark.parametrize(
    ("question", "text"),
    [
        # Function words spell nothing: "can also" is no "CA".
        ("Can the CA revoke it?", "The server can also revoke it."),
        # Two lower-case initials match too much by chance; "HR" needs "Human Resources".
        ("Who runs HR?", "The human resources team runs it."),
        # The initials must be consecutive words of the text.
        ("Is MFA required?", "Multi-step login and authentication factors."),
    ],
)
def test_initials_that_spell_it_by_chance_do_not_count(question: str, text: str) -> None:
    assert acronyms(question, text, {"ca", "hr", "mfa"}) == set()


def test_a_lower_case_acronym_is_read_when_no_passage_holds_the_word() -> None:
    absent = frozenset({"mfa"})
    assert acronyms("is mfa required?", SECURITY, {"mfa"}, absent) == {"mfa"}
    assert best("is mfa required?", passage(1, SECURITY)).startswith("Multi-factor")


@pytest.mark.parametrize(
    ("question", "text", "absent"),
    [
        # A word some passage holds is that word, not an acronym.
        ("is mfa required?", SECURITY, frozenset()),
        # In lower case, every word must be a content word: "your own" spells nothing.
        ("do we allow byod?", "Bring your own device programs exist.", frozenset({"byod"})),
        # Two letters are too few to read a lower-case word as an acronym.
        ("who is in hr?", "Human Resources runs payroll.", frozenset({"hr"})),
    ],
)
def test_a_lower_case_word_is_no_acronym_by_chance(
    question: str, text: str, absent: frozenset[str]
) -> None:
    assert acronyms(question, text, {"mfa", "byod", "hr"}, absent) == set()


def test_capitalised_two_word_expansions_count() -> None:
    assert acronyms("Who runs HR?", "Human Resources runs payroll.", {"hr"}) == {"hr"}


def test_words_already_found_are_not_asked_again() -> None:
    # Only the question words the sentence lacks are looked for.
    assert acronyms("Is MFA required?", SECURITY, set()) == set()


ACCOUNTS = (
    "## 3. Access control\n\n"
    "Managers review access rights every six months. "
    "Accounts of leavers are disabled on their last working day. "
    "Passwords must be changed immediately if they may have been disclosed."
)


@pytest.mark.parametrize(
    ("question", "framing"),
    [
        ("What happens to a leaver's account?", "happen"),
        ("Do I need to change my password?", "need"),
        ("Can you tell me the hotel limit?", "tell"),
        ("I want to know the hotel limit.", "know"),
        ("We're expecting twins - do I get double the leave?", "get"),
        ("How many days of annual leave do we get?", "get"),
        ("How does NIST say to handle measures IT cannot enforce?", "say"),
        ("What is mutual authentication supposed to achieve?", "achiev"),
    ],
)
def test_framing_words_are_not_among_the_question_s_words(question: str, framing: str) -> None:
    assert framing not in parse_question(question).stems


def test_a_framed_question_is_answered_from_its_topic() -> None:
    answer = best("What happens to a leaver's account?", passage(1, ACCOUNTS))
    assert answer == "Accounts of leavers are disabled on their last working day."


LEAVE = (
    "## 4. Entitlement\n\n"
    "Staff who work on a bank holiday get double time off in lieu. "
    "The entitlement is not multiplied for twins or other multiple births; "
    "one period of leave applies per birth or placement event."
)


def test_asking_with_get_does_not_dilute_the_answer_s_evidence() -> None:
    # The sentence holds every word of what is asked; "get", which no entitlement
    # repeats, no longer counts against it (0.80 with it, 1.08 without, lexically).
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.9))
    generation = generator.generate("Do I get more leave for twins?", [passage(1, LEAVE)])
    assert generation.sufficient_context
    assert generation.claims[0].text.startswith("The entitlement is not multiplied for twins")


NAT = (
    "NAT. The use of NAT can cause operational problems for some remote access solutions. "
    "For example, any remote access system that requires the teleworker to connect directly "
    "to a host inside the network cannot work with a NAT without special configuration."
)


def test_what_a_document_says_is_asked_in_the_document_s_own_words() -> None:
    # No passage says "say" of itself; it no longer counts against the sentence
    # (0.45 with it, 0.56 without, lexically).
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.5))
    generation = generator.generate(
        "Which remote access systems does NIST say cannot work with NAT?", [passage(1, NAT)]
    )
    assert generation.sufficient_context
    assert generation.claims[0].text.startswith("For example, any remote access system")


def test_saying_that_is_asked_stays_a_question_word() -> None:
    assert "say" in parse_question("What do I say to a customer who complains?").stems
    assert "exact" not in parse_question("What is an intermediary, exactly?").stems


def test_get_outside_the_asking_stays_a_question_word() -> None:
    assert "get" in parse_question("Which requests does a GET cache?").stems


def test_need_as_a_noun_stays_a_question_word() -> None:
    assert "need" in parse_question("Which needs does the policy address?").stems


@pytest.mark.parametrize("stated", ["must", "shall", "is mandatory", "is REQUIRED"])
def test_required_is_found_in_any_word_of_obligation(stated: str) -> None:
    text = f"Multi-factor authentication {stated} for email."
    assert obligations(text, {"requir", "email"}) == {"requir"}


def test_permission_is_no_obligation() -> None:
    assert obligations("Employees may work remotely.", {"requir"}) == set()
    # "allowed" is not read as "may": limit questions ask what is allowed.
    assert obligations("Employees must work on site.", {"allow"}) == set()


@pytest.mark.parametrize(
    ("question", "expects"),
    [
        ("How long must passwords be?", None),
        ("How long does my password need to be?", None),
        ("How long is parental leave?", "duration"),
        ("How long must records be kept?", "duration"),
    ],
)
def test_how_long_something_must_be_asks_a_length_not_a_time(
    question: str, expects: str | None
) -> None:
    assert parse_question(question).expects == expects


def test_a_length_question_is_answered_by_the_length() -> None:
    text = (
        "## 4. Passwords and authentication\n\n"
        "Passwords must have at least 14 characters. "
        "Passwords must be changed immediately if they may have been disclosed, "
        "but are not otherwise required to expire."
    )
    # Read as a time, "immediately" would answer it.
    answer = best("How long does my password need to be?", passage(1, text))
    assert answer == "Passwords must have at least 14 characters."
