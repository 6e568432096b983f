"""``GET /view/{evidence_id}``: the evidence viewer, authorized when the link is followed.

A reader proves membership with the bearer header or, in a browser, with a
key typed into the sign-in form (kept in an HttpOnly cookie scoped to
``/view``). Without a valid key the page says access is limited and shows
neither the title nor the text.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials

from pincite import ids
from pincite.server import evidence, keys
from pincite.server.deps import State, bearer, view_url
from pincite.server.viewer import HEADERS, evidence_page, limited_page, message_page

router = APIRouter(prefix="/view", tags=["viewer"])
KEY_COOKIE = "pincite_key"
CSRF_COOKIE = "pincite_csrf"
_HTML: dict[str, Any] = {"content": {"text/html": {}}}


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=HEADERS)


def _cookie_path(request: Request) -> str:
    return str(request.scope.get("root_path", "")) + "/view"


def _limited(request: Request, evidence_id: str, *, rejected: bool) -> HTMLResponse:
    csrf = secrets.token_urlsafe(18)
    page = limited_page(str(request.url_for("view_login")), evidence_id, csrf, rejected=rejected)
    response = _html(page, 401)
    response.headers["WWW-Authenticate"] = "Bearer"
    response.set_cookie(
        CSRF_COOKIE,
        csrf,
        httponly=True,
        samesite="strict",
        path=_cookie_path(request),
        secure=request.url.scheme == "https",
    )
    return response


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
    key = credentials.credentials if credentials is not None else request.cookies.get(KEY_COOKIE)
    tenant = keys.tenant_for(state.corpus.store, key) if key else None
    if tenant is None:
        return _limited(request, evidence_id, rejected=key is not None)
    if not ids.is_canonical(evidence_id):
        return _html(message_page("Not an evidence id", "This link does not name a passage."), 400)
    found = evidence.load(state.corpus.store, tenant, evidence_id)
    if found is None:
        return _html(message_page("Evidence not found", "No such passage in your workspace."), 404)
    return _html(evidence_page(found, lambda other: view_url(request, other)))


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
    """Sign in from the limited page; the key is kept in an HttpOnly cookie."""
    expected = request.cookies.get(CSRF_COOKIE, "")
    if not expected or not secrets.compare_digest(expected.encode(), csrf.encode()):
        page = message_page("Sign-in expired", "Open the evidence link again to sign in.")
        return _html(page, 403)
    if not ids.is_canonical(evidence_id):
        evidence_id = ""
    if keys.tenant_for(state.corpus.store, key) is None:
        return _limited(request, evidence_id, rejected=True)
    if evidence_id:
        response: Response = RedirectResponse(view_url(request, evidence_id), status_code=303)
    else:
        response = _html(message_page("Signed in", "Open an evidence link to read it."))
    secure = request.url.scheme == "https"
    path = _cookie_path(request)
    response.set_cookie(KEY_COOKIE, key, httponly=True, samesite="lax", path=path, secure=secure)
    response.delete_cookie(CSRF_COOKIE, path=path)
    return response


@router.post("/logout", name="view_logout", response_class=HTMLResponse, responses={200: _HTML})
def logout(request: Request) -> Response:
    """Forget the key this browser signed in with."""
    response = _html(message_page("Signed out", "This browser no longer holds a key."))
    response.delete_cookie(KEY_COOKIE, path=_cookie_path(request))
    return response
