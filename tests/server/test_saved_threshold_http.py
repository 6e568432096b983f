"""Over HTTP, each workspace is answered with its own saved threshold, and only its own."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pincite.answer.calibration import save_threshold
from pincite.corpus import Corpus
from pincite.server import create_app, create_key

TEXT = "# Finance policy\n\nInvoices are kept for seven years after payment.\n"
QUESTION = "For how many years are invoices kept after payment?"


def test_a_workspace_answers_with_its_saved_threshold(corpus: Corpus) -> None:
    keys = {tenant: create_key(corpus.store, tenant) for tenant in ("acme", "globex")}
    with TestClient(create_app(corpus)) as client:

        def post(tenant: str, path: str, body: dict[str, object]) -> dict[str, object]:
            headers = {"Authorization": f"Bearer {keys[tenant]}"}
            response = client.post(path, json=body, headers=headers)
            assert response.status_code in (200, 201), response.text
            return response.json()  # type: ignore[no-any-return]

        for tenant in keys:
            post(tenant, "/v1/documents", {"text": TEXT, "uri": "finance", "title": "Finance"})
        assert post("acme", "/v1/answer", {"question": QUESTION})["outcome"] == "answered"
        # Far above any score, saved for acme alone (scores without an embedder).
        save_threshold(corpus.store, "acme", 50.0, None)
        assert post("acme", "/v1/answer", {"question": QUESTION})["outcome"] == "refused"
        assert post("globex", "/v1/answer", {"question": QUESTION})["outcome"] == "answered"
