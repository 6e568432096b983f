"""The MCP server as a real peer: the official SDK client over stdio, one server process."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import pincite
from mcp import ClientSession, StdioServerParameters, stdio_client
from pincite.retrieve.search import SearchMode, SearchOptions

pytestmark = pytest.mark.integration

ALPHA = "The retention period for customer records is seven years.\n\nRecords are then shredded."
LEXICAL = SearchOptions(mode=SearchMode.LEXICAL)
BETA = "The retention period for customer records is three years at Beta."


def _seed(db: Path) -> tuple[str, str]:
    with pincite.open(db, embedder=None) as corpus:
        corpus.ingest_text(ALPHA, uri="https://alpha.example/r", tenant="alpha", title="Alpha")
        corpus.ingest_text(BETA, uri="https://beta.example/r", tenant="beta", title="Beta")
        [beta_hit] = corpus.retrieve("retention", tenant="beta", k=1, options=LEXICAL).hits
        [alpha_doc] = corpus.documents(tenant="alpha")
    return alpha_doc.document_id, beta_hit.evidence_id


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    assert json.loads(result.content[0].text) == data  # the text block carries the same JSON
    return data


async def _session_run(db: Path, alpha_doc: str, beta_id: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "pincite.server",
            "mcp",
            "--db",
            str(db),
            "--tenant",
            "alpha",
            "--embedder",
            "none",
        ],
        env=env,
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"search", "fetch_evidence", "check_citations", "answer"}
        for tool in tools.values():  # the workspace is the server's, never an argument
            assert "tenant" not in json.dumps(tool.input_schema)

        hits = _data(await session.call_tool("search", {"query": "retention period records"}))
        assert hits["results"] and {h["title"] for h in hits["results"]} == {"Alpha"}
        own = hits["results"][0]["evidence_id"]
        assert alpha_doc in own

        invented = own.rsplit(":", 1)[0] + ":00000000-0000-4000-8000-000000000000"
        answer_text = f"Records are kept seven years {own}. Or three {beta_id}, per {invented}."
        before = _data(await session.call_tool("check_citations", {"ids": [own]}))
        assert before == {"all_valid": False, "verdicts": [{"id": own, "verdict": "unfetched"}]}

        fetched = _data(await session.call_tool("fetch_evidence", {"ids": [own, beta_id]}))
        assert [r["status"] for r in fetched["results"]] == ["ok", "not_found"]
        assert fetched["results"][0]["text"].startswith("The retention period")
        assert fetched["results"][1]["text"] == "" and fetched["results"][1]["title"] is None

        after = _data(await session.call_tool("check_citations", {"text": answer_text}))
        assert [v["verdict"] for v in after["verdicts"]] == ["valid", "unfetched", "unfetched"]
        assert _data(await session.call_tool("check_citations", {"ids": [own]}))["all_valid"]
        malformed = _data(await session.call_tool("check_citations", {"ids": ["ev1:bogus"]}))
        assert malformed["verdicts"] == [{"id": "ev1:bogus", "verdict": "malformed"}]

        both = await session.call_tool("check_citations", {"text": "x", "ids": [own]})
        assert both.is_error and "exactly one" in both.content[0].text

        answered = _data(
            await session.call_tool(
                "answer", {"question": "What is the retention period for customer records?"}
            )
        )
        assert answered["outcome"] == "answered"
        assert {c["document_id"] for c in answered["citations"]} == {alpha_doc}
        assert answered["claims"]
        assert all(c["support"]["verdict"] == "supported" for c in answered["claims"])
        assert "Sources:" in answered["text"] and "three" not in answered["text"]

        empty = await session.call_tool("search", {"query": "   "})
        assert empty.is_error and "question is empty" in empty.content[0].text


def test_official_client_lists_and_calls_every_tool(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    alpha_doc, beta_id = _seed(db)
    asyncio.run(asyncio.wait_for(_session_run(db, alpha_doc, beta_id), timeout=60))


def test_the_workspace_must_be_named_by_flag_or_a_live_key(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pincite.cli.service import mcp
    from pincite.server.keys import create_key, revoke_key

    db = tmp_path / "keys.db"
    with pincite.open(db, embedder=None) as corpus:
        key = create_key(corpus.store, "alpha")
        revoke_key(corpus.store, key)
    runner = CliRunner()
    env = {"PINCITE_TENANT": None, "PINCITE_WORKSPACE_KEY": None}
    none = runner.invoke(mcp, ["--db", str(db), "--embedder", "none"], env=env)
    assert none.exit_code == 1 and "give --tenant or --key" in none.output
    revoked = runner.invoke(mcp, ["--db", str(db), "--key", key, "--embedder", "none"], env=env)
    assert revoked.exit_code == 1 and "unknown or revoked" in revoked.output
