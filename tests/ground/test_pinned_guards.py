"""Each pinning guard of check_grounding, alone, rejects a citation the others let through.

The tampered-span cases in test_answer.py break two guards at once (their spans
leave the chunk, so range and id checks back each other up); every case here
breaks exactly one, so deleting any single guard makes its test fail.
"""

from __future__ import annotations

import dataclasses

import pytest

from pincite import ids
from pincite.citation import Citation, CitedAnswer, Claim
from pincite.corpus import Corpus
from pincite.errors import UngroundedCitationError
from pincite.ground.cite import Retrieved, check_grounding, cite, cite_hit
from pincite.retrieve.search import SearchMode, SearchOptions

POLICY = (
    "Data retention\n\nCustomer invoices are retained for seven years. "
    "Support tickets are deleted after two years.\n\n"
    "Access control\n\nProduction access requires a hardware security key."
)
SENTENCE = "Customer invoices are retained for seven years."


@pytest.fixture
def retrieved(corpus: Corpus) -> Retrieved:
    corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme", title="Retention policy")
    result = corpus.retrieve(
        "invoices retained", tenant="acme", options=SearchOptions(mode=SearchMode.LEXICAL)
    )
    return cite(result)


def _sentence_citation(retrieved: Retrieved) -> Citation:
    """A genuine sentence citation inside the first retrieved chunk."""
    hit, first = retrieved.pairs[0]
    start = hit.chunk.text.index(SENTENCE) + hit.chunk.start
    return cite_hit(
        hit,
        tenant=retrieved.tenant,
        retrieved_at=first.retrieved_at,
        span=(start, start + len(SENTENCE)),
    )


def _check(citation: Citation, retrieved: Retrieved) -> None:
    check_grounding(CitedAnswer((Claim("x", (citation.citation_id,)),), (citation,)), retrieved)


def test_the_untampered_citations_pass(retrieved: Retrieved) -> None:
    # Controls: without them a broken fixture would make every rejection below vacuous.
    _check(retrieved[0], retrieved)
    _check(_sentence_citation(retrieved), retrieved)


def test_chunk_citation_narrowed_inside_its_chunk_is_ungrounded(retrieved: Retrieved) -> None:
    """Guard: a chunk id pins the whole chunk, so its span must equal the chunk's."""
    real = retrieved[0]
    narrowed = dataclasses.replace(real, span=(real.span[0] + 1, real.span[1] - 1))
    assert real.span[0] < narrowed.span[0] < narrowed.span[1] < real.span[1]
    with pytest.raises(UngroundedCitationError) as info:
        _check(narrowed, retrieved)
    assert info.value.missing == (real.evidence_id,)


def test_sentence_citation_whose_span_differs_from_its_id_is_ungrounded(
    retrieved: Retrieved,
) -> None:
    """Guard: a span id pins its characters; the citation's span must be those."""
    sentence = _sentence_citation(retrieved)
    shifted = dataclasses.replace(sentence, span=(sentence.span[0] + 1, sentence.span[1] + 1))
    chunk = retrieved[0].span
    assert chunk[0] <= shifted.span[0] < shifted.span[1] <= chunk[1]  # still inside the chunk
    with pytest.raises(UngroundedCitationError) as info:
        _check(shifted, retrieved)
    assert info.value.missing == (sentence.evidence_id,)


def test_consistent_span_outside_its_chunk_is_ungrounded(retrieved: Retrieved) -> None:
    """Guard: a sentence span must lie inside the retrieved chunk it names."""
    sentence = _sentence_citation(retrieved)
    chunk_end = retrieved[0].span[1]
    span = (chunk_end - 5, chunk_end + 20)
    evidence_id = ids.encode_span(sentence.document_id, sentence.hash16, *span)
    outside = dataclasses.replace(sentence, span=span, evidence_id=evidence_id)
    # Everything else agrees: the id decodes to this span, document and version.
    ref = ids.decode(evidence_id)
    assert isinstance(ref, ids.SpanRef) and (ref.start, ref.end) == span
    with pytest.raises(UngroundedCitationError) as info:
        _check(outside, retrieved)
    assert info.value.missing == (evidence_id,)


def test_chunk_id_naming_another_chunk_is_ungrounded(retrieved: Retrieved) -> None:
    """Guard: a chunk evidence id must name the chunk the citation carries."""
    real = retrieved[0]
    other = ids.encode_chunk(real.document_id, real.hash16, "0" * 8 + real.chunk_id[8:])
    assert other != real.evidence_id
    with pytest.raises(UngroundedCitationError):
        _check(dataclasses.replace(real, evidence_id=other), retrieved)


def test_each_citation_travels_with_the_hit_it_was_built_from(retrieved: Retrieved) -> None:
    for hit, citation in retrieved.pairs:
        assert citation.chunk_id == hit.chunk.chunk_id
        assert retrieved.hit_for(citation) is hit
    sentence = _sentence_citation(retrieved)
    assert retrieved.hit_for(sentence) is retrieved.pairs[0][0]
    assert list(retrieved) == list(retrieved.citations) and len(retrieved) == len(retrieved.pairs)
