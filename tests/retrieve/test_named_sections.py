"""The section a question names by its title takes a place among the passages: RFC 2616
titles its header fields' sections by their names ("14.22 From"), ordinary words that
BM25 weighs lightly, so the section defining one ranked far down."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.retrieve.named_sections import NAMED, names_title

FILLER = (
    "A server reading the request header field applies the rules of this section to "
    "every request it receives. "
)
FIELDS = (
    "# Header fields\n\n"
    + "".join(
        f"## {name}\n\nThe {name} request header field carries the {what} of the request. "
        + FILLER * 8
        + "\n\n"
        for name, what in (
            ("Accept", "media types"),
            ("Referer", "referring address"),
            ("Host", "host and port"),
            ("Range", "byte ranges"),
            ("Expect", "expectations"),
            ("Via", "intermediaries"),
        )
    )
    + "## From\n\nIt names, if given, an e-mail address for the human user who controls "
    "the requesting agent. " + FILLER * 3 + "\n"
)


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    with pincite.open(tmp_path / "fields.db", embedder=None) as opened:
        yield opened


def sections(corpus: Corpus, question: str, tenant: str = "acme") -> list[tuple[str, str]]:
    """Each hit's last heading and the channel that brought it in."""
    result = corpus.retrieve(question, tenant=tenant, k=3)
    return [(h.chunk.section[-1], h.branches.channels[0].name) for h in result.hits]


def test_the_named_section_takes_the_last_place(corpus: Corpus) -> None:
    corpus.ingest_bytes(FIELDS.encode(), filename="fields.md", uri="fields.md", tenant="acme")
    found = sections(corpus, "what is supposed to go in the From request header")
    assert len(found) == 3 and found[-1] == ("From", NAMED)
    # "From" opening the question is no name, nor is it in lower case.
    for question in (
        "From which header does the server read the media types?",
        "what is supposed to go in the from request header",
    ):
        assert ("From", NAMED) not in sections(corpus, question)


def test_another_tenants_or_an_erased_section_is_never_brought_in(corpus: Corpus) -> None:
    corpus.ingest_bytes(FIELDS.encode(), filename="fields.md", uri="fields.md", tenant="rival")
    other = FIELDS.replace("## From\n", "## Notes\n")
    corpus.ingest_bytes(other.encode(), filename="fields.md", uri="fields.md", tenant="acme")
    question = "what is supposed to go in the From request header"
    assert all(heading != "From" for heading, _ in sections(corpus, question))
    report = corpus.ingest_bytes(
        FIELDS.encode(), filename="fields.md", uri="fields.md", tenant="acme"
    )
    hits = corpus.retrieve(question, tenant="acme", k=3).hits
    (named,) = [h.chunk for h in hits if h.branches.channels[0].name == NAMED]
    assert named.section[-1] == "From"
    corpus.erase(report.document_id, tenant="acme", chunk_id=named.chunk_id)
    assert all(heading != "From" for heading, _ in sections(corpus, question))


@pytest.mark.parametrize(
    ("question", "heading", "named"),
    [
        ("what goes in the Server response header in http/1.1", "14.38 Server", True),
        ("what goes in the server response header", "14.38 Server", False),
        ("Server header - what goes in it?", "14.38 Server", False),
        ("Content-Range on a 206: what is it for?", "14.16 Content-Range", True),
        ("When does a server send 408 Request Timeout?", "10.4.9 408 Request Timeout", True),
        ("What does the Authentication section say about tokens?", "Authentication", True),
        ("what is the purpose of the policy?", "1. Purpose", False),
        ("What is the Server's role?", "14.38 Server", True),
        ("Which servers does the Serverless guide cover?", "Server", False),
    ],
)
def test_a_title_is_named_as_the_document_writes_it(
    question: str, heading: str, named: bool
) -> None:
    assert names_title(question, heading) is named


def test_only_a_current_live_section_of_this_tenant_is_brought_in(corpus: Corpus) -> None:
    from pincite.retrieve.named_sections import named_section

    question = "what is supposed to go in the From request header"
    first = corpus.ingest_bytes(FIELDS.encode(), filename="f.md", uri="fields.md", tenant="acme")
    old = [h.chunk for h in corpus.retrieve(question, tenant="acme", k=3).hits][-1]
    assert old.section[-1] == "From"
    # A new version: the old chunk is superseded, though its document is the same.
    second = FIELDS.replace("human user", "person")
    corpus.ingest_bytes(second.encode(), filename="f.md", uri="fields.md", tenant="acme")
    rival = corpus.ingest_bytes(FIELDS.encode(), filename="f.md", uri="fields.md", tenant="rival")
    theirs = [h.chunk for h in corpus.retrieve(question, tenant="rival", k=3).hits][-1]
    assert theirs.section[-1] == "From" and rival.document_id
    hits = corpus.retrieve("Which header carries the media types?", tenant="acme", k=3).hits
    shown = list(hits)
    store = corpus.store
    for forged in (old.chunk_id, theirs.chunk_id, "not-a-chunk"):
        assert named_section(store, "acme", question, [(forged, 1.0)], shown, 3) == shown
    current = [h.chunk for h in corpus.retrieve(question, tenant="acme", k=3).hits][-1]
    assert current.section[-1] == "From" and current.chunk_id != old.chunk_id
    # With one place, the best hit keeps it.
    assert (
        named_section(store, "acme", question, [(current.chunk_id, 1.0)], shown[:1], 1)
        == (shown[:1])
    )
    assert first.document_id == current.document_id
