"""The web workspace in process: sign-in sessions, the session gate, passages and studio."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from pincite.corpus import Corpus
from pincite.server import create_app, create_key
from pincite.server.keys import revoke_key
from pincite.server.workspace import COOKIE, CSP

CITED = "Backups of the billing database are encrypted and kept offsite for ninety days."
TEXT = (
    "# Backups\n\n"
    f"{CITED} Restores are tested every quarter by the operations team on a spare host.\n\n"
    # Long enough to be a chunk of its own: a chunk that also held the next
    # sections would be in none of them (its section is what its parts share).
    "Each restore test is logged with its duration and the number of rows checked.\n\n"
    "# Glossary\n\n"
    "Recovery point objective means the most data, measured in time, that may be lost.\n\n"
    "# Payment\n\n"
    "The customer shall pay $1,200 within 30 days of the invoice date, by bank transfer.\n"
)
WRITE = {"X-Pincite-Request": "1"}


@pytest.fixture
def served(corpus: Corpus) -> Iterator[tuple[TestClient, dict[str, str]]]:
    keys = {t: create_key(corpus.store, t) for t in ("acme", "other")}
    with TestClient(create_app(corpus)) as client:
        yield client, keys


def _sign_in(client: TestClient, key: str) -> None:
    r = client.post("/ui/login", json={"key": key}, headers=WRITE)
    assert r.status_code == 200, r.text


def _ingest(client: TestClient, title: str = "Backup policy") -> str:
    r = client.post(
        "/ui/v1/documents",
        json={"text": TEXT, "uri": "https://acme.example/backups", "title": title, "format": "md"},
        headers=WRITE,
    )
    assert r.status_code == 201, r.text
    document_id: str = r.json()["document_id"]
    return document_id


def test_page_and_assets_are_served_under_a_strict_policy(
    served: tuple[TestClient, dict[str, str]],
) -> None:
    client, _ = served
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    assert '<script src="static/workspace.js"' in page.text
    assert "<script>" not in page.text and "http" not in page.text.split("<body>")[1]
    script = client.get("/static/workspace.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert ".innerHTML" not in script.text and "eval(" not in script.text
    assert client.get("/static/other.js").status_code == 404
    assert "script-src 'self'" in CSP and "unsafe" not in CSP


def test_a_session_reaches_the_api_as_its_workspace_and_never_holds_the_key(
    served: tuple[TestClient, dict[str, str]],
) -> None:
    client, keys = served
    assert client.get("/ui/v1/documents").status_code == 401
    r = client.post("/ui/login", json={"key": keys["acme"]})
    assert r.status_code == 403 and COOKIE not in r.headers.get("set-cookie", "")
    r = client.post("/ui/login", content=b'{"key": "' + b"x" * 20_000 + b'"}', headers=WRITE)
    assert r.status_code == 413
    r = client.post("/ui/login", json={"key": "pk_wrong"}, headers=WRITE)
    assert r.status_code == 401 and r.json()["error"]["message"] == "that key was not accepted"
    r = client.post("/ui/login", json={"key": keys["acme"]}, headers=WRITE)
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and keys["acme"] not in cookie
    assert client.get("/ui/me").json() == {"workspace": "acme"}
    document_id = _ingest(client)
    listed = client.get("/ui/v1/documents").json()
    assert [d["document_id"] for d in listed] == [document_id]
    # A write without the request header is refused (a cross-site form cannot send it).
    r = client.delete(f"/ui/v1/documents/{document_id}")
    assert r.status_code == 403 and client.get("/ui/v1/documents").json()[0]["status"] == "live"
    client.post("/ui/logout", headers=WRITE)
    assert client.get("/ui/v1/documents").status_code == 401
    assert client.cookies.get(COOKIE) is None


def test_revoking_the_key_ends_its_sessions(served: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = served
    _sign_in(client, keys["acme"])
    assert client.get("/ui/v1/documents").status_code == 200
    corpus = client.app.state.pincite.corpus  # type: ignore[attr-defined]
    revoke_key(corpus.store, keys["acme"])
    assert client.get("/ui/v1/documents").status_code == 401
    assert client.get("/ui/me").status_code == 401


def test_the_passage_is_the_cited_span_inside_its_version(
    served: tuple[TestClient, dict[str, str]],
) -> None:
    client, keys = served
    _sign_in(client, keys["acme"])
    document_id = _ingest(client)
    hash16 = client.get("/ui/v1/documents").json()[0]["hash16"]
    start = TEXT.index(CITED)
    span = f"ev1:s:{document_id}:{hash16}:{start}-{start + len(CITED)}"
    p = client.get(f"/ui/v1/evidence/{span}/context").json()
    assert p["cited"] == CITED and p["section"] == ["Backups"]
    assert (p["before"] + p["cited"] + p["after"]).startswith("# Backups")
    assert not p["superseded"]
    # A newer version: the old span says superseded and points at the current text.
    r = client.put(
        f"/ui/v1/documents/{document_id}",
        json={"text": "Preface added.\n\n" + TEXT, "format": "md"},
        headers=WRITE,
    )
    assert r.status_code in (200, 201), r.text
    p = client.get(f"/ui/v1/evidence/{span}/context").json()
    assert p["cited"] == CITED and p["superseded"]
    current = client.get(f"/ui/v1/evidence/{p['current_evidence_id']}/context").json()
    assert current["cited"] == CITED and current["hash16"] == p["current_hash16"]


def test_studio_items_cite_exact_spans_and_other_workspaces_see_nothing(
    served: tuple[TestClient, dict[str, str]],
) -> None:
    client, keys = served
    _sign_in(client, keys["acme"])
    document_id = _ingest(client)
    results = {}
    for action in ("summary", "faq", "key_terms", "contract"):
        r = client.post(
            f"/ui/v1/documents/{document_id}/studio", json={"action": action}, headers=WRITE
        )
        assert r.status_code == 200, r.text
        results[action] = r.json()
        assert results[action]["items"], action
        for item in results[action]["items"]:
            [evidence_id] = item["evidence_ids"]
            p = client.get(f"/ui/v1/evidence/{evidence_id}/context").json()
            assert p["cited"] == item["text"] and p["document_id"] == document_id
    terms = [i["label"] for i in results["key_terms"]["items"]]
    assert terms == ["Recovery point objective"]
    [payment] = [i for i in results["contract"]["items"] if "$1,200" in i["text"]]
    assert {"amount", "date", "obligation"} <= set(payment["label"].split(", "))
    assert "not legal advice" in results["contract"]["disclaimer"]
    assert results["summary"]["disclaimer"] == ""
    r = client.post(
        f"/ui/v1/documents/{document_id}/studio", json={"action": "poem"}, headers=WRITE
    )
    assert r.status_code == 422

    client.post("/ui/logout", headers=WRITE)
    _sign_in(client, keys["other"])
    assert client.get("/ui/v1/documents").json() == []
    evidence_id = results["summary"]["items"][0]["evidence_ids"][0]
    foreign = client.get(f"/ui/v1/evidence/{evidence_id}/context")
    unknown = evidence_id.replace(document_id, "00000000-0000-4000-8000-000000000000")
    missing = client.get(f"/ui/v1/evidence/{unknown}/context")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json()
    r = client.post(
        f"/ui/v1/documents/{document_id}/studio", json={"action": "summary"}, headers=WRITE
    )
    assert r.status_code == 404
