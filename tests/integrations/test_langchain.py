"""LangChain: retrieved Documents pin their text, tools serve an agent, chains get checked."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnablePassthrough
from langchain_core.tools import BaseTool
from pinning import GLOBEX_POLICY, assert_pins, assert_unreadable

from pincite.corpus import Corpus
from pincite.errors import UngroundedCitationError
from pincite.ground.fetch import FetchLedger
from pincite.integrations.langchain import PinciteRetriever, citation_check, pincite_tools


def test_retrieved_documents_fetch_back_exactly_their_text(corpus: Corpus) -> None:
    docs = PinciteRetriever(corpus=corpus, tenant="acme", k=5).invoke("lost devices reported")
    assert docs and "Lost devices" in docs[0].page_content
    for doc in docs:
        assert doc.id is not None
        assert_pins(corpus, "acme", doc.page_content, doc.metadata, doc.id)
        assert doc.metadata["lexical_rank"] >= 1 and doc.metadata["dense_rank"] is None


def test_another_tenants_retriever_finds_nothing_of_acme(corpus: Corpus) -> None:
    acme = PinciteRetriever(corpus=corpus, tenant="acme", k=5)
    globex = PinciteRetriever(corpus=corpus, tenant="globex", k=5)
    assert acme.invoke("economy class flight")
    assert globex.invoke("economy class flight") == []
    shared = globex.invoke("lost devices reported")
    assert [d.page_content for d in shared] == [GLOBEX_POLICY]
    for doc in acme.invoke("lost devices reported"):
        assert doc.id is not None
        assert_unreadable(corpus, "globex", doc.id)


def _run_agent(
    model: GenericFakeChatModel, tools: dict[str, BaseTool], messages: list[BaseMessage]
) -> None:
    """The loop a LangChain agent runs: the model, then each tool call it makes, until text."""
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            return
        messages += [tools[call["name"]].invoke(call) for call in reply.tool_calls]


def test_an_agent_searches_fetches_and_checks_through_the_tools(corpus: Corpus) -> None:
    ledger = FetchLedger("acme")
    tools = {t.name: t for t in pincite_tools(corpus, tenant="acme", ledger=ledger)}
    messages: list[BaseMessage] = [HumanMessage("When are lost devices reported?")]

    def script() -> Iterator[AIMessage]:
        yield AIMessage("", tool_calls=[_call("search", query="lost devices")])
        found = json.loads(str(messages[-1].content))["results"][0]["evidence_id"]
        yield AIMessage("", tool_calls=[_call("fetch_evidence", ids=[found])])
        answer = f"Lost devices are reported within one day. {found}"
        yield AIMessage("", tool_calls=[_call("check_citations", text=answer)])
        yield AIMessage(answer)

    _run_agent(GenericFakeChatModel(messages=script()), tools, messages)
    replies = [json.loads(str(m.content)) for m in messages if isinstance(m, ToolMessage)]
    [read] = replies[1]["results"]
    assert read["status"] == "ok" and "within one day" in read["text"]
    assert replies[2]["all_valid"] is True
    final = str(messages[-1].content)
    assert citation_check(ledger).invoke(final) == final


def _call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args, "id": name, "type": "tool_call"}


def test_a_tool_error_reaches_the_model_as_its_message(corpus: Corpus) -> None:
    tools = {t.name: t for t in pincite_tools(corpus, tenant="acme")}
    reply = tools["search"].invoke(_call("search", query=" "))
    assert isinstance(reply, ToolMessage) and reply.status == "error"
    assert reply.content == "the query is empty"


def test_check_citations_tool_never_validates_another_tenants_id(corpus: Corpus) -> None:
    [globex_doc] = PinciteRetriever(corpus=corpus, tenant="globex", k=1).invoke("lost devices")
    assert globex_doc.id is not None
    tools = {t.name: t for t in pincite_tools(corpus, tenant="acme")}
    fetched = tools["fetch_evidence"].invoke({"ids": [globex_doc.id]})
    assert fetched["results"][0]["status"] == "not_found"
    checked = tools["check_citations"].invoke({"ids": [globex_doc.id]})
    assert checked == {
        "all_valid": False,
        "verdicts": [{"id": globex_doc.id, "verdict": "unfetched"}],
    }


def _format(docs: list[Document]) -> str:
    return "\n".join(f"{d.id}: {d.page_content}" for d in docs)


def test_a_chains_answer_passes_only_when_it_cites_what_the_chain_retrieved(corpus: Corpus) -> None:
    [travel] = PinciteRetriever(corpus=corpus, tenant="acme", k=1).invoke("economy class flight")
    [lost] = PinciteRetriever(corpus=corpus, tenant="acme", k=1).invoke("lost devices")
    prompt = ChatPromptTemplate.from_template("Cite ids.\n{context}\n\nQuestion: {question}")

    def chain_answering(reply: str) -> tuple[Runnable[str, str], FetchLedger]:
        ledger = FetchLedger("acme")
        retriever = PinciteRetriever(corpus=corpus, tenant="acme", k=1, ledger=ledger)
        llm = FakeListChatModel(responses=[reply])
        context = {"context": retriever | _format, "question": RunnablePassthrough()}
        return context | prompt | llm | StrOutputParser() | citation_check(ledger), ledger

    good, ledger = chain_answering(f"Economy class. {travel.id}")
    question = "Which class is required for short flights?"
    assert good.invoke(question) == f"Economy class. {travel.id}"
    assert list(ledger.entries) == [travel.id]
    unread, _ = chain_answering(f"Within one day. {lost.id}")  # true, but not retrieved in this run
    with pytest.raises(UngroundedCitationError) as raised:
        unread.invoke(question)
    assert raised.value.missing == (lost.id,)
    uncited, _ = chain_answering("Economy class.")
    with pytest.raises(UngroundedCitationError, match="no evidence id cited"):
        uncited.invoke(question)
