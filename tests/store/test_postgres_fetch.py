"""fetch_evidence on PostgreSQL, end to end through the Corpus facade and the ingest pipeline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.ground.fetch import FetchStatus

pytestmark = pytest.mark.integration

POLICY_V1 = (
    "Retention policy\n\nCustomer records are kept for seven years after the account closes. "
    "Backups are encrypted at rest.\n\nAccess requests are answered within 30 days."
)
POLICY_V2 = POLICY_V1.replace("seven years", "ten years")


@pytest.fixture
def corpus(fresh_pg_url: str) -> Iterator[Corpus]:
    with pincite.open(fresh_pg_url, embedder=None) as c:
        yield c


def _first(corpus: Corpus, document_id: str, tenant: str = "acme"):  # type: ignore[no-untyped-def]
    version = corpus.versions(document_id, tenant=tenant)[-1]
    return version, corpus.chunks(version)


def test_fetch_statuses_on_postgres(corpus: Corpus) -> None:
    report = corpus.ingest_text(POLICY_V1, uri="policy://retention", tenant="acme")
    doc = report.document_id
    assert doc is not None
    v1, chunks = _first(corpus, doc)
    old = chunks[0]

    [ok] = corpus.fetch([old.evidence_id], tenant="acme")
    assert ok.status is FetchStatus.OK and ok.text == v1.text[old.start : old.end]
    assert not ok.superseded

    # Another tenant: the same answer as an id that does not exist.
    [foreign] = corpus.fetch([old.evidence_id], tenant="globex")
    [missing] = corpus.fetch([old.evidence_id.replace(old.chunk_id[:8], "00000000")], tenant="acme")
    assert foreign.status is missing.status is FetchStatus.NOT_FOUND
    assert foreign.as_dict() | {"id": ""} == missing.as_dict() | {"id": ""}

    updated = corpus.ingest_text(POLICY_V2, uri="policy://retention", tenant="acme")
    assert updated.status.value == "updated"
    [superseded] = corpus.fetch([old.evidence_id], tenant="acme")
    assert superseded.status is FetchStatus.OK and superseded.superseded
    assert "seven years" in superseded.text
    assert superseded.current_hash16 == updated.hash16

    _, new_chunks = _first(corpus, doc)
    corpus.erase(doc, tenant="acme", chunk_id=new_chunks[0].chunk_id)
    [erased] = corpus.fetch([new_chunks[0].evidence_id], tenant="acme")
    assert erased.status is FetchStatus.ERASED and erased.text == ""

    corpus.delete(doc, tenant="acme")
    [deleted] = corpus.fetch([old.evidence_id], tenant="acme")
    assert deleted.status is FetchStatus.DELETED and deleted.text == ""

    corpus.purge(doc, tenant="acme")
    [purged] = corpus.fetch([old.evidence_id], tenant="acme")
    assert purged.status is FetchStatus.NOT_FOUND
