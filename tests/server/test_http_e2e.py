"""End to end over HTTP: a real `pincite serve` process, two workspaces, httpx clients."""

from __future__ import annotations

import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server_process import (
    UPLOAD_LIMIT_MB,
    LiveServer,
    clean_env,
    running_server,
    service_command,
    wait_for_port,
)

import pincite

pytestmark = pytest.mark.integration

ALPHA_TEXT = (
    "The retention period for customer records at Alpha Corp is seven years.\n\n"
    "After seven years the records office shreds the customer records."
)
BETA_TEXT = (
    "The retention period for customer records at Beta Ltd is three years.\n\n"
    "After three years the customer records are deleted by the records team."
)


@dataclass(frozen=True)
class Seeded:
    document_id: str
    evidence_id: str
    text: str


def _ingest(client: httpx.Client, text: str, uri: str, title: str) -> Seeded:
    r = client.post("/v1/documents", json={"text": text, "uri": uri, "title": title})
    assert r.status_code == 201, r.text
    document_id = r.json()["document_id"]
    versions = client.get(f"/v1/documents/{document_id}/versions").json()
    chunk = versions[-1]["chunks"][0]
    return Seeded(document_id, chunk["evidence_id"], text[chunk["start"] : chunk["end"]])


@pytest.fixture(scope="module")
def seeded(live_server: LiveServer) -> dict[str, Seeded]:
    with live_server.client("alpha") as alpha, live_server.client("beta") as beta:
        return {
            "alpha": _ingest(alpha, ALPHA_TEXT, "https://alpha.example/retention", "Alpha policy"),
            "beta": _ingest(beta, BETA_TEXT, "https://beta.example/retention", "Beta policy"),
        }


def _missing_evidence_id(like: str) -> str:
    """A well-formed id that exists nowhere: same shape, random document and chunk."""
    parts = like.split(":")
    return ":".join([*parts[:2], str(uuid.uuid4()), parts[3], str(uuid.uuid4())])


def test_requests_without_a_valid_key_get_401(live_server: LiveServer) -> None:
    for client in (live_server.client(), live_server.client(key="pk_not-a-real-key")):
        with client:
            r = client.post("/v1/search", json={"question": "records"})
        assert r.status_code == 401
        assert r.headers["www-authenticate"] == "Bearer"
        assert r.json()["error"]["code"] == "unauthorized"
    with live_server.client(key="Basic abc") as client:
        assert client.get("/v1/documents").status_code == 401


def test_a_revoked_key_stops_working(live_server: LiveServer) -> None:
    key = live_server.keys["gamma"]  # made for this test by `keys create --tenant gamma`
    with live_server.client(key=key) as client:
        assert client.get("/v1/documents").status_code == 200
        subprocess.run(
            service_command("keys", "revoke", key, "--db", str(live_server.db)),
            check=True,
            capture_output=True,
            env=clean_env(),
            timeout=60,
        )
        r = client.get("/v1/documents")
    assert r.status_code == 401
    assert r.json() == {"error": {"code": "unauthorized", "message": "invalid or revoked API key"}}


def test_each_key_lists_and_searches_only_its_workspace(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    for tenant, other in (("alpha", "beta"), ("beta", "alpha")):
        with live_server.client(tenant) as client:
            listed = {d["document_id"] for d in client.get("/v1/documents").json()}
            hits = client.post("/v1/search", json={"question": "customer records years"}).json()
        assert seeded[tenant].document_id in listed
        assert seeded[other].document_id not in listed
        found = {h["document_id"] for h in hits["hits"]}
        assert found == {seeded[tenant].document_id}
        assert all(
            h["view_url"].startswith(f"{live_server.base_url}/view/ev1:") for h in hits["hits"]
        )


def test_another_workspaces_ids_read_exactly_like_missing_ones(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    foreign = seeded["alpha"]
    missing_id = _missing_evidence_id(foreign.evidence_id)
    with live_server.client("beta") as beta:
        for foreign_path, missing_path in [
            (f"/v1/evidence/{foreign.evidence_id}", f"/v1/evidence/{missing_id}"),
            (f"/v1/documents/{foreign.document_id}", f"/v1/documents/{uuid.uuid4()}"),
            (
                f"/v1/documents/{foreign.document_id}/versions",
                f"/v1/documents/{uuid.uuid4()}/versions",
            ),
        ]:
            a, b = beta.get(foreign_path), beta.get(missing_path)
            assert a.status_code == b.status_code == 404
            assert a.content == b.content
        a = beta.post(f"/v1/documents/{foreign.document_id}/purge")
        b = beta.post(f"/v1/documents/{uuid.uuid4()}/purge")
        assert a.status_code == b.status_code == 404 and a.content == b.content
        fetched = beta.post("/v1/evidence/fetch", json={"ids": [foreign.evidence_id, missing_id]})
        assert [o["status"] for o in fetched.json()["outcomes"]] == ["not_found", "not_found"]
        assert all(o["text"] == "" and o["title"] is None for o in fetched.json()["outcomes"])
        seen = beta.get(f"/view/{foreign.evidence_id}")
        unseen = beta.get(f"/view/{missing_id}")
        assert seen.status_code == unseen.status_code == 404
        assert seen.content == unseen.content
        assert "Alpha" not in seen.text and "seven" not in seen.text
    with live_server.client("alpha") as alpha:  # the owner still reads it, of course
        own = alpha.get(f"/v1/evidence/{foreign.evidence_id}").json()
        assert own["status"] == "ok" and own["text"] == foreign.text
        page = alpha.get(f"/view/{foreign.evidence_id}")
        assert page.status_code == 200 and "Alpha policy" in page.text


def test_answers_cite_only_the_callers_workspace_with_viewer_links(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    for tenant, other in (("alpha", "beta"), ("beta", "alpha")):
        with live_server.client(tenant) as client:
            r = client.post(
                "/v1/answer",
                json={"question": "What is the retention period for customer records?"},
            )
            assert r.status_code == 200, r.text
            answer = r.json()
            assert answer["outcome"] == "answered"
            cited = {c["document_id"] for c in answer["citations"]}
            assert cited == {seeded[tenant].document_id}
            # The service checks support like the CLI does: every claim carries a verdict.
            assert answer["claims"]
            assert all(c["support"]["verdict"] == "supported" for c in answer["claims"])
            assert seeded[other].document_id not in r.text
            source = answer["sources"][0]
            assert (
                f"[1] [{'Alpha' if tenant == 'alpha' else 'Beta'} policy]({source['view_url']})"
                in (answer["text"])
            )
            assert client.get(source["view_url"]).status_code == 200
        with live_server.client(other) as intruder:
            assert intruder.get(source["view_url"]).status_code == 404


def test_oversize_uploads_get_a_clear_413(live_server: LiveServer) -> None:
    big = b"word " * (UPLOAD_LIMIT_MB * 1024 * 1024 // 5 + 1000)
    with live_server.client("alpha") as client:
        r = client.post("/v1/documents/upload", files={"file": ("big.txt", big, "text/plain")})
        assert r.status_code == 413
        error = r.json()["error"]
        assert error["code"] == "payload_too_large"
        assert f"upload limit of {UPLOAD_LIMIT_MB} MB" in error["message"]
        r = client.post("/v1/documents", json={"text": big.decode(), "uri": "big"})
        assert r.status_code == 413
        assert client.get("/v1/documents").status_code == 200  # the server is fine


def _finished(client: httpx.Client, accepted: httpx.Response) -> dict[str, Any]:
    """The job an upload's 202 names, polled until it ends (bounded)."""
    assert accepted.status_code == 202, accepted.text
    url = accepted.json()["url"]
    assert accepted.headers["location"] == url
    for _ in range(600):
        job: dict[str, Any] = client.get(url).json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job still running: {job}")


def test_upload_is_a_job_and_the_same_uri_again_a_new_version(live_server: LiveServer) -> None:
    with live_server.client("alpha") as client:
        first = _finished(
            client,
            client.post(
                "/v1/documents/upload",
                files={"file": ("handbook.md", b"# Leave\n\nStaff get 25 days of leave.\n")},
                data={"uri": "https://alpha.example/handbook"},
            ),
        )
        assert first["status"] == "done" and first["result"]["status"] == "new"
        second = _finished(
            client,
            client.post(
                "/v1/documents/upload",
                files={"file": ("handbook.md", b"# Leave\n\nStaff get 28 days of leave.\n")},
                data={"uri": "https://alpha.example/handbook"},
            ),
        )
        assert second["result"]["status"] == "updated"
        document_id = first["result"]["document_id"]
        assert second["result"]["document_id"] == document_id
        versions = client.get(f"/v1/documents/{document_id}/versions").json()
        assert [v["superseded"] for v in versions] == [True, False]
        bad = client.post("/v1/documents/upload", files={"file": ("x.exe", b"MZ")})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
        broken = _finished(
            client, client.post("/v1/documents/upload", files={"file": ("b.pdf", b"not a pdf")})
        )
        assert broken["status"] == "failed" and broken["error"]["code"] == "ingest_failed"
        job_url = first["url"]
    with live_server.client("beta") as beta:  # another workspace's job reads as missing
        foreign = beta.get(job_url)
        missing = beta.get(job_url.rsplit("/", 1)[0] + "/no-such-job")
        assert foreign.status_code == missing.status_code == 404
        assert foreign.json() == missing.json()


def test_superseded_erased_and_deleted_are_labelled(live_server: LiveServer) -> None:
    with live_server.client("alpha") as client:
        doc = _ingest(client, "The fee is 10 euros per month.\n\nPay by card.", "fees", "Fees")
        update = client.put(
            f"/v1/documents/{doc.document_id}",
            json={"text": "The fee is 12 euros per month.\n\nPay by card."},
        )
        assert update.json()["status"] == "updated"
        old = client.get(f"/v1/evidence/{doc.evidence_id}").json()
        assert old["status"] == "ok" and old["superseded"] is True
        assert old["text"] == doc.text and old["current_hash16"] == update.json()["hash16"]
        page = client.get(f"/view/{doc.evidence_id}").text
        assert "Superseded" in page and 'id="current-version"' in page
        assert "<del>10</del><ins>12</ins>" in page
        resolved = client.post(
            "/v1/citations/resolve", json={"evidence_id": doc.evidence_id}
        ).json()
        assert resolved["current_evidence_id"] and resolved["superseded"]

        current = client.get(f"/v1/documents/{doc.document_id}/versions").json()[-1]["chunks"][0]
        r = client.post(
            f"/v1/documents/{doc.document_id}/erase", json={"chunk_id": current["chunk_id"]}
        )
        assert r.status_code == 200 and r.json()["erased_chunks"] == 1
        erased = client.get(f"/v1/evidence/{current['evidence_id']}").json()
        assert erased["status"] == "erased" and erased["text"] == ""
        page = client.get(f"/view/{current['evidence_id']}").text
        assert "Erased" in page and "12 euros" not in page and "<mark" not in page

        assert client.delete(f"/v1/documents/{doc.document_id}").json()["status"] == "deleted"
        deleted = client.get(f"/v1/evidence/{doc.evidence_id}").json()
        assert deleted["status"] == "deleted" and deleted["text"] == ""
        page = client.get(f"/view/{doc.evidence_id}").text
        assert "Deleted" in page and "10 euros" not in page

        assert client.post(f"/v1/documents/{doc.document_id}/purge").json()["status"] == "purged"
        assert client.get(f"/v1/evidence/{doc.evidence_id}").status_code == 404


def test_check_citations_against_a_fetch_session(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    own, foreign = seeded["alpha"].evidence_id, seeded["beta"].evidence_id
    invented = _missing_evidence_id(own)
    with live_server.client("alpha") as client:
        session = client.post("/v1/sessions").json()["session_id"]
        answer = f"Records are kept seven years {own}. And three {foreign}, or {invented}."
        before = client.post("/v1/citations/check", json={"text": answer, "session": session})
        assert [v["verdict"] for v in before.json()["verdicts"]] == ["unfetched"] * 3
        client.post("/v1/evidence/fetch", json={"ids": [own, foreign], "session": session})
        after = client.post("/v1/citations/check", json={"text": answer, "session": session}).json()
        assert [v["verdict"] for v in after["verdicts"]] == ["valid", "unfetched", "unfetched"]
        assert after["all_valid"] is False
        stateless = client.post("/v1/citations/check", json={"ids": [own], "fetched": [own]})
        assert stateless.json()["all_valid"] is True
    with live_server.client("beta") as beta:  # a session id is no use to another workspace
        r = beta.post("/v1/citations/check", json={"ids": [own], "session": session})
        assert r.status_code == 404


def test_errors_are_json_with_stable_codes(live_server: LiveServer) -> None:
    with live_server.client("alpha") as client:
        cases = [
            (
                client.post(
                    "/v1/search", content=b"{not json", headers={"content-type": "application/json"}
                ),
                422,
                "invalid_request",
            ),
            (client.post("/v1/search", json={"question": ""}), 422, "invalid_request"),
            (client.get("/v1/evidence/ev1:nonsense"), 400, "malformed_evidence_id"),
            (
                client.post("/v1/search", json={"question": "x", "mode": "dense"}),
                400,
                "unsupported_mode",
            ),
            (client.get("/v1/nowhere"), 404, "not_found"),
            (client.delete("/v1/search"), 405, "method_not_allowed"),
        ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        body = response.json()
        assert set(body) == {"error"} and body["error"]["code"] == code
        assert "Traceback" not in response.text


def test_serve_loads_the_support_checker_model_before_it_listens(tmp_path: Path) -> None:
    """The first answer must not pay for deriving the quantised model: start-up does."""
    db, cache, log_path = tmp_path / "p.db", tmp_path / "cache", tmp_path / "serve.log"
    pincite.open(db, embedder=None).close()
    command = service_command("serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0")
    env = {**clean_env(), "PINCITE_CACHE_DIR": str(cache)}
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for_port(process, log_path)
        assert [p.suffix for p in sorted(cache.glob("minilm-dynint8-*"))] == [".onnx", ".sha256"]
        text = log_path.read_text()
        assert text.index("loading models") < text.index("Uvicorn running")
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_links_use_the_public_base_never_the_host_header(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    headers = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    with live_server.client("alpha") as client:
        hits = client.post("/v1/search", json={"question": "retention"}, headers=headers).json()
        resolved = client.post(
            "/v1/citations/resolve",
            json={"evidence_id": seeded["alpha"].evidence_id},
            headers=headers,
        ).json()
    links = [h["view_url"] for h in hits["hits"]] + [resolved["view_url"]]
    # serve's default base is its bind address; the Host header never enters a link.
    assert links and all(link.startswith(f"{live_server.base_url}/view/") for link in links)


def test_a_fetch_session_holds_across_connections_and_workers(
    live_server: LiveServer, seeded: dict[str, Seeded]
) -> None:
    own = seeded["alpha"].evidence_id
    with live_server.client("alpha") as client:
        session = client.post("/v1/sessions").json()["session_id"]
    # A fresh connection each time, so the requests land on the server's several workers.
    for _ in range(12):
        with live_server.client("alpha") as fresh:
            body = {"ids": [own], "session": session}
            assert fresh.post("/v1/evidence/fetch", json=body).status_code == 200
            check = fresh.post("/v1/citations/check", json={"ids": [own], "session": session})
            assert check.json()["all_valid"] is True


def test_stopping_the_server_closes_the_store(tmp_path: Path) -> None:
    """SIGTERM: each worker's lifespan closes its corpus, which checkpoints the WAL."""
    with running_server(tmp_path) as server, server.client("alpha") as client:
        r = client.post("/v1/documents", json={"text": "Fees are due monthly.", "uri": "fees"})
        assert r.status_code == 201
        wal = server.db.with_name(server.db.name + "-wal")
        assert wal.exists() and wal.stat().st_size > 0  # the write sits in the log now
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.parametrize("bad", ["ftp://files.example", "example.com", "https://x.example/?a=1"])
def test_a_bad_public_url_is_a_one_line_error(tmp_path: Path, bad: str) -> None:
    db = tmp_path / "p.db"
    command = service_command("serve", "--db", str(db), "--embedder", "none")
    run = subprocess.run(
        [*command, "--public-url", bad], capture_output=True, text=True, timeout=60, env=clean_env()
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("error:") and "--public-url" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
