"""The app in process (ASGI test client): viewer sign-in, escaping, error shapes, OpenAPI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import pincite
from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.server import create_app, create_key
from pincite.server.routes_view import CSRF_COOKIE, SESSION_COOKIE

HOSTILE_TITLE = '<script>alert("t")</script>'
HOSTILE_TEXT = "Fees are <b>10</b> & rising.\n\nPay by <img src=x onerror=alert(1)> card."


@pytest.fixture
def app_client(corpus: Corpus) -> Iterator[tuple[TestClient, str]]:
    key = create_key(corpus.store, "acme")
    with TestClient(create_app(corpus, max_upload_bytes=4096)) as client:
        yield client, key


def _ingest(client: TestClient, key: str, text: str, uri: str, title: str) -> str:
    r = client.post(
        "/v1/documents",
        json={"text": text, "uri": uri, "title": title},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert r.status_code == 201, r.text
    doc = r.json()["document_id"]
    versions = client.get(
        f"/v1/documents/{doc}/versions", headers={"Authorization": f"Bearer {key}"}
    ).json()
    evidence_id: str = versions[0]["chunks"][0]["evidence_id"]
    return evidence_id


def test_the_viewer_escapes_everything_and_links_only_http(
    app_client: tuple[TestClient, str],
) -> None:
    client, key = app_client
    evidence_id = _ingest(client, key, HOSTILE_TEXT, "javascript:alert(1)", HOSTILE_TITLE)
    page = client.get(f"/view/{evidence_id}", headers={"Authorization": f"Bearer {key}"})
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "<b>10</b>" not in page.text
    assert "&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;" in page.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert 'href="javascript' not in page.text
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'sha256-" in csp
    assert page.headers["cache-control"] == "no-store"
    scripts = re.findall(r"<script>(.*?)</script>", page.text)
    assert len(scripts) == 1 and "scrollIntoView" in scripts[0]


def test_sign_in_sets_a_cookie_after_a_csrf_check(app_client: tuple[TestClient, str]) -> None:
    client, key = app_client
    evidence_id = _ingest(client, key, "The fee is 10 euros per month.", "fees", "Fees")
    limited = client.get(f"/view/{evidence_id}")
    assert limited.status_code == 401
    assert "Fees" not in limited.text and "10 euros" not in limited.text
    csrf = limited.cookies[CSRF_COOKIE]
    assert f'value="{csrf}"' in limited.text

    form = {"key": key, "evidence_id": evidence_id, "csrf": "forged"}
    assert client.post("/view/login", data=form).status_code == 403
    form["csrf"] = csrf
    wrong = client.post("/view/login", data={**form, "key": "pk_wrong"})
    assert wrong.status_code == 401 and "not accepted" in wrong.text
    csrf = wrong.cookies[CSRF_COOKIE]  # a fresh token with each form
    signed_in = client.post("/view/login", data={**form, "csrf": csrf}, follow_redirects=False)
    assert signed_in.status_code == 303
    assert signed_in.headers["location"].endswith(f"/view/{evidence_id}")
    cookie = next(c for c in signed_in.headers.get_list("set-cookie") if SESSION_COOKIE in c)
    assert "HttpOnly" in cookie and "Path=/view" in cookie and "SameSite=strict" in cookie
    page = client.get(f"/view/{evidence_id}")
    assert page.status_code == 200 and '<mark id="cited">The fee is 10 euros per month.</mark>' in (
        page.text
    )
    assert client.post("/view/logout").status_code == 200
    assert client.get(f"/view/{evidence_id}").status_code == 401


def test_sign_in_never_redirects_off_the_viewer(app_client: tuple[TestClient, str]) -> None:
    client, key = app_client
    csrf = client.get("/view/ev1:whatever").cookies[CSRF_COOKIE]
    form = {"key": key, "evidence_id": "https://evil.example/", "csrf": csrf}
    r = client.post("/view/login", data=form, follow_redirects=False)
    assert r.status_code == 200 and "location" not in r.headers


def test_malformed_and_missing_ids_in_the_viewer(app_client: tuple[TestClient, str]) -> None:
    client, key = app_client
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/view/not-an-id", headers=headers).status_code == 400
    missing = "ev1:c:00000000-0000-4000-8000-000000000000:0123456789abcdef:" + (
        "00000000-0000-4000-8000-000000000001"
    )
    assert client.get(f"/view/{missing}", headers=headers).status_code == 404


def test_an_unexpected_error_is_a_json_500_without_traceback(
    app_client: tuple[TestClient, str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client, key = app_client

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(Corpus, "documents", boom)
    r = client.get("/v1/documents", headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 500
    assert r.json() == {"error": {"code": "internal_error", "message": "internal server error"}}
    assert "secret" not in r.text
    assert "secret internals" in caplog.text  # logged on the server side


def test_body_limit_counts_streamed_bytes_too(app_client: tuple[TestClient, str]) -> None:
    client, key = app_client

    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'", "uri": "u"}'

    r = client.post(
        "/v1/documents",
        content=chunks(),
        headers={"Authorization": f"Bearer {key}", "content-type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"


def test_the_openapi_schema_documents_auth_and_errors(app_client: tuple[TestClient, str]) -> None:
    client, _ = app_client
    schema = client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["apiKey"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["apiKey"]["description"],
    }
    paths = schema["paths"]
    for path in [
        "/v1/documents",
        "/v1/search",
        "/v1/answer",
        "/v1/evidence/fetch",
        "/v1/citations/check",
        "/v1/citations/resolve",
        "/view/{evidence_id}",
    ]:
        assert path in paths
    assert "401" in paths["/v1/search"]["post"]["responses"]
    assert "ErrorBody" in schema["components"]["schemas"]


def test_with_an_embedder_search_defaults_to_hybrid(tmp_path: Path, embedder: Embedder) -> None:
    with pincite.open(tmp_path / "dense.db", embedder=embedder) as corpus:
        key = create_key(corpus.store, "acme")
        with TestClient(create_app(corpus)) as client:
            headers = {"Authorization": f"Bearer {key}"}
            _ingest(client, key, "Laptops must use full-disk encryption.", "sec", "Security")
            hybrid = client.post(
                "/v1/search", json={"question": "disk encryption"}, headers=headers
            )
            assert hybrid.json()["mode"] == "hybrid" and hybrid.json()["hits"]
            dense = client.post(
                "/v1/search",
                json={"question": "encrypting laptops", "mode": "dense"},
                headers=headers,
            )
            assert dense.status_code == 200 and dense.json()["hits"][0]["title"] == "Security"
