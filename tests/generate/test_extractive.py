"""The extractive generator on small hand-written passages: one test per way it used to fail.

Lexical scoring only (no embedder), so every outcome here follows from the
text and the rules, not from a model.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from extractive_helpers import assert_pinned

from pincite.generate.base import Generation, Passage
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator
from pincite.generate.question import QuestionKind, parse_question
from pincite.generate.scoring import Scoring

HASH = "0123456789abcdef"


def passage(number: int, text: str, *, start: int = 0, section: tuple[str, ...] = ()) -> Passage:
    return Passage(
        number=number,
        text=text,
        title="Doc",
        evidence_id=f"ev1:c:doc-1:{HASH}:chunk-{number}",
        version=HASH,
        start=start,
        section=section,
    )


def answer(question: str, *passages: Passage) -> Generation:
    return ExtractiveGenerator().generate(question, passages)


def best(question: str, *passages: Passage) -> str:
    """The first claim with no refusal threshold: which text ranks first, whatever its score."""
    generator = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=0.0))
    return generator.generate(question, passages).claims[0].text


def claim_texts(generation: Generation) -> list[str]:
    return [c.text for c in generation.claims]


DEPLOYMENT = (
    "Private cloud. The cloud infrastructure is provisioned for exclusive use by a single "
    "organization comprising multiple consumers.\n"
    "Hybrid cloud. The cloud infrastructure is a composition of two or more distinct cloud "
    "infrastructures (private, community, or public) that remain unique entities."
)


def test_definition_comes_from_the_entry_that_names_the_term() -> None:
    p = passage(1, DEPLOYMENT)
    g = answer("What is a private cloud?", p)
    assert g.sufficient_context
    assert claim_texts(g)[0].startswith("Private cloud. The cloud infrastructure is provisioned")
    assert all("composition" not in t for t in claim_texts(g))
    assert_pinned(g, [p])


def test_a_heading_alone_is_never_a_claim() -> None:
    heading_only = passage(1, "Platform as a Service (PaaS).\n\nService Models\n")
    assert not answer("What is platform as a service?", heading_only).sufficient_context
    entry = passage(
        1,
        "Platform as a Service (PaaS). The capability provided to the consumer is to deploy "
        "consumer-created applications onto the cloud infrastructure.",
    )
    [text] = claim_texts(answer("What is platform as a service?", entry))
    assert text.startswith("Platform as a Service (PaaS). The capability provided")


def test_a_footnote_does_not_answer_in_place_of_the_list() -> None:
    lead = passage(
        1,
        "This cloud model is composed of five essential characteristics.\n\n"
        "Essential Characteristics:",
        section=("2. The NIST Definition",),
    )
    items_text = (
        "On-demand self-service. A consumer can provision computing capabilities as needed.\n"
        "Broad network access. Capabilities are available over the network.\n"
        "Resource pooling. The provider's computing resources are pooled to serve consumers."
    )
    items = passage(2, items_text, start=len(lead.text) + 2)
    footnote = passage(
        3,
        "1 Typically this is done on a pay-per-use basis.\n"
        "2 A cloud infrastructure is the collection of hardware and software that enables the "
        "five essential characteristics of cloud computing.\n",
        start=5000,
    )
    g = answer("What are the essential characteristics of cloud computing?", footnote, lead, items)
    texts = claim_texts(g)
    assert [t.split(".")[0] for t in texts] == [
        "On-demand self-service",
        "Broad network access",
        "Resource pooling",
    ]
    assert not any(t.startswith("2 A cloud") for t in texts)
    assert_pinned(g, [footnote, lead, items])


def test_a_footnote_loses_to_a_statement_saying_the_same() -> None:
    p = passage(
        1,
        "2 A cloud infrastructure enables the essential characteristics of cloud computing.\n"
        "A cloud infrastructure enables the essential characteristics of cloud computing.\n",
    )
    assert best("What does a cloud infrastructure enable?", p).startswith("A cloud infrastructure")


def test_the_defining_section_beats_a_passing_mention() -> None:
    mention = passage(
        1,
        "If the Request-URI does not point to an existing resource, it MUST send a 301 "
        "(Moved Permanently) response; the user agent MAY then make its own decision.",
    )
    section = passage(
        2,
        "10.3.2 301 Moved Permanently\n\n"
        "   The requested resource has been assigned a new permanent URI and any\n"
        "   future references to this resource SHOULD use one of the returned URIs.",
        start=9000,
        section=("10 Status Code Definitions", "10.3.2 301 Moved Permanently"),
    )
    g = answer("What does 301 Moved Permanently mean?", mention, section)
    assert claim_texts(g)[0].startswith("The requested resource has been assigned")
    assert g.claims[0].used_excerpt_numbers == (2,)
    assert_pinned(g, [mention, section])


def test_a_status_code_heading_answers_what_the_code_means() -> None:
    p = passage(
        1,
        "10.4.9 408 Request Timeout\n\n"
        "   The client did not produce a request within the time that the server\n"
        "   was prepared to wait. The client MAY repeat the request without\n"
        "   modifications at any later time.",
        section=(
            "10 Status Code Definitions",
            "10.4 Client Error 4xx",
            "10.4.9 408 Request Timeout",
        ),
    )
    g = answer("What does the 408 status code mean?", p)
    assert g.sufficient_context
    assert claim_texts(g)[0].startswith("The client did not produce a request")


def test_a_definition_cut_by_a_chunk_boundary_continues_into_the_next_chunk() -> None:
    first = passage(
        1,
        "Platform as a Service (PaaS). The capability provided to the consumer is to deploy "
        "onto the cloud infrastructure applications created using programming",
    )
    rest = passage(
        2,
        "languages, libraries, services, and tools supported by the provider. The consumer "
        "does not manage the underlying infrastructure.",
        start=len(first.text) + 2,
    )
    g = answer("What is platform as a service?", first, rest)
    [claim] = g.claims
    assert claim.used_excerpt_numbers == (1, 2)
    assert len(claim.spans) == 2 and claim.quote is None
    assert claim.text.endswith(
        "using programming languages, libraries, services, and tools supported by the provider."
    )
    assert_pinned(g, [first, rest])


def test_a_passage_of_another_version_is_not_a_continuation() -> None:
    first = passage(
        1, "Platform as a Service (PaaS). The capability is to deploy applications using"
    )
    other = Passage(
        number=2,
        text="languages and tools supported by the provider.",
        title="Doc",
        evidence_id=f"ev1:c:doc-1:{'f' * 16}:chunk-2",
        version="f" * 16,
        start=len(first.text) + 2,
    )
    g = answer("What is platform as a service?", first, other)
    assert all(c.used_excerpt_numbers == (1,) for c in g.claims)


def test_a_limit_question_prefers_the_sentence_with_the_number() -> None:
    p = passage(
        1,
        "Servers see long request lines from clients that send long request lines. "
        "It is RECOMMENDED that all senders and recipients support request lines of "
        "8000 octets.",
    )
    question = "What is the minimum request line length recipients should support?"
    assert "8000 octets" in best(question, p)


HOST = passage(
    1,
    "14.23 Host\n\n"
    "   The Host request-header field specifies the Internet host and port\n"
    "   number of the resource being requested, as obtained from the original\n"
    "   URI given by the user or referring resource.\n\n"
    "   The Host field value MUST represent the naming authority of the origin\n"
    "   server or gateway given by the original URL. This allows the origin\n"
    "   server or gateway to differentiate between internally-ambiguous URLs.\n\n"
    "   A client MUST include a Host header field in all HTTP/1.1 request\n"
    "   messages. If the requested URI does not include an Internet host name,\n"
    "   then the Host header field MUST be given with an empty value.",
    section=("14 Header Field Definitions", "14.23 Host"),
)


def test_a_heading_lends_a_rule_question_only_part_of_its_bonus() -> None:
    # The heading names the question's words, so the section's opening sentence
    # takes a bonus; for a question that asks when, not what, it is no longer
    # enough to outrank the sentence holding the condition (which the condition
    # cue lifts: the margin is a few hundredths either way).
    question = "When is the Host header for the requested resource sent with an empty value?"
    assert best(question, HOST).startswith("If the requested URI does not include")
    whole = ExtractiveGenerator(
        config=ExtractiveConfig(threshold_lexical=0.0, scoring=Scoring(heading_weight=1.0))
    )
    assert whole.generate(question, [HOST]).claims[0].text.startswith("The Host request-header")


def test_a_definition_question_still_takes_the_first_sentence_under_its_heading() -> None:
    # A guard: the share above is for other kinds of question only.
    assert best("What is the Host header field?", HOST).startswith("The Host request-header")


def test_a_leadin_naming_the_question_lends_its_items_a_share_of_the_bonus() -> None:
    p = passage(
        1,
        "The potential impact is LOW if the loss of confidentiality, integrity, or "
        "availability could be\nexpected to have a limited adverse effect. A limited "
        "adverse effect means that the loss might:\n\n"
        "  (i) cause a degradation in mission capability;\n"
        "  (ii) result in minor damage to organizational assets;\n"
        "  (iii) result in minor financial loss.\n",
    )
    asked = "When is a limited adverse effect expected and what might the loss do?"
    question = parse_question(asked)
    assert question.kind is QuestionKind.CONDITION

    def run_bonus(weight: float) -> float:
        config = ExtractiveConfig(threshold_lexical=0.0, scoring=Scoring(heading_weight=weight))
        ranked = ExtractiveGenerator(config=config).rank(question, [p])
        return next(c.definition for c in ranked if c.text.startswith("A limited adverse"))

    assert run_bonus(Scoring().heading_weight) == pytest.approx(
        Scoring().heading_weight * run_bonus(1.0)
    )
    assert run_bonus(1.0) > 0


def test_a_bulleted_list_under_its_leadin_is_answered_item_by_item() -> None:
    p = passage(
        1,
        "The most common security objectives for remote access are:\n\n"
        "- Confidentiality: ensure communications cannot be read by unauthorized parties.\n"
        "- Integrity: detect any intentional or unintentional changes to communications.\n"
        "- Availability: ensure that users can access resources whenever needed.\n",
    )
    g = answer("What are the security objectives for remote access?", p)
    # Each claim starts after its bullet: the "- " sets the item off, it says nothing.
    assert [t.split(":")[0] for t in claim_texts(g)] == [
        "Confidentiality",
        "Integrity",
        "Availability",
    ]
    assert_pinned(g, [p])
    # The pinned spans leave the bullet out too, not only the claim's text.
    assert [p.text[c.spans[0][0] - 2 : c.spans[0][0]] for c in g.claims] == ["- "] * 3


def test_an_unrelated_question_is_refused() -> None:
    g = answer("What is the boiling point of mercury?", passage(1, DEPLOYMENT))
    assert not g.sufficient_context and g.claims == ()


def test_a_sentence_outside_the_first_passage_needs_more_evidence_to_answer() -> None:
    # Issue 12: the passage's retrieval evidence counts when deciding sufficiency.
    # The same sentence, scoring the same, answers from the passage retrieval
    # ranked first and is refused from the second, when its score clears the
    # threshold by less than the margin.
    question = "How long are audit logs kept?"
    logs = "Audit logs are kept for 400 days and then deleted."
    other = "Expense claims are filed through the finance portal."
    first = [passage(1, logs), passage(2, other)]
    second = [passage(1, other), passage(2, logs)]
    lexical = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    top_first, top_second = (
        lexical.rank_sentences(question, first)[0],
        lexical.rank_sentences(question, second)[0],
    )
    assert top_first.text == top_second.text == logs
    assert top_first.score == top_second.score
    margin = ExtractiveConfig().other_passage
    assert lexical.evidence(top_first, first) == top_first.score
    assert lexical.evidence(top_second, second) == pytest.approx(top_second.score - margin)
    between = lexical.with_threshold(top_first.score - margin / 2)
    assert claim_texts(between.generate(question, first)) == [logs]
    refused = between.generate(question, second)
    assert not refused.sufficient_context and refused.claims == ()
    # What the refusal reports as its closest score is the evidence, not the raw score.
    assert refused.raw["closest_score"] == pytest.approx(top_second.score - margin, abs=1e-4)
    assert between.assess(question, second)[0] == pytest.approx(top_second.score - margin)


def test_a_long_question_gets_an_allowance_for_each_word_past_twenty() -> None:
    # No one sentence repeats much of a long question, so the same sentence
    # scores lower against it: each word past the twentieth adds a little to
    # its evidence, and a question of twenty words gets none.
    logs = [passage(1, "Audit logs are kept for 400 days and then deleted.")]
    scene = (
        "Our auditors arrive next month and they will ask about our records, "
        "so before they come I need to know how long are audit logs kept?"
    )
    words = scene.split()
    twenty, twenty_one = " ".join(words[-20:]), " ".join(words[-21:])
    assert len(words) == 26
    plain = ExtractiveGenerator(
        config=ExtractiveConfig(threshold_lexical=-1.0, long_question_allowance=0.0)
    )
    shipped = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    per_word = ExtractiveConfig().long_question_allowance
    assert per_word > 0
    assert shipped.assess(twenty, logs)[0] == plain.assess(twenty, logs)[0]
    assert shipped.assess(twenty_one, logs)[0] == pytest.approx(
        plain.assess(twenty_one, logs)[0] + per_word
    )
    raw, top = plain.assess(scene, logs)
    assert top is not None and top.text == logs[0].text
    assert shipped.assess(scene, logs)[0] == pytest.approx(raw + 6 * per_word)
    # Between the two, the allowance decides: refused without it, answered with it.
    between = raw + 3 * per_word
    refused = plain.with_threshold(between).generate(scene, logs)
    assert not refused.sufficient_context
    assert claim_texts(shipped.with_threshold(between).generate(scene, logs)) == [logs[0].text]
    # What the refusal reports as its closest score counts the allowance too.
    over = shipped.with_threshold(raw + 7 * per_word).generate(scene, logs)
    assert not over.sufficient_context
    assert over.raw["closest_score"] == pytest.approx(raw + 6 * per_word, abs=1e-4)


def test_a_long_question_s_allowance_stops_at_its_cap() -> None:
    # A pasted page of text clears no threshold on its length alone, and nothing
    # found stays the lowest score whatever the question's length.
    cafeteria = [passage(1, "The cafeteria serves lunch from noon until two on weekdays.")]
    question = "How long are audit logs kept? " + "Please answer soon. " * 30
    config = ExtractiveConfig(threshold_lexical=-1.0)
    shipped = ExtractiveGenerator(config=config)
    plain = ExtractiveGenerator(config=replace(config, long_question_allowance=0.0))
    cap = config.long_question_allowance * config.long_question_cap
    assert shipped.assess(question, cafeteria)[0] == pytest.approx(
        plain.assess(question, cafeteria)[0] + cap
    )
    assert not ExtractiveGenerator().generate(question, cafeteria).sufficient_context
    assert shipped.assess(question, [passage(1, "Retention")]) == (-1.0, None)


def test_the_first_passage_is_the_first_given_whatever_its_number() -> None:
    # A library caller may number passages from 0, or pass a few of a longer list.
    question = "How long are audit logs kept?"
    logs = "Audit logs are kept for 400 days and then deleted."
    lexical = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    for numbers in ((0, 1), (2, 5)):
        given = [passage(numbers[0], logs), passage(numbers[1], "Expenses go to finance.")]
        top = lexical.rank_sentences(question, given)[0]
        assert top.text == logs and lexical.evidence(top, given) == top.score


def test_a_sentence_the_first_passage_finishes_keeps_its_evidence() -> None:
    # Quoted from where it begins, in the chunk before the first passage that
    # retrieval added further down: the sentence is still the first passage's.
    before = "Retention\n\nThe security team reviews access quarterly. Audit logs are kept for"
    first = passage(1, "400 days and then deleted by the records office.", start=len(before) + 1)
    other = passage(2, "Expense claims are filed through the finance portal.", start=5000)
    given = [first, other, passage(3, before)]
    lexical = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0))
    top = lexical.rank_sentences("How long are audit logs kept?", given)[0]
    assert [p.number for p, _, _ in top.pieces] == [3, 1]
    assert lexical.evidence(top, given) == top.score


def _list_evidence(question: str, passages: list[Passage], margin: float) -> float:
    config = ExtractiveConfig(threshold_lexical=-1.0, other_passage=margin)
    return ExtractiveGenerator(config=config).assess(question, passages)[0]


def test_a_list_running_on_into_the_chunk_retrieval_added_last_keeps_its_evidence() -> None:
    # Retrieval adds the chunk that continues a list after the ranked passages
    # (``retrieve.continuation``): its place there is no retrieval rank.
    lead = "Telework devices\n\nThe following devices are covered by the telework policy:"
    items = "- company laptops\n- company phones\n- hardware tokens"
    question = "Which devices are covered by the telework policy?"
    other = passage(2, "Expense claims are filed through the finance portal.")
    lead_in = passage(1, lead)
    rest = passage(6, items, start=len(lead) + 1)
    arranged = [lead_in, other, rest]
    full = _list_evidence(question, arranged, 0.0)
    assert _list_evidence(question, arranged, 0.04) == pytest.approx(full)
    g = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0)).generate(
        question, arranged
    )
    assert [c.text for c in g.claims] == ["company laptops", "company phones", "hardware tokens"]
    # Its lead-in retrieved second, the list needs the margin more.
    second = [
        passage(1, "Expense claims are filed through the finance portal."),
        passage(2, lead),
        passage(6, items, start=len(lead) + 1),
    ]
    assert _list_evidence(question, second, 0.04) == pytest.approx(
        _list_evidence(question, second, 0.0) - 0.04
    )


def test_a_procedure_question_prefers_what_must_be_done() -> None:
    p = passage(
        1,
        "Closed connections are common for clients. "
        "A client that sees a closed connection MUST open a new connection and retransmit "
        "the aborted requests.",
    )
    question = "How should a client handle a closed connection?"
    assert "MUST open a new connection" in best(question, p)


def test_a_short_body_is_cited_with_its_heading() -> None:
    p = passage(
        1,
        "3. Explanation.\n\nThis standard specifies minimum security requirements.\n\n"
        "4. Approving Authority.\n\nSecretary of Commerce.\n\n"
        "5. Maintenance Agency.\n\nDepartment of Commerce, NIST.\n",
    )
    g = answer("Who is the approving authority for FIPS 200?", p)
    assert claim_texts(g)[0] == "4. Approving Authority. Secretary of Commerce."
    assert_pinned(g, [p])


def test_a_sentence_repeated_as_a_bullet_is_claimed_once() -> None:
    # A guide's summary repeats its body's advice as bullets: quoting both copies
    # says one thing twice and crowds out a second fact.
    advice = (
        "Organizations should establish a separate dedicated network for personally "
        "owned devices within enterprise facilities."
    )
    p1 = passage(1, f"Personal devices carry risk. {advice}")
    p2 = passage(2, f"Summary\n\n- {advice}\n\n- Patch remote access servers.\n")
    question = "Should organizations have a separate network for personally owned devices?"
    g = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0)).generate(
        question, [p1, p2]
    )
    said = [" ".join(c.text.split()) for c in g.claims]
    assert said.count(advice) == 1, said
    assert_pinned(g, [p1, p2])


def test_a_companion_documents_near_copy_of_a_sentence_is_claimed_once() -> None:
    # FIPS 199 and FIPS 200 define terms in the same words, punctuated apart.
    first = (
        "A national security system is any information system used or operated by an "
        "agency or by a contractor of an agency, or other organization on behalf of an "
        "agency, whose function involves intelligence activities or cryptologic activities "
        "related to national security."
    )
    second = first.replace("agency, or other", "agency or other").replace(", whose", "—whose")
    p1, p2 = passage(1, first), passage(2, second, start=500)
    g = ExtractiveGenerator(config=ExtractiveConfig(threshold_lexical=-1.0)).generate(
        "Which information systems are national security systems?", [p1, p2]
    )
    assert len(g.claims) == 1, [c.text for c in g.claims]
    assert_pinned(g, [p1, p2])


def test_a_code_entry_names_its_code_whatever_the_name_after_it() -> None:
    # "Not Acceptable" is the code's name, not a second topic: the heading names
    # nothing but what the question asks about, so its entry defines the code, ahead
    # of a sentence that shares more of the question's words but only mentions it.
    mention = passage(
        1,
        "Whenever a server got an Accept header it cannot satisfy, it SHOULD send a 406 "
        "(not acceptable) response back.",
    )
    entry = passage(
        2,
        "10.4.7 406 Not Acceptable\n\n"
        "   The resource identified by the request is only capable of generating\n"
        "   response entities which have content characteristics not acceptable\n"
        "   according to the accept headers sent in the request.",
        start=5000,
        section=("10 Status Code Definitions", "10.4.7 406 Not Acceptable"),
    )
    question = "got a 406 back from a server - what is it telling me?"
    assert best(question, mention, entry).startswith("The resource identified by the request")


def test_an_enhancement_is_no_entry_of_its_base_code() -> None:
    # "SC-7(5)" is an enhancement of SC-7, not SC-7's entry: its heading names more
    # than what is asked.
    control = passage(
        1,
        "SC-7 is the boundary protection control: the system monitors and controls "
        "communications at its external boundary.",
    )
    enhancement = passage(
        2,
        "SC-7(5) Deny by Default\n\nThe information system at managed interfaces denies "
        "network communications traffic by default and allows traffic by exception.",
        start=5000,
        section=("Appendix F", "SC-7(5) Deny by Default"),
    )
    assert best("What is SC-7?", control, enhancement).startswith("SC-7 is the boundary")
