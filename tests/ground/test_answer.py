"""The answer path fails closed: every way a citation can be wrong is rejected or refused."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence

import pytest

from pincite import ids
from pincite.answer.pipeline import (
    NOTHING_RELEVANT,
    Outcome,
    answer_question,
    build_answer,
    check_quotes,
    passages_for,
)
from pincite.citation import CitedAnswer, Claim
from pincite.corpus import Corpus
from pincite.errors import (
    ConfigurationError,
    QuoteMismatchError,
    TenantCrossingError,
    UncitedClaimError,
    UngroundedCitationError,
)
from pincite.generate.base import GeneratedClaim, Generation, Passage
from pincite.generate.extractive import ExtractiveGenerator
from pincite.ground.cite import check_grounding, cite, cite_hit
from pincite.ground.resolve import CitationResolver, MemoryRecord, citation_attributes, excerpt
from pincite.retrieve.search import SearchMode, SearchOptions
from pincite.support import SupportVerdict

LEXICAL = SearchOptions(mode=SearchMode.LEXICAL)
POLICY = (
    "Data retention\n\nCustomer invoices are retained for seven years. "
    "Support tickets are deleted after two years.\n\n"
    "Access control\n\nProduction access requires a hardware security key."
)


class ScriptedGenerator:
    """A stand-in for a language model: returns prepared generations and counts calls."""

    name = "scripted"
    is_model = True

    def __init__(self, *generations: Generation) -> None:
        self.generations = list(generations)
        self.calls: list[tuple[str, str | None]] = []

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        self.calls.append((question, feedback))
        return self.generations[min(len(self.calls), len(self.generations)) - 1]


def claim(text: str, *numbers: object, quote: str | None = None, kind: str = "fact") -> Generation:
    return Generation((GeneratedClaim(text, tuple(numbers), kind, quote),), True)


@pytest.fixture
def acme(corpus: Corpus) -> Corpus:
    corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme", title="Retention policy")
    corpus.ingest_text("Globex invoices are retained for one year.", uri="g://x", tenant="globex")
    return corpus


def ask(corpus: Corpus, gen: ScriptedGenerator | ExtractiveGenerator, q: str = "invoices retained"):  # type: ignore[no-untyped-def]
    return answer_question(corpus, q, gen, tenant="acme", options=LEXICAL)


def test_valid_answer_cites_exact_characters(acme: Corpus) -> None:
    gen = ScriptedGenerator(
        claim("Invoices are kept seven years.", 1, quote="retained for seven years")
    )
    result = ask(acme, gen)
    assert result.outcome is Outcome.ANSWERED and result.answer is not None
    [c] = result.answer.citations
    assert c.tenant == "acme" and "seven years" in excerpt(c, acme.store)
    version = acme.versions(c.document_id, tenant="acme")[0]
    assert excerpt(c, acme.store) == version.text[c.span[0] : c.span[1]]
    assert result.answer.provenance() == [c.citation_id]


def test_empty_retrieval_refuses_without_calling_the_generator(acme: Corpus) -> None:
    gen = ScriptedGenerator(claim("anything", 1))
    result = ask(acme, gen, "zebra migration patterns")
    assert result.refused and result.message == NOTHING_RELEVANT
    assert gen.calls == [] and result.generator_calls == 0


def test_insufficient_context_is_a_refusal_listing_what_was_searched(acme: Corpus) -> None:
    gen = ScriptedGenerator(Generation((), False))
    result = ask(acme, gen)
    assert result.refused and result.answer is None and result.searched
    assert result.reasons == ()  # a model that gives no score gives no reason


def test_a_refusal_says_how_close_the_closest_answer_came(acme: Corpus) -> None:
    strict = ExtractiveGenerator(None).with_threshold(0.7)
    near = ask(acme, strict, "How long are customer invoices retained?")
    assert near.refused and near.closest is not None
    score, threshold = near.closest
    assert 0.3 < score < 0.7 and threshold == 0.7
    assert near.reasons == (
        f"the closest answer scored {score:.2f}, under the answer threshold 0.70",
    )


@pytest.mark.parametrize(
    ("is_model", "raw"),
    [
        (True, {"closest_score": 0.97, "threshold": 0.1}),  # what a model says is no score
        (False, {"closest_score": float("nan"), "threshold": 0.5}),
        (False, {"closest_score": "0.9", "threshold": 0.5}),
        (False, {"closest_score": True, "threshold": 0.5}),
    ],
)
def test_a_refusal_reports_no_score_a_model_or_a_malformed_raw_gives(
    acme: Corpus, is_model: bool, raw: dict[str, object]
) -> None:
    gen = ScriptedGenerator(Generation((), False, raw=raw))
    gen.is_model = is_model  # type: ignore[misc]
    result = ask(acme, gen)
    assert result.refused and result.closest is None and result.reasons == ()


@pytest.mark.parametrize("numbers", [(0,), (2,), (99,), (-1,), ("1",), (1.0,), (True,), ()])
def test_out_of_range_or_non_integer_numbers_leave_the_claim_uncited(
    acme: Corpus, numbers: tuple[object, ...]
) -> None:
    gen = ScriptedGenerator(claim("Invoices are kept seven years.", *numbers))
    result = ask(acme, gen)
    assert result.refused and result.answer is None
    assert len(gen.calls) == 2  # one repair pass, then refusal
    assert "no citation" in result.reasons[0]
    assert gen.calls[1][1] == result.reasons[0]  # the repair pass got the failure


def test_repair_pass_can_fix_an_answer(acme: Corpus) -> None:
    gen = ScriptedGenerator(claim("Invoices: seven years.", 7), claim("Invoices: seven years.", 1))
    result = ask(acme, gen)
    assert result.outcome is Outcome.ANSWERED and result.generator_calls == 2


def test_quote_not_in_passage_is_rejected(acme: Corpus) -> None:
    gen = ScriptedGenerator(
        claim("Invoices are kept ten years.", 1, quote="retained for ten years")
    )
    result = ask(acme, gen)
    assert result.refused and "quote not found" in result.reasons[0]
    result_obj = acme.retrieve("invoices retained", tenant="acme", options=LEXICAL)
    retrieved = cite(result_obj)
    answer = build_answer(claim("x", 1, quote="not there"), retrieved)
    with pytest.raises(QuoteMismatchError):
        check_quotes(answer, retrieved)


def _retrieved(corpus: Corpus, tenant: str = "acme"):  # type: ignore[no-untyped-def]
    return cite(corpus.retrieve("invoices retained", tenant=tenant, options=LEXICAL))


def test_fact_without_citation_raises(acme: Corpus) -> None:
    with pytest.raises(UncitedClaimError):
        check_grounding(CitedAnswer((Claim("Unbacked."),), ()), _retrieved(acme))
    # An inference needs no citation.
    check_grounding(
        CitedAnswer((Claim("So, long.", (), kind="inference"),), ()),  # type: ignore[arg-type]
        _retrieved(acme),
    )


def test_claim_naming_an_id_the_answer_does_not_carry(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    answer = CitedAnswer((Claim("x", ("c-forged",)),), (retrieved[0],))
    with pytest.raises(UngroundedCitationError) as info:
        check_grounding(answer, retrieved)
    assert info.value.missing == ("c-forged",)
    assert info.value.available == (retrieved[0].citation_id,)


def test_forged_evidence_id_is_ungrounded(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    real = retrieved[0]
    forged = dataclasses.replace(
        real, evidence_id=ids.encode_chunk(str(uuid.uuid4()), real.hash16, real.chunk_id)
    )
    with pytest.raises(UngroundedCitationError) as info:
        check_grounding(CitedAnswer((Claim("x", (forged.citation_id,)),), (forged,)), retrieved)
    assert forged.evidence_id in info.value.missing and real.evidence_id in info.value.available


def test_tampered_span_is_ungrounded(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    real = retrieved[0]
    for span in ((real.span[0], real.span[1] + 40), (real.span[0] - 1, real.span[1])):
        tampered = dataclasses.replace(real, span=span)
        with pytest.raises(UngroundedCitationError):
            check_grounding(CitedAnswer((Claim("x", (real.citation_id,)),), (tampered,)), retrieved)


def test_citation_altered_after_cite_is_caught_against_the_store(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    real = retrieved[0]
    answer = CitedAnswer((Claim("x", (real.citation_id,)),), (real,))
    check_grounding(answer, retrieved, store=acme.store)
    acme.erase(real.document_id, tenant="acme", chunk_id=real.chunk_id)
    with pytest.raises(UngroundedCitationError):
        check_grounding(answer, retrieved, store=acme.store)


def test_superseded_version_citation_does_not_match_current_retrieval(acme: Corpus) -> None:
    old = _retrieved(acme)
    acme.ingest_text(POLICY.replace("seven", "eight"), uri="policy://retention", tenant="acme")
    new = _retrieved(acme)
    stale = old[0]
    with pytest.raises(UngroundedCitationError):
        check_grounding(CitedAnswer((Claim("x", (stale.citation_id,)),), (stale,)), new)
    resolution = CitationResolver(acme.store).resolve(stale)
    assert resolution.superseded and "seven years" in (resolution.text or "")


def test_cross_tenant_citation_raises(acme: Corpus) -> None:
    ours = _retrieved(acme)
    theirs = _retrieved(acme, tenant="globex")[0]
    answer = CitedAnswer((Claim("x", (theirs.citation_id,)),), (theirs,))
    with pytest.raises(TenantCrossingError):
        check_grounding(answer, ours)


def test_erased_chunk_resolves_to_a_tombstone(acme: Corpus) -> None:
    c = _retrieved(acme)[0]
    acme.erase(c.document_id, tenant="acme", chunk_id=c.chunk_id)
    res = CitationResolver(acme.store).resolve(c)
    assert res.erased and res.text is None


def test_cite_refuses_a_chunk_without_span(acme: Corpus) -> None:
    result = acme.retrieve("invoices retained", tenant="acme", options=LEXICAL)
    hit = result.hits[0]
    broken = dataclasses.replace(hit, chunk=dataclasses.replace(hit.chunk, end=hit.chunk.start))
    with pytest.raises(ConfigurationError):
        cite_hit(broken, tenant="acme", retrieved_at=result.retrieved_at)


def test_duplicate_citation_ids_rejected(acme: Corpus) -> None:
    c = _retrieved(acme)[0]
    with pytest.raises(ValueError, match="duplicate"):
        CitedAnswer((Claim("x", (c.citation_id,)),), (c, c))


def test_extractive_answer_cites_sentence_spans(acme: Corpus, embedder: object) -> None:
    generator = ExtractiveGenerator(embedder)  # type: ignore[arg-type]
    result = ask(acme, generator, "How long are customer invoices retained?")
    assert result.outcome is Outcome.ANSWERED and result.answer is not None
    [first, *_] = result.answer.claims
    assert first.text == "Customer invoices are retained for seven years."
    [c] = result.answer.sources(first)
    assert c.evidence_id.startswith("ev1:s:")
    assert excerpt(c, acme.store) == "Customer invoices are retained for seven years."


def test_passages_are_numbered_from_one_in_rank_order(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    passages = passages_for(retrieved)
    assert [p.number for p in passages] == list(range(1, len(retrieved) + 1))
    assert [p.evidence_id for p in passages] == [c.evidence_id for c in retrieved]


def test_memory_record_and_trace_attributes_carry_no_text(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    record = MemoryRecord("Invoices: seven years.", retrieved.citations)
    assert record.provenance() == [c.evidence_id for c in retrieved]
    attrs = citation_attributes(list(retrieved.citations))
    assert attrs["pincite.citation.count"] == len(retrieved)
    flat = repr(attrs)
    assert "invoices" not in flat.lower() and "seven" not in flat


def test_renderer_case_valid_source_that_does_not_support_the_claim(
    acme: Corpus, embedder: object
) -> None:
    """The citation resolves, but the passage says seven years, not ten: rejected."""
    from pincite.answer.pipeline import SupportPolicy
    from pincite.support import HeuristicSupportChecker, SupportVerdict

    checker = HeuristicSupportChecker(embedder)  # type: ignore[arg-type]
    wrong = claim("Customer invoices are retained for ten years.", 1)
    rejected = answer_question(
        acme,
        "invoices retained",
        ScriptedGenerator(wrong, wrong),
        tenant="acme",
        options=LEXICAL,
        support=checker,
    )
    assert rejected.refused and "do not support" in rejected.reasons[0]
    flagged = answer_question(
        acme,
        "invoices retained",
        ScriptedGenerator(wrong),
        tenant="acme",
        options=LEXICAL,
        support=checker,
        policy=SupportPolicy.FLAG,
    )
    assert flagged.outcome is Outcome.ANSWERED
    assert flagged.support[0].verdict is SupportVerdict.UNSUPPORTED
    right = claim("Customer invoices are retained for seven years.", 1)
    ok = answer_question(
        acme,
        "invoices retained",
        ScriptedGenerator(right),
        tenant="acme",
        options=LEXICAL,
        support=checker,
    )
    assert ok.outcome is Outcome.ANSWERED and ok.answer is not None
    # The citation is narrowed from the whole passage to the supporting sentence.
    [c] = ok.answer.citations
    assert c.evidence_id.startswith("ev1:s:")
    assert excerpt(c, acme.store) == "Customer invoices are retained for seven years."


def test_conflicts_are_reported_with_each_sides_source(acme: Corpus) -> None:
    from pincite.generate.base import Conflict

    acme.ingest_text(
        "Customer invoices are retained for five years.",
        uri="policy://old",
        tenant="acme",
        title="Old policy",
    )
    gen = ScriptedGenerator(
        Generation(
            # Cites both sides: the old policy alone (five years) does not support it.
            (GeneratedClaim("Invoices are kept seven years.", (1, 2), "fact"),),
            True,
            conflicts=(Conflict((1, 2, 40), "the policies disagree on invoice retention"),),
        )
    )
    result = ask(acme, gen)
    assert result.outcome is Outcome.ANSWERED
    [conflict] = result.conflicts
    assert conflict.description == "the policies disagree on invoice retention"
    assert len(conflict.citations) == 2  # number 40 is out of range and dropped
    from pincite.present.answer import format_answer

    text = format_answer(result, acme.store)
    assert "Conflict: the policies disagree" in text and "Old policy" in text


def test_answer_path_emits_an_opentelemetry_span_without_text(acme: Corpus) -> None:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    import pincite.answer.telemetry as telemetry

    original = trace.get_tracer
    trace.get_tracer = lambda *a, **k: tracer  # type: ignore[assignment]
    try:
        result = ask(acme, ScriptedGenerator(claim("Invoices: seven years.", 1)))
    finally:
        trace.get_tracer = original  # type: ignore[assignment]
    assert result.outcome is Outcome.ANSWERED and telemetry is not None
    [span] = exporter.get_finished_spans()
    assert span.name == "pincite.answer"
    attrs = dict(span.attributes or {})
    assert attrs["pincite.citation.count"] == 1
    assert "seven" not in repr(attrs) and "invoice" not in repr(attrs).lower()


def test_support_is_checked_even_when_no_checker_is_given(acme: Corpus) -> None:
    """The library default fails closed too: no caller can forget the support check."""
    wrong = claim("Customer invoices are retained for ten years.", 1)
    rejected = answer_question(
        acme, "invoices retained", ScriptedGenerator(wrong, wrong), tenant="acme", options=LEXICAL
    )
    assert rejected.refused and "do not support" in rejected.reasons[0]
    right = claim("Customer invoices are retained for seven years.", 1)
    ok = ask(acme, ScriptedGenerator(right))
    assert ok.outcome is Outcome.ANSWERED
    assert ok.support[0].verdict is SupportVerdict.SUPPORTED


DEPLOYMENT_MODELS = (
    "Deployment Models\n\n"
    "Private cloud. The cloud infrastructure is provisioned for exclusive use by a single "
    "organization comprising multiple consumers.\n"
    "Hybrid cloud. The cloud infrastructure is a composition of two or more distinct cloud "
    "infrastructures (private, community, or public) that remain unique entities.\n\n"
    "Service Models\n\n"
    "Software as a Service. The consumer uses the provider's applications running on a cloud "
    "infrastructure."
)


def test_an_extractive_definition_keeps_its_term_in_the_cited_span(
    corpus: Corpus, embedder: object
) -> None:
    # The support checker's best sentence omits the label; an answer that
    # already pins exact spans must not be narrowed to it.
    corpus.ingest_text(DEPLOYMENT_MODELS, uri="nist://cloud", tenant="acme", title="Cloud")
    generator = ExtractiveGenerator(embedder)  # type: ignore[arg-type]
    result = ask(corpus, generator, "What is a private cloud?")
    assert result.outcome is Outcome.ANSWERED and result.answer is not None
    first = result.answer.claims[0]
    assert first.text.startswith("Private cloud. The cloud infrastructure is provisioned")
    [c] = result.answer.sources(first)
    assert excerpt(c, corpus.store) == first.quote
    assert excerpt(c, corpus.store).startswith("Private cloud.")


def test_passages_carry_the_heading_path_and_retrieval_evidence(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    for p, (hit, _) in zip(passages_for(retrieved), retrieved.pairs, strict=True):
        assert p.section == hit.chunk.section
        assert p.lexical_rank == hit.branches.lexical_rank
        assert p.dense_score == hit.branches.dense_score


def test_a_claim_of_several_sentences_is_support_checked_sentence_by_sentence(
    acme: Corpus, embedder: object
) -> None:
    from pincite.support import HeuristicSupportChecker

    class Recording(HeuristicSupportChecker):
        def check(self, claim: str, passages):  # type: ignore[no-untyped-def]
            seen.append(claim)
            return super().check(claim, passages)

    seen: list[str] = []
    two = claim("Customer invoices are retained for seven years. They are kept after the year.", 1)
    result = answer_question(
        acme,
        "invoices retained",
        ScriptedGenerator(two),
        tenant="acme",
        options=LEXICAL,
        support=Recording(embedder),  # type: ignore[arg-type]
    )
    assert seen == [
        "Customer invoices are retained for seven years.",
        "They are kept after the year.",
    ]
    assert 0 in result.support  # one verdict for the claim: its weakest sentence's


class _Doubting:
    """A support checker that backs nothing, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def check(self, claim: str, passages):  # type: ignore[no-untyped-def]
        from pincite.support.base import SupportResult

        self.asked.append(claim)
        return SupportResult(SupportVerdict.UNSUPPORTED, 0.0)


SENTENCE = "Customer invoices are retained for seven years."


def _doubted(corpus: Corpus, text: str, *, pinned: bool):  # type: ignore[no-untyped-def]
    """The answer to a claim ``text`` citing passage 1 (and, ``pinned``, the exact span
    of SENTENCE in it), support-checked by a checker that backs nothing."""
    (doc,) = corpus.documents(tenant="acme")
    start = corpus.versions(doc.document_id, tenant="acme")[0].text.index(SENTENCE)
    spans = ((start, start + len(SENTENCE)),) if pinned else ()
    doubting = _Doubting()
    result = answer_question(
        corpus,
        "invoices retained",
        ScriptedGenerator(Generation((GeneratedClaim(text, (1,), spans=spans),), True)),
        tenant="acme",
        options=LEXICAL,
        support=doubting,  # type: ignore[arg-type]
    )
    return result, doubting


def test_a_claim_that_is_word_for_word_its_cited_sentence_needs_no_checker(acme: Corpus) -> None:
    # Extra whitespace is no change of words.
    result, doubting = _doubted(
        acme, "Customer invoices  are retained\nfor seven years.", pinned=True
    )
    assert result.outcome is Outcome.ANSWERED and doubting.asked == []
    assert result.support[0].verdict is SupportVerdict.SUPPORTED and result.support[0].score == 1.0


@pytest.mark.parametrize(
    ("text", "pinned"),
    [
        # words cut from inside the cited sentence: no quote of it
        ("invoices are retained for seven years.", True),
        # one word changed
        ("Customer invoices are retained for eight years.", True),
        # the sentence copied, but citing the whole passage, which says more
        ("Customer invoices are retained for seven years.", False),
    ],
)
def test_anything_but_the_cited_text_itself_goes_to_the_checker(
    acme: Corpus, text: str, pinned: bool
) -> None:
    result, doubting = _doubted(acme, text, pinned=pinned)
    assert result.outcome is not Outcome.ANSWERED  # the checker backs nothing: fail closed
    assert text in doubting.asked
