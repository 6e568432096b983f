"""Uploads are searchable by their words when their job ends, densely once embedding catches up.

In process (ASGI test client) with a small deterministic embedder whose
document embedding waits for the test's go, so the moment between the
text's commit and its vectors can be observed, not raced.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from fastapi.testclient import TestClient

import pincite
from pincite.server import create_app, create_key

DIM = 16


def _vector(text: str) -> npt.NDArray[np.float32]:
    v = np.zeros(DIM, np.float32)
    for word in re.findall(r"\w+", text.casefold()):
        v[hashlib.sha256(word.encode()).digest()[0] % DIM] += 1.0
    v[0] += 1e-3
    return v / np.linalg.norm(v)


class GatedEmbedder:
    """Bag-of-words vectors; documents are embedded only once ``go`` is set."""

    name = "gated-test"
    dim = DIM

    def __init__(self) -> None:
        self.go = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        assert self.go.wait(30), "the test never let embedding run"
        return np.vstack([_vector(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return _vector(text)


def _wait_for(check: object, what: str) -> None:
    deadline = time.monotonic() + 30  # a bound on a hang, not a speed target
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.02)


def test_an_upload_is_searchable_at_once_and_dense_when_embedded(tmp_path: Path) -> None:
    gated = GatedEmbedder()
    with pincite.open(tmp_path / "bg.db", embedder=gated) as corpus:
        auth = {"Authorization": f"Bearer {create_key(corpus.store, 'acme')}"}
        with TestClient(create_app(corpus, public_url="http://h")) as client:
            r = client.post(
                "/v1/documents/upload",
                files={"file": ("fees.md", b"# Fees\n\nThe monthly fee is ten euros.\n")},
                headers=auth,
            )
            assert r.status_code == 202
            path = r.json()["url"].removeprefix("http://h")
            # The job ends at the text's commit, before any vector exists.
            _wait_for(lambda: client.get(path, headers=auth).json()["status"] != "running", "job")
            assert client.get(path, headers=auth).json()["status"] == "done"

            def search() -> dict[str, object]:
                body = {"question": "monthly fee", "mode": "hybrid"}
                found: dict[str, object] = client.post("/v1/search", json=body, headers=auth).json()
                return found

            early = search()
            assert early["hits"] and early["dense_coverage"] == 0.0
            gated.go.set()
            _wait_for(lambda: search()["dense_coverage"] == 1.0, "the embedding job")
            assert corpus.store.routing_index("acme").document_ids
            lexical = client.post(
                "/v1/search", json={"question": "fee", "mode": "lexical"}, headers=auth
            ).json()
            assert lexical["dense_coverage"] is None


def test_the_text_route_answers_once_its_vectors_are_in(tmp_path: Path) -> None:
    gated = GatedEmbedder()
    gated.go.set()
    with pincite.open(tmp_path / "sync.db", embedder=gated) as corpus:
        auth = {"Authorization": f"Bearer {create_key(corpus.store, 'acme')}"}
        with TestClient(create_app(corpus)) as client:
            r = client.post(
                "/v1/documents",
                json={"text": "Laptops use disk encryption.", "uri": "sec"},
                headers=auth,
            )
            assert r.status_code == 201
            assert corpus.store.vector_coverage("acme") == (1, 1)
