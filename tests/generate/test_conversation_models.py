"""A conversation with a model generator: one forced condense call per follow-up, then the answer.

The HTTP server here is a test double for remote, paid model APIs (OpenAI and
Anthropic): it replies with bodies shaped like their recorded replies, so the
condense tool's request, the standalone question it returns, the summary it
carries and the fallback on a malformed reply run for real, without a key.
The last test talks to a real endpoint when ``PINCITE_BASE_URL`` is set.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fake_provider import API_KEY, FakeAPI, recording

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from pincite.embed.base import Embedder
from pincite.generate.anthropic import AnthropicGenerator
from pincite.generate.http import ModelGenerator
from pincite.generate.openai import OpenAIGenerator
from pincite.generate.protocol import (
    CONDENSE_TOOL_DESCRIPTION,
    CONDENSE_TOOL_NAME,
    CONDENSE_TOOL_SCHEMA,
    TOOL_NAME,
)
from pincite.generate.rewrite import FALLBACK_NOTE, standalone

pytestmark = pytest.mark.integration


@dataclass(frozen=True)
class Shape:
    """One provider's wire shape: how to build its generator, replies and read its requests."""

    name: str

    def generator(self, api: FakeAPI) -> ModelGenerator:
        if self.name == "openai":
            return OpenAIGenerator(api.base + "/v1", "gpt-4o", API_KEY, retry_backoff=0)
        return AnthropicGenerator("claude-sonnet-4-5", API_KEY, api.base, retry_backoff=0)

    def reply(self, tool: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
        if self.name == "openai":
            body = recording("openai_tool_call.json")
            call = body["choices"][0]["message"]["tool_calls"][0]["function"]
            call["name"] = tool
            call["arguments"] = arguments if isinstance(arguments, str) else json.dumps(arguments)
            return body
        body = recording("anthropic_tool_use.json")
        body["content"][0].update(name=tool, input=arguments)
        return body

    def forced(self, body: dict[str, Any]) -> str:
        choice = body["tool_choice"]
        return str(choice["function"]["name"] if self.name == "openai" else choice["name"])

    def tool(self, body: dict[str, Any]) -> dict[str, Any]:
        (tool,) = body["tools"]
        if self.name == "openai":
            f = tool["function"]
            return {"name": f["name"], "description": f["description"], "schema": f["parameters"]}
        return {
            "name": tool["name"],
            "description": tool["description"],
            "schema": tool["input_schema"],
        }

    def prompt(self, body: dict[str, Any]) -> str:
        return str(body["messages"][-1]["content"])


SHAPES = [Shape("openai"), Shape("anthropic")]
# The retention policy's three sentences, each the answer to one of TURNS.
ANSWERS = [s.rstrip(".") + "." for s in RETENTION.split(". ")]
# The model's own rewrites differ from the offline ones, so a test can tell which was searched.
MODEL_STANDALONE = [
    "Where are the customer invoices kept?",
    "Who approves the deletion of the customer invoices?",
]


def answer(text: str, summary: str) -> dict[str, Any]:
    claim = {"text": text, "used_excerpt_numbers": [1], "kind": "fact"}
    return {"claims": [claim], "sufficient_context": True, "summary": summary}


@pytest.fixture
def corpus(tmp_path: Path, embedder: Embedder) -> Iterator[pincite.Corpus]:
    with pincite.open(tmp_path / "c.db", embedder=embedder) as c:
        c.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
        c.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
        yield c


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.name)
def test_each_follow_up_is_condensed_in_one_forced_call_then_answered(
    fake_api: FakeAPI, corpus: pincite.Corpus, shape: Shape
) -> None:
    """Test double for the paid OpenAI / Anthropic APIs."""
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[0], "A1")))
    for n, question in enumerate(MODEL_STANDALONE, 2):
        condensed = {"standalone_question": question, "summary": f"C{n}"}
        fake_api.reply(shape.reply(CONDENSE_TOOL_NAME, condensed))
        fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[n - 1], f"A{n}")))
    with shape.generator(fake_api) as model:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        results = [conversation.ask(q) for q in TURNS]

    # One call on the first turn (nothing to resolve), two on each follow-up.
    forced = [shape.forced(r.body) for r in fake_api.received]
    assert forced == [TOOL_NAME, CONDENSE_TOOL_NAME, TOOL_NAME, CONDENSE_TOOL_NAME, TOOL_NAME]
    condense = [r.body for r in fake_api.received if shape.forced(r.body) == CONDENSE_TOOL_NAME]
    assert shape.tool(condense[0]) == {
        "name": CONDENSE_TOOL_NAME,
        "description": CONDENSE_TOOL_DESCRIPTION,
        "schema": CONDENSE_TOOL_SCHEMA,
    }
    # The condense call sees the stored running summary and the earlier turn.
    first = shape.prompt(condense[0])
    assert first.startswith("Conversation so far (summary):\nA1\n")
    assert f"Asked: {TURNS[0]}" in first and f"Answer: {ANSWERS[0]}" in first
    assert first.endswith(f"Latest question: {TURNS[1]}")
    second = shape.prompt(condense[1])
    assert second.startswith("Conversation so far (summary):\nA2\n")
    assert f"Searched as: {MODEL_STANDALONE[0]}" in second
    # The answer call gets the condensed summary, and the model's standalone question.
    answer_prompt = shape.prompt(fake_api.received[2].body)
    assert "Conversation so far (summary):\nC2\n" in answer_prompt
    assert answer_prompt.endswith(f"Question: {MODEL_STANDALONE[0]}")

    turns = conversation.turns()
    assert [t.standalone for t in turns] == [TURNS[0], *MODEL_STANDALONE]
    assert [r.question for r in results] == [TURNS[0], *MODEL_STANDALONE]
    assert [t.rewritten_by for t in turns] == ["asked", "model", "model"]
    assert [(t.answer["rewrite_calls"], t.answer["generator_calls"]) for t in turns] == [
        (0, 1),
        (1, 1),
        (1, 1),
    ]
    assert [t.summary for t in turns] == ["A1", "A2", "A3"]
    for result in results:
        assert result.answer is not None, result.message
        assert {c.locator.uri for c in result.answer.citations} == {"policy://retention"}


@pytest.mark.parametrize(
    ("shape", "arguments"),
    [
        (SHAPES[0], '{"standalone_question": "Where are the inv'),  # cut off: not JSON
        (SHAPES[0], {"standalone_question": "   ", "summary": "x"}),
        (SHAPES[1], {"summary": "no question"}),
        (SHAPES[1], {"standalone_question": "q" * 5000, "summary": ""}),
    ],
    ids=["openai-truncated", "openai-blank", "anthropic-missing", "anthropic-too-long"],
)
def test_a_malformed_condense_reply_falls_back_to_the_offline_rewrite(
    fake_api: FakeAPI, corpus: pincite.Corpus, shape: Shape, arguments: dict[str, Any] | str
) -> None:
    """Test double for the paid OpenAI / Anthropic APIs: the turn is answered, and says so."""
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[0], "A1")))
    fake_api.reply(shape.reply(CONDENSE_TOOL_NAME, arguments))
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[1], "A2")))
    with shape.generator(fake_api) as model:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        conversation.ask(TURNS[0])
        result = conversation.ask(TURNS[1])

    assert len(fake_api.received) == 3  # the unusable condense reply is not retried
    rewrite = conversation.last_rewrite
    assert rewrite is not None and rewrite.by == "offline" and rewrite.note == FALLBACK_NOTE
    assert CONDENSE_TOOL_NAME in rewrite.error
    offline = standalone(TURNS[1], [TURNS[0]])
    assert result.question == offline and result.answer is not None
    turn = conversation.turns()[-1]
    assert (turn.standalone, turn.rewritten_by) == (offline, "offline")
    assert turn.answer["rewrite_note"] == FALLBACK_NOTE
    assert turn.answer["rewrite_calls"] == 1
    # The prompt still gets the stored summary: the fallback loses nothing.
    assert "Conversation so far (summary):\nA1\n" in shape.prompt(fake_api.received[2].body)


def test_an_endpoint_that_fails_the_condense_call_does_not_fail_the_turn(
    fake_api: FakeAPI, corpus: pincite.Corpus
) -> None:
    """Test double for the paid OpenAI API: a 400 on condense, then a good answer."""
    shape = SHAPES[0]
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[0], "A1")))
    fake_api.reply(recording("openai_error_401.json"), status=401)
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[1], "A2")))
    with shape.generator(fake_api) as model:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        conversation.ask(TURNS[0])
        conversation.ask(TURNS[1])
    rewrite = conversation.last_rewrite
    assert rewrite is not None and rewrite.by == "offline"
    assert "HTTP 401" in rewrite.error and API_KEY not in rewrite.error


@pytest.mark.skipif(
    not os.environ.get("PINCITE_BASE_URL"),
    reason="set PINCITE_BASE_URL (and PINCITE_MODEL, PINCITE_API_KEY) to converse with a real "
    "OpenAI-compatible endpoint",
)
def test_a_real_endpoint_condenses_a_follow_up(corpus: pincite.Corpus) -> None:
    model = OpenAIGenerator(
        os.environ["PINCITE_BASE_URL"],
        os.environ.get("PINCITE_MODEL", ""),
        os.environ.get("PINCITE_API_KEY") or None,
    )
    with model:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        conversation.ask(TURNS[0])
        conversation.ask(TURNS[1])
    turn = conversation.turns()[-1]
    assert turn.rewritten_by == "model", turn.answer.get("rewrite_note")
    assert "invoice" in turn.standalone.casefold()


def test_erasure_takes_an_erased_answers_words_out_of_later_model_rewrites(
    fake_api: FakeAPI, corpus: pincite.Corpus, tmp_path: Path
) -> None:
    """Test double for the paid OpenAI API: a model rewrite that quoted an answer is scrubbed."""
    shape = SHAPES[0]
    quoting = "Who approves deleting invoices from the encrypted archive?"
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[1], "A1")))
    fake_api.reply(shape.reply(CONDENSE_TOOL_NAME, {"standalone_question": quoting, "summary": ""}))
    fake_api.reply(shape.reply(TOOL_NAME, answer(ANSWERS[2], "A2")))
    with shape.generator(fake_api) as model:
        corpus.generator = model
        conversation = corpus.conversation(tenant="acme")
        conversation.ask("Where are customer invoices stored?")
        conversation.ask(TURNS[2])
    assert conversation.turns()[-1].standalone == quoting
    [doc] = [d for d in corpus.documents(tenant="acme") if d.uri == "policy://retention"]
    corpus.erase(doc.document_id, tenant="acme")
    later = conversation.turns()[-1]
    assert later.standalone == later.question == TURNS[2]
    assert "encrypted archive" not in json.dumps(later.answer)
