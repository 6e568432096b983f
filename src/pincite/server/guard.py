"""The request guard: the key is checked before any body byte is read; bodies are counted.

FastAPI reads and parses a body before it resolves a route's dependencies, so a
key checked there comes too late: keyless 19 MB posts were buffered in full
only to get a 401. This middleware answers a request under ``/v1/`` without a
live key at once, reading nothing, and counts the bytes of every body as they
arrive, refusing with 413 the moment the limit is passed (nothing is buffered
here). The tenant it found is handed to the route in the request state.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pincite.server.errors import UNAUTHORIZED, error_response

TENANT_STATE = "pincite_tenant"
# The viewer's sign-in form: a key, an evidence id and a token fit in far less.
LOGIN_BODY_LIMIT = 16 * 1024
_API = "/v1/"
_LOGIN = "/view/login"
_NO_BODY = frozenset({"GET", "HEAD", "OPTIONS"})


def too_large(limit: int) -> str:
    mb = limit / (1024 * 1024)
    return f"request body exceeds the upload limit of {mb:.3g} MB ({limit} bytes)"


class Guard:
    """Key first, then a byte count on the body; ``tenant_for(key)`` may touch the store."""

    def __init__(self, app: ASGIApp, tenant_for: Callable[[str], str | None], limit: int) -> None:
        self.app = app
        self.tenant_for = tenant_for
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = _app_path(scope)
        if path.startswith(_API):
            tenant = await self._tenant(scope)
            if isinstance(tenant, Refusal):
                # mutmut: equivalent because a JSON response never calls receive (here or below).
                await _refuse(scope, receive, send, 401, UNAUTHORIZED, tenant.message)
                return
            scope.setdefault("state", {})[TENANT_STATE] = tenant
        if scope["method"] in _NO_BODY:
            await self.app(scope, receive, send)
            return
        limit = LOGIN_BODY_LIMIT if path == _LOGIN else self.limit
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(scope, receive, send, 413, "payload_too_large", too_large(limit))
            return
        await self.app(scope, _counting(receive, limit), send)

    async def _tenant(self, scope: Scope) -> str | Refusal:
        raw = _header(scope, b"authorization")
        # mutmut: equivalent because codec names are case-blind, and any stand-in for a
        # missing header (b"XXXX") has no bearer scheme either.
        scheme, _, key = (raw or b"").decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            return Refusal("missing API key: send 'Authorization: Bearer <key>'")
        # The store lookup is blocking I/O; the event loop keeps serving meanwhile.
        tenant = await anyio.to_thread.run_sync(self.tenant_for, key.strip())
        return tenant if tenant is not None else Refusal("invalid or revoked API key")


class Refusal:
    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _counting(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                # FastAPI passes an HTTPException raised while it reads the body through
                # to the error handlers, so this becomes the one JSON 413.
                # mutmut: equivalent because Starlette lowercases header names.
                raise HTTPException(413, too_large(limit), headers={"Connection": "close"})
        return message

    return counted


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
) -> None:
    # mutmut: equivalent because Starlette lowercases header names (their spelling here)
    # and a JSON response never calls receive.
    headers = {"Connection": "close"}  # the unread body is dropped with the connection
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    await error_response(status, code, message, **headers)(scope, receive, send)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return bytes(value)
    return None


def _app_path(scope: Scope) -> str:
    path = str(scope["path"])
    # mutmut: equivalent because without a root_path any stand-in ("None", "XXXX") is
    # not a prefix of a path, which starts with "/".
    root = str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path
