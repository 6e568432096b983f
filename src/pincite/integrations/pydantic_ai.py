"""pincite's evidence tools for pydantic-ai (extra ``pincite[agents]``).

``Agent(model, toolsets=[pincite_toolset(corpus, tenant="acme")])`` gives a
model search, fetch_evidence and check_citations over one tenant. The three
share one fetch ledger: give your own (``ledger=FetchLedger("acme")``) to check
the run's final output with :func:`pincite.tools.check_answer`, and build one
toolset per run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.ground.fetch import FetchLedger
from pincite.integrations._extra import MissingExtraError
from pincite.tools import CHECK_DESCRIPTION, FETCH_DESCRIPTION, SEARCH_DESCRIPTION, EvidenceTools

try:
    from pydantic_ai import ModelRetry, Tool
    from pydantic_ai.toolsets import FunctionToolset
except ImportError:
    raise MissingExtraError("pydantic_ai", "agents") from None

__all__ = ["pincite_toolset"]


def pincite_toolset(
    corpus: Corpus, *, tenant: str, ledger: FetchLedger | None = None
) -> FunctionToolset[Any]:
    """search, fetch_evidence and check_citations as a pydantic-ai toolset over ``tenant``.

    A pincite error (an empty query, too many ids) goes back to the model as a
    retry carrying its one-line message.
    """
    evidence = EvidenceTools(corpus, tenant=tenant, ledger=ledger)

    def search(query: str, k: int = 8) -> dict[str, Any]:
        return _retrying(evidence.search, query, k)

    def fetch_evidence(ids: list[str], max_chars: int | None = None) -> dict[str, Any]:
        return _retrying(evidence.fetch_evidence, ids, max_chars)

    def check_citations(text: str | None = None, ids: list[str] | None = None) -> dict[str, Any]:
        return _retrying(evidence.check_citations, text, ids)

    described: tuple[tuple[Callable[..., dict[str, Any]], str], ...] = (
        (search, SEARCH_DESCRIPTION),
        (fetch_evidence, FETCH_DESCRIPTION),
        (check_citations, CHECK_DESCRIPTION),
    )
    return FunctionToolset(
        [Tool(func, takes_ctx=False, description=description) for func, description in described]
    )


def _retrying(method: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    try:
        return method(*args)
    except PinciteError as exc:
        raise ModelRetry(str(exc)) from None
