"""Conversations: stored per workspace, each turn searched as a standalone question.

The shape, for clients (the web workspace among them):

- ``POST /v1/conversations`` ``{"title"?}`` → 201 ``ConversationOut``
  (``conversation_id``, ``title``, ``created_at``, ``updated_at``, ``turn_count``, ``url``)
- ``GET /v1/conversations`` → ``{"conversations": [ConversationOut, ...]}``, most
  recently updated first
- ``GET /v1/conversations/{id}`` → ``ConversationOut`` plus ``turns``: each turn's
  ``question`` (as asked), ``standalone`` (as searched), ``rewrite`` (what made it:
  asked / model / offline) and ``rewrite_calls``, ``outcome``, ``message``,
  running ``summary``, ``claims``, ``citations`` (each with ``view_url``), ``searched``
- ``POST /v1/conversations/{id}/turns`` ``{"question", "k"?}`` → the answer as
  ``/v1/answer`` gives it plus ``conversation_id``, ``seq``, ``asked``, ``standalone``,
  ``rewrite``, ``rewrite_calls``
- ``DELETE /v1/conversations/{id}`` → 204
- ``GET /v1/stale`` → ``{"items": [...]}``: every stored turn (and memory) citing a
  superseded, deleted, erased or missing version; a superseded citation carries
  ``reanchor`` (unchanged / changed / removed), ``similarity``, ``diff`` and the
  re-anchored ``current_evidence_id`` with its ``current_view_url``

Another workspace's conversation id gets the same 404 as one that never existed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from pincite.conversation import (
    Conversation,
    ConversationTurn,
    delete_conversation,
    list_conversations,
)
from pincite.server.deps import Service, State, Tenant
from pincite.server.errors import ERROR_RESPONSES, ErrorBody, Responses
from pincite.server.present import answer_out
from pincite.server.schemas import (
    ConversationAnswerOut,
    ConversationCreate,
    ConversationDetail,
    ConversationList,
    ConversationOut,
    StaleCitationOut,
    StaleItemOut,
    StaleOut,
    TurnOut,
    TurnRequest,
)

router = APIRouter(prefix="/v1", tags=["conversations"], responses=ERROR_RESPONSES)
_NOT_FOUND: Responses = {404: {"model": ErrorBody, "description": "Not found in this workspace"}}


def _out(conversation: Conversation, state: Service) -> ConversationOut:
    r = conversation.record
    return ConversationOut(
        conversation_id=r.conversation_id,
        title=r.title,
        created_at=r.created_at,
        updated_at=r.updated_at,
        turn_count=r.turn_count,
        url=state.link(f"/v1/conversations/{r.conversation_id}"),
    )


def _turn_out(turn: ConversationTurn, state: Service) -> TurnOut:
    citations: list[dict[str, Any]] = [dict(c) for c in turn.answer.get("citations", [])]
    for c in citations:
        c["view_url"] = state.view_url(str(c.get("evidence_id", "")))
    return TurnOut(
        seq=turn.seq,
        question=turn.question,
        standalone=turn.standalone,
        outcome="answered" if turn.outcome == "answered" else "refused",
        message=turn.message,
        summary=turn.summary,
        created_at=turn.created_at,
        claims=list(turn.answer.get("claims", [])),
        citations=citations,
        reasons=[str(r) for r in turn.answer.get("reasons", [])],
        searched=[str(s) for s in turn.answer.get("searched", [])],
        rewrite=turn.rewritten_by,
        rewrite_calls=int(turn.answer.get("rewrite_calls", 0)),
    )


@router.post("/conversations", status_code=201)
def create(body: ConversationCreate, tenant: Tenant, state: State) -> ConversationOut:
    """Start an empty conversation in the caller's workspace."""
    return _out(state.corpus.conversation(tenant=tenant, title=body.title), state)


@router.get("/conversations")
def list_all(tenant: Tenant, state: State) -> ConversationList:
    """The workspace's conversations, most recently updated first."""
    found = list_conversations(state.corpus, tenant=tenant)
    return ConversationList(conversations=[_out(c, state) for c in found])


@router.get("/conversations/{conversation_id}", responses=_NOT_FOUND)
def get(conversation_id: str, tenant: Tenant, state: State) -> ConversationDetail:
    """The conversation with every turn, oldest first."""
    conversation = state.corpus.conversation(conversation_id, tenant=tenant)
    turns = [_turn_out(t, state) for t in conversation.turns()]
    return ConversationDetail(**_out(conversation, state).model_dump(), turns=turns)


@router.post("/conversations/{conversation_id}/turns", responses=_NOT_FOUND)
def ask(
    conversation_id: str, body: TurnRequest, tenant: Tenant, state: State
) -> ConversationAnswerOut:
    """Answer the next turn in context (a follow-up is searched as a standalone question)."""
    conversation = state.corpus.conversation(conversation_id, tenant=tenant)
    result = conversation.ask(
        body.question, k=body.k, options=state.search_options(None), generator=state.generator
    )
    seq = conversation.record.turn_count - 1
    rewritten = conversation.last_rewrite
    return ConversationAnswerOut(
        **answer_out(result, state.view_url).model_dump(),
        conversation_id=conversation.id,
        seq=seq,
        asked=body.question.strip(),
        standalone=result.question,
        # ask() always records how it searched; the fallback only satisfies the type.
        rewrite=rewritten.by if rewritten else "",
        rewrite_calls=rewritten.calls if rewritten else 0,
    )


@router.delete("/conversations/{conversation_id}", status_code=204, responses=_NOT_FOUND)
def delete(conversation_id: str, tenant: Tenant, state: State) -> Response:
    """Remove the conversation and every turn."""
    delete_conversation(state.corpus, conversation_id, tenant=tenant)
    return Response(status_code=204)


@router.get("/stale")
def stale(tenant: Tenant, state: State) -> StaleOut:
    """Stored turns and memories whose citations point into text that is no longer current."""
    items = []
    for item in state.corpus.stale(tenant=tenant):
        data = item.as_dict()
        cites = [
            StaleCitationOut(
                **c,
                view_url=state.view_url(c["evidence_id"]),
                current_view_url=(
                    state.view_url(c["current_evidence_id"]) if c["current_evidence_id"] else None
                ),
            )
            for c in data.pop("citations")
        ]
        items.append(StaleItemOut(**data, citations=cites))
    return StaleOut(items=items)
