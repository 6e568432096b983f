"""The facade: one object that wires a store, an embedder and a generator."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError, NotFoundError, PinciteError
from pincite.ground.fetch import FetchLedger, FetchOutcome, fetch_evidence
from pincite.ingest.parse import SUPPORTED_SUFFIXES, parse_bytes, parse_file
from pincite.ingest.pipeline import IngestReport, failed, store_parsed
from pincite.model import Chunk, Document, DocumentStatus, RetrievalResult, Version
from pincite.retrieve.search import SearchMode, SearchOptions, retrieve
from pincite.store.base import Store
from pincite.tenancy import DEFAULT_TENANT, check_tenant

_EMBEDDER_KEY = "embedder"
_DIM_KEY = "embedder_dim"


class Corpus:
    """A team's documents, every version kept, searchable and citable.

    Open one with :func:`pincite.open`. Every method takes the tenant; nothing
    reads or returns another tenant's rows.
    """

    def __init__(self, store: Store, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder
        if embedder is not None:
            self._check_embedder(embedder)

    def _check_embedder(self, embedder: Embedder) -> None:
        recorded = self.store.get_meta(_EMBEDDER_KEY)
        if recorded is None:
            self.store.set_meta(_EMBEDDER_KEY, embedder.name)
            self.store.set_meta(_DIM_KEY, str(embedder.dim))
        elif recorded != embedder.name:
            raise ConfigurationError(
                f"this store was indexed with embedder {recorded!r}, not {embedder.name!r}; "
                "open it with the same embedder or run `pincite reindex` to re-embed"
            )

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- ingest -------------------------------------------------------------

    def ingest_path(
        self,
        path: Path,
        *,
        tenant: str = DEFAULT_TENANT,
        uri: str | None = None,
        title: str | None = None,
    ) -> IngestReport:
        """Ingest one file; a bad file comes back as a ``failed`` report, never raised."""
        check_tenant(tenant)
        source = str(path)
        try:
            parsed = parse_file(path)
            return store_parsed(
                self.store,
                self.embedder,
                parsed,
                tenant=tenant,
                uri=uri or str(path.resolve()),
                title=title,
                source=source,
            )
        except PinciteError as exc:
            return failed(source, exc)
        except OSError as exc:
            return failed(source, InputError(f"{source}: {exc.strerror or exc}"))

    def ingest_bytes(
        self,
        data: bytes,
        *,
        filename: str,
        uri: str,
        tenant: str = DEFAULT_TENANT,
        title: str | None = None,
        published_at: str | None = None,
        metadata: dict[str, object] | None = None,
    ) -> IngestReport:
        check_tenant(tenant)
        parsed = parse_bytes(data, filename)
        return store_parsed(
            self.store,
            self.embedder,
            parsed,
            tenant=tenant,
            uri=uri,
            title=title,
            source=filename,
            published_at=published_at,
            metadata=metadata,
        )

    def ingest_text(
        self,
        text: str,
        *,
        uri: str,
        tenant: str = DEFAULT_TENANT,
        title: str | None = None,
        published_at: str | None = None,
        metadata: dict[str, object] | None = None,
    ) -> IngestReport:
        """Ingest plain text as a ``.txt`` document at ``uri``."""
        return self.ingest_bytes(
            text.encode("utf-8"),
            filename="inline.txt",
            uri=uri,
            tenant=tenant,
            title=title,
            published_at=published_at,
            metadata=metadata,
        )

    def ingest_paths(
        self,
        paths: Sequence[Path],
        *,
        tenant: str = DEFAULT_TENANT,
        uri: str | None = None,
        title: str | None = None,
        on_file: Callable[[Path], None] | None = None,
    ) -> Iterator[IngestReport]:
        """Ingest files and directories (recursively); one bad file never stops the rest."""
        files = list(expand_paths(paths))
        if uri is not None and len(files) != 1:
            raise InputError("--uri names one document; give exactly one file with it")
        for path in files:
            if on_file is not None:
                on_file(path)
            yield self.ingest_path(path, tenant=tenant, uri=uri, title=title)

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

    def retrieve(
        self,
        question: str,
        *,
        tenant: str = DEFAULT_TENANT,
        k: int = 8,
        scope: Sequence[str] | None = None,
        options: SearchOptions | None = None,
    ) -> RetrievalResult:
        if options is None:
            # Unless told otherwise, search with what this corpus has: hybrid
            # with an embedder, BM25 without one.
            options = SearchOptions(mode=SearchMode.HYBRID if self.embedder else SearchMode.LEXICAL)
        return retrieve(
            self.store,
            self.embedder,
            question,
            tenant=tenant,
            k=k,
            scope=tuple(scope) if scope is not None else None,
            options=options,
        )

    # -- lifecycle ------------------------------------------------------------

    def delete(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> None:
        """Soft delete: every version's text is hidden; ids resolve to ``deleted``."""
        self.document(document_id, tenant=tenant)
        self.store.set_status(tenant, document_id, DocumentStatus.DELETED)

    def purge(self, document_id: str, *, tenant: str = DEFAULT_TENANT) -> None:
        """Remove the document and everything derived from it."""
        self.document(document_id, tenant=tenant)
        self.store.purge(tenant, document_id)

    def erase(
        self, document_id: str, *, tenant: str = DEFAULT_TENANT, chunk_id: str | None = None
    ) -> int:
        """Right to erasure: text is gone for good, a tombstone keeps ids resolvable."""
        self.document(document_id, tenant=tenant)
        if chunk_id is not None and self.store.chunk(tenant, chunk_id) is None:
            raise NotFoundError("chunk", chunk_id)
        return self.store.erase(tenant, document_id, chunk_id)


def expand_paths(paths: Sequence[Path]) -> Iterator[Path]:
    """Files as given, and every file under each directory, in a stable order."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                visible = child.is_file() and not child.name.startswith(".")
                if visible and child.suffix.lower() in SUPPORTED_SUFFIXES:
                    yield child
        else:
            yield path
