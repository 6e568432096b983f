"""What every route shares: the service state, the key check, per-session ledgers, links."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from pincite.corpus import Corpus
from pincite.generate.base import Generator
from pincite.ground.fetch import FetchLedger
from pincite.retrieve.search import SearchMode, SearchOptions
from pincite.server import keys
from pincite.server.errors import UNAUTHORIZED, ApiError

DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024
_MAX_SESSIONS = 10_000


class LedgerBook:
    """Fetch ledgers of API sessions, per workspace, oldest dropped beyond a bound.

    A session id is looked up together with the caller's tenant, so another
    workspace's session id reads exactly like one that never existed.
    """

    def __init__(self, limit: int = _MAX_SESSIONS) -> None:
        self._limit = limit
        self._ledgers: OrderedDict[tuple[str, str], FetchLedger] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, tenant: str) -> str:
        session_id = secrets.token_urlsafe(18)
        with self._lock:
            self._ledgers[(tenant, session_id)] = FetchLedger(tenant)
            while len(self._ledgers) > self._limit:
                self._ledgers.popitem(last=False)
        return session_id

    def get(self, tenant: str, session_id: str) -> FetchLedger | None:
        with self._lock:
            ledger = self._ledgers.get((tenant, session_id))
            if ledger is not None:
                self._ledgers.move_to_end((tenant, session_id))
            return ledger


@dataclass
class ServiceState:
    corpus: Corpus
    generator: Generator
    max_upload_bytes: int = DEFAULT_UPLOAD_LIMIT
    ledgers: LedgerBook = field(default_factory=LedgerBook)

    def search_options(self, mode: str | None) -> SearchOptions:
        """Options for ``mode``; the default fits the corpus (lexical without an embedder)."""
        if mode is None:
            mode = "lexical" if self.corpus.embedder is None else "hybrid"
        chosen = SearchMode.parse(mode)
        if chosen is not SearchMode.LEXICAL and self.corpus.embedder is None:
            raise ApiError(
                400,
                "unsupported_mode",
                f"{chosen.value} search is off: this server has no embedder",
            )
        return SearchOptions(mode=chosen)


def get_state(request: Request) -> ServiceState:
    state: ServiceState = request.app.state.pincite
    return state


State = Annotated[ServiceState, Depends(get_state)]

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="apiKey",
    description="A workspace key from `pincite keys create --tenant T`, sent as a bearer token.",
)


def require_tenant(
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    """The caller's workspace, from its key alone; runs before anything is read."""
    if credentials is None:
        raise ApiError(401, UNAUTHORIZED, "missing API key: send 'Authorization: Bearer <key>'")
    tenant = keys.tenant_for(state.corpus.store, credentials.credentials)
    if tenant is None:
        raise ApiError(401, UNAUTHORIZED, "invalid or revoked API key")
    return tenant


Tenant = Annotated[str, Depends(require_tenant)]


def view_url(request: Request, evidence_id: str) -> str:
    """The absolute viewer link for an evidence id."""
    return str(request.url_for("view_evidence", evidence_id=evidence_id))
