"""Search, answer, and the evidence calls: fetch, check, resolve; plus fetch sessions."""

from __future__ import annotations

from fastapi import APIRouter

from pincite import ids
from pincite.errors import InputError
from pincite.ground.check import Verdict, check_citations
from pincite.ground.fetch import FetchLedger, FetchOutcome, FetchStatus
from pincite.server import evidence
from pincite.server.deps import Service, State, Tenant
from pincite.server.errors import ERROR_RESPONSES, ErrorBody, Responses, not_found
from pincite.server.present import answer_out
from pincite.server.schemas import (
    AnswerOut,
    AnswerRequest,
    CheckOut,
    CheckRequest,
    FetchOut,
    FetchRequest,
    HitOut,
    OutcomeOut,
    ResolveOut,
    ResolveRequest,
    SearchOut,
    SearchRequest,
    SessionOut,
    VerdictOut,
)

router = APIRouter(prefix="/v1", responses=ERROR_RESPONSES)
_NOT_FOUND: Responses = {404: {"model": ErrorBody, "description": "Not found in this workspace"}}


@router.post("/search", tags=["search"])
def search(body: SearchRequest, tenant: Tenant, state: State) -> SearchOut:
    """The ``k`` best current passages of the workspace, each with its evidence id."""
    options = state.search_options(body.mode)
    result = state.corpus.retrieve(body.question, tenant=tenant, k=body.k, options=options)
    hits = [
        HitOut(
            n=n,
            evidence_id=h.evidence_id,
            view_url=state.view_url(h.evidence_id),
            document_id=h.chunk.document_id,
            title=h.document.title,
            uri=h.document.uri,
            hash16=h.chunk.hash16,
            start=h.chunk.start,
            end=h.chunk.end,
            pages=list(h.chunk.pages),
            section=list(h.chunk.section),
            score=h.score,
            text=h.chunk.text,
        )
        for n, h in enumerate(result.hits, start=1)
    ]
    return SearchOut(
        question=body.question, mode=result.mode, hits=hits, dense_coverage=result.dense_coverage
    )


@router.post("/answer", tags=["search"])
def answer(body: AnswerRequest, tenant: Tenant, state: State) -> AnswerOut:
    """Answer from the workspace's documents with checked citations, or refuse."""
    result = state.corpus.ask(body.question, tenant=tenant, k=body.k)
    return answer_out(result, state.view_url)


@router.post("/sessions", tags=["evidence"], status_code=201)
def open_session(tenant: Tenant, state: State) -> SessionOut:
    """A fetch session: fetches that name it are recorded in its ledger for ``check``."""
    return SessionOut(session_id=state.state.open_session(tenant))


def _outcome_out(o: FetchOutcome, service: Service) -> OutcomeOut:
    link = service.view_url(o.id) if o.document_id is not None else None
    return OutcomeOut(**o.as_dict(), view_url=link)


def _ledger(state: State, tenant: str, session: str | None) -> FetchLedger | None:
    if session is None:
        return None
    ledger = state.state.ledger(tenant, session)
    if ledger is None:
        raise not_found("session")
    return ledger


@router.post("/evidence/fetch", tags=["evidence"], responses=_NOT_FOUND)
def fetch(body: FetchRequest, tenant: Tenant, state: State) -> FetchOut:
    """The exact stored text behind each id, with a status per id.

    Statuses: ok, partial, truncated, erased, deleted, not_found, malformed. An
    id of another workspace reads exactly like one that does not exist.
    """
    ledger = _ledger(state, tenant, body.session)
    outcomes = state.corpus.fetch(body.ids, tenant=tenant, max_chars=body.max_chars, ledger=ledger)
    if ledger is not None and body.session is not None:
        state.state.save_ledger(body.session, ledger)
    return FetchOut(outcomes=[_outcome_out(o, state) for o in outcomes])


@router.get("/evidence/{evidence_id}", tags=["evidence"], responses=_NOT_FOUND)
def fetch_one(evidence_id: str, tenant: Tenant, state: State) -> OutcomeOut:
    """One id's outcome; 404 when it does not exist in this workspace."""
    ids.decode(evidence_id)
    [outcome] = state.corpus.fetch([evidence_id], tenant=tenant)
    if outcome.status is FetchStatus.NOT_FOUND:
        raise not_found("evidence")
    return _outcome_out(outcome, state)


@router.post("/citations/check", tags=["evidence"], responses=_NOT_FOUND)
def check(body: CheckRequest, tenant: Tenant, state: State) -> CheckOut:
    """Is every id an answer cites one that was read in full, in this workspace?

    Against a session's ledger, or against ``fetched`` (ids the caller read,
    re-read now in the caller's workspace; only complete reads count).
    """
    if (body.text is None) == (body.ids is None):
        raise InputError("give exactly one of 'text' or 'ids'")
    if (body.session is None) == (body.fetched is None):
        raise InputError("give exactly one of 'session' or 'fetched'")
    ledger = _ledger(state, tenant, body.session)
    if ledger is None:
        ledger = FetchLedger(tenant)
        state.corpus.fetch(body.fetched or [], tenant=tenant, ledger=ledger)
    cited = body.text if body.text is not None else body.ids or []
    verdicts = check_citations(cited, ledger)
    return CheckOut(
        all_valid=bool(verdicts) and all(v.verdict is Verdict.VALID for v in verdicts),
        verdicts=[VerdictOut(id=v.id, verdict=v.verdict.value) for v in verdicts],
    )


@router.post("/citations/resolve", tags=["evidence"], responses=_NOT_FOUND)
def resolve(body: ResolveRequest, tenant: Tenant, state: State) -> ResolveOut:
    """Resolve a citation's evidence id now: its text, its state, and where it lives today."""
    ids.decode(body.evidence_id)
    found = evidence.load(state.corpus.store, tenant, body.evidence_id)
    if found is None:
        raise not_found("evidence")
    o = found.outcome
    cp = found.counterpart
    return ResolveOut(
        evidence_id=o.id,
        status=o.status.value,
        text=found.cited if found.readable else None,
        erased=o.status is FetchStatus.ERASED,
        deleted=o.status is FetchStatus.DELETED,
        superseded=o.superseded,
        current_hash16=o.current_hash16,
        current_evidence_id=cp.evidence_id if cp is not None else None,
        title=o.title,
        uri=o.uri,
        view_url=state.view_url(o.id),
    )
