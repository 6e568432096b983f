"""pydantic-ai: the pincite toolset in a real Agent, driven by FunctionModel and TestModel."""

from __future__ import annotations

import asyncio
from typing import Any

from pinning import IT_POLICY, assert_unreadable
from pydantic_ai import Agent, AgentRunResult
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from pincite.corpus import Corpus
from pincite.ground.fetch import FetchLedger, FetchStatus, fetch_evidence
from pincite.integrations.pydantic_ai import pincite_toolset
from pincite.tools import check_answer


def _returned(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        part
        for m in messages
        if isinstance(m, ModelRequest)
        for part in m.parts
        if isinstance(part, ToolReturnPart)
    ]


def _returns(messages: list[ModelMessage]) -> list[Any]:
    return [part.content for part in _returned(messages)]


def _run(agent: Agent[None, str], prompt: str) -> AgentRunResult[str]:
    # A fresh event loop per run: run_sync reuses the thread's loop, which another
    # SDK's run_sync in the same process may already have shut down.
    return asyncio.run(agent.run(prompt))


def test_an_agent_run_reads_exactly_what_fetch_evidence_returns(corpus: Corpus) -> None:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returned = _returns(messages)
        if not returned:
            return ModelResponse(parts=[ToolCallPart("search", {"query": "lost devices", "k": 3})])
        found = returned[0]["results"][0]["evidence_id"]
        if len(returned) == 1:
            return ModelResponse(parts=[ToolCallPart("fetch_evidence", {"ids": [found]})])
        return ModelResponse(parts=[TextPart(f"Lost devices are reported within one day. {found}")])

    ledger = FetchLedger("acme")
    agent = Agent(
        FunctionModel(model), toolsets=[pincite_toolset(corpus, tenant="acme", ledger=ledger)]
    )
    result = _run(agent, "When are lost devices reported?")
    searched, fetched = _returns(result.all_messages())
    assert searched["results"][0]["preview"] == IT_POLICY
    [read] = fetched["results"]
    [direct] = fetch_evidence(corpus.store, [read["id"]], tenant="acme")
    assert direct.status is FetchStatus.OK and read["text"] == direct.text
    assert check_answer(result.output, ledger) == result.output


def test_another_tenants_toolset_finds_and_reads_nothing_of_acme(corpus: Corpus) -> None:
    [acme_hit] = corpus.retrieve("economy class flight", tenant="acme", k=1).hits
    calls = [
        ToolCallPart("search", {"query": "economy class flight"}),
        ToolCallPart("fetch_evidence", {"ids": [acme_hit.evidence_id]}),
        ToolCallPart("check_citations", {"ids": [acme_hit.evidence_id]}),
    ]

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        done = len(_returns(messages))
        return ModelResponse(parts=[calls[done] if done < len(calls) else TextPart("No.")])

    ledger = FetchLedger("globex")
    agent = Agent(
        FunctionModel(model), toolsets=[pincite_toolset(corpus, tenant="globex", ledger=ledger)]
    )
    searched, fetched, checked = _returns(_run(agent, "Which class?").all_messages())
    assert searched == {"results": []}
    assert fetched["results"][0]["status"] == "not_found" and fetched["results"][0]["text"] == ""
    assert checked["all_valid"] is False and checked["verdicts"][0]["verdict"] == "unfetched"
    assert ledger.entries == {}
    assert_unreadable(corpus, "globex", acme_hit.evidence_id)


def test_a_pincite_error_comes_back_to_the_model_as_a_retry(corpus: Corpus) -> None:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("search", {"query": "  "})])
        return ModelResponse(parts=[TextPart("Sorry.")])

    agent = Agent(FunctionModel(model), toolsets=[pincite_toolset(corpus, tenant="acme")])
    [retried] = _returned(_run(agent, "?").all_messages())
    assert retried.outcome == "retried" and retried.content == "the query is empty"


def test_test_model_sees_the_three_tools_and_calls_search(corpus: Corpus) -> None:
    model = TestModel(call_tools=["search"])
    agent = Agent(model, toolsets=[pincite_toolset(corpus, tenant="acme")])
    result = _run(agent, "lost devices")
    assert result.output
    params = model.last_model_request_parameters
    assert params is not None
    tools = {t.name: t for t in params.function_tools}
    assert set(tools) == {"search", "fetch_evidence", "check_citations"}
    assert tools["fetch_evidence"].parameters_json_schema["required"] == ["ids"]
    [searched] = _returns(result.all_messages())
    assert "results" in searched
