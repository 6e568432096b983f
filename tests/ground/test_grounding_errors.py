"""What cite and check_grounding carry and say: the cases the mutation run found unchecked.

Each grounding error names its reason and the ids involved (missing and
available), so a caller or a repair pass can act on it; cite_hit copies every
retrieval fact into the citation; the stored-chunk check stands on its own.
"""

from __future__ import annotations

import dataclasses

import pytest

from pincite import ids
from pincite.citation import Citation, CitedAnswer, Claim
from pincite.corpus import Corpus
from pincite.errors import (
    ConfigurationError,
    TenantCrossingError,
    UncitedClaimError,
    UngroundedCitationError,
)
from pincite.ground.cite import (
    Retrieved,
    check_grounding,
    citation_id_for,
    citations_from,
    cite,
    cite_hit,
)
from pincite.model import Branches, ChannelRank, Hit
from pincite.retrieve.search import SearchMode, SearchOptions

LEXICAL = SearchOptions(mode=SearchMode.LEXICAL)
POLICY = "Customer invoices are retained for seven years. Tickets are deleted after two years."


@pytest.fixture
def acme(corpus: Corpus) -> Corpus:
    corpus.ingest_text(POLICY, uri="policy://retention", tenant="acme", title="Retention")
    corpus.ingest_text("Supplier invoices are retained for ten years.", uri="s://", tenant="acme")
    return corpus


def _retrieved(corpus: Corpus) -> Retrieved:
    return cite(corpus.retrieve("invoices retained", tenant="acme", options=LEXICAL))


def _hit(corpus: Corpus) -> tuple[Hit, str]:
    result = corpus.retrieve("invoices retained", tenant="acme", options=LEXICAL)
    return result.hits[0], result.retrieved_at


def _answer(*citations: Citation) -> CitedAnswer:
    return CitedAnswer((Claim("x", tuple(c.citation_id for c in citations)),), citations)


def _ungrounded(answer: CitedAnswer, retrieved: Retrieved, **kw: object) -> UngroundedCitationError:
    with pytest.raises(UngroundedCitationError) as info:
        check_grounding(answer, retrieved, **kw)  # type: ignore[arg-type]
    return info.value


def test_uncited_claim_error_names_the_claim(acme: Corpus) -> None:
    with pytest.raises(UncitedClaimError) as info:
        check_grounding(CitedAnswer((Claim("Invoices last forever."),), ()), _retrieved(acme))
    assert info.value.claim_text == "Invoices last forever."


def test_uncarried_id_error_says_why(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    answer = CitedAnswer((Claim("x", ("c-forged",)),), (retrieved[0],))
    error = _ungrounded(answer, retrieved)
    assert error.reason == "claim cites ids the answer does not carry"


def test_tenant_crossing_error_names_the_expected_workspace(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    theirs = dataclasses.replace(retrieved[0], tenant="globex")
    with pytest.raises(TenantCrossingError) as info:
        check_grounding(_answer(theirs), retrieved)
    assert info.value.expected == "acme"
    assert info.value.citation_ids == (theirs.evidence_id,)


def test_malformed_evidence_id_error_lists_what_was_available(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    bad = dataclasses.replace(retrieved[0], evidence_id="ev1:c:not-an-id")
    error = _ungrounded(_answer(bad), retrieved)
    assert error.reason == "citation has a malformed evidence id"
    assert error.missing == ("ev1:c:not-an-id",)
    assert error.available == tuple(sorted(c.evidence_id for c in retrieved))
    assert len(error.available) == 2


def test_unmatched_citation_error_says_why(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    moved = dataclasses.replace(retrieved[0], span=(retrieved[0].span[0] + 1, retrieved[0].span[1]))
    error = _ungrounded(_answer(moved), retrieved)
    assert error.reason == "citation does not match a passage retrieved in this run"
    assert error.available == tuple(sorted(c.evidence_id for c in retrieved))


# -- the stored-chunk check alone --------------------------------------------
# Retrieved is built from the altered citation itself, so the run check passes
# and only the comparison with the stored chunk can catch the change.


def _stored_check_fails(corpus: Corpus, altered: Citation) -> UngroundedCitationError:
    hit = _retrieved(corpus).pairs[0][0]
    retrieved = Retrieved("acme", ((hit, altered),))
    check_grounding(_answer(altered), retrieved)  # consistent with its own run
    error = _ungrounded(_answer(altered), retrieved, store=corpus.store)
    assert error.reason == "citation no longer matches the stored chunk"
    assert (error.missing, error.available) == ((altered.evidence_id,), ())
    return error


def test_stored_check_catches_another_version_alone(acme: Corpus) -> None:
    real = _retrieved(acme)[0]
    other_version = real.hash16 + "0" * 48  # same hash16, so the id still agrees
    _stored_check_fails(acme, dataclasses.replace(real, document_version=other_version))


def test_stored_check_catches_another_document_alone(acme: Corpus) -> None:
    real = _retrieved(acme)[0]
    other = "0" * 8 + real.document_id[8:]
    evidence_id = ids.encode_chunk(other, real.hash16, real.chunk_id)
    _stored_check_fails(acme, dataclasses.replace(real, document_id=other, evidence_id=evidence_id))


def test_stored_check_catches_a_span_past_the_stored_chunk_alone(acme: Corpus) -> None:
    real = _retrieved(acme)[0]
    _stored_check_fails(acme, dataclasses.replace(real, span=(real.span[0], real.span[1] + 3)))


def test_untouched_citation_passes_the_stored_check(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    check_grounding(_answer(*retrieved), retrieved, store=acme.store)


# -- cite_hit -----------------------------------------------------------------


def test_cite_hit_copies_every_retrieval_fact(acme: Corpus) -> None:
    hit, at = _hit(acme)
    chunk = dataclasses.replace(hit.chunk, pages=(3, 4), page_label="iii", section=("Retention",))
    branches = Branches((ChannelRank("lexical", 1, 2.5),))
    hit = dataclasses.replace(hit, chunk=chunk, score=0.75, branches=branches, superseded=True)
    c = cite_hit(hit, tenant="acme", retrieved_at=at)
    assert c.citation_id == citation_id_for(chunk.evidence_id)
    assert c.citation_id.startswith("c") and len(c.citation_id) == 11
    assert (c.score, c.branches, c.superseded) == (0.75, branches, True)
    assert (c.locator.pages, c.locator.page_label, c.locator.section) == (
        (3, 4),
        "iii",
        ("Retention",),
    )


def test_sentence_spans_may_touch_both_ends_of_their_chunk(acme: Corpus) -> None:
    hit, at = _hit(acme)
    start, end = hit.chunk.start, hit.chunk.end
    first = cite_hit(hit, tenant="acme", retrieved_at=at, span=(start, start + 5))
    last = cite_hit(hit, tenant="acme", retrieved_at=at, span=(end - 5, end))
    assert (first.span, last.span) == ((start, start + 5), (end - 5, end))
    for bad in ((start + 2, start + 2), (start, end + 1)):
        with pytest.raises(ConfigurationError, match=rf"span \({bad[0]}, {bad[1]}\) lies outside"):
            cite_hit(hit, tenant="acme", retrieved_at=at, span=bad)


def test_cite_hit_error_for_a_chunk_without_span_names_the_chunk(acme: Corpus) -> None:
    hit, at = _hit(acme)
    broken = dataclasses.replace(hit, chunk=dataclasses.replace(hit.chunk, content_hash=""))
    with pytest.raises(ConfigurationError, match=f"chunk {hit.chunk.chunk_id} has no version"):
        cite_hit(broken, tenant="acme", retrieved_at=at)


# -- citations_from and CitedAnswer.citation ---------------------------------


def test_citations_from_skips_non_integers_and_keeps_going(acme: Corpus) -> None:
    retrieved = _retrieved(acme)
    assert len(retrieved) == 2
    assert citations_from(retrieved, ["1", True, 1.0, None, 2]) == [retrieved[1]]
    assert citations_from(retrieved, [0, 3, 2, 1, 2]) == [retrieved[1], retrieved[0]]


def test_cited_answer_lookup_of_an_unknown_id_is_none(acme: Corpus) -> None:
    c = _retrieved(acme)[0]
    answer = _answer(c)
    assert answer.citation(c.citation_id) is c
    assert answer.citation("c0000000000") is None
