"""The facade: one object that wires a store, an embedder, a generator and a support checker.

Every surface (CLI, HTTP, MCP, agent) calls these methods and only formats
what comes back; the rules that must hold whatever the surface (tenant
scoping, a chunk belongs to its document, an embedder matches the store) live
here once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from pincite.answer.pipeline import AnswerResult, SupportPolicy, answer_question
from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError, NotFoundError
from pincite.generate.base import Generator
from pincite.ground.fetch import FetchLedger, FetchOutcome, fetch_evidence
from pincite.ingest.batches import DeferredVectors
from pincite.ingest.facade import IngestMethods
from pincite.model import Chunk, Document, DocumentStatus, RetrievalResult, Version
from pincite.retrieve.dedup import forget_texts
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store import embedder_record
from pincite.store.base import Store

if TYPE_CHECKING:
    from pincite.conversation import Conversation
    from pincite.stale import StaleAnswer
    from pincite.studio import StudioResult
from pincite.support.base import SupportChecker
from pincite.tenancy import DEFAULT_TENANT, check_tenant

# The typed result every surface returns (the CLI, HTTP, MCP and eval format it).
Answer = AnswerResult


class Corpus(IngestMethods):
    """A team's documents, every version kept, searchable and citable.

    Open one with :func:`pincite.open`. Every method takes the tenant; nothing
    reads or returns another tenant's rows.
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None = None,
        *,
        generator: Generator | None = None,
        support: SupportChecker | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self._generator = generator
        self._support = support
        self._deferred = DeferredVectors()
        if embedder is not None:
            embedder_record.check(store, embedder)

    @property
    def generator(self) -> Generator:
        """The answerer ``ask`` uses: the offline extractive one unless one was given."""
        if self._generator is None:
            from pincite.generate.extractive import ExtractiveGenerator

            self._generator = ExtractiveGenerator(self.embedder)
        return self._generator

    @generator.setter
    def generator(self, generator: Generator) -> None:
        self._generator = generator

    @property
    def support(self) -> SupportChecker:
        """The claim-support checker every answer passes through."""
        if self._support is None:
            from pincite.support.heuristic import support_checker_for

            self._support = support_checker_for(self.embedder)
        return self._support

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ------------------------------------------------------------

    def document(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> Document:
        check_tenant(tenant)
        document = self.store.find_document(tenant, document_id=document_id)
        if document is None:
            raise NotFoundError("document", document_id)
        return document

    def documents(self, *, tenant: str = DEFAULT_TENANT) -> list[Document]:
        return self.store.list_documents(check_tenant(tenant))

    def versions(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> list[Version]:
        self.document(document_id, tenant=tenant)
        return self.store.versions(tenant, document_id)

    def current_hash(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> str | None:
        """The content hash of the document's current version (``None`` if it has none)."""
        self.document(document_id, tenant=tenant)
        return self.store.current_hash(tenant, document_id)

    def chunks(self, version: Version) -> list[Chunk]:
        return self.store.chunks(version.tenant, version.document_id, version.content_hash)

    def fetch(
        self,
        evidence_ids: Iterable[str],
        *,
        tenant: str = DEFAULT_TENANT,
        max_chars: int | None = None,
        ledger: FetchLedger | None = None,
    ) -> list[FetchOutcome]:
        return fetch_evidence(
            self.store, evidence_ids, tenant=tenant, max_chars=max_chars, ledger=ledger
        )

    # -- search -------------------------------------------------------------

    @property
    def default_mode(self) -> SearchMode:
        """How this corpus searches unless told otherwise: hybrid with an embedder, BM25 without.

        Decided here once; every surface that offers a default mode asks this.
        """
        return SearchMode.HYBRID if self.embedder is not None else SearchMode.LEXICAL

    def retrieve(
        self,
        question: str,
        *,
        tenant: str = DEFAULT_TENANT,
        k: int = 8,
        scope: Sequence[str] | None = None,
        options: SearchOptions | None = None,
        define: str | None = None,
    ) -> RetrievalResult:
        if options is None:
            options = SearchOptions(mode=self.default_mode)
        return retrieve(
            self.store,
            self.embedder,
            question,
            tenant=tenant,
            k=k,
            scope=tuple(scope) if scope is not None else None,
            options=options,
            define=define,
        )

    # -- answer ---------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        tenant: str = DEFAULT_TENANT,
        k: int = 6,
        policy: SupportPolicy | str = SupportPolicy.REJECT,
        options: SearchOptions | None = None,
        summary: str = "",
    ) -> Answer:
        """Answer from the tenant's documents with checked citations, or refuse.

        Never returns an unchecked answer: every citation is grounded in what
        was retrieved, and every fact passes the support check (``policy``
        ``"reject"``, the default) or is flagged (``"flag"``).
        """
        check_tenant(tenant)
        if not question.strip():
            raise InputError("the question is empty")
        return answer_question(
            self,
            question,
            self.generator,
            tenant=tenant,
            k=k,
            options=options,
            support=self.support,
            policy=SupportPolicy(policy),
            summary=summary,
        )

    def conversation(
        self, conversation_id: str | None = None, *, tenant: str = DEFAULT_TENANT, title: str = ""
    ) -> Conversation:
        """A stored conversation to continue (``NotFoundError`` if none), or a new one."""
        from pincite.conversation import open_conversation

        return open_conversation(self, conversation_id, tenant=tenant, title=title)

    def stale(self, *, tenant: str = DEFAULT_TENANT) -> list[StaleAnswer]:
        """Stored turns and memories citing superseded, deleted or erased text, re-anchored."""
        from pincite.stale import find_stale

        return find_stale(self, tenant=tenant)

    def render(self, answer: Answer) -> str:
        """The answer as people read it: claims with [n] markers, then exact excerpts."""
        from pincite.present.answer import format_answer

        return format_answer(answer, self.store)

    def studio(
        self, document_id: str, action: str, *, tenant: str = DEFAULT_TENANT
    ) -> StudioResult:
        """A studio action (``StudioAction``) on a document's current version, every item cited."""
        from pincite.studio import run_studio

        tenant = check_tenant(tenant)
        return run_studio(
            self.store, self.support, document_id, action, tenant=tenant, generator=self.generator
        )

    # -- lifecycle ------------------------------------------------------------

    def delete(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> None:
        """Soft delete: every version's text is hidden; ids resolve to ``deleted``."""
        self.document(document_id, tenant=tenant)
        self.store.set_status(tenant, document_id, DocumentStatus.DELETED)

    def purge(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> None:
        """Remove the document and everything derived from it."""
        from pincite.conversation import erased_by, scrub_turns

        self.document(document_id, tenant=tenant)
        scrub_turns(self, document_id, tenant=tenant, gone=erased_by(None), erased_texts=None)
        self.store.purge(tenant, document_id)
        forget_texts()

    def erase(
        self, document_id: str, *, tenant: str = DEFAULT_TENANT, chunk_id: str | None = None
    ) -> int:
        """Right to erasure: text is gone for good, a tombstone keeps ids resolvable.

        With ``chunk_id``, only that chunk, which must belong to ``document_id``
        (a chunk of another document answers like a missing one).
        """
        from pincite.conversation import erased_by, scrub_turns

        self.document(document_id, tenant=tenant)
        chunk = None
        if chunk_id is not None:
            chunk = self.store.chunk(tenant, chunk_id)
            if chunk is None or chunk.document_id != document_id:
                raise NotFoundError("chunk", chunk_id)
        # Stored answers first: the store's erasure then folds the log (SQLite).
        texts = None if chunk is None else [chunk.text]
        scrub_turns(self, document_id, tenant=tenant, gone=erased_by(chunk), erased_texts=texts)
        erased = self.store.erase(tenant, document_id, chunk_id)
        forget_texts()
        return erased

    def reindex(
        self,
        embedder: Embedder,
        *,
        tenant: str | None = DEFAULT_TENANT,
        on_document: Callable[[Document], None] | None = None,
    ) -> int:
        """Re-embed current chunks with ``embedder``; returns how many were embedded.

        ``tenant=None`` re-embeds every tenant. A store keeps one embedder for
        all its tenants, so switching models must re-embed them all: one
        tenant alone may only be reindexed with the store's recorded embedder
        (to repair its vectors); a store with other tenants raises
        ``ConfigurationError`` otherwise.
        """
        from pincite.ingest.reindex import reindex_tenant

        recorded = embedder_record.recorded(self.store)
        tenants = self.store.tenants() if tenant is None else [check_tenant(tenant)]
        others = [t for t in self.store.tenants() if t not in tenants]
        if recorded != embedder.name and others:
            raise ConfigurationError(
                f"this store embeds with {recorded!r}; switching to {embedder.name!r} must "
                f"re-embed every tenant (other tenants: {len(others)}): reindex all tenants"
            )
        total = sum(reindex_tenant(self.store, embedder, t, on_document) for t in tenants)
        embedder_record.record(self.store, embedder.name, embedder.dim)
        self.embedder = embedder
        return total
