"""A generator behind any OpenAI-compatible ``POST {base_url}/chat/completions``.

Works with OpenAI itself and with local servers that copy its protocol (vLLM,
llama.cpp server, Ollama at ``/v1``, LM Studio). The answer comes back as a
forced function call whose arguments are a JSON string. The library never
reads the environment: the caller passes the base URL and key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Self

from pincite.chat import Message, ToolCall, ToolSpec, Turn, tool_arguments
from pincite.generate.http import (
    JsonEndpoint,
    ModelGenerator,
    ProviderClient,
    ProviderStatusError,
    snippet,
)

__all__ = ["OPENAI_URL", "ChatFields", "OpenAIClient", "OpenAIGenerator"]

OPENAI_URL = "https://api.openai.com/v1"


class ChatFields:
    """The reply-length limit and temperature, sent as the server accepts them.

    vLLM, llama.cpp, Ollama and OpenAI's older models take ``max_tokens`` and
    any ``temperature``. OpenAI's reasoning models (o1, o3, gpt-5 ...) reject
    ``max_tokens`` (they want ``max_completion_tokens``) and any temperature
    but their default, each with a 400 that names the field. Each such 400
    adapts this object and the request goes out again; later requests (the
    agent loop's too, which shares it) are sent adapted from the start.
    """

    def __init__(self, max_tokens: int, temperature: float | None) -> None:
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.limit_field = "max_tokens"

    def post(self, endpoint: JsonEndpoint, payload: Mapping[str, Any]) -> dict[str, Any]:
        while True:
            try:
                return endpoint.post(self._fill(payload))
            except ProviderStatusError as exc:
                # Each adaptation happens at most once, so this ends.
                if exc.status != 400 or not self._adapt(exc.detail):
                    raise

    def _fill(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        out = {**payload, self.limit_field: self.max_tokens}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        return out

    def _adapt(self, detail: str) -> bool:
        if self.limit_field == "max_tokens" and "max_completion_tokens" in detail:
            self.limit_field = "max_completion_tokens"
            return True
        lowered = detail.lower()
        unsupported = "unsupported" in lowered or "only the default" in lowered
        if self.temperature is not None and "temperature" in lowered and unsupported:
            # The model takes no temperature but its default; an out-of-range value
            # the user set is their error to see, not ours to drop.
            self.temperature = None
            return True
        return False


class OpenAIClient(ProviderClient):
    """An OpenAI-compatible chat completions endpoint (OpenAI, vLLM, llama.cpp, Ollama).

    ``temperature=None`` leaves it out of the request, for models that accept
    only their default. ``retry_backoff`` is the wait before the one retry on
    429 or 5xx when the server sends no ``Retry-After``.
    """

    prefix = "openai"
    label = "OpenAI-compatible endpoint"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float = 60,
        temperature: float | None = 0,
        max_tokens: int = 2048,
        retry_backoff: float = 1.0,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required, e.g. https://api.openai.com/v1")
        super().__init__(
            base_url.rstrip("/") + "/chat/completions",
            model,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            api_key=api_key,
            timeout=timeout,
            max_tokens=max_tokens,
            temperature=temperature,
            retry_backoff=retry_backoff,
        )
        # Shared by the answer tool and the agent's chat: an adaptation learned
        # by one is used by the other from its first request.
        self.fields = ChatFields(max_tokens, temperature)

    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn:
        wire: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for m in messages:
            if isinstance(m, str):
                wire.append({"role": "user", "content": m})
            elif isinstance(m, Turn):
                entry: dict[str, Any] = {"role": "assistant", "content": m.text or None}
                if m.calls:
                    entry["tool_calls"] = [_wire_call(c) for c in m.calls]
                wire.append(entry)
            else:
                wire += [
                    {"role": "tool", "tool_call_id": r.call_id, "content": r.content} for r in m
                ]
        functions = [
            {"name": t.name, "description": t.description, "parameters": dict(t.parameters)}
            for t in tools
        ]
        payload = {
            "model": self.model,
            "messages": wire,
            "tools": [{"type": "function", "function": f} for f in functions],
            "tool_choice": "auto",
        }
        reply = self.fields.post(self.endpoint, payload)
        choices = reply.get("choices")
        message = choices[0].get("message") if isinstance(choices, list) and choices else None
        if not isinstance(message, dict):
            raise self.endpoint.fail(f"reply has no choices[0].message: {snippet(reply)}")
        calls = []
        for i, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                raise self.endpoint.fail(f"malformed tool call: {snippet(call)}")
            arguments = tool_arguments(function.get("arguments"))
            calls.append(ToolCall(str(call.get("id") or i), str(function.get("name")), arguments))
        return Turn(str(message.get("content") or ""), tuple(calls))

    def complete_tool_call(
        self,
        system: str,
        user: str,
        tool_name: str,
        tool_description: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Force one call of ``tool_name`` and return its arguments as a JSON object.

        Raises ``GeneratorError`` when the endpoint fails, replies without that
        tool call, or sends arguments that are not a JSON object.
        """
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": tool_name,
                        "description": tool_description,
                        "parameters": dict(schema),
                    },
                }
            ],
            "tool_choice": {"type": "function", "function": {"name": tool_name}},
        }
        return self._read_arguments(self.fields.post(self.endpoint, payload), tool_name)

    def _read_arguments(self, reply: dict[str, Any], tool_name: str) -> dict[str, Any]:
        choices = reply.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(choice, dict) or not isinstance(message, dict):
            raise self.endpoint.fail(f"reply has no choices[0].message: {snippet(reply)}")
        finish = choice.get("finish_reason")
        calls = message.get("tool_calls")
        functions = [
            call["function"]
            for call in (calls if isinstance(calls, list) else [])
            if isinstance(call, dict) and isinstance(call.get("function"), dict)
        ]
        function = next((f for f in functions if f.get("name") == tool_name), None)
        if function is None:
            if functions:
                called = [f.get("name") for f in functions]
                raise self.endpoint.fail(f"called {called} instead of the tool {tool_name!r}")
            said = message.get("refusal") or message.get("content") or ""
            raise self.endpoint.fail(
                f"no tool call in the reply (finish_reason {finish!r}); "
                f"it said: {snippet(said, 200)!r}"
            )
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                cut = f" (cut off at {self.fields.limit_field})" if finish == "length" else ""
                raise self.endpoint.fail(
                    f"tool {tool_name!r} arguments are not valid JSON{cut}: "
                    f"{exc.msg} at character {exc.pos}"
                ) from None
        # Some servers (Ollama's native shape) send the arguments as an object already.
        if not isinstance(arguments, dict):
            raise self.endpoint.fail(
                f"tool {tool_name!r} arguments are not a JSON object: {snippet(arguments, 100)}"
            )
        return arguments


def _wire_call(c: ToolCall) -> dict[str, Any]:
    function = {"name": c.name, "arguments": json.dumps(c.arguments)}
    return {"id": c.id, "type": "function", "function": function}


class OpenAIGenerator(ModelGenerator):
    """Answers through an OpenAI-compatible chat completions endpoint.

    Builds its :class:`OpenAIClient` (see there for the arguments); every
    failure raises ``GeneratorError`` with a one-line message that never
    contains the API key.
    """

    client: OpenAIClient

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 60,
        temperature: float | None = 0,
        max_tokens: int = 2048,
        *,
        retry_backoff: float = 1.0,
    ) -> None:
        super().__init__(
            OpenAIClient(
                base_url,
                model,
                api_key,
                timeout=timeout,
                temperature=temperature,
                max_tokens=max_tokens,
                retry_backoff=retry_backoff,
            )
        )

    @classmethod
    def connect(cls, base_url: str | None, model: str, api_key: str | None) -> Self:
        return cls(base_url or OPENAI_URL, model, api_key=api_key)

    @property
    def fields(self) -> ChatFields:
        return self.client.fields
