"""The web workspace at ``/``: sign in with a key, then the API through a session cookie.

The page is static HTML, CSS and one script shipped in the package
(``server/static/``), served under a Content-Security-Policy that allows only
this origin's own script and style: no inline script, no CDN, no font. The
script builds every element with ``textContent``, so nothing a document or a
model wrote is ever parsed as markup.

Signing in trades the key for a random server-side session (the viewer's
mechanism in ``state.py``): the browser holds an HttpOnly, SameSite=Strict
cookie and never the key. The script then calls the ordinary API under
``/ui/v1/...``: :class:`SessionGate` turns the cookie into the caller's tenant,
exactly as the guard turns a bearer key into one, and hands the request to the
``/v1/...`` route. Every route of the API is thereby the workspace's too,
without a second implementation. Requests that change something, sign-in and
sign-out included, must also send ``X-Pincite-Request: 1``, which no
cross-site form can (defence in depth next to SameSite=Strict, and the guard
against another site signing a browser into its own workspace).
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated
from urllib.parse import urlsplit

import anyio
from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.types import ASGIApp, Receive, Scope, Send

from pincite.server import keys
from pincite.server.deps import Service, State
from pincite.server.errors import UNAUTHORIZED, ApiError, error_response
from pincite.server.guard import LOGIN_BODY_LIMIT, TENANT_STATE
from pincite.server.state import VIEW_SESSION_SECONDS, ServiceState

COOKIE = "pincite_workspace"
HEADER = "x-pincite-request"
PREFIX = "/ui/v1/"
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_STATIC = {
    "workspace.js": "text/javascript; charset=utf-8",
    "workspace.css": "text/css; charset=utf-8",
}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

router = APIRouter(tags=["workspace"], include_in_schema=False)


def _asset(name: str) -> str:
    return resources.files("pincite.server").joinpath("static", name).read_text("utf-8")


class SignIn(BaseModel):
    key: str


class Me(BaseModel):
    workspace: str


@router.get("/")
def index() -> Response:
    """The workspace page; it asks ``/ui/me`` whether to show the sign-in form."""
    return Response(_asset("workspace.html"), media_type="text/html", headers=HEADERS)


@router.get("/static/{name}")
def static(name: str) -> Response:
    if name not in _STATIC:
        raise ApiError(404, "not_found", "no such file")
    return Response(_asset(name), media_type=_STATIC[name], headers=HEADERS)


@router.post("/ui/login")
def login(
    body: Annotated[SignIn, Body()], request: Request, state: State, response: Response
) -> Me:
    """Trade a key for a session cookie; a wrong key is a one-line 401."""
    key = body.key.strip()
    tenant = keys.tenant_for(state.corpus.store, key) if 0 < len(key) <= 200 else None
    if tenant is None:
        raise ApiError(401, UNAUTHORIZED, "that key was not accepted")
    token = state.state.open_view_session(tenant, keys.key_hash(key))
    response.set_cookie(
        COOKIE,
        token,
        max_age=VIEW_SESSION_SECONDS,
        path=_cookie_path(state, request),
        httponly=True,
        samesite="strict",
        secure=state.secure or request.url.scheme == "https",
    )
    return Me(workspace=tenant)


@router.post("/ui/logout")
def logout(request: Request, state: State, response: Response) -> Me:
    """End this browser's session on the server and forget the cookie."""
    token = request.cookies.get(COOKIE)
    if token:
        state.state.end_view_session(token)
    response.delete_cookie(COOKIE, path=_cookie_path(state, request))
    return Me(workspace="")


@router.get("/ui/me")
def me(request: Request, state: State) -> Me:
    """The signed-in workspace, or 401."""
    tenant = session_tenant(state.state, state, request.cookies.get(COOKIE))
    if tenant is None:
        raise ApiError(401, UNAUTHORIZED, "not signed in")
    return Me(workspace=tenant)


def _cookie_path(service: Service, request: Request) -> str:
    if service.public_url:
        return urlsplit(service.public_url).path.rstrip("/") + "/"
    return str(request.scope.get("root_path", "")) + "/"


def session_tenant(state: ServiceState, service: Service, token: str | None) -> str | None:
    """The tenant of a live session whose key is still live (a revoked key ends it)."""
    session = state.view_session(token) if token else None
    if session is None or token is None:
        return None
    if keys.tenant_for_digest(service.corpus.store, session.key_digest) != session.tenant:
        state.end_view_session(token)
        return None
    return session.tenant


class SessionGate:
    """``/ui/v1/...`` with a session cookie becomes ``/v1/...`` with the session's tenant.

    Sits inside the guard (which counts body bytes for these paths as for any
    other) so that the tenant it sets is the one ``require_tenant`` reads.
    """

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        root = str(scope.get("root_path", ""))
        path = str(scope.get("path", ""))
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if path in (root + "/ui/login", root + "/ui/logout") and not _asked_by_page(scope):
            # Another site's form could otherwise sign this browser into its own workspace.
            await _deny(scope, receive, send, f"missing the {HEADER} header", status=403)
            return
        if path == root + "/ui/login":
            # A key fits in far less; the guard's count only stops at the upload limit.
            declared = _header(scope, b"content-length") or b""
            if not declared.isdigit() or int(declared) > LOGIN_BODY_LIMIT:
                await _deny(
                    scope,
                    receive,
                    send,
                    "a sign-in body must declare its length and stay under 16 KB",
                    status=413,
                )
                return
        if not path.startswith(root + PREFIX):
            await self.app(scope, receive, send)
            return
        token = _cookie(scope, COOKIE)
        tenant = await anyio.to_thread.run_sync(
            session_tenant, self.service.state, self.service, token
        )
        if tenant is None:
            await _deny(scope, receive, send, "not signed in: sign in at the workspace page")
            return
        if scope["method"] not in _SAFE and not _asked_by_page(scope):
            await _deny(scope, receive, send, f"missing the {HEADER} header", status=403)
            return
        rest = path[len(root + PREFIX) :]
        scope = dict(scope)
        scope["path"] = f"{root}/v1/{rest}"
        raw = scope.get("raw_path") or path.encode()
        scope["raw_path"] = f"{root}/v1/".encode() + raw[len((root + PREFIX).encode()) :]
        scope["state"] = {**scope.get("state", {}), TENANT_STATE: tenant}
        await self.app(scope, receive, send)


async def _deny(
    scope: Scope, receive: Receive, send: Send, message: str, status: int = 401
) -> None:
    code = {401: UNAUTHORIZED, 403: "forbidden", 413: "payload_too_large"}[status]
    response: JSONResponse = error_response(status, code, message)
    await response(scope, receive, send)


def _asked_by_page(scope: Scope) -> bool:
    """The custom header only this origin's script sends (cross-site, it needs CORS)."""
    return _header(scope, HEADER.encode()) == b"1"


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((bytes(v) for k, v in scope["headers"] if k.lower() == name), None)


def _cookie(scope: Scope, name: str) -> str | None:
    raw = _header(scope, b"cookie")
    if raw is None:
        return None
    for part in raw.decode("latin-1").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name and value:
            return value
    return None
