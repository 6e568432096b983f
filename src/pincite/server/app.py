"""The ASGI application: routes, the request guard, JSON errors, and shutdown."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI
from pydantic import BaseModel

from pincite.corpus import Corpus
from pincite.generate.base import Generator
from pincite.server import (
    errors,
    keys,
    routes_conversations,
    routes_documents,
    routes_jobs,
    routes_query,
    routes_view,
    routes_workspace,
    workspace,
)
from pincite.server.deps import DEFAULT_UPLOAD_LIMIT, Service
from pincite.server.guard import Guard
from pincite.server.jobs import JobRunner, ThreadRunner
from pincite.server.state import ServiceState

DESCRIPTION = """\
Answers over a workspace's own documents, every claim pinned to the exact characters
of the exact document version it rests on.

Send a workspace key from `pincite keys create --tenant T` as `Authorization: Bearer <key>`;
the workspace comes from the key, never from the request. Errors are
`{"error": {"code": "...", "message": "..."}}`; a resource that does not exist and one
of another workspace get the same 404. Uploads are ingested as jobs: `202` with a job
whose `url` says how it went; JSON text ingests wait for their job and answer directly.
"""


class Health(BaseModel):
    status: str


def create_app(
    corpus: Corpus,
    *,
    generator: Generator | None = None,
    max_upload_bytes: int = DEFAULT_UPLOAD_LIMIT,
    public_url: str = "",
    state: ServiceState | None = None,
    jobs: JobRunner | None = None,
    close_corpus: bool = False,
    threads: int | None = None,
) -> FastAPI:
    """An app serving ``corpus``; answers with ``generator`` (offline extractive by default).

    Links (viewer, jobs) are built on ``public_url`` (e.g. ``https://docs.example``;
    '' gives root-relative links), never on the request's Host header. ``state``
    holds sessions and jobs (in memory unless given: share one file between
    worker processes); ``jobs`` runs ingests (a background thread unless given).
    With ``close_corpus`` the app closes the corpus when it shuts down. ``threads``
    caps the requests whose work runs at once (the others wait their turn, first
    come first served); ``None`` keeps anyio's default of 40.
    """
    if max_upload_bytes < 1:
        raise ValueError(f"max_upload_bytes must be >= 1, got {max_upload_bytes}")
    if generator is not None:
        corpus.generator = generator
    service = Service(
        corpus=corpus,
        generator=corpus.generator,
        state=state or ServiceState(),
        jobs=jobs or ThreadRunner(corpus),
        public_url=public_url.rstrip("/"),
        max_upload_bytes=max_upload_bytes,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if threads is not None:
            # Sync routes and the guard's key lookups share this limiter. A few at a
            # time finish in turn; forty CPU-bound threads would share the GIL and the
            # cores until all of them were slow.
            anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        yield
        service.jobs.close()
        service.state.close()
        if close_corpus:
            corpus.close()  # the store checkpoints its log on close

    app = FastAPI(title="pincite", version="1", description=DESCRIPTION, lifespan=lifespan)
    app.state.pincite = service
    errors.install(app)
    app.include_router(routes_documents.router)
    app.include_router(routes_jobs.router)
    app.include_router(routes_query.router)
    app.include_router(routes_view.router)
    app.include_router(routes_conversations.router)
    app.include_router(routes_workspace.router)
    app.include_router(workspace.router)

    @app.get("/healthz", tags=["service"])
    def healthz() -> Health:
        """Liveness; needs no key and reads nothing."""
        return Health(status="ok")

    # Inside the guard: the session's tenant is set after the guard has passed the path.
    app.add_middleware(workspace.SessionGate, service=service)
    # Added last = outermost: no body byte is read before the key is checked, and
    # nothing that escapes a route reaches the client as a traceback.
    app.add_middleware(
        Guard, tenant_for=lambda key: keys.tenant_for(corpus.store, key), limit=max_upload_bytes
    )
    app.add_middleware(errors.CatchAll)
    return app
