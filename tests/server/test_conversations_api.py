"""/v1/conversations in process: create, ask follow-ups, list, get, delete; isolation by key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from pincite.embed.base import Embedder
from pincite.server import create_app, create_key


@pytest.fixture
def client(tmp_path: Path, embedder: Embedder) -> Iterator[tuple[TestClient, dict[str, str]]]:
    with pincite.open(tmp_path / "api.db", embedder=embedder) as corpus:
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="globex")
        keys = {t: f"Bearer {create_key(corpus.store, t)}" for t in ("acme", "globex")}
        with TestClient(create_app(corpus)) as c:
            yield c, keys


def test_a_three_turn_conversation_over_http(client: tuple[TestClient, dict[str, str]]) -> None:
    c, keys = client
    acme = {"Authorization": keys["acme"]}
    made = c.post("/v1/conversations", json={"title": "invoices"}, headers=acme)
    assert made.status_code == 201, made.text
    cid = made.json()["conversation_id"]
    assert made.json()["turn_count"] == 0 and made.json()["url"].endswith(cid)
    answers = []
    for seq, q in enumerate(TURNS):
        r = c.post(f"/v1/conversations/{cid}/turns", json={"question": q}, headers=acme)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seq"] == seq and body["asked"] == q and body["outcome"] == "answered"
        assert body["question"] == body["standalone"]
        assert {x["locator"]["uri"] for x in body["citations"]} == {"policy://retention"}
        assert all(x["view_url"].startswith("/view/ev1:") for x in body["citations"])
        answers.append(body)
    assert "invoices" in answers[1]["standalone"] and "invoices" in answers[2]["standalone"]
    # Offline generator: the first turn is searched as asked, follow-ups by the
    # deterministic rewrite, and no model call is spent on either.
    assert [a["rewrite"] for a in answers] == ["asked", "offline", "offline"]
    assert [a["rewrite_calls"] for a in answers] == [0, 0, 0]
    assert "encrypted archive" in answers[1]["text"]
    assert "finance director" in answers[2]["text"]

    got = c.get(f"/v1/conversations/{cid}", headers=acme).json()
    assert got["turn_count"] == 3 and got["title"] == "invoices"
    assert [t["question"] for t in got["turns"]] == list(TURNS)
    assert [t["standalone"] for t in got["turns"]] == [a["standalone"] for a in answers]
    assert [t["rewrite"] for t in got["turns"]] == ["asked", "offline", "offline"]
    assert [t["rewrite_calls"] for t in got["turns"]] == [0, 0, 0]
    for turn, answer in zip(got["turns"], answers, strict=True):
        assert [x["evidence_id"] for x in turn["citations"]] == [
            x["evidence_id"] for x in answer["citations"]
        ]
        assert all(x["view_url"].startswith("/view/") for x in turn["citations"])
    listed = c.get("/v1/conversations", headers=acme).json()["conversations"]
    assert [x["conversation_id"] for x in listed] == [cid]

    assert c.delete(f"/v1/conversations/{cid}", headers=acme).status_code == 204
    assert c.get(f"/v1/conversations/{cid}", headers=acme).status_code == 404
    assert c.get("/v1/conversations", headers=acme).json() == {"conversations": []}


def test_another_workspaces_conversation_is_a_plain_404(
    client: tuple[TestClient, dict[str, str]],
) -> None:
    c, keys = client
    acme, globex = {"Authorization": keys["acme"]}, {"Authorization": keys["globex"]}
    cid = c.post("/v1/conversations", json={}, headers=acme).json()["conversation_id"]
    c.post(f"/v1/conversations/{cid}/turns", json={"question": TURNS[0]}, headers=acme)
    missing = "00000000-0000-4000-8000-000000000000"
    for method, path, body in [
        ("GET", "/v1/conversations/{}", None),
        ("POST", "/v1/conversations/{}/turns", {"question": TURNS[1]}),
        ("DELETE", "/v1/conversations/{}", None),
    ]:
        theirs = c.request(method, path.format(cid), json=body, headers=globex)
        nobody = c.request(method, path.format(missing), json=body, headers=globex)
        assert theirs.status_code == nobody.status_code == 404
        assert theirs.json() == nobody.json()
        assert cid not in theirs.text
    assert c.get("/v1/conversations", headers=globex).json() == {"conversations": []}
    # acme's conversation is untouched by globex's attempts.
    assert c.get(f"/v1/conversations/{cid}", headers=acme).json()["turn_count"] == 1


def test_bad_requests_get_one_line_errors(client: tuple[TestClient, dict[str, str]]) -> None:
    c, keys = client
    acme = {"Authorization": keys["acme"]}
    assert c.get("/v1/conversations").status_code == 401
    cid = c.post("/v1/conversations", json={}, headers=acme).json()["conversation_id"]
    empty = c.post(f"/v1/conversations/{cid}/turns", json={"question": ""}, headers=acme)
    assert empty.status_code == 422 or empty.status_code == 400
    assert "error" in empty.json()
    extra = c.post("/v1/conversations", json={"tenant": "globex"}, headers=acme)
    assert extra.status_code in (400, 422) and "error" in extra.json()


def test_stale_lists_turns_whose_document_changed(
    client: tuple[TestClient, dict[str, str]],
) -> None:
    c, keys = client
    acme, globex = {"Authorization": keys["acme"]}, {"Authorization": keys["globex"]}
    cid = c.post("/v1/conversations", json={}, headers=acme).json()["conversation_id"]
    c.post(f"/v1/conversations/{cid}/turns", json={"question": TURNS[0]}, headers=acme)
    assert c.get("/v1/stale", headers=acme).json() == {"items": []}
    revised = RETENTION.replace("seven years", "ten years")
    r = c.post("/v1/documents", json={"text": revised, "uri": "policy://retention"}, headers=acme)
    assert r.status_code in (200, 201), r.text
    [item] = c.get("/v1/stale", headers=acme).json()["items"]
    assert item["kind"] == "turn" and item["conversation_id"] == cid and item["seq"] == 0
    [cited] = item["citations"]
    assert cited["state"] == "superseded" and cited["reanchor"] == "changed"
    assert "[-seven-] {+ten+}" in cited["diff"]
    assert cited["current_view_url"] == f"/view/{cited['current_evidence_id']}"
    now = c.post(
        "/v1/evidence/fetch", json={"ids": [cited["current_evidence_id"]]}, headers=acme
    ).json()["outcomes"][0]
    assert now["status"] == "ok" and "ten years" in now["text"]
    assert c.get("/v1/stale", headers=globex).json() == {"items": []}
