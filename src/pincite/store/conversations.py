"""The rows a store keeps for conversations and agent memories.

A store keeps them as it is given them and never reads inside a turn's
``data`` (the answer as JSON, ``pincite.conversation`` owns its shape): stores
only store. Every row carries its tenant, and every key leads with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ConversationRecord:
    """One conversation of a tenant; ``turn_count`` and ``updated_at`` follow its turns."""

    tenant: str
    conversation_id: str
    title: str
    created_at: str
    updated_at: str
    turn_count: int = 0


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """Turn ``seq`` (0-based, gapless) of a conversation; ``data`` is a JSON object."""

    tenant: str
    conversation_id: str
    seq: int
    created_at: str
    data: str

    def payload(self) -> dict[str, Any]:
        loaded = json.loads(self.data)
        return loaded if isinstance(loaded, dict) else {}


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """A stored ``MemoryRecord``: its text and the evidence ids it rests on."""

    tenant: str
    memory_id: str
    text: str
    evidence_ids: tuple[str, ...]
    created_at: str
