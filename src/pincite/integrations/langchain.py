"""pincite in LangChain (extra ``pincite[langchain]``): a retriever, three tools, an answer check.

:class:`PinciteRetriever` returns ``Document``s whose ``page_content`` is the
chunk's exact text and whose ``id`` and ``metadata["evidence_id"]`` fetch it
back; :func:`pincite_tools` gives an agent search, fetch_evidence and
check_citations; :func:`citation_check` ends a chain with a runnable that
passes its text on only when every id it cites was read in full in this run.
"""

from __future__ import annotations

from typing import Any

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.ground.fetch import FetchLedger
from pincite.integrations._extra import MissingExtraError
from pincite.tools import (
    CHECK_DESCRIPTION,
    FETCH_DESCRIPTION,
    SEARCH_DESCRIPTION,
    EvidenceTools,
    check_answer,
    evidence_metadata,
)

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.messages import BaseMessage
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
    from pydantic import ConfigDict, PrivateAttr
except ImportError:
    raise MissingExtraError("langchain", "langchain") from None

__all__ = ["PinciteRetriever", "citation_check", "pincite_tools"]


class PinciteRetriever(BaseRetriever):
    """A LangChain retriever over one tenant of a pincite corpus.

    ``PinciteRetriever(corpus=corpus, tenant="acme", k=8)``. Each returned
    ``Document`` carries :func:`pincite.tools.evidence_metadata`. Give a
    ``ledger`` to record the returned chunks as read in full, so the chain's
    answer can be checked against it (:func:`citation_check`).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    corpus: Corpus
    tenant: str
    k: int = 8
    ledger: FetchLedger | None = None
    _tools: EvidenceTools = PrivateAttr()

    def model_post_init(self, context: Any, /) -> None:
        self._tools = EvidenceTools(self.corpus, tenant=self.tenant, ledger=self.ledger)
        self.ledger = self._tools.ledger

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [
            Document(
                page_content=hit.chunk.text, id=hit.evidence_id, metadata=evidence_metadata(hit)
            )
            for hit in self._tools.retrieve(query, self.k)
        ]


def pincite_tools(
    corpus: Corpus, *, tenant: str, ledger: FetchLedger | None = None
) -> list[BaseTool]:
    """search, fetch_evidence and check_citations as LangChain tools, fixed to ``tenant``.

    The three share one fetch ledger (a new one unless given): build one set per
    agent run. A bad argument comes back to the model as the tool's error text.
    """
    tools = EvidenceTools(corpus, tenant=tenant, ledger=ledger)

    def search(query: str, k: int = 8) -> dict[str, Any]:
        return _tool_call(tools.search, query, k)

    def fetch_evidence(ids: list[str], max_chars: int | None = None) -> dict[str, Any]:
        return _tool_call(tools.fetch_evidence, ids, max_chars)

    def check_citations(text: str | None = None, ids: list[str] | None = None) -> dict[str, Any]:
        return _tool_call(tools.check_citations, text, ids)

    described = (
        (search, SEARCH_DESCRIPTION),
        (fetch_evidence, FETCH_DESCRIPTION),
        (check_citations, CHECK_DESCRIPTION),
    )
    return [
        StructuredTool.from_function(
            func, description=description, handle_tool_error=True, handle_validation_error=True
        )
        for func, description in described
    ]


def citation_check(ledger: FetchLedger) -> RunnableLambda[Any, str]:
    """A runnable that ends a chain: its input's text if every cited id holds, else it raises.

    Takes a string or a chat message. Raises ``UngroundedCitationError`` when the
    text cites nothing, or cites an id not read in full into ``ledger`` (by a
    :class:`PinciteRetriever` or the fetch_evidence tool given that ledger).
    """

    def check(output: str | BaseMessage) -> str:
        return check_answer(output.text if isinstance(output, BaseMessage) else output, ledger)

    return RunnableLambda(check, name="pincite_citation_check")


def _tool_call(method: Any, *args: Any) -> dict[str, Any]:
    try:
        result: dict[str, Any] = method(*args)
    except PinciteError as exc:
        raise ToolException(str(exc)) from None
    return result
