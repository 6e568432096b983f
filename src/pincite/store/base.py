"""The seam every store implements: a store of record that also searches.

A store keeps documents, their versions (by content hash) and the chunks of
each version, all keyed by tenant. Every method takes the tenant explicitly;
nothing in a store can return another tenant's row. Stores only store and
search: fusion, dedup and grounding live in pure functions above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from pincite.errors import ConfigurationError
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.store.conversations import ConversationRecord, MemoryEntry, TurnRecord


@dataclass(frozen=True, slots=True)
class DenseIndex:
    """A tenant's current chunk vectors, row ``i`` belonging to ``chunk_ids[i]``."""

    chunk_ids: tuple[str, ...]
    document_ids: tuple[str, ...]
    matrix: npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class RoutingIndex:
    """One routing vector per live document of a tenant."""

    document_ids: tuple[str, ...]
    matrix: npt.NDArray[np.float32]


def check_version_rows(document: Document, version: Version, chunks: Sequence[Chunk]) -> None:
    """Refuse rows that would break the invariants before any store writes them.

    Every row names the same tenant, document and version, and every unerased
    chunk's text is exactly its span of the version's canonical text.
    """
    if (version.tenant, version.document_id) != (document.tenant, document.document_id):
        raise ValueError("the version belongs to another document or tenant")
    for c in chunks:
        if (c.tenant, c.document_id, c.content_hash) != (
            document.tenant,
            document.document_id,
            version.content_hash,
        ):
            raise ValueError(f"chunk {c.chunk_id} belongs to another version, document or tenant")
        if not c.erased and c.text != version.text[c.start : c.end]:
            raise ValueError(f"chunk {c.chunk_id} text is not its span of the version text")


def refuse_in_batch(batched: bool, operation: str) -> None:
    """Erasure must commit and scrub on its own, never wait inside a batch's transaction."""
    if batched:
        raise ConfigurationError(f"{operation} cannot run inside a batch; end the batch first")


class Store(Protocol):
    def batch(self) -> AbstractContextManager[None]:
        """Group the writes made inside into one transaction, committed when it ends.

        Each write inside is a savepoint, so one that fails (a concurrent
        write, a bad row) rolls back alone and the others still commit; an
        exception that leaves the block rolls back the whole batch. Many small
        documents ingest several times faster this way. Nothing written inside
        is visible to other connections until the batch ends; ``erase`` refuses
        to run inside one (another thread's erase waits for it). Nested batches
        join the outer one. A batch whose transaction is lost (a full disk, a
        dropped connection) raises, and refuses every write after the loss.
        """
        ...

    def close(self) -> None:
        """Release the connection; a file store first folds its journal back in.

        SQLite checkpoints its write-ahead log (TRUNCATE) here, so no copy of
        erased text outlives the process in a ``-wal`` file.
        """
        ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def meta_keys(self, prefix: str) -> list[str]:
        """Every meta key that starts with ``prefix``, in code-point order."""
        ...

    def find_document(
        self, tenant: str, *, document_id: str | None = None, uri: str | None = None
    ) -> Document | None:
        """The live or soft-deleted document with that id or uri, else ``None``."""
        ...

    def list_documents(self, tenant: str) -> list[Document]: ...

    def current_hash(self, tenant: str, document_id: str) -> str | None: ...

    def write_version(
        self,
        document: Document,
        version: Version,
        chunks: Sequence[Chunk],
        vectors: npt.NDArray[np.float32] | None,
        routing_vector: npt.NDArray[np.float32] | None,
        *,
        expected_current: str | None,
    ) -> None:
        """Store a new current version atomically.

        The previous current version (if any) is marked superseded and leaves the
        search indexes; its text and chunks stay readable. Raises
        ``ConcurrentWriteError`` when the document's current version is no
        longer ``expected_current`` (another writer got there first).
        """
        ...

    def versions(self, tenant: str, document_id: str) -> list[Version]:
        """All versions, oldest first."""
        ...

    def version(self, tenant: str, document_id: str, hash16: str) -> Version | None: ...

    def chunks(self, tenant: str, document_id: str, content_hash: str) -> list[Chunk]: ...

    def chunk(self, tenant: str, chunk_id: str) -> Chunk | None: ...

    def chunk_at(
        self, tenant: str, document_id: str, content_hash: str, ordinal: int
    ) -> Chunk | None:
        """The version's chunk at ``ordinal`` (0-based, in text order), else ``None``."""
        ...

    def chunks_by_id(self, tenant: str, chunk_ids: Sequence[str]) -> dict[str, Chunk]: ...

    def documents_by_id(self, tenant: str, document_ids: Sequence[str]) -> dict[str, Document]: ...

    def set_status(self, tenant: str, document_id: str, status: DocumentStatus) -> bool: ...

    def purge(self, tenant: str, document_id: str) -> bool:
        """Remove the document, every version, chunk, vector and index row."""
        ...

    def erase(self, tenant: str, document_id: str, chunk_id: str | None = None) -> int:
        """Erase text (one chunk, or every chunk of every version); keep tombstones.

        Applies ``pincite.store.erasure``'s rules (blanked text, tombstone
        hashes, a blanked title and uri) and removes the text from every index
        and from the pages the engine keeps (see each backend). Returns the
        number of chunks newly erased.
        """
        ...

    def search_lexical(
        self,
        tenant: str,
        terms: Sequence[str],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """BM25 over current, live, unerased chunks: ``(chunk_id, score)``, best first.

        ``terms`` are plain words (already tokenized by pincite); higher score is
        better.
        """
        ...

    def search_dense(
        self,
        tenant: str,
        vector: npt.NDArray[np.float32],
        k: int,
        documents: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """Inner-product k-NN over current, live, unerased chunks: ``(chunk_id, score)``.

        Scores equal ``dense_index(tenant).matrix @ vector`` (cosine for
        normalised vectors), best first. Raises ``ConfigurationError`` when the
        stored vectors have another dimension than ``vector``.
        """
        ...

    def dense_index(self, tenant: str) -> DenseIndex: ...

    def routing_index(self, tenant: str) -> RoutingIndex: ...

    def replace_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[str, npt.NDArray[np.float32]],
    ) -> None:
        """Swap in re-embedded vectors (``pincite reindex``)."""
        ...

    def chunks_without_vectors(self, tenant: str, limit: int) -> list[Chunk]:
        """Up to ``limit`` searchable chunks that have no vector yet, in store order.

        Searchable: current version, live document, not erased. Text is
        searchable lexically from its commit; these wait for ``add_vectors``.
        """
        ...

    def documents_without_routing(self, tenant: str) -> list[tuple[str, str]]:
        """``(document_id, current content hash)`` of live documents lacking a routing vector."""
        ...

    def add_vectors(
        self,
        tenant: str,
        chunk_vectors: dict[str, npt.NDArray[np.float32]],
        routing: dict[tuple[str, str], npt.NDArray[np.float32]],
    ) -> None:
        """Store vectors computed after the text's commit, in one transaction.

        ``routing`` is keyed by ``(document_id, content_hash)`` and written only
        while that hash is still the document's current one, so a version that
        replaced it meanwhile never gets a vector of the text it replaced. An
        erased chunk gets no vector.
        """
        ...

    def vector_coverage(self, tenant: str) -> tuple[int, int]:
        """``(searchable chunks with a vector, all searchable chunks)`` of ``tenant``."""
        ...

    def tenants(self) -> list[str]: ...

    # -- conversations and memories (rows from ``pincite.store.conversations``) --

    def create_conversation(self, conversation: ConversationRecord) -> None:
        """Store a new, empty conversation; raises ``ConcurrentWriteError`` if its id exists."""
        ...

    def conversation(self, tenant: str, conversation_id: str) -> ConversationRecord | None: ...

    def conversations(self, tenant: str) -> list[ConversationRecord]:
        """The tenant's conversations, most recently updated first."""
        ...

    def append_turn(self, turn: TurnRecord) -> bool:
        """Add a turn and bump its conversation in one transaction.

        Returns False when the conversation does not exist (for this tenant).
        Raises ``ConcurrentWriteError`` when turn ``seq`` exists already or
        is not the next one (another writer appended first).
        """
        ...

    def replace_turn(self, turn: TurnRecord) -> bool:
        """Overwrite a stored turn's ``data`` (scrubbing erased text); False when there is none."""
        ...

    def turns(self, tenant: str, conversation_id: str) -> list[TurnRecord]:
        """The conversation's turns in order (empty for a missing conversation)."""
        ...

    def delete_conversation(self, tenant: str, conversation_id: str) -> bool:
        """Remove the conversation and every turn; False when there was none."""
        ...

    def put_memory(self, memory: MemoryEntry) -> None:
        """Store a memory; one with the same id is replaced."""
        ...

    def memories(self, tenant: str) -> list[MemoryEntry]:
        """The tenant's memories, oldest first."""
        ...

    def delete_memory(self, tenant: str, memory_id: str) -> bool: ...
