"""``GET /view/{evidence_id}``: the evidence viewer, authorized when the link is followed.

A reader proves membership with the bearer header or, in a browser, by typing
a key into the sign-in form. The browser then holds a random viewer session id
(HttpOnly, SameSite=Strict, Secure over TLS, expiring), never the key; the
server keeps the session's digest and the key's digest, so signing out ends the
session and revoking the key ends every session it opened. Without either, the
page says access is limited and shows neither the title nor the text.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials

from pincite import ids
from pincite.server import evidence, keys
from pincite.server.deps import Service, State, bearer
from pincite.server.state import VIEW_SESSION_SECONDS
from pincite.server.viewer import HEADERS, evidence_page, limited_page, message_page

router = APIRouter(prefix="/view", tags=["viewer"])
SESSION_COOKIE = "pincite_session"
CSRF_COOKIE = "pincite_csrf"
_HTML: dict[str, Any] = {"content": {"text/html": {}}}


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=HEADERS)


def _cookie(service: Service, request: Request, response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=VIEW_SESSION_SECONDS,
        path=_cookie_path(service, request),
        httponly=True,
        samesite="strict",
        secure=service.secure or request.url.scheme == "https",
    )


def _cookie_path(service: Service, request: Request) -> str:
    if service.public_url:
        return urlsplit(service.public_url).path.rstrip("/") + "/view"
    return str(request.scope.get("root_path", "")) + "/view"


def _limited(service: Service, request: Request, evidence_id: str, *, rejected: bool) -> Response:
    csrf = secrets.token_urlsafe(18)
    page = limited_page(service.link("/view/login"), evidence_id, csrf, rejected=rejected)
    response = _html(page, 401)
    response.headers["WWW-Authenticate"] = "Bearer"
    _cookie(service, request, response, CSRF_COOKIE, csrf)
    return response


def _reader(
    service: Service, request: Request, credentials: HTTPAuthorizationCredentials | None
) -> str | None:
    """The reader's tenant: from a bearer key, or a live session whose key is still live."""
    store = service.corpus.store
    if credentials is not None:
        return keys.tenant_for(store, credentials.credentials)
    token = request.cookies.get(SESSION_COOKIE)
    session = service.state.view_session(token) if token else None
    if session is None:
        return None
    if keys.tenant_for_digest(store, session.key_digest) != session.tenant:
        assert token is not None
        service.state.end_view_session(token)  # its key was revoked: the session ends too
        return None
    return session.tenant


@router.get(
    "/{evidence_id}",
    name="view_evidence",
    response_class=HTMLResponse,
    responses={200: _HTML, 400: _HTML, 401: _HTML, 404: _HTML},
)
def view_evidence(
    evidence_id: str,
    request: Request,
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Response:
    """An HTML page: the cited span highlighted in its version's text, with its locator."""
    tenant = _reader(state, request, credentials)
    if tenant is None:
        return _limited(state, request, evidence_id, rejected=credentials is not None)
    if not ids.is_canonical(evidence_id):
        return _html(message_page("Not an evidence id", "This link does not name a passage."), 400)
    found = evidence.load(state.corpus.store, tenant, evidence_id)
    if found is None:
        return _html(message_page("Evidence not found", "No such passage in your workspace."), 404)
    return _html(evidence_page(found, state.view_url))


@router.post(
    "/login",
    name="view_login",
    response_class=HTMLResponse,
    responses={303: {"description": "Signed in; back to the evidence"}, 401: _HTML, 403: _HTML},
)
def login(
    request: Request,
    state: State,
    key: Annotated[str, Form(max_length=200)],
    evidence_id: Annotated[str, Form(max_length=300)],
    csrf: Annotated[str, Form(max_length=100)],
) -> Response:
    """Sign in from the limited page: the browser gets a session id, never the key."""
    expected = request.cookies.get(CSRF_COOKIE, "")
    if not expected or not secrets.compare_digest(expected.encode(), csrf.encode()):
        page = message_page("Sign-in expired", "Open the evidence link again to sign in.")
        return _html(page, 403)
    if not ids.is_canonical(evidence_id):
        evidence_id = ""
    tenant = keys.tenant_for(state.corpus.store, key)
    if tenant is None:
        return _limited(state, request, evidence_id, rejected=True)
    if evidence_id:
        response: Response = RedirectResponse(state.view_url(evidence_id), status_code=303)
    else:
        response = _html(message_page("Signed in", "Open an evidence link to read it."))
    session = state.state.open_view_session(tenant, keys.key_hash(key))
    _cookie(state, request, response, SESSION_COOKIE, session)
    response.delete_cookie(CSRF_COOKIE, path=_cookie_path(state, request))
    return response


@router.post("/logout", name="view_logout", response_class=HTMLResponse, responses={200: _HTML})
def logout(request: Request, state: State) -> Response:
    """End this browser's viewer session, on the server too."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        state.state.end_view_session(token)
    response = _html(message_page("Signed out", "This browser's session has ended."))
    response.delete_cookie(SESSION_COOKIE, path=_cookie_path(state, request))
    return response
