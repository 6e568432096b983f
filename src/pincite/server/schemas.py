"""Request and response bodies of the HTTP API (they are its OpenAPI schema)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_TEXT_LIMIT = 20 * 1024 * 1024
_SURROGATE = re.compile(r"[\ud800-\udfff]")
Format = Literal["txt", "md", "html"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_lone_surrogates(cls, data: Any) -> Any:
        # JSON may spell a lone surrogate ("\\ud800"); it is no character, cannot be
        # stored or echoed as UTF-8, so the request is refused here, not by a 500 later.
        if _has_surrogate(data):
            raise ValueError("strings must be valid Unicode (a lone surrogate was sent)")
        return data


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_surrogate(v) for v in value)
    return False


class IngestText(_Strict):
    text: str = Field(min_length=1, max_length=_TEXT_LIMIT, description="The document's text.")
    uri: str = Field(
        min_length=1,
        max_length=2048,
        description="Stable address of the document; the same uri again makes a new version.",
    )
    title: str | None = Field(None, max_length=1000)
    format: Format = Field("txt", description="How to parse the text: plain, Markdown or HTML.")


class UpdateText(_Strict):
    text: str = Field(min_length=1, max_length=_TEXT_LIMIT)
    title: str | None = Field(None, max_length=1000)
    format: Format = "txt"


class IngestOut(BaseModel):
    status: str = Field(description="new, updated, unchanged or restored")
    document_id: str
    hash16: str
    chunks: int
    warnings: list[str]


class DocumentOut(BaseModel):
    document_id: str
    title: str
    uri: str
    status: str
    hash16: str = Field(description="The current version's hash16 ('' when none).")
    created_at: str


class ChunkOut(BaseModel):
    evidence_id: str
    chunk_id: str
    start: int
    end: int
    pages: list[int]
    page_label: str | None
    section: list[str]
    erased: bool


class VersionOut(BaseModel):
    hash16: str
    content_hash: str
    created_at: str
    superseded: bool
    parser: str
    chunker: str
    pages: int
    chunks: list[ChunkOut] | None = None


class DocumentDetail(DocumentOut):
    versions: list[VersionOut]


class StatusOut(BaseModel):
    document_id: str
    status: str
    erased_chunks: int | None = None


class EraseRequest(_Strict):
    chunk_id: str | None = Field(None, max_length=64, description="Erase only this chunk.")


class SearchRequest(_Strict):
    question: str = Field(min_length=1, max_length=4000)
    k: int = Field(8, ge=1, le=50)
    mode: Literal["hybrid", "lexical", "dense"] | None = Field(
        None, description="Default: hybrid when the server has an embedder, else lexical."
    )


class HitOut(BaseModel):
    n: int
    evidence_id: str
    view_url: str
    document_id: str
    title: str
    uri: str
    hash16: str
    start: int
    end: int
    pages: list[int]
    section: list[str]
    score: float
    text: str


class SearchOut(BaseModel):
    question: str
    mode: str
    hits: list[HitOut]
    # Fraction of the workspace's passages with a vector (below 1 while an
    # ingest is still embedding: those were searched lexically only); null
    # when no dense search ran.
    dense_coverage: float | None = None


class AnswerRequest(_Strict):
    question: str = Field(min_length=1, max_length=4000)
    k: int = Field(6, ge=1, le=20)


class SourceOut(BaseModel):
    number: int
    title: str
    uri: str
    hash16: str
    superseded: bool
    view_url: str
    evidence_ids: list[str]
    view_urls: list[str]


class AnswerOut(BaseModel):
    question: str
    outcome: Literal["answered", "refused"]
    message: str
    text: str = Field(description="Claims with [n] markers and numbered sources as view links.")
    sources: list[SourceOut]
    claims: list[dict[str, Any]] = []
    citations: list[dict[str, Any]] = []
    reasons: list[str]
    searched: list[str]


class SessionOut(BaseModel):
    session_id: str


class FetchRequest(_Strict):
    ids: list[str] = Field(min_length=1, max_length=100)
    max_chars: int | None = Field(None, ge=1, le=1_000_000)
    session: str | None = Field(
        None, max_length=64, description="Record complete reads in this session's ledger."
    )


class OutcomeOut(BaseModel):
    id: str
    status: str
    text: str
    superseded: bool
    current_hash16: str | None = None
    document_id: str | None
    hash16: str | None
    start: int | None
    end: int | None
    title: str | None
    uri: str | None
    pages: list[int]
    page_label: str | None
    section: list[str]
    view_url: str | None


class FetchOut(BaseModel):
    outcomes: list[OutcomeOut]


class CheckRequest(_Strict):
    text: str | None = Field(None, max_length=1_000_000, description="An answer citing ids.")
    ids: list[str] | None = Field(None, max_length=1000)
    session: str | None = Field(None, max_length=64, description="A session that fetched.")
    fetched: list[str] | None = Field(
        None,
        max_length=1000,
        description="Without a session: the ids the caller read; re-read now in its workspace.",
    )


class VerdictOut(BaseModel):
    id: str
    verdict: Literal["valid", "malformed", "unfetched"]


class CheckOut(BaseModel):
    all_valid: bool
    verdicts: list[VerdictOut]


class ResolveRequest(_Strict):
    evidence_id: str = Field(min_length=1, max_length=300)


class ResolveOut(BaseModel):
    evidence_id: str
    status: str
    text: str | None
    erased: bool
    deleted: bool
    superseded: bool
    current_hash16: str | None
    current_evidence_id: str | None = Field(
        description="The same passage in the current version, when it can be found."
    )
    title: str | None
    uri: str | None
    view_url: str


class JobError(BaseModel):
    code: str
    message: str


class JobOut(BaseModel):
    job_id: str
    status: str = Field(description="queued, running, done or failed")
    url: str = Field(description="Where to ask how the job went.")
    result: IngestOut | None = None
    error: JobError | None = None


class ConversationCreate(_Strict):
    title: str = Field("", max_length=200, description="A label for lists (may be empty).")


class ConversationOut(BaseModel):
    conversation_id: str
    title: str
    created_at: str
    updated_at: str
    turn_count: int
    url: str = Field(description="This conversation: GET it with its turns, DELETE it.")


class ConversationList(BaseModel):
    conversations: list[ConversationOut]


class TurnRequest(_Strict):
    question: str = Field(min_length=1, max_length=4000)
    k: int = Field(6, ge=1, le=20)


class TurnOut(BaseModel):
    seq: int = Field(description="0-based position in the conversation.")
    question: str = Field(description="The turn as it was asked.")
    standalone: str = Field(description="The standalone question that was searched.")
    outcome: Literal["answered", "refused"]
    message: str
    summary: str = Field(description="The running summary after this turn.")
    created_at: str
    claims: list[dict[str, Any]] = []
    citations: list[dict[str, Any]] = []
    reasons: list[str] = []
    searched: list[str] = []
    rewrite: str = Field(
        "",
        description="What made the standalone question: asked (a first turn), model (the "
        "generator's condense call) or offline (the deterministic rewrite); empty for turns "
        "stored before this was recorded.",
    )
    rewrite_calls: int = Field(0, description="Model calls the rewrite made (0 or 1).")


class ConversationDetail(ConversationOut):
    turns: list[TurnOut]


class ConversationAnswerOut(AnswerOut):
    """An answer to one turn; ``question`` is the standalone question that was searched."""

    conversation_id: str
    seq: int
    asked: str = Field(description="The turn as it was asked.")
    standalone: str
    rewrite: str = Field(
        description="What made the standalone question: asked (a first turn), model (the "
        "generator's condense call) or offline (the deterministic rewrite)."
    )
    rewrite_calls: int = Field(description="Model calls the rewrite made (0 or 1).")


class StaleCitationOut(BaseModel):
    evidence_id: str
    state: Literal["superseded", "deleted", "erased", "missing"]
    document_id: str | None
    title: str | None
    current_hash16: str | None
    reanchor: Literal["unchanged", "changed", "removed"] | None = Field(
        description="For a superseded citation: where its text went in the current version."
    )
    similarity: float | None
    whitespace_only: bool | None
    diff: str = Field(description="Word diff: [-removed-] {+added+}; empty unless changed.")
    current_evidence_id: str | None = Field(
        description="The re-anchored span in the current version."
    )
    view_url: str
    current_view_url: str | None


class StaleItemOut(BaseModel):
    kind: Literal["turn", "memory"]
    conversation_id: str | None
    seq: int | None
    memory_id: str | None
    text: str = Field(description="The turn's question, or the memory's text.")
    citations: list[StaleCitationOut]


class StaleOut(BaseModel):
    items: list[StaleItemOut]
