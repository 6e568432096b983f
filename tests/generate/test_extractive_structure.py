"""The extractive generator reading document structure: which entry defines a term,
lists whose items are headings, lead-ins that a condition hangs on, footnote numbers.

Hand-written passages shaped like the NIST and RFC documents of issue 12;
lexical scoring only (no embedder), so each outcome follows from the text and
the rules. Each test failed on the answerer before this structure was read.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from extractive_helpers import HASH, assert_pinned, best, generate, passage

from pincite.embed.base import Embedder
from pincite.generate.base import GeneratedClaim, Passage
from pincite.generate.cues import kind_cue
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.layout import Role, layout
from pincite.generate.names import without_numbered_names
from pincite.generate.page_break import finishes
from pincite.generate.pointers import leans_back, past_the_turn
from pincite.generate.question import QuestionKind, parse_question
from pincite.generate.scoring import Scoring
from pincite.generate.words import stem


def test_a_vacuous_definition_gains_nothing_from_the_sentence_after_it() -> None:
    intro = passage(
        1,
        "1.2 Purpose and Scope\n\n"
        "Cloud computing is an evolving paradigm. The NIST definition characterizes "
        "important aspects of cloud computing and serves as a means for broad comparisons.",
    )
    entry = passage(
        2,
        "2. The NIST Definition of Cloud Computing\n\n"
        "Cloud computing is a model for enabling ubiquitous, convenient, on-demand network "
        "access to a shared pool of configurable computing resources.",
    )
    claim = best("What is the NIST definition of cloud computing?", intro, entry)
    assert claim.startswith("Cloud computing is a model for enabling")


def test_a_caption_under_the_section_does_not_make_its_next_sentence_a_definition() -> None:
    section = ("2.2 Remote Access Methods", "2.2.4 Direct Application Access")
    body = passage(
        1,
        "Figure 2-4.\n"
        "Teleworkers use direct application access to reach email, since each application "
        "provides its own access security.",
        section=section,
    )
    glossary = passage(
        2,
        "Direct Application Access: A high-level remote access architecture that allows "
        "teleworkers to access an individual application directly.",
        section=("Appendix C— Glossary",),
    )
    claim = best("What is direct application access?", body, glossary)
    assert claim.startswith("Direct Application Access: A high-level")


def test_a_heading_about_more_than_the_term_loses_to_the_terms_own_entry() -> None:
    methods = passage(
        1,
        "2.2 Remote Access Methods\n\n"
        "Organizations have many options for providing remote access to their computing "
        "resources, divided into four categories.",
    )
    glossary = passage(
        2,
        "Remote Access: The ability for an organization’s users to access its non-public "
        "computing resources from external locations.",
    )
    claim = best("What is remote access?", methods, glossary)
    assert claim.startswith("Remote Access: The ability")


FISMA = passage(
    1,
    "The FISMA defines three security objectives for information and information systems:\n\n"
    "CONFIDENTIALITY\n\n"
    "“Preserving authorized restrictions on information access and disclosure.”\n\n"
    "A loss of confidentiality is the unauthorized disclosure of information.\n\n"
    "INTEGRITY\n\n"
    "“Guarding against improper information modification or destruction.”\n\n"
    "A loss of integrity is the unauthorized modification or destruction of information.\n\n"
    "AVAILABILITY\n\n"
    "“Ensuring timely and reliable access to and use of information.”\n\n"
    "A loss of availability is the disruption of access to or use of information.\n",
)


def test_a_list_of_all_caps_headings_is_answered_heading_by_heading() -> None:
    g = generate("What are the three security objectives that FISMA defines?", FISMA)
    assert [c.text.split()[0] for c in g.claims] == ["CONFIDENTIALITY", "INTEGRITY", "AVAILABILITY"]
    assert g.claims[0].text == (
        "CONFIDENTIALITY “Preserving authorized restrictions on information access and disclosure.”"
    )
    assert_pinned(g, [FISMA])


def test_a_numbered_heading_ends_a_list_of_headings() -> None:
    p = passage(
        1,
        "The standard names two objectives:\n\nSECRECY\n\nData is kept from those not allowed "
        "to read it.\n\nINTEGRITY\n\nData is kept whole and correct at all times.\n\n"
        "3.1 Impact Levels\n\nThree impact levels are defined for each objective.\n",
    )
    g = generate("What are the objectives the standard names?", p)
    assert [c.text.split()[0] for c in g.claims] == ["SECRECY", "INTEGRITY"]


IMPACT = passage(
    1,
    "FIPS 199 defines three levels of potential impact should there be a breach of security.\n\n"
    "The potential impact is LOW if—\n\n"
    "− The loss of confidentiality, integrity, or availability could be expected to have a "
    "limited adverse effect on organizational operations.\n\n"
    "The potential impact is MODERATE if—\n\n"
    "− The loss of confidentiality, integrity, or availability could be expected to have a "
    "serious adverse effect on organizational operations.\n",
)


def test_a_condition_is_answered_with_the_leadin_it_hangs_on() -> None:
    g = generate("When is the potential impact MODERATE?", IMPACT)
    assert g.claims[0].text == (
        "The potential impact is MODERATE if— − The loss of confidentiality, integrity, or "
        "availability could be expected to have a serious adverse effect on organizational "
        "operations."
    )
    assert_pinned(g, [IMPACT])


def test_a_leadin_run_across_a_page_break_quotes_around_the_page_furniture() -> None:
    text = (
        "14.18 Date\n\n   Origin servers MUST include a Date header field in all responses, "
        "except in these cases:\n\n"
        "      1. If the response status code is 100 (Continue) or 101 (Switching\n"
        "         Protocols), the response MAY include a Date header field, at the\n\n"
        "Fielding, et al.            Standards Track                   [Page 124]\n"
        "\f\nRFC 2616                        HTTP/1.1                       June 1999\n\n"
        "         server's option.\n\n"
        "      2. If the response status code conveys a server error, e.g. 500\n"
        "         (Internal Server Error), the response MAY omit the Date.\n"
    )
    page = passage(1, text, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    g = generate("In which cases can an origin server leave out the Date header?", page)
    claim = g.claims[0]
    assert claim.text.startswith("Origin servers MUST include a Date header field")
    # The item the page break cuts keeps both its halves; the furniture is left out.
    assert "MAY include a Date header field, at the server's option. 2. If" in claim.text
    assert len(claim.spans) == 2
    assert_quoted_around(claim, text, 124)
    assert_pinned(g, [page])


def assert_quoted_around(claim: GeneratedClaim, text: str, page: int) -> None:
    """The claim's two pieces leave page ``page``'s footer and the next page's header out."""
    assert f"Page {page}" not in claim.text and "June 1999" not in claim.text
    (_, first_end), (second_start, _) = claim.spans
    assert f"[Page {page}]" in text[first_end:second_start]


HOST = (
    "14.23 Host\n\n"
    "   The Host request-header field specifies the Internet host and port\n"
    "   number of the resource being requested, as obtained from the original\n"
    "   URI given by the user or referring resource (generally an HTTP URL,\n\n\n\n"
    "Fielding, et al.            Standards Track                   [Page 128]\n"
    "\f\nRFC 2616                        HTTP/1.1                       June 1999\n\n\n"
    "   as described in section 3.2.2). The Host field value MUST represent\n"
    "   the naming authority of the origin server or gateway given by the\n"
    "   original URL.\n"
)


def test_a_sentence_a_page_break_cuts_is_quoted_whole_around_the_page_furniture() -> None:
    page = passage(1, HOST, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    g = generate("What does the Host request-header field specify?", page)
    claim = g.claims[0]
    assert claim.text.startswith("The Host request-header field specifies")
    # Before the fix the claim stopped at "(generally an HTTP URL,"; whole, the
    # definition runs on as it would on one page.
    assert "(generally an HTTP URL, as described in section 3.2.2). The Host" in claim.text
    assert_quoted_around(claim, HOST, 128)
    assert_pinned(g, [page])


def test_a_finished_sentence_before_a_page_break_takes_nothing_after_it() -> None:
    # The lower-case line after the break stays; the sentence before it is finished.
    text = HOST.replace("(generally an HTTP URL,", "(generally an HTTP URL).")
    page = passage(1, text, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    claim = generate("What does the Host request-header field specify?", page).claims[0]
    assert claim.text.endswith("(generally an HTTP URL).")
    assert len(claim.spans) == 1


def test_only_a_page_break_cuts_a_sentence_and_only_a_finished_rest_resumes_it() -> None:
    question = "Where is the list of approved remote access clients published?"
    # A link line is furniture but no page break: the sentence is not resumed past it.
    linked = (
        "Remote Access\n\nThe current list of approved remote access clients is published "
        "by the agency at\n\nhttp://www.example.gov/approved/clients\n\n"
        "and is updated whenever a client is approved or withdrawn.\n"
    )
    claim = generate(question, passage(1, linked, title="Guide")).claims[0]
    assert "updated whenever" not in claim.text and len(claim.spans) == 1
    # After a real page break, a line that does not finish the sentence is not its rest.
    code = HOST[: HOST.index("   as described")] + '   host = token [ ":" port ]\n'
    page = passage(1, code, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    claim = generate("What does the Host request-header field specify?", page).claims[0]
    assert claim.text.endswith("(generally an HTTP URL,") and len(claim.spans) == 1


def test_a_sentence_cut_at_a_chunk_that_ends_in_page_furniture_goes_on_in_the_next() -> None:
    cut = HOST.index("   as described")
    rest = HOST[cut:].lstrip()
    title = "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1"
    first, second = (
        passage(n, text, start=start, title=title, document=1)
        for n, text, start in ((1, HOST[:cut], 0), (2, rest, len(HOST) - len(rest)))
    )
    g = generate("What does the Host request-header field specify?", first, second)
    assert g.claims[0].text.endswith("(generally an HTTP URL, as described in section 3.2.2).")
    assert_pinned(g, [first, second])


LANGUAGES = (
    "14.4 Accept-Language\n\n"
    "   The language quality factor assigned to a language-tag by the\n"
    "   Accept-Language field is the quality value of the longest language-\n"
    "   range in the field that matches the language-tag. If no Accept-Language\n"
    "   header is present in the request, the server\n\n\n\n"
    "Fielding, et al.            Standards Track                   [Page 104]\n"
    "\f\nRFC 2616                        HTTP/1.1                       June 1999\n\n\n"
    "   SHOULD assume that all languages are equally acceptable. If an\n"
    "   Accept-Language header is present, then all languages which are\n"
    "   assigned a quality factor greater than 0 are acceptable.\n"
)


def test_a_sentence_begun_by_a_short_line_before_a_page_break_is_one_claim() -> None:
    # The first half is too short to stand as a statement, and the rest opens with
    # the requirement's keyword in capitals: before, the rest alone was the claim,
    # "SHOULD assume that all languages are equally acceptable.", with no subject.
    page = passage(1, LANGUAGES, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    g = generate("Which languages are acceptable when the request has no Accept-Language?", page)
    claim = g.claims[0]
    assert claim.text == (
        "If no Accept-Language header is present in the request, the server SHOULD assume "
        "that all languages are equally acceptable."
    )
    assert_quoted_around(claim, LANGUAGES, 104)
    assert_pinned(g, [page])


def test_the_rest_of_a_cut_sentence_is_no_claim_of_its_own() -> None:
    units = layout(LANGUAGES, "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    said = {" ".join(LANGUAGES[u.start : u.end].split()): u.role for u in units}
    assert said["If no Accept-Language header is present in the request, the server"] is (
        Role.STATEMENT
    )
    assert said["SHOULD assume that all languages are equally acceptable."] is Role.FRAGMENT


def test_a_sentence_begun_at_a_chunks_end_is_finished_by_the_next_chunk() -> None:
    # The chunk ends with the page's footer and the next page's header; the next
    # chunk opens, a few characters on, with the rest in capitals. Before, the
    # first half was no claim and the rest was one on its own.
    cut = LANGUAGES.index("   SHOULD assume")
    rest = LANGUAGES[cut:].lstrip()
    title = "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1"
    first, second = (
        passage(n, text, start=start, title=title, document=1)
        for n, text, start in ((1, LANGUAGES[: cut - 6], 0), (2, rest, len(LANGUAGES) - len(rest)))
    )
    question = "Which languages are acceptable when the request has no Accept-Language?"
    g = generate(question, second, first)
    assert g.claims[0].text == (
        "If no Accept-Language header is present in the request, the server SHOULD assume "
        "that all languages are equally acceptable."
    )
    assert_pinned(g, [first, second])
    ranked = ExtractiveGenerator().rank(parse_question(question), [second, first])
    assert not [c for c in ranked if c.text.startswith("SHOULD assume")]
    # Alone, the second chunk's rest is all there is to quote.
    alone = ExtractiveGenerator().rank(parse_question(question), [second])
    assert [c for c in alone if c.text.startswith("SHOULD assume")]


def test_a_chunk_some_way_on_is_no_page_breaks_rest() -> None:
    # Two chunks of one document 600 characters apart (the one between not retrieved),
    # no page break where the first ends: the second's sentence is its own.
    title = "Acme Travel Policy"
    before = "## Approval\n\nTrips abroad longer than two weeks must be approved in writing by the"
    after = "Finance office reimburses economy fares only, within 30 days of the claim.\n"
    first = passage(1, before, title=title, document=1)
    second = passage(2, after, start=len(before) + 600, title=title, document=1)
    g = generate("Which fares does the finance office reimburse?", second, first)
    assert g.claims[0].text == after.strip()
    assert_pinned(g, [first, second])


def test_a_list_item_before_a_page_break_keeps_the_next_page_s_sentence_apart() -> None:
    # "- Sign in" ends on a word no sentence ends on, but an item is whole: the
    # capitalised sentence after the break opens the next page.
    text = (
        "14.4 Access\n\n   To use the service:\n\n   - Open the client\n   - Sign in"
        "\n\n\n\nFielding, et al.            Standards Track                   [Page 104]\n"
        "\f\nRFC 2616                        HTTP/1.1                       June 1999\n\n\n"
        "   Clients that fail authentication three times are locked out by the server for ten "
        "minutes.\n"
    )
    units = layout(text, "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    said = {" ".join(text[u.start : u.end].split()): u.role for u in units}
    assert said["- Sign in"] is Role.ITEM
    locked = (
        "Clients that fail authentication three times are locked out by the server for ten minutes."
    )
    assert said[locked] is Role.STATEMENT
    assert not finishes("- Sign in", locked, item=True)
    # An item cut after an article goes on over the break.
    assert finishes("- Have the change approved by the", "Change Board before release.", item=True)
    assert finishes("the server keeps a list ordered by the", locked)


def test_what_finishes_a_sentence_after_a_page_break() -> None:
    assert finishes("send a 502 (Bad", "Gateway) response to the client.")
    assert finishes("without rewriting the", "HTTP-version might result in errors.")
    assert finishes("the server", "MAY close the connection.")
    assert finishes("as obtained from the URI (generally an HTTP URL,", "as described in 3.2.2).")
    # A new sentence after the break, or a rest that does not finish one.
    assert not finishes('| "e" | "f" | DIGIT', "Many header field values consist of words.")
    assert not finishes("the request is received by the server", "Many proxies cache it.")
    assert not finishes("the server", "MAY close the connection")
    assert not finishes("The server closes the connection.", "then it reopens it.")


def test_a_definition_cut_by_a_page_break_still_runs_on_to_the_sentence_after_it() -> None:
    text = (
        "1.3 Terminology\n\n   A proxy is an intermediary program which acts as both a "
        "server and a\n   client for the purpose of\n\n"
        "Fielding, et al.            Standards Track                   [Page 9]\n"
        "\f\nRFC 2616                        HTTP/1.1                       June 1999\n\n"
        "   making requests on behalf of other clients. Requests are serviced internally or\n"
        "   by passing them on, with possible translation, to other servers.\n"
    )
    page = passage(1, text, title="RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1")
    claim = generate("What is a proxy?", page).claims[0]
    assert claim.text == (
        "A proxy is an intermediary program which acts as both a server and a client for the "
        "purpose of making requests on behalf of other clients. Requests are serviced "
        "internally or by passing them on, with possible translation, to other servers."
    )
    assert len(claim.spans) == 2


def test_a_condition_question_is_answered_under_the_heading_naming_its_subject() -> None:
    entry = passage(
        1,
        "10.3.5 304 Not Modified\n\n   If the client has performed a conditional GET request "
        "and access is allowed, but the document has not been modified, the server SHOULD "
        "respond with this status code.",
    )
    elsewhere = passage(
        2,
        "14.26 If-None-Match\n\n   The header field applies to caches. Instead, if the request "
        "method was GET or HEAD, the server SHOULD respond with a 304 (Not Modified) response.",
    )
    claim = best("When does a server respond with 304 Not Modified?", elsewhere, entry)
    assert "the document has not been modified" in claim


def test_the_number_a_question_names_is_not_its_answer() -> None:
    p = passage(
        1,
        "A client that receives a 503 response from the server should retry the request. "
        "A client should retry a request at most 3 times before reporting the error.",
    )
    question = "How many times should a client retry a request after a 503 response?"
    cues = {c.text: c.cue for c in ExtractiveGenerator().rank_sentences(question, [p])}
    assert cues == {
        "A client that receives a 503 response from the server should retry the request.": 0.0,
        "A client should retry a request at most 3 times before reporting the error.": 1.0,
    }


def test_a_footnote_is_quoted_without_its_number() -> None:
    p = passage(
        1,
        "Organizations must achieve adequate security for their information systems.\n"
        "6 The Office of Management and Budget Circular A-130 defines adequate security as "
        "security commensurate with the risk and the magnitude of harm.\n",
    )
    g = generate("What is adequate security commensurate with?", p)
    footnotes = [c for c in g.claims if "Circular A-130" in c.text]
    assert footnotes and footnotes[0].text.startswith("The Office of Management")
    assert_pinned(g, [p])


def test_a_footnote_that_answers_the_question_is_not_set_back() -> None:
    # SP 800-46 section 5.1.3: the reason is given only in the footnote.
    phones = passage(
        1,
        "Digital cell phones should be acceptable for typical telework.39 Teleworkers "
        "discussing sensitive information over cell phones should avoid VoIP services unless "
        "encryption is used to protect them.\n"
        "39 Analog cell phone communications can be intercepted by individuals with scanning "
        "equipment, so their use should be avoided when discussing sensitive information.\n",
    )
    question = "Why should analog cell phones be avoided when discussing sensitive info?"
    answer = best(question, phones)
    assert answer.startswith("Analog cell phone communications can be intercepted")


def test_the_sixth_passage_is_read() -> None:
    filler = [
        passage(n, f"Topic {n} covers unrelated matters of scheduling and budgeting.")
        for n in range(1, 6)
    ]
    answer = passage(6, "A loss of integrity is the unauthorized modification of information.")
    assert best("What is a loss of integrity?", *filler, answer).startswith("A loss of integrity")


def test_a_condition_question_names_its_subject() -> None:
    q = parse_question("When does a server respond with 304 Not Modified?")
    assert q.kind is QuestionKind.CONDITION
    assert q.focus == (stem("304"), stem("modified"))
    assert parse_question("When is the potential impact MODERATE?").focus == (stem("moderate"),)
    assert parse_question("When is the potential impact of a breach low?").focus == ()


def test_a_procedure_step_runs_on_to_the_sentence_that_completes_it() -> None:
    p = passage(
        1,
        "Security Categorization Applied to Information Systems\n\n"
        "Determining the security category of an information system requires more analysis "
        "and must consider the security categories of all its information types. For an "
        "information system, the impact values shall be the highest values (i.e., high water "
        "mark) from among those categories.\n\nA second paragraph follows here.",
    )
    question = "How is the security category of an information system determined?"
    claim = best(question, p)
    assert claim.startswith("Determining the security category")
    assert claim.endswith("(i.e., high water mark) from among those categories.")


def test_a_list_question_prefers_the_sentence_that_lists() -> None:
    p = passage(
        1,
        "Methods can also be idempotent when repeated requests have the same effect. "
        "The idempotent methods are GET, HEAD, PUT and DELETE.",
    )
    cues = {
        c.text: c.cue
        for c in ExtractiveGenerator().rank_sentences("Which methods are idempotent?", [p])
    }
    assert cues["The idempotent methods are GET, HEAD, PUT and DELETE."] == 1.0
    assert (
        cues["Methods can also be idempotent when repeated requests have the same effect."] == 0.0
    )


def test_a_section_named_by_the_questions_own_words_answers_it() -> None:
    # "Are waivers to FIPS 200 allowed?" names the section "11. Waivers." by its
    # rarest word, though the heading holds too little of the whole question.
    entry = passage(
        1,
        "11. Waivers.\n\nNo provision is provided under FISMA for waivers to FIPS made "
        "mandatory by the Secretary of Commerce.\n\n12. Where to Obtain Copies.\n\n"
        "This publication is available from the FIPS 200 web site of the division.",
    )
    other = passage(
        2,
        "7. Specifications.\n\nFIPS Publication 200 specifies the minimum security "
        "requirements for federal information systems in seventeen areas.",
    )
    ranked = ExtractiveGenerator().rank_sentences(
        "Are waivers to FIPS 200 allowed?", [other, entry]
    )
    by_text = {c.text: c for c in ranked}
    waiver = by_text[
        "No provision is provided under FISMA for waivers to FIPS made mandatory by the "
        "Secretary of Commerce."
    ]
    assert waiver.definition > 0
    assert ranked[0] is waiver
    # A heading with a word the question does not use names another subject.
    copies = by_text["This publication is available from the FIPS 200 web site of the division."]
    assert copies.definition == 0


def test_definition_questions_in_other_words_are_read_as_definitions() -> None:
    counts = parse_question("Under FIPS 199, what counts as a loss of availability?")
    assert counts.kind is QuestionKind.DEFINITION
    assert counts.focus == (stem("loss"), stem("availability"))
    defines = parse_question("How does SP 800-46 Revision 2 define BYOD?")
    assert (defines.kind, defines.focus) == (QuestionKind.DEFINITION, ("byod",))
    defined = parse_question("How is a tunnel defined in HTTP?")
    assert (defined.kind, defined.focus) == (QuestionKind.DEFINITION, ("tunnel",))
    # Quotes, an aside and the documents it is defined in are no part of the term.
    quoted = parse_question("What counts as 'information resources' in the FIPS 200 definitions?")
    assert (quoted.kind, quoted.term) == (QuestionKind.DEFINITION, "information resources")
    aside = parse_question("What are technical controls, as opposed to operational ones?")
    assert (aside.kind, aside.term) == (QuestionKind.DEFINITION, "technical controls")
    # As typed into a search box, and "what does X involve".
    typed = parse_question("transparent negotiation meaning")
    assert (typed.kind, typed.term) == (QuestionKind.DEFINITION, "transparent negotiation")
    involves = parse_question("what does threat modeling actually involve when we plan it")
    assert (involves.kind, involves.term) == (QuestionKind.DEFINITION, "threat modeling")
    # A consequence is asked for, though the question names a maximum.
    outcome = parse_question(
        "What happens when a proxy receives a request whose Max-Forwards is 0?"
    )
    assert outcome.kind is QuestionKind.CONDITION


def test_a_question_opening_with_its_setting_asks_what_its_main_clause_asks() -> None:
    folded = parse_question(
        "Under RFC 7230, what must a server do if a request header value is folded?"
    )
    assert folded.kind is QuestionKind.PROCEDURE
    assert {"rfc", "7230", "fold"} <= set(folded.stems) and folded.names == ("rfc 7230",)
    meant = parse_question("In Revision 1, what is meant by a third party client device?")
    assert (meant.kind, meant.term) == (QuestionKind.DEFINITION, "third party client device")
    # Of two joined questions the first says the kind; the second's words still count.
    vmi = parse_question("What is virtual mobile infrastructure (VMI) and what does it provide?")
    assert vmi.kind is QuestionKind.DEFINITION and stem("provide") in vmi.stems
    # A scene set before the question: the question is its last sentence.
    scene = parse_question(
        "our data has residency requirements - can a customer control where it is stored?"
    )
    assert scene.kind is QuestionKind.OTHER and scene.whether
    assert {stem("residency"), stem("control")} <= set(scene.stems)
    told = parse_question("Our proxy sits at the firewall. What should it do with Via fields?")
    assert told.kind is QuestionKind.PROCEDURE and not told.whether
    # A condition opening the question is no setting.
    upgrade = parse_question("When a client sends an Upgrade header, what else must it send?")
    assert upgrade.kind is QuestionKind.CONDITION


def test_a_status_name_asks_for_no_number() -> None:
    # "Timeout" and "Range" name the status here; no quantity is asked for.
    casual = parse_question("what does a 504 gateway timeout actually mean")
    assert (casual.kind, casual.focus) == (QuestionKind.DEFINITION, ("504", "gateway", "timeout"))
    assert stem("actually") not in casual.stems
    named = parse_question("When should a server reply with 416 Requested Range Not Satisfiable?")
    assert named.kind is QuestionKind.CONDITION
    # A limit is still a limit, a superlative of a quantity is one, and so is a count.
    assert parse_question("What is the maximum size of a 413 response?").kind is QuestionKind.NUMBER
    assert parse_question("What is the largest value allowed for Max-Forwards?").kind is (
        QuestionKind.NUMBER
    )
    assert parse_question("How many pages is NIST SP 800-145").expects == "pages"


def test_a_verb_or_a_difference_asks_for_no_number() -> None:
    # RFC 2616 15.1.4: "limit" the verb asks how, not how much.
    how = parse_question(
        "How does RFC 2616 suggest a browser could limit the privacy loss from Accept-Language?"
    )
    assert how.kind is not QuestionKind.NUMBER
    # After its subject too; a length the question names still asks for a number.
    assert parse_question("How can a client limit retries?").kind is not QuestionKind.NUMBER
    assert parse_question("How does RFC 7230 limit the Host header length?").kind is (
        QuestionKind.NUMBER
    )
    assert parse_question("What is the limit on chunk size?").kind is QuestionKind.NUMBER
    assert parse_question("what rate limits apply to the API").kind is QuestionKind.NUMBER
    # RFC 7230 6.5: a timeout named in a "how does X differ" question is what differs.
    differ = parse_question(
        "How does RFC 7230 expect a proxy's idle-connection timeout to differ from a server's?"
    )
    assert differ.kind is not QuestionKind.NUMBER
    assert parse_question("What is the idle-connection timeout of a proxy?").kind is (
        QuestionKind.NUMBER
    )


def test_a_hyphenated_header_name_asks_for_no_number() -> None:
    # "Range" and "Max" name the header; "what is X for" asks what X is.
    for question, term in [
        ("What is Max-Forwards?", "Max-Forwards"),
        ("what's the If-Range header for", "If-Range header"),
        ("What is the Vary header used for?", "Vary header"),
        # What it is meant for, asked of a document, is what it is too.
        ("What is the Pragma header meant for in HTTP/1.1?", "Pragma header"),
        ("What is the Retry-After header intended for?", "Retry-After header"),
        ("what is the pragma header meant for in http/1.1", "pragma header"),
    ]:
        parsed = parse_question(question)
        assert (parsed.kind, parsed.term) == (QuestionKind.DEFINITION, term)
    # After "for", only a document's name is left off the term, not a phrase of it.
    money = parse_question("What is the money for in the reserve account?")
    assert money.term != "money"
    assert parse_question("How long is the Content-Length?").kind is QuestionKind.NUMBER


def test_a_sentence_pointing_back_is_quoted_with_the_sentence_it_points_at() -> None:
    p = passage(
        1,
        "In particular, the GET and HEAD methods SHOULD NOT take an action other than "
        "retrieval. These methods ought to be considered safe. This allows user agents to "
        "show other requests in a special way.",
    )
    claim = best("Which HTTP methods are considered safe?", p)
    assert claim.startswith("In particular, the GET and HEAD methods")
    assert claim.endswith("These methods ought to be considered safe.")
    # "This allows" points at no noun the sentence before names: it stands alone.
    alone = {c.text for c in ExtractiveGenerator().rank_sentences("What do user agents show?", [p])}
    assert "This allows user agents to show other requests in a special way." in alone


def test_a_sentence_that_turns_on_the_claim_is_quoted_with_it() -> None:
    cookie = (
        'In practice, the "Set-Cookie" header field often appears multiple times in a '
        "response message and does not use the list syntax, violating the requirements on "
        "multiple header fields with the same name."
    )
    turn = (
        "Since it cannot be combined into a single field-value, recipients ought to handle "
        '"Set-Cookie" as a special case.'
    )
    question = "Can a proxy merge several Set-Cookie header fields into one?"
    p = passage(1, f"{cookie} {turn} Other fields follow the list rules.")
    assert best(question, p) == f"{cookie} {turn}"
    # Only a sentence that leans back, only within the paragraph, only one.
    for text in (
        f"{cookie} Recipients ought to handle it as a special case.",
        f"{cookie}\n\n{turn}",
        f"{cookie} This specification uses three rules for whitespace.",
    ):
        assert best(question, passage(1, text)) == cookie
    stop = "However, a sender MUST NOT combine them. Thus a recipient splits them."
    assert best(question, passage(1, f"{cookie} {stop}")) == f"{cookie} {stop.split(' Thus')[0]}"


def test_the_kinds_cue_may_lie_in_the_sentence_that_leans_back() -> None:
    placed = "Remote access servers are usually placed at the network perimeter."
    why = "Such placement is common because the security policies apply to the whole network."
    p = passage(1, f"{placed} {why}\n\nRemote access servers need regular patching.")
    (first, *_) = [
        c
        for c in ExtractiveGenerator().rank_sentences(
            "Why are remote access servers placed at the network perimeter?", [p]
        )
        if c.text.startswith(placed)
    ]
    assert first.text == f"{placed} {why}"
    assert first.cue == 1.0
    # Not the sentences a definition runs on to: "one or more" is no count of tenants.
    entry = passage(
        2,
        "Community cloud. The cloud infrastructure is provisioned for use by a community of "
        "consumers. It may be owned by one or more of the organizations in the community.",
    )
    ranked = ExtractiveGenerator().rank_sentences(
        "What is the maximum number of tenants in a community cloud?", [entry]
    )
    (defined,) = [c for c in ranked if c.text.startswith("Community cloud.")]
    assert defined.text.endswith("one or more of the organizations in the community.")
    assert defined.cue == 0.0


@pytest.mark.parametrize(
    ("question", "first", "after"),
    [
        # A figure in the sentence after says nothing of what the question asks.
        (
            "How long are audit logs retained?",
            "Audit logs are retained by the security team.",
            "They are reviewed every 30 days.",
        ),
        (
            "How many administrators can approve a firewall change?",
            "Firewall changes must be approved by an administrator.",
            "This takes 2 business days on average.",
        ),
        # "Thus" and "If this" open the sentence after; they give no reason or condition
        # for the claim.
        (
            "Why are system audit logs kept for seven years?",
            "Audit logs are kept for seven years by the company.",
            "Thus, the archive needs about 4 TB.",
        ),
        (
            "Under what conditions may a contractor access the payroll database?",
            "Contractors may access the payroll database remotely.",
            "If this is needed urgently, call the service desk.",
        ),
        # "This Agreement" is the contract, not the warranty.
        (
            "How long does the Supplier warrant the Services?",
            "The Supplier warrants that the Services will be performed in a professional manner.",
            "This Agreement remains in force for twelve (12) months.",
        ),
    ],
)
def test_a_sentence_leaning_back_answers_no_near_miss(
    question: str, first: str, after: str
) -> None:
    p = passage(1, f"{first} {after}\n\nBackups are encrypted.")
    assert not ExtractiveGenerator().generate(question, [p]).claims


def test_a_claim_runs_on_only_to_a_whole_sentence_within_its_paragraph_and_page() -> None:
    purpose = (
        "The primary purpose of Content-Language is to allow a user to identify entities "
        "according to the user's own preferred language."
    )
    question = "What is the primary purpose of the Content-Language header?"
    # Cut at the chunk's end: "Thus, ... the appropriate field is" is no claim's end.
    cut = "Thus, if the body is intended only for a Danish-literate audience, the field is"
    assert best(question, passage(1, f"{purpose} {cut}")) == purpose
    for gap in ("\n  \n", "\n\f\n"):
        text = f"{purpose}{gap}Thus, a user agent can pick a language."
        assert best(question, passage(1, text)) == purpose


def test_past_its_connective_the_sentence_after_may_say_the_difference_asked_for() -> None:
    same = "Portals have most of the same security characteristics as tunnels."
    turn = "However, there is an important difference between tunnels and portals."
    p = passage(1, f"{same} {turn}\n\nBackups are encrypted.")
    ranked = ExtractiveGenerator().rank_sentences("What distinguishes a portal from a tunnel?", [p])
    (claim,) = [c for c in ranked if c.text.startswith(same)]
    assert claim.text == f"{same} {turn}"
    assert claim.cue == 1.0


def test_a_list_item_keeps_what_turns_it_within_the_item() -> None:
    text = (
        "Device rules:\n\n"
        "- Laptops must use full-disk encryption. However, loaner laptops are\n"
        "  exempt.\n"
        "- Phones must have a PIN.\n"
        "This applies to all staff.\n"
    )
    ranked = ExtractiveGenerator().rank_sentences(
        "Do loaner laptops need full-disk encryption?", [passage(1, text)]
    )
    items = {" ".join(c.text.split()) for c in ranked if c.role is Role.ITEM}
    assert "- Laptops must use full-disk encryption. However, loaner laptops are exempt." in items
    # What follows the list at the margin may speak of the whole list, not the item;
    # so may a line at an indented list's own margin.
    assert "- Phones must have a PIN." in items
    indented = (
        "  - Laptops must be encrypted.\n  - Phones must have a passcode.\n"
        "  However, contractors may use their own devices.\n\nBackups are encrypted."
    )
    ranked = ExtractiveGenerator().rank_sentences(
        "Must phones have a passcode?", [passage(1, indented)]
    )
    assert "- Phones must have a passcode." in {c.text for c in ranked if c.role is Role.ITEM}
    # A tab reaches past a bullet indented four spaces.
    tabbed = (
        "Devices:\n    - Laptops are encrypted.\n\tHowever, loaners are not.\n"
        "    - Phones have a PIN.\n\nBackups."
    )
    ranked = ExtractiveGenerator().rank_sentences("Are loaners encrypted?", [passage(1, tabbed)])
    items = {" ".join(c.text.split()) for c in ranked if c.role is Role.ITEM}
    assert any(t.endswith("- Laptops are encrypted. However, loaners are not.") for t in items)


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("Thus, the archive needs about 4 TB.", "the archive needs about 4 TB."),
        ("If this is needed urgently, call the service desk.", "call the service desk."),
        ("Since it\ncannot be combined", ""),
        (
            "Such placement is common because policies apply.",
            "Such placement is common because policies apply.",
        ),
        # An example is quoted with its claim but states none of the claim's reasons.
        ("For example, one was recorded because a vendor needed access.", ""),
        ("In particular, the CISO approved one.", ""),
    ],
)
def test_what_a_sentence_leaning_back_says_past_its_opening(sentence: str, said: str) -> None:
    assert past_the_turn(sentence) == said


@pytest.mark.parametrize(
    ("sentence", "leans"),
    [
        ("However, safe transport has a different focus.", True),
        ("This allows a server to generate lists of back-links.", True),
        ("Since it cannot be combined, recipients handle it apart.", True),
        ("In that case the proxy MUST forward it.", True),
        ("Such requests MUST be rejected.", True),
        ("This document describes HTTP/1.1.", False),
        ("It is RECOMMENDED that clients retry.", False),
        ("If the request has a body, the server reads it.", False),
        ("Thistle is a plant.", False),
        ("The header is optional.", False),
        # Lines wrap anywhere in an RFC or a PDF.
        ("In such\ncases the server MUST close the connection.", True),
        ("This\nsection provides additional details.", False),
        # The text itself, by its name or its defined term; an empty "it"; "those who".
        ("This Agreement remains in force for twelve months.", False),
        ("These terms apply to all customers.", False),
        ("This policy applies to all staff.", False),
        ("It is NOT RECOMMENDED that clients retry.", False),
        ("It is advised that backups be encrypted.", False),
        ("This EULA is governed by the laws of Ireland.", False),
        ("It should be noted that proxies vary.", False),
        ("Those who travel must carry a laptop.", False),
        ("Yet another header is defined below.", False),
        # An "it" that stands for something; an acronym is no defined term.
        ("It is used to prevent replay attacks.", True),
        ("This API requires a token.", True),
        ("Yet the server must respond.", True),
        ("But for the proxy, nothing changes.", False),
        # An example illustrates the sentence before: SP 800-46 r2's "The VPN gateway can
        # control access to the parts of the network ... For example, a VPN might allow
        # a user to only have access to one subnet".
        ("For example, a VPN might allow a user to only have access to one subnet.", True),
        ("For instance, a proxy may cache it.", True),
        ("In particular, the server MUST NOT retry.", True),
        ("For example purposes only, see Appendix B.", False),
        ("For instance data, see the registry.", False),
    ],
)
def test_what_leans_back_on_the_sentence_before(sentence: str, leans: bool) -> None:
    assert leans_back(sentence) is leans


def test_an_example_after_a_claim_is_quoted_but_gives_no_reason() -> None:
    # "Why are firewall exceptions recorded?": one case's reason is not the rule's.
    text = (
        "Firewall exceptions are recorded in the change register. For example, one was "
        "recorded because a vendor needed access."
    )
    other = passage(2, "Expense claims are filed through the finance portal.")
    ranked = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0)).rank_sentences(
        "Why are firewall exceptions recorded?", [passage(1, text), other]
    )
    assert " ".join(ranked[0].text.split()) == text
    assert ranked[0].cue == 0.0


def test_a_term_that_acts_as_something_is_defined_there() -> None:
    p = passage(
        1,
        'Intermediaries are common. A "tunnel" acts as a blind relay between two connections '
        "without changing the messages. Once active, a tunnel is not a party to the HTTP "
        "communication, though the tunnel might have been started by an HTTP request.",
    )
    ranked = ExtractiveGenerator().rank_sentences("What is a tunnel?", [p])
    definitions = {c.text[:20]: c.definition for c in ranked}
    assert definitions['A "tunnel" acts as a'] > 0
    assert ranked[0].text.startswith('A "tunnel" acts as a blind relay')


def test_an_inline_list_of_several_word_items_is_a_list_answer() -> None:
    p = passage(
        1,
        "Security categorization is an activity with the involvement of officials including "
        "chief information officers, senior agency information security officers, authorizing "
        "officials (a.k.a. accreditation authorities), and information owners.\n\n"
        "Officials of the agency shall use the security categorizations of FIPS 199.",
    )
    cues = {
        c.text[:40]: c.cue
        for c in ExtractiveGenerator().rank_sentences(
            "Which officials should take part in security categorization?", [p]
        )
    }
    assert cues == {
        "Security categorization is an activity w": 1.0,
        "Officials of the agency shall use the se": 0.0,
    }


def test_a_why_question_is_answered_by_the_sentence_giving_a_reason() -> None:
    assert parse_question("Why did the plant raise the impact?").kind is QuestionKind.REASON
    p = passage(
        1,
        "The management at the plant determines the impact of a loss of integrity is high. "
        "The management at the plant raises the impact from low to moderate, reflecting a "
        "more realistic view of the impact.",
    )
    claim = best("Why did the management at the plant raise the impact from low to moderate?", p)
    assert "reflecting a more realistic view" in claim


def test_every_statement_of_a_section_titled_by_the_questions_words_is_about_it() -> None:
    # The chunk starts inside "9.5 POST": the title is only in its heading path.
    entry = passage(
        1,
        "The action performed by the POST method might not result in a resource.\n\n"
        "Responses to this method are not cacheable, unless the response includes "
        "appropriate Cache-Control or Expires header fields.",
        section=("9 Method Definitions", "9.5 POST"),
    )
    other = passage(
        2,
        "A response is cacheable if a cache is allowed to store a copy of the response for "
        "use in answering a later request.",
        section=("13 Caching in HTTP", "13.4 Response Cacheability"),
    )
    ranked = ExtractiveGenerator().rank_sentences(
        "Can a response to a POST request be cached?", [other, entry]
    )
    about = {c.text[:24]: c.definition for c in ranked}
    assert about["Responses to this method"] > 0
    assert about["A response is cacheable "] == 0


def test_a_number_question_says_what_its_answer_is_measured_in() -> None:
    expects = {
        "When was SP 800-145 published?": "date",
        "On what date was FIPS 200 announced?": "date",
        "How often will NIST review the controls?": "duration",
        "Within how many hours must an incident be reported?": "duration",
        "By when must agencies comply?": "duration",
        "How much is the home office stipend?": "money",
        "What percentage of requests may fail?": "percent",
        "How long is SP 800-46 Revision 1 (number of pages)?": "pages",
        "How many pages is SP 800-145?": "pages",
        "how long is sp 800-46 rev 2, in pages": "pages",
        # Pages as a place, not a unit.
        "How many tables are in pages 10-20 of SP 800-53?": "count",
        "How many redirections were recommended?": "count",
        "What is the max number of challenges in one header?": "count",
        "What is the maximum length of a URI?": "limit",
        "What is the smallest Content-Length value that is valid?": "limit",
        "What minimum TLS version does the guide require?": "limit",
        # "minimum" names the requirements, "max-age" a directive: no limit is asked.
        "What controls meet the FIPS 200 minimum requirements at most?": None,
        "How large may a max-age directive value be?": None,
    }
    for question, kind in expects.items():
        q = parse_question(question)
        assert q.kind is QuestionKind.NUMBER and q.expects == kind, question


def test_a_date_question_is_answered_by_the_sentence_with_a_date() -> None:
    cover = passage(
        1,
        "The NIST Definition of Cloud Computing\n\n"
        "Recommendations of the National Institute of Standards and Technology, "
        "published by the Computer Security Division.\n\n"
        "Special Publication 800-145 (September 2011)",
    )
    assert best("When was Special Publication 800-145 published?", cover) == (
        "Special Publication 800-145 (September 2011)"
    )


def test_the_quantity_a_question_names_is_not_a_word_the_answer_must_hold() -> None:
    # "On what date": the answer states a date ("March 9, 2006"), not the word "date".
    assert stem("date") not in parse_question("On what date was FIPS 200 announced?").stems
    assert stem("page") not in parse_question("How many pages is SP 800-145?").stems
    # "How many kinds of intermediaries?" is answered by "three common forms of intermediary".
    kinds = parse_question("How many kinds of HTTP intermediaries are there?")
    assert stem("kinds") not in kinds.stems and stem("intermediaries") in kinds.stems


def test_a_cover_page_line_answers_a_date_question_about_its_document() -> None:
    # "7 pages (September 2011)" is no sentence; it states the date under the line
    # naming the publication, and the document's title says which one it is.
    cover = Passage(
        number=1,
        text=(
            "Certain commercial entities may be identified in this document in order to "
            "describe a concept adequately.\n\n"
            "National Institute of Standards and Technology Special Publication 800-145\n"
            "7 pages (September 2011)\n\n"
            "Acknowledgements\n\n"
            "The authors would like to thank the many experts who reviewed this definition."
        ),
        title="The NIST Definition of Cloud Computing",
        evidence_id=f"ev1:c:doc-1:{HASH}:chunk-1",
        version=HASH,
        start=0,
    )
    generation = generate("When was the NIST Definition of Cloud Computing published?", cover)
    assert [c.text for c in generation.claims][:1] == [
        "National Institute of Standards and Technology Special Publication 800-145 "
        "7 pages (September 2011)"
    ]
    assert_pinned(generation, [cover])
    pages = generate("How many pages is the NIST Definition of Cloud Computing?", cover)
    assert pages.claims[0].text.endswith("7 pages (September 2011)")
    # A question that asks for no date or size does not quote the line.
    other = generate("Who reviewed the NIST Definition of Cloud Computing?", cover)
    assert all("September 2011" not in c.text for c in other.claims)


def test_a_cover_page_date_reads_the_line_below_that_names_the_asked_event() -> None:
    cover = Passage(
        number=1,
        text=(
            "Federal Information Processing Standards 200\n"
            "March 9, 2006\n\n"
            "Announcing the Standard for\n"
            "Minimum Security Requirements for\n\n"
            "Federal Information Processing Standards Publications are issued by NIST."
        ),
        title="FIPS 200, Minimum Security Requirements",
        evidence_id=f"ev1:c:doc-1:{HASH}:chunk-1",
        version=HASH,
        start=0,
    )
    generation = generate("On what date was FIPS 200 announced?", cover)
    assert generation.claims[0].text == (
        "Federal Information Processing Standards 200 March 9, 2006 Announcing the Standard for"
    )
    assert_pinned(generation, [cover])
    # Asked about no announcement, the line below is not quoted.
    issued = generate("On what date was FIPS 200 issued?", cover)
    assert issued.claims[0].text == "Federal Information Processing Standards 200 March 9, 2006"


def test_how_a_question_is_asked_is_not_what_it_asks_about() -> None:
    q = parse_question("Is it OK to let teleworkers use RDP to reach their office PCs?")
    assert stem("ok") not in q.stems and stem("let") not in q.stems
    assert q.focus == (stem("rdp"),)


def test_a_duration_question_is_refused_by_passages_that_state_no_time() -> None:
    # The sentence holds every word of the question but no number of seconds:
    # without the typed cue it scored as an answer.
    rules = passage(
        1,
        "A client that sends a request body waits for a 100 Continue response from the "
        "server before sending the request body, unless the server has responded.",
    )
    question = "How many seconds should a client wait for a 100 Continue response?"
    # A threshold between the two scores, which differ by the type penalty (0.1).
    strict = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.31))
    untyped = ExtractiveGenerator(
        config=ExtractiveConfig(threshold_lexical=0.31, scoring=Scoring(type_penalty=0.0))
    )
    assert not strict.generate(question, [rules]).sufficient_context
    assert untyped.generate(question, [rules]).sufficient_context


def test_what_happens_when_is_answered_by_the_sentence_that_opens_with_the_condition() -> None:
    # Both sentences hold every word of the question; only the second states
    # the consequence of the condition asked about.
    rules = passage(
        1,
        "14.31 Max-Forwards\n\n"
        "The Max-Forwards request-header field of a TRACE request counts down to zero hop by "
        "hop, which matters when a proxy receives a looping request. If the Max-Forwards value "
        "of a TRACE request a proxy receives is zero, it MUST NOT be forwarded.",
    )
    question = "What happens when a proxy receives a TRACE request whose Max-Forwards is zero?"
    assert best(question, rules) == (
        "If the Max-Forwards value of a TRACE request a proxy receives is zero, "
        "it MUST NOT be forwarded."
    )


def test_a_question_that_names_a_document_is_answered_from_it() -> None:
    sentence = (
        "Many organizations require teleworkers to reauthenticate periodically during long "
        "remote access sessions, such as after each 8 hours of a session."
    )
    newer = replace(passage(1, sentence), title="Guide to Enterprise Telework, Revision 2")
    older = replace(
        passage(2, sentence.replace("8 hours", "eight hours")),
        title="NIST SP 800-46 Revision 1, Guide to Enterprise Telework",
    )
    asked = "In Revision 1, how often must teleworkers reauthenticate during long sessions?"
    first, *_ = generate(asked, newer, older).claims
    assert first.used_excerpt_numbers == (2,)
    # "Rev. 1" is how people write the "Revision 1" a title spells out.
    abbreviated = "In Rev. 1, how often must teleworkers reauthenticate during long sessions?"
    assert parse_question(abbreviated).names == ("revision 1",)
    first, *_ = generate(abbreviated, newer, older).claims
    assert first.used_excerpt_numbers == (2,)
    # ... and a title that abbreviates it is read the same way.
    short = replace(older, title="SP 800-46 Rev. 1, Guide to Enterprise Telework")
    for asked_as in (abbreviated, asked):
        first, *_ = generate(asked_as, newer, short).claims
        assert first.used_excerpt_numbers == (2,)
    # naming no document (or one no title holds) leaves retrieval order to decide
    for other in (
        "How often must teleworkers reauthenticate during long sessions?",
        "In Revision 3, how often must teleworkers reauthenticate during long sessions?",
    ):
        first, *_ = generate(other, newer, older).claims
        assert first.used_excerpt_numbers == (1,)


def test_a_sentence_two_documents_repeat_is_one_claim() -> None:
    said = "Remote access servers should be placed at the network perimeter."
    also = "The server enforces the telework security policy for remote access."
    first = passage(1, said)
    second = passage(2, said.upper()[:1] + said[1:].lower() + " " + also)
    generation = generate("Where should remote access servers be placed?", first, second)
    texts = [" ".join(c.text.casefold().split()) for c in generation.claims]
    assert len(texts) == len(set(texts))
    assert texts[0] == said.casefold()


def test_a_list_question_naming_a_count_prefers_the_sentence_announcing_it() -> None:
    # The first sentence repeats the question's words; the second says how many
    # ways there are and names them, which is the answer.
    p = passage(
        1,
        "Remote desktop access lets the user reach the applications and data of the main "
        "office workstation from home. There are two major styles of remote desktop access: "
        "direct between the client and the workstation, and indirect through a trusted "
        "intermediate system.",
    )
    assert best("What are the two main ways remote desktop access can be set up?", p).startswith(
        "There are two major styles"
    )


def test_a_table_or_section_number_is_not_the_number_a_question_asks_for() -> None:
    # "Table 5-1" names a place in the document, not a count of anything.
    q = parse_question("How many categories of client devices does the access tier table have?")
    pointer = "Table 5-1 shows an example of how access tiers for client devices are defined."
    count = "There are seven categories of client devices in the access tier example."
    assert not kind_cue(q, pointer, set())
    assert kind_cue(q, count, set())
    assert kind_cue(q, "The table has 7 rows.", set())


def test_an_acronym_table_line_opens_no_list() -> None:
    # "OS Operating System" names the words of "Which operating systems ...?",
    # but the lines under it are the rest of the acronym table, not a list of them.
    table = passage(
        1,
        "Appendix B—Acronyms and Abbreviations\n\nOMB Office of Management and Budget\n"
        "OS Operating System\nPC Personal Computer\nPDA Personal Digital Assistant\n"
        "PII Personally Identifiable Information\n",
    )
    body = passage(
        2,
        "Personal computers are desktop and laptop computers running standard operating "
        "systems, such as Windows and Linux.",
    )
    generation = generate("Which operating systems does the guide mention?", table, body)
    assert [c.used_excerpt_numbers for c in generation.claims] == [(2,)]


def test_a_comparison_is_not_a_definition() -> None:
    # "Thin clients are generally more flexible than ..." opens with the term and
    # "are", but says how it compares, not what it is.
    p = passage(
        1,
        "Thin VPN clients are generally more flexible and efficient than thick clients. "
        "Many VPN clients can be configured to be thin, which means that the client uses "
        "a common application already present on the device.",
    )
    about = {
        c.text[:18]: c.definition
        for c in ExtractiveGenerator().rank_sentences("What is a thin VPN client?", [p])
    }
    assert about["Thin VPN clients a"] == 0


def test_a_sentence_sharing_this_property_is_quoted_with_the_sentence_naming_it() -> None:
    # "share this property": which property, the sentence before says.
    rules = passage(
        1,
        'Methods can also have the property of "idempotence" in that the side-effects of '
        "several identical requests are the same as for a single request. The methods GET, "
        "HEAD, PUT and DELETE share this property. Other methods are described below.",
    )
    generation = generate("Which HTTP methods are idempotent?", rules)
    assert generation.claims[0].text.startswith("Methods can also have the property")
    assert generation.claims[0].text.endswith("share this property.")
    assert_pinned(generation, [rules])
    # "with this standard" points at the text itself, not at the sentence before.
    standard = passage(
        2,
        "This standard was developed by the Computer Security Division of the institute. "
        "Federal agencies must comply with this standard within one year of its approval.",
    )
    deadline = generate("When must federal agencies comply with the standard?", standard)
    assert deadline.claims[0].text.startswith("Federal agencies must comply")


def test_a_question_asking_what_things_to_weigh_is_a_list_question() -> None:
    # "how much" is what is being decided, not what is asked.
    q = parse_question(
        "What factors should an organization weigh when deciding how much remote access "
        "each type of device gets?"
    )
    assert q.kind is QuestionKind.LIST and q.focus == (stem("factors"),)
    assert parse_question("How much remote access should each device get?").kind is (
        QuestionKind.NUMBER
    )


def test_of_two_lead_ins_naming_the_focus_the_one_the_question_describes_opens_the_list() -> None:
    # Both lead-ins name "factors"; the sentence before the first says what they decide.
    placement = passage(
        1,
        "Major factors organizations should consider when determining where to place a "
        "remote access server include the following:\n\n"
        "- Device performance.\n- Traffic examination.\n",
    )
    levels = passage(
        2,
        "Each organization should decide what levels of remote access to permit from which "
        "types of devices. Factors that organizations should consider for this include the "
        "following:\n\n- Sensitivity of telework.\n- Teleworker location.\n",
    )
    generation = generate(
        "What factors should an organization weigh when deciding how much remote access "
        "each type of device gets?",
        placement,
        levels,
    )
    assert [c.text for c in generation.claims] == [
        "Sensitivity of telework.",
        "Teleworker location.",
    ]


def test_a_yes_no_question_naming_a_maximum_asks_whether_not_how_many() -> None:
    q = parse_question(
        "Does RFC 7230 set a maximum number of simultaneous connections a client may open?"
    )
    assert q.kind is not QuestionKind.NUMBER
    assert parse_question("What is the maximum number of connections?").kind is (
        QuestionKind.NUMBER
    )


def test_question_wordings_read_as_what_they_ask() -> None:
    # No list: an auxiliary opens "What does TLS do?", "status" is no plural.
    assert parse_question("What does TLS do?").kind is not QuestionKind.LIST
    assert parse_question("What status should a server return?").kind is not QuestionKind.LIST
    assert parse_question("What methods should a client retry?").kind is QuestionKind.LIST
    # A yes/no question that asks how many still asks how many.
    pages = parse_question("Do you know how many pages SP 800-46 has?")
    assert pages.kind is QuestionKind.NUMBER and pages.expects == "pages"
    # "OK" is a name here, not how the question is asked.
    assert stem("ok") in parse_question("When does a server send 200 OK?").focus


def test_a_pointer_at_a_function_word_joins_no_sentence() -> None:
    clients = passage(
        1,
        "Thick clients must be installed on every telework device by the administrators. "
        "The performance of thin clients is comparable with that of thick clients on "
        "most networks.",
    )
    assert best("How do thin clients perform?", clients).startswith("The performance")


def test_a_section_number_is_no_page_count() -> None:
    toc = passage(1, "Contents\n\n5.2 Web Pages\n\nA web server serves pages to its users.")
    generation = generate("How many pages is the web server guide?", toc)
    assert all("5.2 Web Pages" not in c.text for c in generation.claims)


def test_how_a_question_points_at_the_paper_is_not_asked_of_the_sentence() -> None:
    q = parse_question("Which dataset do they use in this paper?")
    assert q.stems == (stem("dataset"),)
    assert stem("author") not in parse_question("What baselines do the authors compare?").stems
    # "use" stays where it is what is asked about
    assert stem("use") in parse_question("Who may use the NIST definition?").stems


def test_a_paragraph_leading_into_items_of_its_own_ends_the_items_before_it() -> None:
    # FIPS 199's examples: each closes with "... is expressed as:" over its own formula.
    p = passage(
        1,
        "EXAMPLE 1: An organization managing public information on its web server determines "
        "that there is no potential impact from a loss of confidentiality. The resulting "
        "security category, SC, of this information type is expressed as:\n\n"
        "SC public information = {(confidentiality, NA), (integrity, MODERATE)}.\n\n"
        "EXAMPLE 2: A law enforcement organization managing investigative information "
        "determines that the potential impact from a loss of confidentiality is high. The "
        "resulting security category, SC, of this information type is expressed as:\n\n"
        "SC investigative information = {(confidentiality, HIGH), (integrity, MODERATE)}.",
    )
    answer = best("What is the resulting security category of the public information?", p)
    assert answer.endswith("(integrity, MODERATE)}.")
    assert "public information =" in answer and "EXAMPLE 2" not in answer


def test_x_involves_defines_x() -> None:
    aside = passage(
        1,
        "Threat modeling helps organizations to identify security requirements for the "
        "remote access solution.",
    )
    entry = passage(
        2,
        "Threat modeling involves identifying resources of interest and the feasible threats "
        "to them.",
    )
    question = parse_question("What does threat modeling involve?")
    ranked = ExtractiveGenerator().rank(question, [aside, entry])
    assert ranked[0].text.startswith("Threat modeling involves") and ranked[0].definition > 0
    assert all(c.definition == 0 for c in ranked if c.passage.number == 1)


def test_reading_a_setting_or_scene_keeps_what_the_old_wording_said() -> None:
    # A wh-phrase is no setting; a version number does not end the scene's question.
    assert parse_question("Under what conditions, must a server close it?").kind is (
        QuestionKind.CONDITION
    )
    assert parse_question("Within how many days, must an incident be reported?").kind is (
        QuestionKind.NUMBER
    )
    assert parse_question(
        "Our proxy speaks HTTP/1.0. Can it forward to an HTTP/1.1 server?"
    ).whether
    # A pronoun names no term; the scene names the thing, and "what is it?" asks its meaning.
    pronoun = parse_question("I read about VMI. What is it?")
    assert pronoun.kind is QuestionKind.DEFINITION and pronoun.focus == ("vmi",)
    assert pronoun.term == "VMI"
    # Words after the pronoun name nothing either ("it telling me" is no term).
    assert parse_question("What is it telling me?").kind is QuestionKind.OTHER
    # Auxiliaries open no search-box term; title case is no numbered name; "FIPS 200"
    # is no status.
    assert parse_question("Does FIPS 199 have a formal definition?").term == ""
    assert parse_question("How Many Pages Is SP 800-46 Revision 2?").kind is QuestionKind.NUMBER
    assert "minimum" in without_numbered_names("Which meet the FIPS 200 minimum?", [])
    # Apostrophes are no quotes; "what is meant by" reads its term.
    assert parse_question("What does the server's 'Retry-After' mean?").term == (
        "server's Retry-After"
    )
    assert parse_question("What is meant by rapid elasticity?").term == "rapid elasticity"
    # "What happens ...?" after a setting still asks for a consequence.
    outcome = parse_question("Under RFC 7230, what happens if Max-Forwards is 0?")
    assert outcome.outcome and not kind_cue(outcome, "A proxy forwards it when it can.", set())


# SP 800-145 as extracted: the footnote's number is glued to the word or stop before it.
SERVICE_MODELS = (
    "Software as a Service (SaaS). The capability provided to the consumer is to use the "
    "provider's applications running on a cloud infrastructure2\n. The applications are "
    "accessible from various client devices through a thin client interface.\n\n"
    "Platform as a Service (PaaS). The capability provided to the consumer is to deploy "
    "applications created using programming tools supported by the provider.3 The consumer "
    "does not manage or control the underlying cloud infrastructure.\n\n"
    "2 A cloud infrastructure is the collection of hardware and software.\n"
    "3 This capability does not necessarily preclude the use of compatible tools."
)


def test_a_claim_quotes_around_footnote_marks() -> None:
    p = passage(1, SERVICE_MODELS)
    generation = generate("What is software as a service?", p)
    text = generation.claims[0].text
    assert text.startswith("Software as a Service (SaaS). The capability")
    assert "running on a cloud infrastructure. The applications are accessible" in text
    assert "infrastructure2" not in text
    assert_pinned(generation, [p])
    # Two pieces: the marker and the line break after it are the only characters left out.
    (first, second) = generation.claims[0].spans
    assert SERVICE_MODELS[first[1] : second[0]] == "2\n"
    assert generation.claims[0].quote is None
    paas = generate("What is platform as a service?", p).claims[0]
    assert "supported by the provider. The consumer does not manage" in paas.text


def test_a_mark_that_ends_the_claim_leaves_no_lone_stop_to_pin() -> None:
    text = (
        "Software as a Service (SaaS). The capability provided to the consumer is to use "
        "the provider's applications running on a cloud infrastructure2\n.\n\n"
        "2 A cloud infrastructure is the collection of hardware and software.\n"
    )
    p = passage(1, text)
    generation = generate("What is software as a service?", p)
    (claim,) = generation.claims
    # One span, the mark and the stop after it left out: "." pinned alone proves nothing.
    assert claim.text.endswith("running on a cloud infrastructure")
    assert claim.spans == ((0, text.index("infrastructure2") + len("infrastructure")),)
    assert claim.quote is not None
    assert_pinned(generation, [p])


def test_numbers_that_belong_to_a_name_are_no_footnote_marks() -> None:
    text = (
        "Clients SHOULD encode names in UTF8 and send IPv6 addresses in base64 "
        "as HTTP/1.1 and SP 800-46rev1 require, see Section 3.2 for details."
    )
    p = passage(1, text)
    claim = generate("How should clients encode names?", p).claims[0]
    assert claim.text == " ".join(text.split())
    assert claim.spans == ((0, len(text)),)
    assert claim.quote == text


STATUS_503 = (
    "10.5.4 503 Service Unavailable\n\n"
    "The server is currently unable to handle the request due to a temporary "
    "overloading or maintenance of the server.\n\n"
    "Note: The existence of the 503 status code does not imply that a server "
    "must use it when becoming overloaded.\n"
)


def test_what_a_status_means_is_said_under_its_heading_not_in_a_note_about_it() -> None:
    # The note repeats "503" and "status code"; the definition, under the heading
    # naming the term, does not repeat it at all.
    assert best("what does a 503 mean", passage(1, STATUS_503)).startswith(
        "The server is currently"
    )


def test_a_note_still_answers_what_it_is_about() -> None:
    # An aside is set back only when a term's meaning is asked.
    text = STATUS_503 + "\nServers ought to be cautious about URI lengths above 255 bytes.\n"
    assert "does not imply" in best("Must a server use the 503 status code?", passage(1, text))


def test_the_heading_naming_the_term_counts_whole_with_the_real_model(
    embedder: Embedder,
) -> None:
    # With the model, the note's cosine to the question is far higher; the heading
    # that names the term must still carry its first sentence above the note.
    generator = ExtractiveGenerator(embedder, ExtractiveConfig())
    generation = generator.generate("what does a 503 mean", [passage(1, STATUS_503)])
    assert generation.claims, generation
    assert generation.claims[0].text.startswith("The server is currently unable")


def test_a_definition_stops_at_the_next_entry_of_a_list_of_definitions() -> None:
    text = (
        "1. Definitions\n\n"
        '"Customer Data" means all electronic data submitted by or for Customer.\n'
        '"Service Level" means the availability commitment set out in Section 6.\n'
    )
    generation = generate("What is Customer Data?", passage(1, text))
    assert generation.claims[0].text == (
        '"Customer Data" means all electronic data submitted by or for Customer.'
    )
    assert_pinned(generation, [passage(1, text)])


def test_a_hyphenated_name_asks_no_number() -> None:
    # "max-age" and "min-fresh" name directives; "Content-Length" a header field.
    for question, kind in {
        "What does the min-fresh directive mean?": QuestionKind.DEFINITION,
        "If a response has both Expires and a max-age directive, which one wins?": (
            QuestionKind.CONDITION
        ),
        "what does the content-length header tell the recipient": QuestionKind.OTHER,
        "What is the max length of a URI?": QuestionKind.NUMBER,
    }.items():
        assert parse_question(question).kind is kind, question


def test_a_heading_naming_only_the_lists_owner_opens_no_list() -> None:
    # "HTTP Version History" names HTTP but not the methods asked for; its
    # paragraphs, whose sentences happen to open lines, are no list of methods.
    history = passage(
        1,
        "Appendix A. HTTP Version History\n\n"
        " HTTP has been in use since 1990. The first version was a simple protocol.\n"
        " However, HTTP/1.0 did not sufficiently take into consideration the effects of\n"
        " hierarchical proxies.\n\n"
        " HTTP/1.1 remains compatible with HTTP/1.0 by including more stringent requirements.\n",
    )
    safe = passage(
        2,
        "9.1.1 Safe Methods\n\n The convention has been established that the GET and HEAD "
        "methods SHOULD NOT take an action other than retrieval. These methods ought to be\n"
        ' considered "safe".\n',
    )
    # Methods are common in the passages and HTTP rare, so the heading matches the focus.
    method = passage(3, "5.1.1 Method\n\n The Method token indicates the method to be performed.\n")
    question = parse_question("Which HTTP methods are considered safe?")
    assert question.head == stem("methods")
    generation = generate("Which HTTP methods are considered safe?", history, safe, method)
    assert generation.claims[0].used_excerpt_numbers == (2,)
    assert "GET and HEAD" in generation.claims[0].text


def test_a_long_sentence_ending_in_a_colon_leads_into_the_bullets_under_it() -> None:
    # 28 words: longer than a lead-in usually runs, but the bullets say what it is.
    rule = passage(
        1,
        "13.5.2 Non-modifiable Headers\n\n"
        "   A transparent proxy MUST NOT modify any of the following fields in a\n"
        "   request or response, and it MUST NOT add any of these fields if not\n"
        "   already present:\n\n"
        "      - Content-Location\n\n      - Content-MD5\n\n      - ETag\n\n"
        "      - Last-Modified\n",
    )
    generation = generate(
        "Which header fields is a transparent proxy never allowed to modify?", rule
    )
    claimed = " ".join(c.text for c in generation.claims)
    assert "Content-Location" in claimed and "Last-Modified" in claimed
    assert_pinned(generation, [rule])


def test_a_list_questions_head_is_its_last_plural() -> None:
    assert parse_question(
        "What are the two main ways remote desktop access can be set up?"
    ).head == stem("ways")
    assert parse_question("Which header fields are not allowed in a trailer?").head == stem(
        "fields"
    )
    # "status" and "analysis" are no plurals; "add-ons" is listed as "Add-on".
    assert parse_question("What are the status criteria?").head == stem("criteria")
    assert parse_question("Which analysis tools are used?").head == stem("tools")
    assert parse_question("Which add-ons are available?").head == stem("add")
    # No plural: the focus's last word.
    assert parse_question("Which hash algorithm does RFC 7230 specify?").head == stem("algorithm")
    assert parse_question("What is rapid elasticity?").head == ""


def test_paragraphs_under_a_heading_are_no_list() -> None:
    # Unwrapped text sets each paragraph on a line of its own; the heading
    # "Regularization Terms" does not make their first sentences its items.
    section = passage(
        1,
        "## Regularization Terms\n\n"
        "GE-FL reduces the heavy load of instance annotation and performs well without "
        "bias. In our experiments we observe comparable results.\n\n"
        "Neutral features are features that are not informative indicators of any class. "
        "Such features are common.\n\n"
        "More specifically, we explore three regularization terms to address the problem: "
        "a term for neutral features, the maximum entropy of the class distribution, and "
        "the KL divergence between the reference and predicted distributions.\n",
    )
    generation = generate("What are the three regularization terms?", section)
    assert generation.claims[0].text.startswith("More specifically, we explore three")
    # Under a lead-in that announces them, statements on lines of their own are items.
    announced = passage(
        2,
        "The regularization terms we explore are the following:\n\n"
        "Neutral features are rewarded for a uniform class distribution.\n"
        "The maximum entropy of the class distribution is kept high.\n"
        "The KL divergence from the reference distribution is kept low.\n",
    )
    listed = generate("What are the regularization terms?", announced)
    assert [c.text[:12] for c in listed.claims] == ["Neutral feat", "The maximum ", "The KL diver"]


def test_a_sentence_whose_subject_is_a_bare_pronoun_is_quoted_with_the_one_before() -> None:
    # "It applies to ..." says what applies only with "This policy sets ...".
    scope = passage(
        1,
        "## 1. Purpose and scope\n\n"
        "This policy sets the minimum security requirements for all employees. "
        "It applies to company-owned devices and to personal devices used for work.\n",
    )
    generation = generate("Does the policy cover personal devices?", scope)
    assert generation.claims[0].text.startswith("This policy sets")
    assert generation.claims[0].text.endswith("personal devices used for work.")
    assert_pinned(generation, [scope])
    # "It is recommended that ...": an empty "it" points at nothing.
    advice = passage(
        2,
        "Company devices are patched by IT every month. It is recommended that personal "
        "devices used for work are patched weekly. It isn't enough to patch them yearly.\n",
    )
    alone = generate("How often should personal devices be patched?", advice)
    assert alone.claims[0].text.startswith("It is recommended")
    # Nor does one before a contracted auxiliary, or in "It turns out that".
    for opening in ("It isn't necessary to", "It turns out that it is best to"):
        backups = passage(
            3,
            f"Backups are stored offsite on tape every night. {opening} encrypt backups "
            "kept offsite.\n",
        )
        found = generate("Do offsite backups need to be encrypted?", backups)
        assert found.claims[0].text.startswith(opening), opening


def test_a_consequence_is_quoted_with_what_it_follows_from_even_across_a_paragraph() -> None:
    # "As a result, ..." says why only with the paragraph before it.
    text = (
        "One attempted solution was a Proxy-Connection header field. In practice this was "
        "unworkable, because proxies are often deployed in multiple layers.\n\n"
        "As a result, clients are encouraged not to send the Proxy-Connection header field.\n\n"
        "Clients may still use keep-alive with older servers.\n"
    )
    found = passage(1, text)
    generation = generate("Why shouldn't clients send the Proxy-Connection header?", found)
    claim = generation.claims[0].text
    assert claim.startswith("In practice this was unworkable, because proxies")
    assert claim.endswith("not to send the Proxy-Connection header field.")
    assert_pinned(generation, [found])
    # A sentence that merely opens the paragraph is quoted alone.
    plain = passage(2, text.replace("As a result, clients", "Clients"))
    alone = generate("Why shouldn't clients send the Proxy-Connection header?", plain)
    assert alone.claims[0].text.startswith("Clients are encouraged not to send")


def test_a_glossary_label_of_the_term_alone_is_its_entry() -> None:
    # "SECURITY CATEGORY: ..." is the glossary's entry for the term, as a quoted term's
    # sentence is: the whole definition bonus, not the share of "X is" with no title.
    glossary = passage(
        1,
        "Terms used here are defined below. SECURITY CATEGORY: The characterization of "
        "information based on an assessment of the potential impact. Security category: "
        "a term of this standard and its successors.",
    )
    ranked = ExtractiveGenerator().rank_sentences("What is a security category?", [glossary])
    definitions = {c.text[:20]: c.definition for c in ranked}
    assert definitions["SECURITY CATEGORY: T"] == 1.0
    # more words before the colon than the term: no label of it
    assert definitions["Terms used here are "] == 0.0
    assert ranked[0].text.startswith("SECURITY CATEGORY: The characterization")


def test_a_sentence_ending_in_a_link_answers_where_to_go() -> None:
    # Read as a link line (page furniture), the portal's sentence was dropped
    # and the deadline beside it cited instead.
    text = (
        "Submitting a claim\n\n"
        "Submit every expense claim through the finance portal: https://finance.example.com/claims\n\n"
        "Claims must be submitted within 30 days of the expense.\n"
    )
    page = passage(1, text, title="Expenses policy")
    g = generate("Where do I submit an expense claim?", page)
    assert g.claims[0].text.endswith("finance portal: https://finance.example.com/claims")
    assert_pinned(g, [page])


def test_what_a_term_includes_defines_it_too() -> None:
    # A legal definition states what the term covers after its first sentence.
    glossary = passage(
        1,
        "APPENDIX A TERMS AND DEFINITIONS\n\n"
        "INFORMATION TECHNOLOGY: Any equipment or interconnected system or subsystem of "
        "equipment that is used in the automatic acquisition or storage of data by the "
        "executive agency. For purposes of the preceding sentence, equipment is used by an "
        "executive agency if the equipment is used by the executive agency directly. The term "
        "information technology includes computers, ancillary equipment, software, firmware "
        "and similar procedures.\n",
    )
    claim = best(
        "Does software or firmware count as 'information technology' under the definition, "
        "or is it just hardware?",
        glossary,
    )
    assert claim.startswith("The term information technology includes computers")


def test_a_term_no_passage_names_is_defined_by_no_sentence() -> None:
    # SP 800-145 never says "broker": what it says of clouds is no definition of one.
    cloud = passage(
        1,
        "2. The NIST Definition of Cloud Computing\n\n"
        "Cloud computing is a model for enabling on-demand network access to a shared pool "
        "of configurable computing resources. The cloud provider manages the infrastructure.",
    )
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.15))
    broker = generator.generate("How does the NIST definition define a cloud broker?", [cloud])
    assert not broker.sufficient_context
    provider = generator.generate("How does the NIST definition define a cloud provider?", [cloud])
    assert provider.claims[0].text == "The cloud provider manages the infrastructure."


def test_only_the_term_s_own_words_must_be_named() -> None:
    # Neither "broker" nor "exactly" is in the passage; one of two terms is.
    brokers = passage(
        1,
        "A cloud broker is an entity that manages the use and delivery of cloud services. "
        "An intermediary is a proxy, gateway or tunnel.",
    )
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.3))
    both = generator.generate("What do cloud broker and cloud carrier mean?", [brokers])
    assert both.claims[0].text.startswith("A cloud broker is an entity")
    exactly = generator.generate("What is an intermediary, exactly?", [brokers])
    assert exactly.claims[0].text == "An intermediary is a proxy, gateway or tunnel."


def test_what_a_thing_includes_does_not_define_it() -> None:
    contract = passage(
        1,
        "The contract includes an annex on pricing. The contract is the agreement between "
        "the customer and the vendor.",
    )
    assert best("What is the contract?", contract).startswith("The contract is the agreement")
    vpn = passage(
        1,
        "A virtual private network is a secure tunnel across a public network. Some VPN "
        "products include a firewall.",
    )
    assert best("What is a VPN?", vpn).startswith("A virtual private network is")
