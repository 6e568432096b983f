"""Chatting with tools: the values the agent loop and the provider clients exchange.

``ChatModel`` is what the loop needs: one turn of a conversation with tools.
Every :class:`pincite.generate.http.ProviderClient` is one (OpenAI-compatible
and Anthropic); so is any test double that speaks these values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "ChatModel",
    "Message",
    "ToolCall",
    "ToolResult",
    "ToolSpec",
    "Turn",
    "tool_arguments",
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


def tool_arguments(raw: object) -> Mapping[str, Any]:
    """Tool arguments as an object; anything else becomes ``{}`` (the tool then says why)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            return {}
    return raw if isinstance(raw, dict) else {}
