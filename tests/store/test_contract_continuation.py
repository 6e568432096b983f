"""A lead-in at a chunk's end brings in the chunk holding its items (list questions).

Lexical-only stores, so which chunks are retrieved follows from the texts; on
both backends, since each reads a version's chunks its own way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.retrieve.continuation import CONTINUATION, ends_with_leadin, with_continuation

FILLER = " ".join(
    f"Each agency reviews remote access policy number {n} with its security officer."
    for n in range(11)
)
POLICY = (
    f"{FILLER}\n\nEach organization decides what levels of remote access to permit from "
    "which types of devices. Factors that organizations should weigh include the following:"
    "\n\nGUIDE TO TELEWORK SECURITY\n\n31\n\n"
    + "\n\n".join(
        f"- {name}. Some telework involves {what}, and what is granted follows from it; "
        f"the {what} is recorded for each class of client device in use."
        for name, what in [
            ("Sensitivity of telework", "sensitive information"),
            ("Teleworker location", "untrusted networks"),
            ("Device ownership", "personally owned equipment"),
            ("Travel abroad", "border crossings"),
            ("Shared households", "family members nearby"),
        ]
    )
)
OTHER = [
    f"Note {n}. Organizations weigh many factors when they plan telework programs for staff."
    for n in range(4)
]
# Unrelated documents, so the question's words are rare enough to rank by.
UNRELATED = [
    f"Recipe {n}. Bake the bread at a high heat until the crust is brown." for n in range(12)
]
QUESTION = "What factors should organizations weigh for levels of remote access?"


@pytest.fixture
def corpus(location: str) -> Iterator[Corpus]:
    with pincite.open(location, embedder=None) as c:
        c.ingest_text(POLICY, uri="policy.txt")
        for n, text in enumerate(OTHER + UNRELATED):
            c.ingest_text(text, uri=f"note-{n}.txt")
        yield c


def test_a_lead_in_is_found_behind_the_page_furniture_after_it() -> None:
    assert ends_with_leadin("... include the following:\n\nGUIDE TO TELEWORK SECURITY\n\n31\n")
    assert ends_with_leadin(
        "The potential impact is LOW if—\n\fThis publication is available from: http://x.org/y"
    )
    assert not ends_with_leadin("Organizations should weigh the sensitivity of telework.")
    assert not ends_with_leadin("GUIDE TO TELEWORK SECURITY\n\n31")
    assert ends_with_leadin("Agencies apply these.\n\nSECURITY REQUIREMENTS:\n\n12")
    assert not ends_with_leadin("A user agent MUST NOT retry a request with a non-")


def test_the_chunk_after_a_retrieved_lead_in_takes_the_last_place(corpus: Corpus) -> None:
    plain = corpus.retrieve(QUESTION, k=3)
    leadin = [h for h in plain.hits if ends_with_leadin(h.chunk.text)]
    assert leadin, "the chunker was meant to cut right after the lead-in"
    assert all("Sensitivity of telework" not in h.chunk.text for h in plain.hits)
    followed = with_continuation(corpus.store, plain, 3)
    assert len(followed.hits) == 3
    assert followed.hits[:2] == plain.hits[:2]
    last = followed.hits[2]
    assert "Sensitivity of telework" in last.chunk.text
    assert last.chunk.ordinal == leadin[0].chunk.ordinal + 1
    assert last.branches.channels[0].name == CONTINUATION
    # already retrieved: nothing changes
    assert with_continuation(corpus.store, followed, 3) == followed


def test_a_list_question_is_answered_from_the_items_after_the_chunk_boundary(
    corpus: Corpus,
) -> None:
    result = corpus.ask(QUESTION, k=3)
    assert result.answer is not None, result.message
    cited = " ".join(c.text for c in result.answer.claims)
    assert "Sensitivity of telework" in cited
    # a question of another kind is left to ranked retrieval
    other = "Does each agency review remote access policy number 3?"
    searched = [c.chunk_id for c in corpus.ask(other, k=3).searched]
    assert searched == [h.chunk.chunk_id for h in corpus.retrieve(other, k=3).hits]


def test_an_erased_or_other_tenants_next_chunk_is_never_brought_in(corpus: Corpus) -> None:
    plain = corpus.retrieve(QUESTION, k=3)
    followed = with_continuation(corpus.store, plain, 3)
    items = followed.hits[2].chunk
    # The same document under another tenant: its chunks are not this tenant's to follow.
    corpus.ingest_text(POLICY, uri="policy.txt", tenant="rival")
    rival = corpus.retrieve(QUESTION, k=3, tenant="rival")
    rival_followed = with_continuation(corpus.store, rival, 3)
    assert all(h.chunk.tenant == "rival" for h in rival_followed.hits)
    assert items.chunk_id not in {h.chunk.chunk_id for h in rival_followed.hits}
    # A result forged to name another tenant follows nothing of this tenant's.
    forged = replace(plain, tenant="rival")
    assert items.chunk_id not in {
        h.chunk.chunk_id for h in with_continuation(corpus.store, forged, 3).hits
    }
    corpus.erase(items.document_id, chunk_id=items.chunk_id)
    assert with_continuation(corpus.store, plain, 3) == plain


def test_chunk_at_reads_one_chunk_of_a_version_by_its_place(corpus: Corpus) -> None:
    hit = corpus.retrieve(QUESTION, k=1).hits[0].chunk
    store = corpus.store
    every = store.chunks("default", hit.document_id, hit.content_hash)
    assert len(every) >= 2
    for c in every:
        assert store.chunk_at("default", hit.document_id, hit.content_hash, c.ordinal) == c
    assert store.chunk_at("default", hit.document_id, hit.content_hash, len(every)) is None
    assert store.chunk_at("default", hit.document_id, hit.content_hash, -1) is None
    # another tenant, another version: nothing
    assert store.chunk_at("rival", hit.document_id, hit.content_hash, 0) is None
    assert store.chunk_at("default", hit.document_id, "0" * 64, 0) is None
