"""parse → version → chunk → index: turning one input into a stored version."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from pincite.embed.base import Embedder
from pincite.errors import InputError, PinciteError
from pincite.ingest.base import ParsedDocument
from pincite.ingest.chunk import CHUNKER, chunk, embed_text
from pincite.ingest.designation import with_designation
from pincite.ingest.embedding import embed_version
from pincite.ingest.parse import parse_file
from pincite.model import Chunk, Document, DocumentStatus, Version, content_hash
from pincite.store.base import Store


class IngestStatus(StrEnum):
    NEW = "new"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    RESTORED = "restored"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class IngestReport:
    """What happened to one input. ``error`` is set (one line) when it failed."""

    source: str
    status: IngestStatus
    document_id: str | None = None
    hash16: str | None = None
    chunks: int = 0
    warnings: tuple[str, ...] = field(default_factory=tuple)
    error: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "status": self.status.value,
            "document_id": self.document_id,
            "hash16": self.hash16,
            "chunks": self.chunks,
            "warnings": list(self.warnings),
            "error": self.error,
        }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def store_parsed(
    store: Store,
    embedder: Embedder | None,
    parsed: ParsedDocument,
    *,
    tenant: str,
    uri: str,
    title: str | None,
    source: str,
    published_at: str | None = None,
    metadata: dict[str, object] | None = None,
    embed: bool = True,
) -> IngestReport:
    """Store ``parsed`` as the current version of the document at ``uri``.

    Identical canonical text is ``unchanged`` and writes nothing. The text and
    chunks commit in one transaction, searchable lexically from then on; with
    ``embed`` (and an embedder) their vectors follow at once, else they wait
    for :func:`pincite.ingest.embedding.embed_pending` (``pincite embed``).
    """
    chash = content_hash(parsed.text)
    existing = store.find_document(tenant, uri=uri)
    current = store.current_hash(tenant, existing.document_id) if existing else None
    if existing is not None and current == chash:
        if existing.status is DocumentStatus.DELETED:
            store.set_status(tenant, existing.document_id, DocumentStatus.LIVE)
            return IngestReport(
                source,
                IngestStatus.RESTORED,
                existing.document_id,
                chash[:16],
                warnings=parsed.warnings,
            )
        return IngestReport(
            source,
            IngestStatus.UNCHANGED,
            existing.document_id,
            chash[:16],
            warnings=parsed.warnings,
        )
    document_id = existing.document_id if existing else str(uuid.uuid4())
    doc_title = (
        title
        or with_designation(parsed.title, parsed.text)
        or (existing.title if existing else None)
        or _title(uri)
    )
    created = now()
    document = Document(
        document_id=document_id,
        tenant=tenant,
        uri=uri,
        title=doc_title,
        status=DocumentStatus.LIVE,
        published_at=published_at,
        metadata=metadata or (dict(existing.metadata) if existing else {}),
        created_at=existing.created_at if existing else created,
    )
    version, chunks = version_rows(document, parsed, created)
    earlier = store.version(tenant, document_id, chash[:16]) if existing else None
    # The full hash, not hash16: a version erased in part keeps its hash16
    # under a tombstone hash, and its text is not this text any more.
    revived = earlier is not None and earlier.content_hash == chash
    # An earlier version's text again: the store reinstates its stored chunks
    # and their vectors. Text commits without vectors: searchable lexically now.
    written = [] if revived else chunks
    store.write_version(document, version, written, None, None, expected_current=current)
    if embed and embedder is not None:
        stored = store.chunks(tenant, document_id, chash) if revived else chunks
        embed_version(
            store, embedder, tenant, document_id, chash, doc_title, stored, fresh=not revived
        )
    status = IngestStatus.UPDATED if existing is not None else IngestStatus.NEW
    return IngestReport(source, status, document_id, chash[:16], len(written), parsed.warnings)


def version_rows(
    document: Document, parsed: ParsedDocument, created_at: str
) -> tuple[Version, list[Chunk]]:
    """The version of ``document`` holding ``parsed`` and its chunks, ready to store.

    Every chunk's text is its exact span of the canonical text; its
    ``embed_text`` carries the title and heading path for indexing.
    """
    chash = content_hash(parsed.text)
    version = Version(
        document_id=document.document_id,
        tenant=document.tenant,
        content_hash=chash,
        text=parsed.text,
        parser=parsed.parser,
        chunker=CHUNKER,
        created_at=created_at,
        page_count=parsed.page_count,
    )
    chunks = [
        Chunk(
            chunk_id=str(uuid.uuid4()),
            tenant=document.tenant,
            document_id=document.document_id,
            content_hash=chash,
            ordinal=d.ordinal,
            start=d.start,
            end=d.end,
            text=parsed.text[d.start : d.end],
            embed_text=embed_text(document.title, d.section, parsed.text[d.start : d.end]),
            section=d.section,
            pages=d.pages,
            page_label=d.page_label,
            bboxes=d.bboxes,
        )
        for d in chunk(parsed)
    ]
    return version, chunks


def read_file(
    path: Path, root: Path | None, follow_symlinks: bool
) -> ParsedDocument | IngestReport:
    """The file parsed, or the ``failed`` report that says why it could not be."""
    source = str(path)
    try:
        return parse_file(path, root=root, follow_symlinks=follow_symlinks)
    except PinciteError as exc:
        return failed(source, exc)
    except OSError as exc:
        return failed(source, InputError(f"{source}: {exc.strerror or exc}"))


def store_file(
    store: Store,
    embedder: Embedder | None,
    path: Path,
    parsed: ParsedDocument | IngestReport,
    *,
    tenant: str,
    uri: str | None,
    title: str | None,
    embed: bool,
) -> IngestReport:
    """``store_parsed`` for a file ``read_file`` read; a failure comes back as a report."""
    if isinstance(parsed, IngestReport):
        return parsed  # it could not be read or parsed
    source = str(path)
    try:
        return store_parsed(
            store,
            embedder,
            parsed,
            tenant=tenant,
            uri=uri or str(path.resolve()),
            title=title,
            source=source,
            embed=embed,
        )
    except PinciteError as exc:
        return failed(source, exc)


def failed(source: str, exc: PinciteError) -> IngestReport:
    return IngestReport(source, IngestStatus.FAILED, error=str(exc))


def _title(uri: str) -> str:
    name = uri.rstrip("/").rsplit("/", 1)[-1]
    return Path(name).stem or uri
