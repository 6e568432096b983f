"""The MCP ``answer`` tool keeps a conversation: follow-ups searched in context, per workspace."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import pincite
from conversation_texts import RETENTION, TRAVEL, TURNS
from mcp import ClientSession, StdioServerParameters, stdio_client
from pincite.embed.base import Embedder

pytestmark = pytest.mark.integration


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    assert json.loads(result.content[0].text) == data
    return data


def _params(db: Path, tenant: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    env["PINCITE_CACHE_DIR"] = os.environ.get("PINCITE_CACHE_DIR", "")
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "pincite.server", "mcp", "--db", str(db), "--tenant", tenant],
        env=env,
    )


async def _run(db: Path) -> str:
    async with (
        stdio_client(_params(db, "acme")) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        started = _data(
            await session.call_tool("answer", {"question": TURNS[0], "conversation_id": "new"})
        )
        cid = started["conversation_id"]
        assert started["seq"] == 0 and started["standalone"] == TURNS[0]
        turns = [started]
        for seq, q in enumerate(TURNS[1:], start=1):
            turn = _data(await session.call_tool("answer", {"question": q, "conversation_id": cid}))
            assert turn["conversation_id"] == cid and turn["seq"] == seq
            assert turn["asked"] == q and "invoices" in turn["standalone"]
            turns.append(turn)
        for turn in turns:
            assert turn["outcome"] == "answered"
            assert {c["locator"]["uri"] for c in turn["citations"]} == {"policy://retention"}
            # Per turn: every citation lies in a passage retrieved for this turn.
            retrieved = {s.rsplit(":", 1)[1] for s in turn["searched"]}
            assert {c["chunk_id"] for c in turn["citations"]} <= retrieved
        assert "encrypted archive" in turns[1]["text"]
        assert "finance director" in turns[2]["text"]
        missing = await session.call_tool(
            "answer", {"question": TURNS[1], "conversation_id": "no-such-conversation"}
        )
        assert missing.is_error and "conversation not found" in missing.content[0].text
    return str(cid)


async def _other_workspace(db: Path, cid: str) -> tuple[str, str]:
    async with (
        stdio_client(_params(db, "globex")) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        theirs = await session.call_tool("answer", {"question": "x", "conversation_id": cid})
        nobody = await session.call_tool("answer", {"question": "x", "conversation_id": "zz"})
        assert theirs.is_error and nobody.is_error
        return theirs.content[0].text, nobody.content[0].text


def test_answer_tool_keeps_a_conversation(tmp_path: Path, embedder: Embedder) -> None:
    db = tmp_path / "mcp.db"
    with pincite.open(db, embedder=embedder) as corpus:
        corpus.ingest_text(RETENTION, uri="policy://retention", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="acme")
        corpus.ingest_text(TRAVEL, uri="policy://travel", tenant="globex")
    cid = asyncio.run(asyncio.wait_for(_run(db), timeout=120))
    theirs, nobody = asyncio.run(asyncio.wait_for(_other_workspace(db, cid), timeout=120))
    assert theirs.replace(cid, "zz") == nobody
    with pincite.open(db, embedder=embedder) as corpus:
        assert [t.question for t in corpus.conversation(cid, tenant="acme").turns()] == list(TURNS)
