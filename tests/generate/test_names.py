"""The documents a question names, however it types them, and what their names weigh.

Each test failed on the answerer before the rule it names was read.
"""

from __future__ import annotations

import pytest
from extractive_helpers import best, generate, passage

from pincite.generate.names import document_names, naming_stems
from pincite.generate.question import parse_question
from pincite.generate.words import content_stems, stem

RFC_2616 = "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1"


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # Lower case, as a busy user types: no capital makes it a name token.
        ("per rfc 7230, may a proxy rewrite the Host header?", "rfc 7230"),
        ("max length of the reason phrase per rfc 2616", "rfc 2616"),
        # The question's first word, which the name runs never read.
        ("FIPS 199 lists which public law?", "fips 199"),
        ("fips 200 - is there an acronyms appendix?", "fips 200"),
        # As titles spell it: "revision 2", "fips 199".
        ("how long is sp 800-46 rev 2, in pages", "sp 800-46 revision 2"),
        ("page count of nist sp 800-46r2", "sp 800-46 revision 2"),
        ("which headers does rfc7230 define", "rfc 7230"),
        # A revision typed apart from its series.
        ("we follow rev 1 of sp 800-46 - what about tablets", "revision 1"),
    ],
)
def test_a_document_number_is_a_name_however_it_is_typed(question: str, name: str) -> None:
    assert name in parse_question(question).names


def test_a_name_already_read_is_not_read_twice() -> None:
    assert parse_question("Does RFC 7230 say a proxy may rewrite Host?").names == ("rfc 7230",)
    assert document_names("Under RFC 2616, may I?", ("rfc 2616",)) == ("rfc 2616",)
    # Run together, or with "PUB", the name runs keep a form no title writes: it is
    # spelled as titles spell it, not kept beside that spelling.
    assert parse_question("In RFC7230's scheme registry, what is https?").names == ("rfc 7230",)
    assert parse_question("What does FIPS PUB 199 call a low impact?").names == ("fips 199",)
    # Another number that starts the same is another document.
    assert parse_question("Does RFC 2616 obsolete rfc 261?").names == ("rfc 2616", "rfc 261")
    # Not a document: a status code, a version, a section, a shift, an API's revision.
    assert document_names("Does HTTP/1.1 send 304 in section 10.3.5?", ()) == ()
    assert parse_question("I work in sp 2 shift, who approves leave?").names == ()
    assert parse_question("what does the api rev 2 endpoint return").names == ()


def test_the_words_a_name_alone_gives_are_its_own() -> None:
    named = naming_stems("Under RFC 2616, may I write a leading zero?", ["rfc 2616"])
    assert named == {"rfc 2616": set(content_stems("RFC 2616"))}
    # "RFC" is said apart too: it stays the question's word.
    apart = naming_stems("Which RFC obsoletes RFC 2616?", ["rfc 2616"])
    assert apart == {"rfc 2616": {stem("2616")}}


def test_another_documents_number_in_a_sentence_is_no_match_for_the_name() -> None:
    # RFC 2616 3.1: the sentence citing "RFC 1945" shares the question's "RFC", and
    # with it outweighed the rule asked for.
    rule = passage(1, "Leading zeros are dropped.", title=RFC_2616)
    history = passage(2, "RFC 1945 lets a sender write the version.", title=RFC_2616)
    q = "Under RFC 2616, may I write a leading zero?"
    assert best(q, rule, history) == "Leading zeros are dropped."
    # A sentence naming the document itself still holds its name.
    named = passage(2, "RFC 2616 lets a sender write the version.", title=RFC_2616)
    assert best(q, rule, named) == "RFC 2616 lets a sender write the version."


def test_a_version_a_title_holds_is_no_document_name() -> None:
    # "HTTP/1.1" is in RFC 2616's title, but a sentence saying "HTTP" matches it.
    stateless = passage(1, "HTTP is a stateless protocol at its core.", title=RFC_2616)
    other = passage(2, "A protocol extension may add state.", title=RFC_2616)
    assert best("Is HTTP/1.1 a stateless protocol?", stateless, other) == (
        "HTTP is a stateless protocol at its core."
    )


def test_a_row_of_the_named_document_need_not_repeat_its_name() -> None:
    # RFC 7230 8.2: the registry's rows name no RFC; their table is the document's.
    table = passage(
        1,
        "| URI Scheme | Description | Reference |\n"
        "|---|---|---|\n"
        "| http | Hypertext Transfer Protocol | Section 2.7.1 |\n"
        "| https | Hypertext Transfer Protocol Secure | Section 2.7.2 |\n",
        title="RFC 7230 - Hypertext Transfer Protocol (HTTP/1.1): Message Syntax and Routing",
    )
    answer = best("In RFC 7230's scheme registry, what is the description for https?", table)
    assert "Hypertext Transfer Protocol Secure" in answer

    # A row of Revision 1 says nothing of the Revision 3 asked about.
    revision_1 = passage(
        1,
        "| Device | Recommended protection |\n|---|---|\n| Laptop | Full disk encryption |\n"
        "| Tablet | Device passcode |\n",
        title="NIST SP 800-46 Revision 1, Guide to Enterprise Telework",
    )
    asked = "In sp 800-46 rev {}, what protection is recommended for a tablet?"
    assert generate(asked.format(3), revision_1).claims == ()
    assert "Device passcode" in best(asked.format(1), revision_1)
