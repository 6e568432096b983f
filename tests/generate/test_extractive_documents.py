"""Issue 12's examples on the real shared documents, through the whole answer path.

Each question was refused or answered with the wrong text before the
extractive generator read question kinds and passage layout. Ingests SP
800-145 and RFC 2616 from ../shared/data/documents as `pincite ingest` does
(default embedder) and asks as `pincite ask` does; skips when the shared data
is absent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pincite
from pincite.answer.pipeline import AnswerResult, answer_question
from pincite.corpus import Corpus
from pincite.embed.base import Embedder
from pincite.generate.extractive import ExtractiveGenerator
from pincite.ground.fetch import fetch_evidence
from shared_paths import DOCUMENTS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (DOCUMENTS / "manifest.json").is_file(),
        reason=f"shared documents not found at {DOCUMENTS} (set PINCITE_SHARED)",
    ),
]
TENANT = "docs"


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Corpus]:
    with pincite.open(tmp_path_factory.mktemp("docs") / "docs.db", embedder=embedder) as corpus:
        # The two documents that hold the answers; each is its own distractor.
        paths = [DOCUMENTS / "nist" / "SP800-145.pdf", DOCUMENTS / "rfc" / "rfc2616.txt"]
        list(corpus.ingest_paths(paths, tenant=TENANT))
        yield corpus


def ask(corpus: Corpus, question: str) -> AnswerResult:
    result = answer_question(corpus, question, ExtractiveGenerator(corpus.embedder), tenant=TENANT)
    assert not result.refused, (question, result.message, result.reasons)
    return result


def claims(result: AnswerResult) -> list[str]:
    assert result.answer is not None
    return [c.text for c in result.answer.claims]


def cited_text(corpus: Corpus, result: AnswerResult) -> str:
    assert result.answer is not None
    ids = [c.evidence_id for c in result.answer.citations]
    return " ".join(
        " ".join((o.text or "").split()) for o in fetch_evidence(corpus.store, ids, tenant=TENANT)
    )


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("What is rapid elasticity?", "Rapid elasticity. Capabilities can be elastically"),
        ("What is platform as a service?", "Platform as a Service (PaaS). The capability"),
        ("What is a private cloud?", "Private cloud. The cloud infrastructure is provisioned"),
    ],
)
def test_a_term_is_answered_by_its_own_entry(
    documents: Corpus, question: str, opening: str
) -> None:
    result = ask(documents, question)
    assert claims(result)[0].startswith(opening)
    assert opening in cited_text(documents, result)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What does the 408 status code mean?", "did not produce a request within the time"),
        ("What does 301 Moved Permanently mean?", "has been assigned a new permanent URI"),
        (
            "What is the maximum length of a URI in HTTP/1.1?",
            "does not place any a priori limit on the length of a URI",
        ),
    ],
)
def test_rfc_answers_come_from_the_defining_section(
    documents: Corpus, question: str, answer: str
) -> None:
    result = ask(documents, question)
    assert answer in claims(result)[0]
    assert answer in cited_text(documents, result)


def test_essential_characteristics_are_the_five_items_not_a_footnote(documents: Corpus) -> None:
    texts = claims(ask(documents, "What are the essential characteristics of cloud computing?"))
    assert [t.split(".")[0] for t in texts] == [
        "On-demand self-service",
        "Broad network access",
        "Resource pooling",
        "Rapid elasticity",
        "Measured service",
    ]


def test_service_models_are_listed(documents: Corpus) -> None:
    texts = claims(ask(documents, "Which service models does the NIST cloud definition list?"))
    assert [t.split(".")[0] for t in texts] == [
        "Software as a Service (SaaS)",
        "Platform as a Service (PaaS)",
        "Infrastructure as a Service (IaaS)",
    ]
