"""Conversations, their turns and agent memories in the SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from pincite.errors import ConcurrentWriteError
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord

_CONVERSATION = "tenant, conversation_id, title, created_at, updated_at, turn_count"


# mutmut: equivalent because SQL keywords and unquoted names are case-blind and rows
# are read by position: the case-changed SQL strings (benchmarks/mutation.sh counts them apart).
class SQLiteConversations:
    """The conversation half of :class:`SQLiteStore` (which provides the connection)."""

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def create_conversation(self, conversation: ConversationRecord) -> None:
        c = conversation
        try:
            with self._write() as conn:
                conn.execute(
                    f"INSERT INTO conversations ({_CONVERSATION}) VALUES (?, ?, ?, ?, ?, 0)",
                    (c.tenant, c.conversation_id, c.title, c.created_at, c.updated_at),
                )
        except sqlite3.IntegrityError as exc:
            raise ConcurrentWriteError(f"conversation {c.conversation_id} exists") from exc

    def conversation(self, tenant: str, conversation_id: str) -> ConversationRecord | None:
        found = self._query(
            f"SELECT {_CONVERSATION} FROM conversations WHERE tenant = ? AND conversation_id = ?",
            (tenant, conversation_id),
        )
        return ConversationRecord(*found[0]) if found else None

    def conversations(self, tenant: str) -> list[ConversationRecord]:
        found = self._query(
            f"SELECT {_CONVERSATION} FROM conversations WHERE tenant = ?"
            " ORDER BY updated_at DESC, conversation_id",
            (tenant,),
        )
        return [ConversationRecord(*r) for r in found]

    def append_turn(self, turn: TurnRecord) -> bool:
        t = turn
        with self._write() as conn:
            row = conn.execute(
                "SELECT turn_count FROM conversations WHERE tenant = ? AND conversation_id = ?",
                (t.tenant, t.conversation_id),
            ).fetchone()
            if row is None:
                return False
            if row[0] != t.seq:
                raise ConcurrentWriteError(
                    f"conversation {t.conversation_id} has {row[0]} turns; turn {t.seq} is not next"
                )
            conn.execute(
                "INSERT INTO conversation_turns VALUES (?, ?, ?, ?, ?)",
                (t.tenant, t.conversation_id, t.seq, t.created_at, t.data),
            )
            conn.execute(
                "UPDATE conversations SET turn_count = turn_count + 1, updated_at = ?"
                " WHERE tenant = ? AND conversation_id = ?",
                (t.created_at, t.tenant, t.conversation_id),
            )
        return True

    def replace_turn(self, turn: TurnRecord) -> bool:
        t = turn
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE conversation_turns SET data = ?"
                " WHERE tenant = ? AND conversation_id = ? AND seq = ?",
                (t.data, t.tenant, t.conversation_id, t.seq),
            ).rowcount
        return bool(changed)

    def turns(self, tenant: str, conversation_id: str) -> list[TurnRecord]:
        found = self._query(
            "SELECT tenant, conversation_id, seq, created_at, data FROM conversation_turns"
            " WHERE tenant = ? AND conversation_id = ? ORDER BY seq",
            (tenant, conversation_id),
        )
        return [TurnRecord(*r) for r in found]

    def delete_conversation(self, tenant: str, conversation_id: str) -> bool:
        with self._write() as conn:
            conn.execute(
                "DELETE FROM conversation_turns WHERE tenant = ? AND conversation_id = ?",
                (tenant, conversation_id),
            )
            gone = conn.execute(
                "DELETE FROM conversations WHERE tenant = ? AND conversation_id = ?",
                (tenant, conversation_id),
            ).rowcount
        return bool(gone)

    def put_memory(self, memory: MemoryEntry) -> None:
        m = memory
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO memories VALUES (?, ?, ?, ?, ?)",
                (m.tenant, m.memory_id, m.text, json.dumps(list(m.evidence_ids)), m.created_at),
            )

    def memories(self, tenant: str) -> list[MemoryEntry]:
        found = self._query(
            "SELECT tenant, memory_id, text, evidence_ids, created_at FROM memories"
            " WHERE tenant = ? ORDER BY created_at, memory_id",
            (tenant,),
        )
        return [MemoryEntry(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4]) for r in found]

    def delete_memory(self, tenant: str, memory_id: str) -> bool:
        with self._write() as conn:
            gone = conn.execute(
                "DELETE FROM memories WHERE tenant = ? AND memory_id = ?", (tenant, memory_id)
            ).rowcount
        return bool(gone)
