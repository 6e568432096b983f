"""Store contract, conversations and memories: ordered turns per tenant, isolation, atomicity."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pincite.errors import ConcurrentWriteError
from pincite.store.base import Store
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord


def _conversation(
    tenant: str, cid: str, at: str = "2026-01-01T00:00:00+00:00"
) -> ConversationRecord:
    return ConversationRecord(tenant, cid, f"title of {cid}", at, at)


def _turn(tenant: str, cid: str, seq: int, at: str = "2026-01-02T00:00:00+00:00") -> TurnRecord:
    data = json.dumps({"question": f"q{seq} — ünïcode 🎉", "evidence": [f"ev{seq}"]})
    return TurnRecord(tenant, cid, seq, at, data)


def test_turns_read_back_in_order_and_bump_the_conversation(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    store.create_conversation(_conversation(a, "c1"))
    written = [_turn(a, "c1", i, f"2026-01-0{i + 2}T00:00:00+00:00") for i in range(3)]
    for t in written:
        assert store.append_turn(t)
    assert store.turns(a, "c1") == written
    assert written[1].payload()["question"].startswith("q1")
    found = store.conversation(a, "c1")
    assert found == ConversationRecord(
        a, "c1", "title of c1", "2026-01-01T00:00:00+00:00", written[-1].created_at, 3
    )


def test_conversations_list_most_recent_first(store: Store, tenants: tuple[str, str]) -> None:
    a, _ = tenants
    store.create_conversation(_conversation(a, "old", "2026-01-01T00:00:00+00:00"))
    store.create_conversation(_conversation(a, "new", "2026-01-03T00:00:00+00:00"))
    assert [c.conversation_id for c in store.conversations(a)] == ["new", "old"]
    store.append_turn(_turn(a, "old", 0, "2026-01-05T00:00:00+00:00"))
    assert [c.conversation_id for c in store.conversations(a)] == ["old", "new"]


def test_an_existing_id_or_a_taken_turn_is_a_concurrent_write(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    store.create_conversation(_conversation(a, "c"))
    with pytest.raises(ConcurrentWriteError):
        store.create_conversation(_conversation(a, "c"))
    assert store.append_turn(_turn(a, "c", 0))
    with pytest.raises(ConcurrentWriteError):
        store.append_turn(_turn(a, "c", 0))
    with pytest.raises(ConcurrentWriteError):
        store.append_turn(_turn(a, "c", 2))  # a gap: turn 1 is next
    # A refused append leaves nothing behind, not even a bumped count.
    assert [t.seq for t in store.turns(a, "c")] == [0]
    found = store.conversation(a, "c")
    assert found is not None and found.turn_count == 1


def test_another_tenants_conversation_reads_like_a_missing_one(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, b = tenants
    store.create_conversation(_conversation(a, "shared-id"))
    store.append_turn(_turn(a, "shared-id", 0))
    # Same id, other tenant: each tenant has its own key space.
    assert store.conversation(b, "shared-id") is None
    assert store.conversation(b, "shared-id") == store.conversation(b, "never-made")
    assert store.turns(b, "shared-id") == store.turns(b, "never-made") == []
    assert store.conversations(b) == []
    assert store.append_turn(_turn(b, "shared-id", 0)) is False
    assert store.append_turn(_turn(b, "shared-id", 1)) is False
    assert store.delete_conversation(b, "shared-id") is False
    # b's attempts changed nothing of a's.
    assert [t.seq for t in store.turns(a, "shared-id")] == [0]
    # b may use the same id for its own conversation, kept apart from a's.
    store.create_conversation(_conversation(b, "shared-id"))
    assert store.turns(b, "shared-id") == []
    assert len(store.turns(a, "shared-id")) == 1


def test_delete_removes_the_conversation_and_its_turns(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, _ = tenants
    store.create_conversation(_conversation(a, "c"))
    store.append_turn(_turn(a, "c", 0))
    assert store.delete_conversation(a, "c") is True
    assert store.conversation(a, "c") is None
    assert store.turns(a, "c") == []
    assert store.delete_conversation(a, "c") is False
    # The id can be used again, from turn 0.
    store.create_conversation(_conversation(a, "c"))
    assert store.append_turn(_turn(a, "c", 0))


def test_turns_survive_reopening(open_store: Callable[[], Store], tenants: tuple[str, str]) -> None:
    a, _ = tenants
    first = open_store()
    first.create_conversation(_conversation(a, "c"))
    first.append_turn(_turn(a, "c", 0))
    first.close()
    second = open_store()
    assert second.turns(a, "c") == [_turn(a, "c", 0)]


def test_memories_round_trip_replace_and_stay_per_tenant(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, b = tenants
    m1 = MemoryEntry(a, "m1", "Invoices are kept 7 years.", ("ev1:x", "ev1:y"), "2026-01-01")
    m2 = MemoryEntry(a, "m2", "Second", (), "2026-01-02")
    store.put_memory(m1)
    store.put_memory(m2)
    assert store.memories(a) == [m1, m2]
    replaced = MemoryEntry(a, "m1", "Invoices are kept 10 years.", ("ev1:z",), "2026-01-03")
    store.put_memory(replaced)
    assert store.memories(a) == [m2, replaced]
    assert store.memories(b) == []
    assert store.delete_memory(b, "m1") is False
    # The same id in another tenant is that tenant's own memory; a's stays as it was.
    theirs = MemoryEntry(b, "m1", "Not a's.", ("ev1:b",), "2026-01-04")
    store.put_memory(theirs)
    assert store.memories(b) == [theirs]
    assert store.memories(a) == [m2, replaced]
    assert store.delete_memory(b, "m1") is True
    assert store.memories(a) == [m2, replaced]
    assert store.delete_memory(a, "m1") is True
    assert store.memories(a) == [m2]


def test_replace_turn_overwrites_only_that_tenants_turn(
    store: Store, tenants: tuple[str, str]
) -> None:
    a, b = tenants
    store.create_conversation(_conversation(a, "c"))
    store.append_turn(_turn(a, "c", 0))
    store.append_turn(_turn(a, "c", 1))
    scrubbed = TurnRecord(a, "c", 0, "later", '{"claims": []}')
    assert store.replace_turn(TurnRecord(b, "c", 0, "t", "{}")) is False
    assert store.replace_turn(TurnRecord(a, "c", 5, "t", "{}")) is False
    assert store.replace_turn(scrubbed) is True
    first, second = store.turns(a, "c")
    # Only the data changes: the turn keeps its place and time.
    assert first == TurnRecord(a, "c", 0, _turn(a, "c", 0).created_at, '{"claims": []}')
    assert second == _turn(a, "c", 1)
