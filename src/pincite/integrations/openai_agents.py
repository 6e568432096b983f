"""pincite's evidence tools for the OpenAI Agents SDK (extra ``pincite[agents]``).

``Agent(..., tools=pincite_function_tools(corpus, tenant="acme"))`` gives a
model search, fetch_evidence and check_citations over one tenant. The three
share one fetch ledger: give your own (``ledger=FetchLedger("acme")``) to check
the run's final output with :func:`pincite.tools.check_answer`, and build one
set per run.
"""

from __future__ import annotations

import json
from typing import Any

from pincite.corpus import Corpus
from pincite.errors import PinciteError
from pincite.ground.fetch import FetchLedger
from pincite.integrations._extra import MissingExtraError
from pincite.tools import CHECK_DESCRIPTION, FETCH_DESCRIPTION, SEARCH_DESCRIPTION, EvidenceTools

try:
    from agents import FunctionTool, RunContextWrapper, function_tool
    from agents.tool import default_tool_error_function
except ImportError:
    raise MissingExtraError("openai_agents", "agents") from None

__all__ = ["pincite_function_tools"]


def pincite_function_tools(
    corpus: Corpus, *, tenant: str, ledger: FetchLedger | None = None
) -> list[FunctionTool]:
    """search, fetch_evidence and check_citations as Agents SDK function tools over ``tenant``.

    A pincite error (an empty query, too many ids) reaches the model as its
    one-line message; any other error as the SDK's generic one.
    """
    evidence = EvidenceTools(corpus, tenant=tenant, ledger=ledger)

    # The SDK hands a model ``str(output)``: return JSON, not a Python repr.
    def search(query: str, k: int = 8) -> str:
        return _json(evidence.search(query, k))

    def fetch_evidence(ids: list[str], max_chars: int | None = None) -> str:
        return _json(evidence.fetch_evidence(ids, max_chars))

    def check_citations(text: str | None = None, ids: list[str] | None = None) -> str:
        return _json(evidence.check_citations(text, ids))

    described = (
        (search, SEARCH_DESCRIPTION),
        (fetch_evidence, FETCH_DESCRIPTION),
        (check_citations, CHECK_DESCRIPTION),
    )
    return [
        function_tool(
            func,
            description_override=description,
            failure_error_function=_tool_error,
            use_docstring_info=False,
        )
        for func, description in described
    ]


def _json(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False)


def _tool_error(ctx: RunContextWrapper[Any], error: Exception) -> str:
    if isinstance(error, PinciteError):
        return str(error)
    return default_tool_error_function(ctx, error)
