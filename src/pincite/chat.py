"""Chatting with tools through a provider's HTTP protocol, for the agent loop.

``ChatModel`` is what the loop needs: one turn of a conversation with tools.
``OpenAIChat`` and ``AnthropicChat`` speak those protocols over a generator's
endpoint; ``chat_model`` builds the right one from a configured generator.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pincite.errors import ConfigurationError
from pincite.generate.anthropic import AnthropicGenerator
from pincite.generate.http import JsonEndpoint, ModelGenerator, snippet
from pincite.generate.openai import ChatFields, OpenAIGenerator

__all__ = [
    "AnthropicChat",
    "ChatModel",
    "Message",
    "OpenAIChat",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Turn",
    "chat_model",
]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Turn:
    """One model reply: text, tool calls, or both."""

    text: str
    calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolResult:
    call_id: str
    content: str


# A conversation: the user's text, the model's turns, the results of its tool calls.
Message = str | Turn | tuple[ToolResult, ...]


class ChatModel(Protocol):
    """A model that chats with tools; raises ``GeneratorError`` when its endpoint fails."""

    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn: ...


class _HttpChat:
    """A provider's chat-with-tools protocol over a generator's :class:`JsonEndpoint`."""

    def __init__(
        self,
        endpoint: JsonEndpoint,
        model: str,
        max_tokens: int = 2048,
        temperature: float | None = 0,
    ) -> None:
        self._endpoint = endpoint
        self._head: dict[str, Any] = {"model": model, "max_tokens": max_tokens}
        if temperature is not None:  # None: the model's default (some accept no other)
            self._head["temperature"] = temperature

    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn:
        return self._read(self._endpoint.post(self._head | self._body(system, messages, tools)))

    def _body(self, system: str, msgs: Sequence[Message], tools: Sequence[ToolSpec]) -> Any:
        raise NotImplementedError

    def _read(self, reply: dict[str, Any]) -> Turn:
        raise NotImplementedError


class OpenAIChat(_HttpChat):
    """Chat completions with ``tools`` (OpenAI, vLLM, llama.cpp, Ollama at /v1).

    ``fields`` (a generator's, to share what it learned about the server)
    sends the length limit and temperature as the server accepts them.
    """

    def __init__(
        self,
        endpoint: JsonEndpoint,
        model: str,
        max_tokens: int = 2048,
        temperature: float | None = 0,
        fields: ChatFields | None = None,
    ) -> None:
        # No super().__init__: the length limit and temperature travel in ``fields``.
        self._endpoint = endpoint
        self._head = {"model": model}
        self._fields = fields or ChatFields(max_tokens, temperature)

    def chat(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Turn:
        payload = self._head | self._body(system, messages, tools)
        return self._read(self._fields.post(self._endpoint, payload))

    def _body(self, system: str, msgs: Sequence[Message], tools: Sequence[ToolSpec]) -> Any:
        wire: list[dict[str, Any]] = [{"role": "system", "content": system}]
        for m in msgs:
            if isinstance(m, str):
                wire.append({"role": "user", "content": m})
            elif isinstance(m, Turn):
                entry: dict[str, Any] = {"role": "assistant", "content": m.text or None}
                if m.calls:
                    entry["tool_calls"] = [_openai_call(c) for c in m.calls]
                wire.append(entry)
            else:
                wire += [
                    {"role": "tool", "tool_call_id": r.call_id, "content": r.content} for r in m
                ]
        functions = [
            {"name": t.name, "description": t.description, "parameters": dict(t.parameters)}
            for t in tools
        ]
        specs = [{"type": "function", "function": f} for f in functions]
        return {"messages": wire, "tools": specs, "tool_choice": "auto"}

    def _read(self, reply: dict[str, Any]) -> Turn:
        choices = reply.get("choices")
        message = choices[0].get("message") if isinstance(choices, list) and choices else None
        if not isinstance(message, dict):
            raise self._endpoint.fail(f"reply has no choices[0].message: {snippet(reply)}")
        calls = []
        for i, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                raise self._endpoint.fail(f"malformed tool call: {snippet(call)}")
            arguments = _arguments(function.get("arguments"))
            calls.append(ToolCall(str(call.get("id") or i), str(function.get("name")), arguments))
        return Turn(str(message.get("content") or ""), tuple(calls))


def _openai_call(c: ToolCall) -> dict[str, Any]:
    function = {"name": c.name, "arguments": json.dumps(c.arguments)}
    return {"id": c.id, "type": "function", "function": function}


class AnthropicChat(_HttpChat):
    """Anthropic Messages with ``tools``; results go back as ``tool_result`` blocks."""

    def _body(self, system: str, msgs: Sequence[Message], tools: Sequence[ToolSpec]) -> Any:
        wire: list[dict[str, Any]] = []
        for m in msgs:
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
        return {"system": system, "messages": wire, "tools": specs}

    def _read(self, reply: dict[str, Any]) -> Turn:
        content = reply.get("content")
        if not isinstance(content, list):
            raise self._endpoint.fail(f"reply has no content list: {snippet(reply)}")
        blocks = [b for b in content if isinstance(b, dict)]
        text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
        uses = [b for b in blocks if b.get("type") == "tool_use"]
        calls = (
            ToolCall(str(b.get("id")), str(b.get("name")), _arguments(b.get("input"))) for b in uses
        )
        return Turn(text, tuple(calls))


def _arguments(raw: object) -> Mapping[str, Any]:
    """Tool arguments as an object; anything else becomes ``{}`` (the tool then says why)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            return {}
    return raw if isinstance(raw, dict) else {}


def chat_model(model: ChatModel | ModelGenerator) -> ChatModel:
    """A :class:`ChatModel` for an OpenAI-compatible or Anthropic generator, or ``model``."""
    # The generator's own endpoint (URL, key, retry) and sampling settings are reused.
    if isinstance(model, OpenAIGenerator):
        return OpenAIChat(
            model.endpoint, model.model, model.max_tokens, model.temperature, model.fields
        )
    if isinstance(model, AnthropicGenerator):
        return AnthropicChat(model.endpoint, model.model, model.max_tokens, model.temperature)
    if isinstance(model, ModelGenerator):
        raise ConfigurationError(f"the agent cannot chat through {type(model).__name__}")
    return model
