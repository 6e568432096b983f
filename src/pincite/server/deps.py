"""What every route shares: the service, the caller's tenant, links to the viewer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from pincite.corpus import Corpus
from pincite.generate.base import Generator
from pincite.retrieve.search import SearchMode, SearchOptions
from pincite.server import keys
from pincite.server.errors import UNAUTHORIZED, ApiError
from pincite.server.guard import TENANT_STATE
from pincite.server.jobs import JobRunner
from pincite.server.state import ServiceState

DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024


@dataclass
class Service:
    corpus: Corpus
    generator: Generator
    state: ServiceState
    jobs: JobRunner
    # Links are built on this, never on the request's Host header ('' = root-relative).
    public_url: str = ""
    max_upload_bytes: int = DEFAULT_UPLOAD_LIMIT

    def search_options(self, mode: str | None) -> SearchOptions:
        """Options for ``mode``; the default fits the corpus (lexical without an embedder)."""
        chosen = self.corpus.default_mode if mode is None else SearchMode.parse(mode)
        if chosen is not SearchMode.LEXICAL and self.corpus.embedder is None:
            raise ApiError(
                400,
                "unsupported_mode",
                f"{chosen.value} search is off: this server has no embedder",
            )
        return SearchOptions(mode=chosen)

    def link(self, path: str) -> str:
        """``path`` (starting with '/') under the public base URL."""
        return self.public_url + path

    def view_url(self, evidence_id: str) -> str:
        """The viewer link for an evidence id."""
        return self.link("/view/" + quote(evidence_id, safe=":"))

    @property
    def secure(self) -> bool:
        return self.public_url.startswith("https://")


def get_service(request: Request) -> Service:
    service: Service = request.app.state.pincite
    return service


State = Annotated[Service, Depends(get_service)]

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="apiKey",
    description="A workspace key from `pincite keys create --tenant T`, sent as a bearer token.",
)


def require_tenant(
    request: Request,
    service: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    """The caller's workspace, from its key alone (checked by the guard before the body)."""
    checked = getattr(request.state, TENANT_STATE, None)
    if isinstance(checked, str):
        return checked
    if credentials is None:
        raise ApiError(401, UNAUTHORIZED, "missing API key: send 'Authorization: Bearer <key>'")
    tenant = keys.tenant_for(service.corpus.store, credentials.credentials)
    if tenant is None:
        raise ApiError(401, UNAUTHORIZED, "invalid or revoked API key")
    return tenant


Tenant = Annotated[str, Depends(require_tenant)]
