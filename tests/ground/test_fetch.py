"""fetch_evidence: every status, two tenants, forged and non-canonical ids."""

from __future__ import annotations

import json
import uuid

import pytest

from pincite import ids
from pincite.corpus import Corpus
from pincite.errors import InputError
from pincite.ground.fetch import FetchLedger, FetchStatus

POLICY_V1 = (
    "Retention policy\n\nCustomer records are kept for seven years after the account closes. "
    "Backups are encrypted at rest.\n\nAccess requests are answered within 30 days."
)
POLICY_V2 = POLICY_V1.replace("seven years", "ten years")


def _first_chunk(corpus: Corpus, document_id: str, tenant: str = "acme"):  # type: ignore[no-untyped-def]
    version = corpus.versions(document_id, tenant=tenant)[-1]
    return version, corpus.chunks(version)[0]


@pytest.fixture
def doc(corpus: Corpus) -> str:
    report = corpus.ingest_text(POLICY_V1, uri="policy://retention", tenant="acme")
    assert report.document_id is not None
    return report.document_id


def test_chunk_id_fetches_exact_version_text(corpus: Corpus, doc: str) -> None:
    version, chunk = _first_chunk(corpus, doc)
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.OK
    assert outcome.text == version.text[chunk.start : chunk.end] == chunk.text
    assert outcome.superseded is False


def test_span_inside_a_chunk_is_ok_and_exact(corpus: Corpus, doc: str) -> None:
    version, _chunk = _first_chunk(corpus, doc)
    start = version.text.index("Customer records")
    end = start + len("Customer records are kept for seven years")
    sid = ids.encode_span(doc, version.hash16, start, end)
    [outcome] = corpus.fetch([sid], tenant="acme")
    assert outcome.status is FetchStatus.OK
    assert outcome.text == "Customer records are kept for seven years"


def test_partial_when_span_covers_uncovered_whitespace(corpus: Corpus) -> None:
    report = corpus.ingest_text("   alpha beta gamma   ", uri="u://ws", tenant="acme")
    assert report.document_id
    version = corpus.versions(report.document_id, tenant="acme")[0]
    [chunk] = corpus.chunks(version)
    assert chunk.start == 3
    sid = ids.encode_span(report.document_id, version.hash16, 0, len(version.text))
    [outcome] = corpus.fetch([sid], tenant="acme")
    assert outcome.status is FetchStatus.PARTIAL
    assert outcome.text == "alpha beta gamma"
    assert (outcome.start, outcome.end) == (chunk.start, chunk.end)


def test_truncated_when_longer_than_max_chars(corpus: Corpus, doc: str) -> None:
    _, chunk = _first_chunk(corpus, doc)
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme", max_chars=10)
    assert outcome.status is FetchStatus.TRUNCATED
    assert outcome.text == chunk.text[:10]


def test_superseded_version_still_returns_its_own_text(corpus: Corpus, doc: str) -> None:
    old_version, old_chunk = _first_chunk(corpus, doc)
    report = corpus.ingest_text(POLICY_V2, uri="policy://retention", tenant="acme")
    assert report.status.value == "updated" and report.document_id == doc
    [outcome] = corpus.fetch([old_chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.OK
    assert outcome.superseded is True
    assert "seven years" in outcome.text and "ten years" not in outcome.text
    assert outcome.current_hash16 == report.hash16 != old_version.hash16


def test_unchanged_reingest_creates_nothing(corpus: Corpus, doc: str) -> None:
    report = corpus.ingest_text(POLICY_V1, uri="policy://retention", tenant="acme")
    assert report.status.value == "unchanged"
    assert len(corpus.versions(doc, tenant="acme")) == 1


def test_deleted_document_hides_text(corpus: Corpus, doc: str) -> None:
    _, chunk = _first_chunk(corpus, doc)
    corpus.delete(doc, tenant="acme")
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.DELETED
    assert outcome.text == ""


def test_erased_chunk_is_a_tombstone_and_leaves_no_text(corpus: Corpus, doc: str) -> None:
    version, chunk = _first_chunk(corpus, doc)
    secret = chunk.text
    assert corpus.erase(doc, tenant="acme", chunk_id=chunk.chunk_id) == 1
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.ERASED and outcome.text == ""
    span = ids.encode_span(doc, version.hash16, chunk.start, chunk.start + 5)
    assert corpus.fetch([span], tenant="acme")[0].status is FetchStatus.ERASED
    stored = corpus.versions(doc, tenant="acme")[0]
    assert secret not in stored.text and len(stored.text) == len(version.text)
    assert corpus.store.chunk("acme", chunk.chunk_id).erased  # type: ignore[union-attr]
    assert corpus.store.search_lexical("acme", ["customer"], 5) == []


def test_whole_document_erasure_blanks_every_version(corpus: Corpus, doc: str) -> None:
    corpus.ingest_text(POLICY_V2, uri="policy://retention", tenant="acme")
    corpus.erase(doc, tenant="acme")
    for version in corpus.versions(doc, tenant="acme"):
        assert version.text.strip() == ""
        for chunk in corpus.chunks(version):
            assert chunk.erased and chunk.text == ""
            assert corpus.fetch([chunk.evidence_id], tenant="acme")[0].status is FetchStatus.ERASED


def test_purged_document_is_not_found(corpus: Corpus, doc: str) -> None:
    _, chunk = _first_chunk(corpus, doc)
    corpus.purge(doc, tenant="acme")
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.NOT_FOUND
    assert corpus.store.search_lexical("acme", ["customer"], 5) == []
    rows = corpus.store._query("SELECT count(*) FROM chunks")  # type: ignore[attr-defined]
    assert rows[0][0] == 0


def test_other_tenant_and_missing_ids_are_indistinguishable(corpus: Corpus, doc: str) -> None:
    version, chunk = _first_chunk(corpus, doc)
    forged = ids.encode_chunk(str(uuid.uuid4()), version.hash16, str(uuid.uuid4()))
    wrong_version = ids.encode_chunk(doc, "0" * 16, chunk.chunk_id)
    foreign = corpus.fetch([chunk.evidence_id], tenant="globex")[0]
    missing = corpus.fetch([forged], tenant="globex")[0]
    assert foreign.status is missing.status is FetchStatus.NOT_FOUND
    assert corpus.fetch([wrong_version], tenant="acme")[0].status is FetchStatus.NOT_FOUND
    strip = {"id"}
    a = {k: v for k, v in foreign.as_dict().items() if k not in strip}
    b = {k: v for k, v in missing.as_dict().items() if k not in strip}
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_chunk_of_another_document_is_not_found(corpus: Corpus, doc: str) -> None:
    other = corpus.ingest_text("Another text entirely.", uri="u://other", tenant="acme")
    assert other.document_id
    _, chunk = _first_chunk(corpus, other.document_id)
    version, _ = _first_chunk(corpus, doc)
    mixed = ids.encode_chunk(doc, version.hash16, chunk.chunk_id)
    assert corpus.fetch([mixed], tenant="acme")[0].status is FetchStatus.NOT_FOUND


def test_span_past_the_end_is_not_found(corpus: Corpus, doc: str) -> None:
    version, _ = _first_chunk(corpus, doc)
    sid = ids.encode_span(doc, version.hash16, 0, len(version.text) + 1)
    assert corpus.fetch([sid], tenant="acme")[0].status is FetchStatus.NOT_FOUND


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "ev1:c:nope",
        "EV1:C:x",
        "ev1:s:{doc}:{h}:01-5",
        "ev1:s:{doc}:{h}:5-5",
        " ev1:c:{doc}:{h}:{chunk}",
    ],
)
def test_malformed_ids(corpus: Corpus, doc: str, bad: str) -> None:
    version, chunk = _first_chunk(corpus, doc)
    value = bad.format(doc=doc, h=version.hash16, chunk=chunk.chunk_id)
    [outcome] = corpus.fetch([value], tenant="acme")
    assert outcome.status is FetchStatus.MALFORMED and outcome.text == ""


def test_ledger_records_only_complete_reads(corpus: Corpus, doc: str) -> None:
    _version, chunk = _first_chunk(corpus, doc)
    ledger = FetchLedger("acme")
    corpus.fetch([chunk.evidence_id], tenant="acme", max_chars=5, ledger=ledger)
    assert ledger.entries == {}
    corpus.fetch([chunk.evidence_id, "ev1:bad"], tenant="acme", ledger=ledger)
    assert list(ledger.entries) == [chunk.evidence_id]
    with pytest.raises(InputError):
        corpus.fetch([chunk.evidence_id], tenant="globex", ledger=ledger)


def test_fetch_requires_a_tenant(corpus: Corpus, doc: str) -> None:
    _, chunk = _first_chunk(corpus, doc)
    with pytest.raises(InputError):
        corpus.fetch([chunk.evidence_id], tenant="")


def test_undoing_an_edit_reinstates_the_old_version_and_its_ids(corpus: Corpus, doc: str) -> None:
    _, chunk = _first_chunk(corpus, doc)
    corpus.ingest_text(POLICY_V2, uri="policy://retention", tenant="acme")
    back = corpus.ingest_text(POLICY_V1, uri="policy://retention", tenant="acme")
    assert back.status.value == "updated" and back.document_id == doc
    versions = corpus.versions(doc, tenant="acme")
    # The revived version is current again, listed last (versions are in the order
    # each last became current), with its original text and ids.
    assert len(versions) == 2 and [v.superseded for v in versions] == [True, False]
    assert versions[-1].text.startswith(POLICY_V1[:20])
    [outcome] = corpus.fetch([chunk.evidence_id], tenant="acme")
    assert outcome.status is FetchStatus.OK and outcome.superseded is False
    hits = corpus.store.search_lexical("acme", ["seven"], 5)
    assert [cid for cid, _ in hits] == [chunk.chunk_id]
    assert corpus.store.search_lexical("acme", ["ten"], 5) == []
