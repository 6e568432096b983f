"""Answers that outlive their documents: stored turns and memories whose citations went stale.

A citation is stale when the version it pins is no longer the document's
current text: ``superseded`` (a newer version exists), ``deleted``, ``erased``
(in whole or in part) or ``missing`` (purged). A superseded citation is
re-anchored into the current version (``pincite.ground.reanchor``): where its
text sits now, with a new evidence id, or ``removed``. The old id keeps
resolving to the text it was built on (invariant 2); nothing here rewrites
a stored answer.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pincite import ids
from pincite.conversation import list_conversations
from pincite.errors import TenantCrossingError
from pincite.ground.fetch import FetchOutcome, FetchStatus
from pincite.ground.reanchor import Anchor, Reanchored, Reanchorer
from pincite.ground.resolve import MemoryRecord
from pincite.store.conversations import MemoryEntry
from pincite.tenancy import DEFAULT_TENANT, check_tenant

if TYPE_CHECKING:
    from pincite.corpus import Corpus

__all__ = ["StaleAnswer", "StaleCitation", "find_stale", "remember"]

_STATES = {
    FetchStatus.ERASED: "erased",
    FetchStatus.PARTIAL: "erased",
    FetchStatus.DELETED: "deleted",
    FetchStatus.NOT_FOUND: "missing",
    FetchStatus.MALFORMED: "missing",
}


@dataclass(frozen=True, slots=True)
class StaleCitation:
    """One cited id whose version is no longer current, and where its text went."""

    evidence_id: str
    state: str
    document_id: str | None = None
    title: str | None = None
    current_hash16: str | None = None
    anchor: Reanchored | None = None
    current_evidence_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        a = self.anchor
        return {
            "evidence_id": self.evidence_id,
            "state": self.state,
            "document_id": self.document_id,
            "title": self.title,
            "current_hash16": self.current_hash16,
            "reanchor": a.status.value if a else None,
            "similarity": a.similarity if a else None,
            "whitespace_only": a.whitespace_only if a else None,
            "diff": a.diff if a else "",
            "current_evidence_id": self.current_evidence_id,
        }


@dataclass(frozen=True, slots=True)
class StaleAnswer:
    """A stored turn (``conversation_id``, ``seq``) or memory (``memory_id``) gone stale."""

    kind: str
    text: str
    citations: tuple[StaleCitation, ...]
    conversation_id: str | None = None
    seq: int | None = None
    memory_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "conversation_id": self.conversation_id,
            "seq": self.seq,
            "memory_id": self.memory_id,
            "text": self.text,
            "citations": [c.as_dict() for c in self.citations],
        }


def remember(
    corpus: Corpus,
    record: MemoryRecord,
    *,
    tenant: str = DEFAULT_TENANT,
    memory_id: str | None = None,
) -> str:
    """Store an agent's memory with the evidence ids it rests on; returns its id.

    Raises ``TenantCrossingError`` when a citation belongs to another workspace.
    """
    check_tenant(tenant)
    foreign = [c.evidence_id for c in record.citations if c.tenant != tenant]
    if foreign:
        raise TenantCrossingError(tenant, foreign)
    key = memory_id or str(uuid.uuid4())
    now = datetime.now(UTC).isoformat()
    corpus.store.put_memory(MemoryEntry(tenant, key, record.text, tuple(record.provenance()), now))
    return key


def find_stale(corpus: Corpus, *, tenant: str = DEFAULT_TENANT) -> list[StaleAnswer]:
    """Every stored turn and memory of ``tenant`` citing a version that is no longer current.

    Turns come first (most recently updated conversation first, turns in
    order), then memories (oldest first).
    """
    check_tenant(tenant)
    store = corpus.store
    items: list[tuple[StaleAnswer, tuple[str, ...]]] = []
    for conversation in list_conversations(corpus, tenant=tenant):
        for turn in conversation.turns():
            base = StaleAnswer("turn", turn.question, (), conversation.id, turn.seq)
            items.append((base, turn.evidence_ids))
    for m in store.memories(tenant):
        items.append((StaleAnswer("memory", m.text, (), memory_id=m.memory_id), m.evidence_ids))
    wanted = list(dict.fromkeys(i for _, cited in items for i in cited))
    judged = _Judge(corpus, tenant)
    stale = {o.id: s for o in corpus.fetch(wanted, tenant=tenant) if (s := judged(o)) is not None}
    found = []
    for base, cited in items:
        hits = tuple(stale[i] for i in cited if i in stale)
        if hits:
            found.append(
                StaleAnswer(
                    base.kind, base.text, hits, base.conversation_id, base.seq, base.memory_id
                )
            )
    return found


class _Judge:
    """Turns a fetch outcome into a stale citation (``None`` when it is current)."""

    def __init__(self, corpus: Corpus, tenant: str) -> None:
        self.store = corpus.store
        self.tenant = tenant
        self._anchors: dict[tuple[str, str], Reanchorer | None] = {}

    def __call__(self, o: FetchOutcome) -> StaleCitation | None:
        if o.status in _STATES:
            return StaleCitation(o.id, _STATES[o.status], o.document_id, o.title)
        if not o.superseded or o.document_id is None or o.current_hash16 is None:
            return None
        anchor = None
        current_id = None
        anchorer = self._anchorer(o.document_id, o.current_hash16)
        old = self.store.version(self.tenant, o.document_id, o.hash16 or "")
        if anchorer is not None and old is not None and o.start is not None:
            anchor = anchorer.find(o.text, position=o.start / max(len(old.text), 1))
            if anchor.span is not None:
                current_id = ids.encode_span(o.document_id, o.current_hash16, *anchor.span)
        return StaleCitation(
            o.id, "superseded", o.document_id, o.title, o.current_hash16, anchor, current_id
        )

    def _anchorer(self, document_id: str, hash16: str) -> Reanchorer | None:
        key = (document_id, hash16)
        if key not in self._anchors:
            version = self.store.version(self.tenant, document_id, hash16)
            self._anchors[key] = Reanchorer(version.text) if version is not None else None
        return self._anchors[key]


def anchor_counts(found: list[StaleAnswer]) -> dict[str, int]:
    """How the distinct superseded citations re-anchored: unchanged / changed / removed."""
    seen: dict[str, StaleCitation] = {}
    for item in found:
        for c in item.citations:
            seen.setdefault(c.evidence_id, c)
    counts = {a.value: 0 for a in Anchor}
    for c in seen.values():
        if c.anchor is not None:
            counts[c.anchor.status.value] += 1
    return counts
