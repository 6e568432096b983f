"""The weights of an extractive candidate's score (``select.candidates``), each with
why it is set where it is."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Scoring"]


@dataclass(frozen=True, slots=True)
class Scoring:
    # Base = coverage_weight · coverage + (1 - coverage_weight) · cosine. Equal
    # weights until the fourth batch of documents questions (v4-, written blind)
    # showed how little of a paraphrased question's wording the answering
    # sentence repeats: on documents-dev (old and v4 halves together, each
    # weight with its threshold re-picked by ``ExtractiveConfig``'s rule) 0.35
    # and 0.4 cited the gold passage most often, 0.3 and 0.6 least.
    coverage_weight: float = 0.4
    novelty_weight: float = 0.3
    novel_words: int = 8
    # Question words found only in the title a sentence sits under count this much.
    title_share: float = 0.5
    # Added for the definition of the asked-about term (label, heading, "X is").
    definition_bonus: float = 0.5
    # Share of that bonus a heading or label naming the question's words lends
    # the first sentence under it, or a lead-in naming them its items, and of
    # the smaller one for a later sentence of a section the question's words
    # title, when the question asks for something other than a meaning
    # ("10.3.5 304 Not Modified" for "When does a server send 304?"). The first
    # sentence under a FAQ's question heading, and a table row keyed by the
    # asked name, keep the whole. The whole bonus lifted a section's opening
    # sentence over the one further on that held the asked rule ("The Host
    # request-header field specifies ..." over "If the requested URI does not
    # include an Internet host name, then the Host header field MUST be given
    # with an empty value" for when the Host header is empty).
    # Replayed on the dev sets' candidates with the threshold re-picked for
    # each share, 0.4 to 0.6 cited gold for about eight more questions than 1.0
    # at equal refusal; 0.3 and under, fewer.
    heading_weight: float = 0.5
    # Added for a sentence carrying what the question's kind asks for.
    cue_bonus: float = 0.08
    # Share of the definition bonus for a sentence that counts what a "how many X"
    # question asks about ("There are seven categories of client devices"); set on
    # documents-dev, where the bonus must lift that sentence over a longer one. Its
    # cost, on SQuAD 2.0 (`pincite eval answers`): 3 more of 200 unanswerable
    # questions answered, all adversarial rewordings around a count ("How many
    # projects a month?" against "500 projects a year"); 0.3 costs 2 and still
    # answers documents-dev's count question, by 0.01.
    count_share: float = 0.5
    # Added for a first-person sentence ("We use ...") when the question asks what
    # the authors did. Chosen on qasper-tune among 0.05, 0.1, 0.15 and 0.25: 0.1
    # and 0.15 gained alike (0.15 one more overlap), 0.25 answered more
    # unanswerable questions; documents-dev did not move.
    authors_bonus: float = 0.1
    # Taken from a sentence that lacks the duration, date or amount a number
    # question asks for ("How many seconds ...?" answered with no time at all).
    type_penalty: float = 0.1
    # Share of its score an aside keeps ("Note: ...") when a term's meaning is asked.
    # A footnote keeps its whole score: on documents-dev a footnote's own sentence
    # answers "why does the guide say to avoid analog cell phones?", and halving
    # footnotes' scores too, as this factor once did, lost three questions and gained
    # none.
    aside_factor: float = 0.5
    # Share of its base a document's sentence about itself keeps ("This policy explains
    # who may work remotely"), with no definition bonus, unless the question asks
    # what the document is for.
    self_description_factor: float = 0.5
    # A title names the term when it holds this idf-weighted share of it.
    term_match: float = 0.6
    # Sentences a definition may run to after its first, within one paragraph.
    definition_sentences: int = 2
    # Sentences after a statement that lean back on it ("However, ...", "This allows
    # ...") which its claim quotes with it (``anaphora``); read for the claim, not
    # for its score.
    leaning_sentences: int = 1
    # Shares of the definition bonus for a sentence that opens with the term
    # ("X is ...") but sits under no title naming it, and for the first
    # sentence under a heading naming the term that does not itself name it.
    # A label naming the term, or a heading and the sentence's opening both
    # naming it, get the whole bonus.
    pattern_share: float = 0.8
    heading_share: float = 0.7
    # Items a lead-in's run may hold and still be one claim.
    run_items: int = 5
    # A title made only of question words must hold this idf-weighted share of them.
    topic_share: float = 0.3
    # Share of its score a candidate keeps when the question names a document
    # ("In Revision 1, ...", "Does RFC 7230 ...") and it comes from another one.
    other_document: float = 0.9
    # Share of its score a sentence keeps that sends the reader elsewhere ("See
    # Section 6 of [RFC7231] for information about ...", "For more information on
    # malware, see NIST SP 800-83"), unless the question asks where to read more.
    elsewhere_factor: float = 0.7
