"""pincite in LlamaIndex (extra ``pincite[llamaindex]``): a retriever and a query engine.

:class:`PinciteRetriever` returns ``NodeWithScore``s whose node text is the
chunk's exact text and whose ``node_id`` is its evidence id. Plug it into any
LlamaIndex query engine, or use :class:`PinciteQueryEngine`, whose answers
come from :meth:`pincite.Corpus.ask` (checked, or refused) and whose source
nodes are the answer's citations, each holding the exact text it pins.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pincite.answer.pipeline import SupportPolicy
from pincite.corpus import Corpus
from pincite.ground.fetch import FetchLedger
from pincite.integrations._extra import MissingExtraError
from pincite.tenancy import check_tenant
from pincite.tools import (
    EvidenceTools,
    answer_metadata,
    citation_metadata,
    evidence_metadata,
    numbered_answer,
)

try:
    from llama_index.core.base.base_query_engine import BaseQueryEngine
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.base.response.schema import Response
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.prompts.mixin import PromptMixinType
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError:
    raise MissingExtraError("llamaindex", "llamaindex") from None

__all__ = ["PinciteQueryEngine", "PinciteRetriever"]

# What an LLM prompt shows beside a node's text: enough to cite and to place
# it. Scores and offsets stay in the metadata for programs, out of the prompt.
_SHOWN_TO_LLM = frozenset({"evidence_id", "title", "section", "pages", "page_label"})


def _node(evidence_id: str, text: str, metadata: dict[str, Any]) -> TextNode:
    hidden = [key for key in metadata if key not in _SHOWN_TO_LLM]
    return TextNode(
        id_=evidence_id,
        text=text,
        metadata=metadata,
        excluded_llm_metadata_keys=hidden,
        excluded_embed_metadata_keys=list(metadata),
    )


class PinciteRetriever(BaseRetriever):
    """A LlamaIndex retriever over one tenant of a pincite corpus.

    Give a ``ledger`` to record the returned chunks as read in full (see
    :func:`pincite.tools.check_answer`).
    """

    def __init__(
        self,
        corpus: Corpus,
        *,
        tenant: str,
        k: int = 8,
        ledger: FetchLedger | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        self._tools = EvidenceTools(corpus, tenant=tenant, ledger=ledger)
        self._k = k
        super().__init__(callback_manager=callback_manager)

    @property
    def ledger(self) -> FetchLedger:
        return self._tools.ledger

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [
            NodeWithScore(
                node=_node(hit.evidence_id, hit.chunk.text, evidence_metadata(hit)),
                score=hit.score,
            )
            for hit in self._tools.retrieve(query_bundle.query_str, self._k)
        ]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return await asyncio.to_thread(self._retrieve, query_bundle)


class PinciteQueryEngine(BaseQueryEngine):
    """Answers through :meth:`pincite.Corpus.ask`: checked citations, or a refusal.

    ``str(response)`` is the claims with ``[n]`` markers; ``response.source_nodes[n-1]``
    is citation ``n`` (its node id the evidence id, its text the exact characters
    it pins). ``response.metadata`` holds ``outcome``, ``claims`` and ``reasons``.
    """

    def __init__(
        self,
        corpus: Corpus,
        *,
        tenant: str,
        k: int = 6,
        policy: SupportPolicy | str = SupportPolicy.REJECT,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        self._corpus = corpus
        self._tenant = check_tenant(tenant)
        self._k = k
        self._policy = SupportPolicy(policy)
        super().__init__(callback_manager=callback_manager)

    def _get_prompt_modules(self) -> PromptMixinType:
        return {}

    def _query(self, query_bundle: QueryBundle) -> Response:
        answer = self._corpus.ask(
            query_bundle.query_str, tenant=self._tenant, k=self._k, policy=self._policy
        )
        text, sources = numbered_answer(answer, self._corpus)
        nodes = [
            NodeWithScore(
                node=_node(s.citation.evidence_id, s.text, citation_metadata(s.citation)),
                score=s.citation.score,
            )
            for s in sources
        ]
        metadata = answer_metadata(answer)
        return Response(response=text, source_nodes=nodes, metadata=metadata)

    async def _aquery(self, query_bundle: QueryBundle) -> Response:
        return await asyncio.to_thread(self._query, query_bundle)
