"""The agent loop against scripted model servers speaking the OpenAI and Anthropic protocols.

The servers (``scripted_llm``) are local test doubles for remote, paid APIs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from scripted_llm import (
    anthropic_text,
    anthropic_tool_call,
    last_tool_output,
    openai_text,
    openai_tool_call,
    serve,
)

import pincite
from pincite.agent import TOOLS, run_agent
from pincite.cli.service import agent as agent_command
from pincite.corpus import Corpus
from pincite.generate.anthropic import AnthropicGenerator
from pincite.generate.openai import OpenAIGenerator
from pincite.retrieve.search import SearchMode, SearchOptions

RETENTION = (
    "The retention period for customer records is seven years.\n\n"
    "After that the records office shreds them."
)
Protocol = tuple[Callable[..., dict[str, Any]], Callable[[str], dict[str, Any]]]
OPENAI: Protocol = (openai_tool_call, openai_text)
ANTHROPIC: Protocol = (anthropic_tool_call, anthropic_text)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "agent.db"
    with pincite.open(path, embedder=None) as corpus:
        corpus.ingest_text(
            RETENTION, uri="https://acme.example/r", tenant="acme", title="Retention"
        )
        corpus.ingest_text("Other's secret: retention period is one day.", uri="o", tenant="other")
    yield path


@pytest.fixture
def corpus(db: Path) -> Iterator[Corpus]:
    with pincite.open(db, embedder=None) as c:
        yield c


def _other_id(corpus: Corpus) -> str:
    options = SearchOptions(mode=SearchMode.LEXICAL)
    return (
        corpus.retrieve("secret retention", tenant="other", k=1, options=options)
        .hits[0]
        .evidence_id
    )


def _script(
    protocol: Protocol, answers: list[Callable[[str], str]]
) -> tuple[list[Any], dict[str, str]]:
    """Search, fetch the first hit, then answer with each of ``answers`` (given the id)."""
    call, text = protocol
    seen: dict[str, str] = {}

    def search(body: dict[str, Any]) -> dict[str, Any]:
        return call("search", {"query": "retention period customer records"}, "call_1")

    def fetch(body: dict[str, Any]) -> dict[str, Any]:
        seen["id"] = last_tool_output(body)["results"][0]["evidence_id"]
        return call("fetch_evidence", {"ids": [seen["id"]]}, "call_2")

    def answer(make: Callable[[str], str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return lambda body: text(make(seen["id"]))

    return [search, fetch, *(answer(a) for a in answers)], seen


def _invented(evidence_id: str) -> str:
    return evidence_id.rsplit(":", 1)[0] + ":00000000-0000-4000-8000-00000000beef"


def _generator(protocol: Protocol, base: str) -> OpenAIGenerator | AnthropicGenerator:
    if protocol is OPENAI:
        return OpenAIGenerator(f"{base}/v1", "gpt-test", api_key="sk-test", retry_backoff=0)
    return AnthropicGenerator("claude-test", "sk-ant-test", base_url=base, retry_backoff=0)


@pytest.mark.parametrize("protocol", [OPENAI, ANTHROPIC], ids=["openai", "anthropic"])
def test_an_invented_id_triggers_one_repair_then_renders(
    protocol: Protocol, corpus: Corpus
) -> None:
    script, seen = _script(
        protocol,
        [
            lambda i: (
                f"Customer records are kept for seven years. {i} Then shredded. {_invented(i)}"
            ),
            lambda i: f"Customer records are kept for seven years. {i}",
        ],
    )
    with serve(script) as llm, _generator(protocol, llm.base) as model:
        result = run_agent(corpus, "How long are customer records kept?", model, "acme", budget=4)
    assert not result.refused, result.reasons
    assert result.repaired and result.model_calls == 4 and result.tool_calls == 2
    assert result.reasons == (f"{_invented(seen['id'])}: unfetched",)
    assert result.text.startswith("Customer records are kept for seven years. [1]")
    assert "\n\nSources:\n[1] [Retention](https://acme.example/r) — version " in result.text
    assert result.rendered is not None and result.rendered.sources[0].evidence_ids == (seen["id"],)
    assert [v.verdict.value for v in result.verdicts] == ["valid"]

    repair = llm.requests[3]["messages"][-1]
    assert repair["role"] == "user" and _invented(seen["id"]) in str(repair["content"])
    assert "unfetched" in str(repair["content"]) and seen["id"] in str(repair["content"])
    names = [t.name for t in TOOLS]
    if protocol is OPENAI:
        assert set(llm.paths) == {"/v1/chat/completions"}
        first = llm.requests[0]
        assert first["messages"][0]["role"] == "system" and first["tool_choice"] == "auto"
        assert [t["function"]["name"] for t in first["tools"]] == names
        tool_turn = llm.requests[1]["messages"]
        assert tool_turn[-2]["tool_calls"][0]["id"] == "call_1"
        assert tool_turn[-1]["role"] == "tool" and tool_turn[-1]["tool_call_id"] == "call_1"
    else:
        assert set(llm.paths) == {"/v1/messages"}
        first = llm.requests[0]
        assert "search" in first["system"] and [t["name"] for t in first["tools"]] == names
        tool_turn = llm.requests[1]["messages"]
        assert tool_turn[-2]["content"][1] == {
            "type": "tool_use",
            "id": "call_1",
            "name": "search",
            "input": {"query": "retention period customer records"},
        }
        assert tool_turn[-1]["content"][0]["tool_use_id"] == "call_1"
    fetched = last_tool_output(llm.requests[2])["results"][0]
    assert fetched["status"] == "ok"
    assert fetched["text"].startswith("The retention period for customer records is seven years.")


@pytest.mark.parametrize("protocol", [OPENAI, ANTHROPIC], ids=["openai", "anthropic"])
def test_citations_that_still_fail_after_the_repair_are_refused(
    protocol: Protocol, corpus: Corpus
) -> None:
    foreign = _other_id(corpus)
    script, _ = _script(
        protocol,
        [
            lambda i: f"It is one day. {foreign}",
            lambda i: f"It is one day, surely. {foreign}",
        ],
    )
    with serve(script) as llm, _generator(protocol, llm.base) as model:
        result = run_agent(corpus, "How long are customer records kept?", model, "acme", budget=4)
    assert result.refused and result.repaired
    assert result.reasons == (f"{foreign}: unfetched",) * 2
    assert "one day" not in result.text and result.rendered is None


def test_no_repair_when_the_tool_budget_is_spent(corpus: Corpus) -> None:
    script, _ = _script(OPENAI, [lambda i: f"Seven years. {i}"])
    with serve(script) as llm, _generator(OPENAI, llm.base) as model:
        result = run_agent(corpus, "How long are customer records kept?", model, "acme", budget=1)
    assert result.refused and not result.repaired
    assert result.tool_calls == 1 and result.model_calls == 3
    assert "budget spent" in last_tool_output(llm.requests[2])["error"]


def test_a_model_that_says_insufficient_is_refused_without_a_check(corpus: Corpus) -> None:
    script = [lambda body: openai_text("INSUFFICIENT: nothing on parking.")]
    with serve(script) as llm, _generator(OPENAI, llm.base) as model:
        result = run_agent(corpus, "Where do I park?", model, "acme")
    assert result.refused and result.model_calls == 1 and result.tool_calls == 0
    assert result.text == "The documents found do not answer this question."


def test_the_cli_runs_the_agent_against_an_openai_compatible_server(db: Path) -> None:
    script, _ = _script(OPENAI, [lambda i: f"Records are kept seven years ({i})."])
    with serve(script) as llm:
        run = CliRunner().invoke(
            agent_command,
            [
                "How long are customer records kept?",
                "--db",
                str(db),
                "--tenant",
                "acme",
                "--embedder",
                "none",
                "--generator",
                "openai",
                "--base-url",
                f"{llm.base}/v1",
                "--model",
                "gpt-test",
                "--api-key",
                "sk-test",
                "--json",
            ],
            env={"PINCITE_GENERATOR": None},
        )
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["outcome"] == "answered" and data["text"].startswith(
        "Records are kept seven years [1]."
    )
    assert data["sources"][0]["title"] == "Retention"


def test_the_cli_agent_prints_numbered_sources_with_excerpts_as_ask_does(db: Path) -> None:
    script, seen = _script(OPENAI, [lambda i: f"Records are kept seven years ({i})."])
    with serve(script) as llm:
        run = CliRunner().invoke(
            agent_command,
            [
                *("How long are customer records kept?", "--db", str(db), "--tenant", "acme"),
                *("--embedder", "none", "--generator", "openai", "--base-url", f"{llm.base}/v1"),
                *("--model", "gpt-test", "--api-key", "sk-test"),
            ],
            env={"PINCITE_GENERATOR": None},
        )
    assert run.exit_code == 0, run.output
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Records are kept seven years [1].")
    sources = lines[lines.index("Sources:") + 1 :]
    assert sources[0].startswith("[1] Retention")
    assert f"    {seen['id']}" in sources
    assert any(s.startswith("    “The retention period for customer records") for s in sources)
