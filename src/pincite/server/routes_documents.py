"""Documents: ingest (JSON, or upload as a job), update, list, versions, delete, purge, erase."""

from __future__ import annotations

from typing import Annotated

import anyio
from fastapi import APIRouter, File, Form, Response, UploadFile

from pincite.corpus import Corpus
from pincite.errors import InputError
from pincite.ingest.parse import SUPPORTED_SUFFIXES
from pincite.model import Document, Version
from pincite.server import routes_jobs
from pincite.server.deps import Service, State, Tenant
from pincite.server.errors import ERROR_RESPONSES, ErrorBody, Responses
from pincite.server.jobs import IngestJob
from pincite.server.schemas import (
    ChunkOut,
    DocumentDetail,
    DocumentOut,
    EraseRequest,
    IngestOut,
    IngestText,
    JobOut,
    StatusOut,
    UpdateText,
    VersionOut,
)

router = APIRouter(prefix="/v1/documents", tags=["documents"], responses=ERROR_RESPONSES)
_NOT_FOUND: Responses = {
    404: {"model": ErrorBody, "description": "No such document in this workspace"}
}
_ACCEPTED: Responses = {202: {"model": JobOut, "description": "Queued; follow the job's url"}}
_TOO_LARGE: Responses = {
    413: {"model": ErrorBody, "description": "The body exceeds the upload limit"}
}


def _document_out(corpus: Corpus, tenant: str, doc: Document) -> DocumentOut:
    current = corpus.current_hash(doc.document_id, tenant=tenant) or ""
    return DocumentOut(
        document_id=doc.document_id,
        title=doc.title,
        uri=doc.uri,
        status=doc.status.value,
        hash16=current[:16],
        created_at=doc.created_at,
    )


def _version_out(corpus: Corpus, version: Version, with_chunks: bool) -> VersionOut:
    chunks = None
    if with_chunks:
        chunks = [
            ChunkOut(
                evidence_id=c.evidence_id,
                chunk_id=c.chunk_id,
                start=c.start,
                end=c.end,
                pages=list(c.pages),
                page_label=c.page_label,
                section=list(c.section),
                erased=c.erased,
            )
            for c in corpus.chunks(version)
        ]
    return VersionOut(
        hash16=version.hash16,
        content_hash=version.content_hash,
        created_at=version.created_at,
        superseded=version.superseded,
        parser=version.parser,
        chunker=version.chunker,
        pages=version.page_count,
        chunks=chunks,
    )


def _upload_bytes(file: UploadFile) -> tuple[bytes, str]:
    name = (file.filename or "").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix not in SUPPORTED_SUFFIXES:
        kinds = ", ".join(sorted(SUPPORTED_SUFFIXES))
        raise InputError(f"the upload needs a file name ending in one of: {kinds}")
    return file.file.read(), name


@router.post("", status_code=200, responses={201: {"model": IngestOut}, **_TOO_LARGE})
async def ingest_text(
    body: IngestText, tenant: Tenant, state: State, response: Response
) -> IngestOut:
    """Ingest text and wait for it; the same ``uri`` again stores a new version (``updated``)."""
    job = IngestJob(
        body.text.encode("utf-8"), f"inline.{body.format}", body.uri, tenant, body.title
    )
    return await routes_jobs.wait(state, job, response)


@router.post("/upload", status_code=202, responses={**_ACCEPTED, **_TOO_LARGE})
def ingest_upload(
    file: Annotated[UploadFile, File(description="A .txt, .md, .html or .pdf file.")],
    tenant: Tenant,
    state: State,
    response: Response,
    uri: Annotated[str | None, Form(max_length=2048)] = None,
    title: Annotated[str | None, Form(max_length=1000)] = None,
) -> JobOut:
    """Queue an uploaded file for ingest (202 + a job); ``uri`` defaults to ``upload:<name>``."""
    data, name = _upload_bytes(file)
    job_id, _ = routes_jobs.start(
        state, IngestJob(data, name, uri or f"upload:{name}", tenant, title)
    )
    return routes_jobs.accepted(state, job_id, response)


@router.get("")
def list_documents(tenant: Tenant, state: State) -> list[DocumentOut]:
    """The workspace's documents (live and soft-deleted) with their current version."""
    return [_document_out(state.corpus, tenant, d) for d in state.corpus.documents(tenant=tenant)]


@router.get("/{document_id}", responses=_NOT_FOUND)
def get_document(
    document_id: str, tenant: Tenant, state: State, chunks: bool = False
) -> DocumentDetail:
    """One document and all its versions, oldest first (with chunk ids if ``chunks``)."""
    corpus = state.corpus
    doc = corpus.document(document_id, tenant=tenant)
    versions = [
        _version_out(corpus, v, chunks) for v in corpus.versions(document_id, tenant=tenant)
    ]
    return DocumentDetail(**_document_out(corpus, tenant, doc).model_dump(), versions=versions)


@router.get("/{document_id}/versions", responses=_NOT_FOUND)
def list_versions(
    document_id: str, tenant: Tenant, state: State, chunks: bool = True
) -> list[VersionOut]:
    """All versions of a document, oldest first, each with its chunks' evidence ids."""
    corpus = state.corpus
    return [_version_out(corpus, v, chunks) for v in corpus.versions(document_id, tenant=tenant)]


@router.put("/{document_id}", responses={**_NOT_FOUND, 201: {"model": IngestOut}, **_TOO_LARGE})
async def update_text(
    document_id: str, body: UpdateText, tenant: Tenant, state: State, response: Response
) -> IngestOut:
    """Store new text for a document as its next version, and wait for it."""
    doc = await anyio.to_thread.run_sync(_document, state, tenant, document_id)
    job = IngestJob(
        body.text.encode("utf-8"), f"inline.{body.format}", doc.uri, tenant, body.title or doc.title
    )
    return await routes_jobs.wait(state, job, response)


@router.put(
    "/{document_id}/upload", status_code=202, responses={**_NOT_FOUND, **_ACCEPTED, **_TOO_LARGE}
)
def update_upload(
    document_id: str,
    file: Annotated[UploadFile, File()],
    tenant: Tenant,
    state: State,
    response: Response,
    title: Annotated[str | None, Form(max_length=1000)] = None,
) -> JobOut:
    """Queue an uploaded file as the document's next version (202 + a job)."""
    doc = _document(state, tenant, document_id)
    data, name = _upload_bytes(file)
    job_id, _ = routes_jobs.start(state, IngestJob(data, name, doc.uri, tenant, title or doc.title))
    return routes_jobs.accepted(state, job_id, response)


def _document(state: Service, tenant: str, document_id: str) -> Document:
    return state.corpus.document(document_id, tenant=tenant)


@router.delete("/{document_id}", responses=_NOT_FOUND)
def delete_document(document_id: str, tenant: Tenant, state: State) -> StatusOut:
    """Soft delete: text hidden, evidence ids resolve as ``deleted``; re-ingest restores."""
    state.corpus.delete(document_id, tenant=tenant)
    return StatusOut(document_id=document_id, status="deleted")


@router.post("/{document_id}/purge", responses=_NOT_FOUND)
def purge_document(document_id: str, tenant: Tenant, state: State) -> StatusOut:
    """Remove the document, every version, chunk, vector and index row."""
    state.corpus.purge(document_id, tenant=tenant)
    return StatusOut(document_id=document_id, status="purged")


@router.post("/{document_id}/erase", responses=_NOT_FOUND)
def erase_document(
    document_id: str, tenant: Tenant, state: State, body: EraseRequest | None = None
) -> StatusOut:
    """Right to erasure for the document or one chunk: text gone, tombstones stay."""
    chunk_id = body.chunk_id if body is not None else None
    n = state.corpus.erase(document_id, tenant=tenant, chunk_id=chunk_id)
    return StatusOut(document_id=document_id, status="erased", erased_chunks=n)
