"""Run a studio action: pick or generate items, cite them, check them like an answer."""

from __future__ import annotations

from datetime import UTC, datetime

from pincite.answer.pipeline import (
    SupportPolicy,
    build_answer,
    check_quotes,
    check_support,
    passages_for,
)
from pincite.citation import Citation, CitedAnswer, Claim
from pincite.errors import GroundingError, NotFoundError, UncitedClaimError
from pincite.generate.base import Generator
from pincite.ground.cite import check_grounding, cite, cite_hit
from pincite.model import Document, Hit, RetrievalResult, Version
from pincite.store.base import Store
from pincite.studio.extract import MAX_ITEMS, PICKERS, sentences_of
from pincite.studio.types import LEGAL_DISCLAIMER, StudioAction, StudioItem, StudioResult
from pincite.support.base import SupportChecker


def run_studio(
    store: Store,
    support: SupportChecker,
    document_id: str,
    action: StudioAction | str,
    *,
    tenant: str,
    generator: Generator | None = None,
) -> StudioResult:
    """Run ``action`` on the current version of ``document_id`` in ``tenant``.

    With a model ``generator`` the items are the model's own words, written
    from the passages the offline pass picked (numbered, as for an answer) and
    held to the same checks: numbers mapped to passages by code, grounding,
    quotes, support; one repair pass, then the error. Otherwise the items are
    the picked sentences themselves.

    Raises ``NotFoundError`` for a document that is missing, of another
    tenant or deleted, ``InputError`` for an unknown action, and a
    ``GroundingError`` if a citation or an item's support does not hold.
    """
    chosen = action if isinstance(action, StudioAction) else StudioAction.parse(action)
    document, version = _current(store, tenant, document_id)
    chunks = [c for c in store.chunks(tenant, document_id, version.content_hash) if not c.erased]
    hits = [Hit(c, document, 1.0) for c in chunks]
    now = datetime.now(UTC).isoformat(timespec="seconds")
    result = RetrievalResult(f"studio:{chosen.value}", tenant, tuple(hits), now, "document")
    retrieved = cite(result)
    sentences = sentences_of(version.text, hits)
    picked = PICKERS[chosen](sentences)
    if generator is not None and generator.is_model:
        by_chunk = {s.hit.chunk.chunk_id: s.hit for _, s in picked} or {
            h.chunk.chunk_id: h for h in hits[:MAX_ITEMS]
        }
        shown = sorted(by_chunk.values(), key=lambda h: h.chunk.start)
        items, cited = _generated(store, support, generator, chosen, tenant, shown, now)
        return _result(chosen, document, version, items, cited)
    citations: dict[str, Citation] = {}
    claims: list[Claim] = []
    for _, sentence in picked:
        c = cite_hit(sentence.hit, tenant=tenant, retrieved_at=now, span=sentence.span)
        citations[c.citation_id] = c
        claims.append(Claim(sentence.text, (c.citation_id,)))
    answer = CitedAnswer(tuple(claims), tuple(citations.values()))
    check_grounding(answer, retrieved, store=store)
    verdicts = check_support(answer, retrieved, support, SupportPolicy.REJECT) if claims else {}
    items = tuple(
        StudioItem(label, claim.text, claim.citation_ids, sentence.section, verdicts[i].verdict)
        for i, ((label, sentence), claim) in enumerate(zip(picked, claims, strict=True))
    )
    return _result(chosen, document, version, items, answer.citations)


def _result(
    action: StudioAction,
    document: Document,
    version: Version,
    items: tuple[StudioItem, ...],
    citations: tuple[Citation, ...],
) -> StudioResult:
    # The disclaimer is added here, after every check, never by a model.
    disclaimer = LEGAL_DISCLAIMER if action.legal else ""
    return StudioResult(
        action, document.document_id, document.title, version.hash16, items, citations, disclaimer
    )


_TASKS = {
    StudioAction.SUMMARY: "Summarize this document in at most 12 short points.",
    StudioAction.FAQ: "Write the questions a reader would ask about this document, each "
    "followed by its answer, as one claim per question ('Question? Answer.').",
    StudioAction.KEY_TERMS: "List the key terms this document defines, one claim per term "
    "('Term: definition').",
    StudioAction.PROS_CONS: "List the advantages and the disadvantages this document names, "
    "one claim each, starting with 'Pro:' or 'Con:'.",
    StudioAction.CONTRACT: "Break this agreement down into its parties, obligations, dates, "
    "amounts and termination terms, one claim each, starting with the kind ('Party:').",
}


def _generated(
    store: Store,
    support: SupportChecker,
    generator: Generator,
    action: StudioAction,
    tenant: str,
    hits: list[Hit],
    now: str,
) -> tuple[tuple[StudioItem, ...], tuple[Citation, ...]]:
    retrieved = cite(
        RetrievalResult(f"studio:{action.value}", tenant, tuple(hits), now, "document")
    )
    passages = passages_for(retrieved)
    feedback: str | None = None
    failure: GroundingError | None = None
    for _ in range(2):  # one repair pass, as for answers
        generation = generator.generate(_TASKS[action], passages, feedback=feedback)
        if not generation.sufficient_context:
            return (), ()
        try:
            answer = build_answer(generation, retrieved)
            uncited = [c.text for c in answer.claims if not c.citation_ids]
            if uncited:
                raise UncitedClaimError(uncited[0])  # every studio item is cited, inference too
            check_grounding(answer, retrieved, store=store)
            check_quotes(answer, retrieved)
            verdicts = check_support(answer, retrieved, support, SupportPolicy.REJECT)
        except GroundingError as exc:
            failure, feedback = exc, str(exc)
            continue
        items = tuple(
            StudioItem(
                "",
                claim.text,
                claim.citation_ids,
                answer.sources(claim)[0].locator.section,
                verdicts[i].verdict,
            )
            for i, claim in enumerate(answer.claims)
        )
        return items, answer.citations
    assert failure is not None
    raise failure


def _current(store: Store, tenant: str, document_id: str) -> tuple[Document, Version]:
    document = store.find_document(tenant, document_id=document_id)
    current = store.current_hash(tenant, document_id) if document is not None else None
    version = store.version(tenant, document_id, current[:16]) if current else None
    if document is None or version is None or document.status.value != "live":
        raise NotFoundError("document", document_id)
    return document, version
