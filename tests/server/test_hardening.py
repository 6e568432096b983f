"""Issue 13's service findings, each attacked again in process: none may come back."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from pincite.corpus import Corpus
from pincite.server import create_app, create_key, revoke_key
from pincite.server.routes_view import CSRF_COOKIE, SESSION_COOKIE
from pincite.server.state import ServiceState

TEXT = "The retention period is seven years.\n\nRecords are shredded afterwards."


@pytest.fixture
def keys(corpus: Corpus) -> dict[str, str]:
    return {t: create_key(corpus.store, t) for t in ("alpha", "beta")}


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _evidence_id(client: TestClient, key: str) -> str:
    r = client.post("/v1/documents", json={"text": TEXT, "uri": "ret"}, headers=_auth(key))
    assert r.status_code == 201, r.text
    hits = client.post("/v1/search", json={"question": "retention"}, headers=_auth(key))
    evidence_id: str = hits.json()["hits"][0]["evidence_id"]
    return evidence_id


# -- 2: a lone surrogate in any string is a 422, never a 500 --------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/evidence/fetch", b'{"ids": ["\\ud800"]}'),
        ("/v1/citations/check", b'{"ids": ["\\ud800"], "fetched": []}'),
        ("/v1/citations/check", b'{"ids": ["x"], "fetched": ["a\\udfffb"]}'),
        ("/v1/search", b'{"question": "inv\\udcffoices"}'),
        ("/v1/search", b'{"question": "x", "\\ud800": 1}'),  # in an unknown field's name
        ("/v1/documents", b'{"text": "\\ud800", "uri": "u"}'),
    ],
)
def test_lone_surrogates_are_refused_not_echoed(
    corpus: Corpus, keys: dict[str, str], path: str, body: bytes
) -> None:
    with TestClient(create_app(corpus), raise_server_exceptions=False) as client:
        headers = {**_auth(keys["alpha"]), "content-type": "application/json"}
        r = client.post(path, content=body, headers=headers)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"


# -- 3: fetch sessions are capped per workspace -------------------------------------------


def test_one_workspace_opening_sessions_never_drops_anothers(
    corpus: Corpus, keys: dict[str, str]
) -> None:
    state = ServiceState(sessions_per_tenant=5)
    with TestClient(create_app(corpus, state=state)) as client:
        alpha, beta = _auth(keys["alpha"]), _auth(keys["beta"])
        evidence_id = _evidence_id(client, keys["beta"])
        kept = client.post("/v1/sessions", headers=beta).json()["session_id"]
        flood = [client.post("/v1/sessions", headers=alpha).json()["session_id"] for _ in range(6)]

        def check(session: str, headers: dict[str, str]) -> int:
            body = {"ids": [evidence_id], "session": session}
            return client.post("/v1/citations/check", json=body, headers=headers).status_code

        assert check(kept, beta) == 200
        assert check(flood[0], alpha) == 404  # alpha's own oldest made room for its newest
        assert [check(s, alpha) for s in flood[1:]] == [200] * 5
        assert check(kept, alpha) == 404  # and a session id is no use to another workspace


def test_fetches_in_a_session_are_remembered_by_the_shared_state(tmp_path: Any) -> None:
    """Two workers = two ``ServiceState`` objects on one file: a fetch in one counts in both."""
    from pincite.ground.fetch import FetchLedger, LedgerEntry

    one, two = ServiceState(tmp_path / "s.db"), ServiceState(tmp_path / "s.db")
    session = one.open_session("alpha")
    ledger = two.ledger("alpha", session)
    assert ledger is not None and not ledger.entries
    entry = LedgerEntry("d", "0123456789abcdef", 0, 5)
    two.save_ledger(session, FetchLedger("alpha", {"ev1:x": entry}))
    seen = one.ledger("alpha", session)
    assert seen is not None and seen.entries == {"ev1:x": entry}
    assert one.ledger("beta", session) is None
    one.close()
    two.close()


# -- 4: no body byte is read before the key is checked; bodies are counted as they come ----


def _call(app: FastAPI, headers: list[tuple[bytes, bytes]], chunks: int) -> tuple[int, int]:
    """POST /v1/search over raw ASGI with a body of ``chunks`` x 1 KiB: (status, chunks read)."""
    read = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        more = read < chunks
        return {"type": "http.request", "body": b"x" * 1024, "more_body": more}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/search",
        "raw_path": b"/v1/search",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return status, read


@pytest.mark.parametrize("authorization", [None, b"Bearer pk_not-a-key", b"Basic abc"])
def test_a_request_without_a_live_key_is_refused_unread(
    corpus: Corpus, authorization: bytes | None
) -> None:
    app = create_app(corpus)
    headers = [(b"authorization", authorization)] if authorization else []
    assert _call(app, headers, chunks=19 * 1024) == (401, 0)


def test_a_revoked_key_is_refused_unread(corpus: Corpus) -> None:
    key = create_key(corpus.store, "alpha")
    revoke_key(corpus.store, key)
    assert _call(create_app(corpus), [(b"authorization", f"Bearer {key}".encode())], 100)[1] == 0


def test_a_streamed_body_is_cut_off_at_the_limit(corpus: Corpus) -> None:
    key = create_key(corpus.store, "alpha")
    app = create_app(corpus, max_upload_bytes=4 * 1024)
    status, read = _call(app, [(b"authorization", f"Bearer {key}".encode())], chunks=1000)
    assert status == 413
    assert read == 5  # the first chunk past 4 KiB; the other 995 were never read


# -- 7: links come from the configured base URL, never from the Host header ---------------


@pytest.mark.parametrize("public_url", ["https://docs.example/pincite", ""])
def test_links_ignore_the_host_header(
    corpus: Corpus, keys: dict[str, str], public_url: str
) -> None:
    with TestClient(create_app(corpus, public_url=public_url)) as client:
        key = keys["alpha"]
        evidence_id = _evidence_id(client, key)
        evil = {**_auth(key), "Host": "evil.example", "X-Forwarded-Host": "evil.example"}
        hits = client.post("/v1/search", json={"question": "retention"}, headers=evil).json()
        answer = client.post("/v1/answer", json={"question": "retention period?"}, headers=evil)
        links = [h["view_url"] for h in hits["hits"]]
        links += [s["view_url"] for s in answer.json()["sources"]]
        assert links and all(link.startswith(f"{public_url}/view/ev1:") for link in links)
        assert "evil" not in answer.text

        page = client.get(f"/view/{evidence_id}", headers={"Host": "evil.example"})
        assert "evil" not in page.text and f'action="{public_url}/view/login"' in page.text
        csrf = page.cookies[CSRF_COOKIE]
        form = {"key": key, "evidence_id": evidence_id, "csrf": csrf}
        # Sent by hand: the cookie's path is the public one, which a proxy maps to /view.
        headers = {"Host": "evil.example", "Cookie": f"{CSRF_COOKIE}={csrf}"}
        signed_in = client.post("/view/login", data=form, headers=headers, follow_redirects=False)
        assert signed_in.headers["location"] == f"{public_url}/view/{evidence_id}"


# -- 8: the browser holds a server-side session id, never the key -------------------------


def _sign_in(client: TestClient, key: str, evidence_id: str) -> tuple[str, str]:
    """Sign in through the viewer's form: (the session cookie's value, its Set-Cookie line)."""
    csrf = client.get(f"/view/{evidence_id}").cookies[CSRF_COOKIE]
    form = {"key": key, "evidence_id": evidence_id, "csrf": csrf}
    r = client.post("/view/login", data=form, follow_redirects=False)
    assert r.status_code == 303
    lines = r.headers.get_list("set-cookie")
    assert all(key not in line for line in lines)
    line = next(c for c in lines if c.startswith(f"{SESSION_COOKIE}="))
    return line.split(";", 1)[0].split("=", 1)[1], line


@pytest.fixture
def viewer(corpus: Corpus, keys: dict[str, str]) -> Iterator[tuple[TestClient, str]]:
    app = create_app(corpus, public_url="https://docs.example")
    # Over https, or the client would rightly withhold the Secure cookies.
    with TestClient(app, base_url="https://testserver") as client:
        yield client, _evidence_id(client, keys["alpha"])


def test_the_session_cookie_is_random_strict_secure_and_expiring(
    viewer: tuple[TestClient, str], keys: dict[str, str]
) -> None:
    client, evidence_id = viewer
    first, line = _sign_in(client, keys["alpha"], evidence_id)
    attributes = {part.strip().split("=")[0].lower() for part in line.split(";")[1:]}
    assert {"httponly", "secure", "max-age", "path", "samesite"} <= attributes
    assert "samesite=strict" in line.lower()
    client.cookies.clear()
    second, _ = _sign_in(client, keys["alpha"], evidence_id)
    assert first != second and len(first) >= 40  # random per sign-in, not derived from the key


def test_signing_out_ends_the_session_on_the_server(
    viewer: tuple[TestClient, str], keys: dict[str, str]
) -> None:
    client, evidence_id = viewer
    session, _ = _sign_in(client, keys["alpha"], evidence_id)
    replay = {"Cookie": f"{SESSION_COOKIE}={session}"}
    assert client.get(f"/view/{evidence_id}", headers=replay).status_code == 200
    assert client.post("/view/logout", headers=replay).status_code == 200
    client.cookies.clear()
    assert client.get(f"/view/{evidence_id}", headers=replay).status_code == 401


def test_revoking_the_key_ends_its_viewer_sessions(
    viewer: tuple[TestClient, str], corpus: Corpus, keys: dict[str, str]
) -> None:
    client, evidence_id = viewer
    session, _ = _sign_in(client, keys["alpha"], evidence_id)
    client.cookies.clear()
    replay = {"Cookie": f"{SESSION_COOKIE}={session}"}
    assert client.get(f"/view/{evidence_id}", headers=replay).status_code == 200
    revoke_key(corpus.store, keys["alpha"])
    page = client.get(f"/view/{evidence_id}", headers=replay)
    assert page.status_code == 401 and "retention" not in page.text


def test_another_workspaces_session_reads_its_own_workspace_only(
    viewer: tuple[TestClient, str], keys: dict[str, str]
) -> None:
    client, evidence_id = viewer
    csrf = client.get(f"/view/{evidence_id}").cookies[CSRF_COOKIE]
    form = {"key": keys["beta"], "evidence_id": "none", "csrf": csrf}
    assert client.post("/view/login", data=form).status_code == 200
    page = client.get(f"/view/{evidence_id}")
    assert page.status_code == 404 and "retention" not in page.text


# -- 9: uploads are jobs; a job of another workspace reads as missing ----------------------


def test_an_upload_answers_202_with_a_job_that_ends(corpus: Corpus, keys: dict[str, str]) -> None:
    with TestClient(create_app(corpus, public_url="http://h")) as client:
        r = client.post(
            "/v1/documents/upload",
            files={"file": ("a.md", b"# Fees\n\nThe fee is 10 euros.\n")},
            headers=_auth(keys["alpha"]),
        )
        assert r.status_code == 202 and r.json()["status"] in ("running", "done")
        path = r.json()["url"].removeprefix("http://h")
        for _ in range(400):
            job = client.get(path, headers=_auth(keys["alpha"])).json()
            if job["status"] != "running":
                break
            asyncio.run(asyncio.sleep(0.02))
        assert job["status"] == "done" and job["result"]["status"] == "new"
        foreign = client.get(path, headers=_auth(keys["beta"]))
        missing = client.get("/v1/jobs/nope", headers=_auth(keys["beta"]))
        assert foreign.status_code == missing.status_code == 404
        assert foreign.json() == missing.json()
