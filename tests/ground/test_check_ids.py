"""check_citations and find_ids on the edges the mutation run found unchecked."""

from __future__ import annotations

from pincite.corpus import Corpus
from pincite.ground.check import Verdict, check_citations, find_ids
from pincite.ground.fetch import FetchLedger


def test_find_ids_strips_only_prose_punctuation() -> None:
    # A malformed candidate keeps its own letters (only '.' and ':' are trimmed).
    assert find_ids("See EV1:BOX. and ev1:c:X:") == ["EV1:BOX", "ev1:c:X"]


def test_a_malformed_id_does_not_stop_the_check(corpus: Corpus) -> None:
    report = corpus.ingest_text("Invoices are kept for seven years.", uri="u://a", tenant="acme")
    assert report.document_id
    version = corpus.versions(report.document_id, tenant="acme")[0]
    good = corpus.chunks(version)[0].evidence_id
    ledger = FetchLedger("acme")
    corpus.fetch([good], tenant="acme", ledger=ledger)
    verdicts = check_citations(["ev1:broken", good], ledger)
    assert [(v.id, v.verdict) for v in verdicts] == [
        ("ev1:broken", Verdict.MALFORMED),
        (good, Verdict.VALID),
    ]
