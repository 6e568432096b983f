"""The evidence id codec: the only place that spells or reads evidence ids.

Two shapes, both pinned to one document version by the first 16 hex digits of
the sha256 of its canonical text:

- chunk: ``ev1:c:<document uuid>:<hash16>:<chunk uuid>``
- span:  ``ev1:s:<document uuid>:<hash16>:<start>-<end>`` (code points, end exclusive)

Exactly one spelling is accepted for each id. Anything else (upper case hex,
UUIDs without hyphens, leading zeros, signs, whitespace, empty spans) is
rejected, so an id can be compared as a string and never aliases another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pincite.errors import EvidenceIdError

PREFIX = "ev1"
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_HASH16 = r"[0-9a-f]{16}"
_OFFSET = r"(?:0|[1-9][0-9]{0,17})"
_UUID_RE = re.compile(rf"\A{_UUID}\Z")
_HASH16_RE = re.compile(rf"\A{_HASH16}\Z")
_CHUNK_RE = re.compile(rf"\Aev1:c:(?P<doc>{_UUID}):(?P<h>{_HASH16}):(?P<chunk>{_UUID})\Z")
_SPAN_RE = re.compile(
    rf"\Aev1:s:(?P<doc>{_UUID}):(?P<h>{_HASH16}):(?P<start>{_OFFSET})-(?P<end>{_OFFSET})\Z"
)


@dataclass(frozen=True, slots=True)
class ChunkRef:
    """A whole stored chunk of one document version."""

    document_id: str
    hash16: str
    chunk_id: str

    def encode(self) -> str:
        return encode_chunk(self.document_id, self.hash16, self.chunk_id)


@dataclass(frozen=True, slots=True)
class SpanRef:
    """A code-point range ``[start, end)`` of one document version's canonical text."""

    document_id: str
    hash16: str
    start: int
    end: int

    def encode(self) -> str:
        return encode_span(self.document_id, self.hash16, self.start, self.end)


EvidenceRef = ChunkRef | SpanRef


def is_uuid(value: str) -> bool:
    """True for a lowercase hyphenated UUID, the only spelling pincite stores."""
    return bool(_UUID_RE.match(value))


def _check_common(document_id: str, hash16: str) -> None:
    if not is_uuid(document_id):
        raise EvidenceIdError(document_id, "document id must be a lowercase hyphenated UUID")
    if not _HASH16_RE.match(hash16):
        raise EvidenceIdError(hash16, "version must be 16 lowercase hex digits")


def encode_chunk(document_id: str, hash16: str, chunk_id: str) -> str:
    """Spell a chunk id; raises ``EvidenceIdError`` on a non-canonical part."""
    _check_common(document_id, hash16)
    if not is_uuid(chunk_id):
        raise EvidenceIdError(chunk_id, "chunk id must be a lowercase hyphenated UUID")
    return f"{PREFIX}:c:{document_id}:{hash16}:{chunk_id}"


def encode_span(document_id: str, hash16: str, start: int, end: int) -> str:
    """Spell a span id; raises ``EvidenceIdError`` unless ``0 <= start < end``."""
    _check_common(document_id, hash16)
    if isinstance(start, bool) or isinstance(end, bool) or not (0 <= start < end):
        raise EvidenceIdError(f"{start}-{end}", "span needs 0 <= start < end")
    return f"{PREFIX}:s:{document_id}:{hash16}:{start}-{end}"


def decode(value: str) -> EvidenceRef:
    """Read a canonical evidence id; raise ``EvidenceIdError`` for any other spelling."""
    if not isinstance(value, str):
        raise EvidenceIdError(repr(value), "not a string")
    match = _CHUNK_RE.match(value)
    if match:
        return ChunkRef(match["doc"], match["h"], match["chunk"])
    match = _SPAN_RE.match(value)
    if match:
        start, end = int(match["start"]), int(match["end"])
        if start >= end:
            raise EvidenceIdError(value, "span needs start < end")
        return SpanRef(match["doc"], match["h"], start, end)
    raise EvidenceIdError(value, _diagnose(value))


def _diagnose(value: str) -> str:
    if not value.startswith(f"{PREFIX}:"):
        return f"must start with '{PREFIX}:'"
    if value != value.strip() or any(c.isspace() for c in value):
        return "contains whitespace"
    kind = value[4:6]
    if kind not in ("c:", "s:"):
        return "kind must be 'c' (chunk) or 's' (span)"
    return "not in canonical form (lowercase UUIDs, 16 hex digits, offsets without leading zeros)"


def is_canonical(value: str) -> bool:
    try:
        decode(value)
    except EvidenceIdError:
        return False
    return True
