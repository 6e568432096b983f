"""pincite as an MCP server (extra ``pincite[mcp]``): search, fetch, check, answer.

Built on the official ``mcp`` SDK (``MCPServer``), served over stdio. The
workspace is fixed when the process starts; no tool takes a tenant. Each
session keeps its own fetch ledger: ``check_citations`` calls an id ``valid``
only when this session fetched it in full (status ``ok``). Logs go to stderr;
while serving, the SDK points file descriptor 1 at stderr too, so nothing but
protocol reaches stdout.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.generate.base import Generator
from pincite.ground.fetch import FetchLedger
from pincite.present.answer import answer_json
from pincite.tenancy import check_tenant
from pincite.tools import EvidenceTools, search_results

__all__ = ["build_server", "serve_stdio"]

log = logging.getLogger("pincite.mcp")

INSTRUCTIONS = (
    "Answers from one workspace's documents. `search` finds passages (previews and evidence "
    "ids); `fetch_evidence` reads them in full; cite only ids you fetched, then call "
    "`check_citations` on your answer. `answer` returns pincite's own checked answer."
)
# The ``conversation_id`` that starts a stored conversation in the ``answer`` tool.
NEW_CONVERSATION = "new"


class _Ledgers:
    """One fetch ledger per MCP session.

    Over stdio a process serves one session, so there is one ledger; over
    streamable HTTP the ``Mcp-Session-Id`` header tells sessions apart.
    """

    def __init__(self, tenant: str, limit: int = 1000) -> None:
        self._tenant = tenant
        self._limit = limit
        self._by_session: OrderedDict[str, FetchLedger] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, ctx: Context[Any, Any]) -> FetchLedger:
        key = (ctx.headers or {}).get("mcp-session-id", "")
        with self._lock:
            ledger = self._by_session.setdefault(key, FetchLedger(self._tenant))
            self._by_session.move_to_end(key)
            while len(self._by_session) > self._limit:
                self._by_session.popitem(last=False)
            return ledger


def build_server(corpus: Corpus, tenant: str, generator: Generator | None = None) -> MCPServer[Any]:
    """An MCP server over ``corpus``, fixed to workspace ``tenant``."""
    check_tenant(tenant)
    server: MCPServer[Any] = MCPServer(
        name="pincite", instructions=INSTRUCTIONS, log_level="WARNING"
    )
    ledgers = _Ledgers(tenant)

    def _tools(ctx: Context[Any, Any]) -> EvidenceTools:
        """The evidence tools of this session: its own fetch ledger."""
        return EvidenceTools(corpus, tenant=tenant, ledger=ledgers.get(ctx))

    if generator is not None:
        corpus.generator = generator

    @server.tool()
    def search(query: str, k: int = 8) -> dict[str, Any]:
        """Search the workspace's current documents.

        Returns up to ``k`` (1-50) passages with evidence ids and short previews.
        Fetch a passage with ``fetch_evidence`` before citing it.
        """
        if not 1 <= k <= 50:
            raise ToolError("k must be between 1 and 50")
        with _tool_errors("search"):
            return search_results(corpus.retrieve(query, tenant=tenant, k=k).hits)

    @server.tool()
    def fetch_evidence(
        ids: list[str], ctx: Context[Any, Any], max_chars: int | None = None
    ) -> dict[str, Any]:
        """Read the exact stored text behind evidence ids (at most 50).

        Status per id: ok, partial, truncated, erased, deleted, not_found, malformed.
        Only ``ok`` reads count as fetched for ``check_citations``.
        """
        with _tool_errors("fetch_evidence"):
            return _tools(ctx).fetch_evidence(ids, max_chars)

    @server.tool(name="check_citations")
    def check_citations_tool(
        ctx: Context[Any, Any], text: str | None = None, ids: list[str] | None = None
    ) -> dict[str, Any]:
        """Check the evidence ids an answer cites against what this session fetched in full.

        Give ``text`` (an answer containing ids) or ``ids`` (a list). Verdicts:
        valid, malformed, unfetched (invented, not read in full, or out of scope).
        """
        with _tool_errors("check_citations"):
            return _tools(ctx).check_citations(text, ids)

    @server.tool()
    def answer(question: str, k: int = 6, conversation_id: str | None = None) -> dict[str, Any]:
        """Answer from the workspace's documents with checked citations, or refuse.

        Returns the rendered answer (``text``), its claims and citations. Give
        ``conversation_id="new"`` to start a stored conversation, then its
        returned ``conversation_id`` on later turns: a follow-up ("and how long
        are they kept?") is searched as the standalone question in
        ``standalone``; citations stay per turn.
        """
        if not 1 <= k <= 20:
            raise ToolError("k must be between 1 and 20")
        with _tool_errors("answer"):
            if conversation_id is None:
                result = corpus.ask(question, tenant=tenant, k=k)
                return {**answer_json(result), "text": corpus.render(result)}
            new = conversation_id == NEW_CONVERSATION
            conversation = corpus.conversation(None if new else conversation_id, tenant=tenant)
            result = conversation.ask(question, k=k)
            text = corpus.render(result)
        return {
            **answer_json(result),
            "text": text,
            "conversation_id": conversation.id,
            "seq": conversation.record.turn_count - 1,
            "asked": question.strip(),
            "standalone": result.question,
        }

    return server


@contextmanager
def _tool_errors(tool: str) -> Iterator[None]:
    """pincite's own errors become tool errors carrying their one-line message."""
    try:
        yield
    except PinciteError as exc:
        log.info("tool %s failed: %s", tool, exc)
        raise ToolError(str(exc)) from None


def serve_stdio(corpus: Corpus, tenant: str, generator: Generator | None = None) -> None:
    """Serve over stdin/stdout until the client closes the connection."""
    build_server(corpus, tenant, generator).run("stdio")
