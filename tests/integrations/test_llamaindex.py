"""LlamaIndex: retrieved nodes pin their text; the query engine's source nodes are citations."""

from __future__ import annotations

import asyncio

from llama_index.core import get_response_synthesizer
from llama_index.core.base.response.schema import Response
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, TextNode
from pinning import GLOBEX_POLICY, assert_pins, assert_unreadable

from pincite.corpus import Corpus
from pincite.ground.fetch import FetchLedger
from pincite.integrations.llamaindex import PinciteQueryEngine, PinciteRetriever
from pincite.tools import check_answer

QUESTION = "When are lost devices reported?"


def test_retrieved_nodes_fetch_back_exactly_their_text(corpus: Corpus) -> None:
    nodes = PinciteRetriever(corpus, tenant="acme", k=5).retrieve("lost devices reported")
    assert nodes and "Lost devices" in nodes[0].node.get_content()
    for scored in nodes:
        node = scored.node
        assert isinstance(node, TextNode)
        assert node.get_content() == node.text
        assert_pins(corpus, "acme", node.text, node.metadata, node.node_id)
        assert scored.score == node.metadata["score"]
        # What a prompt shows carries the id to cite, and the text unchanged.
        shown = node.get_content(metadata_mode=MetadataMode.LLM)
        assert node.node_id in shown and node.text in shown and "fused_score" not in shown


def test_another_tenants_retriever_finds_nothing_of_acme(corpus: Corpus) -> None:
    acme = PinciteRetriever(corpus, tenant="acme", k=5)
    globex = PinciteRetriever(corpus, tenant="globex", k=5)
    assert acme.retrieve("economy class flight")
    assert globex.retrieve("economy class flight") == []
    assert [n.node.get_content() for n in globex.retrieve("lost devices")] == [GLOBEX_POLICY]
    for scored in acme.retrieve("lost devices reported"):
        assert_unreadable(corpus, "globex", scored.node.node_id)


def test_async_retrieval_returns_the_same_nodes(corpus: Corpus) -> None:
    retriever = PinciteRetriever(corpus, tenant="acme", k=5)
    sync = [n.node.node_id for n in retriever.retrieve("lost devices")]
    together = [n.node.node_id for n in asyncio.run(retriever.aretrieve("lost devices"))]
    assert together == sync


def test_the_query_engines_source_nodes_are_the_checked_answers_citations(corpus: Corpus) -> None:
    response = PinciteQueryEngine(corpus, tenant="acme").query(QUESTION)
    assert isinstance(response, Response) and response.metadata is not None
    assert response.metadata["outcome"] == "answered"
    expected = corpus.ask(QUESTION, tenant="acme")
    assert expected.answer is not None
    cited = [
        c.evidence_id for claim in expected.answer.claims for c in expected.answer.sources(claim)
    ]
    assert [n.node.node_id for n in response.source_nodes] == list(dict.fromkeys(cited))
    for n, scored in enumerate(response.source_nodes, start=1):
        node = scored.node
        assert isinstance(node, TextNode)
        assert_pins(corpus, "acme", node.text, node.metadata, node.node_id)
        assert f"[{n}]" in str(response)
    claims = response.metadata["claims"]
    assert [c["text"] for c in claims] == [c.text for c in expected.answer.claims]
    assert "within one day" in str(response)


def test_the_query_engine_refuses_with_no_sources(corpus: Corpus) -> None:
    response = PinciteQueryEngine(corpus, tenant="globex").query(
        "Which class is required for flights?"
    )
    assert isinstance(response, Response) and response.metadata is not None
    assert response.metadata["outcome"] == "refused"
    assert response.source_nodes == [] and response.metadata["claims"] == []
    assert (
        str(response) == corpus.ask("Which class is required for flights?", tenant="globex").message
    )


def test_a_stock_query_engine_over_the_retriever_keeps_the_pins(corpus: Corpus) -> None:
    ledger = FetchLedger("acme")
    retriever = PinciteRetriever(corpus, tenant="acme", k=2, ledger=ledger)
    synthesizer = get_response_synthesizer(llm=MockLLM())
    engine = RetrieverQueryEngine(retriever, response_synthesizer=synthesizer)
    response = engine.query(QUESTION)
    assert response.source_nodes
    for scored in response.source_nodes:
        assert_pins(
            corpus, "acme", scored.node.get_content(), scored.node.metadata, scored.node.node_id
        )
    cited = f"Within one day. {response.source_nodes[0].node.node_id}"
    assert check_answer(cited, ledger) == cited
