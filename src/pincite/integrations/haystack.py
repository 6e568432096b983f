"""pincite in Haystack (extra ``pincite[haystack]``): a retriever and an answer component.

Both are ``@component``s for a ``Pipeline``, fixed to one tenant when built.
:class:`PinciteRetriever` outputs ``documents``: each ``Document``'s
``content`` is the chunk's exact text and its ``id`` is the evidence id.
:class:`PinciteAnswerer` answers through :meth:`pincite.Corpus.ask` (checked,
or refused) and outputs ``answers`` (one ``GeneratedAnswer``) and ``documents``
(the answer's citations, each holding the exact text it pins).

The components hold a live corpus, so a pipeline using them is built in code,
not loaded from YAML.
"""

from __future__ import annotations

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
    from haystack import Document, component
    from haystack.dataclasses import GeneratedAnswer
except ImportError:
    raise MissingExtraError("haystack", "haystack") from None

__all__ = ["PinciteAnswerer", "PinciteRetriever"]


@component
class PinciteRetriever:
    """Retrieves one tenant's passages from a pincite corpus.

    Give a ``ledger`` to record the returned chunks as read in full (see
    :func:`pincite.tools.check_answer`).
    """

    def __init__(
        self,
        corpus: Corpus,
        *,
        tenant: str,
        top_k: int = 8,
        ledger: FetchLedger | None = None,
    ) -> None:
        self._tools = EvidenceTools(corpus, tenant=tenant, ledger=ledger)
        self.top_k = top_k

    @property
    def ledger(self) -> FetchLedger:
        return self._tools.ledger

    @component.output_types(documents=list[Document])
    def run(self, query: str, top_k: int | None = None) -> dict[str, Any]:
        """Run the retriever.

        :param query: what to look for.
        :param top_k: how many passages at most (default: the one given at construction).
        :returns: ``documents``, best first.
        """
        hits = self._tools.retrieve(query, self.top_k if top_k is None else top_k)
        return {
            "documents": [
                Document(
                    id=hit.evidence_id,
                    content=hit.chunk.text,
                    meta=evidence_metadata(hit),
                    score=hit.score,
                )
                for hit in hits
            ]
        }


@component
class PinciteAnswerer:
    """Answers a query from one tenant's documents with checked citations, or refuses.

    The answer's ``data`` is its claims with ``[n]`` markers; ``documents[n-1]``
    is citation ``n``. ``meta`` holds ``outcome`` (``answered`` or ``refused``),
    ``claims`` (text, kind, evidence ids) and ``reasons``.
    """

    def __init__(
        self,
        corpus: Corpus,
        *,
        tenant: str,
        k: int = 6,
        policy: SupportPolicy | str = SupportPolicy.REJECT,
    ) -> None:
        self._corpus = corpus
        self._tenant = check_tenant(tenant)
        self.k = k
        self.policy = SupportPolicy(policy)

    @component.output_types(answers=list[GeneratedAnswer], documents=list[Document])
    def run(self, query: str) -> dict[str, Any]:
        """Run the answerer.

        :param query: the question.
        :returns: ``answers`` (one, answered or refused) and ``documents`` (its citations).
        """
        answer = self._corpus.ask(query, tenant=self._tenant, k=self.k, policy=self.policy)
        text, sources = numbered_answer(answer, self._corpus)
        documents = [
            Document(
                id=s.citation.evidence_id,
                content=s.text,
                meta=citation_metadata(s.citation),
                score=s.citation.score,
            )
            for s in sources
        ]
        meta = answer_metadata(answer)
        generated = GeneratedAnswer(data=text, query=query, documents=documents, meta=meta)
        return {"answers": [generated], "documents": documents}
