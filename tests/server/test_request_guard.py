"""The request guard, driven at the ASGI level (issue 21's mutation run).

A stub app stands behind ``Guard`` so each test sees exactly what the guard lets
through: whether the app ran, what tenant it was handed, whether a byte of the
body was read, and the refusal's status, headers and JSON. The tenant lookup is
a dict, so every key here is known in advance.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from pincite.server.errors import UNAUTHORIZED
from pincite.server.guard import LOGIN_BODY_LIMIT, TENANT_STATE, Guard, too_large

LIVE = {"pk_alpha": "alpha", "pk_beta": "beta"}
LIMIT = 64 * 1024  # above the sign-in form's own limit, so the two are told apart


class Stub:
    """The app behind the guard: records its calls and reads the whole body."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        tenant = scope.get("state", {}).get(TENANT_STATE)
        self.calls.append({"tenant": tenant, "body": len(body)})
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


class Exchange:
    """One request through a fresh guard: its status, headers and JSON, and what ran."""

    def __init__(
        self,
        path: str,
        *,
        method: str = "POST",
        headers: dict[str, str] | None = None,
        chunks: list[bytes] | None = None,
        root_path: str = "",
        path_has_root: bool = True,
    ) -> None:
        self.app = Stub()
        self.reads = 0
        self.sent: list[Message] = []
        pending = list(chunks or [b""])
        scope: Scope = {
            "type": "http",
            "method": method,
            "path": (root_path if path_has_root else "") + path,
            "root_path": root_path,
            "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        }

        async def receive() -> Message:
            self.reads += 1
            chunk = pending.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

        async def send(message: Message) -> None:
            self.sent.append(message)

        guard = Guard(self.app, tenant_for=LIVE.get, limit=LIMIT)
        asyncio.run(guard(scope, receive, send))

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.sent[0]["headers"]}

    def json(self) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in self.sent[1:]))


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_live_key_hands_its_tenant_to_the_app() -> None:
    ex = Exchange("/v1/search", headers=_bearer("pk_beta"), chunks=[b"{}"])
    assert ex.status == 200
    assert ex.app.calls == [{"tenant": "beta", "body": 2}]


def test_a_get_reaches_the_app_with_its_receive_channel() -> None:
    # The app may still read (an empty body, a disconnect); the guard passes receive on.
    ex = Exchange("/v1/documents", method="GET", headers=_bearer("pk_alpha"))
    assert ex.status == 200 and ex.app.calls == [{"tenant": "alpha", "body": 0}]


@pytest.mark.parametrize(
    ("authorization", "message"),
    [
        (None, "missing API key: send 'Authorization: Bearer <key>'"),
        ("Bearer", "missing API key: send 'Authorization: Bearer <key>'"),
        ("Bearer    ", "missing API key: send 'Authorization: Bearer <key>'"),
        # A live key under another scheme is not a bearer token.
        ("Basic pk_alpha", "missing API key: send 'Authorization: Bearer <key>'"),
        ("Bearer pk_gone", "invalid or revoked API key"),
    ],
)
def test_a_request_without_a_live_key_is_refused_before_any_byte_is_read(
    authorization: str | None, message: str
) -> None:
    headers = {"Content-Length": "5"} | (
        {} if authorization is None else {"Authorization": authorization}
    )
    ex = Exchange("/v1/documents", headers=headers, chunks=[b"hello"])
    assert ex.status == 401
    assert ex.json() == {"error": {"code": UNAUTHORIZED, "message": message}}
    assert ex.headers["www-authenticate"] == "Bearer"
    assert ex.headers["connection"] == "close"
    assert ex.app.calls == [] and ex.reads == 0


def test_the_scheme_is_case_blind_and_spaces_around_the_key_are_dropped() -> None:
    ex = Exchange("/v1/search", headers={"Authorization": "bEaReR   pk_alpha  "})
    assert ex.status == 200 and ex.app.calls[0]["tenant"] == "alpha"


def test_paths_outside_the_api_need_no_key() -> None:
    ex = Exchange("/view/abc", method="GET")
    assert ex.status == 200 and ex.app.calls == [{"tenant": None, "body": 0}]


def test_the_api_prefix_is_read_below_the_root_path() -> None:
    # Mounted under /svc, /svc/v1/... is the API and needs a key.
    assert Exchange("/v1/search", root_path="/svc").status == 401
    ex = Exchange("/v1/search", root_path="/svc", headers=_bearer("pk_alpha"))
    assert ex.status == 200 and ex.app.calls[0]["tenant"] == "alpha"


def test_a_path_without_the_root_path_is_read_as_it_is() -> None:
    # Some servers give the path without the root path; /v1/ is still the API.
    assert Exchange("/v1/search", root_path="/svc", path_has_root=False).status == 401
    ex = Exchange("/view/x", root_path="/svc", path_has_root=False, method="GET")
    assert ex.status == 200


def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    headers = _bearer("pk_alpha") | {"Content-Length": str(LIMIT + 1)}
    ex = Exchange("/v1/documents", headers=headers, chunks=[b"x" * (LIMIT + 1)])
    assert ex.status == 413
    assert ex.json() == {"error": {"code": "payload_too_large", "message": too_large(LIMIT)}}
    assert ex.headers["connection"] == "close"
    assert "www-authenticate" not in ex.headers  # only a 401 asks for credentials
    assert ex.app.calls == [] and ex.reads == 0


def test_a_body_of_exactly_the_limit_passes() -> None:
    headers = _bearer("pk_alpha") | {"Content-Length": str(LIMIT)}
    ex = Exchange("/v1/documents", headers=headers, chunks=[b"x" * LIMIT])
    assert ex.status == 200 and ex.app.calls == [{"tenant": "alpha", "body": LIMIT}]


def test_the_sign_in_form_has_its_own_small_limit() -> None:
    over = LOGIN_BODY_LIMIT + 1
    ex = Exchange("/view/login", headers={"Content-Length": str(over)}, chunks=[b"x" * over])
    assert ex.status == 413 and ex.json()["error"]["message"] == too_large(LOGIN_BODY_LIMIT)
    assert ex.app.calls == [] and ex.reads == 0
    # The same body elsewhere is within the service's limit.
    other = Exchange("/view/other", headers={"Content-Length": str(over)}, chunks=[b"x" * over])
    assert other.status == 200 and other.app.calls == [{"tenant": None, "body": over}]


def test_a_non_numeric_declared_length_is_left_to_the_byte_count() -> None:
    headers = _bearer("pk_alpha") | {"Content-Length": "lots"}
    ex = Exchange("/v1/documents", headers=headers, chunks=[b"abc"])
    assert ex.status == 200 and ex.app.calls == [{"tenant": "alpha", "body": 3}]


def test_the_limit_message_names_megabytes_and_bytes() -> None:
    assert too_large(20 * 1024 * 1024) == (
        "request body exceeds the upload limit of 20 MB (20971520 bytes)"
    )
    assert too_large(100 * 1024 * 1024) == (  # three digits: 99.9 would be a wrong MB
        "request body exceeds the upload limit of 100 MB (104857600 bytes)"
    )
    assert too_large(16 * 1024) == (
        "request body exceeds the upload limit of 0.0156 MB (16384 bytes)"
    )


def test_other_scope_types_pass_straight_through() -> None:
    seen: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope["type"])

    async def nothing() -> Message:
        raise AssertionError("the guard must not read a lifespan channel")

    async def drop(message: Message) -> None:
        raise AssertionError("the guard must not answer a lifespan event")

    # No path, no headers: a lifespan scope would break any look at them.
    asyncio.run(Guard(app, tenant_for=LIVE.get, limit=LIMIT)({"type": "lifespan"}, nothing, drop))
    assert seen == ["lifespan"]
