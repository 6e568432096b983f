"""The viewer shows a superseded citation's re-anchored passage beside the old one."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

import pincite
from pincite.server import create_app, create_key

V1 = (
    "Scope of this policy.\n\nCustomer records are kept for seven years after the account "
    "closes. Backups are encrypted at rest."
)
# The sentence moves, gains a paragraph before it, and one word changes.
V2 = (
    "Scope of this policy.\n\nA new paragraph about travel comes first.\n\nCustomer records "
    "are kept for ten years after the account closes. Backups are encrypted at rest."
)


def test_an_edited_sentence_is_shown_where_it_went(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "v.db", embedder=None) as corpus:
        corpus.ingest_text(V1, uri="policy://records", tenant="acme")
        [doc] = corpus.documents(tenant="acme")
        [old] = corpus.versions(doc.document_id, tenant="acme")
        start = V1.index("Customer")
        end = V1.index("Backups") - 1
        cited = pincite.ids.encode_span(doc.document_id, old.hash16, start, end)
        corpus.ingest_text(V2, uri="policy://records", tenant="acme")
        current = corpus.current_hash(doc.document_id, tenant="acme") or ""
        key = create_key(corpus.store, "acme")
        with TestClient(create_app(corpus)) as client:
            page = client.get(f"/view/{cited}", headers={"Authorization": f"Bearer {key}"})
    assert page.status_code == 200
    assert "Matched by alignment (similarity 0.9" in page.text
    assert "<del>seven</del>" in page.text and "<ins>ten</ins>" in page.text
    # Both passages in full, side by side, before the cited version's own text.
    cited_block = '<blockquote id="cited-text">Customer records are kept for seven years'
    current_block = '<blockquote id="current-text">Customer records are kept for ten years'
    assert cited_block in page.text and current_block in page.text
    assert page.text.index(current_block) < page.text.index('<mark id="cited">')
    [now] = re.findall(r'<h3>Now: <a href="/view/([^"]+)"', page.text)
    assert now.split(":")[3] == current[:16] != old.hash16
