"""The version write rules, once for every backend.

Making a version current is the store's most delicate write: the caller's view
of the current version must still hold (optimistic concurrency), a new document
must not race another writer to its uri, the previous version is superseded and
leaves the search indexes, an earlier text written again is revived with its
own chunks and ids (an edit undone keeps old citations resolving), and the
version counter orders versions so the current one is always the last. The
rules live in :func:`write_version`; each backend supplies its SQL as a
:class:`VersionStatements` bound to one open transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from pincite.errors import ConcurrentWriteError
from pincite.model import Chunk, Document, DocumentStatus, Version
from pincite.store.base import check_version_rows

Vectors = npt.NDArray[np.float32]


class VersionStatements(Protocol):
    """One backend's statements for one document, inside one write transaction."""

    def lock_current(self) -> tuple[bool, str | None]:
        """Lock the document's row; ``(exists, current content hash)``."""
        ...

    def insert_document(self, document: Document, current_hash: str) -> bool:
        """Create the document row; ``False`` when another writer took its id or uri."""
        ...

    def update_document(self, document: Document, current_hash: str) -> None: ...

    def unindex(self) -> None:
        """Take every chunk of the document out of the search indexes."""
        ...

    def supersede(self, by: str) -> None:
        """Mark every current version other than ``by`` superseded by it."""
        ...

    def next_seq(self) -> int: ...

    def revive(self, content_hash: str, seq: int) -> bool:
        """Make a stored version current again under ``seq``; ``False`` if there is none."""
        ...

    def refresh_vectors(self, content_hash: str, chunks: Sequence[Chunk], vectors: Vectors) -> None:
        """New vectors for the revived version's unerased chunks with the same spans."""
        ...

    def insert_version(
        self, version: Version, seq: int, chunks: Sequence[Chunk], vectors: Vectors | None
    ) -> None: ...

    def index(self, content_hash: str) -> None:
        """Put the version's unerased chunks into the search indexes."""
        ...

    def write_routing(self, vector: Vectors | None) -> None: ...


def write_version(
    statements: VersionStatements,
    document: Document,
    version: Version,
    chunks: Sequence[Chunk],
    vectors: Vectors | None,
    routing_vector: Vectors | None,
    *,
    expected_current: str | None,
) -> None:
    """Make ``version`` the document's current version (see ``Store.write_version``).

    Raises ``ConcurrentWriteError`` when the current version is no longer
    ``expected_current`` or another writer created the document first, and
    ``ValueError`` for rows that do not belong together.
    """
    if vectors is not None and len(vectors) != len(chunks):
        raise ValueError("one vector per chunk is required")
    check_version_rows(document, version, chunks)
    new = version.content_hash
    exists, current = statements.lock_current()
    if current != expected_current:
        raise ConcurrentWriteError(f"document {document.document_id} changed during ingest; retry")
    if not exists:
        if not statements.insert_document(document, new):
            raise ConcurrentWriteError(
                f"another document was created at {document.uri!r} during ingest; retry"
            )
    else:
        statements.update_document(document, new)
        statements.unindex()
        statements.supersede(new)
    seq = statements.next_seq()
    if statements.revive(new, seq):
        if vectors is not None:
            statements.refresh_vectors(new, chunks, vectors)
    else:
        statements.insert_version(version, seq, chunks, vectors)
    if document.status is DocumentStatus.LIVE:
        statements.index(new)
    statements.write_routing(routing_vector)
