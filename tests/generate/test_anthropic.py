"""AnthropicGenerator against a real HTTP server on 127.0.0.1.

The server is a test double for a remote, paid API (Anthropic's Messages API):
it replies with bodies shaped like recorded ``/v1/messages`` replies and with
the failures that API produces, so the client's HTTP, JSON and error handling
run for real, without a network or a key.
"""

from __future__ import annotations

from typing import Any

import pytest
from fake_provider import API_KEY, FakeAPI, recording

from pincite.errors import GeneratorError
from pincite.generate.anthropic import ANTHROPIC_VERSION, AnthropicGenerator
from pincite.generate.base import Conflict, GeneratedClaim, Generator, Passage
from pincite.generate.protocol import (
    SYSTEM_PROMPT,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    TOOL_SCHEMA,
    ToolCaller,
)

pytestmark = pytest.mark.integration

MODEL = "claude-sonnet-4-5-20250929"
PASSAGES = (
    Passage(
        number=1,
        text="Refunds are issued within 14 days of a return.",
        title="Refund policy",
        evidence_id="eid-1",
        version="v2",
    ),
    Passage(
        number=2,
        text="Refunds take 30 days.",
        title="Refund policy",
        evidence_id="eid-2",
        version="v1",
        date="2023-01-05",
        superseded=True,
    ),
)
QUESTION = "How long do refunds take?"


def generator(api: FakeAPI, **kwargs: Any) -> AnthropicGenerator:
    options: dict[str, Any] = {"base_url": api.base, "retry_backoff": 0}
    options.update(kwargs)
    return AnthropicGenerator(MODEL, API_KEY, **options)


def with_input(arguments: Any) -> dict[str, Any]:
    """The recorded tool_use reply with another ``input``."""
    body = recording("anthropic_tool_use.json")
    body["content"][0]["input"] = arguments
    return body


def test_request_forces_the_tool_and_numbers_the_passages(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API: the request is what the protocol says."""
    fake_api.reply(recording("anthropic_tool_use.json"))
    with generator(fake_api) as gen:
        gen.generate(QUESTION, PASSAGES)

    (request,) = fake_api.received
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == API_KEY
    assert request.headers["anthropic-version"] == ANTHROPIC_VERSION == "2023-06-01"
    assert "authorization" not in request.headers
    body = request.body
    assert body["model"] == MODEL
    assert body["max_tokens"] == 2048
    assert body["temperature"] == 0
    assert body["system"] == SYSTEM_PROMPT
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    assert body["tools"] == [
        {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": TOOL_SCHEMA}
    ]
    (message,) = body["messages"]
    assert message["role"] == "user"
    text = message["content"]
    assert 'number=1 source="Refund policy, version v2">\nRefunds are issued within 14 days' in text
    assert (
        'number=2 source="Refund policy, version v1, 2023-01-05, SUPERSEDED">\nRefunds take 30'
        in text
    )
    assert text.endswith(f"Question: {QUESTION}")


def test_reply_is_parsed_into_a_generation(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API: a recorded tool_use becomes a Generation."""
    fake_api.reply(recording("anthropic_tool_use.json"))
    with generator(fake_api) as gen:
        generation = gen.generate(QUESTION, PASSAGES, feedback="Cite a number.")

    assert generation.claims == (
        GeneratedClaim(
            "Refunds are issued within 14 days of a return.",
            (1,),
            "fact",
            quote="Refunds are issued within 14 days",
        ),
        GeneratedClaim(
            "A customer who returned an item on 1 March would be refunded by 15 March.",
            (1, 2),
            "inference",
        ),
    )
    assert generation.sufficient_context is True
    assert generation.conflicts == (
        Conflict((1, 3), "Excerpt 3, a superseded version, gives 30 days."),
    )
    assert generation.summary == "The user asked about the refund window; it is 14 days."
    assert fake_api.received[0].body["messages"][0]["content"].endswith("Cite a number.")


def test_excerpt_numbers_are_kept_raw(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API: numbers are not coerced, clamped or dropped."""
    arguments = {
        "claims": [
            {"text": "x", "used_excerpt_numbers": ["1", 0, 12, 2.0], "kind": "guess"},
        ],
        "sufficient_context": True,
        "conflicts": None,
    }
    fake_api.reply(with_input(arguments))
    with generator(fake_api) as gen:
        generation = gen.generate(QUESTION, PASSAGES)
    (claim,) = generation.claims
    assert claim.used_excerpt_numbers == ("1", 0, 12, 2.0)
    assert claim.kind == "fact"  # an unknown kind is held to the stricter rule
    assert generation.conflicts == ()


def test_complete_tool_call_forces_any_tool(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API: other tools (agent, judge) go through too."""
    schema = {"type": "object", "properties": {"query": {"type": "string"}}}
    body = recording("anthropic_tool_use.json")
    body["content"] = [
        {"type": "text", "text": "Searching."},
        {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "refunds"}},
    ]
    fake_api.reply(body)
    with generator(fake_api) as gen:
        assert gen.complete_tool_call("sys", "usr", "search", "Search.", schema) == {
            "query": "refunds"
        }
    sent = fake_api.received[0].body
    assert sent["tool_choice"] == {"type": "tool", "name": "search"}
    assert sent["tools"] == [{"name": "search", "description": "Search.", "input_schema": schema}]
    assert sent["system"] == "sys"
    assert sent["messages"] == [{"role": "user", "content": "usr"}]


def test_proxy_without_key_or_temperature(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, reached through a keyless proxy."""
    fake_api.reply(recording("anthropic_tool_use.json"))
    with AnthropicGenerator(
        MODEL, None, base_url=fake_api.base + "/", temperature=None, max_tokens=512
    ) as gen:
        gen.generate(QUESTION, PASSAGES)
    (request,) = fake_api.received
    assert request.path == "/v1/messages"
    assert "x-api-key" not in request.headers
    assert "temperature" not in request.body
    assert request.body["max_tokens"] == 512


def test_identity_and_protocols(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API: no request is made to describe the generator."""
    with generator(fake_api) as gen:
        assert gen.name == f"anthropic:{MODEL}"
        assert gen.is_model is True
        assert API_KEY not in repr(gen)
        # Structural: mypy checks these assignments; at run time they only alias.
        as_generator: Generator = gen
        as_caller: ToolCaller = gen
        assert as_generator.is_model and callable(as_caller.complete_tool_call)
    assert fake_api.received == []


def test_401_names_status_and_provider_message_without_the_key(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, which rejects a bad key."""
    fake_api.reply(recording("anthropic_error_401.json"), status=401)
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    message = str(info.value)
    assert "HTTP 401: authentication_error: invalid x-api-key" in message
    assert message.startswith(f"Anthropic endpoint {fake_api.base}/v1/messages (model ")
    assert API_KEY not in message
    assert len(fake_api.received) == 1  # a 4xx is not retried


def test_echoed_key_is_scrubbed(fake_api: FakeAPI) -> None:
    """Test double for a paid Anthropic-compatible API whose error body echoes the key."""
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": API_KEY}}
    fake_api.reply(body, status=400)
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    assert API_KEY not in str(info.value)
    assert "invalid_request_error: ***" in str(info.value)


def test_overloaded_529_is_retried_once_then_succeeds(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, which answers 529 when overloaded."""
    fake_api.reply(recording("anthropic_error_529.json"), status=529)
    fake_api.reply(recording("anthropic_tool_use.json"))
    with generator(fake_api) as gen:
        assert len(gen.generate(QUESTION, PASSAGES).claims) == 2
    assert len(fake_api.received) == 2


def test_500_twice_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, failing on the retry too."""
    error = {"type": "error", "error": {"type": "api_error", "message": "Internal server error"}}
    fake_api.reply(error, status=500)
    fake_api.reply(error, status=500)
    with (
        generator(fake_api) as gen,
        pytest.raises(GeneratorError, match="HTTP 500: api_error: Internal server error"),
    ):
        gen.generate(QUESTION, PASSAGES)
    assert len(fake_api.received) == 2


def test_reply_without_tool_use_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, whose model answered in prose instead."""
    fake_api.reply(recording("anthropic_no_tool_use.json"))
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    assert "no tool_use block in the reply (stop_reason 'end_turn')" in str(info.value)
    assert "I can't find that in the excerpts." in str(info.value)


def test_call_of_another_tool_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, whose model called a tool it was not given."""
    body = recording("anthropic_tool_use.json")
    body["content"][0]["name"] = "search"
    fake_api.reply(body)
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=r"called \['search'\]"):
        gen.generate(QUESTION, PASSAGES)


def test_reply_cut_off_at_max_tokens_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, whose tool_use was cut off at max_tokens."""
    fake_api.reply(recording("anthropic_max_tokens.json"))
    with (
        generator(fake_api, max_tokens=100) as gen,
        pytest.raises(GeneratorError, match=r"input was cut off at max_tokens \(100\)"),
    ):
        gen.generate(QUESTION, PASSAGES)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ('{"claims": [], "sufficient_context": true}', "input is not a JSON object"),
        (None, "input is not a JSON object"),
        ({"claims": []}, "boolean 'sufficient_context'"),
        ({"claims": [{"text": 3}], "sufficient_context": True}, "'text' string"),
    ],
)
def test_malformed_input_raises(fake_api: FakeAPI, arguments: Any, message: str) -> None:
    """Test double for the paid Anthropic API, whose model sent input of the wrong shape."""
    fake_api.reply(with_input(arguments))
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=message):
        gen.generate(QUESTION, PASSAGES)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>upstream connect error</html>", "reply is not JSON"),
        ({"type": "message", "content": None}, "no content list"),
    ],
)
def test_replies_outside_the_api_raise(
    fake_api: FakeAPI, body: dict[str, Any] | str, message: str
) -> None:
    """Test double for the paid Anthropic API behind a proxy that mangles replies."""
    fake_api.reply(body)
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=message):
        gen.generate(QUESTION, PASSAGES)


def test_connection_refused_raises(closed_port: int) -> None:
    """Test double for the paid Anthropic API, here down: nothing listens on the port."""
    with (
        AnthropicGenerator(MODEL, API_KEY, base_url=f"http://127.0.0.1:{closed_port}") as gen,
        pytest.raises(GeneratorError, match="cannot connect") as info,
    ):
        gen.generate(QUESTION, PASSAGES)
    assert API_KEY not in str(info.value)


def test_timeout_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid Anthropic API, here too slow to answer."""
    fake_api.reply(recording("anthropic_tool_use.json"), delay_s=5)
    with (
        generator(fake_api, timeout=0.2) as gen,
        pytest.raises(GeneratorError, match=r"no reply within 0\.2s"),
    ):
        gen.generate(QUESTION, PASSAGES)
