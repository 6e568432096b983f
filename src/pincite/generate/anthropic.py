"""A generator behind Anthropic's Messages API, ``POST {base_url}/v1/messages``.

The answer comes back as a forced ``tool_use`` content block whose ``input``
is already a JSON object. The library never reads the environment: the caller
passes the key (and a base URL for a proxy or a compatible server).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pincite.generate.http import JsonEndpoint, ModelGenerator, snippet

__all__ = ["ANTHROPIC_URL", "ANTHROPIC_VERSION", "AnthropicGenerator"]

ANTHROPIC_URL = "https://api.anthropic.com"
# The only version of the Messages API; sent on every request, as the API requires.
ANTHROPIC_VERSION = "2023-06-01"


class AnthropicGenerator(ModelGenerator):
    """Answers through Anthropic's Messages API.

    ``api_key`` may be ``None`` only for a proxy or compatible server that
    needs none. ``temperature=None`` leaves it out of the request.
    ``retry_backoff`` is the wait before the one retry on 429 or 5xx (529
    "overloaded" included) when the server sends no ``Retry-After``.

    Every failure raises ``GeneratorError`` with a one-line message that never
    contains the API key.
    """

    _prefix = "anthropic"

    def __init__(
        self,
        model: str,
        api_key: str | None,
        base_url: str = ANTHROPIC_URL,
        timeout: float = 60,
        max_tokens: int = 2048,
        *,
        temperature: float | None = 0,
        retry_backoff: float = 1.0,
    ) -> None:
        if not base_url:
            raise ValueError(f"base_url is required, e.g. {ANTHROPIC_URL}")
        if not model:
            raise ValueError("model is required")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        self._temperature = temperature
        self._max_tokens = max_tokens
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        endpoint = JsonEndpoint(
            base_url.rstrip("/") + "/v1/messages",
            label="Anthropic endpoint",
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
        """Force one call of ``tool_name`` and return its ``input`` object.

        Raises ``GeneratorError`` when the endpoint fails, replies without that
        ``tool_use`` block, or sends an ``input`` that is not a JSON object.
        """
        payload: dict[str, Any] = {
            "model": self._model,
            "max_tokens": self._max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "tools": [
                {"name": tool_name, "description": tool_description, "input_schema": dict(schema)}
            ],
            "tool_choice": {"type": "tool", "name": tool_name},
        }
        if self._temperature is not None:
            payload["temperature"] = self._temperature
        return self._read_input(self._endpoint.post(payload), tool_name)

    def _read_input(self, reply: dict[str, Any], tool_name: str) -> dict[str, Any]:
        content = reply.get("content")
        if not isinstance(content, list):
            raise self._endpoint.fail(f"reply has no content list: {snippet(reply)}")
        stop = reply.get("stop_reason")
        uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        block = next((b for b in uses if b.get("name") == tool_name), None)
        if block is None:
            if uses:
                called = [b.get("name") for b in uses]
                raise self._endpoint.fail(f"called {called} instead of the tool {tool_name!r}")
            said = " ".join(
                b["text"]
                for b in content
                if isinstance(b, dict)
                and b.get("type") == "text"
                and isinstance(b.get("text"), str)
            )
            raise self._endpoint.fail(
                f"no tool_use block in the reply (stop_reason {stop!r}); "
                f"it said: {snippet(said, 200)!r}"
            )
        if stop == "max_tokens":
            # The block was cut off; its input is partial (often empty) and not worth parsing.
            raise self._endpoint.fail(
                f"tool {tool_name!r} input was cut off at max_tokens ({self._max_tokens})"
            )
        arguments = block.get("input")
        if not isinstance(arguments, dict):
            raise self._endpoint.fail(
                f"tool {tool_name!r} input is not a JSON object: {snippet(arguments, 100)}"
            )
        return arguments
