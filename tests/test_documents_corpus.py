"""Ingesting the real shared documents into a real SQLite file keeps every span exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.ground.fetch import FetchStatus
from shared_paths import DOCUMENTS

pytestmark = pytest.mark.skipif(
    not (DOCUMENTS / "manifest.json").is_file(),
    reason=f"shared documents not found at {DOCUMENTS} (set PINCITE_SHARED)",
)

MANIFEST = json.loads((DOCUMENTS / "manifest.json").read_text()) if DOCUMENTS.is_dir() else []


@pytest.fixture(scope="module")
def shared_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    path = tmp_path_factory.mktemp("docs") / "docs.db"
    corpus = pincite.open(path, embedder=None)
    reports = list(corpus.ingest_paths([DOCUMENTS], tenant="docs"))
    assert [r.status.value for r in reports if r.status.value == "failed"] == []
    return corpus


def test_every_shared_document_ingests_with_exact_spans(shared_corpus: Corpus) -> None:
    by_uri = {d.uri: d for d in shared_corpus.documents(tenant="docs")}
    for entry in MANIFEST:
        document = by_uri[str((DOCUMENTS / entry["path"]).resolve())]
        [version] = shared_corpus.versions(document.document_id, tenant="docs")
        assert version.page_count == entry["pages"]
        chunks = shared_corpus.chunks(version)
        assert chunks, entry["path"]
        for chunk in chunks:
            assert chunk.text == version.text[chunk.start : chunk.end]
            assert chunk.pages and all(1 <= p <= entry["pages"] for p in chunk.pages)
            assert chunk.embed_text.endswith(chunk.text)
        if entry["path"].endswith(".pdf"):
            assert any(c.bboxes for c in chunks)
            assert all(b.origin.value == "bottom-left" for c in chunks for b in c.bboxes)


def test_known_pdf_sentence_is_on_its_page(shared_corpus: Corpus) -> None:
    # FIPS 199 defines the three security objectives on physical page 6 (printed
    # page 2) in the "Security Objectives" section.
    [doc] = [d for d in shared_corpus.documents(tenant="docs") if d.uri.endswith("FIPS199.pdf")]
    [version] = shared_corpus.versions(doc.document_id, tenant="docs")
    needle = "defines three security objectives"
    at = version.text.index(needle)
    [chunk] = [c for c in shared_corpus.chunks(version) if c.start <= at < c.end]
    assert chunk.pages[0] == 6


def test_rfc_section_path_and_page_label(shared_corpus: Corpus) -> None:
    [doc] = [d for d in shared_corpus.documents(tenant="docs") if d.uri.endswith("rfc2616.txt")]
    [version] = shared_corpus.versions(doc.document_id, tenant="docs")
    at = version.text.index("The purpose of the no-store directive")
    [chunk] = [c for c in shared_corpus.chunks(version) if c.start <= at < c.end]
    assert chunk.section[-2:] == ("14.9 Cache-Control", "14.9.2 What May be Stored by Caches")
    assert chunk.page_label == str(chunk.pages[0])


def test_nist_revisions_under_one_uri(tmp_path: Path) -> None:
    with pincite.open(tmp_path / "nist.db", embedder=None) as corpus:
        uri = "https://doi.org/10.6028/NIST.SP.800-46"
        r1 = corpus.ingest_path(DOCUMENTS / "nist" / "SP800-46r1.pdf", tenant="t", uri=uri)
        old_ids = [
            c.evidence_id
            for c in corpus.chunks(corpus.versions(r1.document_id or "", tenant="t")[0])
        ]
        r2 = corpus.ingest_path(DOCUMENTS / "nist" / "SP800-46r2.pdf", tenant="t", uri=uri)
        again = corpus.ingest_path(DOCUMENTS / "nist" / "SP800-46r2.pdf", tenant="t", uri=uri)
        assert (r1.status.value, r2.status.value, again.status.value) == (
            "new",
            "updated",
            "unchanged",
        )
        assert r1.document_id == r2.document_id and r1.hash16 != r2.hash16
        versions = corpus.versions(r2.document_id or "", tenant="t")
        assert len(versions) == 2 and versions[0].superseded and not versions[1].superseded
        outcomes = corpus.fetch(old_ids, tenant="t")
        assert all(o.status is FetchStatus.OK and o.superseded for o in outcomes)
        assert all(o.current_hash16 == r2.hash16 for o in outcomes)
        assert all(o.text == versions[0].text[o.start : o.end] for o in outcomes)  # type: ignore[misc]
        # Search only sees the current revision.
        hits = corpus.store.search_lexical("t", ["telework"], 50)
        current = {c.chunk_id for c in corpus.chunks(versions[1])}
        assert hits and all(cid in current for cid, _ in hits)
