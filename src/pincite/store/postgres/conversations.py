"""Conversations, their turns and agent memories in PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from pincite.errors import ConcurrentWriteError
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord

_CONVERSATION = "tenant, conversation_id, title, created_at, updated_at, turn_count"


# mutmut: equivalent because SQL keywords and unquoted names are case-blind and rows
# are read by position: the case-changed SQL strings that keep their `%s` placeholders
# and quoted "C" as they are (an uppercased `%S` is refused by psycopg and dies).
# benchmarks/mutation.sh lists them, as it counts apart only strings with no `%` or quote.
class PostgresConversations:
    """The conversation half of :class:`PostgresStore` (which provides the connection)."""

    def _query(self, query: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[psycopg.Cursor[tuple[Any, ...]]]:
        raise NotImplementedError

    def create_conversation(self, conversation: ConversationRecord) -> None:
        c = conversation
        try:
            with self._transaction() as cur:
                cur.execute(
                    f"INSERT INTO conversations ({_CONVERSATION})"
                    " VALUES (%s, %s, %s, %s, %s, 0)".encode(),
                    (c.tenant, c.conversation_id, c.title, c.created_at, c.updated_at),
                )
        except psycopg.errors.UniqueViolation as exc:
            raise ConcurrentWriteError(f"conversation {c.conversation_id} exists") from exc

    def conversation(self, tenant: str, conversation_id: str) -> ConversationRecord | None:
        found = self._query(
            f"SELECT {_CONVERSATION} FROM conversations WHERE tenant = %s AND conversation_id = %s",
            (tenant, conversation_id),
        )
        return ConversationRecord(*found[0]) if found else None

    def conversations(self, tenant: str) -> list[ConversationRecord]:
        found = self._query(
            f"SELECT {_CONVERSATION} FROM conversations WHERE tenant = %s"
            ' ORDER BY updated_at DESC, conversation_id COLLATE "C"',
            (tenant,),
        )
        return [ConversationRecord(*r) for r in found]

    def append_turn(self, turn: TurnRecord) -> bool:
        t = turn
        try:
            with self._transaction() as cur:
                # The row lock queues writers of one conversation behind each other.
                row = cur.execute(
                    b"SELECT turn_count FROM conversations"
                    b" WHERE tenant = %s AND conversation_id = %s FOR UPDATE",
                    (t.tenant, t.conversation_id),
                ).fetchone()
                if row is None:
                    return False
                if row[0] != t.seq:
                    raise ConcurrentWriteError(
                        f"conversation {t.conversation_id} has {row[0]} turns;"
                        f" turn {t.seq} is not next"
                    )
                cur.execute(
                    b"INSERT INTO conversation_turns VALUES (%s, %s, %s, %s, %s)",
                    (t.tenant, t.conversation_id, t.seq, t.created_at, t.data),
                )
                cur.execute(
                    b"UPDATE conversations SET turn_count = turn_count + 1, updated_at = %s"
                    b" WHERE tenant = %s AND conversation_id = %s",
                    (t.created_at, t.tenant, t.conversation_id),
                )
        except psycopg.errors.UniqueViolation as exc:
            raise ConcurrentWriteError(f"turn {t.seq} of {t.conversation_id} exists") from exc
        return True

    def replace_turn(self, turn: TurnRecord) -> bool:
        t = turn
        with self._transaction() as cur:
            cur.execute(
                b"UPDATE conversation_turns SET data = %s"
                b" WHERE tenant = %s AND conversation_id = %s AND seq = %s",
                (t.data, t.tenant, t.conversation_id, t.seq),
            )
            return cur.rowcount > 0

    def turns(self, tenant: str, conversation_id: str) -> list[TurnRecord]:
        found = self._query(
            "SELECT tenant, conversation_id, seq, created_at, data FROM conversation_turns"
            " WHERE tenant = %s AND conversation_id = %s ORDER BY seq",
            (tenant, conversation_id),
        )
        return [TurnRecord(*r) for r in found]

    def delete_conversation(self, tenant: str, conversation_id: str) -> bool:
        with self._transaction() as cur:
            cur.execute(
                b"DELETE FROM conversations WHERE tenant = %s AND conversation_id = %s",
                (tenant, conversation_id),
            )
            return cur.rowcount > 0

    def put_memory(self, memory: MemoryEntry) -> None:
        m = memory
        with self._transaction() as cur:
            cur.execute(
                b"INSERT INTO memories VALUES (%s, %s, %s, %s, %s)"
                b" ON CONFLICT (tenant, memory_id) DO UPDATE SET text = excluded.text,"
                b" evidence_ids = excluded.evidence_ids, created_at = excluded.created_at",
                (m.tenant, m.memory_id, m.text, Jsonb(list(m.evidence_ids)), m.created_at),
            )

    def memories(self, tenant: str) -> list[MemoryEntry]:
        found = self._query(
            "SELECT tenant, memory_id, text, evidence_ids, created_at FROM memories"
            ' WHERE tenant = %s ORDER BY created_at, memory_id COLLATE "C"',
            (tenant,),
        )
        return [MemoryEntry(r[0], r[1], r[2], tuple(r[3]), r[4]) for r in found]

    def delete_memory(self, tenant: str, memory_id: str) -> bool:
        with self._transaction() as cur:
            cur.execute(
                b"DELETE FROM memories WHERE tenant = %s AND memory_id = %s", (tenant, memory_id)
            )
            return cur.rowcount > 0
