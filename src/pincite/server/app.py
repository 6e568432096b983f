"""The ASGI application: routes, the key check, JSON errors, and the upload limit."""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel

from pincite.corpus import Corpus
from pincite.generate.base import Generator
from pincite.generate.extractive import ExtractiveGenerator
from pincite.server import errors, routes_documents, routes_query, routes_view
from pincite.server.deps import DEFAULT_UPLOAD_LIMIT, ServiceState

DESCRIPTION = """\
Answers over a workspace's own documents, every claim pinned to the exact characters
of the exact document version it rests on.

Send a workspace key from `pincite keys create --tenant T` as `Authorization: Bearer <key>`;
the workspace comes from the key, never from the request. Errors are
`{"error": {"code": "...", "message": "..."}}`; a resource that does not exist and one
of another workspace get the same 404.
"""


class Health(BaseModel):
    status: str


def create_app(
    corpus: Corpus,
    *,
    generator: Generator | None = None,
    max_upload_bytes: int = DEFAULT_UPLOAD_LIMIT,
) -> FastAPI:
    """An app serving ``corpus``; answers with ``generator`` (offline extractive by default).

    The corpus's store is shared by the worker threads that run the routes.
    """
    if max_upload_bytes < 1:
        raise ValueError(f"max_upload_bytes must be >= 1, got {max_upload_bytes}")
    app = FastAPI(title="pincite", version="1", description=DESCRIPTION)
    app.state.pincite = ServiceState(
        corpus=corpus,
        generator=generator or ExtractiveGenerator(corpus.embedder),
        max_upload_bytes=max_upload_bytes,
    )
    errors.install(app)
    app.include_router(routes_documents.router)
    app.include_router(routes_query.router)
    app.include_router(routes_view.router)

    @app.get("/healthz", tags=["service"])
    def healthz() -> Health:
        """Liveness; needs no key and reads nothing."""
        return Health(status="ok")

    # Added last = outermost: a too-large body is refused before anything else runs,
    # and nothing that escapes a route reaches the client as a traceback.
    app.add_middleware(errors.BodyLimit, limit=max_upload_bytes)
    app.add_middleware(errors.CatchAll)
    return app
