"""A generator behind any OpenAI-compatible ``POST {base_url}/chat/completions``.

Works with OpenAI itself and with local servers that copy its protocol (vLLM,
llama.cpp server, Ollama at ``/v1``, LM Studio). The answer comes back as a
forced function call whose arguments are a JSON string. The library never
reads the environment: the caller passes the base URL and key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pincite.generate.http import JsonEndpoint, ModelGenerator, ProviderStatusError, snippet

__all__ = ["ChatFields", "OpenAIGenerator"]


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


class OpenAIGenerator(ModelGenerator):
    """Answers through an OpenAI-compatible chat completions endpoint.

    ``temperature=None`` leaves it out of the request, for models that accept
    only their default. ``retry_backoff`` is the wait before the one retry on
    429 or 5xx when the server sends no ``Retry-After``.

    Every failure raises ``GeneratorError`` with a one-line message that never
    contains the API key.
    """

    _prefix = "openai"

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
        if not base_url:
            raise ValueError("base_url is required, e.g. https://api.openai.com/v1")
        if not model:
            raise ValueError("model is required")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        self._temperature = temperature
        self._max_tokens = max_tokens
        self.fields = ChatFields(max_tokens, temperature)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        endpoint = JsonEndpoint(
            base_url.rstrip("/") + "/chat/completions",
            label="OpenAI-compatible endpoint",
            model=model,
            headers=headers,
            timeout=timeout,
            secret=api_key,
            retry_backoff=retry_backoff,
        )
        super().__init__(model, endpoint)

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
            "model": self._model,
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
        return self._read_arguments(self.fields.post(self._endpoint, payload), tool_name)

    def _read_arguments(self, reply: dict[str, Any], tool_name: str) -> dict[str, Any]:
        choices = reply.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(choice, dict) or not isinstance(message, dict):
            raise self._endpoint.fail(f"reply has no choices[0].message: {snippet(reply)}")
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
                raise self._endpoint.fail(f"called {called} instead of the tool {tool_name!r}")
            said = message.get("refusal") or message.get("content") or ""
            raise self._endpoint.fail(
                f"no tool call in the reply (finish_reason {finish!r}); "
                f"it said: {snippet(said, 200)!r}"
            )
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError as exc:
                cut = f" (cut off at {self.fields.limit_field})" if finish == "length" else ""
                raise self._endpoint.fail(
                    f"tool {tool_name!r} arguments are not valid JSON{cut}: "
                    f"{exc.msg} at character {exc.pos}"
                ) from None
        # Some servers (Ollama's native shape) send the arguments as an object already.
        if not isinstance(arguments, dict):
            raise self._endpoint.fail(
                f"tool {tool_name!r} arguments are not a JSON object: {snippet(arguments, 100)}"
            )
        return arguments
