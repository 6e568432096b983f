"""Every error the API returns: ``{"error": {"code", "message"}}``, never a traceback.

Codes are stable; messages are for people. A missing resource and another
workspace's resource produce the same body, because the message names only
the kind of thing that was not found.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pincite.errors import (
    ConcurrentWriteError,
    ConfigurationError,
    EvidenceIdError,
    GeneratorError,
    NotFoundError,
    PinciteError,
)

log = logging.getLogger("pincite.server")


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class ApiError(Exception):
    """Raised by a route to answer with one error body."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def not_found(kind: str) -> ApiError:
    return ApiError(404, "not_found", f"{kind} not found")


UNAUTHORIZED = "unauthorized"
_STATUS_CODES = {
    400: "bad_request",
    401: UNAUTHORIZED,
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
}

Responses = dict[int | str, dict[str, Any]]
# Documented on every route that takes a key.
ERROR_RESPONSES: Responses = {
    401: {"model": ErrorBody, "description": "Missing, unknown or revoked API key"},
    422: {"model": ErrorBody, "description": "The request does not match the schema"},
}


def error_response(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    # A message may quote the request (a field name, an id); a lone surrogate in it
    # must not turn the error into a 500 when the body is encoded.
    message = message.encode("utf-8", "replace").decode("utf-8")
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers or None)


def from_pincite(exc: PinciteError) -> ApiError:
    """The API's answer to one of pincite's own errors."""
    if isinstance(exc, NotFoundError):
        return not_found(exc.kind)
    if isinstance(exc, EvidenceIdError):
        return ApiError(400, "malformed_evidence_id", str(exc))
    if isinstance(exc, ConcurrentWriteError):
        return ApiError(409, "conflict", "another writer changed the document; retry")
    if isinstance(exc, GeneratorError):
        log.warning("generator failed: %s", exc)
        return ApiError(502, "generator_failed", "the model endpoint failed; see the server log")
    if isinstance(exc, ConfigurationError):
        log.error("configuration error: %s", exc)
        return ApiError(500, "server_misconfigured", "the server is misconfigured; see its log")
    return ApiError(400, "invalid_input", str(exc))


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the one JSON shape."""

    @app.exception_handler(ApiError)
    async def _api(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        return error_response(exc.status, exc.code, exc.message, **headers)

    @app.exception_handler(PinciteError)
    async def _pincite(request: Request, exc: PinciteError) -> JSONResponse:
        api = from_pincite(exc)
        return error_response(api.status, api.code, api.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        if exc.status_code == 404 and message == "Not Found":
            message = "no such endpoint"
        return error_response(exc.status_code, code, message, **(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for e in exc.errors()[:5]:
            where = ".".join(str(p) for p in e.get("loc", ()))
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return error_response(422, "invalid_request", "; ".join(problems) or "invalid request")


class CatchAll:
    """Outermost guard: any exception that escapes becomes a JSON 500, logged server-side."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            response = error_response(500, "internal_error", "internal server error")
            await response(scope, receive, send)
