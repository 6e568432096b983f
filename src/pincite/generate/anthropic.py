"""A generator behind Anthropic's Messages API, ``POST {base_url}/v1/messages``.

The answer comes back as a forced ``tool_use`` content block whose ``input``
is already a JSON object. The library never reads the environment: the caller
passes the key (and a base URL for a proxy or a compatible server).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from pincite.chat import Message, ToolCall, ToolSpec, Turn, tool_arguments
from pincite.generate.http import ModelGenerator, ProviderClient, snippet

__all__ = ["ANTHROPIC_URL", "ANTHROPIC_VERSION", "AnthropicClient", "AnthropicGenerator"]

ANTHROPIC_URL = "https://api.anthropic.com"
# The only version of the Messages API; sent on every request, as the API requires.
ANTHROPIC_VERSION = "2023-06-01"


class AnthropicClient(ProviderClient):
    """Anthropic's Messages API (or a proxy or compatible server at ``base_url``).

    ``api_key`` may be ``None`` only for a proxy or compatible server that
    needs none. ``temperature=None`` leaves it out of the request.
    ``retry_backoff`` is the wait before the one retry on 429 or 5xx (529
    "overloaded" included) when the server sends no ``Retry-After``.
    """

    prefix = "anthropic"
    label = "Anthropic endpoint"

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
            raise ValueError(f"base_url is required, e.g. {ANTHROPIC_URL}")
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        super().__init__(
            base_url.rstrip("/") + "/v1/messages",
            model,
            headers=headers,
            api_key=api_key,
            timeout=timeout,
            max_tokens=max_tokens,
            temperature=temperature,
            retry_backoff=retry_backoff,
        )

    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn:
        wire: list[dict[str, Any]] = []
        for m in messages:
            if isinstance(m, str):
                wire.append({"role": "user", "content": m})
            elif isinstance(m, Turn):
                blocks = [{"type": "text", "text": m.text}] if m.text else []
                uses: list[dict[str, Any]] = [
                    {"id": c.id, "name": c.name, "input": dict(c.arguments)} for c in m.calls
                ]
                blocks += [{"type": "tool_use", **u} for u in uses]
                wire.append({"role": "assistant", "content": blocks})
            else:
                results = [
                    {"type": "tool_result", "tool_use_id": r.call_id, "content": r.content}
                    for r in m
                ]
                wire.append({"role": "user", "content": results})
        specs = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)}
            for t in tools
        ]
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": wire,
            "tools": specs,
        }
        if self.temperature is not None:  # None: the model's default (some accept no other)
            payload["temperature"] = self.temperature
        reply = self.endpoint.post(payload)
        content = reply.get("content")
        if not isinstance(content, list):
            raise self.endpoint.fail(f"reply has no content list: {snippet(reply)}")
        blocks = [b for b in content if isinstance(b, dict)]
        text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
        calls = (
            ToolCall(str(b.get("id")), str(b.get("name")), tool_arguments(b.get("input")))
            for b in blocks
            if b.get("type") == "tool_use"
        )
        return Turn(text, tuple(calls))

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
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "tools": [
                {"name": tool_name, "description": tool_description, "input_schema": dict(schema)}
            ],
            "tool_choice": {"type": "tool", "name": tool_name},
        }
        if self.temperature is not None:
            payload["temperature"] = self.temperature
        return self._read_input(self.endpoint.post(payload), tool_name)

    def _read_input(self, reply: dict[str, Any], tool_name: str) -> dict[str, Any]:
        content = reply.get("content")
        if not isinstance(content, list):
            raise self.endpoint.fail(f"reply has no content list: {snippet(reply)}")
        stop = reply.get("stop_reason")
        uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        block = next((b for b in uses if b.get("name") == tool_name), None)
        if block is None:
            if uses:
                called = [b.get("name") for b in uses]
                raise self.endpoint.fail(f"called {called} instead of the tool {tool_name!r}")
            said = " ".join(
                b["text"]
                for b in content
                if isinstance(b, dict)
                and b.get("type") == "text"
                and isinstance(b.get("text"), str)
            )
            raise self.endpoint.fail(
                f"no tool_use block in the reply (stop_reason {stop!r}); "
                f"it said: {snippet(said, 200)!r}"
            )
        if stop == "max_tokens":
            # The block was cut off; its input is partial (often empty) and not worth parsing.
            raise self.endpoint.fail(
                f"tool {tool_name!r} input was cut off at max_tokens ({self.max_tokens})"
            )
        arguments = block.get("input")
        if not isinstance(arguments, dict):
            raise self.endpoint.fail(
                f"tool {tool_name!r} input is not a JSON object: {snippet(arguments, 100)}"
            )
        return arguments


class AnthropicGenerator(ModelGenerator):
    """Answers through Anthropic's Messages API.

    Builds its :class:`AnthropicClient` (see there for the arguments); every
    failure raises ``GeneratorError`` with a one-line message that never
    contains the API key.
    """

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
        super().__init__(
            AnthropicClient(
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
        return cls(model, api_key, base_url=base_url or ANTHROPIC_URL)
