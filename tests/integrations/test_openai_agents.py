"""OpenAI Agents SDK: the three pincite tools in a real Runner, driven by its ScriptedModel."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agents import Agent, RunConfig, Runner
from agents.items import ToolCallOutputItem
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call
from pinning import IT_POLICY, assert_unreadable

from pincite.corpus import Corpus
from pincite.ground.fetch import FetchLedger, FetchStatus, fetch_evidence
from pincite.integrations.openai_agents import pincite_function_tools
from pincite.tools import check_answer

OFFLINE = RunConfig(tracing_disabled=True)


def _last_output(call: ModelCall) -> dict[str, Any]:
    outputs = [
        i for i in call.input if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]
    result: dict[str, Any] = json.loads(outputs[-1]["output"])
    return result


def _outputs(items: list[Any]) -> list[dict[str, Any]]:
    return [json.loads(i.output) for i in items if isinstance(i, ToolCallOutputItem)]


def _run(corpus: Corpus, tenant: str, ledger: FetchLedger, steps: list[Any]) -> Any:
    agent = Agent(
        name="pincite",
        model=ScriptedModel(steps),
        tools=pincite_function_tools(corpus, tenant=tenant, ledger=ledger),
    )
    # Runner.run in a loop of its own, closed after: run_sync leaves the thread's loop open.
    return asyncio.run(Runner.run(agent, "When are lost devices reported?", run_config=OFFLINE))


def test_an_agent_run_reads_exactly_what_fetch_evidence_returns(corpus: Corpus) -> None:
    found: list[str] = []

    def fetch(call: ModelCall) -> list[Any]:
        found.append(_last_output(call)["results"][0]["evidence_id"])
        return [function_call("fetch_evidence", {"ids": found, "max_chars": None}, call_id="2")]

    def answer(call: ModelCall) -> list[Any]:
        return [assistant_message(f"Lost devices are reported within one day. {found[0]}")]

    ledger = FetchLedger("acme")
    search = function_call("search", {"query": "lost devices", "k": 3}, call_id="1")
    steps = [[search], ModelStep.respond(fetch), ModelStep.respond(answer)]
    result = _run(corpus, "acme", ledger, steps)
    searched, fetched = _outputs(result.new_items)
    assert searched["results"][0]["preview"] == IT_POLICY
    [read] = fetched["results"]
    [direct] = fetch_evidence(corpus.store, found, tenant="acme")
    assert direct.status is FetchStatus.OK
    assert read["id"] == found[0] and read["status"] == "ok" and read["text"] == direct.text
    assert check_answer(result.final_output, ledger) == result.final_output


def test_another_tenants_tools_find_and_read_nothing_of_acme(corpus: Corpus) -> None:
    [acme_hit] = corpus.retrieve("economy class flight", tenant="acme", k=1).hits
    ledger = FetchLedger("globex")
    search = function_call("search", {"query": "economy class flight", "k": 5}, call_id="1")
    fetch = function_call(
        "fetch_evidence", {"ids": [acme_hit.evidence_id], "max_chars": None}, call_id="2"
    )
    check = function_call(
        "check_citations", {"text": None, "ids": [acme_hit.evidence_id]}, call_id="3"
    )
    result = _run(
        corpus, "globex", ledger, [[search], [fetch], [check], [assistant_message("No.")]]
    )
    searched, fetched, checked = _outputs(result.new_items)
    assert searched == {"results": []}
    assert fetched["results"][0]["status"] == "not_found" and fetched["results"][0]["text"] == ""
    assert checked["all_valid"] is False and checked["verdicts"][0]["verdict"] == "unfetched"
    assert ledger.entries == {}
    assert_unreadable(corpus, "globex", acme_hit.evidence_id)


def test_a_pincite_error_reaches_the_model_as_its_message(corpus: Corpus) -> None:
    bad = function_call("search", {"query": "lost devices", "k": 500}, call_id="1")
    result = _run(corpus, "acme", FetchLedger("acme"), [[bad], [assistant_message("Sorry.")]])
    [output] = [i.output for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    assert output == "k must be between 1 and 50"
