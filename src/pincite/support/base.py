"""The seam every claim-support checker implements, and the values it returns.

A checker answers one question: do these cited passages back this claim? It
returns a ``SupportVerdict``, a score in [0, 1], and the sentences that carry the
claim as ``ev1:s:`` span ids inside the cited version, so a citation can be
narrowed to exactly those characters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from pincite.errors import EvidenceIdError, InputError
from pincite.ids import ChunkRef, SpanRef, decode, encode_span

__all__ = [
    "PassageSupport",
    "SupportChecker",
    "SupportPassage",
    "SupportResult",
    "SupportVerdict",
    "Thresholds",
]


class SupportVerdict(StrEnum):
    """How far the cited passages back a claim."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"


@dataclass(frozen=True, slots=True)
class SupportPassage:
    """The text of one cited passage and where it sits in its version's canonical text.

    ``evidence_id`` is the passage's chunk (``ev1:c:``) or span (``ev1:s:``) id;
    ``start`` is the code-point offset of ``text`` in the version. For a span
    id the two must agree: ``start`` is the span's start and ``text`` its length.
    Raises ``EvidenceIdError`` for a malformed id and ``InputError`` for an
    offset that disagrees with it.
    """

    evidence_id: str
    text: str
    start: int = 0

    def __post_init__(self) -> None:
        ref = decode(self.evidence_id)
        if isinstance(self.start, bool) or not isinstance(self.start, int) or self.start < 0:
            raise InputError(f"passage start must be a non-negative int, got {self.start!r}")
        if isinstance(ref, SpanRef) and (
            ref.start != self.start or ref.end - ref.start != len(self.text)
        ):
            raise InputError(
                f"passage text of length {len(self.text)} at {self.start} does not match "
                f"its span id {self.evidence_id}"
            )

    def span_id(self, start: int, end: int) -> str:
        """The ``ev1:s:`` id of ``text[start:end]``, in absolute offsets of the version.

        Raises ``EvidenceIdError`` unless ``0 <= start < end <= len(text)``.
        """
        if not 0 <= start < end <= len(self.text):
            raise EvidenceIdError(
                f"{start}-{end}", f"not a non-empty range of a passage of length {len(self.text)}"
            )
        ref = decode(self.evidence_id)
        assert isinstance(ref, ChunkRef | SpanRef)
        return encode_span(ref.document_id, ref.hash16, self.start + start, self.start + end)


@dataclass(frozen=True, slots=True)
class PassageSupport:
    """The verdict for one cited passage judged alone."""

    evidence_id: str
    verdict: SupportVerdict
    score: float
    sentence_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SupportResult:
    """A checker's answer for one claim against all of its cited passages together.

    ``sentence_ids`` are the sentences that best carry the claim, in passage
    order; when the verdict is ``UNSUPPORTED`` they are the closest sentences
    found, not support. ``per_passage`` holds each passage judged alone (a
    checker that cannot judge passages separately leaves it empty).
    ``reasons`` are short human-readable notes (never document text beyond
    the claim's own words).
    """

    verdict: SupportVerdict
    score: float
    sentence_ids: tuple[str, ...] = ()
    per_passage: tuple[PassageSupport, ...] = ()
    reasons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.verdict, SupportVerdict):
            raise InputError(f"verdict must be a SupportVerdict, got {self.verdict!r}")
        if math.isnan(self.score) or not 0.0 <= self.score <= 1.0:
            raise InputError(f"support score must be in [0, 1], got {self.score!r}")


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Score cut-offs: ``supported`` from ``supported`` up, ``partial`` from ``partial`` up."""

    partial: float
    supported: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.partial <= self.supported <= 1.0:
            raise InputError(
                f"thresholds need 0 <= partial <= supported <= 1, got "
                f"partial={self.partial}, supported={self.supported}"
            )

    def verdict(self, score: float) -> SupportVerdict:
        if score >= self.supported:
            return SupportVerdict.SUPPORTED
        if score >= self.partial:
            return SupportVerdict.PARTIAL
        return SupportVerdict.UNSUPPORTED


@runtime_checkable
class SupportChecker(Protocol):
    """Judges whether cited passages support a claim.

    ``check`` never raises because a passage fails to support the claim: that
    is an ``UNSUPPORTED`` verdict (and no passages at all is one too, fail
    closed). It raises ``ConfigurationError`` when a backend cannot be loaded
    and ``GeneratorError`` when a model-backed checker's endpoint fails or
    answers outside the expected structure.
    """

    def check(self, claim: str, passages: Sequence[SupportPassage]) -> SupportResult: ...
