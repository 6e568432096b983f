"""Crash safety of turns and memories: a writer killed with SIGKILL leaves every row whole.

A child process appends turns and stores memories as fast as it can; it is
killed at a moment it does not choose. Reopened, each conversation's
``turn_count`` equals its stored turns, numbered 0..n-1 without a gap, and
appending goes on from n; every memory holds the text and the evidence ids of
one and the same write (a replaced memory is the old one or the new one,
never a mix), memories stored one after another leave no gap, and storing
goes on.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pincite.store.base import Store
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord

_CHILD = """
import json, sys
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord
backend, where, tenant = sys.argv[1:4]
if backend == "sqlite":
    from pincite.store.sqlite import SQLiteStore
    store = SQLiteStore(where)
else:
    from pincite.store.postgres import PostgresStore
    store = PostgresStore(where)
for c in range(1000):
    cid = f"c{c}"
    store.create_conversation(ConversationRecord(tenant, cid, cid, "t", "t"))
    for seq in range(5):
        store.append_turn(TurnRecord(tenant, cid, seq, "t", json.dumps({"seq": seq})))
        print(cid, seq, flush=True)
    cited = tuple(f"ev-{c}-{i}" for i in range(5))
    store.put_memory(MemoryEntry(tenant, f"m{c}", f"memory {c}", cited, f"{c:06d}"))
    store.put_memory(MemoryEntry(tenant, "latest", f"memory {c}", cited, f"{c:06d}"))
    print("memory", c, flush=True)
"""


def _open(backend: str, where: str) -> Store:
    if backend == "sqlite":
        from pincite.store.sqlite import SQLiteStore

        return SQLiteStore(where)
    from pincite.store.postgres import PostgresStore

    return PostgresStore(where)


@pytest.mark.parametrize("delay", [0.05, 0.3])
def test_killed_writer_leaves_whole_conversations(
    backend: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    tenants: tuple[str, str],
    delay: float,
) -> None:
    a, _ = tenants
    where = str(tmp_path / "crash.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    _open(backend, where).close()  # migrated before the child starts
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, backend, where, a],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    while not child.stdout.readline().startswith("memory"):
        pass  # at least one conversation's turns and memories committed
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    store = _open(backend, where)
    try:
        conversations = store.conversations(a)
        assert conversations
        for c in conversations:
            turns = store.turns(a, c.conversation_id)
            assert [t.seq for t in turns] == list(range(c.turn_count))
            assert [json.loads(t.data)["seq"] for t in turns] == list(range(c.turn_count))
        last = max(conversations, key=lambda c: int(c.conversation_id[1:]))
        assert store.append_turn(TurnRecord(a, last.conversation_id, last.turn_count, "t", "{}"))
        store.create_conversation(ConversationRecord(a, "after", "after", "t", "t"))
        assert store.append_turn(TurnRecord(a, "after", 0, "t", "{}"))

        memories = {m.memory_id: m for m in store.memories(a)}
        latest = memories.pop("latest")
        for m in [*memories.values(), latest]:
            c = int(m.text.split()[1])
            assert m.evidence_ids == tuple(f"ev-{c}-{i}" for i in range(5))
            assert m.created_at == f"{c:06d}"
        assert sorted(memories) == sorted(f"m{c}" for c in range(len(memories)))
        # ``latest`` is replaced after each numbered memory: the kill may fall between.
        assert int(latest.text.split()[1]) in (len(memories) - 1, len(memories) - 2)
        store.put_memory(MemoryEntry(a, "after", "after", ("ev-after",), "t"))
        assert "after" in {m.memory_id for m in store.memories(a)}
    finally:
        store.close()
