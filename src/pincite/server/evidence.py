"""Evidence as the viewer and ``resolve`` see it: the cited version, and its current counterpart.

A superseded citation still shows the text of its own version. Its counterpart
in the current version is found by the same characters (the occurrence nearest
the old position), then as re-anchored (``pincite.ground.reanchor``: spacing
aside, or aligned despite edited words) or, failing that, by the chunk with the
same ordinal; the diff between the two passages shows what changed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from enum import StrEnum

from pincite import ids
from pincite.ground.fetch import FetchOutcome, FetchStatus, fetch_evidence
from pincite.ground.reanchor import Reanchorer
from pincite.model import Chunk, Version
from pincite.store.base import Store

READABLE = frozenset({FetchStatus.OK, FetchStatus.PARTIAL, FetchStatus.TRUNCATED})
_MAX_OCCURRENCES = 200
_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")


@dataclass(frozen=True, slots=True)
class Counterpart:
    """Where the cited passage lives in the current version."""

    evidence_id: str
    hash16: str
    text: str
    how: str  # "same text" or "same chunk position"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One evidence id resolved in one workspace, with what the viewer needs."""

    outcome: FetchOutcome
    version: Version | None
    counterpart: Counterpart | None

    @property
    def readable(self) -> bool:
        return self.outcome.status in READABLE and self.version is not None

    @property
    def cited(self) -> str:
        """Exactly the cited characters of the cited version ('' when not readable)."""
        o = self.outcome
        if not self.readable or o.start is None or o.end is None:
            return ""
        assert self.version is not None
        return self.version.text[o.start : o.end]


def load(store: Store, tenant: str, evidence_id: str) -> Evidence | None:
    """Resolve ``evidence_id`` in ``tenant``; ``None`` when missing, foreign or malformed."""
    [outcome] = fetch_evidence(store, [evidence_id], tenant=tenant)
    if outcome.status in (FetchStatus.NOT_FOUND, FetchStatus.MALFORMED):
        return None
    assert outcome.document_id is not None and outcome.hash16 is not None
    version = store.version(tenant, outcome.document_id, outcome.hash16)
    evidence = Evidence(outcome, version, None)
    if outcome.superseded and evidence.readable:
        evidence = Evidence(outcome, version, _counterpart(store, tenant, evidence))
    return evidence


def _counterpart(store: Store, tenant: str, evidence: Evidence) -> Counterpart | None:
    o = evidence.outcome
    assert o.document_id is not None and o.start is not None and evidence.version is not None
    current_hash = store.current_hash(tenant, o.document_id)
    if current_hash is None:
        return None
    current = store.version(tenant, o.document_id, current_hash[:16])
    if current is None or current.content_hash == evidence.version.content_hash:
        return None
    cited = evidence.cited
    at = _nearest_occurrence(current.text, cited, o.start)
    if at is not None:
        span_id = ids.encode_span(o.document_id, current.hash16, at, at + len(cited))
        return Counterpart(span_id, current.hash16, cited, "same text")
    # Moved line breaks or a few edited words: the re-anchored span (pincite.ground.reanchor).
    found = Reanchorer(current.text).find(
        cited, position=o.start / max(len(evidence.version.text), 1)
    )
    if found.span is not None:
        start, end = found.span
        how = (
            "the same words, spacing aside"
            if found.whitespace_only
            else f"alignment (similarity {found.similarity:.2f})"
        )
        span_id = ids.encode_span(o.document_id, current.hash16, start, end)
        return Counterpart(span_id, current.hash16, current.text[start:end], how)
    old_chunks = store.chunks(tenant, o.document_id, evidence.version.content_hash)
    ordinal = _ordinal_at(old_chunks, o.start, o.id)
    if ordinal is None:
        return None
    new_chunks = store.chunks(tenant, o.document_id, current.content_hash)
    match = next((c for c in new_chunks if c.ordinal == ordinal and not c.erased), None)
    if match is None:
        return None
    return Counterpart(match.evidence_id, current.hash16, match.text, "same chunk position")


def _nearest_occurrence(text: str, needle: str, near: int) -> int | None:
    if not needle:
        return None
    found: list[int] = []
    at = text.find(needle)
    while at != -1 and len(found) < _MAX_OCCURRENCES:
        found.append(at)
        at = text.find(needle, at + 1)
    return min(found, key=lambda p: abs(p - near)) if found else None


def _ordinal_at(chunks: list[Chunk], start: int, evidence_id: str) -> int | None:
    ref = ids.decode(evidence_id)
    if isinstance(ref, ids.ChunkRef):
        return next((c.ordinal for c in chunks if c.chunk_id == ref.chunk_id), None)
    return next((c.ordinal for c in chunks if c.start <= start < c.end), None)


class Change(StrEnum):
    SAME = "same"
    REMOVED = "removed"
    ADDED = "added"


def word_diff(old: str, new: str) -> list[tuple[Change, str]]:
    """``old`` → ``new`` as runs of kept, removed and added text (words and spaces)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    runs: list[tuple[Change, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            runs.append((Change.SAME, "".join(a[i1:i2])))
            continue
        if i2 > i1:
            runs.append((Change.REMOVED, "".join(a[i1:i2])))
        if j2 > j1:
            runs.append((Change.ADDED, "".join(b[j1:j2])))
    return runs
