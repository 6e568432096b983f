"""The ingest half of the facade: files, bytes and text into a tenant's store.

``Corpus`` inherits these methods; they are kept here so the facade's module
stays one screen per concern. Every method takes the tenant and goes through
the ingest pipeline, which parses, chunks, stores and (unless deferred) embeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from pincite.embed.base import Embedder
from pincite.errors import InputError
from pincite.ingest.base import ParsedDocument
from pincite.ingest.batches import DeferredVectors, in_batches
from pincite.ingest.files import SourceFile, source_files
from pincite.ingest.parse import SUPPORTED_SUFFIXES, parse_bytes
from pincite.ingest.pipeline import IngestReport, read_file, store_file, store_parsed
from pincite.store import embedder_record
from pincite.store.base import Store
from pincite.tenancy import DEFAULT_TENANT, check_tenant

__all__ = ["IngestMethods"]


class IngestMethods:
    """Ingest methods of :class:`pincite.Corpus` (a mixin: it needs the corpus's store)."""

    store: Store
    embedder: Embedder | None
    _deferred: DeferredVectors

    def ingest_path(
        self,
        path: Path,
        *,
        tenant: str = DEFAULT_TENANT,
        uri: str | None = None,
        title: str | None = None,
        root: Path | None = None,
        follow_symlinks: bool = False,
        embed: bool = True,
    ) -> IngestReport:
        """Ingest one file; a bad file comes back as a ``failed`` report, never raised.

        A symbolic link is ingested only if it resolves inside ``root`` (default:
        the file's directory) or ``follow_symlinks``; only regular files are read.
        """
        check_tenant(tenant)
        embedder_record.check_lexical_ingest(self.store, self.embedder)
        embed = self._deferred.embed_now(tenant, embed)
        parsed = read_file(path, root, follow_symlinks)
        return store_file(
            self.store,
            self.embedder,
            path,
            parsed,
            tenant=tenant,
            uri=uri,
            title=title,
            embed=embed,
        )

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
        embed: bool = True,
    ) -> IngestReport:
        check_tenant(tenant)
        embedder_record.check_lexical_ingest(self.store, self.embedder)
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
            embed=self._deferred.embed_now(tenant, embed),
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
        embed: bool = True,
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
            embed=embed,
        )

    def ingest_paths(
        self,
        paths: Sequence[Path],
        *,
        tenant: str = DEFAULT_TENANT,
        uri: str | None = None,
        title: str | None = None,
        on_file: Callable[[Path], None] | None = None,
        follow_symlinks: bool = False,
        embed: bool = True,
    ) -> Iterator[IngestReport]:
        """Ingest files and directories (recursively); one bad file never stops the rest."""
        files = list(source_files(paths, SUPPORTED_SUFFIXES))
        if uri is not None and len(files) != 1:
            raise InputError("--uri names one document; give exactly one file with it")

        check_tenant(tenant)
        embedder_record.check_lexical_ingest(self.store, self.embedder)

        def read(file: SourceFile) -> tuple[Path, ParsedDocument | IngestReport]:
            if on_file is not None:
                on_file(file.path)
            return file.path, read_file(file.path, file.root, follow_symlinks)

        def write(item: tuple[Path, ParsedDocument | IngestReport]) -> IngestReport:
            return store_file(
                self.store,
                self.embedder,
                *item,
                tenant=tenant,
                uri=uri,
                title=title,
                embed=self._deferred.embed_now(tenant, embed),
            )

        # Text alone commits in batches; embedding inside a transaction would hold its lock.
        batched = not embed or self.embedder is None
        yield from in_batches(files, read, write, self.batch if batched else None)

    def batch(self) -> AbstractContextManager[None]:
        """One transaction for many ingests: ``with corpus.batch(): corpus.ingest_text(...)``.

        Each document is still written atomically (a savepoint; a failed one
        rolls back alone), but the batch commits once, which makes many small
        documents several times faster to ingest. Other connections see the
        documents when the batch ends; ``erase`` refuses to run inside one.
        Vectors asked for inside it are made after it commits, so no model
        runs while the transaction holds the database's write lock.
        """
        return self._deferred.batch(self.store, self.embedder)
