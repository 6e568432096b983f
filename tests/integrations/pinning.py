"""What every adapter's object must satisfy: its evidence id fetches exactly its text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pincite.corpus import Corpus
from pincite.ground.fetch import FetchStatus, fetch_evidence

IT_POLICY = "Laptops must use full-disk encryption. Lost devices are reported within one day."
TRAVEL_POLICY = "Economy class is required for every flight shorter than six hours in duration."
# Globex shares acme's vocabulary, so a leak across tenants would be found by the same query.
GLOBEX_POLICY = "Lost devices are reported to the Globex security desk within two weeks."


def assert_pins(
    corpus: Corpus, tenant: str, text: str, metadata: Mapping[str, Any], evidence_id: str
) -> None:
    """``evidence_id`` (taken from the framework's object) fetches ``text`` back, unchanged,
    and the metadata's locator is the one the fetch reports."""
    assert metadata["evidence_id"] == evidence_id
    [outcome] = fetch_evidence(corpus.store, [evidence_id], tenant=tenant)
    assert outcome.status is FetchStatus.OK
    assert outcome.text == text
    assert (outcome.document_id, outcome.hash16) == (metadata["document_id"], metadata["hash16"])
    assert (outcome.start, outcome.end) == (metadata["start"], metadata["end"])
    assert metadata["content_hash"].startswith(metadata["hash16"])
    assert metadata["tenant"] == tenant
    [version] = [
        v
        for v in corpus.versions(metadata["document_id"], tenant=tenant)
        if v.content_hash == metadata["content_hash"]
    ]
    assert version.text[metadata["start"] : metadata["end"]] == text
    assert isinstance(metadata["section"], list) and isinstance(metadata["pages"], list)
    assert metadata["title"] == outcome.title and metadata["uri"] == outcome.uri


def assert_unreadable(corpus: Corpus, tenant: str, evidence_id: str) -> None:
    """Another tenant's id reads as missing, exactly like an invented one."""
    [outcome] = fetch_evidence(corpus.store, [evidence_id], tenant=tenant)
    assert outcome.status is FetchStatus.NOT_FOUND and outcome.text == ""
