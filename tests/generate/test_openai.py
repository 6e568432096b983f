"""OpenAIGenerator against a real HTTP server on 127.0.0.1.

The server is a test double for a remote, paid API (OpenAI, or any compatible
endpoint): it replies with bodies shaped like recorded ``/v1/chat/completions``
replies and with the failures such an API produces, so the client's HTTP, JSON
and error handling run for real, without a network or a key.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fake_provider import API_KEY, FakeAPI, recording

from pincite.errors import GeneratorError
from pincite.generate.base import Conflict, GeneratedClaim, Generator, Passage
from pincite.generate.openai import OpenAIGenerator
from pincite.generate.protocol import (
    SYSTEM_PROMPT,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    TOOL_SCHEMA,
    ToolCaller,
)

pytestmark = pytest.mark.integration

MODEL = "gpt-4o-2024-08-06"
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
        text="Returns are accepted on 1 March.",
        title="Calendar",
        evidence_id="eid-2",
        version="v1",
        date="2024-03-01",
    ),
    Passage(
        number=3,
        text="Refunds take 30 days.",
        title="Refund policy",
        evidence_id="eid-3",
        version="v1",
        superseded=True,
    ),
)
QUESTION = "How long do refunds take?"


def generator(api: FakeAPI, **kwargs: Any) -> OpenAIGenerator:
    options: dict[str, Any] = {"api_key": API_KEY, "retry_backoff": 0}
    options.update(kwargs)
    return OpenAIGenerator(api.base + "/v1", MODEL, **options)


def with_arguments(arguments: Any) -> dict[str, Any]:
    """The recorded tool-call reply with other arguments (a dict is JSON-encoded)."""
    body = recording("openai_tool_call.json")
    encoded = json.dumps(arguments) if isinstance(arguments, dict) else arguments
    body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = encoded
    return body


def test_request_forces_the_tool_and_numbers_the_passages(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: the request is what the protocol says."""
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api) as gen:
        gen.generate(QUESTION, PASSAGES)

    (request,) = fake_api.received
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    body = request.body
    assert body["model"] == MODEL
    assert body["tool_choice"] == {"type": "function", "function": {"name": TOOL_NAME}}
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": TOOL_DESCRIPTION,
                "parameters": TOOL_SCHEMA,
            },
        }
    ]
    assert body["temperature"] == 0
    assert body["max_tokens"] == 2048
    system, user = body["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert user["role"] == "user"
    text = user["content"]
    assert 'number=1 source="Refund policy, version v2">\nRefunds are issued within 14 days' in text
    assert 'number=2 source="Calendar, version v1, 2024-03-01">\nReturns are accepted' in text
    assert 'number=3 source="Refund policy, version v1, SUPERSEDED">\nRefunds take 30' in text
    assert text.index("number=1 ") < text.index("number=2 ") < text.index("number=3 ")
    assert text.endswith(f"Question: {QUESTION}")


def test_summary_and_feedback_reach_the_user_message(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: the repair pass carries its feedback."""
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api) as gen:
        gen.generate(QUESTION, PASSAGES, summary="Earlier: shipping.", feedback="Cite [1].")
    text = fake_api.received[0].body["messages"][1]["content"]
    assert text.startswith("Conversation so far (summary):\nEarlier: shipping.")
    assert text.endswith("fixing them:\nCite [1].")


def test_reply_is_parsed_into_a_generation(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: a recorded tool call becomes a Generation."""
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api) as gen:
        generation = gen.generate(QUESTION, PASSAGES)

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
    assert generation.raw["sufficient_context"] is True


def test_excerpt_numbers_are_kept_raw(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: numbers are not coerced, clamped or dropped."""
    arguments = {
        "claims": [{"text": "x", "used_excerpt_numbers": ["2", 99, -1, 1.5, None], "kind": "fact"}],
        "sufficient_context": False,
        "conflicts": [{"excerpt_numbers": ["1", 7], "description": "d"}],
    }
    fake_api.reply(with_arguments(arguments))
    with generator(fake_api) as gen:
        generation = gen.generate(QUESTION, PASSAGES)
    assert generation.claims[0].used_excerpt_numbers == ("2", 99, -1, 1.5, None)
    assert generation.conflicts[0].excerpt_numbers == ("1", 7)
    assert generation.sufficient_context is False
    assert generation.summary == ""


def test_arguments_sent_as_an_object_are_accepted(fake_api: FakeAPI) -> None:
    """Test double for a paid OpenAI-compatible API that sends arguments as an object."""
    body = recording("openai_tool_call.json")
    function = body["choices"][0]["message"]["tool_calls"][0]["function"]
    function["arguments"] = json.loads(function["arguments"])
    fake_api.reply(body)
    with generator(fake_api) as gen:
        assert len(gen.generate(QUESTION, PASSAGES).claims) == 2


def test_complete_tool_call_forces_any_tool(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: other tools (agent, judge) go through too."""
    schema = {"type": "object", "properties": {"supported": {"type": "boolean"}}}
    body = recording("openai_tool_call.json")
    call = body["choices"][0]["message"]["tool_calls"][0]["function"]
    call.update(name="judge", arguments='{"supported": true}')
    fake_api.reply(body)
    with generator(fake_api) as gen:
        assert gen.complete_tool_call("sys", "usr", "judge", "Judge.", schema) == {
            "supported": True
        }
    sent = fake_api.received[0].body
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "judge"}}
    assert sent["tools"][0]["function"] == {
        "name": "judge",
        "description": "Judge.",
        "parameters": schema,
    }
    assert sent["messages"] == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "usr"},
    ]


def test_local_server_without_key_or_temperature(fake_api: FakeAPI) -> None:
    """Test double for a paid OpenAI-compatible API, here keyless like a local vLLM."""
    fake_api.reply(recording("openai_tool_call.json"))
    with OpenAIGenerator(fake_api.base + "/v1/", "qwen", temperature=None, max_tokens=64) as gen:
        gen.generate(QUESTION, PASSAGES)
    (request,) = fake_api.received
    assert request.path == "/v1/chat/completions"
    assert "authorization" not in request.headers
    assert "temperature" not in request.body
    assert request.body["max_tokens"] == 64


def test_identity_and_protocols(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: no request is made to describe the generator."""
    with generator(fake_api) as gen:
        assert gen.name == f"openai:{MODEL}"
        assert gen.is_model is True
        assert API_KEY not in repr(gen)
        # Structural: mypy checks these assignments; at run time they only alias.
        as_generator: Generator = gen
        as_caller: ToolCaller = gen
        assert as_generator.is_model and callable(as_caller.complete_tool_call)
    assert fake_api.received == []


def test_401_names_status_and_provider_message_without_the_key(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, which rejects a bad key (and here echoes it)."""
    fake_api.reply(recording("openai_error_401.json"), status=401)
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    message = str(info.value)
    assert "HTTP 401" in message
    assert "invalid_request_error: Incorrect API key provided" in message
    assert API_KEY not in message
    assert "\n" not in message
    assert len(fake_api.received) == 1  # a 4xx is not retried


def test_500_is_retried_once_then_succeeds(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, which sometimes fails with a 500."""
    fake_api.reply(recording("openai_error_500.json"), status=500)
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api) as gen:
        generation = gen.generate(QUESTION, PASSAGES)
    assert len(generation.claims) == 2
    assert len(fake_api.received) == 2
    assert fake_api.received[0].body == fake_api.received[1].body


def test_a_model_that_wants_max_completion_tokens_gets_it(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: reasoning models reject ``max_tokens``."""
    fake_api.reply(recording("openai_error_400_max_tokens.json"), status=400)
    fake_api.reply(recording("openai_tool_call.json"))
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api, max_tokens=512) as gen:
        assert len(gen.generate(QUESTION, PASSAGES).claims) == 2
        assert len(gen.generate(QUESTION, PASSAGES).claims) == 2
    first, second, third = (r.body for r in fake_api.received)
    assert first["max_tokens"] == 512 and "max_completion_tokens" not in first
    assert second["max_completion_tokens"] == 512 and "max_tokens" not in second
    # The server's preference is remembered: no failed request the second time.
    assert third["max_completion_tokens"] == 512 and "max_tokens" not in third
    assert {k: v for k, v in first.items() if k != "max_tokens"} == {
        k: v for k, v in second.items() if k != "max_completion_tokens"
    }


def test_a_model_that_only_takes_its_default_temperature_gets_none(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API: reasoning models reject both fields in turn."""
    temperature = {
        "error": {
            "message": "Unsupported value: 'temperature' does not support 0 with this model. "
            "Only the default (1) value is supported.",
            "type": "invalid_request_error",
            "param": "temperature",
            "code": "unsupported_value",
        }
    }
    fake_api.reply(recording("openai_error_400_max_tokens.json"), status=400)
    fake_api.reply(temperature, status=400)
    fake_api.reply(recording("openai_tool_call.json"))
    fake_api.reply(recording("openai_tool_call.json"))
    with generator(fake_api, max_tokens=512) as gen:
        gen.generate(QUESTION, PASSAGES)
        # The agent loop built from this generator starts adapted: no failed request.
        from pincite.agent import ToolSpec, chat_model

        tool = ToolSpec("answer_with_citations", "answer", {"type": "object"})
        turn = chat_model(gen).chat("system", ["question"], [tool])
        assert turn.calls
    bodies = [r.body for r in fake_api.received]
    assert [("max_tokens" in b, "temperature" in b) for b in bodies] == [
        (True, True),
        (False, True),
        (False, False),
        (False, False),
    ]
    assert bodies[3]["max_completion_tokens"] == 512
    assert gen.max_tokens == 512 and gen.temperature == 0  # what was configured


@pytest.mark.parametrize(
    "message",
    [
        "Invalid 'messages'",
        # The user's own out-of-range temperature: shown, not silently dropped.
        "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got "
        "2.5 instead.",
    ],
)
def test_other_400s_are_not_retried(fake_api: FakeAPI, message: str) -> None:
    """Test double for the paid OpenAI API: a 400 about something else is final."""
    error = {"error": {"message": message, "type": "invalid_request_error"}}
    fake_api.reply(error, status=400)
    with (
        generator(fake_api, temperature=2.5) as gen,
        pytest.raises(GeneratorError, match="HTTP 400"),
    ):
        gen.generate(QUESTION, PASSAGES)
    assert len(fake_api.received) == 1
    assert gen.fields.temperature == 2.5


def test_second_failure_is_not_retried_and_retry_after_is_honoured(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, rate limiting with ``Retry-After: 0``."""
    error = {"error": {"message": "Rate limit reached", "type": "requests", "code": None}}
    fake_api.reply(error, status=429, headers={"Retry-After": "0"})
    fake_api.reply(error, status=429, headers={"Retry-After": "0"})
    start = time.monotonic()
    # The default backoff is 1 s; Retry-After: 0 overrides it.
    with (
        generator(fake_api, retry_backoff=1.0) as gen,
        pytest.raises(GeneratorError, match="HTTP 429: requests: Rate limit reached"),
    ):
        gen.generate(QUESTION, PASSAGES)
    assert time.monotonic() - start < 0.9
    assert len(fake_api.received) == 2


def test_reply_without_tool_call_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, whose model answered in prose instead."""
    fake_api.reply(recording("openai_no_tool_call.json"))
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    assert "no tool call in the reply (finish_reason 'stop')" in str(info.value)
    assert "Refunds are issued within 14 days [1]." in str(info.value)


def test_call_of_another_tool_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, whose model called a tool it was not given."""
    body = recording("openai_tool_call.json")
    body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] = "search"
    fake_api.reply(body)
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=r"called \['search'\]"):
        gen.generate(QUESTION, PASSAGES)


def test_truncated_json_arguments_raise(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, whose reply was cut off at max_tokens."""
    fake_api.reply(recording("openai_truncated_arguments.json"))
    with generator(fake_api) as gen, pytest.raises(GeneratorError) as info:
        gen.generate(QUESTION, PASSAGES)
    assert "arguments are not valid JSON (cut off at max_tokens)" in str(info.value)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("[1, 2]", "arguments are not a JSON object"),
        ('{"claims": []}', "boolean 'sufficient_context'"),
        ('{"claims": [{"used_excerpt_numbers": [1]}], "sufficient_context": true}', "'text'"),
        ('{"claims": "none", "sufficient_context": false}', "a 'claims' list"),
    ],
)
def test_arguments_outside_the_protocol_raise(
    fake_api: FakeAPI, arguments: str, message: str
) -> None:
    """Test double for the paid OpenAI API, whose model sent valid JSON of the wrong shape."""
    fake_api.reply(with_arguments(arguments))
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=message) as info:
        gen.generate(QUESTION, PASSAGES)
    assert str(info.value).startswith("OpenAI-compatible endpoint http://127.0.0.1:")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>502 Bad Gateway</html>", "reply is not JSON"),
        ({"object": "chat.completion", "choices": []}, "no choices"),
    ],
)
def test_replies_outside_the_api_raise(
    fake_api: FakeAPI, body: dict[str, Any] | str, message: str
) -> None:
    """Test double for the paid OpenAI API behind a proxy that mangles replies."""
    fake_api.reply(body)
    with generator(fake_api) as gen, pytest.raises(GeneratorError, match=message):
        gen.generate(QUESTION, PASSAGES)


def test_connection_refused_raises(closed_port: int) -> None:
    """Test double for the paid OpenAI API, here down: nothing listens on the port."""
    url = f"http://127.0.0.1:{closed_port}/v1"
    with (
        OpenAIGenerator(url, MODEL, api_key=API_KEY) as gen,
        pytest.raises(GeneratorError, match="cannot connect") as info,
    ):
        gen.generate(QUESTION, PASSAGES)
    assert API_KEY not in str(info.value)
    assert url in str(info.value)


def test_timeout_raises(fake_api: FakeAPI) -> None:
    """Test double for the paid OpenAI API, here too slow to answer."""
    fake_api.reply(recording("openai_tool_call.json"), delay_s=5)
    with (
        generator(fake_api, timeout=0.2) as gen,
        pytest.raises(GeneratorError, match=r"no reply within 0\.2s"),
    ):
        gen.generate(QUESTION, PASSAGES)
    assert len(fake_api.received) == 1  # a timeout is not retried


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": ""}, "base_url is required"),
        ({"model": ""}, "model is required"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_bad_construction_raises_value_error(kwargs: dict[str, Any], message: str) -> None:
    """No request at all: the test double for the paid OpenAI API is not needed."""
    options: dict[str, Any] = {"base_url": "http://127.0.0.1:9/v1", "model": MODEL, **kwargs}
    with pytest.raises(ValueError, match=message):
        OpenAIGenerator(**options)
