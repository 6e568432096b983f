"""The entry defining a term is brought into a definition question's passages.

A glossary chunk holds many terms, so ranked search puts it under passages
that only use the term; ``retrieve(define=...)`` reads the chunks holding the
term's words for a line that opens with a label naming it. Lexical stores
only (no embedder), so each outcome follows from the texts; on both
backends, since each reads the chunks through its own full-text index.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pincite
from pincite.corpus import Corpus
from pincite.retrieve.entries import label_pattern

GLOSSARY = "Appendix B. Glossary\n\n" + "\n\n".join(
    [
        "Access Control: The process of granting or denying requests to use information.",
        "Adequate Security: Security commensurate with the risk and magnitude of harm.",
        "Bring Your Own Device (BYOD): A non-organization-controlled telework client device.",
        "Countermeasures: Actions, devices or procedures that reduce a vulnerability.",
    ]
    + [f"Term {n}: Entry number {n} of a long glossary of security words." for n in range(40)]
)
BODY = [
    f"Section {n}. Agencies provide adequate security for every system; adequate security "
    f"is reviewed each year and adequate security plans are kept in unit {n}."
    for n in range(8)
]
QUESTION = "What does adequate security mean?"


@pytest.fixture
def corpus(location: str) -> Iterator[Corpus]:
    with pincite.open(location, embedder=None) as c:
        c.ingest_text(GLOSSARY, uri="glossary.txt", tenant="acme")
        for n, text in enumerate(BODY):
            c.ingest_text(text, uri=f"body-{n}.txt", tenant="acme")
        yield c


def texts(corpus: Corpus, define: str | None, tenant: str = "acme", k: int = 4) -> list[str]:
    result = corpus.retrieve(QUESTION, tenant=tenant, k=k, define=define)
    return [h.chunk.text for h in result.hits]


def test_a_label_opens_a_line_and_ends_with_the_term() -> None:
    byod = label_pattern("BYOD")
    telework = label_pattern("telework")
    assert byod is not None and telework is not None
    assert byod.search("x\nBring Your Own Device (BYOD): A non-organization device.")
    assert telework.search("Telework: The ability to work elsewhere.")
    assert telework.search("TELEWORK: The ability to work elsewhere.")
    # a lead-in, a mention inside a sentence, a label naming something else
    assert not telework.search("Controls for telework: see below.")
    assert not telework.search("Many people telework: they work from home.")
    assert not telework.search("Telework client: a device.")
    assert label_pattern("  ") is None


def test_ranked_search_misses_the_entry_and_define_brings_it_in_last(corpus: Corpus) -> None:
    plain = texts(corpus, None)
    assert all("Adequate Security:" not in t for t in plain)
    defined = texts(corpus, "adequate security")
    assert len(defined) == 4
    assert defined[:3] == plain[:3] and "Adequate Security: Security commensurate" in defined[3]
    # the entry keeps the place it takes in score order
    hits = corpus.retrieve(QUESTION, tenant="acme", k=4, define="adequate security").hits
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[3].branches.channel("entry") is not None


def test_an_entry_already_retrieved_is_not_added_twice(corpus: Corpus) -> None:
    defined = texts(corpus, "adequate security", k=20)
    assert sum("Adequate Security:" in t for t in defined) == 1
    assert defined == texts(corpus, None, k=20)


def test_a_term_no_entry_defines_changes_nothing(corpus: Corpus) -> None:
    assert texts(corpus, "quantum tunnelling") == texts(corpus, None)


def test_another_tenants_glossary_is_never_brought_in(location: str) -> None:
    with pincite.open(location, embedder=None) as c:
        c.ingest_text(GLOSSARY, uri="glossary.txt", tenant="rival")
        for n, text in enumerate(BODY):
            c.ingest_text(text, uri=f"body-{n}.txt", tenant="acme")
        got = texts(c, "adequate security")
        assert got and all("Adequate Security:" not in t for t in got)
        assert all(h.chunk.tenant == "acme" for h in c.retrieve(QUESTION, tenant="acme").hits)


def test_an_erased_or_superseded_entry_is_never_brought_in(corpus: Corpus) -> None:
    (glossary,) = [d for d in corpus.documents(tenant="acme") if d.uri == "glossary.txt"]
    # a new version drops the entry: the old version's text is not searched
    corpus.ingest_text(
        GLOSSARY.replace("Adequate Security:", "Sufficient Care:"), uri=glossary.uri, tenant="acme"
    )
    assert all("Adequate Security:" not in t for t in texts(corpus, "adequate security"))
    assert any("Sufficient Care:" in t for t in texts(corpus, "sufficient care"))
    corpus.erase(glossary.document_id, tenant="acme")
    assert all("Sufficient Care:" not in t for t in texts(corpus, "sufficient care"))


def test_a_definition_question_is_answered_from_the_entry(corpus: Corpus) -> None:
    answer = corpus.ask(QUESTION, tenant="acme", k=4)
    assert answer.answer is not None, answer.message
    (claim,) = answer.answer.claims
    assert claim.text.startswith("Adequate Security: Security commensurate with the risk")
