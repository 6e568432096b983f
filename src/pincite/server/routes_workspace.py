"""What the web workspace needs beyond the API: a passage in its version's text, and studio.

Both are ordinary ``/v1`` routes (a bearer key works as well as the workspace's
session), so an agent gets the same structured studio results a person sees.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from pincite import ids
from pincite.ground.fetch import FetchStatus
from pincite.server import evidence
from pincite.server.deps import State, Tenant
from pincite.server.errors import ERROR_RESPONSES, ErrorBody, Responses, not_found
from pincite.server.schemas import _Strict
from pincite.studio import StudioAction, run_studio

# Characters of the version's text sent on each side of the cited span.
CONTEXT_CHARS = 4000

router = APIRouter(prefix="/v1", responses=ERROR_RESPONSES)
_NOT_FOUND: Responses = {404: {"model": ErrorBody, "description": "Not found in this workspace"}}


class PassageOut(BaseModel):
    evidence_id: str
    status: str = Field(description="ok, partial, truncated, erased or deleted")
    document_id: str
    title: str
    uri: str
    hash16: str
    pages: list[int]
    page_label: str | None
    section: list[str]
    before: str = Field(description="The version's text just before the cited span.")
    cited: str = Field(description="Exactly the cited characters ('' when not readable).")
    after: str = Field(description="The version's text just after the cited span.")
    superseded: bool
    current_hash16: str | None = None
    current_evidence_id: str | None = None
    view_url: str


class StudioRequest(_Strict):
    action: Literal["summary", "faq", "key_terms", "pros_cons", "contract"]


class StudioItemOut(BaseModel):
    label: str
    text: str
    section: list[str]
    verdict: str
    evidence_ids: list[str]


class StudioOut(BaseModel):
    action: str
    document_id: str
    title: str
    hash16: str
    items: list[StudioItemOut]
    disclaimer: str = Field(description="Appended by pincite for legal-adjacent actions.")


@router.get("/evidence/{evidence_id}/context", tags=["evidence"], responses=_NOT_FOUND)
def passage(evidence_id: str, tenant: Tenant, state: State) -> PassageOut:
    """The cited span inside its own version's text, with page, section and the current version."""
    ids.decode(evidence_id)
    found = evidence.load(state.corpus.store, tenant, evidence_id)
    if found is None:
        raise not_found("evidence")
    o = found.outcome
    before = after = ""
    if found.readable and found.version is not None and o.start is not None and o.end is not None:
        text = found.version.text
        before = text[max(0, o.start - CONTEXT_CHARS) : o.start]
        after = text[o.end : o.end + CONTEXT_CHARS]
    current = found.counterpart
    return PassageOut(
        evidence_id=o.id,
        status=o.status.value,
        document_id=o.document_id or "",
        title=o.title or "",
        uri=o.uri or "",
        hash16=o.hash16 or "",
        pages=list(o.pages),
        page_label=o.page_label,
        section=list(o.section),
        before=before,
        cited=found.cited,
        after=after,
        superseded=o.superseded and o.status is not FetchStatus.DELETED,
        current_hash16=o.current_hash16,
        current_evidence_id=current.evidence_id if current is not None else None,
        view_url=state.view_url(o.id),
    )


@router.post("/documents/{document_id}/studio", tags=["documents"], responses=_NOT_FOUND)
def studio(document_id: str, body: StudioRequest, tenant: Tenant, state: State) -> StudioOut:
    """A studio action on the document's current version: every item cited to exact spans,
    grounded and support-checked like an answer; ``contract`` carries a disclaimer."""
    result = run_studio(
        state.corpus.store,
        state.corpus.support,
        document_id,
        StudioAction(body.action),
        tenant=tenant,
        generator=state.generator,
    )
    data: dict[str, Any] = result.as_dict()
    return StudioOut(**data)
