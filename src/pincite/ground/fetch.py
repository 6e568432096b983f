"""fetch_evidence: the exact stored text behind evidence ids, and the ledger of complete reads."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pincite import ids
from pincite.errors import EvidenceIdError, InputError
from pincite.model import Chunk, DocumentStatus, Version
from pincite.store.base import Store
from pincite.store.erasure import wholly_erased
from pincite.tenancy import check_tenant


class FetchStatus(StrEnum):
    OK = "ok"
    PARTIAL = "partial"
    TRUNCATED = "truncated"
    ERASED = "erased"
    DELETED = "deleted"
    NOT_FOUND = "not_found"
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class FetchOutcome:
    """One id's outcome. Locator fields are empty unless the id resolved in scope."""

    id: str
    status: FetchStatus
    text: str = ""
    superseded: bool = False
    current_hash16: str | None = None
    document_id: str | None = None
    hash16: str | None = None
    start: int | None = None
    end: int | None = None
    title: str | None = None
    uri: str | None = None
    pages: tuple[int, ...] = ()
    page_label: str | None = None
    section: tuple[str, ...] = ()

    @property
    def citable(self) -> bool:
        return self.status is FetchStatus.OK

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        data["pages"] = list(self.pages)
        data["section"] = list(self.section)
        if not self.superseded:
            data.pop("current_hash16")
        return data


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    document_id: str
    hash16: str
    start: int
    end: int


@dataclass(slots=True)
class FetchLedger:
    """The ids fetched completely (status ``ok``) in one tenant's scope during one run."""

    tenant: str
    entries: dict[str, LedgerEntry] = field(default_factory=dict)

    def record(self, outcomes: Iterable[FetchOutcome]) -> None:
        for o in outcomes:
            if o.status is FetchStatus.OK and o.document_id and o.hash16 is not None:
                assert o.start is not None and o.end is not None
                self.entries[o.id] = LedgerEntry(o.document_id, o.hash16, o.start, o.end)

    def covers(self, ref: ids.EvidenceRef, raw: str) -> bool:
        """True when ``raw`` was fetched, or is a span inside a fetched passage."""
        if raw in self.entries:
            return True
        if isinstance(ref, ids.SpanRef):
            return any(
                e.document_id == ref.document_id
                and e.hash16 == ref.hash16
                and e.start <= ref.start
                and ref.end <= e.end
                for e in self.entries.values()
            )
        return False

    def save(self, path: Path) -> None:
        data = {"tenant": self.tenant, "fetched": {k: asdict(v) for k, v in self.entries.items()}}
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> FetchLedger:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            entries = {k: LedgerEntry(**v) for k, v in data["fetched"].items()}
            return cls(str(data["tenant"]), entries)
        except FileNotFoundError:
            raise InputError(f"{path}: ledger file not found") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{path}: not a pincite ledger ({exc})") from None


def fetch_evidence(
    store: Store,
    evidence_ids: Iterable[str],
    *,
    tenant: str,
    max_chars: int | None = None,
    ledger: FetchLedger | None = None,
) -> list[FetchOutcome]:
    """Resolve each id inside ``tenant``; a missing and a foreign id read the same."""
    check_tenant(tenant)
    if max_chars is not None and max_chars < 1:
        raise InputError("max_chars must be at least 1")
    outcomes = [_fetch_one(store, raw, tenant, max_chars) for raw in evidence_ids]
    if ledger is not None:
        if ledger.tenant != tenant:
            raise InputError("the ledger belongs to another tenant")
        ledger.record(outcomes)
    return outcomes


def _fetch_one(store: Store, raw: str, tenant: str, max_chars: int | None) -> FetchOutcome:
    try:
        ref = ids.decode(raw)
    except EvidenceIdError:
        return FetchOutcome(raw, FetchStatus.MALFORMED)
    not_found = FetchOutcome(raw, FetchStatus.NOT_FOUND)
    document = store.find_document(tenant, document_id=ref.document_id)
    if document is None:
        return not_found
    located = _locate(store, tenant, ref)
    if located is None:
        return not_found
    version, chunks = located
    if isinstance(ref, ids.ChunkRef):
        found = [c for c in chunks if c.chunk_id == ref.chunk_id]
        if not found:
            return not_found
        start, end = found[0].start, found[0].end
    else:
        start, end = ref.start, ref.end
        if end > len(version.text):
            return not_found
    current = store.current_hash(tenant, ref.document_id)
    superseded = version.superseded
    base = FetchOutcome(
        id=raw,
        status=FetchStatus.OK,
        superseded=superseded,
        current_hash16=current[:16] if superseded and current else None,
        document_id=document.document_id,
        hash16=ref.hash16,
        start=start,
        end=end,
        title=document.title,
        uri=document.uri,
    )
    # Erased before deleted: erasure is final, so an audit must see it even
    # on a document that is also (reversibly) deleted.
    if _touches_erased(version, chunks, start, end):
        return replace(base, status=FetchStatus.ERASED)
    if document.status is DocumentStatus.DELETED:
        return replace(base, status=FetchStatus.DELETED)
    status = FetchStatus.OK
    covered = _covered(chunks, start, end, version.text)
    if covered is None:
        return not_found
    if covered != (start, end):
        status = FetchStatus.PARTIAL
        start, end = covered
    text = version.text[start:end]
    if max_chars is not None and len(text) > max_chars:
        text = text[:max_chars]
        status = FetchStatus.TRUNCATED if status is FetchStatus.OK else status
    touching = [c for c in chunks if c.start < end and start < c.end]
    pages = tuple(sorted({p for c in touching for p in c.pages}))
    return replace(
        base,
        status=status,
        text=text,
        start=start,
        end=end,
        pages=pages,
        page_label=touching[0].page_label if touching else None,
        section=touching[0].section if touching else (),
    )


def _locate(store: Store, tenant: str, ref: ids.EvidenceRef) -> tuple[Version, list[Chunk]] | None:
    """The version an id names, and its chunks.

    Erasure replaces a version's stored hash by a tombstone
    (``pincite.store.erasure``), so an id of an erased version may no longer
    match by ``hash16``: a chunk id then resolves through its chunk (a random
    UUID that pins one version), and a span id of a document erased whole
    resolves to that document's erased text.
    """
    version = store.version(tenant, ref.document_id, ref.hash16)
    chunks = store.chunks(tenant, ref.document_id, version.content_hash) if version else []
    if isinstance(ref, ids.ChunkRef):
        if any(c.chunk_id == ref.chunk_id for c in chunks):
            return (version, chunks) if version else None
        chunk = store.chunk(tenant, ref.chunk_id)
        if chunk is None or chunk.document_id != ref.document_id:
            return None
        if chunk.hash16 != ref.hash16 and not chunk.erased:
            return None
        own = [
            v
            for v in store.versions(tenant, ref.document_id)
            if v.content_hash == chunk.content_hash
        ]
        if not own:
            return None
        return own[0], store.chunks(tenant, ref.document_id, own[0].content_hash)
    if version is not None:
        return version, chunks
    whole = [
        v for v in store.versions(tenant, ref.document_id) if wholly_erased(v.text, v.erased_ranges)
    ]
    if not whole:
        return None
    return whole[-1], store.chunks(tenant, ref.document_id, whole[-1].content_hash)


def _touches_erased(version: Version, chunks: list[Chunk], start: int, end: int) -> bool:
    if any(s < end and start < e for s, e in version.erased_ranges):
        return True
    return any(c.erased and c.start < end and start < c.end for c in chunks)


def _covered(chunks: list[Chunk], start: int, end: int, text: str) -> tuple[int, int] | None:
    """The longest part of ``[start, end)`` that the version's chunks cover contiguously.

    Chunks end at a paragraph and the next begins after the blank line, so a
    gap of whitespace alone between two chunks holds nothing to lose: a span
    across it (a re-anchored quote running into the next paragraph) is whole.
    """
    intervals = sorted(
        (max(c.start, start), min(c.end, end)) for c in chunks if c.start < end and start < c.end
    )
    merged: list[list[int]] = []
    for s, e in intervals:
        if merged and (s <= merged[-1][1] or not text[merged[-1][1] : s].strip()):
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    if not merged:
        return None
    best = max(merged, key=lambda iv: iv[1] - iv[0])
    return best[0], best[1]
