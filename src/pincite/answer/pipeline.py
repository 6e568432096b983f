"""The answer path: retrieve, number, generate, cite, check, and refuse when it does not hold."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from pincite import ids
from pincite.answer.calibration import calibrated
from pincite.answer.source import AnswerSource
from pincite.answer.telemetry import answer_span
from pincite.citation import Citation, CitedAnswer, Claim, ClaimKind, Rendered
from pincite.errors import (
    EvidenceIdError,
    GroundingError,
    QuoteMismatchError,
    UnsupportedClaimError,
)
from pincite.generate.base import CLOSEST, THRESHOLD, Generation, Generator, Passage
from pincite.generate.question import QuestionKind, parse_question
from pincite.ground.cite import Retrieved, check_grounding, citations_from, cite, cite_hit, unique
from pincite.ground.resolve import citation_attributes
from pincite.model import Hit
from pincite.retrieve.continuation import with_continuation
from pincite.retrieve.search import SearchOptions
from pincite.support.base import SupportChecker, SupportPassage, SupportResult, SupportVerdict
from pincite.support.claims import check_claim, quoted
from pincite.support.heuristic import support_checker_for

_LISTING = frozenset({QuestionKind.LIST, QuestionKind.CONDITION})
NOTHING_RELEVANT = "No passages in your documents address this."
INSUFFICIENT = "The passages found do not answer this question."


def closest_score(generator: Generator, generation: Generation) -> tuple[float, float] | None:
    """(the closest answer's score, the threshold it missed) of an offline generator's refusal.

    Read only from a generator that is no model: a model's ``raw`` is its own
    output, and whatever it says it scored is no measurement.
    """
    if generator.is_model:
        return None
    closest, threshold = generation.raw.get(CLOSEST), generation.raw.get(THRESHOLD)
    numbers = []
    for value in (closest, threshold):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not math.isfinite(value):
            return None
        numbers.append(float(value))
    return numbers[0], numbers[1]


class SupportPolicy(StrEnum):
    REJECT = "reject"  # fail closed: a fact whose every citation is unsupported sinks the answer
    FLAG = "flag"  # keep the answer, but mark the claim


class Outcome(StrEnum):
    ANSWERED = "answered"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class ConflictNote:
    description: str
    citations: tuple[Citation, ...]


@dataclass(frozen=True, slots=True)
class AnswerResult:
    """What every way of answering returns: an answer, or a refusal with its reasons.

    The pipeline's answer is ``answer`` (claims and citations); an answer that
    arrives as text with evidence ids (the agent loop) is ``rendered`` instead.
    """

    question: str
    tenant: str
    outcome: Outcome
    answer: CitedAnswer | None
    message: str = ""
    reasons: tuple[str, ...] = ()
    searched: tuple[Citation, ...] = ()
    conflicts: tuple[ConflictNote, ...] = ()
    support: dict[int, SupportResult] = field(default_factory=dict)
    summary: str = ""
    generator_calls: int = 0
    rendered: Rendered | None = None
    # An offline answerer's refusal: (its closest answer's score, the threshold it missed).
    closest: tuple[float, float] | None = None

    @property
    def refused(self) -> bool:
        return self.outcome is Outcome.REFUSED


def _how_close(closest: tuple[float, float] | None) -> tuple[str, ...]:
    if closest is None:
        return ()
    return (
        f"the closest answer scored {closest[0]:.2f}, under the answer threshold {closest[1]:.2f}",
    )


def passages_for(retrieved: Retrieved) -> list[Passage]:
    """The numbered list a generator sees: number i is ``retrieved[i - 1]``."""
    return [
        Passage(
            number=i,
            text=hit.chunk.text,
            title=hit.document.title,
            evidence_id=c.evidence_id,
            version=c.hash16,
            date=hit.document.published_at or hit.document.created_at[:10] or None,
            superseded=c.superseded,
            start=hit.chunk.start,
            section=hit.chunk.section,
            dense_score=hit.branches.dense_score,
            lexical_rank=hit.branches.lexical_rank,
        )
        for i, (hit, c) in enumerate(retrieved.pairs, start=1)
    ]


def build_answer(generation: Generation, retrieved: Retrieved) -> CitedAnswer:
    """Map each claim's numbers to retrieved passages; spans only inside those passages.

    A claim left with no valid number keeps no citation, so ``check_grounding``
    rejects it; nothing is dropped here to make the answer pass.
    """
    citations: list[Citation] = []
    claims: list[Claim] = []
    for gc in generation.claims:
        cited = citations_from(retrieved, gc.used_excerpt_numbers)
        ids: list[str] = []
        for base in cited:
            inside = [sp for sp in gc.spans if base.span[0] <= sp[0] < sp[1] <= base.span[1]]
            if not inside:
                citations.append(base)
                ids.append(base.citation_id)
            for sp in inside:
                c = cite_hit(
                    retrieved.hit_for(base),
                    tenant=retrieved.tenant,
                    retrieved_at=base.retrieved_at,
                    span=sp,
                )
                citations.append(c)
                ids.append(c.citation_id)
        kind = ClaimKind.INFERENCE if gc.kind == "inference" else ClaimKind.FACT
        claims.append(Claim(gc.text, tuple(dict.fromkeys(ids)), kind, gc.quote))
    return CitedAnswer(tuple(claims), unique(citations))


def check_quotes(answer: CitedAnswer, retrieved: Retrieved) -> None:
    """A claim's quote must appear verbatim in one of the passages it cites."""
    text_of = {c.chunk_id: h.chunk.text for h, c in retrieved.pairs}
    for claim in answer.claims:
        if claim.quote is None:
            continue
        texts = [text_of.get(c.chunk_id, "") for c in answer.sources(claim)]
        if not any(claim.quote in t for t in texts):
            raise QuoteMismatchError(claim.quote, claim.citation_ids)


def check_support(
    answer: CitedAnswer, retrieved: Retrieved, checker: SupportChecker, policy: SupportPolicy
) -> dict[int, SupportResult]:
    verdicts: dict[int, SupportResult] = {}
    for i, claim in enumerate(answer.claims):
        sources = answer.sources(claim)
        if not sources:
            continue
        hits = {c.chunk_id: retrieved.hit_for(c) for c in sources}
        passages = [
            SupportPassage(h.evidence_id, h.chunk.text, h.chunk.start) for h in hits.values()
        ]
        cited = [
            (c.evidence_id, hits[c.chunk_id].chunk.text[slice(*_within(c, hits[c.chunk_id]))])
            for c in sources
        ]
        verdict = quoted(claim.text, cited) or check_claim(checker, claim.text, passages)
        verdicts[i] = verdict
        if (
            policy is SupportPolicy.REJECT
            and claim.kind is ClaimKind.FACT
            and verdict.verdict is SupportVerdict.UNSUPPORTED
        ):
            raise UnsupportedClaimError(claim.text, claim.citation_ids)
    return verdicts


def _within(citation: Citation, hit: Hit) -> tuple[int, int]:
    """The citation's span in its chunk's own offsets."""
    return citation.span[0] - hit.chunk.start, citation.span[1] - hit.chunk.start


def narrow_citations(
    answer: CitedAnswer, retrieved: Retrieved, verdicts: dict[int, SupportResult]
) -> CitedAnswer:
    """Point each supported claim at the sentences that carry it instead of whole passages.

    Sentence ids come from the support checker; each must decode to a span
    inside a chunk the claim already cites, or the claim keeps its citations.
    A claim that already cites exact spans (the extractive generator's, a
    defined term with its definition) keeps them: the checker's best sentence
    would drop the term the question asked about.
    """
    citations = {c.citation_id: c for c in answer.citations}
    claims = []
    for i, claim in enumerate(answer.claims):
        verdict = verdicts.get(i)
        sources = answer.sources(claim)
        narrowed: list[Citation] = []
        pinned = any(c.span != _whole(retrieved.hit_for(c)) for c in sources)
        if not pinned and verdict is not None and verdict.verdict is not SupportVerdict.UNSUPPORTED:
            for sid in verdict.sentence_ids:
                try:
                    ref = ids.decode(sid)
                except EvidenceIdError:
                    continue
                if not isinstance(ref, ids.SpanRef):
                    continue
                for src in sources:
                    inside = src.span[0] <= ref.start < ref.end <= src.span[1]
                    if inside and ref.document_id == src.document_id and ref.hash16 == src.hash16:
                        narrowed.append(
                            cite_hit(
                                retrieved.hit_for(src),
                                tenant=retrieved.tenant,
                                retrieved_at=src.retrieved_at,
                                span=(ref.start, ref.end),
                            )
                        )
                        break
        if narrowed:
            citations.update((c.citation_id, c) for c in narrowed)
            claim = Claim(
                claim.text,
                tuple(dict.fromkeys(c.citation_id for c in narrowed)),
                claim.kind,
                claim.quote,
            )
        claims.append(claim)
    used = {cid for c in claims for cid in c.citation_ids}
    return CitedAnswer(tuple(claims), tuple(c for cid, c in citations.items() if cid in used))


def _whole(hit: Hit) -> tuple[int, int]:
    return (hit.chunk.start, hit.chunk.end)


def answer_question(
    corpus: AnswerSource,
    question: str,
    generator: Generator,
    *,
    tenant: str,
    k: int = 6,
    options: SearchOptions | None = None,
    support: SupportChecker | None = None,
    policy: SupportPolicy = SupportPolicy.REJECT,
    summary: str = "",
    repair: bool = True,
) -> AnswerResult:
    """Answer from the tenant's documents, or refuse. Never returns an unchecked answer.

    Every cited claim is checked for support by ``support``, by default
    ``support_checker_for(corpus.embedder)``; ``policy`` says whether an
    unsupported fact rejects the answer (the default) or is only flagged.
    """
    if support is None:
        support = support_checker_for(corpus.embedder)
    generator = calibrated(generator, corpus.store, tenant)
    with answer_span() as span:
        # A definition question also brings in the entry that defines its term.
        asked = parse_question(question)
        term = asked.term or None
        result = corpus.retrieve(question, tenant=tenant, k=k, options=options, define=term)
        if asked.kind in _LISTING:
            # The items a retrieved lead-in announces may lie in the chunk after it.
            result = with_continuation(corpus.store, result, k)
        if not result.hits:
            return AnswerResult(question, tenant, Outcome.REFUSED, None, NOTHING_RELEVANT)
        retrieved = cite(result)
        passages = passages_for(retrieved)
        feedback: str | None = None
        reasons: list[str] = []
        calls = 0
        attempts = 2 if (repair and generator.is_model) else 1
        for _ in range(attempts):
            generation = generator.generate(question, passages, summary=summary, feedback=feedback)
            calls += 1
            if not generation.sufficient_context:
                closest = closest_score(generator, generation)
                return AnswerResult(
                    question,
                    tenant,
                    Outcome.REFUSED,
                    None,
                    INSUFFICIENT,
                    reasons=_how_close(closest),
                    searched=retrieved.citations,
                    summary=generation.summary,
                    generator_calls=calls,
                    closest=closest,
                )
            try:
                answer = build_answer(generation, retrieved)
                if not answer.claims:
                    raise GroundingError("the generator returned no claims")
                check_grounding(answer, retrieved, store=corpus.store)
                check_quotes(answer, retrieved)
                verdicts = check_support(answer, retrieved, support, policy)
                if verdicts:
                    answer = narrow_citations(answer, retrieved, verdicts)
                    check_grounding(answer, retrieved, store=corpus.store)
            except GroundingError as exc:
                reasons.append(str(exc))
                feedback = str(exc)
                continue
            span.set_attributes(citation_attributes(answer.citations))
            return AnswerResult(
                question,
                tenant,
                Outcome.ANSWERED,
                answer,
                searched=retrieved.citations,
                conflicts=_conflicts(generation, retrieved),
                support=verdicts,
                summary=generation.summary,
                generator_calls=calls,
            )
        return AnswerResult(
            question,
            tenant,
            Outcome.REFUSED,
            None,
            "The answer was rejected because its citations did not hold.",
            reasons=tuple(reasons),
            searched=retrieved.citations,
            generator_calls=calls,
        )


def _conflicts(generation: Generation, retrieved: Retrieved) -> tuple[ConflictNote, ...]:
    return tuple(
        ConflictNote(c.description, tuple(citations_from(retrieved, c.excerpt_numbers)))
        for c in generation.conflicts
    )
