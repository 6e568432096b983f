"""Ingest jobs: uploads answer 202 with a job; ``GET /v1/jobs/{id}`` says how it went."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from dataclasses import replace

from fastapi import APIRouter, Response

from pincite.ingest.pipeline import IngestReport, IngestStatus
from pincite.server.deps import Service, State, Tenant
from pincite.server.errors import ERROR_RESPONSES, ApiError, ErrorBody, not_found
from pincite.server.jobs import IngestJob
from pincite.server.schemas import IngestOut, JobError, JobOut

log = logging.getLogger("pincite.server")
router = APIRouter(prefix="/v1/jobs", tags=["documents"], responses=ERROR_RESPONSES)


def ingest_out(report: IngestReport) -> IngestOut:
    if report.status is IngestStatus.FAILED or report.document_id is None:
        raise ApiError(400, "ingest_failed", report.error or "the document could not be ingested")
    return IngestOut(
        status=report.status.value,
        document_id=report.document_id,
        hash16=report.hash16 or "",
        chunks=report.chunks,
        warnings=list(report.warnings),
    )


def start(service: Service, job: IngestJob) -> tuple[str, Future[IngestReport]]:
    """Queue ``job``; its record in the service state follows the job to its end."""
    job_id = service.state.create_job(job.tenant)
    future = service.jobs.submit(job)
    service.state.update_job(job_id, "running")

    def finished(done: Future[IngestReport]) -> None:
        try:
            out = ingest_out(done.result())
            service.state.update_job(job_id, "done", {"result": out.model_dump()})
        except ApiError as exc:
            error = {"code": exc.code, "message": exc.message}
            service.state.update_job(job_id, "failed", {"error": error})
        except Exception:  # a crashed job process: say so, keep the details in the log
            log.exception("ingest job %s failed", job_id)
            error = {"code": "internal_error", "message": "the ingest job failed; see the log"}
            service.state.update_job(job_id, "failed", {"error": error})

    future.add_done_callback(finished)
    return job_id, future


def accepted(service: Service, job_id: str, response: Response) -> JobOut:
    response.status_code = 202
    url = service.link(f"/v1/jobs/{job_id}")
    response.headers["Location"] = url
    return JobOut(job_id=job_id, status="running", url=url)


async def wait(service: Service, job: IngestJob, response: Response) -> IngestOut:
    """Run ``job`` and answer with its outcome (the synchronous text routes).

    These answer once the vectors are in too, so what they ingested is
    searchable densely as soon as they answer; uploads (202) are searchable by
    their words when their job is done, and densely when embedding catches up.
    """
    _, future = start(service, replace(job, embed=True))
    out = ingest_out(await asyncio.wrap_future(future))
    if out.status == IngestStatus.NEW.value:
        response.status_code = 201
    return out


@router.get(
    "/{job_id}",
    responses={404: {"model": ErrorBody, "description": "No such job in this workspace"}},
)
def job_status(job_id: str, tenant: Tenant, state: State) -> JobOut:
    """An ingest job: ``running``, ``done`` (with the ingest result) or ``failed`` (with why)."""
    job = state.state.job(tenant, job_id)
    if job is None:
        raise not_found("job")
    data = job.result or {}
    result = IngestOut(**data["result"]) if "result" in data else None
    error = JobError(**data["error"]) if "error" in data else None
    url = state.link(f"/v1/jobs/{job_id}")
    return JobOut(job_id=job_id, status=job.status, url=url, result=result, error=error)
