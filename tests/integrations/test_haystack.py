"""Haystack 2+: the retriever and answer components pin their text inside a real Pipeline."""

from __future__ import annotations

import pytest
from haystack import Document, Pipeline
from haystack.components.builders import PromptBuilder
from haystack.components.joiners import AnswerJoiner, DocumentJoiner
from haystack.core.errors import PipelineConnectError
from haystack.dataclasses import GeneratedAnswer
from pinning import GLOBEX_POLICY, assert_pins, assert_unreadable

from pincite.corpus import Corpus
from pincite.integrations.haystack import PinciteAnswerer, PinciteRetriever

QUESTION = "When are lost devices reported?"
TEMPLATE = "{% for d in documents %}[{{ d.id }}] {{ d.content }}\n{% endfor %}Q: {{ query }}"


def _rag(corpus: Corpus, tenant: str) -> Pipeline:
    pipeline = Pipeline()
    pipeline.add_component("retriever", PinciteRetriever(corpus, tenant=tenant, top_k=5))
    pipeline.add_component("prompt", PromptBuilder(template=TEMPLATE))
    pipeline.connect("retriever.documents", "prompt.documents")
    return pipeline


def test_retrieved_documents_fetch_back_exactly_their_text(corpus: Corpus) -> None:
    out = _rag(corpus, "acme").run(
        {"retriever": {"query": "lost devices reported"}, "prompt": {"query": QUESTION}},
        include_outputs_from={"retriever"},
    )
    documents: list[Document] = out["retriever"]["documents"]
    assert documents and "Lost devices" in (documents[0].content or "")
    for doc in documents:
        assert doc.content is not None
        assert_pins(corpus, "acme", doc.content, doc.meta, doc.id)
        assert doc.score == doc.meta["score"]
        assert f"[{doc.id}] {doc.content}\n" in out["prompt"]["prompt"]


def test_another_tenants_retriever_finds_nothing_of_acme(corpus: Corpus) -> None:
    acme = PinciteRetriever(corpus, tenant="acme", top_k=5)
    globex = PinciteRetriever(corpus, tenant="globex", top_k=5)
    assert acme.run(query="economy class flight")["documents"]
    assert globex.run(query="economy class flight")["documents"] == []
    shared = globex.run(query="lost devices")["documents"]
    assert [d.content for d in shared] == [GLOBEX_POLICY]
    for doc in acme.run(query="lost devices reported", top_k=3)["documents"]:
        assert_unreadable(corpus, "globex", doc.id)


def test_the_answer_component_returns_a_checked_answer_with_its_citations(corpus: Corpus) -> None:
    pipeline = Pipeline()
    pipeline.add_component("answerer", PinciteAnswerer(corpus, tenant="acme"))
    out = pipeline.run({"answerer": {"query": QUESTION}})["answerer"]
    [answer] = out["answers"]
    assert isinstance(answer, GeneratedAnswer)
    assert answer.meta["outcome"] == "answered" and "within one day" in answer.data
    assert answer.documents == out["documents"] and answer.documents
    expected = corpus.ask(QUESTION, tenant="acme")
    assert expected.answer is not None
    assert [c["text"] for c in answer.meta["claims"]] == [c.text for c in expected.answer.claims]
    for n, doc in enumerate(answer.documents, start=1):
        assert doc.content is not None and f"[{n}]" in answer.data
        assert_pins(corpus, "acme", doc.content, doc.meta, doc.id)
        assert any(doc.id in claim["evidence_ids"] for claim in answer.meta["claims"])


def test_the_answer_component_refuses_in_another_tenant(corpus: Corpus) -> None:
    out = PinciteAnswerer(corpus, tenant="globex").run(query="Which class is required for flights?")
    [answer] = out["answers"]
    assert answer.meta["outcome"] == "refused"
    assert answer.documents == [] and out["documents"] == []


def test_outputs_are_typed_for_the_pipeline(corpus: Corpus) -> None:
    pipeline = Pipeline()
    pipeline.add_component("answerer", PinciteAnswerer(corpus, tenant="acme"))
    pipeline.add_component("answers", AnswerJoiner())
    pipeline.add_component("documents", DocumentJoiner())
    pipeline.connect("answerer.answers", "answers.answers")
    with pytest.raises(PipelineConnectError):  # list[GeneratedAnswer] is not list[Document]
        pipeline.connect("answerer.answers", "documents.documents")
    pipeline.connect("answerer.documents", "documents.documents")
    out = pipeline.run({"answerer": {"query": QUESTION}})
    [answer] = out["answers"]["answers"]
    assert [d.id for d in out["documents"]["documents"]] == [d.id for d in answer.documents]
