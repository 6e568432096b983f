"""Question typing and passage layout: what the extractive generator reads before it scores."""

from __future__ import annotations

import pytest

from pincite.generate.layout import Role, layout
from pincite.generate.question import QuestionKind, parse_question
from pincite.generate.words import stem


def stems(*words: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in words)


@pytest.mark.parametrize(
    ("question", "kind", "focus"),
    [
        ("What is rapid elasticity?", QuestionKind.DEFINITION, stems("rapid", "elasticity")),
        (
            "What does the 408 status code mean?",
            QuestionKind.DEFINITION,
            stems("408", "status", "code"),
        ),
        ("What is the NIST definition of cloud computing?", QuestionKind.DEFINITION, None),
        ("What is the maximum length of a URI?", QuestionKind.NUMBER, None),
        ("How many deployment models are there?", QuestionKind.NUMBER, None),
        ("What are the essential characteristics of cloud computing?", QuestionKind.LIST, None),
        ("Which service models does the NIST definition list?", QuestionKind.LIST, None),
        ("When is the potential impact moderate?", QuestionKind.CONDITION, None),
        # "in what" opens a condition only when a condition noun follows it
        ("In what cases may a proxy cache it?", QuestionKind.CONDITION, None),
        ("Under which conditions does it persist?", QuestionKind.CONDITION, None),
        ("In what 8 languages is the engine offered?", QuestionKind.LIST, stems("languages")),
        ("In which responses is the header forbidden?", QuestionKind.LIST, stems("responses")),
        # typed definitions: a quoted term, "X definition in Y", "X - what is it", a
        # lower-case document after the term
        (
            "define 'security category' in the fips standards",
            QuestionKind.DEFINITION,
            stems("security", "category"),
        ),
        (
            "vulnerability definition in fips 200 glossary",
            QuestionKind.DEFINITION,
            stems("vulnerability"),
        ),
        (
            "head of line blocking in http/1.1 - what is it",
            QuestionKind.DEFINITION,
            stems("head", "line", "blocking"),
        ),
        # ... with the document it asks in after the pronoun, or "what does it stand for"
        (
            "management controls - what are they in FIPS 200 terms?",
            QuestionKind.DEFINITION,
            stems("management", "controls"),
        ),
        ("KIT day - what does it stand for?", QuestionKind.DEFINITION, stems("kit", "day")),
        # "what kinds of X count as Y", and a question before a dash is asked, not a scene
        ("What kinds of material count as records?", QuestionKind.DEFINITION, stems("records")),
        (
            "what kinds of material count as 'records' in the FIPS 200 glossary - are photos "
            "or machine-readable files included?",
            QuestionKind.DEFINITION,
            stems("records"),
        ),
        (
            'What does "information resources" mean in FIPS 199?',
            QuestionKind.DEFINITION,
            stems("information", "resources"),
        ),
        (
            "what is the meaning of rapid elasticity in sp 800-145",
            QuestionKind.DEFINITION,
            stems("rapid", "elasticity"),
        ),
        # a scene names the term, a pronoun asks what it is
        ("I read about VMI - what is it?", QuestionKind.DEFINITION, stems("vmi")),
        (
            "got a 406 back from a server - what is it telling me?",
            QuestionKind.DEFINITION,
            ("406",),
        ),
        (
            "My proxy returned 502 Bad Gateway. What does that mean?",
            QuestionKind.DEFINITION,
            stems("502", "bad", "gateway"),
        ),
        # a scene before "what does it mean" names what is asked about; so does one
        # that opens with "When I ..." or "What about ..."
        ("Got a 406 back - what does it mean?", QuestionKind.DEFINITION, ("406",)),
        (
            "Seeing E0000011 in the logs - what does it mean?",
            QuestionKind.DEFINITION,
            stems("e0000011"),
        ),
        (
            "When I call the API I get a 406 - what does that mean?",
            QuestionKind.DEFINITION,
            ("406",),
        ),
        ("What is DLP - what does it stand for?", QuestionKind.DEFINITION, stems("dlp")),
        (
            "What do the first digits of HTTP status codes mean - what are the classes?",
            QuestionKind.LIST,
            stems("classes"),
        ),
        (
            "what kinds of machine-readable files count as records?",
            QuestionKind.DEFINITION,
            stems("records"),
        ),
        # a scene ending in a bracket or a quote is a scene all the same; a quoted
        # message is named by all its words
        (
            "my client gets a header folded over lines (obs-fold). What should it do?",
            QuestionKind.PROCEDURE,
            (),
        ),
        (
            'I get "Access denied". What does it mean?',
            QuestionKind.DEFINITION,
            stems("access", "denied"),
        ),
        (
            "I keep getting 'quota exceeded' - what does that mean?",
            QuestionKind.DEFINITION,
            stems("quota", "exceeded"),
        ),
        # what it does is no definition
        ("I saw a Vary header. What does it do?", QuestionKind.OTHER, stems("vary")),
        ("Ok - what is that?", QuestionKind.OTHER, ()),
        (
            # An amount asked for, not what a fee is ("the first 3 months" is no
            # qualifier of a term either way).
            "what is the fee for the first 3 months",
            QuestionKind.NUMBER,
            stems("first", "3", "months"),
        ),
        ("How does a client retry a request?", QuestionKind.PROCEDURE, None),
        ("What is the name of the largest city?", QuestionKind.OTHER, None),
    ],
)
def test_question_kind_and_focus(
    question: str, kind: QuestionKind, focus: tuple[str, ...] | None
) -> None:
    q = parse_question(question)
    assert q.kind is kind
    if focus is not None:
        assert q.focus == focus


@pytest.mark.parametrize(
    "question",
    ["When my probation ends - can I take leave?", "What about contractors - are they covered?"],
)
def test_a_scene_opening_with_a_wh_word_still_sets_a_yes_no_question(question: str) -> None:
    assert parse_question(question).whether


def test_list_focus_is_the_listed_thing_not_its_owner() -> None:
    assert parse_question(
        "What are the essential characteristics of cloud computing?"
    ).focus == stems("essential", "characteristics")
    assert parse_question("Which service models does the NIST definition list?").focus == stems(
        "service", "models"
    )


def test_definition_wording_is_not_asked_of_the_passage() -> None:
    # "mean" is the question's template; a definition need not say it.
    assert "mean" not in parse_question("What does 301 Moved Permanently mean?").stems


def _roles(text: str) -> list[tuple[Role, str]]:
    return [(u.role, text[u.start : u.end]) for u in layout(text)]


def test_label_opens_a_definition_on_its_line() -> None:
    text = (
        "Private cloud. The cloud infrastructure is provisioned for exclusive use by one "
        "organization.\nHybrid cloud. The cloud infrastructure is a composition of two clouds."
    )
    units = layout(text)
    roles = [u.role for u in units]
    assert roles == [Role.LABEL, Role.STATEMENT, Role.LABEL, Role.STATEMENT]
    assert units[1].title == "Private cloud." and units[1].first
    assert units[3].title == "Hybrid cloud."


def test_short_sentence_with_a_verb_is_not_a_label() -> None:
    text = "Cloud computing is a paradigm. The NIST definition characterizes important aspects."
    assert _roles(text)[0][0] is not Role.LABEL


@pytest.mark.parametrize(
    ("line", "role"),
    [
        # A verb the verb list lacks, in a sentence-case line: a statement.
        ("Managers review access rights every six months.", Role.STATEMENT),
        ("Warnings also carry a warning text.", Role.STATEMENT),
        # A few words, or a title-cased name: a label.
        ("Broad network access.", Role.LABEL),
        ("Platform as a Service (PaaS).", Role.LABEL),
        ("Lack of Physical Security Controls.", Role.LABEL),
    ],
)
def test_a_short_line_is_a_label_only_when_it_reads_as_a_name(line: str, role: Role) -> None:
    text = f"{line} The next sentence says more about it."
    assert _roles(text)[0] == (role, line)


def test_headings_footnotes_and_page_furniture_are_told_apart() -> None:
    text = (
        "10.4.9 408 Request Timeout\n\n"
        "   The client did not produce a request within the time that the server\n"
        "   was prepared to wait.\n\n"
        "Fielding, et al.            Standards Track                    [Page 67]\n"
        "\f\n"
        "RFC 2616                        HTTP/1.1                       June 1999\n\n"
        "2 A cloud infrastructure is the collection of hardware and software.\n"
    )
    roles = _roles(text)
    assert roles[0] == (Role.HEADING, "10.4.9 408 Request Timeout")
    assert roles[1][0] is Role.STATEMENT
    assert [r for r, _ in roles[2:4]] == [Role.FURNITURE, Role.FURNITURE]
    assert roles[4][0] is Role.FOOTNOTE
    assert layout(text)[1].first and layout(text)[1].title == "10.4.9 408 Request Timeout"


def test_leadin_items_and_grammar() -> None:
    text = (
        "Service Models:\n\n"
        "- Software as a Service lets the consumer use the provider's applications.\n"
        "- Platform as a Service lets the consumer deploy applications.\n\n"
        '   Status-Code = "100" | "101" | extension-code\n'
    )
    roles = [r for r, _ in _roles(text)]
    assert roles == [Role.LEADIN, Role.ITEM, Role.ITEM, Role.FRAGMENT]


def test_a_dash_ends_a_leadin_like_a_colon() -> None:
    text = (
        "The potential impact is LOW if—\n\n"
        "− The loss of availability could be expected to have a limited adverse effect.\n"
    )
    units = layout(text)
    assert [u.role for u in units] == [Role.LEADIN, Role.ITEM]
    assert units[1].first and units[1].title == "The potential impact is LOW if—"


def test_a_numbered_heading_with_a_short_body_and_an_underscore_rule() -> None:
    text = (
        "FIPS Publication 200 Minimum Security Requirements ______________________\n\n"
        "4. Approving Authority.\n\nSecretary of Commerce.\n\n"
        "5. Maintenance Agency.\n\nDepartment of Commerce, NIST.\n"
    )
    roles = _roles(text)
    assert roles[0][0] is Role.FURNITURE
    assert roles[1:] == [
        (Role.HEADING, "4. Approving Authority."),
        (Role.STATEMENT, "Secretary of Commerce."),
        (Role.HEADING, "5. Maintenance Agency."),
        (Role.STATEMENT, "Department of Commerce, NIST."),
    ]


def test_a_definition_focus_drops_the_document_it_is_asked_about() -> None:
    q = parse_question("Who is the approving authority for FIPS 200?")
    assert q.kind is QuestionKind.DEFINITION and q.focus == stems("approving", "authority")
    assert "200" in q.stems


def test_singular_and_plural_stem_alike() -> None:
    for singular, plural in [
        ("device", "devices"),
        ("value", "values"),
        ("response", "responses"),
        ("code", "codes"),
        ("header", "headers"),
        ("day", "days"),
        ("policy", "policies"),
        ("encrypted", "encryption"),
    ]:
        assert stem(singular) == stem(plural), (singular, plural)


def test_pseudo_code_is_no_statement() -> None:
    # Few code characters, so the share rule alone read it as prose a claim could quote.
    text = (
        "A process for decoding the chunked transfer coding can be represented in "
        "pseudo-code as:\n\n"
        "length := 0 read chunk-size, chunk-ext (if any), and CRLF while (chunk-size > 0) {\n"
        "read chunk-data and CRLF append chunk-data to decoded-body\n"
        "}\n\n"
        "A recipient may process the fields as if they were appended to the header section.\n"
    )
    roles = [(r, t.split()[0]) for r, t in _roles(text)]
    assert (Role.STATEMENT, "length") not in roles
    assert roles[-1] == (Role.STATEMENT, "A")


def test_a_contracted_what_is_asks_for_a_definition() -> None:
    q = parse_question("what's a thin VPN client")
    assert q.kind is QuestionKind.DEFINITION
    assert q.focus == stems("thin", "vpn", "client")


def test_a_running_header_repeating_the_document_title_is_furniture() -> None:
    # Left a heading, the header after a page break became the title of the
    # sentences below it (and could open a list of them).
    text = (
        "Fielding & Reschke Standards Track [Page 53]\n\n"
        "RFC 7230 HTTP/1.1 Message Syntax and Routing June 2014\n\n"
        "A proxy MUST NOT automatically retry non-idempotent requests.\n\n"
        "2. Message Syntax and Routing\n\n"
        "This section defines the syntax of the messages that clients and servers exchange.\n"
    )
    title = "RFC 7230 - Hypertext Transfer Protocol (HTTP/1.1): Message Syntax and Routing"
    units = layout(text, title)
    assert [u.role for u in units] == [
        Role.FURNITURE,
        Role.FURNITURE,
        Role.STATEMENT,
        Role.HEADING,
        Role.STATEMENT,
    ]
    assert units[2].title == ""  # the header titles nothing
    assert units[4].title == "2. Message Syntax and Routing"  # a numbered section is no header
    assert layout(text)[1].role is Role.HEADING  # without the title nothing says it repeats


def test_page_numbers_and_link_lines_are_furniture() -> None:
    text = (
        "GUIDE TO TELEWORK SECURITY\n\n2-3\n\n"
        "http://dx.doi.org/10.6028/NIST.SP.800-46r2\n\n"
        "Location: http://www.w3.org/pub/WWW/People.html\n\n"
        "Organizations should have a telework security policy.\n"
    )
    roles = [r for r, _ in _roles(text)]
    assert roles[1:] == [Role.FURNITURE, Role.FURNITURE, Role.FURNITURE, Role.STATEMENT]


def test_a_sentence_ending_in_a_link_says_where_something_is() -> None:
    # Markdown writers leave the full stop off after a link; the sentence still
    # answers "where do I submit a claim?".
    for line in (
        "Submit every expense claim through the finance portal: https://finance.example.com/claims",
        "Read the whole travel policy at https://intranet.example.com/travel",
        "For HR questions, email hr@example.com",
    ):
        assert _roles(f"## Claims\n\n{line}\n\nKeep every receipt for six years.\n")[1:] == [
            (Role.STATEMENT, line),
            (Role.STATEMENT, "Keep every receipt for six years."),
        ]


def test_a_pdf_footer_ending_in_a_link_stays_page_furniture() -> None:
    # SP 800-46 Revision 2 prints it under every page number.
    footer = "This publication is available free of charge from: http://dx.doi.org/10.6028/NIST.SP.800-46r2"
    text = (
        "Tunneling servers should be placed at the network perimeter.\n\n"
        f"NIST SP 800-46 REV. 2 GUIDE TO ENTERPRISE TELEWORK\n\n15\n\n{footer}\n\n"
        "Portal servers run the application client software on the servers themselves.\n"
    )
    assert (Role.FURNITURE, footer) in _roles(text)
    # A sentence that says where to go, first in its passage or after a page
    # number, is no footer.
    where = "Submit every expense claim through the finance portal at https://finance.example.com"
    for before in ("", "12\n\n"):
        roles = _roles(f"{before}{where}\n\nKeep every receipt for six years.\n")
        assert (Role.STATEMENT, where) in roles


def test_a_footnote_that_is_only_a_link_is_furniture() -> None:
    # Read as a numbered heading, it titled the sentences after it.
    text = "11 http://dx.doi.org/10.6028/NIST.SP.800-77\n\nFor more information, see SP 800-157.\n"
    assert _roles(text)[0] == (Role.FURNITURE, "11 http://dx.doi.org/10.6028/NIST.SP.800-77")


def test_a_title_cased_sentence_ending_in_an_address_is_a_statement() -> None:
    for line in (
        "Contact the IT Service Desk at https://it.example.com/help",
        "Send All Invoices To Accounts Payable at ap@example.com",
    ):
        roles = _roles(f"## Help\n\n{line}\n\nThe desk is staffed from 8:00 to 18:00.\n")
        assert roles[1] == (Role.STATEMENT, line)


def test_items_headings_and_rows_ending_in_a_link_keep_their_roles() -> None:
    text = (
        "## Download it from https://example.com/download\n\n"
        "Useful resources for travel:\n\n"
        "- Expense policy https://intranet.example.com/expenses\n"
        "- Booking tool https://travel.example.com\n\n"
        "Team | Contact\n--- | ---\nIT service desk | https://it.example.com\n"
    )
    assert [r for r, _ in _roles(text)] == [
        Role.HEADING,
        Role.LEADIN,
        Role.ITEM,
        Role.ITEM,
        Role.FRAGMENT,
        Role.FURNITURE,
        Role.FRAGMENT,
    ]


def test_a_one_word_star_line_in_a_c_comment_is_code() -> None:
    # RFC 2616's age calculation: a star bullet is no symbol only before two words or more.
    text = "   /*\n       * age_value\n       * now\n   */\n"
    assert [r for r, _ in _roles(text)] == [Role.FRAGMENT] * 3


def test_an_executive_summarys_and_an_appendixs_page_numbers_are_furniture() -> None:
    # Read as headings, "ES-1" became the title of the sentences after it.
    for number in ("ES-1", "A-3", "B-12"):
        text = (
            "Organizations should plan their telework security with care.\n\n"
            f"{number}\n\nA telework policy covers every device the organization allows.\n"
        )
        roles = [r for r, _ in _roles(text)]
        assert roles == [Role.STATEMENT, Role.FURNITURE, Role.STATEMENT], number


def test_section_headings_in_the_titles_words_are_no_running_header() -> None:
    # A header carries a number or a date, or is set in capitals; these are sections.
    title = "Guide to Enterprise Telework and Remote Access Security"
    text = (
        "## Remote Access Security\n\n"
        "Remote access security is described here in some detail for every reader.\n\n"
        "Enterprise Telework Security\n\n"
        "Telework security is described here in some detail for every reader.\n\n"
        "GUIDE TO ENTERPRISE TELEWORK AND REMOTE ACCESS SECURITY\n"
    )
    units = layout(text, title)
    assert [u.role for u in units] == [
        Role.HEADING,
        Role.STATEMENT,
        Role.HEADING,
        Role.STATEMENT,
        Role.FURNITURE,
    ]
    assert units[1].title == "## Remote Access Security"


def test_a_sentence_ending_with_a_link_is_a_statement() -> None:
    text = "Errata for this document are listed at: https://www.rfc-editor.org/errata/rfc7230.\n"
    assert _roles(text) == [(Role.STATEMENT, text.strip())]


def test_numbered_sub_items_open_items() -> None:
    text = "Steps:\n1a) the first step here\n1b) the second step here\n"
    assert [r for r, _ in _roles(text)] == [Role.LEADIN, Role.ITEM, Role.ITEM]


def test_a_long_sentence_ending_in_a_colon_over_bullets_is_a_leadin() -> None:
    long = (
        "A transparent proxy MUST NOT modify any of the following fields in a request or "
        "response, and it MUST NOT add any of these fields if not already present:"
    )
    assert len(long.split()) > 25
    over_bullets = _roles(f"{long}\n\n  - Content-Location\n\n  - ETag\n")
    assert [r for r, _ in over_bullets] == [Role.LEADIN, Role.ITEM, Role.ITEM]
    # Over prose, the same sentence stays what it was: not a lead-in.
    over_prose = _roles(f"{long}\n\nThe proxy forwards them unchanged.\n")
    assert over_prose[0][0] is not Role.LEADIN
    # A long numbered step ending in a colon, over its sub-bullets, is still a step.
    steps = (
        "1. Identify the information types the system processes.\n"
        "2. For each information type, assign a provisional impact level for each of "
        "confidentiality, integrity and availability, using the guidance and the examples "
        "of the appendix, as follows:\n"
        "  - LOW\n  - MODERATE\n"
        "3. Adjust the provisional levels where the mission of the system calls for it.\n"
    )
    assert [r for r, _ in _roles(steps)] == [Role.ITEM] * 5


def test_a_footer_first_or_last_in_its_passage_is_furniture() -> None:
    # Its page number fell in the chunk before; SP 800-46r2's footer then stood in a list.
    footer = "This publication is available free of charge from: http://dx.doi.org/10.6028/NIST.SP.800-46r2"
    roles = _roles(f"{footer}\n\n- Use storage encryption.\n- Apply patches.\n")
    assert roles[0] == (Role.FURNITURE, footer)


def test_a_reference_or_a_copyright_line_ending_in_a_link_names_it_and_is_furniture() -> None:
    for line in (
        "NIST SP 800-77, Guide to IPsec VPNs http://csrc.nist.gov/publications/nistpubs/800-77/sp800-77.pdf",
        "Copyright 2024 Example Corp https://example.com",
    ):
        assert _roles(f"## See also\n\n{line}\n")[1] == (Role.FURNITURE, line)


def test_an_items_quoted_title_and_citation_are_no_code() -> None:
    # RFC 7230's list of the HTTP/1.1 documents: quotes and brackets were counted as code.
    text = (
        ' 1. "Message Syntax and Routing" (this document)\n\n'
        ' 2. "Semantics and Content" [RFC7231]\n\n 3. "Conditional Requests" [RFC7232]\n'
    )
    assert [r for r, _ in _roles("specification:\n\n" + text)] == [Role.LEADIN] + [Role.ITEM] * 3
    grammar = 'Method = "OPTIONS" | "GET" | "HEAD" [ extension ]\n'
    assert _roles(grammar)[0][0] is Role.FRAGMENT


def test_a_markdown_sections_last_or_first_line_ending_in_a_link_is_a_statement() -> None:
    # A chunk ends at the next heading, so a section's last line is its chunk's last.
    portal = "Submit every claim through the finance portal: https://finance.example.com"
    last = _roles(f"## Expenses\n\nClaims are due within 30 days. {portal}\n")
    assert last[-1] == (Role.STATEMENT, portal)
    first = _roles(f"{portal}\n\nClaims are due within 30 days.\n")
    assert first[0] == (Role.STATEMENT, portal)


def test_a_sentence_ending_in_a_bare_address_is_a_statement_a_signature_no_heading() -> None:
    for line in (
        "Employees must report lost laptops using the online form https://it.example.com/lost",
        "Questions should be sent to the HR team hr@example.com",
    ):
        assert _roles(f"## Help\n\n{line}\n\nThe desk is open on weekdays.\n")[1] == (
            Role.STATEMENT,
            line,
        )
    signature = "Jane Doe, Chief Security Officer jane.doe@example.com"
    units = layout(f"{signature}\n\nThe policy applies to all staff.\n")
    assert units[0].role is Role.FRAGMENT
    assert units[1].title == ""  # the signature titles nothing


def test_a_section_heading_after_an_indented_numbered_list_stays_a_heading() -> None:
    text = (
        "   The design meets two goals:\n\n   1.  Messages are self-descriptive.\n\n"
        "   2.  Intermediaries can cache responses.\n\n3.  Notational Conventions\n\n"
        "   This specification uses the ABNF notation of RFC 5234.\n"
    )
    assert (Role.HEADING, "3.  Notational Conventions") in _roles(text)


def test_a_reference_with_no_verb_before_its_link_is_furniture() -> None:
    for line in (
        "Home working: managing the cyber risks https://www.ncsc.gov.uk/guidance/home-working",
        "Telework guidance and resources https://www.cisa.gov/telework",
        "Source: adapted from the SANS remote work checklist https://www.sans.org/checklist",
    ):
        assert _roles(f"## References\n\n{line}\n")[1] == (Role.FURNITURE, line)


def test_a_tables_rule_is_no_page_furniture_for_a_link_statement() -> None:
    portal = "Submit every claim through the finance portal: https://finance.example.com"
    text = f"## Expenses\n\n| Item | Limit |\n|------|-------|\n| Hotel | 150 |\n\n{portal}\n"
    assert _roles(text)[-1] == (Role.STATEMENT, portal)


def test_item_n_opening_its_passage_is_followed_by_item_n_plus_one() -> None:
    # The chunk left out item 1's indent; item 2 is still its next.
    text = '1.  Messages are self-descriptive.\n\n   2.  "Semantics and Content" [RFC7231]\n'
    assert [r for r, _ in _roles(text)] == [Role.ITEM, Role.ITEM]


def test_a_line_running_on_into_the_next_titles_nothing() -> None:
    # FIPS 199's example 5: formulas joined by "and", ending in commas, then the
    # sentence they run into; none of them is a heading over what follows.
    text = (
        "SC sensor data = {(confidentiality, NA), (integrity, HIGH)},\n\nand\n\n"
        "SC SCADA system = {(confidentiality, LOW), (integrity, HIGH)},\n\n"
        "representing the high water mark for each security objective.\n\n"
        "Remote Access\n\nTeleworkers connect through a VPN."
    )
    units = layout(text)
    roles = [(u.role, text[u.start : u.end]) for u in units]
    assert [r for r, t in roles if t in ("and",) or t.startswith("SC ")] == [Role.FRAGMENT] * 3
    running = next(u for u in units if text[u.start : u.end].startswith("representing"))
    assert running.title_index is None
    # A short line that ends in no stop and runs on into nothing is still a heading.
    assert (Role.HEADING, "Remote Access") in roles


def test_a_glossary_term_on_its_own_line_labels_its_indented_definition() -> None:
    # RFC 2616 section 1.3: the term alone on its line, its definition indented deeper;
    # the sentence splitter reads the two as one sentence.
    text = (
        "   cache\n"
        "      A program's local store of response messages.\n\n"
        "   cacheable\n"
        "      A response is cacheable if a cache is allowed to store a copy of\n"
        "      the response message for use in answering subsequent requests.\n"
    )
    units = layout(text)
    shown = [(u.role, text[u.start : u.end].split()[0]) for u in units]
    assert shown == [
        (Role.LABEL, "cache"),
        (Role.STATEMENT, "A"),
        (Role.LABEL, "cacheable"),
        (Role.STATEMENT, "A"),
    ]
    assert units[3].title_index == 2 and units[3].first
    # RFC 2616 writes some terms as pairs; a tab indents as well as spaces.
    paired = "   upstream/downstream\n\t  Upstream and downstream describe the flow.\n"
    assert [u.role for u in layout(paired)] == [Role.LABEL, Role.STATEMENT]


@pytest.mark.parametrize(
    "text",
    [
        # Not at a deeper indent, not lower case, not a term's few words.
        "   cacheable\n   A response is cacheable if a cache may store it.\n",
        "   Cacheable\n      A response is cacheable if a cache may store it.\n",
        "   the rules for caching are set out\n      Below in section 13.\n",
    ],
)
def test_only_a_short_lower_case_line_over_a_deeper_indent_is_a_glossary_term(text: str) -> None:
    assert Role.LABEL not in {u.role for u in layout(text)}


@pytest.mark.parametrize(
    ("question", "focus", "stemmed"),
    [
        # "sort of", "kinds of" are how the question asks, not what it asks about.
        (
            "what sort of resources does a cloud provider pool?",
            stems("resources"),
            stems("resources", "cloud", "provider", "pool"),
        ),
        ("Which kinds of devices are allowed?", stems("devices"), stems("devices", "allowed")),
        # A kind word the rest names stays.
        (
            "Which types of content types must a server accept?",
            stems("content", "types"),
            stems("types", "content", "types", "must", "server", "accept"),
        ),
    ],
)
def test_what_kind_of_x_asks_for_the_x(
    question: str, focus: tuple[str, ...], stemmed: tuple[str, ...]
) -> None:
    q = parse_question(question)
    assert q.kind is QuestionKind.LIST
    assert q.focus == focus and q.stems == stemmed


def test_else_is_no_word_a_passage_repeats() -> None:
    q = parse_question("When a client sends an Upgrade header, what else must it send?")
    assert stem("else") not in q.stems and stem("upgrade") in q.stems


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("What does it mean for an HTTP response to be 'cacheable'?", "cacheable"),
        ("what does it mean to be a transparent proxy?", "transparent proxy"),
        # What a status means when it comes back, not what "returned" means; a
        # participle is no term.
        ("what does it mean when status 410 is returned?", ""),
        ("What does it mean for a system to be categorized as high impact?", ""),
    ],
)
def test_what_it_means_to_be_x_asks_for_x(question: str, term: str) -> None:
    q = parse_question(question)
    assert q.term == term
    assert (q.kind is QuestionKind.DEFINITION) is bool(term)


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        # An acronym in parentheses spells the words before it; they are the name, and
        # the acronym alone ("SC") names no heading of its own.
        (
            "In FIPS 199, what is the format for writing out a system's security category (SC)?",
            (),
        ),
        ("What does Network Access Control (NAC) check?", stems("network", "access", "control")),
        # Not initials of the words before it: still a name.
        (
            "Which SP 800-53 control covers personally owned (BYOD) devices?",
            stems("sp", "800", "53"),
        ),
        ("When is a device placed in quarantine (QD)?", stems("qd")),
        # The name runs on past the acronym.
        (
            "How does Transport Layer Security (TLS) 1.3 work?",
            stems("transport", "layer", "security", "1", "3"),
        ),
    ],
)
def test_an_acronym_spelling_the_words_before_it_is_not_the_name(
    question: str, focus: tuple[str, ...]
) -> None:
    assert parse_question(question).focus == focus
